//! External checkers: programs that decide whether an output is right, for problems with
//! several right answers or rules of their own. Two protocols:
//!
//! - testlib's: `checker input output answer`; exit 0 accepted, 1 wrong answer, 2
//!   presentation error, 3 the checker's own failure; its message on stderr.
//! - the Kattis output validators' (ICPC packages, DOMjudge, problemtools): `validator input
//!   answer feedback_dir/ < output`; exit 42 accepted, 43 rejected; its message in
//!   `feedback_dir/judgemessage.txt`, its own errors in `judgeerror.txt`.
//!
//! The files are written to a pair of helper folders (`run::contain::with_helper_files`: the
//! pair the thread used last, kept between checks), emptied for every check: what the
//! checker reads in one, its feedback folder in the other, so that a checker contained (a
//! package's) reads the first and writes the second only. A checker that fails (testlib's exit 3, a crash, a limit, any exit its protocol
//! does not define) is the harness's failure, an error naming the checker and its message,
//! never the program's.

use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{Context, anyhow};

use super::{Judgement, Runner, Verdict};
use crate::run::{Captured, Execution, Limits, Termination};

/// How a checker is called and how its verdict is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// `checker input output answer`, exit 0/1/2/3 (Polygon, Codeforces, most judges).
    Testlib,
    /// `validator input answer feedback_dir/ < output`, exit 42/43 (ICPC, Kattis, DOMjudge).
    Kattis,
}

/// An external checker, ready to run.
#[derive(Clone, Debug)]
pub struct Checker {
    /// The command that runs it (a source file already compiled); the files are appended.
    pub command: Vec<OsString>,
    /// How messages name it, as the user typed it (`checker.cpp`).
    pub name: String,
    pub protocol: Protocol,
    /// Its limits: generous, it is trusted ([`super::helper::helper_limits`]).
    pub limits: Limits,
}

/// The most lines of a checker's message a verdict carries, and the most characters.
const MESSAGE_LINES: usize = 5;
const MESSAGE_CHARS: usize = 400;
/// The most bytes read of a feedback file.
const FEEDBACK_BYTES: u64 = 64 * 1024;

impl Checker {
    /// Runs the checker on one output of a program that ran cleanly, and returns its verdict
    /// (accepted, WA or PE) with its message as the detail; an error when the checker itself
    /// failed.
    pub fn check(
        &self,
        runner: &dyn Runner,
        input: &[u8],
        output: &Captured,
        answer: &[u8],
    ) -> anyhow::Result<Judgement> {
        crate::run::contain::with_helper_files(|files| {
            self.check_in(runner, files, input, output, answer)
        })
    }

    /// [`Checker::check`] with its files in `files`: what it reads in the folder it reads,
    /// the feedback folder in the one it writes (a contained checker sees the first
    /// read-only, and can write only the second).
    fn check_in(
        &self,
        runner: &dyn Runner,
        files: &crate::run::contain::HelperFiles,
        input: &[u8],
        output: &Captured,
        answer: &[u8],
    ) -> anyhow::Result<Judgement> {
        let dir = files.read.as_path();
        let input_path = write(dir, "input", input)?;
        let answer_path = write(dir, "answer", answer)?;
        let feedback = files.write.join("feedback");
        let (files, stdin): ([OsString; 3], Vec<u8>) = match self.protocol {
            Protocol::Testlib => {
                // Copied as a stream: the output may be a large spilled file.
                let output_path = dir.join("output");
                std::fs::File::create(&output_path)
                    .and_then(|mut file| output.write_to(&mut file))
                    .with_context(|| {
                        format!(
                            "cannot write the checker's output file {}",
                            output_path.display()
                        )
                    })?;
                let files = [input_path, output_path, answer_path].map(PathBuf::into_os_string);
                (files, Vec::new())
            }
            Protocol::Kattis => {
                std::fs::create_dir(&feedback)
                    .and_then(|()| open_to_the_box(&feedback))
                    .with_context(|| format!("cannot create {}", feedback.display()))?;
                // The format passes the directory with its trailing slash; validators
                // written for it may append file names to it directly.
                let mut dir_arg = feedback.clone().into_os_string();
                dir_arg.push("/");
                (
                    [
                        input_path.into_os_string(),
                        answer_path.into_os_string(),
                        dir_arg,
                    ],
                    // The protocol feeds the output on stdin, which the runner takes whole.
                    output
                        .to_vec()
                        .context("cannot read the program's output for the checker")?,
                )
            }
        };
        let mut command = self.command.clone();
        command.extend(files);
        let execution = runner
            .run_helper(&command, &stdin, &self.limits)
            .with_context(|| format!("cannot run the checker {}", self.name))?;
        let decision = match self.protocol {
            Protocol::Testlib => testlib_verdict(&execution),
            Protocol::Kattis => kattis_verdict(&execution, &feedback),
        };
        decision.map_err(|why| anyhow!("the checker {} failed: {why}", self.name))
    }
}

