//! The reports CI reads, end to end: `--json` is JSON Lines whose every object carries the
//! schema version, `test`'s case objects carry the expected and the actual output, and the
//! `--junit` files of `test` and `stress`, read back with the `junitparser` Python package,
//! say what happened, a harness error included.

use std::fs;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::util::{Duipai, Ran, assert_contains};

/// Reads a JUnit report with `tests/e2e/junit_check.py` (the `junitparser` package), which
/// also checks that the report's totals agree with its test cases. It runs the `python3` of
/// the tests' own PATH, shims and all: where `python3 -m pip install junitparser` put it (the
/// programs under test may run another, see `util::path_without_shims`).
pub(crate) fn junit_check(report: &Path) -> Value {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/e2e/junit_check.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(report)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run python3 ({e}): the JUnit reports are read with Python 3 and the \
                 junitparser package; install Python 3, then `python3 -m pip install junitparser`"
            )
        });
    let err = String::from_utf8_lossy(&out.stderr);
    assert_ne!(
        out.status.code(),
        Some(3),
        "install the junitparser Python package: python3 -m pip install junitparser\n{err}"
    );
    assert!(
        out.status.success(),
        "{} is not a consistent JUnit report: {err}\n{}",
        report.display(),
        fs::read_to_string(report).unwrap_or_default()
    );
    serde_json::from_slice(&out.stdout).expect("junit_check.py prints JSON")
}

/// The test cases of the report's only suite.
pub(crate) fn junit_cases(report: &Value) -> &Vec<Value> {
    let suites = report["suites"].as_array().expect("suites");
    assert_eq!(suites.len(), 1, "{report}");
    suites[0]["cases"].as_array().expect("cases")
}

/// Every stdout line, parsed as JSON; each must be an object.
fn json_lines(out: &Ran) -> Vec<Value> {
    out.stdout()
        .lines()
        .map(|line| {
            let value: Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("not a JSON line ({e}): {line:?}"));
            assert!(value.is_object(), "{line}");
            value
        })
        .collect()
}

/// Three chess cases: `a.in` with a wrong answer file, `b.in` right, `c.in` left to the
/// reference solver.
fn case_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("a.in"), "2 3\n2 7 3\n9 1 2\n3 7 2\n2 3 1\n").unwrap();
    fs::write(dir.path().join("a.ans"), "3\n").unwrap();
    fs::write(dir.path().join("b.in"), "1 1\n7\n3\n").unwrap();
    fs::write(dir.path().join("b.ans"), "7\n").unwrap();
    fs::write(dir.path().join("c.in"), "1 2\n4 1\n0 9\n").unwrap();
    dir
}

#[test]
fn test_json_is_json_lines_with_schema_expected_and_actual() {
    let dir = case_dir();
    let out = Duipai::in_dir(dir.path())
        .args(["test", "chess", ".", "--json"])
        .fixture(["correct", "chess"])
        .run()
        .code(1);
    let lines = json_lines(&out);
    assert_eq!(
        lines.len(),
        4,
        "three cases, then the summary: {}",
        out.stdout()
    );
    for line in &lines {
        assert_eq!(line["schema"], 1, "{line}");
    }
    let names: Vec<&str> = lines[..3]
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["a.in", "b.in", "c.in"]);
    // The expected answer and the output alike, each without its final line break.
    assert_eq!(lines[0]["verdict"], "WA");
    assert_eq!(lines[0]["expected"], "3");
    assert_eq!(lines[0]["actual"], "2");
    assert_eq!(
        (&lines[1]["expected"], &lines[1]["actual"]),
        (&"7".into(), &"7".into())
    );
    // The reference solver's answer, and the same text the fixture prints.
    let reference = lines[2]["expected"].as_str().unwrap();
    assert_eq!(lines[2]["actual"], reference);
    let summary = &lines[3];
    assert_eq!(summary["status"], "failed");
    assert_eq!(
        (summary["passed"].as_u64(), summary["failed"].as_u64()),
        (Some(2), Some(1))
    );
    // The summary's case objects are the same records, without the schema of a line.
    assert_eq!(summary["cases"][0]["expected"], "3");
    assert!(summary["cases"][0].get("schema").is_none());
}

#[test]
fn test_json_actual_is_an_excerpt_that_says_how_much_is_cut() {
    let dir = case_dir();
    // 10000 bytes of output: a presentation error whose output is cut in the report.
    let flood = "cat >/dev/null; head -c 10000 /dev/zero | tr '\\0' 7";
    let out = Duipai::in_dir(dir.path())
        .args(["test", "chess", "b.in", "--json"])
        .program(["sh", "-c", flood])
        .run()
        .code(1);
    let lines = json_lines(&out);
    let case = &lines[0];
    assert_eq!(case["verdict"], "PE", "{case}");
    assert_eq!(case["expected"], "7");
    // One line of 10000 bytes: its start, and how much of it is not shown.
    assert_eq!(
        case["actual"],
        format!("{} … (9.6 KiB more)", "7".repeat(160))
    );
    assert_eq!(case["actual_bytes"], 10000);
}

