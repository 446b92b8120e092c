//! `--watch`: run a command again whenever one of the files it runs changes, until Ctrl-C.
//!
//! Files are polled (size and modification time) rather than watched through the kernel:
//! a handful of files, checked ten times a second, costs nothing, and polling works the
//! same on every file system, editors' rename-on-save included. The files are stamped before
//! each run, so that a file saved while the command runs makes it run again.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use crate::app::args::CommandWords;
use crate::app::exit::Status;

/// How often the files are checked.
const POLL: Duration = Duration::from_millis(100);
/// How long the files must stay unchanged after a change before the command runs again, so
/// that an editor's several writes (milliseconds apart) make one run.
const SETTLE: Duration = Duration::from_millis(200);

/// The files a command line names that exist: the program itself and arguments that are
/// files (`python3 sol.py` watches `sol.py`), and the local headers and modules of source
/// files (`a.cpp` watches the `"lib.h"` it includes).
pub fn files_of(commands: &[&[OsString]]) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    let add = |path: PathBuf, out: &mut Vec<PathBuf>| {
        if path.is_file() && !out.contains(&path) {
            out.push(path);
        }
    };
    for command in commands {
        for word in command.iter() {
            let path = Path::new(word);
            add(path.to_path_buf(), &mut out);
            for local in crate::compile::local_sources(path) {
                add(local, &mut out);
            }
        }
    }
    out
}

type Stamp = Vec<Option<(SystemTime, u64)>>;

fn stamp(files: &[PathBuf]) -> Stamp {
    files.iter().map(|f| stamp_of(f)).collect()
}

fn stamp_of(file: &Path) -> Option<(SystemTime, u64)> {
    std::fs::metadata(file)
        .ok()
        .and_then(|m| Some((m.modified().ok()?, m.len())))
}

/// The stamps of `files` as they were when `earlier` (of the files `listed`) was taken; a
/// file not listed then is stamped now.
fn stamp_since(files: &[PathBuf], listed: &[PathBuf], earlier: &Stamp) -> Stamp {
    files
        .iter()
        .map(|f| match listed.iter().position(|l| l == f) {
            Some(at) => earlier[at],
            None => stamp_of(f),
        })
        .collect()
}

/// `--watch` of a judging command (`test`, `stress`): runs `execute` now and again after every
/// change of the files of the program or of a helper given; a run's error replaces the JUnit
/// report `junit` (as `suite`'s) and the watch goes on.
pub fn judging(
    program: &[OsString],
    helpers: &[&Option<CommandWords>],
    junit: Option<&Path>,
    suite: &str,
    mut execute: impl FnMut() -> anyhow::Result<Status>,
) -> anyhow::Result<Status> {
    let mut commands: Vec<&[OsString]> = vec![program];
    commands.extend(helpers.iter().filter_map(|h| h.as_ref()).map(|h| &h.0[..]));
    watch(
        || files_of(&commands),
        || crate::report::junit::on_error(junit, suite, execute()),
    )
}

/// Runs `run` now and again after every change of the files `files` lists, until an
/// interrupt; the list is asked for again after every run (an edit may include a new header).
/// Only an interrupt ends it, so it returns [`Status::Interrupted`], as every interrupted
/// command does.
pub fn watch(
    files: impl Fn() -> Vec<PathBuf>,
    mut run: impl FnMut() -> anyhow::Result<Status>,
) -> anyhow::Result<Status> {
    let mut listed = files();
    if listed.is_empty() {
        anyhow::bail!("--watch: the command names no file to watch");
    }
    let mut stamped = stamp(&listed);
    report(run());
    loop {
        if crate::run::cancelled() {
            return Ok(Status::Interrupted);
        }
        let files = files();
        let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
        eprintln!(
            "duipai: watching {} for changes (Ctrl-C to stop)",
            names.join(", ")
        );
        let files = &files[..];
        let before = stamp_since(files, &listed, &stamped);
        // Wait for a change, then for the files to settle.
        let mut changed_at = None;
        let mut last = before.clone();
        loop {
            std::thread::sleep(POLL);
            if crate::run::cancelled() {
                return Ok(Status::Interrupted);
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
        listed = files.to_vec();
        stamped = stamp(&listed);
        report(run());
    }
}

/// A run's status; its error is printed (the watch goes on).
fn report(result: anyhow::Result<Status>) -> Status {
    match result {
        Ok(status) => status,
        Err(err) => crate::app::exit::report_error(&err),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_source_is_watched_with_its_headers() {
        let dir = tempfile::tempdir().unwrap();
        let source = dir.path().join("a.cpp");
        let header = dir.path().join("lib.h");
        std::fs::write(&source, "#include \"lib.h\"\nint main() {}\n").unwrap();
        std::fs::write(&header, "").unwrap();
        let script = dir.path().join("gen.py");
        std::fs::write(&script, "print(1)\n").unwrap();
        let program = [source.clone().into_os_string(), "--flag".into()];
        let generator = ["python3".into(), script.clone().into_os_string()];
        let files = files_of(&[&program, &generator]);
        assert_eq!(files, [source, header, script]);
    }
}
