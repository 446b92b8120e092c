//! The command-line contract: every subcommand, its flags, and the dispatch to `commands`.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;
use std::str::FromStr;
use std::time::Duration;

const MIB: u64 = 1024 * 1024;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::exit::Status;
use crate::problem::{Bounds, Problem};
use crate::run::{IoMode, Limits};

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
}

/// Overrides of the validator's bounds, for users who want larger boards or values.
#[derive(Debug, Clone, Default, Args)]
pub struct BoundsArgs {
    /// Largest accepted n (default: the problem's own bound).
    #[arg(long, value_name = "N")]
    pub bound_n: Option<usize>,
    /// Largest accepted m, chess only (default: the problem's own bound).
    #[arg(long, value_name = "M")]
    pub bound_m: Option<usize>,
    /// Largest accepted value or weight (default: the problem's own bound).
    #[arg(long, value_name = "V")]
    pub bound_value: Option<i64>,
}

impl BoundsArgs {
    pub fn resolve(&self, problem: Problem) -> Bounds {
        let mut bounds = problem.default_bounds();
        if let Some(n) = self.bound_n {
            bounds.max_n = n;
        }
        if let Some(m) = self.bound_m {
            bounds.max_m = m;
        }
        if let Some(v) = self.bound_value {
            bounds.max_value = v;
        }
        bounds
    }
}

#[derive(Debug, Args)]
pub struct SolveArgs {
    pub problem: Problem,
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
    pub problem: Problem,
    /// Input files to check.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub bounds: BoundsArgs,
}

#[derive(Debug, Args)]
pub struct GenCommandArgs {
    pub problem: Problem,
    /// The seed; the same seed and flags give the same case on every machine.
    #[arg(long)]
    pub seed: u64,
    #[command(flatten)]
    pub gen_args: crate::generate::GenArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Layout {
    /// 1.in, 1.ans, 2.in, ...
    Plain,
    /// chess1.in, chess1.ans, ...: the NOI / Lemon / Arbiter naming.
    Noi,
    /// The ICPC problem package: data/sample, data/secret, problem.yaml.
    Icpc,
}

#[derive(Debug, Args)]
pub struct PackArgs {
    pub problem: Problem,
    /// Directory to write the pack into.
    #[arg(long)]
    pub out: PathBuf,
    /// A plan file of your own (default: the built-in plan of the problem).
    #[arg(long)]
    pub plan: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = Layout::Plain)]
    pub layout: Layout,
    /// Mixed into every plan line's seed; 0 keeps the plan's seeds as written.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Write into a non-empty directory, replacing files of the same name.
    #[arg(long)]
    pub force: bool,
}

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
    #[arg(long, value_name = "MIB", value_parser = parse_mebibytes, default_value = "64")]
    pub output_limit: u64,
    /// Most processes (threads count too) the program may have running at once.
    #[arg(long, value_name = "N", default_value_t = 64)]
    pub process_limit: u64,
    /// File I/O as in the original contest: write `<problem>.in` into the working directory
    /// and read `<problem>.out` back, instead of stdin/stdout.
    #[arg(long)]
    pub file_io: bool,
}

