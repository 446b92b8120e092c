//! The chess reference solver: the rank-indexed staircase minimax and the optimal line read
//! back from its table.

use super::{Chess, Place, Player};
use crate::problem::solution::SolveError;
use crate::problem::staircase::{
    Block, Corner, Edge, Entry, Recurrence, Staircase, State, Table, checked_matrix, follow_line,
};

impl Chess {
    /// Feifei's score minus Niuniu's under optimal play.
    pub fn try_solve(&self) -> Result<i64, SolveError> {
        let (stairs, table) = self.table()?;
        Ok(table.get(stairs.empty().rank()))
    }

    /// The answer and an optimal line: at every turn the first optimal cell in reading order.
    pub fn try_solve_line(&self) -> Result<(i64, Vec<Place>), SolveError> {
        let (stairs, table) = self.table()?;
        let (a, b) = (flatten(&self.a), flatten(&self.b));
        let mut moves = Vec::with_capacity(self.n * self.m);
        let mut score = 0;
        follow_line(&stairs, |path, mut corners| {
            corners.sort_by_key(|c| (c.row, c.col));
            let target = table.get(path.rank());
            let feifei = path.filled() % 2 == 0;
            let gain = |c: &Corner| {
                if feifei {
                    a[c.cell] + table.get(c.next)
                } else {
                    table.get(c.next) - b[c.cell]
                }
            };
            let Some(&best) = corners.iter().find(|c| gain(c) == target) else {
                return Err(SolveError::Malformed(
                    "no move reaches the table's value".into(),
                ));
            };
            let (player, value) = if feifei {
                (Player::Feifei, a[best.cell])
            } else {
                (Player::Niuniu, b[best.cell])
            };
            score += if feifei { value } else { -value };
            moves.push(Place {
                player,
                cell: (best.row + 1, best.col + 1),
                value,
                score,
            });
            Ok(vec![best])
        })?;
        Ok((table.get(0), moves))
    }

    /// Every value of the game lies within ±(Σ A + Σ B).
    fn value_bound(&self) -> Result<i64, SolveError> {
        let sum_a = checked_matrix("A", &self.a, self.n, self.m)?;
        let sum_b = checked_matrix("B", &self.b, self.n, self.m)?;
        sum_a.checked_add(sum_b).ok_or(SolveError::ValuesTooLarge)
    }

    /// Bytes per table entry the solver uses: 4 whenever every value provably fits an i32.
    pub fn table_entry_bytes(&self) -> Result<usize, SolveError> {
        Ok(Table::entry_bytes_for(self.value_bound()?))
    }

    /// Builds the whole table, 4-byte entries whenever the values provably fit.
    fn table(&self) -> Result<(Staircase, Table), SolveError> {
        let total = self.value_bound()?;
        let stairs = Staircase::new(self.n, self.m)?;
        let (a, b) = (flatten(&self.a), flatten(&self.b));
        let minimax = Minimax {
            a: &a,
            b: &b,
            upper: Vec::with_capacity(self.n.min(self.m)),
        };
        let table = Table::build(&stairs, total, minimax);
        Ok((stairs, table))
    }
}

fn flatten(rows: &[Vec<i64>]) -> Vec<i64> {
    rows.iter().flatten().copied().collect()
}

/// f(full) = 0; Feifei (even number of filled cells) maximizes A + f(next), Niuniu minimizes
/// f(next) − B. Arithmetic in i64, storage in the table's entries.
struct Minimax<'a> {
    a: &'a [i64],
    b: &'a [i64],
    /// Shared corners as (A, B, rank step), kept as they come and go.
    upper: Vec<(i64, i64, usize)>,
}

impl Recurrence for Minimax<'_> {
    /// The second one's corner as (A, B, rank step).
    type Shared = Option<(i64, i64, usize)>;

    fn push(&mut self, edge: Edge) {
        self.upper
            .push((self.a[edge.cell], self.b[edge.cell], edge.step));
    }

    fn pop(&mut self) {
        self.upper.pop();
    }

    fn shared(&self, block: &Block) -> Self::Shared {
        block
            .second
            .map(|e| (self.a[e.cell], self.b[e.cell], e.step))
    }

    #[inline(always)]
    fn value<T: Entry>(&self, second: Self::Shared, f: &[T], state: State) -> i64 {
        let shared = self.upper.iter().chain(&second);
        let rank = state.rank;
        if state.filled.is_multiple_of(2) {
            let mut best = i64::MIN;
            for &(va, _, step) in shared {
                best = best.max(va + f[rank + step].load());
            }
            if let Some(cell) = state.first {
                best = best.max(self.a[cell] + f[rank + 1].load());
            }
            best
        } else {
            let mut best = i64::MAX;
            for &(_, vb, step) in shared {
                best = best.min(f[rank + step].load() - vb);
            }
            if let Some(cell) = state.first {
                best = best.min(f[rank + 1].load() - self.b[cell]);
            }
            best
        }
    }
}
