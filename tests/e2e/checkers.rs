//! Checkers and answers from a reference, end to end, with real programs. The problem
//! "derangement" (print any permutation of 1..n with no fixed point) is judged by a testlib
//! checker compiled from source (`tests/support/derangement/checker.cpp` with the vendored
//! `testlib.h` beside it) or by a Kattis-protocol output validator in Python; the solutions
//! are in C++ and Python. Checkers that crash or fail, `test --reference` on hand-written
//! inputs, `duipai answers`, and checkers and references on the built-in games. These tests
//! need g++ and python3 and fail saying what to install when one is missing.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

use crate::reports::{junit_cases, junit_check};
use crate::util::{code, fixture, last_json, stderr, stdout};

const SUPPORT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/support");

fn require(tool: &str, install: &str) {
    let found = Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        found,
        "`{tool}` is needed by the checker tests: install {install}"
    );
}

/// A scratch directory holding the derangement programs, with `testlib.h` beside the checker
/// as a problem setter keeps it.
fn workspace() -> tempfile::TempDir {
    require("g++", "g++ (Debian and Ubuntu: apt-get install g++)");
    require(
        "python3",
        "Python 3 (Debian and Ubuntu: apt-get install python3)",
    );
    let dir = tempfile::tempdir().unwrap();
    for entry in fs::read_dir(Path::new(SUPPORT).join("derangement")).unwrap() {
        let path = entry.unwrap().path();
        fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
    }
    let testlib = Path::new(SUPPORT).join("testlib/testlib.h");
    fs::copy(testlib, dir.path().join("testlib.h")).unwrap();
    dir
}

/// Runs `duipai ARGS` in `dir`. Builds are cached for the whole test run (the testlib checker
/// takes seconds to compile); the user's compiler variables are left out.
fn duipai(dir: &Path, args: &[&str]) -> Output {
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("checker-tests-cache");
    Command::new(crate::util::duipai())
        .args(args)
        .current_dir(dir)
        .env("DUIPAI_CACHE_DIR", cache)
        .env_remove("DUIPAI_CXX")
        .env_remove("DUIPAI_PYTHON")
        .stdin(Stdio::null())
        .output()
        .expect("duipai runs")
}

/// The reference's derangement: p[i] = i + 1, p[n] = 1.
fn rotation(n: usize) -> String {
    let p: Vec<String> = (1..=n).map(|i| (i % n + 1).to_string()).collect();
    format!("{}\n", p.join(" "))
}

/// `cases/` with the inputs n = 2 to 7 and the reference's answers beside them.
fn cases(dir: &Path) -> PathBuf {
    let cases = dir.join("cases");
    fs::create_dir(&cases).unwrap();
    for n in 2..=7 {
        fs::write(cases.join(format!("{n}.in")), format!("{n}\n")).unwrap();
        fs::write(cases.join(format!("{n}.ans")), rotation(n)).unwrap();
    }
    cases
}

/// The case objects of a `test --json` run, by name.
fn case_objects(out: &Output) -> Vec<Value> {
    let summary = last_json(out);
    summary["cases"].as_array().expect("cases").clone()
}

fn case<'a>(cases: &'a [Value], name: &str) -> &'a Value {
    cases
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no case {name} in {cases:?}"))
}

#[test]
fn a_testlib_checker_compiled_from_source_accepts_every_right_answer() {
    let dir = workspace();
    let d = dir.path();
    cases(d);
    for program in ["right.cpp", "sol.py"] {
        let out = duipai(
            d,
            &[
                "test",
                "derangement",
                "cases",
                "--checker",
                "checker.cpp",
                "--",
                program,
            ],
        );
        assert_eq!(code(&out), 0, "{program}: {}{}", stdout(&out), stderr(&out));
        assert!(stdout(&out).contains("6 cases: 6 AC"), "{}", stdout(&out));
        assert!(
            stderr(&out).contains("outputs are judged by the checker checker.cpp"),
            "{}",
            stderr(&out)
        );
    }
    // Compared with the answer files instead, another derangement is a wrong answer.
    let exact = duipai(d, &["test", "derangement", "cases", "--", "right.cpp"]);
    assert_eq!(code(&exact), 1, "{}", stderr(&exact));
}

#[test]
fn comparison_flags_beside_a_checker_are_refused() {
    let dir = workspace();
    let d = dir.path();
    cases(d);
    for flags in [&["--tolerance", "1e-6"][..], &["--ignore-case"][..]] {
        let mut args = vec!["test", "derangement", "cases", "--checker", "checker.cpp"];
        args.extend_from_slice(flags);
        args.extend_from_slice(&["--", "sol.py"]);
        let out = duipai(d, &args);
        assert_eq!(code(&out), 2, "{}", stderr(&out));
        assert!(
            stderr(&out).contains(&format!("{} does nothing with --checker", flags[0])),
            "{}",
            stderr(&out)
        );
    }
}

