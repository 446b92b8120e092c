//! `duipai solve`: the reference answer for one input.

use std::path::PathBuf;

use clap::Args;

use super::game::BoundsArgs;
use super::values::problem_parser;
use crate::problem::Problem;

#[derive(Debug, Args)]
pub struct SolveArgs {
    #[arg(value_parser = problem_parser())]
    pub problem: &'static dyn Problem,
    /// Input file; stdin when absent or `-`.
    pub input: Option<PathBuf>,
    /// Also print the board and the optimal line of play.
    #[arg(long)]
    pub explain: bool,
    #[command(flatten)]
    pub bounds: BoundsArgs,
}
