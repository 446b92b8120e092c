//! The scratch directories programs run in: one per running worker (each worker of `test`
//! and `stress` has its own), made on its first run, emptied after every run, kept between
//! runs in one pool, and removed when duipai is done ([`remove_all`], and at exit). For a
//! program in namespaces the directory is the mount point of a `tmpfs` of theirs, where its
//! files are (`Scratch::files`, through their keeper), so that what it writes is bounded
//! memory rather than the machine's disk.
//!
//! Directories outlive their threads because a contained program's namespaces are made for
//! its directory: the workers of each minimization batch are new threads, and a directory
//! of their own each time meant new namespaces for every batch, hundreds of them left idle.
//! A thread asks first for the directory it used last, so that its kept spawner still fits.
//! The pool, not the threads, holds the idle directories: the destructors of a thread's own
//! storage may run after a scoped join has returned, even after the process is done.
//!
//! A process killed with `SIGKILL` removes nothing. Its temporary folders (`duipai-run-*`,
//! and every other kind of [`SWEPT`]: the warm helpers', a contained helper's files, a
//! judged plan's tests, ...) carry its pid and its start time in their names
//! ([`folder_prefix`]), and the next duipai that makes one removes those of processes that
//! no longer exist ([`sweep`]): a pid alone could be another process's by then, and a live
//! run's folders are never touched. Each is made by [`temp_folder`], open to its owner
//! alone.

use std::fs;
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use super::idle::Idle;

/// A directory of duipai's; removed with everything in it when dropped.
struct Owned {
    path: PathBuf,
}

impl Drop for Owned {
    fn drop(&mut self) {
        if fs::remove_dir_all(&self.path).is_err() {
            make_removable(&self.path);
            let _ = fs::remove_dir_all(&self.path);
        }
    }
}

/// The directories not in use.
static IDLE: Idle<Owned> = Idle::new();

extern "C" fn remove_idle_at_exit() {
    IDLE.remove_at_exit();
}

/// Removes the idle directories: for a harness that is done.
pub fn remove_all() {
    IDLE.remove_all();
}

/// The scratch directory, taken for one run. Dropping it empties it and gives it back to the
/// pool; one that cannot be emptied is removed instead, and the next run gets a new one.
pub(crate) struct Scratch {
    dir: Option<Owned>,
    emptied: bool,
    /// Where the harness finds the program's files, when not in the directory itself: a
    /// contained program's working folder is a `tmpfs` of its namespaces, found through
    /// their keeper (`/proc/KEEPER/root/...`), the directory its mount point and its name.
    files_at: Option<PathBuf>,
}

impl Scratch {
    /// This thread's scratch directory, empty.
    pub(crate) fn acquire() -> io::Result<Scratch> {
        let idle = IDLE.take();
        let dir = match idle {
            // A program may have removed it, or another process; then start over.
            Some(dir) if dir.path.is_dir() => dir,
            _ => create()?,
        };
        Ok(Scratch {
            dir: Some(dir),
            emptied: false,
            files_at: None,
        })
    }

    pub(crate) fn path(&self) -> &Path {
        match &self.dir {
            Some(dir) => &dir.path,
            None => Path::new(""),
        }
    }

    /// Where the program's files are from now on (see [`Scratch::files_at`]).
    pub(crate) fn set_files_at(&mut self, at: Option<PathBuf>) {
        self.files_at = at;
    }

    /// Where the harness reads and removes the program's files.
    pub(crate) fn files(&self) -> &Path {
        self.files_at.as_deref().unwrap_or_else(|| self.path())
    }

    /// Writes a file into the directory. If the directory has become unusable (a program may
    /// have taken its permissions away), a new one replaces it once.
    #[cfg(test)]
    pub(crate) fn write(&mut self, name: &str, bytes: &[u8]) -> io::Result<()> {
        if fs::write(self.path().join(name), bytes).is_ok() {
            return Ok(());
        }
        self.dir = Some(create()?);
        fs::write(self.path().join(name), bytes)
    }

