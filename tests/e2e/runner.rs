//! The runner and the verdicts against real misbehaving programs (the `duipai-fixture` binary
//! and a few system tools). Every run must come back within a bound and leave no process of
//! its group alive.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::util::{assert_contains, fixture, write_executable};
use duipai::judge::Expected;
use duipai::judge::verdict::{self, Judgement, Verdict};
use duipai::run::{self, Execution, IoMode, Limit, Limits, RunError, Signal, Termination, procfs};

const CHESS_SAMPLE: &str = "2 3\n2 7 3\n9 1 2\n3 7 2\n2 3 1\n";
const CHESSBOARD_SAMPLE: &str = "4\nWBB.\nBWBW\nWBWW\nBBBW\n1 1 1 0\n1 1 1 1\n1 1 1 1\n1 1 1 1\n";
const MIB: u64 = 1024 * 1024;

/// How long a run may take before the test calls it a hang: generous, because on a busy
/// machine a program is given the time it waits for a CPU, and far below the sleeps of the
/// processes the harness must not wait for (60 s, or forever).
const NO_HANG: Duration = Duration::from_secs(30);

fn limits() -> Limits {
    Limits {
        cpu: Duration::from_secs(1),
        wall: Duration::from_secs(2),
        memory_bytes: 256 * MIB,
        output_bytes: MIB,
        processes: 16,
    }
}

/// The fixture program with `words`: a behaviour, its arguments, a problem.
fn fixture_command(words: &[&str]) -> Vec<OsString> {
    let mut command = vec![fixture().into_os_string()];
    command.extend(words.iter().map(OsString::from));
    command
}

/// One run of a program through the runner, built up and then run: by default on an empty
/// input, with [`limits`], on stdin and stdout.
struct Run {
    program: Vec<OsString>,
    input: String,
    limits: Limits,
    io: IoMode,
}

impl Run {
    fn new(program: Vec<OsString>) -> Run {
        Run {
            program,
            input: String::new(),
            limits: limits(),
            io: IoMode::Stdio,
        }
    }

    /// The fixture behaving as `behaviour` on chess, given the statement's sample.
    fn fixture(behaviour: &str) -> Run {
        Run::new(fixture_command(&[behaviour, "chess"])).input(CHESS_SAMPLE)
    }

    /// `sh -c SCRIPT`.
    fn sh(script: &str) -> Run {
        Run::new(sh(script))
    }

    /// One more argument of the program.
    fn arg(mut self, arg: &str) -> Run {
        self.program.push(arg.into());
        self
    }

    fn input(mut self, input: &str) -> Run {
        self.input = input.to_string();
        self
    }

    fn limits(mut self, limits: Limits) -> Run {
        self.limits = limits;
        self
    }

    fn io(mut self, io: &IoMode) -> Run {
        self.io = io.clone();
        self
    }

    /// Runs it, and checks that the run came back within [`NO_HANG`] (or the wall-clock
    /// limit and a little more, if that is longer) and left nothing of its group.
    #[track_caller]
    fn run(&self) -> Execution {
        let bound = NO_HANG.max(self.limits.wall + Duration::from_secs(3));
        let program = &self.program;
        let start = Instant::now();
        let execution = run::run(program, self.input.as_bytes(), &self.limits, &self.io)
            .expect("the run starts");
        let took = start.elapsed();
        assert!(
            took < bound,
            "{program:?} took {took:?}, more than {bound:?}"
        );
        assert!(execution.pgid > 1);
        let left = procfs::live_group_members(execution.pgid);
        assert!(
            left.is_empty(),
            "processes {left:?} of {program:?} survived"
        );
        execution
    }
}

/// The judgement of a run whose right answer is `answer`.
fn judge(execution: &Execution, answer: i64) -> Judgement {
    verdict::judge(execution, &Expected::integer(answer))
}

/// Fails unless a run whose right answer is `answer` is accepted.
#[track_caller]
fn assert_accepted(execution: &Execution, answer: i64) {
    let judgement = judge(execution, answer);
    assert_eq!(
        judgement.verdict,
        Verdict::Accepted,
        "{judgement}: {execution:?}"
    );
}

