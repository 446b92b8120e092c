//! Supervision while the program runs, on the caller's thread: one `poll` waits at once for
//! the leader's exit (its pidfd), room in stdin, data on stdout and stderr, and the next
//! sample of the run's processes from `/proc`; the first limit found exceeded stops it. The
//! wall-clock limit is decided only at a sample where none of the run's processes is ready
//! to run (one that is may be waiting for a CPU, a wait its figures do not show yet).
//!
//! Each time the supervisor sleeps and is woken costs more than most system calls (on a
//! virtual machine, an idle CPU's wake-up is a round trip through the host), so a small case
//! should wake it once: at its exit. Until the first sample the output pipes are therefore not
//! watched (what a program writes in its first millisecond fits in the pipe, and a program
//! that writes more only waits for that sample); after it, they are, so that a long-running
//! program is never kept waiting on a full pipe.

use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::time::{Duration, Instant};

use super::group::{Leader, tagged_for};
use super::limits::{Limit, Limits, Usage, exceeded};
use super::pipes::{Drain, Feed};
use super::procfs::RunSampler;

/// The longest interval between two samples. The leader's exit wakes the supervisor at once
/// (pidfd), so this bounds how late a limit is noticed, not how long a quick program takes.
const TICK: Duration = Duration::from_millis(10);

/// The program's streams, as far as the harness holds them.
pub(crate) struct Streams<'a> {
    pub stdin: Option<Feed<'a>>,
    pub stdout: Option<Drain>,
    pub stderr: Option<Drain>,
}

impl Streams<'_> {
    fn output_exceeded(&self) -> bool {
        self.stdout.as_ref().is_some_and(Drain::exceeded)
    }
}

/// What the supervisor saw.
#[derive(Debug, Default)]
pub(crate) struct Observed {
    /// The leader exited by itself (it was not stopped).
    pub exited: bool,
    /// The limit the program was stopped for, if it was.
    pub stop: Option<Limit>,
    pub wall: Duration,
    pub cpu: Duration,
    pub peak_rss: u64,
    pub peak_tasks: u64,
    /// Time the run's processes spent ready to run but waiting for a CPU, as of the last
    /// sample.
    pub waited: Duration,
    /// Stopped at the cap on the wall clock, not by a limit.
    pub capped: bool,
}

/// Opens a pidfd for the leader, so the supervisor can sleep until it exits; `None` on kernels
/// before 5.3, where the supervisor looks at the leader at every wake-up instead.
fn pidfd_open(pid: i32) -> Option<OwnedFd> {
    // SAFETY: pidfd_open takes a pid and flags and returns a new descriptor or -1.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    if fd < 0 {
        return None;
    }
    // SAFETY: the descriptor was just created and is owned by nobody else.
    Some(unsafe { OwnedFd::from_raw_fd(fd as i32) })
}

/// The interval before sample `n` (0-based): 1, 2, 4, 8 ms, then every [`TICK`], so that a
/// program that lives only a few milliseconds is still sampled and shows its memory.
fn interval(n: u32) -> Duration {
    Duration::from_millis(1 << n.min(4)).min(TICK)
}

/// Waits for any of `fds` or for `timeout`, with microsecond precision (`poll` counts whole
/// milliseconds, which would round the first, 1 ms, interval up to 2).
fn wait(fds: &mut [libc::pollfd], timeout: Duration) {
    let ts = libc::timespec {
        tv_sec: timeout.as_secs() as libc::time_t,
        tv_nsec: timeout.subsec_nanos() as libc::c_long,
    };
    // SAFETY: a valid array of pollfds with its length, a valid timespec, no signal mask.
    unsafe {
        libc::ppoll(
            fds.as_mut_ptr(),
            fds.len() as libc::nfds_t,
            &ts,
            std::ptr::null(),
        )
    };
}

