//! What the two staircase games (`chess`, `chessboard`) share beside the state space: a
//! board's value matrix checked before a solve, and when a board is too long to show whole.

use crate::problem::solution::SolveError;

/// Boards with more cells than this are long: reports show their line of play compact and
/// save the whole one beside the case.
pub const LONG_ABOVE_CELLS: usize = 36;

/// Checks that `rows` is an n×m matrix of values >= 0 and returns their sum.
pub fn checked_matrix(
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
