//! The candidates of a graph given by its edge lines: vertices removed and edges contracted,
//! with the vertex count lowered and every label above a removed vertex moved down, so that
//! labels stay within the count. What a candidate keeps is what the case had: a tree stays a
//! tree (a leaf removed, or an edge contracted, takes one vertex and one edge), a graph
//! without self-loops or double edges gets none, a connected graph stays connected. An edge
//! is dropped alone only from a graph that counts its edges (`n m`), never from a tree.
//!
//! None of this needs a validator: without one, a tree found by the generator shrinks to a
//! smaller tree, not to self-loops and double edges.

use std::ops::Range;

use super::layout::{Graph, Parts, Section};
use super::{Edit, Put, TextCase, Token};
use crate::stress::minimize::Candidates;

/// A graph of the case, read into vertices `0..n` and its edges.
struct Shape {
    graph: Graph,
    /// Each edge line's two vertices, from 0.
    pairs: Vec<(usize, usize)>,
    /// The vertices of degree at most 1.
    leaves: Vec<usize>,
    /// No self-loop and no double edge.
    simple: bool,
    connected: bool,
}

/// What the operations of one group act on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Leaves,
    Edges,
    Contract,
}

/// Operations of one kind, by index.
enum Group {
    /// Every leaf at once.
    AllLeaves,
    /// The chunks of `size` of `len` leaves or edges.
    Chunks {
        kind: Kind,
        len: usize,
        size: usize,
    },
    Singles(Kind),
}

/// The chunk sizes of `len` items and how many chunks of each, largest first: halves,
/// quarters, … down to pairs, as [`crate::problem::shrink::ChunkLevels`] cuts them.
fn chunk_levels(len: usize) -> impl Iterator<Item = (usize, usize)> {
    let mut parts = 2usize;
    std::iter::from_fn(move || {
        if parts > len {
            return None;
        }
        let size = len.div_ceil(parts);
        parts = parts.saturating_mul(2);
        (size >= 2).then(|| (size, len.div_ceil(size)))
    })
}

/// What one candidate does to a graph, by ranges of its leaves or edges.
#[derive(Clone, Debug)]
enum Op {
    /// These leaves removed (with their edges).
    Leaves(Range<usize>),
    /// These edges dropped, the vertices kept (a graph with an edge count only).
    Edges(Range<usize>),
    /// These edges contracted: each one's two ends made one vertex.
    Contract(Range<usize>),
}

impl Shape {
    fn of(case: &TextCase, graph: &Graph) -> Option<Shape> {
        let n = graph.n;
        let mut pairs = Vec::with_capacity(graph.edges.len());
        for l in graph.edges.clone() {
            let at = case.line(l).start;
            let label = |t: usize| {
                let v = case.integer(t)? - graph.base;
                (0..n as i64).contains(&v).then_some(v as usize)
            };
            pairs.push((label(at)?, label(at + 1)?));
        }
        let mut degree = vec![0usize; n];
        for &(u, v) in &pairs {
            degree[u] += 1;
            degree[v] += 1;
        }
        let leaves = (0..n).filter(|&v| degree[v] <= 1).collect();
        let mut seen: Vec<(usize, usize)> =
            pairs.iter().map(|&(u, v)| (u.min(v), u.max(v))).collect();
        seen.sort_unstable();
        let simple = pairs.iter().all(|&(u, v)| u != v) && seen.windows(2).all(|w| w[0] != w[1]);
        let connected = connected(n, &pairs);
        Some(Shape {
            graph: graph.clone(),
            pairs,
            leaves,
            simple,
            connected,
        })
    }

    /// The operations offered, most drastic first: every leaf at once and chunks of the
    /// leaves, of the edges dropped (a graph with an edge count) and of the edges contracted,
    /// the largest first whatever their kind (halves, quarters, … down to pairs: a
    /// path of 2·10^5 vertices loses half its edges in one step, not one leaf a step), then
    /// single leaves, edges dropped and contracted. As groups of ranges, each made only when
    /// asked for ([`Shape::op`]): a tree of 2·10^5 vertices offers about 10^6 of them.
    fn groups(&self) -> Vec<(usize, Group)> {
        let (leaves, edges) = (self.leaves.len(), self.pairs.len());
        let kinds: Vec<(Kind, usize)> = [
            (Kind::Leaves, leaves),
            (Kind::Edges, edges),
            (Kind::Contract, edges),
        ]
        .into_iter()
        .filter(|&(kind, _)| kind != Kind::Edges || self.graph.edge_count.is_some())
        .collect();
        // Every leaf at once ranks by how many leaves there are: a path has two, and the
        // minimizer, which starts over from the first candidate after each success, would
        // otherwise take two vertices a step from a path of 2·10^5.
        let mut groups = vec![(usize::from(leaves >= 2), Group::AllLeaves)];
        groups.extend(kinds.iter().flat_map(|&(kind, len)| {
            chunk_levels(len).map(move |(size, count)| (count, Group::Chunks { kind, len, size }))
        }));
        // Stable: every leaf at once stays before chunks of as many.
        groups.sort_by_key(|(_, group)| match group {
            Group::AllLeaves => std::cmp::Reverse(leaves),
            Group::Chunks { size, .. } => std::cmp::Reverse(*size),
            Group::Singles(_) => std::cmp::Reverse(0),
        });
        groups.extend(kinds.iter().map(|&(kind, len)| (len, Group::Singles(kind))));
        groups
    }