/// Runs the program's side of the run until the leader exits, a limit of `limits` is
/// exceeded, or the wall clock passes `wall_cap` (however long the program waited for a CPU:
/// on a machine that busy, a run is stopped all the same, as exceeding the wall-clock limit);
/// returns with the leader not yet reaped.
pub(crate) fn supervise(
    leader: &Leader,
    run_id: u64,
    start: Instant,
    limits: &Limits,
    wall_cap: Duration,
    streams: &mut Streams,
    sampler: &mut RunSampler,
) -> Observed {
    let pidfd = pidfd_open(leader.pid);
    let adopt = |p: &_| tagged_for(p, run_id);
    let mut seen = Observed::default();
    let mut samples = 0u32;
    // From now, not from `start`: a start slowed by a loaded machine should not bring the
    // first sample (and the watching of the pipes) forward.
    let mut next_sample = Instant::now() + interval(0);
    loop {
        // The descriptors to wait on, and which is which.
        let mut fds = [libc::pollfd {
            fd: -1,
            events: 0,
            revents: 0,
        }; 4];
        let (mut n, mut exit_at, mut stdin_at, mut stdout_at, mut stderr_at) = (0, 4, 4, 4, 4);
        let mut watch = |fd: i32, events: libc::c_short, at: &mut usize| {
            fds[n] = libc::pollfd {
                fd,
                events,
                revents: 0,
            };
            *at = n;
            n += 1;
        };
        if let Some(fd) = &pidfd {
            watch(fd.as_raw_fd(), libc::POLLIN, &mut exit_at);
        }
        if let Some(fd) = streams.stdin.as_ref().and_then(Feed::waiting_fd) {
            watch(fd, libc::POLLOUT, &mut stdin_at);
        }
        if samples > 0 {
            if let Some(fd) = streams.stdout.as_ref().and_then(Drain::fd) {
                watch(fd, libc::POLLIN, &mut stdout_at);
            }
            if let Some(fd) = streams.stderr.as_ref().and_then(Drain::fd) {
                watch(fd, libc::POLLIN, &mut stderr_at);
            }
        }
        wait(
            &mut fds[..n],
            next_sample.saturating_duration_since(Instant::now()),
        );
        let ready = |at: usize| at < n && fds[at].revents != 0;

        if ready(stdin_at)
            && let Some(feed) = streams.stdin.as_mut()
        {
            feed.write_ready();
        }
        if ready(stdout_at)
            && let Some(drain) = streams.stdout.as_mut()
        {
            drain.read_ready();
        }
        if ready(stderr_at)
            && let Some(drain) = streams.stderr.as_mut()
        {
            drain.read_ready();
        }
        let exited = match pidfd {
            Some(_) => ready(exit_at),
            None => leader.has_exited(),
        };
        if exited {
            seen.wall = start.elapsed();
            seen.exited = true;
            return seen;
        }
        if streams.output_exceeded() {
            // No need to wait for the next sample: the output decides.
            seen.wall = start.elapsed();
            seen.stop = Some(Limit::Output);
            return seen;
        }
        let now = Instant::now();
        if now < next_sample {
            continue;
        }
        let sample = sampler.sample(&adopt);
        seen.wall = start.elapsed();
        seen.cpu = seen.cpu.max(sample.cpu);
        seen.peak_rss = seen
            .peak_rss
            .max(sample.rss_bytes)
            .max(sample.max_hwm_bytes);
        seen.peak_tasks = seen.peak_tasks.max(sample.tasks);
        seen.waited = sampler.waited();
        let usage = Usage {
            output_exceeded: false,
            cpu: seen.cpu,
            wall: seen.wall,
            waited: seen.waited,
            tasks: seen.peak_tasks,
            memory_bytes: seen.peak_rss,
            signal: None,
        };
        seen.stop = exceeded(limits, &usage);
        if seen.stop == Some(Limit::WallTime) && sample.runnable && seen.cpu <= limits.wall {
            // A process ready to run may be waiting for a CPU right now, a wait its figures
            // count only once it runs again: the next sample decides.
            seen.stop = None;
        }
        if seen.stop.is_none() && seen.wall > wall_cap {
            seen.stop = Some(Limit::WallTime);
            seen.capped = true;
        }
        if seen.stop.is_some() {
            return seen;
        }
        samples = samples.saturating_add(1);
        next_sample = Instant::now() + interval(samples);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_come_quickly_at_first_then_every_tick() {
        let ms: Vec<u128> = (0..7).map(|n| interval(n).as_millis()).collect();
        assert_eq!(ms, [1, 2, 4, 8, 10, 10, 10]);
    }
}
