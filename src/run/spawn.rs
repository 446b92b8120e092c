//! Starting the program: a `vfork`-style `clone` that sets up the child and `exec`s it, with
//! its standard streams, its own process group, its rlimits, its working directory and the
//! environment variable that names its run.
//!
//! The `clone` is made by a spawner process (see `spawner`) when one can be had, so that the
//! program's peak resident memory (`ru_maxrss`) counts from its own start; otherwise here, in
//! the harness ([`launch_here`]), where it counts from the harness's own peak.
//!
//! Why not `posix_spawn` (what `std::process::Command` uses): it cannot set rlimits. Set from
//! outside with `prlimit` once the program has started, they would leave it a few
//! microseconds without them and without its run's tag (a process it forked at once would
//! escape both), and the stack limit would come too late to shape the program's address
//! space, which `exec` lays out by it. And glibc's child resets all 64 signal dispositions,
//! one `sigaction` to read and one to write each, much of what a small case's start costs.
//! Here the child sets its own rlimits before `exec` and resets only the signals its parent
//! handles or ignores.
//!
//! The child shares its parent's memory until `exec` (`CLONE_VM | CLONE_VFORK`, the calling
//! thread waits meanwhile), so it runs only [`child`]: plain system calls on data the parent
//! prepared, no allocation, no lock; it reports a failure through the shared plan and exits.

use std::cell::RefCell;
use std::ffi::{CStr, CString, OsStr, OsString, c_int, c_void};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use super::spawner;

/// Where the program's stdin comes from.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Stdin {
    /// A pipe the harness writes the input to.
    Pipe,
    /// `/dev/null` (file I/O: the input is a file).
    Null,
}

/// An rlimit the program gets before `exec`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rlimit {
    pub resource: libc::__rlimit_resource_t,
    pub limit: libc::rlimit,
    /// Whether failing to set it fails the start (otherwise it is best effort).
    pub required: bool,
}

/// The started program: its pid and the harness's ends of its pipes.
pub(crate) struct Started {
    pub pid: i32,
    pub stdin: Option<OwnedFd>,
    pub stdout: OwnedFd,
    pub stderr: OwnedFd,
    /// Whether the program's `ru_maxrss` counts from its own start (a spawner started it),
    /// rather than from the harness's peak resident size.
    pub maxrss_from_start: bool,
    /// When its `exec` returned, in the process that started it.
    pub start: Instant,
}

/// What is to be started, prepared by the harness: where `exec` looks for it, its arguments,
/// the variable that names its run (`NAME=VALUE`, replacing one of that name in the harness's
/// environment), its working directory, and its rlimits.
pub(crate) struct Program<'a> {
    pub candidates: Vec<CString>,
    pub argv: Vec<CString>,
    pub run_var: CString,
    pub cwd: Option<CString>,
    pub rlimits: &'a [Rlimit],
}

impl Program<'_> {
    /// The name part of the run variable, with its `=`.
    pub fn run_var_name(&self) -> &[u8] {
        let bytes = self.run_var.as_bytes();
        let len = bytes
            .iter()
            .position(|&b| b == b'=')
            .map_or(bytes.len(), |i| i + 1);
        &bytes[..len]
    }

    /// The program's environment: the harness's own, but for a variable named as the run
    /// variable, then the run variable.
    ///
    /// `environ` is read without std's environment lock: changing the environment while
    /// another thread reads it is already undefined behaviour (which is why
    /// `std::env::set_var` is unsafe), so a caller that keeps `set_var`'s contract leaves it
    /// alone while runs are going on.
    pub fn for_each_env(&self, mut f: impl FnMut(&CStr)) {
        let name = self.run_var_name();
        // SAFETY: `environ` is the process's null-terminated array of NUL-terminated strings
        // (see above for why reading it here is sound).
        unsafe {
            let mut entry = libc::environ;
            while !entry.is_null() && !(*entry).is_null() {
                let var = CStr::from_ptr(*entry);
                if !var.to_bytes().starts_with(name) {
                    f(var);
                }
                entry = entry.add(1);
            }
        }
        f(&self.run_var);
    }
}

