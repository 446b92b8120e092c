//! How a text case is laid out: which integers count what follows them, and what they count.
//!
//! A text is read as units, each a header line and the sections its counts govern. A count
//! may stand anywhere on its line (`n s`, `n k`, `n m q`): the counts of a header take the
//! lines after it in their order, each what it counts: a line of that many tokens, that many
//! lines (or one fewer: a tree's edges), a string of that many characters, and a count alone
//! on its line may govern several such sections in turn (`n`, then n values, then n − 1
//! edges). A count followed by exactly that many tokens on its own line counts them. A first
//! line holding only a count T, with the units after it falling into T groups alike, counts
//! test cases. Then the graphs: edge lines whose first two numbers are vertex labels within
//! a count of the same header (or within the count of one more vertex than edges).
//!
//! Nothing here is known, only read: a validator, or the generator's envelope, says which
//! candidates made from it are valid.

use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::Range;

use super::TextCase;

/// What a count governs: one of its sections, each of a number of items.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Section {
    /// `len` tokens of one line, from token `from` on.
    Tokens { from: usize, len: usize },
    /// `len` whole lines, each an item, from line `from` on.
    Lines { from: usize, len: usize },
    /// The characters of these words (one string, or the rows of a grid), each word as long
    /// as the count.
    Chars { words: Vec<usize> },
    /// Blocks of lines (test cases), each an item.
    Blocks(Vec<Range<usize>>),
}

impl Section {
    /// How many items it holds, for a count of `k`.
    pub fn items(&self, k: usize) -> usize {
        match self {
            Section::Tokens { len, .. } | Section::Lines { len, .. } => *len,
            Section::Chars { .. } => k,
            Section::Blocks(blocks) => blocks.len(),
        }
    }
}

/// A count and what it counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct List {
    /// The count's token.
    pub count: usize,
    /// The count's value.
    pub len: usize,
    pub sections: Vec<Section>,
}

impl List {
    /// How many items of it can be dropped with the count lowered as many: every section
    /// holds one item per unit of the count, or the list is one section of one item fewer
    /// (`n`, then n − 1 lines); `None` otherwise.
    pub fn droppable(&self) -> Option<usize> {
        let counts: Vec<usize> = self.sections.iter().map(|s| s.items(self.len)).collect();
        match counts.as_slice() {
            [one] if *one + 1 == self.len => Some(*one),
            all if all.iter().all(|&c| c == self.len) => Some(self.len),
            _ => None,
        }
    }

    /// Whether every section is characters of words: a string's length.
    pub fn is_chars(&self) -> bool {
        self.sections
            .iter()
            .all(|s| matches!(s, Section::Chars { .. }))
    }
}

/// A graph given by its edges: vertex labels in the first two columns of each edge line,
/// all within the vertex count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Graph {
    /// The vertex count's token.
    pub vertices: usize,
    pub n: usize,
    /// The least label: 0 or 1.
    pub base: i64,
    /// The edge lines.
    pub edges: Range<usize>,
    /// The edge count's token, when a count of its own counts the edges (`n m`); `None` for
    /// a tree's n − 1 edges.
    pub edge_count: Option<usize>,
    /// The vertex count's other sections: item v belongs to vertex v (`n`, then n values,
    /// then the edges).
    pub per_vertex: Vec<Section>,
    /// Whether the edge lines are also read as the count's lists of tokens: `3`, then
    /// `1 2 1` and `3 1 1` is two lines of three numbers or a weighted tree of 3, `2` then
    /// `1 2` an array of two or a tree of 2. Both readings are kept: the list still loses
    /// items through its own pass.
    pub also_items: bool,
}

/// The layout read from a text.
#[derive(Clone, Debug, Default)]
pub(super) struct Layout {
    /// The test cases, when the first line counts them.
    pub cases: Option<List>,
    /// The other counted lists, in the order of their counts.
    pub lists: Vec<List>,
    pub graphs: Vec<Graph>,
}

impl Layout {
    /// The count tokens, the cases' included, sorted.
    pub fn counts(&self) -> Vec<usize> {
        let mut counts: Vec<usize> = self
            .cases
            .iter()
            .chain(&self.lists)
            .map(|l| l.count)
            .collect();
        counts.sort_unstable();
        counts.dedup();
        counts
    }

