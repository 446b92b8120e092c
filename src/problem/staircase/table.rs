//! The solvers' DP table over every staircase state, 4 or 8 bytes an entry, and the walk
//! that reads an optimal line of play back out of a filled table.

use super::{Corner, Path, Staircase};

/// A table entry: the DP computes in i64 and stores in the narrowest type that provably holds
/// every value, so a 12×12 table of 2,704,156 states takes 10.8 MB instead of 21.6 MB.
pub trait Entry: Copy + Default {
    /// Largest magnitude the type stores exactly.
    const LIMIT: i64;
    fn store(value: i64) -> Self;
    fn load(self) -> i64;
}

impl Entry for i32 {
    const LIMIT: i64 = i32::MAX as i64;
    #[inline]
    fn store(value: i64) -> Self {
        // Callers choose i32 only when every |value| <= LIMIT.
        value as i32
    }
    #[inline]
    fn load(self) -> i64 {
        i64::from(self)
    }
}

impl Entry for i64 {
    const LIMIT: i64 = i64::MAX;
    #[inline]
    fn store(value: i64) -> Self {
        value
    }
    #[inline]
    fn load(self) -> i64 {
        self
    }
}

/// A DP table over every state of a [`Staircase`], 4 or 8 bytes an entry.
#[derive(Clone, Debug)]
pub enum Table {
    Narrow(Vec<i32>),
    Wide(Vec<i64>),
}

impl Table {
    /// Bytes per entry of a table whose values all lie within ±`max_abs`.
    pub fn entry_bytes_for(max_abs: i64) -> usize {
        if max_abs <= i32::LIMIT { 4 } else { 8 }
    }

    pub fn get(&self, rank: usize) -> i64 {
        match self {
            Table::Narrow(t) => i64::from(t[rank]),
            Table::Wide(t) => t[rank],
        }
    }
}

/// A game's table fill, generic over the entry type so that [`Table::build`] can pick it.
pub trait Fill {
    /// The value of every state of `stairs`, indexed by rank.
    fn fill<T: Entry>(&self, stairs: &Staircase) -> Vec<T>;
}

impl Table {
    /// Fills the table with 4-byte entries when every value lies within ±`max_abs` and that
    /// fits an i32, 8-byte entries otherwise.
    pub fn build(stairs: &Staircase, max_abs: i64, fill: &impl Fill) -> Table {
        if Table::entry_bytes_for(max_abs) == 4 {
            Table::Narrow(fill.fill::<i32>(stairs))
        } else {
            Table::Wide(fill.fill::<i64>(stairs))
        }
    }
}

/// Walks a line of play forward from the empty diagram: `choose` sees the diagram and its
/// corners and returns the corners to add next (one, or two for a pair), until no corner is
/// left. Its error ends the walk.
pub fn follow_line<E>(
    stairs: &Staircase,
    mut choose: impl FnMut(&Path, Vec<Corner>) -> Result<Vec<Corner>, E>,
) -> Result<(), E> {
    let mut path = stairs.empty();
    loop {
        let corners = path.corners(stairs);
        if corners.is_empty() {
            return Ok(());
        }
        let chosen = choose(&path, corners)?;
        if chosen.is_empty() {
            // A chooser that adds nothing would never finish.
            return Ok(());
        }
        path.add(&chosen);
    }
}
