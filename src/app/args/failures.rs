//! `duipai failures`: list the failing cases stress saved, or re-run them and prune those
//! that pass.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::Args;

use super::compiler::{CompilerOverride, parse_compiler};
use super::setting::SettingArgs;
use super::stress::DEFAULT_SAVE_DIR;
use super::values::{parse_jobs, parse_problem_name};

#[derive(Debug, Args)]
pub struct FailuresArgs {
    /// The problem whose saved failures to list (default: every problem's).
    #[arg(value_parser = parse_problem_name)]
    pub problem: Option<String>,
    /// Where stress saved them.
    #[arg(long, value_name = "DIR", default_value = DEFAULT_SAVE_DIR)]
    pub save: PathBuf,
    /// Re-run the problem's saved failures on PROGRAM and remove the files of those that
    /// pass now.
    #[arg(long, requires = "program")]
    pub prune_passing: bool,
    /// Parallel workers (default: the number of cores).
    #[arg(short = 'j', long = "jobs", value_name = "N", value_parser = parse_jobs)]
    pub jobs: Option<usize>,
    /// A compiler for source files given as programs, as LANG=COMMAND; repeatable.
    #[arg(long = "compiler", value_name = "LANG=COMMAND", value_parser = parse_compiler)]
    pub compilers: Vec<CompilerOverride>,
    /// How the cases are judged (comparison, checker or interactor, limits, running), as
    /// the sidecars of the cases say when no flag is given.
    #[command(flatten)]
    pub setting: SettingArgs,
    /// The program to re-run them on (with --prune-passing), and its arguments.
    #[arg(last = true, value_name = "PROGRAM", requires = "prune_passing")]
    pub program: Vec<OsString>,
}