    /// The words of sections of characters (a count's strings, a grid's rows), sorted.
    pub fn chars_words(&self) -> Vec<usize> {
        let mut words: Vec<usize> = self
            .lists
            .iter()
            .flat_map(|l| &l.sections)
            .flat_map(|s| match s {
                Section::Chars { words } => words.clone(),
                _ => Vec::new(),
            })
            .collect();
        words.sort_unstable();
        words.dedup();
        words
    }

    /// Whether the lines `list` counts are also a tree's edges ([`Graph::also_items`]).
    pub fn also_tree(&self, list: &List) -> bool {
        self.graphs
            .iter()
            .any(|g| g.also_items && g.vertices == list.count)
    }

    /// Whether `list` is part of a graph (its vertex count or its edge count), and so changes
    /// only through the graph's own candidates.
    pub fn in_graph(&self, list: &List) -> bool {
        self.graphs.iter().any(|g| {
            !g.also_items && (g.vertices == list.count || g.edge_count == Some(list.count))
        })
    }
}

/// How many sections one count may govern in a row, at most.
const MAX_SECTIONS: usize = 3;

/// How many tokens a header line holds at most: a longer line is values, not counts.
const MAX_HEADER: usize = 6;

/// A header line and the lines its counts govern.
struct Unit {
    head: usize,
    /// The line after its last section.
    end: usize,
    lists: Vec<List>,
}

/// One way to read what a count governs: the section, the line after it, and whether it
/// holds exactly as many items as the count (rather than one fewer, or lines of any shape).
#[derive(Clone, Debug)]
struct Reading {
    section: Section,
    end: usize,
    /// How far it is from exact: 0 when it holds as many items as the count, 1 when one
    /// fewer (a tree's edges), 2 for lines of any shape that end the text.
    doubt: usize,
}

/// Reads units with what it knows of the lines: how many lines from each have its number of
/// tokens, and the readings already made.
struct Reader<'a> {
    case: &'a TextCase,
    /// For each line, how many lines from it on have as many tokens as it.
    runs: Vec<usize>,
    known: RefCell<HashMap<(usize, usize, usize), Vec<Reading>>>,
    /// The counts read from a count token on, by that token, the line and the end.
    #[allow(clippy::type_complexity)]
    counted: RefCell<HashMap<(usize, usize, usize), (Vec<List>, usize, usize)>>,
}

impl TextCase {
    /// The layout of the text ([`Layout`]). With `one_test`, a first line `1` counts one test
    /// case, all the lines after it.
    pub(super) fn read_layout(&self, one_test: bool) -> Layout {
        let reader = Reader::new(self);
        let mut layout = Layout::default();
        let units = match reader.test_cases(one_test) {
            Some((cases, units)) => {
                layout.cases = Some(cases);
                units
            }
            None => reader.units(0, self.line_count()),
        };
        for unit in units {
            layout.lists.extend(unit.lists);
        }
        layout.graphs = layout
            .lists
            .iter()
            .filter_map(|list| reader.graph(list, &layout.lists))
            .collect();
        let trees: Vec<Graph> = layout
            .lists
            .iter()
            .filter(|list| !layout.in_graph(list))
            .filter_map(|list| reader.tree_in_tokens(list))
            .collect();
        layout.graphs.extend(trees);
        layout
    }
}

