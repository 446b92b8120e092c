//! The folders a contained helper's files go in: the files it reads (a checker's input,
//! output and answer, an interactor's input) in one, bound read-only into its view, and the
//! files it writes (a Kattis validator's feedback folder, a testlib validator's overview
//! log, an interactor's output) in another, bound read-write. A pair is kept between checks
//! in a pool (`run::idle`), as the scratch directories are, so that the helper's view,
//! and the namespaces made for it, stay the same from one check to the next (a view of other
//! folders means new namespaces, and a new spawner, for the check): a thread asks first for
//! the pair it used last, else for one whose last user has ended. The workers of each
//! minimization batch are new threads; a pair of their own each made new namespaces for
//! every checker run of a minimization.
//!
//! Both are inside a folder of the temporary folder only duipai's user may enter; the one
//! written is open to every user within it, so that a helper running as a box uid can write
//! there, and no other user of the machine reaches it.

use std::cell::RefCell;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::run::idle::Idle;

/// A helper's two folders.
pub struct HelperFiles {
    _root: tempfile::TempDir,
    /// The files the helper reads.
    pub read: PathBuf,
    /// The files it writes.
    pub write: PathBuf,
}

/// Every folder of [`HelperFiles`] there is, with whether a helper writes there: a view
/// binds the whole folder an argument lies in.
static FOLDERS: Mutex<Vec<(PathBuf, bool)>> = Mutex::new(Vec::new());

/// The pairs not in use.
static IDLE: Idle<HelperFiles> = Idle::new();

thread_local! {
    /// Whether this thread is running a helper with a pair already (a helper's run within
    /// another's gets a pair of its own).
    static IN_USE: RefCell<bool> = const { RefCell::new(false) };
}

/// Gives a pair back to the pool, as this thread's.
#[cfg(unix)]
fn give_back(files: HelperFiles) {
    IDLE.give_back(files, remove_idle_at_exit);
}

/// Off Unix no view binds the folders (nothing is contained), so nothing is gained by
/// keeping a pair: it is removed.
#[cfg(not(unix))]
fn give_back(files: HelperFiles) {
    drop(files);
}

#[cfg(unix)]
extern "C" fn remove_idle_at_exit() {
    IDLE.remove_at_exit();
}

/// Removes the idle pairs: for a harness that is done.
// Only Linux's runner keeps what outlives a run (`run::retire`).
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
pub fn remove_all() {
    IDLE.remove_all();
}

impl HelperFiles {
    fn create() -> io::Result<HelperFiles> {
        let root = crate::run::temp_folder("helper")?;
        // Only duipai's user enters it: what is inside is open to the helper's box uid.
        set_mode(root.path(), 0o700)?;
        let base = std::fs::canonicalize(root.path())?;
        let (read, write) = (base.join("read"), base.join("write"));
        std::fs::create_dir(&read)?;
        std::fs::create_dir(&write)?;
        set_mode(&read, 0o755)?;
        set_mode(&write, 0o777)?;
        let mut folders = FOLDERS.lock().unwrap_or_else(|e| e.into_inner());
        folders.push((read.clone(), false));
        folders.push((write.clone(), true));
        Ok(HelperFiles {
            _root: root,
            read,
            write,
        })
    }

    /// Empties both folders.
    fn empty(&self) -> io::Result<()> {
        for dir in [&self.read, &self.write] {
            for entry in std::fs::read_dir(dir)?.flatten() {
                let path = entry.path();
                if entry.file_type().is_ok_and(|t| t.is_dir()) {
                    std::fs::remove_dir_all(&path)?;
                } else {
                    std::fs::remove_file(&path)?;
                }
            }
        }
        Ok(())
    }
}

impl Drop for HelperFiles {
    fn drop(&mut self) {
        let mut folders = FOLDERS.lock().unwrap_or_else(|e| e.into_inner());
        folders.retain(|(dir, _)| dir != &self.read && dir != &self.write);
    }
}

/// Sets a folder's permission bits: who may enter, read and write it.
#[cfg(unix)]
fn set_mode(dir: &Path, mode: u32) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(mode))
}

/// Off Unix helpers run as duipai's own user, never as a box uid: the temporary folder's
/// own permissions hold.
#[cfg(not(unix))]
fn set_mode(_dir: &Path, _mode: u32) -> io::Result<()> {
    Ok(())
}

/// Runs `f` with this thread's helper folders, empty (a new pair when they are in use
/// already, by a helper's run within another's).
pub fn with_helper_files<T>(
    f: impl FnOnce(&HelperFiles) -> anyhow::Result<T>,
) -> anyhow::Result<T> {
    let outermost = !IN_USE.with(|in_use| in_use.replace(true));
    let kept = if outermost { IDLE.take() } else { None };
    let files = match kept.filter(|files| files.empty().is_ok()) {
        Some(files) => files,
        None => match HelperFiles::create() {
            Ok(files) => files,
            Err(e) => {
                if outermost {
                    IN_USE.with(|in_use| in_use.replace(false));
                }
                anyhow::bail!("cannot create a folder for a helper's files: {e}");
            }
        },
    };
    let result = f(&files);
    // The outermost use gives its pair back to the pool; a run within another's had one of
    // its own, removed now.
    if outermost {
        IN_USE.with(|in_use| in_use.replace(false));
        give_back(files);
    }
    result
}

/// The helper folder `path` lies in (it need not exist yet), with whether a helper writes
/// there.
// Views bind these folders on Linux only.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
pub(crate) fn folder_of(path: &Path) -> Option<(PathBuf, bool)> {
    let folders = FOLDERS.lock().unwrap_or_else(|e| e.into_inner());
    folders
        .iter()
        .find(|(dir, _)| path.starts_with(dir))
        .cloned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn a_thread_keeps_its_folders_emptied_between_uses() {
        let first = with_helper_files(|files| {
            std::fs::write(files.read.join("input"), "1").unwrap();
            std::fs::create_dir(files.write.join("feedback")).unwrap();
            assert_eq!(
                folder_of(&files.write.join("feedback/x")),
                Some((files.write.clone(), true))
            );
            assert_eq!(
                folder_of(&files.read.join("input")),
                Some((files.read.clone(), false))
            );
            let inner = with_helper_files(|inner| Ok(inner.read.clone())).unwrap();
            assert_ne!(inner, files.read, "a run within another has its own");
            Ok(files.read.clone())
        })
        .unwrap();
        let again = with_helper_files(|files| {
            assert_eq!(std::fs::read_dir(&files.read).unwrap().count(), 0);
            assert_eq!(std::fs::read_dir(&files.write).unwrap().count(), 0);
            Ok(files.read.clone())
        })
        .unwrap();
        assert_eq!(first, again);
        let mode = std::fs::metadata(first.parent().unwrap())
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o077, 0, "only duipai's user enters the folder");
        assert_eq!(folder_of(Path::new("/tmp/elsewhere")), None);
    }

    #[test]
    fn a_pair_outlives_the_thread_that_used_it() {
        // A minimization batch's workers are new threads: the pair of one that ended is kept
        // for the next (in the pool, or already taken by another thread), not removed.
        let used = std::thread::spawn(|| with_helper_files(|files| Ok(files.read.clone())))
            .join()
            .unwrap()
            .unwrap();
        assert!(used.is_dir(), "{}", used.display());
    }
}
