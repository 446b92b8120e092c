//! Warm helpers off Linux: there are none. On Linux a Python helper is kept warm by a server
//! that forks a fresh copy per run; Windows has no `fork`, and macOS's is not safe once
//! threads run, so every helper starts fresh, and `--fresh-helpers` changes nothing.

/// Whether helpers may be kept warm: asked for or not, they start fresh here.
pub fn set_enabled(_enabled: bool) {}

/// What to tell the user about warm helpers: nothing, as none is ever started.
pub fn notes() -> Vec<String> {
    Vec::new()
}
