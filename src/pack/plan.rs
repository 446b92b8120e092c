//! Test plans: one `gen` invocation per test point, parsed with the same flags as `duipai gen`.
//!
//! ```text
//! # comment
//! gen chess --n 2 --m 2 --b-zero --seed 101   # test point 1
//! ```
//! `#` starts a comment anywhere on a line; blank lines are skipped. Every other line is
//! `gen PROBLEM [GEN flags] --seed N`, exactly the arguments of `duipai gen`.

use std::fmt;

use clap::Parser;

use crate::generate::{GenArgs, Spec};
use crate::problem::Problem;

/// The built-in plan of a problem (`generators/<problem>.plan`).
pub fn builtin(problem: Problem) -> &'static str {
    match problem {
        Problem::Chess => include_str!("../../generators/chess.plan"),
        Problem::Chessboard => include_str!("../../generators/chessboard.plan"),
    }
}

/// The name a built-in plan is reported under.
pub fn builtin_name(problem: Problem) -> String {
    format!("generators/{}.plan", problem.name())
}

/// One test point of a plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanLine {
    /// 1-based line number in the plan file.
    pub line: usize,
    /// The invocation as written, comment removed, whitespace collapsed to single spaces.
    pub text: String,
    pub problem: Problem,
    pub args: GenArgs,
    /// The seed as written; see [`effective_seed`] for the one actually used.
    pub seed: u64,
}

impl PlanLine {
    /// The command that prints this test's input, given the pack's `--seed`.
    pub fn command(&self, pack_seed: u64) -> String {
        let flags = self.args.to_flags();
        let seed = effective_seed(self.seed, pack_seed);
        if flags.is_empty() {
            format!("duipai gen {} --seed {seed}", self.problem)
        } else {
            format!("duipai gen {} {flags} --seed {seed}", self.problem)
        }
    }
}

/// A parsed plan: where it came from and its test points in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The plan's file name, used in messages and in the manifest.
    pub name: String,
    pub lines: Vec<PlanLine>,
}

/// A plan line that cannot be used, as `FILE:LINE: message`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanError {
    pub file: String,
    /// 1-based; 0 when the problem is the plan as a whole (it has no test line).
    pub line: usize,
    pub message: String,
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(f, "{}:{}: {}", self.file, self.line, self.message)
        }
    }
}

impl std::error::Error for PlanError {}

/// The arguments of one plan line, parsed by clap exactly as `duipai gen` parses them.
#[derive(Debug, Parser)]
#[command(name = "gen", disable_help_flag = true, disable_version_flag = true)]
struct GenLine {
    problem: Problem,
    #[arg(long)]
    seed: u64,
    #[command(flatten)]
    gen_args: GenArgs,
}

/// Parses a whole plan for `problem`. Every line is checked (flags against the problem's
/// bounds too), so a bad plan fails before anything is written.
pub fn parse(name: &str, text: &str, problem: Problem) -> Result<Plan, PlanError> {
    let mut lines = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let err = |message: String| PlanError {
            file: name.to_string(),
            line,
            message,
        };
        let code = raw.split('#').next().unwrap_or("");
        let words: Vec<&str> = code.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        if words[0] != "gen" {
            return Err(err(format!(
                "expected a `gen {problem} ... --seed N` line, found {:?}",
                words[0]
            )));
        }
        let parsed = GenLine::try_parse_from(&words).map_err(|e| err(clap_message(&e)))?;
        if parsed.problem != problem {
            return Err(err(format!(
                "this line generates {} but the pack is for {problem}",
                parsed.problem
            )));
        }
        Spec::new(problem, &parsed.gen_args).map_err(|e| err(e.message))?;
        lines.push(PlanLine {
            line,
            text: words.join(" "),
            problem,
            args: parsed.gen_args,
            seed: parsed.seed,
        });
    }
    if lines.is_empty() {
        return Err(PlanError {
            file: name.to_string(),
            line: 0,
            message: "the plan has no `gen` line".to_string(),
        });
    }
    Ok(Plan {
        name: name.to_string(),
        lines,
    })
}

