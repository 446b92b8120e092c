//! The checker binary under both protocols: every exit status it can give, and its messages.

use std::ffi::OsStr;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const CHESS_SAMPLE: &str = "2 3\n2 7 3\n9 1 2\n3 7 2\n2 3 1\n";

struct Files {
    dir: tempfile::TempDir,
}

impl Files {
    fn new() -> Files {
        Files {
            dir: tempfile::tempdir().unwrap(),
        }
    }
    fn put(&self, name: &str, contents: &[u8]) -> PathBuf {
        let path = self.dir.path().join(name);
        fs::write(&path, contents).unwrap();
        path
    }
    fn path(&self) -> &Path {
        self.dir.path()
    }
    /// The file `name` as text, `None` if it was not written.
    fn read(&self, name: &str) -> Option<String> {
        fs::read_to_string(self.dir.path().join(name)).ok()
    }
}

/// Runs the checker on `args` (paths and words alike) with `stdin`.
fn checker(args: &[&dyn AsRef<OsStr>], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_duipai-checker"))
        .args(args.iter().map(|a| a.as_ref()))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A checker that fails early (a missing feedback directory) exits without reading its
    // stdin; the broken pipe that causes here is expected, not a test failure.
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait_with_output().unwrap()
}

/// Runs the testlib protocol on (output, answer) and returns (exit code, stderr).
fn testlib(output: &[u8], answer: &[u8]) -> (i32, String) {
    let f = Files::new();
    let input = f.put("chess.in", CHESS_SAMPLE.as_bytes());
    let out = f.put("chess.out", output);
    let ans = f.put("chess.ans", answer);
    let res = checker(&[&input, &out, &ans], b"");
    (
        res.status.code().unwrap(),
        String::from_utf8_lossy(&res.stderr).trim().to_string(),
    )
}

#[test]
fn testlib_accepts_equal_answers() {
    assert_eq!(testlib(b"2\n", b"2\n"), (0, "ok answer is 2".into()));
    assert_eq!(
        testlib(b"  -7 \r\n\n", b"-7"),
        (0, "ok answer is -7".into())
    );
}

#[test]
fn testlib_rejects_a_different_answer() {
    assert_eq!(
        testlib(b"3\n", b"2\n"),
        (1, "wrong answer expected 2, found 3".into())
    );
}

#[test]
fn testlib_flags_malformed_output_as_presentation_error() {
    for output in [
        &b""[..],
        b"2 3\n",
        b"two\n",
        b"2.0\n",
        b"\xff\xfe",
        b"99999999999999999999",
    ] {
        let (code, message) = testlib(output, b"2\n");
        assert_eq!(code, 2, "output {output:?}: {message}");
        assert!(message.starts_with("wrong output format"), "{message}");
    }
}

#[test]
fn testlib_fails_on_a_bad_answer_file() {
    let (code, message) = testlib(b"2\n", b"not a number\n");
    assert_eq!(code, 3);
    assert!(message.starts_with("FAIL answer file"), "{message}");
}

#[test]
fn a_missing_output_is_a_presentation_error_and_bad_usage_fails() {
    let f = Files::new();
    let input = f.put("chess.in", CHESS_SAMPLE.as_bytes());
    let missing = f.path().join("nope.out");
    // As testlib: no output file is the contestant's presentation error.
    let res = checker(&[&input, &missing, &input], b"");
    assert_eq!(res.status.code(), Some(2));
    let err = String::from_utf8_lossy(&res.stderr);
    assert!(
        err.starts_with("wrong output format Output file not found: \""),
        "{err}"
    );
    // A missing answer file is the checker's failure.
    let out = f.put("chess.out", b"2\n");
    let res = checker(&[&input, &out, &missing], b"");
    assert_eq!(res.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&res.stderr).contains("cannot read answer"));
    // Too few arguments: a usage error must not read as exit 2 (presentation error).
    let res = checker(&[&input], b"");
    assert_eq!(res.status.code(), Some(3));
}

