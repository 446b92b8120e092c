//! One run off Linux, written once above the seam: where the program runs (the caller's
//! folder, or for file I/O a scratch folder holding its input), its start through [`Tree`],
//! its three streams, its supervision (the first limit exceeded stops the whole tree), and the
//! figures and end an [`Execution`] reports, with the verdict's limit chosen by the one
//! precedence order ([`exceeded`]).

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::cancel::RunEntry;
use super::streams::{self, Answer};
use super::{Started, Status, Tree, Used};
use crate::run::command::{check_file_name, resolve_args, resolve_program};
use crate::run::contain::{self, Role};
use crate::run::environment::passed;
use crate::run::error::{RunError, setup_error};
use crate::run::limits::{Limit, Limits, Usage, exceeded};
use crate::run::signal::Signal;
use crate::run::{Execution, IoMode, OutputFile, Stop, Termination, read_output_file};

/// How long the streams' threads get to finish once every process of the run has ended.
const STREAMS_GRACE: Duration = Duration::from_secs(2);

/// How many bytes of a file I/O program's stdout are kept, to say what it printed instead.
const STDOUT_HEAD: u64 = 256;

/// [`crate::run::run`], for `role`, with the program stopped at `stop` and judged against
/// `limits`.
pub(crate) fn run_until(
    role: Role,
    program: &[OsString],
    input: &[u8],
    limits: &Limits,
    io: &IoMode,
    stop: Stop,
) -> Result<Execution, RunError> {
    let (exe, args) = program.split_first().ok_or(RunError::NoProgram)?;
    let placed = Placed::new(exe, args, io, input)?;
    let stop_limits = Limits {
        cpu: stop.cpu,
        ..*limits
    };
    let stdin = if placed.scratch.is_some() {
        Stdio::null()
    } else {
        Stdio::piped()
    };
    let mut command = placed.command(role, stdin);
    let (mut launched, pipes) = Launched::start(&mut command, exe, &stop_limits)?;
    let fed = match pipes.stdin {
        Some(stdin) => Some(
            streams::feed(stdin, input.to_vec())
                .map_err(setup_error("cannot feed the program's stdin"))?,
        ),
        None => None,
    };
    let exceeded_output = Arc::new(AtomicBool::new(false));
    let (answer_limit, answer_flag) = match io {
        IoMode::Stdio => (limits.output_bytes, exceeded_output.clone()),
        // File I/O: stdout is not the answer; its head says what the program did instead.
        IoMode::Files { .. } => (STDOUT_HEAD, Arc::new(AtomicBool::new(false))),
    };
    let answer = streams::answer(pipes.stdout, answer_limit, answer_flag)
        .map_err(setup_error("cannot read the program's stdout"))?;
    let tail =
        streams::tail(pipes.stderr).map_err(setup_error("cannot read the program's stderr"))?;
    launched.supervise(&stop_limits, stop.wall, &exceeded_output);
    let settled = launched.settle()?;
    let answer = answer.join(STREAMS_GRACE);
    let tail = tail.join(STREAMS_GRACE).unwrap_or_default();
    if let Some(fed) = fed {
        fed.join(STREAMS_GRACE);
    }
    let mut output_exceeded = exceeded_output.load(Ordering::SeqCst);
    let (stdout, output_file) = match io {
        IoMode::Stdio => (answer.map(|a| a.captured).unwrap_or_default(), None),
        IoMode::Files { input, output } => {
            let (content, file, exceeded) = placed.output_file(input, output, answer, limits);
            output_exceeded = exceeded;
            (content, Some(file))
        }
    };
    let mut execution = settled.into_execution(limits, output_exceeded);
    execution.stdout = stdout;
    execution.output_file = output_file;
    execution.stderr = tail.kept;
    execution.stderr_bytes = tail.total;
    Ok(execution)
}

/// The three streams of a started program (stdin only when it is a pipe).
pub(super) struct Pipes {
    pub stdin: Option<ChildStdin>,
    pub stdout: ChildStdout,
    pub stderr: ChildStderr,
}

/// A started, registered program under supervision.
pub(super) struct Launched {
    entry: RunEntry,
    tree: Started,
    child: Child,
    started: Instant,
    /// The largest figures seen.
    seen: Used,
    /// The limit it was stopped for.
    stopped: Option<Limit>,
    /// When it ended or was stopped, from its start.
    wall: Option<Duration>,
}

