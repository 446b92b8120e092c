//! The runner and the verdicts against real misbehaving programs (the `duipai-fixture` binary
//! and a few system tools). Every run must come back within a bound and leave no process of
//! its group alive.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::util::fixture;
use duipai::judge::Expected;
use duipai::judge::verdict::{self, Verdict};
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

fn fixture_command(behaviour: &str, problem: &str) -> Vec<OsString> {
    vec![fixture().into(), behaviour.into(), problem.into()]
}

/// Runs a program, checks the run came back within `bound` and left nothing of its group.
fn run_within(
    program: &[OsString],
    input: &str,
    limits: &Limits,
    io: &IoMode,
    bound: Duration,
) -> Execution {
    let start = Instant::now();
    let execution = run::run(program, input.as_bytes(), limits, io).expect("the run starts");
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

/// The run's peak resident memory: every run has one.
fn peak_memory(execution: &Execution) -> u64 {
    execution
        .peak_memory_bytes
        .expect("every run has a memory figure")
}

fn run_fixture(behaviour: &str, problem: &str, input: &str, limits: &Limits) -> Execution {
    run_within(
        &fixture_command(behaviour, problem),
        input,
        limits,
        &IoMode::Stdio,
        NO_HANG.max(limits.wall + Duration::from_secs(3)),
    )
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
    let execution = run_fixture("correct", "chess", CHESS_SAMPLE, &limits());
    assert_eq!(execution.termination, Termination::Exited(0));
    assert_eq!(execution.stdout, b"2\n");
    let judgement = verdict::judge(&execution, &Expected::integer(2));
    assert_eq!(judgement.verdict, Verdict::Accepted, "{judgement}");
    assert!(execution.cpu_time < Duration::from_millis(500));
    // A quick program ends before the first sample: its figure is its own peak all the same.
    let peak = peak_memory(&execution);
    assert!(peak > 0 && peak < 16 * MIB, "peak {peak}");
    assert!(execution.peak_processes <= 1);

    let board = run_fixture("correct", "chessboard", CHESSBOARD_SAMPLE, &limits());
    assert_eq!(
        verdict::judge(&board, &Expected::integer(3)).verdict,
        Verdict::Accepted
    );
}

#[test]
fn wrong_is_wrong_answer() {
    // The 1×1 board's answer is its A value, 3; A[1][1] is odd, so `wrong` adds one.
    let execution = run_fixture("wrong", "chess", "1 1\n3\n5\n", &limits());
    let judgement = verdict::judge(&execution, &Expected::integer(3));
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
    let execution = run_fixture("slow", "chess", CHESS_SAMPLE, &limits);
    assert_eq!(
        execution.termination,
        Termination::LimitExceeded(Limit::CpuTime)
    );
    assert!(execution.cpu_time > Duration::from_millis(300));
    assert!(execution.cpu_time < Duration::from_millis(450));
    assert_eq!(
        verdict::judge(&execution, &Expected::integer(2)).verdict,
        Verdict::TimeLimitExceeded
    );
}

#[test]
fn sleeper_is_stopped_at_the_wall_clock_limit() {
    let mut limits = limits();
    limits.wall = Duration::from_millis(800);
    let execution = run_fixture("sleep", "chess", CHESS_SAMPLE, &limits);
    assert_eq!(
        execution.termination,
        Termination::LimitExceeded(Limit::WallTime)
    );
    // Stopped past the limit, but not for want of a CPU: it slept.
    assert!(execution.wall_time.saturating_sub(execution.cpu_wait) >= Duration::from_millis(800));
    assert!(execution.cpu_time < Duration::from_millis(300));
    let judgement = verdict::judge(&execution, &Expected::integer(2));
    assert_eq!(judgement.verdict, Verdict::TimeLimitExceeded);
    assert!(judgement.detail.contains("wall clock"), "{judgement}");
    assert!(judgement.detail.contains("sleeps"), "{judgement}");
}

#[test]
fn memory_hog_is_stopped_at_the_memory_limit() {
    let mut limits = limits();
    limits.memory_bytes = 128 * MIB;
    let execution = run_fixture("memory-hog", "chess", CHESS_SAMPLE, &limits);
    assert_eq!(
        execution.termination,
        Termination::LimitExceeded(Limit::Memory)
    );
    assert!(peak_memory(&execution) > 128 * MIB);
    // Sampling every few milliseconds stops it well before the address-space backstop.
    assert!(peak_memory(&execution) < limits.address_space_bytes());
    assert_eq!(
        verdict::judge(&execution, &Expected::integer(2)).verdict,
        Verdict::MemoryLimitExceeded
    );
}

/// As root the supervisor stops the storm; for other users RLIMIT_NPROC may make `fork` fail
/// first, and the fixture then kills its own group. Either way: a runtime error, no survivors.
#[test]
fn fork_storm_is_contained() {
    let execution = run_fixture("fork", "chess", CHESS_SAMPLE, &limits());
    let judgement = verdict::judge(&execution, &Expected::integer(2));
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
    let execution = run_fixture("flood", "chess", CHESS_SAMPLE, &limits());
    assert_eq!(
        execution.termination,
        Termination::LimitExceeded(Limit::Output)
    );
    assert_eq!(execution.stdout.len() as u64, MIB);
    assert!(execution.stderr.len() <= run::STDERR_TAIL);
    assert!(execution.stderr_bytes > 0);
    assert_eq!(
        verdict::judge(&execution, &Expected::integer(2)).verdict,
        Verdict::OutputLimitExceeded
    );
}

#[test]
fn grandchild_holding_stdout_is_killed() {
    let execution = run_within(
        &fixture_command("grandchild", "chess"),
        CHESS_SAMPLE,
        &limits(),
        &IoMode::Stdio,
        // Far less than the wall-clock limit: the run ends when the leader exits.
        NO_HANG,
    );
    assert_eq!(
        verdict::judge(&execution, &Expected::integer(2)).verdict,
        Verdict::Accepted
    );
    let stderr = String::from_utf8_lossy(&execution.stderr);
    let pid: i32 = stderr
        .lines()
        .find_map(|l| l.strip_prefix("grandchild pid "))
        .and_then(|p| p.trim().parse().ok())
        .unwrap_or_else(|| panic!("no grandchild pid in {stderr:?}"));
    let alive = procfs::group_members(execution.pgid)
        .iter()
        .any(|m| m.pid == pid && !m.is_zombie());
    assert!(!alive, "grandchild {pid} survived");
}

#[test]
fn program_that_never_reads_does_not_block_the_harness() {
    // Far more input than a pipe buffer holds.
    let input = "1 ".repeat(4 << 20);
    let execution = run_fixture("no-read", "chess", &input, &limits());
    assert_eq!(execution.termination, Termination::Exited(0));
    assert_eq!(
        verdict::judge(&execution, &Expected::integer(0)).verdict,
        Verdict::Accepted
    );
    assert_eq!(
        verdict::judge(&execution, &Expected::integer(5)).verdict,
        Verdict::WrongAnswer
    );
}

#[test]
fn garbage_is_a_presentation_error() {
    let execution = run_fixture("garbage", "chess", CHESS_SAMPLE, &limits());
    let judgement = verdict::judge(&execution, &Expected::integer(2));
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
    let crash = run_fixture("crash-max", "chess", &big, &limits());
    assert_eq!(
        crash.termination,
        Termination::Signaled(Signal(libc::SIGABRT))
    );
    let judgement = verdict::judge(&crash, &Expected::integer(0));
    assert_eq!(judgement.verdict, Verdict::RuntimeError);
    assert!(judgement.detail.contains("SIGABRT"), "{judgement}");

    let small = run_fixture("crash-max", "chess", CHESS_SAMPLE, &limits());
    assert_eq!(
        verdict::judge(&small, &Expected::integer(2)).verdict,
        Verdict::Accepted
    );
}

#[test]
fn exit_codes_and_signals_are_reported() {
    let bound = NO_HANG;
    let exit = run_within(&sh("exit 3"), "", &limits(), &IoMode::Stdio, bound);
    assert_eq!(exit.termination, Termination::Exited(3));
    assert_eq!(
        verdict::judge(&exit, &Expected::integer(0)).detail,
        "exit code 3"
    );

    let segv = run_within(&sh("kill -SEGV $$"), "", &limits(), &IoMode::Stdio, bound);
    assert_eq!(
        segv.termination,
        Termination::Signaled(Signal(libc::SIGSEGV))
    );
    assert!(
        verdict::judge(&segv, &Expected::integer(0))
            .detail
            .starts_with("killed by SIGSEGV")
    );

    // Output already written before a crash does not save the run.
    let late = run_within(&sh("echo 7; exit 1"), "", &limits(), &IoMode::Stdio, bound);
    assert_eq!(
        verdict::judge(&late, &Expected::integer(7)).verdict,
        Verdict::RuntimeError
    );
}

#[test]
fn stdio_programs_run_in_the_callers_directory() {
    let execution = run_within(&sh("pwd"), "", &limits(), &IoMode::Stdio, NO_HANG);
    let dir = String::from_utf8(execution.stdout).expect("UTF-8");
    assert_eq!(
        Path::new(dir.trim_end()),
        std::env::current_dir().expect("cwd")
    );
}

/// File I/O runs in a scratch directory of the calling thread: the same one for every run of
/// the thread, empty at the start of each, removed when the thread ends.
#[test]
fn file_io_runs_in_a_scratch_directory_emptied_between_runs() {
    let io = IoMode::files_named("chess");
    let program = sh("{ pwd; ls -A; } > chess.out; touch left-behind; mkdir left-dir");
    let (first, second, dir) = std::thread::spawn(move || {
        let bound = NO_HANG;
        let first = run_within(&program, CHESS_SAMPLE, &limits(), &io, bound);
        let second = run_within(&program, CHESS_SAMPLE, &limits(), &io, bound);
        let text = String::from_utf8(first.stdout.clone()).expect("UTF-8");
        let dir = PathBuf::from(text.lines().next().expect("pwd"));
        assert!(dir.is_dir(), "kept between runs of the thread");
        (first, second, dir)
    })
    .join()
    .expect("the thread's runs");
    assert_ne!(dir, std::env::current_dir().expect("cwd"));
    let listing = |e: &Execution| String::from_utf8_lossy(&e.stdout).into_owned();
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
    assert!(!dir.exists(), "{} outlived its thread", dir.display());
}

#[test]
fn file_io_reads_and_writes_files() {
    let io = IoMode::files_named("chess");
    let mut program = fixture_command("correct", "chess");
    program.push("--file-io".into());
    let bound = NO_HANG;
    let execution = run_within(&program, CHESS_SAMPLE, &limits(), &io, bound);
    assert_eq!(execution.stdout, b"2\n");
    assert_eq!(
        verdict::judge(&execution, &Expected::integer(2)).verdict,
        Verdict::Accepted
    );

    // Stdin is /dev/null in file mode: a program reading stdin finds an empty input.
    let stdin_reader = fixture_command("correct", "chess");
    let execution = run_within(&stdin_reader, CHESS_SAMPLE, &limits(), &io, bound);
    assert_eq!(execution.termination, Termination::Exited(3));

    // No output file at all is no output, and the judgement says so.
    let silent = vec![OsString::from("true")];
    let execution = run_within(&silent, CHESS_SAMPLE, &limits(), &io, bound);
    assert_eq!(execution.stdout, b"");
    let judgement = verdict::judge(&execution, &Expected::integer(2));
    assert_eq!(judgement.verdict, Verdict::PresentationError);
    assert_eq!(
        judgement.detail,
        "no output file chess.out; the program wrote nothing to stdout and left no other file"
    );

    // An output file over the limit is an output limit verdict.
    let mut small = limits();
    small.output_bytes = 1000;
    let big = sh("head -c 5000 /dev/zero | tr '\\0' 1 > chess.out");
    let execution = run_within(&big, "", &small, &io, bound);
    assert_eq!(
        execution.termination,
        Termination::LimitExceeded(Limit::Output)
    );
}

#[test]
fn relative_program_paths_are_taken_from_the_callers_directory() {
    let cwd = std::env::current_dir().expect("cwd");
    let Ok(relative) = fixture().strip_prefix(&cwd).map(Path::to_path_buf) else {
        // The build directory lies elsewhere (CARGO_TARGET_DIR); nothing to check.
        return;
    };
    let program = vec![
        Path::new(".").join(relative).into_os_string(),
        "correct".into(),
        "chess".into(),
    ];
    let execution = run_within(&program, CHESS_SAMPLE, &limits(), &IoMode::Stdio, NO_HANG);
    assert_eq!(
        verdict::judge(&execution, &Expected::integer(2)).verdict,
        Verdict::Accepted
    );
}

#[test]
fn programs_that_cannot_start_are_harness_errors() {
    let io = IoMode::Stdio;
    let missing = run::run(&["./no-such-program-here".into()], b"", &limits(), &io);
    match missing {
        Err(err @ RunError::Spawn { .. }) => {
            let chain = format!("{:#}", anyhow::Error::new(err));
            assert!(chain.contains("no-such-program-here"), "{chain}");
            assert!(chain.contains("No such file"), "{chain}");
        }
        other => panic!("expected a spawn error, got {other:?}"),
    }

    let not_found = run::run(&["no-such-program-in-path".into()], b"", &limits(), &io);
    let message = not_found.expect_err("not in PATH").to_string();
    assert!(message.contains("looked up in PATH"), "{message}");

    let dir = tempfile::tempdir().expect("tempdir");
    let plain = dir.path().join("not-executable");
    std::fs::write(&plain, "42\n").expect("write");
    let refused = run::run(&[plain.into_os_string()], b"", &limits(), &io);
    assert!(
        matches!(&refused, Err(RunError::Spawn { source, .. }) if source.kind() == std::io::ErrorKind::PermissionDenied),
        "{refused:?}"
    );
    let message = refused.expect_err("refused").to_string();
    assert!(message.contains("chmod +x"), "{message}");

    // A script without a `#!` line: the kernel cannot run it, and the message says why.
    use std::os::unix::fs::PermissionsExt;
    let script = dir.path().join("script.sh");
    std::fs::write(&script, "echo 2\n").expect("write");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
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
    assert!(message.contains("#!/bin/sh"), "{message}");

    assert!(matches!(
        run::run(&[], b"", &limits(), &io),
        Err(RunError::NoProgram)
    ));
}

#[test]
fn memory_of_a_normal_run_is_measured() {
    // dash or bash holds the 30 MB string in memory while building the variable.
    let program = sh("x=$(head -c 30000000 /dev/zero | tr '\\0' a); echo ${#x}");
    let execution = run_within(&program, "", &limits(), &IoMode::Stdio, NO_HANG);
    assert_eq!(execution.termination, Termination::Exited(0));
    assert_eq!(execution.stdout, b"30000000\n");
    let peak = peak_memory(&execution);
    assert!(peak > 30_000_000, "peak {peak}");
    assert!(peak < 256 * MIB, "peak {peak}");
}

#[test]
fn output_up_to_the_limit_is_kept_and_one_byte_more_is_not() {
    let mut small = limits();
    small.output_bytes = 1000;
    let bound = NO_HANG;
    let exact = sh("head -c 1000 /dev/zero | tr '\\0' 7");
    let execution = run_within(&exact, "", &small, &IoMode::Stdio, bound);
    assert_eq!(execution.termination, Termination::Exited(0));
    assert_eq!(execution.stdout.len(), 1000);

    let over = sh("head -c 1001 /dev/zero | tr '\\0' 7");
    let execution = run_within(&over, "", &small, &IoMode::Stdio, bound);
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
    let execution = run_within(
        &sh("exec 3>&1; p=$(setsid sh -c 'echo $$; exec sleep 60 >&3' &); echo $p >&2; echo 2"),
        "",
        &limits(),
        &IoMode::Stdio,
        NO_HANG,
    );
    assert_eq!(execution.stdout, b"2\n");
    assert_eq!(
        verdict::judge(&execution, &Expected::integer(2)).verdict,
        Verdict::Accepted
    );
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
    let execution = run_within(&program, "", &lim, &IoMode::Stdio, NO_HANG);
    let text = String::from_utf8_lossy(&execution.stdout).into_owned();
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
        let program: Vec<OsString> = vec![
            fixture().into(),
            "deep-stack".into(),
            mib.to_string().into(),
            "chess".into(),
        ];
        let limits = Limits {
            wall: Duration::from_secs(10),
            ..*limits
        };
        run_within(&program, CHESS_SAMPLE, &limits, &IoMode::Stdio, NO_HANG)
    };
    let execution = deep_stack(200, &limits());
    assert_eq!(
        execution.termination,
        Termination::Exited(0),
        "{}",
        String::from_utf8_lossy(&execution.stderr)
    );
    assert_eq!(execution.stdout, b"2\n");

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
    let execution = run_within(
        &fixture_command("escape-setsid", "chess"),
        CHESS_SAMPLE,
        &limits(),
        &IoMode::Stdio,
        NO_HANG,
    );
    assert_eq!(
        verdict::judge(&execution, &Expected::integer(2)).verdict,
        Verdict::Accepted
    );
    assert_gone(reported_pid(&execution, "escapee"), "duipai-fixture");
}

