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
//! One module per mechanism: `spawn` (the start, by a spawner or the harness, with the
//! program's streams), `clone` (the `vfork`-style child that sets the rlimits and execs, for
//! both), `spawner` (the small processes that start programs, so that their memory is
//! measured from their own start), `limits` (the limits, the one precedence order, the rlimits), `sanitizer`
//! (programs that need no address-space bound), `group` (leader, subreaper, run tags, kill
//! and reap), `supervise` (the poll loop), `pipes` (the three streams), [`procfs`]
//! (sampling), `cancel` ([`kill_running`], [`cancelled`]), `command` (the command line in the
//! run's directory), `scratch` (file I/O's directory), `steady` ([`run_steady`], and what
//! "near the limit" and "starved" mean), `error`
//! ([`RunError`]).
//!
//! Most of the runner's work is system calls, in `unsafe` blocks: each says why it is sound
//! in a `// SAFETY:` line above it, which clippy checks for the whole workspace (the
//! `[workspace.lints]` table of Cargo.toml).

// Linux: the runner described above.
#[cfg(target_os = "linux")]
mod cancel;
#[cfg(target_os = "linux")]
mod clone;
#[cfg(target_os = "linux")]
pub mod contain;
#[cfg(target_os = "linux")]
mod group;
#[cfg(target_os = "linux")]
mod interact;
#[cfg(target_os = "linux")]
pub mod machine;
#[cfg(target_os = "linux")]
mod own;
#[cfg(target_os = "linux")]
mod party;
#[cfg(target_os = "linux")]
mod pipes;
#[cfg(target_os = "linux")]
pub mod procfs;
#[cfg(target_os = "linux")]
mod sanitizer;
#[cfg(target_os = "linux")]
mod scratch;
#[cfg(target_os = "linux")]
mod spawn;
#[cfg(target_os = "linux")]
mod spawner;
#[cfg(target_os = "linux")]
mod supervise;
#[cfg(target_os = "linux")]
pub mod warm;

// Every system: the limits and verdict figures, the command line, the captured answer.
mod captured;
mod command;
pub mod environment;
mod error;
mod findings;
mod idle;
mod interaction;
mod limits;
mod policy;
mod signal;
mod steady;
mod transcript;

// Windows and macOS: the platform seam and its implementations.
#[cfg(not(target_os = "linux"))]
mod sys;
#[cfg(not(target_os = "linux"))]
pub use sys::{contain, machine, warm};
#[cfg(not(target_os = "linux"))]
use sys::{interact, run_until};

use std::ffi::OsString;
use std::fs::File;
use std::path::Path;
use std::time::Duration;

pub use cancel::{cancelled, kill_running};
pub use captured::{Captured, CapturedReader, SPILL_AT};
pub use command::{find_program, has_separator};
pub use contain::Role;
pub use error::RunError;
pub use interact::run_interactive;
pub use interaction::{IDLENESS, Interaction};
pub use limits::{Limit, Limits};
#[cfg(target_os = "linux")]
pub use pipes::STDERR_TAIL;
pub use signal::Signal;
#[cfg(not(target_os = "linux"))]
pub use sys::STDERR_TAIL;
#[cfg(not(target_os = "linux"))]
use sys::cancel;

/// Ends what duipai keeps between runs, once it is done: its spawners and their namespaces,
/// its scratch directories and its helpers' folders.
#[cfg(target_os = "linux")]
pub fn retire() {
    warm::retire_all();
    spawner::retire_all();
    scratch::remove_all();
    contain::remove_helper_files();
}
/// Ends what duipai keeps between runs, once it is done: nothing outlives a run off Linux.
#[cfg(not(target_os = "linux"))]
pub fn retire() {}

