//! The threads that feed a program's stdin and drain its stdout and stderr.
//!
//! Each pipe has its own thread so that no direction can block another (a program that floods
//! stderr while we write its stdin, or never reads its input, cannot deadlock the harness).
//! The parent's ends are non-blocking and polled with a short timeout, so every thread also
//! notices when the supervisor declares the program's process group dead: a process that
//! escaped the group while holding a pipe open then cannot keep a thread (and the harness)
//! waiting forever.

use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a thread waits in `poll` before looking at the shared flags again.
const POLL_MS: i32 = 20;

/// Once the group is dead, what is left in a pipe is at most one pipe buffer, read in far less
/// than this; a writer still going after it is outside the group and is not waited for.
const AFTER_DEATH: Duration = Duration::from_millis(250);

/// How much of the end of stderr is kept: enough to show a panic message or a backtrace.
pub const STDERR_TAIL: usize = 64 * 1024;

/// Flags shared between the supervisor and the pipe threads.
#[derive(Debug, Default)]
pub struct Shared {
    /// Set by the supervisor once no process of the group is left. A thread then stops at the
    /// first poll that finds nothing more to transfer; data already in a pipe is still read.
    pub group_dead: AtomicBool,
    /// Set by the stdout reader when the program wrote more than the output limit.
    pub output_exceeded: AtomicBool,
}

/// Tells a pipe thread when to give up: after an idle poll once the group is dead, or a
/// little later if something outside the group keeps the pipe busy.
struct Watch<'a> {
    shared: &'a Shared,
    dead_since: Option<Instant>,
}

impl<'a> Watch<'a> {
    fn new(shared: &'a Shared) -> Self {
        Watch {
            shared,
            dead_since: None,
        }
    }

    /// Waits (one poll) for `fd` to be ready for `events`: `Some(true)` ready, `Some(false)`
    /// not yet (poll again), `None` when the thread should give up.
    fn ready(&mut self, fd: RawFd, events: libc::c_short) -> Option<bool> {
        let ready = wait_ready(fd, events).ok()?;
        (!self.should_stop(!ready)).then_some(ready)
    }

    fn should_stop(&mut self, idle: bool) -> bool {
        if !self.shared.group_dead.load(Ordering::Acquire) {
            return false;
        }
        let since = *self.dead_since.get_or_insert_with(Instant::now);
        idle || since.elapsed() > AFTER_DEATH
    }
}

