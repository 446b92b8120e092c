//! Starting a program by `clone` and `exec`, the machinery the harness and a spawner share. A
//! `vfork`-style `clone` ([`launch`], or [`launch_here`] from the harness) runs a child that
//! gives the program its standard streams, its own process group (without a terminal), its
//! rlimits, its working directory, its credentials (a box uid) and its environment, then
//! `exec`s it, all from a plan the parent prepared ([`ChildSetup`], from a [`Program`]); a
//! start that failed says at what ([`Failed`], [`Stage`]). Beside it: what such a plan is made
//! from (the files `exec` tries, pipes clear of the standard descriptors, `/dev/null`), and the
//! clock by which a spawner tells the harness when the program started ([`monotonic_ns`],
//! [`instant_at`]).
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
use std::ffi::{CString, OsStr, c_int, c_void};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// An rlimit the program gets before `exec`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Rlimit {
    pub resource: libc::__rlimit_resource_t,
    pub limit: libc::rlimit,
    /// Whether failing to set it fails the start (otherwise it is best effort).
    pub required: bool,
}

/// What is to be started, prepared by the harness: where `exec` looks for it, its arguments,
/// its environment, its working directory, its rlimits, and how the child sets itself up.
pub(super) struct Program<'a> {
    pub candidates: Vec<CString>,
    pub argv: Vec<CString>,
    pub env: Vec<CString>,
    pub cwd: Option<CString>,
    pub rlimits: &'a [Rlimit],
    pub setup: Setup,
}

/// How the child sets itself up besides its streams, rlimits and directory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Setup {
    /// No controlling terminal: it gives up the one it inherited (`TIOCNOTTY`). Not a new
    /// session, which would also do it: where the kernel groups the scheduling of each
    /// session (`sched_autogroup`), a session per run is a scheduling group made and freed
    /// per run, which cost a fifth of `stress -j 2`'s throughput.
    pub no_terminal: bool,
    /// Raises its `oom_score_adj` to the most, so that the OOM killer of its cgroup picks it
    /// (or what it started) rather than the spawner beside it.
    pub oom_first: bool,
    /// The uid and gid it drops to (a box uid), with no supplementary group.
    pub credentials: Option<(u32, u32)>,
    /// The system calls no namespace covers are refused to it (`contain::filter`), from its
    /// first instruction.
    pub filter: bool,
}

pub(super) fn cstring(bytes: &[u8]) -> io::Result<CString> {
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
pub(super) fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two new descriptors into a valid array.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both descriptors were just created and are owned by nobody else.
    let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    Ok((above_standard(read)?, above_standard(write)?))
}

/// A pair of connected sequential-packet sockets, both close-on-exec: how the harness talks
/// with a spawner or a keeper.
pub(super) fn socket_pair() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: socketpair writes two new descriptors into a valid array.
    let r = unsafe {
        libc::socketpair(
            libc::AF_UNIX,
            libc::SOCK_SEQPACKET | libc::SOCK_CLOEXEC,
            0,
            fds.as_mut_ptr(),
        )
    };
    if r != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both descriptors were just created and are owned by nobody else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

