//! Generator settings shared by every game: the flags as data ([`GenParams`]), their
//! validation against a game ([`Spec`]), size ranges and profiles, and case families.
//!
//! A case is a pure function of the problem, the generator settings and the seed: the stream
//! is ChaCha8 keyed by the seed ([`crate::random`]), and every draw is one of our own
//! samplers, so the same command prints the same bytes on every machine and with every
//! dependency version.

use std::fmt;

use super::contract::{Family, Instance, Problem, Resolved, Spec};
use super::params::{Bounds, GenParams, ParamKind, ParamSpec, ParamValue, SizeRange};
use crate::random::Rng;

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

impl Spec {
    /// Checks the flags against the problem: flags of another game, sizes beyond the
    /// bounds and values outside their range are refused with a message naming the flag.
    pub fn new(problem: &'static dyn Problem, params: &GenParams) -> Result<Spec, GenError> {
        let name = problem.name();
        for (flag, _) in params.given() {
            if !problem.params().iter().any(|p| p.name == *flag) {
                let own: Vec<String> = problem
                    .params()
                    .iter()
                    .map(|p| format!("--{}", p.name))
                    .chain(["--family".to_string()])
                    .collect();
                return Err(usage(format!(
                    "--{flag} does not apply to {name}; its parameters are {}",
                    own.join(", ")
                )));
            }
        }
        let bounds = problem.default_bounds();
        let values = problem
            .params()
            .iter()
            .map(|p| Ok((p.name, resolve(name, p, params.get(p.name), &bounds)?)))
            .collect::<Result<_, GenError>>()?;
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
            values,
            family,
        })
    }

    fn resolved(&self, name: &str) -> Resolved {
        self.values
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| *v)
            .unwrap_or_else(|| panic!("{} has no generator parameter {name}", self.problem))
    }

    /// The range parameter `name` (`--n`).
    ///
    /// # Panics
    /// When the game declares no range parameter of that name: games read only their own.
    pub fn range(&self, name: &str) -> SizeRange {
        match self.resolved(name) {
            Resolved::Range(r) => r,
            other => panic!("--{name} is not a range: {other:?}"),
        }
    }

    /// The value parameter `name` (`--max-value`). Panics as [`Spec::range`] does.
    pub fn value(&self, name: &str) -> i64 {
        match self.resolved(name) {
            Resolved::Value(v) => v,
            other => panic!("--{name} is not a value: {other:?}"),
        }
    }

    /// The switch `name` (`--b-zero`). Panics as [`Spec::range`] does.
    pub fn flag(&self, name: &str) -> bool {
        match self.resolved(name) {
            Resolved::Flag(on) => on,
            other => panic!("--{name} is not a switch: {other:?}"),
        }
    }

    /// The case for one seed.
    pub fn generate(&self, seed: u64) -> Box<dyn Instance> {
        self.problem.generate(self, seed)
    }

    /// The family and size profile a case gets: the family asked for, or (for `mixed`) one
    /// drawn first from the stream, with a small board two times in three.
    pub fn choose(&self, rng: &mut Rng) -> (Family, SizeProfile) {
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

/// One declared parameter's value: the flag's, checked against the bound, or the default.
fn resolve(
    game: &str,
    param: &ParamSpec,
    given: Option<ParamValue>,
    bounds: &Bounds,
) -> Result<Resolved, GenError> {
    let name = param.name;
    match (param.kind, given) {
        (ParamKind::Flag, given) => Ok(Resolved::Flag(given.is_some())),
        (
            ParamKind::Range {
                min,
                bound,
                default,
            },
            given,
        ) => {
            let max = bounds.get(bound);
            let range = match given {
                Some(ParamValue::Range(r)) => r,
                Some(other) => {
                    return Err(usage(format!(
                        "--{name}: expected N or LO..HI, found {other:?}"
                    )));
                }
                None => {
                    let (lo, hi) = default.unwrap_or((min, max));
                    SizeRange {
                        lo: lo as usize,
                        hi: hi as usize,
                    }
                }
            };
            if (range.lo as i64) < min || range.hi as i64 > max {
                return Err(usage(format!(
                    "--{name} {range}: {game} allows {min} <= {name} <= {max}"
                )));
            }
            Ok(Resolved::Range(range))
        }
        (ParamKind::Value { min, bound, noun }, given) => {
            let max = bounds.get(bound);
            let value = match given {
                Some(ParamValue::Value(v)) => v,
                Some(other) => {
                    return Err(usage(format!(
                        "--{name}: expected a value, found {other:?}"
                    )));
                }
                None => max,
            };
            if !(min..=max).contains(&value) {
                return Err(usage(format!(
                    "--{name} {value}: {game} allows {noun} {min}..={max}"
                )));
            }
            Ok(Resolved::Value(value))
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
    fn family_names_are_unique_within_each_game() {
        for p in crate::problem::registry::ALL {
            let mut names: Vec<&str> = p.families().iter().map(|f| f.name).collect();
            names.push(Family::MIXED);
            let count = names.len();
            names.sort();
            names.dedup();
            assert_eq!(names.len(), count, "{p}");
        }
    }
}
