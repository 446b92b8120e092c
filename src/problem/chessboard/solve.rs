//! The chessboard reference solver: the rank-indexed minimum-cost staircase DP and the optimal
//! removals read back from its table.
//!
//! The removed region is a staircase anchored at the bottom-left corner; the solver sees it
//! upside down (staircase row i = board row n-1-i) so it is the usual top-left diagram.
//! Empty cells are removed for free whenever they are corners: that never changes the optimum
//! (a free removal only adds corners), and it makes the piece-level rule a cell-level one.

use super::{Cell, Chessboard, Removal};
use crate::problem::SolveError;
use crate::problem::solution::checked_matrix;
use crate::problem::staircase::{
    Block, Corner, Edge, Entry, Fill, Frontier, Staircase, Table, follow_line,
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
        let table = Table::build(
            &stairs,
            sum,
            &BoardFill {
                weight: &weight,
                color: &color,
            },
        );
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
struct BoardFill<'a> {
    weight: &'a [i64],
    color: &'a [Cell],
}

impl Fill for BoardFill<'_> {
    fn fill<T: Entry>(&self, stairs: &Staircase) -> Vec<T> {
        let cap = stairs.rows();
        let mut fill = Walk {
            f: vec![T::default(); stairs.states()],
            weight: self.weight,
            color: self.color,
            moves: Vec::with_capacity(cap * cap),
            whites: Vec::with_capacity(cap),
            blacks: Vec::with_capacity(cap),
            dots: Vec::with_capacity(cap),
            marks: Vec::with_capacity(cap),
        };
        stairs.walk(&mut fill);
        fill.f
    }
}

/// The chessboard fill, keeping the moves the shared corners allow as they come and go.
struct Walk<'a, T> {
    f: Vec<T>,
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

impl<T: Entry> Frontier for Walk<'_, T> {
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

    fn block(&mut self, block: &Block) {
        let f = &mut self.f;
        let color = self.color;
        let shared_dot = self.dots.last().copied().or(block
            .second
            .filter(|e| color[e.cell] == Cell::Empty)
            .map(|e| e.step));
        if let Some(dot) = shared_dot {
            for x in (0..block.len).rev() {
                let rank = block.base + x;
                f[rank] = f[rank + dot];
            }
            return;
        }
        // The second corner (a piece, since empty ones were handled above) and the shared
        // corners it can pair with.
        let second = block.second.map(|e| {
            let c = color[e.cell];
            let partners = if c == Cell::White {
                &self.blacks
            } else {
                &self.whites
            };
            (e.step, self.weight[e.cell], c, partners)
        });
        for x in (0..block.len).rev() {
            let rank = block.base + x;
            let first = block.first_corner(x);
            if first.is_some_and(|cell| color[cell] == Cell::Empty) {
                f[rank] = f[rank + 1];
                continue;
            }
            if first.is_none() && second.is_none() && self.moves.is_empty() {
                // The empty board.
                continue;
            }
            let mut best = i64::MAX;
            for &(step, cost) in &self.moves {
                best = best.min(cost + f[rank + step].load());
            }
            if let Some((s2, w2, _, partners)) = second {
                best = best.min(w2 + f[rank + s2].load());
                for &(step, wp) in partners {
                    best = best.min((w2 - wp).abs() + f[rank + s2 + step].load());
                }
            }
            if let Some(cell) = first {
                let (w, c) = (self.weight[cell], color[cell]);
                best = best.min(w + f[rank + 1].load());
                let partners = if c == Cell::White {
                    &self.blacks
                } else {
                    &self.whites
                };
                for &(step, wp) in partners {
                    best = best.min((w - wp).abs() + f[rank + 1 + step].load());
                }
                if let Some((s2, w2, c2, _)) = second
                    && c2 != c
                {
                    best = best.min((w - w2).abs() + f[rank + 1 + s2].load());
                }
            }
            f[rank] = T::store(best);
        }
    }
}
