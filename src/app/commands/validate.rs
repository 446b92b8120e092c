//! `duipai validate`: check input files against a problem's format and bounds (a game's own,
//! or the validator of a problem of one's own), and with `--coverage` say which values of
//! each bound they reached.

use crate::app::args::ValidateArgs;
use crate::app::exit::Status;
use crate::app::own::{self, Parts};
use crate::judge::ProcessRunner;
use crate::own::{Overview, Validity};
use crate::problem::{Coverage, Problem};

/// Prints `FILE: ok` or `FILE:LINE:COLUMN: message` for every file (`-` is stdin). Status 1 if
/// any is invalid, 2 if any cannot be read (every file is still checked). With `--coverage`,
/// then the bounds' coverage over the valid files.
pub fn run(args: ValidateArgs) -> anyhow::Result<Status> {
    args.helpers.arm();
    match crate::problem::by_name(&args.problem) {
        Some(game) => {
            if args.validator.is_some() {
                anyhow::bail!(
                    "--validator is for problems of your own; {game} has a validator of its own"
                );
            }
            builtin(&args, game)
        }
        None => own_problem(&args),
    }
}

fn builtin(args: &ValidateArgs, problem: &dyn Problem) -> anyhow::Result<Status> {
    if args.files.is_empty() {
        anyhow::bail!("give the input files to check");
    }
    let bounds = args.bounds.resolve(problem)?;
    let mut status = Status::Success;
    let mut coverage = Coverage::default();
    let mut valid = 0usize;
    for path in &args.files {
        match super::solve::read_input(Some(path)) {
            Err(e) => {
                eprintln!("duipai: error: {e:#}");
                status = Status::Error;
            }
            Ok((bytes, name)) => match strict_coverage(problem, &bytes, &bounds) {
                Ok(reached) => {
                    println!("{name}: ok");
                    coverage.merge(&reached);
                    valid += 1;
                }
                Err(e) => {
                    println!("{name}:{}:{}: {}", e.line, e.column, e.message);
                    status = worse(status, Status::Failure);
                }
            },
        }
    }
    if args.coverage {
        println!(
            "coverage of {} ({problem} bounds):",
            crate::text::plural(valid as u64, "valid file"),
        );
        for line in coverage.table(problem.bounds()) {
            println!("  {line}");
        }
    }
    Ok(status)
}

/// The bounds an input reaches, when it is valid, laid out exactly as the format is (one
/// space between tokens, `\n` line ends, the last line ended too, no empty line but where the
/// format has one): what the package's `input.ctd` accepts.
fn strict_coverage(
    problem: &dyn Problem,
    bytes: &[u8],
    bounds: &crate::problem::Bounds,
) -> Result<Coverage, crate::problem::InputError> {
    let reached = problem.coverage(bytes, bounds)?;
    let instance = problem.parse(bytes, bounds)?;
    crate::problem::layout::check_layout(bytes, &instance.to_input())?;
    Ok(reached)
}

/// The status that says the most: an error over an invalid file over success.
fn worse(a: Status, b: Status) -> Status {
    if a == Status::Error || b == Status::Error {
        Status::Error
    } else if a == Status::Failure || b == Status::Failure {
        Status::Failure
    } else {
        Status::Success
    }
}

/// Runs the validator of a problem of one's own on every file: `FILE: ok`, or `FILE:
/// invalid: MESSAGE` with the validator's message.
fn own_problem(args: &ValidateArgs) -> anyhow::Result<Status> {
    if args.bounds.is_set() {
        anyhow::bail!(
            "the --bound-* flags are for the built-in games; the validator of {} holds its own \
             bounds",
            crate::text::quote(&args.problem)
        );
    }
    let Some(validator) = &args.validator else {
        return Err(own::missing(&args.problem, "validator", "validator.cpp"));
    };
    let parts = Parts {
        validator: Some(validator),
        compilers: &args.compilers,
        ..Parts::default()
    };
    let problem = own::problem(&args.problem, &parts)?;
    let runner = ProcessRunner { rerun: false };
    let mut status = Status::Success;
    let mut overview = Overview::default();
    let mut valid = 0usize;
    let package = std::path::Path::new("");
    if args.files.is_empty() && !crate::polygon::Package::is_in(package) {
        anyhow::bail!("give the input files to check");
    }
    for path in &args.files {
        let checked = super::solve::read_input(Some(path)).and_then(|(bytes, name)| {
            let validity = problem.validate(&runner, &bytes)?;
            Ok((name, validity))
        });
        match checked {
            Err(e) => {
                eprintln!("duipai: error: {e:#}");
                status = Status::Error;
            }
            Ok((name, Some(Validity::Valid(log)))) => {
                println!("{name}: ok");
                if let Some(log) = log {
                    overview.merge(&log);
                }
                valid += 1;
            }
            Ok((name, Some(Validity::Invalid(message)))) => {
                println!("{name}: invalid: {message}");
                status = worse(status, Status::Failure);
            }
            Ok((_, None)) => unreachable!("the problem has a validator"),
        }
    }
    if args.coverage {
        print_coverage(&problem, &overview, valid);
    }
    if crate::polygon::Package::is_in(package) {
        // In a Polygon package, the validator's own tests too.
        let package = crate::polygon::Package::read(package)?;
        let ran = crate::app::polygon_tests::validator_tests(&package, &problem, &runner)?;
        ran.lines.iter().for_each(|l| println!("{l}"));
        println!(
            "{}",
            ran.summary("validator", package.validator_tests.len())
        );
        if ran.failed > 0 {
            status = worse(status, Status::Failure);
        }
    }
    Ok(status)
}

/// The bounds the valid files reached, from a testlib validator's overview logs; another
/// validator cannot say.
fn print_coverage(problem: &crate::own::OwnProblem, overview: &Overview, valid: usize) {
    let files = crate::text::plural(valid as u64, "valid file");
    if !problem.testlib_validator() {
        println!(
            "coverage of {files}: cannot know which bounds they reach: the validator is not a \
             testlib validator (a C++ source calling registerValidation), whose test overview \
             log would say"
        );
        return;
    }
    println!("coverage of {files} (the testlib validator's named bounds):");
    for line in overview.table() {
        println!("  {line}");
    }
}