#[test]
fn recomputes_the_answer_with_the_reference_solver() {
    let f = Files::new();
    let input = f.put("chess.in", CHESS_SAMPLE.as_bytes());
    let good = f.put("good.out", b"2\n");
    let bad = f.put("bad.out", b"12\n");
    let flag = "--problem=chess";
    let res = checker(&[&flag, &input, &good, &"-"], b"");
    assert_eq!(res.status.code(), Some(0));
    let res = checker(&[&flag, &input, &bad, &"-"], b"");
    assert_eq!(res.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&res.stderr).contains("expected 2, found 12"));
    // `-` without --problem cannot be decided.
    let res = checker(&[&input, &good, &"-"], b"");
    assert_eq!(res.status.code(), Some(3));
    // An invalid input is the checker's failure, not the contestant's.
    let broken = f.put("broken.in", b"2 3\n1 2\n");
    let res = checker(&[&flag, &broken, &good, &"-"], b"");
    assert_eq!(res.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&res.stderr).contains("line"));
}

/// Runs the Kattis protocol and returns (exit code, judgemessage.txt).
fn kattis(output: &[u8], answer: &[u8]) -> (i32, String) {
    let f = Files::new();
    let input = f.put("chess.in", CHESS_SAMPLE.as_bytes());
    let ans = f.put("chess.ans", answer);
    let feedback = f.path().join("feedback");
    fs::create_dir(&feedback).unwrap();
    let res = checker(&[&"--protocol=kattis", &input, &ans, &feedback], output);
    let message = fs::read_to_string(feedback.join("judgemessage.txt")).unwrap_or_default();
    (res.status.code().unwrap(), message.trim().to_string())
}

#[test]
fn kattis_protocol_accepts_and_rejects() {
    assert_eq!(kattis(b"2\n", b"2\n"), (42, "ok answer is 2".into()));
    assert_eq!(
        kattis(b"5\n", b"2\n"),
        (43, "wrong answer expected 2, found 5".into())
    );
    let (code, message) = kattis(b"2 2\n", b"2\n");
    assert_eq!(code, 43);
    assert!(message.starts_with("wrong output format"), "{message}");
    // A broken answer file is a judge error: neither 42 nor 43, and no judge message.
    let (code, message) = kattis(b"2\n", b"?\n");
    assert_eq!((code, message.as_str()), (1, ""));
}

#[test]
fn kattis_protocol_needs_an_existing_feedback_directory() {
    let f = Files::new();
    let input = f.put("chess.in", CHESS_SAMPLE.as_bytes());
    let ans = f.put("chess.ans", b"2\n");
    let missing = f.path().join("no-such-dir");
    let res = checker(&[&"--protocol=kattis", &input, &ans, &missing], b"2\n");
    assert_eq!(res.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&res.stderr);
    assert!(
        stderr.contains("FAIL feedback directory") && stderr.contains("does not exist"),
        "{stderr}"
    );
    assert!(!missing.exists(), "nothing is created in its place");
}

/// One Kattis-protocol run whose checker must fail: (exit code, judgeerror.txt,
/// judgemessage.txt, stderr).
fn kattis_failure(args: &[&str], stdin: &[u8]) -> (i32, Option<String>, Option<String>, String) {
    let f = Files::new();
    f.put("chess.in", CHESS_SAMPLE.as_bytes());
    f.put("broken.in", b"2 3\n1 2\n");
    f.put("good.ans", b"2\n");
    f.put("bad.ans", b"two\n");
    f.put("zero.ans", b"012\n");
    fs::create_dir(f.path().join("feedback")).unwrap();
    let mut full: Vec<std::ffi::OsString> = Vec::new();
    for arg in args {
        // Names of files in the test directory become paths in it; other words stay.
        if arg.ends_with(".in") || arg.ends_with(".ans") || *arg == "feedback" {
            full.push(f.path().join(arg).into_os_string());
        } else {
            full.push(arg.into());
        }
    }
    let full: Vec<&dyn AsRef<OsStr>> = full.iter().map(|a| a as _).collect();
    let res = checker(&full, stdin);
    let feedback = f.path().join("feedback");
    (
        res.status.code().unwrap(),
        fs::read_to_string(feedback.join("judgeerror.txt")).ok(),
        fs::read_to_string(feedback.join("judgemessage.txt")).ok(),
        String::from_utf8_lossy(&res.stderr).into_owned(),
    )
}

