//! Smaller chess boards for minimization: fewer rows or columns, zeroed A or B, smaller values.

use super::Chess;
use crate::problem::shrink::{line_drops, smaller_values, without};

/// Smaller variants of `c`, most drastic first.
pub(super) fn candidates(c: &Chess) -> impl Iterator<Item = Chess> + '_ {
    let drop_rows = line_drops(c.n).into_iter().map(move |rows| Chess {
        n: c.n - rows.len(),
        m: c.m,
        a: without(&c.a, &rows, &[]),
        b: without(&c.b, &rows, &[]),
    });
    let drop_cols = line_drops(c.m).into_iter().map(move |cols| Chess {
        n: c.n,
        m: c.m - cols.len(),
        a: without(&c.a, &[], &cols),
        b: without(&c.b, &[], &cols),
    });
    let zero_all = [false, true].into_iter().filter_map(move |is_b| {
        let grid = if is_b { &c.b } else { &c.a };
        grid.iter().flatten().any(|&v| v != 0).then(|| {
            let mut next = c.clone();
            let target = if is_b { &mut next.b } else { &mut next.a };
            target.iter_mut().flatten().for_each(|v| *v = 0);
            next
        })
    });
    let cells = (0..c.n).flat_map(move |i| (0..c.m).map(move |j| (i, j)));
    let values = cells.flat_map(move |(i, j)| {
        [false, true].into_iter().flat_map(move |is_b| {
            let v = if is_b { c.b[i][j] } else { c.a[i][j] };
            smaller_values(v).map(move |smaller| {
                let mut next = c.clone();
                if is_b {
                    next.b[i][j] = smaller;
                } else {
                    next.a[i][j] = smaller;
                }
                next
            })
        })
    });
    drop_rows.chain(drop_cols).chain(zero_all).chain(values)
}
