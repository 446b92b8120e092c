//! The flags each game declares for itself: its generator parameters (`--n`, `--cases`, ...)
//! and its bounds (`--bound-n`, ...). clap's derive cannot list flags that come from the
//! registry, so these two groups implement `Args` by hand: one flag per distinct name across
//! the games, its help saying which games take it; the values are checked against the one
//! game a command names when they are converted into engine types.

use clap::builder::PossibleValuesParser;
use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};

use crate::problem::{
    self, Bounds, Family, GenParams, ParamKind, ParamSpec, ParamValue, Problem, SizeRange,
};

/// The generator flags shared by `gen`, `stress` and plan lines.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GenArgs {
    pub params: GenParams,
}

impl GenArgs {
    pub fn to_params(&self) -> GenParams {
        self.params.clone()
    }
}

/// Every family name of every game, `mixed` first, each once, in registry order.
fn family_names() -> Vec<&'static str> {
    let mut names = vec![Family::MIXED];
    for p in problem::ALL {
        for f in p.families() {
            if !names.contains(&f.name) {
                names.push(f.name);
            }
        }
    }
    names
}

/// `what (game, game); what (game)`: each distinct description of a flag with the games that
/// give it that meaning.
fn meanings(of: impl Fn(&dyn Problem) -> Option<&'static str>) -> String {
    let mut meanings: Vec<(&str, Vec<&str>)> = Vec::new();
    for &game in problem::ALL {
        if let Some(about) = of(game) {
            match meanings.iter_mut().find(|(a, _)| *a == about) {
                Some((_, games)) => games.push(game.name()),
                None => meanings.push((about, vec![game.name()])),
            }
        }
    }
    meanings
        .iter()
        .map(|(about, games)| format!("{about} ({})", games.join(", ")))
        .collect::<Vec<_>>()
        .join("; ")
}

fn param_arg(param: &ParamSpec) -> Arg {
    let about = meanings(|g| {
        g.params()
            .iter()
            .find(|p| p.name == param.name)
            .map(|p| p.about)
    });
    let arg = Arg::new(param.name)
        .long(param.name)
        .help_heading("Generator parameters (each game takes its own; `duipai gen GAME --help`)");
    match param.kind {
        ParamKind::Range { .. } => arg
            .value_name("N|LO..HI")
            .value_parser(clap::value_parser!(SizeRange))
            .help(format!("{about}. Default: the game's range")),
        ParamKind::Value { .. } => arg
            .value_name("V")
            .value_parser(clap::value_parser!(i64))
            .allow_negative_numbers(true)
            .help(format!("{about}. Default: the game's bound")),
        ParamKind::Flag => arg.action(ArgAction::SetTrue).help(about),
    }
}

impl Args for GenArgs {
    fn augment_args(cmd: Command) -> Command {
        let mut cmd = cmd;
        for param in problem::all_params() {
            cmd = cmd.arg(param_arg(param));
        }
        cmd.arg(
            Arg::new("family")
                .long("family")
                .value_name("NAME")
                .value_parser(PossibleValuesParser::new(family_names()))
                .help_heading(
                    "Generator parameters (each game takes its own; `duipai gen GAME --help`)",
                )
                .help(
                    "The kind of case (default: mixed, a family chosen by the seed). Explicit \
                     parameters always override the family's own choices",
                ),
        )
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl FromArgMatches for GenArgs {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let mut params = GenParams::default();
        for param in problem::all_params() {
            let value = match param.kind {
                ParamKind::Range { .. } => matches
                    .get_one::<SizeRange>(param.name)
                    .map(|r| ParamValue::Range(*r)),
                ParamKind::Value { .. } => matches
                    .get_one::<i64>(param.name)
                    .map(|v| ParamValue::Value(*v)),
                ParamKind::Flag => matches.get_flag(param.name).then_some(ParamValue::Flag),
            };
            if let Some(value) = value {
                params.set(param.name, value);
            }
        }
        params.family = matches.get_one::<String>("family").cloned();
        Ok(GenArgs { params })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = GenArgs::from_arg_matches(matches)?;
        Ok(())
    }
}

/// Overrides of the validator's bounds (`--bound-n 12`), for users who want larger boards or
/// values.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BoundsArgs {
    given: Vec<(&'static str, i64)>,
}

fn bound_id(name: &str) -> String {
    format!("bound-{name}")
}

impl Args for BoundsArgs {
    fn augment_args(cmd: Command) -> Command {
        let mut cmd = cmd;
        for bound in problem::all_bounds() {
            let about = meanings(|g| {
                g.bounds()
                    .iter()
                    .find(|b| b.name == bound.name)
                    .map(|b| b.about)
            });
            cmd = cmd.arg(
                Arg::new(bound_id(bound.name))
                    .long(bound_id(bound.name))
                    .value_name("V")
                    .value_parser(clap::value_parser!(i64))
                    .allow_negative_numbers(true)
                    .help_heading("Bounds (default: the official constraints)")
                    .help(about),
            );
        }
        cmd
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl FromArgMatches for BoundsArgs {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let given = problem::all_bounds()
            .into_iter()
            .filter_map(|b| Some((b.name, *matches.get_one::<i64>(&bound_id(b.name))?)))
            .collect();
        Ok(BoundsArgs { given })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = BoundsArgs::from_arg_matches(matches)?;
        Ok(())
    }
}

impl BoundsArgs {
    /// Whether any bound was given.
    pub fn is_set(&self) -> bool {
        !self.given.is_empty()
    }

