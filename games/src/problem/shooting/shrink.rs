//! Smaller shooting boards for minimization, most drastic first: the smallest boards, then
//! columns dropped (halves, quarters, …, then one at a time), then all heights lowered
//! together (the top cut off, everything shifted down, halved), then each height lowered on
//! its own. Every candidate has fewer blocks, and stays a valid board: a subsequence of
//! unimodal heights, or a monotone map of them, is unimodal; rectangles are left out.

use super::Shooting;
use super::parse::unimodal_violation;
use crate::problem::shrink::chunks;

/// How many passes [`pass`] has.
pub(super) const PASSES: usize = 4;

/// The candidates of one pass for `c`: valid, new, and with fewer blocks.
pub(super) fn pass(c: &Shooting, pass: usize) -> Vec<Shooting> {
    let candidates = match pass {
        0 => smallest(),
        1 => fewer_columns(&c.heights),
        2 => lowered_together(&c.heights),
        3 => lowered_alone(&c.heights),
        _ => Vec::new(),
    };
    let mut out: Vec<Shooting> = Vec::new();
    for heights in candidates {
        let next = Shooting::new(heights);
        if valid(&next.heights) && next.blocks() < c.blocks() && !out.contains(&next) {
            out.push(next);
        }
    }
    out
}

/// A board the validator accepts: unimodal, not all heights equal, every height positive.
fn valid(heights: &[usize]) -> bool {
    heights.len() >= 2
        && heights.iter().all(|&h| h >= 1)
        && unimodal_violation(heights).is_none()
        && heights.iter().any(|&h| h != heights[0])
}

/// The two boards of three blocks, the fewest a valid board has.
fn smallest() -> Vec<Vec<usize>> {
    vec![vec![1, 2], vec![2, 1]]
}

/// Chunks of columns dropped, then single columns.
fn fewer_columns(heights: &[usize]) -> Vec<Vec<usize>> {
    let n = heights.len();
    let mut drops = chunks(n);
    drops.extend((0..n).map(|j| vec![j]));
    drops
        .iter()
        .map(|drop| {
            (0..n)
                .filter(|j| !drop.contains(j))
                .map(|j| heights[j])
                .collect()
        })
        .collect()
}

/// Every height at most c (lowest cap first), every height d lower (at least 1), every
/// height halved (rounding up).
fn lowered_together(heights: &[usize]) -> Vec<Vec<usize>> {
    let top = heights.iter().copied().max().unwrap_or(0);
    let mut out: Vec<Vec<usize>> = (1..top)
        .map(|cap| heights.iter().map(|&h| h.min(cap)).collect())
        .collect();
    for d in (1..top).rev() {
        out.push(
            heights
                .iter()
                .map(|&h| h.saturating_sub(d).max(1))
                .collect(),
        );
    }
    out.push(heights.iter().map(|&h| h.div_ceil(2)).collect());
    out
}

/// Each height lowered on its own, to the lowest value first.
fn lowered_alone(heights: &[usize]) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    for j in 0..heights.len() {
        for v in 1..heights[j] {
            let mut next = heights.to_vec();
            next[j] = v;
            out.push(next);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_are_valid_and_have_fewer_blocks() {
        let c = Shooting::new(vec![1, 3, 6, 6, 2, 1]);
        for p in 0..PASSES {
            for next in pass(&c, p) {
                assert!(valid(&next.heights), "{next:?}");
                assert!(next.blocks() < c.blocks());
            }
        }
        assert_eq!(pass(&c, 0).len(), 2);
        assert!(pass(&Shooting::new(vec![1, 2]), 0).is_empty());
    }

    #[test]
    fn columns_go_in_halves_then_one_by_one() {
        let c = Shooting::new(vec![1, 2, 3, 2]);
        let first: Vec<Vec<usize>> = pass(&c, 1).into_iter().map(|s| s.heights).collect();
        assert_eq!(first[0], vec![3, 2]);
        assert_eq!(first[1], vec![1, 2]);
        assert!(first.contains(&vec![1, 3, 2]));
    }
}