/// How much of a checker's stdout is read for its message.
const MESSAGE_BYTES: usize = 64 * 1024;

fn write(dir: &Path, name: &str, bytes: &[u8]) -> anyhow::Result<PathBuf> {
    let path = dir.join(name);
    std::fs::write(&path, bytes)
        .with_context(|| format!("cannot write the checker's {name} file {}", path.display()))?;
    Ok(path)
}

/// What a rejection says when the checker or interactor said nothing: a rejection never
/// shows an empty reason.
pub const NO_MESSAGE: &str = "(no message)";

/// testlib's exit codes; the message is stderr's (stdout's, for a checker that writes it
/// there instead).
pub fn testlib_verdict(execution: &Execution) -> Result<Judgement, String> {
    let message =
        message(&execution.stderr).or_else(|| message(&execution.stdout.head(MESSAGE_BYTES)));
    let said = || message.clone().unwrap_or_default();
    let rejected = || message.clone().unwrap_or_else(|| NO_MESSAGE.to_string());
    let code = match execution.termination {
        Termination::Exited(code) => code,
        _ => return Err(abnormal_end(execution)),
    };
    // An interpreter's exit on an uncaught exception (Python's 1) reads as a verdict in
    // testlib's codes: the exception on stderr says it is a crash.
    if let Some(sign) = super::helper::crash_sign(&execution.stderr) {
        return Err(format!(
            "exit code {code} on {}, a crash rather than a verdict{}",
            sign.describe(),
            super::helper::stderr_ending(&execution.stderr)
        ));
    }
    match code {
        0 => Ok(Judgement::new(Verdict::Accepted, said())),
        1 => Ok(Judgement::new(Verdict::WrongAnswer, rejected())),
        2 => Ok(Judgement::new(Verdict::PresentationError, rejected())),
        // testlib built with ENABLE_UNEXPECTED_EOF; without it, the same end is exit 2.
        8 => Ok(Judgement::new(
            Verdict::PresentationError,
            match &message {
                Some(m) => format!("unexpected end of file: {m}"),
                None => "unexpected end of file".to_string(),
            },
        )),
        3 => Err(format!(
            "exit code 3 (testlib's FAIL): {}",
            or_silent(message)
        )),
        7 => Err(format!(
            "exit code 7 (testlib's points), but duipai judges a case accepted or not; have the \
             checker end with _ok, _wa or _pe: {}",
            or_silent(message)
        )),
        _ => Err(format!(
            "exit code {code}, which testlib's protocol does not define (0 accepted, 1 wrong \
             answer, 2 presentation error, 3 checker failure): {}",
            or_silent(message)
        )),
    }
}

