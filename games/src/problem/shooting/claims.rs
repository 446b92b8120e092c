//! What the comments of the shooting plan say of its test points, checked on the packed file.

use super::Shooting;

/// Whether the file's cases are what `claim` says; `None` for a claim with no check.
pub(super) fn holds(claim: &str, cases: &[Shooting]) -> Option<bool> {
    let every = |f: &dyn Fn(&[usize]) -> bool| cases.iter().all(|c| f(&c.heights));
    let lowest = |h: &[usize]| h.iter().max().is_some_and(|&top| top <= 2);
    // All heights but one equal.
    let one_off = |h: &[usize]| {
        h.iter()
            .any(|&x| h.iter().filter(|&&y| y != x).count() == 1)
    };
    let count = cases.len();
    Some(match claim {
        "the smallest boards" => every(&|h| h.len() <= 3 && lowest(h)),
        "sample-like" => every(&|h| (2..=3).contains(&h.len()) && h.iter().all(|&x| x <= 3)),
        "six columns" => every(&|h| h.len() == 6),
        "tall towers" => every(&|h| h.contains(&6)),
        "one column off" => every(&one_off),
        "six columns, one off" => every(&|h| h.len() == 6 && one_off(h)),
        "25 cases" => count == 25,
        "low, one off" => every(&|h| lowest(h) && one_off(h)),
        "flat and wide" => every(&|h| h.len() == 6 && lowest(h)),
        "1 case" => count == 1,
        "1 case, six columns" => count == 1 && every(&|h| h.len() == 6),
        _ => return None,
    })
}