    /// The `index`-th operation of `groups`.
    fn op(groups: &[(usize, Group)], mut index: usize) -> Option<Op> {
        for (len, group) in groups {
            if index >= *len {
                index -= len;
                continue;
            }
            let (range, kind) = match *group {
                Group::AllLeaves => return Some(Op::Leaves(0..usize::MAX)),
                Group::Chunks { kind, len, size } => {
                    (index * size..((index + 1) * size).min(len), kind)
                }
                Group::Singles(kind) => (index..index + 1, kind),
            };
            return Some(match kind {
                Kind::Leaves => Op::Leaves(range),
                Kind::Edges => Op::Edges(range),
                Kind::Contract => Op::Contract(range),
            });
        }
        None
    }

    /// The case with `op` done, if it keeps what the graph had (at least one vertex, no
    /// self-loop or double edge when it had none, connected when it was).
    fn apply(&self, case: &TextCase, op: &Op) -> Option<TextCase> {
        let n = self.graph.n;
        let mut cut = self.cut(op);
        let gone: Vec<bool> = (0..n)
            .map(|v| cut.removed[v] || cut.merged.find(v) != v)
            .collect();
        let kept = gone.iter().filter(|&&g| !g).count();
        if kept == 0 || kept == n && !matches!(op, Op::Edges(_)) {
            return None;
        }
        let (mut edit, pairs) = self.relabelled(case, &mut cut, &gone);
        if self.simple && !simple(&pairs) || self.connected && !connected(kept, &pairs) {
            return None;
        }
        if self.graph.edge_count.is_none() && pairs.len() + 1 != kept {
            return None;
        }
        let count = |t: usize, value: usize| (t, Put::Token(Token::Int(value as i64)));
        edit.set.push(count(self.graph.vertices, kept));
        if let Some(m) = self.graph.edge_count {
            edit.set.push(count(m, pairs.len()));
        }
        for section in &self.graph.per_vertex {
            drop_items(case, section, &gone, &mut edit);
        }
        edit.sort();
        let candidate = case.edited(&edit);
        (pairs.is_empty() || self.read_alike(&candidate, kept)).then_some(candidate)
    }

    /// Whether `candidate` still reads as this graph, of `kept` vertices and its edges
    /// counted as they were: a candidate whose counts read otherwise (an edge count left
    /// counting edges that went) is an input the layout calls inconsistent, not run.
    fn read_alike(&self, candidate: &TextCase, kept: usize) -> bool {
        let counted = self.graph.edge_count.is_some();
        candidate
            .layout()
            .graphs
            .iter()
            .any(|g| g.n == kept && g.edge_count.is_some() == counted)
    }

    /// What `op` takes away: the vertices removed, the edges dropped, and the parts of the
    /// vertices merged by contraction (each named by its least vertex).
    fn cut(&self, op: &Op) -> Cut {
        let mut cut = Cut {
            removed: vec![false; self.graph.n],
            dropped: vec![false; self.pairs.len()],
            merged: Parts::new(self.graph.n),
        };
        match op {
            Op::Leaves(range) => {
                let range = range.start..range.end.min(self.leaves.len());
                for &v in &self.leaves[range] {
                    cut.removed[v] = true;
                }
            }
            Op::Edges(range) => cut.dropped[range.clone()].fill(true),
            Op::Contract(range) => {
                for e in range.clone() {
                    let (u, v) = self.pairs[e];
                    cut.merged.join(u, v);
                    cut.dropped[e] = true;
                }
            }
        }
        cut
    }

    /// The edge lines after `cut`: those it takes dropped, the others' labels renumbered
    /// (each kept vertex numbered by how many kept vertices come before it; only the labels
    /// that change are rewritten); and the new edges, from 0.
    fn relabelled(
        &self,
        case: &TextCase,
        cut: &mut Cut,
        gone: &[bool],
    ) -> (Edit, Vec<(usize, usize)>) {
        let mut number = vec![0usize; gone.len()];
        let mut next = 0;
        for (v, &gone) in gone.iter().enumerate() {
            number[v] = next;
            next += usize::from(!gone);
        }
        let mut pairs = Vec::with_capacity(self.pairs.len());
        let mut edit = Edit::default();
        for (e, &(u, v)) in self.pairs.iter().enumerate() {
            let line = self.graph.edges.start + e;
            if cut.dropped[e] || cut.removed[u] || cut.removed[v] {
                edit.lines.push(line..line + 1);
                continue;
            }
            let (a, b) = (number[cut.merged.find(u)], number[cut.merged.find(v)]);
            pairs.push((a, b));
            let at = case.line(line).start;
            for (t, old, new) in [(at, u, a), (at + 1, v, b)] {
                if old != new {
                    let label = Token::Int(new as i64 + self.graph.base);
                    edit.set.push((t, Put::Token(label)));
                }
            }
        }
        (edit, pairs)
    }
}

