//! `chess` (Luogu P4363 一双木棋): the instance type, its strict parser, the rank-indexed
//! staircase minimax, and the rendering of an optimal line.

use std::fmt::Write;

use super::Bounds;
use super::input::{InputError, Scanner, more_integers, plural};
use super::solution::{Move, Player, Solution, SolveError, checked_matrix};
use crate::staircase::{Block, Edge, Entry, Frontier, Staircase, Table};

/// An n×m board with Feifei's values `a` and Niuniu's values `b`, row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chess {
    pub n: usize,
    pub m: usize,
    pub a: Vec<Vec<i64>>,
    pub b: Vec<Vec<i64>>,
}

impl Chess {
    pub fn to_input(&self) -> String {
        let mut out = format!("{} {}\n", self.n, self.m);
        super::write_rows(&mut out, &self.a);
        super::write_rows(&mut out, &self.b);
        out
    }

    /// Strict parse: `n m`, then n lines of m integers (A), then n lines of m integers (B).
    pub fn parse(text: &[u8], bounds: &Bounds) -> Result<Chess, InputError> {
        let mut s = Scanner::new(text);
        let max_n = bound(bounds.max_n);
        let max_m = bound(bounds.max_m);
        let expected_n = format!("n, an integer 1..={max_n}");
        let n = s.integer(&expected_n, &expected_n, 1, max_n)?.0 as usize;
        let expected_m = format!("m, an integer 1..={max_m}");
        let m = s.integer(&expected_m, &expected_m, 1, max_m)?.0 as usize;
        s.end_line("n and m")?;
        let a = read_matrix(&mut s, n, m, bounds.max_value)?;
        let b = read_matrix(&mut s, n, m, bounds.max_value)?;
        s.finish()?;
        Ok(Chess { n, m, a, b })
    }

    /// Feifei's score minus Niuniu's under optimal play.
    pub fn try_solve(&self) -> Result<i64, SolveError> {
        let (stairs, table) = self.table()?;
        Ok(table.get(stairs.empty().rank()))
    }

    /// The answer and an optimal line: at every turn the first optimal cell in reading order.
    pub fn try_solve_explained(&self) -> Result<Solution, SolveError> {
        let (stairs, table) = self.table()?;
        let (a, b) = (flatten(&self.a), flatten(&self.b));
        let mut path = stairs.empty();
        let mut moves = Vec::with_capacity(self.n * self.m);
        let mut score = 0;
        loop {
            let mut corners = path.corners(&stairs);
            if corners.is_empty() {
                break;
            }
            corners.sort_by_key(|c| (c.row, c.col));
            let target = table.get(path.rank());
            let feifei = path.filled() % 2 == 0;
            let gain = |c: &crate::staircase::Corner| {
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
            moves.push(Move::Place {
                player,
                cell: (best.row + 1, best.col + 1),
                value,
                score,
            });
            path.add(&[best]);
        }
        Ok(Solution {
            answer: table.get(0),
            moves,
        })
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
        let table = if Table::entry_bytes_for(total) == 4 {
            Table::Narrow(fill::<i32>(&stairs, &a, &b))
        } else {
            Table::Wide(fill::<i64>(&stairs, &a, &b))
        };
        Ok((stairs, table))
    }

    /// The board, the line of play, and the score sums.
    pub fn explain(&self, solution: &Solution) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Board {}×{}: A = Feifei's values, B = Niuniu's values; (row, column) from the top left.",
            self.n, self.m
        );
        let width = self
            .a
            .iter()
            .chain(&self.b)
            .flatten()
            .map(|v| v.to_string().len())
            .max()
            .unwrap_or(1);
        let a_width = (width + 1) * self.m - 1;
        let _ = writeln!(out, "  {:<a_width$}    B", "A");
        for (ra, rb) in self.a.iter().zip(&self.b) {
            let _ = writeln!(out, "  {}    {}", row_text(ra, width), row_text(rb, width));
        }
        let _ = writeln!(out, "Optimal line (F = Feifei, N = Niuniu):");
        let mut owner = vec![vec!['?'; self.m]; self.n];
        let (mut feifei, mut niuniu) = (Vec::new(), Vec::new());
        for (i, mv) in solution.moves.iter().enumerate() {
            if let Move::Place {
                player,
                cell,
                value,
                score,
            } = mv
            {
                let _ = writeln!(
                    out,
                    "  {:>3}. {} ({},{})  +{value:<w$}  difference {score}",
                    i + 1,
                    player.name(),
                    cell.0,
                    cell.1,
                    w = width
                );
                if let Some(slot) = owner
                    .get_mut(cell.0.wrapping_sub(1))
                    .and_then(|r| r.get_mut(cell.1.wrapping_sub(1)))
                {
                    *slot = player.initial();
                }
                match player {
                    Player::Feifei => feifei.push(*value),
                    Player::Niuniu => niuniu.push(*value),
                }
            }
        }
        let line: Vec<String> = solution
            .moves
            .iter()
            .filter_map(|mv| match mv {
                Move::Place { player, cell, .. } => {
                    Some(format!("{}({},{})", player.initial(), cell.0, cell.1))
                }
                _ => None,
            })
            .collect();
        let _ = writeln!(out, "In short: {}", line.join(" "));
        let _ = writeln!(out, "Who took which cell:");
        for row in &owner {
            let _ = writeln!(out, "  {}", row.iter().collect::<String>());
        }
        let (sf, sn) = (feifei.iter().sum::<i64>(), niuniu.iter().sum::<i64>());
        let _ = writeln!(
            out,
            "Feifei {} = {sf}, Niuniu {} = {sn}, answer {sf} - {sn} = {}",
            sum_text(&feifei),
            sum_text(&niuniu),
            solution.answer
        );
        out
    }
}

