//! `duipai stress` (对拍): the stress engine with the human and JSON reports.

use std::path::PathBuf;

use crate::app::args::{Shard, StressArgs};
use crate::app::exit::Status;
use crate::app::ui::{self, Human, Progress};
use crate::app::{interrupt, programs, replay, watch};
use crate::judge::ProcessRunner;

use crate::problem;
use crate::report::junit::{self, JunitCase, JunitFailure};
use crate::report::{self, CaseRecord, human, json};
use crate::saved;
use crate::stress::{self, Config, Event, Oracle, Outcome, Source};
use crate::text::{plural_s, program_name, quote};

pub fn run(args: StressArgs) -> anyhow::Result<Status> {
    interrupt::install();
    programs::warn_flags_after_separator("stress", &args.program);
    if problem::by_name(&args.problem).is_none()
        && args.generator.is_some()
        && !crate::app::config::problem_from_file()
        && let Some(game) = crate::app::args::near_game(&args.problem)
    {
        // Any name is allowed for a problem of one's own; a near miss of a game is pointed out.
        eprintln!(
            "duipai: note: {} is not a problem duipai knows; did you mean {game}? (any other \
             name is fine for a problem of your own)",
            quote(&args.problem)
        );
    }
    if let Some(index) = args.polygon_stress {
        return polygon_stress(args, index);
    }
    if args.judging.watch {
        let mut commands: Vec<&[std::ffi::OsString]> = vec![&args.program];
        let helpers = [
            &args.judging.reference,
            &args.generator,
            &args.validator,
            &args.judging.checker.checker,
            &args.judging.checker.interactor,
        ];
        for helper in helpers.into_iter().flatten() {
            commands.push(&helper.0);
        }
        return watch::watch(
            || watch::files_of(&commands),
            || {
                junit::on_error(
                    args.judging.report.junit.as_deref(),
                    "duipai stress",
                    execute(&args),
                )
            },
        );
    }
    execute(&args)
}

/// `--polygon-stress N`: the package's stress N, with its script as the generator, its limits
/// and its total time as the search's (shared by the solutions it stresses). Each solution it
/// names, but the main one (the reference), is stressed in turn, in the order named; the
/// first that fails ends the run with its status.
fn polygon_stress(mut args: StressArgs, index: u64) -> anyhow::Result<Status> {
    let dir = std::path::Path::new("");
    if !crate::polygon::Package::is_in(dir) {
        anyhow::bail!(
            "--polygon-stress runs a stress of the Polygon package in the current folder, and \
             there is no {} here",
            crate::polygon::FILE_NAME
        );
    }
    let package = crate::polygon::Package::read(dir)?;
    let stress = usize::try_from(index)
        .ok()
        .and_then(|i| package.stress(i))
        .ok_or_else(|| {
            let have: Vec<String> = package
                .stresses
                .iter()
                .map(|(index, _)| index.to_string())
                .collect();
            anyhow::anyhow!(
                "the package has no stress {index} ({})",
                if have.is_empty() {
                    "it lists none in <stresses>".to_string()
                } else {
                    format!("its stresses: {}", have.join(", "))
                }
            )
        })?
        .map_err(|why| anyhow::anyhow!("stress {index} cannot be run: {why}"))?;
    let main = package.main_solution().map(|s| s.path.clone());
    let stressed: Vec<&PathBuf> = stress
        .solutions
        .iter()
        .filter(|path| Some(*path) != main.as_ref())
        .collect();
    if stressed.is_empty() {
        anyhow::bail!(
            "{}: stress {index} names only the main solution, the reference: there is nothing \
             to compare with it",
            stress.file.display()
        );
    }
    let mut generator = vec![std::ffi::OsString::from(&stress.generator)];
    generator.extend(stress.args.iter().map(std::ffi::OsString::from));
    args.generator = Some(crate::app::args::CommandWords(generator));
    args.judging.limits.time_limit = Some(stress.time_limit_ms);
    args.judging.limits.memory_limit = Some(stress.memory_mib);
    if args.time.is_none() && stress.total_time_ms > 0 {
        let share = stress.total_time_ms / stressed.len() as u64;
        args.time = Some(std::time::Duration::from_millis(share.max(1)));
    }
    for solution in stressed {
        eprintln!(
            "duipai: stress {index} ({}): {} against the main solution",
            stress.file.display(),
            solution.display()
        );
        args.program = vec![solution.clone().into_os_string()];
        let status = execute(&args)?;
        if status != Status::Success {
            return Ok(status);
        }
    }
    Ok(Status::Success)
}

