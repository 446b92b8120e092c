//! Exhaustive chessboard search that shares nothing with the staircase solver: every order of
//! removals as the rules are written, memoized by the set of remaining pieces.

use std::collections::HashMap;

use super::{Cell, Chessboard};

/// Largest chessboard side searched. The reachable sets of remaining pieces are far fewer than
/// 2^36 (at most the 924 staircases of a 6×6 board), and only those are ever memoized.
pub const CHESSBOARD_MAX_N: usize = 6;

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
