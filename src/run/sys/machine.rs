//! What this machine gives the runner off Linux ([`survey`], for `duipai doctor`): no
//! containment, so `--sandbox` refuses to run; how each limit is enforced on this system; and
//! which of its figures this runner cannot show.

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

/// Everything [`survey`] found.
#[derive(Clone, Debug)]
pub struct Survey {
    /// Whether duipai runs as root (on Windows: always reported as not).
    pub root: bool,
    pub protections: Vec<Finding>,
    /// Each limit and how it is enforced here: (limit, mechanism).
    pub limits: Vec<(&'static str, String)>,
    pub timing: Vec<Finding>,
}

impl Survey {
    /// Whether every protection `--sandbox` needs can be had: never off Linux.
    pub fn sandbox_ready(&self) -> bool {
        self.protections.iter().all(|f| f.state != State::Missing)
    }
}

/// Looks at this machine.
pub fn survey() -> Survey {
    let missing = super::contain::missing_here();
    Survey {
        root: root(),
        protections: vec![Finding {
            name: "containment",
            state: State::Missing,
            detail: format!("{}: {}", missing.why, missing.risk),
        }],
        limits: limits(),
        timing: vec![Finding {
            name: "steadiness",
            state: State::Unknown,
            detail: "not measured on this system: time a program near its limit twice".into(),
        }],
    }
}

#[cfg(unix)]
fn root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

#[cfg(windows)]
fn root() -> bool {
    false
}

#[cfg(windows)]
fn limits() -> Vec<(&'static str, String)> {
    vec![
        (
            "CPU time",
            "the Job Object's accounting (user + kernel time of every process of the run), \
             sampled; the job's own time limit as a backstop"
                .into(),
        ),
        (
            "wall clock",
            "duipai's own clock; the whole job is ended at the limit".into(),
        ),
        (
            "memory",
            "the Job Object's memory limit (committed memory of the whole job) and its peak \
             (PeakJobMemoryUsed)"
                .into(),
        ),
        ("processes", "the Job Object's active-process limit".into()),
        ("output", "reading stops past the limit".into()),
    ]
}

#[cfg(unix)]
fn limits() -> Vec<(&'static str, String)> {
    vec![
        (
            "CPU time",
            "proc_pid_rusage over the program's process group, sampled; RLIMIT_CPU as a \
             backstop"
                .into(),
        ),
        (
            "wall clock",
            "duipai's own clock; the whole group is killed at the limit".into(),
        ),
        (
            "memory",
            "resident memory of the group from proc_pid_rusage, sampled, and the leader's \
             ru_maxrss from wait4"
                .into(),
        ),
        (
            "processes",
            "the group's processes counted, and killed past the limit".into(),
        ),
        (
            "output",
            "reading stops past the limit; RLIMIT_FSIZE for files".into(),
        ),
    ]
}
