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
    let levels = ChunkLevels::new(len);
    (0..levels.count())
        .map(|i| levels.chunk(i).collect())
        .collect()
}

/// [`chunks`] without building them: the chunks of `0..len` by index, each a range, so that a
/// list of 2·10^5 items offers its 4·10^5 chunks without a copy of any.
#[derive(Clone, Debug)]
pub struct ChunkLevels {
    len: usize,
    /// Per level, the chunk size and how many chunks it has, largest chunks first.
    levels: Vec<(usize, usize)>,
}

impl ChunkLevels {
    pub fn new(len: usize) -> ChunkLevels {
        let mut levels = Vec::new();
        let mut parts = 2usize;
        while parts <= len {
            let size = len.div_ceil(parts);
            if size < 2 {
                break;
            }
            levels.push((size, len.div_ceil(size)));
            parts = parts.saturating_mul(2);
        }
        ChunkLevels { len, levels }
    }

    /// How many chunks there are in all.
    pub fn count(&self) -> usize {
        self.levels.iter().map(|&(_, n)| n).sum()
    }

    /// The `index`-th chunk (`index < count()`).
    pub fn chunk(&self, mut index: usize) -> std::ops::Range<usize> {
        for &(size, n) in &self.levels {
            if index < n {
                let start = index * size;
                return start..(start + size).min(self.len);
            }
            index -= n;
        }
        panic!("chunk {index} out of range");
    }
}

/// The candidates of one shrink pass, most drastic first, made one at a time on demand: a
/// pass over a large case offers many candidates, and the minimizer builds only those it
/// probes (a few at a time), never the whole list.
pub struct Candidates<'a, S> {
    len: usize,
    make: Box<dyn Fn(usize) -> Option<S> + Sync + 'a>,
}

impl<'a, S: Clone + Sync + 'a> Candidates<'a, S> {
    /// Candidates already built: small cases, whose passes are short.
    pub fn built(cases: Vec<S>) -> Candidates<'a, S> {
        Candidates {
            len: cases.len(),
            make: Box::new(move |i| cases.get(i).cloned()),
        }
    }

    /// `len` candidates, the `i`-th made by `make(i)` (`None`: it does not apply here).
    pub fn lazy(len: usize, make: impl Fn(usize) -> Option<S> + Sync + 'a) -> Candidates<'a, S> {
        Candidates {
            len,
            make: Box::new(make),
        }
    }

    pub fn none() -> Candidates<'a, S> {
        Candidates::built(Vec::new())
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The `index`-th candidate, made now.
    pub fn get(&self, index: usize) -> Option<S> {
        if index < self.len {
            (self.make)(index)
        } else {
            None
        }
    }

    /// Every candidate, made now: for tests and small passes.
    pub fn collect(&self) -> Vec<S> {
        (0..self.len).filter_map(|i| self.get(i)).collect()
    }

    /// The candidates of `self` and then of `other`.
    pub fn chain(self, other: Candidates<'a, S>) -> Candidates<'a, S> {
        let first = self.len;
        Candidates {
            len: self.len + other.len,
            make: Box::new(move |i| {
                if i < first {
                    (self.make)(i)
                } else {
                    (other.make)(i - first)
                }
            }),
        }
    }

    /// Each candidate turned into another type.
    pub fn map<T: Clone + Sync + 'a>(self, f: impl Fn(S) -> T + Sync + 'a) -> Candidates<'a, T> {
        Candidates {
            len: self.len,
            make: Box::new(move |i| (self.make)(i).map(&f)),
        }
    }
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
    fn chunk_levels_are_the_chunks_by_index() {
        for len in [0, 1, 2, 3, 5, 12, 17, 64, 1000] {
            let levels = ChunkLevels::new(len);
            let mut expected: Vec<Vec<usize>> = Vec::new();
            let mut parts = 2;
            while parts <= len && len.div_ceil(parts) >= 2 {
                let size = len.div_ceil(parts);
                for start in (0..len).step_by(size) {
                    expected.push((start..(start + size).min(len)).collect());
                }
                parts *= 2;
            }
            assert_eq!(chunks(len), expected, "len {len}");
            assert_eq!(levels.count(), expected.len());
        }
        // About two chunks an item in all, whatever the length.
        assert!(ChunkLevels::new(200_000).count() < 400_000);
    }

    #[test]
    fn candidates_are_made_on_demand_and_chain() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let made = AtomicUsize::new(0);
        let lazy = Candidates::lazy(1_000_000, |i| {
            made.fetch_add(1, Ordering::SeqCst);
            (i % 2 == 0).then_some(i)
        });
        let all = Candidates::built(vec![7, 8]).chain(lazy);
        assert_eq!(all.len(), 1_000_002);
        assert_eq!(all.get(1), Some(8));
        assert_eq!(all.get(2), Some(0));
        assert_eq!(all.get(3), None);
        assert_eq!(all.get(1_000_002), None);
        assert_eq!(made.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn crops_and_drops_keep_the_right_cells() {
        let grid = vec![vec![1, 2, 3], vec![4, 5, 6]];
        assert_eq!(crop(&grid, 1, 1, 1, 2), vec![vec![5, 6]]);
        assert_eq!(CropCorner::BottomRight.origin(2, 3, 1, 2), (1, 1));
        assert_eq!(without(&grid, &[0], &[1]), vec![vec![4, 6]]);
    }
}
