//! The strict fishhead case parser: a line `n`, then n lines `a b`, each a unit edge of the
//! 4×4 lattice drawn at most once, every rejection positioned.

use super::{Fishhead, lattice};
use crate::problem::game::CaseText;
use crate::problem::input::{InputError, Scanner};
use crate::problem::params::Bounds;

/// The largest point number.
const POINTS: i64 = (lattice::SIDE * lattice::SIDE) as i64;

impl CaseText for Fishhead {
    /// Reads one case at the scanner's position.
    fn read(s: &mut Scanner, bounds: &Bounds) -> Result<Fishhead, InputError> {
        let min_n = bounds.get("min-n");
        let max_n = lattice::EDGES as i64;
        let expected =
            format!("n, the number of edges already drawn, an integer {min_n}..={max_n}");
        let (n, column) = s.integer(&expected, &expected, 0, max_n)?;
        if n < min_n {
            return Err(s.error_at_column(
                column,
                format!(
                    "n = {n} is below {min_n}, the smallest n of the judge's data \
                     (--bound-min-n {n} allows it)"
                ),
            ));
        }
        s.record("min-n", min_n, max_n, n);
        s.end_line("n")?;
        let n = n as usize;
        let mut edges = Vec::with_capacity(n);
        // For each drawn edge, the line it was given on.
        let mut first_line = [0usize; lattice::EDGES];
        for k in 1..=n {
            let what = |which: &str| {
                format!("the {which} point of edge {k} of {n}, an integer 1..={POINTS}")
            };
            let words = |which: &str| (what(which), what(which));
            let (a, a_column) = s.integer_with(1, POINTS, || words("first"))?;
            let (b, b_column) = s.integer_with(1, POINTS, || words("second"))?;
            let (a, b) = (a as u8, b as u8);
            let Some(e) = lattice::edge_between(a, b) else {
                return Err(s.error_at_column(b_column, not_adjacent(a, b)));
            };
            let line = s.line();
            if first_line[e] != 0 {
                return Err(s.error_at_column(
                    a_column,
                    format!(
                        "edge {a}-{b} is drawn twice (first on line {})",
                        first_line[e]
                    ),
                ));
            }
            first_line[e] = line;
            s.end_line("the two points of an edge")?;
            edges.push((a, b));
        }
        Ok(Fishhead { edges })
    }
    fn write(&self, out: &mut String) {
        use std::fmt::Write;
        // Into `out` itself: no String made a line.
        let _ = writeln!(out, "{}", self.edges.len());
        for (a, b) in &self.edges {
            let _ = writeln!(out, "{a} {b}");
        }
    }
}

/// Why `a b` is no edge, with what adjacency means on this lattice.
fn not_adjacent(a: u8, b: u8) -> String {
    let why = if a == b {
        "an edge joins two different points"
    } else if a.abs_diff(b) == 1 {
        "the rows do not wrap: points 4k and 4k+1 are in different rows"
    } else {
        "adjacent points are next to each other in a row (differ by 1) or in a column (by 4)"
    };
    format!("points {a} and {b} are not adjacent on the 4×4 lattice ({why})")
}

#[cfg(test)]
mod tests {
    use crate::problem::contract::Problem;
    use crate::problem::fishhead::FISHHEAD;

    fn error(text: &str) -> String {
        FISHHEAD
            .parse(text.as_bytes(), &FISHHEAD.default_bounds())
            .unwrap_err()
            .to_string()
    }

    /// A valid case of 12 edges: the top two rows of squares, as lines `a b`.
    fn twelve() -> Vec<String> {
        let edges = [
            (1, 2),
            (2, 3),
            (3, 4),
            (5, 6),
            (6, 7),
            (7, 8),
            (1, 5),
            (2, 6),
            (3, 7),
            (4, 8),
            (9, 10),
            (10, 11),
        ];
        edges.iter().map(|(a, b)| format!("{a} {b}")).collect()
    }

    fn file(lines: &[String]) -> String {
        format!("1\n{}\n{}\n", lines.len(), lines.join("\n"))
    }

    #[test]
    fn a_valid_case_parses_in_either_endpoint_order() {
        let mut lines = twelve();
        lines[3] = "6 5".into();
        let parsed = FISHHEAD
            .parse(file(&lines).as_bytes(), &FISHHEAD.default_bounds())
            .unwrap();
        assert_eq!(parsed.to_input(), file(&lines));
    }

    #[test]
    fn rejections_are_positioned() {
        let mut lines = twelve();
        lines[1] = "2 7".into();
        assert_eq!(
            error(&file(&lines)),
            "line 4, column 3: points 2 and 7 are not adjacent on the 4×4 lattice (adjacent \
             points are next to each other in a row (differ by 1) or in a column (by 4))"
        );
        let mut lines = twelve();
        lines[5] = "4 3".into();
        assert_eq!(
            error(&file(&lines)),
            "line 8, column 1: edge 4-3 is drawn twice (first on line 5)"
        );
        let mut lines = twelve();
        lines[0] = "4 5".into();
        assert!(error(&file(&lines)).starts_with("line 3, column 3: points 4 and 5 are not"));
        let mut lines = twelve();
        lines[0] = "17 16".into();
        assert_eq!(
            error(&file(&lines)),
            "line 3, column 1: expected the first point of edge 1 of 12, an integer 1..=16, \
             found \"17\" (out of range)"
        );
        let mut lines = twelve();
        lines[2] = "3".into();
        assert_eq!(
            error(&file(&lines)),
            "line 5, column 2: expected the second point of edge 3 of 12, an integer 1..=16, \
             found end of line"
        );
        assert_eq!(
            error("1\n11\n1 2\n"),
            "line 2, column 1: n = 11 is below 12, the smallest n of the judge's data \
             (--bound-min-n 11 allows it)"
        );
        assert_eq!(
            error("1\n25\n"),
            "line 2, column 1: expected n, the number of edges already drawn, an integer \
             12..=24, found \"25\" (out of range)"
        );
        assert!(error(&file(&twelve()[..11])).starts_with("line 2, column 1: n = 11"));
        let short = format!("1\n12\n{}\n", twelve()[..11].join("\n"));
        assert_eq!(
            error(&short),
            "line 14, column 1: expected the first point of edge 12 of 12, an integer 1..=16, \
             found end of input"
        );
        assert!(error("2\n0\n").contains("n = 0 is below 12"));
    }

    #[test]
    fn the_lowered_bound_admits_short_prefixes() {
        let mut bounds = FISHHEAD.default_bounds();
        assert!(bounds.set("min-n", 0));
        let parsed = FISHHEAD.parse(b"2\n0\n1\n16 12\n", &bounds).unwrap();
        assert_eq!(parsed.case_count(), 2);
        assert_eq!(parsed.to_input(), "2\n0\n1\n16 12\n");
    }
}
