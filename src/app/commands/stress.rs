//! `duipai stress` (对拍): the stress engine with the human and JSON reports.

use std::path::PathBuf;
use std::time::Duration;

use crate::app::args::StressArgs;
use crate::app::exit::Status;
use crate::app::ui::{Human, Progress, jobs};
use crate::app::{interrupt, replay};
use crate::judge::ProcessRunner;
use crate::problem::Spec;
use crate::report::{human, json};
use crate::stress::{self, Config, Event, Oracle, Outcome, Seeds, Source, program_name};
use crate::text::plural_s;

pub fn run(args: StressArgs) -> anyhow::Result<Status> {
    let config = config(&args)?;
    let out = Human::new(args.json);
    interrupt::install();

    out.line(format!(
        "stressing {} on {} from seed {}{} ({} worker{})",
        program_name(&args.program),
        args.problem,
        args.seed,
        args.shard
            .map(|s| format!(", shard {}/{}", s.index, s.count))
            .unwrap_or_default(),
        config.jobs,
        plural_s(config.jobs as u64)
    ));

    let progress = Progress::counter("cases");
    let mut searching = true;
    let mut on_event = |event: Event| {
        if let Event::Progress { cases, elapsed } = event {
            if searching {
                progress.update(cases, elapsed);
            }
            return;
        }
        if searching {
            searching = false;
            progress.finish();
        }
        if let Some(line) = human::stress_event(&event) {
            out.line(line);
        }
    };
    let outcome = stress::run(&config, &ProcessRunner, &mut on_event);
    progress.finish();
    match outcome? {
        Outcome::Passed {
            cases,
            first_seed,
            last_seed,
            interrupted,
            elapsed,
        } => {
            out.line(human::stress_passed(
                cases,
                first_seed,
                last_seed,
                interrupted,
                elapsed,
            ));
            if args.json {
                let summary = json::StressPassed {
                    status: "ok",
                    problem: args.problem,
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
            Ok(Status::Success)
        }
        Outcome::Failed(failure) => {
            out.text(human::stress_failure(&failure));
            let problem = args.problem.name();
            let replay_test =
                replay::test_command(problem, &failure.input_path, &args.limits, &args.program);
            out.line(format!("\nreplay: {replay_test}"));
            if matches!(config.source, Source::Builtin(_)) {
                out.line(format!(
                    "        {}",
                    replay::stress_command(
                        problem,
                        &args.gen_args,
                        failure.seed,
                        args.no_shrink,
                        &args.limits,
                        &args.program
                    )
                ));
            }
            if args.json {
                let stdout = &failure.outcome.execution.stdout;
                let summary = json::StressFailed {
                    status: "failed",
                    problem: args.problem,
                    seed: failure.seed,
                    verdict: failure.outcome.verdict(),
                    detail: failure.outcome.judgement.detail.clone(),
                    input: failure.input_path.clone(),
                    original_input: failure.original_path.clone(),
                    expected: failure.expected.to_text().trim_end().to_string(),
                    actual: String::from_utf8_lossy(&stdout[..stdout.len().min(4096)]).into_owned(),
                    cases: failure.cases,
                    shrink_steps: failure.minimization.map(|m| m.stats.steps),
                    shrink_runs: failure.minimization.map(|m| m.stats.attempts),
                    replay: replay_test,
                    elapsed_ms: failure.elapsed.as_millis() as u64,
                };
                println!("{}", json::line(&summary));
            }
            Ok(Status::Failure)
        }
    }
}

/// The engine's configuration from the command line.
fn config(args: &StressArgs) -> anyhow::Result<Config> {
    let problem = args.problem;
    let source = match &args.generator {
        Some(program) => Source::External(vec![program.clone().into_os_string()]),
        None => Source::Builtin(Spec::new(problem, &args.gen_args.to_params())?),
    };
    let oracle = match &args.reference {
        Some(program) => Oracle::External(vec![program.clone().into_os_string()]),
        None => Oracle::Builtin,
    };
    let (offset, stride) = args.shard.map_or((0, 1), |s| (s.index - 1, s.count));
    Ok(Config {
        problem,
        source,
        oracle,
        program: args.program.clone(),
        limits: args.limits.resolve(problem),
        io: args.limits.io_mode(problem),
        seeds: Seeds {
            first: args.seed,
            offset,
            stride,
        },
        jobs: jobs(args.jobs),
        iterations: args.iterations,
        time: args.time.map(|s| Duration::from_secs_f64(s.max(0.0))),
        save_dir: PathBuf::from(&args.save),
        shrink: !args.no_shrink,
    })
}
