//! Seeded random inputs: the portable random stream, samplers, and case families.
//!
//! A case is a pure function of the problem, the generator flags and the seed: the stream is
//! ChaCha8 keyed by the seed ([`rng`]), and every draw below is one of our own samplers, so the
//! same command prints the same bytes on every machine and with every dependency version.

use std::fmt;
use std::str::FromStr;

use crate::problem::{Instance, Problem};

pub mod chess;
pub mod chessboard;
pub mod rng;

pub use rng::Rng;

/// The generator flags shared by `gen` and `stress`.
#[derive(Debug, Clone, Default, PartialEq, Eq, clap::Args)]
pub struct GenArgs {
    /// Rows: N or LO..HI (default: the problem's whole range).
    #[arg(long, value_name = "N|LO..HI")]
    pub n: Option<SizeRange>,
    /// Columns, chess only: N or LO..HI (default: the problem's whole range).
    #[arg(long, value_name = "N|LO..HI")]
    pub m: Option<SizeRange>,
    /// Largest value or weight generated (default: the problem's bound).
    #[arg(long, value_name = "V")]
    pub max_value: Option<i64>,
    /// Chess only: all B = 0 (the official subtask).
    #[arg(long)]
    pub b_zero: bool,
    /// The kind of case (default: mixed, a family chosen by the seed). Explicit --n, --m,
    /// --max-value and --b-zero always override the family's own choices.
    #[arg(long, value_enum, value_name = "NAME")]
    pub family: Option<Family>,
}

impl GenArgs {
    /// The flags as they are typed on the command line (empty for the defaults), so a report
    /// can say exactly what replays a case.
    pub fn to_flags(&self) -> String {
        let mut parts = Vec::new();
        if let Some(n) = self.n {
            parts.push(format!("--n {n}"));
        }
        if let Some(m) = self.m {
            parts.push(format!("--m {m}"));
        }
        if let Some(v) = self.max_value {
            parts.push(format!("--max-value {v}"));
        }
        if self.b_zero {
            parts.push("--b-zero".to_string());
        }
        if let Some(f) = self.family {
            parts.push(format!("--family {}", f.name()));
        }
        parts.join(" ")
    }
}

/// An inclusive range of sizes, written `N` or `LO..HI`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SizeRange {
    pub lo: usize,
    pub hi: usize,
}

impl FromStr for SizeRange {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let parse = |t: &str| {
            t.trim()
                .parse::<usize>()
                .map_err(|_| format!("expected N or LO..HI, found {s:?}"))
        };
        let (lo, hi) = match s.split_once("..") {
            Some((lo, hi)) => (parse(lo)?, parse(hi.strip_prefix('=').unwrap_or(hi))?),
            None => {
                let v = parse(s)?;
                (v, v)
            }
        };
        if lo == 0 || lo > hi {
            return Err(format!("size range {s:?}: need 1 <= LO <= HI"));
        }
        Ok(SizeRange { lo, hi })
    }
}

impl fmt::Display for SizeRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.lo == self.hi {
            write!(f, "{}", self.lo)
        } else {
            write!(f, "{}..{}", self.lo, self.hi)
        }
    }
}

/// A kind of case. Each problem has its own list ([`Family::for_problem`]); `mixed` picks
/// one of them from the seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Family {
    /// Both problems (default): a family and a board size chosen by the seed; small boards
    /// often, the largest boards regularly.
    Mixed,
    /// Both problems: sizes and values uniform over the allowed ranges.
    Uniform,
    /// Chess: a 1×m or n×1 board.
    Thin,
    /// Both problems: the largest allowed board.
    MaxSize,
    /// Both problems: every value or weight at the bound (sums reach their maximum).
    MaxValues,
    /// Chess: a few distinct values, many equal, with all-zero regions.
    Ties,
    /// Chess: B equal to A everywhere.
    AEqualsB,
    /// Chess: small gains that open a large cell for the opponent.
    GreedyTrap,
    /// Chess: all B = 0 (the official subtask).
    BZero,
    /// Chessboard: pieces of one colour only.
    OneColour,
    /// Chessboard: W and B alternating like a chessboard, no empty cell.
    Checkerboard,
    /// Chessboard: W/B pairs of equal weight.
    EqualPairs,
    /// Chessboard: mostly empty cells.
    Sparse,
    /// Chessboard: W/B pairs of near-equal weight that block each other (`WB / B.` tiles).
    SelfBlocked,
}

