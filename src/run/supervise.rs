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

use std::os::fd::AsRawFd;
use std::time::{Duration, Instant};

use super::limits::{Limit, Limits};
use super::party::Party;
use super::pipes::{Drain, Feed};

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

/// The interval before sample `n` (0-based): 1, 2, 4, 8 ms, then every [`TICK`], so that a
/// program that lives only a few milliseconds is still sampled and shows its memory.
pub(crate) fn interval(n: u32) -> Duration {
    Duration::from_millis(1 << n.min(4)).min(TICK)
}

/// Waits for any of `fds` or for `timeout`, with microsecond precision (`poll` counts whole
/// milliseconds, which would round the first, 1 ms, interval up to 2).
pub(crate) fn wait(fds: &mut [libc::pollfd], timeout: Duration) {
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

/// The descriptors one wait of a poll loop watches, and which is which.
pub(crate) struct Watch {
    fds: [libc::pollfd; Watch::MAX],
    n: usize,
}

impl Watch {
    const MAX: usize = 8;
    /// The slot of a descriptor not watched this time.
    pub(crate) const NONE: usize = Watch::MAX;

    pub(crate) fn new() -> Watch {
        Watch {
            fds: [libc::pollfd {
                fd: -1,
                events: 0,
                revents: 0,
            }; Watch::MAX],
            n: 0,
        }
    }

    /// Watches `fd` for `events`, if there is one; its slot, for [`Watch::ready`].
    pub(crate) fn add(&mut self, fd: Option<i32>, events: libc::c_short) -> usize {
        let Some(fd) = fd else {
            return Watch::NONE;
        };
        self.fds[self.n] = libc::pollfd {
            fd,
            events,
            revents: 0,
        };
        self.n += 1;
        self.n - 1
    }

    /// Waits until one of the descriptors is ready or `until` comes.
    pub(crate) fn wait_until(&mut self, until: Instant) {
        wait(
            &mut self.fds[..self.n],
            until.saturating_duration_since(Instant::now()),
        );
    }

    /// Whether the descriptor in `slot` was found ready.
    pub(crate) fn ready(&self, slot: usize) -> bool {
        slot < self.n && self.fds[slot].revents != 0
    }
}

/// Runs the program's side of the run until the leader exits, a limit of `limits` is
/// exceeded, or the wall clock passes `wall_cap` (however long the program waited for a CPU:
/// on a machine that busy, a run is stopped all the same, as exceeding the wall-clock limit);
/// returns with the leader not yet reaped and what was seen in `party.seen`.
pub(crate) fn supervise(
    party: &mut Party,
    limits: &Limits,
    wall_cap: Duration,
    streams: &mut Streams,
) {
    let mut samples = 0u32;
    // From now, not from the start: a start slowed by a loaded machine should not bring the
    // first sample (and the watching of the pipes) forward.
    let mut next_sample = Instant::now() + interval(0);
    loop {
        let mut watch = Watch::new();
        let exit_at = watch.add(party.pidfd.as_ref().map(|fd| fd.as_raw_fd()), libc::POLLIN);
        let stdin_at = watch.add(
            streams.stdin.as_ref().and_then(Feed::waiting_fd),
            libc::POLLOUT,
        );
        let (mut stdout_at, mut stderr_at) = (Watch::NONE, Watch::NONE);
        if samples > 0 {
            stdout_at = watch.add(streams.stdout.as_ref().and_then(Drain::fd), libc::POLLIN);
            stderr_at = watch.add(streams.stderr.as_ref().and_then(Drain::fd), libc::POLLIN);
        }
        watch.wait_until(next_sample);
        streams.serve(&watch, stdin_at, stdout_at, stderr_at);
        if party.exited_now(watch.ready(exit_at)) {
            party.seen.wall = party.start.elapsed();
            party.seen.exited = true;
            return;
        }
        if streams.output_exceeded() {
            // No need to wait for the next sample: the output decides.
            party.seen.wall = party.start.elapsed();
            party.seen.stop = Some(Limit::Output);
            return;
        }
        if Instant::now() < next_sample {
            continue;
        }
        party.sample(limits, wall_cap);
        if party.seen.stop.is_some() {
            return;
        }
        samples = samples.saturating_add(1);
        next_sample = Instant::now() + interval(samples);
    }
}

impl Streams<'_> {
    /// Moves whatever the wait found ready.
    fn serve(&mut self, watch: &Watch, stdin_at: usize, stdout_at: usize, stderr_at: usize) {
        if watch.ready(stdin_at)
            && let Some(feed) = self.stdin.as_mut()
        {
            feed.write_ready();
        }
        if watch.ready(stdout_at)
            && let Some(drain) = self.stdout.as_mut()
        {
            drain.read_ready();
        }
        if watch.ready(stderr_at)
            && let Some(drain) = self.stderr.as_mut()
        {
            drain.read_ready();
        }
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
