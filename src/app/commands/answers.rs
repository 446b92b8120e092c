//! `duipai answers`: write the answer files that stored inputs are missing, from a reference
//! program or the built-in solver, never replacing one that exists.

use anyhow::bail;

use crate::app::args::{AnswersArgs, LimitArgs};
use crate::app::exit::Status;
use crate::app::ui::jobs;
use crate::app::{interrupt, programs};
use crate::judge::ProcessRunner;
use crate::suite::{self, Reference};
use crate::text::{plural, program_name};

pub fn run(args: AnswersArgs) -> anyhow::Result<Status> {
    interrupt::install();
    args.helpers.arm();
    let problem = args.problem.as_str();
    let known = crate::problem::by_name(problem);
    let bounds = args.bounds.resolve_named(problem)?;
    let typed = args.reference.as_ref().map(|r| r.0.as_slice());
    let command = match typed {
        Some(typed) => Some(programs::ready(typed, &args.compilers, "reference")?),
        None => None,
    };
    let name = typed.map(program_name).unwrap_or_default();
    // The reference gets the generous limits of helpers, derived from the problem's own.
    let limits = LimitArgs::default().helpers(&LimitArgs::default().resolve_named(problem));
    let runner = ProcessRunner { rerun: false };
    let reference = command.as_deref().map(|command| Reference {
        runner: &runner,
        command,
        name: &name,
        limits: &limits,
        jobs: jobs(args.jobs),
        rule: crate::answer::Rule::EXACT,
        // Every answer that can be written is: one input's failure leaves the others.
        fail_fast: false,
        empty_answers: false,
    });
    let report = suite::write_missing_answers(
        known.zip(bounds.as_ref()),
        problem,
        &args.dir,
        reference.as_ref(),
        &mut |path| println!("wrote {}", path.display()),
    )?;
    let source = match &reference {
        Some(_) => format!("the reference {name}"),
        None => "the built-in solver".to_string(),
    };
    if report.written.is_empty() && report.failed.is_empty() {
        println!(
            "nothing to write: every input has its answer file ({})",
            plural(report.present as u64, "input")
        );
    } else {
        println!(
            "{} from {source}; {} had one already",
            plural(report.written.len() as u64, "answer file"),
            plural(report.present as u64, "input"),
        );
    }
    if !report.failed.is_empty() {
        let reasons: Vec<String> = report.failed.iter().map(|e| format!("{e:#}")).collect();
        bail!(
            "no answer written for {} of {}:\n{}",
            plural(report.failed.len() as u64, "input"),
            report.failed.len() + report.written.len(),
            reasons.join("\n")
        );
    }
    Ok(Status::Success)
}
