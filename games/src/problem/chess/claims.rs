//! What the comments of the chess plans say of their test points (`# 11: a single column`),
//! checked on the packed case.

use super::Chess;

/// Whether the file's one board is what `claim` says; `None` for a claim with no check.
pub(super) fn holds(claim: &str, cases: &[Chess]) -> Option<bool> {
    let [c] = cases else { return Some(false) };
    let all = |rows: &[Vec<i64>], v: i64| rows.iter().flatten().all(|&x| x == v);
    let largest = (c.n, c.m) == (10, 10);
    Some(match claim {
        "a single column" => c.m == 1,
        "a single row" => c.n == 1,
        "a single cell" => (c.n, c.m) == (1, 1),
        "the largest board" => largest,
        "9 rows, 10 columns" => (c.n, c.m) == (9, 10),
        "10 rows, 9 columns" => (c.n, c.m) == (10, 9),
        "every value 100000" => all(&c.a, 100_000) && all(&c.b, 100_000),
        "every value 0" => largest && all(&c.a, 0) && all(&c.b, 0),
        "every value 1" => largest && all(&c.a, 1) && all(&c.b, 1),
        "every A 100000, B = 0" => all(&c.a, 100_000) && all(&c.b, 0),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_claim_is_checked_on_the_board_and_an_unknown_one_has_no_check() {
        let cell = Chess {
            n: 1,
            m: 1,
            a: vec![vec![5]],
            b: vec![vec![0]],
        };
        let file = [cell];
        assert_eq!(holds("a single cell", &file), Some(true));
        assert_eq!(holds("a single row", &file), Some(true));
        assert_eq!(holds("the largest board", &file), Some(false));
        assert_eq!(holds("every value 100000", &file), Some(false));
        assert_eq!(holds("a round board", &file), None);
    }
}
