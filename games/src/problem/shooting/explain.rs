//! The shooting explanation: the board drawn in text, A's winning probability, the best
//! first shot and its three outcomes (the board after each power and A's chance from
//! there), and the value of every first shot.

use std::fmt::Write;

use super::Shooting;
use super::solve::{POWERS, Shot, Side, Table};
use crate::problem::solution::{Explanation, SolveError};

impl Shooting {
    /// The board, the best first shot with its outcomes, and every shot's value.
    pub fn explanation(&self) -> Result<Explanation, SolveError> {
        let (table, best) = self.best_shot()?;
        let answer = table.chance(&self.heights);
        let shown = format!("{answer:.6}");
        let mut board = String::new();
        let _ = writeln!(
            board,
            "Board of {} columns, heights {}; rows from the bottom, # = a block:",
            self.heights.len(),
            heights_text(&self.heights)
        );
        board.push_str(&self.drawing());
        let _ = writeln!(board, "A shoots first and wins with probability {shown}.");
        let _ = writeln!(
            board,
            "Best first shot: row {} from the {}; each power has probability 1/3:",
            best.row,
            best.side.name()
        );
        let mut chances = Vec::with_capacity(POWERS.len());
        let moves = POWERS
            .iter()
            .map(|&power| {
                let (line, chance) = self.outcome(&table, best, power);
                chances.push(chance);
                line
            })
            .collect();
        let terms: Vec<String> = chances.iter().map(|c| format!("{c:.6}")).collect();
        let totals = format!("A's chance: ({}) / 3 = {shown}\n", terms.join(" + "));
        let mut summary = totals.clone();
        summary.push_str(&self.every_shot(&table));
        Ok(Explanation {
            answer: shown,
            long: false,
            board,
            moves,
            summary,
            totals,
        })
    }

    /// The board, top row first, with row numbers on the left and column numbers below.
    fn drawing(&self) -> String {
        let top = self.heights.iter().copied().max().unwrap_or(0);
        let width = top.to_string().len();
        let mut out = String::new();
        for row in (1..=top).rev() {
            let cells: Vec<&str> = self
                .heights
                .iter()
                .map(|&h| if h >= row { "#" } else { "." })
                .collect();
            let _ = writeln!(out, "  row {row:>width$}  {}", cells.join(" "));
        }
        let columns: Vec<String> = (1..=self.heights.len())
            .map(|j| (j % 10).to_string())
            .collect();
        let _ = writeln!(out, "  col {:>width$}  {}", "", columns.join(" "));
        out
    }

    /// One power of `shot`: which columns lose a block, the board after, A's chance then.
    fn outcome(&self, table: &Table, shot: Shot, power: usize) -> (String, f64) {
        let hits: Vec<String> = shot
            .hits(&self.heights, power)
            .iter()
            .map(|j| (j + 1).to_string())
            .collect();
        let plural = if hits.len() == 1 { "" } else { "s" };
        let after = shot.after(&self.heights, power);
        let chance = table.after_shot(&after);
        let then = if after.iter().all(|&h| h == 0) {
            "the board is empty: A has won".to_string()
        } else {
            format!(
                "heights {}, B to move: A wins with {chance:.6}",
                heights_text(&after)
            )
        };
        let line = format!(
            "  power {power}: hits column{plural} {} -> {then}\n",
            hits.join(", ")
        );
        (line, chance)
    }

    /// A's chance after each first shot, row by row.
    fn every_shot(&self, table: &Table) -> String {
        let top = self.heights.iter().copied().max().unwrap_or(0);
        let mut out = String::from("Every first shot (A's chance):\n");
        for row in 1..=top {
            let value = |side| table.shot_value(&self.heights, Shot { row, side });
            let _ = writeln!(
                out,
                "  row {row}: from the left {:.6}, from the right {:.6}",
                value(Side::Left),
                value(Side::Right)
            );
        }
        out
    }
}

fn heights_text(heights: &[usize]) -> String {
    let parts: Vec<String> = heights.iter().map(usize::to_string).collect();
    parts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_is_explained_shot_by_shot() {
        let e = Shooting::new(vec![2, 1, 1]).explanation().unwrap();
        assert_eq!(e.answer, "0.555556");
        let full = e.full();
        assert!(
            full.contains("  row 2  # . .\n  row 1  # # #\n  col    1 2 3\n"),
            "{full}"
        );
        assert_eq!(e.moves.len(), 3);
        assert!(full.contains("A's chance: ("), "{full}");
        assert!(full.contains("row 1: from the left"), "{full}");
    }
}
