//! `duipai-checker`: the judge-side checker for the duipai problems, speaking the testlib
//! protocol (Polygon, Codeforces, Hydro, LemonLime's testlib mode), the Lemon special-judge
//! protocol (Lemon, LemonLime) or the Kattis output-validator protocol (DOMjudge, Kattis, the
//! ICPC problem package format).

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::builder::PossibleValuesParser;
use clap::{Parser, ValueEnum};
use duipai::answer::Syntax;
use duipai::problem;
use duipai_checker::{Expected, Outcome, check};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Protocol {
    /// `duipai-checker <input> <output> <answer>`; exit 0 ok, 1 WA, 2 PE, 3 checker failure.
    Testlib,
    /// `duipai-checker --protocol kattis <input> <answer> <feedback_dir> < output`;
    /// exit 42 accepted, 43 rejected, judgemessage.txt in feedback_dir; a checker failure
    /// exits 1 with its message in judgeerror.txt.
    Kattis,
    /// `duipai-checker --protocol lemon <input> <output> <answer> <full_score> <score_file>
    /// <message_file>`: the score (full or 0) and a message written to those files, exit 0;
    /// exit 3 when the checker itself fails.
    Lemon,
}

/// The three arguments Lemon adds after input, output and answer.
#[derive(Debug)]
struct LemonFiles {
    full_score: u64,
    score_file: PathBuf,
    message_file: PathBuf,
}

#[derive(Debug, Parser)]
#[command(
    name = "duipai-checker",
    version,
    about = "Checker for the duipai problems (testlib, Lemon or Kattis protocol)",
    after_help = "With --problem, an answer of `-` means: recompute the answer from the input \
                  with the reference solver, so no answer files are needed."
)]
struct Cli {
    /// The judge protocol to speak.
    #[arg(long, value_enum, default_value_t = Protocol::Testlib)]
    protocol: Protocol,
    /// The problem: its answers are read and compared its way (several cases, words, real
    /// numbers). Needed when the answer is `-`; without it, the answer is one integer.
    #[arg(long, value_parser = PossibleValuesParser::new(problem::names()))]
    problem: Option<String>,
    /// The test's input file.
    input: PathBuf,
    /// testlib, lemon: the contestant's output. kattis: the answer file.
    second: PathBuf,
    /// testlib, lemon: the answer file (`-` with --problem). kattis: the feedback directory.
    third: PathBuf,
    /// lemon: FULL_SCORE SCORE_FILE MESSAGE_FILE. Otherwise further arguments some judges
    /// pass (a testlib result file, Kattis flags), ignored.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    rest: Vec<String>,
}

impl Cli {
    /// Lemon's full score, score file and message file, checked before anything is judged.
    fn lemon_files(&self) -> Result<LemonFiles, String> {
        let [full, score, message] = self.rest.as_slice() else {
            return Err(format!(
                "--protocol lemon takes 6 arguments: input output answer full_score score_file \
                 message_file; got {}",
                3 + self.rest.len()
            ));
        };
        // Lemon passes a plain decimal integer; anything else means the command line is wrong.
        let full_score = full
            .parse::<u64>()
            .ok()
            .filter(|_| full.bytes().all(|b| b.is_ascii_digit()))
            .ok_or_else(|| {
                format!("the full score must be a non-negative integer, found \"{full}\"")
            })?;
        Ok(LemonFiles {
            full_score,
            score_file: PathBuf::from(score),
            message_file: PathBuf::from(message),
        })
    }
}

/// The protocol's code for "the checker failed": 3 for testlib and Lemon (any nonzero code
/// makes Lemon report a special-judge error rather than score the contestant), 1 for Kattis.
fn failure_code(protocol: Protocol) -> ExitCode {
    let fail = Outcome::Fail(String::new());
    ExitCode::from(match protocol {
        Protocol::Testlib | Protocol::Lemon => fail.testlib_code(),
        Protocol::Kattis => fail.kattis_code(),
    })
}

