//! Running a program under test: limits, process group, I/O, supervision, cleanup.
//!
//! [`run`] starts the program directly (no shell) in a fresh temporary directory, as the leader
//! of its own process group, with rlimits as a backstop. A supervisor loop samples the group
//! from `/proc` every few milliseconds and kills it (`killpg`, `SIGKILL`) on the first limit it
//! finds exceeded. Whatever happens, the whole group is killed and the leader reaped before
//! `run` returns, so nothing the program started survives it.
//!
//! The outcome of a run is data ([`Execution`]); only a harness failure (the program cannot be
//! started, the temporary directory cannot be made) is an error ([`RunError`]).

mod escape;
mod pipes;
pub mod procfs;
mod signal;

use std::ffi::OsString;
use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub use pipes::STDERR_TAIL;
pub use signal::Signal;

/// How often the supervisor samples the group. The leader's exit wakes it at once (pidfd), so
/// this bounds how late a limit is noticed, not how long a quick program takes.
const TICK: Duration = Duration::from_millis(10);

/// How long the harness waits for a killed group to disappear before reporting a failure.
const KILL_GRACE: Duration = Duration::from_secs(5);

const MIB: u64 = 1024 * 1024;

/// The resources a program under test may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Limits {
    /// CPU time (user + system) of the whole process group.
    pub cpu: Duration,
    /// Wall-clock time from start to exit, for programs that sleep or wait.
    pub wall: Duration,
    /// Resident memory of the whole process group.
    pub memory_bytes: u64,
    /// Bytes of output (stdout, or the output file); one byte more is an output limit verdict.
    pub output_bytes: u64,
    /// Tasks (processes and threads) in the group at once.
    pub processes: u64,
}

impl Limits {
    /// The default wall-clock limit for a CPU limit: twice the CPU limit plus one second,
    /// generous to a loaded machine, short for a sleeper.
    pub fn default_wall(cpu: Duration) -> Duration {
        cpu * 2 + Duration::from_secs(1)
    }

    /// The hard address-space bound (`RLIMIT_AS`): four times the memory limit plus 2 GiB.
    /// The memory limit itself is enforced on resident memory by the supervisor; this bound
    /// only protects the machine if the supervisor is late, so it is generous: runtimes
    /// reserve far more address space than they touch (thread stacks, malloc arenas,
    /// garbage-collected heaps), and a tight bound would stop them before they start. A
    /// program that asks for more than this at once fails to allocate and usually aborts,
    /// which is judged a runtime error.
    pub fn address_space_bytes(&self) -> u64 {
        self.memory_bytes
            .saturating_mul(2)
            .saturating_add(1024 * MIB)
    }
}

/// Where the program reads its input and writes its answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IoMode {
    /// Input on stdin, answer on stdout.
    Stdio,
    /// The original contest's file I/O: the input is written to the file `input` in the working
    /// directory, stdin and stdout are `/dev/null`, and the answer is read from the file
    /// `output` (a missing file counts as empty output).
    Files { input: String, output: String },
}

impl IoMode {
    /// The contest's file I/O for a problem named `name`: `name.in` and `name.out`.
    pub fn files_named(name: &str) -> IoMode {
        IoMode::Files {
            input: format!("{name}.in"),
            output: format!("{name}.out"),
        }
    }
}

/// A limit the harness found exceeded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Limit {
    CpuTime,
    WallTime,
    Memory,
    Output,
    Processes,
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Limit::CpuTime => "CPU time limit",
            Limit::WallTime => "wall-clock limit",
            Limit::Memory => "memory limit",
            Limit::Output => "output limit",
            Limit::Processes => "process limit",
        })
    }
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// The program exited by itself with this code, within every limit.
    Exited(i32),
    /// The program was killed by a signal it did not get from the harness.
    Signaled(Signal),
    /// A limit was exceeded: the harness stopped the program for it, or the program ended by
    /// itself but the final figures are over the limit (CPU time counted at exit, `SIGXCPU`
    /// from the `RLIMIT_CPU` backstop, `SIGXFSZ` from `RLIMIT_FSIZE`).
    LimitExceeded(Limit),
}

