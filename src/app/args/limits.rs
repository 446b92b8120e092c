//! `--time-limit`, `--wall-limit`, `--memory-limit`, `--output-limit`, `--process-limit`:
//! the resource limits of the program under test, as the engine's [`Limits`].

use std::time::Duration;

use clap::Args;

use crate::problem::{self, Problem};
use crate::run::Limits;
use crate::text::quote;

const MIB: u64 = 1024 * 1024;

/// The default output limit in MiB and process limit, shared by the flags, the replay lines
/// that leave them out and [`LimitArgs::default`].
const DEFAULT_OUTPUT_MIB: u64 = 64;
const DEFAULT_PROCESSES: u64 = 64;

/// The limits of a problem duipai does not know: CPU milliseconds and MiB. 256 MiB is the
/// usual limit of Codeforces and most judges, so that a program that needs more fails here
/// before it fails there. The README's "Limits" says the same; a test holds them together.
pub const UNKNOWN_PROBLEM_LIMITS: (u64, u64) = (1000, 256);

// Resource limits for the program under test.
#[derive(Debug, Clone, PartialEq, Eq, Args)]
pub struct LimitArgs {
    /// CPU time limit: milliseconds, or with a unit (`1500ms`, `2s`). Default: the game's, and
    /// 1 s for a problem of your own.
    #[arg(long, value_name = "MS", value_parser = parse_millis)]
    pub time_limit: Option<u64>,
    /// Wall-clock limit, for programs that sleep or wait (default: 2 × time limit + 1 s).
    #[arg(long, value_name = "MS", value_parser = parse_millis)]
    pub wall_limit: Option<u64>,
    /// Memory limit: MiB, or with a unit (`512MiB`, `1GiB`). Default: the game's, and 256 MiB
    /// for a problem of your own.
    #[arg(long, value_name = "MIB", value_parser = parse_mebibytes)]
    pub memory_limit: Option<u64>,
    /// Output limit in MiB (stdout; reading stops past it).
    #[arg(long, value_name = "MIB", value_parser = parse_mebibytes, default_value_t = DEFAULT_OUTPUT_MIB)]
    pub output_limit: u64,
    /// Most processes (threads count too) the program may have running at once.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_PROCESSES, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub process_limit: u64,
    /// CPU time limit of the helpers (generator, reference, validator, checker, interactor),
    /// twice that of wall clock: one that runs longer is a harness error naming it. Default:
    /// 10 s, or 4 × the time limit when that is more.
    #[arg(long, value_name = "MS", value_parser = parse_millis)]
    pub helper_time_limit: Option<u64>,
}

impl Default for LimitArgs {
    /// No limit flag given: the problem's own limits, for commands without limit flags.
    fn default() -> Self {
        LimitArgs {
            time_limit: None,
            wall_limit: None,
            memory_limit: None,
            output_limit: DEFAULT_OUTPUT_MIB,
            process_limit: DEFAULT_PROCESSES,
            helper_time_limit: None,
        }
    }
}

impl LimitArgs {
    /// The limits for `problem`, with this command line's overrides.
    pub fn resolve(&self, problem: &dyn Problem) -> Limits {
        self.resolve_with(problem.default_limits())
    }

    /// The limits for the problem named `name`: its own defaults if duipai knows it, else 1 s
    /// and 256 MiB; this command line's overrides over them.
    pub fn resolve_named(&self, name: &str) -> Limits {
        match problem::by_name(name) {
            Some(known) => self.resolve(known),
            None => self.resolve_with(UNKNOWN_PROBLEM_LIMITS),
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

    /// The helpers' limits beside a program's `limits` ([`crate::judge::helper::helper_limits`]).
    pub fn helpers(&self, limits: &Limits) -> Limits {
        let cpu = self.helper_time_limit.map(Duration::from_millis);
        crate::judge::helper::helper_limits(limits, cpu)
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
        if let Some(ms) = self.helper_time_limit {
            flags.push_str(&format!(" --helper-time-limit {ms}"));
        }
        flags
    }
}

/// Milliseconds: a bare number, or a number with `ms` or `s`.
pub(super) fn parse_millis(s: &str) -> Result<u64, String> {
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
pub(super) fn parse_mebibytes(s: &str) -> Result<u64, String> {
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
    fn limits_default_to_the_problem() {
        let limits = LimitArgs::default().resolve(&CHESS);
        assert_eq!(limits.cpu, Duration::from_millis(1000));
        assert_eq!(limits.wall, Duration::from_millis(3000));
        assert_eq!(limits.memory_bytes, 512 * MIB);
        assert_eq!(limits.output_bytes, 64 * MIB);
        assert_eq!(limits.processes, 64);
        let board = LimitArgs::default().resolve(&CHESSBOARD);
        assert_eq!(board.memory_bytes, 1024 * MIB);
        let unknown = LimitArgs::default().resolve_named("avg");
        assert_eq!(unknown.cpu, Duration::from_millis(1000));
        assert_eq!(unknown.memory_bytes, 256 * MIB);
    }

    /// The README's limits, `--help` and the runs give a problem of one's own the same memory.
    #[test]
    fn the_readme_and_the_help_give_the_runs_default_memory() {
        use clap::CommandFactory;
        let mib = UNKNOWN_PROBLEM_LIMITS.1;
        let readme =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
        let limits = readme.split("## Limits").nth(1).expect("README has Limits");
        let flat = limits.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains(&format!("{mib} MiB for your own")),
            "README's Limits does not say {mib} MiB for a problem of your own"
        );
        let mut cli = crate::app::args::Cli::command();
        cli.build();
        let test = cli.find_subcommand("test").unwrap();
        let arg = test
            .get_arguments()
            .find(|a| a.get_long() == Some("memory-limit"))
            .unwrap();
        let help = arg.get_help().unwrap().to_string();
        assert!(
            help.contains(&format!("{mib} MiB for a problem of your own")),
            "--memory-limit's help: {help}"
        );
        let runs = LimitArgs::default().resolve_named("mine");
        assert_eq!(runs.memory_bytes, mib * MIB);
    }

    #[test]
    fn limits_follow_the_flags() {
        let mut a = LimitArgs {
            time_limit: Some(1500),
            memory_limit: Some(256),
            output_limit: 1,
            process_limit: 4,
            ..LimitArgs::default()
        };
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
    fn only_limits_off_their_defaults_are_replayed() {
        assert_eq!(LimitArgs::default().to_flags(), "");
        let a = LimitArgs {
            wall_limit: Some(700),
            output_limit: 8,
            ..LimitArgs::default()
        };
        assert_eq!(a.to_flags(), " --wall-limit 700 --output-limit 8");
    }
}
