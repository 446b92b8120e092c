//! The chess explanation: the board, the optimal line with running differences, who took
//! which cell, and the score sums.

use std::fmt::Write;

use super::{Chess, Place, Player};
use crate::problem::Explanation;
use crate::problem::solution::LONG_ABOVE_CELLS;

impl Chess {
    /// The board, the line of play, and the score sums, from an optimal line.
    pub fn explanation(&self, answer: i64, line: &[Place]) -> Explanation {
        let mut board = String::new();
        let _ = writeln!(
            board,
            "Board {}×{}: A = Feifei's values, B = Niuniu's values; (row, column) from the top left.",
            self.n, self.m
        );
        let width = self
            .a
            .iter()
            .chain(&self.b)
            .flatten()
            .map(|v| v.to_string().len())
            .max()
            .unwrap_or(1);
        let a_width = (width + 1) * self.m - 1;
        let _ = writeln!(board, "  {:<a_width$}    B", "A");
        for (ra, rb) in self.a.iter().zip(&self.b) {
            let _ = writeln!(
                board,
                "  {}    {}",
                row_text(ra, width),
                row_text(rb, width)
            );
        }
        let _ = writeln!(board, "Optimal line (F = Feifei, N = Niuniu):");
        let mut owner = vec![vec!['?'; self.m]; self.n];
        let (mut feifei, mut niuniu) = (Vec::new(), Vec::new());
        let mut moves = Vec::with_capacity(line.len());
        for (i, mv) in line.iter().enumerate() {
            let Place {
                player,
                cell,
                value,
                score,
            } = mv;
            moves.push(format!(
                "  {:>3}. {} ({},{})  +{value:<w$}  difference {score}\n",
                i + 1,
                player.name(),
                cell.0,
                cell.1,
                w = width
            ));
            if let Some(slot) = owner
                .get_mut(cell.0.wrapping_sub(1))
                .and_then(|r| r.get_mut(cell.1.wrapping_sub(1)))
            {
                *slot = player.initial();
            }
            match player {
                Player::Feifei => feifei.push(*value),
                Player::Niuniu => niuniu.push(*value),
            }
        }
        let short: Vec<String> = line
            .iter()
            .map(|mv| format!("{}({},{})", mv.player.initial(), mv.cell.0, mv.cell.1))
            .collect();
        let mut summary = String::new();
        let _ = writeln!(summary, "In short: {}", short.join(" "));
        let _ = writeln!(summary, "Who took which cell:");
        for row in &owner {
            let _ = writeln!(summary, "  {}", row.iter().collect::<String>());
        }
        let (sf, sn) = (feifei.iter().sum::<i64>(), niuniu.iter().sum::<i64>());
        let _ = writeln!(
            summary,
            "Feifei {} = {sf}, Niuniu {} = {sn}, answer {sf} - {sn} = {}",
            sum_text(&feifei),
            sum_text(&niuniu),
            answer
        );
        let totals = format!("Feifei {sf}, Niuniu {sn}, answer {sf} - {sn} = {answer}\n");
        Explanation {
            answer: answer.to_string(),
            long: self.n * self.m > LONG_ABOVE_CELLS,
            board,
            moves,
            summary,
            totals,
        }
    }
}

fn row_text(row: &[i64], width: usize) -> String {
    row.iter()
        .map(|v| format!("{v:>width$}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn sum_text(values: &[i64]) -> String {
    if values.is_empty() {
        "(nothing)".to_string()
    } else {
        values
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join("+")
    }
}