pub(super) fn dev_null() -> io::Result<OwnedFd> {
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
pub(super) fn candidates(program: &OsStr) -> io::Result<Vec<CString>> {
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
pub(super) enum Stage {
    None = 0,
    ProcessGroup,
    Cgroup,
    Credentials,
    Rlimit,
    Streams,
    Directory,
    Signals,
    Exec,
    /// The `clone` itself failed: there is no child.
    Clone,
    /// A spawner could not read the request (too large for it): there is no child.
    Request,
    Filter,
    /// The input file could not be written into the program's working folder: there is no
    /// child.
    Input,
}

impl Stage {
    pub fn from_code(code: i32) -> Stage {
        [
            Stage::ProcessGroup,
            Stage::Cgroup,
            Stage::Credentials,
            Stage::Rlimit,
            Stage::Streams,
            Stage::Directory,
            Stage::Signals,
            Stage::Exec,
            Stage::Clone,
            Stage::Request,
            Stage::Filter,
            Stage::Input,
        ]
        .into_iter()
        .find(|s| *s as i32 == code)
        .unwrap_or(Stage::None)
    }
}

/// A start that failed: at what, with what `errno`, and the child to reap (if there is one;
/// it has exited already).
#[derive(Clone, Copy, Debug)]
pub(super) struct Failed {
    pub pid: i32,
    pub stage: Stage,
    pub errno: c_int,
}

/// Everything the child needs, prepared by the parent: raw pointers into data the parent
/// keeps alive until the child has `exec`uted or exited.
pub(super) struct ChildSetup {
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
    pub setup: Setup,
    /// Open `cgroup.procs` files the child moves itself into before anything else (a
    /// spawner's own placement in its cgroup: once per spawner, never per program); -1 for
    /// none.
    pub cgroup_procs: [c_int; MAX_HIERARCHIES],
    /// The seccomp filter it installs last, or null (see [`Setup::filter`]).
    pub filter: *const libc::sock_fprog,
    /// Written by the child when it fails: at what, and `errno`.
    pub failed: Stage,
    pub errno: c_int,
}

/// The most cgroup hierarchies a child joins (cgroup v1: memory, pids, cpuacct).
pub(super) const MAX_HIERARCHIES: usize = 4;

/// The child, between `clone` and `exec`. It shares the parent's memory (the parent is
/// suspended) and so only makes system calls on the plan; it never returns but by `exec` or
/// `_exit`, and cannot unwind (nothing in it panics).
extern "C" fn child(arg: *mut c_void) -> c_int {
    // SAFETY: `arg` is the parent's `ChildSetup`, alive and untouched while the parent waits; every
    // pointer in it is valid for its length, as its maker built them, and this is the child.
    unsafe {
        let plan = &mut *arg.cast::<ChildSetup>();
        if let Err(stage) = set_up(plan) {
            fail(plan, stage)
        }
        exec(plan);
        fail(plan, Stage::Exec)
    }
}

/// Reports what failed, with the `errno` the failing call left, through the plan, and exits.
fn fail(plan: &mut ChildSetup, stage: Stage) -> ! {
    // SAFETY: `__errno_location` is the suspended parent thread's errno, which the child's
    // calls set (it runs on that thread's memory); `_exit` ends the child without running
    // anything of the parent's.
    unsafe {
        plan.errno = *libc::__errno_location();
        plan.failed = stage;
        libc::_exit(127)
    }
}

// The steps of `child`, for it alone: they change the calling process as only the child may
// (its process group, descriptors, directory, signal dispositions), and the unsafe ones
// replace descriptors or trust the plan's pointers to be valid for their lengths. Each makes
// plain system calls and nothing else: no allocation, no lock. A step that fails returns its
// stage with `errno` as the failing call left it.

/// Everything before `exec`, in order.
unsafe fn set_up(plan: &ChildSetup) -> Result<(), Stage> {
    // SAFETY: this is the child, and the plan's pointers are valid (the caller's promise).
    unsafe {
        join_cgroups(plan)?;
        own_process_group(plan.setup.no_terminal)?;
        if plan.setup.oom_first {
            oom_first();
        }
        set_rlimits(plan)?;
        connect_streams(plan)?;
        enter_directory(plan)?;
        set_affinity(plan);
        reset_signals(plan)?;
        drop_credentials(plan.setup.credentials)?;
        install_filter(plan.filter)
    }
}

/// Installs the filter, if the plan has one: last, once nothing left needs what it refuses.
fn install_filter(filter: *const libc::sock_fprog) -> Result<(), Stage> {
    // SAFETY: a filter of `contain::filter`'s, alive in the parent's memory; this is the
    // program's own process, about to `exec`.
    if !filter.is_null() && !unsafe { crate::run::contain::filter::install(filter) } {
        return Err(Stage::Filter);
    }
    Ok(())
}

/// Moves the child into the cgroups whose `cgroup.procs` the plan holds open.
fn join_cgroups(plan: &ChildSetup) -> Result<(), Stage> {
    for &fd in &plan.cgroup_procs {
        // SAFETY: writes two bytes from a static string to a descriptor of the plan's.
        if fd >= 0 && unsafe { libc::write(fd, c"0".as_ptr().cast(), 1) } != 1 {
            return Err(Stage::Cgroup);
        }
    }
    Ok(())
}

/// Its own process group, and (`no_terminal`) no controlling terminal.
fn own_process_group(no_terminal: bool) -> Result<(), Stage> {
    // SAFETY: setpgid reads and writes no memory of the caller's.
    if unsafe { libc::setpgid(0, 0) } != 0 {
        return Err(Stage::ProcessGroup);
    }
    if no_terminal {
        give_up_terminal();
    }
    Ok(())
}

/// Gives up this process's controlling terminal, if it has one (a process that is not a
/// session leader just loses it: `TIOCNOTTY`); `/dev/tty` then fails with ENXIO. Without one
/// (in CI, say) this costs one failed `open`.
fn give_up_terminal() {
    // SAFETY: open, ioctl and close on a descriptor of its own; no memory of the caller's.
    unsafe {
        let fd = libc::open(
            c"/dev/tty".as_ptr(),
            libc::O_RDWR | libc::O_NOCTTY | libc::O_CLOEXEC,
        );
        if fd >= 0 {
            libc::ioctl(fd, libc::TIOCNOTTY);
            libc::close(fd);
        }
    }
}

/// `oom_score_adj` 1000. Best effort: raising one's own score needs no privilege, and
/// without it the OOM killer still picks the largest process, which is the program's.
fn oom_first() {
    // SAFETY: a NUL-terminated path; write from a static buffer; close of our own descriptor.
    unsafe {
        let fd = libc::open(
            c"/proc/self/oom_score_adj".as_ptr(),
            libc::O_WRONLY | libc::O_CLOEXEC,
        );
        if fd >= 0 {
            libc::write(fd, c"1000".as_ptr().cast(), 4);
            libc::close(fd);
        }
    }
}

/// Drops to the box uid and gid, with no supplementary group, last, once nothing left needs
/// a privilege; and forbids gaining any back (a set-uid program it runs stays unprivileged).
fn drop_credentials(credentials: Option<(u32, u32)>) -> Result<(), Stage> {
    let Some((uid, gid)) = credentials else {
        return Ok(());
    };
    // SAFETY: plain credential calls on the child itself.
    let failed = unsafe {
        libc::setgroups(0, std::ptr::null()) != 0
            || libc::setresgid(gid, gid, gid) != 0
            || libc::setresuid(uid, uid, uid) != 0
            || libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
    };
    if failed {
        return Err(Stage::Credentials);
    }
    Ok(())
}

unsafe fn set_rlimits(plan: &ChildSetup) -> Result<(), Stage> {
    for i in 0..plan.rlimits_len {
        // SAFETY: `rlimits` points to `rlimits_len` of them (the caller's promise).
        let rlimit = unsafe { &*plan.rlimits.add(i) };
        // SAFETY: setrlimit reads a valid rlimit.
        if unsafe { libc::setrlimit(rlimit.resource, &rlimit.limit) } != 0 && rlimit.required {
            return Err(Stage::Rlimit);
        }
    }
    Ok(())
}

/// The plan's streams become descriptors 0, 1 and 2, and its extra descriptor (if any) 3.
unsafe fn connect_streams(plan: &ChildSetup) -> Result<(), Stage> {
    for (target, &fd) in plan.streams.iter().enumerate() {
        // SAFETY: this is the child, whose standard descriptors are its own to replace.
        if unsafe { keep_as(fd, target as c_int) } < 0 {
            return Err(Stage::Streams);
        }
    }
    // SAFETY: as above, for descriptor 3.
    if plan.extra >= 0 && unsafe { keep_as(plan.extra, 3) } < 0 {
        return Err(Stage::Streams);
    }
    Ok(())
}

/// `fd` as descriptor `target`, kept open across `exec`; negative if that failed.
unsafe fn keep_as(fd: c_int, target: c_int) -> c_int {
    // dup2 clears close-on-exec on the copy, which the program keeps; onto itself it changes
    // nothing, so the flag is cleared by hand.
    // SAFETY: plain descriptor calls; the caller owns `target` in the child.
    unsafe {
        if fd == target {
            libc::fcntl(fd, libc::F_SETFD, 0)
        } else {
            libc::dup2(fd, target)
        }
    }
}

unsafe fn enter_directory(plan: &ChildSetup) -> Result<(), Stage> {
    // SAFETY: `cwd`, when not null, is a NUL-terminated path (the caller's promise).
    if !plan.cwd.is_null() && unsafe { libc::chdir(plan.cwd) } != 0 {
        return Err(Stage::Directory);
    }
    Ok(())
}

/// The plan's CPUs for the program, if it names any. Best effort: it can only fail if the
/// CPUs allowed to the whole process shrank to none of the mask's since, and the program then
/// runs where the spawner was pinned.
unsafe fn set_affinity(plan: &ChildSetup) {
    if !plan.affinity.is_null() {
        // SAFETY: `affinity`, when not null, is a whole cpu_set_t (the caller's promise).
        unsafe {
            libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), plan.affinity)
        };
    }
}

