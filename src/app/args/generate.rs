//! `duipai gen`: one random input from a seed: the built-in generator's flags for a game
//! duipai knows, or a problem of one's own's generator with its arguments.

use clap::Args;

use super::compiler::{CompilerOverride, parse_compiler};
use super::game::GenArgs;
use super::own::GeneratorArgs;
use super::values::parse_problem_name;

#[derive(Debug, Args)]
pub struct GenCommandArgs {
    /// A game duipai knows, or the name of a problem of your own (with --generator, or a
    /// duipai.toml that sets one).
    #[arg(value_parser = parse_problem_name)]
    pub problem: String,
    /// Arguments of the generator of a problem of your own, given before the seed (as a plan
    /// line's `gen NAME ARGS... --seed N`); words starting with `-` go after `--`.
    #[arg(value_name = "ARGS", allow_negative_numbers = true)]
    pub args: Vec<String>,
    /// The seed; the same seed and flags give the same case on every machine.
    #[arg(long)]
    pub seed: u64,
    #[command(flatten)]
    pub gen_args: GenArgs,
    #[command(flatten)]
    pub generators: GeneratorArgs,
    /// A compiler for a generator given as a source file, as LANG=COMMAND; repeatable.
    #[arg(long = "compiler", value_name = "LANG=COMMAND", value_parser = parse_compiler)]
    pub compilers: Vec<CompilerOverride>,
    #[command(flatten)]
    pub helpers: super::contain::HelperBoxArgs,
}
