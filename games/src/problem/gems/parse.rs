//! The strict gems case parser: `G B S`, then B lines `n c1 … cn`, each rejection positioned.
//! The file around the cases (blank lines between them, the line `0 0 0` that ends the input)
//! is read by the shared file reader.

use super::Gems;
use crate::problem::game::CaseText;
use crate::problem::input::{InputError, Scanner, more_integers, plural};
use crate::problem::params::Bounds;

impl CaseText for Gems {
    /// Reads one case at the scanner's position.
    fn read(s: &mut Scanner, bounds: &Bounds) -> Result<Gems, InputError> {
        let max_g = bounds.get("g");
        let expected_g = format!("G, an integer 1..={max_g} (the line 0 0 0 ends the input)");
        let g = s.bounded("g", &expected_g, &expected_g, 1, max_g)?.0 as usize;
        let max_b = bounds.get("b");
        let expected_b = format!("B, an integer 0..={max_b}");
        let b = s.bounded("b", &expected_b, &expected_b, 0, max_b)?.0 as usize;
        let max_s = bounds.get("s");
        let expected_s = format!("S, an integer 1..={max_s}");
        let stones = s.bounded("s", &expected_s, &expected_s, 1, max_s)?.0 as usize;
        s.end_line("G, B and S")?;
        let mut bags = Vec::with_capacity(b);
        for _ in 0..b {
            bags.push(read_bag(s, g, bounds.get("n"))?);
        }
        Ok(Gems { g, s: stones, bags })
    }
    fn write(&self, out: &mut String) {
        use std::fmt::Write;
        // Into `out` itself: no String made a value.
        let _ = writeln!(out, "{} {} {}", self.g, self.bags.len(), self.s);
        for bag in &self.bags {
            let _ = write!(out, "{}", bag.len());
            for c in bag {
                let _ = write!(out, " {c}");
            }
            out.push('\n');
        }
    }
}

/// One line `n c1 … cn`: n gems, each a colour 1..=g.
fn read_bag(s: &mut Scanner, g: usize, max_n: i64) -> Result<Vec<usize>, InputError> {
    let expected_n = format!("n, the gems in the bag, an integer 1..={max_n}");
    let n = s.bounded("n", &expected_n, &expected_n, 1, max_n)?.0 as usize;
    let expected = format!("a colour 1..={g}");
    let mut bag = Vec::with_capacity(n);
    for k in 0..n {
        // Read against the widest range, so that a colour above G gets its own message.
        let (colour, column) =
            s.integer_with(1, i64::MAX, || (expected.clone(), more_integers(n - k)))?;
        if colour > g as i64 {
            return Err(s.error_at_column(column, format!("colour {colour} is above G = {g}")));
        }
        bag.push(colour as usize);
    }
    s.end_line(&plural(n + 1, "integer"))?;
    Ok(bag)
}
