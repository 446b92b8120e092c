//! `duipai test`: judge a program on stored cases.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::Args;

use super::command_words::{CommandWords, parse_command};
use super::game::BoundsArgs;
use super::judging::JudgingArgs;
use super::values::{parse_problem_name, problem_help};

#[derive(Debug, Args)]
#[command(
    mut_arg("json", |a| a.help(
        "Print JSON Lines on stdout: one object per case as it is judged, then a summary \
         object; each has \"schema\": 1 (human text goes to stderr)"
    )),
    mut_arg("junit", |a| a.help("Write a JUnit XML report to FILE")),
    mut_arg("watch", |a| a.help(
        "Run again whenever the program (or a file among its arguments) changes; Ctrl-C ends"
    )),
    mut_arg("reference", |a| a.help(
        "A reference solution whose output is the expected answer of every input without an \
         answer file (instead of the built-in solver's): a command, split into words like a \
         shell would (`--reference 'python3 brute.py'`)"
    )),
)]
pub struct TestArgs {
    #[arg(
        value_parser = parse_problem_name,
        help = problem_help(
            "any other name (letters, digits, - and _) for a problem duipai does not know: every \
             input then needs its answer file (or --reference), compared token by token (or by \
             --checker)"
        )
    )]
    pub problem: String,
    /// A directory searched recursively for `*.in` files, or one `.in` file. Each input's
    /// expected answer is `NAME.ans` beside it, else `NAME.out`, else --reference's output,
    /// else the built-in solver's.
    /// Without `*.in` files, a Polygon `tests/` directory: `01`, `02`, ... with `01.a`, ....
    /// Without DIR, in a problem folder: its samples (samples/) and the failing cases stress
    /// saved (duipai-failures/).
    pub dir: Option<PathBuf>,
    /// Judge on the tests of a pack whose manifest marks it incomplete (its packing was
    /// interrupted or failed): refused without this flag, for its tests may not be all there.
    #[arg(long)]
    pub allow_incomplete: bool,
    #[command(flatten)]
    pub judging: JudgingArgs,
    #[command(flatten)]
    pub bounds: BoundsArgs,
    /// Check every input with the validator before any case is judged (a problem of your
    /// own; a game's inputs are always checked): an invalid one stops the run, naming it.
    #[arg(long)]
    pub validate: bool,
    /// The validator --validate runs: a command or a source file reading an input on stdin;
    /// exit 0 (testlib) or 42 (ICPC) when it is valid.
    #[arg(long, value_name = "COMMAND", value_parser = parse_command)]
    pub validator: Option<CommandWords>,
    /// The reference printing nothing is an input's answer (one that asks for nothing), not a
    /// broken reference; a Polygon package sets it.
    #[arg(long)]
    pub empty_answers: bool,
    /// The program under test and its arguments.
    #[arg(last = true, required = true, value_name = "PROGRAM")]
    pub program: Vec<OsString>,
}
