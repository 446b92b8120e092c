//! The runner's own failures ([`RunError`]): the harness could not run the program, as opposed
//! to anything the program did.

use std::ffi::OsString;
use std::fmt;
use std::io;
use std::path::Path;

/// The error of starting a file that is not a program of this system.
#[cfg(unix)]
const NOT_A_PROGRAM: i32 = libc::ENOEXEC;
/// `ERROR_BAD_EXE_FORMAT`: CreateProcess refuses a file that is not a Windows program.
#[cfg(windows)]
const NOT_A_PROGRAM: i32 = 193;

/// A failure of the harness, not of the program.
#[derive(Debug)]
pub enum RunError {
    /// The program list was empty.
    NoProgram,
    /// The program could not be started (missing, not executable, ...).
    Spawn {
        program: OsString,
        source: io::Error,
    },
    /// Preparing or cleaning up the run failed.
    Setup { what: String, source: io::Error },
    /// Processes of the program (in its group, or that it started outside it) were still
    /// alive after being killed.
    Survivors {
        pgid: i32,
        pids: Vec<i32>,
        /// How long they were given to die.
        grace: std::time::Duration,
    },
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::NoProgram => f.write_str("no program given to run"),
            RunError::Spawn { program, source } => {
                write!(f, "cannot start program {:?}", Path::new(program))?;
                // A path holds a `/` (on Windows, or a `\\`): as `command::has_separator`, which
                // imports this module.
                let text = program.as_encoded_bytes();
                let bare = !(text.contains(&b'/') || (cfg!(windows) && text.contains(&b'\\')));
                let missing = matches!(
                    source.kind(),
                    io::ErrorKind::NotFound | io::ErrorKind::PermissionDenied
                );
                if bare && missing {
                    f.write_str(
                        " (a name without a slash is looked up in PATH; \
                         write ./NAME for a file in the current directory)",
                    )?;
                } else if source.raw_os_error() == Some(NOT_A_PROGRAM) {
                    f.write_str(
                        " (not a program this machine runs: a script needs a first line \
                         such as #!/bin/sh, or name its interpreter: -- sh SCRIPT)",
                    )?;
                } else if source.kind() == io::ErrorKind::PermissionDenied {
                    f.write_str(" (is it executable? chmod +x, or name its interpreter)")?;
                }
                Ok(())
            }
            RunError::Setup { what, .. } => f.write_str(what),
            RunError::Survivors { pgid, pids, grace } => write!(
                f,
                "processes {pids:?} of the program (process group {pgid}) survived SIGKILL for \
                 {} s",
                grace.as_secs()
            ),
        }
    }
}

impl std::error::Error for RunError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RunError::Spawn { source, .. } | RunError::Setup { source, .. } => Some(source),
            RunError::NoProgram | RunError::Survivors { .. } => None,
        }
    }
}

/// Wraps an I/O error of the harness's own preparation or cleanup, saying what it was doing.
pub(crate) fn setup_error(what: impl Into<String>) -> impl FnOnce(io::Error) -> RunError {
    let what = what.into();
    move |source| RunError::Setup { what, source }
}
