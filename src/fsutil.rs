//! File writes that never leave a half-written file under the final name.

use std::io::Write;
use std::path::Path;

use anyhow::Context;
use tempfile::NamedTempFile;

/// Writes `contents` to a temporary file beside `path` and flushes it to disk: renaming it
/// into place is then atomic, so readers see either no file or the whole of it.
fn staged(path: &Path, contents: &[u8]) -> anyhow::Result<NamedTempFile> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".duipai-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .with_context(|| format!("cannot create a temporary file in {}", dir.display()))?;
    // Temporary files are private (0600); what duipai writes is meant to be shared.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644))
            .with_context(|| format!("cannot set the permissions of {}", path.display()))?;
    }
    tmp.write_all(contents)
        .and_then(|()| tmp.as_file().sync_all())
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(tmp)
}

/// Replaces `path` (if it exists) with `contents`, atomically.
pub fn write_atomic(path: &Path, contents: &[u8]) -> anyhow::Result<()> {
    // The persist error wraps the I/O error and names it again as its source: keep only the
    // I/O error, so that the message says it once.
    staged(path, contents)?
        .persist(path)
        .map_err(|e| e.error)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// Creates `path` with `contents`, atomically; fails if `path` already exists.
pub fn write_new_atomic(path: &Path, contents: &[u8]) -> anyhow::Result<()> {
    staged(path, contents)?
        .persist_noclobber(path)
        .map_err(|e| e.error)
        .with_context(|| format!("cannot create {}", path.display()))?;
    Ok(())
}

/// The most bytes duipai reads from any input, answer or checker file: far above the largest
/// valid case (about 1.5 KB at the default bounds, a few MB with raised ones), so that
/// `/dev/zero` or an endless pipe ends with a message in bounded time and memory.
pub const MAX_READ_BYTES: u64 = 16 * 1024 * 1024;

/// Reads at most [`MAX_READ_BYTES`] from `reader`; more is an error naming `name`.
pub fn read_capped(reader: impl std::io::Read, name: &str) -> anyhow::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    reader
        .take(MAX_READ_BYTES + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {name}"))?;
    if bytes.len() as u64 > MAX_READ_BYTES {
        anyhow::bail!(
            "{name} is larger than {} MiB; no case of duipai's problems is that large",
            MAX_READ_BYTES / (1024 * 1024)
        );
    }
    Ok(bytes)
}

/// Reads the file at `path`, at most [`MAX_READ_BYTES`] of it.
pub fn read_file_capped(path: &Path) -> anyhow::Result<Vec<u8>> {
    let name = path.display().to_string();
    let file = std::fs::File::open(path).with_context(|| format!("cannot read {name}"))?;
    read_capped(file, &name)
}

/// Checks, before any work, that `dir` can hold files duipai will write: an existing
/// directory, or a path whose nearest existing ancestor is a directory.
pub fn check_output_dir(dir: &Path, flag: &str) -> anyhow::Result<()> {
    if dir.exists() {
        if !dir.is_dir() {
            anyhow::bail!("{flag} {}: exists and is not a directory", dir.display());
        }
        return Ok(());
    }
    let mut ancestor = dir.parent();
    while let Some(a) = ancestor {
        if a.as_os_str().is_empty() || a.is_dir() {
            return Ok(());
        }
        if a.exists() {
            anyhow::bail!(
                "{flag} {}: {} is not a directory",
                dir.display(),
                a.display()
            );
        }
        ancestor = a.parent();
    }
    Ok(())
}
