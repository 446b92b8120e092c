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
//! r once (one byte per mask, by a walk that adds one bag at a time) and every transition
//! is a handful of integer operations; the values fit an i16 (|answer| ≤ B × n ≤ 240).

use super::{Gems, Player, Pour};
use crate::problem::solution::SolveError;

/// Most bags the solver builds tables for: 2^24 masks, 48 MiB.
pub const MAX_BAGS: usize = 24;

/// The tables of one case.
struct Tables {
    /// Per mask: the cooker's gems after pouring those bags.
    residue: Vec<u16>,
    /// Per mask: the value for the player to move.
    value: Vec<i16>,
}

impl Gems {
    /// Alice's stones minus Bob's under optimal play.
    pub fn try_solve(&self) -> Result<i32, SolveError> {
        Ok(i32::from(self.tables()?.value[0]))
    }

    /// The answer and one optimal sequence of pours.
    pub fn try_solve_line(&self) -> Result<(i32, Vec<Pour>), SolveError> {
        let tables = self.tables()?;
        Ok((i32::from(tables.value[0]), self.line(&tables)))
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
        let residue = self.residues();
        let sizes: Vec<i32> = self.bags.iter().map(|bag| bag.len() as i32).collect();
        let s = self.s as i32;
        let mut value = vec![0i16; full + 1];
        for mask in (0..full).rev() {
            let r = i32::from(residue[mask]);
            let mut best = i32::MIN;
            let mut free = full & !mask;
            while free != 0 {
                let i = free.trailing_zeros() as usize;
                free &= free - 1;
                let next = mask | 1 << i;
                let stones = (r + sizes[i] - i32::from(residue[next])) / s;
                let rest = i32::from(value[next]);
                let worth = if stones > 0 { stones + rest } else { -rest };
                best = best.max(worth);
            }
            value[mask] = best as i16;
        }
        Ok(Tables { residue, value })
    }

    /// r(m) for every mask m: the bags added one at a time in a depth-first walk, each
    /// colour's running total kept, its remainder summed at every leaf.
    fn residues(&self) -> Vec<u16> {
        let counts: Vec<Vec<u32>> = (0..self.bags.len()).map(|i| self.counts(i)).collect();
        let mut residue = vec![0u16; 1 << self.bags.len()];
        let mut totals = vec![0u32; self.g];
        self.walk(&counts, 0, 0, &mut totals, &mut residue);
        residue
    }

    fn walk(
        &self,
        counts: &[Vec<u32>],
        bag: usize,
        mask: usize,
        totals: &mut [u32],
        residue: &mut [u16],
    ) {
        if bag == counts.len() {
            let s = self.s as u32;
            residue[mask] = totals.iter().map(|t| t % s).sum::<u32>() as u16;
            return;
        }
        self.walk(counts, bag + 1, mask, totals, residue);
        for (t, c) in totals.iter_mut().zip(&counts[bag]) {
            *t += c;
        }
        self.walk(counts, bag + 1, mask | 1 << bag, totals, residue);
        for (t, c) in totals.iter_mut().zip(&counts[bag]) {
            *t -= c;
        }
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
            let r = i32::from(tables.residue[mask]);
            let here = i32::from(tables.value[mask]);
            let (bag, stones) = (0..b)
                .filter(|i| mask & 1 << i == 0)
                .map(|i| {
                    let next = mask | 1 << i;
                    let stones = (r + self.bags[i].len() as i32 - i32::from(tables.residue[next]))
                        / s as i32;
                    let rest = i32::from(tables.value[next]);
                    (i, stones, if stones > 0 { stones + rest } else { -rest })
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