/// The run's peak resident memory: every run has one.
fn peak_memory(execution: &Execution) -> u64 {
    execution
        .peak_memory_bytes
        .expect("every run has a memory figure")
}

fn sh(script: &str) -> Vec<OsString> {
    vec!["sh".into(), "-c".into(), script.into()]
}

/// Fails unless process `pid` is gone: not in `/proc`, a zombie, or by now another program
/// (the pid reused) whose command line does not mention `name`. The harness kills and reaps
/// what it must before `run` returns, so no grace period is given.
fn assert_gone(pid: i32, name: &str) {
    let Some(stat) = procfs::stat(pid) else {
        return;
    };
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    let ours = String::from_utf8_lossy(&cmdline).contains(name);
    if !stat.is_zombie() && ours {
        // SAFETY: kill has no memory effects; the process was checked to be the survivor.
        unsafe { libc::kill(pid, libc::SIGKILL) };
        panic!("process {pid} ({name}) survived the run: {stat:?}");
    }
}

/// The pid a fixture reported on stderr as `PREFIX pid N`.
fn reported_pid(execution: &Execution, prefix: &str) -> i32 {
    let stderr = String::from_utf8_lossy(&execution.stderr);
    stderr
        .lines()
        .find_map(|l| l.strip_prefix(prefix)?.strip_prefix(" pid "))
        .and_then(|p| p.trim().parse().ok())
        .unwrap_or_else(|| panic!("no {prefix} pid in {stderr:?}"))
}

/// `path` relative to the current directory (with `..` as needed), as a user would type it.
fn relative_to_cwd(path: &Path) -> PathBuf {
    let cwd = std::env::current_dir().expect("cwd");
    let (mut from, to): (Vec<_>, Vec<_>) =
        (cwd.components().collect(), path.components().collect());
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    from.drain(..common);
    let mut relative = PathBuf::new();
    for _ in from {
        relative.push("..");
    }
    for part in &to[common..] {
        relative.push(part);
    }
    relative
}

/// A fresh directory for files a test makes, under the target directory.
fn test_dir() -> tempfile::TempDir {
    tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("tempdir")
}

#[test]
fn correct_is_accepted() {
    let execution = Run::fixture("correct").run();
    assert_eq!(execution.termination, Termination::Exited(0));
    assert_eq!(execution.stdout.to_vec().unwrap(), b"2\n");
    assert_accepted(&execution, 2);
    assert!(execution.cpu_time < Duration::from_millis(500));
    // A quick program ends before the first sample: its figure is its own peak all the same.
    let peak = peak_memory(&execution);
    assert!(peak > 0 && peak < 16 * MIB, "peak {peak}");
    assert!(execution.peak_processes <= 1);

    let board = Run::new(fixture_command(&["correct", "chessboard"]))
        .input(CHESSBOARD_SAMPLE)
        .run();
    assert_accepted(&board, 3);
}

#[test]
fn wrong_is_wrong_answer() {
    // The 1×1 board's answer is its A value, 3; A[1][1] is odd, so `wrong` adds one.
    let execution = Run::fixture("wrong").input("1 1\n3\n5\n").run();
    let judgement = judge(&execution, 3);
    assert_eq!(judgement.verdict, Verdict::WrongAnswer);
    assert_eq!(judgement.detail, "expected 3, found 4");
}

#[test]
fn busy_loop_is_stopped_at_the_cpu_limit() {
    let mut limits = limits();
    limits.cpu = Duration::from_millis(300);
    // However long a busy machine makes it wait for those 300 ms, it is not the wall clock
    // that stops it.
    limits.wall = Duration::from_secs(60);
    let execution = Run::fixture("slow").limits(limits).run();
    assert_eq!(
        execution.termination,
        Termination::LimitExceeded(Limit::CpuTime)
    );
    assert!(execution.cpu_time > Duration::from_millis(300));
    assert!(execution.cpu_time < Duration::from_millis(450));
    assert_eq!(judge(&execution, 2).verdict, Verdict::TimeLimitExceeded);
}

