//! The chessboard explanation: the board with its weights, the removals with their costs and
//! running total, and the minimum.

use std::fmt::Write;

use super::{Cell, Chessboard, Removal};
use crate::problem::Explanation;
use crate::problem::input::plural;
use crate::problem::solution::LONG_ABOVE_CELLS;

impl Chessboard {
    /// The board, its weights, and the removals with costs and a running total, from an
    /// optimal sequence of removals.
    pub fn explanation(&self, answer: i64, line: &[Removal]) -> Explanation {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Board {n}×{n}, row 1 at the top: pieces and weights. A piece can go once no other piece \
             remains in its lower-left region (rows at or below it, columns at or left of it).",
            n = self.n
        );
        let width = self
            .weights
            .iter()
            .flatten()
            .map(|v| v.to_string().len())
            .max()
            .unwrap_or(1);
        for (cells, weights) in self.cells.iter().zip(&self.weights) {
            let cells: String = cells.iter().map(|c| c.to_char()).collect();
            let weights: Vec<String> = weights.iter().map(|w| format!("{w:>width$}")).collect();
            let _ = writeln!(out, "  {cells}    {}", weights.join(" "));
        }
        let empty = self
            .cells
            .iter()
            .flatten()
            .filter(|&&c| c == Cell::Empty)
            .count();
        if empty > 0 {
            let s = if empty == 1 { "s" } else { "" };
            let _ = writeln!(
                out,
                "The {} hold{s} no piece and cost{s} nothing; {} not listed.",
                plural(empty, "empty cell"),
                if empty == 1 { "it is" } else { "they are" }
            );
        }
        let _ = writeln!(out, "Optimal removals ((row, column), weight in brackets):");
        let weight = |(r, c): (usize, usize)| {
            self.weights
                .get(r.wrapping_sub(1))
                .and_then(|row| row.get(c.wrapping_sub(1)))
                .copied()
                .unwrap_or(0)
        };
        let board = std::mem::take(&mut out);
        let mut moves = Vec::with_capacity(line.len());
        for (i, mv) in line.iter().enumerate() {
            let (what, cost, total) = match mv {
                Removal::Single {
                    piece,
                    cell,
                    cost,
                    total,
                } => (
                    format!(
                        "{} ({},{})[{}] alone",
                        piece.to_char(),
                        cell.0,
                        cell.1,
                        weight(*cell)
                    ),
                    *cost,
                    *total,
                ),
                Removal::Pair {
                    white,
                    black,
                    cost,
                    total,
                } => (
                    format!(
                        "W ({},{})[{}] + B ({},{})[{}]",
                        white.0,
                        white.1,
                        weight(*white),
                        black.0,
                        black.1,
                        weight(*black)
                    ),
                    *cost,
                    *total,
                ),
            };
            moves.push(format!(
                "  {:>3}. {what:<34} cost {cost:<w$}  total {total}\n",
                i + 1,
                w = width
            ));
        }
        if line.is_empty() {
            let _ = writeln!(out, "  (no pieces: nothing to remove)");
        }
        let totals = format!("Minimum total cost: {answer}\n");
        out.push_str(&totals);
        Explanation {
            answer: answer.to_string(),
            long: self.n * self.n > LONG_ABOVE_CELLS,
            board,
            moves,
            summary: out,
            totals,
        }
    }
}