/// Every way the checker can fail under the Kattis protocol ends the same: exit 1 (neither
/// 42 nor 43, so the judge reports a judge error), the reason in `judgeerror.txt` in the
/// feedback directory and on stderr, and no `judgemessage.txt` (which would read as a
/// verdict on the contestant).
#[test]
fn every_kattis_checker_failure_writes_judgeerror_and_exits_1() {
    let kattis = "--protocol=kattis";
    let cases: &[(&str, &[&str], &str)] = &[
        (
            "a missing answer file",
            &[kattis, "chess.in", "none.ans", "feedback"],
            "cannot read answer",
        ),
        (
            "a malformed answer file",
            &[kattis, "chess.in", "bad.ans", "feedback"],
            "answer file is not one integer",
        ),
        (
            "an answer file testlib would not read",
            &[kattis, "chess.in", "zero.ans", "feedback"],
            "leading zeros are not allowed",
        ),
        (
            "an endless answer file",
            &[kattis, "chess.in", "/dev/zero", "feedback"],
            "larger than 16 MiB",
        ),
        (
            "an answer of `-` without --problem",
            &[kattis, "chess.in", "-", "feedback"],
            "needs --problem",
        ),
        (
            "a missing input that is needed",
            &[kattis, "--problem=chess", "none.in", "-", "feedback"],
            "cannot read input",
        ),
        (
            "an invalid input that is needed",
            &[kattis, "--problem=chess", "broken.in", "-", "feedback"],
            "input file is invalid",
        ),
        (
            "bad usage: an unknown problem",
            &[kattis, "--problem=nope", "chess.in", "-", "feedback"],
            "invalid value 'nope'",
        ),
        (
            "bad usage, with the protocol as two words",
            &[
                "--protocol",
                "kattis",
                "--problem",
                "nope",
                "chess.in",
                "-",
                "feedback",
            ],
            "invalid value 'nope'",
        ),
    ];
    for (what, args, reason) in cases {
        let (code, error, message, stderr) = kattis_failure(args, b"2\n");
        assert_eq!(code, 1, "{what}: {stderr}");
        let error = error.unwrap_or_else(|| panic!("{what}: no judgeerror.txt; stderr {stderr}"));
        assert!(
            error.contains(reason),
            "{what}: judgeerror.txt says {error:?}"
        );
        assert!(
            error.ends_with('\n') && error.lines().count() == 1,
            "{what}: {error:?}"
        );
        assert!(stderr.contains(reason), "{what}: {stderr}");
        assert_eq!(message, None, "{what}: a judgemessage.txt was written");
    }
    // The same answer files decide nothing under testlib either: 3, the testlib failure.
    for answer in ["bad.ans", "zero.ans", "none.ans"] {
        let (code, _, _, stderr) = kattis_failure(&["chess.in", "good.ans", answer], b"");
        assert_eq!(code, 3, "{answer}: {stderr}");
        assert!(stderr.starts_with("FAIL "), "{stderr}");
    }
}