#[test]
fn sleeper_is_stopped_at_the_wall_clock_limit() {
    let mut limits = limits();
    limits.wall = Duration::from_millis(300);
    let execution = Run::fixture("sleep").limits(limits).run();
    assert_eq!(
        execution.termination,
        Termination::LimitExceeded(Limit::WallTime)
    );
    // Stopped past the limit, but not for want of a CPU: it slept.
    assert!(execution.wall_time.saturating_sub(execution.cpu_wait) >= limits.wall);
    assert!(execution.cpu_time < Duration::from_millis(300));
    let judgement = judge(&execution, 2);
    assert_eq!(judgement.verdict, Verdict::TimeLimitExceeded);
    assert!(judgement.detail.contains("wall clock"), "{judgement}");
    assert!(judgement.detail.contains("sleeps"), "{judgement}");
}

#[test]
fn memory_hog_is_stopped_at_the_memory_limit() {
    let mut limits = limits();
    limits.memory_bytes = 128 * MIB;
    let execution = Run::fixture("memory-hog").limits(limits).run();
    assert_eq!(
        execution.termination,
        Termination::LimitExceeded(Limit::Memory)
    );
    assert!(peak_memory(&execution) > 128 * MIB);
    // Sampling every few milliseconds stops it well before the address-space backstop.
    assert!(peak_memory(&execution) < limits.address_space_bytes());
    assert_eq!(judge(&execution, 2).verdict, Verdict::MemoryLimitExceeded);
}

/// As root the supervisor stops the storm; for other users RLIMIT_NPROC may make `fork` fail
/// first, and the fixture then kills its own group. Either way: a runtime error, no survivors.
#[test]
fn fork_storm_is_contained() {
    let execution = Run::fixture("fork").run();
    let judgement = judge(&execution, 2);
    assert_eq!(judgement.verdict, Verdict::RuntimeError, "{judgement}");
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        // Root is exempt from RLIMIT_NPROC: only the supervisor's count stops the storm.
        assert_eq!(
            execution.termination,
            Termination::LimitExceeded(Limit::Processes)
        );
        assert!(execution.peak_processes > 16);
        assert!(judgement.detail.contains("processes"), "{judgement}");
    }
}

#[test]
fn flood_is_stopped_at_the_output_limit() {
    let execution = Run::fixture("flood").run();
    assert_eq!(
        execution.termination,
        Termination::LimitExceeded(Limit::Output)
    );
    assert_eq!(execution.stdout.len(), MIB);
    assert!(execution.stderr.len() <= run::STDERR_TAIL);
    assert!(execution.stderr_bytes > 0);
    assert_eq!(judge(&execution, 2).verdict, Verdict::OutputLimitExceeded);
}

#[test]
fn grandchild_holding_stdout_is_killed() {
    // The run ends when the leader exits, not when the copy holding its stdout does.
    let execution = Run::fixture("grandchild").run();
    assert_accepted(&execution, 2);
    let pid = reported_pid(&execution, "grandchild");
    let alive = procfs::group_members(execution.pgid)
        .iter()
        .any(|m| m.pid == pid && !m.is_zombie());
    assert!(!alive, "grandchild {pid} survived");
}

#[test]
fn program_that_never_reads_does_not_block_the_harness() {
    // Far more input than a pipe buffer holds.
    let input = "1 ".repeat(4 << 20);
    let execution = Run::fixture("no-read").input(&input).run();
    assert_eq!(execution.termination, Termination::Exited(0));
    assert_accepted(&execution, 0);
    assert_eq!(judge(&execution, 5).verdict, Verdict::WrongAnswer);
}

#[test]
fn garbage_is_a_presentation_error() {
    let execution = Run::fixture("garbage").run();
    let judgement = judge(&execution, 2);
    assert_eq!(judgement.verdict, Verdict::PresentationError);
    assert!(judgement.detail.contains("tokens"), "{judgement}");
}

#[test]
fn crash_on_the_largest_board_is_a_runtime_error() {
    let mut big = String::from("10 10\n");
    for _ in 0..20 {
        big.push_str(&"1 ".repeat(10));
        big.push('\n');
    }
    let crash = Run::fixture("crash-max").input(&big).run();
    assert_eq!(
        crash.termination,
        Termination::Signaled(Signal(libc::SIGABRT))
    );
    let judgement = judge(&crash, 0);
    assert_eq!(judgement.verdict, Verdict::RuntimeError);
    assert!(judgement.detail.contains("SIGABRT"), "{judgement}");

    let small = Run::fixture("crash-max").run();
    assert_accepted(&small, 2);
}