#[test]
fn a_checkers_wrong_answer_is_wa_with_its_message_in_every_report() {
    let dir = workspace();
    let d = dir.path();
    cases(d);
    let out = duipai(
        d,
        &[
            "test",
            "derangement",
            "cases",
            "--checker",
            "checker.cpp",
            "--json",
            "--junit",
            "report.xml",
            "--",
            "wrong.cpp",
        ],
    );
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let cases = case_objects(&out);
    // Swapping neighbours leaves n in place when n is odd.
    for n in [3, 5, 7] {
        let c = case(&cases, &format!("{n}.in"));
        assert_eq!(c["verdict"], "WA", "{c}");
        assert_eq!(
            c["detail"],
            format!("wrong answer p[{n}] = {n} is a fixed point"),
            "{c}"
        );
    }
    for n in [2, 4, 6] {
        let c = case(&cases, &format!("{n}.in"));
        assert_eq!(c["verdict"], "AC", "{c}");
        assert_eq!(c["detail"], format!("ok a derangement of 1..{n}"), "{c}");
    }
    // The human report (on stderr with --json) shows the message on the case's line, and no
    // diff against the answer file, which is one right answer among many.
    let human = stderr(&out);
    assert!(
        human
            .lines()
            .any(|l| l.starts_with("WA  3.in") && l.ends_with("p[3] = 3 is a fixed point")),
        "{human}"
    );
    assert!(!human.contains("--- expected"), "{human}");
    let report = junit_check(&d.join("report.xml"));
    let failed = junit_cases(&report)
        .iter()
        .find(|c| c["name"] == "5.in")
        .expect("5.in in the report");
    assert_eq!(
        failed["results"][0]["message"], "WA: wrong answer p[5] = 5 is a fixed point",
        "{failed}"
    );
}

#[test]
fn a_crashing_checker_is_a_harness_error_naming_it() {
    let dir = workspace();
    let d = dir.path();
    cases(d);
    let out = duipai(
        d,
        &[
            "test",
            "derangement",
            "cases",
            "-j",
            "1",
            "--checker",
            "crash_checker.py",
            "--json",
            "--",
            "right.cpp",
        ],
    );
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("running 2.in: the checker crash_checker.py failed: RE (killed by SIGSEGV"),
        "{err}"
    );
    // Its stderr is shown.
    assert!(err.contains("checking "), "{err}");
    let last = last_json(&out);
    assert_eq!(last["status"], "error", "{last}");
    // No case was blamed on the program.
    assert!(!stdout(&out).contains("\"verdict\""), "{}", stdout(&out));
}

#[test]
fn a_checker_failure_exit_3_is_a_harness_error_with_its_message() {
    let dir = workspace();
    let d = dir.path();
    let cases = cases(d);
    // A broken answer file: the identity has every point fixed.
    fs::write(cases.join("5.ans"), "1 2 3 4 5\n").unwrap();
    let out = duipai(
        d,
        &[
            "test",
            "derangement",
            "cases",
            "--checker",
            "checker.cpp",
            "--junit",
            "report.xml",
            "--",
            "right.cpp",
        ],
    );
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains(
            "running 5.in: the checker checker.cpp failed: exit code 3 (testlib's FAIL): \
             FAIL p[1] = 1 is a fixed point"
        ),
        "{err}"
    );
    // The JUnit report shows the error, not a verdict.
    let report = junit_check(&d.join("report.xml"));
    let only = &junit_cases(&report)[0];
    assert_eq!(only["results"][0]["kind"], "error", "{only}");
    assert!(
        only["results"][0]["message"]
            .as_str()
            .unwrap()
            .contains("the checker checker.cpp failed"),
        "{only}"
    );
}

