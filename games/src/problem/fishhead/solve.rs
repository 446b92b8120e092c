//! The fishhead reference solver: the given edges replayed and scored, then the value of the
//! position by a table over the subsets of the edges still to draw, and one optimal line read
//! back from it.
//!
//! The value of a position is the best (mover's squares − other's) over the rest of the game;
//! it depends only on the set of drawn edges (whoever moves, the same edges score the same), so
//! v(S) = max over undrawn e of (squares e completes on S) − v(S ∪ {e}), and v(all) = 0.

use std::borrow::Cow;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use super::lattice::{self, EDGES};
use super::{Fishhead, Outcome, Player, Stroke};
use crate::problem::solution::SolveError;

/// Cases with at most this many edges left (every case of the judge's data) always get a table
/// of their own over the subsets of those edges: 2^12 one-byte entries, built in about 60 µs.
const JUDGE_REMAINING: usize = 12;

/// Entries built by this process in tables of their own for cases with more edges left (only
/// below the judge's smallest n). Once they would reach the size of the shared table over all
/// 2^24 drawn-edge sets (16 MiB, about 0.5 s to build), that table is built and every later
/// such case looks its value up there: so a file of many such cases costs at most about twice
/// what the better of the two ways would have cost, and a single one stays cheap.
static LOCAL_ENTRIES: AtomicU64 = AtomicU64::new(0);

/// The table over all 2^24 drawn-edge sets, once built.
static SHARED: OnceLock<Vec<i8>> = OnceLock::new();

/// Whether a case with `remaining` edges left should use the shared table.
fn shared_is_cheaper(remaining: usize) -> bool {
    if remaining <= JUDGE_REMAINING {
        return false;
    }
    if SHARED.get().is_some() {
        return true;
    }
    let entries = 1u64 << remaining;
    let before = LOCAL_ENTRIES.fetch_add(entries, Ordering::Relaxed);
    before + entries >= 1 << EDGES
}

/// The values of every position reachable from some drawn-edge set.
struct Search {
    /// The edges not drawn at the start; bit i of a table index says edge `remaining[i]` is
    /// drawn.
    remaining: Vec<usize>,
    values: Cow<'static, [i8]>,
}

impl Search {
    fn from(drawn: u32) -> Search {
        let remaining: Vec<usize> = (0..EDGES).filter(|&e| drawn & (1 << e) == 0).collect();
        if shared_is_cheaper(remaining.len()) {
            let values = Cow::Borrowed(all_drawn_sets());
            let remaining = (0..EDGES).collect();
            Search { remaining, values }
        } else {
            let values = Cow::Owned(table(drawn, &remaining));
            Search { remaining, values }
        }
    }

    /// v(drawn), for a superset of the starting set.
    fn value(&self, drawn: u32) -> i8 {
        let index = self
            .remaining
            .iter()
            .enumerate()
            .filter(|&(_, &e)| drawn & (1 << e) != 0)
            .fold(0usize, |index, (i, _)| index | (1 << i));
        self.values[index]
    }
}

/// v for every subset of `remaining` drawn on top of `base`, indexed by the subset's bits.
/// A superset has a larger index, so one pass from the top fills the table.
fn table(base: u32, remaining: &[usize]) -> Vec<i8> {
    let full = (1usize << remaining.len()) - 1;
    let mut values = vec![0i8; full + 1];
    // The edges an index's bits stand for, looked up by its low and its high half rather than
    // gathered bit by bit at every index.
    let half = remaining.len() / 2;
    let edges = |part: &[usize]| -> Vec<u32> {
        (0..1usize << part.len())
            .map(|bits| {
                let set = part.iter().enumerate().filter(|&(i, _)| bits & 1 << i != 0);
                set.fold(0, |drawn, (_, &e)| drawn | 1 << e)
            })
            .collect()
    };
    let (low, high) = (edges(&remaining[..half]), edges(&remaining[half..]));
    let low_mask = (1usize << half) - 1;
    for index in (0..full).rev() {
        let drawn = base | low[index & low_mask] | high[index >> half];
        let mut best = i8::MIN;
        let mut free = !index & full;
        while free != 0 {
            let i = free.trailing_zeros() as usize;
            free &= free - 1;
            let value = lattice::gain(drawn, remaining[i]) - values[index | (1 << i)];
            best = best.max(value);
        }
        values[index] = best;
    }
    values
}

/// v for every one of the 2^24 drawn-edge sets, built on first use.
fn all_drawn_sets() -> &'static [i8] {
    SHARED.get_or_init(|| table(0, &(0..EDGES).collect::<Vec<_>>()))
}