fn set_nonblocking(fd: RawFd) -> io::Result<()> {
    // SAFETY: fcntl on a descriptor we own; F_GETFL/F_SETFL have no memory effects.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags < 0 || libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Waits until `fd` is ready for `events`. `Ok(false)` means the timeout passed.
fn wait_ready(fd: RawFd, events: libc::c_short) -> io::Result<bool> {
    let mut pfd = libc::pollfd {
        fd,
        events,
        revents: 0,
    };
    // SAFETY: one valid pollfd, count 1.
    let r = unsafe { libc::poll(&mut pfd, 1, POLL_MS) };
    if r < 0 {
        let err = io::Error::last_os_error();
        if err.kind() == io::ErrorKind::Interrupted {
            return Ok(false);
        }
        return Err(err);
    }
    Ok(r > 0)
}

/// Reads `fd` until end of file (or until the group is dead and the pipe is idle), handing
/// every chunk to `sink`; stops early when `sink` returns false.
fn drain(fd: OwnedFd, shared: &Shared, mut sink: impl FnMut(&[u8]) -> bool) {
    let raw = fd.as_raw_fd();
    if set_nonblocking(raw).is_err() {
        return;
    }
    let mut buf = vec![0u8; 64 * 1024];
    let mut watch = Watch::new(shared);
    loop {
        match watch.ready(raw, libc::POLLIN) {
            None => return,
            Some(false) => continue,
            Some(true) => {}
        }
        // SAFETY: reading into a buffer we own, within its length.
        let n = unsafe { libc::read(raw, buf.as_mut_ptr().cast(), buf.len()) };
        if n == 0 {
            return;
        }
        if n < 0 {
            let err = io::Error::last_os_error();
            match err.kind() {
                io::ErrorKind::Interrupted | io::ErrorKind::WouldBlock => continue,
                _ => return,
            }
        }
        if !sink(&buf[..n as usize]) {
            return;
        }
    }
}

/// What one attempt to write to a non-blocking pipe did.
enum Written {
    /// Some bytes went in (maybe not all).
    Bytes(usize),
    /// The pipe is full: the program has to read first.
    Full,
    /// The program will not read more (`EPIPE`: it exited or closed its stdin), or the pipe
    /// failed otherwise.
    Closed,
}

fn write_some(fd: RawFd, bytes: &[u8]) -> Written {
    loop {
        // SAFETY: writing from a slice we own, within its length.
        let n = unsafe { libc::write(fd, bytes.as_ptr().cast(), bytes.len()) };
        if n >= 0 {
            return Written::Bytes(n as usize);
        }
        match io::Error::last_os_error().kind() {
            io::ErrorKind::Interrupted => continue,
            io::ErrorKind::WouldBlock => return Written::Full,
            _ => return Written::Closed,
        }
    }
}

/// Feeds the program's stdin: an input that fits in the pipe is written at once and the pipe
/// closed, with no thread (most cases are small, and a thread costs more than the write);
/// what does not fit goes to a feeder thread. `None` when nothing is left to wait for.
pub fn feed(fd: OwnedFd, input: &[u8], shared: Arc<Shared>) -> io::Result<Option<JoinHandle<()>>> {
    set_nonblocking(fd.as_raw_fd())?;
    let mut rest = input;
    while !rest.is_empty() {
        match write_some(fd.as_raw_fd(), rest) {
            Written::Bytes(n) => rest = &rest[n..],
            Written::Full => return spawn_feeder(fd, rest.into(), shared).map(Some),
            Written::Closed => return Ok(None),
        }
    }
    // Dropping `fd` closes the pipe: the program sees end of file.
    Ok(None)
}

/// Writes `input` to the program's stdin, then closes it. A program that exits or closes its
/// stdin early makes the write fail with `EPIPE`, which only ends the thread (the harness
/// keeps Rust's default of ignoring `SIGPIPE`). The descriptor is already non-blocking.
fn spawn_feeder(fd: OwnedFd, input: Arc<[u8]>, shared: Arc<Shared>) -> io::Result<JoinHandle<()>> {
    std::thread::Builder::new()
        .name("duipai-stdin".into())
        .spawn(move || {
            let raw = fd.as_raw_fd();
            let mut rest: &[u8] = &input;
            let mut watch = Watch::new(&shared);
            while !rest.is_empty() {
                match watch.ready(raw, libc::POLLOUT) {
                    None => return,
                    Some(false) => continue,
                    Some(true) => {}
                }
                match write_some(raw, rest) {
                    Written::Bytes(n) => rest = &rest[n..],
                    Written::Full => continue,
                    Written::Closed => return,
                }
            }
            // Dropping `fd` closes the pipe: the program sees end of file.
        })
}

/// Collects stdout up to `limit` bytes. One byte more sets `output_exceeded` and stops reading:
/// the supervisor then kills the group.
pub fn spawn_stdout_reader(
    fd: OwnedFd,
    limit: u64,
    shared: Arc<Shared>,
) -> io::Result<JoinHandle<Vec<u8>>> {
    std::thread::Builder::new()
        .name("duipai-stdout".into())
        .spawn(move || {
            let mut out = Vec::new();
            let limit = usize::try_from(limit).unwrap_or(usize::MAX);
            drain(fd, &shared, |chunk| {
                let room = limit - out.len();
                if chunk.len() > room {
                    out.extend_from_slice(&chunk[..room]);
                    shared.output_exceeded.store(true, Ordering::Release);
                    return false;
                }
                out.extend_from_slice(chunk);
                true
            });
            out
        })
}

/// What the stderr reader returns: the last [`STDERR_TAIL`] bytes and the total count.
pub struct StderrTail {
    pub tail: Vec<u8>,
    pub total: u64,
}

/// Drains stderr to its end, keeping only the tail.
pub fn spawn_stderr_reader(fd: OwnedFd, shared: Arc<Shared>) -> io::Result<JoinHandle<StderrTail>> {
    std::thread::Builder::new()
        .name("duipai-stderr".into())
        .spawn(move || {
            let mut tail = Vec::new();
            let mut total = 0u64;
            drain(fd, &shared, |chunk| {
                total += chunk.len() as u64;
                tail.extend_from_slice(chunk);
                // Trim only when twice the cap is reached, so trimming stays amortized O(1).
                if tail.len() > 2 * STDERR_TAIL {
                    tail.drain(..tail.len() - STDERR_TAIL);
                }
                true
            });
            if tail.len() > STDERR_TAIL {
                tail.drain(..tail.len() - STDERR_TAIL);
            }
            StderrTail { tail, total }
        })
}
