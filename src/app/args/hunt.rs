//! `duipai hunt`: a test for a submission the plan's tests miss.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::contain::ContainArgs;
use super::own::OwnArgs;
use super::stress::{DEFAULT_SAVE_DIR, SHRINK_TIME_VARIABLE, parse_seconds};
use super::values::{parse_jobs, parse_problem_name};

#[derive(Debug, Args)]
pub struct HuntArgs {
    /// The submission: a program or a source file, usually in submissions/wrong_answer/ or
    /// submissions/time_limit_exceeded/ (which makes the hunt one for a slow input).
    pub submission: PathBuf,
    /// Add the test found to the plan, as a hand-made test (`copy hunt/NAME.in`) with a
    /// comment saying which submission it catches.
    #[arg(long)]
    pub add: bool,
    /// Hunt for the input the submission is slowest on, whatever its folder.
    #[arg(long)]
    pub slow: bool,
    /// The problem's name (a problem of your own; duipai.toml's `problem`).
    #[arg(long, value_parser = parse_problem_name)]
    pub problem: Option<String>,
    /// The plan whose generator lines the hunt runs with new seeds (default: PROBLEM.plan).
    #[arg(long, value_name = "FILE")]
    pub plan: Option<PathBuf>,
    /// How long the search may take (default: 60, or the total time of the
    /// --polygon-stress).
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub time: Option<Duration>,
    /// At most this many runs of the submission (cases, for a wrong submission), whichever
    /// of --time and --runs comes first: a budget that holds the same on a fast machine, a
    /// slow one and a busy one.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub runs: Option<u64>,
    /// In a Polygon package: hunt with the generator and arguments of its stress N
    /// (`<stresses>`), under that stress's limits, instead of its tests' generators.
    #[arg(long, value_name = "N", conflicts_with = "add",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub polygon_stress: Option<u64>,
    /// The first new seed each generator line is run with.
    #[arg(long, default_value_t = 1_000_001)]
    pub seed: u64,
    /// Where the failing case is saved.
    #[arg(long, value_name = "DIR", default_value = DEFAULT_SAVE_DIR)]
    pub save: PathBuf,
    /// Most seconds spent minimizing a failing case (default: 30, and 10 for a case that
    /// ran into the time or memory limit, whose every candidate may run up to the limit).
    /// DUIPAI_SHRINK_TIME sets another default, for every case alike.
    #[arg(
        long,
        value_name = "SECS",
        value_parser = parse_seconds,
        env = SHRINK_TIME_VARIABLE
    )]
    pub shrink_time: Option<Duration>,
    /// Parallel workers (default: the number of cores).
    #[arg(short = 'j', long = "jobs", value_name = "N", value_parser = parse_jobs)]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub own: OwnArgs,
    #[command(flatten)]
    pub containment: ContainArgs,
}