pub(crate) fn cstring(bytes: &[u8]) -> io::Result<CString> {
    CString::new(bytes).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            "a program name or argument contains a NUL byte",
        )
    })
}

/// A pipe as (read end, write end), both close-on-exec, neither numbered 0, 1 or 2: the
/// `dup2` onto the standard descriptors in the child must not overwrite another end. (The
/// Rust runtime keeps 0, 1 and 2 open, so this only matters if the embedding program
/// closed them.)
pub(crate) fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two new descriptors into a valid array.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both descriptors were just created and are owned by nobody else.
    let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    Ok((above_standard(read)?, above_standard(write)?))
}

pub(crate) fn dev_null() -> io::Result<OwnedFd> {
    // SAFETY: a valid NUL-terminated path; open returns a new descriptor or -1.
    let fd = unsafe { libc::open(c"/dev/null".as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the descriptor was just created and is owned by nobody else.
    above_standard(unsafe { OwnedFd::from_raw_fd(fd) })
}

fn above_standard(fd: OwnedFd) -> io::Result<OwnedFd> {
    if fd.as_raw_fd() > 2 {
        return Ok(fd);
    }
    // SAFETY: F_DUPFD_CLOEXEC duplicates a descriptor we own onto a new one (>= 3).
    let new = unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_DUPFD_CLOEXEC, 3) };
    if new < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the descriptor was just created and is owned by nobody else.
    Ok(unsafe { OwnedFd::from_raw_fd(new) })
}

/// The files `exec` tries, in order: the program itself if its name has a `/`, else the name
/// in each directory of `PATH` (an empty entry is the current directory; without `PATH`,
/// `/bin:/usr/bin`, as `execvp` does).
fn candidates(program: &OsStr) -> io::Result<Vec<CString>> {
    let name = program.as_bytes();
    if name.contains(&b'/') {
        return Ok(vec![cstring(name)?]);
    }
    if name.is_empty() {
        return Err(io::Error::from_raw_os_error(libc::ENOENT));
    }
    let path = std::env::var_os("PATH").unwrap_or_else(|| "/bin:/usr/bin".into());
    path.as_bytes()
        .split(|&b| b == b':')
        .map(|dir| {
            let dir = if dir.is_empty() { &b"."[..] } else { dir };
            let mut full = Vec::with_capacity(dir.len() + 1 + name.len());
            full.extend_from_slice(dir);
            full.push(b'/');
            full.extend_from_slice(name);
            cstring(&full)
        })
        .collect()
}

/// The signals the child puts back to their default action before it unblocks signals: the
/// ones the harness catches. Until `exec` the child runs on the harness's memory, so one of
/// the harness's handlers running in it (a signal sent to the new pid in that instant) would
/// act on the harness's state. `exec` itself resets caught signals; this only closes that
/// instant. Read once, at the first start (the handlers are installed when the harness
/// starts), plus the ones an interrupt handler may catch later.
fn caught_signals() -> &'static [c_int] {
    static CAUGHT: OnceLock<Vec<c_int>> = OnceLock::new();
    CAUGHT.get_or_init(|| {
        let mut caught = vec![libc::SIGHUP, libc::SIGINT, libc::SIGQUIT, libc::SIGTERM];
        for signal in 1..=libc::SIGRTMAX() {
            if caught.contains(&signal) {
                continue;
            }
            // SAFETY: a zeroed sigaction is a valid out-parameter; a null new action only reads.
            let mut old: libc::sigaction = unsafe { std::mem::zeroed() };
            // SAFETY: as above; signals glibc reserves for itself just fail, and are skipped.
            if unsafe { libc::sigaction(signal, std::ptr::null(), &mut old) } != 0 {
                continue;
            }
            if old.sa_sigaction != libc::SIG_DFL && old.sa_sigaction != libc::SIG_IGN {
                caught.push(signal);
            }
        }
        caught
    })
}

/// The child's stack: mapped once per thread (a thread starts one program at a time, and waits
/// while it starts), with a guard page below it.
struct ChildStack {
    base: *mut c_void,
    len: usize,
}

const CHILD_STACK: usize = 64 * 1024;
const GUARD: usize = 4096;