/// testlib's integer reader is the rule: `0011`, `+12` and `-0` are presentation errors
/// (exit 2), with the reason, and `duipai test` (through `verdict::compare`) says the same.
#[test]
fn integers_are_read_as_testlib_reads_them_and_test_agrees() {
    use duipai::judge::Expected;
    use duipai::judge::verdict::{Verdict, compare};
    use duipai::run::Captured;
    let table: &[(&[u8], i32, Verdict, &str)] = &[
        (b"12\n", 0, Verdict::Accepted, "ok answer is 12"),
        (
            b"13\n",
            1,
            Verdict::WrongAnswer,
            "wrong answer expected 12, found 13",
        ),
        (
            b"0012\n",
            2,
            Verdict::PresentationError,
            "wrong output format expected an integer, found \"0012\": leading zeros are not allowed",
        ),
        (
            b"+12\n",
            2,
            Verdict::PresentationError,
            "wrong output format expected an integer, found \"+12\": a leading '+' is not allowed",
        ),
        // testlib skips a byte-order mark at the start of the output.
        (b"\xEF\xBB\xBF12\n", 0, Verdict::Accepted, "ok answer is 12"),
        // Its blanks are space, tab, CR and LF: a form feed is part of the token.
        (
            b"12\x0C\n",
            2,
            Verdict::PresentationError,
            "wrong output format expected an integer, found \"12\\x0C\": \\x0C is not a digit",
        ),
    ];
    for &(output, code, verdict, message) in table {
        assert_eq!(testlib(output, b"12\n"), (code, message.to_string()));
        assert_eq!(
            compare(&Captured::from(output.to_vec()), &Expected::integer(12)).verdict,
            verdict,
            "{message}"
        );
    }
    // `-0` against an answer of 0: still a presentation error, as testlib's reader has it.
    assert_eq!(testlib(b"-0", b"0").0, 2);
    assert_eq!(
        compare(&Captured::from(b"-0".to_vec()), &Expected::integer(0)).verdict,
        Verdict::PresentationError
    );
    // An answer file that testlib would not read is the checker's failure, not the contestant's.
    let (code, message) = testlib(b"12\n", b"012\n");
    assert_eq!(code, 3);
    assert!(
        message.contains("leading zeros are not allowed"),
        "{message}"
    );
}

#[test]
fn a_missing_input_fails_the_checker_when_it_is_needed() {
    let f = Files::new();
    let missing = f.path().join("no-such.in");
    let out = f.put("chess.out", b"2\n");
    let ans = f.put("chess.ans", b"2\n");
    // Needed: the answer is recomputed from it.
    let res = checker(&[&"--problem=chess", &missing, &out, &"-"], b"");
    assert_eq!(res.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&res.stderr);
    assert!(stderr.starts_with("FAIL cannot read input"), "{stderr}");
    assert!(stderr.contains("no-such.in"), "{stderr}");
    // Not needed (an answer file is given): the checker decides without it.
    let res = checker(&[&missing, &out, &ans], b"");
    assert_eq!(res.status.code(), Some(0));
}

/// Runs `--protocol=lemon FLAGS INPUT OUTPUT ANSWER FULL score message`: the score and the
/// message files are `score` and `message` in `f`.
fn lemon_run(f: &Files, flags: &[&str], files: [&dyn AsRef<OsStr>; 3], full: &str) -> Output {
    let (score, message) = (f.path().join("score"), f.path().join("message"));
    let mut args: Vec<&dyn AsRef<OsStr>> = vec![&"--protocol=lemon"];
    args.extend(flags.iter().map(|a| a as &dyn AsRef<OsStr>));
    args.extend(files);
    args.extend([&full as &dyn AsRef<OsStr>, &score, &message]);
    checker(&args, b"")
}

/// Runs the Lemon protocol with a full score of 10 and returns (exit code, score file,
/// message file), each file `None` if it was not written.
fn lemon(extra: &[&str], output: &[u8], answer: &[u8]) -> (i32, Option<String>, Option<String>) {
    let f = Files::new();
    let input = f.put("chess.in", CHESS_SAMPLE.as_bytes());
    let out = f.put("chess.out", output);
    let ans = f.put("chess.ans", answer);
    let res = lemon_run(&f, extra, [&input, &out, &ans], "10");
    (
        res.status.code().unwrap(),
        f.read("score"),
        f.read("message"),
    )
}

