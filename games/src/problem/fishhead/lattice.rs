//! The 4×4 lattice of the game: points 1..=16 numbered row by row, its 24 unit edges and its
//! 9 unit squares, with edge sets as 24-bit masks.
//!
//! Edge indices: the 12 horizontal edges first, row by row (index `3r + c` joins the points
//! at row r, columns c and c + 1), then the 12 vertical ones (index `12 + 4r + c` joins the
//! points at column c, rows r and r + 1). Rows and columns count from 0 at the top left.

/// Points per side.
pub const SIDE: usize = 4;
/// Unit edges of the lattice.
pub const EDGES: usize = 24;
/// Unit squares of the lattice.
pub const SQUARES: usize = 9;
/// Every edge drawn.
pub const ALL_EDGES: u32 = (1 << EDGES) - 1;

/// The index of the horizontal edge right of the point at (`row`, `col`).
pub const fn horizontal(row: usize, col: usize) -> usize {
    row * (SIDE - 1) + col
}

/// The index of the vertical edge below the point at (`row`, `col`).
pub const fn vertical(row: usize, col: usize) -> usize {
    (SIDE - 1) * SIDE + row * SIDE + col
}

/// The point numbered `row * 4 + col + 1`.
pub const fn point(row: usize, col: usize) -> u8 {
    (row * SIDE + col + 1) as u8
}

/// The edge joining points `a` and `b` (1..=16, in either order); `None` when they are not
/// horizontally or vertically adjacent.
pub fn edge_between(a: u8, b: u8) -> Option<usize> {
    let (lo, hi) = (a.min(b), a.max(b));
    if lo < 1 || hi as usize > SIDE * SIDE {
        return None;
    }
    let (row, col) = ((lo as usize - 1) / SIDE, (lo as usize - 1) % SIDE);
    if hi == lo + 1 && col + 1 < SIDE {
        Some(horizontal(row, col))
    } else if hi as usize == lo as usize + SIDE {
        Some(vertical(row, col))
    } else {
        None
    }
}

/// The two points of edge `e`, the smaller first.
pub const fn endpoints(e: usize) -> (u8, u8) {
    if e < vertical(0, 0) {
        let (row, col) = (e / (SIDE - 1), e % (SIDE - 1));
        (point(row, col), point(row, col + 1))
    } else {
        let v = e - vertical(0, 0);
        let (row, col) = (v / SIDE, v % SIDE);
        (point(row, col), point(row + 1, col))
    }
}

/// The four sides of square `s` (row `s / 3`, column `s % 3`) as a mask.
pub const fn square_mask(s: usize) -> u32 {
    let (row, col) = (s / (SIDE - 1), s % (SIDE - 1));
    (1 << horizontal(row, col))
        | (1 << horizontal(row + 1, col))
        | (1 << vertical(row, col))
        | (1 << vertical(row, col + 1))
}

/// The corners of square `s`, clockwise from the top left.
pub const fn corners(s: usize) -> [u8; 4] {
    let (row, col) = (s / (SIDE - 1), s % (SIDE - 1));
    [
        point(row, col),
        point(row, col + 1),
        point(row + 1, col + 1),
        point(row + 1, col),
    ]
}

/// The squares each edge is a side of: one on the border, two inside.
const SQUARES_OF: [[Option<usize>; 2]; EDGES] = {
    let mut table = [[None; 2]; EDGES];
    let mut s = 0;
    while s < SQUARES {
        let mask = square_mask(s);
        let mut e = 0;
        while e < EDGES {
            if mask & (1 << e) != 0 {
                let slot = if table[e][0].is_none() { 0 } else { 1 };
                table[e][slot] = Some(s);
            }
            e += 1;
        }
        s += 1;
    }
    table
};

/// The squares edge `e` is a side of.
pub fn squares_of(e: usize) -> impl Iterator<Item = usize> {
    SQUARES_OF[e].into_iter().flatten()
}

