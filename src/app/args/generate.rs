//! `duipai gen`: one random input from a seed and the generator flags.

use clap::Args;

use super::game::GenArgs;
use super::values::problem_parser;
use crate::problem::Problem;

#[derive(Debug, Args)]
pub struct GenCommandArgs {
    #[arg(value_parser = problem_parser())]
    pub problem: &'static dyn Problem,
    /// The seed; the same seed and flags give the same case on every machine.
    #[arg(long)]
    pub seed: u64,
    #[command(flatten)]
    pub gen_args: GenArgs,
}
