//! `duipai validate`: check input files against a problem's constraints.

use std::path::PathBuf;

use clap::Args;

use super::game::BoundsArgs;
use super::values::problem_parser;
use crate::problem::Problem;

#[derive(Debug, Args)]
pub struct ValidateArgs {
    #[arg(value_parser = problem_parser())]
    pub problem: &'static dyn Problem,
    /// Input files to check.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Then print, for each bound, the smallest and largest value the valid files reached,
    /// with `BOUND NOT REACHED` where no file reaches an end of the range.
    #[arg(long)]
    pub coverage: bool,
    #[command(flatten)]
    pub bounds: BoundsArgs,
}