impl Family {
    /// The name typed after `--family`.
    pub fn name(self) -> &'static str {
        match self {
            Family::Mixed => "mixed",
            Family::Uniform => "uniform",
            Family::Thin => "thin",
            Family::MaxSize => "max-size",
            Family::MaxValues => "max-values",
            Family::Ties => "ties",
            Family::AEqualsB => "a-equals-b",
            Family::GreedyTrap => "greedy-trap",
            Family::BZero => "b-zero",
            Family::OneColour => "one-colour",
            Family::Checkerboard => "checkerboard",
            Family::EqualPairs => "equal-pairs",
            Family::Sparse => "sparse",
            Family::SelfBlocked => "self-blocked",
        }
    }

    /// The families of a problem, in the order `mixed` draws from (not including `mixed`).
    pub fn for_problem(problem: Problem) -> &'static [Family] {
        match problem {
            Problem::Chess => &[
                Family::Uniform,
                Family::Thin,
                Family::MaxSize,
                Family::MaxValues,
                Family::Ties,
                Family::AEqualsB,
                Family::GreedyTrap,
                Family::BZero,
            ],
            Problem::Chessboard => &[
                Family::Uniform,
                Family::OneColour,
                Family::Checkerboard,
                Family::EqualPairs,
                Family::Sparse,
                Family::SelfBlocked,
                Family::MaxSize,
                Family::MaxValues,
            ],
        }
    }

    pub fn applies_to(self, problem: Problem) -> bool {
        self == Family::Mixed || Family::for_problem(problem).contains(&self)
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Flags that do not fit the problem or its bounds. `gen` reports it as a usage error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenError {
    pub message: String,
}

impl fmt::Display for GenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for GenError {}

fn usage(message: String) -> GenError {
    GenError { message }
}

/// How board sizes are drawn from their allowed range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SizeProfile {
    /// Uniform over the range.
    Uniform,
    /// The smallest four sizes of the range, so that a failure found is easy to read.
    Small,
}

impl SizeProfile {
    pub fn sample(self, rng: &mut Rng, range: SizeRange) -> usize {
        match self {
            SizeProfile::Uniform => rng.range_size(range.lo, range.hi),
            SizeProfile::Small => rng.range_size(range.lo, range.hi.min(range.lo + 3)),
        }
    }
}

/// Validated generator settings: the flags resolved against the problem's bounds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    pub problem: Problem,
    pub n: SizeRange,
    /// Columns; for chessboard always equal to `n` (boards are square).
    pub m: SizeRange,
    pub max_value: i64,
    pub b_zero: bool,
    pub family: Family,
}

