//! What the comments of the gems plan say of its test points, checked on the packed file.

use super::Gems;

/// Whether the file's cases are what `claim` says; `None` for a claim with no check.
pub(super) fn holds(claim: &str, cases: &[Gems]) -> Option<bool> {
    let every = |f: &dyn Fn(&Gems) -> bool| cases.iter().all(f);
    let maximal = |c: &Gems| (c.g, c.bags.len(), c.gem_count()) == (8, 21, 210);
    let count = cases.len();
    Some(match claim {
        "3 cases of at most 3 bags" => count == 3 && every(&|c| c.bags.len() <= 3),
        "5 cases of at most 3 colours" => count == 5 && every(&|c| c.g <= 3),
        "6 cases with S at most 4" => count == 6 && every(&|c| c.s <= 4),
        "S = 1 in every case" => every(&|c| c.s == 1),
        "single-colour bags" => every(&|c| c.bags.iter().all(|b| b.iter().all(|&x| x == b[0]))),
        "S of 2 or 3 in every case" => every(&|c| (2..=3).contains(&c.s)),
        "S of at least 14 in every case" => every(&|c| c.s >= 14),
        "a case with no bag before the last case" => cases
            .iter()
            .position(|c| c.bags.is_empty())
            .is_some_and(|k| k + 1 < count),
        "210 gems of one colour in every case" => every(&|c| c.g == 1 && c.gem_count() == 210),
        "20 cases" => count == 20,
        "2 maximal cases" => count == 2 && every(&maximal),
        "one maximal case" => count == 1 && every(&maximal),
        "one case with no bag" => count == 1 && every(&|c| c.bags.is_empty()),
        "2 cases where no stone is made" => {
            count == 2
                && every(&|c| c.bags.len() == 21)
                && every(&|c| {
                    (1..=8).all(|colour| {
                        c.bags.iter().flatten().filter(|&&x| x == colour).count() < c.s
                    })
                })
                && every(&|c| c.try_solve().is_ok_and(|answer| answer == 0))
        }
        _ => return None,
    })
}