/// A temporary folder of duipai's, `kind` saying what it holds (`judge`, `helper`, ...),
/// that only duipai's user may enter (0700 where folders have modes). On Linux its name
/// carries this process's pid and start time, and the first one a process makes removes
/// those a killed duipai left (see `scratch`).
#[cfg(target_os = "linux")]
pub fn temp_folder(kind: &str) -> std::io::Result<tempfile::TempDir> {
    scratch::temp_folder(kind)
}
/// A temporary folder of duipai's, `kind` saying what it holds, open to its owner alone
/// (0700 on macOS; Windows' temporary folder is the user's own).
#[cfg(not(target_os = "linux"))]
pub fn temp_folder(kind: &str) -> std::io::Result<tempfile::TempDir> {
    let prefix = format!("duipai-{kind}-");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o700));
    }
    builder.tempdir()
}
pub use steady::{interact_steady, near_the_limit, run_steady, starved};
pub use transcript::{Direction, Transcript};

#[cfg(target_os = "linux")]
use cancel::RunEntry;
#[cfg(target_os = "linux")]
use command::{check_file_name, resolve_args, resolve_program};
#[cfg(target_os = "linux")]
use error::setup_error;
#[cfg(target_os = "linux")]
use party::{Output, Party};
#[cfg(target_os = "linux")]
use pipes::{Drain, Feed};
#[cfg(target_os = "linux")]
use scratch::Scratch;
#[cfg(target_os = "linux")]
use spawn::Stdin;
#[cfg(target_os = "linux")]
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
    /// [`IoMode::Files`] the output file; in memory while small, else in a temporary file.
    pub stdout: Captured,
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
    /// On stdin and stdout in a scratch directory (a contained program), the files the
    /// program left there, sorted, a directory's name with a `/` (`chess.out`: it uses the
    /// contest's file I/O); empty otherwise.
    pub left_files: Vec<String>,
    /// How many of the program's processes were still running when it had exited by itself
    /// (a daemon of a `setsid` or a double fork, an orphan, a child holding its output): the
    /// runner killed them, and the run is judged on what it printed. Zero when the run was
    /// stopped (at a limit, everything of it is killed).
    pub left_behind: u32,
    /// What of the run no mechanism here could count, when it did something only a cgroup
    /// sees (`the CPU time of children the kernel reaped`): the verdict says so.
    pub uncounted: Option<&'static str>,
    /// On stdin, whether the program read its input to the end (all but trailing
    /// whitespace) before it ended; `None` where that is not known (file I/O, interactive
    /// runs, a test double).
    pub read_its_input: Option<bool>,
}

