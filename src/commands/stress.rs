//! `duipai stress` (对拍): generate cases from consecutive seeds on parallel workers until the
//! program fails one, save it, minimize it, and show everything needed to replay it.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

use crate::cli::StressArgs;
use crate::exit::Status;
use crate::generate::Spec;
use crate::judge::{CaseOutcome, Expected, decide};
use crate::problem::{Instance, Problem};
use crate::run::{IoMode, Limits};
use crate::shrink::{self, Budget, Probe};

/// Where cases come from: the built-in generator, or an external program given the seed.
enum Source {
    Builtin(Spec),
    External(PathBuf),
}

/// Who knows the right answer: the built-in solver, or an external reference program.
enum Oracle {
    Builtin,
    External(PathBuf),
}

/// Everything a worker needs, shared read-only.
struct Setup {
    problem: Problem,
    source: Source,
    oracle: Oracle,
    program: Vec<OsString>,
    limits: Limits,
    /// Limits for the generator and the reference: generous, they are trusted.
    helper_limits: Limits,
    io: IoMode,
}

/// One generated case.
struct Case {
    input: Vec<u8>,
    /// The parsed input, when it is a valid input of the problem (always, for the built-in
    /// generator); minimization and the line of play need it.
    instance: Option<Instance>,
}

/// A case the program failed.
struct Failure {
    index: u64,
    seed: u64,
    case: Case,
    expected: Expected,
    outcome: CaseOutcome,
}

pub fn run(args: StressArgs) -> anyhow::Result<Status> {
    let started = Instant::now();
    let setup = Setup::new(&args)?;
    let out = super::Human::new(args.json);
    let jobs = super::jobs(args.jobs);
    let (offset, stride) = args.shard.map_or((0, 1), |s| (s.index - 1, s.count));
    let seed_of = |index: u64| {
        args.seed
            .wrapping_add(offset)
            .wrapping_add(index.wrapping_mul(stride))
    };
    crate::interrupt::install();

    out.line(format!(
        "stressing {} on {} from seed {}{} ({} worker{})",
        super::program_name(&args.program),
        args.problem,
        args.seed,
        args.shard
            .map(|s| format!(", shard {}/{}", s.index, s.count))
            .unwrap_or_default(),
        jobs,
        if jobs == 1 { "" } else { "s" }
    ));

    let search = search(&setup, jobs, &args, &seed_of, started)?;
    let elapsed = started.elapsed();
    let rate = search.cases as f64 / elapsed.as_secs_f64().max(1e-9);
    let Some(failure) = search.failure else {
        let why = if crate::interrupt::interrupted() {
            "interrupted"
        } else {
            "done"
        };
        let last = (search.cases > 0).then(|| seed_of(search.cases - 1));
        out.line(format!(
            "{why}: no failure in {} case{} (seeds {}{}), {:.0} cases/s, {:.1} s",
            search.cases,
            if search.cases == 1 { "" } else { "s" },
            seed_of(0),
            last.map(|l| format!("..={l}")).unwrap_or_default(),
            rate,
            elapsed.as_secs_f64()
        ));
        if args.json {
            let summary = serde_json::json!({
                "status": "ok",
                "problem": args.problem,
                "cases": search.cases,
                "first_seed": seed_of(0),
                "last_seed": last,
                "interrupted": crate::interrupt::interrupted(),
                "seed": null,
                "verdict": null,
                "input": null,
                "cases_per_second": rate,
                "elapsed_ms": elapsed.as_millis() as u64,
            });
            println!("{summary}");
        }
        return Ok(Status::Success);
    };
    report_failure(&setup, &args, failure, search.cases, started, &out)
}

/// What the search over seeds found.
struct Search {
    cases: u64,
    failure: Option<Failure>,
}

