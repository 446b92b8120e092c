//! Python interpreters behind version managers' shims (pyenv, asdf, mise): a `python3` in
//! PATH that is a script runs a chain of shell scripts before Python starts, about 100 ms a
//! start on a contest machine, which a Python generator or brute force pays on every case.
//! The interpreter such a shim settles on is asked once and started directly.

use std::collections::HashMap;
use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use super::Compiler;
use super::process;
use crate::run::find_program;

/// Whether a program name is a Python interpreter's: `python`, `python3`, `python3.12`,
/// `pypy3`.
pub(super) fn is_python_name(name: &str) -> bool {
    name.strip_prefix("python")
        .or_else(|| name.strip_prefix("pypy"))
        .is_some_and(|version| version.chars().all(|c| c.is_ascii_digit() || c == '.'))
}

/// `command` with a Python interpreter that is a shim script replaced by the executable the
/// shim starts; any other command as it is. The shim is asked in duipai's directory, where the
/// user's `.python-version` is, once per duipai run.
pub(super) fn unshimmed(mut command: Vec<OsString>, timeout: Duration) -> Vec<OsString> {
    if let Some(executable) = command.first().and_then(|first| behind(first, timeout)) {
        command[0] = executable.into_os_string();
    }
    command
}

/// [`unshimmed`] for a compiler's words (an interpreter is a language's compiler here).
pub(super) fn unshimmed_compiler(mut compiler: Compiler, timeout: Duration) -> Compiler {
    let first = compiler.words.first().map(OsString::from);
    if let Some(executable) = first.and_then(|first| behind(&first, timeout)) {
        compiler.words[0] = executable.to_string_lossy().into_owned();
    }
    compiler
}

/// The executable behind `program` when it names Python and is a shim script.
fn behind(program: &OsStr, timeout: Duration) -> Option<PathBuf> {
    let named_python = Path::new(program)
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(is_python_name);
    if !named_python {
        return None;
    }
    let shim = find_program(program).filter(|p| is_script(p))?;
    executable_behind(&shim, timeout)
}

/// Whether the file starts with `#!`: a script, never the interpreter itself.
fn is_script(path: &Path) -> bool {
    let mut start = [0u8; 2];
    File::open(path)
        .and_then(|mut f| f.read_exact(&mut start))
        .is_ok()
        && start == *b"#!"
}

/// The executable a shim starts (Python's own `sys.executable`), remembered per shim; `None`
/// when it cannot say (it fails, or names no file), and the shim is then run as it is.
fn executable_behind(shim: &Path, timeout: Duration) -> Option<PathBuf> {
    static SEEN: OnceLock<Mutex<HashMap<PathBuf, Option<PathBuf>>>> = OnceLock::new();
    let seen = SEEN.get_or_init(Default::default);
    if let Some(known) = seen.lock().unwrap_or_else(|e| e.into_inner()).get(shim) {
        return known.clone();
    }
    let mut asked = Command::new(shim);
    asked.args(["-c", "import sys; sys.stdout.write(sys.executable or '')"]);
    let found = process::run(&mut asked, timeout)
        .ok()
        .filter(|captured| captured.status.is_some_and(|s| s.success()))
        .map(|captured| PathBuf::from(String::from_utf8_lossy(&captured.stdout).into_owned()))
        .filter(|executable| executable.is_absolute() && executable.is_file());
    seen.lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(shim.to_path_buf(), found.clone());
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn python_names() {
        for name in ["python", "python3", "python3.12", "pypy3", "pypy"] {
            assert!(is_python_name(name), "{name}");
        }
        for name in ["python3-config", "pythonista", "sh", "py", "ipython3"] {
            assert!(!is_python_name(name), "{name}");
        }
    }

    fn executable(path: &Path, text: &str) {
        std::fs::write(path, text).unwrap();
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    #[test]
    fn a_shim_is_replaced_by_what_it_names_and_anything_else_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real-python");
        executable(&real, "#!/bin/sh\nexit 0\n");
        // A shim that answers as Python would, with the file it starts.
        let shim = dir.path().join("python3");
        let answer = format!("#!/bin/sh\nprintf '%s' '{}'\n", real.display());
        executable(&shim, &answer);
        let timeout = Duration::from_secs(10);
        let words = |w: &[&Path]| -> Vec<OsString> { w.iter().map(|p| p.into()).collect() };
        let script = Path::new("gen.py");
        assert_eq!(
            unshimmed(words(&[&shim, script]), timeout),
            words(&[&real, script])
        );
        // Not named like Python: kept, whatever it is.
        let other = dir.path().join("runner");
        executable(&other, &answer);
        assert_eq!(
            unshimmed(words(&[&other, script]), timeout),
            words(&[&other, script])
        );
        // A shim that names no file is run as it is.
        let broken = dir.path().join("pypy3");
        executable(&broken, "#!/bin/sh\nprintf '%s' /no/such/python\n");
        assert_eq!(
            unshimmed(words(&[&broken, script]), timeout),
            words(&[&broken, script])
        );
    }
}
