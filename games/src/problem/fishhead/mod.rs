//! `fishhead` (HDU 4753 "Fishhead's Little Game"): Tom and Jerry draw the unit edges of a
//! 4×4 lattice of points in turn, Tom first, and score the unit squares they complete; no
//! bonus move. The first n edges are given; the answer per case is who ends with more
//! squares under optimal play from there.

use super::contract::{Family, Spec};
use super::file::Structure;
use super::game::{Builtin, CaseText, Game, named};
use super::generate::SizeProfile;
use super::package::Package;
use super::params::{BoundSpec, ParamKind, ParamSpec};
use super::solution::{Explanation, SolveError};
use crate::answer::Rule;
use crate::random::Rng;

pub mod brute;
mod claims;
mod explain;
mod generate;
pub mod lattice;
mod parse;
mod shrink;
mod solve;

/// The game's type: its [`Game`] implementation; [`FISHHEAD`] is its registry entry.
#[derive(Clone, Copy, Debug, Default)]
pub struct FishheadProblem;

/// One case: the edges already drawn, in the order they were drawn, each as its two points
/// (1..=16) in the order the input writes them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fishhead {
    pub edges: Vec<(u8, u8)>,
}

/// A player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// Draws the first edge and every odd-numbered one.
    Tom,
    /// Draws every even-numbered edge.
    Jerry,
}

impl Player {
    /// Who draws edge number `k` (1-based): strict alternation, Tom first.
    pub fn drawing(k: usize) -> Player {
        if k % 2 == 1 {
            Player::Tom
        } else {
            Player::Jerry
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Player::Tom => "Tom",
            Player::Jerry => "Jerry",
        }
    }

    pub fn initial(self) -> char {
        match self {
            Player::Tom => 'T',
            Player::Jerry => 'J',
        }
    }

    /// The word a program prints when this player wins.
    pub fn answer(self) -> &'static str {
        match self {
            Player::Tom => "Tom200",
            Player::Jerry => "Jerry404",
        }
    }
}

/// The squares each player ends with when both play optimally from the given position. All
/// 9 squares are completed by the end, so there is never a tie.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub tom: u8,
    pub jerry: u8,
}

impl Outcome {
    pub fn winner(self) -> Player {
        if self.tom > self.jerry {
            Player::Tom
        } else {
            Player::Jerry
        }
    }
}

/// One drawn edge: the `number`-th edge of the game (1-based), drawn by `player`, the squares
/// it completed, and both scores after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stroke {
    pub number: usize,
    pub player: Player,
    pub edge: usize,
    pub closed: Vec<usize>,
    pub tom: u8,
    pub jerry: u8,
}

impl Fishhead {
    /// n, the number of edges given.
    pub fn n(&self) -> usize {
        self.edges.len()
    }

    /// The edges still to be drawn: 24 − n.
    pub fn remaining(&self) -> usize {
        lattice::EDGES.saturating_sub(self.edges.len())
    }

    pub fn to_input(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    /// The given edges as lattice indices, in order; an error for a hand-built case whose
    /// pairs are not unit edges or repeat one.
    pub fn edge_indices(&self) -> Result<Vec<usize>, SolveError> {
        let mut drawn = 0u32;
        let mut out = Vec::with_capacity(self.edges.len());
        for &(a, b) in &self.edges {
            let e = lattice::edge_between(a, b).ok_or_else(|| {
                SolveError::Malformed(format!("{a} {b} is not an edge of the 4×4 lattice"))
            })?;
            if drawn & (1 << e) != 0 {
                return Err(SolveError::Malformed(format!(
                    "edge {a}-{b} is drawn twice"
                )));
            }
            drawn |= 1 << e;
            out.push(e);
        }
        Ok(out)
    }

    /// The given edges replayed: who drew each and what it scored.
    pub fn replay(&self) -> Result<(u32, Vec<Stroke>), SolveError> {
        let mut drawn = 0u32;
        let (mut tom, mut jerry) = (0u8, 0u8);
        let mut strokes = Vec::with_capacity(self.edges.len());
        for (i, e) in self.edge_indices()?.into_iter().enumerate() {
            let player = Player::drawing(i + 1);
            let closed: Vec<usize> = lattice::completed_by(drawn, e).collect();
            match player {
                Player::Tom => tom += closed.len() as u8,
                Player::Jerry => jerry += closed.len() as u8,
            }
            drawn |= 1 << e;
            strokes.push(Stroke {
                number: i + 1,
                player,
                edge: e,
                closed,
                tom,
                jerry,
            });
        }
        Ok((drawn, strokes))
    }
}

/// The game as registered in [`crate::problem::ALL`].
pub static FISHHEAD: Builtin<FishheadProblem> = Builtin::new();

/// The smallest n of the judge's data: the accepted programs index their tables by the set
/// of at most 12 remaining edges.
const JUDGE_MIN_N: i64 = 12;

const BOUNDS: &[BoundSpec] = &[
    BoundSpec::new(
        "min-n",
        "smallest n, the edges given before optimal play starts",
        JUDGE_MIN_N,
        0,
        lattice::EDGES as i64,
    ),
    // The judge's bound is not known. 200 is a guess sized by the calibration (`cargo bench
    // --bench calibrate`): 200 cases of 12 edges left take a hash-map memo cleared per case,
    // the way the public programs work, 0.07 s of the 1 s limit, and the same search in a
    // std::map, over four times slower, 0.32 s; one of the programs HDU accepted ran in 46 ms
    // on its whole data, so that data cannot hold many more.
    BoundSpec::new("cases", "most cases in a file", 200, 1, 1_000_000),
];

const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "remaining",
        about: "edges left to play after the given ones (24 − n)",
        // At most 24 − 12 = 12 edges remain in a valid case, and 12 is also the default of
        // the bound `min-n`, which the generator's sizes are checked against (a test pins
        // the two together).
        kind: ParamKind::Range {
            min: 0,
            bound: "min-n",
            default: None,
        },
    },
    ParamSpec::range("cases", "cases in a file", 1, "cases").by_default(1, 4),
];

