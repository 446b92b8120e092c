//! `duipai stress`: feed random cases to a program until one fails, then minimize it; with
//! the values only its flags take (`--shard`, seconds), the defaults its replay lines leave
//! out, and the engine's configuration the flags make ([`StressArgs::to_config`]).

use std::ffi::OsString;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use clap::Args;

use super::command_words::{CommandWords, parse_command};
use super::game::GenArgs;
use super::judging::JudgingArgs;
use super::values::{parse_problem_name, problem_help};
use anyhow::bail;

use crate::own::capture::Capturable;
use crate::problem::{self, Spec};
use crate::stress::{Budget, Config, Oracle, Seeds, Source};
use crate::text::quote;

/// Where `stress` saves failing cases unless `--save` says otherwise.
pub const DEFAULT_SAVE_DIR: &str = "duipai-failures";
/// The variable that sets `--shrink-time`'s default, for every case alike.
pub const SHRINK_TIME_VARIABLE: &str = "DUIPAI_SHRINK_TIME";
/// How long minimization takes unless `--shrink-time` or [`SHRINK_TIME_VARIABLE`] says
/// otherwise (and [`crate::stress::LIMIT_SHRINK_TIME`] for a case that ran into a limit).
pub const DEFAULT_SHRINK_TIME: Duration = Duration::from_secs(30);

#[derive(Debug, Args)]
#[command(
    mut_arg("json", |a| a.help(
        "Print JSON Lines on stdout: one summary object per run, with \"schema\": 1 (human \
         text goes to stderr)"
    )),
    mut_arg("junit", |a| a.help(
        "Write a JUnit XML report to FILE: one test case for the run, or for the failing seed"
    )),
    mut_arg("watch", |a| a.help(
        "Run again whenever the program (or a file among its arguments) changes, saved \
         failures first; Ctrl-C ends"
    )),
    mut_arg("reference", |a| a.help(
        "An external reference solution instead of the built-in solver: a command, split into \
         words like a shell would (`--reference 'python3 brute.py'`)"
    )),
)]
pub struct StressArgs {
    #[arg(
        value_parser = parse_problem_name,
        help = problem_help(
            "any other name (letters, digits, - and _) for a problem duipai does not know, with \
             --generator and --reference (outputs compared token by token)"
        )
    )]
    pub problem: String,
    /// Arguments of the generator of a problem of your own, given before the seed, as `gen`
    /// takes them (`duipai stress 200000 -- sol.cpp` runs `gen.py 200000 SEED`). Words
    /// starting with `-` go into --generator ('gen.py --n 10').
    #[arg(value_name = "ARGS", allow_negative_numbers = true)]
    pub args: Vec<String>,
    #[command(flatten)]
    pub gen_args: GenArgs,
    /// First seed; workers try S, S+1, S+2, ...
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Stop after this many cases (default: no bound).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub iterations: Option<u64>,
    /// Stop looking for a failure after this many seconds (default: no bound); minimizing
    /// a failure found takes at most --shrink-time more.
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub time: Option<Duration>,
    /// Where failing cases are saved.
    #[arg(long, value_name = "DIR", default_value = DEFAULT_SAVE_DIR)]
    pub save: PathBuf,
    /// Report the failing case as found, without minimizing it.
    #[arg(long)]
    pub no_shrink: bool,
    /// Do not first re-run the failing cases saved in the --save directory.
    #[arg(long)]
    pub no_replay: bool,
    /// Remove the saved failing cases that pass when they are re-run first.
    #[arg(long, conflicts_with = "no_replay")]
    pub prune_passing: bool,
    /// Most seconds spent minimizing a failing case (default: 30, and 10 for a case that
    /// ran into the time or memory limit, whose every candidate may run up to the limit).
    /// DUIPAI_SHRINK_TIME sets another default, for every case alike: for a machine or a CI
    /// job where minimizing should get more time or less.
    #[arg(
        long,
        value_name = "SECS",
        value_parser = parse_seconds,
        env = SHRINK_TIME_VARIABLE
    )]
    pub shrink_time: Option<Duration>,
    /// Minimize a failing case as text alone, without recording the generator's random
    /// choices (as for a prebuilt generator).
    #[arg(long)]
    pub no_choices: bool,
    /// The reference printing nothing is its answer (a test that asks for nothing), not a
    /// broken reference; a Polygon package sets it.
    #[arg(long)]
    pub empty_answers: bool,
    /// When stderr is not a terminal (a CI log), a progress line (cases, rate, time, or the
    /// minimizing's state) every SECS seconds, so that the log is never silent for long.
    /// Default: $DUIPAI_PROGRESS_EVERY, else 30.
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub progress_every: Option<Duration>,
    /// Take only share K of N of the seed space (seeds S + i with i mod N = K - 1).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// An external generator instead of the built-in one: a command, split into words like a
    /// shell would; it gets the seed as its last argument. Or the NAME of a --named-generator.
    #[arg(long, value_name = "COMMAND|NAME", value_parser = parse_command)]
    pub generator: Option<CommandWords>,
    /// A generator with a name, as NAME=COMMAND (repeatable; duipai.toml's [generators]
    /// table): `--generator NAME` runs it.
    #[arg(long = "named-generator", value_name = "NAME=COMMAND", value_parser = super::own::parse_named_command)]
    pub named_generators: Vec<super::own::NamedCommand>,
    /// Checks a case of a problem duipai cannot parse (exit status 0, the testlib convention,
    /// or 42, the ICPC one: valid), so that failing cases can be minimized as text: a
    /// command, split into words like a shell would.
    #[arg(long, value_name = "COMMAND", value_parser = parse_command)]
    pub validator: Option<CommandWords>,
    /// In a Polygon package: run its stress N (`stresses/00N`): its script as the generator,
    /// its limits, its total time as --time, and each solution it names that is not the main
    /// one stressed in turn against the main one, until one fails.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..),
          conflicts_with_all = ["generator", "program", "watch"])]
    pub polygon_stress: Option<u64>,
    #[command(flatten)]
    pub judging: JudgingArgs,
    /// The program under test and its arguments.
    #[arg(
        last = true,
        required_unless_present = "polygon_stress",
        value_name = "PROGRAM"
    )]
    pub program: Vec<OsString>,
}

