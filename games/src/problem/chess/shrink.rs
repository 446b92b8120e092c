//! Smaller chess boards for minimization, most drastic first: the zeroed board, crops, one
//! player's values zeroed, chunks of rows, columns and cells, then single rows and columns. Values are
//! bisected slot by slot by the minimizer: A row by row, then B.

use super::Chess;
use crate::problem::shrink::{chunks, crop, crop_origins, crop_sides, without};

/// How many passes [`pass`] has.
pub(super) const PASSES: usize = 4;

/// The candidates of one pass for `c`.
pub(super) fn pass(c: &Chess, pass: usize) -> Vec<Chess> {
    let mut out = match pass {
        0 => cleared(c),
        1 => crops(c),
        2 => chunked(c),
        3 => single_lines(c),
        _ => Vec::new(),
    };
    out.retain(|x| x != c);
    out
}

fn zero(c: &Chess) -> Vec<Vec<i64>> {
    vec![vec![0; c.m]; c.n]
}

/// The board of the same shape with every value zero. (A or B alone zeroed comes after the
/// crops: zeroing one player's values early would hide bugs that need both, such as greed.)
fn cleared(c: &Chess) -> Vec<Chess> {
    vec![Chess {
        a: zero(c),
        b: zero(c),
        ..c.clone()
    }]
}

/// Sub-boards, smallest first: small ones anywhere, larger ones at the corners.
fn crops(c: &Chess) -> Vec<Chess> {
    let mut rows = crop_sides(c.n);
    rows.push(c.n);
    let mut cols = crop_sides(c.m);
    cols.push(c.m);
    let mut sizes: Vec<(usize, usize)> = rows
        .iter()
        .flat_map(|&k| cols.iter().map(move |&l| (k, l)))
        .filter(|&(k, l)| (k, l) != (c.n, c.m))
        .collect();
    sizes.sort_by_key(|&(k, l)| (k * l, k, l));
    let mut out = Vec::new();
    for (k, l) in sizes {
        for (r0, c0) in crop_origins(c.n, c.m, k, l) {
            out.push(Chess {
                n: k,
                m: l,
                a: crop(&c.a, r0, c0, k, l),
                b: crop(&c.b, r0, c0, k, l),
            });
        }
    }
    out
}

/// A zeroed, B zeroed, chunks of rows, of columns, then chunks of cells zeroed.
fn chunked(c: &Chess) -> Vec<Chess> {
    let mut out = vec![
        Chess {
            a: zero(c),
            ..c.clone()
        },
        Chess {
            b: zero(c),
            ..c.clone()
        },
    ];
    for rows in chunks(c.n) {
        out.push(Chess {
            n: c.n - rows.len(),
            m: c.m,
            a: without(&c.a, &rows, &[]),
            b: without(&c.b, &rows, &[]),
        });
    }
    for cols in chunks(c.m) {
        out.push(Chess {
            n: c.n,
            m: c.m - cols.len(),
            a: without(&c.a, &[], &cols),
            b: without(&c.b, &[], &cols),
        });
    }
    for cells in chunks(c.n * c.m) {
        let mut next = c.clone();
        for &k in &cells {
            next.a[k / c.m][k % c.m] = 0;
            next.b[k / c.m][k % c.m] = 0;
        }
        out.push(next);
    }
    out
}

/// Each single row, then each single column, dropped.
fn single_lines(c: &Chess) -> Vec<Chess> {
    let mut out = Vec::new();
    if c.n > 1 {
        for i in 0..c.n {
            out.push(Chess {
                n: c.n - 1,
                m: c.m,
                a: without(&c.a, &[i], &[]),
                b: without(&c.b, &[i], &[]),
            });
        }
    }
    if c.m > 1 {
        for j in 0..c.m {
            out.push(Chess {
                n: c.n,
                m: c.m - 1,
                a: without(&c.a, &[], &[j]),
                b: without(&c.b, &[], &[j]),
            });
        }
    }
    out
}

/// A's cells row by row, then B's.
pub(super) fn slots(c: &Chess) -> usize {
    2 * c.n * c.m
}

fn slot_cell(c: &Chess, slot: usize) -> (bool, usize, usize) {
    let cells = c.n * c.m;
    let (is_b, k) = (slot >= cells, slot % cells);
    (is_b, k / c.m, k % c.m)
}

pub(super) fn value(c: &Chess, slot: usize) -> i64 {
    let (is_b, i, j) = slot_cell(c, slot);
    if is_b { c.b[i][j] } else { c.a[i][j] }
}

pub(super) fn with_value(c: &Chess, slot: usize, v: i64) -> Chess {
    let (is_b, i, j) = slot_cell(c, slot);
    let mut next = c.clone();
    if is_b {
        next.b[i][j] = v;
    } else {
        next.a[i][j] = v;
    }
    next
}
