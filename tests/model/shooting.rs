//! shooting beyond the conformance suite: every legal board solved exactly, the printed
//! answer never on a rounding tie, the validator's messages, the families' shapes, and the
//! tolerance that accepts single precision but not two decimals.

use std::collections::HashMap;

use duipai::answer::{self, Check};
use duipai::problem::shooting::brute::{self, Exact};
use duipai::problem::shooting::unimodal_violation;
use duipai::problem::{
    Bounds, GenParams, Instance, Problem, SHOOTING, Shooting, ShootingProblem, Spec,
};

/// Every board the validator accepts at the official bounds: 1 to 6 columns of heights 1 to
/// 6 that rise then fall and are not all equal.
fn every_legal_board() -> Vec<Vec<usize>> {
    let mut boards = Vec::new();
    for n in 1..=6u32 {
        for code in 0..6usize.pow(n) {
            let heights: Vec<usize> = (0..n).map(|j| code / 6usize.pow(j) % 6 + 1).collect();
            if unimodal_violation(&heights).is_none() && heights.iter().any(|&h| h != heights[0]) {
                boards.push(heights);
            }
        }
    }
    boards
}

fn input(heights: &[usize]) -> String {
    let h: Vec<String> = heights.iter().map(usize::to_string).collect();
    format!("{}\n{}\n0\n", heights.len(), h.join(" "))
}

#[test]
fn there_are_7440_legal_boards_and_the_validator_accepts_exactly_them() {
    let boards = every_legal_board();
    assert_eq!(boards.len(), 7440);
    let bounds = SHOOTING.default_bounds();
    // Every vector of 2 and 3 columns: accepted exactly when it is in the list.
    for n in 2..=3u32 {
        for code in 0..6usize.pow(n) {
            let heights: Vec<usize> = (0..n).map(|j| code / 6usize.pow(j) % 6 + 1).collect();
            let accepted = SHOOTING.parse(input(&heights).as_bytes(), &bounds).is_ok();
            assert_eq!(accepted, boards.contains(&heights), "{heights:?}");
        }
    }
}

/// The exact value of every legal board (integers over 3^49, one memo for all of them), the
/// reference's printed answer equal to it correctly rounded, and never a rounding tie: the
/// exact value's 7th decimal onwards is never 5000…, and the closest any board comes is far
/// beyond the reference's floating-point error.
#[test]
fn every_legal_board_prints_its_exactly_rounded_value_far_from_a_tie() {
    let mut exact = Exact::new();
    let mut closest = f64::INFINITY;
    for heights in every_legal_board() {
        let case = Shooting::new(heights.clone());
        let numerator = exact.value(brute::grid(&case).unwrap()).unwrap();
        let (rounded, from_tie) = brute::round6(numerator);
        let reference = format!("{:.6}", case.try_solve().unwrap());
        assert_eq!(reference, rounded, "{heights:?}");
        // 7th decimal onwards exactly 5000…: 2 × rest = 3^49, impossible for an odd power.
        assert!(from_tie > 0.0, "{heights:?} is on a tie");
        closest = closest.min(from_tie);
    }
    // In units of the 6th decimal: the rounded digit is safe against any error below this.
    assert!(closest > 1e-6, "closest to a tie: {closest:e} of a unit");
    eprintln!("closest approach to a rounding tie: {closest:e} of the 6th decimal");
}

/// A program computing in single precision differs from the reference by at most one unit
/// of the 6th decimal on every legal board, which the 1e-6 tolerance (with testlib's slack)
/// accepts; printing two decimals is rejected on the sample.
#[test]
fn single_precision_is_accepted_and_two_decimals_are_not() {
    let (mut worst, mut differ) = (0.0f64, 0usize);
    let mut memo = std::collections::HashMap::new();
    for heights in every_legal_board() {
        let case = Shooting::new(heights.clone());
        let instance: &dyn Instance =
            &duipai::problem::Cases::<ShootingProblem>::single(case.clone());
        let expected = instance.expected().unwrap();
        let single = format!("{:.6}\n", single_precision(&heights, &mut memo));
        let check = answer::check(&expected, single.as_bytes());
        assert!(check.is_accepted(), "{heights:?}: {check:?}");
        let reference = case.try_solve().unwrap();
        let printed: f64 = single.trim().parse().unwrap();
        worst = worst.max((printed - reference).abs());
        differ += usize::from(single.trim() != format!("{reference:.6}"));
    }
    // Single precision really is off in the last digit somewhere, or this proves nothing.
    assert!(differ > 0);
    eprintln!(
        "single precision: {differ} of 7440 boards printed differently, largest difference \
         {worst:e}"
    );
    let sample = SHOOTING
        .parse(b"3\n2 1 1\n0\n", &SHOOTING.default_bounds())
        .unwrap();
    let expected = sample.expected().unwrap();
    assert!(matches!(
        answer::check(&expected, b"0.56\n"),
        Check::Wrong(_)
    ));
    assert!(answer::check(&expected, b"0.555555\n").is_accepted());
    assert!(answer::check(&expected, b"0.555557\n").is_accepted());
    assert!(matches!(
        answer::check(&expected, b"0.555554\n"),
        Check::Wrong(_)
    ));
}

