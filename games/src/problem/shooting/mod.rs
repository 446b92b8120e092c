//! `shooting` (射击游戏, UVa 11844): blocks stacked in n columns, A and B shoot rows from the
//! left or the right in turn, each bullet removing 1, 2 or 3 blocks of its row (each power
//! with probability 1/3); whoever removes the last block wins. The answer is A's winning
//! probability under optimal play, printed with 6 decimals and judged within 1e-6.

use super::contract::{Family, Spec};
use super::file::Structure;
use super::game::{Builtin, Game, named};
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

pub use parse::unimodal_violation;
pub use solve::{Shot, Side, Table};

/// The game's type: its [`Game`] implementation; [`SHOOTING`] is its registry entry.
#[derive(Clone, Copy, Debug, Default)]
pub struct ShootingProblem;

/// One battlefield: the heights of its columns, left to right. Valid ones rise, then fall
/// (the perimeter is the bounding rectangle's), and are not all equal (not a rectangle).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shooting {
    pub heights: Vec<usize>,
}

impl Shooting {
    pub fn new(heights: Vec<usize>) -> Shooting {
        Shooting { heights }
    }

    /// How many blocks the board holds.
    pub fn blocks(&self) -> usize {
        self.heights.iter().sum()
    }
}

/// The game as registered in [`crate::problem::ALL`].
pub static SHOOTING: Builtin<ShootingProblem> = Builtin::new();

/// The bounds' largest values keep every board within 8^7 states, which the reference
/// solver's table holds in 16 MiB.
const BOUNDS: &[BoundSpec] = &[
    BoundSpec::new("n", "largest n, the columns", 6, 1, 7),
    BoundSpec::new("height", "largest height of a column", 6, 1, 7),
    BoundSpec::new("cases", "most cases in one input", 25, 1, 1000),
];

const PARAMS: &[ParamSpec] = &[
    ParamSpec::range(
        "n",
        "columns (a single column would be a rectangle)",
        2,
        "n",
    ),
    ParamSpec::value(
        "max-height",
        "largest height generated",
        2,
        "height",
        "a largest height of",
    ),
    ParamSpec::range("cases", "cases in one input", 1, "cases"),
];

impl Game for ShootingProblem {
    type Case = Shooting;
    type Answer = f64;

    named!("shooting");
    const ABOUT: &'static str =
        "射击游戏 (UVa 11844): shoot rows of blocks, A's winning probability";
    const STRUCTURE: Structure = Structure::Terminated {
        terminator: "0",
        blank_lines: false,
    };
    const RULE: Rule = Rule::Reals { tolerance: 1e-6 };
    const BOUNDS: &'static [BoundSpec] = BOUNDS;
    const PARAMS: &'static [ParamSpec] = PARAMS;
    const FAMILIES: &'static [Family] = generate::FAMILIES;
    const LIMITS: (u64, u64) = (1000, 128);
    const SHRINK_PASSES: usize = shrink::PASSES;
    const PACKAGE: &'static Package = &super::package::package!(
        "Shooting Game",
        [
            "height-too-large",
            "missing-end",
            "n-too-large",
            "not-unimodal",
            "one-column",
            "rectangle",
            "too-many-cases",
            "zero-height",
        ]
    );

    fn generate_case(
        rng: &mut Rng,
        family: &Family,
        profile: SizeProfile,
        spec: &Spec,
    ) -> Shooting {
        generate::generate(rng, family, profile, spec)
    }

    fn generate_file(
        rng: &mut Rng,
        family: &Family,
        profile: SizeProfile,
        spec: &Spec,
    ) -> Vec<Shooting> {
        generate::generate_file(rng, family, profile, spec)
    }

    fn solve(case: &Shooting) -> Result<f64, SolveError> {
        case.try_solve()
    }

    fn answer_line(answer: &f64, _number: usize) -> String {
        format!("{answer:.6}")
    }

    fn explain(case: &Shooting) -> Result<Explanation, SolveError> {
        case.explanation()
    }

    fn brute_force(case: &Shooting) -> Option<f64> {
        brute::rounded(case)?.parse().ok()
    }

    fn shape(case: &Shooting) -> String {
        let heights: Vec<String> = case.heights.iter().map(usize::to_string).collect();
        format!("heights {}", heights.join(" "))
    }

    /// Blocks, then columns.
    fn measure(case: &Shooting) -> Vec<i64> {
        vec![case.blocks() as i64, case.heights.len() as i64]
    }

    fn largest(case: &Shooting) -> i64 {
        case.heights.iter().copied().max().unwrap_or(0) as i64
    }

    /// No value slots: heights are lowered by the shrink passes, which keep the board
    /// unimodal; a height set on its own could break that.
    fn shrink_pass(case: &Shooting, pass: usize) -> Vec<Shooting> {
        shrink::pass(case, pass)
    }

    fn plan_claim(claim: &str, cases: &[Shooting]) -> Option<bool> {
        claims::holds(claim, cases)
    }
}
