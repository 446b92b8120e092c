//! `chess` (Luogu P4363 一双木棋): an n×m board filled in staircase order by two players,
//! Feifei scoring A and Niuniu scoring B; the answer is Feifei's score minus Niuniu's under
//! optimal play.

use super::contract::{Family, Spec};
use super::file::Structure;
use super::game::{Builtin, CaseText, Game, named};
use super::generate::SizeProfile;
use super::package::Package;
use super::params::{BoundSpec, ParamSpec};
use super::solution::{Explanation, SolveError};
use crate::answer::Rule;
use crate::random::Rng;

pub mod brute;
mod claims;
mod explain;
mod generate;
mod parse;
mod shrink;
mod solve;

/// The game's type: its [`Game`] implementation; [`CHESS`] is its registry entry.
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
        let mut out = String::new();
        self.write(&mut out);
        out
    }
}

/// The game as registered in [`crate::problem::ALL`].
pub static CHESS: Builtin<ChessProblem> = Builtin::new();

const BOUNDS: &[BoundSpec] = &[
    BoundSpec::new("n", "largest n, the rows", 10, 1, 1000),
    BoundSpec::new("m", "largest m, the columns", 10, 1, 1000),
    BoundSpec::new("value", "largest value", 100_000, 0, i64::MAX),
];

const PARAMS: &[ParamSpec] = &[
    ParamSpec::range("n", "rows", 1, "n"),
    ParamSpec::range("m", "columns", 1, "m"),
    ParamSpec::value("max-value", "largest value generated", 0, "value", "values"),
    ParamSpec::flag("b-zero", "all B = 0, the official subtask"),
];

impl Game for ChessProblem {
    type Case = Chess;
    type Answer = i64;

    named!("chess");
    const ABOUT: &'static str =
        "Luogu P4363 一双木棋: n×m staircase game, Feifei's score minus Niuniu's";
    const STRUCTURE: Structure = Structure::Single;
    const RULE: Rule = Rule::Integers;
    const BOUNDS: &'static [BoundSpec] = BOUNDS;
    const PARAMS: &'static [ParamSpec] = PARAMS;
    const FAMILIES: &'static [Family] = generate::FAMILIES;
    const LIMITS: (u64, u64) = (1000, 512);
    const NAMED_PLANS: &'static [(&'static str, &'static str)] = &[(
        "official",
        include_str!("../../../../generators/chess-official.plan"),
    )];
    const SHRINK_PASSES: usize = shrink::PASSES;
    const PACKAGE: &'static Package = &super::package::package!(
        "Chess",
        [
            "leading-zero",
            "missing-b",
            "n-too-large",
            "negative-value",
            "plus-sign",
            "short-row",
            "trailing-token",
            "value-too-large",
        ]
    );

    fn generate_case(rng: &mut Rng, family: &Family, profile: SizeProfile, spec: &Spec) -> Chess {
        generate::generate(rng, family, profile, spec)
    }

    fn solve(case: &Chess) -> Result<i64, SolveError> {
        case.try_solve()
    }

    fn answer_line(answer: &i64, _number: usize) -> String {
        answer.to_string()
    }

    fn explain(case: &Chess) -> Result<Explanation, SolveError> {
        let (answer, line) = case.try_solve_line()?;
        Ok(case.explanation(answer, &line))
    }

    fn brute_force(case: &Chess) -> Option<i64> {
        brute::chess(case)
    }

    fn shape(case: &Chess) -> String {
        format!("{}×{}", case.n, case.m)
    }

    /// Cells, then the sum of the values.
    fn measure(case: &Chess) -> Vec<i64> {
        let cells = (case.n * case.m) as i64;
        let sum = case.a.iter().chain(&case.b).flatten().sum();
        vec![cells, sum]
    }

    fn largest(case: &Chess) -> i64 {
        case.a
            .iter()
            .chain(&case.b)
            .flatten()
            .copied()
            .max()
            .unwrap_or(0)
    }

    fn shrink_pass(case: &Chess, pass: usize) -> Vec<Chess> {
        shrink::pass(case, pass)
    }

    fn value_slots(case: &Chess) -> usize {
        shrink::slots(case)
    }

    fn value(case: &Chess, slot: usize) -> i64 {
        shrink::value(case, slot)
    }

    fn with_value(case: &Chess, slot: usize, value: i64) -> Chess {
        shrink::with_value(case, slot, value)
    }

    fn plan_claim(claim: &str, cases: &[Chess]) -> Option<bool> {
        claims::holds(claim, cases)
    }
}
