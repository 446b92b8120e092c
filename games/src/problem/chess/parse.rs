//! The strict chess input parser: `n m`, then n lines of m integers (A), then n lines of m
//! integers (B), each rejection positioned.

use super::Chess;
use crate::problem::game::CaseText;
use crate::problem::input::{InputError, Scanner, more_integers, plural};
use crate::problem::params::Bounds;

impl Chess {
    /// Strict parse of a whole input: `n m`, then n lines of m integers (A), then n lines of
    /// m integers (B), and nothing after them but whitespace.
    pub fn parse(text: &[u8], bounds: &Bounds) -> Result<Chess, InputError> {
        let mut s = Scanner::new(text);
        let chess = Chess::read(&mut s, bounds)?;
        s.finish()?;
        Ok(chess)
    }
}

impl CaseText for Chess {
    /// Reads one board at the scanner's position.
    fn read(s: &mut Scanner, bounds: &Bounds) -> Result<Chess, InputError> {
        let max_n = bounds.get("n");
        let max_m = bounds.get("m");
        let max_value = bounds.get("value");
        let expected_n = format!("n, an integer 1..={max_n}");
        let n = s.bounded("n", &expected_n, &expected_n, 1, max_n)?.0 as usize;
        let expected_m = format!("m, an integer 1..={max_m}");
        let m = s.bounded("m", &expected_m, &expected_m, 1, max_m)?.0 as usize;
        s.end_line("n and m")?;
        let a = read_matrix(s, n, m, max_value)?;
        let b = read_matrix(s, n, m, max_value)?;
        Ok(Chess { n, m, a, b })
    }
    fn write(&self, out: &mut String) {
        out.push_str(&format!("{} {}\n", self.n, self.m));
        crate::problem::contract::write_rows(out, &self.a);
        crate::problem::contract::write_rows(out, &self.b);
    }
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
            row.push(
                s.bounded_with("value", 0, max_value, || {
                    (expected.clone(), more_integers(m - j))
                })?
                .0,
            );
        }
        s.end_line(&plural(m, "integer"))?;
        rows.push(row);
    }
    Ok(rows)
}