#[test]
fn exit_codes_and_signals_are_reported() {
    let exit = Run::sh("exit 3").run();
    assert_eq!(exit.termination, Termination::Exited(3));
    assert_eq!(judge(&exit, 0).detail, "exit code 3");

    let segv = Run::sh("kill -SEGV $$").run();
    assert_eq!(
        segv.termination,
        Termination::Signaled(Signal(libc::SIGSEGV))
    );
    assert!(judge(&segv, 0).detail.starts_with("killed by SIGSEGV"));

    // Output already written before a crash does not save the run.
    let late = Run::sh("echo 7; exit 1").run();
    assert_eq!(judge(&late, 7).verdict, Verdict::RuntimeError);
}

#[test]
fn stdio_programs_run_in_the_callers_directory() {
    let execution = Run::sh("pwd").run();
    let dir = String::from_utf8(execution.stdout.to_vec().unwrap()).expect("UTF-8");
    assert_eq!(
        Path::new(dir.trim_end()),
        std::env::current_dir().expect("cwd")
    );
}

/// File I/O runs in a scratch directory of the calling thread: the same one for every run of
/// the thread, empty at the start of each, kept for the threads to come when the thread ends
/// (a contained program's namespaces are made for its directory; duipai removes them when it
/// is done).
#[test]
fn file_io_runs_in_a_scratch_directory_emptied_between_runs() {
    let io = IoMode::files_named("chess");
    let run = Run::sh("{ pwd; ls -A; } > chess.out; touch left-behind; mkdir left-dir")
        .input(CHESS_SAMPLE)
        .io(&io);
    let (first, second, dir) = std::thread::spawn(move || {
        let first = run.run();
        let second = run.run();
        let text = String::from_utf8(first.stdout.to_vec().unwrap()).expect("UTF-8");
        let dir = PathBuf::from(text.lines().next().expect("pwd"));
        assert!(dir.is_dir(), "kept between runs of the thread");
        (first, second, dir)
    })
    .join()
    .expect("the thread's runs");
    assert_ne!(dir, std::env::current_dir().expect("cwd"));
    let listing = |e: &Execution| String::from_utf8_lossy(&e.stdout.to_vec().unwrap()).into_owned();
    let expected = format!("{}\nchess.in\nchess.out\n", dir.display());
    assert_eq!(listing(&first), expected);
    // The second run found the same directory with nothing of the first run's left.
    assert_eq!(listing(&second), expected);
    let file = first
        .output_file
        .as_ref()
        .expect("file I/O says what it found");
    assert!(file.found);
    assert_eq!(file.other_files, ["left-behind", "left-dir/"]);
    assert!(dir.exists(), "{} removed with its thread", dir.display());
}

#[test]
fn file_io_reads_and_writes_files() {
    let io = IoMode::files_named("chess");
    let execution = Run::fixture("correct").arg("--file-io").io(&io).run();
    assert_eq!(execution.stdout.to_vec().unwrap(), b"2\n");
    assert_accepted(&execution, 2);

    // Stdin is /dev/null in file mode: a program reading stdin finds an empty input.
    let execution = Run::fixture("correct").io(&io).run();
    assert_eq!(execution.termination, Termination::Exited(3));

    // No output file at all is no output, and the judgement says so.
    let execution = Run::new(vec!["true".into()])
        .input(CHESS_SAMPLE)
        .io(&io)
        .run();
    assert_eq!(execution.stdout.to_vec().unwrap(), b"");
    let judgement = judge(&execution, 2);
    assert_eq!(judgement.verdict, Verdict::PresentationError);
    assert_eq!(
        judgement.detail,
        "no output file chess.out; the program wrote nothing to stdout and left no other file"
    );

    // An output file over the limit is an output limit verdict.
    let mut small = limits();
    small.output_bytes = 1000;
    let execution = Run::sh("head -c 5000 /dev/zero | tr '\\0' 1 > chess.out")
        .limits(small)
        .io(&io)
        .run();
    assert_eq!(
        execution.termination,
        Termination::LimitExceeded(Limit::Output)
    );
}

