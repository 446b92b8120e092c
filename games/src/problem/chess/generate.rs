//! Chess case families: board shapes and the values A (Feifei) and B (Niuniu).

use super::Chess;
use crate::problem::contract::{Family, Spec};
use crate::problem::generate::{SizeProfile, grid};
use crate::random::Rng;

const THIN: Family = Family::new("thin", "a 1×m or n×1 board");
const TIES: Family = Family::new(
    "ties",
    "a few distinct values, many equal, with all-zero regions",
);
const A_EQUALS_B: Family = Family::new("a-equals-b", "B equal to A everywhere");
const GREEDY_TRAP: Family = Family::new(
    "greedy-trap",
    "small gains that open a large cell for the opponent",
);
const B_ZERO: Family = Family::new("b-zero", "all B = 0 (the official subtask)");

/// The chess families, in the order `mixed` draws from (part of the output format).
pub(super) const FAMILIES: &[Family] = &[
    Family::UNIFORM,
    THIN,
    Family::MAX_SIZE,
    Family::MAX_VALUES,
    TIES,
    A_EQUALS_B,
    GREEDY_TRAP,
    B_ZERO,
];

/// One chess case of `family`. The draw order (sizes, then A row by row, then B, then the
/// family's extra draws) is part of the output format: changing it changes every golden hash.
pub(super) fn generate(rng: &mut Rng, family: &Family, profile: SizeProfile, spec: &Spec) -> Chess {
    let (rows, cols) = (spec.range("n"), spec.range("m"));
    let (n, m) = match *family {
        Family::MAX_SIZE => (rows.hi, cols.hi),
        // The thin side is as thin as the flags allow: 1 unless --n/--m say otherwise.
        THIN => {
            if rng.chance(1, 2) {
                (rows.lo, profile.sample(rng, cols))
            } else {
                (profile.sample(rng, rows), cols.lo)
            }
        }
        _ => {
            let n = profile.sample(rng, rows);
            (n, profile.sample(rng, cols))
        }
    };
    let v = spec.value("max-value");
    let (a, mut b) = match *family {
        Family::MAX_VALUES => (grid(n, m, |_, _| v), grid(n, m, |_, _| v)),
        TIES => ties(rng, n, m, v),
        A_EQUALS_B => {
            let a = grid(n, m, |_, _| rng.range_i64(0, v));
            (a.clone(), a)
        }
        GREEDY_TRAP => greedy_trap(rng, n, m, v),
        B_ZERO => (grid(n, m, |_, _| rng.range_i64(0, v)), grid(n, m, |_, _| 0)),
        _ => {
            let a = grid(n, m, |_, _| rng.range_i64(0, v));
            (a, grid(n, m, |_, _| rng.range_i64(0, v)))
        }
    };
    if spec.flag("b-zero") {
        b = grid(n, m, |_, _| 0);
    }
    Chess { n, m, a, b }
}

/// Values from a palette of one to three numbers (often including 0), then up to two
/// rectangles zeroed in A, B or both: many equal options, where tie-breaking bugs show.
fn ties(rng: &mut Rng, n: usize, m: usize, v: i64) -> (Vec<Vec<i64>>, Vec<Vec<i64>>) {
    let k = rng.range_size(1, 3);
    let mut palette: Vec<i64> = (0..k).map(|_| rng.range_i64(0, v)).collect();
    if rng.chance(1, 2) {
        palette[0] = 0;
    }
    let draw = |rng: &mut Rng| *rng.pick(&palette).unwrap_or(&0);
    let mut a = grid(n, m, |_, _| draw(rng));
    let mut b = grid(n, m, |_, _| draw(rng));
    for _ in 0..rng.range_size(0, 2) {
        let (r1, r2) = ordered(rng.range_size(0, n - 1), rng.range_size(0, n - 1));
        let (c1, c2) = ordered(rng.range_size(0, m - 1), rng.range_size(0, m - 1));
        // 0: A only, 1: B only, 2: both.
        let which = rng.range_size(0, 2);
        for i in r1..=r2 {
            for j in c1..=c2 {
                if which != 1 {
                    a[i][j] = 0;
                }
                if which != 0 {
                    b[i][j] = 0;
                }
            }
        }
    }
    (a, b)
}

/// Small background values, then traps: a cell worth a modest gain to whoever takes it, whose
/// right and lower neighbours (opened by taking it) are worth nearly the bound to both players.
/// A greedy player takes the bait and hands the opponent the big cell. The last trap placed
/// always survives whole: later traps can only overwrite earlier ones.
fn greedy_trap(rng: &mut Rng, n: usize, m: usize, v: i64) -> (Vec<Vec<i64>>, Vec<Vec<i64>>) {
    let mut a = grid(n, m, |_, _| rng.range_i64(0, v / 20));
    let mut b = grid(n, m, |_, _| rng.range_i64(0, v / 20));
    let traps = rng.range_size(1, (n * m / 6).max(1));
    for _ in 0..traps {
        // Any cell but the bottom-right one, which opens nothing (on a 1×1 board, that one).
        let k = rng.range_size(0, (n * m).saturating_sub(2));
        let (i, j) = (k / m, k % m);
        let bait = rng.range_i64(v / 10, (v / 5).max(v / 10));
        a[i][j] = bait;
        b[i][j] = bait;
        for (x, y) in [(i, j + 1), (i + 1, j)] {
            if x < n && y < m {
                let prize = rng.range_i64(v - v / 5, v);
                a[x][y] = prize;
                b[x][y] = prize;
            }
        }
    }
    (a, b)
}

fn ordered(x: usize, y: usize) -> (usize, usize) {
    (x.min(y), x.max(y))
}
