//! The shooting reference solver: the player to move's winning probability for every height
//! vector below the board's, in one table filled bottom-up, and the shots and their outcomes
//! the explanation reads back from it.
//!
//! Blocks fall down their own column, so a position is its height vector: row r holds the
//! columns of height at least r, and a bullet of power k fired along row r from one side
//! takes the first k of them (all, when fewer), each column then one lower. With P(s) the
//! winning probability of the player to move on s,
//! P(s) = max over (row, side) of the mean over k = 1, 2, 3 of [1 if the board is then
//! empty, else 1 − P(next)]. Every shot lowers the total height, so filling the table in
//! increasing mixed-radix order sees every successor first.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::Shooting;
use crate::problem::solution::SolveError;

/// The most states the table holds: 8^7, every board within the largest bounds (7 columns
/// of height at most 7), 16 MiB of f64.
pub const MAX_STATES: usize = 1 << 21;

/// The board every case within the official bounds fits in once padded with empty columns
/// on the left (an empty column is never hit, so it changes nothing): 6 columns of height 6,
/// 7^6 positions, shared by every later case of the process.
const STANDARD: [usize; 6] = [6; 6];

/// 7^6.
const STANDARD_POSITIONS: usize = 117_649;

static STANDARD_TABLE: OnceLock<Table> = OnceLock::new();

/// Positions of the tables built case by case so far. Once they reach the shared table's
/// size, that table is built and answers every case: a process solving a few small cases
/// (a one-shot `duipai solve`) never pays for it, and one solving many never spends more
/// than twice what the shared table alone costs.
static POSITIONS_BUILT: AtomicUsize = AtomicUsize::new(0);

/// The side a bullet is fired from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Left,
    Right,
}

impl Side {
    pub fn name(self) -> &'static str {
        match self {
            Side::Left => "left",
            Side::Right => "right",
        }
    }
}

/// A shot: along `row` (1 = the bottom row) from `side`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shot {
    pub row: usize,
    pub side: Side,
}

impl Shot {
    /// The columns (0-based) a bullet of `power` removes a block from: the first `power`
    /// columns of its row seen from its side, gaps skipped; all of them when fewer.
    pub fn hits(self, heights: &[usize], power: usize) -> Vec<usize> {
        let in_row = |&j: &usize| heights[j] >= self.row;
        let n = heights.len();
        match self.side {
            Side::Left => (0..n).filter(in_row).take(power).collect(),
            Side::Right => (0..n).rev().filter(in_row).take(power).collect(),
        }
    }

    /// The heights after a bullet of `power`: each column hit loses the block in this row,
    /// and the blocks above it fall one down.
    pub fn after(self, heights: &[usize], power: usize) -> Vec<usize> {
        let mut next = heights.to_vec();
        for j in self.hits(heights, power) {
            next[j] -= 1;
        }
        next
    }
}

/// The bullet powers, each with probability 1/3.
pub const POWERS: [usize; 3] = [1, 2, 3];

/// P(s) for every height vector s at or below `top`, column by column.
#[derive(Clone, Debug)]
pub struct Table {
    top: Vec<usize>,
    strides: Vec<usize>,
    chance: Vec<f64>,
}

impl Table {
    /// The table for every position reachable from a board of heights `top`.
    pub fn new(top: &[usize]) -> Result<Table, SolveError> {
        let mut strides = Vec::with_capacity(top.len());
        let mut states: usize = 1;
        for &h in top {
            strides.push(states);
            states = states
                .checked_mul(h + 1)
                .filter(|&s| s <= MAX_STATES)
                .ok_or_else(|| {
                    SolveError::Malformed(format!(
                        "heights {top:?} have more than {MAX_STATES} positions"
                    ))
                })?;
        }
        Ok(Table::build(top, strides, states))
    }

    fn build(top: &[usize], strides: Vec<usize>, states: usize) -> Table {
        POSITIONS_BUILT.fetch_add(states, Ordering::Relaxed);
        let mut table = Table {
            top: top.to_vec(),
            strides,
            chance: vec![0.0; states],
        };
        table.fill();
        table
    }

    /// The shared table of [`STANDARD`].
    fn standard() -> &'static Table {
        STANDARD_TABLE.get_or_init(|| {
            let strides = (0..STANDARD.len()).map(|j| 7usize.pow(j as u32)).collect();
            Table::build(&STANDARD, strides, STANDARD_POSITIONS)
        })
    }

    /// The index of `heights` (each at most its column's top).
    fn index(&self, heights: &[usize]) -> usize {
        heights.iter().zip(&self.strides).map(|(h, s)| h * s).sum()
    }

    /// The winning probability of the player to move on `heights` (0 on an empty board:
    /// the other player has just won).
    pub fn chance(&self, heights: &[usize]) -> f64 {
        self.chance[self.index(heights)]
    }

    /// The shooter's winning probability for `shot` on `heights`, before the power is known.
    pub fn shot_value(&self, heights: &[usize], shot: Shot) -> f64 {
        let sum: f64 = POWERS
            .iter()
            .map(|&k| self.after_shot(&shot.after(heights, k)))
            .sum();
        sum / 3.0
    }

    /// The shooter's winning probability once the board is `next`.
    pub fn after_shot(&self, next: &[usize]) -> f64 {
        if next.iter().all(|&h| h == 0) {
            1.0
        } else {
            1.0 - self.chance(next)
        }
    }

    /// Every position in increasing index order; successors have smaller indices.
    fn fill(&mut self) {
        let mut heights = vec![0usize; self.top.len()];
        let mut blocks = 0usize;
        for index in 0..self.chance.len() {
            if index > 0 {
                // The next mixed-radix number: carry through columns at their top.
                for (h, &top) in heights.iter_mut().zip(&self.top) {
                    if *h < top {
                        *h += 1;
                        blocks += 1;
                        break;
                    }
                    blocks -= *h;
                    *h = 0;
                }
            }
            if blocks > 0 {
                self.chance[index] = self.best(&heights, index, blocks);
            }
        }
    }

    /// max over the distinct shots of their value. Rows holding the same columns are the
    /// same shot, so only the top row of each set is tried: the rows equal to some height.
    fn best(&self, heights: &[usize], index: usize, blocks: usize) -> f64 {
        let mut rows: u64 = 0;
        for &h in heights {
            rows |= 1 << h;
        }
        let mut best = 0.0f64;
        for row in 1..64 {
            if rows & (1 << row) == 0 {
                continue;
            }
            let left = heights.iter().enumerate();
            best = best.max(self.volley(left, row, index, blocks));
            let right = heights.iter().enumerate().rev();
            best = best.max(self.volley(right, row, index, blocks));
        }
        best
    }

    /// The value of firing along `row` past the columns in `order`.
    fn volley<'a>(
        &self,
        order: impl Iterator<Item = (usize, &'a usize)>,
        row: usize,
        index: usize,
        blocks: usize,
    ) -> f64 {
        let mut hits = order.filter(|(_, h)| **h >= row).map(|(j, _)| j);
        let (mut next, mut left) = (index, blocks);
        let mut sum = 0.0;
        for _ in POWERS {
            if let Some(j) = hits.next() {
                next -= self.strides[j];
                left -= 1;
            }
            sum += if left == 0 {
                1.0
            } else {
                1.0 - self.chance[next]
            };
        }
        sum / 3.0
    }
}