impl ChildStack {
    fn map() -> io::Result<ChildStack> {
        let len = CHILD_STACK + GUARD;
        // SAFETY: a fresh private anonymous mapping; nothing else refers to it.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_STACK,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        let stack = ChildStack { base, len };
        // The stack grows down, towards the guard page at the bottom.
        // SAFETY: the first page of the mapping just made.
        if unsafe { libc::mprotect(base, GUARD, libc::PROT_NONE) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(stack)
    }

    fn top(&self) -> *mut c_void {
        // SAFETY: one past the end of the mapping, which is where a downward stack starts;
        // the length is a multiple of 16, so the top is aligned as the ABI requires.
        unsafe { self.base.cast::<u8>().add(self.len).cast() }
    }
}

impl Drop for ChildStack {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `map`, no longer used (the thread is ending).
        unsafe { libc::munmap(self.base, self.len) };
    }
}

thread_local! {
    static STACK: RefCell<Option<ChildStack>> = const { RefCell::new(None) };
}

/// What the child failed at, reported through the plan.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(i32)]
pub(crate) enum Stage {
    None = 0,
    ProcessGroup,
    Rlimit,
    Streams,
    Directory,
    Signals,
    Exec,
    /// The `clone` itself failed: there is no child.
    Clone,
    /// A spawner could not read the request (too large for it): there is no child.
    Request,
}

impl Stage {
    pub fn from_code(code: i32) -> Stage {
        [
            Stage::ProcessGroup,
            Stage::Rlimit,
            Stage::Streams,
            Stage::Directory,
            Stage::Signals,
            Stage::Exec,
            Stage::Clone,
            Stage::Request,
        ]
        .into_iter()
        .find(|s| *s as i32 == code)
        .unwrap_or(Stage::None)
    }
}

/// A start that failed: at what, with what `errno`, and the child to reap (if there is one;
/// it has exited already).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Failed {
    pub pid: i32,
    pub stage: Stage,
    pub errno: c_int,
}

/// Everything the child needs, prepared by the parent: raw pointers into data the parent
/// keeps alive until the child has `exec`uted or exited.
pub(crate) struct ChildSetup {
    pub candidates: *const *const libc::c_char,
    pub argv: *const *const libc::c_char,
    pub envp: *const *const libc::c_char,
    pub cwd: *const libc::c_char,
    /// The descriptors that become the child's stdin, stdout and stderr.
    pub streams: [c_int; 3],
    /// A descriptor that becomes the child's descriptor 3 (a spawner's socket), or -1.
    pub extra: c_int,
    pub rlimits: *const Rlimit,
    pub rlimits_len: usize,
    /// The signals the child puts back to their default action.
    pub signals: *const c_int,
    pub signals_len: usize,
    /// The CPUs the child may run on, set before `exec`: a spawner's mask as it started (the
    /// harness pins a spawner to the CPU of the thread that asks it, see `spawner`), or null
    /// to keep the parent's.
    pub affinity: *const libc::cpu_set_t,
    /// Written by the child when it fails: at what, and `errno`.
    pub failed: Stage,
    pub errno: c_int,
}

