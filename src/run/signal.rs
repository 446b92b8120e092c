//! Signal numbers and their conventional names, for verdict details and reports.

use std::fmt;

/// A signal that ended a program, as reported by `wait4`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Signal(pub i32);

impl Signal {
    /// The conventional name (`SIGSEGV`), or `SIGRTMIN+3` / `signal 99` for the rest.
    /// Matched on the `libc` constants because the numbers differ between architectures.
    pub fn name(self) -> String {
        let known = match self.0 {
            libc::SIGHUP => "SIGHUP",
            libc::SIGINT => "SIGINT",
            libc::SIGQUIT => "SIGQUIT",
            libc::SIGILL => "SIGILL",
            libc::SIGTRAP => "SIGTRAP",
            libc::SIGABRT => "SIGABRT",
            libc::SIGBUS => "SIGBUS",
            libc::SIGFPE => "SIGFPE",
            libc::SIGKILL => "SIGKILL",
            libc::SIGUSR1 => "SIGUSR1",
            libc::SIGSEGV => "SIGSEGV",
            libc::SIGUSR2 => "SIGUSR2",
            libc::SIGPIPE => "SIGPIPE",
            libc::SIGALRM => "SIGALRM",
            libc::SIGTERM => "SIGTERM",
            libc::SIGSTKFLT => "SIGSTKFLT",
            libc::SIGCHLD => "SIGCHLD",
            libc::SIGCONT => "SIGCONT",
            libc::SIGSTOP => "SIGSTOP",
            libc::SIGTSTP => "SIGTSTP",
            libc::SIGTTIN => "SIGTTIN",
            libc::SIGTTOU => "SIGTTOU",
            libc::SIGURG => "SIGURG",
            libc::SIGXCPU => "SIGXCPU",
            libc::SIGXFSZ => "SIGXFSZ",
            libc::SIGVTALRM => "SIGVTALRM",
            libc::SIGPROF => "SIGPROF",
            libc::SIGWINCH => "SIGWINCH",
            libc::SIGIO => "SIGIO",
            libc::SIGPWR => "SIGPWR",
            libc::SIGSYS => "SIGSYS",
            _ => "",
        };
        if !known.is_empty() {
            return known.to_string();
        }
        let (min, max) = (libc::SIGRTMIN(), libc::SIGRTMAX());
        if (min..=max).contains(&self.0) {
            if self.0 == min {
                "SIGRTMIN".to_string()
            } else {
                format!("SIGRTMIN+{}", self.0 - min)
            }
        } else {
            format!("signal {}", self.0)
        }
    }

    /// What the signal usually means for a contest program, for a human reading a verdict.
    pub fn hint(self) -> Option<&'static str> {
        match self.0 {
            libc::SIGSEGV => Some("invalid memory access, or stack overflow"),
            libc::SIGBUS => Some("invalid memory access"),
            libc::SIGFPE => Some("arithmetic error, such as integer division by zero"),
            libc::SIGABRT => {
                Some("aborted: failed assertion, panic with abort, or allocation failure")
            }
            libc::SIGILL => Some("illegal instruction"),
            libc::SIGPIPE => Some("wrote to a closed pipe"),
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
        assert_eq!(Signal(libc::SIGSEGV).name(), "SIGSEGV");
        assert_eq!(Signal(libc::SIGABRT).to_string(), "SIGABRT");
        assert_eq!(Signal(libc::SIGKILL).name(), "SIGKILL");
        assert_eq!(Signal(libc::SIGRTMIN() + 2).name(), "SIGRTMIN+2");
        assert_eq!(Signal(200).name(), "signal 200");
    }
}
