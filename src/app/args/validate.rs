//! `duipai validate`: check input files against a problem's constraints: a game's own, or
//! the validator of a problem of one's own.

use std::path::PathBuf;

use clap::Args;

use super::command_words::{CommandWords, parse_command};
use super::compiler::{CompilerOverride, parse_compiler};
use super::game::BoundsArgs;
use super::values::parse_problem_name;

#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// A game duipai knows, or the name of a problem of your own (with --validator, or a
    /// duipai.toml that sets one).
    #[arg(value_parser = parse_problem_name)]
    pub problem: String,
    /// Input files to check (in a Polygon package, none: its validator's own tests alone).
    pub files: Vec<PathBuf>,
    /// Then print, for each bound, the smallest and largest value the valid files reached,
    /// with `BOUND NOT REACHED` where no file reaches an end of the range (for a problem of
    /// your own, from a testlib validator's test overview log).
    #[arg(long)]
    pub coverage: bool,
    #[command(flatten)]
    pub bounds: BoundsArgs,
    /// The validator of a problem of your own: a command or a source file reading the input
    /// on stdin; exit 0 (testlib) or 42 (ICPC) when it is valid, another code when not.
    #[arg(long, value_name = "COMMAND", value_parser = parse_command)]
    pub validator: Option<CommandWords>,
    /// A compiler for a validator given as a source file, as LANG=COMMAND; repeatable.
    #[arg(long = "compiler", value_name = "LANG=COMMAND", value_parser = parse_compiler)]
    pub compilers: Vec<CompilerOverride>,
    #[command(flatten)]
    pub helpers: super::contain::HelperBoxArgs,
}