/// clap's message on one line, for `FILE:LINE:`: without its `error: ` prefix, tips and usage
/// block; continuation lines (the missing arguments, say) are kept.
fn clap_message(e: &clap::Error) -> String {
    let rendered = e.render().to_string();
    let kept: Vec<&str> = rendered
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("tip:"))
        .filter(|l| !l.is_empty())
        .collect();
    let joined = kept.join(" ");
    let message = joined.strip_prefix("error: ").unwrap_or(&joined);
    if message.is_empty() {
        "invalid arguments".to_string()
    } else {
        message.to_string()
    }
}

/// The seed a plan line is generated with: the written seed when the pack seed is 0, otherwise
/// both mixed by SplitMix64 so that every pack seed gives an unrelated pack.
pub fn effective_seed(line_seed: u64, pack_seed: u64) -> u64 {
    if pack_seed == 0 {
        line_seed
    } else {
        splitmix64(line_seed ^ splitmix64(pack_seed))
    }
}

/// SplitMix64's output function (Steele, Lea, Flood 2014): a bijection on u64 that scrambles
/// every input bit into every output bit.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_plans_parse() {
        let chess = parse("chess.plan", builtin(Problem::Chess), Problem::Chess).unwrap();
        assert_eq!(chess.lines.len(), 20);
        let board = parse(
            "chessboard.plan",
            builtin(Problem::Chessboard),
            Problem::Chessboard,
        )
        .unwrap();
        assert!(board.lines.len() >= 20);
    }

    #[test]
    fn errors_carry_file_and_line() {
        let text = "# header\n\ngen chess --n 2 --seed 1\ngen chess --n 2 --sed 4\n";
        let e = parse("my.plan", text, Problem::Chess).unwrap_err();
        assert_eq!(e.line, 4);
        assert!(e.to_string().starts_with("my.plan:4: "), "{e}");
        assert!(e.message.contains("--sed"), "{e}");

        let e = parse("p", "gen chessboard --n 2 --seed 1", Problem::Chess).unwrap_err();
        assert_eq!(
            e.to_string(),
            "p:1: this line generates chessboard but the pack is for chess"
        );

        let e = parse("p", "gen chess --n 11 --seed 1", Problem::Chess).unwrap_err();
        assert_eq!(e.to_string(), "p:1: --n 11: chess allows 1 <= n <= 10");

        let e = parse("p", "gen chess --n 3", Problem::Chess).unwrap_err();
        assert!(e.message.contains("--seed"), "{e}");

        let e = parse("p", "chess --n 3 --seed 2", Problem::Chess).unwrap_err();
        assert_eq!(e.line, 1);

        let e = parse("p", "# nothing\n", Problem::Chess).unwrap_err();
        assert_eq!(e.to_string(), "p: the plan has no `gen` line");
    }

    #[test]
    fn seeds_mix_only_when_asked() {
        assert_eq!(effective_seed(101, 0), 101);
        assert_ne!(effective_seed(101, 1), 101);
        assert_ne!(effective_seed(101, 1), effective_seed(102, 1));
        assert_ne!(effective_seed(101, 1), effective_seed(101, 2));
        // SplitMix64 with state 0 gives 0xE220A8397B1DCDAF as its first output (published
        // reference value of the generator).
        assert_eq!(splitmix64(0), 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn command_replays_with_the_effective_seed() {
        let plan = parse(
            "p",
            "gen chess --n 2 --m 2 --b-zero --seed 101  # one",
            Problem::Chess,
        )
        .unwrap();
        let line = &plan.lines[0];
        assert_eq!(line.text, "gen chess --n 2 --m 2 --b-zero --seed 101");
        assert_eq!(
            line.command(0),
            "duipai gen chess --n 2 --m 2 --b-zero --seed 101"
        );
        assert_eq!(
            line.command(5),
            format!(
                "duipai gen chess --n 2 --m 2 --b-zero --seed {}",
                effective_seed(101, 5)
            )
        );
    }
}
