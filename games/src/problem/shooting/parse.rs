//! The strict shooting case parser: a line `n`, then a line of n heights, which must rise
//! then fall (the perimeter rule) and must not all be equal (not a rectangle); every
//! rejection positioned.

use super::Shooting;
use crate::problem::game::CaseText;
use crate::problem::input::{InputError, Scanner, more_integers, plural};
use crate::problem::params::Bounds;

/// Where heights stop being unimodal: the index of the first height that rises again after
/// a fall, with the highest height before the fall and the lowest one after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Violation {
    pub index: usize,
    pub peak: usize,
    pub valley: usize,
}

/// The first place `heights` rise again after falling, or `None` when they rise (or stay),
/// then fall (or stay): the only shapes whose perimeter equals the bounding rectangle's.
pub fn unimodal_violation(heights: &[usize]) -> Option<Violation> {
    let mut peak: Option<usize> = None;
    for i in 1..heights.len() {
        let (before, here) = (heights[i - 1], heights[i]);
        match peak {
            None if here < before => peak = Some(before),
            Some(peak) if here > before => {
                return Some(Violation {
                    index: i,
                    peak,
                    valley: before,
                });
            }
            _ => {}
        }
    }
    None
}

impl CaseText for Shooting {
    /// Reads one case at the scanner's position: `n`, then its heights.
    fn read(s: &mut Scanner, bounds: &Bounds) -> Result<Shooting, InputError> {
        let max_n = bounds.get("n");
        let max_height = bounds.get("height");
        let expected_n = format!("n, the number of columns, an integer 1..={max_n}");
        let n = s.integer(&expected_n, &expected_n, 1, max_n)?.0 as usize;
        s.end_line("n")?;
        let expected = format!("a height, an integer 1..={max_height}");
        let mut heights = Vec::with_capacity(n);
        let mut columns = Vec::with_capacity(n);
        for j in 0..n {
            let (h, column) = s.bounded_with("height", 1, max_height, || {
                (expected.clone(), more_integers(n - j))
            })?;
            heights.push(h as usize);
            columns.push(column);
        }
        // The line's layout first, then its meaning: the line number is kept for the latter.
        let line = s.line();
        s.end_line(&plural(n, "height"))?;
        let at = |column: usize, message: String| InputError {
            line,
            column,
            message,
        };
        if let Some(v) = unimodal_violation(&heights) {
            return Err(at(
                columns[v.index],
                format!(
                    "heights {} {} {} are not unimodal: the perimeter would exceed the \
                     bounding rectangle's",
                    v.peak, v.valley, heights[v.index]
                ),
            ));
        }
        // One column is always a rectangle: valid boards have 2 columns or more.
        s.record("n", 2.min(max_n), max_n, n as i64);
        if heights.iter().all(|&h| h == heights[0]) {
            let message = if n == 1 {
                format!(
                    "a single column (height {}) is a rectangle, which the statement excludes",
                    heights[0]
                )
            } else {
                format!(
                    "all {n} heights are {}: the battlefield is a rectangle, which the \
                     statement excludes",
                    heights[0]
                )
            };
            return Err(at(columns[0], message));
        }
        Ok(Shooting { heights })
    }
    fn write(&self, out: &mut String) {
        let heights: Vec<String> = self.heights.iter().map(usize::to_string).collect();
        out.push_str(&format!("{}\n{}\n", self.heights.len(), heights.join(" ")));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unimodal_means_rise_then_fall() {
        for ok in [
            &[1, 2][..],
            &[2, 1],
            &[1, 3, 3, 2],
            &[3, 3, 1],
            &[1, 1, 2],
            &[5],
        ] {
            assert_eq!(unimodal_violation(ok), None, "{ok:?}");
        }
        assert_eq!(
            unimodal_violation(&[2, 3, 1, 3]),
            Some(Violation {
                index: 3,
                peak: 3,
                valley: 1
            })
        );
        assert_eq!(
            unimodal_violation(&[4, 2, 2, 3]),
            Some(Violation {
                index: 3,
                peak: 4,
                valley: 2
            })
        );
    }
}