fn execute(args: &StressArgs) -> anyhow::Result<Status> {
    let started_at = std::time::SystemTime::now();
    let config = prepared(args)?;
    crate::fsutil::check_output_dir(&args.save, "--save")?;
    args.judging
        .run
        .containment
        .arm(vec![PathBuf::from(&args.save)])?;
    if let Some(path) = &args.judging.report.junit {
        junit::check_report_path(path)?;
    }
    let out = Human::new(args.judging.report.json);
    let runner = args.judging.run.runner();
    let replayed = if args.no_replay {
        Vec::new()
    } else {
        let samples = judge_samples(&config, &runner, &out)?;
        if samples.iter().any(|r| !r.verdict.is_accepted()) {
            samples
        } else {
            let mut replayed = samples;
            replayed.extend(replay(&config, &runner, &out, args.prune_passing)?);
            replayed
        }
    };
    let earlier = Earlier {
        still_failing: replayed
            .iter()
            .filter(|r| !r.verdict.is_accepted())
            .map(|r| r.name.clone())
            .collect(),
        junit_cases: replayed
            .iter()
            .map(|r| JunitCase {
                name: format!("replay {}", r.name),
                ..JunitCase::of_record(r)
            })
            .collect(),
    };
    let sample_fails = earlier.still_failing.iter().any(|name| is_sample(name));
    if !earlier.still_failing.is_empty() && (sample_fails || !args.prune_passing) {
        return report_still_failing(args, earlier, &out);
    }
    out.line(heading(args, &config));
    match search(&config, &runner, &out, args.progress_every()?)? {
        Outcome::Passed(passed) => report_passed(args, earlier, &passed, &out),
        Outcome::Failed(failure) => {
            report_failed(args, &config, earlier, &failure, started_at, &out)
        }
    }
}

/// The configuration with every source file compiled (or taken from the cache) once, before
/// any case, all at once, and the checker ready.
fn prepared(args: &StressArgs) -> anyhow::Result<Config> {
    let mut config = args.to_config()?;
    let judging = &args.judging;
    let judge = programs::judge_helper(&judging.checker, &judging.compare)?;
    let mut commands: Vec<(&[std::ffi::OsString], &str)> = vec![(&config.program, "program")];
    if let Source::External(generator) = &config.source {
        commands.push((generator, "generator"));
    }
    if let Oracle::External(reference) = &config.oracle {
        commands.push((reference, "reference"));
    }
    if let Some(validator) = &config.validator {
        commands.push((validator, "validator"));
    }
    commands.extend(judge);
    let mut ready = programs::ready_all(&commands, &judging.compilers)?.into_iter();
    let mut next = || ready.next().unwrap_or_default();
    config.program = next();
    if let Source::External(generator) = &mut config.source {
        *generator = next();
    }
    if let Oracle::External(reference) = &mut config.oracle {
        *reference = next();
    }
    if let Some(validator) = &mut config.validator {
        *validator = next();
    }
    let judge = judge.map(|_| next());
    config.decider = programs::decider_of(&judging.checker, judge, &config.helper_limits);
    Ok(config)
}

/// What the replay of saved failures left for the final report.
struct Earlier {
    /// The saved cases that still fail.
    still_failing: Vec<String>,
    /// One JUnit case per replayed case.
    junit_cases: Vec<JunitCase>,
}

/// `stressing a.out on chess from seed 1 (2 workers)`.
fn heading(args: &StressArgs, config: &Config) -> String {
    format!(
        "stressing {} on {} from seed {}{} ({} worker{})",
        program_name(&args.program),
        args.problem,
        args.seed,
        args.shard
            .map(|s| format!(", shard {}/{}", s.index, s.count))
            .unwrap_or_default(),
        config.jobs,
        plural_s(config.jobs as u64)
    )
}

