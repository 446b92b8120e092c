//! The command line: the only code that knows clap, ctrlc, indicatif and the terminal. It
//! parses the arguments, converts them into engine types, runs the engine and hands the
//! outcome to a reporter.

use std::process::ExitCode;

pub mod args;
mod commands;
mod config;
pub mod exit;
mod interrupt;
mod own;
mod polygon;
mod polygon_tests;
mod programs;
mod replay;
mod ui;
mod watch;

use args::{Cli, Command};
use exit::Status;

/// Parse the command line, run the subcommand, and turn its outcome into an exit status.
/// Errors are printed once, with their chain of causes; with `--json`, stdout's last line is
/// then `{"schema":1,"status":"error","message":...}` (`"status":"interrupted"` after Ctrl-C),
/// and with `--junit FILE` the report is rewritten to show the error.
pub fn main() -> ExitCode {
    let status = main_status();
    // A compiler still running now is one no step waits for (the recorder's build, begun
    // beside a search that then found nothing): it ends with duipai rather than outlive it.
    crate::compile::cancel();
    // Its spawners and their keepers end with it, reaped, rather than outlive it; its
    // scratch directories are removed.
    crate::run::retire();
    status
}

fn main_status() -> ExitCode {
    let typed: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // The problem folder's settings, as words inserted before the command line's own.
    let settings = config::apply_noted(&typed);
    let argv = settings.as_ref().map(|(argv, _)| argv).unwrap_or(&typed);
    let reports = ErrorReports::read(argv);
    match &settings {
        Err(err) => {
            // Positioned (`duipai.toml:4:12: ...`), so printed as it is, as `validate` does.
            eprintln!("{err}");
            reports.junit(&err.0);
            reports.json(Status::Error, &err.0);
            return Status::Error.into();
        }
        Ok((_, Some(note))) => eprintln!("duipai: {note}"),
        Ok(_) => {}
    }
    let cli = match parse(argv) {
        Ok(cli) => cli,
        Err(err) => return clap_exit(err, &reports),
    };
    ui::set_color(cli.color);
    crate::run::warm::set_enabled(!cli.fresh_helpers);
    let result = run(cli);
    // Which Python helpers could not start warm, said once the command's own output is.
    for note in crate::run::warm::notes() {
        eprintln!("duipai: note: {note}");
    }
    match result {
        Ok(status) => status.into(),
        Err(err) => {
            let status = exit::report_error(&err);
            reports.junit(&format!("{err:#}"));
            reports.json(status, &format!("{err:#}"));
            status.into()
        }
    }
}

/// Where an error is reported besides stderr: stdout's JSON line under `--json`, and the
/// report of `--junit FILE`.
struct ErrorReports {
    json: bool,
    junit: Option<(String, std::path::PathBuf)>,
}

impl ErrorReports {
    /// Read before clap, so that a usage error too replaces the previous report.
    fn read(argv: &[std::ffi::OsString]) -> ErrorReports {
        // `--json` before the program's own arguments (after `--`) asks for JSON on stdout.
        let json = argv
            .iter()
            .skip(1)
            .take_while(|a| *a != "--")
            .any(|a| a == "--json");
        ErrorReports {
            json,
            junit: junit_report(argv),
        }
    }

    fn junit(&self, message: &str) {
        if let Some((suite, path)) = &self.junit {
            crate::report::junit::write_error_report(path, suite, message);
        }
    }

    fn json(&self, status: Status, message: &str) {
        if self.json {
            println!("{}", status_json(status, message));
        }
    }
}

/// Prints what clap has to say; a usage error is also reported as JSON and JUnit, by its
/// first line.
fn clap_exit(err: clap::Error, reports: &ErrorReports) -> ExitCode {
    let err = correct_tips(err);
    let usage_error = err.use_stderr();
    if usage_error {
        let rendered = err.render().to_string();
        let first = rendered.lines().next().unwrap_or_default();
        let message = first.strip_prefix("error: ").unwrap_or(first);
        reports.json(Status::Error, message);
        reports.junit(message);
    }
    let _ = err.print();
    if usage_error {
        Status::Error.into()
    } else {
        // --help and --version.
        Status::Success.into()
    }
}