impl Shooting {
    /// A's winning probability.
    pub fn try_solve(&self) -> Result<f64, SolveError> {
        self.check()?;
        let n = self.heights.len();
        let fits = n <= STANDARD.len() && self.heights.iter().all(|&h| h <= STANDARD[0]);
        let shared = STANDARD_TABLE.get().is_some()
            || POSITIONS_BUILT.load(Ordering::Relaxed) >= STANDARD_POSITIONS;
        if fits && shared {
            let mut padded = vec![0; STANDARD.len() - n];
            padded.extend_from_slice(&self.heights);
            return Ok(Table::standard().chance(&padded));
        }
        Ok(Table::new(&self.heights)?.chance(&self.heights))
    }

    /// Refuses what no input holds: no column, or no block at all.
    pub(super) fn check(&self) -> Result<(), SolveError> {
        if self.blocks() == 0 {
            return Err(SolveError::Malformed("the board holds no block".into()));
        }
        Ok(())
    }

    /// The table, and the first best shot in the order rows from the bottom, left before
    /// right.
    pub fn best_shot(&self) -> Result<(Table, Shot), SolveError> {
        self.check()?;
        let table = Table::new(&self.heights)?;
        let top = self.heights.iter().copied().max().unwrap_or(0);
        let mut best: Option<(f64, Shot)> = None;
        for row in 1..=top {
            for side in [Side::Left, Side::Right] {
                let shot = Shot { row, side };
                let value = table.shot_value(&self.heights, shot);
                if best.is_none_or(|(b, _)| value > b) {
                    best = Some((value, shot));
                }
            }
        }
        let (_, shot) = best.ok_or_else(|| SolveError::Malformed("no shot".into()))?;
        Ok((table, shot))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_is_five_ninths() {
        let p = Shooting::new(vec![2, 1, 1]).try_solve().unwrap();
        assert!((p - 5.0 / 9.0).abs() < 1e-12, "{p}");
    }

    #[test]
    fn bullets_skip_gaps_and_stop_at_the_row_end() {
        let shot = Shot {
            row: 2,
            side: Side::Left,
        };
        assert_eq!(shot.hits(&[2, 1, 3, 2], 2), vec![0, 2]);
        assert_eq!(shot.hits(&[2, 1, 1], 3), vec![0]);
        assert_eq!(shot.after(&[2, 1, 3, 2], 3), vec![1, 1, 2, 1]);
        let right = Shot {
            row: 1,
            side: Side::Right,
        };
        assert_eq!(right.after(&[2, 1, 3], 2), vec![2, 0, 2]);
    }

    #[test]
    fn two_single_blocks_need_luck_or_a_strong_shot() {
        // `1 1` is a rectangle, but a position: A wins with power 2 or 3 (2/3), and with
        // power 1 leaves one block to B, who then wins.
        let table = Table::new(&[1, 1]).unwrap();
        assert!((table.chance(&[1, 1]) - 2.0 / 3.0).abs() < 1e-15);
        assert_eq!(table.chance(&[1, 0]), 1.0);
        assert_eq!(table.chance(&[0, 0]), 0.0);
    }

    #[test]
    fn the_shared_table_agrees_with_a_table_of_the_board_alone() {
        for heights in [vec![2, 1, 1], vec![1, 3, 6, 6, 2], vec![6, 6, 6, 6, 6, 5]] {
            let own = Table::new(&heights).unwrap().chance(&heights);
            let mut padded = vec![0; 6 - heights.len()];
            padded.extend_from_slice(&heights);
            let shared = Table::standard().chance(&padded);
            assert_eq!(own.to_bits(), shared.to_bits(), "{heights:?}");
            let solved = Shooting::new(heights.clone()).try_solve().unwrap();
            assert_eq!(own.to_bits(), solved.to_bits(), "{heights:?}");
        }
    }

    #[test]
    fn the_best_shot_reaches_the_tables_value() {
        let case = Shooting::new(vec![1, 3, 2, 2]);
        let (table, shot) = case.best_shot().unwrap();
        assert_eq!(
            table.shot_value(&case.heights, shot),
            case.try_solve().unwrap()
        );
    }
}