#[test]
fn an_orphan_of_a_double_fork_is_killed_with_the_run() {
    let execution = run_within(
        &fixture_command("escape-double-fork", "chess"),
        CHESS_SAMPLE,
        &limits(),
        &IoMode::Stdio,
        NO_HANG,
    );
    assert_eq!(
        verdict::judge(&execution, &Expected::integer(2)).verdict,
        Verdict::Accepted
    );
    assert_gone(reported_pid(&execution, "escapee"), "duipai-fixture");
}

/// The CPU time of a process outside the group counts: the spinning escapee is what exceeds
/// the CPU limit, while the leader sleeps.
#[test]
fn an_escaped_spinner_counts_against_the_cpu_limit() {
    let mut limits = limits();
    limits.cpu = Duration::from_millis(500);
    limits.wall = Duration::from_secs(60);
    let execution = run_fixture("escape-spin", "chess", CHESS_SAMPLE, &limits);
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
                      sleep 1.5; kill -0 $p && echo alive";
        run_within(&sh(script), "", &limits(), &IoMode::Stdio, NO_HANG)
    });
    // Runs of their own until the watcher's is over, however slowly a busy machine runs them.
    let mut runs = 0;
    while runs == 0 || !watcher.is_finished() {
        let execution = run_fixture("escape-double-fork", "chess", CHESS_SAMPLE, &limits());
        assert_eq!(
            verdict::judge(&execution, &Expected::integer(2)).verdict,
            Verdict::Accepted
        );
        assert_gone(reported_pid(&execution, "escapee"), "duipai-fixture");
        runs += 1;
    }
    let watched = watcher.join().expect("the watcher's run");
    assert_eq!(watched.stdout, b"alive\n", "{watched:?}");
    let orphan: i32 = String::from_utf8_lossy(&watched.stderr)
        .trim()
        .parse()
        .expect("the orphan's pid");
    assert_gone(orphan, "sleep");
}

