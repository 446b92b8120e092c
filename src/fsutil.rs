//! File writes that never leave a half-written file under the final name, the removal of
//! the temporary files of writes that were killed half-way, and bounded reads that never
//! wait on a FIFO.

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
    let mut tmp = locked_temporary(dir)?;
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

/// A new temporary file in `dir`, locked while it is written: a temporary file nobody holds
/// the lock of was left by a write that was killed ([`remove_stale_temporaries`]). Another
/// process's sweep can find the file between its creation and the lock, take it for such a
/// one and remove it (two `stress` runs saving into one folder did): the lock is waited for,
/// which a sweep holds only while it removes, and a file that is gone by then is made again.
/// The lock goes with the file.
fn locked_temporary(dir: &Path) -> anyhow::Result<NamedTempFile> {
    locked_temporary_after(dir, |_| {})
}

/// [`locked_temporary`], with `meanwhile` run between a file's creation and its lock (where
/// another process's sweep may act).
fn locked_temporary_after(
    dir: &Path,
    mut meanwhile: impl FnMut(&Path),
) -> anyhow::Result<NamedTempFile> {
    loop {
        let tmp = tempfile::Builder::new()
            .prefix(TEMP_PREFIX)
            .suffix(TEMP_SUFFIX)
            .tempfile_in(dir)
            .with_context(|| format!("cannot create a temporary file in {}", dir.display()))?;
        meanwhile(tmp.path());
        // A file system without locks leaves the write unguarded, as it always was there.
        let _ = tmp.as_file().lock();
        if tmp.path().exists() {
            return Ok(tmp);
        }
    }
}

/// The names of the temporary files of atomic writes: `.duipai-` and six random characters,
/// then `.tmp`.
const TEMP_PREFIX: &str = ".duipai-";
const TEMP_SUFFIX: &str = ".tmp";

/// Removes, in `dir` and the folders below it (`depth` levels at most), the temporary files
/// left by atomic writes that were killed before they renamed them into place: those that
/// no process holds locked. Returns how many it removed. Best effort: what cannot be read or
/// removed stays.
pub fn remove_stale_temporaries(dir: &Path, depth: usize) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let path = entry.path();
        if kind.is_dir() && depth > 0 {
            removed += remove_stale_temporaries(&path, depth - 1);
            continue;
        }
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if !kind.is_file() || !name.starts_with(TEMP_PREFIX) || !name.ends_with(TEMP_SUFFIX) {
            continue;
        }
        let Ok(file) = std::fs::File::open(&path) else {
            continue;
        };
        // The lock is released when `file` closes.
        let unheld = file.try_lock().is_ok();
        if unheld && std::fs::remove_file(&path).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// The identity of the file at `real` (a canonical path) with metadata `meta`, as bytes to
/// hash into a key: its path, device, inode, size and modification and change times. A file
/// replaced (an upgrade, a rebuild) has another.
#[cfg(unix)]
pub fn identity(real: &Path, meta: &std::fs::Metadata) -> Vec<u8> {
    use std::os::unix::fs::MetadataExt;
    let mut bytes = real.as_os_str().as_encoded_bytes().to_vec();
    let numbers = [meta.dev(), meta.ino(), meta.size()];
    let times = [
        meta.mtime(),
        meta.mtime_nsec(),
        meta.ctime(),
        meta.ctime_nsec(),
    ];
    for number in numbers.into_iter().chain(times.map(|t| t as u64)) {
        bytes.extend_from_slice(&number.to_le_bytes());
    }
    bytes
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

/// Whether `rel` (relative, `/`-separated) below `dir` is reached without passing through a
/// symbolic link: every folder on the way is a real folder (or does not exist yet). The
/// last component may be anything: it is itself replaced or removed, never followed.
pub fn no_link_on_the_way(dir: &Path, rel: &str) -> bool {
    let mut at = dir.to_path_buf();
    let mut parts: Vec<&str> = rel.split('/').filter(|p| !p.is_empty()).collect();
    parts.pop();
    for part in parts {
        if part == ".." {
            return false;
        }
        at.push(part);
        match std::fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => return false,
            Ok(_) => {}
            Err(_) => return true,
        }
    }
    true
}

