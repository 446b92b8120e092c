//! `duipai pack`: a whole test pack, with its layout and ICPC package version as the
//! engine's [`pack`] types.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::own::OwnArgs;
use super::values::{parse_jobs, parse_problem_name};
use crate::pack;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LayoutArg {
    /// 1.in, 1.ans, 2.in, ...
    Plain,
    /// chess1.in, chess1.ans, ...: the NOI / Lemon / Arbiter naming.
    Noi,
    /// The ICPC problem package: problem.yaml, the statement, validators, an accepted
    /// submission, data/sample, data/secret.
    Icpc,
    /// A Polygon package: problem.xml, files/, tests/, solutions/.
    Polygon,
    /// Hydro: config.yaml (limits, checker, subtasks) and the tests.
    Hydro,
    /// UOJ: problem.conf (limits, checker, subtasks) and the tests.
    Uoj,
    /// LemonLime: NAME.cdf (limits, checker, subtasks) and data/NAME/.
    Lemon,
    /// Luogu: the tests named as Luogu wants, config.yml, and NAME.zip of them.
    Luogu,
    /// CMS's italian_yaml format: task.yaml, gen/GEN with the subtasks, input/, output/.
    Cms,
    /// DOMjudge: the ICPC package (legacy version), domjudge-problem.ini, and NAME.zip of it.
    Domjudge,
}

/// A version of the ICPC problem package format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum IcpcVersionArg {
    /// What BAPCtools (`bt`) and DOMjudge read.
    #[value(name = "2025-09")]
    V2025_09,
    /// What problemtools reads in part.
    #[value(name = "2023-07-draft")]
    Draft2023_07,
    /// What problemtools' `verifyproblem` and Kattis read.
    Legacy,
}

#[derive(Debug, Args)]
pub struct PackArgs {
    /// A game duipai knows, or the name of a problem of your own (its generators, validator
    /// and reference given by flags, or by the duipai.toml of its folder).
    #[arg(value_parser = parse_problem_name)]
    pub problem: String,
    /// Directory to write the pack into.
    #[arg(long)]
    pub out: PathBuf,
    /// A plan file of your own, or the name of another built-in plan (chess: `official`, the
    /// 20 official tests alone). Default: the built-in plan of the problem. A file named like
    /// a built-in plan is given with a directory: `./official`.
    #[arg(long, value_name = "FILE|NAME")]
    pub plan: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = LayoutArg::Plain)]
    pub layout: LayoutArg,
    /// With --layout icpc: the package format version. Default: the version an existing
    /// problem.yaml names, else 2025-09.
    #[arg(long, value_enum, value_name = "VERSION")]
    pub icpc_version: Option<IcpcVersionArg>,
    /// Mixed into every plan line's seed; 0 keeps the plan's seeds as written.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Write into a non-empty directory: replace files of the same names, remove the files
    /// manifest.txt lists for the previous pack of this problem and layout that this one
    /// does not write, and leave everything else in place.
    #[arg(long)]
    pub force: bool,
    /// With --force: also replace generated files edited by hand since the last pack (the
    /// manifest keeps each file's hash; without this flag such a file stops the pack).
    #[arg(long, requires = "force")]
    pub overwrite_edited: bool,
    /// A problem of your own: a folder of inputs its validator must reject, packed as the
    /// ICPC package's data/invalid_input/.
    #[arg(long, value_name = "DIR")]
    pub invalid: Option<PathBuf>,
    /// Write problem.yaml's limits (time_limit, memory) even when it has its own: by default
    /// a limit already there is kept.
    #[arg(long)]
    pub write_limits: bool,
    /// A problem of your own: pack hand-made tests (plan `copy` lines, tests put into the
    /// pack folder by hand) even when their input is invalid or their answer is wrong, with
    /// a warning each; without it such a test stops the pack.
    #[arg(long)]
    pub keep_rejected_tests: bool,
    /// A Polygon package: check the answers it ships in tests/ against its main solution's
    /// (a wrong one stops the pack); without it they are used as they are.
    #[arg(long)]
    pub check_answers: bool,
    /// A problem of your own: make every test again, even those whose generator, arguments,
    /// seed, validator and reference did not change since the last pack.
    #[arg(long)]
    pub no_reuse: bool,
    /// Parallel workers making the tests (default: the number of cores).
    #[arg(short = 'j', long = "jobs", value_name = "N", value_parser = parse_jobs)]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub own: OwnArgs,
    #[command(flatten)]
    pub helpers: super::contain::HelperBoxArgs,
}

impl From<IcpcVersionArg> for pack::IcpcVersion {
    fn from(version: IcpcVersionArg) -> pack::IcpcVersion {
        match version {
            IcpcVersionArg::V2025_09 => pack::IcpcVersion::V2025_09,
            IcpcVersionArg::Draft2023_07 => pack::IcpcVersion::Draft2023_07,
            IcpcVersionArg::Legacy => pack::IcpcVersion::Legacy,
        }
    }
}

impl From<LayoutArg> for pack::Layout {
    fn from(layout: LayoutArg) -> pack::Layout {
        match layout {
            LayoutArg::Plain => pack::Layout::Plain,
            LayoutArg::Noi => pack::Layout::Noi,
            LayoutArg::Icpc => pack::Layout::Icpc,
            LayoutArg::Polygon => pack::Layout::Polygon,
            LayoutArg::Hydro => pack::Layout::Hydro,
            LayoutArg::Uoj => pack::Layout::Uoj,
            LayoutArg::Lemon => pack::Layout::Lemon,
            LayoutArg::Luogu => pack::Layout::Luogu,
            LayoutArg::Cms => pack::Layout::Cms,
            LayoutArg::Domjudge => pack::Layout::Icpc,
        }
    }
}
