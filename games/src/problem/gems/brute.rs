//! Exhaustive gems search that shares nothing with the mask solver: explicit players with
//! their own stone counts, a cooker of gems that melts S at a time while it can, every order
//! of the bags tried, no memo and no difference trick.

use super::Gems;

/// Most bags the plain search is run for: 8! orders at most.
pub const MAX_BAGS: usize = 8;

/// Alice's stones minus Bob's when both play optimally, or `None` when the case has more
/// bags than [`MAX_BAGS`] (or is malformed).
pub fn gems(case: &Gems) -> Option<i32> {
    if case.bags.len() > MAX_BAGS
        || case.s == 0
        || case.bags.iter().flatten().any(|&c| c == 0 || c > case.g)
    {
        return None;
    }
    let mut game = Game {
        case,
        used: vec![false; case.bags.len()],
        cooker: vec![0; case.g + 1],
        stones: [0, 0],
        saved: vec![vec![0; case.g + 1]; case.bags.len() + 1],
    };
    let (alice, bob) = game.play(0, 0);
    Some(alice - bob)
}

struct Game<'a> {
    case: &'a Gems,
    used: Vec<bool>,
    /// Gems of each colour in the cooker, indexed by colour (index 0 unused).
    cooker: Vec<usize>,
    /// Stones of Alice (0) and Bob (1) so far.
    stones: [i32; 2],
    /// Per depth (bags poured), the cooker as it was there, put back after each try: made
    /// once, not a copy allocated at every position.
    saved: Vec<Vec<usize>>,
}

impl Game<'_> {
    /// The final stones (Alice, Bob) when `player` pours next, `depth` bags are poured, and
    /// both play their best.
    fn play(&mut self, player: usize, depth: usize) -> (i32, i32) {
        let mut best: Option<(i32, i32)> = None;
        self.saved[depth].copy_from_slice(&self.cooker);
        let saved_stones = self.stones;
        for i in 0..self.case.bags.len() {
            if self.used[i] {
                continue;
            }
            self.used[i] = true;
            let made = self.pour(i);
            self.stones[player] += made;
            let next = if made > 0 { player } else { 1 - player };
            let end = self.play(next, depth + 1);
            self.used[i] = false;
            self.cooker.copy_from_slice(&self.saved[depth]);
            self.stones = saved_stones;
            // Each player wants the most stones for themselves over the other.
            let margin = |(a, b): (i32, i32)| if player == 0 { a - b } else { b - a };
            if best.is_none_or(|b| margin(end) > margin(b)) {
                best = Some(end);
            }
        }
        best.unwrap_or((self.stones[0], self.stones[1]))
    }

    /// Pours bag `i` into the cooker and melts: while some colour has S gems, S of them
    /// become one stone. Returns the stones made.
    fn pour(&mut self, i: usize) -> i32 {
        for &c in &self.case.bags[i] {
            self.cooker[c] += 1;
        }
        let mut made = 0;
        for colour in 1..=self.case.g {
            while self.cooker[colour] >= self.case.s {
                self.cooker[colour] -= self.case.s;
                made += 1;
            }
        }
        made
    }
}
