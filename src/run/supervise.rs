//! Supervision while the program runs: sampling the group from `/proc` on a schedule, waking
//! at once when the leader exits (pidfd), and stopping at the first limit exceeded.

use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::group::Leader;
use super::limits::{Limit, Limits, Usage, exceeded};
use super::{pipes, procfs};

/// How often the supervisor samples the group. The leader's exit wakes it at once (pidfd), so
/// this bounds how late a limit is noticed, not how long a quick program takes.
const TICK: Duration = Duration::from_millis(10);

/// What the supervisor saw.
pub(crate) struct Observed {
    /// The limit the program was stopped for, if it was.
    pub stop: Option<Limit>,
    pub wall: Duration,
    pub cpu: Duration,
    pub peak_rss: u64,
    pub peak_tasks: u64,
    /// Time the group spent ready to run but waiting for a CPU, read when the wall clock
    /// stopped it.
    pub cpu_wait: Duration,
}

/// Opens a pidfd for the leader, so the supervisor can sleep until it exits; `None` on kernels
/// before 5.3, where the supervisor simply sleeps one tick.
fn pidfd_open(pid: i32) -> Option<OwnedFd> {
    // SAFETY: pidfd_open takes a pid and flags and returns a new descriptor or -1.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    if fd < 0 {
        return None;
    }
    // SAFETY: the descriptor was just created and is owned by nobody else.
    Some(unsafe { OwnedFd::from_raw_fd(fd as i32) })
}

/// Sleeps one tick, or less if the leader exits first. The first ticks are short (1, 2, 4,
/// 8 ms) so that a program that lives only a few milliseconds is still sampled once and shows
/// its memory; after that, every [`TICK`].
fn sleep_tick(pidfd: Option<&OwnedFd>, samples_taken: u32) {
    let tick = Duration::from_millis(1 << samples_taken.min(4)).min(TICK);
    match pidfd {
        Some(fd) => {
            let mut pfd = libc::pollfd {
                fd: fd.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: one valid pollfd.
            unsafe { libc::poll(&mut pfd, 1, tick.as_millis() as i32) };
        }
        None => std::thread::sleep(tick),
    }
}

/// Samples the group until the leader exits or a limit is exceeded; returns with the leader
/// not yet reaped.
pub(crate) fn supervise(
    leader: &Leader,
    start: Instant,
    limits: &Limits,
    shared: &pipes::Shared,
) -> Observed {
    let pidfd = pidfd_open(leader.pid);
    let mut sampler = procfs::GroupSampler::new(leader.pid);
    let mut seen = Observed {
        stop: None,
        wall: Duration::ZERO,
        cpu: Duration::ZERO,
        peak_rss: 0,
        peak_tasks: 0,
        cpu_wait: Duration::ZERO,
    };
    let mut samples_taken = 0u32;
    loop {
        // Exit is checked before sampling so that the last sample, taken while the leader is a
        // zombie, still holds its final CPU time.
        let exited = leader.has_exited();
        // After the exit, members not seen yet are killed anyway; a full scan of /proc would
        // cost more than a quick program's whole run.
        let sample = if exited {
            sampler.sample_known()
        } else {
            sampler.sample()
        };
        seen.wall = start.elapsed();
        seen.cpu = seen.cpu.max(sample.cpu);
        seen.peak_rss = seen
            .peak_rss
            .max(sample.rss_bytes)
            .max(sample.max_hwm_bytes);
        seen.peak_tasks = seen.peak_tasks.max(sample.tasks);
        if exited {
            return seen;
        }
        let usage = Usage {
            output_exceeded: shared.output_exceeded.load(Ordering::Acquire),
            cpu: seen.cpu,
            wall: seen.wall,
            tasks: seen.peak_tasks,
            memory_bytes: seen.peak_rss,
            signal: None,
        };
        seen.stop = exceeded(limits, &usage);
        if seen.stop == Some(Limit::WallTime) {
            // Read only now: whether it slept or could not get a CPU decides the message.
            seen.cpu_wait = sampler.run_delay();
        }
        if seen.stop.is_some() {
            return seen;
        }
        sleep_tick(pidfd.as_ref(), samples_taken);
        samples_taken = samples_taken.saturating_add(1);
    }
}
