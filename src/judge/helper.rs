//! Trusted helper programs (a generator, a reference, a validator, a checker, an interactor):
//! they run under generous limits, and anything but a clean run is the harness's failure,
//! never the program's under test. How a helper failed ([`Fault`]) decides what a failure
//! means where a helper's refusal is itself an answer (a validator's, or a reference's that
//! stands in for one): a helper that ran past its limits, crashed or said nothing is broken,
//! whatever it was given; one that exited with an error code rejected its input.

use std::ffi::OsString;
use std::time::Duration;

use anyhow::Context;

use super::Runner;
use crate::run::{Execution, Limits, Termination};

/// Limits for helpers, from the program's: `cpu` of CPU time if given, else at least 10 s
/// (four times the program's limit when that is more), twice that of wall clock, at least
/// 1 GiB of memory. They are trusted; the limits only stop one that hangs.
pub fn helper_limits(program: &Limits, cpu: Option<Duration>) -> Limits {
    let mut helper = *program;
    helper.cpu = cpu.unwrap_or_else(|| Duration::from_secs(10).max(program.cpu * 4));
    helper.wall = helper.cpu * 2;
    helper.memory_bytes = program.memory_bytes.max(1 << 30);
    helper
}

/// How a helper's run failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// It exited with an error code of its own: it refused its input.
    Rejected,
    /// It was killed by a signal, or ended on an uncaught exception (a Python traceback, a
    /// Java exception, a Rust panic, a sanitizer's report).
    Crashed,
    /// It ran past one of its limits (time, memory, output, processes).
    Limit,
    /// It exited cleanly having printed nothing where an output was required.
    Silent,
}

/// How a run that did not exit cleanly failed, and why, as a message
/// (`RE (exit code 1); its stderr ends:\n...`); `None` for a clean exit (code 0).
pub fn fault(execution: &Execution) -> Option<(Fault, String)> {
    let stopped = super::verdict::termination_judgement(execution)?;
    let fault = match execution.termination {
        Termination::LimitExceeded(_) => Fault::Limit,
        Termination::Signaled(_) => Fault::Crashed,
        Termination::Exited(_) => match crash_sign(&execution.stderr) {
            Some(sign) if !sign.assertion => Fault::Crashed,
            _ => Fault::Rejected,
        },
    };
    let crashed = match (fault, crash_sign(&execution.stderr)) {
        (Fault::Crashed, Some(sign)) => format!(", {}", sign.describe()),
        _ => String::new(),
    };
    let why = format!(
        "{} ({}{crashed}){}",
        stopped.verdict.code(),
        stopped.detail,
        stderr_ending(&execution.stderr)
    );
    Some((fault, why))
}

/// Why a helper's run did not end cleanly, or `None` for a clean exit (code 0):
/// `RE (exit code 1); its stderr ends:\n...`.
pub fn failure(execution: &Execution) -> Option<String> {
    fault(execution).map(|(_, why)| why)
}

/// The mark an uncaught exception leaves on stderr.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrashSign {
    /// The runtime that printed it: `Python`, `Java`, `Rust`, a sanitizer's name.
    pub runtime: &'static str,
    /// The line that names the exception (`ZeroDivisionError: division by zero`).
    pub line: String,
    /// A Python `AssertionError`: how a Python validator says no, not a crash.
    pub assertion: bool,
}

impl CrashSign {
    /// `an uncaught Python exception: ZeroDivisionError: division by zero`.
    pub fn describe(&self) -> String {
        format!("an uncaught {} exception: {}", self.runtime, self.line)
    }
}