/// `K/N`: this machine's share of a stress run split over N machines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// 1-based index of this shard.
    pub index: u64,
    pub count: u64,
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| format!("expected K/N (for example 2/8), found {}", quote(s)))?;
        let index: u64 = k
            .trim()
            .parse()
            .map_err(|_| format!("shard index {} is not a whole number", quote(k)))?;
        let count: u64 = n
            .trim()
            .parse()
            .map_err(|_| format!("shard count {} is not a whole number", quote(n)))?;
        if count == 0 || index == 0 || index > count {
            return Err(format!("shard {s}: need 1 <= K <= N"));
        }
        Ok(Shard { index, count })
    }
}

/// The `--shrink-time` [`SHRINK_TIME_VARIABLE`] sets here, when it holds seconds. A replay
/// leaves out a budget equal to it, for it is in force again wherever the same variable is.
pub fn env_shrink_time() -> Option<Duration> {
    std::env::var(SHRINK_TIME_VARIABLE)
        .ok()
        .and_then(|v| parse_seconds(&v).ok())
}

/// Seconds: a positive number, with an optional `s`, at most a year.
pub(super) fn parse_seconds(s: &str) -> Result<Duration, String> {
    let t = s.trim();
    let digits = t.strip_suffix('s').unwrap_or(t).trim();
    let value: f64 = digits
        .parse()
        .map_err(|_| format!("expected seconds like 30 or 2.5, found {}", quote(s)))?;
    if !value.is_finite() || !(0.001..=31_536_000.0).contains(&value) {
        return Err(format!("{} is outside 0.001..=31536000 seconds", quote(s)));
    }
    Ok(Duration::from_secs_f64(value))
}

/// The progress line's period when neither `--progress-every` nor the variable names one.
const DEFAULT_PROGRESS_EVERY: Duration = Duration::from_secs(30);

