//! Checkers and answers from a reference, end to end, with real programs. The problem
//! "derangement" (print any permutation of 1..n with no fixed point) is judged by a testlib
//! checker compiled from source (`tests/support/derangement/checker.cpp` with the vendored
//! `testlib.h` beside it) or by a Kattis-protocol output validator in Python; the solutions
//! are in C++ and Python. Checkers that crash or fail, `test --reference` on hand-written
//! inputs, `duipai answers`, and checkers and references on the built-in games. These tests
//! need g++ and python3 and fail saying what to install when one is missing.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::reports::{junit_cases, junit_check};
use crate::util::{Duipai, Ran, assert_contains, case, support_workspace, with_shared_cache};

/// A scratch directory holding the derangement programs, with `testlib.h` beside the checker.
fn workspace() -> tempfile::TempDir {
    support_workspace("derangement")
}

/// `duipai` in `dir`, its builds cached for the whole test run.
fn duipai(dir: &Path) -> Duipai {
    with_shared_cache(dir)
}

/// `duipai test derangement cases` in `dir`.
fn test_cases(dir: &Path) -> Duipai {
    duipai(dir).args(["test", "derangement", "cases"])
}

/// `duipai test derangement hand` in `dir`.
fn test_hand(dir: &Path) -> Duipai {
    duipai(dir).args(["test", "derangement", "hand"])
}

/// `duipai answers derangement hand` in `dir`.
fn answers_hand(dir: &Path) -> Duipai {
    duipai(dir).args(["answers", "derangement", "hand"])
}