/// What one operation takes from a graph.
struct Cut {
    removed: Vec<bool>,
    dropped: Vec<bool>,
    merged: Parts,
}

/// The items of `section` whose vertex is `gone`, dropped.
fn drop_items(case: &TextCase, section: &Section, gone: &[bool], edit: &mut Edit) {
    let gone_items = gone.iter().enumerate().filter(|&(_, &g)| g).map(|(v, _)| v);
    match section {
        &Section::Tokens { from, .. } => edit
            .tokens
            .extend(gone_items.map(|v| from + v..from + v + 1)),
        &Section::Lines { from, .. } => edit
            .lines
            .extend(gone_items.map(|v| from + v..from + v + 1)),
        Section::Chars { words } => {
            for &w in words {
                let text = case.token_text(w);
                let kept: Vec<u8> = text
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| !gone.get(i).copied().unwrap_or(false))
                    .map(|(_, &b)| b)
                    .collect();
                edit.set.push((w, Put::Word(kept)));
            }
        }
        Section::Blocks(_) => {}
    }
}

/// No self-loop and no edge twice (either way round).
fn simple(pairs: &[(usize, usize)]) -> bool {
    let mut seen: Vec<(usize, usize)> = pairs.iter().map(|&(u, v)| (u.min(v), u.max(v))).collect();
    seen.sort_unstable();
    pairs.iter().all(|&(u, v)| u != v) && seen.windows(2).all(|w| w[0] != w[1])
}

/// Whether the `n` vertices are one part under `pairs`.
fn connected(n: usize, pairs: &[(usize, usize)]) -> bool {
    let mut parts = Parts::new(n);
    let mut joined = 0;
    for &(u, v) in pairs {
        joined += usize::from(parts.join(u, v));
    }
    n == 0 || joined + 1 == n
}

impl TextCase {
    /// The candidates of every graph of the case, the largest graph first.
    pub(super) fn graph_candidates(&self) -> Candidates<'_, TextCase> {
        let mut shapes: Vec<Shape> = self
            .layout()
            .graphs
            .iter()
            .filter_map(|g| Shape::of(self, g))
            .collect();
        shapes.sort_by_key(|s| std::cmp::Reverse(s.graph.n));
        let groups: Vec<Vec<(usize, Group)>> = shapes.iter().map(Shape::groups).collect();
        let lens: Vec<usize> = groups
            .iter()
            .map(|g| g.iter().map(|(len, _)| len).sum())
            .collect();
        Candidates::lazy(lens.iter().sum(), move |mut index| {
            for (shape, (groups, &len)) in shapes.iter().zip(groups.iter().zip(&lens)) {
                if index < len {
                    return shape.apply(self, &Shape::op(groups, index)?);
                }
                index -= len;
            }
            None
        })
    }

    /// The lines of the case's graphs' edges, sorted.
    pub(super) fn edge_lines(&self) -> Vec<usize> {
        let mut lines: Vec<usize> = self
            .layout()
            .graphs
            .iter()
            .flat_map(|g| g.edges.clone())
            .collect();
        lines.sort_unstable();
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::shrink::ChunkLevels;

    #[test]
    fn chunk_levels_cut_as_the_minimizer_does() {
        for len in 0..300 {
            let levels = ChunkLevels::new(len);
            let ours: Vec<Range<usize>> = chunk_levels(len)
                .flat_map(|(size, count)| {
                    (0..count).map(move |i| i * size..((i + 1) * size).min(len))
                })
                .collect();
            let theirs: Vec<Range<usize>> = (0..levels.count()).map(|i| levels.chunk(i)).collect();
            assert_eq!(ours, theirs, "{len}");
        }
    }

    #[test]
    fn a_path_loses_half_its_edges_before_any_single_leaf() {
        let n = 64;
        let mut text = format!("{n}\n");
        for v in 1..n {
            text.push_str(&format!("{v} {}\n", v + 1));
        }
        let case = TextCase::new(text.as_bytes());
        let first = case.graph_candidates().get(0).unwrap();
        // The leaves are the two ends: half the edges contracted comes before them.
        assert_eq!(first.layout().graphs[0].n, n - 32);
    }
}
