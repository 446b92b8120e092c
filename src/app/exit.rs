//! The exit statuses every subcommand shares, and how an outcome maps to one.

use std::process::ExitCode;

/// What a finished subcommand reports to the shell. Harness failures (a missing file, a
/// program that cannot start) are `Err` values of the command and map to [`Status::Error`],
/// or to [`Status::Interrupted`] when an interrupt caused them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// 0: everything accepted, everything valid.
    Success,
    /// 1: the program under test failed, or an input is invalid.
    Failure,
    /// 2: usage error or harness failure.
    Error,
    /// 130: stopped by Ctrl-C, SIGTERM or SIGHUP before the command could say whether the
    /// program passes. 128 + SIGINT, what a shell reports for a command Ctrl-C killed, so a
    /// script tells it from a usage error (2) and never takes it for success.
    Interrupted,
}

impl Status {
    pub fn code(self) -> u8 {
        match self {
            Status::Success => 0,
            Status::Failure => 1,
            Status::Error => 2,
            Status::Interrupted => 130,
        }
    }

    /// The `status` of a JSON report for an error that ended the command.
    pub fn json_name(self) -> &'static str {
        match self {
            Status::Interrupted => "interrupted",
            _ => "error",
        }
    }
}

impl From<Status> for ExitCode {
    fn from(status: Status) -> Self {
        ExitCode::from(status.code())
    }
}

/// Prints the error that ended a command (or one `--watch` run) on stderr and returns its
/// status: an error met after an interrupt is the interrupt's doing (a killed program, a
/// stopped compiler, a pack cut short), so it says `interrupted`, not `error`.
pub fn report_error(err: &anyhow::Error) -> Status {
    let message = format!("{err:#}");
    if crate::run::cancelled() {
        eprintln!("duipai: interrupted: {message}");
        Status::Interrupted
    } else {
        eprintln!("duipai: error: {message}");
        Status::Error
    }
}
