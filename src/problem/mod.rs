//! The problems duipai knows: their identity, bounds, instances and canonical text form.

use serde::Serialize;

pub mod chess;
pub mod chessboard;

pub use chess::Chess;
pub use chessboard::{Cell, Chessboard};

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