/// The first symbolic link met on the way from `dir` to `rel` (relative, `/`-separated),
/// its last component included, as the part of `rel` up to it; `None` when there is none
/// (a path that stops existing on the way has no link past that point).
pub fn first_link(dir: &Path, rel: &str) -> Option<String> {
    let mut at = dir.to_path_buf();
    let mut walked: Vec<&str> = Vec::new();
    for part in rel.split('/').filter(|p| !p.is_empty() && *p != ".") {
        at.push(part);
        walked.push(part);
        match std::fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => return Some(walked.join("/")),
            Ok(_) => {}
            Err(_) => return None,
        }
    }
    None
}

/// Why a link in a package is not followed.
pub const LINK_IN_PACKAGE: &str = "a symbolic link; duipai does not follow links in a package \
                                   (one could name any file of the machine): copy the file there";

/// An exclusive lock on a folder (`flock` on the folder itself), held until dropped: two
/// duipai processes writing one folder (two `pack`s) would interleave their files.
pub struct FolderLock {
    _dir: std::fs::File,
}

impl FolderLock {
    /// Takes the lock of `dir`, an existing folder; `Ok(None)` when another process holds it.
    #[cfg(unix)]
    pub fn try_take(dir: &Path) -> std::io::Result<Option<FolderLock>> {
        use std::os::unix::fs::OpenOptionsExt;
        let file = std::fs::File::options()
            .read(true)
            .custom_flags(libc::O_DIRECTORY)
            .open(dir)?;
        match file.try_lock() {
            Ok(()) => Ok(Some(FolderLock { _dir: file })),
            Err(std::fs::TryLockError::WouldBlock) => Ok(None),
            Err(std::fs::TryLockError::Error(err)) => Err(err),
        }
    }

    /// Takes the lock of `dir`: on Windows, where a folder cannot be locked, a lock file in
    /// the temporary folder named after the folder's full path (a file in the folder itself
    /// would end up in the pack).
    #[cfg(windows)]
    pub fn try_take(dir: &Path) -> std::io::Result<Option<FolderLock>> {
        use sha2::Digest;
        let full = std::fs::canonicalize(dir)?;
        let digest = sha2::Sha256::digest(full.as_os_str().as_encoded_bytes());
        let hex = crate::text::hex(&digest[..16]);
        let path = std::env::temp_dir().join(format!("duipai-folder-{hex}.lock"));
        let file = std::fs::File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)?;
        match file.try_lock() {
            Ok(()) => Ok(Some(FolderLock { _dir: file })),
            Err(std::fs::TryLockError::WouldBlock) => Ok(None),
            Err(std::fs::TryLockError::Error(err)) => Err(err),
        }
    }
}

/// Reads the regular file at `path`, at most [`MAX_READ_BYTES`] of it; anything else (a
/// FIFO, a device, a socket, a directory) is refused by name, without waiting on it: a test
/// folder's files are data anyone may have put there.
pub fn read_regular_capped(path: &Path) -> anyhow::Result<Vec<u8>> {
    let name = path.display().to_string();
    let mut options = std::fs::File::options();
    options.read(true);
    // Non-blocking, so that opening a FIFO does not wait for a writer (Windows has none).
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let file = options
        .open(path)
        .with_context(|| format!("cannot read {name}"))?;
    let kind = file
        .metadata()
        .with_context(|| format!("cannot read {name}"))?
        .file_type();
    if !kind.is_file() {
        anyhow::bail!(
            "{name}: {}; duipai reads only regular files here",
            describe_kind(&kind)
        );
    }
    read_capped(file, &name)
}