/// Runs seeds in order on `jobs` workers. Workers take indices from a shared counter and stop
/// taking indices past the lowest failing one found so far, but finish every lower index, so
/// the failure reported is the lowest failing seed: the same command reports the same case.
fn search(
    setup: &Setup,
    jobs: usize,
    args: &StressArgs,
    seed_of: &(dyn Fn(u64) -> u64 + Sync),
    started: Instant,
) -> anyhow::Result<Search> {
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let lowest_failure = AtomicU64::new(u64::MAX);
    let failures: Mutex<Vec<Failure>> = Mutex::new(Vec::new());
    let harness_error: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    let limit = args.iterations.unwrap_or(u64::MAX);
    let deadline = args
        .time
        .map(|s| started + Duration::from_secs_f64(s.max(0.0)));
    let progress = super::progress::Progress::new("cases");

    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs)
            .map(|_| {
                scope.spawn(|| {
                    loop {
                        if crate::interrupt::interrupted()
                            || harness_error.lock().is_ok_and(|e| e.is_some())
                            || deadline.is_some_and(|d| Instant::now() >= d)
                        {
                            break;
                        }
                        let index = next.fetch_add(1, Ordering::SeqCst);
                        if index >= limit || index > lowest_failure.load(Ordering::SeqCst) {
                            break;
                        }
                        let seed = seed_of(index);
                        let result = try_seed(setup, seed);
                        if crate::interrupt::interrupted() {
                            // This run may have been killed by the interrupt: no verdict.
                            break;
                        }
                        match result {
                            Ok(None) => {}
                            Ok(Some((case, expected, outcome))) => {
                                lowest_failure.fetch_min(index, Ordering::SeqCst);
                                if let Ok(mut f) = failures.lock() {
                                    f.push(Failure {
                                        index,
                                        seed,
                                        case,
                                        expected,
                                        outcome,
                                    });
                                }
                            }
                            Err(err) => {
                                if let Ok(mut e) = harness_error.lock() {
                                    e.get_or_insert(err.context(format!("seed {seed}")));
                                }
                                break;
                            }
                        }
                        done.fetch_add(1, Ordering::SeqCst);
                    }
                })
            })
            .collect();
        while workers.iter().any(|w| !w.is_finished()) {
            progress.update(done.load(Ordering::SeqCst), started.elapsed());
            std::thread::sleep(Duration::from_millis(50));
        }
    });
    progress.finish();
    if let Some(err) = harness_error.into_inner().ok().flatten() {
        return Err(err);
    }
    let failure = failures
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .min_by_key(|f| f.index);
    // Cases counted are the ones tried before the reported failure, and the failure itself.
    let cases = match &failure {
        Some(f) => f.index + 1,
        None => done.load(Ordering::SeqCst),
    };
    Ok(Search { cases, failure })
}

/// Generates, solves and judges one seed; `Some` when the program fails it.
fn try_seed(setup: &Setup, seed: u64) -> anyhow::Result<Option<(Case, Expected, CaseOutcome)>> {
    let case = setup.make_case(seed)?;
    let expected = setup.expected(&case)?;
    let outcome = setup.judge(&case.input, &expected)?;
    Ok((!outcome.verdict().is_accepted()).then_some((case, expected, outcome)))
}

impl Setup {
    fn new(args: &StressArgs) -> anyhow::Result<Setup> {
        let problem = args.problem;
        let source = match &args.generator {
            Some(program) => Source::External(program.clone()),
            None => Source::Builtin(Spec::new(problem, &args.gen_args)?),
        };
        let oracle = match &args.reference {
            Some(program) => Oracle::External(program.clone()),
            None => Oracle::Builtin,
        };
        let limits = args.limits.resolve(problem);
        let mut helper_limits = limits;
        helper_limits.cpu = Duration::from_secs(10).max(limits.cpu * 4);
        helper_limits.wall = helper_limits.cpu * 2;
        helper_limits.memory_bytes = limits.memory_bytes.max(1 << 30);
        Ok(Setup {
            problem,
            source,
            oracle,
            program: args.program.clone(),
            limits,
            helper_limits,
            io: args.limits.io_mode(problem),
        })
    }

    fn make_case(&self, seed: u64) -> anyhow::Result<Case> {
        match &self.source {
            Source::Builtin(spec) => {
                let instance = spec.generate(seed);
                Ok(Case {
                    input: instance.to_input().into_bytes(),
                    instance: Some(instance),
                })
            }
            Source::External(generator) => {
                let command = [generator.clone().into_os_string(), seed.to_string().into()];
                let input = self.run_helper(&command, b"", "generator")?;
                let parsed = self.problem.parse(&input, &self.problem.default_bounds());
                let instance = match (parsed, &self.oracle) {
                    (Ok(instance), _) => Some(instance),
                    // Only the built-in solver needs to understand the input.
                    (Err(_), Oracle::External(_)) => None,
                    (Err(err), Oracle::Builtin) => bail!(
                        "the generator's output for seed {seed} is not a valid {} input \
                         ({err}); give a --reference for problems duipai does not know",
                        self.problem
                    ),
                };
                Ok(Case { input, instance })
            }
        }
    }

    fn expected(&self, case: &Case) -> anyhow::Result<Expected> {
        match (&self.oracle, &case.instance) {
            (Oracle::Builtin, Some(instance)) => Ok(Expected::Answer(instance.solve())),
            (Oracle::Builtin, None) => {
                bail!("no reference answer for an input duipai cannot parse")
            }
            (Oracle::External(reference), _) => {
                let command = [reference.clone().into_os_string()];
                let output = self.run_helper(&command, &case.input, "reference")?;
                Ok(Expected::from_bytes(&output))
            }
        }
    }

