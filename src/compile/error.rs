//! Why a source could not be prepared, and the pieces its messages are made of (a
//! compiler's output capped, an exit status described).

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::*;

/// A compiler's messages are cut after this many lines or bytes: the first errors are the ones
/// to fix, and a template error can run to megabytes.
pub(super) const SHOWN_LINES: usize = 200;
pub(super) const SHOWN_BYTES: usize = 32 * 1024;

/// Why a source could not be prepared. Every variant is a harness failure (exit 2).
#[derive(Debug)]
pub enum CompileError {
    /// The source does not compile: the compiler's own messages, positions included.
    Failed {
        source: PathBuf,
        language: Language,
        /// The compiler command, without the source and output arguments duipai adds.
        command: Vec<String>,
        /// How the compiler ended: `exit status 1`, `killed by signal 9`.
        status: String,
        /// The compiler's messages, capped; positions name the source as the user typed it.
        messages: String,
    },
    /// The compiler did not finish by the wall-clock backstop (it waited rather than computed:
    /// one that computes too long is stopped at its CPU budget and fails) and was killed.
    TimedOut {
        source: PathBuf,
        command: Vec<String>,
        after: Duration,
    },
    /// The compiler (or interpreter) cannot be started.
    Missing {
        language: Language,
        program: String,
        origin: Origin,
        error: io::Error,
    },
    /// The program that runs compiled Java classes is not installed.
    MissingRuntime { program: String },
    /// The compiler reported success but left nothing to run.
    NoOutput { source: PathBuf, what: String },
    /// An environment variable holds a command that cannot be split into words.
    BadEnvironment {
        var: &'static str,
        value: String,
        why: String,
    },
    /// Neither DUIPAI_CACHE_DIR, XDG_CACHE_HOME nor HOME is set.
    NoCacheDir,
    /// An interrupt ([`cancel`]) stopped the compiler.
    Interrupted,
    /// Reading the source or writing the cache failed.
    Io { what: String, error: io::Error },
    /// The source or script the command names is not there; `near` is a file beside where
    /// it was looked for whose name is a near miss of it (`brute.py` for `brutee.py`).
    NotThere { path: PathBuf, near: Option<String> },
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompileError::Failed {
                source,
                language,
                command,
                status,
                messages,
            } => {
                write!(
                    f,
                    "{} does not compile ({language} compiler `{}`: {status})",
                    source.display(),
                    command.join(" ")
                )?;
                write_messages(f, messages)
            }
            CompileError::TimedOut {
                source,
                command,
                after,
            } => write!(
                f,
                "compiling {} took longer than {} s of wall-clock time and was stopped (`{}`)",
                source.display(),
                after.as_secs(),
                command.join(" ")
            ),
            CompileError::Missing {
                language,
                program,
                origin,
                error,
            } => write!(
                f,
                "cannot run the {language} {tool} `{program}`{from}: {why}; install it, or \
                 name another with {}=COMMAND or {OVERRIDE_FLAG} {}=COMMAND",
                language.env_var(),
                language.id(),
                tool = language.tool(),
                from = origin_note(origin),
                why = start_failure(error),
            ),
            CompileError::MissingRuntime { program } => write!(
                f,
                "cannot find the Java runtime `{program}`: install it, or name another with \
                 DUIPAI_JAVA=COMMAND"
            ),
            CompileError::NoOutput { source, what } => write!(
                f,
                "compiling {} reported success but wrote no {what}",
                source.display()
            ),
            CompileError::BadEnvironment { var, value, why } => {
                write!(f, "{var}=\"{value}\" is not a command: {why}")
            }
            CompileError::NoCacheDir => f.write_str(
                "no cache directory for compiled sources: set DUIPAI_CACHE_DIR (or HOME)",
            ),
            CompileError::Io { what, error } => write!(f, "{what}: {error}"),
            CompileError::NotThere { path, near } => {
                let error = io::Error::from_raw_os_error(NOT_FOUND);
                write!(f, "cannot read {}: {error}", path.display())?;
                match near {
                    Some(near) => write!(f, "; did you mean {near}?"),
                    None => Ok(()),
                }
            }
            CompileError::Interrupted => f.write_str("interrupted while compiling"),
        }
    }
}

