//! duipai under hostile programs and hostile input, end to end: the real `duipai test`,
//! `duipai stress` and `duipai pack` against fixtures that spin, sleep, hog memory, fork,
//! flood, leave grandchildren, ignore their input or print garbage, interrupted by SIGINT at
//! awkward moments; and the input parsers fed arbitrary and almost-valid bytes.
//!
//! Every fixture process records its pid (`DUIPAI_FIXTURE_PIDS`), so each test also checks
//! that nothing it started outlives it. Every duipai process is awaited against a stated
//! bound and killed (failing the test) if it overstays.

use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::util::{Duipai, PidLog, Ran, assert_contains, parse_file};
use duipai::problem::{
    CHESS, CHESSBOARD, ChessProblem, GenParams, Instance, ParamValue, Problem, SizeRange, Spec,
};
use proptest::prelude::*;
use serde_json::Value;

/// Small limits, so that every hostile run is stopped within about a second.
const LIMITS: [&str; 10] = [
    "--time-limit",
    "300",
    "--wall-limit",
    "1000",
    "--memory-limit",
    "64",
    "--process-limit",
    "16",
    "--output-limit",
    "1",
];

/// [`LIMITS`] for `behaviour`: the spinning fixture (`slow`), which burns its whole CPU limit
/// and half as much again on every case, gets 100 ms rather than 300 (the same verdict, a
/// third of the CPU). The others keep 300 ms: the fork bomb spends up to ~220 ms of CPU
/// before it reaches the process limit, and would be a time limit verdict first. The
/// sleeping fixture (`sleep`), which waits out the wall-clock limit on every case, gets 300 ms
/// of it rather than 1000.
fn limits(behaviour: &str) -> [&'static str; 10] {
    let mut limits = LIMITS;
    match behaviour {
        "slow" => limits[1] = SLOW_TIME_LIMIT,
        "sleep" => limits[3] = SLEEP_WALL_LIMIT,
        _ => {}
    }
    limits
}

/// The CPU limit of the `slow` fixture's runs, in ms.
const SLOW_TIME_LIMIT: &str = "100";

/// The wall-clock limit of the `sleep` fixture's runs, in ms.
const SLEEP_WALL_LIMIT: &str = "300";

/// How long a `duipai test` or `duipai stress` run on a hostile fixture may take: a bound that
/// catches a hang, not a measurement. On an idle machine a case takes at most the 1 s
/// wall-clock limit; on a busy one a spinning program is given the time it waits for a CPU
/// until its 300 ms of CPU time (ten times the wall-clock limit, then twice and four times
/// that if it was starved), and minimization probes it again for up to its 30 s budget.
const RUN_BOUND: Duration = Duration::from_secs(300);

/// How long the recorded processes get to disappear after duipai returned. duipai itself
/// waits for the groups it kills, so this only absorbs the kernel's own delay.
const GRACE: Duration = Duration::from_millis(500);

const CHESS_SAMPLE: &str = "2 3\n2 7 3\n9 1 2\n3 7 2\n2 3 1\n";
/// The statement's sample answer (PROBLEMS.md).
const CHESS_SAMPLE_ANSWER: i64 = 2;
/// A 1×1 board of zeros: the answer is 0, which is also what `no-read` prints.
const CHESS_ZERO: &str = "1 1\n0\n0\n";

/// A 10×10 chess board (the largest): `crash-max` aborts on it.
fn chess_max() -> String {
    let row = format!("{}\n", ["1"; 10].join(" "));
    format!("10 10\n{}", row.repeat(20))
}

/// A case directory: `NAME.in` with `NAME.ans` for each (name, input, answer).
fn case_dir(cases: &[(&str, &str, i64)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, input, answer) in cases {
        fs::write(dir.path().join(format!("{name}.in")), input).expect("write input");
        fs::write(
            dir.path().join(format!("{name}.ans")),
            format!("{answer}\n"),
        )
        .expect("write answer");
    }
    dir
}

/// The usual two cases: the sample (answer 2) and the zero board (answer 0).
fn two_cases() -> tempfile::TempDir {
    case_dir(&[
        ("a", CHESS_SAMPLE, CHESS_SAMPLE_ANSWER),
        ("b", CHESS_ZERO, 0),
    ])
}

/// `duipai` in `dir`, with the fixture programs recording their pids in `pids`: without
/// containment, so that the fixtures are duipai's own children with its environment, and
/// what the runner does without a cgroup and namespaces is what is tested (the contained
/// runs are `contained.rs`'s).
fn logged(dir: &Path, pids: &PidLog) -> Duipai {
    Duipai::new()
        .current_dir(dir)
        .env(PidLog::VAR, pids.path())
        .uncontained()
}

/// Checks a saved trio `STEM.in`, `.ans`, `.out`: the input is valid, the answer is the
/// reference answer of the input, and the program's output is there. Returns the instance.
fn check_saved_case(problem: &'static dyn Problem, input: &Path) -> Box<dyn Instance> {
    let instance = parse_file(problem, input);
    let ans = fs::read_to_string(input.with_extension("ans"))
        .unwrap_or_else(|e| panic!("answer beside {}: {e}", input.display()));
    assert_eq!(ans, instance.answer_text(), "{}", input.display());
    assert!(
        input.with_extension("out").is_file(),
        "no .out beside {}",
        input.display()
    );
    instance
}

/// Every file below `dir`, recursively.
fn files_below(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

fn assert_no_temporary_files(dir: &Path) {
    let tmp: Vec<PathBuf> = files_below(dir)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "tmp"))
        .collect();
    assert!(tmp.is_empty(), "temporary files left behind: {tmp:?}");
}