/// Everything observed about one run.
#[derive(Clone, Debug)]
pub struct Execution {
    pub termination: Termination,
    /// The program's output, at most `limits.output_bytes`: its stdout, or in
    /// [`IoMode::Files`] the output file (the real stdout then goes to `/dev/null`).
    pub stdout: Vec<u8>,
    /// The last [`STDERR_TAIL`] bytes of stderr.
    pub stderr: Vec<u8>,
    /// How many bytes the program wrote to stderr in all.
    pub stderr_bytes: u64,
    /// CPU time (user + system) of the group, as far as it could be counted.
    pub cpu_time: Duration,
    /// The CPU time of every run of this case, in order, when it was run more than once
    /// because it landed near the limit (see `judge::ProcessRunner`); `[cpu_time]` otherwise.
    pub cpu_times: Vec<Duration>,
    /// Time the program was ready to run but waited for a CPU: large when the machine was too
    /// busy to give it its share (a wall-clock limit then says so).
    pub cpu_wait: Duration,
    /// In file I/O mode, what became of the output file and what else the program wrote.
    pub file_io: Option<FileIo>,
    /// From start until the leader exited or was stopped.
    pub wall_time: Duration,
    /// Peak resident memory: the largest sum over the group's processes seen at one sample, or
    /// a single process's own high-water mark if larger. A program that ends within the first
    /// few milliseconds may show less than it used, or 0.
    pub peak_memory_bytes: u64,
    /// The most tasks (processes and threads) seen in the group at once.
    pub peak_processes: u64,
    /// The program's process group id (its pid). Nothing with this group id is left running
    /// when [`run`] returns; tests check exactly that.
    pub pgid: i32,
    /// The limits it ran under.
    pub limits: Limits,
}

/// What a program in file I/O mode left behind, to explain a missing output file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileIo {
    /// The output file's name (`chess.out`).
    pub output: String,
    /// Whether it was there after the run.
    pub output_found: bool,
    /// Bytes the program printed on stdout instead (at most the output limit).
    pub stdout_bytes: u64,
    /// Other files it created in its working directory, with their sizes, by name.
    pub other_files: Vec<(String, u64)>,
}

/// A failure of the harness, not of the program.
#[derive(Debug)]
pub enum RunError {
    /// The program list was empty.
    NoProgram,
    /// The program could not be started (missing, not executable, ...).
    Spawn {
        program: OsString,
        source: io::Error,
    },
    /// Preparing or cleaning up the run failed.
    Setup { what: String, source: io::Error },
    /// Processes of the group were still alive after being killed.
    Survivors { pgid: i32, pids: Vec<i32> },
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::NoProgram => f.write_str("no program given to run"),
            RunError::Spawn { program, source } => {
                write!(f, "cannot start program {:?}", Path::new(program))?;
                let bare = !program.as_encoded_bytes().contains(&b'/');
                let missing = matches!(
                    source.kind(),
                    io::ErrorKind::NotFound | io::ErrorKind::PermissionDenied
                );
                if bare && missing {
                    f.write_str(
                        " (a name without a slash is looked up in PATH; \
                         write ./NAME for a file in the current directory)",
                    )?;
                }
                Ok(())
            }
            RunError::Setup { what, .. } => f.write_str(what),
            RunError::Survivors { pgid, pids } => write!(
                f,
                "processes {pids:?} of process group {pgid} survived SIGKILL for {} s",
                KILL_GRACE.as_secs()
            ),
        }
    }
}

impl std::error::Error for RunError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RunError::Spawn { source, .. } | RunError::Setup { source, .. } => Some(source),
            RunError::NoProgram | RunError::Survivors { .. } => None,
        }
    }
}

fn setup_error(what: impl Into<String>) -> impl FnOnce(io::Error) -> RunError {
    let what = what.into();
    move |source| RunError::Setup { what, source }
}

/// Process groups of programs running now, so that an interrupted harness can kill them.
static RUNNING: Mutex<Vec<i32>> = Mutex::new(Vec::new());

/// Set by [`kill_running`] (under the `RUNNING` lock): programs started from then on are killed
/// as soon as they are registered.
static STOPPING: AtomicBool = AtomicBool::new(false);

