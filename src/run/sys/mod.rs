//! The runner's platform seam, for the systems other than Linux (whose runner is the rest of
//! `run`, older and richer: containment, cgroups, spawners, warm helpers).
//!
//! What a run needs from the system is [`Tree`]: a program started with its three streams and
//! its limits, and everything it starts; whether it has ended; what it used (CPU, peak memory,
//! processes, and the limits the system itself refused it past); its end, with everything it
//! started; its exit status. One implementation per system: `windows` (a Job Object) and
//! `unix` (macOS: a process group). Everything else is written once, above the seam:
//! `runner` (a run: its place, its streams, its supervision, its verdict figures),
//! `interact` (a program against an interactor), `streams` (the three streams, each served
//! by a thread), `cancel` (the runs under way, for an interrupt), and the stand-ins for what
//! only Linux has (`contain`, `warm`, `machine`).
//!
//! Each `unsafe` block is a system call, with a `// SAFETY:` line saying why it is sound.

#![deny(clippy::undocumented_unsafe_blocks)]

pub(super) mod cancel;
pub mod contain;
pub(super) mod interact;
pub mod machine;
mod runner;
mod streams;
pub mod warm;

#[cfg(unix)]
mod unix;
#[cfg(windows)]
mod windows;

use std::io;
use std::process::{Child, Command};
use std::time::Duration;

use super::limits::Limits;

pub(super) use runner::run_until;
pub use streams::STDERR_TAIL;

#[cfg(unix)]
use unix::System;
#[cfg(windows)]
use windows::System;

/// What the system says of a run so far.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Used {
    /// CPU time (user + system) of all its processes, as far as the system counts it.
    pub cpu: Duration,
    /// Peak memory of its processes, where the system tells.
    pub memory: Option<u64>,
    /// Its processes running now.
    pub processes: u64,
    /// The system refused a new process at the process limit.
    pub processes_refused: bool,
    /// The system refused memory at the memory limit.
    pub memory_refused: bool,
    /// The system stopped it at its CPU-time backstop.
    pub cpu_refused: bool,
}

/// How the program's first process ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Status {
    /// It exited with this code.
    Code(i32),
    /// It was ended by this signal (on Windows: by the exception that stands for it).
    Signal(i32),
}

/// A program started by the system with everything it starts: the seam.
pub(super) trait Tree: Sized {
    /// Something another thread can end the whole tree with, at any time while it is
    /// registered (see `cancel`).
    type Ender: Copy + Send;

    /// Sets what the system needs on the command before it starts (a new process group, a
    /// suspended start, the CPU-time backstop).
    fn prepare(command: &mut Command, limits: &Limits);

    /// Takes over the started `child` under `limits`, and lets it run.
    fn adopt(child: &Child, limits: &Limits) -> io::Result<Self>;

    /// The tree's ender.
    fn ender(&self) -> Self::Ender;

    /// Ends the tree of `ender` (from any thread).
    fn end_by(ender: Self::Ender);

    /// Whether the first process has ended (it is not reaped: its ids stay reserved).
    fn exited(&mut self) -> bool;

    /// What the tree has used so far.
    fn used(&mut self) -> Used;

    /// Ends everything of the tree still running; returns how many processes besides the
    /// first one were.
    fn end(&mut self) -> u32;

    /// Reaps the first process once it has ended: how it ended, and its own final figures
    /// (merged into those sampled).
    fn finish(&mut self) -> io::Result<(Status, Used)>;
}

/// The system's implementation of the seam.
type Started = System;

/// Sets the harness up for running programs, once: on Windows, a crashing program must not
/// wait on an error dialog.
pub(super) fn prepare_harness() {
    #[cfg(windows)]
    windows::quiet_errors();
}
