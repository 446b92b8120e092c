//! The chessboard explanation: the board with its weights, the removals with their costs and
//! running total, and the minimum.

use std::fmt::Write;

use super::{Cell, Chessboard, Removal};
use crate::problem::input::plural;
use crate::problem::solution::Explanation;
use crate::problem::staircase::LONG_ABOVE_CELLS;

impl Chessboard {
    /// The board, its weights, and the removals with costs and a running total, from an
    /// optimal sequence of removals.
    pub fn explanation(&self, answer: i64, line: &[Removal]) -> Explanation {
        let width = self.weight_width();
        let moves = line
            .iter()
            .enumerate()
            .map(|(i, mv)| self.removal_line(i, mv, width))
            .collect();
        let mut summary = String::new();
        if line.is_empty() {
            let _ = writeln!(summary, "  (no pieces: nothing to remove)");
        }
        let totals = format!("Minimum total cost: {answer}\n");
        summary.push_str(&totals);
        Explanation {
            answer: answer.to_string(),
            long: self.n * self.n > LONG_ABOVE_CELLS,
            board: self.board_text(width),
            moves,
            summary,
            totals,
        }
    }

    /// The digits of the widest weight: the weights grid and the costs of the removals line
    /// up to it.
    fn weight_width(&self) -> usize {
        self.weights
            .iter()
            .flatten()
            .map(|v| v.to_string().len())
            .max()
            .unwrap_or(1)
    }

    /// The rule of removal, the pieces beside their weights, a note on empty cells, and the
    /// heading of the removals.
    fn board_text(&self, width: usize) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Board {n}×{n}, row 1 at the top: pieces and weights. A piece can go once no other piece \
             remains in its lower-left region (rows at or below it, columns at or left of it).",
            n = self.n
        );
        for (cells, weights) in self.cells.iter().zip(&self.weights) {
            let cells: String = cells.iter().map(|c| c.to_char()).collect();
            let weights: Vec<String> = weights.iter().map(|w| format!("{w:>width$}")).collect();
            let _ = writeln!(out, "  {cells}    {}", weights.join(" "));
        }
        out.push_str(&self.empty_cells_note());
        let _ = writeln!(out, "Optimal removals ((row, column), weight in brackets):");
        out
    }

    /// Why the empty cells never appear among the removals; nothing when there are none.
    fn empty_cells_note(&self) -> String {
        let empty = self
            .cells
            .iter()
            .flatten()
            .filter(|&&c| c == Cell::Empty)
            .count();
        if empty == 0 {
            return String::new();
        }
        let s = if empty == 1 { "s" } else { "" };
        format!(
            "The {} hold{s} no piece and cost{s} nothing; {} not listed.\n",
            plural(empty, "empty cell"),
            if empty == 1 { "it is" } else { "they are" }
        )
    }

    /// The weight at a 1-based (row, column); 0 for a cell off the board rather than a panic.
    fn weight(&self, (r, c): (usize, usize)) -> i64 {
        self.weights
            .get(r.wrapping_sub(1))
            .and_then(|row| row.get(c.wrapping_sub(1)))
            .copied()
            .unwrap_or(0)
    }

    /// `    5. W (4,4)[488055] + B (1,1)[358636]  cost 129419  total 1309568`.
    fn removal_line(&self, i: usize, mv: &Removal, width: usize) -> String {
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
                    self.weight(*cell)
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
                    self.weight(*white),
                    black.0,
                    black.1,
                    self.weight(*black)
                ),
                *cost,
                *total,
            ),
        };
        format!(
            "  {:>3}. {what:<34} cost {cost:<w$}  total {total}\n",
            i + 1,
            w = width
        )
    }
}
