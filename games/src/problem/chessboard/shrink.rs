//! Smaller chessboards for minimization, most drastic first: the empty and the weightless
//! board, crops that keep a corner, chunks of lines and pieces, then single lines and
//! pieces. Boards stay square, so a row always goes with a column: any empty row with any
//! empty column (which keeps every piece), then each row with a few columns. The weights of
//! the pieces are bisected slot by slot by the minimizer, in reading order.

use super::{Cell, Chessboard};
use crate::problem::shrink::{chunks, crop, crop_origins, crop_sides, without};

/// How many passes [`pass`] has.
pub(super) const PASSES: usize = 5;

/// The candidates of one pass for `c`.
pub(super) fn pass(c: &Chessboard, pass: usize) -> Vec<Chessboard> {
    let mut out = match pass {
        0 => cleared(c),
        1 => crops(c),
        2 => chunked(c),
        3 => single_lines(c),
        4 => single_pieces(c),
        _ => Vec::new(),
    };
    out.retain(|x| x != c);
    out
}

/// The cells holding a piece, in reading order.
fn pieces(c: &Chessboard) -> Vec<(usize, usize)> {
    (0..c.n)
        .flat_map(|i| (0..c.n).map(move |j| (i, j)))
        .filter(|&(i, j)| c.cells[i][j] != Cell::Empty)
        .collect()
}

fn cleared_at(c: &Chessboard, at: &[(usize, usize)]) -> Chessboard {
    let mut next = c.clone();
    for &(i, j) in at {
        next.cells[i][j] = Cell::Empty;
        next.weights[i][j] = 0;
    }
    next
}

/// The empty board of the same size, then the same pieces with weight 0.
fn cleared(c: &Chessboard) -> Vec<Chessboard> {
    vec![
        cleared_at(c, &pieces(c)),
        Chessboard {
            weights: vec![vec![0; c.n]; c.n],
            ..c.clone()
        },
    ]
}

fn board(n: usize, cells: Vec<Vec<Cell>>, weights: Vec<Vec<i64>>) -> Chessboard {
    Chessboard { n, cells, weights }
}

/// Square sub-boards, smallest first: small ones anywhere, larger ones at the corners.
fn crops(c: &Chessboard) -> Vec<Chessboard> {
    let mut out = Vec::new();
    for k in crop_sides(c.n) {
        for (r0, c0) in crop_origins(c.n, c.n, k, k) {
            out.push(board(
                k,
                crop(&c.cells, r0, c0, k, k),
                crop(&c.weights, r0, c0, k, k),
            ));
        }
    }
    out
}

fn dropped(c: &Chessboard, rows: &[usize], cols: &[usize]) -> Chessboard {
    board(
        c.n - rows.len(),
        without(&c.cells, rows, cols),
        without(&c.weights, rows, cols),
    )
}

/// Chunks of rows with the same chunk of columns (and the mirrored one), then chunks of
/// pieces cleared.
fn chunked(c: &Chessboard) -> Vec<Chessboard> {
    let mut out = Vec::new();
    let lines = chunks(c.n);
    for rows in &lines {
        out.push(dropped(c, rows, rows));
        let mirrored: Vec<usize> = rows.iter().rev().map(|&r| c.n - 1 - r).collect();
        if mirrored != *rows {
            out.push(dropped(c, rows, &mirrored));
        }
    }
    let at = pieces(c);
    for chunk in chunks(at.len()) {
        let cells: Vec<(usize, usize)> = chunk.iter().map(|&k| at[k]).collect();
        out.push(cleared_at(c, &cells));
    }
    out
}

/// Every empty row with every empty column (the board shrinks and loses no piece, wherever
/// the two lines are), then each row with the same column, with the mirrored column, and
/// with the first and last column: 4n candidates rather than all n² pairs.
fn single_lines(c: &Chessboard) -> Vec<Chessboard> {
    let n = c.n;
    let mut out = Vec::new();
    if n < 2 {
        return out;
    }
    let empty_rows = (0..n).filter(|&i| (0..n).all(|j| c.cells[i][j] == Cell::Empty));
    let empty_cols: Vec<usize> = (0..n)
        .filter(|&j| (0..n).all(|i| c.cells[i][j] == Cell::Empty))
        .collect();
    let pairs = empty_rows.flat_map(|i| empty_cols.iter().map(move |&j| (i, j)));
    let some_columns = (0..n).flat_map(|i| [i, n - 1 - i, 0, n - 1].map(|j| (i, j)));
    for (i, j) in pairs.chain(some_columns) {
        let next = dropped(c, &[i], &[j]);
        if !out.contains(&next) {
            out.push(next);
        }
    }
    out
}

/// Each piece cleared alone.
fn single_pieces(c: &Chessboard) -> Vec<Chessboard> {
    pieces(c).into_iter().map(|p| cleared_at(c, &[p])).collect()
}

/// One slot per piece, in reading order: its weight.
pub(super) fn slots(c: &Chessboard) -> usize {
    c.pieces()
}

fn slot_cell(c: &Chessboard, slot: usize) -> Option<(usize, usize)> {
    pieces(c).get(slot).copied()
}

pub(super) fn value(c: &Chessboard, slot: usize) -> i64 {
    slot_cell(c, slot).map_or(0, |(i, j)| c.weights[i][j])
}

pub(super) fn with_value(c: &Chessboard, slot: usize, v: i64) -> Chessboard {
    let mut next = c.clone();
    if let Some((i, j)) = slot_cell(c, slot) {
        next.weights[i][j] = v;
    }
    next
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::params::Bounds;

    fn board(text: &str) -> Chessboard {
        let bounds = Bounds::defaults(super::super::BOUNDS);
        Chessboard::parse(text.as_bytes(), &bounds).unwrap()
    }

    /// Two pieces that need no third line: the empty first row goes with the empty middle
    /// column, which no crop and no "row with a nearby column" reaches.
    #[test]
    fn an_empty_row_goes_with_an_empty_column_anywhere() {
        let three = board("3\n...\nW..\n..B\n0 0 0\n5 0 0\n0 0 7\n");
        let two = board("2\nW.\n.B\n5 0\n0 7\n");
        let candidates: Vec<Chessboard> = (0..PASSES).flat_map(|p| pass(&three, p)).collect();
        assert!(candidates.contains(&two), "no pass makes the 2×2 board");
    }
}
