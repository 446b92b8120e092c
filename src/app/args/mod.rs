//! The command-line contract: every subcommand and its flags as clap types, and their
//! conversion into the engine's types (problems, generator settings, limits, I/O mode, pack
//! layout, plans). Nothing below `app` sees clap.

use std::ffi::OsString;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::pack;
use crate::problem::{self, Problem};
use crate::run::{IoMode, Limits};
use crate::text::quote;

mod checker;
mod compare;
mod game;

pub use checker::{CheckerArgs, ProtocolArg};
pub use compare::CompareArgs;
pub use game::{BoundsArgs, GenArgs, game_help};

const MIB: u64 = 1024 * 1024;

/// A registered game by name, with the names as clap's possible values.
fn problem_parser() -> impl TypedValueParser<Value = &'static dyn Problem> {
    PossibleValuesParser::new(problem::names()).map(|name| {
        // Only registered names get past the possible values.
        problem::by_name(&name).unwrap_or(problem::ALL[0] as &dyn Problem)
    })
}

#[derive(Debug, Parser)]
#[command(
    name = "duipai",
    version,
    about = "Reference solvers, seeded generators, a judge and a stress tester for staircase game problems",
    after_help = "Exit status: 0 success, 1 a program failed or an input is invalid, 2 usage error or harness failure."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Colour in human output: auto (on a terminal, unless NO_COLOR is set; CLICOLOR_FORCE
    /// forces it), always, never. JSON and JUnit are never coloured.
    #[arg(long, global = true, value_enum, default_value_t = ColorArg::Auto, value_name = "WHEN")]
    pub color: ColorArg,
    /// The problem folder's settings, read by test, stress, gen, pack and failures (default:
    /// duipai.toml in the current directory, if there is one). Flags typed override them.
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorArg {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Subcommand)]
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
}

#[derive(Debug, Args)]
pub struct SolveArgs {
    #[arg(value_parser = problem_parser())]
    pub problem: &'static dyn Problem,
    /// Input file; stdin when absent or `-`.
    pub input: Option<PathBuf>,
    /// Also print the board and the optimal line of play.
    #[arg(long)]
    pub explain: bool,
    #[command(flatten)]
    pub bounds: BoundsArgs,
}

#[derive(Debug, Args)]
pub struct ValidateArgs {
    #[arg(value_parser = problem_parser())]
    pub problem: &'static dyn Problem,
    /// Input files to check.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Then print, for each bound, the smallest and largest value the valid files reached,
    /// with `BOUND NOT REACHED` where no file reaches an end of the range.
    #[arg(long)]
    pub coverage: bool,
    #[command(flatten)]
    pub bounds: BoundsArgs,
}

#[derive(Debug, Args)]
pub struct GenCommandArgs {
    #[arg(value_parser = problem_parser())]
    pub problem: &'static dyn Problem,
    /// The seed; the same seed and flags give the same case on every machine.
    #[arg(long)]
    pub seed: u64,
    #[command(flatten)]
    pub gen_args: GenArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LayoutArg {
    /// 1.in, 1.ans, 2.in, ...
    Plain,
    /// chess1.in, chess1.ans, ...: the NOI / Lemon / Arbiter naming.
    Noi,
    /// The ICPC problem package: problem.yaml, the statement, validators, an accepted
    /// submission, data/sample, data/secret.
    Icpc,
}

/// A version of the ICPC problem package format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum IcpcVersionArg {
    /// What BAPCtools (`bt`) and DOMjudge read.
    #[value(name = "2025-09")]
    V2025_09,
    /// What problemtools reads in part.
    #[value(name = "2023-07-draft")]
    Draft2023_07,
    /// What problemtools' `verifyproblem` and Kattis read.
    Legacy,
}