/// The game's DP in f32, as a contestant writing `float` would: memoized over the heights
/// (the memo shared by every board).
fn single_precision(heights: &[usize], memo: &mut HashMap<Vec<usize>, f32>) -> f32 {
    fn go(h: &mut Vec<usize>, memo: &mut HashMap<Vec<usize>, f32>) -> f32 {
        if let Some(&v) = memo.get(h) {
            return v;
        }
        let top = h.iter().copied().max().unwrap_or(0);
        let mut best = 0.0f32;
        for row in 1..=top {
            for left in [true, false] {
                let order: Vec<usize> = if left {
                    (0..h.len()).collect()
                } else {
                    (0..h.len()).rev().collect()
                };
                let mut sum = 0.0f32;
                for power in 1..=3 {
                    let mut next = h.clone();
                    for &j in order.iter().filter(|&&j| h[j] >= row).take(power) {
                        next[j] -= 1;
                    }
                    sum += if next.iter().all(|&x| x == 0) {
                        1.0
                    } else {
                        1.0 - go(&mut next, memo)
                    };
                }
                best = best.max(sum / 3.0);
            }
        }
        memo.insert(h.clone(), best);
        best
    }
    go(&mut heights.to_vec(), memo)
}

#[test]
fn the_validator_names_the_line_and_column() {
    let bounds = SHOOTING.default_bounds();
    let cases: &[(&str, &str)] = &[
        (
            "3\n2 1 1\n4\n2 3 1 3\n0\n",
            "line 4, column 7: heights 3 1 3 are not unimodal: the perimeter would exceed the \
             bounding rectangle's",
        ),
        (
            "2\n3 3\n0\n",
            "line 2, column 1: all 2 heights are 3: the battlefield is a rectangle, which the \
             statement excludes",
        ),
        (
            "1\n4\n0\n",
            "line 2, column 1: a single column (height 4) is a rectangle, which the statement \
             excludes",
        ),
        (
            "3\n1 7 1\n0\n",
            "line 2, column 3: expected a height, an integer 1..=6, found \"7\" (out of range)",
        ),
        (
            "7\n1 2 3 4 5 6 5\n0\n",
            "line 1, column 1: expected n, the number of columns, an integer 1..=6, found \"7\" \
             (out of range)",
        ),
        (
            "3\n1 2\n0\n",
            "line 2, column 4: expected 1 more integer, found end of line",
        ),
        (
            "2\n1 2 3\n0\n",
            "line 2, column 5: expected end of line after 2 heights, found \"3\"",
        ),
        (
            "2\n1 2\n",
            "line 3, column 1: expected a case or the line \"0\" that ends the input, found end \
             of input",
        ),
        (
            "2\n1 2\n0\n5\n",
            "line 4, column 1: expected end of input, found \"5\"",
        ),
    ];
    for (text, message) in cases {
        let err = SHOOTING.parse(text.as_bytes(), &bounds).unwrap_err();
        assert_eq!(err.to_string(), *message, "{text:?}");
    }
    let mut many = String::new();
    for _ in 0..26 {
        many.push_str("2\n1 2\n");
    }
    many.push_str("0\n");
    let err = SHOOTING.parse(many.as_bytes(), &bounds).unwrap_err();
    assert!(err.to_string().starts_with("line 51, column 1:"), "{err}");
    assert!(err.to_string().contains("at most 25 cases"), "{err}");
}

#[test]
fn raised_bounds_admit_taller_and_wider_boards() {
    let mut bounds: Bounds = SHOOTING.default_bounds();
    bounds.set("n", 7);
    bounds.set("height", 7);
    let board = SHOOTING.parse(b"7\n1 2 7 7 7 7 6\n0\n", &bounds).unwrap();
    let answers = board.try_solve().unwrap();
    assert_eq!(answers.len(), 1);
    assert_eq!(Some(answers.clone()), {
        use duipai::problem::Verify;
        SHOOTING.brute_force(board.as_ref())
    });
}

fn family_cases(family: &str, seeds: u64) -> Vec<Vec<usize>> {
    let spec = Spec::new(&SHOOTING, &GenParams::default().with_family(family)).unwrap();
    (0..seeds)
        .flat_map(|seed| {
            let file = spec.generate(seed);
            file.cases_of::<ShootingProblem>()
                .unwrap()
                .iter()
                .map(|c| c.heights.clone())
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn the_families_have_their_shapes() {
    assert!(family_cases("wide", 30).iter().all(|h| h.len() == 6));
    for h in family_cases("towers", 30) {
        let tall = h.iter().filter(|&&x| x == 6).count();
        assert!((1..=2).contains(&tall), "{h:?}");
        assert!(h.iter().all(|&x| x == 6 || x <= 2), "{h:?}");
    }
    for h in family_cases("near-rectangle", 30) {
        let (lo, hi) = (h.iter().min().unwrap(), h.iter().max().unwrap());
        assert_eq!(hi - lo, 1, "{h:?}");
        let lows = h.iter().filter(|&x| x == lo).count();
        assert_eq!(lows.min(h.len() - lows), 1, "{h:?}");
    }
    for h in family_cases("smallest", 30) {
        assert!(h.len() <= 3 && h.iter().all(|&x| x <= 2), "{h:?}");
    }
    let spec = Spec::new(&SHOOTING, &GenParams::default().with_family("full-file")).unwrap();
    for seed in 0..5 {
        assert_eq!(spec.generate(seed).case_count(), 25);
    }
}
