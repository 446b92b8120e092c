//! How cases make up an input file ([`Structure`]): reading a whole file into a game's cases
//! strictly (the count line, blank lines between cases where the game allows them, the
//! terminator line and nothing after it) and writing the canonical text back, each case by
//! the game's own reader and writer.

use super::coverage::Coverage;
use super::input::{InputError, Scanner};
use super::params::Bounds;

/// How an input file holds its cases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Structure {
    /// The whole input is one case.
    Single,
    /// A line `T`, then T cases (1 <= T <= the bound `cases`).
    Counted {
        /// Blank lines may stand between cases (and are written between them).
        blank_lines: bool,
    },
    /// Cases until a line holding exactly the tokens of `terminator` (`0 0 0`); only
    /// whitespace may follow it. At most the bound `cases` cases.
    Terminated {
        terminator: &'static str,
        blank_lines: bool,
    },
}

impl Structure {
    /// Whether a file may hold several cases (reports and messages then number them).
    pub fn is_multi(self) -> bool {
        self != Structure::Single
    }

    fn blank_lines(self) -> bool {
        match self {
            Structure::Single => false,
            Structure::Counted { blank_lines } | Structure::Terminated { blank_lines, .. } => {
                blank_lines
            }
        }
    }
}

/// Reads a whole file of `structure`, each case by `read_case`, within `bounds`.
pub fn read<C>(
    text: &[u8],
    bounds: &Bounds,
    structure: Structure,
    read_case: impl Fn(&mut Scanner, &Bounds) -> Result<C, InputError>,
) -> Result<Vec<C>, InputError> {
    Ok(read_with_coverage(text, bounds, structure, read_case)?.0)
}

/// Reads a whole file like [`read`], with the bounded values it reached.
pub fn read_with_coverage<C>(
    text: &[u8],
    bounds: &Bounds,
    structure: Structure,
    read_case: impl Fn(&mut Scanner, &Bounds) -> Result<C, InputError>,
) -> Result<(Vec<C>, Coverage), InputError> {
    let mut s = Scanner::new(text);
    let cases = match structure {
        Structure::Single => vec![read_case(&mut s, bounds)?],
        Structure::Counted { .. } => {
            let max = bounds.get("cases");
            let expected = format!("T, the number of cases, an integer 1..={max}");
            let count = s.bounded("cases", &expected, &expected, 1, max)?.0 as usize;
            s.end_line("T")?;
            let mut cases = Vec::with_capacity(count);
            for _ in 0..count {
                if structure.blank_lines() {
                    s.skip_blank_lines();
                }
                cases.push(read_case(&mut s, bounds)?);
            }
            cases
        }
        Structure::Terminated { terminator, .. } => {
            let cases = read_until(
                &mut s,
                bounds,
                terminator,
                structure.blank_lines(),
                &read_case,
            )?;
            // A file of no cases is valid too; the range asks for files of one case and of
            // the most.
            s.record("cases", 1, bounds.get("cases"), cases.len() as i64);
            cases
        }
    };
    s.finish()?;
    let coverage = s.coverage().clone();
    Ok((cases, coverage))
}

/// Cases up to the terminator line, which is consumed.
fn read_until<C>(
    s: &mut Scanner,
    bounds: &Bounds,
    terminator: &str,
    blank_lines: bool,
    read_case: &impl Fn(&mut Scanner, &Bounds) -> Result<C, InputError>,
) -> Result<Vec<C>, InputError> {
    let max = bounds.size("cases");
    let want: Vec<&[u8]> = terminator.split(' ').map(str::as_bytes).collect();
    let mut cases = Vec::new();
    loop {
        if blank_lines {
            s.skip_blank_lines();
        }
        if s.line_tokens() == want {
            s.skip_line();
            return Ok(cases);
        }
        if s.at_end() {
            return Err(s.error_here(format!(
                "expected a case or the line {} that ends the input, found end of input",
                crate::text::quote(terminator)
            )));
        }
        if cases.len() == max {
            return Err(s.error_here(format!(
                "expected the line {} that ends the input: at most {max} cases are allowed",
                crate::text::quote(terminator)
            )));
        }
        cases.push(read_case(s, bounds)?);
    }
}

/// The canonical text of a file of `structure` holding these cases, each written by
/// `write_case`.
pub fn write<C>(cases: &[C], structure: Structure, write_case: impl Fn(&C, &mut String)) -> String {
    let gap = if structure.blank_lines() { "\n" } else { "" };
    let mut out = String::new();
    if let Structure::Counted { .. } = structure {
        out.push_str(&format!("{}\n", cases.len()));
    }
    for (i, case) in cases.iter().enumerate() {
        if i > 0 {
            out.push_str(gap);
        }
        write_case(case, &mut out);
    }
    if let Structure::Terminated { terminator, .. } = structure {
        if !cases.is_empty() {
            out.push_str(gap);
        }
        out.push_str(terminator);
        out.push('\n');
    }
    out
}