// ---------------------------------------------------------------------------------------------
// `duipai test` on each hostile fixture.

/// Runs `duipai test chess DIR --json -j 2 LIMITS -- fixture BEHAVIOUR chess` ([`limits`]) with
/// the pid log, bounded; returns what it did and how long it took.
fn test_bounded(behaviour: &str, dir: &Path, pids: &PidLog) -> (Ran, Duration) {
    logged(dir, pids)
        .args(["test", "chess", ".", "--json", "-j", "2"])
        .args(limits(behaviour))
        .fixture([behaviour, "chess"])
        .start()
        .finish_within(RUN_BOUND)
}

/// Runs `duipai test chess DIR --json LIMITS -- fixture BEHAVIOUR chess` and checks the
/// verdict of every case (in file-name order), the exit status, the bound and the survivors.
fn test_verdicts(behaviour: &str, dir: &Path, verdicts: &[&str]) -> Value {
    let pids = PidLog::new();
    let (out, took) = test_bounded(behaviour, dir, &pids);
    let report = out.json();
    let got: Vec<&str> = report["cases"]
        .as_array()
        .unwrap_or_else(|| panic!("no cases in {report}"))
        .iter()
        .map(|c| c["verdict"].as_str().unwrap_or("?"))
        .collect();
    assert_eq!(got, verdicts, "{behaviour}: {report}");
    let all_accepted = verdicts.iter().all(|&v| v == "AC");
    out.code(if all_accepted { 0 } else { 1 });
    assert_eq!(report["status"], if all_accepted { "ok" } else { "failed" });
    let recorded = pids.assert_none_alive(GRACE);
    // Each case started at least one fixture process (the no-read one too).
    assert!(recorded >= verdicts.len(), "{behaviour}: {recorded} pids");
    eprintln!("{behaviour}: {took:?}, {recorded} fixture processes");
    report
}

/// [`test_verdicts`] on [`two_cases`].
fn two_case_verdicts(behaviour: &str, verdicts: &[&str]) -> Value {
    let dir = two_cases();
    test_verdicts(behaviour, dir.path(), verdicts)
}

#[test]
fn test_slow_is_tle() {
    let report = two_case_verdicts("slow", &["TLE", "TLE"]);
    for case in report["cases"].as_array().unwrap() {
        // Stopped at the CPU limit: the time it waited for a CPU on a busy machine is not
        // held against it (unless it waited ten times the wall-clock limit).
        let (cpu, wall) = (
            case["cpu_ms"].as_u64().unwrap(),
            case["wall_ms"].as_u64().unwrap(),
        );
        let limit: u64 = SLOW_TIME_LIMIT.parse().unwrap();
        assert!(cpu >= limit || wall >= 10_000, "{case}");
    }
}

#[test]
fn test_sleep_is_tle() {
    let report = two_case_verdicts("sleep", &["TLE", "TLE"]);
    let limit: u64 = SLEEP_WALL_LIMIT.parse().unwrap();
    for case in report["cases"].as_array().unwrap() {
        assert!(case["wall_ms"].as_u64().unwrap() >= limit, "{case}");
        assert!(
            case["detail"].as_str().unwrap().contains("wall clock"),
            "{case}"
        );
    }
}

#[test]
fn test_memory_hog_is_mle() {
    two_case_verdicts("memory-hog", &["MLE", "MLE"]);
}

#[test]
fn test_fork_is_re() {
    two_case_verdicts("fork", &["RE", "RE"]);
}

#[test]
fn test_flood_is_ole() {
    two_case_verdicts("flood", &["OLE", "OLE"]);
}

#[test]
fn test_grandchild_is_ac_and_reaped() {
    let dir = two_cases();
    let pids = PidLog::new();
    let (out, took) = test_bounded("grandchild", dir.path(), &pids);
    let report = out.success().json();
    // Accepted: the run ended when the program exited; waiting for the sleeping copy that
    // holds its stdout would have ended it at the wall-clock limit, a TLE.
    assert_eq!(report["status"], "ok", "took {took:?}: {report}");
    // Two programs, and their sleeping copies unless the kill got there before they recorded.
    let recorded = pids.assert_none_alive(GRACE);
    assert!((2..=4).contains(&recorded), "{recorded} pids");
}

/// A program that leaves its process group (`setsid`) or orphans a process (a double fork)
/// is judged on its answer, and nothing it started outlives the run: duipai is the
/// escapee's subreaper and kills it with the run.
#[test]
fn test_escapees_are_ac_and_leave_nothing() {
    for behaviour in ["escape-setsid", "escape-double-fork"] {
        // Programs print the correct answer, so both cases are accepted; each recorded
        // itself and its escapee.
        let report = two_case_verdicts(behaviour, &["AC", "AC"]);
        assert_eq!(report["status"], "ok");
        // The verdict names the escapee duipai killed.
        for case in report["cases"].as_array().unwrap() {
            assert_eq!(case["left_behind"], 1, "{behaviour}: {case}");
        }
    }
}

#[test]
fn test_no_read_is_judged_by_its_output() {
    // 0 is right for the zero board and wrong for the sample.
    two_case_verdicts("no-read", &["WA", "AC"]);
}

#[test]
fn test_garbage_is_pe() {
    two_case_verdicts("garbage", &["PE", "PE"]);
}

#[test]
fn test_crash_max_is_re_on_the_largest_board_only() {
    let big = chess_max();
    // All ones, 100 cells: both players take 50.
    let dir = case_dir(&[("a", CHESS_SAMPLE, CHESS_SAMPLE_ANSWER), ("big", &big, 0)]);
    let report = test_verdicts("crash-max", dir.path(), &["AC", "RE"]);
    let detail = report["cases"][1]["detail"].as_str().unwrap();
    assert_contains(detail, "SIGABRT");
}

