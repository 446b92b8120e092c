//! What the reference solvers return: the answer, an optimal line of play, and why a solve can fail.

use std::fmt;

use super::Cell;
use crate::staircase::TooLarge;

/// A chess player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// Moves first, scores A, maximizes the difference.
    Feifei,
    /// Moves second, scores B, minimizes the difference.
    Niuniu,
}

impl Player {
    pub fn name(self) -> &'static str {
        match self {
            Player::Feifei => "Feifei",
            Player::Niuniu => "Niuniu",
        }
    }

    pub fn initial(self) -> char {
        match self {
            Player::Feifei => 'F',
            Player::Niuniu => 'N',
        }
    }
}

/// One step of an optimal line. Coordinates are 1-based (row, column), row 1 at the top.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Move {
    /// chess: `player` fills `cell` and scores `value`; `score` is Feifei − Niuniu so far.
    Place {
        player: Player,
        cell: (usize, usize),
        value: i64,
        score: i64,
    },
    /// chessboard: one piece removed alone at `cost`; `total` is the cost so far.
    Remove {
        piece: Cell,
        cell: (usize, usize),
        cost: i64,
        total: i64,
    },
    /// chessboard: a white and a black piece removed together at |w_W − w_B|.
    RemovePair {
        white: (usize, usize),
        black: (usize, usize),
        cost: i64,
        total: i64,
    },
}

/// The exact answer and one optimal line of play that reaches it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    pub answer: i64,
    pub moves: Vec<Move>,
}

/// Why the reference solver declined an instance. Parsed inputs only get here with raised bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// More staircase states than the solver builds a table for.
    TooLarge(TooLarge),
    /// The sum of all values does not fit in an i64, so the DP could overflow.
    ValuesTooLarge,
    /// Rows or values disagree with n and m (only possible for hand-built instances).
    Malformed(String),
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::TooLarge(e) => e.fmt(f),
            SolveError::ValuesTooLarge => f.write_str(
                "the values sum to more than an i64 holds, so the answer could overflow",
            ),
            SolveError::Malformed(what) => write!(f, "malformed instance: {what}"),
        }
    }
}

impl std::error::Error for SolveError {}

impl From<TooLarge> for SolveError {
    fn from(e: TooLarge) -> Self {
        SolveError::TooLarge(e)
    }
}

/// Checks that `rows` is an n×m matrix of values >= 0 and returns their sum.
pub(crate) fn checked_matrix(
    name: &str,
    rows: &[Vec<i64>],
    n: usize,
    m: usize,
) -> Result<i64, SolveError> {
    if rows.len() != n || rows.iter().any(|r| r.len() != m) {
        return Err(SolveError::Malformed(format!("{name} is not {n}×{m}")));
    }
    let mut sum: i64 = 0;
    for &v in rows.iter().flatten() {
        if v < 0 {
            return Err(SolveError::Malformed(format!("{name} holds {v} < 0")));
        }
        sum = sum.checked_add(v).ok_or(SolveError::ValuesTooLarge)?;
    }
    Ok(sum)
}
