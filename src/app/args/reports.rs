//! The flags of every command that judges many runs and reports on them: how many workers run
//! at once, and the machine-readable reports. Declared once; each command says what its JSON
//! and JUnit hold (`mut_arg`), since they differ.

use std::path::PathBuf;

use clap::Args;

use super::values::parse_jobs;

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Parallel workers (default: the number of cores).
    #[arg(short = 'j', long = "jobs", value_name = "N", value_parser = parse_jobs)]
    pub jobs: Option<usize>,
    // Print JSON on stdout (each command's help says what it holds).
    #[arg(long)]
    pub json: bool,
    // Write a JUnit XML report (each command's help says what it holds).
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
}
