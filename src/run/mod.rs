//! Running a program under test: limits, process groups, I/O, supervision, cleanup.
//!
//! [`run`] starts the program directly (no shell) as the leader of its own process group, in
//! the caller's directory (or, for file I/O, in a scratch directory of the calling thread),
//! with rlimits as a backstop. The calling thread supervises it alone: one `poll` multiplexes
//! its stdin, stdout and stderr, its exit and the samples of its processes from `/proc`, and
//! the first limit exceeded stops it (`SIGKILL` to its group). Whatever happens, the group is
//! killed, the leader reaped, and every process the program started, even one that left the
//! group, is killed and reaped before `run` returns: the harness is their child subreaper.
//! [`run_steady`] re-runs a run whose CPU time lands near the limit, or that a busy machine
//! kept waiting for a CPU past the wall-clock limit.
//!
//! The outcome of a run is data ([`Execution`]); only a harness failure (the program cannot be
//! started, the scratch directory cannot be made) is an error ([`RunError`]).
//!
//! One module per mechanism: `spawn` (the start: a `vfork`-style child that sets the rlimits
//! and execs), `spawner` (the small processes that start programs, so that their memory is
//! measured from their own start), `limits` (the limits, the one precedence order, the rlimits), `sanitizer`
//! (programs that need no address-space bound), `group` (leader, subreaper, run tags, kill
//! and reap), `supervise` (the poll loop), `pipes` (the three streams), [`procfs`]
//! (sampling), `cancel` ([`kill_running`], [`cancelled`]), `command` (the command line in the
//! run's directory), `scratch` (file I/O's directory), `steady` ([`run_steady`], and what
//! "near the limit" and "starved" mean), `error`
//! ([`RunError`]).

mod cancel;
mod command;
mod error;
mod group;
mod limits;
mod pipes;
pub mod procfs;
mod sanitizer;
mod scratch;
mod signal;
mod spawn;
mod spawner;
mod steady;
mod supervise;

use std::ffi::OsString;
use std::fs::File;
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

pub use cancel::{cancelled, kill_running};
pub use command::find_program;
pub use error::RunError;
pub use limits::{Limit, Limits};
pub use pipes::STDERR_TAIL;
pub use signal::Signal;
pub use steady::{near_the_limit, run_steady, starved};

use cancel::RunEntry;
use command::{check_file_name, resolve_args, resolve_program};
use error::setup_error;
use group::{Leader, kill_and_reap, rusage_cpu};
use limits::{Rlimits, Usage, exceeded};
use pipes::{Drain, Feed};
use procfs::RunSampler;
use scratch::Scratch;
use spawn::Stdin;
use supervise::{Streams, supervise};

/// Where the program reads its input and writes its answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IoMode {
    /// Input on stdin, answer on stdout; the program runs in the caller's directory.
    Stdio,
    /// The original contest's file I/O: the program runs in a scratch directory where the input
    /// is the file `input`, stdin is `/dev/null`, and the answer is read from the file
    /// `output` (a missing file counts as empty output; [`Execution::output_file`] says what
    /// the program did instead). Its stdout is counted, not read as the answer.
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
    /// [`IoMode::Files`] the output file.
    pub stdout: Vec<u8>,
    /// The last [`STDERR_TAIL`] bytes of stderr.
    pub stderr: Vec<u8>,
    /// How many bytes the program wrote to stderr in all.
    pub stderr_bytes: u64,
    /// CPU time (user + system) of all the program's processes, as far as it could be counted.
    pub cpu_time: Duration,
    /// Every CPU time measured, in order: one, or with [`run_steady`] the times of the re-runs
    /// too (`cpu_time` is then the fastest, the run this execution describes).
    pub cpu_times: Vec<Duration>,
    /// Time the program's processes were ready to run but waited for a CPU: large when the
    /// machine was too busy to give it its share. It does not count against the wall-clock
    /// limit (see [`starved`]).
    pub cpu_wait: Duration,
    /// The wall clock stopped the run only because it had waited so long for a CPU (ten times
    /// the wall-clock limit, see [`starved`]); the wall-clock limit itself would not have.
    pub cpu_starved: bool,
    /// From the program's start (its `exec`) until the leader exited or was stopped.
    pub wall_time: Duration,
    /// Peak resident memory: the largest sum over the program's processes seen at one sample,
    /// or a single process's own high-water mark from its start (`ru_maxrss`) if larger.
    /// `None` if nothing was measured: only when programs had to be started without a spawner
    /// and the program ended before the first sample.
    pub peak_memory_bytes: Option<u64>,
    /// The most tasks (processes and threads) of the program's processes seen at once.
    pub peak_processes: u64,
    /// The program's process group id (its pid). Nothing with this group id is left running
    /// when [`run`] returns; tests check exactly that.
    pub pgid: i32,
    /// The limits it ran under.
    pub limits: Limits,
    /// In [`IoMode::Files`], what became of the output file; `None` on stdin and stdout.
    pub output_file: Option<OutputFile>,
}

