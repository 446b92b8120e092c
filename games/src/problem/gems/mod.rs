//! `gems` (HDU 4778 "Gems Fight!"): Alice and Bob pour bags of coloured gems into one cooker,
//! where every S gems of a colour melt into a stone for the player who poured; a player who
//! makes a stone pours again. The answer per case is Alice's stones minus Bob's under optimal
//! play. An input holds several cases and ends with the line `0 0 0`.

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

/// The game's type: its [`Game`] implementation; [`GEMS`] is its registry entry.
#[derive(Clone, Copy, Debug, Default)]
pub struct GemsProblem;

/// One case: `g` colours (1..=g), the stones threshold `s`, and the bags, each a list of gem
/// colours in the order the input gives them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gems {
    pub g: usize,
    pub s: usize,
    pub bags: Vec<Vec<usize>>,
}

/// A gems player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// Pours first.
    Alice,
    Bob,
}

impl Player {
    pub fn name(self) -> &'static str {
        match self {
            Player::Alice => "Alice",
            Player::Bob => "Bob",
        }
    }

    pub fn other(self) -> Player {
        match self {
            Player::Alice => Player::Bob,
            Player::Bob => Player::Alice,
        }
    }
}

/// One pour of an optimal sequence: `player` pours bag `bag` (1-based, as in the input),
/// makes `stones`, and the cooker then holds `cooker[c - 1]` gems of colour c; `difference`
/// is Alice's stones minus Bob's so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pour {
    pub player: Player,
    pub bag: usize,
    pub stones: u32,
    pub cooker: Vec<u32>,
    pub difference: i32,
}

impl Gems {
    /// How many gems of each colour bag `i` holds.
    pub fn counts(&self, i: usize) -> Vec<u32> {
        let mut counts = vec![0; self.g];
        for &c in &self.bags[i] {
            counts[c - 1] += 1;
        }
        counts
    }

    /// All gems in all bags.
    pub fn gem_count(&self) -> usize {
        self.bags.iter().map(Vec::len).sum()
    }
}

/// The game as registered in [`crate::problem::ALL`].
pub static GEMS: Builtin<GemsProblem> = Builtin::new();

const BOUNDS: &[BoundSpec] = &[
    BoundSpec::new("g", "largest G, the colours", 8, 1, 64),
    BoundSpec::new("b", "largest B, the bags", 21, 0, 24),
    BoundSpec::new(
        "s",
        "largest S, the gems that melt into a stone",
        19,
        1,
        1000,
    ),
    BoundSpec::new("n", "largest n, the gems in a bag", 10, 1, 1000),
    BoundSpec::new("cases", "most cases in a file", 20, 1, 100_000),
];

const PARAMS: &[ParamSpec] = &[
    ParamSpec::range("cases", "cases in a file", 1, "cases").by_default(1, 4),
    ParamSpec::range("g", "G, the colours", 1, "g"),
    ParamSpec::range("b", "B, the bags", 0, "b"),
    ParamSpec::range("s", "S, the gems that melt into a stone", 1, "s"),
    ParamSpec::range("n", "gems in a bag", 1, "n"),
];

impl Game for GemsProblem {
    type Case = Gems;
    type Answer = i32;

    named!("gems");
    const ABOUT: &'static str =
        "HDU 4778 Gems Fight!: bags poured into a cooker, Alice's stones minus Bob's";
    const STRUCTURE: Structure = Structure::Terminated {
        terminator: "0 0 0",
        blank_lines: true,
    };
    const RULE: Rule = Rule::Integers;
    const BOUNDS: &'static [BoundSpec] = BOUNDS;
    const PARAMS: &'static [ParamSpec] = PARAMS;
    const FAMILIES: &'static [Family] = generate::FAMILIES;
    /// HDU's limits, for a whole file.
    const LIMITS: (u64, u64) = (10_000, 320);
    const SHRINK_PASSES: usize = shrink::PASSES;
    const PACKAGE: &'static Package = &super::package::package!(
        "Gems Fight!",
        "cpp",
        [
            "b-too-large",
            "colour-above-g",
            "empty-bag",
            "g-too-large",
            "no-end-line",
            "s-too-large",
            "short-bag",
            "too-many-cases",
            "too-many-gems",
        ]
    );

    fn generate_case(rng: &mut Rng, family: &Family, profile: SizeProfile, spec: &Spec) -> Gems {
        generate::case(rng, family, profile, spec)
    }

    fn generate_file(
        rng: &mut Rng,
        family: &Family,
        profile: SizeProfile,
        spec: &Spec,
    ) -> Vec<Gems> {
        generate::file(rng, family, profile, spec)
    }

    fn solve(case: &Gems) -> Result<i32, SolveError> {
        case.try_solve()
    }

    fn answer_line(answer: &i32, _number: usize) -> String {
        answer.to_string()
    }

    fn explain(case: &Gems) -> Result<Explanation, SolveError> {
        let (answer, pours) = case.try_solve_line()?;
        Ok(case.explanation(answer, &pours))
    }

    fn brute_force(case: &Gems) -> Option<i32> {
        brute::gems(case)
    }

    fn shape(case: &Gems) -> String {
        format!("G={} B={} S={}", case.g, case.bags.len(), case.s)
    }

    /// Bags, then gems, then colours, then S, then the sum of the colour numbers.
    fn measure(case: &Gems) -> Vec<i64> {
        let colour_sum = case.bags.iter().flatten().sum::<usize>();
        [
            case.bags.len(),
            case.gem_count(),
            case.g,
            case.s,
            colour_sum,
        ]
        .map(|v| v as i64)
        .to_vec()
    }

    fn largest(case: &Gems) -> i64 {
        case.s.max(case.g) as i64
    }

    fn shrink_pass(case: &Gems, pass: usize) -> Vec<Gems> {
        shrink::pass(case, pass)
    }

    fn value_slots(case: &Gems) -> usize {
        shrink::slots(case)
    }

    fn value(case: &Gems, slot: usize) -> i64 {
        shrink::value(case, slot)
    }

    fn with_value(case: &Gems, slot: usize, value: i64) -> Gems {
        shrink::with_value(case, slot, value)
    }

    fn plan_claim(claim: &str, cases: &[Gems]) -> Option<bool> {
        claims::holds(claim, cases)
    }
}