impl Game for FishheadProblem {
    type Case = Fishhead;
    type Answer = Outcome;

    named!("fishhead");
    const ABOUT: &'static str = "HDU 4753 Fishhead's Little Game: squares on a 4×4 lattice, \
                                 Tom200 or Jerry404 per case";
    const STRUCTURE: Structure = Structure::Counted { blank_lines: false };
    const RULE: Rule = Rule::Tokens {
        tolerance: None,
        ignore_case: false,
    };
    const BOUNDS: &'static [BoundSpec] = BOUNDS;
    const PARAMS: &'static [ParamSpec] = PARAMS;
    const FAMILIES: &'static [Family] = generate::FAMILIES;
    const LIMITS: (u64, u64) = (1000, 256);
    const SHRINK_PASSES: usize = shrink::PASSES;
    const PACKAGE: &'static Package = &super::package::package!(
        "Fishhead's Little Game",
        [
            "across-rows",
            "edge-twice",
            "missing-edge",
            "n-too-large",
            "n-too-small",
            "no-case",
            "not-adjacent",
            "point-too-large",
            "same-point",
        ]
    );

    fn generate_case(
        rng: &mut Rng,
        family: &Family,
        profile: SizeProfile,
        spec: &Spec,
    ) -> Fishhead {
        generate::generate(rng, family, profile, spec)
    }

    fn solve(case: &Fishhead) -> Result<Outcome, SolveError> {
        case.try_solve()
    }

    fn answer_line(answer: &Outcome, number: usize) -> String {
        format!("Case #{number}: {}", answer.winner().answer())
    }

    fn explain(case: &Fishhead) -> Result<Explanation, SolveError> {
        let (outcome, line) = case.try_solve_line()?;
        case.explanation(outcome, &line)
    }

    fn brute_force(case: &Fishhead) -> Option<Outcome> {
        brute::fishhead(case)
    }

    fn shape(case: &Fishhead) -> String {
        format!("n = {}", case.n())
    }

    /// Edges left to play, then how far the given order is from increasing edge order
    /// (inversions), then how many edges are written with the larger point first.
    fn measure(case: &Fishhead) -> Vec<i64> {
        shrink::measure(case)
    }

    /// The game has no values to lower.
    fn largest(_case: &Fishhead) -> i64 {
        0
    }

    fn shrink_pass(case: &Fishhead, pass: usize) -> Vec<Fishhead> {
        shrink::pass(case, pass)
    }

    fn plan_claim(claim: &str, cases: &[Fishhead]) -> Option<bool> {
        claims::holds(claim, cases)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generators_largest_remainder_is_what_the_smallest_n_leaves() {
        let min_n = BOUNDS.iter().find(|b| b.name == "min-n").unwrap().default;
        let ParamKind::Range { bound, .. } = PARAMS[0].kind else {
            panic!("remaining is a range")
        };
        assert_eq!(bound, "min-n");
        assert_eq!(lattice::EDGES as i64 - min_n, min_n);
    }

    #[test]
    fn edges_alternate_strictly_from_tom() {
        assert_eq!(Player::drawing(1), Player::Tom);
        assert_eq!(Player::drawing(2), Player::Jerry);
        assert_eq!(Player::drawing(23), Player::Tom);
        assert_eq!(Player::drawing(24), Player::Jerry);
    }
}