// ---------------------------------------------------------------------------------------------
// `duipai stress --iterations 3` on each hostile fixture.

/// Runs stress with `gen` flags on `behaviour`, `-j 2`, saving into a fresh directory.
fn stress(behaviour: &str, gen_flags: &[&str]) -> (Ran, Value, tempfile::TempDir, PidLog) {
    let dir = tempfile::tempdir().expect("tempdir");
    let pids = PidLog::new();
    let (out, took) = logged(dir.path(), &pids)
        .args(["stress", "chess", "--json", "-j", "2", "--iterations", "3"])
        .args(gen_flags)
        .args(["--save", "saved"])
        .args(limits(behaviour))
        .fixture([behaviour, "chess"])
        .start()
        .finish_within(RUN_BOUND);
    let report = out.json();
    let recorded = pids.assert_none_alive(GRACE);
    eprintln!("stress {behaviour}: {took:?}, {recorded} fixture processes");
    (out, report, dir, pids)
}

/// Stress fails on the first seed with `verdict`, saves the case as found and the minimized
/// case, both complete. Returns the minimized instance.
fn stress_fails(behaviour: &str, gen_flags: &[&str], verdict: &str) -> Box<dyn Instance> {
    let (out, report, dir, _pids) = stress(behaviour, gen_flags);
    out.code(1);
    assert_eq!(report["status"], "failed", "{report}");
    assert_eq!(report["verdict"], verdict, "{behaviour}: {report}");
    // Every seed fails these fixtures; the lowest, the first, is the one reported.
    assert_eq!(report["seed"], 1, "{report}");
    let input = dir.path().join(report["input"].as_str().expect("input"));
    assert_eq!(input, dir.path().join("saved/chess-1.in"));
    let original = dir.path().join(report["original_input"].as_str().unwrap());
    assert_eq!(original, dir.path().join("saved/chess-1.original.in"));
    check_saved_case(&CHESS, &original);
    assert_no_temporary_files(dir.path());
    check_saved_case(&CHESS, &input)
}

/// 1×1 boards of zeros: nothing to minimize, so only the first runs are hostile.
const TINY: [&str; 6] = ["--n", "1", "--m", "1", "--max-value", "0"];

#[test]
fn stress_slow_is_tle() {
    stress_fails("slow", &TINY, "TLE");
}

#[test]
fn stress_sleep_is_tle() {
    stress_fails("sleep", &TINY, "TLE");
}

#[test]
fn stress_memory_hog_is_mle() {
    stress_fails("memory-hog", &TINY, "MLE");
}

#[test]
fn stress_fork_is_re() {
    stress_fails("fork", &TINY, "RE");
}

#[test]
fn stress_flood_is_ole() {
    let (out, report, _dir, _pids) = stress("flood", &TINY);
    let stdout = out.code(1).output.stdout;
    assert_eq!(report["verdict"], "OLE", "{report}");
    // The report quotes a bounded prefix of the output, not the flood.
    assert!(report["actual"].as_str().unwrap().len() <= 4096);
    assert!(stdout.len() < 64 * 1024, "{} bytes", stdout.len());
}

#[test]
fn stress_garbage_is_pe() {
    stress_fails("garbage", &TINY, "PE");
}

#[test]
fn stress_no_read_is_wa_and_minimized_to_a_one() {
    // 1×1 boards with A up to 5: the answer is A, no-read prints 0.
    let small = stress_fails(
        "no-read",
        &["--n", "1", "--m", "1", "--max-value", "5"],
        "WA",
    );
    let c = small.first_case::<ChessProblem>().expect("chess");
    assert_eq!((c.n, c.m, c.a[0][0]), (1, 1, 1));
}

#[test]
fn stress_crash_max_is_re_and_keeps_the_size() {
    let small = stress_fails(
        "crash-max",
        &["--n", "10", "--m", "10", "--max-value", "0"],
        "RE",
    );
    let c = small.first_case::<ChessProblem>().expect("chess");
    assert_eq!((c.n, c.m), (10, 10));
}

#[test]
fn stress_grandchild_passes_and_leaves_nothing() {
    let (out, report, dir, pids) = stress("grandchild", &["--n", "1..3", "--m", "1..3"]);
    out.success();
    assert_eq!(report["status"], "ok");
    assert_eq!(report["cases"], 3);
    assert_eq!(report["interrupted"], false);
    assert!(!dir.path().join("saved").exists());
    let recorded = pids.pids().len();
    assert!(
        (3..=6).contains(&recorded),
        "three programs and their copies: {recorded}"
    );
}

#[test]
fn stress_escapees_pass_and_leave_nothing() {
    for behaviour in ["escape-setsid", "escape-double-fork"] {
        let (out, report, dir, pids) = stress(behaviour, &["--n", "1..3", "--m", "1..3"]);
        out.success();
        assert_eq!(report["status"], "ok");
        assert_eq!(report["cases"], 3);
        assert!(!dir.path().join("saved").exists());
        // Three programs, each with its escapee (and, for the double fork, the process that
        // forked it), all recorded and all gone (`stress` checked that).
        let recorded = pids.pids().len();
        assert!(recorded >= 6, "{behaviour}: {recorded} pids");
    }
}

// ---------------------------------------------------------------------------------------------
// Interrupts.