    fn judge(&self, input: &[u8], expected: &Expected) -> anyhow::Result<CaseOutcome> {
        let execution = crate::run::run(&self.program, input, &self.limits, &self.io)
            .with_context(|| format!("cannot run {}", super::program_name(&self.program)))?;
        let judgement = decide(&execution, expected);
        Ok(CaseOutcome {
            judgement,
            execution,
        })
    }

    /// Runs the generator or the reference; anything but a clean exit is the harness's
    /// problem, not the program's.
    fn run_helper(
        &self,
        command: &[OsString],
        input: &[u8],
        role: &str,
    ) -> anyhow::Result<Vec<u8>> {
        let execution = crate::run::run(command, input, &self.helper_limits, &IoMode::Stdio)
            .with_context(|| format!("cannot run the {role} {}", super::program_name(command)))?;
        if let Some(stopped) = crate::verdict::termination_judgement(&execution) {
            bail!(
                "the {role} {} failed: {} ({})",
                super::program_name(command),
                stopped.verdict.code(),
                stopped.detail
            );
        }
        Ok(execution.stdout)
    }
}

/// Saves, minimizes, saves again and reports a failure. Returns exit status 1.
fn report_failure(
    setup: &Setup,
    args: &StressArgs,
    failure: Failure,
    cases: u64,
    started: Instant,
    out: &super::Human,
) -> anyhow::Result<Status> {
    let problem = setup.problem;
    let Failure {
        seed,
        case,
        expected,
        outcome,
        ..
    } = failure;
    let verdict = outcome.verdict();
    out.line(format!(
        "FAILED on seed {seed} after {cases} case{}: {} {}",
        if cases == 1 { "" } else { "s" },
        verdict.code(),
        outcome.judgement.detail
    ));
    std::fs::create_dir_all(&args.save)
        .with_context(|| format!("cannot create {}", args.save.display()))?;
    let stem = format!("{problem}-{seed}");

    // The case as found goes to disk before anything else can go wrong or be interrupted.
    let shrinking = !args.no_shrink && case.instance.is_some();
    let original_stem = if shrinking {
        format!("{stem}.original")
    } else {
        stem.clone()
    };
    let original_path = save_case(
        &args.save,
        &original_stem,
        &case.input,
        &expected,
        &outcome.execution.stdout,
    )?;
    out.line(format!(
        "saved the failing case: {}",
        original_path.display()
    ));

    let mut final_case = (case.input.clone(), case.instance.clone(), expected, outcome);
    let mut shrink_stats = None;
    if shrinking && let Some(instance) = &case.instance {
        out.line("minimizing (Ctrl-C stops and keeps the smallest case so far)...");
        let shrink_started = Instant::now();
        let mut smallest: Option<(Expected, CaseOutcome)> = None;
        let mut harness_error = None;
        let mut probe = |candidate: &Instance| {
            if crate::interrupt::interrupted() || harness_error.is_some() {
                return Probe::Stop;
            }
            let attempt = || -> anyhow::Result<Option<(Expected, CaseOutcome)>> {
                let case = Case {
                    input: candidate.to_input().into_bytes(),
                    instance: Some(candidate.clone()),
                };
                let expected = setup.expected(&case)?;
                let outcome = setup.judge(&case.input, &expected)?;
                Ok((outcome.verdict() == verdict).then_some((expected, outcome)))
            };
            let result = attempt();
            if crate::interrupt::interrupted() {
                // The run may have been killed by the interrupt: no verdict.
                return Probe::Stop;
            }
            match result {
                Ok(Some(found)) => {
                    smallest = Some(found);
                    Probe::Fails
                }
                Ok(None) => Probe::Passes,
                Err(err) => {
                    harness_error = Some(err);
                    Probe::Stop
                }
            }
        };
        let budget = Budget {
            max_attempts: 20_000,
            max_time: Duration::from_secs(120),
        };
        let (small, stats) = shrink::shrink(instance, budget, &mut probe);
        if let Some(err) = harness_error {
            out.line(format!("minimization stopped: {err:#}"));
        }
        if let Some((expected, outcome)) = smallest {
            final_case = (
                small.to_input().into_bytes(),
                Some(small),
                expected,
                outcome,
            );
        }
        out.line(format!(
            "minimized in {} step{}, {} run{}, {:.1} s{}",
            stats.steps,
            if stats.steps == 1 { "" } else { "s" },
            stats.attempts,
            if stats.attempts == 1 { "" } else { "s" },
            shrink_started.elapsed().as_secs_f64(),
            if stats.stopped && crate::interrupt::interrupted() {
                " (interrupted)"
            } else if stats.stopped {
                " (stopped by the error above)"
            } else if stats.exhausted {
                " (budget reached)"
            } else {
                ""
            }
        ));
        shrink_stats = Some(stats);
    }
    let (input, instance, expected, outcome) = final_case;
    let input_path = if shrinking {
        save_case(
            &args.save,
            &stem,
            &input,
            &expected,
            &outcome.execution.stdout,
        )?
    } else {
        original_path.clone()
    };

    out.line(format!(
        "\ncase ({}): {}",
        describe(&instance),
        input_path.display()
    ));
    out.text(indent(&String::from_utf8_lossy(&input)));
    out.line(format!("expected: {}", expected.to_text().trim_end()));
    out.line(format!(
        "actual:   {} ({} {})",
        shown_output(&outcome.execution.stdout),
        outcome.verdict().code(),
        outcome.judgement.detail
    ));
    if let (Some(instance), Oracle::Builtin) = (&instance, &setup.oracle) {
        let solution = instance.solve_explained();
        out.line("\nreference line of play:");
        out.text(indent(&instance.explain(&solution)));
    }
    let replay_test = format!(
        "duipai test {problem} {}{} -- {}",
        shell_quote(&input_path.to_string_lossy()),
        args.limits.to_flags(),
        quote_command(&args.program)
    );
    out.line(format!("\nreplay: {replay_test}"));
    if matches!(setup.source, Source::Builtin(_)) {
        let flags = args.gen_args.to_flags();
        out.line(format!(
            "        duipai stress {problem}{}{} --seed {seed} --iterations 1{}{} -- {}",
            if flags.is_empty() { "" } else { " " },
            flags,
            if args.no_shrink { " --no-shrink" } else { "" },
            args.limits.to_flags(),
            quote_command(&args.program)
        ));
    }
    let elapsed = started.elapsed();
    if args.json {
        let summary = serde_json::json!({
            "status": "failed",
            "problem": problem,
            "seed": seed,
            "verdict": outcome.verdict(),
            "detail": outcome.judgement.detail,
            "input": input_path,
            "original_input": original_path,
            "expected": expected.to_text().trim_end(),
            "actual": String::from_utf8_lossy(&outcome.execution.stdout[..outcome.execution.stdout.len().min(4096)]),
            "cases": cases,
            "shrink_steps": shrink_stats.map(|s| s.steps),
            "shrink_runs": shrink_stats.map(|s| s.attempts),
            "replay": replay_test,
            "elapsed_ms": elapsed.as_millis() as u64,
        });
        println!("{summary}");
    }
    Ok(Status::Failure)
}

