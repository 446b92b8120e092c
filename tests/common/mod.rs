//! What the end-to-end tests share: the binaries under test, temporary directories, runs.

#![allow(dead_code)]

use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The `duipai` binary built for this test run.
pub fn duipai() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_duipai"))
}

/// The fixture program (a workspace member, built beside `duipai`).
pub fn fixture() -> PathBuf {
    let path = duipai().with_file_name("duipai-fixture");
    assert!(
        path.exists(),
        "{} is missing: the fixture programs are a workspace member; run `cargo test --workspace` \
         (or plain `cargo test` at the root) so that they are built",
        path.display()
    );
    path
}

/// Runs `duipai ARGS` in `dir` with `stdin`, and returns its output.
pub fn run_duipai(dir: &Path, args: &[&OsStr], stdin: &[u8]) -> Output {
    let mut child = Command::new(duipai())
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("duipai starts");
    let mut pipe = child.stdin.take().expect("stdin is piped");
    // A command that does not read stdin may close it first; that is fine.
    let _ = pipe.write_all(stdin);
    drop(pipe);
    child.wait_with_output().expect("duipai finishes")
}

/// `duipai` with string arguments.
pub fn duipai_in(dir: &Path, args: &[&str]) -> Output {
    let args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
    run_duipai(dir, &args, b"")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The last line of stdout, parsed as JSON.
pub fn last_json(output: &Output) -> serde_json::Value {
    let text = stdout(output);
    let line = text.lines().last().unwrap_or_default();
    serde_json::from_str(line).unwrap_or_else(|e| {
        panic!(
            "last stdout line is not JSON ({e}): {line:?}\nstderr:\n{}",
            stderr(output)
        )
    })
}

pub fn code(output: &Output) -> i32 {
    output.status.code().unwrap_or(-1)
}