impl LimitArgs {
    /// The limits for `problem`, with this command line's overrides.
    pub fn resolve(&self, problem: Problem) -> Limits {
        let (default_cpu_ms, default_mib) = problem.default_limits();
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

    /// Stdio, or the problem's contest files (`chess.in` / `chess.out`) with `--file-io`.
    pub fn io_mode(&self, problem: Problem) -> IoMode {
        if self.file_io {
            IoMode::files_named(problem.name())
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
        if self.output_limit != 64 {
            flags.push_str(&format!(" --output-limit {}", self.output_limit));
        }
        if self.process_limit != 64 {
            flags.push_str(&format!(" --process-limit {}", self.process_limit));
        }
        if self.file_io {
            flags.push_str(" --file-io");
        }
        flags
    }
}

#[derive(Debug, Args)]
pub struct TestArgs {
    pub problem: Problem,
    /// Directory searched (recursively) for `*.in` files.
    pub dir: PathBuf,
    /// Parallel workers (default: the number of cores).
    #[arg(short = 'j', long = "jobs", value_name = "N")]
    pub jobs: Option<usize>,
    /// Print a JSON report on stdout (human text goes to stderr).
    #[arg(long)]
    pub json: bool,
    /// Write a JUnit XML report to FILE.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// The program under test and its arguments.
    #[arg(last = true, required = true, value_name = "PROGRAM")]
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
            .ok_or_else(|| format!("expected K/N (for example 2/8), found {s:?}"))?;
        let index: u64 = k
            .trim()
            .parse()
            .map_err(|_| format!("shard index {k:?} is not a whole number"))?;
        let count: u64 = n
            .trim()
            .parse()
            .map_err(|_| format!("shard count {n:?} is not a whole number"))?;
        if count == 0 || index == 0 || index > count {
            return Err(format!("shard {s}: need 1 <= K <= N"));
        }
        Ok(Shard { index, count })
    }
}

#[derive(Debug, Args)]
pub struct StressArgs {
    pub problem: Problem,
    #[command(flatten)]
    pub gen_args: crate::generate::GenArgs,
    /// First seed; workers try S, S+1, S+2, ...
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Stop after this many cases (default: no bound).
    #[arg(long, value_name = "N")]
    pub iterations: Option<u64>,
    /// Stop after this many seconds (default: no bound).
    #[arg(long, value_name = "SECS")]
    pub time: Option<f64>,
    /// Parallel workers (default: the number of cores).
    #[arg(short = 'j', long = "jobs", value_name = "N")]
    pub jobs: Option<usize>,
    /// Where failing cases are saved.
    #[arg(long, value_name = "DIR", default_value = "duipai-failures")]
    pub save: PathBuf,
    /// Report the failing case as found, without minimizing it.
    #[arg(long)]
    pub no_shrink: bool,
    /// Print a JSON report on stdout; its last line is a JSON object.
    #[arg(long)]
    pub json: bool,
    /// Take only share K of N of the seed space (seeds S + i with i mod N = K - 1).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// An external reference solution instead of the built-in solver.
    #[arg(long, value_name = "PROGRAM")]
    pub reference: Option<PathBuf>,
    /// An external generator instead of the built-in one; it gets the seed as its argument.
    #[arg(long, value_name = "PROGRAM")]
    pub generator: Option<PathBuf>,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// The program under test and its arguments.
    #[arg(last = true, required = true, value_name = "PROGRAM")]
    pub program: Vec<OsString>,
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
    let value: f64 = digits
        .trim()
        .parse()
        .map_err(|_| format!("expected milliseconds like 1500, 1500ms or 2s, found {s:?}"))?;
    let ms = value * scale;
    if !ms.is_finite() || !(1.0..=86_400_000.0).contains(&ms) {
        return Err(format!("{s:?} is outside 1ms..=24h"));
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
        .map_err(|_| format!("expected MiB like 512, 512MiB or 1GiB, found {s:?}"))?;
    let mib = value * scale;
    if !mib.is_finite() || !(1.0..=1_048_576.0).contains(&mib) {
        return Err(format!("{s:?} is outside 1MiB..=1TiB"));
    }
    Ok(mib.round() as u64)
}

/// Parse the command line, run the subcommand, and turn its outcome into an exit status.
/// Errors are printed once, with their chain of causes.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Solve(args) => crate::commands::solve::run(args),
        Command::Validate(args) => crate::commands::validate::run(args),
        Command::Gen(args) => crate::commands::generate::run(args),
        Command::Pack(args) => crate::commands::pack::run(args),
        Command::Test(args) => crate::commands::test::run(args),
        Command::Stress(args) => crate::commands::stress::run(args),
    };
    match result {
        Ok(status) => status.into(),
        Err(err) => {
            eprintln!("duipai: error: {err:#}");
            Status::Usage.into()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        }
    }

    #[test]
    fn limits_default_to_the_problem() {
        let limits = limit_args().resolve(Problem::Chess);
        assert_eq!(limits.cpu, Duration::from_millis(1000));
        assert_eq!(limits.wall, Duration::from_millis(3000));
        assert_eq!(limits.memory_bytes, 512 * MIB);
        assert_eq!(limits.output_bytes, 64 * MIB);
        assert_eq!(limits.processes, 64);
        let board = limit_args().resolve(Problem::Chessboard);
        assert_eq!(board.memory_bytes, 1024 * MIB);
    }

    #[test]
    fn limits_follow_the_flags() {
        let mut a = limit_args();
        a.time_limit = Some(1500);
        a.memory_limit = Some(256);
        a.output_limit = 1;
        a.process_limit = 4;
        let limits = a.resolve(Problem::Chess);
        assert_eq!(limits.cpu, Duration::from_millis(1500));
        assert_eq!(limits.wall, Duration::from_millis(4000));
        assert_eq!(limits.memory_bytes, 256 * MIB);
        assert_eq!(limits.output_bytes, MIB);
        assert_eq!(limits.processes, 4);
        a.wall_limit = Some(700);
        assert_eq!(a.resolve(Problem::Chess).wall, Duration::from_millis(700));
    }

    #[test]
    fn file_io_names_follow_the_problem() {
        let mut a = limit_args();
        assert_eq!(a.io_mode(Problem::Chess), IoMode::Stdio);
        a.file_io = true;
        assert_eq!(
            a.io_mode(Problem::Chessboard),
            IoMode::files_named("chessboard")
        );
    }

    #[test]
    fn command_line_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