/// The checker duipai's package builds, `duipai-checker`.
fn duipai_checker() -> PathBuf {
    crate::util::duipai().with_file_name("duipai-checker")
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

/// The case objects of a `test --json` run.
fn case_objects(out: &Ran) -> Vec<Value> {
    crate::util::case_objects(&out.json())
}

#[test]
fn a_testlib_checker_compiled_from_source_accepts_every_right_answer() {
    let dir = workspace();
    let d = dir.path();
    cases(d);
    for program in ["right.cpp", "sol.py"] {
        let out = test_cases(d)
            .args(["--checker", "checker.cpp"])
            .program([program])
            .run()
            .success();
        assert_contains(&out.stdout(), "6 cases: 6 AC");
        assert_contains(
            &out.stderr(),
            "outputs are judged by the checker checker.cpp",
        );
    }
    // Compared with the answer files instead, another derangement is a wrong answer.
    test_cases(d).program(["right.cpp"]).run().code(1);
}

#[test]
fn comparison_flags_beside_a_checker_are_refused() {
    let dir = workspace();
    let d = dir.path();
    cases(d);
    for flags in [&["--tolerance", "1e-6"][..], &["--ignore-case"][..]] {
        let out = test_cases(d)
            .args(["--checker", "checker.cpp"])
            .args(flags)
            .program(["sol.py"])
            .run()
            .code(2);
        assert_contains(
            &out.stderr(),
            &format!("{} does nothing with --checker", flags[0]),
        );
    }
}

#[test]
fn a_checkers_wrong_answer_is_wa_with_its_message_in_every_report() {
    let dir = workspace();
    let d = dir.path();
    cases(d);
    let out = test_cases(d)
        .args(["--checker", "checker.cpp", "--json"])
        .args(["--junit", "report.xml"])
        .program(["wrong.cpp"])
        .run()
        .code(1);
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
    let human = out.stderr();
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
    let out = test_cases(d)
        .args(["-j", "1", "--checker", "crash_checker.py", "--json"])
        .program(["right.cpp"])
        .run()
        .code(2);
    let err = out.stderr();
    assert!(
        err.contains("running 2.in: the checker crash_checker.py failed: RE (killed by SIGSEGV"),
        "{err}"
    );
    // Its stderr is shown.
    assert_contains(&err, "checking ");
    let last = out.json();
    assert_eq!(last["status"], "error", "{last}");
    // No case was blamed on the program.
    assert!(!out.stdout().contains("\"verdict\""), "{}", out.stdout());
}

#[test]
fn a_checker_failure_exit_3_is_a_harness_error_with_its_message() {
    let dir = workspace();
    let d = dir.path();
    let cases = cases(d);
    // A broken answer file: the identity has every point fixed.
    fs::write(cases.join("5.ans"), "1 2 3 4 5\n").unwrap();
    let out = test_cases(d)
        .args(["--checker", "checker.cpp", "--junit", "report.xml"])
        .program(["right.cpp"])
        .run()
        .code(2);
    let err = out.stderr();
    assert_contains(
        &err,
        "running 5.in: the checker checker.cpp failed: exit code 3 (testlib's FAIL): \
         FAIL p[1] = 1 is a fixed point",
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
    let kattis =
        |checker: &str| test_cases(d).args(["--checker", checker, "--checker-protocol", "kattis"]);
    let validator = |program: &str| {
        kattis("kattis_validator.py")
            .arg("--json")
            .program([program])
            .run()
    };
    validator("right.cpp").success();
    let wrong = validator("wrong.cpp").code(1);
    let cases = case_objects(&wrong);
    let c = case(&cases, "7.in");
    assert_eq!(c["verdict"], "WA", "{c}");
    // The message is judgemessage.txt's.
    assert_eq!(c["detail"], "position 7 holds 7: a fixed point", "{c}");
    // Exit 0 is not acceptance in this protocol: a judge error, the harness's.
    let zero = kattis("python3 -c 'raise SystemExit(0)'")
        .program(["right.cpp"])
        .run()
        .code(2);
    assert_contains(
        &zero.stderr(),
        "the checker python3 failed: exit code 0, not 42 (accepted)",
    );
    // The protocol needs a checker.
    test_cases(d)
        .args(["--checker-protocol", "kattis"])
        .program(["right.cpp"])
        .run()
        .code(2);
}

#[test]
fn stress_judges_through_the_checker_and_still_minimizes() {
    let dir = workspace();
    let d = dir.path();
    let stress = |program: &str| {
        duipai(d)
            .args(["stress", "derangement", "--generator", "gen.py"])
            .args(["--reference", "brute.py", "--validator", "validator.py"])
            .args(["--checker", "checker.cpp", "--json"])
            .program([program])
    };
    stress("right.cpp")
        .args(["--iterations", "4"])
        .run()
        .success();
    let failed = stress("wrong.cpp").run().code(1);
    let report = failed.json();
    assert_eq!(report["verdict"], "WA", "{report}");
    // The smallest odd n the validator allows.
    assert_eq!(report["detail"], "wrong answer p[3] = 3 is a fixed point");
    assert_eq!(report["one_minimal"], true, "{report}");
    let input = report["input"].as_str().unwrap();
    assert_eq!(fs::read_to_string(d.join(input)).unwrap(), "3\n");
    // The replay judges the saved case through the same checker.
    let replay = report["replay"].as_str().unwrap();
    assert_contains(replay, " --checker checker.cpp ");
    duipai(d)
        .args(["test", "derangement", input, "--checker", "checker.cpp"])
        .program(["wrong.cpp"])
        .run()
        .code(1);
}

#[test]
fn a_checker_failure_in_stress_is_a_harness_error_naming_the_seed() {
    let dir = workspace();
    let d = dir.path();
    let out = duipai(d)
        .args(["stress", "derangement", "--generator", "gen.py"])
        .args(["--reference", "brute.py", "--checker", "crash_checker.py"])
        .args(["-j", "1"])
        .program(["right.cpp"])
        .run()
        .code(2);
    let err = out.stderr();
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

/// A reference that fails on n = 9.
fn flaky_reference(dir: &Path) {
    fs::write(
        dir.join("flaky.py"),
        "import sys\nn = int(input())\nif n == 9:\n    sys.exit('no answer for 9')\n\
         print(*[i % n + 1 for i in range(1, n + 1)])\n",
    )
    .unwrap();
}

#[test]
fn test_takes_the_answers_an_input_lacks_from_the_reference() {
    let dir = workspace();
    let d = dir.path();
    hand_written(d);
    // Exact comparison with the reference's answers: the reference itself passes.
    let out = test_hand(d)
        .args(["--reference", "brute.py", "--json"])
        .program(["brute.py"])
        .run()
        .success();
    let err = out.stderr();
    assert_eq!(
        err.matches("2 of 4 answers come from the reference brute.py")
            .count(),
        1,
        "{err}"
    );
    let cases = case_objects(&out);
    assert_eq!(case(&cases, "9.in")["expected"], rotation(9).trim_end());
    // With the checker, any derangement passes.
    test_hand(d)
        .args(["--reference", "brute.py", "--checker", "checker.cpp"])
        .program(["sol.py"])
        .run()
        .success();
    // Without a reference, an input without an answer stops the run, saying what to give.
    let without = test_hand(d).program(["brute.py"]).run().code(2);
    assert_contains(&without.stderr(), "give one with --reference");
}

#[test]
fn a_reference_that_fails_on_an_input_is_a_harness_error_naming_it() {
    let dir = workspace();
    let d = dir.path();
    hand_written(d);
    flaky_reference(d);
    let out = test_hand(d)
        .args(["--reference", "flaky.py"])
        .program(["brute.py"])
        .run()
        .code(2);
    let err = out.stderr();
    assert_contains(
        &err,
        "hand/9.in: the reference flaky.py failed: RE (exit code 1)",
    );
    assert_contains(&err, "no answer for 9");
}

#[test]
fn answers_writes_the_missing_answer_files_and_nothing_else() {
    let dir = workspace();
    let d = dir.path();
    let hand = hand_written(d);
    flaky_reference(d);
    // The reference fails on 9.in: the others are written, and the command fails naming it.
    let first = answers_hand(d)
        .args(["--reference", "flaky.py"])
        .run()
        .code(2);
    assert_eq!(first.stdout().lines().next(), Some("wrote hand/5.ans"));
    assert_contains(&first.stderr(), "hand/9.in: the reference flaky.py failed");
    assert_eq!(fs::read_to_string(hand.join("5.ans")).unwrap(), rotation(5));
    assert!(!hand.join("9.ans").exists());
    // Existing answers stay as they are.
    assert_eq!(fs::read_to_string(hand.join("2.ans")).unwrap(), "2 1\n");
    assert!(!hand.join("4.ans").exists());

    let brute = answers_hand(d).args(["--reference", "brute.py"]);
    let second = brute.run().success();
    assert_eq!(
        second.stdout(),
        "wrote hand/9.ans\n1 answer file from the reference brute.py; 3 inputs had one already\n"
    );
    let third = brute.run().success();
    assert!(
        third.stdout().starts_with("nothing to write"),
        "{}",
        third.stdout()
    );

    // A problem duipai does not know has no answers of its own.
    fs::write(hand.join("11.in"), "11\n").unwrap();
    let no_reference = answers_hand(d).run().code(2);
    assert!(no_reference.stderr().contains("give --reference"));
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
    duipai(d)
        .args(["answers", "derangement", "tests", "--reference", "brute.py"])
        .run()
        .success();
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
    duipai(d)
        .args(["answers", "chess", "chess"])
        .run()
        .success();
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
    let test_chess = || duipai(d).args(["test", "chess", "chess"]);
    // duipai-checker is a testlib checker: its message is the detail.
    let checked = test_chess()
        .arg("--checker")
        .arg(duipai_checker())
        .arg("--json")
        .fixture(["wrong", "chess"])
        .run()
        .code(1);
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
    let reference = format!("{} wrong chess", crate::util::fixture().display());
    let judged = test_chess()
        .args(["--reference", &reference, "--json"])
        .fixture(["correct", "chess"])
        .run()
        .code(1);
    assert_contains(
        &judged.stderr(),
        "2 of 8 answers come from the reference duipai-fixture",
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
    // Values up to 100 rather than 100000: a few dozen minimizing runs rather than hundreds,
    // each with the checker's run beside the program's.
    let stress = |save: &str| {
        duipai(d)
            .args([
                "stress",
                "chess",
                "--max-value",
                "100",
                "--json",
                "--no-replay",
            ])
            .args(["--save", save])
            .fixture(["greedy", "chess"])
    };
    let plain = stress("plain").run();
    let checked = stress("checked")
        .arg("--checker")
        .arg(duipai_checker())
        .run();
    let (plain, checked) = (plain.code(1).json(), checked.code(1).json());
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
