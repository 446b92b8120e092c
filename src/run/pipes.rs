//! The program's standard streams, driven from the supervising thread: stdin fed and stdout
//! and stderr drained with non-blocking writes and reads whenever the supervisor's `poll`
//! finds them ready. No direction can block another (a program that floods stderr while its
//! input is being written, or never reads its input, cannot deadlock the harness), and no
//! thread is started per run.

use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::time::{Duration, Instant};

use super::captured::{Captured, Collector};

/// How much of the end of stderr is kept: enough to show a panic message or a backtrace.
pub const STDERR_TAIL: usize = 64 * 1024;

/// How much of stdout is kept in file I/O mode, where stdout is only counted: enough to show
/// an answer printed there by mistake.
const STDOUT_HEAD: usize = 256;

/// A pipe's usual capacity; a larger input gets a larger pipe (up to [`PIPE_MAX`]), so that it
/// is written at once and the program reads it without waiting for the harness.
const PIPE_USUAL: usize = 64 * 1024;

/// The largest pipe an unprivileged process may ask for by default
/// (`/proc/sys/fs/pipe-max-size`).
const PIPE_MAX: usize = 1024 * 1024;

/// How much one wake-up reads from a pipe at most, so that a program writing as fast as the
/// harness reads cannot keep the supervisor from its limits.
const READ_BUDGET: u64 = 1024 * 1024;

/// Once the program's processes are all dead, how long a pipe may stay silent before the
/// harness stops waiting for its end: a writer still holding it is outside the run.
const IDLE_AFTER_DEATH: Duration = Duration::from_millis(20);

/// Stops reading after death regardless, if something outside the run keeps writing.
const AFTER_DEATH: Duration = Duration::from_millis(250);

pub(crate) fn set_nonblocking(fd: RawFd) -> io::Result<()> {
    // SAFETY: fcntl on a descriptor we own; F_SETFL has no memory effects. The pipe ends the
    // standard library creates carry no other status flag, so none is lost.
    if unsafe { libc::fcntl(fd, libc::F_SETFL, libc::O_NONBLOCK) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Feeds `input` to the program's stdin, as far as the pipe takes it each time.
pub(crate) struct Feed<'a> {
    file: Option<File>,
    rest: &'a [u8],
}

impl<'a> Feed<'a> {
    /// Takes the parent's end of the stdin pipe and writes what fits at once; an input that
    /// fits (most do) is then written and the pipe closed before the supervisor waits at all.
    pub(crate) fn new(fd: OwnedFd, input: &'a [u8]) -> io::Result<Feed<'a>> {
        set_nonblocking(fd.as_raw_fd())?;
        if input.len() > PIPE_USUAL {
            let size = input.len().min(PIPE_MAX) as libc::c_int;
            // SAFETY: F_SETPIPE_SZ takes an integer and has no memory effects. A refusal (a
            // user over the pipe-buffer quota) only means the input goes in smaller pieces.
            unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_SETPIPE_SZ, size) };
        }
        let mut feed = Feed {
            file: Some(File::from(fd)),
            rest: input,
        };
        feed.write_ready();
        Ok(feed)
    }

    /// The descriptor to wait on for room, while input is left to write.
    pub(crate) fn waiting_fd(&self) -> Option<RawFd> {
        self.file.as_ref().map(File::as_raw_fd)
    }

    /// Writes as much as the pipe takes now; closes it when everything is written or the
    /// program will not read more (`EPIPE`: it exited or closed its stdin; the harness keeps
    /// Rust's default of ignoring `SIGPIPE`). Closing it is what shows the program the end
    /// of its input.
    pub(crate) fn write_ready(&mut self) {
        let Some(file) = self.file.as_mut() else {
            return;
        };
        while !self.rest.is_empty() {
            match file.write(self.rest) {
                Ok(n) => self.rest = &self.rest[n..],
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return,
                Err(_) => break,
            }
        }
        self.file = None;
    }

    /// What is not written yet.
    pub(crate) fn unwritten(&self) -> &[u8] {
        if self.file.is_some() { self.rest } else { &[] }
    }

    /// Stops feeding: the program is gone.
    pub(crate) fn close(&mut self) {
        self.file = None;
    }
}

