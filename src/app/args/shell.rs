//! `duipai completions SHELL` and `duipai man [COMMAND]`: what the shell and `man` read,
//! generated from the command-line definitions themselves.

use clap::Args;

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell whose completion script to print: bash, elvish, fish, powershell or zsh.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// A command whose own page to print (`duipai man stress` is duipai-stress(1)); default:
    /// duipai(1), which lists the commands.
    pub command: Option<String>,
}
