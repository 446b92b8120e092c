//! The environment a program starts with: with containment on, a short allowlist (`PATH`,
//! the locale, `HOME` pointing to its scratch folder, `ONLINE_JUDGE`), what `--env` adds,
//! and nothing else of duipai's (no CI secret, no `PYTHONUNBUFFERED` that would flush what a
//! program forgot to); with containment off, duipai's own environment but for the
//! buffering variables a judge does not set ([`crate::run::environment`]). Helpers (the
//! setter's own programs) get that too, contained or not, unless they run in the box (a
//! package's): then they get the allowlist.

use std::ffi::{CString, OsString};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use super::Role;

/// The variables passed from duipai's environment to a program when they are set.
const PASSED: [&str; 3] = ["PATH", "LANG", "LC_ALL"];

/// `PATH` when duipai has none.
const DEFAULT_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// The environment of a run of `role`: `home` is the program's `HOME` (its scratch folder),
/// `run_var` (`NAME=VALUE`) a variable that names the run, replacing one of that name.
/// `contained` picks the allowlist; `extra` are the `--env` entries (`NAME` passes duipai's
/// value, `NAME=VALUE` sets one).
pub(crate) fn environment(
    role: Role,
    contained: bool,
    home: Option<&Path>,
    run_var: Option<&str>,
    extra: &[OsString],
) -> Vec<CString> {
    let mut vars: Vec<Vec<u8>> = Vec::with_capacity(16);
    if contained && (role == Role::Program || super::helpers_boxed()) {
        for name in PASSED {
            if let Some(value) = std::env::var_os(name) {
                vars.push(entry(name.as_bytes(), value.as_bytes()));
            } else if name == "PATH" {
                vars.push(entry(b"PATH", DEFAULT_PATH.as_bytes()));
            }
        }
        if let Some(home) = home {
            vars.push(entry(b"HOME", home.as_os_str().as_bytes()));
        }
        // Withheld buffering variables the user keeps on purpose, as uncontained.
        for name in crate::run::environment::kept() {
            if let Some(value) = std::env::var_os(name) {
                vars.push(entry(name.as_bytes(), value.as_bytes()));
            }
        }
        vars.push(b"ONLINE_JUDGE=1".to_vec());
        // glibc's fatal messages (a detected heap corruption) go to stderr, not to a
        // terminal the program does not have.
        vars.push(b"LIBC_FATAL_STDERR_=1".to_vec());
    } else {
        for (name, value) in std::env::vars_os() {
            let var = entry(name.as_bytes(), value.as_bytes());
            if crate::run::environment::passed(&var) {
                vars.push(var);
            }
        }
    }
    for given in extra {
        match given.as_bytes().iter().position(|&b| b == b'=') {
            Some(_) => set(&mut vars, given.as_bytes().to_vec()),
            None => {
                if let Some(value) = std::env::var_os(given) {
                    set(&mut vars, entry(given.as_bytes(), value.as_bytes()));
                }
            }
        }
    }
    if let Some(run_var) = run_var {
        set(&mut vars, run_var.as_bytes().to_vec());
    }
    vars.into_iter()
        .filter_map(|v| CString::new(v).ok())
        .collect()
}

fn entry(name: &[u8], value: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(name.len() + 1 + value.len());
    v.extend_from_slice(name);
    v.push(b'=');
    v.extend_from_slice(value);
    v
}

/// Puts `NAME=VALUE` in place of any variable of that name.
fn set(vars: &mut Vec<Vec<u8>>, var: Vec<u8>) {
    let name_len = var
        .iter()
        .position(|&b| b == b'=')
        .map_or(var.len(), |i| i + 1);
    vars.retain(|v| !v.starts_with(&var[..name_len]));
    vars.push(var);
}

/// The names of the variables of `env`.
#[cfg(test)]
fn names(env: &[CString]) -> Vec<String> {
    env.iter()
        .map(|v: &CString| {
            let bytes = v.as_bytes();
            let name = bytes.split(|&b| b == b'=').next().unwrap_or_default();
            String::from_utf8_lossy(name).into_owned()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_contained_program_gets_the_allowlist_and_what_is_asked_for() {
        let home = Path::new("/tmp/duipai-run-x");
        let extra = [
            OsString::from("DUIPAI_NO_SUCH_VARIABLE_EVER"),
            OsString::from("GREETING=hi there"),
            OsString::from("PATH"),
        ];
        let env = environment(
            Role::Program,
            true,
            Some(home),
            Some("DUIPAI_RUN=7"),
            &extra,
        );
        let names = names(&env);
        for name in ["PATH", "HOME", "ONLINE_JUDGE", "GREETING", "DUIPAI_RUN"] {
            assert!(names.contains(&name.to_string()), "{names:?}");
        }
        assert_eq!(
            names.iter().filter(|n| *n == "PATH").count(),
            1,
            "{names:?}"
        );
        assert!(!names.contains(&"DUIPAI_NO_SUCH_VARIABLE_EVER".to_string()));
        assert!(
            env.iter()
                .any(|v| v.as_bytes() == b"HOME=/tmp/duipai-run-x")
        );
        assert!(env.iter().any(|v| v.as_bytes() == b"GREETING=hi there"));
        // Nothing else of the harness's: cargo's own variables are not passed.
        assert!(!names.iter().any(|n| n.starts_with("CARGO")), "{names:?}");
    }

    #[test]
    fn helpers_and_uncontained_programs_keep_the_environment() {
        let env = environment(Role::Helper, true, None, None, &[]);
        assert!(names(&env).iter().any(|n| n.starts_with("CARGO")));
        let env = environment(Role::Program, false, None, Some("DUIPAI_RUN=3"), &[]);
        assert!(names(&env).iter().any(|n| n.starts_with("CARGO")));
        assert_eq!(env.last().unwrap().as_bytes(), b"DUIPAI_RUN=3");
    }
}