#[derive(Debug, Args)]
pub struct PackArgs {
    #[arg(value_parser = problem_parser())]
    pub problem: &'static dyn Problem,
    /// Directory to write the pack into.
    #[arg(long)]
    pub out: PathBuf,
    /// A plan file of your own, or the name of another built-in plan (chess: `official`, the
    /// 20 official tests alone). Default: the built-in plan of the problem. A file named like
    /// a built-in plan is given with a directory: `./official`.
    #[arg(long, value_name = "FILE|NAME")]
    pub plan: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = LayoutArg::Plain)]
    pub layout: LayoutArg,
    /// With --layout icpc: the package format version. Default: the version an existing
    /// problem.yaml names, else 2025-09.
    #[arg(long, value_enum, value_name = "VERSION")]
    pub icpc_version: Option<IcpcVersionArg>,
    /// Mixed into every plan line's seed; 0 keeps the plan's seeds as written.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Write into a non-empty directory: replace files of the same names, remove the files
    /// manifest.txt lists for the previous pack of this problem and layout that this one
    /// does not write, and leave everything else in place.
    #[arg(long)]
    pub force: bool,
}

/// The default output limit in MiB and process limit, shared by the flags and the replay
/// lines that leave them out.
const DEFAULT_OUTPUT_MIB: u64 = 64;
const DEFAULT_PROCESSES: u64 = 64;

/// Resource limits for the program under test.
#[derive(Debug, Clone, Args)]
pub struct LimitArgs {
    /// CPU time limit: milliseconds, or with a unit (`1500ms`, `2s`). Default: the problem's.
    #[arg(long, value_name = "MS", value_parser = parse_millis)]
    pub time_limit: Option<u64>,
    /// Wall-clock limit, for programs that sleep or wait (default: 2 × time limit + 1 s).
    #[arg(long, value_name = "MS", value_parser = parse_millis)]
    pub wall_limit: Option<u64>,
    /// Memory limit: MiB, or with a unit (`512MiB`, `1GiB`). Default: the problem's.
    #[arg(long, value_name = "MIB", value_parser = parse_mebibytes)]
    pub memory_limit: Option<u64>,
    /// Output limit in MiB (stdout; reading stops past it).
    #[arg(long, value_name = "MIB", value_parser = parse_mebibytes, default_value_t = DEFAULT_OUTPUT_MIB)]
    pub output_limit: u64,
    /// Most processes (threads count too) the program may have running at once.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_PROCESSES, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub process_limit: u64,
    /// File I/O as in the original contest: write `<problem>.in` into the working directory
    /// and read `<problem>.out` back, instead of stdin/stdout.
    #[arg(long)]
    pub file_io: bool,
    /// Judge every case on one run: no second and third measurement of a run whose CPU time
    /// lands near the limit (0.8× to 1.5×).
    #[arg(long)]
    pub no_rerun: bool,
}

impl LimitArgs {
    /// The limits for `problem`, with this command line's overrides.
    pub fn resolve(&self, problem: &dyn Problem) -> Limits {
        self.resolve_with(problem.default_limits())
    }

    /// The limits for the problem named `name`: its own defaults if duipai knows it, else 1 s
    /// and 1024 MiB; this command line's overrides over them.
    pub fn resolve_named(&self, name: &str) -> Limits {
        match problem::by_name(name) {
            Some(known) => self.resolve(known),
            None => self.resolve_with((1000, 1024)),
        }
    }

    /// The limits with these defaults (CPU milliseconds, MiB) and this command line's overrides.
    fn resolve_with(&self, (default_cpu_ms, default_mib): (u64, u64)) -> Limits {
        let cpu = Duration::from_millis(self.time_limit.unwrap_or(default_cpu_ms));
        let wall = match self.wall_limit {
            Some(ms) => Duration::from_millis(ms),
            None => Limits::default_wall(cpu),
        };
        Limits {
            cpu,
            wall,
            memory_bytes: self.memory_limit.unwrap_or(default_mib).saturating_mul(MIB),
            output_bytes: self.output_limit.saturating_mul(MIB),
            processes: self.process_limit,
        }
    }

