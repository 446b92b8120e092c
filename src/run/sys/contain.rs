//! Containment off Linux: there is none. The program runs as duipai's child, in the caller's
//! folder (or file I/O's scratch folder), with duipai's environment and its `--env` entries.
//! `--sandbox`, which promises containment, is refused with the one protection missing.

use std::ffi::{OsStr, OsString};
use std::path::PathBuf;
use std::sync::OnceLock;

// A helper's files go in folders of their own on every system, contained or not.
#[path = "../contain/files.rs"]
mod files;
pub use files::{HelperFiles, with_helper_files};

/// Whose run it is: the program under test, or a helper of the setter's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    Program,
    Helper,
}

/// How much containment a process asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Mode {
    /// None: programs run as duipai's children in its folder, with its environment.
    #[default]
    Off,
    /// Every protection the system allows: none here, and the runs go on.
    Auto,
    /// Every protection, or no run at all.
    Strict,
}

/// What a process asks of containment.
#[derive(Clone, Debug, Default)]
pub struct Policy {
    pub mode: Mode,
    /// Variables the program under test gets besides duipai's own: `NAME` or `NAME=VALUE`.
    pub env: Vec<OsString>,
    /// Folders the program under test must not see: not enforced here.
    pub protect: Vec<PathBuf>,
    /// Whether a package's helpers would run contained: there is no containment here, so
    /// they run as duipai's children as the program does.
    pub helpers: bool,
}

static POLICY: OnceLock<Policy> = OnceLock::new();

/// The policy in force.
pub(crate) fn policy() -> &'static Policy {
    POLICY.get_or_init(Policy::default)
}

/// A protection that cannot be had here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Missing {
    pub protection: &'static str,
    pub why: String,
    pub risk: &'static str,
    pub how: String,
}

impl std::fmt::Display for Missing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "no {} ({}): {}; {}",
            self.protection, self.why, self.risk, self.how
        )
    }
}

/// The one protection missing on this system, for `--sandbox` and `doctor`.
pub(crate) fn missing_here() -> Missing {
    Missing {
        protection: "containment",
        why: format!(
            "duipai contains programs only on Linux, and this is {}",
            std::env::consts::OS
        ),
        risk: "a program runs as you, in your folder, and can read and change your files",
        how: "judge programs that are not yours on Linux (or in WSL 2) with --sandbox".into(),
    }
}

/// Sets the policy of this process: under `--sandbox` ([`Mode::Strict`]) the containment
/// missing here, else nothing (a contestant's own programs run as on Linux's
/// `--no-sandbox`, without a warning at every command).
pub fn arm(policy: Policy) -> Vec<Missing> {
    let strict = policy.mode == Mode::Strict;
    let _ = POLICY.set(policy);
    if strict {
        vec![missing_here()]
    } else {
        Vec::new()
    }
}

/// Checks an `--env` entry: `NAME` or `NAME=VALUE`, a name of letters, digits and `_` not
/// starting with a digit.
pub fn check_entry(text: &OsStr) -> Result<(), String> {
    let bytes = text.as_encoded_bytes();
    let name = bytes.split(|&b| b == b'=').next().unwrap_or_default();
    let wrong = if name.is_empty() {
        Some("the name before '=' is empty".to_string())
    } else if name[0].is_ascii_digit() {
        Some("a name cannot start with a digit".to_string())
    } else if let Some(bad) = name
        .iter()
        .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
    {
        Some(format!(
            "the name holds {:?} at byte {}, where only letters, digits and _ may be",
            char::from(name[bad]),
            bad + 1
        ))
    } else if bytes.contains(&0) {
        Some("the value holds a NUL byte".to_string())
    } else {
        None
    };
    match wrong {
        None => Ok(()),
        Some(wrong) => Err(format!("{text:?} is not NAME or NAME=VALUE: {wrong}")),
    }
}
