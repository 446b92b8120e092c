//! The gems explanation: the bags, then one optimal sequence of pours with who pours, the
//! stones made, the bonus turns and the cooker after each pour, and the final difference.

use std::fmt::Write;

use super::{Gems, Player, Pour};
use crate::problem::solution::Explanation;

impl Gems {
    /// The bags and the pours of an optimal sequence.
    pub fn explanation(&self, answer: i32, pours: &[Pour]) -> Explanation {
        let every = match self.s {
            1 => "every gem".to_string(),
            s => format!("every {s} gems"),
        };
        let mut board = format!(
            "G = {} colour{}, S = {}: {every} of a colour in the cooker melt{} into a stone \
             for whoever poured.\n",
            self.g,
            crate::text::plural_s(self.g as u64),
            self.s,
            if self.s == 1 { "s" } else { "" },
        );
        if self.bags.is_empty() {
            board.push_str("No bags: nobody pours.\n");
        }
        for (i, bag) in self.bags.iter().enumerate() {
            let colours: Vec<String> = bag.iter().map(usize::to_string).collect();
            let _ = writeln!(board, "  bag {:>2}: colours {}", i + 1, colours.join(" "));
        }
        if !pours.is_empty() {
            let _ = writeln!(
                board,
                "Optimal pours (the cooker after each: gems of colour 1..{}):",
                self.g
            );
        }
        let moves: Vec<String> = pours
            .iter()
            .enumerate()
            .map(|(k, p)| pour_line(k, p, k + 1 == pours.len()))
            .collect();
        let (alice, bob) = totals(pours);
        let totals = format!("Alice {alice}, Bob {bob}, answer {alice} - {bob} = {answer}\n");
        Explanation {
            answer: answer.to_string(),
            long: self.bags.len() > 12,
            board,
            moves,
            summary: totals.clone(),
            totals,
        }
    }
}

/// `  3. Alice bag  4: 1 stone, pours again; cooker [2 2 0]; difference 1`.
fn pour_line(k: usize, p: &Pour, last: bool) -> String {
    let made = match p.stones {
        0 => "no stone".to_string(),
        1 => "1 stone".to_string(),
        n => format!("{n} stones"),
    };
    let again = if p.stones > 0 && !last {
        ", pours again"
    } else {
        ""
    };
    let cooker: Vec<String> = p.cooker.iter().map(u32::to_string).collect();
    format!(
        "  {:>3}. {:<5} bag {:>2}: {made}{again}; cooker [{}]; difference {}\n",
        k + 1,
        p.player.name(),
        p.bag,
        cooker.join(" "),
        p.difference
    )
}

/// Each player's stones over the whole sequence.
fn totals(pours: &[Pour]) -> (u32, u32) {
    pours.iter().fold((0, 0), |(a, b), p| match p.player {
        Player::Alice => (a + p.stones, b),
        Player::Bob => (a, b + p.stones),
    })
}
