//! The contract: the object-safe [`Problem`] and [`Instance`] the engine sees a game through,
//! and [`Verify`], what the tests check it with besides.

use std::any::Any;
use std::fmt;

use serde::Serialize;

use super::coverage::Coverage;
use super::file::Structure;
use super::input::InputError;
use super::package::Package;
use super::params::SizeRange;
use super::params::{BoundSpec, Bounds, ParamSpec};
use super::shrink;
use super::solution::{Explanation, SolveError};
use crate::answer::{Expected, Rule};

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
    /// A family called `name` (after `--family`), with one line for `--help`.
    pub const fn new(name: &'static str, about: &'static str) -> Self {
        Family { name, about }
    }

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

/// Validated generator settings: the flags resolved against the problem's parameters and
/// default bounds, every parameter with a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    pub problem: &'static dyn Problem,
    pub(super) values: Vec<(&'static str, Resolved)>,
    /// `None` for mixed.
    pub family: Option<Family>,
}

/// A parameter's value after defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Resolved {
    Range(SizeRange),
    Value(i64),
    Flag(bool),
}

/// A game: its identity, constraints, parser and generator. The engine's whole view of it.
pub trait Problem: Send + Sync + 'static {
    /// The name typed on the command line and used in file names (`chess`).
    fn name(&self) -> &'static str;

    /// One line for `--help`.
    fn about(&self) -> &'static str;

    /// The validator's bounds with their defaults (the official constraints).
    fn bounds(&self) -> &'static [BoundSpec];

    /// The generator's parameters.
    fn params(&self) -> &'static [ParamSpec];

    /// The case families (`--family`), in the order `mixed` draws from (without `mixed`).
    fn families(&self) -> &'static [Family];

    /// How an input file holds its cases.
    fn structure(&self) -> Structure;

    /// How answers are compared.
    fn rule(&self) -> Rule;

    /// The judge's limits: (CPU milliseconds, memory MiB).
    fn default_limits(&self) -> (u64, u64);

    /// The statement's sample: (input, answer).
    fn sample(&self) -> (&'static str, &'static str);

    /// The built-in test plan `pack` follows (`generators/<name>.plan`).
    fn builtin_plan(&self) -> &'static str;

    /// Other built-in plans, by name (`pack --plan NAME`): (name, plan text).
    fn named_plans(&self) -> &'static [(&'static str, &'static str)];

    /// The files of a judge's problem package beside the tests.
    fn package(&self) -> &'static Package;

    /// Strict parse and validation against `bounds` in one pass; every rejection carries the
    /// 1-based line and column and says what was expected and what was found.
    fn parse(&self, text: &[u8], bounds: &Bounds) -> Result<Box<dyn Instance>, InputError>;

    /// Parses like [`Problem::parse`] and says which values of its bounds the input reached.
    fn coverage(&self, text: &[u8], bounds: &Bounds) -> Result<Coverage, InputError>;

    /// The input for one seed under validated settings.
    fn generate(&self, spec: &Spec, seed: u64) -> Box<dyn Instance>;

    /// The official constraints.
    fn default_bounds(&self) -> Bounds {
        Bounds::defaults(self.bounds())
    }

    /// Reads an answer file (or a reference's output) for `instance`: its answers, each read
    /// as this problem's answers are; the error says why it is not one.
    fn read_answers(&self, bytes: &[u8], instance: &dyn Instance) -> Result<Expected, String> {
        let multi = self.structure().is_multi();
        Expected::read(bytes, self.rule(), instance.case_count(), multi)
    }
}

/// What the tests check a game with beyond what the engine needs.
pub trait Verify {
    /// The answer lines by an independent exhaustive search; `None` when some case is too big
    /// for it, or the instance is not this game's.
    fn brute_force(&self, instance: &dyn Instance) -> Option<Vec<String>>;

    /// Whether `instance`, a packed test point, is what its plan line's comment says
    /// (`# 11: a single column`); `None` when the game has no check for `claim` or the
    /// instance is not this game's.
    fn plan_claim(&self, claim: &str, instance: &dyn Instance) -> Option<bool>;
}

/// A registry entry: the engine's [`Problem`] and the tests' [`Verify`].
pub trait Registered: Problem + Verify {}

impl<T: Problem + Verify> Registered for T {}

