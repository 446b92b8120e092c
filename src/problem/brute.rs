//! Exhaustive searches that share nothing with the staircase solvers: they follow the rules as
//! written, on the board itself, so that agreement with the DP is real evidence.

use std::collections::HashMap;

use super::{Cell, Chess, Chessboard};

/// Largest chess board (in cells) the plain game tree is searched for: 4×4 has 24,024 lines of play.
pub const CHESS_MAX_CELLS: usize = 16;
/// Largest chessboard side searched. The reachable sets of remaining pieces are far fewer than
/// 2^36 (at most the 924 staircases of a 6×6 board), and only those are ever memoized.
pub const CHESSBOARD_MAX_N: usize = 6;

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

struct Piece {
    row: usize,
    col: usize,
    cell: Cell,
    weight: i64,
}

/// Minimum cost over every order of operations, memoized by the set of remaining pieces.
/// (A `HashMap` is fine here: nothing about its order is visible.)
pub fn chessboard(b: &Chessboard) -> Option<i64> {
    if b.n > CHESSBOARD_MAX_N
        || b.cells.len() != b.n
        || b.weights.len() != b.n
        || b.cells.iter().any(|r| r.len() != b.n)
        || b.weights.iter().any(|r| r.len() != b.n)
    {
        return None;
    }
    let mut pieces = Vec::new();
    for (row, cells) in b.cells.iter().enumerate() {
        for (col, &cell) in cells.iter().enumerate() {
            if cell != Cell::Empty {
                pieces.push(Piece {
                    row,
                    col,
                    cell,
                    weight: b.weights[row][col],
                });
            }
        }
    }
    // At most 36 pieces, so a u64 holds the set.
    let all = if pieces.is_empty() {
        0
    } else {
        u64::MAX >> (64 - pieces.len())
    };
    let mut memo = HashMap::new();
    let cost = clear(&pieces, all, &mut memo);
    i64::try_from(cost).ok()
}

/// Removable: no other remaining piece at (x', y') with x' >= x and y' <= y.
fn removable(pieces: &[Piece], remaining: u64, i: usize) -> bool {
    let p = &pieces[i];
    (0..pieces.len()).all(|j| {
        j == i || remaining & (1 << j) == 0 || !(pieces[j].row >= p.row && pieces[j].col <= p.col)
    })
}

fn clear(pieces: &[Piece], remaining: u64, memo: &mut HashMap<u64, i128>) -> i128 {
    if remaining == 0 {
        return 0;
    }
    if let Some(&v) = memo.get(&remaining) {
        return v;
    }
    let free: Vec<usize> = (0..pieces.len())
        .filter(|&i| remaining & (1 << i) != 0 && removable(pieces, remaining, i))
        .collect();
    let mut best = i128::MAX;
    for &i in &free {
        let rest = clear(pieces, remaining & !(1 << i), memo);
        best = best.min(i128::from(pieces[i].weight) + rest);
    }
    for &w in free.iter().filter(|&&i| pieces[i].cell == Cell::White) {
        for &k in free.iter().filter(|&&i| pieces[i].cell == Cell::Black) {
            let rest = clear(pieces, remaining & !(1 << w) & !(1 << k), memo);
            let cost = (i128::from(pieces[w].weight) - i128::from(pieces[k].weight)).abs();
            best = best.min(cost + rest);
        }
    }
    memo.insert(remaining, best);
    best
}
