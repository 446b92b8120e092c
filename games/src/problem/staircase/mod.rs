//! The contour ("staircase") state both solvers share: a Young diagram anchored at one corner
//! of a rows × cols grid, stored as its monotone boundary path and indexed by the path's rank.
//!
//! The boundary is a word of `rows + cols` unit steps. The steps of the shorter side are the
//! "ones"; their positions c_1 < … < c_t rank the path in the combinatorial number system
//! (colex order): rank = Σ C(c_k, k). That gives a dense index 0..C(rows+cols, t) — the empty
//! diagram has rank 0 and the full one the largest rank — so a table needs only one entry per
//! reachable state instead of 2^(rows+cols). Adding one corner cell moves a single one a step
//! right, which raises the rank by exactly C(c_k, k-1): neighbour ranks cost O(1), read from a
//! precomputed table, and every successor has a larger rank than its predecessor.

use std::fmt;

mod board;
mod table;

pub use board::{LONG_ABOVE_CELLS, checked_matrix};
pub use table::{Entry, Recurrence, State, Table, follow_line};

use super::solution::SolveError;

/// The largest number of states a table is built for (256 MiB at 4 bytes an entry).
pub const MAX_STATES: u64 = 1 << 26;

/// A cell that can be added to the diagram next, and where that leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Corner {
    /// 0-based row of the cell, counted from the anchored corner.
    pub row: usize,
    /// 0-based column of the cell, counted from the anchored corner.
    pub col: usize,
    /// `row * cols + col`.
    pub cell: usize,
    /// Rank of the diagram with this cell added.
    pub next: usize,
    /// Which one of the path moves, and by how much the rank grows; for [`Path::add`].
    slot: usize,
    step: usize,
}

/// A corner as the table fill sees it: the cell it adds and how much that raises the rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge {
    /// `row * cols + col`.
    pub cell: usize,
    pub step: usize,
}

/// The grid has more states than [`MAX_STATES`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooLarge {
    pub rows: usize,
    pub cols: usize,
}

impl fmt::Display for TooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a {}×{} board has more than {} staircase states (C({}, {})); the reference solver stops there",
            self.rows,
            self.cols,
            MAX_STATES,
            self.rows + self.cols,
            self.rows.min(self.cols)
        )
    }
}

impl std::error::Error for TooLarge {}

impl From<TooLarge> for SolveError {
    fn from(e: TooLarge) -> Self {
        SolveError::TooLarge(e.to_string())
    }
}

/// The state space of one grid: binomial steps and cell numbers for every (one, position).
#[derive(Clone, Debug)]
pub struct Staircase {
    rows: usize,
    cols: usize,
    /// Number of ones (the shorter side).
    ones: usize,
    /// Path length, rows + cols.
    len: usize,
    states: usize,
    /// `binom[j * len + p]` = C(p, j) for j in 0..=ones (saturating where no state reads it).
    /// C(p, j) is the rank increase when one j (0-based) moves from p to p + 1, and C(p, j + 1)
    /// is that one's term of the rank.
    binom: Vec<usize>,
    /// `cell[j * len + p]`: the grid cell added by that move, and `at[..]` its (row, column).
    cell: Vec<u32>,
    at: Vec<(u32, u32)>,
}

