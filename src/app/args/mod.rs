//! The command-line contract: the root command and its subcommands as clap types. Each
//! subcommand's flags, and each group of flags several subcommands share, live in a module
//! of their own with their conversion into the engine's types (problems, generator settings,
//! limits, I/O mode, pack layout, plans). Nothing below `app` sees clap.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

mod answers;
mod checker;
mod command_words;
mod compare;
mod compiler;
mod contain;
mod failures;
mod game;
mod generate;
mod hunt;
mod init;
mod judge;
mod judging;
mod limits;
mod listen;
mod own;
mod pack;
#[cfg(test)]
mod reference;
mod reports;
mod running;
mod setting;
mod shell;
mod solve;
mod stress;
mod test;
mod validate;
mod values;

pub use answers::AnswersArgs;
pub use checker::{CheckerArgs, ProtocolArg};
pub use command_words::CommandWords;
pub use compare::CompareArgs;
pub use compiler::{CompilerOverride, compile_options};
pub use contain::ContainArgs;
pub use failures::FailuresArgs;
pub use game::{BoundsArgs, GenArgs, game_help};
pub use generate::GenCommandArgs;
pub use hunt::HuntArgs;
pub use init::InitArgs;
pub use judge::JudgeArgs;
pub use judging::JudgingArgs;
pub use limits::LimitArgs;
pub use listen::{DEFAULT_PORT, ListenArgs};
pub use own::{GeneratorArgs, NamedCommand, OwnArgs, parse_generator_name};
pub use pack::{IcpcVersionArg, LayoutArg, PackArgs};
pub use running::RunArgs;
pub use setting::{SettingArgs, helpers_of_saved, parse_setting, setting_words};
pub use shell::{CompletionsArgs, ManArgs};
pub use solve::SolveArgs;
pub use stress::{
    DEFAULT_SAVE_DIR, DEFAULT_SHRINK_TIME, Shard, StressArgs, env_shrink_time, near_game,
};
pub use test::TestArgs;
pub use validate::ValidateArgs;
pub use values::{jobs, parse_problem_name};

/// Where the global flags come in each command's help: after the command's own flags, just
/// before `--help` (which clap leaves at 999). clap numbers a command's flags from 0 in the
/// order they are declared, and the global flags keep the numbers they got in the root
/// command (after the subcommands); left so, they would fall among a command's own
/// flags wherever the numbers meet, and move whenever a command gains a flag.
const GLOBAL_FLAGS_ORDER: usize = 998;

#[derive(Debug, Parser)]
#[command(
    name = "duipai",
    version,
    about = "A stress tester (对拍) with counterexample minimization, a judge and test packs for competitive programming problems: your own, and five built-in games",
    after_help = "Exit status: 0 success, 1 a program failed or an input is invalid, 2 usage error or harness failure."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Colour in human output: auto (on a terminal, unless NO_COLOR is set; CLICOLOR_FORCE
    /// forces it), always, never. JSON and JUnit are never coloured.
    #[arg(long, global = true, value_enum, default_value_t = ColorArg::Auto, value_name = "WHEN", display_order = GLOBAL_FLAGS_ORDER)]
    pub color: ColorArg,
    /// The problem folder's settings, read by test, stress, gen, pack and failures (default:
    /// duipai.toml in the current directory, if there is one). Flags typed override them.
    #[arg(long, global = true, value_name = "FILE", display_order = GLOBAL_FLAGS_ORDER)]
    pub config: Option<PathBuf>,
    /// Start every Python helper (generator, reference, validator, checker, interactor) as a
    /// new interpreter, rather than forked from one started once per helper and worker.
    #[arg(long, global = true, display_order = GLOBAL_FLAGS_ORDER)]
    pub fresh_helpers: bool,
}

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorArg {
    Auto,
    Always,
    Never,
}