// ---------------------------------------------------------------------------------------------
// Re-runs near the CPU limit.

fn burn(ms: u64) -> Vec<OsString> {
    vec![
        fixture().into(),
        "burn-cpu".into(),
        ms.to_string().into(),
        "chess".into(),
    ]
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
    let judgement = verdict::judge(&execution, &Expected::integer(2));
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
    assert_eq!(
        verdict::judge(&execution, &Expected::integer(2)).verdict,
        Verdict::Accepted
    );
}

#[test]
fn runs_far_from_the_limit_are_measured_once() {
    let quick = steady(&burn(50), &tight(), true);
    assert_eq!(quick.cpu_times.len(), 1);
    assert_eq!(
        verdict::judge(&quick, &Expected::integer(2)).verdict,
        Verdict::Accepted
    );

    // An endless loop is stopped past the band, at 1.5 times the limit, and not run again.
    let endless = steady(&fixture_command("slow", "chess"), &tight(), true);
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
    let plain = run_fixture("correct", "chess", CHESS_SAMPLE, &limits());
    assert_eq!(plain.cpu_times, [plain.cpu_time]);
}

// ---------------------------------------------------------------------------------------------
// Programs as users type them: relative paths mean the caller's directory.

#[test]
fn relative_arguments_name_the_callers_files_on_stdin_and_stdout() {
    let dir = test_dir();
    let script = dir.path().join("answer.sh");
    std::fs::write(&script, "read n m\necho 2\n").expect("write the script");
    let program = vec!["sh".into(), relative_to_cwd(&script).into_os_string()];
    let execution = run_within(&program, CHESS_SAMPLE, &limits(), &IoMode::Stdio, NO_HANG);
    assert_eq!(
        verdict::judge(&execution, &Expected::integer(2)).verdict,
        Verdict::Accepted,
        "{execution:?}"
    );

    // `env ./a.out`: the program path is an argument of another program.
    let through_env = vec![
        "env".into(),
        relative_to_cwd(&fixture()).into_os_string(),
        "correct".into(),
        "chess".into(),
    ];
    let execution = run_within(
        &through_env,
        CHESS_SAMPLE,
        &limits(),
        &IoMode::Stdio,
        NO_HANG,
    );
    assert_eq!(
        verdict::judge(&execution, &Expected::integer(2)).verdict,
        Verdict::Accepted,
        "{execution:?}"
    );
}