impl Execution {
    /// An execution with the given end and output and nothing else measured: for a test
    /// double that stands in for the runner.
    pub fn from_outcome(termination: Termination, stdout: Vec<u8>, limits: Limits) -> Execution {
        Execution {
            termination,
            stdout,
            stderr: Vec::new(),
            stderr_bytes: 0,
            cpu_time: Duration::ZERO,
            cpu_times: vec![Duration::ZERO],
            cpu_wait: Duration::ZERO,
            cpu_starved: false,
            wall_time: Duration::ZERO,
            peak_memory_bytes: None,
            peak_processes: 0,
            pgid: 0,
            limits,
            output_file: None,
        }
    }
}

/// In file I/O mode, what became of the output file: what a judgement needs to say why an
/// answer is missing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputFile {
    /// Its name (`chess.out`).
    pub name: String,
    /// Whether the program left it, as a regular file.
    pub found: bool,
    /// How many bytes the program wrote to stdout, which file I/O does not read.
    pub stdout_bytes: u64,
    /// The start of that stdout (at most 256 bytes).
    pub stdout_head: Vec<u8>,
    /// Everything else it left in its working directory, sorted, a directory's name with a
    /// `/` (`CHESS.OUT`, `chess.ans`); the input file is not listed.
    pub other_files: Vec<String>,
}

/// Reads the output file, at most `limit` + 1 bytes: whether it is there as a regular file,
/// and its start. It is opened without following a symbolic link and without blocking, so that
/// a program cannot make the harness read elsewhere or wait on a FIFO.
fn read_output_file(path: &Path, limit: u64) -> (bool, Vec<u8>) {
    let mut out = Vec::new();
    let file = File::options()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path);
    let Ok(file) = file else {
        return (false, out);
    };
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return (false, out);
    }
    // An unreadable output file is empty output: the program's fault, not ours.
    let _ = file.take(limit.saturating_add(1)).read_to_end(&mut out);
    (true, out)
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
    let stop = Stop {
        cpu: limits.cpu,
        wall: steady::wall_cap(limits, 0),
    };
    run_until(program, input, limits, io, stop)
}

/// Where a run is stopped, whatever the limits it is judged against.
#[derive(Clone, Copy, Debug)]
struct Stop {
    /// CPU time: the limit, or past it, so that a near-limit run finishes ([`run_steady`]).
    cpu: Duration,
    /// Wall-clock time, however long the program waited for a CPU meanwhile.
    wall: Duration,
}

