//! `duipai init`: a commented `duipai.toml` for the problem in this folder.

use clap::Args;

use super::values::parse_problem_name;

#[derive(Debug, Args)]
pub struct InitArgs {
    /// The problem's name (default: the folder's name): a game duipai knows, or a name of
    /// your own.
    #[arg(value_parser = parse_problem_name)]
    pub problem: Option<String>,
}
