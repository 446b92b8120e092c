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
//!
//! One module per mechanism: [`limits`](Limits) (the limits, the one precedence order, the
//! rlimits), `group` (leader, kill and reap), `supervise` (sampling), `pipes`, [`procfs`],
//! `cancel` ([`kill_running`], [`cancelled`]), `error` ([`RunError`]).

mod cancel;
mod error;
mod group;
mod limits;
mod pipes;
pub mod procfs;
mod signal;
mod supervise;

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Read};
use std::os::fd::OwnedFd;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

pub use cancel::{cancelled, kill_running};
pub use error::RunError;
pub use limits::{Limit, Limits};
pub use pipes::STDERR_TAIL;
pub use signal::Signal;

use error::setup_error;
use group::{Leader, kill_and_reap};
use limits::{Rlimits, Usage, exceeded};

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
    let dir = tempfile::Builder::new()
        .prefix("duipai-run-")
        .tempdir()
        .map_err(setup_error("cannot create a temporary working directory"))?;

    let mut command = Command::new(resolve_program(exe));
    command
        .args(args)
        .current_dir(dir.path())
        .stderr(Stdio::piped());
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
            let path = dir.path().join(input_name);
            std::fs::write(&path, input)
                .map_err(setup_error(format!("cannot write {}", path.display())))?;
            command.stdin(Stdio::null()).stdout(Stdio::null());
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

    let mut seen = supervise::supervise(&leader, start, limits, &shared);
    // Always kill the group, even after a clean exit: a grandchild may still be running, and
    // may hold the output pipes open, which would keep the reader threads waiting.
    let (status, usage) = kill_and_reap(&mut leader)?;
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
    if let IoMode::Files { output, .. } = io {
        stdout = read_capped(&dir.path().join(output), limits.output_bytes);
        if stdout.len() as u64 > limits.output_bytes {
            stdout.truncate(limits.output_bytes as usize);
            output_exceeded = true;
        }
    }
    // Usually the directory is empty (stdin/stdout runs): one rmdir instead of a recursive
    // removal's open, listing and unlink.
    let dir = dir.keep();
    if std::fs::remove_dir(&dir).is_err() {
        let _ = std::fs::remove_dir_all(&dir);
    }

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
    let usage = Usage {
        output_exceeded,
        cpu: cpu_time,
        wall: seen.wall,
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