    /// Empties the directory; returns the names it held, sorted, each directory's with a `/`.
    pub(crate) fn empty(&mut self) -> Vec<String> {
        self.emptied = true;
        let Some(dir) = &self.dir else {
            return Vec::new();
        };
        let mut names = Vec::new();
        let mut clean = true;
        let files = self.files_at.clone().unwrap_or_else(|| dir.path.clone());
        match fs::read_dir(&files) {
            Ok(entries) => {
                for entry in entries {
                    let Ok(entry) = entry else {
                        clean = false;
                        continue;
                    };
                    let path = entry.path();
                    let mut name = entry.file_name().to_string_lossy().into_owned();
                    let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
                    let removed = if is_dir {
                        name.push('/');
                        fs::remove_dir_all(&path).or_else(|_| {
                            make_removable(&path);
                            fs::remove_dir_all(&path)
                        })
                    } else {
                        fs::remove_file(&path)
                    };
                    clean &= removed.is_ok();
                    names.push(name);
                }
            }
            Err(_) => clean = false,
        }
        if !clean {
            // Dropping it makes a last attempt at removing it; the next run gets a new one.
            self.dir = None;
        }
        names.sort();
        names
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !self.emptied {
            self.empty();
        }
        if let Some(dir) = self.dir.take() {
            IDLE.give_back(dir, remove_idle_at_exit);
        }
    }
}

fn create() -> io::Result<Owned> {
    let dir = temp_folder("run")?;
    Ok(Owned { path: dir.keep() })
}

/// A temporary folder of duipai's for `kind` (one of [`SWEPT`]), named for this process
/// ([`folder_prefix`]) and open to its owner alone (0700: tempfile alone makes a folder as
/// the umask allows, 0755 under the usual one, which lets every user read what is in it).
/// The first one a process makes sweeps away those of killed processes ([`sweep`]).
pub(crate) fn temp_folder(kind: &str) -> io::Result<tempfile::TempDir> {
    debug_assert!(SWEPT.contains(&kind), "{kind} is not swept");
    sweep();
    tempfile::Builder::new()
        .prefix(&folder_prefix(kind))
        .permissions(fs::Permissions::from_mode(0o700))
        .tempdir()
}

/// The kinds of folders [`temp_folder`] makes and [`sweep`] removes:
/// `duipai-KIND-PID-START-...`: the programs' working folders, the warm helpers' hook, a
/// contained helper's files, the tests of a plan being judged, an output validator's copy,
/// a generator's recorded choices, an interactor's files, and the namespaces' probe.
pub(crate) const SWEPT: [&str; 8] = [
    "run",
    "warm",
    "helper",
    "judge",
    "validator",
    "choices",
    "interact",
    "probe",
];

/// The name a folder of `kind` of this process starts with: `duipai-run-PID-START-`, where
/// START is the process's start time (clock ticks after boot, `/proc/PID/stat`'s 22nd field),
/// which tells this process from a later one given the same pid.
pub(crate) fn folder_prefix(kind: &str) -> String {
    let pid = std::process::id();
    let start = start_time(pid).unwrap_or(0);
    format!("duipai-{kind}-{pid}-{start}-")
}

/// The start time of the process `pid`, or `None` when there is no such process.
fn start_time(pid: u32) -> Option<u64> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command's name, in parentheses, may hold spaces: count from after it.
    let rest = stat.get(stat.rfind(')')? + 1..)?;
    rest.split_whitespace().nth(19)?.parse().ok()
}

/// The pid and start time a swept folder's name carries, if it is one of [`SWEPT`]'s.
fn owner_of(name: &str) -> Option<(u32, u64)> {
    let rest = name.strip_prefix("duipai-")?;
    let (kind, rest) = rest.split_once('-')?;
    if !SWEPT.contains(&kind) {
        return None;
    }
    let mut parts = rest.splitn(3, '-');
    let pid = parts.next()?.parse().ok()?;
    let start = parts.next()?.parse().ok()?;
    parts.next()?;
    Some((pid, start))
}

/// Removes, once per process, the folders of [`SWEPT`]'s kinds in the temporary folder that
/// this user's processes left and that no process owns any more: the pid they name is gone,
/// or is another process now (its start time differs). Folders of other users, of live
/// processes, and links are left alone.
pub(crate) fn sweep() {
    static SWEPT_ONCE: std::sync::Once = std::sync::Once::new();
    SWEPT_ONCE.call_once(|| {
        sweep_in(&std::env::temp_dir());
    });
}

/// [`sweep`] in `dir`; returns how many folders it removed.
fn sweep_in(dir: &Path) -> usize {
    use std::os::unix::fs::MetadataExt;
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some((pid, start)) = name.to_str().and_then(owner_of) else {
            continue;
        };
        let Ok(meta) = fs::symlink_metadata(entry.path()) else {
            continue;
        };
        if !meta.is_dir() || meta.uid() != me || start_time(pid) == Some(start) {
            continue;
        }
        let path = entry.path();
        if fs::remove_dir_all(&path).is_err() {
            make_removable(&path);
            let _ = fs::remove_dir_all(&path);
        }
        removed += usize::from(!path.exists());
    }
    removed
}

