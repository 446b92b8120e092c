//! `duipai validate`: check input files against a problem's format and bounds.

use crate::app::args::ValidateArgs;
use crate::app::exit::Status;

/// Prints `FILE: ok` or `FILE:LINE:COLUMN: message` for every file (`-` is stdin). Status 1 if
/// any is invalid, 2 if any cannot be read (every file is still checked).
pub fn run(args: ValidateArgs) -> anyhow::Result<Status> {
    let bounds = args.bounds.resolve(args.problem)?;
    let mut status = Status::Success;
    for path in &args.files {
        match super::solve::read_input(Some(path)) {
            Err(e) => {
                eprintln!("duipai: error: {e:#}");
                status = Status::Error;
            }
            Ok((bytes, name)) => match args.problem.parse(&bytes, &bounds) {
                Ok(_) => println!("{name}: ok"),
                Err(e) => {
                    println!("{name}:{}:{}: {}", e.line, e.column, e.message);
                    if status == Status::Success {
                        status = Status::Failure;
                    }
                }
            },
        }
    }
    Ok(status)
}