impl Execution {
    /// An execution with the given end and output and nothing else measured: for a test
    /// double that stands in for the runner.
    pub fn from_outcome(termination: Termination, stdout: Vec<u8>, limits: Limits) -> Execution {
        Execution {
            termination,
            stdout: Captured::from(stdout),
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
            left_files: Vec::new(),
            left_behind: 0,
            uncounted: None,
            read_its_input: None,
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

/// Opens the output file the program left: whether it is there as a regular file, and its
/// content (kept in the open file when large), and its length. It is opened without following
/// a symbolic link and without blocking, so that a program cannot make the harness read
/// elsewhere or wait on a FIFO.
fn read_output_file(path: &Path) -> (bool, Option<(File, u64)>) {
    let mut options = File::options();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(
        &mut options,
        libc::O_NOFOLLOW | libc::O_NONBLOCK,
    );
    // Windows: a link is not followed (FILE_FLAG_OPEN_REPARSE_POINT), and no FIFO can stand
    // in a folder there.
    #[cfg(windows)]
    std::os::windows::fs::OpenOptionsExt::custom_flags(&mut options, 0x0020_0000);
    let file = options.open(path);
    let Ok(file) = file else {
        return (false, None);
    };
    match file.metadata() {
        Ok(m) if m.is_file() => (true, Some((file, m.len()))),
        Ok(_) => (false, None),
        // An unreadable output file is empty output: the program's fault, not ours.
        Err(_) => (true, None),
    }
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
    run_until(
        Role::Program,
        program,
        input,
        limits,
        io,
        Stop::once(limits),
    )
}

/// Runs a helper (a generator, a reference, a validator, a checker) on `input` on stdin,
/// once, under `limits`, in the caller's directory: as [`run`] does the program under test,
/// but with a helper's containment (see [`contain`]).
pub fn run_helper(
    command: &[OsString],
    input: &[u8],
    limits: &Limits,
) -> Result<Execution, RunError> {
    run_until(
        Role::Helper,
        command,
        input,
        limits,
        &IoMode::Stdio,
        Stop::once(limits),
    )
}

/// Where a run is stopped, whatever the limits it is judged against.
#[derive(Clone, Copy, Debug)]
struct Stop {
    /// CPU time: the limit, or past it, so that a near-limit run finishes ([`run_steady`]).
    cpu: Duration,
    /// Wall-clock time, however long the program waited for a CPU meanwhile.
    wall: Duration,
}

impl Stop {
    /// Where a run measured once stops: at the CPU limit, and at the first cap on waiting for
    /// a CPU.
    fn once(limits: &Limits) -> Stop {
        Stop {
            cpu: limits.cpu,
            wall: steady::wall_cap(limits, 0),
        }
    }
}

#[cfg(target_os = "linux")]
/// [`run`], for `role`, with the program stopped at `stop` rather than at the CPU limit, and
/// judged all the same against `limits`.
fn run_until(
    role: Role,
    program: &[OsString],
    input: &[u8],
    limits: &Limits,
    io: &IoMode,
    stop: Stop,
) -> Result<Execution, RunError> {
    let (exe, args) = program.split_first().ok_or(RunError::NoProgram)?;
    let mut placed = Placed::new(role, exe, args, io)?;
    let stop_limits = Limits {
        cpu: stop.cpu,
        ..*limits
    };
    let entry = RunEntry::begin();
    let (mut party, ends) = Party::start(
        &entry,
        role,
        exe,
        &placed.exe_path,
        &placed.args,
        placed.cwd(),
        placed.stdin,
        placed.input_name.as_deref().map(|name| (name, input)),
        &stop_limits,
    )?;
    if let Some(dir) = placed.scratch.as_mut() {
        dir.set_files_at(ends.scratch_at.clone());
    }
    let stdin_read = ends.stdin_read;
    let mut streams = Streams {
        stdin: match ends.stdin {
            Some(fd) => {
                Some(Feed::new(fd, input).map_err(setup_error("cannot feed the program's stdin"))?)
            }
            None => None,
        },
        stdout: Some(
            match io {
                IoMode::Stdio => Drain::answer(ends.stdout, limits.output_bytes),
                IoMode::Files { .. } => Drain::stray(ends.stdout),
            }
            .map_err(setup_error("cannot read the program's stdout"))?,
        ),
        stderr: Some(
            Drain::tail(ends.stderr).map_err(setup_error("cannot read the program's stderr"))?,
        ),
    };
    supervise(&mut party, &stop_limits, stop.wall, &mut streams);
    let read_its_input = match (&stdin_read, &streams.stdin) {
        (Some(read), Some(feed)) => Some(pipes::read_to_the_end(read, feed.unwritten())),
        (Some(read), None) => Some(pipes::read_to_the_end(read, &[])),
        _ => None,
    };
    drop(stdin_read);
    let settled = party.settle(limits)?;
    // The run is over: an orphan carrying its tag that turns up later is a leftover.
    drop(entry);
    let (output, output_file) = placed.output(io, limits, streams);
    let mut execution = settled.into_execution(limits, output, output_file);
    execution.read_its_input = read_its_input;
    if matches!(io, IoMode::Stdio)
        && let Some(dir) = placed.scratch.as_mut()
    {
        execution.left_files = dir.empty();
    }
    Ok(execution)
}

#[cfg(target_os = "linux")]
/// Where a program runs and how it gets its input: in the caller's directory on stdin, or in
/// a scratch directory holding the input file (and, contained, in a scratch directory
/// whatever its input: the program under test never runs in the caller's).
struct Placed {
    exe_path: OsString,
    args: Vec<OsString>,
    stdin: Stdin,
    scratch: Option<Scratch>,
    /// For file I/O, the input file's name: written into the scratch directory where the
    /// program will see it, once that is known (see `spawn::Launch::input_file`).
    input_name: Option<String>,
}

#[cfg(target_os = "linux")]
impl Placed {
    /// Prepares the run of `exe` with `args`: for file I/O, the scratch directory (the input
    /// file is written when the program starts), the program found from there, and its
    /// arguments naming the files.
    fn new(role: Role, exe: &OsString, args: &[OsString], io: &IoMode) -> Result<Placed, RunError> {
        let (input_name, output_name) = match io {
            IoMode::Stdio
                if contain::contained() && (role == Role::Program || contain::helpers_boxed()) =>
            {
                let dir = Scratch::acquire()
                    .map_err(setup_error("cannot create a scratch working directory"))?;
                return Ok(Placed {
                    exe_path: resolve_program(exe).into_os_string(),
                    args: resolve_args(args, &[]),
                    stdin: Stdin::Pipe,
                    scratch: Some(dir),
                    input_name: None,
                });
            }
            IoMode::Stdio => {
                return Ok(Placed {
                    exe_path: exe.clone(),
                    args: args.to_vec(),
                    stdin: Stdin::Pipe,
                    scratch: None,
                    input_name: None,
                });
            }
            IoMode::Files { input, output } => (input, output),
        };
        check_file_name(input_name)?;
        check_file_name(output_name)?;
        let dir =
            Scratch::acquire().map_err(setup_error("cannot create a scratch working directory"))?;
        Ok(Placed {
            exe_path: resolve_program(exe).into_os_string(),
            args: resolve_args(args, &[input_name, output_name]),
            stdin: Stdin::Null,
            scratch: Some(dir),
            input_name: Some(input_name.clone()),
        })
    }

    /// The working directory: the scratch directory, or else the caller's.
    fn cwd(&self) -> Option<&Path> {
        self.scratch.as_ref().map(Scratch::path)
    }

    /// What the program wrote, read once every process of the run is dead: its stdout, or in
    /// file I/O mode the output file (and what became of it).
    fn output(
        &mut self,
        io: &IoMode,
        limits: &Limits,
        mut streams: Streams,
    ) -> (Output, Option<OutputFile>) {
        if let Some(feed) = streams.stdin.as_mut() {
            feed.close();
        }
        let mut drains: Vec<&mut Drain> = streams
            .stdout
            .iter_mut()
            .chain(streams.stderr.iter_mut())
            .collect();
        pipes::drain_after_death(&mut drains);
        let stdout = streams.stdout.take();
        let mut output = Output {
            exceeded: stdout.as_ref().is_some_and(Drain::exceeded),
            ..Output::default()
        };
        if let Some(drain) = streams.stderr.take() {
            output.stderr_bytes = drain.total();
            output.stderr = drain.into_kept();
        }
        let (
            IoMode::Files {
                input,
                output: name,
            },
            Some(dir),
        ) = (io, self.scratch.as_mut())
        else {
            output.stdout = stdout.map(Drain::into_captured).unwrap_or_default();
            return (output, None);
        };
        let (found, content) = read_output_file(&dir.files().join(name));
        if let Some((file, len)) = content {
            output.exceeded = len > limits.output_bytes;
            output.stdout =
                Captured::from_file(file, len.min(limits.output_bytes)).unwrap_or_default();
        }
        let other_files = dir
            .empty()
            .into_iter()
            .filter(|file| file != input && (!found || file != name))
            .collect();
        let (stdout_bytes, stdout_head) = match stdout {
            Some(drain) => (drain.total(), drain.into_kept()),
            None => (0, Vec::new()),
        };
        let file = OutputFile {
            name: name.clone(),
            found,
            stdout_bytes,
            stdout_head,
            other_files,
        };
        (output, Some(file))
    }
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
