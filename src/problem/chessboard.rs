//! `chessboard` (CCPC 2019 Qinhuangdao G): the instance type, its strict parser, the
//! rank-indexed minimum-cost staircase DP, and the rendering of an optimal sequence of removals.
//!
//! The removed region is a staircase anchored at the bottom-left corner; the solver sees it
//! upside down (staircase row i = board row n-1-i) so it is the usual top-left diagram.
//! Empty cells are removed for free whenever they are corners: that never changes the optimum
//! (a free removal only adds corners), and it makes the piece-level rule a cell-level one.

use std::fmt::Write;

use super::Bounds;
use super::input::{InputError, Scanner, more_integers, plural, show_token};
use super::solution::{Move, Solution, SolveError, checked_matrix};
use crate::staircase::{Block, Corner, Edge, Entry, Frontier, Staircase, Table};

/// The content of one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    White,
    Black,
    Empty,
}

impl Cell {
    pub fn to_char(self) -> char {
        match self {
            Cell::White => 'W',
            Cell::Black => 'B',
            Cell::Empty => '.',
        }
    }

    pub fn from_char(c: char) -> Option<Cell> {
        match c {
            'W' => Some(Cell::White),
            'B' => Some(Cell::Black),
            '.' => Some(Cell::Empty),
            _ => None,
        }
    }
}

/// An n×n board: cells and weights, row-major, row 0 at the top.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chessboard {
    pub n: usize,
    pub cells: Vec<Vec<Cell>>,
    pub weights: Vec<Vec<i64>>,
}

impl Chessboard {
    pub fn to_input(&self) -> String {
        let mut out = format!("{}\n", self.n);
        for row in &self.cells {
            out.extend(row.iter().map(|c| c.to_char()));
            out.push('\n');
        }
        super::write_rows(&mut out, &self.weights);
        out
    }

