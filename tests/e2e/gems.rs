//! `gems` as a user meets it: the fixture's four contest bugs found by `duipai stress` and
//! minimized to the case that shows each (two cases for a state kept between cases), the
//! validator's positioned messages, `solve --explain`, and a pack judged end to end.

use std::path::Path;

use duipai::problem::{GEMS, Gems, GemsProblem};

use crate::util::{Duipai, assert_contains, parse_file};

/// Runs `duipai stress gems --json [extra] -- fixture BUG gems` in `dir`; returns the report
/// and the cases of the minimized file.
fn stress(dir: &Path, bug: &str, extra: &[&str]) -> (serde_json::Value, Vec<Gems>, String) {
    let save = format!("failures-{bug}");
    let out = Duipai::in_dir(dir)
        .args(["stress", "gems", "-j", "2", "--json", "--save", &save])
        .args(extra)
        .fixture([bug, "gems"])
        .run()
        .code(1);
    let report = out.json();
    assert_eq!(report["one_minimal"], true, "{report}");
    let instance = parse_file(&GEMS, &dir.join(report["input"].as_str().unwrap()));
    let cases = instance.cases_of::<GemsProblem>().unwrap().to_vec();
    (report, cases, out.stderr())
}

#[test]
fn a_missing_bonus_turn_shrinks_to_two_single_gems() {
    let dir = tempfile::tempdir().unwrap();
    let (report, cases, human) = stress(dir.path(), "no-bonus", &["--b", "0..8"]);
    assert_eq!(report["verdict"], "WA");
    // One case: two bags of one gem, S = 1: Alice makes a stone and pours again.
    assert_eq!(
        cases,
        [Gems {
            g: 1,
            s: 1,
            bags: vec![vec![1], vec![1]]
        }]
    );
    assert_contains(&human, "1 stone, pours again");
}

#[test]
fn a_memo_kept_between_cases_keeps_two_cases() {
    let dir = tempfile::tempdir().unwrap();
    let (report, cases, human) = stress(dir.path(), "no-reset", &["--b", "0..8"]);
    assert_eq!(report["verdict"], "WA");
    // Alone, either case is answered right: the second is wrong only after the first.
    assert_eq!(cases.len(), 2, "{cases:?}");
    assert!(cases.iter().all(|c| c.bags.len() == 1), "{cases:?}");
    assert!(human.contains("cases 1, 2 of the") || human.contains("in the input as found"));
    assert_contains(&human, "expected:\n");
}

#[test]
fn stopping_at_a_case_without_bags_shrinks_to_that_case() {
    let dir = tempfile::tempdir().unwrap();
    let (report, cases, _) = stress(dir.path(), "stop-at-empty", &["--b", "0..8"]);
    assert_eq!(report["verdict"], "PE");
    assert_eq!(
        cases,
        [Gems {
            g: 1,
            s: 1,
            bags: vec![]
        }]
    );
}

#[test]
fn an_eight_bit_score_needs_more_than_127_stones() {
    let dir = tempfile::tempdir().unwrap();
    let (report, cases, _) = stress(
        dir.path(),
        "eight-bit",
        &["--family", "most-gems", "--b", "13..14"],
    );
    assert_eq!(report["verdict"], "WA");
    assert_eq!(cases.len(), 1);
    let answer = cases[0].try_solve().unwrap();
    // The smallest answer that leaves a signed byte.
    assert_eq!(answer, 128, "{cases:?}");
}

#[test]
fn the_validator_names_the_spot() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.in"), "3 2 3\n2 2 3\n2 1 4\n0 0 0\n").unwrap();
    std::fs::write(dir.path().join("open.in"), "3 1 3\n2 2 3\n").unwrap();
    let out = Duipai::in_dir(dir.path())
        .args(["validate", "gems", "bad.in", "open.in"])
        .run()
        .code(1);
    assert_eq!(
        out.stdout(),
        "bad.in:3:5: colour 4 is above G = 3\nopen.in:3:1: expected a case or the line \"0 0 0\" \
         that ends the input, found end of input\n"
    );
}

#[test]
fn a_pack_is_judged_right_and_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let plan = "gen gems --cases 3 --b 0..6 --seed 1\ngen gems --family chains --cases 2 --b 1..6 \
                --seed 2\ngen gems --family empty-case --cases 3 --b 0..6 --seed 3\n";
    std::fs::write(dir.path().join("small.plan"), plan).unwrap();
    Duipai::in_dir(dir.path())
        .args(["pack", "gems", "--out", "p", "--plan", "small.plan"])
        .args(["--layout", "icpc"])
        .run()
        .success();
    let test = |behaviour: &str| {
        Duipai::in_dir(dir.path())
            .args(["test", "gems", "p"])
            .fixture([behaviour, "gems"])
            .run()
    };
    test("correct").success();
    let wrong = test("no-bonus").code(1);
    // A wrong answer names its case.
    assert_contains(&wrong.stdout(), "case ");
}
