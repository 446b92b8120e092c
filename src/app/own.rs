//! A problem of one's own from the command line (and so from `duipai.toml`): its programs as
//! the engine's [`OwnProblem`], each source file compiled the first time it is needed.

use std::sync::Arc;

use anyhow::bail;

use crate::app::args::{
    CheckerArgs, CommandWords, CompareArgs, CompilerOverride, GeneratorArgs, LimitArgs, OwnArgs,
};
use crate::app::programs;
use crate::judge::checker::Protocol;
use crate::own::{Generators, Helper, Judging, OwnProblem, Prepare};
use crate::text::quote;

/// The parts of a problem of one's own a command has flags for; the others are absent.
#[derive(Default)]
pub struct Parts<'a> {
    pub generators: Option<&'a GeneratorArgs>,
    pub validator: Option<&'a CommandWords>,
    pub reference: Option<&'a CommandWords>,
    pub checker: Option<&'a CheckerArgs>,
    pub compare: Option<&'a CompareArgs>,
    pub limits: Option<&'a LimitArgs>,
    pub compilers: &'a [CompilerOverride],
}

impl<'a> Parts<'a> {
    /// Every part, from the flags a command shares with `pack`.
    pub fn of(args: &'a OwnArgs) -> Parts<'a> {
        Parts {
            generators: Some(&args.generators),
            validator: args.validator.as_ref(),
            reference: args.reference.as_ref(),
            checker: Some(&args.checker),
            compare: Some(&args.compare),
            limits: Some(&args.limits),
            compilers: &args.compilers,
        }
    }
}

/// The engine's problem named `name` from its parts. A source file is compiled the first
/// time the engine needs its program, saying so on stderr.
pub fn problem(name: &str, parts: &Parts) -> anyhow::Result<OwnProblem> {
    let compilers = parts.compilers.to_vec();
    let prepare: Prepare = Arc::new(move |typed, role| programs::ready(typed, &compilers, role));
    let helper = |words: &CommandWords, role: &str| Helper::new(words.0.clone(), role, &prepare);
    let generators = match parts.generators {
        Some(args) => generators(args, &prepare)?,
        None => Generators::default(),
    };
    let limits_args = parts.limits.cloned().unwrap_or_default();
    let judging = match parts.checker {
        Some(CheckerArgs {
            interactor: Some(interactor),
            ..
        }) => Judging::Interactor(helper(interactor, "interactor")),
        Some(CheckerArgs {
            checker: Some(checker),
            checker_protocol,
            ..
        }) => Judging::Checker(
            helper(checker, "checker"),
            Protocol::from(*checker_protocol),
        ),
        _ => Judging::Compare(parts.compare.cloned().unwrap_or_default().rule(None)?),
    };
    if !matches!(judging, Judging::Compare(_))
        && let Some(flag) = parts.compare.and_then(CompareArgs::first_flag)
    {
        bail!("{flag} does nothing beside a checker or an interactor: it alone decides");
    }
    Ok(OwnProblem {
        name: name.to_string(),
        generators,
        reference: parts.reference.map(|r| helper(r, "reference")),
        validator: parts.validator.map(|v| helper(v, "validator")),
        judging,
        limits: limits_args.resolve_named(name),
        time_limit_given: limits_args.time_limit.is_some(),
        memory_limit_given: limits_args.memory_limit.is_some(),
    })
}

/// The generators: the named ones, and the default one, which `--generator NAME` makes one
/// of the named ones.
fn generators(args: &GeneratorArgs, prepare: &Prepare) -> anyhow::Result<Generators> {
    let mut named: Vec<(String, Helper)> = Vec::new();
    for generator in &args.named_generators {
        if named.iter().any(|(n, _)| *n == generator.name) {
            bail!("two generators are named {}", quote(&generator.name));
        }
        let role = format!("generator {}", generator.name);
        let helper = Helper::new(generator.command.0.clone(), role, prepare);
        named.push((generator.name.clone(), helper));
    }
    let default = args.generator.as_ref().map(|words| {
        // A named one by its name, with the arguments after it (`testgen -min 2`).
        let picked = words.0.split_first().and_then(|(first, rest)| {
            let named = args
                .named_generators
                .iter()
                .find(|g| first.to_str() == Some(g.name.as_str()))?;
            Some((named, rest))
        });
        match picked {
            Some((g, rest)) => Helper::new(
                g.command.0.iter().chain(rest).cloned().collect(),
                format!("generator {}", g.name),
                prepare,
            ),
            None => Helper::new(words.0.clone(), "generator", prepare),
        }
    });
    Ok(Generators { default, named })
}

/// The error for a command that needs a part the problem lacks: `rangesum has no validator:
/// set validator = "..." in duipai.toml, or give --validator`.
pub fn missing(name: &str, part: &str, example: &str) -> anyhow::Error {
    anyhow::anyhow!(
        "{} is not a problem duipai knows ({}), and it has no {part}: set `{part} = \
         \"{example}\"` in duipai.toml, or give --{part}",
        quote(name),
        crate::problem::names().join(", ")
    )
}
