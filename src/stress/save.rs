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
    let mut contents: Vec<(&str, &[u8])> = vec![
        ("in", input),
        ("ans", &answer),
        ("out", &output),
        ("err", &execution.stderr),
    ];
    if let Some(transcript) = &transcript {
        contents.push(("transcript", transcript));
    }
    for attempt in 1..=1000u32 {
        let name = if attempt == 1 {
            stem.to_string()
        } else {
            format!("{stem}-{attempt}")
        };
        let paths: Vec<PathBuf> = contents
            .iter()
            .map(|(ext, _)| dir.join(format!("{name}.{ext}")))
            .collect();
        let same = paths
            .iter()
            .zip(&contents)
            .all(|(p, (_, c))| std::fs::read(p).is_ok_and(|old| old == *c));
        if same {
            return Ok(paths[0].clone());
        }
        if paths.iter().any(|p| p.exists()) {
            continue;
        }
        // The input last: its presence means the answer and output beside it are complete.
        for (path, (_, bytes)) in paths.iter().zip(&contents).rev() {
            crate::fsutil::write_new_atomic(path, bytes)?;
        }
        return Ok(paths[0].clone());
    }
    bail!(
        "{}: 1000 failing cases named {stem} already; clear the directory",
        dir.display()
    )
}
