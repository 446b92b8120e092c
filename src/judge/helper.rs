//! Trusted helper programs (a generator, a reference, a validator, a checker): they run under
//! generous limits, and anything but a clean run is the harness's failure, never the
//! program's under test.

use std::ffi::OsString;
use std::time::Duration;

use anyhow::Context;

use super::Runner;
use crate::run::{Execution, IoMode, Limits};

/// Limits for helpers, from the program's: at least 10 s of CPU (four times the program's
/// limit when that is more), twice that of wall clock, at least 1 GiB of memory. They are
/// trusted; the limits only stop one that hangs.
pub fn helper_limits(program: &Limits) -> Limits {
    let mut helper = *program;
    helper.cpu = Duration::from_secs(10).max(program.cpu * 4);
    helper.wall = helper.cpu * 2;
    helper.memory_bytes = program.memory_bytes.max(1 << 30);
    helper
}

/// Why a helper's run did not end cleanly, or `None` for a clean exit (code 0):
/// `RE (exit code 1); its stderr ends:\n...`.
pub fn failure(execution: &Execution) -> Option<String> {
    let stopped = super::verdict::termination_judgement(execution)?;
    Some(format!(
        "{} ({}){}",
        stopped.verdict.code(),
        stopped.detail,
        stderr_ending(&execution.stderr)
    ))
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
/// reference brute.py`); a run that cannot start or does not exit cleanly is an error.
pub fn run_helper(
    runner: &dyn Runner,
    command: &[OsString],
    input: &[u8],
    limits: &Limits,
    who: &str,
) -> anyhow::Result<Vec<u8>> {
    let execution = runner
        .run(command, input, limits, &IoMode::Stdio)
        .with_context(|| format!("cannot run {who}"))?;
    if let Some(why) = failure(&execution) {
        return Err(anyhow::Error::new(HelperFailed(format!(
            "{who} failed: {why}"
        ))));
    }
    // A generator's or a reference's output is a case or its answer: the case's size.
    execution
        .stdout
        .to_vec()
        .with_context(|| format!("cannot read what {who} printed"))
}

/// A helper that ran and failed (rather than could not start): for a reference or an
/// interactor, a sign that the input it was given is not valid.
#[derive(Debug)]
pub struct HelperFailed(String);

impl HelperFailed {
    pub fn new(message: impl Into<String>) -> HelperFailed {
        HelperFailed(message.into())
    }
}

impl std::fmt::Display for HelperFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for HelperFailed {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers_get_generous_limits() {
        let program = Limits {
            cpu: Duration::from_secs(1),
            wall: Duration::from_secs(3),
            memory_bytes: 256 << 20,
            output_bytes: 64 << 20,
            processes: 64,
        };
        let helper = helper_limits(&program);
        assert_eq!(helper.cpu, Duration::from_secs(10));
        assert_eq!(helper.wall, Duration::from_secs(20));
        assert_eq!(helper.memory_bytes, 1 << 30);
        let slow = Limits {
            cpu: Duration::from_secs(5),
            ..program
        };
        assert_eq!(helper_limits(&slow).cpu, Duration::from_secs(20));
    }
}