    /// The process runner, re-running near the limit unless `--no-rerun`.
    pub fn runner(&self) -> crate::judge::ProcessRunner {
        crate::judge::ProcessRunner {
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

    /// The limit flags that differ from the defaults, as typed (with a leading space), so a
    /// replay command runs under the same limits.
    pub fn to_flags(&self) -> String {
        let mut flags = String::new();
        if let Some(ms) = self.time_limit {
            flags.push_str(&format!(" --time-limit {ms}"));
        }
        if let Some(ms) = self.wall_limit {
            flags.push_str(&format!(" --wall-limit {ms}"));
        }
        if let Some(mib) = self.memory_limit {
            flags.push_str(&format!(" --memory-limit {mib}"));
        }
        if self.output_limit != DEFAULT_OUTPUT_MIB {
            flags.push_str(&format!(" --output-limit {}", self.output_limit));
        }
        if self.process_limit != DEFAULT_PROCESSES {
            flags.push_str(&format!(" --process-limit {}", self.process_limit));
        }
        if self.file_io {
            flags.push_str(" --file-io");
        }
        if self.no_rerun {
            flags.push_str(" --no-rerun");
        }
        flags
    }
}

#[derive(Debug, Args)]
pub struct TestArgs {
    /// chess or chessboard; any other name (letters, digits, - and _) for a problem duipai
    /// does not know: every input then needs its answer file (or --reference), compared
    /// token by token (or by --checker).
    #[arg(value_parser = parse_problem_name)]
    pub problem: String,
    /// A directory searched recursively for `*.in` files, or one `.in` file. Each input's
    /// expected answer is `NAME.ans` beside it, else `NAME.out`, else --reference's output,
    /// else the built-in solver's.
    /// Without `*.in` files, a Polygon `tests/` directory: `01`, `02`, ... with `01.a`, ....
    pub dir: PathBuf,
    #[command(flatten)]
    pub compare: CompareArgs,
    #[command(flatten)]
    pub bounds: BoundsArgs,
    /// Parallel workers (default: the number of cores).
    #[arg(short = 'j', long = "jobs", value_name = "N", value_parser = parse_jobs)]
    pub jobs: Option<usize>,
    /// Print JSON Lines on stdout: one object per case as it is judged, then a summary
    /// object; each has "schema": 1 (human text goes to stderr).
    #[arg(long)]
    pub json: bool,
    /// Write a JUnit XML report to FILE.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Run again whenever the program (or a file among its arguments) changes; Ctrl-C ends.
    #[arg(long)]
    pub watch: bool,
    /// A reference solution whose output is the expected answer of every input without an
    /// answer file (instead of the built-in solver's): a command, split into words like a
    /// shell would (`--reference 'python3 brute.py'`).
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
    /// The program under test and its arguments.
    #[arg(last = true, required = true, value_name = "PROGRAM")]
    pub program: Vec<OsString>,
}

#[derive(Debug, Args)]
pub struct AnswersArgs {
    /// A problem duipai knows (its built-in solver answers by default), or any other name
    /// (letters, digits, - and _) for one it does not know: --reference is then needed.
    #[arg(value_parser = parse_problem_name)]
    pub problem: String,
    /// A directory searched recursively for `*.in` files (or Polygon tests `01`, `02`, ...),
    /// or one input file. Each input without `NAME.ans` or `NAME.out` (`01.a`) gets one.
    pub dir: PathBuf,
    /// The reference solution whose output is written as the answer: a command, split into
    /// words like a shell would. Default: the built-in solver.
    #[arg(long, value_name = "COMMAND", value_parser = parse_command)]
    pub reference: Option<CommandWords>,
    #[command(flatten)]
    pub bounds: BoundsArgs,
    /// Parallel workers (default: the number of cores).
    #[arg(short = 'j', long = "jobs", value_name = "N", value_parser = parse_jobs)]
    pub jobs: Option<usize>,
    /// A compiler for source files given as programs, as LANG=COMMAND; repeatable.
    #[arg(long = "compiler", value_name = "LANG=COMMAND", value_parser = parse_compiler)]
    pub compilers: Vec<CompilerOverride>,
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

/// Where `stress` saves failing cases unless `--save` says otherwise.
pub const DEFAULT_SAVE_DIR: &str = "duipai-failures";
/// `--shrink-time`'s default (`"30"` in the flag's definition).
pub const DEFAULT_SHRINK_TIME: Duration = Duration::from_secs(30);

#[derive(Debug, Args)]
pub struct StressArgs {
    /// chess or chessboard; any other name (letters, digits, - and _) for a problem duipai
    /// does not know, with --generator and --reference (outputs compared token by token).
    #[arg(value_parser = parse_problem_name)]
    pub problem: String,
    #[command(flatten)]
    pub gen_args: GenArgs,
    #[command(flatten)]
    pub compare: CompareArgs,
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
    /// Parallel workers (default: the number of cores).
    #[arg(short = 'j', long = "jobs", value_name = "N", value_parser = parse_jobs)]
    pub jobs: Option<usize>,
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
    /// Run again whenever the program (or a file among its arguments) changes, saved
    /// failures first; Ctrl-C ends.
    #[arg(long)]
    pub watch: bool,
    /// Most seconds spent minimizing a failing case.
    #[arg(long, value_name = "SECS", value_parser = parse_seconds, default_value = "30")]
    pub shrink_time: Duration,
    /// Print JSON Lines on stdout: one summary object per run, with "schema": 1 (human
    /// text goes to stderr).
    #[arg(long)]
    pub json: bool,
    /// Write a JUnit XML report to FILE: one test case for the run, or for the failing seed.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Take only share K of N of the seed space (seeds S + i with i mod N = K - 1).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// An external reference solution instead of the built-in solver: a command, split
    /// into words like a shell would (`--reference 'python3 brute.py'`).
    #[arg(long, value_name = "COMMAND", value_parser = parse_command)]
    pub reference: Option<CommandWords>,
    /// An external generator instead of the built-in one: a command, split into words like a
    /// shell would; it gets the seed as its last argument.
    #[arg(long, value_name = "COMMAND", value_parser = parse_command)]
    pub generator: Option<CommandWords>,
    /// Checks a case of a problem duipai cannot parse (exit status 0: valid, the testlib
    /// convention), so that failing cases can be minimized as text: a command, split into
    /// words like a shell would.
    #[arg(long, value_name = "COMMAND", value_parser = parse_command)]
    pub validator: Option<CommandWords>,
    #[command(flatten)]
    pub checker: CheckerArgs,
    /// A compiler for source files given as programs, as LANG=COMMAND (c, cpp, rust, java,
    /// python; `cpp=g++ -std=c++20 -O2`); repeatable. Default: the contest flags, or
    /// DUIPAI_CC, DUIPAI_CXX, DUIPAI_RUSTC, DUIPAI_JAVAC, DUIPAI_PYTHON.
    #[arg(long = "compiler", value_name = "LANG=COMMAND", value_parser = parse_compiler)]
    pub compilers: Vec<CompilerOverride>,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// The program under test and its arguments.
    #[arg(last = true, required = true, value_name = "PROGRAM")]
    pub program: Vec<OsString>,
}

#[derive(Debug, Args)]
pub struct FailuresArgs {
    /// The problem whose saved failures to list (default: every problem's).
    #[arg(value_parser = parse_problem_name)]
    pub problem: Option<String>,
    /// Where stress saved them.
    #[arg(long, value_name = "DIR", default_value = DEFAULT_SAVE_DIR)]
    pub save: PathBuf,
    /// Re-run the problem's saved failures on PROGRAM and remove the files of those that
    /// pass now.
    #[arg(long, requires = "program")]
    pub prune_passing: bool,
    /// Parallel workers (default: the number of cores).
    #[arg(short = 'j', long = "jobs", value_name = "N", value_parser = parse_jobs)]
    pub jobs: Option<usize>,
    /// A compiler for source files given as programs, as LANG=COMMAND; repeatable.
    #[arg(long = "compiler", value_name = "LANG=COMMAND", value_parser = parse_compiler)]
    pub compilers: Vec<CompilerOverride>,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// How outputs are compared, as in the stress run that saved them.
    #[command(flatten)]
    pub compare: CompareArgs,
    #[command(flatten)]
    pub checker: CheckerArgs,
    /// The program to re-run them on (with --prune-passing), and its arguments.
    #[arg(last = true, value_name = "PROGRAM", requires = "prune_passing")]
    pub program: Vec<OsString>,
}

#[derive(Debug, Args)]
pub struct InitArgs {
    /// The problem's name (default: the folder's name): a game duipai knows, or a name of
    /// your own.
    #[arg(value_parser = parse_problem_name)]
    pub problem: Option<String>,
}

/// A problem name for `stress`: a registered game, or a name for files of one duipai does
/// not know.
pub fn parse_problem_name(s: &str) -> Result<String, String> {
    let plain = !s.is_empty()
        && s.len() <= 64
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if plain {
        Ok(s.to_string())
    } else {
        Err(format!(
            "expected {} or a name of letters, digits, - and _ (it names the saved files), found {}",
            problem::names().join(", "),
            quote(s)
        ))
    }
}

/// `--compiler LANG=COMMAND`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompilerOverride(pub crate::compile::Language, pub Vec<String>);

fn parse_compiler(s: &str) -> Result<CompilerOverride, String> {
    let (language, words) = crate::compile::parse_override(s)?;
    Ok(CompilerOverride(language, words))
}

/// How source files are compiled, with these `--compiler` flags.
pub fn compile_options(compilers: &[CompilerOverride]) -> crate::compile::CompileOptions {
    crate::compile::CompileOptions {
        overrides: compilers.iter().map(|c| (c.0, c.1.clone())).collect(),
        ..crate::compile::CompileOptions::default()
    }
}

/// A command given as one flag value, already split into its words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandWords(pub Vec<OsString>);

/// A command typed as one word: split like a shell would (quotes respected), no shell run.
fn parse_command(s: &str) -> Result<CommandWords, String> {
    let words =
        shell_words::split(s).map_err(|e| format!("cannot split {} into words: {e}", quote(s)))?;
    if words.is_empty() {
        return Err("expected a command, found nothing".to_string());
    }
    Ok(CommandWords(
        words.into_iter().map(OsString::from).collect(),
    ))
}

/// Seconds: a positive number, with an optional `s`, at most a year.
pub fn parse_seconds(s: &str) -> Result<Duration, String> {
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

/// Workers: 1 to 1024.
fn parse_jobs(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=1024).contains(&n) => Ok(n),
        Ok(_) => Err(format!("{} workers: expected 1 to 1024", quote(s))),
        Err(_) => Err(format!(
            "expected a number of workers like 4, found {}",
            quote(s)
        )),
    }
}

/// Milliseconds: a bare number, or a number with `ms` or `s`.
pub fn parse_millis(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let (digits, scale) = if let Some(d) = t.strip_suffix("ms") {
        (d, 1.0)
    } else if let Some(d) = t.strip_suffix('s') {
        (d, 1000.0)
    } else {
        (t, 1.0)
    };
    let value: f64 = digits.trim().parse().map_err(|_| {
        format!(
            "expected milliseconds like 1500, 1500ms or 2s, found {}",
            quote(s)
        )
    })?;
    let ms = value * scale;
    if !ms.is_finite() || !(1.0..=86_400_000.0).contains(&ms) {
        return Err(format!("{} is outside 1ms..=24h", quote(s)));
    }
    Ok(ms.round() as u64)
}

/// Mebibytes: a bare number, or a number with `KiB`, `MiB`, `GiB` (also `K`, `M`, `G`).
pub fn parse_mebibytes(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let lower = t.to_ascii_lowercase();
    let (digits, scale) = [
        ("kib", 1.0 / 1024.0),
        ("k", 1.0 / 1024.0),
        ("mib", 1.0),
        ("m", 1.0),
        ("gib", 1024.0),
        ("g", 1024.0),
    ]
    .iter()
    .find_map(|(suffix, scale)| lower.strip_suffix(suffix).map(|d| (d, *scale)))
    .unwrap_or((lower.as_str(), 1.0));
    let value: f64 = digits
        .trim()
        .parse()
        .map_err(|_| format!("expected MiB like 512, 512MiB or 1GiB, found {}", quote(s)))?;
    let mib = value * scale;
    if !mib.is_finite() || !(1.0..=1_048_576.0).contains(&mib) {
        return Err(format!("{} is outside 1MiB..=1TiB", quote(s)));
    }
    Ok(mib.round() as u64)
}

impl From<IcpcVersionArg> for pack::IcpcVersion {
    fn from(version: IcpcVersionArg) -> pack::IcpcVersion {
        match version {
            IcpcVersionArg::V2025_09 => pack::IcpcVersion::V2025_09,
            IcpcVersionArg::Draft2023_07 => pack::IcpcVersion::Draft2023_07,
            IcpcVersionArg::Legacy => pack::IcpcVersion::Legacy,
        }
    }
}

impl From<LayoutArg> for pack::Layout {
    fn from(layout: LayoutArg) -> pack::Layout {
        match layout {
            LayoutArg::Plain => pack::Layout::Plain,
            LayoutArg::Noi => pack::Layout::Noi,
            LayoutArg::Icpc => pack::Layout::Icpc,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::{CHESS, CHESSBOARD};

    #[test]
    fn millis_accepts_units() {
        assert_eq!(parse_millis("1500"), Ok(1500));
        assert_eq!(parse_millis("1500ms"), Ok(1500));
        assert_eq!(parse_millis("2s"), Ok(2000));
        assert_eq!(parse_millis("0.5s"), Ok(500));
        assert!(parse_millis("fast").is_err());
        assert!(parse_millis("0").is_err());
    }

    #[test]
    fn mebibytes_accepts_units() {
        assert_eq!(parse_mebibytes("512"), Ok(512));
        assert_eq!(parse_mebibytes("512MiB"), Ok(512));
        assert_eq!(parse_mebibytes("1GiB"), Ok(1024));
        assert_eq!(parse_mebibytes("2g"), Ok(2048));
        assert!(parse_mebibytes("lots").is_err());
    }

    #[test]
    fn shard_parses_and_rejects() {
        assert_eq!("2/8".parse(), Ok(Shard { index: 2, count: 8 }));
        assert!("0/8".parse::<Shard>().is_err());
        assert!("9/8".parse::<Shard>().is_err());
        assert!("x".parse::<Shard>().is_err());
    }

    fn limit_args() -> LimitArgs {
        LimitArgs {
            time_limit: None,
            wall_limit: None,
            memory_limit: None,
            output_limit: 64,
            process_limit: 64,
            file_io: false,
            no_rerun: false,
        }
    }

    #[test]
    fn limits_default_to_the_problem() {
        let limits = limit_args().resolve(&CHESS);
        assert_eq!(limits.cpu, Duration::from_millis(1000));
        assert_eq!(limits.wall, Duration::from_millis(3000));
        assert_eq!(limits.memory_bytes, 512 * MIB);
        assert_eq!(limits.output_bytes, 64 * MIB);
        assert_eq!(limits.processes, 64);
        let board = limit_args().resolve(&CHESSBOARD);
        assert_eq!(board.memory_bytes, 1024 * MIB);
    }

    #[test]
    fn limits_follow_the_flags() {
        let mut a = limit_args();
        a.time_limit = Some(1500);
        a.memory_limit = Some(256);
        a.output_limit = 1;
        a.process_limit = 4;
        let limits = a.resolve(&CHESS);
        assert_eq!(limits.cpu, Duration::from_millis(1500));
        assert_eq!(limits.wall, Duration::from_millis(4000));
        assert_eq!(limits.memory_bytes, 256 * MIB);
        assert_eq!(limits.output_bytes, MIB);
        assert_eq!(limits.processes, 4);
        a.wall_limit = Some(700);
        assert_eq!(a.resolve(&CHESS).wall, Duration::from_millis(700));
    }

    #[test]
    fn file_io_names_follow_the_problem() {
        let mut a = limit_args();
        assert_eq!(a.io_mode_named("chess"), IoMode::Stdio);
        a.file_io = true;
        assert_eq!(
            a.io_mode_named("chessboard"),
            IoMode::files_named("chessboard")
        );
    }

    #[test]
    fn command_line_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