/// The squares that drawing `e` completes when the edges of `drawn` are there (0, 1 or 2 of
/// them): those of its squares whose other three sides are drawn.
pub fn completed_by(drawn: u32, e: usize) -> impl Iterator<Item = usize> {
    let after = drawn | (1 << e);
    squares_of(e).filter(move |&s| after & square_mask(s) == square_mask(s))
}

/// For each edge, the masks of the squares it is a side of; a border edge's second mask has
/// bits beyond the lattice's, so that no edge set ever covers it.
const SQUARE_MASKS_OF: [[u32; 2]; EDGES] = {
    let mut table = [[u32::MAX; 2]; EDGES];
    let mut e = 0;
    while e < EDGES {
        let mut slot = 0;
        while slot < 2 {
            if let Some(s) = SQUARES_OF[e][slot] {
                table[e][slot] = square_mask(s);
            }
            slot += 1;
        }
        e += 1;
    }
    table
};

/// How many squares drawing `e` completes onto `drawn`: the solvers' inner loop, so two mask
/// tests and no iterator.
pub fn gain(drawn: u32, e: usize) -> i8 {
    let after = drawn | (1 << e);
    let [a, b] = SQUARE_MASKS_OF[e];
    (after & a == a) as i8 + (after & b == b) as i8
}

/// The squares every side of which is in `drawn`.
pub fn complete_squares(drawn: u32) -> impl Iterator<Item = usize> {
    (0..SQUARES).filter(move |&s| drawn & square_mask(s) == square_mask(s))
}

/// The squares with exactly three sides in `drawn`: whoever draws the fourth scores it.
pub fn three_sided(drawn: u32) -> usize {
    (0..SQUARES)
        .filter(|&s| (drawn & square_mask(s)).count_ones() == 3)
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_edge_joins_adjacent_points_and_is_found_from_them() {
        let mut seen = 0u32;
        for e in 0..EDGES {
            let (a, b) = endpoints(e);
            assert!(a < b);
            assert_eq!(edge_between(a, b), Some(e));
            assert_eq!(edge_between(b, a), Some(e));
            seen |= 1 << e;
        }
        assert_eq!(seen, ALL_EDGES);
        assert_eq!(edge_between(4, 5), None, "row ends do not wrap");
        assert_eq!(edge_between(1, 6), None, "no diagonals");
        assert_eq!(edge_between(3, 3), None);
        assert_eq!(edge_between(0, 1), None);
        assert_eq!(edge_between(16, 17), None);
        assert_eq!(edge_between(12, 16), Some(vertical(2, 3)));
        assert_eq!(endpoints(horizontal(3, 2)), (15, 16));
    }

    #[test]
    fn squares_have_four_sides_and_inner_edges_two_squares() {
        let mut sides = [0; EDGES];
        for s in 0..SQUARES {
            assert_eq!(square_mask(s).count_ones(), 4);
            for (e, count) in sides.iter_mut().enumerate() {
                if square_mask(s) & (1 << e) != 0 {
                    *count += 1;
                    let [a, b, c, d] = corners(s);
                    let (p, q) = endpoints(e);
                    assert!([a, b, c, d].contains(&p) && [a, b, c, d].contains(&q));
                }
            }
        }
        // The 12 border edges are a side of one square, the 12 inner ones of two.
        assert_eq!(sides.iter().filter(|&&k| k == 1).count(), 12);
        assert_eq!(sides.iter().filter(|&&k| k == 2).count(), 12);
        assert_eq!(corners(4), [6, 7, 11, 10]);
    }

    #[test]
    fn gains_count_the_squares_an_edge_closes() {
        // The middle square's sides but the bottom one, and the square below's but its top:
        // the shared edge 10-11 closes both.
        let shared = edge_between(10, 11).unwrap();
        let drawn = (square_mask(4) | square_mask(7)) & !(1 << shared);
        assert_eq!(gain(drawn, shared), 2);
        assert_eq!(three_sided(drawn), 2);
        assert_eq!(gain(0, shared), 0);
        assert_eq!(
            complete_squares(drawn | (1 << shared)).collect::<Vec<_>>(),
            [4, 7]
        );
    }
}
