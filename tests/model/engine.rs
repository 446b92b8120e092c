//! The stress engine and the suite on a test double of the runner: programs are Rust
//! closures over the input, answered in-process, so that the search, minimization and
//! ordering are tested without starting any process.

use std::ffi::OsString;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use duipai::judge::{Runner, Verdict};
use duipai::problem::{self, CHESS, ChessProblem, GenParams, Instance, Problem, Spec};
use duipai::run::{Execution, IoMode, Limit, Limits, RunError, Termination};
use duipai::stress::{self, Budget, Config, End, Oracle, Outcome, Seeds, Source};
use duipai::suite::{self, StoredCase, SuiteRun};

/// A "program": output bytes for an input, or `None` to crash.
type Program = dyn Fn(&dyn Instance) -> Option<String> + Sync;

/// Answers every run in-process with `program` on the parsed input; counts the runs.
struct FakeRunner<'a> {
    game: &'static dyn Problem,
    program: &'a Program,
    runs: AtomicUsize,
}

impl Runner for FakeRunner<'_> {
    fn run(
        &self,
        _command: &[OsString],
        input: &[u8],
        limits: &Limits,
        _io: &IoMode,
    ) -> Result<Execution, RunError> {
        self.runs.fetch_add(1, Ordering::SeqCst);
        let instance = self
            .game
            .parse(input, &self.game.default_bounds())
            .expect("the engine only feeds valid inputs here");
        let (termination, stdout) = match (self.program)(instance.as_ref()) {
            Some(out) => (Termination::Exited(0), out.into_bytes()),
            None => (Termination::Exited(3), Vec::new()),
        };
        let mut execution = Execution::from_outcome(termination, stdout, *limits);
        execution.stderr = b"fake\n".to_vec();
        execution.stderr_bytes = 5;
        execution.cpu_time = Duration::from_millis(1);
        execution.cpu_times = vec![execution.cpu_time];
        execution.wall_time = Duration::from_millis(1);
        execution.peak_processes = 1;
        Ok(execution)
    }
}

fn limits() -> Limits {
    Limits {
        cpu: Duration::from_secs(1),
        wall: Duration::from_secs(3),
        memory_bytes: 1 << 30,
        output_bytes: 1 << 20,
        processes: 8,
    }
}

fn config(game: &'static dyn Problem, jobs: usize, save: &std::path::Path) -> Config {
    Config {
        name: game.name().to_string(),
        problem: Some(game),
        source: Source::Builtin(Spec::new(game, &GenParams::default()).unwrap()),
        oracle: Oracle::Builtin,
        program: vec!["fake".into()],
        limits: limits(),
        helper_limits: duipai::judge::helper::helper_limits(&limits(), None),
        io: IoMode::Stdio,
        seeds: Seeds {
            first: 1,
            offset: 0,
            stride: 1,
        },
        jobs,
        iterations: Some(500),
        time: None,
        save_dir: save.to_path_buf(),
        shrink: true,
        shrink_budget: Budget::default(),
        limit_shrink_budget: Budget::default(),
        validator: None,
        rule: duipai::answer::Rule::EXACT,
        decider: duipai::judge::Decider::Compare,
        choices: None,
        perturb: false,
        empty_answers: false,
    }
}

/// Wrong when Feifei's top-left value is odd (the answer is one too large).
fn odd_corner(case: &dyn Instance) -> Option<String> {
    let c = case.first_case::<ChessProblem>()?;
    Some(format!("{}\n", answer(case) + c.a[0][0] % 2))
}

/// The reference's single integer answer.
fn answer(case: &dyn Instance) -> i64 {
    case.solve()[0].parse().unwrap()
}

/// The number of cells of a chess board.
fn cells(case: &dyn Instance) -> usize {
    let c = case.first_case::<ChessProblem>().unwrap();
    c.n * c.m
}

fn run_stress(jobs: usize, program: &Program) -> (Box<stress::Failure>, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let runner = FakeRunner {
        game: &CHESS,
        program,
        runs: AtomicUsize::new(0),
    };
    let mut events = Vec::new();
    let outcome = stress::run(&config(&CHESS, jobs, dir.path()), &runner, &mut |e| {
        events.push(
            format!("{e:?}")
                .split([' ', '(', '{'])
                .next()
                .unwrap()
                .to_string(),
        )
    })
    .unwrap();
    let Outcome::Failed(failure) = outcome else {
        panic!("no failure found")
    };
    assert!(failure.input_path.exists());
    (failure, events)
}

