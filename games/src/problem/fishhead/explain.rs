//! The fishhead explanation: the lattice drawn in text with the given edges numbered and the
//! squares marked by owner, the given edges that scored, one optimal continuation with the
//! squares each edge completes, and the final position and score.

use std::fmt::Write;

use super::lattice::{self, EDGES, SIDE, SQUARES};
use super::{Fishhead, Outcome, Stroke};
use crate::problem::solution::{Explanation, SolveError};

/// Characters from one point's column to the next in the picture.
const STEP: usize = 10;
/// Blank columns left of the picture.
const MARGIN: usize = 2;

impl Fishhead {
    /// The given position, an optimal continuation and the final position, from `line`.
    pub fn explanation(
        &self,
        outcome: Outcome,
        line: &[Stroke],
    ) -> Result<Explanation, SolveError> {
        let (_, given) = self.replay()?;
        let next = super::Player::drawing(given.len() + 1);
        let (tom, jerry) = given.last().map_or((0, 0), |s| (s.tom, s.jerry));
        let mut board = String::new();
        let _ = writeln!(
            board,
            "Points 1..16 row by row; #k is the k-th edge drawn (Tom draws the odd ones, Jerry\n\
             the even ones); T and J mark whose squares are complete."
        );
        let scored: Vec<&Stroke> = given.iter().filter(|s| !s.closed.is_empty()).collect();
        if scored.is_empty() {
            let _ = writeln!(
                board,
                "Given: {} edges, no square completed yet.",
                given.len()
            );
        } else {
            let _ = writeln!(
                board,
                "Given: {} edges; those that completed squares:",
                given.len()
            );
            for s in scored {
                let (a, b) = self.edges[s.number - 1];
                let _ = writeln!(board, "  {}", stroke_text(s, (a, b)));
            }
        }
        let _ = writeln!(board, "Score so far: Tom {tom}, Jerry {jerry}.");
        board.push_str(&picture(&given));
        if line.is_empty() {
            let _ = writeln!(board, "No edge is left: the game is over.");
        } else {
            let _ = writeln!(
                board,
                "{} to draw edge #{}; an optimal continuation (at every turn the first optimal\n\
                 edge in lattice order):",
                next.name(),
                given.len() + 1
            );
        }
        let moves = line
            .iter()
            .map(|s| format!("  {}\n", stroke_text(s, lattice::endpoints(s.edge))))
            .collect();
        let winner = outcome.winner();
        let totals = format!(
            "Tom {}, Jerry {}: {} wins, {}\n",
            outcome.tom,
            outcome.jerry,
            winner.name(),
            winner.answer()
        );
        let mut summary = String::new();
        if !line.is_empty() {
            let _ = writeln!(summary, "The final position:");
            let all: Vec<Stroke> = given.iter().chain(line).cloned().collect();
            summary.push_str(&picture(&all));
        }
        summary.push_str(&totals);
        Ok(Explanation {
            answer: winner.answer().to_string(),
            long: false,
            board,
            moves,
            summary,
            totals,
        })
    }
}

/// `#7  Jerry  5-6   completes 1-2-6-5        Tom 1, Jerry 2`.
fn stroke_text(s: &Stroke, (a, b): (u8, u8)) -> String {
    let closed = if s.closed.is_empty() {
        String::new()
    } else {
        let names: Vec<String> = s.closed.iter().map(|&q| square_name(q)).collect();
        format!("completes {}", names.join(" and "))
    };
    let number = format!("#{}", s.number);
    let edge = format!("{a}-{b}");
    format!(
        "{number:<4}{:<6}{edge:<6}{closed:<30}  Tom {}, Jerry {}",
        s.player.name(),
        s.tom,
        s.jerry
    )
}

/// A square by its corners, clockwise from the top left: `6-7-11-10`.
fn square_name(s: usize) -> String {
    let c = lattice::corners(s);
    format!("{}-{}-{}-{}", c[0], c[1], c[2], c[3])
}

/// The lattice with the edges of `strokes` numbered and the squares they completed marked by
/// owner: 4 rows of points with 3 lines between each two.
fn picture(strokes: &[Stroke]) -> String {
    let width = MARGIN + STEP * (SIDE - 1) + 2;
    let height = SIDE + (SIDE - 1) * 3;
    let mut grid = vec![vec![' '; width]; height];
    let mut put = |row: usize, col: usize, text: &str| {
        for (i, ch) in text.chars().enumerate() {
            if let Some(cell) = grid[row].get_mut(col + i) {
                *cell = ch;
            }
        }
    };
    // The point at (r, c) is written right-aligned in 2 characters at this column.
    let x = |c: usize| MARGIN + STEP * c;
    for r in 0..SIDE {
        for c in 0..SIDE {
            put(4 * r, x(c), &format!("{:>2}", lattice::point(r, c)));
        }
    }
    let mut number = [0usize; EDGES];
    let mut owner = [None; SQUARES];
    for s in strokes {
        number[s.edge] = s.number;
        for &q in &s.closed {
            owner[q] = Some(s.player.initial());
        }
    }
    for (e, &k) in number.iter().enumerate() {
        if k == 0 {
            continue;
        }
        let label = format!("#{k}");
        let (a, _) = lattice::endpoints(e);
        let (r, c) = ((a as usize - 1) / SIDE, (a as usize - 1) % SIDE);
        if e < lattice::vertical(0, 0) {
            put(4 * r, x(c) + 2, &format!(" {label:-^6} "));
        } else {
            put(4 * r + 1, x(c) + 1, "|");
            put(4 * r + 2, x(c) + 2 - label.len(), &label);
            put(4 * r + 3, x(c) + 1, "|");
        }
    }
    for (q, who) in owner.iter().enumerate() {
        if let Some(initial) = who {
            let (r, c) = (q / (SIDE - 1), q % (SIDE - 1));
            put(4 * r + 2, x(c) + 5, &initial.to_string());
        }
    }
    grid.iter()
        .map(|row| {
            let text: String = row.iter().collect();
            format!("{}\n", text.trim_end())
        })
        .collect()
}
