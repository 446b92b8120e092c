//! Signal numbers and their conventional names, for verdict details and reports.

use std::fmt;

/// The signal numbers: the system's own on Unix.
#[cfg(unix)]
pub(crate) use libc as sig;

/// The signal numbers on Windows, which has no signals: a program's crash (an exception such
/// as an access violation) is reported as the Linux signal that means the same, numbered as
/// on Linux, so that verdicts read alike on every system.
#[cfg(windows)]
#[allow(dead_code)]
pub(crate) mod sig {
    pub const SIGHUP: i32 = 1;
    pub const SIGINT: i32 = 2;
    pub const SIGQUIT: i32 = 3;
    pub const SIGILL: i32 = 4;
    pub const SIGTRAP: i32 = 5;
    pub const SIGABRT: i32 = 6;
    pub const SIGBUS: i32 = 7;
    pub const SIGFPE: i32 = 8;
    pub const SIGKILL: i32 = 9;
    pub const SIGUSR1: i32 = 10;
    pub const SIGSEGV: i32 = 11;
    pub const SIGUSR2: i32 = 12;
    pub const SIGPIPE: i32 = 13;
    pub const SIGALRM: i32 = 14;
    pub const SIGTERM: i32 = 15;
    pub const SIGCHLD: i32 = 17;
    pub const SIGCONT: i32 = 18;
    pub const SIGSTOP: i32 = 19;
    pub const SIGTSTP: i32 = 20;
    pub const SIGTTIN: i32 = 21;
    pub const SIGTTOU: i32 = 22;
    pub const SIGURG: i32 = 23;
    pub const SIGXCPU: i32 = 24;
    pub const SIGXFSZ: i32 = 25;
    pub const SIGVTALRM: i32 = 26;
    pub const SIGPROF: i32 = 27;
    pub const SIGWINCH: i32 = 28;
    pub const SIGIO: i32 = 29;
    pub const SIGSYS: i32 = 31;
}

/// A signal that ended a program, as reported by `wait4`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Signal(pub i32);

impl Signal {
    /// The conventional name (`SIGSEGV`), or `SIGRTMIN+3` / `signal 99` for the rest.
    /// Matched on the `libc` constants because the numbers differ between architectures.
    pub fn name(self) -> String {
        let known = match self.0 {
            sig::SIGHUP => "SIGHUP",
            sig::SIGINT => "SIGINT",
            sig::SIGQUIT => "SIGQUIT",
            sig::SIGILL => "SIGILL",
            sig::SIGTRAP => "SIGTRAP",
            sig::SIGABRT => "SIGABRT",
            sig::SIGBUS => "SIGBUS",
            sig::SIGFPE => "SIGFPE",
            sig::SIGKILL => "SIGKILL",
            sig::SIGUSR1 => "SIGUSR1",
            sig::SIGSEGV => "SIGSEGV",
            sig::SIGUSR2 => "SIGUSR2",
            sig::SIGPIPE => "SIGPIPE",
            sig::SIGALRM => "SIGALRM",
            sig::SIGTERM => "SIGTERM",
            #[cfg(target_os = "linux")]
            sig::SIGSTKFLT => "SIGSTKFLT",
            sig::SIGCHLD => "SIGCHLD",
            sig::SIGCONT => "SIGCONT",
            sig::SIGSTOP => "SIGSTOP",
            sig::SIGTSTP => "SIGTSTP",
            sig::SIGTTIN => "SIGTTIN",
            sig::SIGTTOU => "SIGTTOU",
            sig::SIGURG => "SIGURG",
            sig::SIGXCPU => "SIGXCPU",
            sig::SIGXFSZ => "SIGXFSZ",
            sig::SIGVTALRM => "SIGVTALRM",
            sig::SIGPROF => "SIGPROF",
            sig::SIGWINCH => "SIGWINCH",
            sig::SIGIO => "SIGIO",
            #[cfg(target_os = "linux")]
            sig::SIGPWR => "SIGPWR",
            sig::SIGSYS => "SIGSYS",
            _ => "",
        };
        if !known.is_empty() {
            return known.to_string();
        }
        #[cfg(target_os = "linux")]
        {
            let (min, max) = (libc::SIGRTMIN(), libc::SIGRTMAX());
            if (min..=max).contains(&self.0) {
                return if self.0 == min {
                    "SIGRTMIN".to_string()
                } else {
                    format!("SIGRTMIN+{}", self.0 - min)
                };
            }
        }
        format!("signal {}", self.0)
    }

    /// What the signal usually means for a contest program, for a human reading a verdict.
    pub fn hint(self) -> Option<&'static str> {
        match self.0 {
            sig::SIGSEGV => Some("invalid memory access, or stack overflow"),
            sig::SIGBUS => Some("invalid memory access"),
            sig::SIGFPE => Some("arithmetic error, such as integer division by zero"),
            sig::SIGABRT => {
                Some("aborted: failed assertion, panic with abort, or allocation failure")
            }
            sig::SIGILL => Some("illegal instruction"),
            sig::SIGPIPE => Some("wrote to a closed pipe"),
            _ => None,
        }
    }
}

impl fmt::Display for Signal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_common_signals() {
        assert_eq!(Signal(sig::SIGSEGV).name(), "SIGSEGV");
        assert_eq!(Signal(sig::SIGABRT).to_string(), "SIGABRT");
        assert_eq!(Signal(sig::SIGKILL).name(), "SIGKILL");
        assert_eq!(Signal(sig::SIGRTMIN() + 2).name(), "SIGRTMIN+2");
        assert_eq!(Signal(200).name(), "signal 200");
    }
}
