//! Smaller chess boards for minimization, most drastic first: zeroed values, crops that keep a
//! corner, chunks of rows, columns and cells, then single rows and columns. Values are
//! bisected slot by slot by the minimizer: A row by row, then B.

use super::Chess;
use crate::problem::shrink::{Corner, chunks, crop, crop_sides, without};

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

/// All values zero, then A zero, then B zero.
fn cleared(c: &Chess) -> Vec<Chess> {
    let zero = |grid: &[Vec<i64>]| vec![vec![0; c.m]; grid.len()];
    let mut out = vec![Chess {
        a: zero(&c.a),
        b: zero(&c.b),
        ..c.clone()
    }];
    out.push(Chess {
        a: zero(&c.a),
        ..c.clone()
    });
    out.push(Chess {
        b: zero(&c.b),
        ..c.clone()
    });
    out
}

/// Sub-boards that keep a corner, smallest first.
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
        for corner in Corner::ALL {
            let (r0, c0) = corner.origin(c.n, c.m, k, l);
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

/// Chunks of rows, of columns, then chunks of cells zeroed.
fn chunked(c: &Chess) -> Vec<Chess> {
    let mut out = Vec::new();
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
