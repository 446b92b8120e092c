//! What the reference solvers return: the answer with an optimal line of play as text, and
//! why a solve can fail.

use std::fmt;

/// The exact answer and one optimal line of play that reaches it, rendered by the game: the
/// board, one line per move, and the totals. [`Explanation::full`] is what `solve --explain`
/// prints; [`Explanation::compact`] keeps a long line readable in a report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// The answer as the game states it (`2`, `Tom200`, `0.555556`).
    pub answer: String,
    /// A board too big to show its whole line of play in a report: reports show it compact
    /// and save the whole text beside the case.
    pub long: bool,
    /// The board and what the move lines mean.
    pub board: String,
    /// One line per move, each ending in a newline.
    pub moves: Vec<String>,
    /// What follows the moves: totals, summaries.
    pub summary: String,
    /// The totals alone, one line: what a compact rendering ends with.
    pub totals: String,
}

impl Explanation {
    /// Everything, as `solve --explain` prints it.
    pub fn full(&self) -> String {
        let mut out = self.board.clone();
        for line in &self.moves {
            out.push_str(line);
        }
        out.push_str(&self.summary);
        out
    }

    /// The board, the first and last `keep` moves with a note of how many are left out, and
    /// the totals line; the whole text when there are at most `2 × keep + 1` moves.
    pub fn compact(&self, keep: usize) -> String {
        if self.moves.len() <= 2 * keep + 1 {
            return self.full();
        }
        let mut out = self.board.clone();
        for line in &self.moves[..keep] {
            out.push_str(line);
        }
        let hidden = self.moves.len() - 2 * keep;
        out.push_str(&format!("  ... {hidden} more moves ...\n"));
        for line in &self.moves[self.moves.len() - keep..] {
            out.push_str(line);
        }
        out.push_str(&self.totals);
        out
    }
}

/// The explanations of a file's cases as one text: the case alone as it is, several cases
/// each under a `Case K:` heading. With `compact`, long cases keep only that many moves at
/// each end ([`Explanation::compact`]).
pub fn explanations_text(explanations: &[Explanation], compact: Option<usize>) -> String {
    let render = |e: &Explanation| match compact {
        Some(keep) if e.long => e.compact(keep),
        _ => e.full(),
    };
    match explanations {
        [one] => render(one),
        many => many
            .iter()
            .enumerate()
            .map(|(i, e)| format!("Case {}:\n{}", i + 1, crate::text::indent(&render(e))))
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

/// Why the reference solver declined an instance. Parsed inputs only get here with raised bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// Beyond what the solver builds a table for (more states than it holds), as the solver
    /// words it.
    TooLarge(String),
    /// The sum of all values does not fit in an i64, so the DP could overflow.
    ValuesTooLarge,
    /// The instance contradicts itself (only possible for hand-built instances).
    Malformed(String),
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::TooLarge(what) => f.write_str(what),
            SolveError::ValuesTooLarge => f.write_str(
                "the values sum to more than an i64 holds, so the answer could overflow",
            ),
            SolveError::Malformed(what) => write!(f, "malformed instance: {what}"),
        }
    }
}

impl std::error::Error for SolveError {}