/// The child, between `clone` and `exec`. It shares the parent's memory (the parent is
/// suspended) and so only makes system calls on the plan; it never returns but by `exec` or
/// `_exit`, and cannot unwind (nothing in it panics).
extern "C" fn child(arg: *mut c_void) -> c_int {
    // SAFETY: `arg` is the parent's `ChildSetup`, alive and untouched while the parent waits; every
    // pointer in it is valid for its length, as its maker built them.
    unsafe {
        let plan = &mut *arg.cast::<ChildSetup>();
        let fail = |plan: &mut ChildSetup, stage: Stage| -> c_int {
            plan.errno = *libc::__errno_location();
            plan.failed = stage;
            libc::_exit(127)
        };
        if libc::setpgid(0, 0) != 0 {
            return fail(plan, Stage::ProcessGroup);
        }
        for i in 0..plan.rlimits_len {
            let rlimit = &*plan.rlimits.add(i);
            if libc::setrlimit(rlimit.resource, &rlimit.limit) != 0 && rlimit.required {
                return fail(plan, Stage::Rlimit);
            }
        }
        for (target, &fd) in plan.streams.iter().enumerate() {
            // dup2 clears close-on-exec on the copy, which the program keeps; onto itself it
            // changes nothing, so the flag is cleared by hand.
            let kept = if fd == target as c_int {
                libc::fcntl(fd, libc::F_SETFD, 0)
            } else {
                libc::dup2(fd, target as c_int)
            };
            if kept < 0 {
                return fail(plan, Stage::Streams);
            }
        }
        if plan.extra >= 0 {
            let kept = if plan.extra == 3 {
                libc::fcntl(3, libc::F_SETFD, 0)
            } else {
                libc::dup2(plan.extra, 3)
            };
            if kept < 0 {
                return fail(plan, Stage::Streams);
            }
        }
        if !plan.cwd.is_null() && libc::chdir(plan.cwd) != 0 {
            return fail(plan, Stage::Directory);
        }
        // Best effort: it can only fail if the CPUs allowed to the whole process shrank to
        // none of the mask's since, and the program then runs where the spawner was pinned.
        if !plan.affinity.is_null() {
            libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), plan.affinity);
        }
        let mut default: libc::sigaction = std::mem::zeroed();
        default.sa_sigaction = libc::SIG_DFL;
        // SIGPIPE back to its default too: the Rust runtime ignores it, and an ignored signal
        // stays ignored across `exec`.
        if libc::sigaction(libc::SIGPIPE, &default, std::ptr::null_mut()) != 0 {
            return fail(plan, Stage::Signals);
        }
        for i in 0..plan.signals_len {
            libc::sigaction(*plan.signals.add(i), &default, std::ptr::null_mut());
        }
        let mut empty: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut empty);
        if libc::sigprocmask(libc::SIG_SETMASK, &empty, std::ptr::null_mut()) != 0 {
            return fail(plan, Stage::Signals);
        }
        // As `execvp`: a file that is not there, or not a directory on the way, sends the
        // search on; so does one that may not be executed, which is the error reported if
        // nothing else is found.
        let mut denied = false;
        let mut candidate = plan.candidates;
        while !(*candidate).is_null() {
            libc::execve(*candidate, plan.argv, plan.envp);
            match *libc::__errno_location() {
                libc::EACCES => denied = true,
                libc::ENOENT | libc::ENOTDIR => {}
                _ => return fail(plan, Stage::Exec),
            }
            candidate = candidate.add(1);
        }
        if denied {
            *libc::__errno_location() = libc::EACCES;
        }
        fail(plan, Stage::Exec)
    }
}

/// Clones the child that carries out `plan`, with `flags` besides `CLONE_VM | CLONE_VFORK`
/// (`CLONE_PARENT` in a spawner, so that the program is the harness's child), and returns
/// its pid once it has `exec`uted, or what it failed at.
pub(crate) fn launch(plan: &mut ChildSetup, flags: c_int) -> Result<i32, Failed> {
    let pid = STACK.with(|cell| -> io::Result<c_int> {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            *slot = Some(ChildStack::map()?);
        }
        let top = slot.as_ref().map_or(std::ptr::null_mut(), ChildStack::top);
        // SAFETY: all signals are blocked in this thread while the child runs on its memory
        // (none of the parent's handlers may run in the child before it resets them), and
        // restored after; the child gets its own stack and the plan, both alive until `clone`
        // returns, which with CLONE_VFORK is after the child's `exec` or exit.
        unsafe {
            let mut all: libc::sigset_t = std::mem::zeroed();
            let mut old: libc::sigset_t = std::mem::zeroed();
            libc::sigfillset(&mut all);
            libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut old);
            let pid = libc::clone(
                child,
                top,
                libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD | flags,
                std::ptr::from_mut(plan).cast(),
            );
            let error = io::Error::last_os_error();
            libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
            if pid < 0 { Err(error) } else { Ok(pid) }
        }
    });
    let pid = pid.map_err(|e| Failed {
        pid: -1,
        stage: Stage::Clone,
        errno: e.raw_os_error().unwrap_or(libc::EAGAIN),
    })?;
    // The child wrote these (if it failed) through the shared memory before it exited.
    // SAFETY: reads of a live value.
    let (failed, errno) = unsafe {
        (
            std::ptr::read_volatile(&raw const plan.failed),
            std::ptr::read_volatile(&raw const plan.errno),
        )
    };
    if failed != Stage::None {
        return Err(Failed {
            pid,
            stage: failed,
            errno,
        });
    }
    Ok(pid)
}

