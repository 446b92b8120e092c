//! `duipai solve`: the reference answer for one input: a game's built-in solver, or the
//! reference of a problem of one's own.

use std::path::PathBuf;

use clap::Args;

use super::command_words::{CommandWords, parse_command};
use super::compiler::{CompilerOverride, parse_compiler};
use super::game::BoundsArgs;
use super::values::parse_problem_name;

#[derive(Debug, Args)]
pub struct SolveArgs {
    /// A game duipai knows, or the name of a problem of your own (with --reference, or a
    /// duipai.toml that sets one).
    #[arg(value_parser = parse_problem_name)]
    pub problem: String,
    /// Input file; stdin when absent or `-`.
    pub input: Option<PathBuf>,
    /// Also print the board and the optimal line of play.
    #[arg(long)]
    pub explain: bool,
    #[command(flatten)]
    pub bounds: BoundsArgs,
    /// The reference solution of a problem of your own: its output is the answer.
    #[arg(long, value_name = "COMMAND", value_parser = parse_command)]
    pub reference: Option<CommandWords>,
    /// A compiler for a reference given as a source file, as LANG=COMMAND; repeatable.
    #[arg(long = "compiler", value_name = "LANG=COMMAND", value_parser = parse_compiler)]
    pub compilers: Vec<CompilerOverride>,
}
