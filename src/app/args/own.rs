//! The flags of a problem of one's own on the commands that make, check and judge its data
//! (`gen`, `validate`, `pack`, `judge`, `hunt`): its generators (a default one and named
//! ones), its validator, its reference, how its outputs are judged and its limits. In a
//! folder with a `duipai.toml`, they come from the file.

use clap::Args;

use super::checker::CheckerArgs;
use super::command_words::{CommandWords, parse_command};
use super::compare::CompareArgs;
use super::compiler::{CompilerOverride, parse_compiler};
use super::limits::LimitArgs;
use crate::text::quote;

/// `--named-generator NAME=COMMAND`: a generator a plan line picks by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedCommand {
    pub name: String,
    pub command: CommandWords,
}

/// A generator's name: letters, digits, `-` and `_`, at most 32 of them.
pub fn parse_generator_name(s: &str) -> Result<(), String> {
    let plain = !s.is_empty()
        && s.len() <= 32
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if plain {
        Ok(())
    } else {
        Err(format!(
            "a generator's name is letters, digits, - and _ (at most 32), found {}",
            quote(s)
        ))
    }
}

/// `NAME=COMMAND`.
pub(super) fn parse_named_command(s: &str) -> Result<NamedCommand, String> {
    let Some((name, command)) = s.split_once('=') else {
        return Err(format!(
            "expected NAME=COMMAND (big=gen_big.cpp), found {}",
            quote(s)
        ));
    };
    parse_generator_name(name)?;
    Ok(NamedCommand {
        name: name.to_string(),
        command: parse_command(command)?,
    })
}

// The generators of a problem of one's own.
#[derive(Debug, Clone, Default, PartialEq, Eq, Args)]
pub struct GeneratorArgs {
    /// The generator of a problem of your own: a command or a source file; it gets its
    /// arguments, then the seed as the last one, and prints one input. Or the NAME of a
    /// --named-generator.
    #[arg(long, value_name = "COMMAND|NAME", value_parser = parse_command)]
    pub generator: Option<CommandWords>,
    /// A generator with a name, as NAME=COMMAND (repeatable; duipai.toml's [generators]
    /// table): a plan line picks it with `--generator NAME`.
    #[arg(long = "named-generator", value_name = "NAME=COMMAND", value_parser = parse_named_command)]
    pub named_generators: Vec<NamedCommand>,
}

impl GeneratorArgs {
    /// Whether any generator is given.
    pub fn is_set(&self) -> bool {
        self.generator.is_some() || !self.named_generators.is_empty()
    }
}

// Everything a problem of one's own is made of, for the commands that need all of it.
#[derive(Debug, Clone, Args)]
pub struct OwnArgs {
    #[command(flatten)]
    pub generators: GeneratorArgs,
    /// The validator of a problem of your own: a command or a source file reading an input
    /// on stdin; exit 0 (testlib) or 42 (ICPC) when it is valid, another code when not.
    #[arg(long, value_name = "COMMAND", value_parser = parse_command)]
    pub validator: Option<CommandWords>,
    /// The reference solution of a problem of your own: its output is the answer.
    #[arg(long, value_name = "COMMAND", value_parser = parse_command)]
    pub reference: Option<CommandWords>,
    #[command(flatten)]
    pub checker: CheckerArgs,
    #[command(flatten)]
    pub compare: CompareArgs,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// A compiler for source files given as programs, as LANG=COMMAND; repeatable.
    #[arg(long = "compiler", value_name = "LANG=COMMAND", value_parser = parse_compiler)]
    pub compilers: Vec<CompilerOverride>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_commands_split_at_the_first_equals_sign() {
        let named = parse_named_command("big=python3 gen.py --n=5").unwrap();
        assert_eq!(named.name, "big");
        assert_eq!(named.command.0.len(), 3);
        assert!(parse_named_command("gen.py").is_err());
        assert!(parse_named_command("a b=gen.py").is_err());
    }
}