/// Kills every program [`run`] is supervising right now, with its whole process group, and every
/// program started after this call. Meant for an interrupt handler: the programs run in their
/// own groups, so a terminal's Ctrl-C does not reach them, and nothing kills them when the
/// harness exits. A program being started at the
/// same instant is caught too: it registers under the same lock and then sees the flag.
pub fn kill_running() {
    let groups = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    STOPPING.store(true, Ordering::SeqCst);
    for &pgid in groups.iter() {
        // SAFETY: killpg has no memory effects; the group is still reserved because its
        // leader is not reaped before it is removed from this list.
        unsafe { libc::killpg(pgid, libc::SIGKILL) };
    }
}

/// Whether [`kill_running`] was called: runs since then were killed, and their results say
/// nothing about the program.
pub fn cancelled() -> bool {
    STOPPING.load(Ordering::SeqCst)
}

/// The started program: its leader pid (= group id). Until [`Leader::reap`] succeeds, dropping it
/// kills the group and reaps the leader, so an early return or a panic leaves nothing behind.
struct Leader {
    pid: i32,
    reaped: bool,
}

impl Leader {
    fn new(pid: i32) -> Leader {
        let mut groups = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
        groups.push(pid);
        let leader = Leader { pid, reaped: false };
        if STOPPING.load(Ordering::SeqCst) {
            // The harness is being interrupted: this run's result will be discarded.
            leader.kill_group();
        }
        leader
    }

    fn kill_group(&self) {
        // SAFETY: see `kill_running`; the unreaped leader keeps the group id reserved.
        unsafe { libc::killpg(self.pid, libc::SIGKILL) };
    }

    /// Whether the leader has exited, without reaping it (the zombie keeps the group id ours).
    fn has_exited(&self) -> bool {
        // SAFETY: a zeroed siginfo_t is a valid out-parameter for waitid.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let r = libc::waitid(
                libc::P_PID,
                self.pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            );
            r == 0 && info.si_pid() != 0
        }
    }

    /// Reaps the (dead) leader: its wait status and resource usage.
    fn reap(&mut self) -> io::Result<(libc::c_int, libc::rusage)> {
        self.unregister();
        loop {
            let mut status = 0;
            // SAFETY: a zeroed rusage is a valid out-parameter for wait4.
            let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
            // SAFETY: valid pointers to locals.
            let r = unsafe { libc::wait4(self.pid, &mut status, 0, &mut usage) };
            if r == self.pid {
                self.reaped = true;
                return Ok((status, usage));
            }
            let err = io::Error::last_os_error();
            if err.kind() != io::ErrorKind::Interrupted {
                self.reaped = true;
                return Err(err);
            }
        }
    }

    fn unregister(&self) {
        let mut groups = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
        groups.retain(|&g| g != self.pid);
    }
}

