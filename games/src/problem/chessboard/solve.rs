//! The chessboard reference solver: the rank-indexed minimum-cost staircase DP and the optimal
//! removals read back from its table.
//!
//! The removed region is a staircase anchored at the bottom-left corner; the solver sees it
//! upside down (staircase row i = board row n-1-i) so it is the usual top-left diagram.
//! Empty cells are removed for free whenever they are corners: that never changes the optimum
//! (a free removal only adds corners), and it makes the piece-level rule a cell-level one.

use super::{Cell, Chessboard, Removal};
use crate::problem::solution::SolveError;
use crate::problem::staircase::{
    Block, Corner, Edge, Entry, Recurrence, Staircase, State, Table, checked_matrix, follow_line,
};

impl Chessboard {
    /// Bytes per table entry the solver uses: 4 whenever every value (at most Σ w) fits an i32.
    pub fn table_entry_bytes(&self) -> Result<usize, SolveError> {
        let sum = checked_matrix("the weights", &self.weights, self.n, self.n)?;
        Ok(Table::entry_bytes_for(sum))
    }

    /// The minimum total cost to clear the board.
    pub fn try_solve(&self) -> Result<i64, SolveError> {
        let solver = Solver::new(self)?;
        Ok(solver.table.get(0))
    }

    /// The answer and an optimal sequence of removals (free removals of '.' are not moves).
    pub fn try_solve_line(&self) -> Result<(i64, Vec<Removal>), SolveError> {
        let solver = Solver::new(self)?;
        let (stairs, table) = (&solver.stairs, &solver.table);
        let n = self.n;
        let board = |c: &Corner| (n - c.row, c.col + 1);
        let mut moves = Vec::new();
        let mut total = 0;
        follow_line(stairs, |path, mut corners| {
            corners.sort_by_key(board);
            let target = table.get(path.rank());
            let cost = |c: &Corner| solver.weight[c.cell];
            let color = |c: &Corner| solver.color[c.cell];
            // A free removal of an empty cell is always optimal (it only adds corners), so
            // take those first and keep the listed line to real operations.
            if let Some(&c) = corners.iter().find(|c| color(c) == Cell::Empty) {
                return Ok(vec![c]);
            }
            let pair = corners
                .iter()
                .filter(|w| color(w) == Cell::White)
                .flat_map(|w| {
                    corners
                        .iter()
                        .filter(|b| color(b) == Cell::Black)
                        .map(move |b| (*w, *b))
                })
                .find(|(w, b)| {
                    (cost(w) - cost(b)).abs() + table.get(w.next + b.next - path.rank()) == target
                });
            if let Some((w, b)) = pair {
                let c = (cost(&w) - cost(&b)).abs();
                total += c;
                moves.push(Removal::Pair {
                    white: board(&w),
                    black: board(&b),
                    cost: c,
                    total,
                });
                return Ok(vec![w, b]);
            }
            let Some(&single) = corners
                .iter()
                .find(|c| cost(c) + table.get(c.next) == target)
            else {
                return Err(SolveError::Malformed(
                    "no removal reaches the table's value".into(),
                ));
            };
            total += cost(&single);
            moves.push(Removal::Single {
                piece: color(&single),
                cell: board(&single),
                cost: cost(&single),
                total,
            });
            Ok(vec![single])
        })?;
        Ok((table.get(0), moves))
    }
}

/// The filled table and the per-cell data, in staircase orientation.
struct Solver {
    stairs: Staircase,
    table: Table,
    weight: Vec<i64>,
    color: Vec<Cell>,
}

impl Solver {
    /// Every value of the DP lies in 0..=Σ w, so 4-byte entries whenever that fits an i32.
    fn new(board: &Chessboard) -> Result<Solver, SolveError> {
        let n = board.n;
        let sum = checked_matrix("the weights", &board.weights, n, n)?;
        if board.cells.len() != n || board.cells.iter().any(|r| r.len() != n) {
            return Err(SolveError::Malformed(format!("the cells are not {n}×{n}")));
        }
        let stairs = Staircase::new(n, n)?;
        let mut weight = Vec::with_capacity(n * n);
        let mut color = Vec::with_capacity(n * n);
        for i in 0..n {
            let r = n - 1 - i;
            for j in 0..n {
                let cell = board.cells[r][j];
                color.push(cell);
                weight.push(if cell == Cell::Empty {
                    0
                } else {
                    board.weights[r][j]
                });
            }
        }
        let table = Table::build(&stairs, sum, Clearing::new(&weight, &color, n));
        Ok(Solver {
            stairs,
            table,
            weight,
            color,
        })
    }
}

