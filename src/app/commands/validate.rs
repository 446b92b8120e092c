//! `duipai validate`: check input files against a problem's format and bounds, and with
//! `--coverage` say which values of each bound they reached.

use crate::app::args::ValidateArgs;
use crate::app::exit::Status;
use crate::problem::Coverage;

/// Prints `FILE: ok` or `FILE:LINE:COLUMN: message` for every file (`-` is stdin). Status 1 if
/// any is invalid, 2 if any cannot be read (every file is still checked). With `--coverage`,
/// then the bounds' coverage over the valid files.
pub fn run(args: ValidateArgs) -> anyhow::Result<Status> {
    let bounds = args.bounds.resolve(args.problem)?;
    let mut status = Status::Success;
    let mut coverage = Coverage::default();
    let mut valid = 0usize;
    for path in &args.files {
        match super::solve::read_input(Some(path)) {
            Err(e) => {
                eprintln!("duipai: error: {e:#}");
                status = Status::Error;
            }
            Ok((bytes, name)) => match args.problem.coverage(&bytes, &bounds) {
                Ok(reached) => {
                    println!("{name}: ok");
                    coverage.merge(&reached);
                    valid += 1;
                }
                Err(e) => {
                    println!("{name}:{}:{}: {}", e.line, e.column, e.message);
                    if status == Status::Success {
                        status = Status::Failure;
                    }
                }
            },
        }
    }
    if args.coverage {
        println!(
            "coverage of {} ({} bounds):",
            crate::text::plural(valid as u64, "valid file"),
            args.problem
        );
        for line in coverage.table(args.problem.bounds()) {
            println!("  {line}");
        }
    }
    Ok(status)
}
