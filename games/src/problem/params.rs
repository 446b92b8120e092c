//! What a game declares about its inputs besides their format: the bounds its validator
//! enforces (raised or lowered with `--bound-NAME`), and the generator parameters `gen`,
//! `stress` and plan lines take (`--NAME N`, `--NAME LO..HI`, `--NAME`), with their help.
//! Values given on the command line are plain data here ([`GenParams`]); they are checked
//! against one game when a [`super::Spec`] is made.

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

/// One bound of a game's validator: a named integer with its default (the official
/// constraint) and the range `--bound-NAME` may set it to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoundSpec {
    /// The name after `--bound-` (`n`, `value`, `cases`).
    pub name: &'static str,
    /// One line for `--help`.
    pub about: &'static str,
    pub default: i64,
    /// What the flag accepts (inclusive).
    pub min: i64,
    pub max: i64,
}

impl BoundSpec {
    /// A bound called `name`, `default` at the official constraints, settable within
    /// `min..=max`.
    pub const fn new(
        name: &'static str,
        about: &'static str,
        default: i64,
        min: i64,
        max: i64,
    ) -> Self {
        BoundSpec {
            name,
            about,
            default,
            min,
            max,
        }
    }
}

/// The bounds a validator enforces: every bound of one game, by name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Bounds {
    values: Vec<(&'static str, i64)>,
}

impl Bounds {
    /// Every bound at its default.
    pub fn defaults(specs: &[BoundSpec]) -> Bounds {
        Bounds {
            values: specs.iter().map(|b| (b.name, b.default)).collect(),
        }
    }

    /// The bound called `name`.
    ///
    /// # Panics
    /// When the game declares no such bound: a game reads only its own bounds, which the
    /// conformance suite exercises for every game.
    pub fn get(&self, name: &str) -> i64 {
        self.values
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| *v)
            .unwrap_or_else(|| panic!("no bound named {name}"))
    }

    /// [`Bounds::get`] as a size, saturating.
    pub fn size(&self, name: &str) -> usize {
        usize::try_from(self.get(name).max(0)).unwrap_or(usize::MAX)
    }

    /// Sets the bound called `name`; false when there is none.
    pub fn set(&mut self, name: &str, value: i64) -> bool {
        match self.values.iter_mut().find(|(n, _)| *n == name) {
            Some(slot) => {
                slot.1 = value;
                true
            }
            None => false,
        }
    }
}

/// One generator parameter a game takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamSpec {
    /// The flag's name without dashes (`n`, `max-value`, `b-zero`, `cases`).
    pub name: &'static str,
    /// One line for `--help`.
    pub about: &'static str,
    pub kind: ParamKind,
}

impl ParamSpec {
    /// A size within `min..=` the bound called `bound`, the whole range by default.
    pub const fn range(
        name: &'static str,
        about: &'static str,
        min: i64,
        bound: &'static str,
    ) -> Self {
        let kind = ParamKind::Range {
            min,
            bound,
            default: None,
        };
        ParamSpec { name, about, kind }
    }

    /// This size parameter with `lo..=hi` when the flag is not given.
    pub const fn by_default(self, lo: i64, hi: i64) -> Self {
        let ParamKind::Range { min, bound, .. } = self.kind else {
            panic!("only a size parameter has a default range")
        };
        let default = Some((lo, hi));
        let kind = ParamKind::Range {
            min,
            bound,
            default,
        };
        ParamSpec { kind, ..self }
    }

    /// One value within `min..=` the bound called `bound`; `noun` names what it bounds.
    pub const fn value(
        name: &'static str,
        about: &'static str,
        min: i64,
        bound: &'static str,
        noun: &'static str,
    ) -> Self {
        let kind = ParamKind::Value { min, bound, noun };
        ParamSpec { name, about, kind }
    }

    /// A switch.
    pub const fn flag(name: &'static str, about: &'static str) -> Self {
        let kind = ParamKind::Flag;
        ParamSpec { name, about, kind }
    }
}

/// What a parameter's value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// A size, `N` or `LO..HI`, within `min..=` the bound called `bound`. Without the flag:
    /// `default` when given, else the whole range.
    Range {
        min: i64,
        bound: &'static str,
        default: Option<(i64, i64)>,
    },
    /// One value within `min..=` the bound called `bound` (default: the bound); `noun` names
    /// what it bounds in messages (`values` in "chess allows values 0..=100000").
    Value {
        min: i64,
        bound: &'static str,
        noun: &'static str,
    },
    /// A switch.
    Flag,
}

impl ParamKind {
    /// Whether two declarations can share one command-line flag.
    pub fn same_shape(&self, other: &ParamKind) -> bool {
        std::mem::discriminant(self) == std::mem::discriminant(other)
    }
}

/// A parameter's value as given on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamValue {
    Range(SizeRange),
    Value(i64),
    Flag,
}

/// The generator flags given to `gen`, `stress` or a plan line, not yet checked against a
/// game: the parameters in the order of [`super::all_params`] (kept by `set`, which the registry
/// defines since it alone knows every game), then the family.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GenParams {
    pub(super) given: Vec<(&'static str, ParamValue)>,
    /// The family's name (default: mixed, a family chosen by the seed).
    pub family: Option<String>,
}

impl GenParams {
    /// With `name` set: `GenParams::default().with("n", ParamValue::Range(..))`.
    pub fn with(mut self, name: &'static str, value: ParamValue) -> GenParams {
        self.set(name, value);
        self
    }

    /// With the family `name`.
    pub fn with_family(mut self, name: &str) -> GenParams {
        self.family = Some(name.to_string());
        self
    }

    /// The parameters given, in order.
    pub fn given(&self) -> &[(&'static str, ParamValue)] {
        &self.given
    }

    /// The value given for `name`, if any.
    pub fn get(&self, name: &str) -> Option<ParamValue> {
        self.given.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
    }

    /// Whether no flag was given at all.
    pub fn is_empty(&self) -> bool {
        self.given.is_empty() && self.family.is_none()
    }

    /// The flags as they are typed on the command line (empty for the defaults), so a report
    /// can say exactly what replays a case.
    pub fn to_flags(&self) -> String {
        let mut parts: Vec<String> = self
            .given
            .iter()
            .map(|(name, value)| match value {
                ParamValue::Range(r) => format!("--{name} {r}"),
                ParamValue::Value(v) => format!("--{name} {v}"),
                ParamValue::Flag => format!("--{name}"),
            })
            .collect();
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
        if lo > hi {
            return Err(format!(
                "size range {}: need LO <= HI",
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_range_round_trips_through_display() {
        for s in ["3", "1..10", "2..=5", "0..21"] {
            let r: SizeRange = s.parse().unwrap();
            assert_eq!(r.to_string().parse::<SizeRange>().unwrap(), r);
        }
        assert_eq!("2..=5".parse::<SizeRange>().unwrap().to_string(), "2..5");
        assert!("5..2".parse::<SizeRange>().is_err());
        assert!("x".parse::<SizeRange>().is_err());
    }

    #[test]
    fn bounds_are_read_and_set_by_name() {
        let specs = [BoundSpec {
            name: "n",
            about: "",
            default: 10,
            min: 1,
            max: 1000,
        }];
        let mut b = Bounds::defaults(&specs);
        assert_eq!(b.get("n"), 10);
        assert!(b.set("n", 12));
        assert!(!b.set("m", 12));
        assert_eq!(b.size("n"), 12);
    }
}