/// SIGPIPE and the plan's signals back to their default action, then every signal unblocked
/// (the parent blocked them all for the `clone`).
unsafe fn reset_signals(plan: &ChildSetup) -> Result<(), Stage> {
    // SAFETY: a zeroed sigaction and sigset_t are valid values; `signals` points to
    // `signals_len` signal numbers (the caller's promise); this is the child, whose signal
    // dispositions and mask are its own.
    unsafe {
        let mut default: libc::sigaction = std::mem::zeroed();
        default.sa_sigaction = libc::SIG_DFL;
        // SIGPIPE back to its default too: the Rust runtime ignores it, and an ignored signal
        // stays ignored across `exec`.
        if libc::sigaction(libc::SIGPIPE, &default, std::ptr::null_mut()) != 0 {
            return Err(Stage::Signals);
        }
        for i in 0..plan.signals_len {
            libc::sigaction(*plan.signals.add(i), &default, std::ptr::null_mut());
        }
        let mut empty: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut empty);
        if libc::sigprocmask(libc::SIG_SETMASK, &empty, std::ptr::null_mut()) != 0 {
            return Err(Stage::Signals);
        }
    }
    Ok(())
}

/// `exec`s the first of the plan's candidates that can be; returns only if none can, with
/// `errno` set to the error to report.
unsafe fn exec(plan: &ChildSetup) {
    // As `execvp`: a file that is not there, or not a directory on the way, sends the search
    // on; so does one that may not be executed, which is the error reported if nothing else is
    // found.
    let mut denied = false;
    let mut candidate = plan.candidates;
    // SAFETY: `candidates`, `argv` and `envp` are null-terminated arrays of NUL-terminated
    // strings (the caller's promise); errno as in `fail`.
    unsafe {
        while !(*candidate).is_null() {
            libc::execve(*candidate, plan.argv, plan.envp);
            match *libc::__errno_location() {
                libc::EACCES => denied = true,
                libc::ENOENT | libc::ENOTDIR => {}
                _ => return,
            }
            candidate = candidate.add(1);
        }
        if denied {
            *libc::__errno_location() = libc::EACCES;
        }
    }
}

