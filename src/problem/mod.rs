//! The problems duipai knows: the `Problem` and `Instance` traits every game implements, and
//! the registry [`ALL`], the one place that names the games.
//!
//! A game is one folder (`chess/`, `chessboard/`): its strict parser, reference solver,
//! explanation, independent brute force, generator families and shrink candidates. What the
//! games share lives beside them: the staircase state space ([`staircase`]), the input
//! scanner, the generator settings ([`generate`]) and the solver's result types.

use std::any::Any;
use std::fmt;

use serde::Serialize;

pub mod chess;
pub mod chessboard;
pub mod generate;
mod input;
pub mod shrink;
mod solution;
pub mod staircase;

pub use chess::{Chess, ChessProblem};
pub use chessboard::{Cell, Chessboard, ChessboardProblem};
pub use generate::{Family, GenError, GenParams, SizeProfile, SizeRange, Spec};
pub use input::InputError;
pub use solution::{Explanation, SolveError};

use crate::random::Rng;

/// Every game duipai knows, in the order help texts list them. Adding a game is one folder
/// and one entry here.
pub static ALL: &[&dyn Problem] = &[&ChessProblem, &ChessboardProblem];

/// The registered game called `name` (as typed on the command line).
pub fn by_name(name: &str) -> Option<&'static dyn Problem> {
    ALL.iter().copied().find(|p| p.name() == name)
}

/// The names of every registered game, for messages and `--help`.
pub fn names() -> Vec<&'static str> {
    ALL.iter().map(|p| p.name()).collect()
}

/// Inclusive upper bounds the validator enforces; lower bounds are fixed (n, m >= 1, values >= 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Bounds {
    pub max_n: usize,
    /// Columns; games with square boards ignore it.
    pub max_m: usize,
    pub max_value: i64,
}

/// A game: its identity, constraints, parser and generator.
pub trait Problem: Send + Sync + 'static {
    /// The name typed on the command line and used in file names (`chess`).
    fn name(&self) -> &'static str;

    /// One line for `--help`.
    fn about(&self) -> &'static str;

    /// The official constraints.
    fn default_bounds(&self) -> Bounds;

    /// The judge's limits: (CPU milliseconds, memory MiB).
    fn default_limits(&self) -> (u64, u64);

    /// Strict parse and validation against `bounds` in one pass; every rejection carries the
    /// 1-based line and column and says what was expected and what was found.
    fn parse(&self, text: &[u8], bounds: &Bounds) -> Result<Box<dyn Instance>, InputError>;

    /// The statement's sample: (input, answer).
    fn sample(&self) -> (&'static str, &'static str);

    /// The built-in test plan `pack` follows (`generators/<name>.plan`).
    fn builtin_plan(&self) -> &'static str;

    /// Whether the board has its own column count (`--m`); square boards take `--n` only.
    fn has_columns(&self) -> bool;

    /// Refuses generator settings that do not apply to this game, with a message naming the flag.
    fn check_params(&self, params: &GenParams) -> Result<(), GenError> {
        let _ = params;
        Ok(())
    }

    /// The case families (`--family`), in the order `mixed` draws from (without `mixed`).
    fn families(&self) -> &'static [Family];

    /// One case of `family` drawn from `rng`. The draw order is part of the output format:
    /// changing it changes every golden hash.
    fn generate(
        &self,
        rng: &mut Rng,
        family: &Family,
        profile: SizeProfile,
        spec: &Spec,
    ) -> Box<dyn Instance>;
}

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

/// How big a case is, in the order minimization makes cases smaller: cells first, then
/// pieces, then the sum of the values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Size {
    pub cells: usize,
    pub pieces: usize,
    pub value_sum: i64,
}

/// One input of a game.
pub trait Instance: fmt::Debug + Send + Sync + 'static {
    /// The game it belongs to.
    fn problem(&self) -> &'static dyn Problem;

    /// The canonical input text: single spaces, `\n` line ends, a final newline.
    fn to_input(&self) -> String;

    /// The board's shape for reports (`3×4`).
    fn shape(&self) -> String;

    /// Its size, the order candidates of [`Instance::shrink_candidates`] decrease in.
    fn size(&self) -> Size;

    /// The largest value or weight on the board (0 for an empty one).
    fn max_value(&self) -> i64;

    /// The exact answer, or why the solver declines: more than
    /// [`staircase::MAX_STATES`] states, values whose sum overflows an i64, or a hand-built
    /// instance whose rows disagree with its sizes.
    fn try_solve(&self) -> Result<i64, SolveError>;

    /// Bytes per entry of the solver's table: 4 when every value provably fits an i32
    /// (the default bounds always do), 8 otherwise.
    fn table_entry_bytes(&self) -> Result<usize, SolveError>;

    /// The answer, the board and one optimal line of play, as text.
    fn try_explain(&self) -> Result<Explanation, SolveError>;

    /// Independent exhaustive search; `None` when the board is too big for it.
    fn brute_force(&self) -> Option<i64>;

    /// How many shrink passes the game has (the same for every instance of it).
    fn shrink_passes(&self) -> usize;

    /// The candidates of shrink pass `pass`, most drastic first: each strictly smaller in
    /// [`Instance::size`], never equal to this one, and valid wherever this one is.
    fn shrink_pass(&self, pass: usize) -> Vec<Box<dyn Instance>>;

    /// How many values (slots) the minimizer may lower one by one.
    fn value_slots(&self) -> usize;

    /// The value in `slot`.
    fn value(&self, slot: usize) -> i64;

    /// This instance with `slot` set to `value` (which the minimizer keeps within
    /// `0..=self.value(slot)`).
    fn with_value(&self, slot: usize, value: i64) -> Box<dyn Instance>;

    /// Every pass's candidates, then each value slot at 0 and halved: the one-step
    /// neighbourhood the minimizer explores, for tests and for callers without a driver.
    fn shrink_candidates(&self) -> Box<dyn Iterator<Item = Box<dyn Instance>> + '_> {
        let passes = (0..self.shrink_passes()).flat_map(move |p| self.shrink_pass(p));
        let values = (0..self.value_slots()).flat_map(move |slot| {
            let v = self.value(slot);
            let mut lower = vec![0, v / 2];
            lower.dedup();
            lower
                .into_iter()
                .filter(move |&x| x < v)
                .map(move |x| self.with_value(slot, x))
        });
        Box::new(passes.chain(values))
    }

    fn clone_box(&self) -> Box<dyn Instance>;

    /// For tests and game-specific code that need the concrete type.
    fn as_any(&self) -> &dyn Any;
}

impl dyn Instance {
    /// The exact reference answer (rank-indexed staircase DP).
    ///
    /// # Panics
    /// When [`Instance::try_solve`] fails, which parsed inputs within the default bounds never
    /// do; code that accepts raised bounds should call `try_solve`.
    pub fn solve(&self) -> i64 {
        self.try_solve()
            .unwrap_or_else(|e| panic!("reference solver declined the instance: {e}"))
    }

    /// The answer and one optimal line of play.
    ///
    /// # Panics
    /// When [`Instance::try_explain`] fails (see [`dyn Instance::solve`]).
    pub fn explain(&self) -> Explanation {
        self.try_explain()
            .unwrap_or_else(|e| panic!("reference solver declined the instance: {e}"))
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