/// Whether a program that has ended read its input to the end: nothing but whitespace is
/// left in its stdin pipe (read through `read_end`, the harness's copy of the program's end)
/// or still to be written (`unwritten`). A program that read its input stops short of
/// nothing that matters; `scanf("%d")` leaves the final line break.
pub(crate) fn read_to_the_end(read_end: &OwnedFd, unwritten: &[u8]) -> bool {
    let blank = |bytes: &[u8]| bytes.iter().all(u8::is_ascii_whitespace);
    if !blank(unwritten) {
        return false;
    }
    // The program has ended: no one else reads this pipe now.
    if set_nonblocking(read_end.as_raw_fd()).is_err() {
        return true;
    }
    let mut left = [0u8; 64 * 1024];
    loop {
        // SAFETY: read into a buffer we own, of its length, from a descriptor we own.
        let n = unsafe { libc::read(read_end.as_raw_fd(), left.as_mut_ptr().cast(), left.len()) };
        match n {
            n if n > 0 => {
                if !blank(&left[..n as usize]) {
                    return false;
                }
            }
            0 => return true,
            _ if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted => {}
            // Empty (EAGAIN), or unreadable: nothing left that the program did not read.
            _ => return true,
        }
    }
}

/// What a drained stream keeps.
#[derive(Clone, Copy, Debug)]
enum Keep {
    /// Everything up to this many bytes; one byte more is an excess, and reading stops.
    Upto(u64),
    /// The last [`STDERR_TAIL`] bytes.
    Tail,
    /// The first [`STDOUT_HEAD`] bytes (the rest is only counted).
    Head,
}

/// Drains one of the program's output pipes.
pub(crate) struct Drain {
    file: Option<File>,
    keep: Keep,
    /// What [`Keep::Tail`] and [`Keep::Head`] keep.
    kept: Vec<u8>,
    /// What [`Keep::Upto`] keeps: the answer, in memory or spilled to a file.
    answer: Collector,
    /// Every byte read, kept or not.
    total: u64,
    /// More than the [`Keep::Upto`] limit arrived.
    exceeded: bool,
    /// Reading buffer for [`Keep::Head`], whose bytes are mostly not kept.
    scratch: Vec<u8>,
}

impl Drain {
    fn new(fd: OwnedFd, keep: Keep) -> io::Result<Drain> {
        set_nonblocking(fd.as_raw_fd())?;
        Ok(Drain {
            file: Some(File::from(fd)),
            keep,
            kept: Vec::new(),
            answer: Collector::default(),
            total: 0,
            exceeded: false,
            scratch: Vec::new(),
        })
    }

    /// stdout in stdin/stdout mode: up to `limit` bytes are the program's answer.
    pub(crate) fn answer(fd: OwnedFd, limit: u64) -> io::Result<Drain> {
        Drain::new(fd, Keep::Upto(limit))
    }

    /// stdout in file I/O mode: counted, and its start kept, to explain a missing output file.
    pub(crate) fn stray(fd: OwnedFd) -> io::Result<Drain> {
        Drain::new(fd, Keep::Head)
    }

    /// stderr: its end kept, for a panic message or a backtrace.
    pub(crate) fn tail(fd: OwnedFd) -> io::Result<Drain> {
        Drain::new(fd, Keep::Tail)
    }

    /// The descriptor to wait on for data, while the pipe is open.
    pub(crate) fn fd(&self) -> Option<RawFd> {
        self.file.as_ref().map(File::as_raw_fd)
    }

    pub(crate) fn exceeded(&self) -> bool {
        self.exceeded
    }