#[test]
fn relative_program_paths_are_taken_from_the_callers_directory() {
    // A path relative to the current directory however far the build directory lies from it
    // (CARGO_TARGET_DIR): up to the root, then down to the fixture.
    let cwd = std::env::current_dir().expect("cwd");
    let fixture = fixture();
    let mut relative = PathBuf::from(".");
    for _ in cwd.components().skip(1) {
        relative.push("..");
    }
    relative.push(fixture.strip_prefix("/").expect("an absolute path"));
    assert!(relative.is_relative());
    let program = vec![relative.into_os_string(), "correct".into(), "chess".into()];
    let execution = Run::new(program).input(CHESS_SAMPLE).run();
    assert_accepted(&execution, 2);
}

#[test]
fn programs_that_cannot_start_are_harness_errors() {
    let io = IoMode::Stdio;
    let missing = run::run(&["./no-such-program-here".into()], b"", &limits(), &io);
    match missing {
        Err(err @ RunError::Spawn { .. }) => {
            let chain = format!("{:#}", anyhow::Error::new(err));
            assert_contains(&chain, "no-such-program-here");
            assert_contains(&chain, "No such file");
        }
        other => panic!("expected a spawn error, got {other:?}"),
    }

    let not_found = run::run(&["no-such-program-in-path".into()], b"", &limits(), &io);
    let message = not_found.expect_err("not in PATH").to_string();
    assert_contains(&message, "looked up in PATH");

    let dir = tempfile::tempdir().expect("tempdir");
    let plain = dir.path().join("not-executable");
    std::fs::write(&plain, "42\n").expect("write");
    let refused = run::run(&[plain.into_os_string()], b"", &limits(), &io);
    assert!(
        matches!(&refused, Err(RunError::Spawn { source, .. }) if source.kind() == std::io::ErrorKind::PermissionDenied),
        "{refused:?}"
    );
    let message = refused.expect_err("refused").to_string();
    assert_contains(&message, "chmod +x");

    // A script without a `#!` line: the kernel cannot run it, and the message says why.
    let script = dir.path().join("script.sh");
    write_executable(&script, "echo 2\n");
    let message = loop {
        let unrunnable = run::run(&[script.clone().into_os_string()], b"", &limits(), &io);
        match unrunnable {
            // Another test's child may still hold the file open for writing for a moment.
            Err(RunError::Spawn { source, .. }) if source.raw_os_error() == Some(libc::ETXTBSY) => {
                std::thread::sleep(Duration::from_millis(10));
            }
            other => break other.expect_err("no #! line").to_string(),
        }
    };
    assert_contains(&message, "#!/bin/sh");

    assert!(matches!(
        run::run(&[], b"", &limits(), &io),
        Err(RunError::NoProgram)
    ));
}

#[test]
fn memory_of_a_normal_run_is_measured() {
    // dash or bash holds the 30 MB string in memory while building the variable.
    let execution = Run::sh("x=$(head -c 30000000 /dev/zero | tr '\\0' a); echo ${#x}").run();
    assert_eq!(execution.termination, Termination::Exited(0));
    assert_eq!(execution.stdout.to_vec().unwrap(), b"30000000\n");
    let peak = peak_memory(&execution);
    assert!(peak > 30_000_000, "peak {peak}");
    assert!(peak < 256 * MIB, "peak {peak}");
}

#[test]
fn output_up_to_the_limit_is_kept_and_one_byte_more_is_not() {
    let mut small = limits();
    small.output_bytes = 1000;
    let execution = Run::sh("head -c 1000 /dev/zero | tr '\\0' 7")
        .limits(small)
        .run();
    assert_eq!(execution.termination, Termination::Exited(0));
    assert_eq!(execution.stdout.len(), 1000);

    let execution = Run::sh("head -c 1001 /dev/zero | tr '\\0' 7")
        .limits(small)
        .run();
    assert_eq!(
        execution.termination,
        Termination::LimitExceeded(Limit::Output)
    );
    assert_eq!(execution.stdout.len(), 1000);
}