#[test]
fn stress_finds_the_lowest_failing_seed_and_minimizes_it_whatever_the_workers() {
    let (one, events) = run_stress(1, &odd_corner);
    assert_eq!(one.outcome.verdict(), Verdict::WrongAnswer);
    // The smallest case with an odd top-left A: 1×1, A = 1.
    assert_eq!(one.instance.as_ref().unwrap().to_input(), "1 1\n1\n0\n");
    let minimization = one.minimization.unwrap();
    assert_eq!(minimization.stats.end, End::Minimal);
    for event in ["Failed", "SavedOriginal", "MinimizeStarted", "Minimized"] {
        assert!(events.iter().any(|e| e == event), "{event} in {events:?}");
    }
    for jobs in [2, 4] {
        let (many, _) = run_stress(jobs, &odd_corner);
        assert_eq!(many.seed, one.seed, "jobs {jobs}");
        assert_eq!(many.input, one.input, "jobs {jobs}");
    }
}

#[test]
fn minimization_keeps_the_kind_of_failure() {
    // Crashes on boards with at least 4 cells, and is wrong on odd corners: the crash found
    // first must stay a crash, never become the easier wrong answer.
    let program = |case: &dyn Instance| {
        if cells(case) >= 4 {
            None
        } else {
            odd_corner(case)
        }
    };
    let (failure, _) = run_stress(2, &program);
    assert_eq!(failure.outcome.verdict(), Verdict::RuntimeError);
    let small = failure.instance.as_ref().unwrap();
    assert_eq!(cells(small.as_ref()), 4);
    assert_eq!(small.largest(), 0);
}

#[test]
fn a_spent_budget_runs_no_probe_at_all() {
    // The budget is checked before every probe, the first one included: with none left, the
    // failing case is reported as found after the runs of the search alone.
    let dir = tempfile::tempdir().unwrap();
    let runner = FakeRunner {
        game: &CHESS,
        program: &odd_corner,
        runs: AtomicUsize::new(0),
    };
    let mut cfg = config(&CHESS, 1, dir.path());
    cfg.shrink_budget = Budget::of(Duration::ZERO);
    let Outcome::Failed(failure) = stress::run(&cfg, &runner, &mut |_| {}).unwrap() else {
        panic!("no failure found")
    };
    let minimization = failure.minimization.unwrap();
    assert_eq!(minimization.stats.end, End::Budget);
    assert_eq!((minimization.stats.runs, minimization.stats.steps), (0, 0));
    assert_eq!(runner.runs.load(Ordering::SeqCst) as u64, failure.cases);
    assert_eq!(
        failure.input,
        std::fs::read(&failure.original_path).unwrap()
    );
}

/// Runs like [`FakeRunner`], but a program that would fail runs into its time limit instead.
struct TimeLimitRunner<'a>(FakeRunner<'a>);

impl Runner for TimeLimitRunner<'_> {
    fn run(
        &self,
        command: &[OsString],
        input: &[u8],
        limits: &Limits,
        io: &IoMode,
    ) -> Result<Execution, RunError> {
        let mut execution = self.0.run(command, input, limits, io)?;
        let instance = CHESS.parse(input, &CHESS.default_bounds()).unwrap();
        if odd_corner(instance.as_ref()) != Some(format!("{}\n", answer(instance.as_ref()))) {
            execution.termination = Termination::LimitExceeded(Limit::CpuTime);
            execution.cpu_time = limits.cpu + Duration::from_millis(500);
            execution.cpu_times = vec![execution.cpu_time];
        }
        Ok(execution)
    }
}

#[test]
fn a_case_that_ran_into_its_time_limit_gets_the_budget_of_such_cases() {
    // The budget of limit cases is spent: the TLE case is reported as found, saying why; a
    // wrong answer on the same runs gets the whole budget of other cases.
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = config(&CHESS, 1, dir.path());
    cfg.limit_shrink_budget = Budget::of(Duration::ZERO);
    let fake = || FakeRunner {
        game: &CHESS,
        program: &odd_corner,
        runs: AtomicUsize::new(0),
    };
    let mut notes = Vec::new();
    let outcome = stress::run(&cfg, &TimeLimitRunner(fake()), &mut |e| {
        if let stress::Event::Note(note) = e {
            notes.push(note);
        }
    });
    let Outcome::Failed(slow) = outcome.unwrap() else {
        panic!("no failure found")
    };
    assert_eq!(slow.outcome.verdict(), Verdict::TimeLimitExceeded);
    let minimization = slow.minimization.unwrap();
    assert_eq!(
        (minimization.stats.end, minimization.budget),
        (End::Budget, Duration::ZERO)
    );
    assert_eq!(
        notes,
        ["a TLE case is minimized for at most 0 s: its candidates may each run up to the limit"]
    );
    let Outcome::Failed(wrong) = stress::run(&cfg, &fake(), &mut |_| {}).unwrap() else {
        panic!("no failure found")
    };
    assert_eq!(wrong.outcome.verdict(), Verdict::WrongAnswer);
    assert_eq!(wrong.minimization.unwrap().stats.end, End::Minimal);
}