impl StressArgs {
    /// How often a log gets a progress line: `--progress-every`, else
    /// `DUIPAI_PROGRESS_EVERY` (seconds), else 30 s.
    pub fn progress_every(&self) -> anyhow::Result<Duration> {
        if let Some(every) = self.progress_every {
            return Ok(every);
        }
        match std::env::var("DUIPAI_PROGRESS_EVERY") {
            Ok(text) if !text.is_empty() => {
                parse_seconds(&text).map_err(|why| anyhow::anyhow!("DUIPAI_PROGRESS_EVERY: {why}"))
            }
            _ => Ok(DEFAULT_PROGRESS_EVERY),
        }
    }

    /// The engine's configuration from the command line.
    pub fn to_config(&self) -> anyhow::Result<Config> {
        let known = problem::by_name(&self.problem);
        let source = self.source(known)?;
        let oracle = self.oracle(known)?;
        if known.is_none() && self.gen_args != Default::default() {
            bail!(
                "the generator flags (--n, --m, ...) are for the built-in generator; {} has none",
                quote(&self.problem)
            );
        }
        let choices = self.choices(&source);
        let limits = self.judging.limits.resolve_named(&self.problem);
        Ok(Config {
            name: self.problem.clone(),
            problem: known,
            source,
            oracle,
            program: self.program.clone(),
            helper_limits: self.judging.limits.helpers(&limits),
            limits,
            io: self.judging.run.io_mode_named(&self.problem),
            seeds: self.seeds()?,
            jobs: super::values::jobs(self.judging.report.jobs),
            iterations: self.iterations,
            time: self.time,
            save_dir: PathBuf::from(&self.save),
            shrink: !self.no_shrink,
            shrink_budget: Budget::of(self.shrink_time.unwrap_or(DEFAULT_SHRINK_TIME)),
            limit_shrink_budget: Budget::of(
                self.shrink_time.unwrap_or(crate::stress::LIMIT_SHRINK_TIME),
            ),
            validator: self.validator.as_ref().map(|v| v.0.clone()),
            rule: self.judging.compare.rule(known)?,
            decider: crate::judge::Decider::Compare,
            choices,
            perturb: false,
            empty_answers: self.empty_answers,
        })
    }

    /// Where cases come from: the generator command with the words after the problem's name,
    /// or the built-in generator of a game with its flags.
    fn source(&self, known: Option<&'static dyn problem::Problem>) -> anyhow::Result<Source> {
        if let (Some(game), None, false) = (known, &self.generator, self.args.is_empty()) {
            bail!(
                "the built-in generator of {game} takes flags (--n 5, see `duipai gen {game} \
                 --help`), not words: {}",
                quote(&self.args.join(" "))
            );
        }
        match (&self.generator, known) {
            (Some(command), _) => {
                let mut words = self.generator_command(command);
                words.extend(self.args.iter().map(std::ffi::OsString::from));
                Ok(Source::External(words))
            }
            (None, Some(problem)) => Ok(Source::Builtin(Spec::new(
                problem,
                &self.gen_args.to_params(),
            )?)),
            (None, None) => bail!(
                "duipai does not know the problem {}{} (it knows {}): give --generator and \
                 --reference for it",
                quote(&self.problem),
                near_game(&self.problem)
                    .map(|game| format!("; did you mean {game}?"))
                    .unwrap_or_default(),
                problem::names().join(", ")
            ),
        }
    }

    /// A generator given as typed, its sources built with the --compiler flags: what
    /// recording its choices needs (none for a built-in generator, or with --no-choices).
    fn choices(&self, source: &Source) -> Option<Capturable> {
        match source {
            Source::External(typed) if !self.no_choices => Some(Capturable::new(
                typed.clone(),
                crate::app::args::compile_options(&self.judging.compilers),
            )),
            _ => None,
        }
    }