/// Polls `ready` every few milliseconds until it holds; fails the test after `bound`.
fn wait_for(what: &str, bound: Duration, mut ready: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ready() {
        assert!(start.elapsed() < bound, "waited {bound:?} for {what}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// How long duipai may take to stop once interrupted: kill the running program, save what it
/// has, report.
const STOP_BOUND: Duration = Duration::from_secs(3);

#[test]
fn stress_interrupted_while_minimizing_keeps_complete_cases() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pids = PidLog::new();
    // Every case fails slowly (the 300 ms wall-clock limit) and every smaller board fails
    // too, so minimization goes on one slow run after another until interrupted.
    let mut duipai = logged(dir.path(), &pids)
        .args(["stress", "chess", "--json", "-j", "1"])
        .args(["--n", "3", "--m", "3", "--save", "saved"])
        .args(["--time-limit", "300", "--wall-limit", "300"])
        .fixture(["sleep", "chess"])
        .start();
    let original = dir.path().join("saved/chess-1.original.in");
    wait_for("the saved failing case", Duration::from_secs(10), || {
        assert!(!duipai.has_exited(), "stress ended before saving a case");
        original.exists()
    });
    assert!(
        duipai.signal(libc::SIGINT),
        "duipai ended before the interrupt"
    );
    let interrupted = Instant::now();
    let (out, _) = duipai.finish_within(STOP_BOUND);
    let stopped = interrupted.elapsed();
    let out = out.code(1);
    let report = out.json();
    assert_eq!(report["status"], "failed");
    assert_eq!(report["verdict"], "TLE");
    assert!(
        out.stderr().contains("(interrupted; cut short: "),
        "minimization was not interrupted:\n{}",
        out.stderr()
    );
    // The case as found, complete: valid input, the reference answer, the (empty) output.
    let found = check_saved_case(&CHESS, &original);
    assert_eq!(
        fs::read(original.with_extension("out")).unwrap(),
        b"",
        "sleep prints nothing"
    );
    // The smallest case so far, which the report points at, complete too.
    let input = dir.path().join(report["input"].as_str().unwrap());
    assert_eq!(input, dir.path().join("saved/chess-1.in"));
    let small = check_saved_case(&CHESS, &input);
    assert!(small.size().measure[0] <= found.size().measure[0]);
    // Nothing else: no temporary file, no stray name.
    assert_no_temporary_files(dir.path());
    let names: Vec<String> = files_below(&dir.path().join("saved"))
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        [
            "chess-1.ans",
            "chess-1.err",
            "chess-1.in",
            "chess-1.meta",
            "chess-1.original.ans",
            "chess-1.original.err",
            "chess-1.original.in",
            "chess-1.original.out",
            "chess-1.out"
        ]
    );
    pids.assert_none_alive(GRACE);
    eprintln!("stopped {stopped:?} after SIGINT");
}

#[test]
fn stress_interrupted_with_no_failure_exits_130() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pids = PidLog::new();
    let mut duipai = logged(dir.path(), &pids)
        .args(["stress", "chess", "--json", "-j", "2", "--n", "1..4"])
        .fixture(["correct", "chess"])
        .start();
    // A few programs have run: the interrupt handler is in place and cases are under way.
    wait_for("some cases", Duration::from_secs(10), || {
        pids.pids().len() >= 5
    });
    assert!(
        duipai.signal(libc::SIGINT),
        "duipai ended before the interrupt"
    );
    let (out, _) = duipai.finish_within(STOP_BOUND);
    // No failure found is not a pass: the search was cut short (a CI job killed by its
    // timeout must not succeed).
    let out = out.code(130);
    let report = out.json();
    assert_eq!(report["status"], "interrupted");
    assert_eq!(report["interrupted"], true);
    assert!(report["cases"].as_u64().unwrap() >= 1, "{report}");
    assert!(out.stderr().contains("interrupted: no failure"));
    assert!(!dir.path().join("duipai-failures").exists());
    pids.assert_none_alive(GRACE);
}

#[test]
fn pack_interrupted_leaves_only_complete_files() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pack = dir.path().join("pack");
    let mut duipai = Duipai::new()
        .current_dir(dir.path())
        .args(["pack", "chessboard", "--out"])
        .arg(&pack)
        .start();
    let inputs = || {
        files_below(&pack)
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "in"))
            .count()
    };
    // Interrupted early, a few tests in (the whole pack takes seconds in a debug build).
    wait_for("the first tests", Duration::from_secs(10), || {
        duipai.has_exited() || inputs() >= 2
    });
    // A fast (release) build may have finished already: then there is nothing to interrupt.
    let _ = duipai.signal(libc::SIGINT);
    let (out, _) = duipai.finish_within(STOP_BOUND);
    let status = out.output.status;
    let finished = status.success();
    if !finished {
        // The interrupt is handled: pack stops between tests, says so, exits 130.
        assert_eq!(status.code(), Some(130), "{status:?}");
        let says = out.stderr();
        assert_contains(&says, "duipai: interrupted: stopped after");
    }
    // The manifest is written first with the pack marked incomplete, listing every file it
    // may write, and the mark goes only when the pack is finished.
    let manifest = fs::read_to_string(pack.join("manifest.txt")).expect("a manifest");
    assert_eq!(
        !manifest.contains("\n# INCOMPLETE"),
        finished,
        "only a finished pack is unmarked: {status:?}\n{manifest}"
    );
    assert!(
        manifest.contains("\n24.ans\t"),
        "every file is named: {manifest}"
    );
    let mut checked = 0;
    for path in files_below(&pack) {
        match path.extension().and_then(OsStr::to_str) {
            Some("in") => {
                let instance = parse_file(&CHESSBOARD, &path);
                if let Ok(ans) = fs::read_to_string(path.with_extension("ans")) {
                    assert_eq!(ans, instance.answer_text(), "{}", path.display());
                }
                checked += 1;
            }
            Some("ans") => {
                // An answer may precede its input, but it is whole: one integer and a newline.
                let text = fs::read_to_string(&path).unwrap();
                assert!(
                    text.ends_with('\n') && text.trim_end().parse::<i64>().is_ok(),
                    "{}: {text:?}",
                    path.display()
                );
            }
            Some("txt") => {}
            // No temporary file either: the write in progress is finished first.
            _ => panic!("unexpected file {}", path.display()),
        }
    }
    assert!(checked >= 2, "only {checked} inputs");
    eprintln!("pack: {status:?} with {checked} inputs written");
}