/// Null-terminated pointers to `strings`, valid while they are.
fn pointers(strings: &[CString]) -> Vec<*const libc::c_char> {
    let mut all: Vec<*const libc::c_char> = strings.iter().map(|c| c.as_ptr()).collect();
    all.push(std::ptr::null());
    all
}

/// Starts `program` from the harness itself, its streams from `streams` and, if `extra` is
/// not -1, `extra` as its descriptor 3; it resets the signals the harness catches.
pub(crate) fn launch_here(
    program: &Program,
    streams: [RawFd; 3],
    extra: RawFd,
) -> Result<i32, Failed> {
    let candidates = pointers(&program.candidates);
    let argv = pointers(&program.argv);
    let mut envp: Vec<*const libc::c_char> = Vec::with_capacity(64);
    program.for_each_env(|var| envp.push(var.as_ptr()));
    envp.push(std::ptr::null());
    let signals = caught_signals();
    let mut plan = ChildSetup {
        candidates: candidates.as_ptr(),
        argv: argv.as_ptr(),
        envp: envp.as_ptr(),
        cwd: program
            .cwd
            .as_ref()
            .map_or(std::ptr::null(), |c| c.as_ptr()),
        streams,
        extra,
        rlimits: program.rlimits.as_ptr(),
        rlimits_len: program.rlimits.len(),
        signals: signals.as_ptr(),
        signals_len: signals.len(),
        affinity: std::ptr::null(),
        failed: Stage::None,
        errno: 0,
    };
    launch(&mut plan, 0)
}

/// Starts `program` with `args`, in `cwd` (else the caller's directory), as the leader of a
/// new process group, under `rlimits` (set in order, before `exec`), with `run_var`
/// (`NAME=VALUE`) added to the harness's environment (replacing a variable of that name). A
/// program name without a `/` is looked up in `PATH`. Returns once the program has been
/// `exec`uted, or with the error that prevented it.
pub(crate) fn spawn(
    program: &OsStr,
    args: &[OsString],
    cwd: Option<&Path>,
    stdin: Stdin,
    run_var: &str,
    rlimits: &[Rlimit],
) -> io::Result<Started> {
    let mut argv = Vec::with_capacity(args.len() + 1);
    argv.push(cstring(program.as_bytes())?);
    for arg in args {
        argv.push(cstring(arg.as_bytes())?);
    }
    let request = Program {
        candidates: candidates(program)?,
        argv,
        run_var: cstring(run_var.as_bytes())?,
        cwd: cwd.map(|d| cstring(d.as_os_str().as_bytes())).transpose()?,
        rlimits,
    };
    let (stdin_read, stdin_write) = match stdin {
        Stdin::Pipe => {
            let (read, write) = pipe()?;
            (read, Some(write))
        }
        Stdin::Null => (dev_null()?, None),
    };
    let stdout_pipe = pipe()?;
    let stderr_pipe = pipe()?;
    let streams = [
        stdin_read.as_raw_fd(),
        stdout_pipe.1.as_raw_fd(),
        stderr_pipe.1.as_raw_fd(),
    ];
    let (launched, maxrss_from_start) = match spawner::launch(&request, streams) {
        Some(launched) => (launched, true),
        None => (
            launch_here(&request, streams, -1).map(|pid| (pid, Instant::now())),
            false,
        ),
    };
    let (pid, start) = launched.map_err(|failed| {
        if failed.pid > 0 {
            reap(failed.pid);
        }
        let os = io::Error::from_raw_os_error(failed.errno);
        match failed.stage {
            Stage::Exec => os,
            stage => io::Error::new(os.kind(), format!("{}: {os}", stage_name(stage))),
        }
    })?;
    // The child's ends close here, in the harness: the program holds its own copies.
    drop(stdin_read);
    Ok(Started {
        pid,
        stdin: stdin_write,
        stdout: stdout_pipe.0,
        stderr: stderr_pipe.0,
        maxrss_from_start,
        start,
    })
}

