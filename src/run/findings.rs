//! What `duipai doctor` reports of a machine, on every system: each thing found
//! ([`Finding`]) and the whole [`Survey`]; `machine` (Linux) and `sys::machine` make it.

/// One thing found: its name, whether it is as it should be, and what it means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub name: &'static str,
    pub state: State,
    pub detail: String,
}

/// How a finding stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// As it should be.
    Ok,
    /// A protection `--sandbox` needs is missing.
    Missing,
    /// Timings may be unsteady because of it.
    Warning,
    /// Nothing to tell either way (not exposed here).
    Unknown,
}

impl State {
    pub fn label(self) -> &'static str {
        match self {
            State::Ok => "ok",
            State::Missing => "missing",
            State::Warning => "warning",
            State::Unknown => "unknown",
        }
    }
}

/// Everything a machine survey found (`machine::survey`).
#[derive(Clone, Debug)]
pub struct Survey {
    /// Whether duipai runs as root (on Windows: reported as not).
    pub root: bool,
    pub protections: Vec<Finding>,
    /// Each limit and how it is enforced here: (limit, mechanism).
    pub limits: Vec<(&'static str, String)>,
    pub timing: Vec<Finding>,
}

impl Survey {
    /// Whether every protection `--sandbox` needs can be had.
    pub fn sandbox_ready(&self) -> bool {
        self.protections.iter().all(|f| f.state != State::Missing)
    }
}