/// Reads a file, at most [`duipai::fsutil::MAX_READ_BYTES`] of it: a checker fed `/dev/zero`
/// fails with a message instead of growing without bound.
fn read(path: &Path, what: &str) -> Result<Vec<u8>, String> {
    let file =
        fs::File::open(path).map_err(|e| format!("cannot read {what} {}: {e}", path.display()))?;
    duipai::fsutil::read_capped(file, &format!("{what} {}", path.display()))
        .map_err(|e| format!("{e:#}"))
}

fn main() -> ExitCode {
    let argv: Vec<OsString> = std::env::args_os().collect();
    let cli = match Cli::try_parse_from(&argv) {
        Ok(cli) => cli,
        Err(err) if !err.use_stderr() => {
            // --help and --version.
            let _ = err.print();
            return ExitCode::SUCCESS;
        }
        Err(err) => {
            let _ = err.print();
            return usage_failure(&argv, &err.to_string());
        }
    };
    let lemon = match cli.protocol {
        Protocol::Lemon => match cli.lemon_files() {
            Ok(files) => Some(files),
            Err(why) => {
                eprintln!("FAIL {why}");
                return failure_code(cli.protocol);
            }
        },
        _ => None,
    };
    // A checker that cannot decide fails the same way whatever the cause: an unreadable or
    // malformed answer file, a needed input that is missing or invalid, bad usage.
    let decided = decide(&cli).and_then(|outcome| match outcome {
        Outcome::Fail(why) => Err(why),
        outcome => Ok(outcome),
    });
    match decided {
        Ok(outcome) => report(&cli, lemon.as_ref(), &outcome),
        Err(why) => fail(&cli, lemon.as_ref(), &why),
    }
}

/// Reports that the checker itself failed, in the protocol's way, and returns its exit code:
/// testlib `FAIL` and 3; Lemon a score of 0 with the message and 3; Kattis the message in
/// `judgeerror.txt` in the feedback directory (where problemtools' `validate.h`, DOMjudge and
/// BAPCtools look for a validator's own error) and 1, which is neither 42 nor 43.
fn fail(cli: &Cli, lemon: Option<&LemonFiles>, why: &str) -> ExitCode {
    eprintln!("FAIL {why}");
    match (cli.protocol, lemon) {
        (Protocol::Kattis, _) => write_judge_error(&cli.third, why),
        (Protocol::Lemon, Some(files)) => {
            // Best effort: the exit code already tells Lemon the checker failed.
            let _ = fs::write(&files.score_file, "0\n");
            let _ = fs::write(&files.message_file, format!("FAIL {why}\n"));
        }
        _ => {}
    }
    failure_code(cli.protocol)
}

/// Writes `judgeerror.txt` into the feedback directory, if there is one to write into.
fn write_judge_error(feedback_dir: &Path, why: &str) {
    if !feedback_dir.is_dir() {
        return;
    }
    let file = feedback_dir.join("judgeerror.txt");
    if let Err(e) = fs::write(&file, format!("{why}\n")) {
        eprintln!("FAIL cannot write {}: {e}", file.display());
    }
}

/// A command line that does not parse: exit 3 (never 2, which testlib reads as a
/// presentation error), or under `--protocol kattis` the Kattis failure, with
/// `judgeerror.txt` when the feedback directory can be told from the arguments.
fn usage_failure(argv: &[OsString], rendered: &str) -> ExitCode {
    let words = CommandWords::of(argv);
    if words.protocol.as_deref() != Some("kattis") {
        return failure_code(Protocol::Testlib);
    }
    let why = rendered
        .lines()
        .next()
        .unwrap_or("bad usage")
        .trim_start_matches("error: ");
    if let Some(dir) = words.positionals.get(2) {
        write_judge_error(Path::new(dir), why);
    }
    failure_code(Protocol::Kattis)
}

/// The protocol and the positional arguments of a command line that clap refused, read as
/// far as they can be.
struct CommandWords {
    protocol: Option<String>,
    positionals: Vec<OsString>,
}

