//! The chess explanation: the board, the optimal line with running differences, who took
//! which cell, and the score sums.

use std::fmt::Write;

use super::{Chess, Place, Player};
use crate::problem::solution::Explanation;
use crate::problem::staircase::LONG_ABOVE_CELLS;

impl Chess {
    /// The board, the line of play, and the score sums, from an optimal line.
    pub fn explanation(&self, answer: i64, line: &[Place]) -> Explanation {
        let width = self.value_width();
        let moves = line
            .iter()
            .enumerate()
            .map(|(i, mv)| place_line(i, mv, width))
            .collect();
        let short: Vec<String> = line
            .iter()
            .map(|mv| format!("{}({},{})", mv.player.initial(), mv.cell.0, mv.cell.1))
            .collect();
        let mut summary = String::new();
        let _ = writeln!(summary, "In short: {}", short.join(" "));
        let _ = writeln!(summary, "Who took which cell:");
        for row in &self.owners(line) {
            let _ = writeln!(summary, "  {}", row.iter().collect::<String>());
        }
        let (feifei, niuniu) = values_taken(line);
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
            board: self.board_text(width),
            moves,
            summary,
            totals,
        }
    }

    /// The digits of the widest value of either player: both grids and the moves' gains line
    /// up to it.
    fn value_width(&self) -> usize {
        self.a
            .iter()
            .chain(&self.b)
            .flatten()
            .map(|v| v.to_string().len())
            .max()
            .unwrap_or(1)
    }

    /// Both players' values side by side, and the heading of the line of play.
    fn board_text(&self, width: usize) -> String {
        let mut board = String::new();
        let _ = writeln!(
            board,
            "Board {}×{}: A = Feifei's values, B = Niuniu's values; (row, column) from the top left.",
            self.n, self.m
        );
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
        board
    }

    /// The board with each cell marked by the initial of the player who took it; `?` where
    /// the line never reaches.
    fn owners(&self, line: &[Place]) -> Vec<Vec<char>> {
        let mut owner = vec![vec!['?'; self.m]; self.n];
        for Place { player, cell, .. } in line {
            if let Some(slot) = owner
                .get_mut(cell.0.wrapping_sub(1))
                .and_then(|r| r.get_mut(cell.1.wrapping_sub(1)))
            {
                *slot = player.initial();
            }
        }
        owner
    }
}

/// `    2. Niuniu (1,2)  +0      difference 54316`.
fn place_line(i: usize, mv: &Place, width: usize) -> String {
    let Place {
        player,
        cell,
        value,
        score,
    } = mv;
    format!(
        "  {:>3}. {} ({},{})  +{value:<w$}  difference {score}\n",
        i + 1,
        player.name(),
        cell.0,
        cell.1,
        w = width
    )
}

/// The values Feifei and Niuniu took, each in the order of the line.
fn values_taken(line: &[Place]) -> (Vec<i64>, Vec<i64>) {
    let (mut feifei, mut niuniu) = (Vec::new(), Vec::new());
    for mv in line {
        match mv.player {
            Player::Feifei => feifei.push(mv.value),
            Player::Niuniu => niuniu.push(mv.value),
        }
    }
    (feifei, niuniu)
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
