//! The exact gems solver over used-bag masks.
//!
//! What the cooker holds depends only on which bags were poured (every colour's total modulo
//! S), so a state is the set of used bags: 2^B of them. The value of a state is the stones
//! the player to move makes minus the other's from there on: pouring bag i that makes g
//! stones is worth g + f(next) when g > 0 (the same player pours again) and −f(next)
//! otherwise.
//!
//! The stones a pour makes need no per-colour work: with r(m) the sum over colours of the
//! cooker's gems after the bags of m (each colour's total mod S), a pour of bag i (n_i gems)
//! from m melts exactly r(m) + n_i − r(m ∪ {i}) gems, S per stone. So the solver tabulates
//! r once (one entry per mask, by a Gray-code walk that pours or takes back one bag a step,
//! touching only that bag's colours) and every transition is a handful of integer
//! operations. The table counts values in melted gems, S times the stones, which needs no
//! division per transition and still fits an i16: no more gems melt than the case holds, and
//! cases of more than i16::MAX gems are refused.

use super::{Gems, Player, Pour};
use crate::problem::solution::SolveError;

/// Most bags the solver builds tables for: 2^24 masks of 4 bytes, 64 MiB.
pub const MAX_BAGS: usize = 24;

/// One mask's entry; the two sit side by side because every transition reads both of the
/// next mask's, far in the table from the current one (one cache miss rather than two).
#[derive(Clone, Copy, Default)]
struct State {
    /// The cooker's gems after pouring the mask's bags.
    residue: u16,
    /// The value for the player to move, in melted gems (S per stone).
    value: i16,
}

/// The tables of one case: per mask, its [`State`].
struct Tables {
    states: Vec<State>,
}

impl Tables {
    /// The answer in stones: the start's value, S gems to a stone.
    fn answer(&self, s: usize) -> i32 {
        i32::from(self.states[0].value) / s as i32
    }
}

impl Gems {
    /// Alice's stones minus Bob's under optimal play.
    pub fn try_solve(&self) -> Result<i32, SolveError> {
        Ok(self.tables()?.answer(self.s))
    }

    /// The answer and one optimal sequence of pours.
    pub fn try_solve_line(&self) -> Result<(i32, Vec<Pour>), SolveError> {
        let tables = self.tables()?;
        Ok((tables.answer(self.s), self.line(&tables)))
    }

    fn check(&self) -> Result<(), SolveError> {
        if self.bags.len() > MAX_BAGS {
            return Err(SolveError::Malformed(format!(
                "{} bags: the solver handles at most {MAX_BAGS}",
                self.bags.len()
            )));
        }
        if self.s == 0 || self.s > u16::MAX as usize / 2 || self.g == 0 {
            return Err(SolveError::Malformed(format!(
                "S = {}, G = {}: need S >= 1 and G >= 1",
                self.s, self.g
            )));
        }
        let colours_ok = self
            .bags
            .iter()
            .flatten()
            .all(|&c| (1..=self.g).contains(&c));
        let gems = self.gem_count();
        if !colours_ok || gems > i16::MAX as usize || self.g * self.s > u16::MAX as usize {
            return Err(SolveError::Malformed(
                "colours outside 1..=G, or too many gems for the tables".to_string(),
            ));
        }
        Ok(())
    }

    fn tables(&self) -> Result<Tables, SolveError> {
        self.check()?;
        let b = self.bags.len();
        let full = (1usize << b) - 1;
        let mut states = self.residues();
        let sizes: Vec<i32> = self.bags.iter().map(|bag| bag.len() as i32).collect();
        for mask in (0..full).rev() {
            let r = i32::from(states[mask].residue);
            let mut best = i32::MIN;
            let mut free = full & !mask;
            while free != 0 {
                let i = free.trailing_zeros() as usize;
                free &= free - 1;
                let next = mask | 1 << i;
                let State { residue, value } = states[next];
                let melted = r + sizes[i] - i32::from(residue);
                let rest = i32::from(value);
                let worth = if melted > 0 { melted + rest } else { -rest };
                best = best.max(worth);
            }
            states[mask].value = best as i16;
        }
        Ok(Tables { states })
    }

    /// r(m) for every mask m, the masks taken in Gray-code order: each step pours one bag into
    /// the cooker or takes it back out, so only that bag's colours change, each by its count
    /// modulo S, and r follows by the change of those colours alone.
    fn residues(&self) -> Vec<State> {
        let s = self.s as u32;
        let colours: Vec<Vec<(usize, u32)>> = (0..self.bags.len())
            .map(|i| {
                let counts = self.counts(i).into_iter().map(|n| n % s).enumerate();
                counts.filter(|&(_, n)| n != 0).collect()
            })
            .collect();
        let mut states = vec![State::default(); 1 << self.bags.len()];
        let mut cooker = vec![0u32; self.g];
        let (mut mask, mut r) = (0usize, 0u32);
        for step in 1..states.len() {
            let bag = step.trailing_zeros() as usize;
            mask ^= 1 << bag;
            let pour = mask & 1 << bag != 0;
            for &(c, n) in &colours[bag] {
                let before = cooker[c];
                let mut after = before + if pour { n } else { s - n };
                if after >= s {
                    after -= s;
                }
                cooker[c] = after;
                r = r - before + after;
            }
            states[mask].residue = r as u16;
        }
        states
    }

    /// One optimal sequence: at every state, the first bag (in input order) that reaches the
    /// state's value.
    fn line(&self, tables: &Tables) -> Vec<Pour> {
        let b = self.bags.len();
        let full = (1usize << b) - 1;
        let s = self.s as u32;
        let mut cooker = vec![0u32; self.g];
        let (mut mask, mut player, mut difference) = (0usize, Player::Alice, 0i32);
        let mut pours = Vec::with_capacity(b);
        while mask != full {
            let r = i32::from(tables.states[mask].residue);
            let here = i32::from(tables.states[mask].value);
            let (bag, stones) = (0..b)
                .filter(|i| mask & 1 << i == 0)
                .map(|i| {
                    let next = mask | 1 << i;
                    let State { residue, value } = tables.states[next];
                    let melted = r + self.bags[i].len() as i32 - i32::from(residue);
                    let rest = i32::from(value);
                    let worth = if melted > 0 { melted + rest } else { -rest };
                    (i, melted / s as i32, worth)
                })
                .find(|&(_, _, worth)| worth == here)
                .map(|(i, stones, _)| (i, stones))
                .expect("some pour reaches the state's value");
            for (c, n) in cooker.iter_mut().zip(self.counts(bag)) {
                *c = (*c + n) % s;
            }
            difference += match player {
                Player::Alice => stones,
                Player::Bob => -stones,
            };
            pours.push(Pour {
                player,
                bag: bag + 1,
                stones: stones as u32,
                cooker: cooker.clone(),
                difference,
            });
            mask |= 1 << bag;
            if stones == 0 {
                player = player.other();
            }
        }
        pours
    }
}
