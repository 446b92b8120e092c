//! One module per subcommand: each takes its parsed arguments and returns an exit status.
//! What several of them share (workers, I/O mode, where human text goes) lives here.

use std::ffi::OsString;
use std::path::Path;

pub mod generate;
pub mod pack;
mod progress;
pub mod solve;
pub mod stress;
pub mod test;
pub mod validate;

/// Workers: as asked, else one per core.
pub(crate) fn jobs(asked: Option<usize>) -> usize {
    asked
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}

/// The program's file name, for headings.
pub(crate) fn program_name(program: &[OsString]) -> String {
    program
        .first()
        .map(|p| {
            Path::new(p)
                .file_name()
                .unwrap_or(p.as_os_str())
                .to_string_lossy()
                .into_owned()
        })
        .unwrap_or_default()
}

/// Where human-readable text goes: stdout normally, stderr when stdout carries JSON.
pub(crate) struct Human {
    to_stderr: bool,
}

impl Human {
    pub(crate) fn new(json: bool) -> Human {
        Human { to_stderr: json }
    }

    pub(crate) fn line(&self, text: impl AsRef<str>) {
        self.text(format!("{}\n", text.as_ref()));
    }

    pub(crate) fn text(&self, text: impl AsRef<str>) {
        use std::io::Write;
        // A closed pipe (`| head`) is not worth a panic; the exit status still tells.
        if self.to_stderr {
            let _ = std::io::stderr().write_all(text.as_ref().as_bytes());
        } else {
            let _ = std::io::stdout().write_all(text.as_ref().as_bytes());
        }
    }
}
