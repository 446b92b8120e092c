//! The checker binary under both protocols: every exit status it can give, and its messages.

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
}

fn checker(args: &[&std::ffi::OsStr], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_duipai-checker"))
        .args(args)
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
    let res = checker(&[input.as_os_str(), out.as_os_str(), ans.as_os_str()], b"");
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
fn testlib_fails_on_a_missing_file_and_on_bad_usage() {
    let f = Files::new();
    let input = f.put("chess.in", CHESS_SAMPLE.as_bytes());
    let missing = f.path().join("nope.out");
    let res = checker(
        &[input.as_os_str(), missing.as_os_str(), input.as_os_str()],
        b"",
    );
    assert_eq!(res.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&res.stderr).contains("cannot read output"));
    // Too few arguments: a usage error must not read as exit 2 (presentation error).
    let res = checker(&[input.as_os_str()], b"");
    assert_eq!(res.status.code(), Some(3));
}

#[test]
fn recomputes_the_answer_with_the_reference_solver() {
    let f = Files::new();
    let input = f.put("chess.in", CHESS_SAMPLE.as_bytes());
    let good = f.put("good.out", b"2\n");
    let bad = f.put("bad.out", b"12\n");
    let dash = std::ffi::OsStr::new("-");
    let flag = std::ffi::OsStr::new("--problem=chess");
    let res = checker(&[flag, input.as_os_str(), good.as_os_str(), dash], b"");
    assert_eq!(res.status.code(), Some(0));
    let res = checker(&[flag, input.as_os_str(), bad.as_os_str(), dash], b"");
    assert_eq!(res.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&res.stderr).contains("expected 2, found 12"));
    // `-` without --problem cannot be decided.
    let res = checker(&[input.as_os_str(), good.as_os_str(), dash], b"");
    assert_eq!(res.status.code(), Some(3));
    // An invalid input is the checker's failure, not the contestant's.
    let broken = f.put("broken.in", b"2 3\n1 2\n");
    let res = checker(&[flag, broken.as_os_str(), good.as_os_str(), dash], b"");
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
    let flag = std::ffi::OsStr::new("--protocol=kattis");
    let res = checker(
        &[
            flag,
            input.as_os_str(),
            ans.as_os_str(),
            feedback.as_os_str(),
        ],
        output,
    );
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
    // A broken answer file is a judge error: neither 42 nor 43.
    let (code, _) = kattis(b"2\n", b"?\n");
    assert_eq!(code, 1);
}

#[test]
fn kattis_protocol_needs_an_existing_feedback_directory() {
    let f = Files::new();
    let input = f.put("chess.in", CHESS_SAMPLE.as_bytes());
    let ans = f.put("chess.ans", b"2\n");
    let missing = f.path().join("no-such-dir");
    let flag = std::ffi::OsStr::new("--protocol=kattis");
    let res = checker(
        &[
            flag,
            input.as_os_str(),
            ans.as_os_str(),
            missing.as_os_str(),
        ],
        b"2\n",
    );
    assert_eq!(res.status.code(), Some(1));
}
