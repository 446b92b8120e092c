//! `duipai pack`: a whole test pack, with its layout and ICPC package version as the
//! engine's [`pack`] types.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::values::problem_parser;
use crate::pack;
use crate::problem::Problem;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LayoutArg {
    /// 1.in, 1.ans, 2.in, ...
    Plain,
    /// chess1.in, chess1.ans, ...: the NOI / Lemon / Arbiter naming.
    Noi,
    /// The ICPC problem package: problem.yaml, the statement, validators, an accepted
    /// submission, data/sample, data/secret.
    Icpc,
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
    #[arg(value_parser = problem_parser())]
    pub problem: &'static dyn Problem,
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
        }
    }
}