/// f(empty board) = 0; otherwise the cheapest of every corner alone and every (W, B) corner
/// pair. When an empty cell is a corner, f equals f after removing it for free (that removal
/// only adds corners, and any optimal sequence can drop it), so such states cost one load.
struct Clearing<'a> {
    weight: &'a [i64],
    color: &'a [Cell],
    /// Every shared corner alone and every shared (W, B) pair, as (rank step, cost).
    moves: Vec<(usize, i64)>,
    /// Shared corners by colour, as (rank step, weight).
    whites: Vec<(usize, i64)>,
    blacks: Vec<(usize, i64)>,
    /// Rank steps of shared empty corners.
    dots: Vec<usize>,
    /// What one push added, to undo it: which list it went to and how many moves it made.
    marks: Vec<(Cell, usize)>,
}

/// What every state of a block shares: a shared empty corner, whose free removal decides
/// them all, and the second one's corner as (rank step, weight, colour).
#[derive(Clone, Copy)]
struct BlockMoves {
    dot: Option<usize>,
    second: Option<(usize, i64, Cell)>,
}

impl<'a> Clearing<'a> {
    fn new(weight: &'a [i64], color: &'a [Cell], n: usize) -> Self {
        Clearing {
            weight,
            color,
            moves: Vec::with_capacity(n * n),
            whites: Vec::with_capacity(n),
            blacks: Vec::with_capacity(n),
            dots: Vec::with_capacity(n),
            marks: Vec::with_capacity(n),
        }
    }

    /// The shared corners a piece of colour `c` pairs with.
    fn partners(&self, c: Cell) -> &[(usize, i64)] {
        if c == Cell::White {
            &self.blacks
        } else {
            &self.whites
        }
    }
}

impl Recurrence for Clearing<'_> {
    type Shared = BlockMoves;

    fn push(&mut self, edge: Edge) {
        let cell = self.color[edge.cell];
        let w = self.weight[edge.cell];
        let before = self.moves.len();
        match cell {
            Cell::Empty => self.dots.push(edge.step),
            Cell::White => {
                self.moves.push((edge.step, w));
                for &(sb, wb) in &self.blacks {
                    self.moves.push((edge.step + sb, (w - wb).abs()));
                }
                self.whites.push((edge.step, w));
            }
            Cell::Black => {
                self.moves.push((edge.step, w));
                for &(sw, ww) in &self.whites {
                    self.moves.push((edge.step + sw, (ww - w).abs()));
                }
                self.blacks.push((edge.step, w));
            }
        }
        self.marks.push((cell, self.moves.len() - before));
    }

    fn pop(&mut self) {
        if let Some((cell, added)) = self.marks.pop() {
            self.moves.truncate(self.moves.len() - added);
            match cell {
                Cell::Empty => {
                    self.dots.pop();
                }
                Cell::White => {
                    self.whites.pop();
                }
                Cell::Black => {
                    self.blacks.pop();
                }
            }
        }
    }

    fn shared(&self, block: &Block) -> Self::Shared {
        let color = self.color;
        let dot = self.dots.last().copied().or(block
            .second
            .filter(|e| color[e.cell] == Cell::Empty)
            .map(|e| e.step));
        let second = block
            .second
            .map(|e| (e.step, self.weight[e.cell], color[e.cell]));
        BlockMoves { dot, second }
    }

    #[inline(always)]
    fn value<T: Entry>(&self, shared: BlockMoves, f: &[T], state: State) -> i64 {
        let rank = state.rank;
        if let Some(dot) = shared.dot {
            return f[rank + dot].load();
        }
        let color = self.color;
        if let Some(cell) = state.first
            && color[cell] == Cell::Empty
        {
            return f[rank + 1].load();
        }
        let mut best = i64::MAX;
        for &(step, cost) in &self.moves {
            best = best.min(cost + f[rank + step].load());
        }
        // The second corner is a piece here: an empty one is a shared dot.
        if let Some((s2, w2, c2)) = shared.second {
            best = best.min(w2 + f[rank + s2].load());
            for &(step, wp) in self.partners(c2) {
                best = best.min((w2 - wp).abs() + f[rank + s2 + step].load());
            }
        }
        if let Some(cell) = state.first {
            let (w, c) = (self.weight[cell], color[cell]);
            best = best.min(w + f[rank + 1].load());
            for &(step, wp) in self.partners(c) {
                best = best.min((w - wp).abs() + f[rank + 1 + step].load());
            }
            if let Some((s2, w2, c2)) = shared.second
                && c2 != c
            {
                best = best.min((w - w2).abs() + f[rank + 1 + s2].load());
            }
        }
        best
    }
}