    /// Strict parse: `n`, n rows of exactly n characters from {W, B, .}, then n lines of n
    /// weights, 0 on every '.' cell.
    pub fn parse(text: &[u8], bounds: &Bounds) -> Result<Chessboard, InputError> {
        let mut s = Scanner::new(text);
        let max_n = i64::try_from(bounds.max_n).unwrap_or(i64::MAX);
        let expected_n = format!("n, an integer 1..={max_n}");
        let n = s.integer(&expected_n, &expected_n, 1, max_n)?.0 as usize;
        s.end_line("n")?;
        let mut cells = Vec::new();
        for _ in 0..n {
            let (column, word) = s.word(&format!("a row of {n} cells (W, B or .)"))?;
            let mut row = Vec::new();
            for (i, &byte) in word.iter().enumerate() {
                if i == n {
                    return Err(s.error_at_column(
                        column + i,
                        format!(
                            "expected end of line after {}, found {}",
                            plural(n, "cell"),
                            show_token(&word[i..])
                        ),
                    ));
                }
                match Cell::from_char(char::from(byte)) {
                    Some(cell) if byte.is_ascii() => row.push(cell),
                    _ => {
                        return Err(s.error_at_column(
                            column + i,
                            format!(
                                "expected a cell W, B or ., found {}",
                                show_token(first_char(&word[i..]))
                            ),
                        ));
                    }
                }
            }
            if row.len() < n {
                let missing = format!("{} (W, B or .)", plural(n - row.len(), "more cell"));
                return Err(s.error_here(format!("expected {missing}, found {}", s.found_here())));
            }
            s.end_line(&plural(n, "cell"))?;
            cells.push(row);
        }
        let expected = format!("an integer 0..={}", bounds.max_value);
        let mut weights = Vec::new();
        for (r, cell_row) in cells.iter().enumerate() {
            let mut row = Vec::new();
            for (j, &cell) in cell_row.iter().enumerate() {
                let (w, column) =
                    s.integer(&expected, &more_integers(n - j), 0, bounds.max_value)?;
                if cell == Cell::Empty && w != 0 {
                    return Err(s.error_at_column(
                        column,
                        format!(
                            "expected 0, the weight of an empty cell ('.' at row {}, column {}), found \"{w}\"",
                            r + 1,
                            j + 1
                        ),
                    ));
                }
                row.push(w);
            }
            s.end_line(&plural(n, "integer"))?;
            weights.push(row);
        }
        s.finish()?;
        Ok(Chessboard { n, cells, weights })
    }

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
    pub fn try_solve_explained(&self) -> Result<Solution, SolveError> {
        let solver = Solver::new(self)?;
        let (stairs, table) = (&solver.stairs, &solver.table);
        let n = self.n;
        let board = |c: &Corner| (n - c.row, c.col + 1);
        let mut path = stairs.empty();
        let mut moves = Vec::new();
        let mut total = 0;
        loop {
            let mut corners = path.corners(stairs);
            if corners.is_empty() {
                break;
            }
            corners.sort_by_key(board);
            let target = table.get(path.rank());
            let cost = |c: &Corner| solver.weight[c.cell];
            let color = |c: &Corner| solver.color[c.cell];
            // A free removal of an empty cell is always optimal (it only adds corners), so
            // take those first and keep the listed line to real operations.
            if let Some(&c) = corners.iter().find(|c| color(c) == Cell::Empty) {
                path.add(&[c]);
                continue;
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
                moves.push(Move::RemovePair {
                    white: board(&w),
                    black: board(&b),
                    cost: c,
                    total,
                });
                path.add(&[w, b]);
                continue;
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
            moves.push(Move::Remove {
                piece: color(&single),
                cell: board(&single),
                cost: cost(&single),
                total,
            });
            path.add(&[single]);
        }
        Ok(Solution {
            answer: table.get(0),
            moves,
        })
    }

    /// The board, its weights, and the removals with costs and a running total.
    pub fn explain(&self, solution: &Solution) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Board {n}×{n}, row 1 at the top: pieces and weights. A piece can go once no other piece \
             remains in its lower-left region (rows at or below it, columns at or left of it).",
            n = self.n
        );
        let width = self
            .weights
            .iter()
            .flatten()
            .map(|v| v.to_string().len())
            .max()
            .unwrap_or(1);
        for (cells, weights) in self.cells.iter().zip(&self.weights) {
            let cells: String = cells.iter().map(|c| c.to_char()).collect();
            let weights: Vec<String> = weights.iter().map(|w| format!("{w:>width$}")).collect();
            let _ = writeln!(out, "  {cells}    {}", weights.join(" "));
        }
        let empty = self
            .cells
            .iter()
            .flatten()
            .filter(|&&c| c == Cell::Empty)
            .count();
        if empty > 0 {
            let s = if empty == 1 { "s" } else { "" };
            let _ = writeln!(
                out,
                "The {} hold{s} no piece and cost{s} nothing; {} not listed.",
                plural(empty, "empty cell"),
                if empty == 1 { "it is" } else { "they are" }
            );
        }
        let _ = writeln!(out, "Optimal removals ((row, column), weight in brackets):");
        let weight = |(r, c): (usize, usize)| {
            self.weights
                .get(r.wrapping_sub(1))
                .and_then(|row| row.get(c.wrapping_sub(1)))
                .copied()
                .unwrap_or(0)
        };
        for (i, mv) in solution.moves.iter().enumerate() {
            let (what, cost, total) = match mv {
                Move::Remove {
                    piece,
                    cell,
                    cost,
                    total,
                } => (
                    format!(
                        "{} ({},{})[{}] alone",
                        piece.to_char(),
                        cell.0,
                        cell.1,
                        weight(*cell)
                    ),
                    *cost,
                    *total,
                ),
                Move::RemovePair {
                    white,
                    black,
                    cost,
                    total,
                } => (
                    format!(
                        "W ({},{})[{}] + B ({},{})[{}]",
                        white.0,
                        white.1,
                        weight(*white),
                        black.0,
                        black.1,
                        weight(*black)
                    ),
                    *cost,
                    *total,
                ),
                Move::Place { .. } => continue,
            };
            let _ = writeln!(
                out,
                "  {:>3}. {what:<34} cost {cost:<w$}  total {total}",
                i + 1,
                w = width
            );
        }
        if solution.moves.is_empty() {
            let _ = writeln!(out, "  (no pieces: nothing to remove)");
        }
        let _ = writeln!(out, "Minimum total cost: {}", solution.answer);
        out
    }
}

/// The first character of `bytes`, or its first byte when that is not UTF-8.
fn first_char(bytes: &[u8]) -> &[u8] {
    let len = bytes
        .utf8_chunks()
        .next()
        .and_then(|chunk| chunk.valid().chars().next())
        .map_or(1, char::len_utf8);
    &bytes[..len.min(bytes.len())]
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
        let table = if Table::entry_bytes_for(sum) == 4 {
            Table::Narrow(fill::<i32>(&stairs, &weight, &color))
        } else {
            Table::Wide(fill::<i64>(&stairs, &weight, &color))
        };
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
fn fill<T: Entry>(stairs: &Staircase, weight: &[i64], color: &[Cell]) -> Vec<T> {
    let cap = stairs.rows();
    let mut fill = Fill {
        f: vec![T::default(); stairs.states()],
        weight,
        color,
        moves: Vec::with_capacity(cap * cap),
        whites: Vec::with_capacity(cap),
        blacks: Vec::with_capacity(cap),
        dots: Vec::with_capacity(cap),
        marks: Vec::with_capacity(cap),
    };
    stairs.walk(&mut fill);
    fill.f
}

/// The chessboard fill, keeping the moves the shared corners allow as they come and go.
struct Fill<'a, T> {
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

impl<T: Entry> Frontier for Fill<'_, T> {
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