/// Starts `duipai ARGS -j 2 --time-limit 5000 -- fixture sleepers chess` (each program and its
/// two copies sleep forever), waits until both programs are running with their copies, sends
/// `signal` and checks that duipai stops within [`STOP_BOUND`] and that every process is gone.
fn interrupt_sleepers(args: &[&str], signal: i32) -> Ran {
    interrupt_while("sleepers", 3, args, signal)
}

/// Starts `duipai ARGS -j 2 --time-limit 5000 -- fixture BEHAVIOUR chess`, waits until both
/// programs are running with `per_program` recorded processes each, sends `signal` and checks
/// that duipai stops within [`STOP_BOUND`] and that every process is gone.
fn interrupt_while(behaviour: &str, per_program: usize, args: &[&str], signal: i32) -> Ran {
    let dir = two_cases();
    let pids = PidLog::new();
    // Long limits: only the interrupt ends these runs.
    let mut duipai = logged(dir.path(), &pids)
        .args(args)
        .args(["-j", "2", "--time-limit", "5000"])
        .fixture([behaviour, "chess"])
        .start();
    wait_for(
        "the programs and their copies",
        Duration::from_secs(10),
        || {
            assert!(!duipai.has_exited(), "duipai ended before the interrupt");
            pids.pids().len() >= 2 * per_program
        },
    );
    assert!(duipai.signal(signal), "duipai ended before the interrupt");
    let (out, _) = duipai.finish_within(STOP_BOUND);
    pids.assert_none_alive(GRACE);
    out
}

#[test]
fn test_interrupted_kills_every_process_it_started() {
    let out = interrupt_sleepers(&["test", "chess", ".", "--json"], libc::SIGINT);
    let out = out.code(130);
    assert_contains(&out.stderr(), "duipai: interrupted: 0 of 2 cases judged");
    let report = out.json();
    assert_eq!(report["status"], "interrupted", "{report}");
    // Runs cut short by the interrupt are not judged.
    assert!(!out.stdout().contains("RE "), "{}", out.stdout());
}

/// Interrupted while each program sleeps beside a process that left its group: the
/// escapees go too.
#[test]
fn test_interrupted_kills_escaped_processes() {
    let out = interrupt_while("escape-wait", 2, &["test", "chess", "."], libc::SIGINT);
    let out = out.code(130);
    assert_contains(&out.stderr(), "interrupted");
}

#[test]
fn stress_interrupted_kills_escaped_processes() {
    let out = interrupt_while(
        "escape-wait",
        2,
        &["stress", "chess", "--json"],
        libc::SIGINT,
    );
    assert_eq!(out.code(130).json()["status"], "interrupted");
}

/// `judge` interrupted while two submissions sleep (each beside two copies of itself): it
/// exits 130 only once every process it started is gone, none left running past it.
#[test]
fn judge_interrupted_leaves_no_solution_running() {
    let dir = two_cases();
    fs::write(dir.path().join("duipai.toml"), "problem = \"chess\"\n").unwrap();
    let accepted = dir.path().join("submissions/accepted");
    fs::create_dir_all(&accepted).unwrap();
    for name in ["one.sh", "two.sh"] {
        let script = format!(
            "#!/bin/sh\nexec '{}' sleepers chess\n",
            crate::util::fixture().display()
        );
        fs::write(accepted.join(name), script).unwrap();
        fs::set_permissions(
            accepted.join(name),
            std::os::unix::fs::PermissionsExt::from_mode(0o755),
        )
        .unwrap();
    }
    let pids = PidLog::new();
    let mut duipai = logged(dir.path(), &pids)
        .args(["judge", "--tests", ".", "-j", "2", "--time-limit", "5000"])
        .start();
    wait_for(
        "both submissions and their copies",
        Duration::from_secs(20),
        || {
            assert!(!duipai.has_exited(), "duipai ended before the interrupt");
            pids.pids().len() >= 6
        },
    );
    assert!(
        duipai.signal(libc::SIGINT),
        "duipai ended before the interrupt"
    );
    let (out, _) = duipai.finish_within(STOP_BOUND);
    // No grace: at duipai's exit, every process it started is already gone.
    pids.assert_none_alive(Duration::ZERO);
    assert_contains(
        &out.code(130).stderr(),
        "interrupted before every submission ran on every test",
    );
}

/// `pack` writes no file Windows keeps for a device: a problem named `con` would make
/// `con.zip`, one named `com` the tests `com1.in`, ...; it is refused before anything is
/// written, in any case.
#[test]
fn pack_refuses_names_windows_keeps_for_devices() {
    for name in ["con", "Com", "lpt", "AUX"] {
        let dir = tempfile::tempdir().unwrap();
        let ran = Duipai::new()
            .current_dir(dir.path())
            .args(["pack", name, "--layout", "luogu", "--out", "out"])
            .run()
            .code(2);
        assert_contains(&ran.stderr(), "a name Windows keeps for a device");
        assert!(
            !dir.path().join("out").exists(),
            "{name}: nothing is written"
        );
    }
}