/// Gives the owner full access to every directory below `path`, so that a tree a program left
/// without write or search permission can be removed.
fn make_removable(path: &Path) {
    let _ = fs::set_permissions(path, fs::Permissions::from_mode(0o700));
    if let Ok(entries) = fs::read_dir(path) {
        for entry in entries.flatten() {
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                make_removable(&entry.path());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_directory_per_thread_emptied_between_runs() {
        let first = {
            let mut scratch = Scratch::acquire().expect("scratch");
            scratch.write("a.in", b"1").expect("write");
            fs::create_dir(scratch.path().join("sub")).expect("mkdir");
            fs::write(scratch.path().join("sub/x"), "x").expect("write");
            assert_eq!(scratch.empty(), ["a.in", "sub/"]);
            scratch.path().to_path_buf()
        };
        let scratch = Scratch::acquire().expect("scratch again");
        assert_eq!(scratch.path(), first, "the directory is reused");
        assert_eq!(fs::read_dir(&first).unwrap().count(), 0, "and empty");
        // Another thread at the same time has its own.
        let other = std::thread::spawn(|| Scratch::acquire().unwrap().path().to_path_buf())
            .join()
            .unwrap();
        assert_ne!(other, first, "another thread has its own");
        assert!(other.is_dir(), "kept when its thread ended");
        drop(scratch);
    }

    /// A thread that ends leaves its directory to the threads to come (the namespaces of a
    /// contained program are made for its directory), where nothing else of this process
    /// takes it: a thread's own comes first.
    #[test]
    fn an_ended_threads_directory_is_a_spare() {
        let ended = std::thread::spawn(|| Scratch::acquire().unwrap().path().to_path_buf())
            .join()
            .unwrap();
        assert!(ended.is_dir(), "removed when its thread ended");
    }

    /// Folders of processes that are gone, or whose pid is another process's now, are
    /// removed; this process's and foreign names are kept.
    #[test]
    fn stale_folders_are_told_by_pid_and_start_time() {
        let tmp = tempfile::tempdir().unwrap();
        let me = std::process::id();
        let start = start_time(me).expect("this process's start time");
        assert_eq!(folder_prefix("run"), format!("duipai-run-{me}-{start}-"));
        assert_eq!(
            owner_of(&format!("duipai-warm-{me}-{start}-x1")),
            Some((me, start))
        );
        assert_eq!(
            owner_of(&format!("duipai-helper-{me}-{start}-x1")),
            Some((me, start))
        );
        assert_eq!(owner_of("duipai-check-1-2-x"), None);
        assert_eq!(owner_of("duipai-run-abc"), None);
        let live = tmp.path().join(format!("duipai-run-{me}-{start}-live"));
        let reused = tmp
            .path()
            .join(format!("duipai-run-{me}-{}-reused", start + 1));
        // pid_max is at most 2^22: no process has this pid.
        let gone = tmp.path().join("duipai-warm-4194305-1-gone");
        let helper = tmp.path().join("duipai-helper-4194305-1-gone");
        let judge = tmp.path().join("duipai-judge-4194306-1-gone");
        let foreign = tmp.path().join("duipai-run-old");
        for dir in [&live, &reused, &gone, &helper, &judge, &foreign] {
            fs::create_dir(dir).unwrap();
            fs::write(dir.join("f"), "x").unwrap();
        }
        fs::set_permissions(&gone, fs::Permissions::from_mode(0o500)).unwrap();
        assert_eq!(sweep_in(tmp.path()), 4);
        assert!(live.is_dir() && foreign.is_dir());
        assert!(!reused.exists() && !gone.exists() && !helper.exists() && !judge.exists());
    }

    /// Every temporary folder of duipai's is its user's alone, whatever the umask, and
    /// named for the sweep.
    #[test]
    fn temporary_folders_are_open_to_their_owner_alone() {
        for kind in SWEPT {
            let dir = temp_folder(kind).unwrap();
            let mode = fs::metadata(dir.path()).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o700, "{kind}: {mode:o}");
            let name = dir.path().file_name().unwrap().to_str().unwrap();
            assert_eq!(
                owner_of(name),
                Some((std::process::id(), start_time(std::process::id()).unwrap()))
            );
        }
        // A working folder of the runs too (Scratch makes it through temp_folder).
        let scratch = Scratch::acquire().unwrap();
        let mode = fs::metadata(scratch.path()).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700, "{mode:o}");
    }

    #[test]
    fn a_directory_that_cannot_be_used_is_replaced() {
        let mut scratch = Scratch::acquire().expect("scratch");
        let old = scratch.path().to_path_buf();
        fs::remove_dir(&old).expect("remove it behind its back");
        scratch.write("a.in", b"1").expect("written to a new one");
        assert_ne!(scratch.path(), old);
        assert!(scratch.path().join("a.in").is_file());
    }
}