impl Launched {
    /// Starts `command` (whose program is `exe`, for messages) under `limits`: prepared for
    /// the system, started, taken over, registered for an interrupt.
    pub(super) fn start(
        command: &mut Command,
        exe: &OsStr,
        limits: &Limits,
    ) -> Result<(Launched, Pipes), RunError> {
        super::prepare_harness();
        Started::prepare(command, limits);
        let entry = RunEntry::begin();
        let spawn_error = |source| RunError::Spawn {
            program: exe.to_os_string(),
            source,
        };
        let mut child = command.spawn().map_err(spawn_error)?;
        let tree = match Started::adopt(&child, limits) {
            Ok(tree) => tree,
            Err(source) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(RunError::Setup {
                    what: "cannot set the program's limits".into(),
                    source,
                });
            }
        };
        let started = Instant::now();
        let pipes = Pipes {
            stdin: child.stdin.take(),
            stdout: child.stdout.take().expect("stdout is piped"),
            stderr: child.stderr.take().expect("stderr is piped"),
        };
        let mut launched = Launched {
            entry,
            tree,
            child,
            started,
            seen: Used::default(),
            stopped: None,
            wall: None,
        };
        if launched.entry.started(launched.tree.ender()) {
            launched.tree.end();
        }
        Ok((launched, pipes))
    }

    /// The figures so far, as the limits read them.
    fn usage(&self, output_exceeded: bool, wall: Duration) -> Usage {
        Usage {
            output_exceeded,
            cpu: self.seen.cpu,
            wall,
            waited: Duration::ZERO,
            tasks: self.seen.processes,
            memory_bytes: self.seen.memory.unwrap_or(0),
            fork_refused: self.seen.processes_refused,
            oom_killed: self.seen.memory_refused,
            signal: self
                .seen
                .cpu_refused
                .then_some(Signal(super::super::signal::sig::SIGXCPU)),
        }
    }

    fn merge(&mut self, used: Used) {
        let seen = &mut self.seen;
        seen.cpu = seen.cpu.max(used.cpu);
        seen.memory = seen.memory.max(used.memory);
        seen.processes = seen.processes.max(used.processes);
        seen.processes_refused |= used.processes_refused;
        seen.memory_refused |= used.memory_refused;
        seen.cpu_refused |= used.cpu_refused;
    }

    /// One look at the run: whether it is over (ended by itself, or stopped now at a limit
    /// of `limits`, or at the wall clock's `cap`).
    pub(super) fn look(&mut self, limits: &Limits, cap: Duration, output: &AtomicBool) -> bool {
        if self.wall.is_some() {
            return true;
        }
        let exited = self.tree.exited();
        let used = self.tree.used();
        self.merge(used);
        let wall = self.started.elapsed();
        if exited {
            self.wall = Some(wall);
            return true;
        }
        let usage = self.usage(output.load(Ordering::SeqCst), wall);
        let limit = exceeded(limits, &usage).or((wall > cap).then_some(Limit::WallTime));
        if let Some(limit) = limit {
            self.stop(limit);
            return true;
        }
        false
    }

    /// The limit the run was stopped for, if it was.
    pub(super) fn stopped_for(&self) -> Option<Limit> {
        self.stopped
    }

    /// Stops the run for `limit`.
    pub(super) fn stop(&mut self, limit: Limit) {
        if self.wall.is_none() {
            self.stopped = Some(limit);
            self.wall = Some(self.started.elapsed());
            self.tree.end();
        }
    }

    /// Watches the run until it ends or a limit stops it.
    fn supervise(&mut self, limits: &Limits, cap: Duration, output: &AtomicBool) {
        let mut pause = Duration::from_micros(500);
        while !self.look(limits, cap, output) {
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(10));
        }
    }

    /// Ends what is left of the run and reaps it: its final figures.
    pub(super) fn settle(mut self) -> Result<Settled, RunError> {
        let left = self.tree.end();
        self.entry.ending();
        let (status, used) = self
            .tree
            .finish()
            .map_err(setup_error("cannot collect the program's end"))?;
        self.merge(used);
        // The std handle is done with once the system has reaped the process.
        let _ = self.child.try_wait();
        Ok(Settled {
            status,
            left_behind: if self.stopped.is_none() { left } else { 0 },
            pid: self.child.id() as i32,
            wall: self.wall.unwrap_or_else(|| self.started.elapsed()),
            stopped: self.stopped,
            seen: self.seen,
        })
    }
}

/// A run that is over, before its output is read.
pub(super) struct Settled {
    status: Status,
    left_behind: u32,
    pid: i32,
    wall: Duration,
    stopped: Option<Limit>,
    seen: Used,
}