impl<'a> Reader<'a> {
    fn new(case: &'a TextCase) -> Reader<'a> {
        let lines = case.line_count();
        let mut runs = vec![0; lines];
        for l in (0..lines).rev() {
            let same = l + 1 < lines && case.line_len(l + 1) == case.line_len(l);
            runs[l] = if same { runs[l + 1] + 1 } else { 1 };
        }
        Reader {
            case,
            runs,
            known: RefCell::new(HashMap::new()),
            counted: RefCell::new(HashMap::new()),
        }
    }

    /// Whether the `k` lines from `from` have the same number of tokens, at least one.
    fn alike(&self, from: usize, k: usize) -> bool {
        from < self.runs.len() && self.runs[from] >= k && self.case.line_len(from) > 0
    }

    /// The units of lines `from..to`, one after another.
    fn units(&self, from: usize, to: usize) -> Vec<Unit> {
        let mut units = Vec::new();
        let mut at = from;
        while at < to {
            let unit = self.unit(at, to);
            at = unit.end.max(at + 1);
            units.push(unit);
        }
        units
    }

    /// The unit headed by line `at`, its sections before line `to`.
    fn unit(&self, at: usize, to: usize) -> Unit {
        let case = self.case;
        let line = case.line(at);
        if let Some(list) = self.inline(at) {
            return Unit {
                head: at,
                end: at + 1,
                lists: vec![list],
            };
        }
        // Counts stand in short header lines; a long line is values (or one inline list).
        let counts: Vec<(usize, usize)> = if line.len() <= MAX_HEADER {
            line.clone()
                .filter_map(|t| case.count(t).filter(|&k| k >= 1).map(|k| (t, k)))
                .collect()
        } else {
            Vec::new()
        };
        let (mut lists, cursor) = self.read_counts(&counts, at + 1, to);
        self.grid_columns(&counts, &mut lists);
        let nested = self.nested(&lists);
        lists.extend(nested);
        Unit {
            head: at,
            end: cursor,
            lists,
        }
    }

    /// The sections `counts` govern from line `cursor` on, each count in turn, and the line
    /// after the last. A count may govern several sections in a row, up to where a later count
    /// reads one. Where a count's first reading is weak (one item fewer, or lines of any
    /// shape), its other readings are tried too, and the header without it: the reading that
    /// accounts for more lines is kept (the first of equals). So `n m` then m edges whose
    /// first n − 1 happen to join all n vertices is a graph, not a tree and stray lines.
    fn read_counts(
        &self,
        counts: &[(usize, usize)],
        cursor: usize,
        to: usize,
    ) -> (Vec<List>, usize) {
        let (lists, end, _) = self.read_counts_weak(counts, cursor, to);
        (lists, end)
    }

    /// [`Reader::read_counts`], with the doubt of the sections read (1 for each of one item
    /// fewer than the count, 2 for lines of any shape, 1 for a count governing nothing that
    /// is no row length: [`Reader::unexplained`]): of readings accounting for as many
    /// lines, the one of less doubt is kept, then the one of fewer sections. So `4 4` then four edges, the first
    /// three of which happen to join all four vertices, is four edges counted by both, not a
    /// tree of three edges and a fourth line read as the 4's three tokens.
    fn read_counts_weak(
        &self,
        counts: &[(usize, usize)],
        cursor: usize,
        to: usize,
    ) -> (Vec<List>, usize, usize) {
        let Some((&(count, k), rest)) = counts.split_first() else {
            return (Vec::new(), cursor, 0);
        };
        if let Some(known) = self.counted.borrow().get(&(count, cursor, to)) {
            return known.clone();
        }
        let readings = self.readings(cursor, k, to);
        // Every reading is weighed (only the exact ones when the likeliest is exact), and the
        // count governing nothing: `3 3` then three edges of three tokens (the first edge is
        // no list of the first 3's tokens), `5 6` then six edges (the 5 governs no five).
        let exact_first = readings.first().is_some_and(|r| r.doubt == 0);
        let options = readings
            .iter()
            .filter(|r| !exact_first || r.doubt == 0)
            .map(Some)
            .chain([None]);
        let mut best: Option<(Vec<List>, usize, usize)> = None;
        for option in options {
            let (sections, at, weak_here) = match option {
                Some(first) => self.sections_from(first, k, rest, to),
                None => (Vec::new(), cursor, 0),
            };
            let (mut lists, end, weak) = self.read_counts_weak(rest, at, to);
            let weak = weak + weak_here;
            if !sections.is_empty() {
                lists.insert(
                    0,
                    List {
                        count,
                        len: k,
                        sections,
                    },
                );
            }
            // Then the reading of fewer sections: `3 3` then three lines of three is the
            // first 3's three lines, not its one line and the second's two.
            let sections = |lists: &[List]| lists.iter().map(|l| l.sections.len()).sum::<usize>();
            let doubt = |lists: &[List], weak: usize| weak + self.unexplained(counts, lists);
            let score = (
                end,
                std::cmp::Reverse(doubt(&lists, weak)),
                std::cmp::Reverse(sections(&lists)),
            );
            let better = |(l, e, w): &(Vec<List>, usize, usize)| {
                score
                    > (
                        *e,
                        std::cmp::Reverse(doubt(l, *w)),
                        std::cmp::Reverse(sections(l)),
                    )
            };
            if best.as_ref().is_none_or(better) {
                best = Some((lists, end, weak));
            }
        }
        let best = best.unwrap_or_default();
        self.counted
            .borrow_mut()
            .insert((count, cursor, to), best.clone());
        best
    }

    /// How many of `counts` govern nothing in `lists` and are no row length either: no
    /// list's section of two lines or more has lines of k tokens, or of one word of k
    /// characters (`n m` then n rows of m numbers or m characters). Each weighs as a doubt:
    /// `2 1` then `1 0` and `1 2` is two numbers and one line of two (an array and a query),
    /// not two lines with a 1 that counts nothing; while `2 2` then two lines of two is still
    /// the first 2's rows.
    fn unexplained(&self, counts: &[(usize, usize)], lists: &[List]) -> usize {
        let case = self.case;
        let rows = |k: usize| {
            lists.iter().flat_map(|l| &l.sections).any(|s| match *s {
                Section::Lines { from, len } if len >= 2 => (from..from + len).all(|l| {
                    let line = case.line(l);
                    line.len() == k || line.len() == 1 && case.token_len(line.start) == k
                }),
                _ => false,
            })
        };
        counts
            .iter()
            .filter(|&&(t, k)| !lists.iter().any(|l| l.count == t) && !rows(k))
            .count()
    }

    /// `first` and the further sections a count of `k` governs after it, up to where one of
    /// the `later` counts reads one; the line after them, and how many are weak readings.
    fn sections_from(
        &self,
        first: &Reading,
        k: usize,
        later: &[(usize, usize)],
        to: usize,
    ) -> (Vec<Section>, usize, usize) {
        let mut sections = vec![first.section.clone()];
        let mut at = first.end;
        let mut weak = first.doubt;
        while sections.len() < MAX_SECTIONS {
            let Some(next) = self.readings(at, k, to).into_iter().next() else {
                break;
            };
            if later
                .iter()
                .any(|&(_, k2)| !self.readings(at, k2, to).is_empty())
            {
                break;
            }
            weak += next.doubt;
            sections.push(next.section);
            at = next.end;
        }
        (sections, at, weak)
    }

    /// A count followed by exactly that many tokens on its line (at least two): `3 5 6 7`.
    fn inline(&self, at: usize) -> Option<List> {
        let case = self.case;
        let line = case.line(at);
        line.clone().find_map(|t| {
            let k = case.count(t)?;
            (k >= 2 && line.end - t - 1 == k).then(|| List {
                count: t,
                len: k,
                sections: vec![Section::Tokens {
                    from: t + 1,
                    len: k,
                }],
            })
        })
    }

    /// What a count of `k` may govern from line `cursor` (before `to`), the likeliest first;
    /// remembered, since a header is read several ways.
    fn readings(&self, cursor: usize, k: usize, to: usize) -> Vec<Reading> {
        if let Some(known) = self.known.borrow().get(&(cursor, k, to)) {
            return known.clone();
        }
        let readings = self.read_section(cursor, k, to);
        self.known
            .borrow_mut()
            .insert((cursor, k, to), readings.clone());
        readings
    }

    fn read_section(&self, cursor: usize, k: usize, to: usize) -> Vec<Reading> {
        let case = self.case;
        if k == 0 || cursor >= to {
            return Vec::new();
        }
        if k == 1 {
            return self.one_item(cursor, to).into_iter().collect();
        }
        let line = case.line(cursor);
        let (len, from) = (line.len(), line.start);
        let reading = |section, end, doubt| Reading {
            section,
            end,
            doubt,
        };
        let lines =
            |len: usize, doubt| reading(Section::Lines { from: cursor, len }, cursor + len, doubt);
        let mut out = Vec::new();
        if len == k {
            out.push(reading(Section::Tokens { from, len: k }, cursor + 1, 0));
        }
        let string = len == 1 && case.token_len(from) == k && case.is_string(from);
        if string && !self.grid(cursor, k) {
            out.push(reading(Section::Chars { words: vec![from] }, cursor + 1, 0));
        }
        // A tree's edges: one line fewer than the count, over labels within it.
        let tree = cursor + k - 1 <= to && self.alike(cursor, k - 1) && self.spans_tree(cursor, k);
        if tree {
            out.push(lines(k - 1, 1));
        }
        if cursor + k <= to && (self.alike(cursor, k) || self.all_inline(cursor, k)) {
            out.push(lines(k, 0));
        }
        if k >= 3 && !tree && cursor + k - 1 <= to && self.alike(cursor, k - 1) {
            out.push(lines(k - 1, 1));
        }
        if k >= 3 && len == k - 1 {
            out.push(reading(Section::Tokens { from, len: k - 1 }, cursor + 1, 1));
        }
        // Lines of any shape that end the text: `q`, then q queries of several kinds.
        if cursor + k == to && to == case.line_count() && !out.iter().any(|r| r.end == to) {
            out.push(lines(k, 2));
        }
        out
    }

    /// What a count of 1 governs from line `cursor`: the next line, a token or a line of
    /// several, unless the line heads lists of its own (`1`, `3`, `1 2 3`: the 3 counts the
    /// numbers, the 1 counts nothing readable).
    fn one_item(&self, cursor: usize, to: usize) -> Option<Reading> {
        let case = self.case;
        let line = case.line(cursor);
        let heads = line.clone().any(|t| {
            case.count(t)
                .is_some_and(|k| k >= 2 && !self.readings(cursor + 1, k, to).is_empty())
        });
        if line.is_empty() || heads || self.inline(cursor).is_some() {
            return None;
        }
        let section = if line.len() == 1 {
            Section::Tokens {
                from: line.start,
                len: 1,
            }
        } else {
            Section::Lines {
                from: cursor,
                len: 1,
            }
        };
        Some(Reading {
            section,
            end: cursor + 1,
            doubt: 0,
        })
    }

    /// Whether the `k` lines from `from` are the rows of a grid: one string each, all of the
    /// same length.
    fn grid(&self, from: usize, k: usize) -> bool {
        let case = self.case;
        self.alike(from, k)
            && case.line_len(from) == 1
            && (from..from + k).all(|l| {
                let t = case.line(l).start;
                case.token_len(t) == case.token_len(case.line(from).start) && case.is_string(t)
            })
    }

    /// Whether each of the `k` lines from `from` is a list of its own (`c x1 … xc`).
    fn all_inline(&self, from: usize, k: usize) -> bool {
        (from..from + k).all(|l| self.inline(l).is_some())
    }

    /// Whether the `k − 1` lines from `from` are the edges of a tree over the labels 1..=k
    /// (or 0..k): their first two tokens are labels, and they join every vertex.
    fn spans_tree(&self, from: usize, k: usize) -> bool {
        if k < 2 || self.case.line_len(from) < 2 {
            return false;
        }
        let Some((base, pairs)) = self.edge_labels(from..from + k - 1, k) else {
            return false;
        };
        let mut parts = Parts::new(k);
        pairs
            .iter()
            .all(|&(u, v)| parts.join((u - base) as usize, (v - base) as usize))
    }

    /// The first two tokens of each of `lines`, when all are labels within a count of `n`:
    /// the least label (0 or 1) and the pairs.
    fn edge_labels(&self, lines: Range<usize>, n: usize) -> Option<(i64, Vec<(i64, i64)>)> {
        let case = self.case;
        let mut pairs = Vec::with_capacity(lines.len());
        for l in lines {
            let line = case.line(l);
            if line.len() < 2 {
                return None;
            }
            let u = case.integer(line.start)?;
            let v = case.integer(line.start + 1)?;
            // Out of range is seen at once: most lines of values are no edges.
            if !(0..=n as i64).contains(&u) || !(0..=n as i64).contains(&v) {
                return None;
            }
            pairs.push((u, v));
        }
        let least = pairs.iter().map(|&(u, v)| u.min(v)).min()?;
        let most = pairs.iter().map(|&(u, v)| u.max(v)).max()?;
        let base = if least == 0 { 0 } else { 1 };
        (least >= 0 && most < base + n as i64).then_some((base, pairs))
    }

    /// A count of the header that governs nothing yet, equal to the length of every row of a
    /// grid another count of the header governs (`n m`, then n rows of m characters): the
    /// columns.
    fn grid_columns(&self, counts: &[(usize, usize)], lists: &mut Vec<List>) {
        let case = self.case;
        let mut columns = Vec::new();
        for &(count, k) in counts {
            if lists.iter().any(|l| l.count == count) {
                continue;
            }
            let rows = lists.iter().flat_map(|l| &l.sections).find_map(|s| {
                let lines = match *s {
                    Section::Lines { from, len } => from..from + len,
                    Section::Tokens { from, len: 1 } if case.line_len(case.line_of(from)) == 1 => {
                        let l = case.line_of(from);
                        l..l + 1
                    }
                    _ => return None,
                };
                let words: Vec<usize> = lines
                    .clone()
                    .map(|l| case.line(l))
                    .filter(|line| line.len() == 1)
                    .map(|line| line.start)
                    .filter(|&t| case.token_len(t) == k && case.is_string(t))
                    .collect();
                (words.len() == lines.len()).then_some(words)
            });
            if let Some(words) = rows {
                columns.push(List {
                    count,
                    len: k,
                    sections: vec![Section::Chars { words }],
                });
            }
        }
        lists.extend(columns);
    }

    /// The lists inside item lines: each line of a section that is a list of its own.
    fn nested(&self, lists: &[List]) -> Vec<List> {
        lists
            .iter()
            .flat_map(|l| &l.sections)
            .filter_map(|s| match *s {
                Section::Lines { from, len } => Some(from..from + len),
                _ => None,
            })
            .flatten()
            .filter_map(|l| self.inline(l))
            .collect()
    }

    /// The test cases: a first line holding only a count T (at least 2, or 1 with
    /// `one_test`), and the units after it in T groups of the same number of units, each
    /// group's headers as long as the first group's; or else T blocks of the same number of
    /// lines whose first lines are alike. The cases, and the units read.
    fn test_cases(&self, one_test: bool) -> Option<(List, Vec<Unit>)> {
        let case = self.case;
        let lines = case.line_count();
        if lines < 2 || case.line_len(0) != 1 {
            return None;
        }
        let t = case.count(0)?;
        if t < if one_test { 1 } else { 2 } || lines - 1 < t {
            return None;
        }
        let units = self.units(1, lines);
        let blocks = self.grouped(&units, t).or_else(|| self.equal_blocks(t))?;
        let cases = List {
            count: 0,
            len: t,
            sections: vec![Section::Blocks(blocks)],
        };
        Some((cases, units))
    }

    /// `units` in `t` groups of the same number, each unit's header as long as the one in
    /// the same place of the first group: the line ranges of the groups.
    fn grouped(&self, units: &[Unit], t: usize) -> Option<Vec<Range<usize>>> {
        if units.is_empty() || !units.len().is_multiple_of(t) {
            return None;
        }
        let per = units.len() / t;
        let shape: Vec<usize> = units[..per]
            .iter()
            .map(|u| self.case.line_len(u.head))
            .collect();
        let groups: Vec<&[Unit]> = units.chunks(per).collect();
        let alike = groups.iter().all(|g| {
            g.iter()
                .map(|u| self.case.line_len(u.head))
                .eq(shape.iter().copied())
        });
        alike.then(|| {
            groups
                .iter()
                .map(|g| g[0].head..g[g.len() - 1].end)
                .collect()
        })
    }

    /// `t` blocks of the same number of lines after the first, their first lines of the same
    /// number of tokens.
    fn equal_blocks(&self, t: usize) -> Option<Vec<Range<usize>>> {
        let case = self.case;
        let rest = case.line_count() - 1;
        if !rest.is_multiple_of(t) {
            return None;
        }
        let len = rest / t;
        let blocks: Vec<Range<usize>> = (0..t).map(|b| 1 + b * len..1 + (b + 1) * len).collect();
        let head = case.line_len(1);
        blocks
            .iter()
            .all(|b| case.line_len(b.start) == head)
            .then_some(blocks)
    }

    /// The graph `list` gives, if any: a section of edge lines whose labels keep within the
    /// list's own count with one edge fewer (a tree), or within another count of the same
    /// header line (`n m`, then m edges).
    fn graph(&self, list: &List, lists: &[List]) -> Option<Graph> {
        let case = self.case;
        let edges = list.sections.iter().find_map(|s| match *s {
            Section::Lines { from, len } if case.line_len(from) >= 2 => Some(from..from + len),
            _ => None,
        })?;
        let header = case.line(case.line_of(list.count));
        let (vertices, n, edge_count) = if edges.len() + 1 == list.len {
            // `n m` with m = n − 1 reads as a tree of n; m still counts the edges.
            let counts_nothing = |t: usize| !lists.iter().any(|l| l.count == t);
            let m = header.clone().find(|&t| {
                t != list.count && case.count(t) == Some(edges.len()) && counts_nothing(t)
            });
            (list.count, list.len, m)
        } else if edges.len() == list.len {
            let (t, n) = header.filter(|&t| t != list.count).find_map(|t| {
                let n = case.count(t).filter(|&n| n >= 1)?;
                self.edge_labels(edges.clone(), n).map(|_| (t, n))
            })?;
            if t > list.count && n == list.len {
                // `n m` with n = m: the first is the vertices', as most statements write it.
                (list.count, n, Some(t))
            } else {
                (t, n, Some(list.count))
            }
        } else {
            return None;
        };
        let (base, _) = self.edge_labels(edges.clone(), n)?;
        let per_vertex = lists
            .iter()
            .filter(|l| l.count == vertices)
            .flat_map(|l| &l.sections)
            .filter(|s| s.items(n) == n && !matches!(s, Section::Blocks(_)))
            .filter(|s| {
                **s != (Section::Lines {
                    from: edges.start,
                    len: edges.len(),
                })
            })
            .cloned()
            .collect();
        Some(Graph {
            vertices,
            n,
            base,
            edges,
            edge_count,
            per_vertex,
            also_items: false,
        })
    }

    /// The tree a count's last k − 1 sections of k tokens give, when each is a whole line, the
    /// lines follow one another and their first two tokens join the k vertices: the reading
    /// of exactly k tokens a line wins over a tree's one line fewer, so the weighted tree
    /// `3 / 1 2 1 / 3 1 1` is read as lists first, and is a tree as well.
    fn tree_in_tokens(&self, list: &List) -> Option<Graph> {
        let (case, k) = (self.case, list.len);
        if k < 2 || list.sections.len() < k - 1 {
            return None;
        }
        let (before, edges) = list.sections.split_at(list.sections.len() - (k - 1));
        let lines: Vec<usize> = edges
            .iter()
            .map(|s| match *s {
                Section::Tokens { from, len } if len == k => {
                    let l = case.line_of(from);
                    (case.line(l) == (from..from + len)).then_some(l)
                }
                _ => None,
            })
            .collect::<Option<_>>()?;
        let first = lines[0];
        let follow = lines.iter().enumerate().all(|(i, &l)| l == first + i);
        if !follow || !self.spans_tree(first, k) {
            return None;
        }
        let edges = first..first + k - 1;
        let (base, _) = self.edge_labels(edges.clone(), k)?;
        let per_vertex = before
            .iter()
            .filter(|s| s.items(k) == k && !matches!(s, Section::Blocks(_)))
            .cloned()
            .collect();
        Some(Graph {
            vertices: list.count,
            n: k,
            base,
            edges,
            edge_count: None,
            per_vertex,
            also_items: true,
        })
    }
}

/// Disjoint sets of vertices, for telling a tree's edges and a graph's connectivity.
pub(super) struct Parts {
    parent: Vec<usize>,
}

impl Parts {
    pub fn new(n: usize) -> Parts {
        Parts {
            parent: (0..n).collect(),
        }
    }

    pub fn find(&mut self, mut v: usize) -> usize {
        while self.parent[v] != v {
            self.parent[v] = self.parent[self.parent[v]];
            v = self.parent[v];
        }
        v
    }

    /// Joins the parts of `u` and `v`; false when they were one already (or out of range).
    pub fn join(&mut self, u: usize, v: usize) -> bool {
        if u >= self.parent.len() || v >= self.parent.len() {
            return false;
        }
        let (a, b) = (self.find(u), self.find(v));
        if a == b {
            return false;
        }
        // The smaller label leads: a merged part is named by its least vertex.
        let (lo, hi) = (a.min(b), a.max(b));
        self.parent[hi] = lo;
        true
    }
}