#[test]
fn relative_arguments_name_the_callers_files_with_file_io() {
    let io = IoMode::files_named("chess");
    let bound = NO_HANG;
    let dir = test_dir();
    let script = dir.path().join("answer.sh");
    std::fs::write(&script, "read n m < chess.in\necho 2 > chess.out\n").expect("write");
    let program = vec!["sh".into(), relative_to_cwd(&script).into_os_string()];
    let execution = run_within(&program, "1 1\n2\n0\n", &limits(), &io, bound);
    assert_eq!(
        verdict::judge(&execution, &Expected::integer(2)).verdict,
        Verdict::Accepted,
        "{execution:?}"
    );

    let through_env = vec![
        "env".into(),
        relative_to_cwd(&fixture()).into_os_string(),
        "correct".into(),
        "chess".into(),
        "--file-io".into(),
    ];
    let execution = run_within(&through_env, CHESS_SAMPLE, &limits(), &io, bound);
    assert_eq!(
        verdict::judge(&execution, &Expected::integer(2)).verdict,
        Verdict::Accepted,
        "{execution:?}"
    );

    // A bare file name (`python3 sol.py`): Cargo.toml of the package the tests run in.
    let bare = vec![
        "sh".into(),
        "-c".into(),
        "head -c 9 \"$1\" > chess.out".into(),
        "sh".into(),
        "Cargo.toml".into(),
    ];
    let execution = run_within(&bare, "", &limits(), &io, bound);
    assert_eq!(execution.stdout, b"[package]", "{execution:?}");
}