/// [`read_regular_capped`] for a file found in a test folder beside an input (an answer, a
/// saved case's files): a symbolic link there is refused by name rather than followed, for
/// it could name any file of the machine (`/etc/shadow`), which duipai, perhaps as root,
/// would then read and quote.
pub fn read_in_folder_capped(path: &Path) -> anyhow::Result<Vec<u8>> {
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        anyhow::bail!("{}: {LINK_REFUSED}", path.display());
    }
    // O_NOFOLLOW too: a link put there after the look above fails to open.
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let file = std::fs::File::options()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
            .open(path);
        if let Err(e) = file
            && e.raw_os_error() == Some(libc::ELOOP)
        {
            anyhow::bail!("{}: {LINK_REFUSED}", path.display())
        }
    }
    read_regular_capped(path)
}

/// Why a link in a test folder is not read.
pub const LINK_REFUSED: &str = "a symbolic link; duipai does not follow links in a test folder \
                                (one could name any file of the machine): copy the file there";

/// What a file that is not a regular one is: `a FIFO`, `a directory`, ...
pub fn describe_kind(kind: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO (named pipe), not a regular file";
        } else if kind.is_socket() {
            return "a socket, not a regular file";
        } else if kind.is_char_device() || kind.is_block_device() {
            return "a device, not a regular file";
        }
    }
    if kind.is_dir() {
        "a directory, not a regular file"
    } else if kind.is_symlink() {
        "a symbolic link"
    } else if kind.is_file() {
        "a regular file"
    } else {
        "not a regular file"
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_unlocked_temporaries_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir(d.join("sub")).unwrap();
        std::fs::write(d.join("sub/.duipai-dead.tmp"), "half").unwrap();
        std::fs::write(d.join(".duipai-x.tmp.keep"), "other").unwrap();
        std::fs::write(d.join("notes.tmp"), "the user's").unwrap();
        let live = staged(&d.join("a.txt"), b"being written").unwrap();
        assert_eq!(remove_stale_temporaries(d, 2), 1);
        assert!(!d.join("sub/.duipai-dead.tmp").exists());
        assert!(live.path().exists(), "a write under way keeps its file");
        assert!(d.join("notes.tmp").exists() && d.join(".duipai-x.tmp.keep").exists());
        live.persist(d.join("a.txt")).unwrap();
    }

    /// A sweep in another process that finds a write's temporary file before its writer has
    /// locked it takes it for a killed write's and removes it: the writer makes another.
    #[test]
    fn a_temporary_swept_before_its_lock_is_made_again() {
        let dir = tempfile::tempdir().unwrap();
        let mut sweeps = 0;
        let tmp = locked_temporary_after(dir.path(), |_| {
            sweeps += 1;
            if sweeps == 1 {
                assert_eq!(remove_stale_temporaries(dir.path(), 0), 1);
            }
        })
        .unwrap();
        assert_eq!(sweeps, 2);
        assert!(tmp.path().exists());
        assert_eq!(remove_stale_temporaries(dir.path(), 0), 0, "now it is held");
        tmp.persist(dir.path().join("a.txt")).unwrap();
    }

    #[test]
    fn links_on_the_way_are_found() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir_all(d.join("data/secret")).unwrap();
        std::os::unix::fs::symlink("/tmp", d.join("data/link")).unwrap();
        assert!(no_link_on_the_way(d, "data/secret/1.in"));
        assert!(no_link_on_the_way(d, "data/new/1.in"));
        assert!(
            no_link_on_the_way(d, "data/link"),
            "the last component is not followed"
        );
        assert!(!no_link_on_the_way(d, "data/link/1.in"));
        assert!(!no_link_on_the_way(d, "../x/1.in"));
        let lock = FolderLock::try_take(d).unwrap().expect("free");
        assert!(FolderLock::try_take(d).unwrap().is_none(), "held");
        drop(lock);
        assert!(FolderLock::try_take(d).unwrap().is_some());
    }

    #[test]
    fn a_fifo_is_refused_by_name_without_waiting() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("x.ans");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
        let err = read_regular_capped(&fifo).unwrap_err().to_string();
        assert!(
            err.contains("x.ans: a FIFO (named pipe), not a regular file"),
            "{err}"
        );
        std::fs::write(dir.path().join("y.ans"), "1\n").unwrap();
        assert_eq!(
            read_regular_capped(&dir.path().join("y.ans")).unwrap(),
            b"1\n"
        );
    }
}