/// A usize bound as an i64 range end.
fn bound(max: usize) -> i64 {
    i64::try_from(max).unwrap_or(i64::MAX)
}

fn read_matrix(
    s: &mut Scanner,
    n: usize,
    m: usize,
    max_value: i64,
) -> Result<Vec<Vec<i64>>, InputError> {
    let expected = format!("an integer 0..={max_value}");
    let mut rows = Vec::new();
    for _ in 0..n {
        let mut row = Vec::new();
        for j in 0..m {
            row.push(s.integer(&expected, &more_integers(m - j), 0, max_value)?.0);
        }
        s.end_line(&plural(m, "integer"))?;
        rows.push(row);
    }
    Ok(rows)
}

fn flatten(rows: &[Vec<i64>]) -> Vec<i64> {
    rows.iter().flatten().copied().collect()
}

/// f(full) = 0; Feifei (even number of filled cells) maximizes A + f(next), Niuniu minimizes
/// f(next) − B. Arithmetic in i64, storage in `T`.
fn fill<T: Entry>(stairs: &Staircase, a: &[i64], b: &[i64]) -> Vec<T> {
    let mut fill = Fill {
        f: vec![T::default(); stairs.states()],
        a,
        b,
        upper: Vec::with_capacity(stairs.rows().min(stairs.cols())),
    };
    stairs.walk(&mut fill);
    fill.f
}

/// The chess fill, keeping the shared corners' values as they come and go.
struct Fill<'a, T> {
    f: Vec<T>,
    a: &'a [i64],
    b: &'a [i64],
    /// Shared corners as (A, B, rank step).
    upper: Vec<(i64, i64, usize)>,
}

impl<T: Entry> Frontier for Fill<'_, T> {
    fn push(&mut self, edge: Edge) {
        self.upper
            .push((self.a[edge.cell], self.b[edge.cell], edge.step));
    }

    fn pop(&mut self) {
        self.upper.pop();
    }

    fn block(&mut self, block: &Block) {
        let (a, b, f) = (self.a, self.b, &mut self.f);
        let second = block.second.map(|e| (a[e.cell], b[e.cell], e.step));
        let shared = self.upper.iter().chain(&second);
        for x in (0..block.len).rev() {
            let rank = block.base + x;
            let first = block.first_corner(x);
            if first.is_none() && second.is_none() && self.upper.is_empty() {
                // The full grid.
                continue;
            }
            let value = if (block.filled + x).is_multiple_of(2) {
                let mut best = i64::MIN;
                for &(va, _, step) in shared.clone() {
                    best = best.max(va + f[rank + step].load());
                }
                if let Some(cell) = first {
                    best = best.max(a[cell] + f[rank + 1].load());
                }
                best
            } else {
                let mut best = i64::MAX;
                for &(_, vb, step) in shared.clone() {
                    best = best.min(f[rank + step].load() - vb);
                }
                if let Some(cell) = first {
                    best = best.min(f[rank + 1].load() - b[cell]);
                }
                best
            };
            f[rank] = T::store(value);
        }
    }
}

fn row_text(row: &[i64], width: usize) -> String {
    row.iter()
        .map(|v| format!("{v:>width$}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn sum_text(values: &[i64]) -> String {
    if values.is_empty() {
        "(nothing)".to_string()
    } else {
        values
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join("+")
    }
}
