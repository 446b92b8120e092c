//! One child process run to completion under `wait4`, for the benchmarks that report a whole
//! process's CPU time and peak resident memory.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::Duration;

/// What `wait4` says about a finished child, and what it printed.
pub struct Measured {
    /// User plus system CPU time.
    pub cpu: Duration,
    /// Peak resident set size in MiB (`ru_maxrss` is KiB on Linux).
    pub peak_mib: f64,
    /// The raw wait status; 0 is a clean exit.
    pub status: i32,
    pub stdout: String,
}

/// Runs `command` with its stdout captured and reaps it with `wait4`, which (unlike
/// `Child::wait`) returns the child's resource usage.
pub fn run_measured(command: &mut Command) -> std::io::Result<Measured> {
    let mut child = command.stdout(Stdio::piped()).spawn()?;
    let pid = child.id() as libc::pid_t;
    let mut stdout = child.stdout.take().expect("stdout is piped");
    let reader = std::thread::spawn(move || {
        let mut out = String::new();
        let _ = stdout.read_to_string(&mut out);
        out
    });
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to overwrite.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: pid is our own child, not yet reaped; both pointers are valid.
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    if reaped != pid {
        return Err(std::io::Error::last_os_error());
    }
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    Ok(Measured {
        cpu: time(usage.ru_utime) + time(usage.ru_stime),
        peak_mib: usage.ru_maxrss as f64 / 1024.0,
        status,
        stdout: reader.join().unwrap_or_default(),
    })
}