#[test]
fn stress_json_and_error_lines_carry_the_schema() {
    let dir = tempfile::tempdir().unwrap();
    let duipai = || Duipai::in_dir(dir.path());
    let stress = || duipai().args(["stress", "chess", "--json"]);
    let passed = stress()
        .args(["--iterations", "5"])
        .fixture(["correct", "chess"])
        .run();
    let failed = stress()
        .arg("--no-shrink")
        .fixture(["wrong", "chess"])
        .run();
    let usage = stress().args(["-j", "0"]).program(["true"]).run();
    let harness = duipai()
        .args(["test", "chess", "no-such-dir", "--json"])
        .program(["true"])
        .run();
    for (out, status, exit) in [
        (passed, "ok", 0),
        (failed, "failed", 1),
        (usage, "error", 2),
        (harness, "error", 2),
    ] {
        let out = out.code(exit);
        let lines = json_lines(&out);
        assert_eq!(lines.len(), 1, "{}", out.stdout());
        assert_eq!(lines[0]["schema"], 1, "{}", lines[0]);
        assert_eq!(lines[0]["status"], status, "{}", lines[0]);
        // The schema comes first, so that a reader can dispatch on it.
        assert!(
            out.stdout().starts_with("{\"schema\":1,"),
            "{}",
            out.stdout()
        );
    }
}

#[test]
fn json_lines_are_said_in_the_help() {
    for command in ["test", "stress"] {
        let help = Duipai::new().args([command, "--help"]).run().stdout();
        assert!(help.contains("JSON Lines"), "{command}: {help}");
        assert!(help.contains("\"schema\": 1"), "{command}: {help}");
    }
}

#[test]
fn test_junit_is_rewritten_on_a_harness_error() {
    let dir = case_dir();
    fs::write(dir.path().join("a.ans"), "2\n").unwrap();
    let report = dir.path().join("report.xml");
    let test = || Duipai::in_dir(dir.path()).args(["test", "chess", "."]);
    test()
        .args(["--junit", "report.xml"])
        .fixture(["correct", "chess"])
        .run()
        .success();
    let green = junit_check(&report);
    assert_eq!(
        (green["tests"].as_u64(), green["failures"].as_u64()),
        (Some(3), Some(0))
    );

    // The next run cannot start its program: the green report must not survive it.
    test()
        .args(["--junit", "report.xml"])
        .program(["./no-such-program"])
        .run()
        .code(2);
    let red = junit_check(&report);
    assert_eq!(
        (red["tests"].as_u64(), red["errors"].as_u64()),
        (Some(1), Some(1)),
        "{red}"
    );
    let case = &junit_cases(&red)[0];
    assert!(
        case["name"]
            .as_str()
            .unwrap()
            .starts_with("harness error: "),
        "{case}"
    );
    assert!(
        case["name"].as_str().unwrap().contains("no-such-program"),
        "{case}"
    );
    let result = &case["results"][0];
    assert_eq!(result["kind"], "error");
    assert!(
        result["message"]
            .as_str()
            .unwrap()
            .contains("no-such-program"),
        "{case}"
    );
    assert!(
        result["text"].as_str().unwrap().contains("status 2"),
        "{case}"
    );

    // A usage error clap refuses (`-j 0`), and a missing case directory, rewrite it too.
    let usage = test().args(["-j", "0", "--junit=report.xml"]);
    let missing =
        Duipai::in_dir(dir.path()).args(["test", "chess", "nowhere", "--junit", "report.xml"]);
    for (run, says) in [(usage, "--jobs"), (missing, "nowhere")] {
        fs::copy(dir.path().join("report.xml"), dir.path().join("before.xml")).unwrap();
        run.program(["true"]).run().code(2);
        let red = junit_check(&report);
        let case = &junit_cases(&red)[0];
        assert!(
            case["results"][0]["message"]
                .as_str()
                .unwrap()
                .contains(says),
            "{case}"
        );
    }
}

#[test]
fn a_harness_error_never_writes_over_a_file_that_is_not_a_report() {
    let dir = case_dir();
    fs::write(dir.path().join("notes.txt"), "mine\n").unwrap();
    for args in [
        &["test", "chess", "nowhere", "--junit", "notes.txt"][..],
        &["stress", "chess", "-j", "0", "--junit", "notes.txt"],
        &["stress", "chess", "--junit", "notes.txt"],
    ] {
        Duipai::in_dir(dir.path())
            .args(args)
            .program(["true"])
            .run()
            .code(2);
        assert_eq!(
            fs::read_to_string(dir.path().join("notes.txt")).unwrap(),
            "mine\n"
        );
    }
    // And a report path in a directory that does not exist is only an error.
    Duipai::in_dir(dir.path())
        .args(["test", "chess", "nowhere", "--junit", "no/dir/r.xml"])
        .program(["true"])
        .run()
        .code(2);
    assert!(!dir.path().join("no").exists());
}

