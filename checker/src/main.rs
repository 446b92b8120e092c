//! `duipai-checker`: the judge-side checker for the duipai problems, speaking the testlib
//! protocol (Polygon, Codeforces, Lemon, Hydro, CMS) or the Kattis output-validator protocol
//! (DOMjudge, Kattis, the ICPC problem package format).

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::builder::PossibleValuesParser;
use clap::{Parser, ValueEnum};
use duipai::problem;
use duipai_checker::{Expected, Outcome, check};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Protocol {
    /// `duipai-checker <input> <output> <answer>`; exit 0 ok, 1 WA, 2 PE, 3 checker failure.
    Testlib,
    /// `duipai-checker --protocol kattis <input> <answer> <feedback_dir> < output`;
    /// exit 42 accepted, 43 rejected, judgemessage.txt in feedback_dir.
    Kattis,
}

#[derive(Debug, Parser)]
#[command(
    name = "duipai-checker",
    version,
    about = "Checker for the duipai problems (testlib or Kattis protocol)",
    after_help = "With --problem, an answer of `-` means: recompute the answer from the input \
                  with the reference solver, so no answer files are needed."
)]
struct Cli {
    /// The judge protocol to speak.
    #[arg(long, value_enum, default_value_t = Protocol::Testlib)]
    protocol: Protocol,
    /// The problem, needed when the answer is `-`.
    #[arg(long, value_parser = PossibleValuesParser::new(problem::names()))]
    problem: Option<String>,
    /// The test's input file.
    input: PathBuf,
    /// testlib: the contestant's output. kattis: the answer file.
    second: PathBuf,
    /// testlib: the answer file (`-` with --problem). kattis: the feedback directory.
    third: PathBuf,
    /// Further arguments some judges pass (a testlib result file, Kattis flags); ignored.
    #[arg(hide = true, trailing_var_arg = true, allow_hyphen_values = true)]
    rest: Vec<String>,
}

/// testlib's and Kattis's code for "the checker failed".
fn failure_code(protocol: Protocol) -> ExitCode {
    let fail = Outcome::Fail(String::new());
    ExitCode::from(match protocol {
        Protocol::Testlib => fail.testlib_code(),
        Protocol::Kattis => fail.kattis_code(),
    })
}

fn read(path: &Path, what: &str) -> Result<Vec<u8>, String> {
    fs::read(path).map_err(|e| format!("cannot read {what} {}: {e}", path.display()))
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) if !err.use_stderr() => {
            // --help and --version.
            let _ = err.print();
            return ExitCode::SUCCESS;
        }
        Err(err) => {
            // A usage error must never look like a contestant's presentation error (exit 2).
            let _ = err.print();
            return ExitCode::from(3);
        }
    };
    match decide(&cli) {
        Ok(outcome) => report(&cli, &outcome),
        Err(why) => {
            eprintln!("FAIL {why}");
            if cli.protocol == Protocol::Kattis {
                let _ = fs::write(cli.third.join("judgeerror.txt"), format!("{why}\n"));
            }
            failure_code(cli.protocol)
        }
    }
}

fn decide(cli: &Cli) -> Result<Outcome, String> {
    let (output, answer_path) = match cli.protocol {
        Protocol::Testlib => (read(&cli.second, "output")?, &cli.third),
        Protocol::Kattis => {
            if !cli.third.is_dir() {
                return Err(format!(
                    "feedback directory {} does not exist",
                    cli.third.display()
                ));
            }
            let mut output = Vec::new();
            std::io::stdin()
                .read_to_end(&mut output)
                .map_err(|e| format!("cannot read the output from stdin: {e}"))?;
            (output, &cli.second)
        }
    };
    if answer_path.as_os_str() == "-" {
        let problem = cli
            .problem
            .as_deref()
            .and_then(problem::by_name)
            .ok_or("an answer of `-` needs --problem to recompute it")?;
        let input = read(&cli.input, "input")?;
        return Ok(check(
            Expected::Solve {
                problem,
                input: &input,
            },
            &output,
        ));
    }
    let answer = read(answer_path, "answer")?;
    Ok(check(Expected::AnswerFile(&answer), &output))
}

fn report(cli: &Cli, outcome: &Outcome) -> ExitCode {
    let message = outcome.message();
    eprintln!("{message}");
    match cli.protocol {
        Protocol::Testlib => ExitCode::from(outcome.testlib_code()),
        Protocol::Kattis => {
            let file = cli.third.join("judgemessage.txt");
            if let Err(e) = fs::write(&file, format!("{message}\n")) {
                eprintln!("FAIL cannot write {}: {e}", file.display());
                return failure_code(cli.protocol);
            }
            ExitCode::from(outcome.kattis_code())
        }
    }
}