/// The uncaught exception a run's stderr shows, if it shows one. testlib's and the Kattis
/// protocol's exit codes overlap with what an interpreter exits with when a helper crashes
/// (Python exits 1, testlib's wrong answer), so the exit code alone cannot tell a checker's
/// verdict from its crash: the runtime's own report on stderr does, as judges such as
/// BAPCtools read it.
pub fn crash_sign(stderr: &[u8]) -> Option<CrashSign> {
    let text = String::from_utf8_lossy(stderr);
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    let last_after = |start: usize| -> String {
        lines[start..]
            .iter()
            .rev()
            .find(|l| !l.trim().is_empty())
            .map_or_else(String::new, |l| l.trim().to_string())
    };
    if let Some(at) = lines
        .iter()
        .rposition(|l| l.starts_with("Traceback (most recent call last):"))
    {
        let line = last_after(at);
        let assertion = line.starts_with("AssertionError");
        return Some(CrashSign {
            runtime: "Python",
            line,
            assertion,
        });
    }
    let markers: [(&str, &'static str); 4] = [
        ("Exception in thread \"", "Java"),
        ("panicked at", "Rust"),
        ("ERROR: AddressSanitizer", "AddressSanitizer"),
        ("ERROR: LeakSanitizer", "LeakSanitizer"),
    ];
    for (marker, runtime) in markers {
        if let Some(line) = lines.iter().find(|l| l.contains(marker)) {
            return Some(CrashSign {
                runtime,
                line: line.trim().to_string(),
                assertion: false,
            });
        }
    }
    None
}

/// `; its stderr ends:\n...` with the last lines of `stderr`, or nothing when it is empty.
pub fn stderr_ending(stderr: &[u8]) -> String {
    let tail = crate::text::stderr_tail(stderr);
    if tail.trim().is_empty() {
        String::new()
    } else {
        format!("; its stderr ends:\n{}", tail.trim_end())
    }
}

/// Runs a helper on `input` (stdin) and returns its stdout. `who` names it in messages (`the
/// reference brute.py`); a run that cannot start, does not exit cleanly or, when `required`,
/// prints nothing but white space is an error ([`HelperFailed`] when it ran).
pub fn run_helper(
    runner: &dyn Runner,
    command: &[OsString],
    input: &[u8],
    limits: &Limits,
    who: &str,
) -> anyhow::Result<Vec<u8>> {
    run_helper_timed(runner, command, input, limits, who, false).map(|(output, _)| output)
}

/// [`run_helper`] where printing nothing is an output too: a test's answer in a package,
/// which may be empty (a query-only test), as Polygon and the ICPC format allow.
pub fn run_helper_quiet_ok(
    runner: &dyn Runner,
    command: &[OsString],
    input: &[u8],
    limits: &Limits,
    who: &str,
) -> anyhow::Result<Vec<u8>> {
    run_helper_timed(runner, command, input, limits, who, true).map(|(output, _)| output)
}

/// [`run_helper`], or with `quiet_ok` [`run_helper_quiet_ok`], with the CPU time the run
/// took.
pub fn run_helper_timed(
    runner: &dyn Runner,
    command: &[OsString],
    input: &[u8],
    limits: &Limits,
    who: &str,
    quiet_ok: bool,
) -> anyhow::Result<(Vec<u8>, Duration)> {
    let (output, stderr, cpu) = run_once(runner, command, input, limits, who)?;
    if !quiet_ok && output.iter().all(u8::is_ascii_whitespace) {
        let said = if output.is_empty() {
            "nothing"
        } else {
            "only white space"
        };
        return Err(HelperFailed::error(
            Fault::Silent,
            format!(
                "{who} failed: it exited with code 0 but printed {said}, where {} is \
                 needed{stderr}",
                if who.contains("generator") {
                    "a case"
                } else {
                    "an answer"
                },
            ),
        ));
    }
    Ok((output, cpu))
}

/// Runs a helper: its stdout, the end of its stderr as [`stderr_ending`] quotes it, and its
/// CPU time; a run that cannot start or does not exit cleanly is an error.
fn run_once(
    runner: &dyn Runner,
    command: &[OsString],
    input: &[u8],
    limits: &Limits,
    who: &str,
) -> anyhow::Result<(Vec<u8>, String, Duration)> {
    let execution = runner
        .run_helper(command, input, limits)
        .with_context(|| format!("cannot run {who}"))?;
    if let Some((fault, why)) = fault(&execution) {
        return Err(HelperFailed::error(fault, format!("{who} failed: {why}")));
    }
    // A generator's or a reference's output is a case or its answer: the case's size.
    let output = execution
        .stdout
        .to_vec()
        .with_context(|| format!("cannot read what {who} printed"))?;
    Ok((output, stderr_ending(&execution.stderr), execution.cpu_time))
}

/// A helper that ran and failed (rather than could not start), and how: for a reference or
/// an interactor that exited with an error, a sign that the input it was given is not valid.
#[derive(Debug)]
pub struct HelperFailed {
    message: String,
    pub fault: Fault,
}

impl HelperFailed {
    pub fn new(fault: Fault, message: impl Into<String>) -> HelperFailed {
        HelperFailed {
            message: message.into(),
            fault,
        }
    }

    /// The failure as an error.
    pub fn error(fault: Fault, message: impl Into<String>) -> anyhow::Error {
        anyhow::Error::new(HelperFailed::new(fault, message))
    }

    /// Whether `error` is a helper's refusal of its input (it exited with an error code, or
    /// crashed on it), rather than a helper that is broken whatever it is given (it ran past
    /// its limits, or printed nothing).
    pub fn is_refusal(error: &anyhow::Error) -> bool {
        error
            .downcast_ref::<HelperFailed>()
            .is_some_and(|h| matches!(h.fault, Fault::Rejected | Fault::Crashed))
    }
}

impl std::fmt::Display for HelperFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for HelperFailed {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::{Limit, Signal};

    #[test]
    fn helpers_get_generous_limits() {
        let program = Limits {
            cpu: Duration::from_secs(1),
            wall: Duration::from_secs(3),
            memory_bytes: 256 << 20,
            output_bytes: 64 << 20,
            processes: 64,
        };
        let helper = helper_limits(&program, None);
        assert_eq!(helper.cpu, Duration::from_secs(10));
        assert_eq!(helper.wall, Duration::from_secs(20));
        assert_eq!(helper.memory_bytes, 1 << 30);
        let slow = Limits {
            cpu: Duration::from_secs(5),
            ..program
        };
        assert_eq!(helper_limits(&slow, None).cpu, Duration::from_secs(20));
        let quick = helper_limits(&slow, Some(Duration::from_millis(500)));
        assert_eq!(quick.wall, Duration::from_secs(1));
    }

    #[test]
    fn uncaught_exceptions_are_told_from_error_codes() {
        let python =
            b"Traceback (most recent call last):\n  File \"c.py\", line 3, in <module>\n    \
                       1/0\nZeroDivisionError: division by zero\n";
        let sign = crash_sign(python).expect("a traceback");
        assert_eq!(
            (sign.runtime, sign.line.as_str(), sign.assertion),
            ("Python", "ZeroDivisionError: division by zero", false)
        );
        let assertion = b"Traceback (most recent call last):\n  File \"v.py\"\nAssertionError\n";
        assert!(crash_sign(assertion).unwrap().assertion);
        let java =
            b"Exception in thread \"main\" java.lang.ArithmeticException: / by zero\n\tat A.main\n";
        assert_eq!(crash_sign(java).unwrap().runtime, "Java");
        let rust = b"thread 'main' panicked at src/main.rs:3:5:\nboom\n";
        assert_eq!(crash_sign(rust).unwrap().runtime, "Rust");
        assert_eq!(crash_sign(b"wrong answer expected 3, found 4\n"), None);
        assert_eq!(crash_sign(b""), None);
    }

    fn ended(termination: Termination, stderr: &str) -> Execution {
        let limits = helper_limits(
            &Limits {
                cpu: Duration::from_secs(1),
                wall: Duration::from_secs(3),
                memory_bytes: 256 << 20,
                output_bytes: 1 << 20,
                processes: 8,
            },
            None,
        );
        let mut execution = Execution::from_outcome(termination, Vec::new(), limits);
        execution.stderr = stderr.as_bytes().to_vec();
        execution
    }

    #[test]
    fn faults_say_how_a_helper_failed() {
        let kind = |t, stderr| fault(&ended(t, stderr)).map(|(f, _)| f);
        assert_eq!(kind(Termination::Exited(0), ""), None);
        assert_eq!(kind(Termination::Exited(1), "no\n"), Some(Fault::Rejected));
        assert_eq!(
            kind(
                Termination::Exited(1),
                "Traceback (most recent call last):\nKeyError: 3\n"
            ),
            Some(Fault::Crashed)
        );
        assert_eq!(
            kind(Termination::Signaled(Signal(libc::SIGSEGV)), ""),
            Some(Fault::Crashed)
        );
        assert_eq!(
            kind(Termination::LimitExceeded(Limit::CpuTime), ""),
            Some(Fault::Limit)
        );
        let (_, why) = fault(&ended(
            Termination::Exited(1),
            "Traceback (most recent call last):\nKeyError: 3\n",
        ))
        .unwrap();
        assert!(
            why.starts_with("RE (exit code 1, an uncaught Python exception: KeyError: 3)"),
            "{why}"
        );
    }
}