#[test]
fn a_kattis_output_validator_accepts_and_rejects() {
    let dir = workspace();
    let d = dir.path();
    cases(d);
    let kattis = |program: &str| {
        duipai(
            d,
            &[
                "test",
                "derangement",
                "cases",
                "--checker",
                "kattis_validator.py",
                "--checker-protocol",
                "kattis",
                "--json",
                "--",
                program,
            ],
        )
    };
    let right = kattis("right.cpp");
    assert_eq!(code(&right), 0, "{}", stderr(&right));
    let wrong = kattis("wrong.cpp");
    assert_eq!(code(&wrong), 1, "{}", stderr(&wrong));
    let cases = case_objects(&wrong);
    let c = case(&cases, "7.in");
    assert_eq!(c["verdict"], "WA", "{c}");
    // The message is judgemessage.txt's.
    assert_eq!(c["detail"], "position 7 holds 7: a fixed point", "{c}");
    // Exit 0 is not acceptance in this protocol: a judge error, the harness's.
    let zero = duipai(
        d,
        &[
            "test",
            "derangement",
            "cases",
            "--checker",
            "python3 -c 'raise SystemExit(0)'",
            "--checker-protocol",
            "kattis",
            "--",
            "right.cpp",
        ],
    );
    assert_eq!(code(&zero), 2, "{}", stderr(&zero));
    assert!(
        stderr(&zero).contains("the checker python3 failed: exit code 0, not 42 (accepted)"),
        "{}",
        stderr(&zero)
    );
    // The protocol needs a checker.
    let alone = duipai(
        d,
        &[
            "test",
            "derangement",
            "cases",
            "--checker-protocol",
            "kattis",
            "--",
            "right.cpp",
        ],
    );
    assert_eq!(code(&alone), 2, "{}", stderr(&alone));
}

#[test]
fn stress_judges_through_the_checker_and_still_minimizes() {
    let dir = workspace();
    let d = dir.path();
    let stress = |program: &str, extra: &[&str]| {
        let mut args = vec![
            "stress",
            "derangement",
            "--generator",
            "gen.py",
            "--reference",
            "brute.py",
            "--validator",
            "validator.py",
            "--checker",
            "checker.cpp",
            "--json",
        ];
        args.extend(extra);
        args.extend(["--", program]);
        duipai(d, &args)
    };
    let passed = stress("right.cpp", &["--iterations", "12"]);
    assert_eq!(code(&passed), 0, "{}", stderr(&passed));
    let failed = stress("wrong.cpp", &[]);
    assert_eq!(code(&failed), 1, "{}", stderr(&failed));
    let report = last_json(&failed);
    assert_eq!(report["verdict"], "WA", "{report}");
    // The smallest odd n the validator allows.
    assert_eq!(report["detail"], "wrong answer p[3] = 3 is a fixed point");
    assert_eq!(report["one_minimal"], true, "{report}");
    let input = report["input"].as_str().unwrap();
    assert_eq!(fs::read_to_string(d.join(input)).unwrap(), "3\n");
    // The replay judges the saved case through the same checker.
    let replay = report["replay"].as_str().unwrap();
    assert!(replay.contains(" --checker checker.cpp "), "{replay}");
    let again = duipai(
        d,
        &[
            "test",
            "derangement",
            input,
            "--checker",
            "checker.cpp",
            "--",
            "wrong.cpp",
        ],
    );
    assert_eq!(code(&again), 1, "{}", stderr(&again));
}

#[test]
fn a_checker_failure_in_stress_is_a_harness_error_naming_the_seed() {
    let dir = workspace();
    let d = dir.path();
    let out = duipai(
        d,
        &[
            "stress",
            "derangement",
            "--generator",
            "gen.py",
            "--reference",
            "brute.py",
            "--checker",
            "crash_checker.py",
            "-j",
            "1",
            "--",
            "right.cpp",
        ],
    );
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("seed 1: the checker crash_checker.py failed: RE (killed by SIGSEGV"),
        "{err}"
    );
    assert!(!d.join("duipai-failures").exists());
}

/// Hand-written inputs, two of them with answers (`.ans`, `.out`) and two without.
fn hand_written(dir: &Path) -> PathBuf {
    let hand = dir.join("hand");
    fs::create_dir(&hand).unwrap();
    for n in [2, 4, 5, 9] {
        fs::write(hand.join(format!("{n}.in")), format!("{n}\n")).unwrap();
    }
    fs::write(hand.join("2.ans"), "2 1\n").unwrap();
    fs::write(hand.join("4.out"), rotation(4)).unwrap();
    hand
}