#[test]
fn lemon_protocol_writes_the_score_and_the_message() {
    assert_eq!(
        lemon(&[], b"2\n", b"2\n"),
        (0, Some("10\n".into()), Some("ok answer is 2\n".into()))
    );
    assert_eq!(
        lemon(&[], b"3\n", b"2\n"),
        (
            0,
            Some("0\n".into()),
            Some("wrong answer expected 2, found 3\n".into())
        )
    );
    let (code, score, message) = lemon(&[], b"002\n", b"2\n");
    assert_eq!((code, score.as_deref()), (0, Some("0\n")));
    assert!(
        message
            .unwrap()
            .starts_with("wrong output format expected an integer, found \"002\""),
    );
    // With --problem and `-`, the answer is recomputed (the sample's answer is 2).
    let f = Files::new();
    let input = f.put("chess.in", CHESS_SAMPLE.as_bytes());
    let out = f.put("chess.out", b"2\n");
    let res = lemon_run(&f, &["--problem=chess"], [&input, &out, &"-"], "7");
    assert_eq!(res.status.code(), Some(0));
    assert_eq!(f.read("score").as_deref(), Some("7\n"));
}

#[test]
fn lemon_protocol_reports_its_own_failures_with_a_nonzero_exit() {
    // A broken answer file: Lemon must see a special-judge error, not a zero for the contestant.
    let (code, score, message) = lemon(&[], b"2\n", b"two\n");
    assert_eq!(code, 3);
    assert_eq!(score.as_deref(), Some("0\n"));
    assert!(message.unwrap().starts_with("FAIL answer file"));

    let f = Files::new();
    let input = f.put("chess.in", CHESS_SAMPLE.as_bytes());
    let out = f.put("chess.out", b"2\n");
    let ans = f.put("chess.ans", b"2\n");
    // Too few arguments, and a full score that is not a number: usage failures (3).
    let res = checker(&[&"--protocol=lemon", &input, &out, &ans], b"");
    assert_eq!(res.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&res.stderr).contains("takes 6 arguments"));
    let res = lemon_run(&f, &[], [&input, &out, &ans], "+10");
    assert_eq!(res.status.code(), Some(3));
    assert!(
        String::from_utf8_lossy(&res.stderr).contains("full score must be a non-negative integer")
    );
    assert_eq!(f.read("score"), None, "nothing is scored on a usage error");
    // A missing output file (the program wrote none): the contestant's presentation error,
    // scored 0, as testlib judges it.
    let missing = f.path().join("none.out");
    let res = lemon_run(&f, &[], [&input, &missing, &ans], "10");
    assert_eq!(res.status.code(), Some(0));
    assert_eq!(f.read("score").as_deref(), Some("0\n"));
    assert!(
        f.read("message")
            .unwrap()
            .starts_with("wrong output format Output file not found")
    );
}

#[test]
fn endless_files_are_read_only_up_to_a_bound() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    std::fs::write(&input, "1 1\n1\n0\n").unwrap();
    let answer = dir.path().join("ans");
    std::fs::write(&answer, "1\n").unwrap();
    let zero = "/dev/zero";
    // An endless output is the contestant's: a presentation error.
    let out = checker(&[&input, &zero, &answer], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("larger than 16 MiB"));
    // An endless answer file is the judge's: a checker failure.
    let output = dir.path().join("out");
    std::fs::write(&output, "1\n").unwrap();
    let out = checker(&[&input, &output, &zero], b"");
    assert_eq!(out.status.code(), Some(3));
}

/// shooting's two-case sample-like input and its answers: reals within 1e-6.
const SHOOTING_INPUT: &str = "3\n2 1 1\n2\n1 2\n0\n";
const SHOOTING_ANSWER: &str = "0.555556\n0.333333\n";