    /// The bounds of `problem` with these overrides; a bound the game does not have, or a
    /// value outside what it accepts, is refused with a message naming the flag.
    pub fn resolve(&self, problem: &dyn Problem) -> anyhow::Result<Bounds> {
        let mut bounds = problem.default_bounds();
        for &(name, value) in &self.given {
            let Some(spec) = problem.bounds().iter().find(|b| b.name == name) else {
                let own: Vec<String> = problem
                    .bounds()
                    .iter()
                    .map(|b| format!("--{}", bound_id(b.name)))
                    .collect();
                anyhow::bail!(
                    "--{} does not apply to {problem}; its bounds are {}",
                    bound_id(name),
                    own.join(", ")
                );
            };
            if !(spec.min..=spec.max).contains(&value) {
                anyhow::bail!(
                    "--{} {value}: {problem} accepts {}..={}",
                    bound_id(name),
                    spec.min,
                    spec.max
                );
            }
            bounds.set(name, value);
        }
        Ok(bounds)
    }

    /// [`BoundsArgs::resolve`] for the problem named `name`; `None` for a problem duipai does
    /// not know, which has no bounds to override.
    pub fn resolve_named(&self, name: &str) -> anyhow::Result<Option<Bounds>> {
        match problem::by_name(name) {
            Some(known) => self.resolve(known).map(Some),
            None if self.is_set() => anyhow::bail!(
                "the --bound-* flags are for the problems duipai knows; {} is not one",
                crate::text::quote(name)
            ),
            None => Ok(None),
        }
    }
}

/// What `duipai gen GAME --help` adds for that game: its parameters, bounds and families,
/// each a table with aligned columns.
pub fn game_help(game: &dyn Problem) -> String {
    let bounds = game.default_bounds();
    let params: Vec<(String, String)> = game
        .params()
        .iter()
        .map(|p| match p.kind {
            ParamKind::Range {
                min,
                bound,
                default,
            } => {
                let max = bounds.get(bound);
                let (lo, hi) = default.unwrap_or((min, max));
                let range = SizeRange {
                    lo: lo as usize,
                    hi: hi as usize,
                };
                (
                    format!("--{} <N|LO..HI>", p.name),
                    format!("{}: {min} to {max}, default {range}", p.about),
                )
            }
            ParamKind::Value { min, bound, .. } => {
                let max = bounds.get(bound);
                (
                    format!("--{} <V>", p.name),
                    format!("{}: {min} to {max}, default {max}", p.about),
                )
            }
            ParamKind::Flag => (format!("--{}", p.name), p.about.to_string()),
        })
        .collect();
    let limits: Vec<(String, String)> = game
        .bounds()
        .iter()
        .map(|b| {
            (
                format!("--bound-{} <V>", b.name),
                format!("{}: default {}", b.about, b.default),
            )
        })
        .collect();
    let mut families = vec![(
        "mixed".to_string(),
        "a family chosen by the seed (the default)".to_string(),
    )];
    families.extend(
        game.families()
            .iter()
            .map(|f| (f.name.to_string(), f.about.to_string())),
    );
    format!(
        "{game}: {}\n\nParameters of {game}:\n{}\nBounds of {game} (validate, solve, test):\n{}\n\
         Families of {game} (--family):\n{}",
        game.about(),
        table(&params),
        table(&limits),
        table(&families)
    )
}

/// Rows of two columns, the first padded to the widest.
fn table(rows: &[(String, String)]) -> String {
    let width = rows
        .iter()
        .map(|(a, _)| a.chars().count())
        .max()
        .unwrap_or(0);
    rows.iter()
        .map(|(a, b)| format!("  {a:<width$}  {b}\n"))
        .collect()
}
