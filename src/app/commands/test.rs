//! `duipai test`: judge a program on stored cases (`*.in` with `.ans`/`.out` answers, or the
//! reference solver's), in parallel, with human, JSON and JUnit reports.

use std::time::Instant;

use anyhow::bail;

use crate::app::args::TestArgs;
use crate::app::exit::Status;
use crate::app::ui::{self, Human, jobs};
use crate::app::{interrupt, programs, watch};
use crate::report::{self, CaseRecord, json, junit};
use crate::stress::program_name;
use crate::suite::{self, SuiteRun};
use crate::text::{plural, plural_s};

/// How many failing cases get a diff in the human report.
const DIFFS_SHOWN: usize = 3;

pub fn run(args: TestArgs) -> anyhow::Result<Status> {
    interrupt::install();
    programs::warn_flags_after_separator("test", &args.program);
    if args.watch {
        return watch::watch(
            || watch::files_of(&[&args.program]),
            || junit::on_error(args.junit.as_deref(), "duipai test", run_once(&args)),
        );
    }
    run_once(&args)
}

fn run_once(args: &TestArgs) -> anyhow::Result<Status> {
    let started = Instant::now();
    let started_at = std::time::SystemTime::now();
    let problem = args.problem.as_str();
    if let Some(path) = &args.junit {
        junit::check_report_path(path)?;
    }
    let cases = match crate::problem::by_name(problem) {
        Some(known) => suite::collect_cases(known, &args.bounds.resolve(known)?, &args.dir)?,
        None => {
            if args.bounds.is_set() {
                bail!(
                    "the --bound-* flags are for the problems duipai knows; {} is not one",
                    crate::text::quote(problem)
                );
            }
            let cases = suite::collect_unknown_cases(problem, &args.dir)?;
            // A misspelt `chess` must not pass unnoticed.
            let near = crate::text::closest(problem, crate::problem::names(), 2)
                .map(|game| format!("; did you mean {game}?"))
                .unwrap_or_default();
            eprintln!(
                "duipai: note: {} is not a problem duipai knows ({}){near}: inputs are not \
                 checked, and outputs are compared with the answer files token by token",
                crate::text::quote(problem),
                crate::problem::names().join(", ")
            );
            cases
        }
    };
    let limits = args.limits.resolve_named(problem);
    let io = args.limits.io_mode_named(problem);
    let jobs = jobs(args.jobs);
    let out = Human::new(args.json);
    let program = programs::ready(&args.program, &args.compilers, "program")?;

    out.line(format!(
        "testing {} on {} from {} ({} worker{})",
        program_name(&args.program),
        plural(cases.len() as u64, "case"),
        args.dir.display(),
        jobs,
        plural_s(jobs as u64),
    ));
    let run = SuiteRun {
        runner: &args.limits.runner(),
        program: &program,
        limits: &limits,
        io: &io,
        jobs,
    };
    let outcomes = suite::judge_all(
        &cases,
        &run,
        |i, outcome| {
            let record = CaseRecord::new(&cases[i].name, &cases[i].expected.text, outcome);
            out.line(ui::verdict_line(&report::human_line(&record)));
            if !record.verdict.is_accepted() {
                out.text(report::stderr_block(&record.stderr));
            }
            if args.json {
                println!("{}", json::line(&record));
            }
        },
        || {},
    );
    let outcomes = outcomes?;
    if crate::run::cancelled() {
        // An error after the interrupt: the command ends as interrupted (exit 130).
        bail!(
            "{} of {} judged",
            outcomes.len(),
            plural(cases.len() as u64, "case")
        );
    }

    let records: Vec<CaseRecord> = cases
        .iter()
        .zip(&outcomes)
        .map(|(case, outcome)| CaseRecord::new(&case.name, &case.expected.text, outcome))
        .collect();
    let failures: Vec<usize> = (0..cases.len())
        .filter(|&i| !outcomes[i].verdict().is_accepted())
        .collect();
    for &i in failures.iter().take(DIFFS_SHOWN) {
        if report::shows_output(outcomes[i].verdict()) {
            out.line(format!(
                "\n{}: {}",
                cases[i].name, outcomes[i].judgement.detail
            ));
            out.text(ui::diff(&report::diff::unified(
                &cases[i].expected.text,
                &outcomes[i].execution.stdout,
            )));
        }
    }
    let silent = outcomes.iter().any(|o| {
        o.execution.stdout.is_empty() && o.verdict() == crate::judge::Verdict::PresentationError
    });
    if let Some(hint) = programs::file_io_hint(problem, args.limits.file_io, silent, started_at) {
        out.line(format!("\n{hint}"));
    }
    let elapsed = started.elapsed();
    out.line(format!(
        "\n{}: {} in {:.2} s",
        plural(records.len() as u64, "case"),
        report::summary(&records),
        elapsed.as_secs_f64()
    ));

    if let Some(path) = &args.junit {
        let suite = format!("duipai test {problem} {}", args.dir.display());
        let xml = junit::junit_xml(&suite, &records, elapsed)?;
        junit::write_report_file(path, &xml)?;
    }
    if args.json {
        let summary = json::TestSummary {
            status: if failures.is_empty() { "ok" } else { "failed" },
            problem,
            cases: &records,
            passed: records.len() - failures.len(),
            failed: failures.len(),
            elapsed_ms: elapsed.as_millis() as u64,
        };
        println!("{}", json::line(&summary));
    }
    Ok(if failures.is_empty() {
        Status::Success
    } else {
        Status::Failure
    })
}
