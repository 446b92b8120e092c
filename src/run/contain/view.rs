//! What the program under test sees of the file system in its namespaces ([`View`]):
//! nothing but what it needs, deny by default, as isolate's box does. Its root is a fresh
//! read-only `tmpfs` holding:
//! - the machine's runtime folders ([`RUNTIME`]: `/usr`, `/bin`, `/sbin`, `/lib*`, `/etc`),
//!   read-only and without set-uid (a folder that is a link to another, as `/bin` to
//!   `usr/bin` on merged systems, is the same link);
//! - the program's executable, its interpreter, and the files and folders its arguments
//!   name, each read-only at its own path; a program found in `PATH` outside the runtime
//!   folders (`~/.pyenv/shims/python3`) with its installation (`~/.pyenv`), for it reads its
//!   own library beside it;
//! - its scratch folder, read-write, at its own path;
//! - its own `/proc`, `/tmp` and `/dev/shm` (`tmpfs`), and a `/dev` of `null`, `zero`,
//!   `full`, `random`, `urandom` and the `fd`, `stdin`, `stdout`, `stderr` links.
//!
//! Nothing else of the machine is there: not the current folder, `$HOME`, `/var`, `/run` or
//! `/srv`, and so no Unix socket of the machine's either (a socket is reachable wherever its
//! file is, read-only or not). A protected folder (the test folder, the saved failures, a
//! pack) inside a folder put back whole (`java -cp DIR`) is emptied again, and duipai's own
//! executable, if it is in the view, is an empty file.
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
    /// The runtime folders there are on this machine, each shown whole and read-only, or
    /// made as the same link when it is one (with the link's text).
    pub runtime: Vec<(PathBuf, Option<PathBuf>)>,
    /// Files and folders put back read-only, each at its own path: (source, is a folder).
    pub binds: Vec<(PathBuf, bool)>,
    /// Folders put back read-write, each at its own path: where a contained helper writes
    /// what it gives back (see `files`).
    pub writable: Vec<PathBuf>,
    /// Protected folders inside a folder put back, emptied again once it is.
    pub recovers: Vec<PathBuf>,
    /// Files replaced by an empty one (duipai's executable).
    pub hidden: Vec<PathBuf>,
    /// The scratch folder, read-write, at its own path.
    pub scratch: PathBuf,
    /// The program's executable as it is to be started there: its resolved path.
    pub program: PathBuf,
    /// How many bytes each of its `/tmp` and `/dev/shm` may hold (0: as the kernel
    /// allows): its memory and output limits, so that without a cgroup a program cannot fill
    /// the machine's memory with files (with one, the cgroup stops it first).
    pub space: u64,
    /// What each of `binds` is now (device and inode): a file replaced since (a program
    /// rebuilt under `--watch`, written and renamed as editors and compilers do) makes
    /// another view, for a bind made before still shows the file it replaced.
    pub identities: Vec<(u64, u64)>,
}

/// The machine's folders every view shows, read-only: where programs, their libraries and
/// the system's settings live (isolate binds the same, `/etc` aside, which holds the
/// dynamic linker's cache, the locale and the alternatives a runtime is found by).
pub(crate) const RUNTIME: [&str; 8] = [
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc",
];

/// The device files every view has, bound from the machine's.
pub(crate) const DEVICES: [&str; 5] = [
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
];

thread_local! {
    /// Views already worked out, by command line and scratch folder.
    static CACHE: RefCell<HashMap<(Vec<OsString>, PathBuf), View>> = RefCell::new(HashMap::new());
}

