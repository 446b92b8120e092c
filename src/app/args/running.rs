//! `--file-io`, `--input-file`, `--output-file`, `--no-rerun`, `--sandbox`, `--no-sandbox` and `--env`: how the program under
//! test is run (where its input and output go, whether a run near the time limit is measured
//! again, how it is contained and what environment it gets).

use clap::Args;

use super::contain::ContainArgs;
use crate::judge::ProcessRunner;
use crate::run::IoMode;

// How the program under test is run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Args)]
pub struct RunArgs {
    /// File I/O as in the original contest: write `<problem>.in` into the working directory
    /// and read `<problem>.out` back, instead of stdin/stdout.
    #[arg(long, conflicts_with = "input_file")]
    pub file_io: bool,
    /// File I/O with these names: the program reads FILE from its working directory (with
    /// --output-file, where it writes its answer), as a judge that names them (input.txt).
    #[arg(long, value_name = "FILE", requires = "output_file", value_parser = parse_io_name)]
    pub input_file: Option<String>,
    /// The file the program writes its answer to, with --input-file.
    #[arg(long, value_name = "FILE", requires = "input_file", value_parser = parse_io_name)]
    pub output_file: Option<String>,
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
        match (&self.input_file, &self.output_file) {
            (Some(input), Some(output)) => IoMode::Files {
                input: input.clone(),
                output: output.clone(),
            },
            _ if self.file_io => IoMode::files_named(name),
            _ => IoMode::Stdio,
        }
    }

    /// Whether the program reads and writes files rather than stdin and stdout.
    pub fn files(&self) -> bool {
        self.file_io || self.input_file.is_some()
    }

    /// The flags as typed (each with a leading space), so a replay command runs the program
    /// the same way.
    pub fn to_flags(&self) -> String {
        let mut flags = String::new();
        if self.file_io {
            flags.push_str(" --file-io");
        }
        if let (Some(input), Some(output)) = (&self.input_file, &self.output_file) {
            flags.push_str(&format!(
                " --input-file {} --output-file {}",
                crate::text::shell_quote(input),
                crate::text::shell_quote(output)
            ));
        }
        if self.no_rerun {
            flags.push_str(" --no-rerun");
        }
        flags.push_str(&self.containment.to_flags());
        flags
    }
}

/// A file name the program opens in its working directory: no folder part.
fn parse_io_name(s: &str) -> Result<String, String> {
    let plain = !s.is_empty() && !s.contains('/') && s != "." && s != "..";
    if plain {
        Ok(s.to_string())
    } else {
        Err(format!(
            "expected a file name in the program's working directory (input.txt), found {}",
            crate::text::quote(s)
        ))
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
        let named = RunArgs {
            input_file: Some("input.txt".into()),
            output_file: Some("output.txt".into()),
            ..RunArgs::default()
        };
        assert_eq!(
            named.io_mode_named("mine"),
            IoMode::Files {
                input: "input.txt".into(),
                output: "output.txt".into()
            }
        );
        assert_eq!(
            named.to_flags(),
            " --input-file input.txt --output-file output.txt"
        );
        assert!(parse_io_name("../x").is_err());
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