/// What each protocol says about one shooting output, with the answer file or recomputed
/// (`-`): testlib's exit code, Kattis's exit code, Lemon's score out of 10 with its message.
fn shooting_verdicts(output: &[u8], answer: &str) -> (i32, i32, String, String) {
    let f = Files::new();
    let input = f.put("shooting.in", SHOOTING_INPUT.as_bytes());
    let out = f.put("shooting.out", output);
    let ans = if answer == "-" {
        std::path::PathBuf::from("-")
    } else {
        f.put("shooting.ans", answer.as_bytes())
    };
    let flag = "--problem=shooting";
    let testlib = checker(&[&flag, &input, &out, &ans], b"");
    let feedback = f.path().join("feedback");
    fs::create_dir(&feedback).unwrap();
    let kattis = checker(
        &[&"--protocol=kattis", &flag, &input, &ans, &feedback],
        output,
    );
    let lemon = lemon_run(&f, &[flag], [&input, &out, &ans], "10");
    assert_eq!(lemon.status.code(), Some(0));
    let testlib_message = String::from_utf8_lossy(&testlib.stderr).trim().to_string();
    let kattis_message = fs::read_to_string(feedback.join("judgemessage.txt")).unwrap();
    assert_eq!(kattis_message.trim(), testlib_message);
    assert_eq!(f.read("message").unwrap().trim(), testlib_message);
    (
        testlib.status.code().unwrap(),
        kattis.status.code().unwrap(),
        f.read("score").unwrap().trim().to_string(),
        testlib_message,
    )
}

#[test]
fn shooting_answers_are_reals_within_a_millionth_in_every_protocol() {
    for answer in [SHOOTING_ANSWER, "-"] {
        // Exact, and within 1e-6: accepted.
        for output in [
            &b"0.555556\n0.333333\n"[..],
            b"0.555557 0.3333335",
            b"5.55556e-1\n0.3333333\n",
        ] {
            let (testlib, kattis, score, message) = shooting_verdicts(output, answer);
            assert_eq!(
                (testlib, kattis, score.as_str()),
                (0, 42, "10"),
                "{output:?}: {message}"
            );
            assert_eq!(message, "ok 2 cases");
        }
        // Two decimals: a wrong answer that names its case.
        let (testlib, kattis, score, message) = shooting_verdicts(b"0.56\n0.33\n", answer);
        assert_eq!((testlib, kattis, score.as_str()), (1, 43, "0"));
        assert_eq!(
            message,
            "wrong answer case 1 of 2: expected 0.555556, found 0.56 (absolute error 4.44e-3, \
             relative error 8.00e-3, both above the tolerance 1e-6)"
        );
        // Two units off in the second case.
        let (testlib, _, _, message) = shooting_verdicts(b"0.555556\n0.333331\n", answer);
        assert_eq!(testlib, 1);
        assert_eq!(
            message,
            "wrong answer case 2 of 2: expected 0.333333, found 0.333331 (absolute error \
             2.00e-6, relative error 6.00e-6, both above the tolerance 1e-6)"
        );
        // A missing answer and a word: presentation errors.
        let (testlib, kattis, score, message) = shooting_verdicts(b"0.555556\n", answer);
        assert_eq!((testlib, kattis, score.as_str()), (2, 43, "0"));
        assert!(
            message.starts_with("wrong output format case 2 of 2"),
            "{message}"
        );
        let (testlib, _, _, message) = shooting_verdicts(b"0.555556\nhalf\n", answer);
        assert_eq!(testlib, 2, "{message}");
    }
}

#[test]
fn an_invalid_shooting_input_fails_the_checker_when_it_recomputes() {
    let f = Files::new();
    let input = f.put("bad.in", b"4\n2 3 1 3\n0\n");
    let out = f.put("bad.out", b"0.5\n");
    let res = checker(&[&"--problem=shooting", &input, &out, &"-"], b"");
    assert_eq!(res.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&res.stderr);
    assert!(
        stderr.contains("line 2, column 7: heights 3 1 3 are not unimodal"),
        "{stderr}"
    );
}
