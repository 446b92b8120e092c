//! `--file-io`, `--no-rerun`, `--sandbox`, `--no-sandbox` and `--env`: how the program under
//! test is run (where its input and output go, whether a run near the time limit is measured
//! again, how it is contained and what environment it gets).

use clap::Args;

use std::ffi::OsString;
use std::path::PathBuf;

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
    /// Refuse to run unless every protection of the programs is available here (a cgroup,
    /// namespaces, and as root a box uid): a missing one is an error (exit 2) rather than a
    /// warning. For setters and CI that judge programs that are not theirs.
    #[arg(long, conflicts_with = "no_sandbox")]
    pub sandbox: bool,
    /// Run the programs as duipai's own children, in the current folder, with duipai's
    /// environment, as before containment: to debug a program that needs files around it.
    #[arg(long)]
    pub no_sandbox: bool,
    /// A variable the program under test gets besides PATH, LANG, LC_ALL, HOME (its scratch
    /// folder) and ONLINE_JUDGE: NAME passes duipai's value, NAME=VALUE sets one; repeatable.
    #[arg(long = "env", value_name = "NAME[=VALUE]", value_parser = parse_env)]
    pub env: Vec<OsString>,
}

/// An `--env` entry: `NAME` or `NAME=VALUE`.
fn parse_env(text: &str) -> Result<OsString, String> {
    let text = OsString::from(text);
    crate::run::contain::check_entry(&text)?;
    Ok(text)
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
        if self.sandbox {
            flags.push_str(" --sandbox");
        }
        if self.no_sandbox {
            flags.push_str(" --no-sandbox");
        }
        for entry in &self.env {
            let words = [entry.to_string_lossy().into_owned()];
            flags.push_str(&format!(" --env {}", shell_words::join(words)));
        }
        flags
    }

    /// Contains the programs of this command as the flags say, before its first run
    /// ([`crate::run::contain::arm`]), the program under test kept out of `protect` (the test
    /// folder, the saved failures) besides the current folder. Each protection missing here
    /// is a line on stderr, and with `--sandbox` an error.
    pub fn contain(&self, protect: Vec<PathBuf>) -> anyhow::Result<()> {
        use crate::run::contain::{self, Mode, Policy};
        let mode = if self.no_sandbox {
            Mode::Off
        } else if self.sandbox {
            Mode::Strict
        } else {
            Mode::Auto
        };
        let missing = contain::arm(Policy {
            mode,
            env: self.env.clone(),
            protect,
        });
        if mode == Mode::Strict && !missing.is_empty() {
            let lines: Vec<String> = missing.iter().map(|m| format!("  {m}")).collect();
            anyhow::bail!(
                "--sandbox: {} missing here, so no program is run:\n{}",
                crate::text::plural(missing.len() as u64, "protection"),
                lines.join("\n")
            );
        }
        for missing in missing {
            eprintln!("duipai: {missing}");
        }
        Ok(())
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