#[test]
fn stress_junit_has_one_case_for_a_passing_run() {
    let dir = tempfile::tempdir().unwrap();
    Duipai::in_dir(dir.path())
        .args(["stress", "chess", "--seed", "7", "--iterations", "20"])
        .args(["--junit", "r.xml"])
        .fixture(["correct", "chess"])
        .run()
        .success();
    let report = junit_check(&dir.path().join("r.xml"));
    let cases = junit_cases(&report);
    assert_eq!(cases.len(), 1, "{report}");
    assert_eq!(cases[0]["passed"], true);
    assert_eq!(
        cases[0]["name"],
        "stress chess: 20 cases passed (seeds 7..=26)"
    );
    assert!(
        cases[0]["system_out"]
            .as_str()
            .unwrap()
            .contains("no failure in 20 cases"),
        "{report}"
    );
}

#[test]
fn stress_junit_shows_the_failing_seed_with_its_case_replay_and_stderr() {
    let dir = tempfile::tempdir().unwrap();
    // crash-max aborts with a message on stderr on 10×10 boards only, so the case stays 10×10.
    let stress = Duipai::in_dir(dir.path())
        .args(["stress", "chess", "--n", "10", "--m", "10", "--no-shrink"])
        .args(["-j", "1", "--junit", "r.xml"])
        .fixture(["crash-max", "chess"]);
    stress.run().code(1);
    let report = junit_check(&dir.path().join("r.xml"));
    assert_eq!(
        (report["tests"].as_u64(), report["failures"].as_u64()),
        (Some(1), Some(1))
    );
    let case = &junit_cases(&report)[0];
    assert_eq!(case["name"], "seed 1");
    let failure = &case["results"][0];
    assert_eq!(
        (&failure["kind"], &failure["type"]),
        (&"failure".into(), &"RE".into())
    );
    assert!(
        failure["message"]
            .as_str()
            .unwrap()
            .starts_with("RE killed by SIGABRT")
    );
    let text = failure["text"].as_str().unwrap();
    let input = fs::read_to_string(dir.path().join("duipai-failures/chess-1.in")).unwrap();
    for line in input.lines() {
        assert!(
            text.contains(line),
            "the case's line {line:?} is missing:\n{text}"
        );
    }
    assert_contains(
        text,
        "replay: duipai test chess duipai-failures/chess-1.in --",
    );
    assert_contains(
        text,
        "duipai stress chess --n 10 --m 10 --seed 1 --iterations 1",
    );
    assert!(
        case["system_err"]
            .as_str()
            .unwrap()
            .contains("crashing on a board of the maximum size"),
        "{case}"
    );

    // Run again: the saved case is replayed first, is a test case of its own, and, still
    // failing, is the report: nothing is searched.
    stress.run().code(1);
    let report = junit_check(&dir.path().join("r.xml"));
    let names: Vec<&str> = junit_cases(&report)
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["replay duipai-failures/chess-1.in"], "{report}");
    assert_eq!(report["failures"], 1);
}

#[test]
fn stress_junit_is_rewritten_on_a_harness_error() {
    let dir = tempfile::tempdir().unwrap();
    let stress = || {
        Duipai::in_dir(dir.path())
            .args(["stress", "chess", "--iterations", "3"])
            .args(["--junit", "r.xml"])
    };
    stress().fixture(["correct", "chess"]).run().success();
    assert_eq!(junit_check(&dir.path().join("r.xml"))["failures"], 0);
    stress().program(["./no-such-program"]).run().code(2);
    let report = junit_check(&dir.path().join("r.xml"));
    assert_eq!(
        (report["tests"].as_u64(), report["errors"].as_u64()),
        (Some(1), Some(1))
    );
    let case = &junit_cases(&report)[0];
    assert!(
        case["name"].as_str().unwrap().contains("no-such-program"),
        "{case}"
    );
}

/// A stress run whose stderr is not a terminal (a CI log) is never silent for long: a plain
/// progress line every --progress-every seconds.
#[test]
fn stress_in_a_log_prints_a_progress_line_every_so_often() {
    let dir = tempfile::tempdir().unwrap();
    // Five periods of searching: a line is due after the first.
    let out = Duipai::in_dir(dir.path())
        .args(["stress", "chess", "--time", "0.5"])
        .args(["--progress-every", "0.1"])
        .fixture(["correct", "chess"])
        .run()
        .success();
    let lines: Vec<String> = out
        .stderr()
        .lines()
        .filter(|l| l.starts_with("duipai: ") && l.contains(" cases, ") && l.ends_with(" s"))
        .map(str::to_string)
        .collect();
    assert!(!lines.is_empty(), "no progress line: {}", out.stderr());
}
