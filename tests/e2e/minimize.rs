//! The minimizer end to end: hard bugs shrink to the smallest failing cases known for them,
//! the failure keeps its kind, the result does not depend on the workers, big boards get a
//! compact report with the whole line saved, and text cases shrink with a validator.

use std::path::Path;

use duipai::problem::{self, ChessProblem, ChessboardProblem, Instance};

use crate::util::{code, duipai_in, fixture, last_json, stdout};

/// Runs `duipai stress PROBLEM -j JOBS --json --save DIR [extra] -- fixture BUG PROBLEM` in
/// `dir` and returns the JSON report and the minimized case.
fn stress(
    dir: &Path,
    problem: &str,
    bug: &str,
    jobs: &str,
    extra: &[&str],
) -> (serde_json::Value, Box<dyn Instance>) {
    let fixture = fixture();
    let save = format!("failures-{bug}-{jobs}");
    let mut args = vec!["stress", problem, "-j", jobs, "--json", "--save", &save];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--", fixture.to_str().unwrap(), bug, problem]);
    let out = duipai_in(dir, &args);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    let report = last_json(&out);
    let input = dir.join(report["input"].as_str().unwrap());
    let text = std::fs::read(&input).unwrap();
    let game = problem::by_name(problem).unwrap();
    let instance = game.parse(&text, &game.default_bounds()).unwrap();
    (report, instance)
}

#[test]
fn a_greedy_player_shrinks_to_a_two_by_two_board() {
    let dir = tempfile::tempdir().unwrap();
    let (report, case) = stress(dir.path(), "chess", "greedy", "2", &[]);
    assert_eq!(report["verdict"], "WA");
    assert_eq!(report["one_minimal"], true);
    let c = case.first_case::<ChessProblem>().unwrap();
    assert!(c.n * c.m <= 4, "{}×{}", c.n, c.m);
    let sum: i64 = c.a.iter().chain(&c.b).flatten().sum();
    assert!(sum <= 10, "value sum {sum}");
    // The case really fails: the greedy answer differs from the reference.
    assert_ne!(
        report["expected"],
        report["actual"].as_str().unwrap().trim()
    );
}

#[test]
fn an_array_too_small_for_the_largest_board_shrinks_to_an_empty_board() {
    let dir = tempfile::tempdir().unwrap();
    let (report, case) = stress(dir.path(), "chessboard", "crash-max", "2", &[]);
    assert_eq!(report["verdict"], "RE");
    let b = case.first_case::<ChessboardProblem>().unwrap();
    assert_eq!(b.n, 12);
    assert!(b.pieces() <= 1, "{} pieces", b.pieces());
    assert!(report["shrink_runs"].as_u64().unwrap() < 200);
}

#[test]
fn a_threshold_bug_keeps_failing_the_same_way_on_a_smaller_board() {
    let dir = tempfile::tempdir().unwrap();
    // A generous time limit: the fixture's memoized search takes a while on 10×10 boards in a
    // debug build on a loaded machine, and a TLE found first is not the bug looked for.
    let (report, case) = stress(
        dir.path(),
        "chess",
        "threshold",
        "2",
        &["--time-limit", "20000"],
    );
    assert_eq!(report["verdict"], "WA");
    let original =
        std::fs::read(dir.path().join(report["original_input"].as_str().unwrap())).unwrap();
    let chess = problem::by_name("chess").unwrap();
    let original = chess.parse(&original, &chess.default_bounds()).unwrap();
    assert!(case.size() < original.size());
    // The bug only shows beyond ±10^6, and the minimized case still gets there.
    let answer: i64 = case.solve()[0].parse().unwrap();
    assert!(answer.abs() > 1_000_000, "{answer}");
}

#[test]
fn a_slow_program_keeps_its_time_limit_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let (report, case) = stress(
        dir.path(),
        "chess",
        "slow-big",
        "2",
        &["--time-limit", "300", "--no-replay"],
    );
    assert_eq!(report["verdict"], "TLE");
    let c = case.first_case::<ChessProblem>().unwrap();
    assert!(
        c.n * c.m >= 6,
        "a tiny board cannot be slow: {}×{}",
        c.n,
        c.m
    );
}

#[test]
fn the_minimized_case_does_not_depend_on_the_workers() {
    let dir = tempfile::tempdir().unwrap();
    for bug in ["greedy", "wrong"] {
        let (_, one) = stress(dir.path(), "chess", bug, "1", &[]);
        let (_, four) = stress(dir.path(), "chess", bug, "4", &[]);
        assert_eq!(one.to_input(), four.to_input(), "{bug}");
    }
}

