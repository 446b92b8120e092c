//! `--checker`, `--checker-protocol` and `--interactor` (`test`, `stress`): an external
//! program that decides whether an output is right, and how it is called, or one the program
//! talks with on an interactive problem.

use clap::{Args, ValueEnum};

use super::command_words::{CommandWords, parse_command};
use crate::judge::checker::Protocol;
use crate::text::{quote_command, shell_quote};

/// `--checker-protocol`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum ProtocolArg {
    /// `CHECKER input output answer`; exit 0 accepted, 1 wrong answer, 2 presentation error,
    /// 3 the checker's failure; its message on stderr.
    #[default]
    Testlib,
    /// An ICPC/Kattis output validator: `CHECKER input answer feedback_dir/ < output`; exit
    /// 42 accepted, 43 rejected; its message in feedback_dir/judgemessage.txt.
    Kattis,
}

impl From<ProtocolArg> for Protocol {
    fn from(protocol: ProtocolArg) -> Protocol {
        match protocol {
            ProtocolArg::Testlib => Protocol::Testlib,
            ProtocolArg::Kattis => Protocol::Kattis,
        }
    }
}

// How outputs are decided, when not by comparing them with the answers.
#[derive(Debug, Clone, Args)]
pub struct CheckerArgs {
    /// A checker that decides each output instead of comparing it with the answer: a command
    /// (or a source file, compiled like programs), split into words like a shell would. It
    /// gets the input, the output and the answer (the answer file, or the reference's
    /// output) as files.
    #[arg(long, value_name = "COMMAND", value_parser = parse_command)]
    pub checker: Option<CommandWords>,
    /// How the checker is called: testlib (`CHECKER input output answer`, exit 0/1/2/3) or
    /// kattis (an output validator: `CHECKER input answer feedback_dir/ < output`, exit
    /// 42/43).
    #[arg(long, value_enum, value_name = "PROTOCOL", requires = "checker", default_value_t = ProtocolArg::Testlib)]
    pub checker_protocol: ProtocolArg,
    /// An interactor, for an interactive problem (testlib's protocol): a command or a source
    /// file, run as `INTERACTOR input output` with the program's output as its stdin and its
    /// stdout as the program's input; its exit code is the verdict (0 accepted, 1 wrong
    /// answer, 2 presentation error, 3 its own failure).
    #[arg(long, value_name = "COMMAND", value_parser = parse_command, conflicts_with = "checker")]
    pub interactor: Option<CommandWords>,
}

impl CheckerArgs {
    /// The flags as typed (each with a leading space), for replay commands.
    pub fn to_flags(&self) -> String {
        if let Some(command) = &self.interactor {
            return format!(" --interactor {}", shell_quote(&quote_command(&command.0)));
        }
        let Some(command) = &self.checker else {
            return String::new();
        };
        let mut flags = format!(" --checker {}", shell_quote(&quote_command(&command.0)));
        if self.checker_protocol != ProtocolArg::Testlib {
            flags.push_str(" --checker-protocol kattis");
        }
        flags
    }
}