/// The final squares when `future` is the mover's best difference after the strokes given.
fn outcome(given: &[Stroke], future: i8) -> Outcome {
    let (tom, jerry) = given.last().map_or((0, 0), |s| (s.tom, s.jerry));
    let left = lattice::SQUARES as i8 - (tom + jerry) as i8;
    let mover = ((left + future) / 2) as u8;
    let other = ((left - future) / 2) as u8;
    match Player::drawing(given.len() + 1) {
        Player::Tom => Outcome {
            tom: tom + mover,
            jerry: jerry + other,
        },
        Player::Jerry => Outcome {
            tom: tom + other,
            jerry: jerry + mover,
        },
    }
}

impl Fishhead {
    /// Both players' squares at the end under optimal play.
    pub fn try_solve(&self) -> Result<Outcome, SolveError> {
        let (drawn, given) = self.replay()?;
        let search = Search::from(drawn);
        Ok(outcome(&given, search.value(drawn)))
    }

    /// The outcome and one optimal continuation: at every turn the first edge, in lattice
    /// order, that keeps the value.
    pub fn try_solve_line(&self) -> Result<(Outcome, Vec<Stroke>), SolveError> {
        let (mut drawn, given) = self.replay()?;
        let search = Search::from(drawn);
        let result = outcome(&given, search.value(drawn));
        let (mut tom, mut jerry) = given.last().map_or((0, 0), |s| (s.tom, s.jerry));
        let mut line = Vec::with_capacity(self.remaining());
        for number in given.len() + 1..=EDGES {
            let target = search.value(drawn);
            let best = (0..EDGES)
                .filter(|&e| drawn & (1 << e) == 0)
                .find(|&e| lattice::gain(drawn, e) - search.value(drawn | (1 << e)) == target)
                .ok_or_else(|| SolveError::Malformed("no move reaches the table's value".into()))?;
            let closed: Vec<usize> = lattice::completed_by(drawn, best).collect();
            let player = Player::drawing(number);
            match player {
                Player::Tom => tom += closed.len() as u8,
                Player::Jerry => jerry += closed.len() as u8,
            }
            drawn |= 1 << best;
            line.push(Stroke {
                number,
                player,
                edge: best,
                closed,
                tom,
                jerry,
            });
        }
        Ok((result, line))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::fishhead::lattice::{edge_between, square_mask};

    fn case(edges: &[(u8, u8)]) -> Fishhead {
        Fishhead {
            edges: edges.to_vec(),
        }
    }

    /// Every edge but those listed, in lattice order, as a case.
    fn all_but(open: &[(u8, u8)]) -> Fishhead {
        let open: Vec<usize> = open
            .iter()
            .map(|&(a, b)| edge_between(a, b).unwrap())
            .collect();
        case(
            &(0..EDGES)
                .filter(|e| !open.contains(e))
                .map(lattice::endpoints)
                .collect::<Vec<_>>(),
        )
    }

    #[test]
    fn a_finished_game_is_scored_by_who_drew_what() {
        // Lattice order: the horizontal edges, then the vertical ones. The square of the top
        // left corner is closed by its right side, 2-6, the 14th edge: Jerry's. Every square
        // is closed by its right side, the vertical edges 2-6 .. 12-16 (numbers 14, 15, 16,
        // 18, 19, 20, 22, 23, 24): Jerry 14, 16, 18, 20, 22, 24 = 6, Tom 3.
        let full = all_but(&[]);
        assert_eq!(full.try_solve().unwrap(), Outcome { tom: 3, jerry: 6 });
        let (_, line) = full.try_solve_line().unwrap();
        assert!(line.is_empty());
    }

    #[test]
    fn one_forced_move_goes_to_jerry() {
        // 23 edges given, the last one (15-16) closes the bottom-right square for Jerry.
        let c = all_but(&[(15, 16)]);
        let (outcome, line) = c.try_solve_line().unwrap();
        assert_eq!(line.len(), 1);
        assert_eq!(line[0].player, Player::Jerry);
        assert_eq!(line[0].closed, vec![8]);
        assert_eq!(outcome.tom + outcome.jerry, 9);
        assert_eq!(outcome, c.try_solve().unwrap());
    }

    #[test]
    fn tables_over_different_starting_sets_agree() {
        // The bottom two rows' squares open: 10 edges left. The same positions valued from a
        // smaller starting set (two more edges open) get the same values.
        let top: u32 = square_mask(0) | square_mask(1) | square_mask(2);
        let drawn = top | square_mask(3) & !square_mask(6);
        let wider =
            drawn & !(1 << edge_between(1, 2).unwrap()) & !(1 << edge_between(5, 9).unwrap());
        let (narrow, wide) = (Search::from(drawn), Search::from(wider));
        assert_eq!(narrow.remaining.len() + 2, wide.remaining.len());
        for extra in [0u32, 1 << 20, (1 << 21) | (1 << 23), lattice::ALL_EDGES] {
            let d = drawn | extra;
            assert_eq!(narrow.value(d), wide.value(d), "{d:#x}");
        }
        assert_eq!(narrow.value(lattice::ALL_EDGES), 0);
        assert!(narrow.value(drawn).abs() <= 9);
    }
}
