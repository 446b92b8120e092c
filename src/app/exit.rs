//! The exit statuses every subcommand shares, and how an outcome maps to one.

use std::process::ExitCode;

/// What a finished subcommand reports to the shell. Harness failures (a missing file, a
/// program that cannot start) are `Err` values of the command and map to [`Status::Usage`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// 0: everything accepted, everything valid.
    Success,
    /// 1: the program under test failed, or an input is invalid.
    Failure,
    /// 2: usage error or harness failure.
    Usage,
}

impl Status {
    pub fn code(self) -> u8 {
        match self {
            Status::Success => 0,
            Status::Failure => 1,
            Status::Usage => 2,
        }
    }
}

impl From<Status> for ExitCode {
    fn from(status: Status) -> Self {
        ExitCode::from(status.code())
    }
}