/// Writes `<stem>.in`, `.ans` and `.out` into `dir` and returns the `.in` path. A stem whose
/// files already exist with other contents is never overwritten: `-2`, `-3`, ... are tried.
fn save_case(
    dir: &Path,
    stem: &str,
    input: &[u8],
    expected: &Expected,
    actual: &[u8],
) -> anyhow::Result<PathBuf> {
    let answer = expected.to_text().into_bytes();
    let contents: [(&str, &[u8]); 3] = [("in", input), ("ans", &answer), ("out", actual)];
    for attempt in 1..=1000u32 {
        let name = if attempt == 1 {
            stem.to_string()
        } else {
            format!("{stem}-{attempt}")
        };
        let paths: Vec<PathBuf> = contents
            .iter()
            .map(|(ext, _)| dir.join(format!("{name}.{ext}")))
            .collect();
        let same = paths
            .iter()
            .zip(&contents)
            .all(|(p, (_, c))| std::fs::read(p).is_ok_and(|old| old == *c));
        if same {
            return Ok(paths[0].clone());
        }
        if paths.iter().any(|p| p.exists()) {
            continue;
        }
        // The input last: its presence means the answer and output beside it are complete.
        for (path, (_, bytes)) in paths.iter().zip(&contents).rev() {
            crate::fsutil::write_new_atomic(path, bytes)?;
        }
        return Ok(paths[0].clone());
    }
    bail!(
        "{}: 1000 failing cases named {stem} already; clear the directory",
        dir.display()
    )
}

/// The start of a program's output for the report, or a note that there was none.
fn shown_output(stdout: &[u8]) -> String {
    let text = String::from_utf8_lossy(&stdout[..stdout.len().min(200)]);
    let text = text.trim_end();
    match (text.is_empty(), stdout.len() > 200) {
        (true, _) => "(no output)".to_string(),
        (false, true) => format!("{text}…"),
        (false, false) => text.to_string(),
    }
}

fn describe(instance: &Option<Instance>) -> String {
    match instance {
        Some(Instance::Chess(c)) => format!("{}×{}", c.n, c.m),
        Some(Instance::Chessboard(c)) => format!("{}×{}", c.n, c.n),
        None => "as generated".into(),
    }
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("    {l}\n")).collect()
}

/// Quotes a word for a POSIX shell when it needs it.
fn shell_quote(word: &str) -> String {
    let safe = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if safe {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

fn quote_command(program: &[OsString]) -> String {
    program
        .iter()
        .map(|w| shell_quote(&w.to_string_lossy()))
        .collect::<Vec<_>>()
        .join(" ")
}