#[test]
fn big_boards_get_a_compact_line_and_the_whole_one_in_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = fixture();
    // --no-shrink keeps the 12×12 board the crash was found on.
    let out = duipai_in(
        dir.path(),
        &[
            "stress",
            "chessboard",
            "--no-shrink",
            "--json",
            "--",
            fixture.to_str().unwrap(),
            "crash-max",
            "chessboard",
        ],
    );
    assert_eq!(code(&out), 1);
    let report = last_json(&out);
    let path = dir
        .path()
        .join(report["explanation"].as_str().expect("an explanation file"));
    let whole = std::fs::read_to_string(&path).unwrap();
    assert!(whole.starts_with("Board 12×12"), "{whole}");
    let text = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(text.contains("more moves ..."), "{text}");
    assert!(text.contains(&format!(
        "(the whole line of play: {}",
        report["explanation"].as_str().unwrap()
    )));
    // The compact line is shorter than the whole one.
    assert!(
        text.lines()
            .filter(|l| l.contains(". W") || l.contains(". B"))
            .count()
            <= 11
    );
}

/// A generator and reference for a problem duipai does not know ("sum": print the sum of
/// the numbers), and a validator for it, as shell scripts.
fn write_sum_problem(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let scripts = [
        (
            "gen.sh",
            "#!/bin/sh\necho 5\necho \"$1 20 300\"\necho 4000 5 6\n",
        ),
        (
            "ref.sh",
            "#!/bin/sh\ntr ' ' '\\n' | awk '{s+=$1} END {print s+0}'\n",
        ),
        // Wrong once some number is at least 100.
        (
            "bad.sh",
            "#!/bin/sh\ntr ' ' '\\n' | awk '{s+=$1; if ($1 >= 100) b=1} END {print s+b}'\n",
        ),
        // Valid: only digits and spaces, at least one line.
        ("valid.sh", "#!/bin/sh\ngrep -q . && ! grep -q '[^0-9 ]'\n"),
    ];
    for (name, text) in scripts {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

#[test]
fn unknown_problems_shrink_as_text_with_a_validator() {
    let dir = tempfile::tempdir().unwrap();
    write_sum_problem(dir.path());
    let out = duipai_in(
        dir.path(),
        &[
            "stress",
            "sum",
            "--generator",
            "sh gen.sh",
            "--reference",
            "./ref.sh",
            "--validator",
            "./valid.sh",
            "--json",
            "--",
            "./bad.sh",
        ],
    );
    assert_eq!(code(&out), 1, "{}", String::from_utf8_lossy(&out.stderr));
    let report = last_json(&out);
    assert_eq!(report["problem"], "sum");
    let input =
        std::fs::read_to_string(dir.path().join(report["input"].as_str().unwrap())).unwrap();
    // One line holding 100 and zeros: the smallest input with a number of at least 100.
    assert_eq!(input.lines().count(), 1, "{input}");
    let numbers: Vec<i64> = input
        .split_whitespace()
        .map(|w| w.parse().unwrap())
        .collect();
    assert_eq!(numbers.iter().max(), Some(&100), "{input}");
    assert!(
        numbers.iter().filter(|&&v| v != 100).all(|&v| v == 0),
        "{input}"
    );
    assert!(input.contains("100"));
    assert!(report["input"].as_str().unwrap().contains("sum-1"));
    // A text case is labelled with its size in lines.
    let human = String::from_utf8_lossy(&out.stderr);
    assert!(
        human.contains("\ncase (1 line): duipai-failures/sum-1.in\n"),
        "{human}"
    );
}

#[test]
fn unknown_problems_without_a_validator_say_why_they_are_not_minimized() {
    let dir = tempfile::tempdir().unwrap();
    write_sum_problem(dir.path());
    let out = duipai_in(
        dir.path(),
        &[
            "stress",
            "sum",
            "--generator",
            "./gen.sh",
            "--reference",
            "./ref.sh",
            "--",
            "./bad.sh",
        ],
    );
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(
        text.contains("not minimized: duipai does not know the format of sum"),
        "{text}"
    );
    assert!(!text.contains("chess"), "{text}");
    // Reported as found: the generator's three lines.
    assert!(
        text.contains("\ncase (3 lines): duipai-failures/sum-1.in\n"),
        "{text}"
    );
}