#[test]
fn escaped_process_holding_stdout_does_not_hang_the_harness() {
    // `setsid` moves the sleeper out of the group, holding stdout (fd 3 is the real stdout):
    // the harness must neither wait for it to close the pipe nor leave it running. The
    // command substitution returns once the sleeper has replaced the shell that reported its
    // pid, so it has left the group by then.
    let execution =
        Run::sh("exec 3>&1; p=$(setsid sh -c 'echo $$; exec sleep 60 >&3' &); echo $p >&2; echo 2")
            .run();
    assert_eq!(execution.stdout.to_vec().unwrap(), b"2\n");
    assert_accepted(&execution, 2);
    let pid: i32 = String::from_utf8_lossy(&execution.stderr)
        .trim()
        .parse()
        .expect("the sleeper's pid");
    assert_gone(pid, "sleep");
}

/// The rlimits reach the program (they are set on it right after it starts; the shell waits
/// a moment before reading them back).
#[test]
fn rlimits_are_applied_to_the_program() {
    let program: Vec<OsString> = ["/bin/sh", "-c", "sleep 0.1; cat /proc/self/limits"]
        .iter()
        .map(OsString::from)
        .collect();
    let lim = limits();
    let execution = Run::new(program).limits(lim).run();
    let text = String::from_utf8_lossy(&execution.stdout.to_vec().unwrap()).into_owned();
    let soft = |name: &str| -> String {
        let line = text
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no {name} in {text}"));
        line[name.len()..]
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_string()
    };
    // CPU: whole seconds of the limit plus a margin (the supervisor enforces the real limit).
    assert_eq!(soft("Max cpu time"), (lim.cpu.as_secs() + 2).to_string());
    assert_eq!(soft("Max core file size"), "0");
    assert_eq!(soft("Max file size"), (lim.output_bytes + 1).to_string());
    assert_eq!(
        soft("Max address space"),
        lim.address_space_bytes().to_string()
    );
}

/// Judges let the stack grow to the memory limit (capped at 256 MiB): the limit must be in force
/// when `exec` lays out the program's address space, which leaves room below the stack by the
/// stack limit of that moment. Set later, the stack could not grow past the libraries mapped
/// some 128 MiB below it.
#[test]
fn deep_recursion_gets_the_stack_up_to_the_memory_limit() {
    let deep_stack = |mib: u64, limits: &Limits| {
        let limits = Limits {
            wall: Duration::from_secs(10),
            ..*limits
        };
        Run::new(fixture_command(&["deep-stack", &mib.to_string(), "chess"]))
            .input(CHESS_SAMPLE)
            .limits(limits)
            .run()
    };
    let execution = deep_stack(200, &limits());
    assert_eq!(
        execution.termination,
        Termination::Exited(0),
        "{}",
        String::from_utf8_lossy(&execution.stderr)
    );
    assert_eq!(execution.stdout.to_vec().unwrap(), b"2\n");

    // Over the cap, it is a stack overflow, not an escape from the limit.
    let roomy = Limits {
        memory_bytes: 1024 * MIB,
        ..limits()
    };
    let execution = deep_stack(300, &roomy);
    assert!(
        matches!(execution.termination, Termination::Signaled(_)),
        "{:?}",
        execution.termination
    );
}

// ---------------------------------------------------------------------------------------------
// Escaped processes: the harness is their subreaper and kills them with the run.

#[test]
fn a_child_that_leaves_the_group_is_killed_with_the_run() {
    let execution = Run::fixture("escape-setsid").run();
    assert_accepted(&execution, 2);
    assert_gone(reported_pid(&execution, "escapee"), "duipai-fixture");
}

#[test]
fn an_orphan_of_a_double_fork_is_killed_with_the_run() {
    let execution = Run::fixture("escape-double-fork").run();
    assert_accepted(&execution, 2);
    assert_gone(reported_pid(&execution, "escapee"), "duipai-fixture");
}

/// The CPU time of a process outside the group counts: the spinning escapee is what exceeds
/// the CPU limit, while the leader sleeps.
#[test]
fn an_escaped_spinner_counts_against_the_cpu_limit() {
    let mut limits = limits();
    limits.cpu = Duration::from_millis(500);
    limits.wall = Duration::from_secs(60);
    let execution = Run::fixture("escape-spin").limits(limits).run();
    assert_eq!(
        execution.termination,
        Termination::LimitExceeded(Limit::CpuTime),
        "{execution:?}"
    );
    assert!(execution.cpu_time > Duration::from_millis(500));
    assert_gone(reported_pid(&execution, "escapee"), "duipai-fixture");
}