/// [`run`], with the program stopped at `stop` rather than at the CPU limit, and judged all the
/// same against `limits`.
fn run_until(
    program: &[OsString],
    input: &[u8],
    limits: &Limits,
    io: &IoMode,
    stop: Stop,
) -> Result<Execution, RunError> {
    let (exe, args) = program.split_first().ok_or(RunError::NoProgram)?;
    // Before the first program starts, so that whatever it orphans comes back to us.
    group::become_subreaper();

    let mut scratch = None;
    let (exe_path, args, cwd, stdin) = match io {
        IoMode::Stdio => (exe.into(), args.to_vec(), None, Stdin::Pipe),
        IoMode::Files {
            input: input_name,
            output: output_name,
        } => {
            check_file_name(input_name)?;
            check_file_name(output_name)?;
            let mut dir = Scratch::acquire()
                .map_err(setup_error("cannot create a scratch working directory"))?;
            dir.write(input_name, input).map_err(setup_error(format!(
                "cannot write {}",
                dir.path().join(input_name).display()
            )))?;
            let cwd = dir.path().to_path_buf();
            scratch = Some(dir);
            (
                resolve_program(exe).into_os_string(),
                resolve_args(args, &[input_name, output_name]),
                Some(cwd),
                Stdin::Null,
            )
        }
    };
    let stop_limits = Limits {
        cpu: stop.cpu,
        ..*limits
    };
    let entry = RunEntry::begin();
    // The rlimits, led by the tag, and the environment variable mark the program's processes
    // as this run's from its first instruction on (see `group`); it leads its own process
    // group from then on too, so that the whole group can be measured and killed.
    let rlimits = Rlimits::new(&stop_limits, !sanitizer::is_sanitized(&exe_path))
        .with_tag(group::tag_rlimit(entry.id()));
    let run_var = format!("{}={}", group::RUN_VAR, entry.id());

    let started = spawn::spawn(&exe_path, &args, cwd.as_deref(), stdin, &run_var, &rlimits)
        .map_err(|source| RunError::Spawn {
            program: exe.clone(),
            source,
        })?;
    // The wall clock starts once the program has: the harness's own part of the start (a
    // spawner's turn, on a busy machine a wait for a CPU) is none of the program's time.
    let start = Instant::now();
    let mut leader = Leader::new(started.pid, &entry);

    let mut streams = Streams {
        stdin: match started.stdin {
            Some(fd) => {
                Some(Feed::new(fd, input).map_err(setup_error("cannot feed the program's stdin"))?)
            }
            None => None,
        },
        stdout: Some(
            match io {
                IoMode::Stdio => Drain::answer(started.stdout, limits.output_bytes),
                IoMode::Files { .. } => Drain::stray(started.stdout),
            }
            .map_err(setup_error("cannot read the program's stdout"))?,
        ),
        stderr: Some(
            Drain::tail(started.stderr).map_err(setup_error("cannot read the program's stderr"))?,
        ),
    };

    let mut sampler = RunSampler::new(leader.pid);
    let mut seen = supervise(
        &leader,
        entry.id(),
        start,
        &stop_limits,
        stop.wall,
        &mut streams,
        &mut sampler,
    );
    if seen.exited && seen.wall > limits.wall {
        // Past the limit, the time it waited for a CPU decides: as of the end, not of the
        // last sample.
        seen.waited = sampler.waited_now();
    }
    // Always kill, even after a clean exit: a child may still be running, and may hold the
    // output pipes open.
    let reaped = kill_and_reap(&mut leader, seen.exited, &sampler)?;
    let pgid = leader.pid;
    // The run is over: an orphan carrying its tag that turns up later is a leftover.
    drop(leader);
    drop(entry);
    if let Some(feed) = streams.stdin.as_mut() {
        feed.close();
    }
    let mut drains: Vec<&mut Drain> = streams
        .stdout
        .iter_mut()
        .chain(streams.stderr.iter_mut())
        .collect();
    pipes::drain_after_death(&mut drains);

    let stdout_drain = streams.stdout.take();
    let mut output_exceeded = stdout_drain.as_ref().is_some_and(Drain::exceeded);
    let (stderr, stderr_bytes) = match streams.stderr.take() {
        Some(drain) => {
            let total = drain.total();
            (drain.into_kept(), total)
        }
        None => (Vec::new(), 0),
    };
    let (stdout, output_file) = match (io, scratch) {
        (
            IoMode::Files {
                input: input_name,
                output: output_name,
            },
            Some(mut dir),
        ) => {
            let (found, mut content) =
                read_output_file(&dir.path().join(output_name), limits.output_bytes);
            if content.len() as u64 > limits.output_bytes {
                content.truncate(limits.output_bytes as usize);
                output_exceeded = true;
            }
            let other_files = dir
                .empty()
                .into_iter()
                .filter(|name| name != input_name && (!found || name != output_name))
                .collect();
            let (stdout_bytes, stdout_head) = match stdout_drain {
                Some(drain) => (drain.total(), drain.into_kept()),
                None => (0, Vec::new()),
            };
            let file = OutputFile {
                name: output_name.clone(),
                found,
                stdout_bytes,
                stdout_head,
                other_files,
            };
            (content, Some(file))
        }
        _ => (stdout_drain.map(Drain::into_kept).unwrap_or_default(), None),
    };

    let cpu_time = seen.cpu.max(rusage_cpu(&reaped.usage) + reaped.orphans_cpu);
    // ru_maxrss is the leader's peak (or a process's it reaped), from the resident size of the
    // address space it was started from on (see `spawner`): a spawner's, about 2 MiB, so the
    // program's own as soon as it is larger; it covers a program that ended before the first
    // sample. Started from the harness, it counts from the harness's peak, and only a figure
    // above that can be the program's.
    let maxrss = (reaped.usage.ru_maxrss.max(0) as u64).saturating_mul(1024);
    if started.maxrss_from_start || maxrss > own_peak_rss(maxrss) {
        seen.peak_rss = seen.peak_rss.max(maxrss);
    }
    seen.peak_rss = seen.peak_rss.max(reaped.orphans_maxrss);
    let status = reaped.status;
    let signal = libc::WIFSIGNALED(status).then(|| Signal(libc::WTERMSIG(status)));
    let usage = Usage {
        output_exceeded,
        cpu: cpu_time,
        wall: seen.wall,
        waited: seen.waited,
        tasks: seen.peak_tasks,
        memory_bytes: seen.peak_rss,
        signal,
    };
    // The final figures are the supervisor's or larger, so this finds the limit it stopped the
    // program for, or one ranked higher; `stop` only guards that reasoning.
    let termination = match exceeded(limits, &usage).or(seen.stop) {
        Some(limit) => Termination::LimitExceeded(limit),
        None => match signal {
            Some(signal) => Termination::Signaled(signal),
            None => Termination::Exited(libc::WEXITSTATUS(status)),
        },
    };

    Ok(Execution {
        termination,
        stdout,
        stderr,
        stderr_bytes,
        cpu_time,
        cpu_times: vec![cpu_time],
        cpu_wait: seen.waited,
        cpu_starved: seen.capped && termination == Termination::LimitExceeded(Limit::WallTime),
        wall_time: seen.wall,
        peak_memory_bytes: (seen.peak_rss > 0).then_some(seen.peak_rss),
        peak_processes: seen.peak_tasks,
        pgid,
        limits: *limits,
        output_file,
    })
}

/// The harness's own peak resident size (`VmHWM`), as far as it matters for comparing with
/// `maxrss`: it only grows, so a remembered value at or above `maxrss` answers without asking
/// again; otherwise `getrusage` tells (one system call, where `/proc/self/status` would cost a
/// file parse).
fn own_peak_rss(maxrss: u64) -> u64 {
    static KNOWN: AtomicU64 = AtomicU64::new(0);
    let known = KNOWN.load(Ordering::Relaxed);
    if known >= maxrss {
        return known;
    }
    // SAFETY: a zeroed rusage is a valid out-parameter for getrusage.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: valid pointer to a local.
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return u64::MAX;
    }
    let peak = (usage.ru_maxrss.max(0) as u64).saturating_mul(1024);
    KNOWN.fetch_max(peak, Ordering::Relaxed);
    peak
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
}
