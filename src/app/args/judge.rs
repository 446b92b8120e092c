//! `duipai judge`: every submission of a folder's `submissions/<expected>/` on every test,
//! checked against what its folder expects, with the time limit the ICPC format derives.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::contain::ContainArgs;
use super::own::OwnArgs;
use super::reports::ReportArgs;
use super::stress::parse_seconds;
use super::values::parse_problem_name;

#[derive(Debug, Args)]
#[command(
    mut_arg("json", |a| a.help(
        "Print the whole matrix as one JSON object on stdout (human text goes to stderr)"
    )),
    mut_arg("junit", |a| a.help(
        "Write a JUnit XML report to FILE: a test case a submission, and one for the time limit"
    )),
)]
pub struct JudgeArgs {
    /// The folder holding submissions/: an ICPC package (its tests in data/), or a problem's
    /// folder (its tests those of --tests, or of its plan). Default: here.
    pub dir: Option<PathBuf>,
    /// The problem's name (a problem of your own; duipai.toml's `problem`).
    #[arg(long, value_parser = parse_problem_name)]
    pub problem: Option<String>,
    /// The tests: a folder of `*.in` files with their `.ans`. Default: the package's data/,
    /// else the tests of the plan, made as `pack` makes them.
    #[arg(long, value_name = "DIR")]
    pub tests: Option<PathBuf>,
    /// The plan whose tests are judged when there is no data/ and no --tests (default:
    /// PROBLEM.plan).
    #[arg(long, value_name = "FILE")]
    pub plan: Option<PathBuf>,
    #[command(flatten)]
    pub report: ReportArgs,
    /// Write a self-contained HTML page to FILE: the matrix, and every run's time drawn
    /// against the time limit.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Write the time limit the format's rule derives into DIR/problem.yaml (a limit it has
    /// is replaced). Refused when the machine was busy while the runs that bind the limit
    /// were measured, or their measurements disagree (more than 10% apart).
    #[arg(long)]
    pub write_time_limit: bool,
    /// With --write-time-limit: write the derived limit even when the machine was busy or
    /// the binding run's measurements disagree (the limit may then be too high).
    #[arg(long, requires = "write_time_limit")]
    pub even_if_busy: bool,
    /// A Polygon package: check the answers it ships in tests/ against its main solution's
    /// before judging; without it they are used as they are.
    #[arg(long)]
    pub check_answers: bool,
    /// The CPU time a run may take while the limit is being derived (when none is given).
    #[arg(long, value_name = "SECS", value_parser = parse_seconds, default_value = "10")]
    pub measure_cap: Duration,
    #[command(flatten)]
    pub own: OwnArgs,
    #[command(flatten)]
    pub containment: ContainArgs,
}
