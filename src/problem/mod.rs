//! The problems duipai knows: their identity, bounds, instances, canonical text form, strict
//! parsers, reference solvers and the independent brute force they are checked against.

use serde::Serialize;

pub mod brute;
pub mod chess;
pub mod chessboard;
mod input;
mod solution;

pub use chess::Chess;
pub use chessboard::{Cell, Chessboard};
pub use input::InputError;
pub use solution::{Move, Player, Solution, SolveError};

/// A problem known to duipai.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Problem {
    /// Luogu P4363 一双木棋: n×m staircase game, Feifei's score minus Niuniu's.
    Chess,
    /// CCPC 2019 Qinhuangdao G: clear an n×n board of W/B pieces at minimum cost.
    Chessboard,
}

impl Problem {
    pub const ALL: [Problem; 2] = [Problem::Chess, Problem::Chessboard];

    /// The problem's name as typed on the command line and used in file names.
    pub fn name(self) -> &'static str {
        match self {
            Problem::Chess => "chess",
            Problem::Chessboard => "chessboard",
        }
    }

    /// The official constraints.
    pub fn default_bounds(self) -> Bounds {
        match self {
            Problem::Chess => Bounds {
                max_n: 10,
                max_m: 10,
                max_value: 100_000,
            },
            Problem::Chessboard => Bounds {
                max_n: 12,
                max_m: 12,
                max_value: 1_000_000,
            },
        }
    }

    /// Strict parse and validation against `bounds` in one pass; every rejection carries the
    /// 1-based line and column and says what was expected and what was found.
    pub fn parse(self, text: &[u8], bounds: &Bounds) -> Result<Instance, InputError> {
        match self {
            Problem::Chess => Chess::parse(text, bounds).map(Instance::Chess),
            Problem::Chessboard => Chessboard::parse(text, bounds).map(Instance::Chessboard),
        }
    }

    /// The judge's limits: (CPU milliseconds, memory MiB).
    pub fn default_limits(self) -> (u64, u64) {
        match self {
            Problem::Chess => (1000, 512),
            Problem::Chessboard => (1000, 1024),
        }
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Inclusive upper bounds the validator enforces; lower bounds are fixed (n, m >= 1, values >= 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Bounds {
    pub max_n: usize,
    /// Columns; chessboard boards are square and ignore it.
    pub max_m: usize,
    pub max_value: i64,
}

/// One input of either problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Instance {
    Chess(Chess),
    Chessboard(Chessboard),
}

impl Instance {
    pub fn problem(&self) -> Problem {
        match self {
            Instance::Chess(_) => Problem::Chess,
            Instance::Chessboard(_) => Problem::Chessboard,
        }
    }

    /// The canonical input text: single spaces, `\n` line ends, a final newline.
    pub fn to_input(&self) -> String {
        match self {
            Instance::Chess(c) => c.to_input(),
            Instance::Chessboard(c) => c.to_input(),
        }
    }

    /// The exact answer, or why the solver declines: more than
    /// [`crate::staircase::MAX_STATES`] states, values whose sum overflows an i64, or a
    /// hand-built instance whose rows disagree with its sizes.
    pub fn try_solve(&self) -> Result<i64, SolveError> {
        match self {
            Instance::Chess(c) => c.try_solve(),
            Instance::Chessboard(c) => c.try_solve(),
        }
    }

    /// The exact reference answer (rank-indexed staircase DP).
    ///
    /// # Panics
    /// When [`Instance::try_solve`] fails, which parsed inputs within the default bounds never
    /// do; code that accepts raised bounds should call `try_solve`.
    pub fn solve(&self) -> i64 {
        self.try_solve()
            .unwrap_or_else(|e| panic!("reference solver declined the instance: {e}"))
    }

    /// Bytes per entry of the solver's table: 4 when every value provably fits an i32
    /// (the default bounds always do), 8 otherwise.
    pub fn table_entry_bytes(&self) -> Result<usize, SolveError> {
        match self {
            Instance::Chess(c) => c.table_entry_bytes(),
            Instance::Chessboard(c) => c.table_entry_bytes(),
        }
    }

    /// The answer and one optimal line of play.
    pub fn try_solve_explained(&self) -> Result<Solution, SolveError> {
        match self {
            Instance::Chess(c) => c.try_solve_explained(),
            Instance::Chessboard(c) => c.try_solve_explained(),
        }
    }

    /// The answer and one optimal line of play.
    ///
    /// # Panics
    /// When [`Instance::try_solve_explained`] fails (see [`Instance::solve`]).
    pub fn solve_explained(&self) -> Solution {
        self.try_solve_explained()
            .unwrap_or_else(|e| panic!("reference solver declined the instance: {e}"))
    }

    /// The board and the optimal line of play as human text.
    pub fn explain(&self, solution: &Solution) -> String {
        match self {
            Instance::Chess(c) => c.explain(solution),
            Instance::Chessboard(c) => c.explain(solution),
        }
    }

    /// Independent exhaustive search; `None` when the board is too big for it
    /// (more than [`brute::CHESS_MAX_CELLS`] cells, or a chessboard wider than
    /// [`brute::CHESSBOARD_MAX_N`]).
    pub fn brute_force(&self) -> Option<i64> {
        match self {
            Instance::Chess(c) => brute::chess(c),
            Instance::Chessboard(c) => brute::chessboard(c),
        }
    }
}

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