impl Drop for Leader {
    fn drop(&mut self) {
        if !self.reaped {
            self.kill_group();
            let _ = self.reap();
        }
    }
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

/// The rlimits of a program, computed before it starts.
struct Rlimits {
    cpu: libc::rlimit,
    address_space: libc::rlimit,
    processes: libc::rlimit,
    core: libc::rlimit,
    file_size: libc::rlimit,
    stack: libc::rlimit,
}

fn rlimit(soft: u64, hard: u64, current_hard: u64, privileged: bool) -> libc::rlimit {
    // An unprivileged process cannot raise a hard limit; ask for no more than it has.
    let hard = if privileged {
        hard
    } else {
        hard.min(current_hard)
    };
    libc::rlimit {
        rlim_cur: soft.min(hard) as libc::rlim_t,
        rlim_max: hard as libc::rlim_t,
    }
}

macro_rules! current_hard {
    ($resource:expr) => {{
        let mut cur = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: valid out-pointer.
        if unsafe { libc::getrlimit($resource, &mut cur) } == 0 {
            cur.rlim_max as u64
        } else {
            0
        }
    }};
}

impl Rlimits {
    fn new(limits: &Limits) -> Rlimits {
        // SAFETY: geteuid has no preconditions.
        let privileged = unsafe { libc::geteuid() } == 0;
        // RLIMIT_CPU counts whole seconds per process; the supervisor enforces the real limit on
        // the group, this only stops a runaway process if the supervisor cannot.
        let cpu_soft = limits.cpu.as_secs() + 2;
        let address_space = limits.address_space_bytes();
        // RLIMIT_NPROC counts every task of the user, not of the group, and root is exempt
        // from it; above the user's current count it is a backstop against fork bombs for
        // unprivileged users, while the supervisor's count of the group is the real limit.
        let nproc = if privileged {
            limits.processes
        } else {
            user_task_count().saturating_add(limits.processes)
        };
        // One byte over the output limit is allowed so that an over-long output file shows
        // its excess instead of being silently cut at the limit.
        let fsize = limits.output_bytes.saturating_add(1);
        // Contest programs recurse deeply and judges traditionally let the stack grow to the
        // memory limit; but glibc also gives every new thread a stack of this size, in address
        // space, so it is capped well below the address-space bound.
        let stack = limits.memory_bytes.clamp(8 * MIB, 256 * MIB);
        Rlimits {
            cpu: rlimit(
                cpu_soft,
                cpu_soft + 1,
                current_hard!(libc::RLIMIT_CPU),
                privileged,
            ),
            address_space: rlimit(
                address_space,
                address_space,
                current_hard!(libc::RLIMIT_AS),
                privileged,
            ),
            processes: rlimit(nproc, nproc, current_hard!(libc::RLIMIT_NPROC), privileged),
            core: rlimit(0, 0, 0, privileged),
            file_size: rlimit(fsize, fsize, current_hard!(libc::RLIMIT_FSIZE), privileged),
            stack: rlimit(stack, stack, current_hard!(libc::RLIMIT_STACK), privileged),
        }
    }

