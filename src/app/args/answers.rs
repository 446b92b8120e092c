//! `duipai answers`: the missing answer files of stored inputs.

use std::path::PathBuf;

use clap::Args;

use super::command_words::{CommandWords, parse_command};
use super::compiler::{CompilerOverride, parse_compiler};
use super::game::BoundsArgs;
use super::values::{parse_jobs, parse_problem_name, problem_help};

#[derive(Debug, Args)]
pub struct AnswersArgs {
    #[arg(
        value_parser = parse_problem_name,
        help = problem_help(
            "its built-in solver answers by default; any other name (letters, digits, - and _) \
             for a problem duipai does not know: --reference is then needed"
        )
    )]
    pub problem: String,
    /// A directory searched recursively for `*.in` files (or Polygon tests `01`, `02`, ...),
    /// or one input file. Each input without `NAME.ans` or `NAME.out` (`01.a`) gets one.
    pub dir: PathBuf,
    /// The reference solution whose output is written as the answer: a command, split into
    /// words like a shell would. Default: the built-in solver.
    #[arg(long, value_name = "COMMAND", value_parser = parse_command)]
    pub reference: Option<CommandWords>,
    #[command(flatten)]
    pub bounds: BoundsArgs,
    /// Parallel workers (default: the number of cores).
    #[arg(short = 'j', long = "jobs", value_name = "N", value_parser = parse_jobs)]
    pub jobs: Option<usize>,
    /// A compiler for source files given as programs, as LANG=COMMAND; repeatable.
    #[arg(long = "compiler", value_name = "LANG=COMMAND", value_parser = parse_compiler)]
    pub compilers: Vec<CompilerOverride>,
    #[command(flatten)]
    pub helpers: super::contain::HelperBoxArgs,
}
