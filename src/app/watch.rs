//! `--watch`: run a command again whenever one of the files it runs changes, until Ctrl-C.
//!
//! Files are polled (size and modification time) rather than watched through the kernel:
//! a handful of files, checked five times a second, costs nothing, and polling works the
//! same on every file system, editors' rename-on-save included.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use crate::app::exit::Status;

/// How often the files are checked.
const POLL: Duration = Duration::from_millis(200);
/// How long the files must stay unchanged after a change before the command runs again, so
/// that an editor's several writes make one run.
const SETTLE: Duration = Duration::from_millis(300);

/// The files a command line names that exist: the program itself and arguments that are
/// files (`python3 sol.py` watches `sol.py`).
pub fn files_of(commands: &[&[OsString]]) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    for command in commands {
        for word in command.iter() {
            let path = Path::new(word);
            if path.is_file() && !out.iter().any(|p| p == path) {
                out.push(path.to_path_buf());
            }
        }
    }
    out
}

type Stamp = Vec<Option<(SystemTime, u64)>>;

fn stamp(files: &[PathBuf]) -> Stamp {
    files
        .iter()
        .map(|f| {
            std::fs::metadata(f)
                .ok()
                .and_then(|m| Some((m.modified().ok()?, m.len())))
        })
        .collect()
}

/// Runs `run` now and again after every change of `files`, until an interrupt. Returns the
/// status of the last run.
pub fn watch(
    files: &[PathBuf],
    mut run: impl FnMut() -> anyhow::Result<Status>,
) -> anyhow::Result<Status> {
    if files.is_empty() {
        anyhow::bail!("--watch: the command names no file to watch");
    }
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    let mut status = report(run());
    loop {
        if crate::run::cancelled() {
            return Ok(status);
        }
        eprintln!(
            "duipai: watching {} for changes (Ctrl-C to stop)",
            names.join(", ")
        );
        let before = stamp(files);
        // Wait for a change, then for the files to settle.
        let mut changed_at = None;
        let mut last = before.clone();
        loop {
            std::thread::sleep(POLL);
            if crate::run::cancelled() {
                return Ok(status);
            }
            let now = stamp(files);
            if now != last {
                changed_at = Some(Instant::now());
                last = now;
            } else if changed_at.is_some_and(|t| t.elapsed() >= SETTLE) && last != before {
                break;
            }
        }
        eprintln!("duipai: changed; running again");
        status = report(run());
    }
}

/// A run's status; its error is printed (the watch goes on).
fn report(result: anyhow::Result<Status>) -> Status {
    match result {
        Ok(status) => status,
        Err(err) => {
            eprintln!("duipai: error: {err:#}");
            Status::Usage
        }
    }
}
