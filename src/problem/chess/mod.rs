//! `chess` (Luogu P4363 一双木棋): an n×m board filled in staircase order by two players,
//! Feifei scoring A and Niuniu scoring B; the answer is Feifei's score minus Niuniu's under
//! optimal play.

use std::any::Any;

use super::generate::{Family, GenError, GenParams, SizeProfile, Spec};
use super::{Bounds, Explanation, InputError, Instance, Problem, Size, SolveError};
use crate::random::Rng;

pub mod brute;
mod explain;
mod generate;
mod parse;
mod shrink;
mod solve;

/// The game, as registered in [`crate::problem::ALL`].
#[derive(Clone, Copy, Debug, Default)]
pub struct ChessProblem;

/// An n×m board with Feifei's values `a` and Niuniu's values `b`, row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chess {
    pub n: usize,
    pub m: usize,
    pub a: Vec<Vec<i64>>,
    pub b: Vec<Vec<i64>>,
}

/// A chess player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// Moves first, scores A, maximizes the difference.
    Feifei,
    /// Moves second, scores B, minimizes the difference.
    Niuniu,
}

impl Player {
    pub fn name(self) -> &'static str {
        match self {
            Player::Feifei => "Feifei",
            Player::Niuniu => "Niuniu",
        }
    }

    pub fn initial(self) -> char {
        match self {
            Player::Feifei => 'F',
            Player::Niuniu => 'N',
        }
    }
}

/// One move of an optimal line: `player` fills `cell` (1-based row and column, row 1 at the
/// top) and scores `value`; `score` is Feifei − Niuniu so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    pub player: Player,
    pub cell: (usize, usize),
    pub value: i64,
    pub score: i64,
}

impl Chess {
    pub fn to_input(&self) -> String {
        let mut out = format!("{} {}\n", self.n, self.m);
        super::write_rows(&mut out, &self.a);
        super::write_rows(&mut out, &self.b);
        out
    }
}

impl Problem for ChessProblem {
    fn name(&self) -> &'static str {
        "chess"
    }

    fn about(&self) -> &'static str {
        "Luogu P4363 一双木棋: n×m staircase game, Feifei's score minus Niuniu's"
    }

    fn default_bounds(&self) -> Bounds {
        Bounds {
            max_n: 10,
            max_m: 10,
            max_value: 100_000,
        }
    }

    fn default_limits(&self) -> (u64, u64) {
        (1000, 512)
    }

    fn parse(&self, text: &[u8], bounds: &Bounds) -> Result<Box<dyn Instance>, InputError> {
        Ok(Box::new(Chess::parse(text, bounds)?))
    }

    fn sample(&self) -> (&'static str, &'static str) {
        (
            include_str!("../../../cases/chess/01-sample.in"),
            include_str!("../../../cases/chess/01-sample.ans"),
        )
    }

    fn builtin_plan(&self) -> &'static str {
        include_str!("../../../generators/chess.plan")
    }

    fn has_columns(&self) -> bool {
        true
    }

    fn check_params(&self, _params: &GenParams) -> Result<(), GenError> {
        Ok(())
    }

    fn families(&self) -> &'static [Family] {
        generate::FAMILIES
    }

    fn generate(
        &self,
        rng: &mut Rng,
        family: &Family,
        profile: SizeProfile,
        spec: &Spec,
    ) -> Box<dyn Instance> {
        Box::new(generate::generate(rng, family, profile, spec))
    }
}

impl Instance for Chess {
    fn problem(&self) -> &'static dyn Problem {
        &ChessProblem
    }

    fn to_input(&self) -> String {
        Chess::to_input(self)
    }

    fn shape(&self) -> String {
        format!("{}×{}", self.n, self.m)
    }

    fn size(&self) -> Size {
        let cells = self.n * self.m;
        Size {
            cells,
            pieces: cells,
            value_sum: self.a.iter().chain(&self.b).flatten().sum(),
        }
    }

    fn max_value(&self) -> i64 {
        self.a
            .iter()
            .chain(&self.b)
            .flatten()
            .copied()
            .max()
            .unwrap_or(0)
    }

    fn try_solve(&self) -> Result<i64, SolveError> {
        Chess::try_solve(self)
    }

    fn table_entry_bytes(&self) -> Result<usize, SolveError> {
        Chess::table_entry_bytes(self)
    }

    fn try_explain(&self) -> Result<Explanation, SolveError> {
        let (answer, line) = self.try_solve_line()?;
        Ok(self.explanation(answer, &line))
    }

    fn brute_force(&self) -> Option<i64> {
        brute::chess(self)
    }

    fn shrink_passes(&self) -> usize {
        shrink::PASSES
    }

    fn shrink_pass(&self, pass: usize) -> Vec<Box<dyn Instance>> {
        shrink::pass(self, pass)
            .into_iter()
            .map(|c| Box::new(c) as Box<dyn Instance>)
            .collect()
    }

    fn value_slots(&self) -> usize {
        shrink::slots(self)
    }

    fn value(&self, slot: usize) -> i64 {
        shrink::value(self, slot)
    }

    fn with_value(&self, slot: usize, value: i64) -> Box<dyn Instance> {
        Box::new(shrink::with_value(self, slot, value))
    }

    fn clone_box(&self) -> Box<dyn Instance> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
