//! What the comments of the chessboard plan say of its test points, checked on the packed
//! case.

use super::{Cell, Chessboard};

/// Whether the file's one board is what `claim` says; `None` for a claim with no check.
pub(super) fn holds(claim: &str, cases: &[Chessboard]) -> Option<bool> {
    let [c] = cases else { return Some(false) };
    let cells = || c.cells.iter().flatten().zip(c.weights.iter().flatten());
    let pieces = || c.cells.iter().flatten().filter(|&&x| x != Cell::Empty);
    // Pieces weigh `w`, empty cells 0.
    let pieces_weigh = |w: i64| cells().all(|(&x, &v)| v == if x == Cell::Empty { 0 } else { w });
    let full = pieces().count() == c.n * c.n;
    Some(match claim {
        "a single cell" => c.n == 1,
        "n = 12" => c.n == 12,
        "no empty cell" => c.n == 12 && full,
        "every weight 0, no empty cell" => full && cells().all(|(_, &v)| v == 0),
        "every weight 1" => pieces_weigh(1),
        "every weight 10^6" => pieces_weigh(1_000_000),
        "nothing can pair" => {
            pieces().all(|&x| x == Cell::White) || pieces().all(|&x| x == Cell::Black)
        }
        "the self-blocked trap, `BW / W.`" => {
            let rows: Vec<String> = c
                .cells
                .iter()
                .map(|r| r.iter().map(|x| x.to_char()).collect())
                .collect();
            rows.join(" / ") == "BW / W."
        }
        _ => return None,
    })
}