/// The scratch folders (`duipai-run-PID-START-...`) of the duipai processes in `tmp` named
/// by `pid`.
fn scratch_folders(tmp: &Path, pid: i32) -> Vec<PathBuf> {
    let prefix = format!("duipai-run-{pid}-");
    fs::read_dir(tmp)
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
                .map(|e| e.path())
                .collect()
        })
        .unwrap_or_default()
}

/// `kill -9` leaves a run's scratch folders: the next duipai removes them, told by the pid
/// and start time in their names, and leaves those of a run still going.
#[test]
fn after_kill_9_the_next_run_removes_the_stale_scratch_folders() {
    let tmp = tempfile::tempdir().unwrap();
    let cases = case_dir(&[("a", CHESS_ZERO, 0)]);
    let sleeper = cases.path().join("sleep.sh");
    fs::write(&sleeper, "#!/bin/sh\nexec sleep 60\n").unwrap();
    fs::set_permissions(
        &sleeper,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let sleeping = || {
        Duipai::new()
            .current_dir(cases.path())
            .env("TMPDIR", tmp.path())
            .args(["test", "chess", ".", "--time-limit", "60000"])
            .program([sleeper.to_str().unwrap()])
            .start()
    };
    let mut killed = sleeping();
    let killed_pid = killed.pid();
    wait_for(
        "the killed run's scratch folder",
        Duration::from_secs(60),
        || !scratch_folders(tmp.path(), killed_pid).is_empty(),
    );
    assert!(killed.signal(libc::SIGKILL));
    let _ = killed.finish_within(Duration::from_secs(30));
    assert!(
        !scratch_folders(tmp.path(), killed_pid).is_empty(),
        "nothing removes them"
    );
    let mut live = sleeping();
    let live_pid = live.pid();
    wait_for(
        "the live run's scratch folder",
        Duration::from_secs(60),
        || !scratch_folders(tmp.path(), live_pid).is_empty(),
    );
    let next = Duipai::new()
        .current_dir(cases.path())
        .env("TMPDIR", tmp.path())
        .args(["test", "chess", "."])
        .program(["sh", "-c", "echo 0"])
        .run();
    assert!(next.stdout().contains("1 AC"), "{}", next.stdout());
    assert_eq!(
        scratch_folders(tmp.path(), killed_pid),
        Vec::<PathBuf>::new()
    );
    assert!(
        !scratch_folders(tmp.path(), live_pid).is_empty(),
        "a live run's are kept"
    );
    assert!(live.signal(libc::SIGINT));
    let _ = live.finish_within(STOP_BOUND);
    assert_eq!(scratch_folders(tmp.path(), live_pid), Vec::<PathBuf>::new());
}

#[test]
fn stress_terminated_kills_every_process_it_started() {
    let out = interrupt_sleepers(&["stress", "chess", "--json"], libc::SIGTERM);
    assert_eq!(out.code(130).json()["status"], "interrupted");
}

// ---------------------------------------------------------------------------------------------
// Hostile input: the parsers and validators on arbitrary and almost-valid bytes.
//
// tests/problems.rs pins the exact message of each kind of rejection and feeds bytes from a
// small alphabet; here the bytes are anything, or a valid input with a few random edits, and
// the properties are the ones every rejection must have.

/// The lines of `text` as the parser counts them: split at `\n` only (a `\r` is a byte of
/// its line), with a last, possibly empty, line after the final `\n`.
fn lines_of(text: &[u8]) -> Vec<&[u8]> {
    text.split(|&b| b == b'\n').collect()
}

/// Parses `text` as `problem`, timed, and checks what any outcome must satisfy: quick
/// (proportionally to the length), a rejection positioned inside the input with a message,
/// an acceptance that round-trips through its canonical text.
fn check_parse(problem: &'static dyn Problem, text: &[u8]) -> Result<(), TestCaseError> {
    let bounds = problem.default_bounds();
    let start = crate::util::thread_cpu_time();
    let result = problem.parse(text, &bounds);
    let took = crate::util::thread_cpu_time().saturating_sub(start);
    // About 30 times what a debug build needs (some 30 ns a byte on 2 MB); a superlinear
    // parser would blow it on the longer inputs. CPU time, which a busy machine does not
    // stretch.
    let bound = Duration::from_millis(100) + Duration::from_micros(1) * text.len() as u32;
    prop_assert!(took < bound, "{} bytes took {took:?}", text.len());
    match result {
        Err(e) => {
            let lines = lines_of(text);
            // Line `lines.len()` is the text after the last newline: end of input is there.
            prop_assert!(
                e.line >= 1 && e.line <= lines.len(),
                "line {} of {} lines: {e}",
                e.line,
                lines.len()
            );
            let line_len = lines[e.line - 1].len();
            prop_assert!(
                e.column >= 1 && e.column <= line_len + 1,
                "column {} of a {line_len}-byte line: {e}",
                e.column
            );
            prop_assert!(!e.message.trim().is_empty(), "empty message at {e:?}");
            prop_assert_eq!(
                e.to_string(),
                format!("line {}, column {}: {}", e.line, e.column, e.message)
            );
        }
        Ok(instance) => {
            prop_assert_eq!(instance.problem(), problem);
            let canonical = instance.to_input();
            prop_assert_eq!(problem.parse(canonical.as_bytes(), &bounds), Ok(instance));
        }
    }
    Ok(())
}

fn problem_strategy() -> impl Strategy<Value = &'static dyn Problem> {
    prop_oneof![
        Just(&CHESS as &'static dyn Problem),
        Just(&CHESSBOARD as &'static dyn Problem)
    ]
}

/// A valid input of `problem` from the built-in generator: small boards, so that edits land
/// in every part of the file.
fn valid_input(problem: &'static dyn Problem, seed: u64) -> Vec<u8> {
    let small = ParamValue::Range(SizeRange { lo: 1, hi: 4 });
    let mut args = GenParams::default().with("n", small);
    if problem.name() == "chess" {
        args.set("m", small);
    }

    let spec = Spec::new(problem, &args).expect("generator flags");
    spec.generate(seed).to_input().into_bytes()
}

/// One edit of an input; positions are taken modulo the length when applied.
#[derive(Clone, Debug)]
enum Edit {
    Delete(usize),
    Insert(usize, u8),
    /// Replace one byte.
    Replace(usize, u8),
    /// Repeat one line.
    DuplicateLine(usize),
    /// Remove one line.
    DeleteLine(usize),
    /// Cut the input short.
    Truncate(usize),
}

/// Bytes an almost-valid input plausibly gets wrong: digits, signs, letters (cells and
/// others), spaces and line ends, a NUL, a byte that is not UTF-8.
fn nasty_byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        4 => b'0'..=b'9',
        1 => prop::sample::select(b"-+.WBwbxe \t\n\r\0\xff".to_vec()),
        1 => any::<u8>(),
    ]
}