#[test]
fn test_takes_the_answers_an_input_lacks_from_the_reference() {
    let dir = workspace();
    let d = dir.path();
    hand_written(d);
    // Exact comparison with the reference's answers: the reference itself passes.
    let out = duipai(
        d,
        &[
            "test",
            "derangement",
            "hand",
            "--reference",
            "brute.py",
            "--json",
            "--",
            "brute.py",
        ],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let err = stderr(&out);
    assert_eq!(
        err.matches("2 of 4 answers come from the reference brute.py")
            .count(),
        1,
        "{err}"
    );
    let cases = case_objects(&out);
    assert_eq!(case(&cases, "9.in")["expected"], rotation(9).trim_end());
    // With the checker, any derangement passes.
    let checked = duipai(
        d,
        &[
            "test",
            "derangement",
            "hand",
            "--reference",
            "brute.py",
            "--checker",
            "checker.cpp",
            "--",
            "sol.py",
        ],
    );
    assert_eq!(code(&checked), 0, "{}", stderr(&checked));
    // Without a reference, an input without an answer stops the run, saying what to give.
    let without = duipai(d, &["test", "derangement", "hand", "--", "brute.py"]);
    assert_eq!(code(&without), 2, "{}", stderr(&without));
    assert!(
        stderr(&without).contains("give one with --reference"),
        "{}",
        stderr(&without)
    );
}

#[test]
fn a_reference_that_fails_on_an_input_is_a_harness_error_naming_it() {
    let dir = workspace();
    let d = dir.path();
    hand_written(d);
    fs::write(
        d.join("flaky.py"),
        "import sys\nn = int(input())\nif n == 9:\n    sys.exit('no answer for 9')\n\
         print(*[i % n + 1 for i in range(1, n + 1)])\n",
    )
    .unwrap();
    let out = duipai(
        d,
        &[
            "test",
            "derangement",
            "hand",
            "--reference",
            "flaky.py",
            "--",
            "brute.py",
        ],
    );
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("hand/9.in: the reference flaky.py failed: RE (exit code 1)"),
        "{err}"
    );
    assert!(err.contains("no answer for 9"), "{err}");
}

#[test]
fn answers_writes_the_missing_answer_files_and_nothing_else() {
    let dir = workspace();
    let d = dir.path();
    let hand = hand_written(d);
    fs::write(
        d.join("flaky.py"),
        "import sys\nn = int(input())\nif n == 9:\n    sys.exit('no answer for 9')\n\
         print(*[i % n + 1 for i in range(1, n + 1)])\n",
    )
    .unwrap();
    // The reference fails on 9.in: the others are written, and the command fails naming it.
    let first = duipai(
        d,
        &["answers", "derangement", "hand", "--reference", "flaky.py"],
    );
    assert_eq!(code(&first), 2, "{}", stderr(&first));
    assert_eq!(stdout(&first).lines().next(), Some("wrote hand/5.ans"));
    assert!(
        stderr(&first).contains("hand/9.in: the reference flaky.py failed"),
        "{}",
        stderr(&first)
    );
    assert_eq!(fs::read_to_string(hand.join("5.ans")).unwrap(), rotation(5));
    assert!(!hand.join("9.ans").exists());
    // Existing answers stay as they are.
    assert_eq!(fs::read_to_string(hand.join("2.ans")).unwrap(), "2 1\n");
    assert!(!hand.join("4.ans").exists());

    let second = duipai(
        d,
        &["answers", "derangement", "hand", "--reference", "brute.py"],
    );
    assert_eq!(code(&second), 0, "{}", stderr(&second));
    assert_eq!(
        stdout(&second),
        "wrote hand/9.ans\n1 answer file from the reference brute.py; 3 inputs had one already\n"
    );
    let third = duipai(
        d,
        &["answers", "derangement", "hand", "--reference", "brute.py"],
    );
    assert_eq!(code(&third), 0, "{}", stderr(&third));
    assert!(
        stdout(&third).starts_with("nothing to write"),
        "{}",
        stdout(&third)
    );

    // A problem duipai does not know has no answers of its own.
    fs::write(hand.join("11.in"), "11\n").unwrap();
    let no_reference = duipai(d, &["answers", "derangement", "hand"]);
    assert_eq!(code(&no_reference), 2, "{}", stderr(&no_reference));
    assert!(stderr(&no_reference).contains("give --reference"));
    assert!(!hand.join("11.ans").exists());
}

