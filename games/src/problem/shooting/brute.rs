//! Exact shooting search that shares nothing with the reference table: the board as a grid
//! of cells (one byte per column, bit r set when row r holds a block), bullets flying
//! through it cell by cell, gravity applied to the whole grid after each shot, and winning
//! probabilities as exact fractions.
//!
//! Every probability is a multiple of 1/3^b on a board of b blocks (each shot removes a
//! block and averages three outcomes), so all of them are integers over the common
//! denominator 3^[`EXPONENT`], which an i128 holds with room for the sum of three.

use std::collections::HashMap;

use super::Shooting;

/// Boards of up to this many blocks are searched: 3^49 < 2^78.
pub const EXPONENT: u32 = 49;

/// Columns and rows of the grid (one byte per column).
const SIDE: usize = 8;

/// The common denominator, 3^[`EXPONENT`].
pub fn denominator() -> i128 {
    3i128.pow(EXPONENT)
}

/// A board as a grid: column j is byte j, row r (0 = the bottom) is bit r of it.
pub fn grid(case: &Shooting) -> Option<u64> {
    if case.heights.len() > SIDE || case.blocks() as u32 > EXPONENT {
        return None;
    }
    let mut grid = 0u64;
    for (col, &h) in case.heights.iter().enumerate() {
        if h > SIDE {
            return None;
        }
        for row in 0..h {
            grid |= cell(row, col);
        }
    }
    Some(grid)
}

fn cell(row: usize, col: usize) -> u64 {
    1 << (col * SIDE + row)
}

/// The exact winning probabilities of the player to move, as numerators over
/// [`denominator`], remembered across boards.
#[derive(Default)]
pub struct Exact {
    memo: HashMap<u64, i128>,
}

impl Exact {
    pub fn new() -> Exact {
        Exact::default()
    }

    /// The player to move's winning probability on a non-empty `grid`, times 3^49; `None`
    /// for a grid with more blocks than [`EXPONENT`].
    pub fn value(&mut self, grid: u64) -> Option<i128> {
        if grid.count_ones() > EXPONENT || grid == 0 {
            return None;
        }
        if let Some(&v) = self.memo.get(&grid) {
            return Some(v);
        }
        let whole = denominator();
        let mut best: Option<i128> = None;
        for row in 0..SIDE {
            for from_left in [true, false] {
                if (0..SIDE).all(|col| grid & cell(row, col) == 0) {
                    continue; // an empty row is not a shot
                }
                let mut sum = 0i128;
                for power in 1..=3 {
                    let next = fire(grid, row, from_left, power);
                    sum += if next == 0 {
                        whole
                    } else {
                        whole - self.value(next)?
                    };
                }
                if sum % 3 != 0 {
                    return None; // not a multiple of 1/3^49: more blocks than the bound
                }
                best = best.max(Some(sum / 3));
            }
        }
        let best = best?;
        self.memo.insert(grid, best);
        Some(best)
    }
}

/// The grid after a bullet of `power` flies along `row` from one side: it removes the first
/// `power` blocks it meets (passing through empty cells), then every block falls as far as
/// it can in its column.
fn fire(grid: u64, row: usize, from_left: bool, power: usize) -> u64 {
    let mut grid = grid;
    let mut removed = 0;
    for step in 0..SIDE {
        let col = if from_left { step } else { SIDE - 1 - step };
        if removed < power && grid & cell(row, col) != 0 {
            grid &= !cell(row, col);
            removed += 1;
        }
    }
    fall(grid)
}

/// Gravity: every column's blocks at the bottom of it, in one piece.
fn fall(grid: u64) -> u64 {
    let mut settled = 0u64;
    for col in 0..SIDE {
        let blocks = ((grid >> (col * SIDE)) & 0xFF).count_ones() as usize;
        for row in 0..blocks {
            settled |= cell(row, col);
        }
    }
    settled
}

/// A's exact winning probability, times 3^49.
pub fn exact(case: &Shooting) -> Option<i128> {
    Exact::new().value(grid(case)?)
}

/// `numerator / 3^49` to 6 decimals, rounded to nearest, and how far the exact value is
/// from a rounding tie in units of the 6th decimal (0.5 would be a tie is never reached: a
/// tie needs an even numerator over an odd denominator).
pub fn round6(numerator: i128) -> (String, f64) {
    let whole = denominator();
    let scaled = numerator * 1_000_000;
    let (floor, rest) = (scaled / whole, scaled % whole);
    let up = 2 * rest > whole;
    let value = floor + i128::from(up);
    let text = format!("{}.{:06}", value / 1_000_000, value % 1_000_000);
    let from_tie = ((2 * rest - whole).abs() as f64) / (2.0 * whole as f64);
    (text, from_tie)
}

/// A's winning probability, exactly rounded to 6 decimals.
pub fn rounded(case: &Shooting) -> Option<String> {
    Some(round6(exact(case)?).0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_is_exactly_five_ninths() {
        let v = exact(&Shooting::new(vec![2, 1, 1])).unwrap();
        assert_eq!(v * 9, 5 * denominator());
        assert_eq!(round6(v).0, "0.555556");
    }

    #[test]
    fn bullets_pass_gaps_and_blocks_fall() {
        // Columns 2 1 3: row 1 (bit 1) from the left meets columns 0 and 2.
        let g = grid(&Shooting::new(vec![2, 1, 3])).unwrap();
        let after = fire(g, 1, true, 2);
        assert_eq!(after, grid(&Shooting::new(vec![1, 1, 2])).unwrap());
        // Power 3 on a row of two blocks takes both.
        assert_eq!(fire(g, 1, true, 3), after);
        // From the right along the bottom row.
        let bottom = fire(g, 0, false, 1);
        assert_eq!(bottom, grid(&Shooting::new(vec![2, 1, 2])).unwrap());
    }

    #[test]
    fn rounding_is_to_nearest() {
        let d = denominator();
        assert_eq!(round6(d).0, "1.000000");
        assert_eq!(round6(0).0, "0.000000");
        assert_eq!(round6(d / 3).0, "0.333333");
        assert_eq!(round6(2 * d / 3).0, "0.666667");
    }
}