/// Runs going on at once on other threads clean up their own orphans only: an orphan of a run
/// still going (here the shell's `setsid sleep`, orphaned by its subshell) is left alive
/// until that run ends, however many other runs clean up meanwhile.
#[test]
fn concurrent_runs_kill_only_their_own_orphans() {
    let watcher = std::thread::spawn(|| {
        let script = "p=$( (setsid sleep 30 >/dev/null 2>&1 & echo $!) ); echo $p >&2; \
                      sleep 0.6; kill -0 $p && echo alive";
        Run::sh(script).run()
    });
    // Runs of their own until the watcher's is over, however slowly a busy machine runs them.
    let mut runs = 0;
    while runs == 0 || !watcher.is_finished() {
        let execution = Run::fixture("escape-double-fork").run();
        assert_accepted(&execution, 2);
        assert_gone(reported_pid(&execution, "escapee"), "duipai-fixture");
        runs += 1;
    }
    let watched = watcher.join().expect("the watcher's run");
    assert_eq!(watched.stdout.to_vec().unwrap(), b"alive\n", "{watched:?}");
    let orphan: i32 = String::from_utf8_lossy(&watched.stderr)
        .trim()
        .parse()
        .expect("the orphan's pid");
    assert_gone(orphan, "sleep");
}

// ---------------------------------------------------------------------------------------------
// Re-runs near the CPU limit.

fn burn(ms: u64) -> Vec<OsString> {
    fixture_command(&["burn-cpu", &ms.to_string(), "chess"])
}

fn steady(program: &[OsString], limits: &Limits, rerun: bool) -> Execution {
    let execution = run::run_steady(
        program,
        CHESS_SAMPLE.as_bytes(),
        limits,
        &IoMode::Stdio,
        rerun,
    )
    .expect("the runs start");
    let left = procfs::live_group_members(execution.pgid);
    assert!(left.is_empty(), "processes {left:?} survived");
    execution
}

/// A 300 ms CPU limit, and a wall-clock limit so long that no busy machine reaches it (nor
/// its cap on waiting for a CPU): these tests are about CPU time.
fn tight() -> Limits {
    Limits {
        cpu: Duration::from_millis(300),
        wall: Duration::from_secs(60),
        ..limits()
    }
}

#[test]
fn a_run_just_over_the_limit_is_run_again_and_judged_on_the_fastest() {
    // 1.1 times the limit: every run lands in the band, so three runs, all over.
    let execution = steady(&burn(330), &tight(), true);
    assert_eq!(execution.cpu_times.len(), 3, "{:?}", execution.cpu_times);
    assert_eq!(
        execution.cpu_time,
        *execution.cpu_times.iter().min().unwrap()
    );
    for &t in &execution.cpu_times {
        // Each run was let finish (stopped only at 1.5 times the limit) and measured.
        assert!(
            t >= Duration::from_millis(330) && t <= Duration::from_millis(450),
            "{t:?}"
        );
    }
    let judgement = judge(&execution, 2);
    assert_eq!(judgement.verdict, Verdict::TimeLimitExceeded);
    let shown: Vec<String> = execution
        .cpu_times
        .iter()
        .map(|t| format!("{:.3} s", t.as_secs_f64()))
        .collect();
    assert_eq!(
        judgement.detail,
        format!("CPU {} (limit 0.300 s)", shown.join(", "))
    );
}

#[test]
fn a_run_just_under_the_limit_is_run_again_and_stays_accepted() {
    let execution = steady(&burn(260), &tight(), true);
    assert_eq!(execution.cpu_times.len(), 3, "{:?}", execution.cpu_times);
    assert_eq!(execution.termination, Termination::Exited(0));
    assert_accepted(&execution, 2);
}