#[test]
fn a_missing_output_file_is_explained() {
    let io = IoMode::files_named("chess");
    let bound = NO_HANG;
    let printed = run_within(
        &fixture_command("file-to-stdout", "chess"),
        CHESS_SAMPLE,
        &limits(),
        &io,
        bound,
    );
    let file = printed.output_file.as_ref().expect("file I/O");
    assert!(!file.found);
    assert_eq!(
        (file.stdout_bytes, file.stdout_head.as_slice()),
        (2, &b"2\n"[..])
    );
    let judgement = verdict::judge(&printed, &Expected::integer(2));
    assert_eq!(judgement.verdict, Verdict::PresentationError);
    assert_eq!(
        judgement.detail,
        "no output file chess.out; the program wrote 2 bytes to stdout (\"2\\n\") and left no \
         other file"
    );

    let misnamed = run_within(
        &fixture_command("upper-out", "chess"),
        CHESS_SAMPLE,
        &limits(),
        &io,
        bound,
    );
    assert_eq!(
        misnamed.output_file.as_ref().unwrap().other_files,
        ["CHESS.OUT"]
    );
    assert_eq!(
        verdict::judge(&misnamed, &Expected::integer(2)).detail,
        "no output file chess.out; the program wrote nothing to stdout and left CHESS.OUT"
    );

    // An output file that is not a regular file is no output file.
    let fifo = run_within(&sh("mkfifo chess.out"), "", &limits(), &io, bound);
    let file = fifo.output_file.as_ref().unwrap();
    assert!(!file.found);
    assert_eq!(file.other_files, ["chess.out"]);
}
