//! `--file-io`, `--no-rerun`, `--sandbox`, `--no-sandbox` and `--env`: how the program under
//! test is run (where its input and output go, whether a run near the time limit is measured
//! again, how it is contained and what environment it gets).

use clap::Args;

use super::contain::ContainArgs;
use crate::judge::ProcessRunner;
use crate::run::IoMode;

/// How the program under test is run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Args)]
pub struct RunArgs {
    /// File I/O as in the original contest: write `<problem>.in` into the working directory
    /// and read `<problem>.out` back, instead of stdin/stdout.
    #[arg(long)]
    pub file_io: bool,
    /// Judge every case on one run: no second and third measurement of a run whose CPU time
    /// lands near the limit (0.8× to 1.5×).
    #[arg(long)]
    pub no_rerun: bool,
    #[command(flatten)]
    pub containment: ContainArgs,
}

impl RunArgs {
    /// The process runner, re-running near the limit unless `--no-rerun`.
    pub fn runner(&self) -> ProcessRunner {
        ProcessRunner {
            rerun: !self.no_rerun,
        }
    }

    /// Stdio, or the problem's contest files (`NAME.in` / `NAME.out`) with `--file-io`.
    pub fn io_mode_named(&self, name: &str) -> IoMode {
        if self.file_io {
            IoMode::files_named(name)
        } else {
            IoMode::Stdio
        }
    }

    /// The flags as typed (each with a leading space), so a replay command runs the program
    /// the same way.
    pub fn to_flags(&self) -> String {
        let mut flags = String::new();
        if self.file_io {
            flags.push_str(" --file-io");
        }
        if self.no_rerun {
            flags.push_str(" --no-rerun");
        }
        flags.push_str(&self.containment.to_flags());
        flags
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_io_names_follow_the_problem() {
        let mut a = RunArgs::default();
        assert_eq!(a.io_mode_named("chess"), IoMode::Stdio);
        a.file_io = true;
        assert_eq!(
            a.io_mode_named("chessboard"),
            IoMode::files_named("chessboard")
        );
    }

    #[test]
    fn no_rerun_measures_once() {
        assert!(RunArgs::default().runner().rerun);
        let a = RunArgs {
            no_rerun: true,
            ..RunArgs::default()
        };
        assert!(!a.runner().rerun);
        assert_eq!(a.to_flags(), " --no-rerun");
    }
}