    /// Runs in the child between `fork` and `exec`: only system calls.
    /// Applies the limits to the started program. They are set from outside with `prlimit`
    /// rather than between `fork` and `exec`: without code to run in the child, the standard
    /// library starts programs with `posix_spawn` (a `vfork`), which spares copying the
    /// harness's page tables on every run, the largest cost of a small case. The program runs
    /// unlimited for the few microseconds in between; the supervisor's own checks cover them.
    fn apply_to(&self, pid: i32) -> io::Result<()> {
        let limits = [
            (libc::RLIMIT_CPU, &self.cpu),
            (libc::RLIMIT_AS, &self.address_space),
            (libc::RLIMIT_NPROC, &self.processes),
            (libc::RLIMIT_CORE, &self.core),
            (libc::RLIMIT_FSIZE, &self.file_size),
            (libc::RLIMIT_STACK, &self.stack),
        ];
        for (resource, limit) in limits {
            // SAFETY: prlimit reads the new limit through a valid pointer and writes nothing
            // (the old-limit pointer is null).
            if unsafe { libc::prlimit(pid, resource, limit, std::ptr::null_mut()) } != 0 {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(())
    }
}

/// Tasks (threads) of processes owned by this user now: the base `RLIMIT_NPROC` is counted from.
fn user_task_count() -> u64 {
    use std::os::unix::fs::MetadataExt;
    // SAFETY: getuid has no preconditions.
    let uid = unsafe { libc::getuid() };
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return 0;
    };
    let mut count = 0;
    for entry in dir.flatten() {
        let Ok(meta) = entry.metadata() else { continue };
        if meta.uid() != uid {
            continue;
        }
        if let Ok(text) = std::fs::read(entry.path().join("stat"))
            && let Some(stat) = procfs::parse_stat(&text)
        {
            count += stat.threads;
        }
    }
    count
}

/// A program path with a `/` is made absolute, because the program starts in another directory;
/// a bare name is looked up in `PATH` as usual.
fn resolve_program(program: &OsString) -> PathBuf {
    let path = Path::new(program);
    if program.as_encoded_bytes().contains(&b'/') {
        std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
    } else {
        path.to_path_buf()
    }
}

/// An argument that names an existing file or directory relative to duipai's working
/// directory, made absolute; any other argument unchanged.
fn absolute_if_a_file(arg: &OsString) -> OsString {
    let path = Path::new(arg);
    if path.is_relative()
        && !arg.is_empty()
        && path.exists()
        && let Ok(absolute) = std::path::absolute(path)
    {
        return absolute.into_os_string();
    }
    arg.clone()
}

fn check_file_name(name: &str) -> Result<(), RunError> {
    let plain = !name.is_empty() && Path::new(name).file_name() == Some(name.as_ref());
    if plain {
        Ok(())
    } else {
        Err(RunError::Setup {
            what: format!("file I/O name {name:?} is not a plain file name"),
            source: io::Error::from(io::ErrorKind::InvalidInput),
        })
    }
}

/// What the supervisor saw.
struct Observed {
    stop: Option<Limit>,
    wall: Duration,
    cpu: Duration,
    peak_rss: u64,
    peak_tasks: u64,
    /// Time the group spent ready to run but waiting for a CPU, as last sampled.
    cpu_wait: Duration,
}

/// Samples the group until the leader exits or a limit is exceeded; returns with the leader
/// not yet reaped.
fn supervise(leader: &Leader, start: Instant, limits: &Limits, shared: &pipes::Shared) -> Observed {
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
        seen.stop = if shared.output_exceeded.load(Ordering::Acquire) {
            Some(Limit::Output)
        } else if seen.cpu > limits.cpu {
            Some(Limit::CpuTime)
        } else if sample.tasks > limits.processes {
            // Before memory: the group's resident sizes are summed, so the pages a fork storm's
            // copies share are counted once per copy, and a storm of small processes would
            // otherwise read as a memory hog.
            Some(Limit::Processes)
        } else if sample.rss_bytes.max(sample.max_hwm_bytes) > limits.memory_bytes {
            Some(Limit::Memory)
        } else if seen.wall > limits.wall {
            Some(Limit::WallTime)
        } else {
            None
        };
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

/// Kills the group, reaps the leader, and makes sure no live process is left in the group;
/// returns the leader's wait status and resource usage.
///
/// The group is killed while the leader is an unreaped zombie, which keeps the group id from
/// being reused. After the reap, a group that still has members keeps its id reserved by
/// them, so signalling it stays safe; an empty group answers `ESRCH` to signal 0 at once,
/// which spares the usual case a scan of all of `/proc`. Members that linger as zombies (a
/// container whose init does not reap) are told apart from live ones by a scan, after a short
/// while.
fn kill_and_reap(leader: &mut Leader) -> Result<(libc::c_int, libc::rusage), RunError> {
    leader.kill_group();
    let reaped = leader
        .reap()
        .map_err(setup_error("cannot reap the program"))?;
    let pgid = leader.pid;
    let start = Instant::now();
    loop {
        // SAFETY: signal 0 only checks for existence; see above for why the id is ours.
        if unsafe { libc::kill(-pgid, 0) } != 0 {
            return Ok(reaped);
        }
        // SAFETY: as above.
        unsafe { libc::killpg(pgid, libc::SIGKILL) };
        if start.elapsed() > Duration::from_millis(20) {
            let live = procfs::live_group_members(pgid);
            if live.is_empty() {
                return Ok(reaped);
            }
            if start.elapsed() > KILL_GRACE {
                return Err(RunError::Survivors { pgid, pids: live });
            }
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

fn read_capped(path: &Path, limit: u64) -> Vec<u8> {
    let mut out = Vec::new();
    if let Ok(file) = File::open(path) {
        // A missing or unreadable output file is empty output: the program's fault, not ours.
        let _ = file.take(limit.saturating_add(1)).read_to_end(&mut out);
    }
    out
}

/// Runs `program` (the executable and its arguments) on `input` under `limits`.
///
/// Returns `Err` only when the harness fails (see [`RunError`]); everything the program does,
/// including crashing or exceeding a limit, is reported in the [`Execution`].
pub fn run(
    program: &[OsString],
    input: &[u8],
    limits: &Limits,
    io: &IoMode,
) -> Result<Execution, RunError> {
    let (exe, args) = program.split_first().ok_or(RunError::NoProgram)?;
    // Stdin/stdout programs run where duipai runs, so that `python3 sol.py` or
    // `sh -c ./a.out` mean what they mean in the user's shell. File I/O needs a directory of
    // its own for `chess.in` and `chess.out`.
    let dir = match io {
        IoMode::Stdio => None,
        IoMode::Files { .. } => Some(
            tempfile::Builder::new()
                .prefix("duipai-run-")
                .tempdir()
                .map_err(setup_error("cannot create a temporary working directory"))?,
        ),
    };

    escape::become_subreaper();
    let token = escape::Token::new();
    let mut command = Command::new(resolve_program(exe));
    command
        .stderr(Stdio::piped())
        .env(escape::ENV, token.value());
    match &dir {
        None => {
            command.args(args);
        }
        Some(dir) => {
            // In another directory, arguments naming the user's files are made absolute.
            command.args(args.iter().map(absolute_if_a_file));
            command.current_dir(dir.path());
        }
    }
    match io {
        IoMode::Stdio => {
            command.stdin(Stdio::piped()).stdout(Stdio::piped());
        }
        IoMode::Files {
            input: input_name,
            output: output_name,
        } => {
            check_file_name(input_name)?;
            check_file_name(output_name)?;
            let dir = dir.as_ref().ok_or(RunError::NoProgram)?;
            let path = dir.path().join(input_name);
            std::fs::write(&path, input)
                .map_err(setup_error(format!("cannot write {}", path.display())))?;
            // Stdout is still read (and capped), to say what the program printed when the
            // output file is missing.
            command.stdin(Stdio::null()).stdout(Stdio::piped());
        }
    }
    let rlimits = Rlimits::new(limits);
    // Its own process group from the first instruction on, so that the whole group can be
    // measured and killed (`posix_spawn`'s SETPGROUP).
    command.process_group(0);

    let start = Instant::now();
    let mut child = command.spawn().map_err(|source| RunError::Spawn {
        program: exe.clone(),
        source,
    })?;
    // `spawn` returns once `exec` succeeded, so the child already leads its own group.
    let mut leader = Leader::new(child.id() as i32);
    rlimits
        .apply_to(leader.pid)
        .map_err(setup_error("cannot set the program's resource limits"))?;
    let shared = Arc::new(pipes::Shared::default());

    let feeder = match child.stdin.take() {
        Some(stdin) => pipes::feed(OwnedFd::from(stdin), input, shared.clone())
            .map_err(setup_error("cannot feed the program's stdin"))?,
        None => None,
    };
    let stdout_reader = match child.stdout.take() {
        Some(stdout) => Some(
            pipes::spawn_stdout_reader(OwnedFd::from(stdout), limits.output_bytes, shared.clone())
                .map_err(setup_error("cannot start the stdout thread"))?,
        ),
        None => None,
    };
    let stderr_reader = match child.stderr.take() {
        Some(stderr) => Some(
            pipes::spawn_stderr_reader(OwnedFd::from(stderr), shared.clone())
                .map_err(setup_error("cannot start the stderr thread"))?,
        ),
        None => None,
    };
    // The leader is reaped with wait4 below; std's handle must not wait for it again.
    drop(child);

    let mut seen = supervise(&leader, start, limits, &shared);
    // Always kill the group, even after a clean exit: a grandchild may still be running, and
    // may hold the output pipes open, which would keep the reader threads waiting.
    let (status, usage) = kill_and_reap(&mut leader)?;
    // Processes that left the group (`setsid`) and were orphaned are duipai's children now.
    escape::clean_up(&token);
    shared.group_dead.store(true, Ordering::Release);

    if let Some(feeder) = feeder {
        let _ = feeder.join();
    }
    let mut stdout = match stdout_reader {
        Some(reader) => reader.join().unwrap_or_default(),
        None => Vec::new(),
    };
    let (stderr, stderr_bytes) = match stderr_reader.map(|r| r.join()) {
        Some(Ok(tail)) => (tail.tail, tail.total),
        _ => (Vec::new(), 0),
    };
    let mut output_exceeded = shared.output_exceeded.load(Ordering::Acquire);
    let mut file_io = None;
    if let (IoMode::Files { input, output }, Some(dir)) = (io, &dir) {
        let printed = std::mem::take(&mut stdout);
        let path = dir.path().join(output);
        let found = path.is_file();
        stdout = read_capped(&path, limits.output_bytes);
        if stdout.len() as u64 > limits.output_bytes {
            stdout.truncate(limits.output_bytes as usize);
            output_exceeded = true;
        }
        // Printing to stdout in file mode is no output limit breach: it is only reported.
        output_exceeded &= found || printed.len() as u64 <= limits.output_bytes;
        let mut other_files: Vec<(String, u64)> = std::fs::read_dir(dir.path())
            .map(|entries| {
                entries
                    .flatten()
                    .filter_map(|e| {
                        let name = e.file_name().to_string_lossy().into_owned();
                        let len = e.metadata().ok()?.len();
                        (name != *input && name != *output).then_some((name, len))
                    })
                    .collect()
            })
            .unwrap_or_default();
        other_files.sort();
        file_io = Some(FileIo {
            output: output.clone(),
            output_found: found,
            stdout_bytes: printed.len() as u64,
            other_files,
        });
    }
    drop(dir);

    let rusage_cpu = timeval(usage.ru_utime) + timeval(usage.ru_stime);
    let cpu_time = seen.cpu.max(rusage_cpu);
    // ru_maxrss starts at the resident size the harness had when it forked (see
    // `procfs::peak_rss`). Above the harness's own high-water mark, which is at least that
    // size, it can only be the program's own peak; it then also covers a program that
    // ended before the first sample.
    let maxrss = (usage.ru_maxrss.max(0) as u64).saturating_mul(1024);
    let own_peak = own_peak_rss();
    if maxrss > own_peak {
        seen.peak_rss = seen.peak_rss.max(maxrss);
    }
    let signal = libc::WIFSIGNALED(status).then(|| Signal(libc::WTERMSIG(status)));
    let termination = if let Some(limit) = seen.stop {
        Termination::LimitExceeded(limit)
    } else if output_exceeded || signal == Some(Signal(libc::SIGXFSZ)) {
        Termination::LimitExceeded(Limit::Output)
    } else if cpu_time > limits.cpu || signal == Some(Signal(libc::SIGXCPU)) {
        Termination::LimitExceeded(Limit::CpuTime)
    } else if seen.wall > limits.wall {
        Termination::LimitExceeded(Limit::WallTime)
    } else if seen.peak_tasks > limits.processes {
        // Before memory, for the reason given in `supervise`.
        Termination::LimitExceeded(Limit::Processes)
    } else if seen.peak_rss > limits.memory_bytes {
        Termination::LimitExceeded(Limit::Memory)
    } else if let Some(signal) = signal {
        Termination::Signaled(signal)
    } else {
        Termination::Exited(libc::WEXITSTATUS(status))
    };

    Ok(Execution {
        termination,
        stdout,
        stderr,
        stderr_bytes,
        cpu_time,
        cpu_times: vec![cpu_time],
        cpu_wait: seen.cpu_wait,
        file_io,
        wall_time: seen.wall,
        peak_memory_bytes: seen.peak_rss,
        peak_processes: seen.peak_tasks,
        pgid: leader.pid,
        limits: *limits,
    })
}

/// The harness's own peak resident size (`VmHWM`), from `getrusage`: one system call, where
/// reading `/proc/self/status` would cost a file parse on every run.
fn own_peak_rss() -> u64 {
    // SAFETY: a zeroed rusage is a valid out-parameter for getrusage.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: valid pointer to a local.
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return u64::MAX;
    }
    (usage.ru_maxrss.max(0) as u64).saturating_mul(1024)
}

fn timeval(tv: libc::timeval) -> Duration {
    Duration::from_secs(tv.tv_sec.max(0) as u64) + Duration::from_micros(tv.tv_usec.max(0) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_io_names_follow_the_name() {
        assert_eq!(
            IoMode::files_named("chessboard"),
            IoMode::Files {
                input: "chessboard.in".into(),
                output: "chessboard.out".into()
            }
        );
    }

    #[test]
    fn file_names_must_be_plain() {
        assert!(check_file_name("chess.in").is_ok());
        assert!(check_file_name("../x").is_err());
        assert!(check_file_name("a/b").is_err());
        assert!(check_file_name("").is_err());
    }
}