impl CommandWords {
    fn of(argv: &[OsString]) -> CommandWords {
        let mut words = CommandWords {
            protocol: None,
            positionals: Vec::new(),
        };
        let mut args = argv.iter().skip(1);
        while let Some(arg) = args.next() {
            let text = arg.to_string_lossy();
            if let Some(value) = text.strip_prefix("--protocol=") {
                words.protocol = Some(value.to_string());
            } else if text == "--protocol" {
                words.protocol = args.next().map(|v| v.to_string_lossy().into_owned());
            } else if text == "--problem" {
                args.next();
            } else if !text.starts_with('-') || text == "-" {
                words.positionals.push(arg.clone());
            }
        }
        words
    }
}

/// The contestant's output, at most [`duipai::fsutil::MAX_READ_BYTES`]: more is the
/// contestant's presentation error, not the checker's failure.
fn read_output(reader: impl std::io::Read, name: &str) -> Result<Result<Vec<u8>, Outcome>, String> {
    use std::io::Read;
    let cap = duipai::fsutil::MAX_READ_BYTES;
    let mut bytes = Vec::new();
    reader
        .take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {name}: {e}"))?;
    if bytes.len() as u64 > cap {
        return Ok(Err(Outcome::PresentationError(format!(
            "the output is larger than {} MiB; the answer is one integer",
            cap / (1024 * 1024)
        ))));
    }
    Ok(Ok(bytes))
}

fn decide(cli: &Cli) -> Result<Outcome, String> {
    let output = match cli.protocol {
        Protocol::Testlib | Protocol::Lemon => match fs::File::open(&cli.second) {
            // The contestant wrote no output file: their presentation error, as in testlib.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Outcome::PresentationError(format!(
                    "Output file not found: \"{}\"",
                    cli.second.display()
                )));
            }
            Err(e) => return Err(format!("cannot read output {}: {e}", cli.second.display())),
            Ok(file) => read_output(file, &format!("output {}", cli.second.display()))?,
        },
        Protocol::Kattis => read_output(std::io::stdin().lock(), "the output on stdin")?,
    };
    let output = match output {
        Ok(bytes) => bytes,
        Err(too_long) => return Ok(too_long),
    };
    let (output, answer_path) = match cli.protocol {
        Protocol::Testlib | Protocol::Lemon => (output, &cli.third),
        Protocol::Kattis => {
            if !cli.third.is_dir() {
                return Err(format!(
                    "feedback directory {} does not exist",
                    cli.third.display()
                ));
            }
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
            syntax(cli.protocol),
        ));
    }
    let answer = read(answer_path, "answer")?;
    let problem = cli.problem.as_deref().and_then(problem::by_name);
    Ok(check(
        Expected::AnswerFile {
            answer: &answer,
            problem,
        },
        &output,
        syntax(cli.protocol),
    ))
}

/// Each protocol reads outputs its own way: testlib's blanks, or every ASCII space (the ICPC
/// default output validator).
fn syntax(protocol: Protocol) -> Syntax {
    match protocol {
        Protocol::Testlib | Protocol::Lemon => Syntax::Testlib,
        Protocol::Kattis => Syntax::Icpc,
    }
}

fn report(cli: &Cli, lemon: Option<&LemonFiles>, outcome: &Outcome) -> ExitCode {
    let message = outcome.message();
    eprintln!("{message}");
    match (cli.protocol, lemon) {
        (Protocol::Kattis, _) => {
            let file = cli.third.join("judgemessage.txt");
            if let Err(e) = fs::write(&file, format!("{message}\n")) {
                return fail(cli, lemon, &format!("cannot write {}: {e}", file.display()));
            }
            ExitCode::from(outcome.kattis_code())
        }
        (Protocol::Lemon, Some(files)) => {
            let score = outcome.lemon_score(files.full_score);
            let written = fs::write(&files.score_file, format!("{score}\n"))
                .map_err(|e| (e, &files.score_file))
                .and_then(|()| {
                    fs::write(&files.message_file, format!("{message}\n"))
                        .map_err(|e| (e, &files.message_file))
                });
            if let Err((e, file)) = written {
                eprintln!("FAIL cannot write {}: {e}", file.display());
                return failure_code(cli.protocol);
            }
            ExitCode::SUCCESS
        }
        _ => ExitCode::from(outcome.testlib_code()),
    }
}
