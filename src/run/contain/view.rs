//! What the program under test sees of the file system in its namespaces ([`View`]): the
//! machine's file system, read-only and without set-uid; its own `/proc`, `/tmp`, `/dev/shm`
//! and `/run`; empty folders over the current folder, `$HOME`, the folders duipai protects (the
//! test folder, the saved failures, a pack) and duipai's own executable; and, put back
//! read-only into those empty folders, only what the program needs to run: its executable, the
//! files and folders its arguments name, its interpreter, and its scratch folder (read-write).
//!
//! As root the program runs as a box uid, which may not enter a folder closed to others
//! (`/root`, 0700): such a folder on the way to what the program needs is emptied as well,
//! and what it needs put back in it. A program found in `PATH` (an interpreter, `python3`)
//! gets its whole installation put back (`/root/.pyenv`), for it reads its own library
//! beside it; a file named on the command line gets itself alone.
//!
//! A view is worked out once per program and scratch folder ([`View::of`], cached), and
//! built once per worker by its keeper (see `keeper`).

use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// What the program under test sees, as paths of the machine's file system.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct View {
    /// Folders replaced by an empty read-only folder, outermost first.
    pub covers: Vec<PathBuf>,
    /// Files and folders put back read-only, each at its own path: (source, is a folder).
    pub binds: Vec<(PathBuf, bool)>,
    /// Protected folders inside a folder put back, emptied again once it is.
    pub recovers: Vec<PathBuf>,
    /// Files replaced by an empty one (duipai's executable).
    pub hidden: Vec<PathBuf>,
    /// The scratch folder, read-write, at its own path.
    pub scratch: PathBuf,
    /// The program's executable as it is to be started there: its resolved path.
    pub program: PathBuf,
    /// What each of `binds` is now (device and inode): a file replaced since (a program
    /// rebuilt under `--watch`, written and renamed as editors and compilers do) makes
    /// another view, for a bind made before still shows the file it replaced.
    pub identities: Vec<(u64, u64)>,
}

/// Folders never emptied, whatever duipai is asked to protect: the system's (hiding them
/// would leave no program runnable).
const SYSTEM: [&str; 12] = [
    "/", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/dev",
    "/proc",
];

/// The folders that are fresh in every view (so never emptied or put back into).
pub(crate) const FRESH: [&str; 4] = ["/tmp", "/dev/shm", "/run", "/proc"];

thread_local! {
    /// Views already worked out, by command line and scratch folder.
    static CACHE: RefCell<HashMap<(Vec<OsString>, PathBuf), View>> = RefCell::new(HashMap::new());
}

impl View {
    /// The view of the program `exe` with `args` (absolute, as the runner resolved them),
    /// run in `scratch`, hiding `protect`; `boxed` when it runs as a box uid (which cannot
    /// enter folders closed to others). `None` when its executable cannot be found.
    pub fn of(
        exe: &OsStr,
        args: &[OsString],
        scratch: &Path,
        protect: &[PathBuf],
        boxed: bool,
    ) -> Option<View> {
        let mut key: Vec<OsString> = vec![exe.to_owned()];
        key.extend(args.iter().cloned());
        let key = (key, scratch.to_path_buf());
        let mut view = match CACHE.with(|c| c.borrow().get(&key).cloned()) {
            Some(view) => view,
            None => {
                let view = View::work_out(exe, args, scratch, protect, boxed)?;
                CACHE.with(|c| c.borrow_mut().insert(key, view.clone()));
                view
            }
        };
        view.identities = view
            .binds
            .iter()
            .map(|(path, _)| std::fs::metadata(path).map_or((0, 0), |m| (m.dev(), m.ino())))
            .collect();
        Some(view)
    }

    fn work_out(
        exe: &OsStr,
        args: &[OsString],
        scratch: &Path,
        protect: &[PathBuf],
        boxed: bool,
    ) -> Option<View> {
        let (program, needs) = needs_of(exe, args)?;
        // The home folder too: as another user than root the program keeps the user's uid,
        // and would read everything of theirs (`~/.ssh`).
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let mut covers: Vec<PathBuf> = std::env::current_dir()
            .ok()
            .into_iter()
            .chain(home)
            .chain(protect.iter().cloned())
            .filter_map(|p| std::fs::canonicalize(p).ok())
            .filter(|p| p.is_dir() && coverable(p) && !fresh(p))
            .collect();
        let binds = binds_for(needs, &mut covers, boxed);
        let covers = outermost(covers);
        let hidden = std::env::current_exe()
            .ok()
            .and_then(|e| std::fs::canonicalize(e).ok())
            .filter(|e| !covers.iter().any(|c| e.starts_with(c)) && !fresh(e))
            .into_iter()
            .collect();
        Some(View {
            recovers: recovers(protect, &binds),
            covers,
            binds,
            hidden,
            scratch: std::fs::canonicalize(scratch).ok()?,
            program,
            identities: Vec::new(),
        })
    }
}

