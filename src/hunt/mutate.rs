//! Mutations of an input for the search of a slow one: the input as lines of tokens, and
//! changes that keep its shape (its lines and their token counts). A column of a block of
//! consecutive lines of one length (the queries `l r`) set whole to its smallest or largest
//! value, one line of a block copied over another, one integer moved to an end of its column
//! or next to where it is. The validator decides which results are inputs.

use crate::random::Rng;

/// An input as lines of tokens; its text is the tokens joined by single spaces, a line break
/// after each line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    pub lines: Vec<Vec<String>>,
}

impl Grid {
    pub fn parse(text: &[u8]) -> Grid {
        let text = String::from_utf8_lossy(text);
        Grid {
            lines: text
                .lines()
                .map(|l| l.split_whitespace().map(str::to_string).collect())
                .collect(),
        }
    }

    pub fn text(&self) -> Vec<u8> {
        let mut out = String::new();
        for line in &self.lines {
            out.push_str(&line.join(" "));
            out.push('\n');
        }
        out.into_bytes()
    }

    /// The block of consecutive lines of `line`'s length around it: the queries of a file,
    /// not its first line of the same length.
    fn block(&self, line: usize) -> Vec<usize> {
        let len = self.lines[line].len();
        let mut from = line;
        while from > 0 && self.lines[from - 1].len() == len {
            from -= 1;
        }
        let mut until = line + 1;
        while until < self.lines.len() && self.lines[until].len() == len {
            until += 1;
        }
        (from..until).collect()
    }

    /// The integers of column `col` over `rows`.
    fn column(&self, rows: &[usize], col: usize) -> Vec<i64> {
        rows.iter()
            .filter_map(|&r| self.lines[r].get(col)?.parse().ok())
            .collect()
    }

    /// One mutation drawn from `rng`; `None` when the drawn one changes nothing.
    pub fn mutate(&self, rng: &mut Rng) -> Option<Grid> {
        let line = *rng.pick(&(0..self.lines.len()).collect::<Vec<_>>())?;
        let len = self.lines[line].len();
        if len == 0 {
            return None;
        }
        let rows = self.block(line);
        let col = rng.below(len as u64) as usize;
        // A block's column, or a line alone's own values (an array).
        let values = if rows.len() > 1 {
            self.column(&rows, col)
        } else {
            self.lines[line]
                .iter()
                .filter_map(|t| t.parse().ok())
                .collect()
        };
        let (lo, hi) = (*values.iter().min()?, *values.iter().max()?);
        let mut next = self.clone();
        let end = if rng.chance(1, 2) { lo } else { hi };
        match rng.below(4) {
            // A line alone whole at one end: every value the same.
            0 | 1 if rows.len() == 1 => {
                for token in &mut next.lines[line] {
                    if token.parse::<i64>().is_ok() {
                        *token = end.to_string();
                    }
                }
            }
            // The whole column at one end: every query the widest, every value the largest.
            0 | 1 => {
                for &r in &rows {
                    if next.lines[r][col].parse::<i64>().is_ok() {
                        next.lines[r][col] = end.to_string();
                    }
                }
            }
            // One line copied over another of its length.
            2 if rows.len() > 1 => {
                let from = *rng.pick(&rows)?;
                next.lines[line] = self.lines[from].clone();
            }
            // One integer at an end of its column, or next to where it is.
            _ => {
                let value: i64 = self.lines[line][col].parse().ok()?;
                let moved = match rng.below(4) {
                    0 => lo,
                    1 => hi,
                    2 => value.saturating_add(1),
                    _ => value.saturating_sub(1),
                };
                next.lines[line][col] = moved.to_string();
            }
        }
        (next != *self).then_some(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutations_keep_the_shape_and_reach_the_columns_ends() {
        let grid = Grid::parse(b"3 2\n5 -1 7\n1 2\n2 3\n");
        assert_eq!(grid.text(), b"3 2\n5 -1 7\n1 2\n2 3\n");
        let mut rng = Rng::from_seed(7);
        let mut widest = false;
        for _ in 0..300 {
            let Some(next) = grid.mutate(&mut rng) else {
                continue;
            };
            let lens: Vec<usize> = next.lines.iter().map(Vec::len).collect();
            assert_eq!(lens, [2, 3, 2, 2]);
            widest |= next.lines[2] == ["1", "3"] || next.lines[3] == ["1", "3"];
        }
        assert!(widest, "no mutation made a query 1 3");
    }
}