/// The Kattis output-validator protocol's exit codes; the message is `judgemessage.txt`'s
/// (stderr's when there is none), and on a failure `judgeerror.txt`'s first.
pub fn kattis_verdict(execution: &Execution, feedback: &Path) -> Result<Judgement, String> {
    let judge_message = feedback_message(feedback, "judgemessage.txt");
    let said = || {
        judge_message
            .clone()
            .or_else(|| message(&execution.stderr))
            .unwrap_or_default()
    };
    match execution.termination {
        Termination::Exited(42) => Ok(Judgement::new(Verdict::Accepted, said())),
        Termination::Exited(43) => Ok(Judgement::new(
            Verdict::WrongAnswer,
            Some(said())
                .filter(|m| !m.is_empty())
                .unwrap_or_else(|| NO_MESSAGE.into()),
        )),
        _ => {
            let crashed = super::helper::crash_sign(&execution.stderr)
                .map(|sign| format!(" on {}", sign.describe()))
                .unwrap_or_default();
            let why = match execution.termination {
                Termination::Exited(code) => format!(
                    "exit code {code}{crashed}, not 42 (accepted) or 43 (rejected), which the \
                     output validator protocol counts as a judge error"
                ),
                _ => abnormal_end(execution),
            };
            let error = feedback_message(feedback, "judgeerror.txt")
                .or(judge_message)
                .or_else(|| message(&execution.stderr));
            Err(format!("{why}: {}", or_silent(error)))
        }
    }
}

/// A crash, a signal or a limit: `RE (killed by SIGSEGV ...); its stderr ends: ...`.
fn abnormal_end(execution: &Execution) -> String {
    super::helper::failure(execution).unwrap_or_else(|| "it ended abnormally".to_string())
}

fn or_silent(message: Option<String>) -> String {
    message.unwrap_or_else(|| "it gave no message".to_string())
}

/// The first lines of a feedback file, if it exists and says anything.
fn feedback_message(dir: &Path, file: &str) -> Option<String> {
    let mut bytes = Vec::new();
    std::fs::File::open(dir.join(file))
        .ok()?
        .take(FEEDBACK_BYTES)
        .read_to_end(&mut bytes)
        .ok()?;
    message(&bytes)
}

/// A checker's message on one line: its first non-empty lines, trimmed, joined by `; `, at
/// most [`MESSAGE_CHARS`] characters; `None` when it said nothing.
pub fn message(bytes: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    if lines.is_empty() {
        return None;
    }
    let mut joined = lines[..lines.len().min(MESSAGE_LINES)].join("; ");
    if lines.len() > MESSAGE_LINES {
        joined.push_str("; …");
    }
    if let Some((cut, _)) = joined.char_indices().nth(MESSAGE_CHARS) {
        joined.truncate(cut);
        joined.push('…');
    }
    Some(joined)
}

/// Opens a folder a contained checker writes to every user: it runs as a box uid.
#[cfg(unix)]
fn open_to_the_box(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o777))
}