impl Spec {
    /// Checks the flags against the problem: flags of the other problem, sizes beyond the
    /// bounds and values outside `0..=bound` are refused with a message naming the flag.
    pub fn new(problem: Problem, args: &GenArgs) -> Result<Spec, GenError> {
        let bounds = problem.default_bounds();
        let name = problem.name();
        if problem == Problem::Chessboard {
            if args.m.is_some() {
                return Err(usage(
                    "--m does not apply to chessboard (boards are n×n; use --n)".to_string(),
                ));
            }
            if args.b_zero {
                return Err(usage(
                    "--b-zero does not apply to chessboard (it is the chess B = 0 subtask)"
                        .to_string(),
                ));
            }
        }
        let full_n = SizeRange {
            lo: 1,
            hi: bounds.max_n,
        };
        let n = args.n.unwrap_or(full_n);
        if n.hi > bounds.max_n {
            return Err(usage(format!(
                "--n {n}: {name} allows 1 <= n <= {}",
                bounds.max_n
            )));
        }
        let m = match problem {
            Problem::Chess => {
                let m = args.m.unwrap_or(SizeRange {
                    lo: 1,
                    hi: bounds.max_m,
                });
                if m.hi > bounds.max_m {
                    return Err(usage(format!(
                        "--m {m}: {name} allows 1 <= m <= {}",
                        bounds.max_m
                    )));
                }
                m
            }
            Problem::Chessboard => n,
        };
        let max_value = args.max_value.unwrap_or(bounds.max_value);
        if !(0..=bounds.max_value).contains(&max_value) {
            return Err(usage(format!(
                "--max-value {max_value}: {name} allows values 0..={}",
                bounds.max_value
            )));
        }
        let family = args.family.unwrap_or(Family::Mixed);
        if !family.applies_to(problem) {
            let names: Vec<&str> = Family::for_problem(problem)
                .iter()
                .map(|f| f.name())
                .collect();
            return Err(usage(format!(
                "--family {family} does not apply to {name}; its families are mixed, {}",
                names.join(", ")
            )));
        }
        Ok(Spec {
            problem,
            n,
            m,
            max_value,
            b_zero: args.b_zero,
            family,
        })
    }

    /// The case for one seed.
    pub fn generate(&self, seed: u64) -> Instance {
        let mut rng = Rng::from_seed(seed);
        let (family, profile) = self.choose(&mut rng);
        match self.problem {
            Problem::Chess => Instance::Chess(chess::generate(&mut rng, family, profile, self)),
            Problem::Chessboard => {
                Instance::Chessboard(chessboard::generate(&mut rng, family, profile, self))
            }
        }
    }

    /// The family and size profile a seed gets (for `mixed`, drawn first from the stream).
    pub fn family_for(&self, seed: u64) -> (Family, SizeProfile) {
        self.choose(&mut Rng::from_seed(seed))
    }

    fn choose(&self, rng: &mut Rng) -> (Family, SizeProfile) {
        match self.family {
            Family::Mixed => {
                let families = Family::for_problem(self.problem);
                let family = rng.pick(families).copied().unwrap_or(Family::Uniform);
                // Two thirds small boards; `max-size` above is the regular large one.
                let profile = if rng.chance(2, 3) {
                    SizeProfile::Small
                } else {
                    SizeProfile::Uniform
                };
                (family, profile)
            }
            family => (family, SizeProfile::Uniform),
        }
    }
}

/// One case: checks the flags, then generates. For many seeds, build a [`Spec`] once.
pub fn generate(problem: Problem, args: &GenArgs, seed: u64) -> Result<Instance, GenError> {
    Ok(Spec::new(problem, args)?.generate(seed))
}

/// A rows × cols grid filled by `f(row, col)`, row by row (the draw order is part of the format).
pub(crate) fn grid(
    rows: usize,
    cols: usize,
    mut f: impl FnMut(usize, usize) -> i64,
) -> Vec<Vec<i64>> {
    (0..rows)
        .map(|i| (0..cols).map(|j| f(i, j)).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_range_round_trips_through_display() {
        for s in ["3", "1..10", "2..=5"] {
            let r: SizeRange = s.parse().unwrap();
            assert_eq!(r.to_string().parse::<SizeRange>().unwrap(), r);
        }
        assert_eq!("2..=5".parse::<SizeRange>().unwrap().to_string(), "2..5");
    }

    #[test]
    fn every_family_belongs_to_some_problem() {
        use clap::ValueEnum;
        for f in Family::value_variants() {
            assert!(Problem::ALL.iter().any(|&p| f.applies_to(p)), "{f}");
            assert_eq!(f.to_possible_value().unwrap().get_name(), f.name());
        }
    }
}
