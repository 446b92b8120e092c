//! `fishhead` as a user meets it: the fixture's wrong solutions found by `duipai stress` and
//! minimized to the case that shows each bug, the validator's positioned messages, the
//! explanation, and a pack judged end to end.

use std::path::Path;

use duipai::problem::fishhead::lattice;
use duipai::problem::{FISHHEAD, FishheadProblem, Instance};

use crate::util::{Duipai, assert_contains, parse_file};

/// Runs `duipai stress fishhead --json` on the fixture's `bug` in `dir`; returns the report
/// and the minimized file.
fn stress(dir: &Path, bug: &str) -> (serde_json::Value, Box<dyn Instance>) {
    let save = format!("failures-{bug}");
    let report = Duipai::in_dir(dir)
        .args(["stress", "fishhead", "-j", "2", "--json", "--save", &save])
        .fixture([bug, "fishhead"])
        .run()
        .code(1)
        .json();
    assert_eq!(report["verdict"], "WA", "{report}");
    assert_eq!(report["one_minimal"], true, "{report}");
    let instance = parse_file(&FISHHEAD, &dir.join(report["input"].as_str().unwrap()));
    (report, instance)
}

#[test]
fn the_bonus_move_misreading_shrinks_to_one_case() {
    let dir = tempfile::tempdir().unwrap();
    let (report, file) = stress(dir.path(), "wrong-fishhead-bonus");
    let cases = file.cases_of::<FishheadProblem>().unwrap();
    assert_eq!(cases.len(), 1);
    let (_, given) = cases[0].replay().unwrap();
    let (_, line) = cases[0].try_solve_line().unwrap();
    // The misreading only differs once a square is completed by an edge that is not the
    // game's last: the player who drew it would then draw the next edge as well.
    let strokes: Vec<_> = given.iter().chain(&line).collect();
    assert!(
        strokes[..strokes.len() - 1]
            .iter()
            .any(|s| !s.closed.is_empty()),
        "{}",
        file.to_input()
    );
    assert_ne!(
        report["expected"],
        report["actual"].as_str().unwrap().trim()
    );
}

#[test]
fn forgetting_the_given_squares_shrinks_to_one_scored_case() {
    let dir = tempfile::tempdir().unwrap();
    let (_, file) = stress(dir.path(), "wrong-fishhead-prefix");
    let cases = file.cases_of::<FishheadProblem>().unwrap();
    assert_eq!(cases.len(), 1);
    let (drawn, _) = cases[0].replay().unwrap();
    assert!(lattice::complete_squares(drawn).count() > 0);
    // Nothing simpler fails: a smaller remaining game would be tried first.
    assert!(cases[0].remaining() <= 2, "{}", file.to_input());
}

#[test]
fn a_memo_kept_between_cases_needs_two_cases() {
    let dir = tempfile::tempdir().unwrap();
    let (report, file) = stress(dir.path(), "wrong-fishhead-reset");
    let cases = file.cases_of::<FishheadProblem>().unwrap();
    // One case alone is always right: the bug needs a case before it.
    assert_eq!(cases.len(), 2, "{}", file.to_input());
    assert!(cases.iter().all(|c| c.remaining() > 0));
    let actual = report["actual"].as_str().unwrap();
    assert!(actual.starts_with("Case #1: "), "{actual}");
}

#[test]
fn the_validator_points_at_the_bad_edge() {
    let dir = tempfile::tempdir().unwrap();
    let head = "1\n12\n1 2\n";
    let files = [
        (
            "apart.in",
            format!("{head}2 7\n"),
            "apart.in:4:3: points 2 and 7 are not adjacent",
        ),
        (
            "twice.in",
            format!("{head}2 3\n3 4\n5 6\n6 7\n7 8\n4 3\n"),
            "twice.in:9:1: edge 4-3 is drawn twice (first on line 5)",
        ),
        (
            "short.in",
            "1\n11\n".to_string(),
            "short.in:2:1: n = 11 is below 12",
        ),
        (
            "wrap.in",
            format!("{head}4 5\n"),
            "wrap.in:4:3: points 4 and 5 are not adjacent on the 4×4 lattice (the rows do not wrap",
        ),
    ];
    for (name, text, _) in &files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let validate = || Duipai::in_dir(dir.path()).args(["validate", "fishhead"]);
    for (name, _, message) in &files {
        let out = validate().arg(name).run().code(1);
        assert!(out.stdout().contains(message), "{name}: {}", out.stdout());
    }
    let out = validate().args(["--bound-min-n", "11", "short.in"]).run();
    assert_contains(
        &out.stdout(),
        "short.in:3:1: expected the first point of edge 1 of 11",
    );
}

#[test]
fn the_explanation_draws_the_lattice_and_the_line_of_play() {
    let dir = tempfile::tempdir().unwrap();
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("cases/fishhead/01-sample.in");
    let text = Duipai::in_dir(dir.path())
        .args(["solve", "fishhead"])
        .arg(sample)
        .arg("--explain")
        .run()
        .success()
        .stdout();
    assert!(
        text.starts_with("Case #1: Tom200\nCase #2: Jerry404\n"),
        "{text}"
    );
    for line in [
        "#15 Tom   1-5   completes 1-2-6-5",
        "Score so far: Tom 4, Jerry 3.",
        "#23 Tom   6-7   completes 6-7-11-10",
        "Tom 5, Jerry 4: Tom wins, Tom200",
        "Tom 4, Jerry 5: Jerry wins, Jerry404",
        "  13 -#21-- 14 -#22-- 15        16",
    ] {
        assert!(text.contains(line), "{line:?} in\n{text}");
    }
}

#[test]
fn a_pack_is_judged_and_a_wrong_case_is_named() {
    let dir = tempfile::tempdir().unwrap();
    Duipai::in_dir(dir.path())
        .args(["pack", "fishhead", "--out", "pack", "--layout", "icpc"])
        .run()
        .success();
    assert!(dir.path().join("pack/data/sample/01-sample.in").exists());
    let summary = Duipai::in_dir(dir.path())
        .args(["test", "fishhead", "pack", "--json"])
        // Generous: the machine may be loaded, and the fixture is a debug build.
        .args(["--time-limit", "10000", "--wall-limit", "60000"])
        .fixture(["correct", "fishhead"])
        .run()
        .success()
        .json();
    assert_eq!(
        (summary["passed"].as_u64(), summary["failed"].as_u64()),
        (Some(25), Some(0))
    );
    let out = Duipai::in_dir(dir.path())
        .args(["test", "fishhead", "pack/data/sample"])
        .fixture(["wrong-fishhead-prefix", "fishhead"])
        .run()
        .code(1);
    assert_contains(
        &out.stdout(),
        "case 1 of 2: expected \"Case #1: Tom200\", found \"Case #1: Jerry404\"",
    );
}