fn stage_name(stage: Stage) -> &'static str {
    match stage {
        Stage::None | Stage::Exec => "cannot execute it",
        Stage::ProcessGroup => "cannot give it its own process group",
        Stage::Rlimit => "cannot set its resource limits",
        Stage::Streams => "cannot connect its standard streams",
        Stage::Directory => "cannot enter its working directory",
        Stage::Signals => "cannot reset its signals",
        Stage::Clone | Stage::Request => "cannot start a process",
    }
}

/// `CLOCK_MONOTONIC` now, in nanoseconds: a time another process can pass on
/// ([`instant_at`]).
pub(crate) fn monotonic_ns() -> u64 {
    // SAFETY: a zeroed timespec is a valid out-parameter.
    let mut ts: libc::timespec = unsafe { std::mem::zeroed() };
    // SAFETY: as above; CLOCK_MONOTONIC is always there.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    (ts.tv_sec as u64)
        .saturating_mul(1_000_000_000)
        .saturating_add(ts.tv_nsec as u64)
}

/// The instant of `ns` ([`monotonic_ns`], maybe taken in another process): now, less the
/// time since then (never later than now).
pub(crate) fn instant_at(ns: u64) -> Instant {
    let now = Instant::now();
    let since = Duration::from_nanos(monotonic_ns().saturating_sub(ns));
    now.checked_sub(since).unwrap_or(now)
}

