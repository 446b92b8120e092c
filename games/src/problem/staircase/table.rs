//! The solvers' DP table over every staircase state, 4 or 8 bytes an entry, and the walk
//! that reads an optimal line of play back out of a filled table.

use super::{Block, Corner, Edge, Frontier, Path, Staircase};

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

/// One state of a [`Block`] as the recurrence sees it: its rank, how many cells it holds,
/// and the cell the first one's corner adds, if any (leading to rank `rank + 1`).
#[derive(Clone, Copy, Debug)]
pub struct State {
    pub rank: usize,
    pub filled: usize,
    pub first: Option<usize>,
}

/// A game's DP over the staircase, which [`Table::build`] runs: the values of a block's
/// states from their successors', with whatever the game keeps per shared corner brought up to
/// date as [`Staircase::walk`] pushes and pops them.
pub trait Recurrence {
    /// What is the same for every state of a block, worked out once a block.
    type Shared: Copy;

    /// A corner shared by every block until the matching [`Recurrence::pop`].
    fn push(&mut self, edge: Edge);

    /// Forgets the most recently pushed corner.
    fn pop(&mut self);

    /// What the states of `block` share, before [`Recurrence::value`] takes them one by one.
    fn shared(&self, block: &Block) -> Self::Shared;

    /// The value of a state with a corner from its successors' values in `f` (the state
    /// without one, where play ends, keeps 0). Implementations mark it `#[inline(always)]`:
    /// it is the innermost loop's body.
    fn value<T: Entry>(&self, shared: Self::Shared, f: &[T], state: State) -> i64;
}

impl Table {
    /// Runs `recurrence` over every state, with 4-byte entries when every value lies within
    /// ±`max_abs` and that fits an i32, 8-byte entries otherwise.
    pub fn build(stairs: &Staircase, max_abs: i64, recurrence: impl Recurrence) -> Table {
        if Table::entry_bytes_for(max_abs) == 4 {
            Table::Narrow(run(stairs, recurrence))
        } else {
            Table::Wide(run(stairs, recurrence))
        }
    }
}

/// The DP loop both staircase games share: every block from the highest rank down, each of
/// its states after all its successors.
fn run<T: Entry>(stairs: &Staircase, recurrence: impl Recurrence) -> Vec<T> {
    struct Run<T, R> {
        f: Vec<T>,
        recurrence: R,
    }
    impl<T: Entry, R: Recurrence> Frontier for Run<T, R> {
        fn push(&mut self, edge: Edge) {
            self.recurrence.push(edge);
        }
        fn pop(&mut self) {
            self.recurrence.pop();
        }
        fn block(&mut self, block: &Block) {
            fill_block(&self.recurrence, block, &mut self.f);
        }
    }
    let mut run = Run {
        f: vec![T::default(); stairs.states()],
        recurrence,
    };
    stairs.walk(&mut run);
    run.f
}

/// The states of one block, highest rank first. A function of its own so that the
/// compiler sees `f` and `recurrence` as disjoint and keeps the recurrence's lists in
/// registers across the stores.
fn fill_block<T: Entry>(recurrence: &impl Recurrence, block: &Block, f: &mut [T]) {
    let shared = recurrence.shared(block);
    let any_shared = block.second.is_some() || !block.upper.is_empty();
    for x in (0..block.len).rev() {
        let first = block.first_corner(x);
        if first.is_none() && !any_shared {
            // The state without a corner: the game is over.
            continue;
        }
        let rank = block.base + x;
        let filled = block.filled + x;
        f[rank] = T::store(recurrence.value(
            shared,
            f,
            State {
                rank,
                filled,
                first,
            },
        ));
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
