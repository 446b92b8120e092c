//! The program's command line as the user typed it, made to mean the same in the directory it
//! runs in, and the checks of file I/O names.
//!
//! On stdin and stdout the program runs in the caller's directory, so nothing changes. With
//! file I/O it runs in a scratch directory, so the program and its arguments that name files
//! of the caller's directory are made absolute (`python3 sol.py`, `java -cp . Main`,
//! `sh -c ./a.out`); see [`resolve_args`] for the rule.

use std::ffi::{OsStr, OsString};
use std::io;
use std::path::{Path, PathBuf};

use super::error::RunError;

/// A program path with a `/` is made absolute, because the program starts in another
/// directory; a bare name is looked up in `PATH` as usual (as a shell does).
pub(crate) fn resolve_program(program: &OsStr) -> PathBuf {
    let path = Path::new(program);
    if has_separator(program) {
        std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
    } else {
        path.to_path_buf()
    }
}

/// The file a program name starts, as `exec` would find it: the program itself (made
/// absolute) if the name has a `/`, else the first file of that name in a `PATH` directory;
/// `None` if there is no such file.
pub fn find_program(program: &OsStr) -> Option<PathBuf> {
    if has_separator(program) {
        return executable(&std::path::absolute(program).ok()?);
    }
    let dirs = std::env::var_os("PATH")?;
    std::env::split_paths(&dirs).find_map(|dir| executable(&dir.join(program)))
}

/// Whether a program name is a path rather than a name to look up: it holds a `/` (or on
/// Windows a `\` too).
pub fn has_separator(program: &OsStr) -> bool {
    let text = program.as_encoded_bytes();
    text.contains(&b'/') || (cfg!(windows) && text.contains(&b'\\'))
}

/// The file `path` starts: itself; on Windows also with `.exe` or `.com` added, as
/// CreateProcess finds `g++` as `g++.exe`.
fn executable(path: &Path) -> Option<PathBuf> {
    if path.is_file() {
        return Some(path.to_path_buf());
    }
    if !cfg!(windows) {
        return None;
    }
    [".exe", ".com"].iter().find_map(|ext| {
        let mut name = path.as_os_str().to_os_string();
        name.push(ext);
        Some(PathBuf::from(name)).filter(|p| p.is_file())
    })
}

/// The arguments for a program that runs in a scratch directory. An argument is made absolute
/// when it names something that exists in the caller's directory and reads as a path: it
/// contains a `/` (`./a.out`, `src/sol.py`), is `.` or `..`, or names a regular file
/// (`sol.py`). A bare word that only names a directory (`chess`) is left alone, as is anything
/// absolute, anything that does not exist, and the file I/O names themselves (`chess.in` means
/// the scratch directory's input, never a file of the caller's).
pub(crate) fn resolve_args(args: &[OsString], io_names: &[&str]) -> Vec<OsString> {
    args.iter()
        .map(|arg| {
            let path = Path::new(arg);
            let text = arg.as_encoded_bytes();
            if text.is_empty() || path.is_absolute() || io_names.iter().any(|n| arg == *n) {
                return arg.clone();
            }
            let reads_as_path = has_separator(arg) || text == b"." || text == b"..";
            let absolute = match std::fs::metadata(path) {
                Ok(meta) if reads_as_path || meta.is_file() => std::path::absolute(path).ok(),
                _ => None,
            };
            absolute.map_or_else(|| arg.clone(), PathBuf::into_os_string)
        })
        .collect()
}

/// A file I/O name must be a plain file name: the harness writes and reads it in the scratch
/// directory, never elsewhere.
pub(crate) fn check_file_name(name: &str) -> Result<(), RunError> {
    let plain = !name.is_empty() && Path::new(name).file_name() == Some(name.as_ref());
    if plain {
        Ok(())
    } else {
        Err(RunError::Setup {
            what: format!("file I/O name {name:?} is not a plain file name"),
            source: io::Error::from(io::ErrorKind::InvalidInput),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_must_be_plain() {
        assert!(check_file_name("chess.in").is_ok());
        assert!(check_file_name("../x").is_err());
        assert!(check_file_name("a/b").is_err());
        assert!(check_file_name("").is_err());
    }

    #[test]
    fn arguments_that_name_the_callers_files_are_made_absolute() {
        // Unit tests run in the package directory, which holds Cargo.toml and src/.
        let cwd = std::env::current_dir().unwrap();
        let args: Vec<OsString> = [
            "Cargo.toml",
            "./Cargo.toml",
            "src",
            "src/lib.rs",
            ".",
            "-O2",
            "no-such-file.py",
            "/bin/sh",
            "",
            "Cargo.lock",
        ]
        .iter()
        .map(OsString::from)
        .collect();
        let resolved = resolve_args(&args, &["Cargo.lock"]);
        let expect = |p: &str| -> OsString { std::path::absolute(cwd.join(p)).unwrap().into() };
        assert_eq!(resolved[0], expect("Cargo.toml"));
        assert_eq!(resolved[1], expect("./Cargo.toml"));
        assert_eq!(resolved[2], OsString::from("src"), "a bare directory name");
        assert_eq!(resolved[3], expect("src/lib.rs"));
        assert_eq!(resolved[4], expect("."));
        assert_eq!(resolved[5], OsString::from("-O2"));
        assert_eq!(resolved[6], OsString::from("no-such-file.py"));
        assert_eq!(resolved[7], OsString::from("/bin/sh"));
        assert_eq!(resolved[8], OsString::from(""));
        assert_eq!(resolved[9], OsString::from("Cargo.lock"), "a file I/O name");
    }

    #[test]
    fn programs_with_a_slash_are_made_absolute() {
        assert!(resolve_program(OsStr::new("./a.out")).is_absolute());
        assert_eq!(resolve_program(OsStr::new("python3")), Path::new("python3"));
    }
}