// Each subcommand's arguments are built only when it runs (or when help, completions or the
// manual page ask for the whole tree): building all of them took a third of a start's CPU.
#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum Command {
    /// Print the reference answer for one input (a file, or stdin).
    Solve(SolveArgs),
    /// Check input files against the problem's constraints; report every invalid one.
    Validate(ValidateArgs),
    /// Print one random input, fully determined by the seed and the generator flags.
    Gen(GenCommandArgs),
    /// Write a whole test pack: inputs and reference answers.
    Pack(PackArgs),
    /// Judge a program on stored cases.
    Test(TestArgs),
    /// Feed random cases to a program until one fails, then minimize it.
    Stress(StressArgs),
    /// List the failing cases stress saved; with --prune-passing, remove those that pass now.
    Failures(FailuresArgs),
    /// Write a commented duipai.toml for the problem in this folder.
    Init(InitArgs),
    /// Write the missing answer files of stored inputs, from a reference or the built-in
    /// solver; never replaces an existing one.
    Answers(AnswersArgs),
    /// Judge every submission of submissions/<expected>/ on every test; derive the time limit.
    Judge(JudgeArgs),
    /// Find (and with --add, add to the plan) a test for a submission the tests miss.
    Hunt(HuntArgs),
    /// What this machine gives duipai: the protections --sandbox needs (exit 1 when one is
    /// missing), how each limit is enforced, and what makes timings unsteady.
    Doctor,
    /// Receive problems from the Competitive Companion browser extension: each becomes a
    /// folder with its samples and limits, a whole contest at once.
    Listen(ListenArgs),
    /// Print the completion script of a shell (bash, elvish, fish, powershell, zsh).
    Completions(CompletionsArgs),
    /// Print the manual page, duipai(1) or that of one command, in roff (`duipai man | man -l -`).
    Man(ManArgs),
}

/// `name`'s subcommand of `root` with its arguments, for code that reads them rather than
/// parsing with them: a subcommand's arguments are built only when it runs (see
/// [`Command`]). Without the help flag clap adds when it builds a command, as before. For
/// reading only: clap cannot parse with a subcommand built apart from its parent.
pub fn subcommand(root: &clap::Command, name: &str) -> Option<clap::Command> {
    root.find_subcommand(name).cloned().map(built)
}

/// `root` with the subcommands `names` built, as [`subcommand`] builds one.
pub fn with_subcommands_built(root: clap::Command, names: &[&str]) -> clap::Command {
    names
        .iter()
        .fold(root, |root, name| root.mut_subcommand(name, built))
}

fn built(command: clap::Command) -> clap::Command {
    let mut command = command.disable_help_flag(true).disable_version_flag(true);
    command.build();
    command
}

#[cfg(test)]
mod tests {
    use clap::{CommandFactory, Parser};

    use super::*;

    #[test]
    fn command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    /// A subcommand read by [`subcommand`] has the arguments it parses with, its own and no
    /// others: deferred building leaves nothing out.
    #[test]
    fn a_subcommand_read_alone_has_the_arguments_it_parses_with() {
        let root = Cli::command();
        let mut built = Cli::command();
        built.build();
        let names: Vec<String> = built
            .get_subcommands()
            .map(|c| c.get_name().to_string())
            .filter(|name| name != "help")
            .collect();
        assert!(names.len() >= 10, "{names:?}");
        for name in names {
            let alone = subcommand(&root, &name).unwrap();
            let ids = |c: &clap::Command| {
                let mut ids: Vec<String> = c
                    .get_arguments()
                    .filter(|a| !a.is_global_set())
                    .map(|a| a.get_id().to_string())
                    .filter(|id| id != "help" && id != "version")
                    .collect();
                ids.sort();
                ids
            };
            let own = ids(built.find_subcommand(&name).unwrap());
            assert!(!own.is_empty() || name == "doctor", "{name}: no arguments");
            assert_eq!(ids(&alone), own, "{name}");
            assert!(
                alone.get_arguments().all(|a| a.get_id() != "help"),
                "{name}"
            );
        }
    }

    /// The help of the flags `test` and `stress` share is given by each command; none may be
    /// left without.
    #[test]
    fn every_flag_of_test_and_stress_has_help() {
        let mut cli = Cli::command();
        cli.build();
        for name in ["test", "stress"] {
            let command = cli.find_subcommand(name).unwrap();
            for arg in command.get_arguments() {
                assert!(arg.get_help().is_some(), "{name} --{}", arg.get_id());
            }
        }
    }

    /// The defaults the replay lines leave out are the flags' own.
    #[test]
    fn defaults_written_once_are_the_flags_defaults() {
        let cli = Cli::parse_from(["duipai", "stress", "chess", "--", "a.out"]);
        let Command::Stress(args) = cli.command else {
            unreachable!("parsed as stress")
        };
        assert_eq!(args.judging.limits, LimitArgs::default());
        assert_eq!(args.judging.run, RunArgs::default());
        assert_eq!(args.save, PathBuf::from(DEFAULT_SAVE_DIR));
        assert_eq!(args.shrink_time, None);
    }
}