#[test]
fn a_correct_program_passes_every_seed() {
    let dir = tempfile::tempdir().unwrap();
    let runner = FakeRunner {
        game: problem::by_name("chessboard").unwrap(),
        program: &|case: &dyn Instance| Some(format!("{}\n", answer(case))),
        runs: AtomicUsize::new(0),
    };
    let mut cfg = config(problem::by_name("chessboard").unwrap(), 2, dir.path());
    // Two workers share the seeds: each case is solved twice here (program and reference).
    cfg.iterations = Some(20);
    let outcome = stress::run(&cfg, &runner, &mut |_| {}).unwrap();
    let Outcome::Passed(passed) = outcome else {
        panic!("a correct program failed")
    };
    assert_eq!((passed.cases, passed.last_seed), (20, Some(20)));
    assert_eq!(runner.runs.load(Ordering::SeqCst), 20);
}

#[test]
fn the_suite_reports_in_case_order() {
    let cases: Vec<StoredCase> = (0..30u64)
        .map(|seed| {
            let spec = Spec::new(&CHESS, &GenParams::default()).unwrap();
            let case = spec.generate(seed);
            StoredCase {
                name: format!("{seed}.in"),
                input: case.to_input().into_bytes(),
                expected: case.expected().unwrap(),
            }
        })
        .collect();
    let runner = FakeRunner {
        game: &CHESS,
        program: &odd_corner,
        runs: AtomicUsize::new(0),
    };
    let command: Vec<OsString> = vec!["fake".into()];
    let run = SuiteRun {
        runner: &runner,
        program: &command,
        limits: &limits(),
        io: &IoMode::Stdio,
        jobs: 4,
        decider: &duipai::judge::Decider::Compare,
    };
    let mut order = Vec::new();
    let outcomes = suite::judge_all(&cases, &run, |i, _| order.push(i), || {}).unwrap();
    assert_eq!(order, (0..30).collect::<Vec<_>>());
    for (case, outcome) in cases.iter().zip(&outcomes) {
        let game: &dyn Problem = &CHESS;
        let instance = game.parse(&case.input, &game.default_bounds()).unwrap();
        let odd = instance.first_case::<ChessProblem>().unwrap().a[0][0] % 2 == 1;
        let want = if odd {
            Verdict::WrongAnswer
        } else {
            Verdict::Accepted
        };
        assert_eq!(outcome.verdict(), want, "{}", case.name);
    }
}

/// A runner on a machine too busy to judge anything: every run is stopped at the cap on
/// waiting for a CPU, with a fraction of its CPU time.
struct StarvedRunner;

impl Runner for StarvedRunner {
    fn run(
        &self,
        _command: &[OsString],
        _input: &[u8],
        limits: &Limits,
        _io: &IoMode,
    ) -> Result<Execution, RunError> {
        let mut execution = Execution::from_outcome(
            Termination::LimitExceeded(Limit::WallTime),
            Vec::new(),
            *limits,
        );
        execution.cpu_time = Duration::from_millis(200);
        execution.cpu_times = vec![execution.cpu_time];
        execution.wall_time = limits.wall * 10;
        execution.cpu_wait = execution.wall_time - Duration::from_millis(300);
        execution.cpu_starved = true;
        Ok(execution)
    }
}

/// A starved run says nothing about the program: stress stops with a harness error, and
/// reports, saves and minimizes no failure.
#[test]
fn stress_never_reports_a_failure_the_machine_caused() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("saved");
    let mut failed = false;
    let outcome = stress::run(&config(&CHESS, 2, &save), &StarvedRunner, &mut |e| {
        failed |= matches!(e, stress::Event::Failed { .. });
    });
    let err = match outcome {
        Err(err) => format!("{err:#}"),
        Ok(_) => panic!("a starved run was judged"),
    };
    assert!(err.contains("the machine is too busy"), "{err}");
    assert!(!failed, "a failure was reported");
    assert!(!save.exists(), "a case was saved");
}