impl Staircase {
    /// The states of a rows × cols grid, or [`TooLarge`] beyond [`MAX_STATES`].
    pub fn new(rows: usize, cols: usize) -> Result<Staircase, TooLarge> {
        let too_large = TooLarge { rows, cols };
        // The ones are the steps of the shorter side, so a scan costs O(min(rows, cols)).
        let transposed = rows > cols;
        let ones = rows.min(cols);
        let len = rows.checked_add(cols).ok_or(too_large.clone())?;
        let states = binomial(len, ones).filter(|&s| s <= MAX_STATES);
        let states = states.ok_or(too_large.clone())? as usize;
        // With at least one "one", len <= states <= MAX_STATES, so these tables stay small
        // and cell numbers fit in a u32.
        if ones > 0 && u32::try_from(rows * cols).is_err() {
            return Err(too_large);
        }
        // A grid without rows or columns has a single state and needs no tables.
        let rows_of_binom = if ones == 0 { 0 } else { ones + 1 };
        let mut binom = vec![0usize; rows_of_binom * len];
        for j in 0..rows_of_binom {
            for p in 0..len {
                binom[j * len + p] = if j == 0 {
                    1
                } else if p == 0 {
                    0
                } else {
                    binom[(j - 1) * len + p - 1].saturating_add(binom[j * len + p - 1])
                };
            }
        }
        let mut cell = vec![0u32; ones * len];
        let mut at = vec![(0u32, 0u32); ones * len];
        for j in 0..ones {
            for p in 0..len {
                // Positions a one can never occupy keep cell 0; no state reads them.
                let (short, long) = (ones - 1 - j, p.saturating_sub(j));
                let (r, c) = if transposed {
                    (long, short)
                } else {
                    (short, long)
                };
                if r < rows && c < cols {
                    cell[j * len + p] = (r * cols + c) as u32;
                    at[j * len + p] = (r as u32, c as u32);
                }
            }
        }
        Ok(Staircase {
            rows,
            cols,
            ones,
            len,
            states,
            binom,
            cell,
            at,
        })
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Number of diagrams, C(rows + cols, min(rows, cols)).
    pub fn states(&self) -> usize {
        self.states
    }

    /// Rank of the full grid; the empty diagram has rank 0.
    pub fn full(&self) -> usize {
        self.states - 1
    }

    /// The empty diagram, to walk forward from with [`Path::add`].
    pub fn empty(&self) -> Path {
        Path {
            pos: (0..self.ones).collect(),
            rank: 0,
            filled: 0,
        }
    }

    fn corner(&self, slot: usize, p: usize, rank: usize) -> Corner {
        let i = slot * self.len + p;
        let cell = self.cell[i] as usize;
        let (row, col) = self.at[i];
        let (row, col) = (row as usize, col as usize);
        let step = self.binom[i];
        Corner {
            row,
            col,
            cell,
            next: rank + step,
            slot,
            step,
        }
    }

    /// Pushes the corners of the diagram whose ones sit at `pos` onto `out`.
    fn corners_into(&self, pos: &[usize], rank: usize, out: &mut Vec<Corner>) {
        for (j, &p) in pos.iter().enumerate() {
            let free = match pos.get(j + 1) {
                Some(&q) => q != p + 1,
                None => p + 1 < self.len,
            };
            if free {
                out.push(self.corner(j, p, rank));
            }
        }
    }

    /// Calls `visit(rank, filled_cells, edges)` for every diagram, from the full grid down to
    /// the empty one, so that every successor (`rank + edge.step`) is visited before its
    /// predecessor. `edges` lists the corners that can be added, in no particular order.
    /// The table fills use [`Staircase::walk`], which is faster.
    pub fn for_each_descending(&self, mut visit: impl FnMut(usize, usize, &[Edge])) {
        let mut edges = Vec::with_capacity(self.ones);
        self.for_each_block_descending(|block| {
            for x in (0..block.len).rev() {
                edges.clear();
                edges.extend_from_slice(block.upper);
                edges.extend(block.second);
                if let Some(cell) = block.first_corner(x) {
                    edges.push(Edge { cell, step: 1 });
                }
                visit(block.base + x, block.filled + x, &edges);
            }
        });
    }

    /// Calls `visit` for every [`Block`], in descending order of rank: the visitor must handle
    /// a block's states from `x = len - 1` down to 0, and then every successor of a state has
    /// been handled before it.
    pub fn for_each_block_descending(&self, visit: impl FnMut(&Block)) {
        struct Blocks<F>(F);
        impl<F: FnMut(&Block)> Frontier for Blocks<F> {
            fn push(&mut self, _: Edge) {}
            fn pop(&mut self) {}
            fn block(&mut self, block: &Block) {
                (self.0)(block)
            }
        }
        self.walk(&mut Blocks(visit));
    }

    /// Hands every [`Block`] to `frontier`, in descending order of rank like
    /// [`Staircase::for_each_block_descending`], and tells it which shared corners appear and
    /// disappear in between, so that it can keep per-corner data (pair lists, say) up to date
    /// instead of rebuilding it for every block.
    pub fn walk(&self, frontier: &mut impl Frontier) {
        match self.ones {
            0 => frontier.block(&Block {
                base: 0,
                len: 1,
                filled: 0,
                upper: &[],
                second: None,
                first: &[],
            }),
            1 => frontier.block(&Block {
                base: 0,
                len: self.len,
                filled: 0,
                upper: &[],
                second: None,
                first: &self.cell[..self.len],
            }),
            ones => {
                let mut edges = Vec::with_capacity(ones);
                self.descend(ones - 1, self.len, 0, 0, &mut edges, frontier);
            }
        }
    }

    /// Colex order is lexicographic order on (c_t, …, c_1), so nested loops over the ones,
    /// outermost the last one and each descending, visit ranks in descending order. A one's
    /// corner depends only on it and the one above, so the corners of the outer ones stay on
    /// the `edges` stack while the inner loops run; the innermost one is left to the visitor.
    fn descend<F: Frontier>(
        &self,
        j: usize,
        upper: usize,
        rank_base: usize,
        filled_base: usize,
        edges: &mut Vec<Edge>,
        frontier: &mut F,
    ) {
        let row = j * self.len;
        let terms = &self.binom[row + self.len..row + 2 * self.len];
        for c in (j..upper).rev() {
            let rank = rank_base + terms[c];
            let filled = filled_base + (c - j);
            let corner = (c + 1 < upper).then(|| Edge {
                cell: self.cell[row + c] as usize,
                step: self.binom[row + c],
            });
            if j == 1 {
                // The second one's corner changes with every block: handed over with the
                // block rather than pushed and popped.
                frontier.block(&Block {
                    base: rank,
                    len: c,
                    filled,
                    upper: edges,
                    second: corner,
                    first: &self.cell[..self.len],
                });
                continue;
            }
            if let Some(edge) = corner {
                edges.push(edge);
                frontier.push(edge);
            }
            self.descend(j - 1, c, rank, filled, edges, frontier);
            if corner.is_some() {
                edges.pop();
                frontier.pop();
            }
        }
    }
}

/// What [`Staircase::walk`] drives: a stack of shared corners and the blocks under them.
pub trait Frontier {
    /// A corner shared by every block until the matching [`Frontier::pop`].
    fn push(&mut self, edge: Edge);
    /// Forgets the most recently pushed corner.
    fn pop(&mut self);
    /// One block; its `upper` corners are exactly the ones pushed and not yet popped, and
    /// `second` is one more corner shared by the block's states.
    fn block(&mut self, block: &Block);
}

/// The diagrams that differ only in the position x of the first one (the longest side row,
/// seen from the anchored corner): ranks `base + x` for x in `0..len`, with `filled + x` cells.
/// They share the corners `upper` and `second` (the second one's corner, if any); the first
/// one adds at most one more corner, whose step is always 1 (its successor is the block's next
/// state up).
#[derive(Clone, Copy, Debug)]
pub struct Block<'a> {
    pub base: usize,
    pub len: usize,
    pub filled: usize,
    /// The corners pushed to the [`Frontier`] and not yet popped.
    pub upper: &'a [Edge],
    pub second: Option<Edge>,
    first: &'a [u32],
}