/// Runs the stress engine with the live progress line and the report's lines as they come.
fn search(
    config: &Config,
    runner: &ProcessRunner,
    out: &Human,
    every: std::time::Duration,
) -> anyhow::Result<Outcome> {
    let progress = Progress::counter("cases").with_plain_lines(every);
    let mut live = true;
    let styles = ui::styles();
    let mut on_event = |event: Event| {
        match &event {
            Event::Progress { cases, elapsed } => {
                if live {
                    progress.update(*cases, *elapsed);
                }
                return;
            }
            Event::MinimizeProgress(status) => {
                progress.message(human::minimize_status(status));
                return;
            }
            _ => {}
        }
        // A line of the report: the live line makes way for it, and comes back only while
        // minimizing.
        live = false;
        if let Some(line) = human::stress_event(&event, &styles) {
            progress.suspend(|| out.line(line));
        }
    };
    let outcome = stress::run(config, runner, &mut on_event);
    progress.finish();
    outcome
}

/// The report of a run whose saved failing cases still fail: they are the failure, and
/// searching again would find and minimize the same case into a duplicate.
fn report_still_failing(
    args: &StressArgs,
    earlier: Earlier,
    out: &Human,
) -> anyhow::Result<Status> {
    let count = earlier.still_failing.len();
    if earlier.still_failing.iter().any(|name| is_sample(name)) {
        out.line(format!(
            "not searching: {} above fail{}; the judge tries its samples first, and so does \
             stress (--no-replay searches anyway)",
            crate::text::plural(count as u64, "sample"),
            if count == 1 { "s" } else { "" }
        ));
    } else {
        out.line(format!(
            "not searching: the {} above still fail{}; fix the program and run again \
             (--no-replay searches anyway)",
            crate::text::plural(count as u64, "saved case"),
            if count == 1 { "s" } else { "" }
        ));
    }
    if let Some(path) = &args.judging.report.junit {
        write_junit(path, &earlier.junit_cases, std::time::Duration::ZERO)?;
    }
    if args.judging.report.json {
        let summary = json::StressPassed {
            still_failing: earlier.still_failing,
            status: "failed",
            problem: args.problem.clone(),
            cases: 0,
            first_seed: args.seed,
            last_seed: None,
            interrupted: false,
            seed: None,
            verdict: None,
            input: None,
            cases_per_second: 0.0,
            elapsed_ms: 0,
        };
        println!("{}", json::line(&summary));
    }
    Ok(Status::Failure)
}

/// The summary of a search that found nothing, in every report asked for. Saved cases that
/// still fail are a failure found, interrupt or not; with none, an interrupted search has not
/// shown that the program passes.
fn report_passed(
    args: &StressArgs,
    earlier: Earlier,
    passed: &stress::Passed,
    out: &Human,
) -> anyhow::Result<Status> {
    let stress::Passed {
        cases,
        first_seed,
        last_seed,
        interrupted,
        elapsed,
    } = *passed;
    let summary = human::stress_passed(cases, first_seed, last_seed, interrupted, elapsed);
    out.line(summary.clone());
    if let Some(path) = &args.judging.report.junit {
        let mut junit_cases = earlier.junit_cases;
        junit_cases.push(JunitCase {
            name: passed_case_name(
                &args.problem,
                cases,
                (first_seed, last_seed),
                interrupted,
                args.shard,
            ),
            time: elapsed,
            system_out: summary.trim().to_string(),
            ..JunitCase::default()
        });
        write_junit(path, &junit_cases, elapsed)?;
    }
    let status = if !earlier.still_failing.is_empty() {
        Status::Failure
    } else if interrupted {
        Status::Interrupted
    } else {
        Status::Success
    };
    if args.judging.report.json {
        let summary = json::StressPassed {
            still_failing: earlier.still_failing,
            status: if status == Status::Interrupted {
                "interrupted"
            } else {
                "ok"
            },
            problem: args.problem.clone(),
            cases,
            first_seed,
            last_seed,
            interrupted,
            seed: None,
            verdict: None,
            input: None,
            cases_per_second: cases as f64 / elapsed.as_secs_f64().max(1e-9),
            elapsed_ms: elapsed.as_millis() as u64,
        };
        println!("{}", json::line(&summary));
    }
    Ok(status)
}