fn edit_strategy() -> impl Strategy<Value = Edit> {
    let pos = any::<usize>();
    prop_oneof![
        3 => pos.prop_map(Edit::Delete),
        3 => (pos, nasty_byte()).prop_map(|(p, b)| Edit::Insert(p, b)),
        3 => (pos, nasty_byte()).prop_map(|(p, b)| Edit::Replace(p, b)),
        1 => pos.prop_map(Edit::DuplicateLine),
        1 => pos.prop_map(Edit::DeleteLine),
        1 => pos.prop_map(Edit::Truncate),
    ]
}

fn apply(text: &mut Vec<u8>, edit: &Edit) {
    let at = |p: usize, len: usize| if len == 0 { 0 } else { p % len };
    match *edit {
        Edit::Delete(p) if !text.is_empty() => {
            text.remove(at(p, text.len()));
        }
        Edit::Insert(p, b) => text.insert(at(p, text.len() + 1), b),
        Edit::Replace(p, b) if !text.is_empty() => {
            let i = at(p, text.len());
            text[i] = b;
        }
        Edit::DuplicateLine(p) | Edit::DeleteLine(p) => {
            let mut lines: Vec<Vec<u8>> = text
                .split_inclusive(|&b| b == b'\n')
                .map(<[u8]>::to_vec)
                .collect();
            if lines.is_empty() {
                return;
            }
            let i = at(p, lines.len());
            if matches!(edit, Edit::DuplicateLine(_)) {
                let line = lines[i].clone();
                lines.insert(i, line);
            } else {
                lines.remove(i);
            }
            *text = lines.concat();
        }
        Edit::Truncate(p) => text.truncate(at(p, text.len() + 1)),
        Edit::Delete(_) | Edit::Replace(..) => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn parsers_survive_arbitrary_bytes(
        problem in problem_strategy(),
        bytes in prop::collection::vec(any::<u8>(), 0..600),
    ) {
        check_parse(problem, &bytes)?;
    }

}

// Fewer cases where each one costs more to generate (a debug build draws every byte through
// a weighted union, or generates and edits a whole input).
proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Text-like garbage gets further into the parser than uniform bytes do.
    #[test]
    fn parsers_survive_text_like_bytes(
        problem in problem_strategy(),
        bytes in prop::collection::vec(nasty_byte(), 0..600),
    ) {
        check_parse(problem, &bytes)?;
    }

    #[test]
    fn parsers_survive_almost_valid_inputs(
        problem in problem_strategy(),
        seed in any::<u64>(),
        edits in prop::collection::vec(edit_strategy(), 1..4),
    ) {
        let mut text = valid_input(problem, seed);
        check_parse(problem, &text)?;
        prop_assert!(problem.parse(&text, &problem.default_bounds()).is_ok());
        for edit in &edits {
            apply(&mut text, edit);
        }
        check_parse(problem, &text)?;
    }
}

