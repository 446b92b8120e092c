//! Containment off Linux: there is none. The program runs as duipai's child, in the caller's
//! folder (or file I/O's scratch folder), with duipai's environment and its `--env` entries.
//! `--sandbox`, which promises containment, is refused with the one protection missing.

// A helper's files go in folders of their own on every system, contained or not.
#[path = "../contain/files.rs"]
mod files;
pub use files::{HelperFiles, with_helper_files};

pub(crate) use super::super::policy::policy;
pub use super::super::policy::{Missing, Mode, Policy, Role, check_entry};

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
    super::super::policy::set(policy);
    if strict {
        vec![missing_here()]
    } else {
        Vec::new()
    }
}