/// Clones `child(arg)` with `CLONE_VM | CLONE_VFORK` and `flags`, on the stack whose top is
/// `top`; its pid once it has `exec`uted or exited. All signals are blocked in this thread
/// while the child runs on its memory (none of the parent's handlers may run in the child
/// before it resets them), and restored after.
///
/// # Safety
/// `top` is the top of a stack and `arg` what `child` expects, both alive until this returns
/// (with `CLONE_VFORK`, after the child's `exec` or exit).
pub(super) unsafe fn clone_vfork(
    child: extern "C" fn(*mut c_void) -> c_int,
    top: *mut c_void,
    flags: c_int,
    arg: *mut c_void,
) -> io::Result<i32> {
    // SAFETY: signal masks of this thread, and the clone the caller vouches for.
    unsafe {
        let mut all: libc::sigset_t = std::mem::zeroed();
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::sigfillset(&mut all);
        libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut old);
        let pid = libc::clone(
            child,
            top,
            libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD | flags,
            arg,
        );
        let error = io::Error::last_os_error();
        libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
        if pid < 0 { Err(error) } else { Ok(pid) }
    }
}

/// Clones the child that carries out `plan`, with `flags` besides `CLONE_VM | CLONE_VFORK`
/// (`CLONE_PARENT` in a spawner, so that the program is the harness's child), and returns
/// its pid once it has `exec`uted, or what it failed at.
pub(super) fn launch(plan: &mut ChildSetup, flags: c_int) -> Result<i32, Failed> {
    let pid = STACK.with(|cell| -> io::Result<c_int> {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            *slot = Some(ChildStack::map()?);
        }
        let top = slot.as_ref().map_or(std::ptr::null_mut(), ChildStack::top);
        // SAFETY: the child gets its own stack and the plan, both alive until `clone`
        // returns.
        unsafe { clone_vfork(child, top, flags, std::ptr::from_mut(plan).cast()) }
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

/// The filter a program set up as `setup` installs, or null.
pub(super) fn filter_of(setup: Setup) -> *const libc::sock_fprog {
    if setup.filter {
        crate::run::contain::filter::program_filter()
    } else {
        std::ptr::null()
    }
}

/// Null-terminated pointers to `strings`, valid while they are.
fn pointers(strings: &[CString]) -> Vec<*const libc::c_char> {
    let mut all: Vec<*const libc::c_char> = strings.iter().map(|c| c.as_ptr()).collect();
    all.push(std::ptr::null());
    all
}

/// Starts `program` from the harness itself, its streams from `streams` and, if `extra` is
/// not -1, `extra` as its descriptor 3, first moving it into the cgroups whose `cgroup.procs`
/// files are `cgroups` (open for writing); it resets the signals the harness catches.
pub(super) fn launch_here(
    program: &Program,
    streams: [RawFd; 3],
    extra: RawFd,
    cgroups: &[RawFd],
) -> Result<i32, Failed> {
    let candidates = pointers(&program.candidates);
    let argv = pointers(&program.argv);
    let envp = pointers(&program.env);
    let mut cgroup_procs = [-1; MAX_HIERARCHIES];
    for (slot, &fd) in cgroup_procs.iter_mut().zip(cgroups) {
        *slot = fd;
    }
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
        setup: program.setup,
        cgroup_procs,
        filter: filter_of(program.setup),
        failed: Stage::None,
        errno: 0,
    };
    launch(&mut plan, 0)
}

/// `CLOCK_MONOTONIC` now, in nanoseconds: a time another process can pass on
/// ([`instant_at`]).
pub(super) fn monotonic_ns() -> u64 {
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
pub(super) fn instant_at(ns: u64) -> Instant {
    let now = Instant::now();
    let since = Duration::from_nanos(monotonic_ns().saturating_sub(ns));
    now.checked_sub(since).unwrap_or(now)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;
    use std::io::Read;

    /// Starts `program` from the harness itself (as when no spawner can be had), its stdout a
    /// pipe read to the end: the output and the wait status, or what failed.
    fn run_here(
        program: &str,
        args: &[&str],
        cwd: Option<&CStr>,
        rlimits: &[Rlimit],
    ) -> Result<(String, c_int), Failed> {
        let mut argv = vec![cstring(program.as_bytes()).unwrap()];
        argv.extend(args.iter().map(|a| cstring(a.as_bytes()).unwrap()));
        let program = Program {
            candidates: candidates(OsStr::new(program)).unwrap(),
            argv,
            env: vec![
                c"DUIPAI_CLONE_TEST=5".to_owned(),
                c"PATH=/usr/bin:/bin".to_owned(),
            ],
            cwd: cwd.map(CStr::to_owned),
            rlimits,
            setup: Setup::default(),
        };
        let null = dev_null().unwrap();
        let (out, out_child) = pipe().unwrap();
        let streams = [null.as_raw_fd(), out_child.as_raw_fd(), libc::STDERR_FILENO];
        let launched = launch_here(&program, streams, -1, &[]);
        drop(out_child);
        let mut status = 0;
        let pid = match launched {
            Ok(pid) => pid,
            Err(failed) => {
                if failed.pid > 0 {
                    // SAFETY: our own child, status to a local.
                    unsafe { libc::waitpid(failed.pid, &mut status, 0) };
                }
                return Err(failed);
            }
        };
        let mut text = String::new();
        std::fs::File::from(out).read_to_string(&mut text).unwrap();
        // SAFETY: as above.
        unsafe { libc::waitpid(pid, &mut status, 0) };
        Ok((text, status))
    }

    #[test]
    fn from_the_harness_the_program_gets_its_group_rlimits_mask_and_run_variable() {
        let stack = Rlimit {
            resource: libc::RLIMIT_STACK,
            limit: libc::rlimit {
                rlim_cur: 32 << 20,
                rlim_max: 32 << 20,
            },
            required: true,
        };
        let script = "ulimit -s; echo $DUIPAI_CLONE_TEST";
        let (text, status) = run_here("sh", &["-c", script], None, &[stack]).expect("sh runs");
        assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0);
        assert_eq!(text, "32768\n5\n");
        let (text, _) = run_here("cat", &["/proc/self/stat", "/proc/self/status"], None, &[])
            .expect("cat runs");
        let stat: Vec<&str> = text.split_whitespace().collect();
        // pid (cat) state ppid pgrp
        assert_eq!(stat.get(1), Some(&"(cat)"), "{text}");
        assert_eq!(stat.first(), stat.get(4), "{text}");
        assert!(text.contains("SigBlk:\t0000000000000000"), "{text}");
    }

    #[test]
    fn a_start_that_fails_says_at_what() {
        let stage = |result: Result<(String, c_int), Failed>| {
            let failed = result.expect_err("a failure");
            (failed.stage, failed.errno)
        };
        let invalid = Rlimit {
            resource: libc::RLIMIT_FSIZE,
            limit: libc::rlimit {
                rlim_cur: 2 << 20,
                rlim_max: 1 << 20,
            },
            required: true,
        };
        assert_eq!(
            stage(run_here("true", &[], None, &[invalid])),
            (Stage::Rlimit, libc::EINVAL)
        );
        let nowhere = Some(c"/nonexistent/duipai-test");
        assert_eq!(
            stage(run_here("true", &[], nowhere, &[])),
            (Stage::Directory, libc::ENOENT)
        );
        assert_eq!(
            stage(run_here("/nonexistent/duipai-test", &[], None, &[])),
            (Stage::Exec, libc::ENOENT)
        );
        assert_eq!(
            stage(run_here("/tmp", &[], None, &[])),
            (Stage::Exec, libc::EACCES)
        );
    }
}
