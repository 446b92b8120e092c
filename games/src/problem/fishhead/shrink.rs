//! Simpler fishhead cases for minimization, most drastic first: fewer edges left (the given
//! edges extended by many remaining edges at once, then by one at any position), then the
//! given order closer to lattice order, then points written smaller first. Every candidate
//! keeps n within 12..=24 and its edges distinct, so it stays valid wherever the case is.

use super::Fishhead;
use super::lattice::{self, EDGES};
use crate::problem::shrink::chunks;

/// How many passes [`pass`] has.
pub(super) const PASSES: usize = 4;

/// Edges left, then inversions of the given order against lattice order, then edges written
/// with the larger point first.
pub(super) fn measure(c: &Fishhead) -> Vec<i64> {
    let order = indices(c);
    let inversions = (0..order.len())
        .flat_map(|i| (i + 1..order.len()).map(move |j| (i, j)))
        .filter(|&(i, j)| order[i] > order[j])
        .count();
    let reversed = c.edges.iter().filter(|&&(a, b)| a > b).count();
    vec![c.remaining() as i64, inversions as i64, reversed as i64]
}

/// The candidates of one pass for `c`.
pub(super) fn pass(c: &Fishhead, pass: usize) -> Vec<Fishhead> {
    let mut out = match pass {
        0 => extended_by_many(c),
        1 => extended_by_one(c),
        2 => reordered(c),
        3 => straightened(c),
        _ => Vec::new(),
    };
    out.retain(|x| x != c);
    let mut unique: Vec<Fishhead> = Vec::with_capacity(out.len());
    for x in out {
        if !unique.contains(&x) {
            unique.push(x);
        }
    }
    unique
}

/// The lattice index of each given edge; the hand-built, invalid pairs as past the lattice
/// (shrinking only ever sees valid cases).
fn indices(c: &Fishhead) -> Vec<usize> {
    c.edges
        .iter()
        .map(|&(a, b)| lattice::edge_between(a, b).unwrap_or(EDGES))
        .collect()
}

/// The edges not given, in lattice order.
fn open_edges(c: &Fishhead) -> Vec<usize> {
    let given = indices(c);
    (0..EDGES).filter(|e| !given.contains(e)).collect()
}

fn with_appended(c: &Fishhead, edges: impl IntoIterator<Item = usize>) -> Fishhead {
    let mut next = c.clone();
    next.edges.extend(edges.into_iter().map(lattice::endpoints));
    next
}

/// Every open edge appended (the game over), then chunks of 1/2, 1/4, ... of them.
fn extended_by_many(c: &Fishhead) -> Vec<Fishhead> {
    let open = open_edges(c);
    if open.is_empty() {
        return Vec::new();
    }
    let mut out = vec![with_appended(c, open.iter().copied())];
    for chunk in chunks(open.len()) {
        out.push(with_appended(c, chunk.iter().map(|&i| open[i])));
    }
    out
}

/// One open edge given in addition, at the end first, then at every earlier position: the
/// remaining game loses an edge, and which player drew what can stay as it was.
fn extended_by_one(c: &Fishhead) -> Vec<Fishhead> {
    let open = open_edges(c);
    let mut out = Vec::new();
    for at in (0..=c.edges.len()).rev() {
        for &e in &open {
            let mut next = c.clone();
            next.edges.insert(at, lattice::endpoints(e));
            out.push(next);
        }
    }
    out
}

/// The same edges in an order with fewer inversions: all sorted; each player's edges sorted
/// among that player's positions (who drew which edge stays); chunks sorted; then single
/// inverted pairs swapped, a player's own neighbours first. Sorting positions in place, like
/// swapping any inverted pair, always removes inversions.
fn reordered(c: &Fishhead) -> Vec<Fishhead> {
    let order = indices(c);
    let n = order.len();
    let mut position_sets: Vec<Vec<usize>> = vec![(0..n).collect()];
    position_sets.push((0..n).step_by(2).collect());
    position_sets.push((1..n).step_by(2).collect());
    position_sets.extend(chunks(n));
    let mut out: Vec<Fishhead> = position_sets
        .iter()
        .map(|positions| sorted_at(c, &order, positions))
        .collect();
    for gap in [2, 1] {
        for i in 0..n.saturating_sub(gap) {
            if order[i] > order[i + gap] {
                let mut next = c.clone();
                next.edges.swap(i, i + gap);
                out.push(next);
            }
        }
    }
    out
}

/// `c` with the edges at `positions` sorted by lattice index among those positions.
fn sorted_at(c: &Fishhead, order: &[usize], positions: &[usize]) -> Fishhead {
    let mut picked: Vec<(usize, (u8, u8))> =
        positions.iter().map(|&p| (order[p], c.edges[p])).collect();
    picked.sort_by_key(|&(e, _)| e);
    let mut next = c.clone();
    for (&p, &(_, edge)) in positions.iter().zip(&picked) {
        next.edges[p] = edge;
    }
    next
}

/// Every edge written smaller point first, then each such edge alone.
fn straightened(c: &Fishhead) -> Vec<Fishhead> {
    let flipped: Vec<usize> = (0..c.edges.len())
        .filter(|&i| c.edges[i].0 > c.edges[i].1)
        .collect();
    let flip = |which: &[usize]| {
        let mut next = c.clone();
        for &i in which {
            let (a, b) = next.edges[i];
            next.edges[i] = (b, a);
        }
        next
    };
    let mut out = vec![flip(&flipped)];
    out.extend(flipped.iter().map(|&i| flip(&[i])));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(edges: &[(u8, u8)]) -> Fishhead {
        Fishhead {
            edges: edges.to_vec(),
        }
    }

    #[test]
    fn every_candidate_is_smaller_and_keeps_the_edges_distinct() {
        let c = case(&[
            (6, 7),
            (2, 1),
            (16, 12),
            (3, 4),
            (5, 9),
            (10, 11),
            (8, 4),
            (1, 5),
            (14, 15),
            (7, 11),
            (12, 11),
            (2, 6),
            (13, 9),
        ]);
        let size = measure(&c);
        for p in 0..PASSES {
            let candidates = pass(&c, p);
            assert!(!candidates.is_empty(), "pass {p}");
            for x in candidates {
                assert!(measure(&x) < size, "pass {p}: {x:?}");
                assert!(x.edge_indices().is_ok(), "pass {p}: {x:?}");
                assert!(x.n() >= c.n());
            }
        }
        // The most drastic candidate ends the game.
        assert_eq!(pass(&c, 0)[0].n(), 24);
        assert_eq!(measure(&pass(&c, 3)[0])[2], 0);
    }

    #[test]
    fn a_finished_sorted_straight_game_has_no_candidates() {
        let c = case(&(0..EDGES).map(lattice::endpoints).collect::<Vec<_>>());
        assert_eq!(measure(&c), vec![0, 0, 0]);
        for p in 0..PASSES {
            assert!(pass(&c, p).is_empty(), "pass {p}");
        }
    }
}
