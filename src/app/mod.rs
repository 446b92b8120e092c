//! The command line: the only code that knows clap, ctrlc, indicatif and the terminal. It
//! parses the arguments, converts them into engine types, runs the engine and hands the
//! outcome to a reporter.

use std::process::ExitCode;

use clap::Parser;

pub mod args;
mod commands;
pub mod exit;
mod interrupt;
mod replay;
mod ui;

use args::{Cli, Command};
use exit::Status;

/// Parse the command line, run the subcommand, and turn its outcome into an exit status.
/// Errors are printed once, with their chain of causes.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Solve(args) => commands::solve::run(args),
        Command::Validate(args) => commands::validate::run(args),
        Command::Gen(args) => commands::generate::run(args),
        Command::Pack(args) => commands::pack::run(args),
        Command::Test(args) => commands::test::run(args),
        Command::Stress(args) => commands::stress::run(args),
    };
    match result {
        Ok(status) => status.into(),
        Err(err) => {
            eprintln!("duipai: error: {err:#}");
            Status::Usage.into()
        }
    }
}
