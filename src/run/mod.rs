//! Running a program under test: limits, process group, I/O, supervision, cleanup.
//!
//! [`run`] starts the program directly (no shell) in duipai's working directory (a fresh
//! temporary one for file I/O), as the leader of its own process group, with rlimits as a
//! backstop. A supervisor loop samples the group
//! from `/proc` every few milliseconds and kills it (`killpg`, `SIGKILL`) on the first limit it
//! finds exceeded. Whatever happens, the whole group is killed and the leader reaped before
//! `run` returns, so nothing the program started survives it.
//!
//! The outcome of a run is data ([`Execution`]); only a harness failure (the program cannot be
//! started, the temporary directory cannot be made) is an error ([`RunError`]).
//!
//! One module per mechanism: [`limits`](Limits) (the limits, the one precedence order, the
//! rlimits), `group` (leader, kill and reap), `supervise` (sampling), `pipes`, [`procfs`],
//! `cancel` ([`kill_running`], [`cancelled`]), `error` ([`RunError`]), `escape` (the child
//! subreaper and the orphans of a run).

mod cancel;
mod error;
mod escape;
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

    let mut seen = supervise::supervise(&leader, start, limits, &shared);
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
