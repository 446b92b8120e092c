//! The flags `test` and `stress` share: how the program under test is judged (where the
//! expected answers come from, how outputs are compared or checked, its limits, how it is
//! run and its sources compiled) and how the judging is carried out (workers, reports,
//! watching). A flag both commands take is declared here, once.

use clap::Args;

use super::checker::CheckerArgs;
use super::command_words::{CommandWords, parse_command};
use super::compare::CompareArgs;
use super::compiler::{CompilerOverride, parse_compiler};
use super::limits::LimitArgs;
use super::reports::ReportArgs;
use super::running::RunArgs;

// How `test` and `stress` judge the program under test. The fields without a doc comment
// mean something slightly different to each command, so each command gives their help
// (`mut_arg` on `TestArgs` and `StressArgs`); the fields are declared in the order `test
// --help` lists them.
#[derive(Debug, Args)]
pub struct JudgingArgs {
    #[command(flatten)]
    pub compare: CompareArgs,
    #[command(flatten)]
    pub report: ReportArgs,
    // Run again whenever the program changes.
    #[arg(long)]
    pub watch: bool,
    // The reference solution whose output is the expected answer.
    #[arg(long, value_name = "COMMAND", value_parser = parse_command)]
    pub reference: Option<CommandWords>,
    #[command(flatten)]
    pub checker: CheckerArgs,
    /// A compiler for source files given as programs, as LANG=COMMAND (c, cpp, rust, java,
    /// python; `cpp=g++ -std=c++20 -O2`); repeatable. Default: the contest flags, or
    /// DUIPAI_CC, DUIPAI_CXX, DUIPAI_RUSTC, DUIPAI_JAVAC, DUIPAI_PYTHON.
    #[arg(long = "compiler", value_name = "LANG=COMMAND", value_parser = parse_compiler)]
    pub compilers: Vec<CompilerOverride>,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub run: RunArgs,
}

impl JudgingArgs {
    /// Whether the problem is judged by an `--interactor`, after refusing what makes no sense
    /// beside one: a built-in game, a `--reference` (nothing to compare with) and `--file-io`
    /// (the program talks on stdin and stdout).
    pub fn interactive(
        &self,
        known: Option<&'static dyn crate::problem::Problem>,
    ) -> anyhow::Result<bool> {
        if self.checker.interactor.is_none() {
            return Ok(false);
        }
        if let Some(game) = known {
            anyhow::bail!(
                "{game} is not an interactive problem: --interactor is for problems of your own"
            );
        }
        if self.reference.is_some() {
            anyhow::bail!(
                "--reference does nothing with --interactor: the interactor judges every case \
                 itself, so there is no answer to compare with"
            );
        }
        if self.run.files() {
            let flag = if self.run.file_io {
                "--file-io"
            } else {
                "--input-file"
            };
            anyhow::bail!(
                "{flag} does nothing with --interactor: the program talks with the interactor \
                 on stdin and stdout"
            );
        }
        Ok(true)
    }
}