/// The program's file, and what it needs: itself as found and, for a script, its
/// interpreter; one found in PATH brings its installation where it was found too (a virtual
/// environment's `bin/python3`, a link to the system's, reads the environment beside it); and
/// every absolute path among its arguments. `None` when it cannot be found.
fn needs_of(exe: &OsStr, args: &[OsString]) -> Option<(PathBuf, Vec<(PathBuf, Need)>)> {
    let typed = exe.as_bytes().contains(&b'/');
    let found = if typed {
        PathBuf::from(exe)
    } else {
        crate::run::find_program(exe)?
    };
    let program = std::fs::canonicalize(&found).ok()?;
    let mut needs: Vec<(PathBuf, Need)> = Vec::new();
    let need = if typed { Need::Itself } else { Need::Install };
    needs.push((program.clone(), need));
    if !typed && found.is_absolute() && found != program {
        needs.push((found.clone(), Need::Install));
    }
    if let Some(interpreter) = interpreter_of(&program) {
        needs.push((interpreter, Need::Install));
    }
    for arg in args {
        let path = Path::new(arg);
        if path.is_absolute()
            && let Ok(real) = std::fs::canonicalize(path)
        {
            needs.push((real, Need::Itself));
        }
    }
    Some((program, needs))
}

/// What is put back into the view for `needs`, each with whether it is a folder; a covered
/// folder a need lies in is added to `covers`.
fn binds_for(
    needs: Vec<(PathBuf, Need)>,
    covers: &mut Vec<PathBuf>,
    boxed: bool,
) -> Vec<(PathBuf, bool)> {
    let mut binds: Vec<(PathBuf, bool)> = Vec::new();
    for (path, need) in needs {
        // In a fresh folder (a program compiled into /tmp) the path itself is put back
        // into the fresh one; nothing of /proc is.
        let put_back = if fresh(&path) {
            if path.starts_with("/proc") {
                continue;
            }
            path.clone()
        } else {
            let Some(blocked) = blocked_ancestor(&path, covers, boxed) else {
                continue;
            };
            if !covers.contains(&blocked) {
                covers.push(blocked.clone());
            }
            match need {
                Need::Itself => path.clone(),
                Need::Install => first_below(&blocked, &path),
            }
        };
        let is_dir = put_back.is_dir();
        if !binds.iter().any(|(b, _)| put_back.starts_with(b)) {
            binds.retain(|(b, _)| !b.starts_with(&put_back));
            binds.push((put_back, is_dir));
        }
    }
    binds
}

/// The covers, outermost first, without those inside another (which is empty already).
fn outermost(mut covers: Vec<PathBuf>) -> Vec<PathBuf> {
    covers.sort_by_key(|c| c.components().count());
    covers.dedup();
    let outer = covers.clone();
    covers.retain(|c| !outer.iter().any(|o| o != c && c.starts_with(o)));
    covers
}

/// The protected folders inside a folder put back whole (`-cp /home/ana/contest`), which
/// must not come back with it.
fn recovers(protect: &[PathBuf], binds: &[(PathBuf, bool)]) -> Vec<PathBuf> {
    protect
        .iter()
        .filter_map(|p| std::fs::canonicalize(p).ok())
        .filter(|p| {
            p.is_dir()
                && binds
                    .iter()
                    .any(|(b, is_dir)| *is_dir && p != b && p.starts_with(b))
        })
        .collect()
}

/// What a program needs of a path: the file (or folder) itself, or the whole installation it
/// belongs to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Need {
    Itself,
    Install,
}

/// Whether a protected folder may be emptied: not a system folder, nor one of the fresh
/// ones, nor an ancestor of either.
fn coverable(path: &Path) -> bool {
    !SYSTEM
        .iter()
        .chain(&FRESH)
        .any(|s| Path::new(s).starts_with(path))
}

/// Whether `path` is in one of the folders every view makes fresh (where nothing of the
/// machine's is to be put back).
fn fresh(path: &Path) -> bool {
    FRESH.iter().any(|f| path.starts_with(f))
}

/// The folder in the way of `path`: the outermost cover it is in, or (`boxed`) the outermost
/// folder on its way that others may not enter.
fn blocked_ancestor(path: &Path, covers: &[PathBuf], boxed: bool) -> Option<PathBuf> {
    if fresh(path) {
        return None;
    }
    let mut at = PathBuf::new();
    for part in path.parent()?.components() {
        at.push(part);
        if covers.contains(&at) {
            return Some(at);
        }
        if boxed
            && at.as_os_str() != "/"
            && std::fs::metadata(&at).is_ok_and(|m| m.mode() & 0o001 == 0)
        {
            return Some(at);
        }
    }
    None
}

