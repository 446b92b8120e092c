//! What a process asks of containment, on every system: whose run it is ([`Role`]), how much
//! containment ([`Mode`], [`Policy`]), what protection could not be had ([`Missing`]), and
//! the check of an `--env` entry ([`check_entry`]). Linux's `contain` and the stand-in of the
//! other systems (`sys/contain.rs`) both set and read the one policy kept here.

use std::ffi::{OsStr, OsString};
use std::path::PathBuf;
use std::sync::OnceLock;

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
    /// Every protection the system allows; a missing one is reported, and the runs go on.
    Auto,
    /// Every protection, or no run at all (the caller's choice: `arm` reports).
    Strict,
}

/// What a process asks of containment.
#[derive(Clone, Debug, Default)]
pub struct Policy {
    pub mode: Mode,
    /// Variables a program gets besides the allowlist (or, without containment, besides
    /// duipai's own): `NAME` (duipai's value) or `NAME=VALUE`.
    pub env: Vec<OsString>,
    /// Folders the program under test must not see (the test folder, the saved failures,
    /// a pack), besides the current folder, which it never sees. Enforced only where the
    /// program runs in namespaces (Linux).
    pub protect: Vec<PathBuf>,
    /// Whether the helpers run contained as the program under test does (the helpers of a
    /// package, which are not the user's own). Without containment (off Linux) they run as
    /// duipai's children, as the program does.
    pub helpers: bool,
}

static POLICY: OnceLock<Policy> = OnceLock::new();

/// The policy in force: the one [`set`] set, else [`Mode::Off`].
pub(crate) fn policy() -> &'static Policy {
    POLICY.get_or_init(Policy::default)
}

/// Sets the policy of this process, before its first run; a second call keeps the first (a
/// command run again by `--watch` asks again).
pub(crate) fn set(policy: Policy) {
    let _ = POLICY.set(policy);
}

/// A protection that cannot be had here: what it is, why it is missing, what a program can
/// do without it, and how to get it.
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

/// Whether `text` is a usable `--env` entry: `NAME` or `NAME=VALUE`, the name of letters,
/// digits and `_`, not starting with a digit. The error says what is wrong with it.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_entries_are_names_or_assignments() {
        assert!(check_entry(OsStr::new("PYTHONPATH")).is_ok());
        assert!(check_entry(OsStr::new("A_1=x=y")).is_ok());
        let reason = |text: &str| check_entry(OsStr::new(text)).unwrap_err();
        assert_eq!(
            reason("=x"),
            r#""=x" is not NAME or NAME=VALUE: the name before '=' is empty"#
        );
        assert_eq!(
            reason("1A"),
            r#""1A" is not NAME or NAME=VALUE: a name cannot start with a digit"#
        );
        assert_eq!(
            reason("A-B=1"),
            r#""A-B=1" is not NAME or NAME=VALUE: the name holds '-' at byte 2, where only letters, digits and _ may be"#
        );
        assert!(check_entry(OsStr::new("")).is_err());
    }
}
