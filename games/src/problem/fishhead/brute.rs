//! Exhaustive fishhead search that shares nothing with the table solver: the lattice as two
//! grids of booleans, squares checked by their coordinates, and plain minimax over Tom's final
//! number of squares (Tom maximizes it, Jerry minimizes it), no memo, so that agreement with
//! the table is real evidence.

use super::{Fishhead, Outcome};

/// The most edges left for which the game tree is searched: 9! = 362,880 lines of play.
pub const BRUTE_MAX_REMAINING: usize = 9;

/// A unit edge by the point it starts from (0-based row and column).
#[derive(Clone, Copy)]
enum Line {
    /// From (row, col) to (row, col + 1).
    Across(usize, usize),
    /// From (row, col) to (row + 1, col).
    Down(usize, usize),
}

/// Which edges are drawn.
#[derive(Default)]
struct Board {
    across: [[bool; 3]; 4],
    down: [[bool; 4]; 3],
}

/// The edge joining points `a` and `b` (1..=16, row by row), if they are neighbours.
fn line_of(a: u8, b: u8) -> Option<Line> {
    let (p, q) = (i32::from(a.min(b)) - 1, i32::from(a.max(b)) - 1);
    if p < 0 || q > 15 {
        return None;
    }
    let (r1, c1, r2, c2) = (p / 4, p % 4, q / 4, q % 4);
    if r1 == r2 && c2 == c1 + 1 {
        Some(Line::Across(r1 as usize, c1 as usize))
    } else if c1 == c2 && r2 == r1 + 1 {
        Some(Line::Down(r1 as usize, c1 as usize))
    } else {
        None
    }
}

impl Board {
    fn slot(&mut self, line: Line) -> &mut bool {
        match line {
            Line::Across(r, c) => &mut self.across[r][c],
            Line::Down(r, c) => &mut self.down[r][c],
        }
    }

    /// Whether the square whose top-left point is (r, c) has all four sides.
    fn boxed(&self, r: usize, c: usize) -> bool {
        self.across[r][c] && self.across[r + 1][c] && self.down[r][c] && self.down[r][c + 1]
    }

    /// The squares on either side of `line`, by their top-left points.
    fn beside(line: Line) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        match line {
            Line::Across(r, c) => {
                if r > 0 {
                    out.push((r - 1, c));
                }
                if r < 3 {
                    out.push((r, c));
                }
            }
            Line::Down(r, c) => {
                if c > 0 {
                    out.push((r, c - 1));
                }
                if c < 3 {
                    out.push((r, c));
                }
            }
        }
        out
    }

    /// Draws `line` and returns how many squares it boxed.
    fn draw(&mut self, line: Line) -> u8 {
        *self.slot(line) = true;
        Board::beside(line)
            .into_iter()
            .filter(|&(r, c)| self.boxed(r, c))
            .count() as u8
    }

    fn free(&self) -> Vec<Line> {
        let mut out = Vec::new();
        for r in 0..4 {
            for c in 0..3 {
                if !self.across[r][c] {
                    out.push(Line::Across(r, c));
                }
            }
        }
        for r in 0..3 {
            for c in 0..4 {
                if !self.down[r][c] {
                    out.push(Line::Down(r, c));
                }
            }
        }
        out
    }
}

/// Tom's squares at the end of the game when both play optimally from here.
fn best_for_tom(board: &mut Board, tom_moves: bool, tom: u8) -> u8 {
    let free = board.free();
    if free.is_empty() {
        return tom;
    }
    let mut best: Option<u8> = None;
    for line in free {
        let boxed = board.draw(line);
        let gained = if tom_moves { boxed } else { 0 };
        let result = best_for_tom(board, !tom_moves, tom + gained);
        *board.slot(line) = false;
        best = Some(match best {
            None => result,
            Some(b) if tom_moves => b.max(result),
            Some(b) => b.min(result),
        });
    }
    best.unwrap_or(tom)
}

/// The final squares under optimal play, by exhaustive search; `None` when more than
/// `max_remaining` edges are left or the case is not a list of distinct unit edges.
pub fn fishhead_within(c: &Fishhead, max_remaining: usize) -> Option<Outcome> {
    if c.edges.len() > 24 || 24 - c.edges.len() > max_remaining {
        return None;
    }
    let mut board = Board::default();
    let mut tom = 0;
    for (i, &(a, b)) in c.edges.iter().enumerate() {
        let line = line_of(a, b)?;
        if *board.slot(line) {
            return None;
        }
        let boxed = board.draw(line);
        // Edges 1, 3, 5, ... are Tom's.
        if i.is_multiple_of(2) {
            tom += boxed;
        }
    }
    let tom_moves = c.edges.len().is_multiple_of(2);
    let tom = best_for_tom(&mut board, tom_moves, tom);
    Some(Outcome {
        tom,
        jerry: 9 - tom,
    })
}

/// [`fishhead_within`] up to [`BRUTE_MAX_REMAINING`] edges left.
pub fn fishhead(c: &Fishhead) -> Option<Outcome> {
    fishhead_within(c, BRUTE_MAX_REMAINING)
}