/// The compiler's messages after a colon, or a note that it printed none.
fn write_messages(f: &mut fmt::Formatter<'_>, messages: &str) -> fmt::Result {
    if messages.trim().is_empty() {
        write!(f, "; the compiler printed nothing")
    } else {
        write!(f, ":\n{}", messages.trim_end())
    }
}

/// Where a compiler command that cannot start was named, when not by default: the user then
/// knows which setting to correct.
fn origin_note(origin: &Origin) -> String {
    match origin {
        Origin::Default => String::new(),
        Origin::Env(var) => format!(" (from {var})"),
        Origin::Flag => format!(" (from {OVERRIDE_FLAG})"),
    }
}

/// Why a program could not start; plainly `not found` for the common case.
fn start_failure(error: &io::Error) -> String {
    if error.kind() == io::ErrorKind::NotFound {
        "not found".to_string()
    } else {
        error.to_string()
    }
}

/// Every message already includes its cause (`cannot read a.cpp: No such file ...`), so none is
/// given as a source too: an error chain would print it twice.
impl std::error::Error for CompileError {}

/// The system's "no such file" error: `ENOENT`, or on Windows `ERROR_FILE_NOT_FOUND` (both 2).
#[cfg(unix)]
const NOT_FOUND: i32 = libc::ENOENT;
#[cfg(windows)]
const NOT_FOUND: i32 = 2;

pub(super) fn describe(status: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    let signal = std::os::unix::process::ExitStatusExt::signal(&status);
    #[cfg(windows)]
    let signal: Option<i32> = None;
    match (status.code(), signal) {
        (Some(code), _) => format!("exit status {code}"),
        (None, Some(signal)) => format!("killed by signal {signal}"),
        (None, None) => status.to_string(),
    }
}

/// The first `SHOWN_LINES` lines and `SHOWN_BYTES` bytes of a compiler's messages, with a note
/// of what was cut.
pub(super) fn cap(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut shown = String::new();
    let mut count = 0;
    for line in &lines {
        if count == SHOWN_LINES || shown.len() + line.len() + 1 > SHOWN_BYTES {
            if count == 0 {
                // One enormous line: show its beginning rather than nothing.
                let mut end = SHOWN_BYTES.min(line.len());
                while !line.is_char_boundary(end) {
                    end -= 1;
                }
                shown.push_str(&line[..end]);
                shown.push_str("...\n");
                count = 1;
            }
            break;
        }
        shown.push_str(line);
        shown.push('\n');
        count += 1;
    }
    if count < lines.len() {
        let cut = lines.len() - count;
        shown.push_str(&format!(
            "... ({cut} more line{} not shown)\n",
            if cut == 1 { "" } else { "s" }
        ));
    }
    shown
}

/// Why a compiler run produced nothing: it could not be started, or an interrupt stopped it.
pub(super) fn missing(compiler: &Compiler, error: io::Error) -> CompileError {
    if error.kind() == io::ErrorKind::Interrupted {
        return CompileError::Interrupted;
    }
    CompileError::Missing {
        language: compiler.language,
        program: compiler.words.first().cloned().unwrap_or_default(),
        origin: compiler.origin.clone(),
        error,
    }
}

/// A source or script the command names that is not there.
pub(super) fn not_there(path: &Path) -> CompileError {
    CompileError::NotThere {
        path: path.to_path_buf(),
        near: near_miss(path),
    }
}

/// A file beside `path` whose name is within two edits of its name, said as `path` would be
/// (`dir/brute.py` for `dir/brutee.py`).
fn near_miss(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let names: Vec<String> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter(|e| e.path().is_file())
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .collect();
    let near = crate::text::closest(name, names.iter().map(String::as_str), 2)?;
    Some(path.with_file_name(near).display().to_string())
}