/// The failure found: its explanation, a hint about file I/O, the replay commands, and the
/// JUnit and JSON reports.
fn report_failed(
    args: &StressArgs,
    config: &Config,
    earlier: Earlier,
    failure: &stress::Failure,
    started_at: std::time::SystemTime,
    out: &Human,
) -> anyhow::Result<Status> {
    record_program(args, config, failure);
    let explained = human::stress_failure(failure);
    out.text(ui::explanation(&explained));
    if let Some(hint) =
        programs::silent_program_hint(&config.name, &config.io, &failure.outcome, started_at)
    {
        out.line(format!("\n{hint}"));
    }
    let replay_test = replay::test_command(
        &args.problem,
        &failure.input_path,
        &args.judging,
        &args.program,
    );
    let replay_lines = format!(
        "replay: {replay_test}\n        {}",
        replay::stress_command(args, failure.seed)
    );
    out.line(format!("\n{replay_lines}"));
    if let Some(path) = &args.judging.report.junit {
        let mut junit_cases = earlier.junit_cases;
        junit_cases.push(failed_case(failure, &explained, &replay_lines));
        write_junit(path, &junit_cases, failure.elapsed)?;
    }
    if args.judging.report.json {
        println!(
            "{}",
            json::line(&failed_summary(
                args,
                failure,
                earlier.still_failing,
                replay_test
            ))
        );
    }
    Ok(Status::Failure)
}

/// The JSON summary of a failure found.
fn failed_summary(
    args: &StressArgs,
    failure: &stress::Failure,
    still_failing: Vec<String>,
    replay: String,
) -> json::StressFailed {
    let minimization = failure.minimization.as_ref();
    let (expected, actual) = report::shown_texts(&failure.expected.text, &failure.outcome);
    json::StressFailed {
        still_failing,
        status: "failed",
        problem: args.problem.clone(),
        seed: failure.seed,
        verdict: failure.outcome.verdict(),
        detail: failure.outcome.judgement.detail.clone(),
        input: failure.input_path.clone(),
        original_input: failure.original_path.clone(),
        expected,
        expected_bytes: failure.expected.text.len() as u64,
        actual,
        actual_bytes: failure.outcome.execution.stdout.len(),
        answer_file: failure.input_path.with_extension("ans"),
        output_file: failure.input_path.with_extension("out"),
        transcript: failure.outcome.transcript.as_ref().map(|t| t.render()),
        cases: failure.cases,
        shrink_steps: minimization.map(|m| m.stats.steps),
        shrink_runs: minimization.map(|m| m.stats.runs),
        shrink_ms: minimization.map(|m| m.elapsed.as_millis() as u64),
        one_minimal: minimization.map(|m| m.one_minimal),
        shrink_cut_short: minimization.map(|m| m.passes.cut_short.clone()),
        shrink_passes: minimization.map(|m| m.passes.tried.clone()),
        shrink_not_tried: minimization.map(|m| {
            m.passes
                .not_tried
                .iter()
                .map(|(pass, why)| json::NotTried {
                    pass: pass.clone(),
                    why: why.clone(),
                })
                .collect()
        }),
        explanation: failure.explain_path.clone(),
        replay,
        elapsed_ms: failure.elapsed.as_millis() as u64,
    }
}

/// The JUnit test case of a run that found no failure: what it covered, in its name.
fn passed_case_name(
    problem: &str,
    cases: u64,
    (first_seed, last_seed): (u64, Option<u64>),
    interrupted: bool,
    shard: Option<Shard>,
) -> String {
    let seeds = match (last_seed, shard) {
        (None, _) => "no seed".to_string(),
        (Some(last), None) => format!("seeds {first_seed}..={last}"),
        (Some(last), Some(shard)) => format!(
            "seeds {first_seed}..={last}, shard {}/{}",
            shard.index, shard.count
        ),
    };
    format!(
        "stress {problem}: {} passed ({seeds}){}",
        crate::text::plural(cases, "case"),
        if interrupted { ", interrupted" } else { "" }
    )
}