#[test]
fn answers_follow_the_polygon_layout_and_the_built_in_solver() {
    let dir = workspace();
    let d = dir.path();
    let tests = d.join("tests");
    fs::create_dir(&tests).unwrap();
    fs::write(tests.join("01"), "3\n").unwrap();
    fs::write(tests.join("02"), "6\n").unwrap();
    fs::write(tests.join("02.a"), rotation(6)).unwrap();
    let out = duipai(
        d,
        &["answers", "derangement", "tests", "--reference", "brute.py"],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(fs::read_to_string(tests.join("01.a")).unwrap(), rotation(3));

    // A built-in game's inputs get the built-in solver's answers: the hand-checked ones.
    let chess = d.join("chess");
    fs::create_dir(&chess).unwrap();
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("cases/chess");
    let inputs = ["01-sample", "05-b-zero-3x3", "08-random-3x5"];
    for name in inputs {
        fs::copy(
            samples.join(format!("{name}.in")),
            chess.join(format!("{name}.in")),
        )
        .unwrap();
    }
    let solved = duipai(d, &["answers", "chess", "chess"]);
    assert_eq!(code(&solved), 0, "{}", stderr(&solved));
    for name in inputs {
        assert_eq!(
            fs::read_to_string(chess.join(format!("{name}.ans"))).unwrap(),
            fs::read_to_string(samples.join(format!("{name}.ans"))).unwrap(),
            "{name}"
        );
    }
}

/// The chess samples in `dir/chess`, without the answers of 02 and 03 (cases the bundled
/// wrong chess solution gets wrong; it gets the statement's sample right).
fn chess_cases(dir: &Path) -> PathBuf {
    let chess = dir.join("chess");
    fs::create_dir(&chess).unwrap();
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("cases/chess");
    for entry in fs::read_dir(samples).unwrap() {
        let path = entry.unwrap().path();
        fs::copy(&path, chess.join(path.file_name().unwrap())).unwrap();
    }
    fs::remove_file(chess.join("02-one-cell.ans")).unwrap();
    fs::remove_file(chess.join("03-one-row-forced.ans")).unwrap();
    chess
}

#[test]
fn built_in_games_take_a_checker_and_a_reference() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    chess_cases(d);
    let fixture = fixture();
    let fixture = fixture.to_str().unwrap();
    let checker = crate::util::duipai().with_file_name("duipai-checker");
    let checker = checker.to_str().unwrap();
    // duipai-checker is a testlib checker: its message is the detail.
    let checked = duipai(
        d,
        &[
            "test",
            "chess",
            "chess",
            "--checker",
            checker,
            "--json",
            "--",
            fixture,
            "wrong",
            "chess",
        ],
    );
    assert_eq!(code(&checked), 1, "{}", stderr(&checked));
    let cases = case_objects(&checked);
    let c = case(&cases, "02-one-cell.in");
    assert_eq!(c["verdict"], "WA", "{c}");
    assert!(
        c["detail"]
            .as_str()
            .unwrap()
            .starts_with("wrong answer expected "),
        "{c}"
    );
    // A reference replaces the built-in solver where an answer file is missing, and only
    // there: a wrong reference makes the right program fail on exactly those inputs.
    let reference = format!("{fixture} wrong chess");
    let judged = duipai(
        d,
        &[
            "test",
            "chess",
            "chess",
            "--reference",
            &reference,
            "--json",
            "--",
            fixture,
            "correct",
            "chess",
        ],
    );
    assert_eq!(code(&judged), 1, "{}", stderr(&judged));
    assert!(
        stderr(&judged).contains("2 of 8 answers come from the reference duipai-fixture"),
        "{}",
        stderr(&judged)
    );
    let failing: Vec<String> = case_objects(&judged)
        .iter()
        .filter(|c| c["verdict"] != "AC")
        .map(|c| c["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(failing, ["02-one-cell.in", "03-one-row-forced.in"]);
}

#[test]
fn stress_on_a_built_in_game_minimizes_through_a_checker_as_without_one() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let fixture = fixture();
    let fixture = fixture.to_str().unwrap();
    let checker = crate::util::duipai().with_file_name("duipai-checker");
    let run = |extra: &[&str]| {
        let mut args = vec!["stress", "chess", "--json", "--no-replay", "--save"];
        args.extend(extra);
        args.extend(["--", fixture, "greedy", "chess"]);
        duipai(d, &args)
    };
    let plain = run(&["plain"]);
    let checked = run(&["checked", "--checker", checker.to_str().unwrap()]);
    assert_eq!(code(&plain), 1, "{}", stderr(&plain));
    assert_eq!(code(&checked), 1, "{}", stderr(&checked));
    let (plain, checked) = (last_json(&plain), last_json(&checked));
    assert_eq!(checked["seed"], plain["seed"]);
    assert_eq!(checked["verdict"], "WA");
    assert!(
        checked["detail"]
            .as_str()
            .unwrap()
            .starts_with("wrong answer expected "),
        "{checked}"
    );
    let input = |report: &Value| fs::read_to_string(d.join(report["input"].as_str().unwrap()));
    assert_eq!(input(&checked).unwrap(), input(&plain).unwrap());
}