#[test]
fn runs_far_from_the_limit_are_measured_once() {
    let quick = steady(&burn(50), &tight(), true);
    assert_eq!(quick.cpu_times.len(), 1);
    assert_accepted(&quick, 2);

    // An endless loop is stopped past the band, at 1.5 times the limit, and not run again.
    let endless = steady(&fixture_command(&["slow", "chess"]), &tight(), true);
    assert_eq!(endless.cpu_times.len(), 1);
    assert_eq!(
        endless.termination,
        Termination::LimitExceeded(Limit::CpuTime)
    );
    assert!(endless.cpu_time > Duration::from_millis(450));
}

#[test]
fn without_reruns_a_run_is_stopped_at_the_limit_and_measured_once() {
    let execution = steady(&burn(330), &tight(), false);
    assert_eq!(execution.cpu_times, [execution.cpu_time]);
    assert_eq!(
        execution.termination,
        Termination::LimitExceeded(Limit::CpuTime)
    );
    let plain = Run::fixture("correct").run();
    assert_eq!(plain.cpu_times, [plain.cpu_time]);
}

// ---------------------------------------------------------------------------------------------
// Programs as users type them: relative paths mean the caller's directory.

/// `env FIXTURE correct chess` on the sample, the fixture named relative to the current
/// directory.
fn through_env() -> Run {
    let fixture = relative_to_cwd(&fixture()).into_os_string();
    Run::new(vec![
        "env".into(),
        fixture,
        "correct".into(),
        "chess".into(),
    ])
    .input(CHESS_SAMPLE)
}

#[test]
fn relative_arguments_name_the_callers_files_on_stdin_and_stdout() {
    let dir = test_dir();
    let script = dir.path().join("answer.sh");
    std::fs::write(&script, "read n m\necho 2\n").expect("write the script");
    let program = vec!["sh".into(), relative_to_cwd(&script).into_os_string()];
    let execution = Run::new(program).input(CHESS_SAMPLE).run();
    assert_accepted(&execution, 2);

    // `env ./a.out`: the program path is an argument of another program.
    assert_accepted(&through_env().run(), 2);
}

#[test]
fn relative_arguments_name_the_callers_files_with_file_io() {
    let io = IoMode::files_named("chess");
    let dir = test_dir();
    let script = dir.path().join("answer.sh");
    std::fs::write(&script, "read n m < chess.in\necho 2 > chess.out\n").expect("write");
    let program = vec!["sh".into(), relative_to_cwd(&script).into_os_string()];
    let execution = Run::new(program).input("1 1\n2\n0\n").io(&io).run();
    assert_accepted(&execution, 2);

    let execution = through_env().arg("--file-io").io(&io).run();
    assert_accepted(&execution, 2);

    // A bare file name (`python3 sol.py`): Cargo.toml of the package the tests run in.
    let execution = Run::sh("head -c 9 \"$1\" > chess.out")
        .arg("sh")
        .arg("Cargo.toml")
        .io(&io)
        .run();
    assert_eq!(
        execution.stdout.to_vec().unwrap(),
        b"[package]",
        "{execution:?}"
    );
}

#[test]
fn a_missing_output_file_is_explained() {
    let io = IoMode::files_named("chess");
    let printed = Run::fixture("file-to-stdout").io(&io).run();
    let file = printed.output_file.as_ref().expect("file I/O");
    assert!(!file.found);
    assert_eq!(
        (file.stdout_bytes, file.stdout_head.as_slice()),
        (2, &b"2\n"[..])
    );
    let judgement = judge(&printed, 2);
    assert_eq!(judgement.verdict, Verdict::PresentationError);
    assert_eq!(
        judgement.detail,
        "no output file chess.out; the program wrote 2 bytes to stdout (\"2\\n\") and left no \
         other file"
    );

    let misnamed = Run::fixture("upper-out").io(&io).run();
    assert_eq!(
        misnamed.output_file.as_ref().unwrap().other_files,
        ["CHESS.OUT"]
    );
    assert_eq!(
        judge(&misnamed, 2).detail,
        "no output file chess.out; the program wrote nothing to stdout and left CHESS.OUT"
    );

    // An output file that is not a regular file is no output file.
    let fifo = Run::sh("mkfifo chess.out").io(&io).run();
    let file = fifo.output_file.as_ref().unwrap();
    assert!(!file.found);
    assert_eq!(file.other_files, ["chess.out"]);
}