/// The JUnit test case of a failing seed: the case, expected and actual output and the line
/// of play as the human report shows them, and the commands that replay it.
fn failed_case(failure: &stress::Failure, explained: &str, replay_lines: &str) -> JunitCase {
    let outcome = &failure.outcome;
    let verdict = outcome.verdict();
    JunitCase {
        name: format!("seed {}", failure.seed),
        time: outcome.execution.wall_time,
        failure: Some(JunitFailure {
            error: false,
            kind: verdict.code().to_string(),
            message: format!("{} {}", verdict.code(), outcome.judgement.detail),
            description: format!("{}\n\n{replay_lines}\n", explained.trim()),
        }),
        system_out: match &outcome.transcript {
            Some(transcript) => transcript.render(),
            None => report::shown_texts(&failure.expected.text, outcome).1,
        },
        system_err: report::stderr_tail(&outcome.execution.stderr),
    }
}

/// Writes the stress run's JUnit report.
fn write_junit(
    path: &std::path::Path,
    cases: &[JunitCase],
    elapsed: std::time::Duration,
) -> anyhow::Result<()> {
    let xml = junit::render("duipai stress", cases, elapsed)?;
    junit::write_report_file(path, &xml)
}

/// Writes the sidecar that names the program that failed and how, so that `duipai failures`
/// can list it; a sidecar that cannot be written costs only that listing.
fn record_program(args: &StressArgs, config: &Config, failure: &stress::Failure) {
    let original = (failure.original_path != failure.input_path)
        .then(|| failure.original_path.file_name())
        .flatten()
        .map(|name| name.to_string_lossy().into_owned());
    let meta = saved::Meta {
        problem: args.problem.clone(),
        seed: failure.seed,
        verdict: failure.outcome.verdict().code().to_string(),
        detail: failure.outcome.judgement.detail.clone(),
        program: crate::text::quote_command(&args.program),
        original,
        saved_at: saved::now(),
        setting: Some(setting(args, config)),
        output_bytes: Some(failure.outcome.execution.stdout.len())
            .filter(|&bytes| bytes > stress::save::SAVED_OUTPUT_BYTES as u64),
    };
    if let Err(err) = saved::write_meta(&failure.input_path, &meta) {
        eprintln!("duipai: warning: {err:#}");
    }
}

/// How the run judged and made its cases, for the sidecar of the case it saves.
fn setting(args: &StressArgs, config: &Config) -> saved::Setting {
    let judging = &args.judging;
    let typed = |words: &Option<crate::app::args::CommandWords>| {
        words.as_ref().map(|w| crate::text::quote_command(&w.0))
    };
    saved::Setting {
        flags: crate::app::args::setting_words(
            &judging.compare,
            &judging.checker,
            &judging.limits,
            &judging.run,
        ),
        checker: typed(&judging.checker.checker),
        interactor: typed(&judging.checker.interactor),
        tolerance: judging.compare.tolerance,
        ignore_case: judging.compare.ignore_case,
        time_limit_ms: config.limits.cpu.as_millis() as u64,
        memory_limit_mib: config.limits.memory_bytes >> 20,
        generator: typed(&args.generator),
        generator_flags: if args.args.is_empty() {
            args.gen_args.to_params().to_flags()
        } else {
            args.args.join(" ")
        },
    }
}

/// Whether a replayed case's name is one of the problem folder's samples.
fn is_sample(name: &str) -> bool {
    std::path::Path::new(name).starts_with(crate::companion::folder::SAMPLES)
}