    pub(crate) fn total(&self) -> u64 {
        self.total
    }

    /// Reads what the pipe holds now (within [`READ_BUDGET`]); closes it at end of file, on
    /// an error, or past the output limit.
    pub(crate) fn read_ready(&mut self) {
        let Some(file) = self.file.as_ref() else {
            return;
        };
        let budget = match self.keep {
            Keep::Upto(limit) => {
                READ_BUDGET.min(limit.saturating_add(1).saturating_sub(self.answer.len()))
            }
            Keep::Tail | Keep::Head => READ_BUDGET,
        };
        let into = match self.keep {
            Keep::Tail => &mut self.kept,
            Keep::Upto(_) | Keep::Head => &mut self.scratch,
        };
        let before = into.len();
        // `read_to_end` on a non-blocking pipe keeps what it read when it stops at
        // `WouldBlock`; `take` stops it at the budget, telling end of file (fewer bytes)
        // from a budget spent.
        let result = file.take(budget).read_to_end(into);
        let got = (into.len() - before) as u64;
        self.total += got;
        let open = match result {
            Ok(_) => got == budget && budget > 0,
            Err(e) => e.kind() == io::ErrorKind::WouldBlock,
        };
        match self.keep {
            Keep::Upto(limit) => {
                self.answer.push(&self.scratch);
                self.scratch.clear();
                if self.answer.len() > limit {
                    self.exceeded = true;
                    self.file = None;
                    return;
                }
            }
            Keep::Tail => {
                // Trim only when twice the cap is reached, so trimming stays amortized O(1).
                if self.kept.len() > 2 * STDERR_TAIL {
                    self.kept.drain(..self.kept.len() - STDERR_TAIL);
                }
            }
            Keep::Head => {
                let room = STDOUT_HEAD.saturating_sub(self.kept.len());
                let take = room.min(self.scratch.len());
                self.kept.extend_from_slice(&self.scratch[..take]);
                self.scratch.clear();
            }
        }
        if !open {
            self.file = None;
        }
    }

    /// The answer of a [`Drain::answer`], cut to the output limit.
    pub(crate) fn into_captured(self) -> Captured {
        match self.keep {
            Keep::Upto(limit) => self.answer.finish(limit),
            Keep::Tail | Keep::Head => Captured::from(self.kept),
        }
    }

    /// What was kept.
    pub(crate) fn into_kept(mut self) -> Vec<u8> {
        if let Keep::Tail = self.keep
            && self.kept.len() > STDERR_TAIL
        {
            self.kept.drain(..self.kept.len() - STDERR_TAIL);
        }
        self.kept
    }
}

/// Reads what is left in the output pipes once every process of the run is dead: usually the
/// data and the end of file are there at once. A pipe that stays open is held by something
/// outside the run; it is given up after a silent [`IDLE_AFTER_DEATH`], or after
/// [`AFTER_DEATH`] if it keeps talking.
pub(crate) fn drain_after_death(drains: &mut [&mut Drain]) {
    let start = Instant::now();
    loop {
        for drain in drains.iter_mut() {
            drain.read_ready();
        }
        let mut fds: Vec<libc::pollfd> = drains
            .iter()
            .filter_map(|d| d.fd())
            .map(|fd| libc::pollfd {
                fd,
                events: libc::POLLIN,
                revents: 0,
            })
            .collect();
        if fds.is_empty() {
            return;
        }
        let left = AFTER_DEATH.saturating_sub(start.elapsed());
        let wait = IDLE_AFTER_DEATH.min(left);
        // SAFETY: a valid array of pollfds and its length.
        let ready = unsafe {
            libc::poll(
                fds.as_mut_ptr(),
                fds.len() as libc::nfds_t,
                wait.as_millis() as libc::c_int,
            )
        };
        if ready == 0 || left.is_zero() {
            for drain in drains.iter_mut() {
                drain.file = None;
            }
            return;
        }
    }
}
