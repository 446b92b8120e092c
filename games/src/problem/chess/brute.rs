//! Exhaustive chess search that shares nothing with the staircase solver: plain minimax over
//! the board as the rules are written, so that agreement with the DP is real evidence.

use super::Chess;

/// Largest chess board (in cells) the plain game tree is searched for: 4×4 has 24,024 lines of play.
pub const CHESS_MAX_CELLS: usize = 16;

/// Plain minimax over the grid, no memo: Feifei to move when an even number of cells is filled.
pub fn chess(c: &Chess) -> Option<i64> {
    let cells = c.n.checked_mul(c.m)?;
    if cells > CHESS_MAX_CELLS
        || c.a.len() != c.n
        || c.b.len() != c.n
        || c.a.iter().chain(&c.b).any(|row| row.len() != c.m)
    {
        return None;
    }
    let mut filled = vec![vec![false; c.m]; c.n];
    // i128 so that no sum of at most 16 i64 values can overflow.
    let value = minimax(c, &mut filled, 0, cells);
    i64::try_from(value).ok()
}

fn minimax(c: &Chess, filled: &mut [Vec<bool>], moves: usize, cells: usize) -> i128 {
    if moves == cells {
        return 0;
    }
    let feifei = moves.is_multiple_of(2);
    let mut best: Option<i128> = None;
    for i in 0..c.n {
        for j in 0..c.m {
            // Playable: empty, and everything to its left in the row and above it in the
            // column already filled.
            let playable =
                !filled[i][j] && (0..j).all(|jj| filled[i][jj]) && (0..i).all(|ii| filled[ii][j]);
            if !playable {
                continue;
            }
            filled[i][j] = true;
            let rest = minimax(c, filled, moves + 1, cells);
            filled[i][j] = false;
            let value = if feifei {
                i128::from(c.a[i][j]) + rest
            } else {
                rest - i128::from(c.b[i][j])
            };
            best = Some(match best {
                None => value,
                Some(b) if feifei => b.max(value),
                Some(b) => b.min(value),
            });
        }
    }
    // A non-full board always has a playable cell (the first empty cell in reading order of
    // the topmost unfinished row); 0 keeps this total anyway.
    best.unwrap_or(0)
}
