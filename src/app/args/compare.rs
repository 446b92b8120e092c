//! `--tolerance` and `--ignore-case`: how outputs of a problem duipai does not know are
//! compared with its answers, as the engine's [`Rule`].

use clap::Args;

use crate::answer::Rule;
use crate::problem::Problem;

// The comparison flags of `test` and `stress`.
#[derive(Debug, Clone, Default, PartialEq, Args)]
pub struct CompareArgs {
    /// Accept a real number whose absolute or relative error is at most EPS (testlib's rule,
    /// with its 1e-15 slack) where the answer has a real number (a token with `.` or an
    /// exponent); integers and words are still compared exactly. For problems duipai does
    /// not know.
    #[arg(long, value_name = "EPS", value_parser = parse_tolerance)]
    pub tolerance: Option<f64>,
    /// Compare words ignoring ASCII case (`YES`, `Yes`, `yes`). For problems duipai does not
    /// know.
    #[arg(long)]
    pub ignore_case: bool,
}

impl CompareArgs {
    /// The rule outputs of `name` are compared by: a built-in game's own (these flags are
    /// refused for it: its answers have a comparison of their own), or tokens as the flags
    /// say.
    pub fn rule(&self, known: Option<&dyn Problem>) -> anyhow::Result<Rule> {
        match known {
            Some(game) => {
                let Some(flag) = self.first_flag() else {
                    return Ok(game.rule());
                };
                anyhow::bail!(
                    "{flag} is for problems duipai does not know; {game}'s answers are compared \
                     {}",
                    describe(game.rule())
                )
            }
            None => Ok(Rule::Tokens {
                tolerance: self.tolerance,
                ignore_case: self.ignore_case,
            }),
        }
    }

    /// The first comparison flag given, if any.
    pub fn first_flag(&self) -> Option<&'static str> {
        if self.tolerance.is_some() {
            Some("--tolerance")
        } else if self.ignore_case {
            Some("--ignore-case")
        } else {
            None
        }
    }

    /// The flags as typed, with a leading space each, for replay lines.
    pub fn to_flags(&self) -> String {
        let mut flags = String::new();
        if let Some(eps) = self.tolerance {
            flags.push_str(&format!(" --tolerance {eps:e}"));
        }
        if self.ignore_case {
            flags.push_str(" --ignore-case");
        }
        flags
    }
}

/// How a rule compares, for a message.
fn describe(rule: Rule) -> String {
    match rule {
        Rule::Integers => "as integers, exactly".to_string(),
        Rule::Reals { tolerance } => format!("as real numbers within {tolerance:e}"),
        Rule::Tokens { .. } => "word by word".to_string(),
    }
}

/// A tolerance: a finite number in 0..1.
fn parse_tolerance(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(eps) if eps.is_finite() && (0.0..1.0).contains(&eps) => Ok(eps),
        _ => Err(format!(
            "expected a tolerance like 1e-6 (0 <= EPS < 1), found {}",
            crate::text::quote(s)
        )),
    }
}