impl Block<'_> {
    /// The cell of the first one's corner at position x, if there is one; adding it leads to
    /// rank `base + x + 1`.
    #[inline]
    pub fn first_corner(&self, x: usize) -> Option<usize> {
        if x + 1 < self.len {
            Some(self.first[x] as usize)
        } else {
            None
        }
    }
}

/// One diagram, for walking a line of play forward from the empty grid.
#[derive(Clone, Debug)]
pub struct Path {
    pos: Vec<usize>,
    rank: usize,
    filled: usize,
}

impl Path {
    pub fn rank(&self) -> usize {
        self.rank
    }

    /// How many cells the diagram holds.
    pub fn filled(&self) -> usize {
        self.filled
    }

    /// The cells that can be added next.
    pub fn corners(&self, stairs: &Staircase) -> Vec<Corner> {
        let mut out = Vec::new();
        stairs.corners_into(&self.pos, self.rank, &mut out);
        out
    }

    /// Adds corners that were all returned by [`Path::corners`] for this same diagram (one
    /// corner, or two for a pair removal: distinct corners never share a path step).
    pub fn add(&mut self, corners: &[Corner]) {
        for c in corners {
            self.pos[c.slot] += 1;
            self.rank += c.step;
            self.filled += 1;
        }
    }
}

