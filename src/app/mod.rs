//! The command line: the only code that knows clap, ctrlc, indicatif and the terminal. It
//! parses the arguments, converts them into engine types, runs the engine and hands the
//! outcome to a reporter.

use std::process::ExitCode;

use clap::Parser;

pub mod args;
mod commands;
pub mod exit;
mod interrupt;
mod programs;
mod replay;
mod ui;
mod watch;

use args::{Cli, Command};
use exit::Status;

/// Parse the command line, run the subcommand, and turn its outcome into an exit status.
/// Errors are printed once, with their chain of causes; with `--json`, stdout's last line is
/// then `{"status":"error","message":...}`, or `"status":"interrupted"` after Ctrl-C.
pub fn main() -> ExitCode {
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // `--json` before the program's own arguments (after `--`) asks for JSON on stdout.
    let json = argv
        .iter()
        .skip(1)
        .take_while(|a| *a != "--")
        .any(|a| a == "--json");
    let cli = match Cli::try_parse_from(&argv) {
        Ok(cli) => cli,
        Err(err) => {
            let usage_error = err.use_stderr();
            if json && usage_error {
                let rendered = err.render().to_string();
                let first = rendered.lines().next().unwrap_or_default();
                println!(
                    "{}",
                    status_json(
                        Status::Usage,
                        first.strip_prefix("error: ").unwrap_or(first)
                    )
                );
            }
            let _ = err.print();
            return if usage_error {
                Status::Usage.into()
            } else {
                // --help and --version.
                Status::Success.into()
            };
        }
    };
    ui::set_color(cli.color);
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
            let status = exit::report_error(&err);
            if json {
                println!("{}", status_json(status, &format!("{err:#}")));
            }
            status.into()
        }
    }
}

/// The JSON line of a harness or usage error (`"status":"error"`), or of an interrupt
/// (`"status":"interrupted"`).
fn status_json(status: Status, message: &str) -> String {
    serde_json::json!({ "status": status.json_name(), "message": message }).to_string()
}