    /// The seeds this run (or its --shard) goes through; they never wrap around: the last
    /// seed asked for must be a u64.
    fn seeds(&self) -> anyhow::Result<Seeds> {
        let (offset, stride) = self.shard.map_or((0, 1), |s| (s.index - 1, s.count));
        if let Some(n) = self.iterations {
            let last = (n - 1)
                .checked_mul(stride)
                .and_then(|x| x.checked_add(offset))
                .and_then(|x| x.checked_add(self.seed));
            if last.is_none() {
                bail!(
                    "--seed {} with --iterations {n} runs past the largest seed, {}",
                    self.seed,
                    u64::MAX
                );
            }
        }
        Ok(Seeds {
            first: self.seed,
            offset,
            stride,
        })
    }

    /// Who knows the right answers: the reference, the built-in solver, or on an interactive
    /// problem the interactor, which needs neither a reference nor file I/O.
    fn oracle(&self, known: Option<&'static dyn problem::Problem>) -> anyhow::Result<Oracle> {
        let judging = &self.judging;
        if judging.interactive(known)? {
            return Ok(Oracle::Interactor);
        }
        Ok(match (&judging.reference, known) {
            (Some(command), _) => Oracle::External(command.0.clone()),
            (None, Some(_)) => Oracle::Builtin,
            (None, None) => bail!(
                "duipai has no reference solver for {}: give --reference for it (or --interactor \
                 for an interactive problem)",
                quote(&self.problem)
            ),
        })
    }

    /// The generator `--generator` names: a `--named-generator`'s command (a Polygon
    /// package's executable by its name) with the arguments given after its name
    /// (`testgen -min 2`), or the command given.
    fn generator_command(&self, given: &crate::app::args::CommandWords) -> Vec<std::ffi::OsString> {
        let Some((first, args)) = given.0.split_first() else {
            return given.0.clone();
        };
        let named = self
            .named_generators
            .iter()
            .find(|g| first.to_str() == Some(g.name.as_str()));
        match named {
            Some(g) => g.command.0.iter().chain(args).cloned().collect(),
            None => given.0.clone(),
        }
    }
}

/// The built-in game a problem name is a near miss of (`chesss`), if any.
pub fn near_game(name: &str) -> Option<&'static str> {
    // One edit only: a problem of one's own is often named two edits from a game (`guess`).
    crate::text::closest(name, problem::names(), 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_parses_and_rejects() {
        assert_eq!("2/8".parse(), Ok(Shard { index: 2, count: 8 }));
        assert!("0/8".parse::<Shard>().is_err());
        assert!("9/8".parse::<Shard>().is_err());
        assert!("x".parse::<Shard>().is_err());
    }

    #[test]
    fn seconds_accept_a_unit() {
        assert_eq!(parse_seconds("30"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_seconds("2.5s"), Ok(Duration::from_millis(2500)));
        assert!(parse_seconds("0").is_err());
        assert!(parse_seconds("soon").is_err());
    }

    fn budgets(words: &[&str]) -> (Duration, Duration) {
        use clap::Parser;
        let words = ["duipai", "stress", "chess"].iter().chain(words);
        let cli = crate::app::args::Cli::parse_from(words.chain(&["--", "a.out"]));
        let crate::app::args::Command::Stress(args) = cli.command else {
            unreachable!("parsed as stress")
        };
        let config = args.to_config().expect("a configuration");
        (config.shrink_budget.time, config.limit_shrink_budget.time)
    }

    /// A typed --shrink-time (or DUIPAI_SHRINK_TIME, when set) is every case's budget; else a
    /// case failed by a limit gets less than the others.
    #[test]
    fn a_limit_case_gets_its_own_default_budget() {
        let seven = Duration::from_secs(7);
        assert_eq!(budgets(&["--shrink-time", "7"]), (seven, seven));
        let defaults = match env_shrink_time() {
            Some(set) => (set, set),
            None => (DEFAULT_SHRINK_TIME, crate::stress::LIMIT_SHRINK_TIME),
        };
        assert_eq!(budgets(&[]), defaults);
        assert_ne!(DEFAULT_SHRINK_TIME, crate::stress::LIMIT_SHRINK_TIME);
    }
}