/// A problem of text: a count, then that many numbers; the answer is their sum. Each program
/// is a closure over the input's text and the limits it runs under.
struct TextRunner {
    /// The limits of every run of the reference on an invalid input.
    invalid_reference_limits: std::sync::Mutex<Vec<Duration>>,
}

/// The numbers of a valid input, or `None`.
fn counted(input: &[u8]) -> Option<Vec<i64>> {
    let text = std::str::from_utf8(input).ok()?;
    let mut lines = text.lines();
    let n: usize = lines.next()?.trim().parse().ok()?;
    let values: Vec<i64> = lines
        .next()?
        .split_whitespace()
        .map(|v| v.parse().ok())
        .collect::<Option<_>>()?;
    (n >= 1 && values.len() == n && lines.next().is_none()).then_some(values)
}

impl Runner for TextRunner {
    fn run(
        &self,
        command: &[OsString],
        input: &[u8],
        limits: &Limits,
        _io: &IoMode,
    ) -> Result<Execution, RunError> {
        let values = counted(input);
        let mut cpu = Duration::from_millis(1);
        let (termination, stdout) = match command[0].to_str().unwrap() {
            "gen" => {
                let seed: u64 = command.last().unwrap().to_str().unwrap().parse().unwrap();
                let n = 3 + seed % 4;
                let values: Vec<String> = (0..n).map(|i| ((seed + i) % 9).to_string()).collect();
                let text = format!("{n}\n{}\n", values.join(" "));
                (Termination::Exited(0), text.into_bytes())
            }
            "val" => (Termination::Exited(i32::from(values.is_none())), Vec::new()),
            // On an invalid input the reference reads on past its end and never stops; on
            // `1 / 7` it takes 0.5 s, more than the first, short limit of a candidate's
            // reference allows (its other runs take 1 ms).
            "ref" => match values {
                None => {
                    self.invalid_reference_limits
                        .lock()
                        .unwrap()
                        .push(limits.cpu);
                    cpu = limits.cpu;
                    (Termination::LimitExceeded(Limit::CpuTime), Vec::new())
                }
                Some(values) => {
                    if values == [7] {
                        cpu = Duration::from_millis(500);
                    }
                    let sum: i64 = values.iter().sum();
                    match cpu > limits.cpu {
                        true => (Termination::LimitExceeded(Limit::CpuTime), Vec::new()),
                        false => (Termination::Exited(0), format!("{sum}\n").into_bytes()),
                    }
                }
            },
            // Wrong by one on any input with a 7.
            _ => {
                let values = values.unwrap_or_default();
                let sum: i64 = values.iter().sum::<i64>() + i64::from(values.contains(&7));
                (Termination::Exited(0), format!("{sum}\n").into_bytes())
            }
        };
        let mut execution = Execution::from_outcome(termination, stdout, *limits);
        execution.cpu_time = cpu;
        execution.cpu_times = vec![cpu];
        execution.wall_time = cpu;
        execution.peak_processes = 1;
        Ok(execution)
    }
}

#[test]
fn a_candidates_reference_runs_past_a_short_limit_only_when_the_candidate_is_valid() {
    let dir = tempfile::tempdir().unwrap();
    let runner = TextRunner {
        invalid_reference_limits: std::sync::Mutex::new(Vec::new()),
    };
    let mut config = config(&CHESS, 2, dir.path());
    config.name = "sum".to_string();
    config.problem = None;
    config.source = Source::External(vec!["gen".into()]);
    config.oracle = Oracle::External(vec!["ref".into()]);
    config.validator = Some(vec!["val".into()]);
    let outcome = stress::run(&config, &runner, &mut |_| {}).unwrap();
    let Outcome::Failed(failure) = outcome else {
        panic!("no failure found")
    };
    // The slow reference's answer on the smallest failing case was waited for in full.
    assert_eq!(String::from_utf8_lossy(&failure.input), "1\n7\n");
    // A runaway reference on an invalid candidate was stopped at the short limit (its
    // slowest clean run four times over, at least 0.25 s), never at the helpers' 10 s.
    let stopped = runner.invalid_reference_limits.lock().unwrap().clone();
    assert!(!stopped.is_empty());
    assert!(
        stopped.iter().all(|&cpu| cpu <= limits().cpu),
        "{stopped:?}"
    );
}