/// In a problem folder (a `duipai.toml` beside `samples/`), runs the program on the samples
/// before anything else, as a judge does; returns the record of each.
fn judge_samples(
    config: &Config,
    runner: &ProcessRunner,
    out: &Human,
) -> anyhow::Result<Vec<CaseRecord>> {
    let dir = PathBuf::from(crate::companion::folder::SAMPLES);
    if !std::path::Path::new(crate::companion::folder::CONFIG).is_file() || !dir.is_dir() {
        return Ok(Vec::new());
    }
    let bounds = crate::app::args::BoundsArgs::default().resolve_named(&config.name)?;
    let known = config.problem.zip(bounds.as_ref());
    // A sample without its answer file is answered by the reference, when there is one.
    let name = match &config.oracle {
        Oracle::External(command) => crate::text::program_name(command),
        _ => String::new(),
    };
    let reference = match &config.oracle {
        Oracle::External(command) => Some(crate::suite::Reference {
            runner,
            command,
            name: &name,
            limits: &config.helper_limits,
            jobs: config.jobs,
            rule: config.rule,
            fail_fast: true,
            empty_answers: config.empty_answers,
        }),
        _ => None,
    };
    let answers = match (&config.oracle, &reference) {
        (Oracle::Interactor, _) => crate::suite::Answers::Unneeded,
        (_, Some(reference)) => crate::suite::Answers::Reference(reference),
        _ => crate::suite::Answers::Builtin,
    };
    let mut cases = crate::suite::collect(known, &config.name, &dir, config.rule, answers)?.cases;
    if cases.is_empty() {
        return Ok(Vec::new());
    }
    for case in &mut cases {
        case.name = dir.join(&case.name).display().to_string();
    }
    out.line(format!(
        "judging the {} in {}/ first",
        crate::text::plural(cases.len() as u64, "sample"),
        dir.display()
    ));
    let (records, _) = judge_cases(config, runner, out, &cases)?;
    if records.iter().all(|r| r.verdict.is_accepted()) {
        out.line("all of them pass\n");
    }
    Ok(records)
}

/// Judges stored cases as a stress run judges, a line each (and the failure under it); returns
/// the record and the outcome of each case judged (all of them unless cancelled).
fn judge_cases(
    config: &Config,
    runner: &ProcessRunner,
    out: &Human,
    cases: &[crate::suite::StoredCase],
) -> anyhow::Result<(Vec<CaseRecord>, Vec<crate::judge::CaseOutcome>)> {
    let run = crate::suite::SuiteRun {
        runner,
        program: &config.program,
        limits: &config.limits,
        io: &config.io,
        jobs: config.jobs,
        decider: &config.decider,
    };
    let mut records: Vec<CaseRecord> = Vec::new();
    let outcomes = crate::suite::judge_all(
        cases,
        &run,
        |i, outcome| {
            let record = CaseRecord::new(&cases[i].name, &cases[i].expected.text, outcome);
            out.line(report::human_line(&record, &ui::styles()));
            if !record.verdict.is_accepted() {
                out.text(report::failure_block(&record));
            }
            records.push(record);
        },
        || {},
    )?;
    Ok((records, outcomes))
}

/// Runs the program on the failing cases saved for this problem, before any new seed, and
/// with `prune` removes those that pass; returns the record of each.
fn replay(
    config: &Config,
    runner: &ProcessRunner,
    out: &Human,
    prune: bool,
) -> anyhow::Result<Vec<CaseRecord>> {
    let cases = crate::suite::collect_saved(&config.save_dir, &config.name, config.rule)?;
    if cases.is_empty() {
        return Ok(Vec::new());
    }
    out.line(format!(
        "replaying {} saved in {}",
        crate::text::plural(cases.len() as u64, "failing case"),
        config.save_dir.display()
    ));
    let (records, outcomes) = judge_cases(config, runner, out, &cases)?;
    if prune && !crate::run::cancelled() {
        super::failures::remove_passing(&cases[..outcomes.len()], &outcomes, out)?;
        out.line("");
        return Ok(records);
    }
    let still = records.iter().filter(|r| !r.verdict.is_accepted()).count();
    out.line(if still == 0 {
        "all of them pass now\n".to_string()
    } else {
        format!("{still} still failing\n")
    });
    Ok(records)
}