#[test]
fn parsers_reject_long_inputs_in_linear_time() {
    // Long inputs of the shapes that make careless parsers slow: a huge token, a huge number
    // of tokens on one line, a huge number of lines, runs of spaces, carriage returns.
    let long = 2_000_000;
    let mut inputs: Vec<Vec<u8>> = vec![
        [b"3 3\n".as_slice(), &vec![b'7'; long]].concat(),
        [b"3 3\n".as_slice(), &b"1 ".repeat(long / 2)].concat(),
        [b"3 3\n".as_slice(), &b"\n".repeat(long)].concat(),
        [b"3 3\n1".as_slice(), &vec![b' '; long], b"2"].concat(),
        b"\r".repeat(long),
        [b"3\n".as_slice(), &b"WB.".repeat(long / 3)].concat(),
        vec![0; long],
    ];
    // A valid input followed by a long tail of blank lines and trailing spaces.
    let mut padded = valid_input(&CHESSBOARD, 5);
    padded.extend(b"  \n".repeat(long / 3));
    inputs.push(padded);
    for text in &inputs {
        for &problem in duipai::problem::ALL {
            check_parse(problem, text).unwrap_or_else(|e| panic!("{problem}: {e}"));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Hostile test folders.

/// A test folder's symbolic links are refused by name, an answer's as an input's, never
/// followed: a link to a file of the machine (a secret) would be read, perhaps as root, and
/// its first token quoted in the error.
#[test]
fn links_in_a_test_folder_are_refused_by_name_and_never_read() {
    let secret_dir = tempfile::tempdir().unwrap();
    let secret = secret_dir.path().join("shadow");
    fs::write(&secret, "hunter2:$6$salt$hash\n").unwrap();
    for linked in ["a.ans", "b.in"] {
        let dir = case_dir(&[("a", CHESS_SAMPLE, CHESS_SAMPLE_ANSWER)]);
        let link = dir.path().join(linked);
        let _ = fs::remove_file(&link);
        std::os::unix::fs::symlink(&secret, &link).unwrap();
        let ran = Duipai::new()
            .current_dir(dir.path())
            .args(["test", "chess", "."])
            .fixture(["correct", "chess"])
            .run()
            .code(2);
        let stderr = ran.stderr();
        assert_contains(&stderr, &format!("{linked}: a symbolic link"));
        assert!(!stderr.contains("hunter2"), "{linked}: {stderr}");
    }
}

/// Two `stress --save` runs sharing a folder, started together, that find the same failing
/// seed: both report it and both keep a complete case (a name is claimed before it is
/// written), where one used to end with `cannot create ...original.err: File exists`.
#[test]
fn two_stress_runs_sharing_a_save_folder_both_keep_their_cases() {
    for _ in 0..3 {
        let dir = tempfile::tempdir().unwrap();
        let stress = || {
            Duipai::new()
                .current_dir(dir.path())
                .args(["stress", "chess", "--json", "-j", "1", "--iterations", "5"])
                .args(["--save", "shared", "--no-replay"])
                .args(["--n", "1..2", "--m", "1..2"])
                .fixture(["wrong", "chess"])
                .start()
        };
        let (first, second) = (stress(), stress());
        for (ran, _) in [
            first.finish_within(RUN_BOUND),
            second.finish_within(RUN_BOUND),
        ] {
            let report = ran.code(1).json();
            let input = dir.path().join(report["input"].as_str().unwrap());
            check_saved_case(&CHESS, &input);
            let original = dir.path().join(report["original_input"].as_str().unwrap());
            check_saved_case(&CHESS, &original);
        }
        assert_no_temporary_files(dir.path());
    }
}

/// A reference that never answers stops `test` at its first input: the command fails
/// anyway, and each further input would cost the reference's whole time limit again.
#[test]
fn a_reference_that_never_answers_is_run_once() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for name in ["a", "b", "c"] {
        fs::write(d.join(format!("{name}.in")), "1 2\n").unwrap();
    }
    let log = d.join("runs.log");
    crate::util::write_sh(
        d,
        "ref.sh",
        &format!("echo run >> '{}'\nexec sleep 100", log.display()),
    );
    let ran = Duipai::new()
        .current_dir(d)
        .args(["test", "sum", ".", "-j", "1", "--reference", "./ref.sh"])
        .args(["--helper-time-limit", "100"])
        .program(["cat"])
        .start()
        .finish_within(RUN_BOUND)
        .0
        .code(2);
    assert_contains(&ran.stderr(), "a.in");
    let runs = fs::read_to_string(&log).unwrap();
    assert_eq!(runs.lines().count(), 1, "{runs}");
}

/// A sidecar is data, not a command: a checker a `.meta` names (a file anyone could have
/// written, in a cloned repository's saved failures) is not run by `failures
/// --prune-passing` nor by `test` on the case unless the command line names it too, and the
/// case it would have judged is kept.
#[test]
fn a_checker_named_by_a_sidecar_alone_is_never_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let saved = d.join("duipai-failures");
    fs::create_dir(&saved).unwrap();
    fs::write(saved.join("sum-5.in"), "2 3\n").unwrap();
    fs::write(saved.join("sum-5.ans"), "5\n").unwrap();
    let marker = d.join("the-checker-ran");
    crate::util::write_sh(d, "evil.sh", &format!("touch '{}'", marker.display()));
    let meta = serde_json::json!({
        "problem": "sum", "seed": 5, "verdict": "WA", "detail": "", "program": "sol.sh",
        "saved_at": 0,
        "setting": {"flags": ["--checker", "./evil.sh"], "time_limit_ms": 1000,
                    "memory_limit_mib": 256},
    });
    fs::write(saved.join("sum-5.meta"), meta.to_string()).unwrap();
    crate::util::write_sh(d, "sol.sh", "awk '{ print $1 + $2 }'");
    let pruned = Duipai::new()
        .current_dir(d)
        .args(["failures", "sum", "--prune-passing"])
        .program(["./sol.sh"])
        .run()
        .code(1);
    assert_contains(
        &pruned.stdout(),
        "skipped sum-5.in: the sidecar names --checker ./evil.sh",
    );
    let tested = Duipai::new()
        .current_dir(d)
        .args(["test", "sum", "duipai-failures/sum-5.in"])
        .program(["./sol.sh"])
        .run()
        .code(2);
    assert_contains(
        &tested.stderr(),
        "add --checker ./evil.sh to the command line",
    );
    assert!(!marker.exists(), "the sidecar's checker ran");
    assert!(saved.join("sum-5.in").exists());
}

/// A reference that prints nothing is named as such, in English ("an answer").
#[test]
fn a_silent_reference_is_named() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("a.in"), "1 2\n").unwrap();
    let ran = Duipai::new()
        .current_dir(dir.path())
        .args(["test", "sum", ".", "--reference", "true"])
        .program(["cat"])
        .run()
        .code(2);
    assert_contains(&ran.stderr(), "printed nothing, where an answer is needed");
}
