//! The executions a runner that answers in-process (a test double of [`super::Runner`])
//! reports: a program that printed something, one that crashed, one that ran until its CPU
//! cap stopped it, each with the figures the double gives it.

use std::time::Duration;

use crate::run::{Execution, Limit, Limits, Signal, Termination};

/// What a scripted program does.
pub enum Act {
    /// Exits 0 having printed this.
    Prints(String),
    /// Dies of SIGSEGV having printed nothing.
    Crashes,
    /// Runs until the CPU cap of its limits stops it.
    Spins,
}

/// The execution of `act` under `limits`, after `cpu` of CPU time and `wall` of wall clock,
/// as one process.
pub fn execution(act: Act, cpu: Duration, wall: Duration, limits: &Limits) -> Execution {
    let (termination, stdout) = match act {
        Act::Prints(stdout) => (Termination::Exited(0), stdout),
        Act::Crashes => (Termination::Signaled(Signal(libc::SIGSEGV)), String::new()),
        Act::Spins => (Termination::LimitExceeded(Limit::CpuTime), String::new()),
    };
    let mut e = Execution::from_outcome(termination, stdout.into_bytes(), *limits);
    e.cpu_time = cpu;
    e.cpu_times = vec![cpu];
    e.wall_time = wall;
    e.peak_processes = 1;
    e
}