/// Off Unix a checker runs as duipai's own user: the folder is open to it already.
#[cfg(not(unix))]
fn open_to_the_box(_dir: &Path) -> std::io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::{Limit, Signal};
    use std::time::Duration;

    fn ended(termination: Termination, stderr: &str) -> Execution {
        let limits = Limits {
            cpu: Duration::from_secs(10),
            wall: Duration::from_secs(20),
            memory_bytes: 1 << 30,
            output_bytes: 1 << 20,
            processes: 64,
        };
        let mut execution = Execution::from_outcome(termination, Vec::new(), limits);
        execution.stderr = stderr.as_bytes().to_vec();
        execution.stderr_bytes = stderr.len() as u64;
        execution
    }

    #[test]
    fn testlib_exit_codes_decide() {
        let ok = testlib_verdict(&ended(Termination::Exited(0), "ok 3 numbers\n")).unwrap();
        assert_eq!(
            (ok.verdict, ok.detail.as_str()),
            (Verdict::Accepted, "ok 3 numbers")
        );
        let wa = testlib_verdict(&ended(
            Termination::Exited(1),
            "wrong answer p[2] = 2 is a fixed point\n",
        ))
        .unwrap();
        assert_eq!(wa.verdict, Verdict::WrongAnswer);
        assert_eq!(wa.detail, "wrong answer p[2] = 2 is a fixed point");
        let pe = testlib_verdict(&ended(Termination::Exited(2), "wrong output format x\n"));
        assert_eq!(pe.unwrap().verdict, Verdict::PresentationError);
        let fail = testlib_verdict(&ended(Termination::Exited(3), "FAIL bad answer\n"));
        assert_eq!(
            fail.unwrap_err(),
            "exit code 3 (testlib's FAIL): FAIL bad answer"
        );
        assert!(
            testlib_verdict(&ended(Termination::Exited(7), "points 0.5\n"))
                .unwrap_err()
                .contains("testlib's points")
        );
        assert!(
            testlib_verdict(&ended(Termination::Exited(4), ""))
                .unwrap_err()
                .contains("exit code 4, which testlib's protocol does not define")
        );
    }

    #[test]
    fn crashes_and_limits_are_the_checkers_failures() {
        let segv = testlib_verdict(&ended(
            Termination::Signaled(Signal(libc::SIGSEGV)),
            "about to crash\n",
        ))
        .unwrap_err();
        assert!(segv.starts_with("RE (killed by SIGSEGV"), "{segv}");
        assert!(segv.contains("about to crash"), "{segv}");
        let slow =
            testlib_verdict(&ended(Termination::LimitExceeded(Limit::CpuTime), "")).unwrap_err();
        assert!(slow.starts_with("TLE"), "{slow}");
    }

    /// A Python checker that raises exits 1, testlib's wrong answer: its traceback says it
    /// crashed, and the program is not blamed.
    #[test]
    fn a_traceback_is_the_checkers_crash_whatever_its_exit_code() {
        let traceback = "Traceback (most recent call last):\n  File \"check.py\", line 9\n\
                         ValueError: invalid literal for int() with base 10: 'x'\n";
        for code in [0, 1, 2] {
            let why = testlib_verdict(&ended(Termination::Exited(code), traceback)).unwrap_err();
            assert!(
                why.starts_with(&format!(
                    "exit code {code} on an uncaught Python exception: ValueError"
                )),
                "{why}"
            );
        }
    }

    #[test]
    fn kattis_exit_codes_and_feedback_files_decide() {
        let dir = tempfile::tempdir().unwrap();
        let feedback = dir.path();
        let accepted = kattis_verdict(&ended(Termination::Exited(42), ""), feedback).unwrap();
        assert_eq!(accepted.verdict, Verdict::Accepted);
        std::fs::write(
            feedback.join("judgemessage.txt"),
            "line 1\n\nJudge: 2\nUser: 3\n",
        )
        .unwrap();
        let rejected = kattis_verdict(&ended(Termination::Exited(43), "debug"), feedback).unwrap();
        assert_eq!(rejected.verdict, Verdict::WrongAnswer);
        assert_eq!(rejected.detail, "line 1; Judge: 2; User: 3");
        // Exit 0 is not acceptance in this protocol.
        std::fs::write(feedback.join("judgeerror.txt"), "cannot parse the answer\n").unwrap();
        let zero = kattis_verdict(&ended(Termination::Exited(0), ""), feedback).unwrap_err();
        assert!(zero.starts_with("exit code 0, not 42"), "{zero}");
        assert!(zero.ends_with(": cannot parse the answer"), "{zero}");
    }

    #[test]
    fn messages_are_one_bounded_line() {
        assert_eq!(message(b"  \n\n"), None);
        assert_eq!(message(b"a\r\n b \n").as_deref(), Some("a; b"));
        let many = "x\n".repeat(9);
        assert_eq!(
            message(many.as_bytes()).as_deref(),
            Some("x; x; x; x; x; …")
        );
        let long = "y".repeat(1000);
        let shown = message(long.as_bytes()).unwrap();
        assert_eq!(shown.chars().count(), MESSAGE_CHARS + 1);
    }
}
