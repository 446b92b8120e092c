//! Saving a failing case beside its answer and the program's output, never overwriting an
//! earlier failure.

use std::path::{Path, PathBuf};

use anyhow::bail;

use crate::judge::{CaseOutcome, Expected};

/// How much of the program's output is saved in `.out`: enough to read and to diff, never a
/// copy of a 64 MiB flood (the report says how much there was).
pub const SAVED_OUTPUT_BYTES: usize = 1024 * 1024;

/// Writes `<stem>.in`, `.ans`, `.out` (the output's first [`SAVED_OUTPUT_BYTES`]), `.err`
/// (the program's stderr, its last 64 KiB) and, on
/// an interactive problem, `.transcript` (the exchange, its start and end when long) into
/// `dir`, and returns the `.in` path. A stem whose files already exist with other contents is
/// never overwritten: `-2`, `-3`, ... are tried.
///
/// Several `stress --save` runs may share `dir` and find the same seed at once: a name is
/// claimed by creating its `.err` exclusively, before anything else is written, and a run
/// that finds it claimed takes the next name (both keep their case). Every file is created
/// exclusively; the input comes last, so that its presence means the files beside it are
/// complete. A name whose writing fails (a full disk) leaves nothing behind.
pub fn save_case(
    dir: &Path,
    stem: &str,
    input: &[u8],
    expected: &Expected,
    outcome: &CaseOutcome,
) -> anyhow::Result<PathBuf> {
    let answer = expected.text.as_bytes().to_vec();
    let execution = &outcome.execution;
    let output = execution.stdout.head(SAVED_OUTPUT_BYTES);
    let transcript = outcome.transcript.as_ref().map(|t| t.render().into_bytes());
    // In the order they are written: the claim first, the input last.
    let mut contents: Vec<(&str, &[u8])> = vec![("err", &execution.stderr)];
    if let Some(transcript) = &transcript {
        contents.push(("transcript", transcript));
    }
    contents.extend([("out", &output[..]), ("ans", &answer[..]), ("in", input)]);
    for attempt in 1..=1000u32 {
        let name = if attempt == 1 {
            stem.to_string()
        } else {
            format!("{stem}-{attempt}")
        };
        let files: Vec<(PathBuf, &[u8])> = contents
            .iter()
            .map(|&(ext, bytes)| (dir.join(format!("{name}.{ext}")), bytes))
            .collect();
        let same = files
            .iter()
            .all(|(p, c)| std::fs::read(p).is_ok_and(|old| old == *c));
        if same {
            return Ok(input_path(&files));
        }
        if files.iter().any(|(p, _)| p.exists()) {
            continue;
        }
        match write_claimed(&files)? {
            true => return Ok(input_path(&files)),
            false => continue,
        }
    }
    bail!(
        "{}: 1000 failing cases named {stem} already; clear the directory",
        dir.display()
    )
}

fn input_path(files: &[(PathBuf, &[u8])]) -> PathBuf {
    files.last().map(|(p, _)| p.clone()).unwrap_or_default()
}

/// Creates `files` in order, each exclusively: `Ok(true)` once all are, `Ok(false)` when one
/// was there already (the name is another run's: nothing written is left), an error when a
/// write failed (nothing written is left either).
fn write_claimed(files: &[(PathBuf, &[u8])]) -> anyhow::Result<bool> {
    for (i, (path, bytes)) in files.iter().enumerate() {
        let Err(error) = crate::fsutil::write_new_atomic(path, bytes) else {
            continue;
        };
        for (written, _) in &files[..i] {
            let _ = std::fs::remove_file(written);
        }
        let taken = error
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::AlreadyExists);
        return if taken { Ok(false) } else { Err(error) };
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files<'a>(
        dir: &Path,
        name: &str,
        exts: &[&str],
        bytes: &'a [u8],
    ) -> Vec<(PathBuf, &'a [u8])> {
        exts.iter()
            .map(|ext| (dir.join(format!("{name}.{ext}")), bytes))
            .collect()
    }

    /// A name another run has claimed (its `.err` made, the rest on the way) is left to it.
    #[test]
    fn a_claimed_name_is_left_to_its_claimant() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join("c-5.err"), "theirs").unwrap();
        let ours = files(d, "c-5", &["err", "out", "in"], b"ours");
        assert!(!write_claimed(&ours).unwrap());
        assert_eq!(
            std::fs::read_to_string(d.join("c-5.err")).unwrap(),
            "theirs"
        );
        assert!(!d.join("c-5.out").exists() && !d.join("c-5.in").exists());
        // One created meanwhile past the claim: what was written is taken back.
        std::fs::write(d.join("c-6.in"), "theirs").unwrap();
        let ours = files(d, "c-6", &["err", "out", "in"], b"ours");
        assert!(!write_claimed(&ours).unwrap());
        assert!(!d.join("c-6.err").exists() && !d.join("c-6.out").exists());
    }

    /// A write that fails for another reason (here a name too long for the file system, as
    /// a full disk would) leaves nothing of the case, and says why.
    #[test]
    fn a_failed_save_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let name = "c".repeat(250);
        let ours = files(d, &name, &["err", "transcript", "in"], b"x");
        let error = write_claimed(&ours).unwrap_err();
        assert!(format!("{error:#}").contains("cannot create"), "{error:#}");
        assert_eq!(std::fs::read_dir(d).unwrap().count(), 0);
    }
}
