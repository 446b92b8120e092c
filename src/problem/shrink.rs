//! What the games' shrink passes share: grid crops and line drops, chunk partitions for delta
//! debugging, and the names of the passes.
//!
//! A game's passes are lists of candidates computed from the current case, most drastic
//! first: the cleared board of the same shape, crops to the sub-boards that keep a corner,
//! chunks of 1/2, 1/4, 1/8, … of the lines and pieces, then single lines and pieces. Values
//! are not in the passes: the minimizer bisects each value slot on its own.

/// Which corner a crop keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CropCorner {
    TopLeft,
    TopRight,
    BottomLeft,
    BottomRight,
}

impl CropCorner {
    pub const ALL: [CropCorner; 4] = [
        CropCorner::TopLeft,
        CropCorner::TopRight,
        CropCorner::BottomLeft,
        CropCorner::BottomRight,
    ];

    /// The first row and column of a `rows × cols` crop of an `n × m` grid at this corner.
    pub fn origin(self, n: usize, m: usize, rows: usize, cols: usize) -> (usize, usize) {
        match self {
            CropCorner::TopLeft => (0, 0),
            CropCorner::TopRight => (0, m - cols),
            CropCorner::BottomLeft => (n - rows, 0),
            CropCorner::BottomRight => (n - rows, m - cols),
        }
    }
}

/// Crops with both sides at most this are tried at every position, not only at the corners:
/// a bug that needs a few cells in the right place (a greedy choice, a tie) then shows on
/// the smallest board wherever on the original board those cells were.
pub const WINDOW_SIDE: usize = 3;

/// The top-left corners of the `rows × cols` crops of an `n × m` grid that are tried: every
/// position for small crops ([`WINDOW_SIDE`]), the four corners otherwise.
pub fn crop_origins(n: usize, m: usize, rows: usize, cols: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    if rows <= WINDOW_SIDE && cols <= WINDOW_SIDE {
        for r in 0..=n - rows {
            for c in 0..=m - cols {
                out.push((r, c));
            }
        }
    } else {
        for corner in CropCorner::ALL {
            let origin = corner.origin(n, m, rows, cols);
            if !out.contains(&origin) {
                out.push(origin);
            }
        }
    }
    out
}

/// The side lengths a crop of a side of `len` tries, smallest first: 1, 2, 3, half, all but
/// one (each at most once, each below `len`). A handful per side keeps the crop pass short
/// on a 12×12 board while still reaching the smallest boards at once.
pub fn crop_sides(len: usize) -> Vec<usize> {
    let mut sides: Vec<usize> = [1, 2, 3, len.div_ceil(2), len.saturating_sub(1)]
        .into_iter()
        .filter(|&k| k >= 1 && k < len)
        .collect();
    sides.sort_unstable();
    sides.dedup();
    sides
}

/// The `rows × cols` block of `grid` starting at (`r0`, `c0`).
pub fn crop<T: Clone>(
    grid: &[Vec<T>],
    r0: usize,
    c0: usize,
    rows: usize,
    cols: usize,
) -> Vec<Vec<T>> {
    grid[r0..r0 + rows]
        .iter()
        .map(|row| row[c0..c0 + cols].to_vec())
        .collect()
}

/// `grid` without the rows in `drop_rows` and the columns in `drop_cols`.
pub fn without<T: Clone>(grid: &[Vec<T>], drop_rows: &[usize], drop_cols: &[usize]) -> Vec<Vec<T>> {
    grid.iter()
        .enumerate()
        .filter(|(i, _)| !drop_rows.contains(i))
        .map(|(_, row)| {
            row.iter()
                .enumerate()
                .filter(|(j, _)| !drop_cols.contains(j))
                .map(|(_, v)| v.clone())
                .collect()
        })
        .collect()
}

/// Delta debugging's partitions of `0..len`: into 2, 4, 8, … contiguous chunks (each chunk
/// once, largest chunks first), down to chunks of two. Single items are left to the passes
/// that try them one by one.
pub fn chunks(len: usize) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut parts = 2;
    while parts <= len {
        let size = len.div_ceil(parts);
        if size < 2 {
            break;
        }
        for start in (0..len).step_by(size) {
            let chunk: Vec<usize> = (start..(start + size).min(len)).collect();
            if chunk.len() < len && !out.contains(&chunk) {
                out.push(chunk);
            }
        }
        parts *= 2;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crop_sides_are_small_first_and_below_the_side() {
        assert_eq!(crop_sides(1), Vec::<usize>::new());
        assert_eq!(crop_sides(2), vec![1]);
        assert_eq!(crop_sides(12), vec![1, 2, 3, 6, 11]);
        assert_eq!(crop_sides(4), vec![1, 2, 3]);
    }

    #[test]
    fn chunks_halve_down_to_pairs() {
        assert_eq!(chunks(1), Vec::<Vec<usize>>::new());
        assert_eq!(chunks(4), vec![vec![0, 1], vec![2, 3]]);
        let c = chunks(12);
        assert_eq!(c[0], (0..6).collect::<Vec<_>>());
        assert!(c.iter().all(|chunk| chunk.len() >= 2 && chunk.len() < 12));
        assert!(c.iter().any(|chunk| chunk.len() == 2));
    }

    #[test]
    fn crops_and_drops_keep_the_right_cells() {
        let grid = vec![vec![1, 2, 3], vec![4, 5, 6]];
        assert_eq!(crop(&grid, 1, 1, 1, 2), vec![vec![5, 6]]);
        assert_eq!(CropCorner::BottomRight.origin(2, 3, 1, 2), (1, 1));
        assert_eq!(without(&grid, &[0], &[1]), vec![vec![4, 6]]);
    }
}
