//! The runner and the verdicts against real misbehaving programs (the `duipai-fixture` binary
//! and a few system tools). Every run must come back within a bound and leave no process of
//! its group alive.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::util::fixture;
use duipai::judge::verdict::{self, Verdict};
use duipai::run::{self, Execution, IoMode, Limit, Limits, RunError, Signal, Termination, procfs};

const CHESS_SAMPLE: &str = "2 3\n2 7 3\n9 1 2\n3 7 2\n2 3 1\n";
const CHESSBOARD_SAMPLE: &str = "4\nWBB.\nBWBW\nWBWW\nBBBW\n1 1 1 0\n1 1 1 1\n1 1 1 1\n1 1 1 1\n";
const MIB: u64 = 1024 * 1024;

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

fn run_fixture(behaviour: &str, problem: &str, input: &str, limits: &Limits) -> Execution {
    run_within(
        &fixture_command(behaviour, problem),
        input,
        limits,
        &IoMode::Stdio,
        limits.wall + Duration::from_secs(3),
    )
}

fn sh(script: &str) -> Vec<OsString> {
    vec!["sh".into(), "-c".into(), script.into()]
}

#[test]
fn correct_is_accepted() {
    let execution = run_fixture("correct", "chess", CHESS_SAMPLE, &limits());
    assert_eq!(execution.termination, Termination::Exited(0));
    assert_eq!(execution.stdout, b"2\n");
    let judgement = verdict::judge(&execution, 2);
    assert_eq!(judgement.verdict, Verdict::Accepted, "{judgement}");
    assert!(execution.cpu_time < Duration::from_millis(500));
    assert!(execution.wall_time < Duration::from_secs(2));
    // A quick program may end before the first sample: its peak is known only to be small.
    assert!(execution.peak_memory_bytes < 64 * MIB);
    assert!(execution.peak_processes <= 1);

    let board = run_fixture("correct", "chessboard", CHESSBOARD_SAMPLE, &limits());
    assert_eq!(verdict::judge(&board, 3).verdict, Verdict::Accepted);
}

#[test]
fn wrong_is_wrong_answer() {
    // The 1×1 board's answer is its A value, 3; A[1][1] is odd, so `wrong` adds one.
    let execution = run_fixture("wrong", "chess", "1 1\n3\n5\n", &limits());
    let judgement = verdict::judge(&execution, 3);
    assert_eq!(judgement.verdict, Verdict::WrongAnswer);
    assert_eq!(judgement.detail, "expected 3, found 4");
}

#[test]
fn busy_loop_is_stopped_at_the_cpu_limit() {
    let mut limits = limits();
    // A generous wall-clock limit, so that a loaded machine still hits the CPU limit first.
    limits.wall = Duration::from_secs(10);
    let execution = run_fixture("slow", "chess", CHESS_SAMPLE, &limits);
    assert_eq!(
        execution.termination,
        Termination::LimitExceeded(Limit::CpuTime)
    );
    assert!(execution.cpu_time > Duration::from_secs(1));
    assert!(execution.cpu_time < Duration::from_millis(1500));
    assert_eq!(
        verdict::judge(&execution, 2).verdict,
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
    assert!(execution.wall_time >= Duration::from_millis(800));
    assert!(execution.wall_time < Duration::from_secs(2));
    assert!(execution.cpu_time < Duration::from_millis(300));
    let judgement = verdict::judge(&execution, 2);
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
    assert!(execution.peak_memory_bytes > 128 * MIB);
    // Sampling every few milliseconds stops it well before the address-space backstop.
    assert!(execution.peak_memory_bytes < limits.address_space_bytes());
    assert_eq!(
        verdict::judge(&execution, 2).verdict,
        Verdict::MemoryLimitExceeded
    );
}

/// As root the supervisor stops the storm; for other users RLIMIT_NPROC may make `fork` fail
/// first, and the fixture then kills its own group. Either way: a runtime error, no survivors.
#[test]
fn fork_storm_is_contained() {
    let execution = run_fixture("fork", "chess", CHESS_SAMPLE, &limits());
    let judgement = verdict::judge(&execution, 2);
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
        verdict::judge(&execution, 2).verdict,
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
        Duration::from_millis(1500),
    );
    assert_eq!(verdict::judge(&execution, 2).verdict, Verdict::Accepted);
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
    assert_eq!(verdict::judge(&execution, 0).verdict, Verdict::Accepted);
    assert_eq!(verdict::judge(&execution, 5).verdict, Verdict::WrongAnswer);
}

#[test]
fn garbage_is_a_presentation_error() {
    let execution = run_fixture("garbage", "chess", CHESS_SAMPLE, &limits());
    let judgement = verdict::judge(&execution, 2);
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
    let judgement = verdict::judge(&crash, 0);
    assert_eq!(judgement.verdict, Verdict::RuntimeError);
    assert!(judgement.detail.contains("SIGABRT"), "{judgement}");

    let small = run_fixture("crash-max", "chess", CHESS_SAMPLE, &limits());
    assert_eq!(verdict::judge(&small, 2).verdict, Verdict::Accepted);
}