impl Settled {
    /// The execution: how it ended as the final figures and the limits say (a limit first,
    /// then a crash, then the exit code), with no output yet.
    pub(super) fn into_execution(self, limits: &Limits, output_exceeded: bool) -> Execution {
        let signal = match self.status {
            Status::Signal(signal) => Some(Signal(signal)),
            Status::Code(_) => None,
        };
        let usage = Usage {
            output_exceeded,
            cpu: self.seen.cpu,
            wall: self.wall,
            waited: Duration::ZERO,
            tasks: self.seen.processes,
            memory_bytes: self.seen.memory.unwrap_or(0),
            fork_refused: self.seen.processes_refused,
            oom_killed: self.seen.memory_refused,
            signal: signal.or(self
                .seen
                .cpu_refused
                .then_some(Signal(super::super::signal::sig::SIGXCPU))),
        };
        let termination = match exceeded(limits, &usage).or(self.stopped) {
            Some(limit) => Termination::LimitExceeded(limit),
            None => match self.status {
                Status::Signal(signal) => Termination::Signaled(Signal(signal)),
                Status::Code(code) => Termination::Exited(code),
            },
        };
        let mut execution = Execution::from_outcome(termination, Vec::new(), *limits);
        execution.cpu_time = self.seen.cpu;
        execution.cpu_times = vec![self.seen.cpu];
        execution.wall_time = self.wall;
        execution.peak_memory_bytes = self.seen.memory.filter(|&m| m > 0);
        execution.peak_processes = self.seen.processes;
        execution.pgid = self.pid;
        execution.left_behind = self.left_behind;
        execution
    }
}

/// Where a program runs: in the caller's folder on stdin and stdout, or for file I/O in a
/// scratch folder holding the input file (the program and its arguments that name the
/// caller's files made absolute).
struct Placed {
    exe: PathBuf,
    args: Vec<OsString>,
    scratch: Option<tempfile::TempDir>,
}

impl Placed {
    fn new(exe: &OsStr, args: &[OsString], io: &IoMode, input: &[u8]) -> Result<Placed, RunError> {
        let IoMode::Files {
            input: input_name,
            output,
        } = io
        else {
            return Ok(Placed {
                exe: PathBuf::from(exe),
                args: args.to_vec(),
                scratch: None,
            });
        };
        check_file_name(input_name)?;
        check_file_name(output)?;
        let dir = crate::run::temp_folder("run")
            .map_err(setup_error("cannot create a scratch working directory"))?;
        std::fs::write(dir.path().join(input_name), input)
            .map_err(setup_error("cannot write the input file"))?;
        Ok(Placed {
            exe: resolve_program(exe),
            args: resolve_args(args, &[input_name, output]),
            scratch: Some(dir),
        })
    }

    /// The command: the program, its arguments, its folder, its environment (duipai's, but
    /// the buffering variables, with the program's `--env` entries), its streams.
    fn command(&self, role: Role, stdin: Stdio) -> Command {
        let mut command = Command::new(&self.exe);
        command
            .args(&self.args)
            .stdin(stdin)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &self.scratch {
            command.current_dir(dir.path());
        }
        environment(&mut command, role);
        command
    }

    /// The answer from the output file, what became of the file, and whether it is longer
    /// than the output limit.
    fn output_file(
        &self,
        input: &str,
        name: &str,
        stdout: Option<Answer>,
        limits: &Limits,
    ) -> (crate::run::Captured, OutputFile, bool) {
        let dir = self.scratch.as_ref().map_or(Path::new("."), |d| d.path());
        let (found, content) = read_output_file(&dir.join(name));
        let (captured, exceeded) = match content {
            Some((file, len)) => (
                crate::run::Captured::from_file(file, len.min(limits.output_bytes))
                    .unwrap_or_default(),
                len > limits.output_bytes,
            ),
            None => (crate::run::Captured::default(), false),
        };
        let other_files = listing(dir)
            .into_iter()
            .filter(|file| file != input && (!found || file != name))
            .collect();
        let (stdout_bytes, stdout_head) = match stdout {
            Some(answer) => (answer.total, answer.captured.head(STDOUT_HEAD as usize)),
            None => (0, Vec::new()),
        };
        let file = OutputFile {
            name: name.to_string(),
            found,
            stdout_bytes,
            stdout_head,
            other_files,
        };
        (captured, file, exceeded)
    }
}

/// What a folder holds, sorted, a folder's name with a `/`.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| {
            let mut name = entry.file_name().to_string_lossy().into_owned();
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                name.push('/');
            }
            name
        })
        .collect();
    names.sort();
    names
}

/// The environment a program gets: duipai's, without the variables that change how a program
/// buffers its streams (unless `DUIPAI_KEEP_ENV` keeps them), and for the program under test
/// with its `--env` entries.
pub(super) fn environment(command: &mut Command, role: Role) {
    for (name, _) in std::env::vars_os() {
        if !passed(name.as_encoded_bytes()) {
            command.env_remove(name);
        }
    }
    if role != Role::Program {
        return;
    }
    for entry in &contain::policy().env {
        let text = entry.to_string_lossy();
        match text.split_once('=') {
            Some((name, value)) => command.env(name, value),
            None => command,
        };
    }
}