fn run(cli: Cli) -> anyhow::Result<Status> {
    match cli.command {
        Command::Solve(args) => commands::solve::run(args),
        Command::Validate(args) => commands::validate::run(args),
        Command::Gen(args) => commands::generate::run(args),
        Command::Pack(args) => commands::pack::run(args, cli.config),
        Command::Test(args) => commands::test::run(args),
        Command::Stress(args) => commands::stress::run(args),
        Command::Failures(args) => commands::failures::run(args),
        Command::Init(args) => commands::init::run(args, cli.config),
        Command::Answers(args) => commands::answers::run(args),
        Command::Judge(args) => commands::judge::run(args),
        Command::Hunt(args) => commands::hunt::run(args),
        Command::Doctor => commands::doctor::run(),
        Command::Listen(args) => commands::listen::run(args),
        Command::Completions(args) => commands::shell::completions(args),
        Command::Man(args) => commands::shell::man(args),
    }
}

/// Parses the command line. The help of a subcommand that names a game (`duipai gen gems
/// --help`) ends with that game's own parameters, bounds and families.
fn parse(argv: &[std::ffi::OsString]) -> Result<Cli, clap::Error> {
    use clap::{CommandFactory, FromArgMatches};
    let mut command = Cli::command();
    let words: Vec<&str> = argv.iter().skip(1).filter_map(|a| a.to_str()).collect();
    if let Some(at) = words.iter().position(|w| !w.starts_with('-')) {
        let sub = words[at];
        let game = words[at + 1..]
            .iter()
            .take_while(|w| **w != "--")
            .find_map(|w| crate::problem::by_name(w));
        if let Some(game) = game
            && command.find_subcommand(sub).is_some()
        {
            let help = args::game_help(game);
            command = command.mut_subcommand(sub, |c| c.after_help(help));
        }
    }
    let matches = command.try_get_matches_from(argv)?;
    Cli::from_arg_matches(&matches)
}

/// clap's tip for an unknown flag of a command with a program after `--` ("to pass
/// '--checker' as a value, use '-- --checker'") is wrong here: after `--`, every word is the
/// program's. It becomes what is true: the program's arguments follow the program.
fn correct_tips(mut err: clap::Error) -> clap::Error {
    use clap::error::{ContextKind, ContextValue};
    let Some(ContextValue::StyledStrs(tips)) = err.get(ContextKind::Suggested) else {
        return err;
    };
    let wrong = |tip: &clap::builder::StyledStr| tip.to_string().contains("as a value, use");
    if !tips.iter().any(wrong) {
        return err;
    }
    let mut kept: Vec<clap::builder::StyledStr> =
        tips.iter().filter(|t| !wrong(t)).cloned().collect();
    if err.kind() == clap::error::ErrorKind::UnknownArgument
        && let Some(ContextValue::String(flag)) = err.get(ContextKind::InvalidArg)
    {
        kept.push(
            format!(
                "duipai's own flags go before `--`; to pass '{flag}' to the program, write it \
                 after the program: '-- PROGRAM {flag}'"
            )
            .into(),
        );
    }
    err.insert(ContextKind::Suggested, ContextValue::StyledStrs(kept));
    err
}

/// The `--junit FILE` of a `test` or `stress` command line, as the report's suite name and
/// FILE, read from the words before `--` without clap (which may have refused them).
fn junit_report(argv: &[std::ffi::OsString]) -> Option<(String, std::path::PathBuf)> {
    let words: Vec<&std::ffi::OsString> = argv.iter().skip(1).take_while(|a| *a != "--").collect();
    let command = words.iter().find_map(|w| {
        let w = w.to_str()?;
        [
            "solve", "validate", "gen", "pack", "test", "stress", "answers", "failures", "init",
            "judge", "hunt",
        ]
        .contains(&w)
        .then_some(w)
    })?;
    if !["test", "stress", "judge"].contains(&command) {
        return None;
    }
    let mut path = None;
    for (i, word) in words.iter().enumerate() {
        let text = word.to_string_lossy();
        if text == "--junit" {
            path = words.get(i + 1).map(std::path::PathBuf::from);
        } else if let Some(value) = text.strip_prefix("--junit=") {
            path = Some(std::path::PathBuf::from(value));
        }
    }
    Some((format!("duipai {command}"), path?))
}

/// The JSON line of a harness or usage error (`"status":"error"`), or of an interrupt
/// (`"status":"interrupted"`).
fn status_json(status: Status, message: &str) -> String {
    crate::report::json::line(&crate::report::json::ErrorReport {
        status: status.json_name(),
        message,
    })
}