impl fmt::Debug for dyn Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for dyn Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for dyn Registered {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl PartialEq for dyn Problem {
    fn eq(&self, other: &Self) -> bool {
        self.name() == other.name()
    }
}

impl Eq for dyn Problem {}

impl Serialize for dyn Problem {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// How big an input is, in the order minimization makes inputs smaller: cases first, then
/// the game's own measure summed over the cases, compared lexicographically.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Size {
    pub cases: usize,
    pub measure: Vec<i64>,
}

/// One input file of a game: one case or several.
pub trait Instance: fmt::Debug + Send + Sync + 'static {
    /// The game it belongs to.
    fn problem(&self) -> &'static dyn Problem;

    /// The canonical input text: single spaces, `\n` line ends, a final newline.
    fn to_input(&self) -> String;

    /// How many cases the file holds.
    fn case_count(&self) -> usize;

    /// The shape for reports (`3×4`, or `2 cases: 3×4, 1×1`).
    fn shape(&self) -> String;

    /// Its size, the order shrink candidates decrease in.
    fn size(&self) -> Size;

    /// The largest value or weight of any case (0 for an empty one).
    fn largest(&self) -> i64;

    /// The exact answer lines, one per case, or why the solver declines: more states than
    /// it builds a table for, values whose sum overflows, and the like (only with raised
    /// bounds).
    fn try_solve(&self) -> Result<Vec<String>, SolveError>;

    /// Per case: the answer, the board and one optimal line of play, as text.
    fn try_explain(&self) -> Result<Vec<Explanation>, SolveError>;

    /// How many shrink passes there are (the same for every file of the game).
    fn shrink_passes(&self) -> usize;

    /// The candidates of shrink pass `pass`, most drastic first (whole cases before anything
    /// inside one): each strictly smaller in [`Instance::size`], never equal to this one, and
    /// valid wherever this one is.
    fn shrink_pass(&self, pass: usize) -> shrink::Candidates<'_, Box<dyn Instance>>;

    /// How many values (slots) the minimizer may lower one by one.
    fn value_slots(&self) -> usize;

    /// The value in `slot`.
    fn value(&self, slot: usize) -> i64;

    /// This instance with `slot` set to `value` (which the minimizer keeps within
    /// `0..=self.value(slot)`).
    fn with_value(&self, slot: usize, value: i64) -> Box<dyn Instance>;

    /// The file holding case `index` (0-based) alone.
    fn only_case(&self, index: usize) -> Box<dyn Instance>;

    /// For each case, its 0-based index in the file this one was shrunk from.
    fn origins(&self) -> Vec<usize>;

    fn clone_box(&self) -> Box<dyn Instance>;

    /// For tests and game-specific code that need the concrete type.
    fn as_any(&self) -> &dyn Any;
}

impl dyn Instance {
    /// The expected answers: the reference solver's, compared by the problem's rule.
    pub fn expected(&self) -> Result<Expected, SolveError> {
        let problem = self.problem();
        let lines = self.try_solve()?;
        Ok(Expected::from_lines(
            &lines,
            problem.rule(),
            problem.structure().is_multi(),
        ))
    }

    /// The answer lines.
    ///
    /// # Panics
    /// When [`Instance::try_solve`] fails, which parsed inputs within the default bounds never
    /// do; code that accepts raised bounds should call `try_solve`.
    pub fn solve(&self) -> Vec<String> {
        self.try_solve()
            .unwrap_or_else(|e| panic!("reference solver declined the instance: {e}"))
    }

    /// The answers as a program prints them: one line per case.
    ///
    /// # Panics
    /// As [`dyn Instance::solve`].
    pub fn answer_text(&self) -> String {
        self.solve().iter().map(|l| format!("{l}\n")).collect()
    }

    /// The concrete instance, if it is a `T`.
    pub fn downcast_ref<T: Instance>(&self) -> Option<&T> {
        self.as_any().downcast_ref::<T>()
    }
}

impl Clone for Box<dyn Instance> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

impl PartialEq for dyn Instance {
    /// Same game and same canonical text.
    fn eq(&self, other: &Self) -> bool {
        self.problem() == other.problem() && self.to_input() == other.to_input()
    }
}

impl Eq for dyn Instance {}

/// Writes rows of integers, one row a line, single spaces between values.
pub(crate) fn write_rows(out: &mut String, rows: &[Vec<i64>]) {
    use std::fmt::Write;
    for row in rows {
        let mut first = true;
        for v in row {
            if !first {
                out.push(' ');
            }
            first = false;
            let _ = write!(out, "{v}");
        }
        out.push('\n');
    }
}
