//! What the comments of the fishhead plan say of its test points, checked on the packed file.

use super::Fishhead;

/// Whether the file's cases are what `claim` says; `None` for a claim with no check.
pub(super) fn holds(claim: &str, cases: &[Fishhead]) -> Option<bool> {
    let all_n = |n: usize| cases.iter().all(|c| c.edges.len() == n);
    let count = cases.len();
    Some(match claim {
        "2 cases" => count == 2,
        "3 cases" => count == 3,
        "200 cases" => count == 200,
        "n = 23 in every case" => all_n(23),
        "n = 24 in every case" => all_n(24),
        "n = 12 in every case" => all_n(12),
        "100 cases, n = 12 in every case" => count == 100 && all_n(12),
        "1 case, n = 12" => count == 1 && all_n(12),
        "1 case, n = 24" => count == 1 && all_n(24),
        _ => return None,
    })
}