impl View {
    /// The view of the program `exe` with `args` (absolute, as the runner resolved them),
    /// run in `scratch`, hiding `protect` where a folder put back whole holds it. `None`
    /// when its executable cannot be found.
    pub fn of(exe: &OsStr, args: &[OsString], scratch: &Path, protect: &[PathBuf]) -> Option<View> {
        let mut key: Vec<OsString> = vec![exe.to_owned()];
        key.extend(args.iter().cloned());
        let key = (key, scratch.to_path_buf());
        let mut view = match CACHE.with(|c| c.borrow().get(&key).cloned()) {
            Some(view) => view,
            None => {
                let view = View::work_out(exe, args, scratch, protect)?;
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

    /// The view of no program: the runtime folders and `scratch` (what a probe needs).
    pub fn bare(scratch: &Path) -> View {
        View {
            runtime: runtime(),
            scratch: scratch.to_path_buf(),
            ..View::default()
        }
    }

    fn work_out(
        exe: &OsStr,
        args: &[OsString],
        scratch: &Path,
        protect: &[PathBuf],
    ) -> Option<View> {
        let (program, needs) = needs_of(exe, args)?;
        // The folders an installation is found below: the current folder, the home folder
        // and the protected ones (`~/.pyenv` is the installation of `~/.pyenv/shims/python3`).
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let homes: Vec<PathBuf> = std::env::current_dir()
            .ok()
            .into_iter()
            .chain(home)
            .chain(protect.iter().cloned())
            .filter_map(|p| std::fs::canonicalize(p).ok())
            .filter(|p| p.is_dir() && p != Path::new("/"))
            .collect();
        let (needs, writable) = helper_folders(needs);
        let binds = binds_for(needs, &homes);
        let runtime = runtime();
        let hidden = std::env::current_exe()
            .ok()
            .and_then(|e| std::fs::canonicalize(e).ok())
            .filter(|e| shown(e, &runtime, &binds))
            .into_iter()
            .collect();
        Some(View {
            writable,
            recovers: recovers(protect, &binds),
            runtime,
            binds,
            hidden,
            scratch: std::fs::canonicalize(scratch).ok()?,
            program,
            space: 0,
            identities: Vec::new(),
        })
    }
}

/// `needs` with what lies in a helper's folders (see `files`) replaced by the folder itself:
/// the folder of the files it reads, put back whole and read-only (so that the view stays
/// the same whatever files are there), and the folder of those it writes, returned apart
/// to be put back read-write.
fn helper_folders(needs: Vec<(PathBuf, Need)>) -> (Vec<(PathBuf, Need)>, Vec<PathBuf>) {
    let mut kept = Vec::new();
    let mut writable: Vec<PathBuf> = Vec::new();
    for (path, need) in needs {
        match super::files::folder_of(&path) {
            Some((dir, true)) => {
                if !writable.contains(&dir) {
                    writable.push(dir);
                }
            }
            Some((dir, false)) => {
                if !kept.iter().any(|(p, _)| *p == dir) {
                    kept.push((dir, Need::Itself));
                }
            }
            None => kept.push((path, need)),
        }
    }
    (kept, writable)
}

/// The runtime folders there are here, each with its link's text when it is a link.
fn runtime() -> Vec<(PathBuf, Option<PathBuf>)> {
    RUNTIME
        .iter()
        .map(PathBuf::from)
        .filter_map(|dir| {
            let meta = std::fs::symlink_metadata(&dir).ok()?;
            if meta.file_type().is_symlink() {
                let target = std::fs::read_link(&dir).ok()?;
                Some((dir, Some(target)))
            } else {
                meta.is_dir().then_some((dir, None))
            }
        })
        .collect()
}

/// Whether `path` is in the view: in a runtime folder, or in something put back.
fn shown(path: &Path, runtime: &[(PathBuf, Option<PathBuf>)], binds: &[(PathBuf, bool)]) -> bool {
    runtime.iter().any(|(dir, _)| path.starts_with(dir))
        || binds.iter().any(|(bind, _)| path.starts_with(bind))
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
            && let Some((dir, _)) = super::files::folder_of(path)
        {
            // A helper's file, there or to be written: its folder (see `helper_folders`).
            needs.push((dir, Need::Itself));
        } else if path.is_absolute()
            && let Ok(real) = std::fs::canonicalize(path)
        {
            needs.push((real, Need::Itself));
        }
    }
    Some((program, needs))
}

/// What is put back into the view for `needs`, each with whether it is a folder: nothing
/// for what a runtime folder shows already or what lies in `/proc` or `/dev`; an
/// installation below one of `homes` from there down (`~/.pyenv`), one elsewhere from the
/// folder its `bin` is in (`/opt/pypy` for `/opt/pypy/bin/pypy3`).
fn binds_for(needs: Vec<(PathBuf, Need)>, homes: &[PathBuf]) -> Vec<(PathBuf, bool)> {
    let mut binds: Vec<(PathBuf, bool)> = Vec::new();
    for (path, need) in needs {
        let in_runtime = RUNTIME.iter().any(|r| path.starts_with(r));
        if in_runtime || path.starts_with("/proc") || path.starts_with("/dev") {
            continue;
        }
        let put_back = match need {
            Need::Itself => path.clone(),
            Need::Install => installation(&path, homes),
        };
        let is_dir = put_back.is_dir();
        if !binds.iter().any(|(b, _)| put_back.starts_with(b)) {
            binds.retain(|(b, _)| !b.starts_with(&put_back));
            binds.push((put_back, is_dir));
        }
    }
    binds
}

/// The installation a program at `path` belongs to: below the outermost of `homes` it is
/// in, the entry it is under; elsewhere the folder its `bin` (or `sbin`, or pyenv's `shims`)
/// folder is in, else its own folder.
fn installation(path: &Path, homes: &[PathBuf]) -> PathBuf {
    if let Some(home) = homes
        .iter()
        .filter(|h| path.starts_with(h) && path != h.as_path())
        .min_by_key(|h| h.components().count())
    {
        return first_below(home, path);
    }
    let Some(dir) = path.parent() else {
        return path.to_path_buf();
    };
    let named = |names: &[&str]| {
        dir.file_name()
            .is_some_and(|n| names.iter().any(|x| n == *x))
    };
    match dir.parent() {
        Some(prefix) if named(&["bin", "sbin", "shims"]) && prefix != Path::new("/") => {
            prefix.to_path_buf()
        }
        _ => dir.to_path_buf(),
    }
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
    fn installations_are_found() {
        let homes = [PathBuf::from("/root"), PathBuf::from("/home/ana/contest")];
        let install = |p: &str| installation(Path::new(p), &homes);
        assert_eq!(
            install("/root/.pyenv/shims/python3"),
            Path::new("/root/.pyenv")
        );
        assert_eq!(
            install("/home/ana/contest/sol"),
            Path::new("/home/ana/contest/sol")
        );
        assert_eq!(install("/opt/pypy/bin/pypy3"), Path::new("/opt/pypy"));
        assert_eq!(install("/opt/tool/run"), Path::new("/opt/tool"));
        assert_eq!(install("/bin/x"), Path::new("/bin"));
        assert_eq!(
            first_below(Path::new("/w"), Path::new("/w/sol")),
            Path::new("/w/sol")
        );
        // What a runtime folder shows, or /proc and /dev, is not put back.
        let needs = vec![
            (PathBuf::from("/usr/bin/python3"), Need::Install),
            (PathBuf::from("/proc/self/fd/0"), Need::Itself),
            (PathBuf::from("/dev/null"), Need::Itself),
        ];
        assert!(binds_for(needs, &homes).is_empty());
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

    /// The program, named by a path, is put back alone; a folder named whole comes back
    /// with the protected folders in it emptied again; the runtime folders are there.
    #[test]
    fn the_program_and_what_its_arguments_name_are_put_back() {
        let dir = tempfile::tempdir().unwrap();
        let program = dir.path().join("sol");
        std::fs::write(&program, "#!/bin/sh\n").unwrap();
        let tests = dir.path().join("tests");
        std::fs::create_dir(&tests).unwrap();
        let scratch = tempfile::tempdir().unwrap();
        let protect = std::slice::from_ref(&tests);
        let view = View::work_out(program.as_os_str(), &[], scratch.path(), protect).unwrap();
        let real = std::fs::canonicalize(&program).unwrap();
        assert_eq!(view.binds, [(real.clone(), false)]);
        assert_eq!(view.program, real);
        assert!(view.recovers.is_empty());
        assert!(
            view.runtime.iter().any(|(d, _)| d == Path::new("/usr")),
            "{view:?}"
        );
        assert!(!view.runtime.iter().any(|(d, _)| d == Path::new("/var")));
        // A folder named whole (`java -cp DIR Main`) is put back, the tests in it emptied
        // again.
        let whole = [dir.path().as_os_str().to_owned()];
        let view = View::work_out(program.as_os_str(), &whole, scratch.path(), protect).unwrap();
        let real = std::fs::canonicalize(dir.path()).unwrap();
        assert_eq!(view.binds, [(real, true)], "{view:?}");
        assert_eq!(view.recovers, [std::fs::canonicalize(&tests).unwrap()]);
    }
}