/// C(n, k) if it fits in a u64.
pub fn binomial(n: usize, k: usize) -> Option<u64> {
    if k > n {
        return Some(0);
    }
    let k = k.min(n - k);
    let mut acc: u128 = 1;
    for i in 0..k {
        // C(n, i) * (n - i) / (i + 1) = C(n, i + 1) exactly.
        acc = acc.checked_mul((n - i) as u128)? / (i as u128 + 1);
        if acc > u64::MAX as u128 {
            return None;
        }
    }
    Some(acc as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials() {
        assert_eq!(binomial(24, 12), Some(2_704_156));
        assert_eq!(binomial(20, 10), Some(184_756));
        assert_eq!(binomial(5, 0), Some(1));
        assert_eq!(binomial(3, 5), Some(0));
        assert_eq!(binomial(200, 100), None);
    }

    /// Every diagram is visited once, ranks are dense, and each corner leads to the rank of
    /// the diagram with that cell added (checked against row lengths recomputed by hand).
    #[test]
    fn ranks_are_a_bijection_and_corners_are_consistent() {
        for (rows, cols) in [
            (1, 1),
            (2, 3),
            (3, 2),
            (4, 4),
            (1, 5),
            (5, 1),
            (3, 0),
            (0, 2),
        ] {
            let stairs = Staircase::new(rows, cols).unwrap();
            assert_eq!(stairs.states() as u64, binomial(rows + cols, rows).unwrap());
            let mut seen = std::collections::HashMap::new();
            let mut order = Vec::new();
            stairs.for_each_descending(|rank, filled, corners| {
                order.push(rank);
                let c: Vec<(usize, usize, usize)> = corners
                    .iter()
                    .map(|e| (e.cell / cols, e.cell % cols, rank + e.step))
                    .collect();
                assert!(seen.insert(rank, (filled, c)).is_none());
            });
            let expected: Vec<usize> = (0..stairs.states()).rev().collect();
            assert_eq!(order, expected);
            // Walk every line from the empty diagram and compare with explicit row lengths.
            let mut stack = vec![(stairs.empty(), vec![0usize; rows])];
            while let Some((path, lengths)) = stack.pop() {
                let (filled, corners) = &seen[&path.rank()];
                assert_eq!(*filled, lengths.iter().sum::<usize>());
                assert_eq!(path.filled(), *filled);
                let mut addable: Vec<(usize, usize)> = (0..rows)
                    .filter(|&r| lengths[r] < cols && (r == 0 || lengths[r - 1] > lengths[r]))
                    .map(|r| (r, lengths[r]))
                    .collect();
                let mut listed: Vec<(usize, usize)> =
                    corners.iter().map(|&(r, c, _)| (r, c)).collect();
                addable.sort();
                listed.sort();
                assert_eq!(addable, listed, "{rows}x{cols} at {lengths:?}");
                for corner in path.corners(&stairs) {
                    assert_eq!(corner.cell, corner.row * cols + corner.col);
                    let mut next = path.clone();
                    next.add(&[corner]);
                    assert_eq!(next.rank(), corner.next);
                    let mut l = lengths.clone();
                    l[corner.row] += 1;
                    stack.push((next, l));
                }
            }
        }
    }
}