#[test]
fn exit_codes_and_signals_are_reported() {
    let bound = Duration::from_secs(3);
    let exit = run_within(&sh("exit 3"), "", &limits(), &IoMode::Stdio, bound);
    assert_eq!(exit.termination, Termination::Exited(3));
    assert_eq!(verdict::judge(&exit, 0).detail, "exit code 3");

    let segv = run_within(&sh("kill -SEGV $$"), "", &limits(), &IoMode::Stdio, bound);
    assert_eq!(
        segv.termination,
        Termination::Signaled(Signal(libc::SIGSEGV))
    );
    assert!(
        verdict::judge(&segv, 0)
            .detail
            .starts_with("killed by SIGSEGV")
    );

    // Output already written before a crash does not save the run.
    let late = run_within(&sh("echo 7; exit 1"), "", &limits(), &IoMode::Stdio, bound);
    assert_eq!(verdict::judge(&late, 7).verdict, Verdict::RuntimeError);
}

#[test]
fn stdio_programs_run_where_duipai_runs() {
    // `python3 sol.py`, `sh -c ./a.out`: relative names mean what they mean in the shell.
    let execution = run_within(
        &sh("pwd"),
        "",
        &limits(),
        &IoMode::Stdio,
        Duration::from_secs(3),
    );
    let text = String::from_utf8(execution.stdout).expect("UTF-8");
    assert_eq!(
        PathBuf::from(text.trim_end()),
        std::env::current_dir().expect("cwd")
    );
}

#[test]
fn file_io_runs_in_a_fresh_directory_that_is_removed_with_file_arguments_absolute() {
    // The test binary's directory holds `Cargo.toml` relative to the package root, which is
    // the working directory of `cargo test`.
    let cwd = std::env::current_dir().expect("cwd");
    assert!(cwd.join("Cargo.toml").exists());
    let program: Vec<std::ffi::OsString> = vec![
        "sh".into(),
        "-c".into(),
        "pwd > chess.out; ls -A | wc -l >> chess.out; echo \"$0\" >> chess.out".into(),
        "Cargo.toml".into(),
    ];
    let execution = run_within(
        &program,
        "",
        &limits(),
        &IoMode::files_named("chess"),
        Duration::from_secs(3),
    );
    let text = String::from_utf8(execution.stdout).expect("UTF-8");
    let mut lines = text.lines();
    let dir = PathBuf::from(lines.next().expect("pwd"));
    assert_ne!(dir, cwd);
    // Only chess.in (and chess.out, being written) are there.
    assert_eq!(lines.next().map(str::trim), Some("2"), "{text}");
    assert_eq!(
        lines.next().map(PathBuf::from),
        Some(cwd.join("Cargo.toml")),
        "{text}"
    );
    assert!(!dir.exists(), "{} was left behind", dir.display());
}

#[test]
fn file_io_reads_and_writes_files() {
    let io = IoMode::files_named("chess");
    let mut program = fixture_command("correct", "chess");
    program.push("--file-io".into());
    let bound = Duration::from_secs(5);
    let execution = run_within(&program, CHESS_SAMPLE, &limits(), &io, bound);
    assert_eq!(execution.stdout, b"2\n");
    assert_eq!(verdict::judge(&execution, 2).verdict, Verdict::Accepted);

    // Stdin is /dev/null in file mode: a program reading stdin finds an empty input.
    let stdin_reader = fixture_command("correct", "chess");
    let execution = run_within(&stdin_reader, CHESS_SAMPLE, &limits(), &io, bound);
    assert_eq!(execution.termination, Termination::Exited(3));

    // No output file at all is a presentation error that says so.
    let silent = vec![OsString::from("true")];
    let execution = run_within(&silent, CHESS_SAMPLE, &limits(), &io, bound);
    let judgement = verdict::judge(&execution, 2);
    assert_eq!(judgement.verdict, Verdict::PresentationError);
    assert_eq!(
        judgement.detail,
        "no chess.out was written; it wrote nothing else"
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
    let execution = run_within(
        &program,
        CHESS_SAMPLE,
        &limits(),
        &IoMode::Stdio,
        Duration::from_secs(3),
    );
    assert_eq!(verdict::judge(&execution, 2).verdict, Verdict::Accepted);
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

    assert!(matches!(
        run::run(&[], b"", &limits(), &io),
        Err(RunError::NoProgram)
    ));
}

#[test]
fn memory_of_a_normal_run_is_measured() {
    // dash or bash holds the 30 MB string in memory while building the variable.
    let program = sh("x=$(head -c 30000000 /dev/zero | tr '\\0' a); echo ${#x}");
    let execution = run_within(
        &program,
        "",
        &limits(),
        &IoMode::Stdio,
        Duration::from_secs(5),
    );
    assert_eq!(execution.termination, Termination::Exited(0));
    assert_eq!(execution.stdout, b"30000000\n");
    assert!(
        execution.peak_memory_bytes > 30_000_000,
        "peak {}",
        execution.peak_memory_bytes
    );
    assert!(execution.peak_memory_bytes < 256 * MIB);
}

#[test]
fn output_up_to_the_limit_is_kept_and_one_byte_more_is_not() {
    let mut small = limits();
    small.output_bytes = 1000;
    let bound = Duration::from_secs(3);
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
    // `setsid` moves the sleeper out of the group: the harness cannot kill it (it is no
    // sandbox), but must not wait for it to close the pipe either.
    let execution = run_within(
        &sh("setsid sleep 3 & echo 2"),
        "",
        &limits(),
        &IoMode::Stdio,
        Duration::from_millis(1500),
    );
    assert_eq!(execution.stdout, b"2\n");
    assert_eq!(verdict::judge(&execution, 2).verdict, Verdict::Accepted);
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
    let execution = run_within(&program, "", &lim, &IoMode::Stdio, Duration::from_secs(3));
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