/// The entry of `ancestor` that `path` is below (`/root/.pyenv` for `/root` and
/// `/root/.pyenv/shims/python3`), or `path` itself if it is an entry of `ancestor`.
fn first_below(ancestor: &Path, path: &Path) -> PathBuf {
    let rest = path.strip_prefix(ancestor).unwrap_or(path);
    match rest.components().next() {
        Some(first) => ancestor.join(first),
        None => path.to_path_buf(),
    }
}

/// The interpreter a script names on its `#!` line, found as the kernel would (and, for
/// `#!/usr/bin/env NAME`, in `PATH`); `None` for anything that is not a script.
fn interpreter_of(program: &Path) -> Option<PathBuf> {
    use std::io::Read;
    let mut head = [0u8; 256];
    let n = std::fs::File::open(program).ok()?.read(&mut head).ok()?;
    let line = head[..n].strip_prefix(b"#!")?;
    let line = line.split(|&b| b == b'\n').next()?;
    let mut words = line
        .split(|b| b.is_ascii_whitespace())
        .filter(|w| !w.is_empty());
    let first = PathBuf::from(OsStr::from_bytes(words.next()?));
    let interpreter = if first.file_name() == Some(OsStr::new("env")) {
        let name = words.find(|w| !w.starts_with(b"-"))?;
        crate::run::find_program(OsStr::from_bytes(name))?
    } else {
        first
    };
    std::fs::canonicalize(interpreter).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn installations_and_closed_folders_are_found() {
        assert_eq!(
            first_below(Path::new("/root"), Path::new("/root/.pyenv/shims/python3")),
            Path::new("/root/.pyenv")
        );
        assert_eq!(
            first_below(Path::new("/w"), Path::new("/w/sol")),
            Path::new("/w/sol")
        );
        assert!(!coverable(Path::new("/")));
        assert!(!coverable(Path::new("/usr")));
        assert!(coverable(Path::new("/home/ana/contest")));
        let covers = [PathBuf::from("/home/ana")];
        assert_eq!(
            blocked_ancestor(Path::new("/home/ana/contest/sol"), &covers, false),
            Some(PathBuf::from("/home/ana"))
        );
        assert_eq!(
            blocked_ancestor(Path::new("/usr/bin/python3"), &covers, false),
            None
        );
        assert_eq!(
            blocked_ancestor(Path::new("/tmp/x/sol"), &covers, false),
            None
        );
    }

    #[test]
    fn a_script_names_its_interpreter() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("s.sh");
        std::fs::write(&script, "#!/bin/sh -e\necho\n").unwrap();
        assert_eq!(
            interpreter_of(&script),
            std::fs::canonicalize("/bin/sh").ok()
        );
        std::fs::write(&script, "#!/usr/bin/env -S sh\necho\n").unwrap();
        assert!(interpreter_of(&script).is_some());
        std::fs::write(&script, "\u{7f}ELF").unwrap();
        assert_eq!(interpreter_of(&script), None);
    }

    /// The current folder and the protected ones are emptied; the program, named by a path
    /// into them, is put back alone.
    #[test]
    fn the_program_is_put_back_into_the_emptied_folders() {
        let here = std::fs::canonicalize(std::env::current_dir().unwrap()).unwrap();
        // A checkout in a fresh folder (/tmp) is hidden by every view anyway: the files are
        // then made in the home folder, which is covered too.
        let home = std::env::var_os("HOME").and_then(|h| std::fs::canonicalize(h).ok());
        let base = [Some(here.clone()), home]
            .into_iter()
            .flatten()
            .find(|p| !fresh(p))
            .expect("a current or home folder outside /tmp");
        let dir = tempfile::tempdir_in(&base).unwrap();
        let program = dir.path().join("sol");
        std::fs::write(&program, "#!/bin/sh\n").unwrap();
        let tests = dir.path().join("tests");
        std::fs::create_dir(&tests).unwrap();
        let scratch = tempfile::tempdir().unwrap();
        let view = View::work_out(
            program.as_os_str(),
            &[],
            scratch.path(),
            std::slice::from_ref(&tests),
            false,
        )
        .unwrap();
        assert_eq!(view.covers.contains(&here), !fresh(&here), "{view:?}");
        assert!(view.covers.contains(&base), "{view:?}");
        assert_eq!(
            view.binds,
            [(std::fs::canonicalize(&program).unwrap(), false)]
        );
        assert_eq!(view.program, std::fs::canonicalize(&program).unwrap());
        assert!(view.recovers.is_empty());
        // A folder named whole (`java -cp DIR Main`) is put back, the tests in it emptied
        // again.
        let view = View::work_out(
            program.as_os_str(),
            &[dir.path().as_os_str().to_owned()],
            scratch.path(),
            std::slice::from_ref(&tests),
            false,
        )
        .unwrap();
        let real = std::fs::canonicalize(dir.path()).unwrap();
        assert_eq!(view.binds, [(real, true)], "{view:?}");
        assert_eq!(view.recovers, [std::fs::canonicalize(&tests).unwrap()]);
    }
}
