//! Smaller chessboards for minimization: a row with a column, single pieces, lighter weights.

use super::{Cell, Chessboard};
use crate::problem::shrink::{smaller_values, without};

/// Smaller variants of `c`, most drastic first.
pub(super) fn candidates(c: &Chessboard) -> impl Iterator<Item = Chessboard> + '_ {
    let n = c.n;
    // Boards stay square: drop one row together with one column.
    let lines = (n > 1)
        .then(|| {
            (0..n)
                .rev()
                .flat_map(move |i| (0..n).rev().map(move |j| (i, j)))
        })
        .into_iter()
        .flatten()
        .map(move |(i, j)| Chessboard {
            n: n - 1,
            cells: c
                .cells
                .iter()
                .enumerate()
                .filter(|&(r, _)| r != i)
                .map(|(_, row)| {
                    row.iter()
                        .enumerate()
                        .filter(|&(col, _)| col != j)
                        .map(|(_, &cell)| cell)
                        .collect()
                })
                .collect(),
            weights: without(&c.weights, &[i], &[j]),
        });
    let cells = move || (0..n).flat_map(move |i| (0..n).map(move |j| (i, j)));
    let clear_pieces = cells()
        .filter(move |&(i, j)| c.cells[i][j] != Cell::Empty)
        .map(move |(i, j)| {
            let mut next = c.clone();
            next.cells[i][j] = Cell::Empty;
            next.weights[i][j] = 0;
            next
        });
    let lighter = cells().flat_map(move |(i, j)| {
        smaller_values(c.weights[i][j]).map(move |w| {
            let mut next = c.clone();
            next.weights[i][j] = w;
            next
        })
    });
    lines.chain(clear_pieces).chain(lighter)
}
