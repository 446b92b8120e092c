//! The strict chessboard input parser: `n`, n rows of exactly n cells from {W, B, .}, then n
//! lines of n weights, 0 on every '.' cell; each rejection positioned.

use super::{Cell, Chessboard};
use crate::problem::game::CaseText;
use crate::problem::input::{InputError, Scanner, more_integers, plural, show_token};
use crate::problem::params::Bounds;

impl Chessboard {
    /// Strict parse: `n`, n rows of exactly n characters from {W, B, .}, then n lines of n
    /// weights, 0 on every '.' cell.
    pub fn parse(text: &[u8], bounds: &Bounds) -> Result<Chessboard, InputError> {
        let mut s = Scanner::new(text);
        let board = Chessboard::read(&mut s, bounds)?;
        s.finish()?;
        Ok(board)
    }
}

impl CaseText for Chessboard {
    /// Reads one board at the scanner's position.
    fn read(s: &mut Scanner, bounds: &Bounds) -> Result<Chessboard, InputError> {
        let max_n = bounds.get("n");
        let max_value = bounds.get("value");
        let expected_n = format!("n, an integer 1..={max_n}");
        let n = s.bounded("n", &expected_n, &expected_n, 1, max_n)?.0 as usize;
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
        let expected = format!("an integer 0..={max_value}");
        let mut weights = Vec::new();
        for (r, cell_row) in cells.iter().enumerate() {
            let mut row = Vec::new();
            for (j, &cell) in cell_row.iter().enumerate() {
                let (w, column) = s.bounded_with("value", 0, max_value, || {
                    (expected.clone(), more_integers(n - j))
                })?;
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
        Ok(Chessboard { n, cells, weights })
    }
    fn write(&self, out: &mut String) {
        out.push_str(&format!("{}\n", self.n));
        for row in &self.cells {
            out.extend(row.iter().map(|c| c.to_char()));
            out.push('\n');
        }
        crate::problem::contract::write_rows(out, &self.weights);
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
