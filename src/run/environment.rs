//! What of the harness's environment a program gets: all of it but the variables that change
//! how a program buffers or encodes its standard streams (`PYTHONUNBUFFERED=1` makes every
//! `print` flush), which a judge does not set: passed on, they hide a forgotten flush that
//! the judge times out. `DUIPAI_KEEP_ENV=NAME,NAME` passes the ones named anyway.
//!
//! One filter, [`passed`], consulted for every variable of every program started.

use std::sync::OnceLock;

/// The variables withheld unless kept.
pub const WITHHELD: [&str; 8] = [
    "PYTHONUNBUFFERED",
    "PYTHONIOENCODING",
    "PYTHONUTF8",
    "_STDBUF_I",
    "_STDBUF_O",
    "_STDBUF_E",
    "GFORTRAN_UNBUFFERED_ALL",
    "GFORTRAN_UNBUFFERED_PRECONNECTED",
];

/// The variable that names withheld variables to pass anyway.
pub const KEEP_VAR: &str = "DUIPAI_KEEP_ENV";

/// Whether the environment entry `var` (`NAME=VALUE`) is given to programs.
pub(super) fn passed(var: &[u8]) -> bool {
    let name = var.split(|&b| b == b'=').next().unwrap_or(var);
    let Some(withheld) = WITHHELD.iter().find(|w| w.as_bytes() == name) else {
        return true;
    };
    kept().iter().any(|k| k == withheld)
}

/// The names `DUIPAI_KEEP_ENV` lists, read once: a contained program gets these too.
pub(super) fn kept() -> &'static [String] {
    static KEPT: OnceLock<Vec<String>> = OnceLock::new();
    KEPT.get_or_init(|| {
        std::env::var(KEEP_VAR)
            .unwrap_or_default()
            .split([',', ' '])
            .filter(|n| !n.is_empty())
            .map(str::to_string)
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffering_variables_are_withheld_and_others_passed() {
        assert!(!passed(b"PYTHONUNBUFFERED=1"));
        assert!(!passed(b"PYTHONIOENCODING=utf-8"));
        assert!(!passed(b"_STDBUF_O=L"));
        assert!(passed(b"PATH=/usr/bin"));
        assert!(passed(b"PYTHONUNBUFFEREDX=1"));
        assert!(passed(b"PYTHONPATH=/x"));
    }
}
