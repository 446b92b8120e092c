//! What this machine gives the runner off Linux ([`survey`], for `duipai doctor`): no
//! containment, so `--sandbox` refuses to run; how each limit is enforced on this system; and
//! which of its figures this runner cannot show.

pub use crate::run::findings::{Finding, State, Survey};

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
