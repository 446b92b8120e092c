//! Chessboard case families: the W/B/. layout and the piece weights (0 on empty cells).

use super::{Cell, Chessboard};
use crate::problem::contract::{Family, Spec};
use crate::problem::generate::SizeProfile;
use crate::random::Rng;

const ONE_COLOUR: Family = Family::new("one-colour", "pieces of one colour only");
const CHECKERBOARD: Family = Family::new(
    "checkerboard",
    "W and B alternating like a chessboard, no empty cell",
);
const EQUAL_PAIRS: Family = Family::new("equal-pairs", "W/B pairs of equal weight");
const SPARSE: Family = Family::new("sparse", "mostly empty cells");
const SELF_BLOCKED: Family = Family::new(
    "self-blocked",
    "W/B pairs of near-equal weight that block each other (`WB / B.` tiles)",
);

/// The chessboard families, in the order `mixed` draws from (part of the output format).
pub(super) const FAMILIES: &[Family] = &[
    Family::UNIFORM,
    ONE_COLOUR,
    CHECKERBOARD,
    EQUAL_PAIRS,
    SPARSE,
    SELF_BLOCKED,
    Family::MAX_SIZE,
    Family::MAX_VALUES,
];

/// One chessboard case of `family`. As for chess, the draw order is part of the format.
pub(super) fn generate(
    rng: &mut Rng,
    family: &Family,
    profile: SizeProfile,
    spec: &Spec,
) -> Chessboard {
    let side = spec.range("n");
    let n = match *family {
        Family::MAX_SIZE => side.hi,
        _ => profile.sample(rng, side),
    };
    let v = spec.value("max-value");
    let mut cells = vec![vec![Cell::Empty; n]; n];
    let mut weights = vec![vec![0i64; n]; n];
    match *family {
        ONE_COLOUR => {
            let colour = if rng.chance(1, 2) {
                Cell::White
            } else {
                Cell::Black
            };
            fill(rng, &mut cells, &mut weights, v, |rng, _, _| {
                if rng.chance(4, 5) {
                    colour
                } else {
                    Cell::Empty
                }
            });
        }
        CHECKERBOARD => {
            let flip = rng.chance(1, 2);
            fill(rng, &mut cells, &mut weights, v, |_, i, j| {
                if ((i + j) % 2 == 0) != flip {
                    Cell::White
                } else {
                    Cell::Black
                }
            });
        }
        EQUAL_PAIRS => equal_pairs(rng, &mut cells, &mut weights, v),
        SPARSE => {
            fill(rng, &mut cells, &mut weights, v, |rng, _, _| {
                if rng.chance(1, 6) {
                    random_piece(rng)
                } else {
                    Cell::Empty
                }
            });
        }
        SELF_BLOCKED => self_blocked(rng, &mut cells, &mut weights, v),
        Family::MAX_VALUES => {
            fill(rng, &mut cells, &mut weights, v, |rng, _, _| {
                random_cell(rng)
            });
            for (row, wrow) in cells.iter().zip(weights.iter_mut()) {
                for (c, w) in row.iter().zip(wrow.iter_mut()) {
                    *w = if *c == Cell::Empty { 0 } else { v };
                }
            }
        }
        _ => fill(rng, &mut cells, &mut weights, v, |rng, _, _| {
            random_cell(rng)
        }),
    }
    Chessboard { n, cells, weights }
}

/// Sets every cell from `pick`, then draws a weight in `0..=v` for each piece.
fn fill(
    rng: &mut Rng,
    cells: &mut [Vec<Cell>],
    weights: &mut [Vec<i64>],
    v: i64,
    mut pick: impl FnMut(&mut Rng, usize, usize) -> Cell,
) {
    for (i, row) in cells.iter_mut().enumerate() {
        for (j, cell) in row.iter_mut().enumerate() {
            *cell = pick(rng, i, j);
        }
    }
    for (row, wrow) in cells.iter().zip(weights.iter_mut()) {
        for (c, w) in row.iter().zip(wrow.iter_mut()) {
            *w = if *c == Cell::Empty {
                0
            } else {
                rng.range_i64(0, v)
            };
        }
    }
}

fn random_piece(rng: &mut Rng) -> Cell {
    if rng.chance(1, 2) {
        Cell::White
    } else {
        Cell::Black
    }
}

fn random_cell(rng: &mut Rng) -> Cell {
    match rng.range_size(0, 2) {
        0 => Cell::White,
        1 => Cell::Black,
        _ => Cell::Empty,
    }
}

/// A tenth of the cells empty; the rest, in random order, taken two at a time as a W and a B
/// of the same weight (a last odd cell gets a random piece).
fn equal_pairs(rng: &mut Rng, cells: &mut [Vec<Cell>], weights: &mut [Vec<i64>], v: i64) {
    let n = cells.len();
    let mut spots: Vec<(usize, usize)> = Vec::with_capacity(n * n);
    for i in 0..n {
        for j in 0..n {
            if !rng.chance(1, 10) {
                spots.push((i, j));
            }
        }
    }
    rng.shuffle(&mut spots);
    for pair in spots.chunks(2) {
        let w = rng.range_i64(0, v);
        match *pair {
            [(i, j), (x, y)] => {
                cells[i][j] = Cell::White;
                weights[i][j] = w;
                cells[x][y] = Cell::Black;
                weights[x][y] = w;
            }
            [(i, j)] => {
                cells[i][j] = random_piece(rng);
                weights[i][j] = w;
            }
            _ => {}
        }
    }
}

/// The board tiled with 2×2 blocks `XY / Y.` (X one colour, Y the other). The lower Y must go
/// before X and X before the right Y, so X never pairs with either Y although their weights
/// are within 1% of the bound of each other. A quarter of the tiles are random, for noise.
fn self_blocked(rng: &mut Rng, cells: &mut [Vec<Cell>], weights: &mut [Vec<i64>], v: i64) {
    let n = cells.len();
    let jitter = (v / 100).max(1);
    for r in (0..n).step_by(2) {
        for c in (0..n).step_by(2) {
            let tile = [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)];
            if rng.chance(1, 4) {
                for (i, j) in tile {
                    if i < n && j < n {
                        cells[i][j] = random_cell(rng);
                        weights[i][j] = if cells[i][j] == Cell::Empty {
                            0
                        } else {
                            rng.range_i64(0, v)
                        };
                    }
                }
                continue;
            }
            let x = random_piece(rng);
            let y = if x == Cell::White {
                Cell::Black
            } else {
                Cell::White
            };
            let base = rng.range_i64(0, v);
            for (k, (i, j)) in tile.into_iter().enumerate() {
                let (cell, w) = match k {
                    0 => (x, base),
                    3 => (Cell::Empty, 0),
                    _ => (
                        y,
                        rng.range_i64((base - jitter).max(0), (base + jitter).min(v)),
                    ),
                };
                if i < n && j < n {
                    cells[i][j] = cell;
                    weights[i][j] = w;
                }
            }
        }
    }
}
