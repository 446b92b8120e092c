//! Generator settings shared by every game: the flags as data ([`GenParams`]), their
//! validation against a game ([`Spec`]), size ranges and profiles, and case families.
//!
//! A case is a pure function of the problem, the generator settings and the seed: the stream
//! is ChaCha8 keyed by the seed ([`crate::random`]), and every draw is one of our own
//! samplers, so the same command prints the same bytes on every machine and with every
//! dependency version.

use std::fmt;
use std::str::FromStr;

use super::{Instance, Problem};
use crate::random::Rng;

/// The generator flags shared by `gen`, `stress` and plan lines, as plain data.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GenParams {
    /// Rows (default: the problem's whole range).
    pub n: Option<SizeRange>,
    /// Columns, for games with their own column count.
    pub m: Option<SizeRange>,
    /// Largest value or weight generated (default: the problem's bound).
    pub max_value: Option<i64>,
    /// Chess only: all B = 0 (the official subtask).
    pub b_zero: bool,
    /// The family's name (default: mixed, a family chosen by the seed).
    pub family: Option<String>,
}

impl GenParams {
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
        if let Some(f) = &self.family {
            parts.push(format!("--family {f}"));
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
                .map_err(|_| format!("expected N or LO..HI, found {}", crate::text::quote(s)))
        };
        let (lo, hi) = match s.split_once("..") {
            Some((lo, hi)) => (parse(lo)?, parse(hi.strip_prefix('=').unwrap_or(hi))?),
            None => {
                let v = parse(s)?;
                (v, v)
            }
        };
        if lo == 0 || lo > hi {
            return Err(format!(
                "size range {}: need 1 <= LO <= HI",
                crate::text::quote(s)
            ));
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

/// A kind of case. Each game lists its own ([`Problem::families`]); `mixed` picks one of them
/// from the seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Family {
    /// The name typed after `--family`.
    pub name: &'static str,
    /// One line for `--help`.
    pub about: &'static str,
}

impl Family {
    /// Sizes and values uniform over the allowed ranges.
    pub const UNIFORM: Family = Family {
        name: "uniform",
        about: "sizes and values uniform over the allowed ranges",
    };
    /// The largest allowed board.
    pub const MAX_SIZE: Family = Family {
        name: "max-size",
        about: "the largest allowed board",
    };
    /// Every value or weight at the bound (sums reach their maximum).
    pub const MAX_VALUES: Family = Family {
        name: "max-values",
        about: "every value or weight at the bound (sums reach their maximum)",
    };
    /// The default: a family and a board size chosen by the seed.
    pub const MIXED: &'static str = "mixed";
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
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

pub fn usage(message: String) -> GenError {
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
    pub problem: &'static dyn Problem,
    pub n: SizeRange,
    /// Columns; for square boards always equal to `n`.
    pub m: SizeRange,
    pub max_value: i64,
    pub b_zero: bool,
    /// `None` for mixed.
    pub family: Option<Family>,
}

impl Spec {
    /// Checks the flags against the problem: flags of another game, sizes beyond the
    /// bounds and values outside `0..=bound` are refused with a message naming the flag.
    pub fn new(problem: &'static dyn Problem, params: &GenParams) -> Result<Spec, GenError> {
        let bounds = problem.default_bounds();
        let name = problem.name();
        problem.check_params(params)?;
        let full_n = SizeRange {
            lo: 1,
            hi: bounds.max_n,
        };
        let n = params.n.unwrap_or(full_n);
        if n.hi > bounds.max_n {
            return Err(usage(format!(
                "--n {n}: {name} allows 1 <= n <= {}",
                bounds.max_n
            )));
        }
        let m = if problem.has_columns() {
            let m = params.m.unwrap_or(SizeRange {
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
        } else {
            n
        };
        let max_value = params.max_value.unwrap_or(bounds.max_value);
        if !(0..=bounds.max_value).contains(&max_value) {
            return Err(usage(format!(
                "--max-value {max_value}: {name} allows values 0..={}",
                bounds.max_value
            )));
        }
        let family = match params.family.as_deref() {
            None | Some(Family::MIXED) => None,
            Some(wanted) => match problem.families().iter().find(|f| f.name == wanted) {
                Some(f) => Some(*f),
                None => {
                    let names: Vec<&str> = problem.families().iter().map(|f| f.name).collect();
                    return Err(usage(format!(
                        "--family {wanted} does not apply to {name}; its families are mixed, {}",
                        names.join(", ")
                    )));
                }
            },
        };
        Ok(Spec {
            problem,
            n,
            m,
            max_value,
            b_zero: params.b_zero,
            family,
        })
    }

    /// The case for one seed.
    pub fn generate(&self, seed: u64) -> Box<dyn Instance> {
        let mut rng = Rng::from_seed(seed);
        let (family, profile) = self.choose(&mut rng);
        self.problem.generate(&mut rng, &family, profile, self)
    }

    /// The family and size profile a seed gets (for `mixed`, drawn first from the stream).
    pub fn family_for(&self, seed: u64) -> (Family, SizeProfile) {
        self.choose(&mut Rng::from_seed(seed))
    }

    fn choose(&self, rng: &mut Rng) -> (Family, SizeProfile) {
        match self.family {
            None => {
                let families = self.problem.families();
                let family = rng.pick(families).copied().unwrap_or(Family::UNIFORM);
                // Two thirds small boards; `max-size` above is the regular large one.
                let profile = if rng.chance(2, 3) {
                    SizeProfile::Small
                } else {
                    SizeProfile::Uniform
                };
                (family, profile)
            }
            Some(family) => (family, SizeProfile::Uniform),
        }
    }
}

/// One case: checks the flags, then generates. For many seeds, build a [`Spec`] once.
pub fn generate(
    problem: &'static dyn Problem,
    params: &GenParams,
    seed: u64,
) -> Result<Box<dyn Instance>, GenError> {
    Ok(Spec::new(problem, params)?.generate(seed))
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
    fn family_names_are_unique_within_each_game() {
        for p in crate::problem::ALL {
            let mut names: Vec<&str> = p.families().iter().map(|f| f.name).collect();
            names.push(Family::MIXED);
            let count = names.len();
            names.sort();
            names.dedup();
            assert_eq!(names.len(), count, "{p}");
        }
    }
}