/// Reaps a child that failed before `exec` (it has exited already).
fn reap(pid: c_int) {
    let mut status = 0;
    // SAFETY: waits for our own child; the status goes to a local.
    while unsafe { libc::waitpid(pid, &mut status, 0) } < 0
        && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted
    {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn run(program: &str, args: &[&str], rlimits: &[Rlimit]) -> io::Result<(Vec<u8>, i32)> {
        let args: Vec<OsString> = args.iter().map(OsString::from).collect();
        let started = spawn(
            OsStr::new(program),
            &args,
            None,
            Stdin::Null,
            "DUIPAI_SPAWN_TEST=7",
            rlimits,
        )?;
        let mut out = Vec::new();
        std::fs::File::from(started.stdout).read_to_end(&mut out)?;
        let mut status = 0;
        // SAFETY: our own child, status to a local.
        unsafe { libc::waitpid(started.pid, &mut status, 0) };
        Ok((out, status))
    }

    /// A spawner starts the program, yet the program is the harness's own child (the harness
    /// reaps it and is the subreaper of what it orphans), and its `ru_maxrss` counts from its
    /// own start.
    #[test]
    fn the_program_is_the_harness_s_child_measured_from_its_start() {
        let started = spawn(
            OsStr::new("cat"),
            &[OsString::from("/proc/self/stat")],
            None,
            Stdin::Null,
            "DUIPAI_SPAWN_TEST=7",
            &[],
        )
        .expect("cat starts");
        assert!(started.maxrss_from_start, "started without a spawner");
        let mut out = String::new();
        std::fs::File::from(started.stdout)
            .read_to_string(&mut out)
            .unwrap();
        let ppid = out
            .rsplit(')')
            .next()
            .and_then(|rest| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse::<i32>().ok());
        // SAFETY: getpid has no preconditions.
        assert_eq!(ppid, Some(unsafe { libc::getpid() }), "{out}");
        let mut status = 0;
        // SAFETY: a zeroed rusage is a valid out-parameter; our own child.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: valid pointers to locals.
        let reaped = unsafe { libc::wait4(started.pid, &mut status, 0, &mut usage) };
        assert_eq!(reaped, started.pid);
        // `cat` is far smaller than this test process.
        let peak = usage.ru_maxrss as u64 * 1024;
        assert!(peak > 0 && peak < 8 << 20, "ru_maxrss {peak}");
    }

    #[test]
    fn a_missing_program_is_not_found() {
        let err = run("/nonexistent/duipai-test", &[], &[]).expect_err("an error");
        assert_eq!(err.kind(), io::ErrorKind::NotFound);
        let err = run("duipai-no-such-program-anywhere", &[], &[]).expect_err("an error");
        assert_eq!(err.kind(), io::ErrorKind::NotFound);
    }

    #[test]
    fn a_directory_cannot_be_executed() {
        let err = run("/tmp", &[], &[]).expect_err("an error");
        assert_eq!(err.kind(), io::ErrorKind::PermissionDenied);
    }

    #[test]
    fn names_are_looked_up_in_path_and_get_the_run_variable() {
        let (out, status) = run("sh", &["-c", "echo $DUIPAI_SPAWN_TEST"], &[]).expect("sh runs");
        assert_eq!(out, b"7\n");
        assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0);
    }

    /// The spawner is pinned to the CPU of the thread that asks it (see `spawner`), but the
    /// program may run on every CPU the harness may, from whichever CPU it is started.
    #[test]
    fn the_program_is_not_pinned_to_the_spawner_s_cpu() {
        let allowed = |status: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
                .map(|v| v.trim().to_owned())
        };
        let own = std::fs::read_to_string("/proc/self/status").unwrap();
        for _ in 0..3 {
            let (out, _) = run("cat", &["/proc/self/status"], &[]).expect("cat runs");
            let text = String::from_utf8(out).unwrap();
            assert!(allowed(&text).is_some(), "{text}");
            assert_eq!(allowed(&text), allowed(&own), "{text}");
        }
    }

    #[test]
    fn the_program_leads_its_own_group_with_an_empty_signal_mask() {
        // `cat` reads its own figures: a shell would show its own mask, which it changes
        // while it waits for a command.
        let (out, _) =
            run("cat", &["/proc/self/stat", "/proc/self/status"], &[]).expect("cat runs");
        let text = String::from_utf8(out).unwrap();
        let stat: Vec<&str> = text.split_whitespace().collect();
        // pid (cat) state ppid pgrp
        assert_eq!(stat.get(1), Some(&"(cat)"), "{text}");
        assert_eq!(stat.first(), stat.get(4), "{text}");
        assert!(text.contains("SigBlk:\t0000000000000000"), "{text}");
        let ignored = text
            .lines()
            .find_map(|l| l.strip_prefix("SigIgn:\t"))
            .expect("a SigIgn line");
        let ignored = u64::from_str_radix(ignored.trim(), 16).unwrap();
        assert_eq!(
            ignored & (1 << (libc::SIGPIPE - 1)),
            0,
            "SIGPIPE is not ignored"
        );
    }

    #[test]
    fn rlimits_hold_from_the_first_instruction_also_in_a_child_forked_at_once() {
        // A stack limit shows in `ulimit -s` (KiB) of the shell itself, and the tag-like
        // RTTIME value in a `cat` the shell forks right away.
        let rlimits = [
            Rlimit {
                resource: libc::RLIMIT_STACK,
                limit: libc::rlimit {
                    rlim_cur: 32 << 20,
                    rlim_max: 32 << 20,
                },
                required: true,
            },
            Rlimit {
                resource: libc::RLIMIT_RTTIME,
                limit: libc::rlimit {
                    rlim_cur: 123_456_789,
                    rlim_max: 123_456_789,
                },
                required: false,
            },
        ];
        let (out, _) =
            run("sh", &["-c", "ulimit -s; cat /proc/self/limits"], &rlimits).expect("sh runs");
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("32768\n"), "{text}");
        let rttime = text
            .lines()
            .find(|l| l.starts_with("Max realtime timeout"))
            .expect("a realtime timeout line");
        assert!(rttime.contains("123456789"), "{text}");
    }

    #[test]
    fn an_rlimit_that_cannot_be_set_fails_the_start_when_required() {
        // A soft limit above the hard one is invalid for everybody.
        let invalid = libc::rlimit {
            rlim_cur: 2 << 20,
            rlim_max: 1 << 20,
        };
        let required = Rlimit {
            resource: libc::RLIMIT_FSIZE,
            limit: invalid,
            required: true,
        };
        let err = run("true", &[], &[required]).expect_err("an error");
        assert!(err.to_string().contains("resource limits"), "{err}");
        let optional = Rlimit {
            required: false,
            ..required
        };
        let (_, status) = run("true", &[], &[optional]).expect("best effort only");
        assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0);
    }
}
