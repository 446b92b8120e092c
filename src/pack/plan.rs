//! Test plans as data: one `gen` invocation per test point, with the seed it is generated
//! with. Plan files look like
//!
//! ```text
//! # comment
//! gen chess --n 2 --m 2 --b-zero --seed 101   # test point 1
//! ```
//! with the same flags as `duipai gen`: the seed, the family and the game's own parameters.

use std::fmt;

use crate::problem::{self, GenParams, ParamKind, ParamValue, Problem, SizeRange, Spec};
use crate::text::quote;

/// The name a built-in plan is reported under.
pub fn builtin_name(problem: &dyn Problem) -> String {
    format!("<built-in {} plan>", problem.name())
}

/// The name the built-in plan `name` ([`Problem::named_plans`]) is reported under.
pub fn named_builtin_name(problem: &dyn Problem, name: &str) -> String {
    format!("<built-in {} plan {name}>", problem.name())
}

/// The built-in plan called `name` (`official`), parsed: `None` when the problem has none of
/// that name.
pub fn named_builtin(problem: &'static dyn Problem, name: &str) -> Option<Result<Plan, PlanError>> {
    let (_, text) = problem.named_plans().iter().find(|(n, _)| *n == name)?;
    Some(parse_plan(
        &named_builtin_name(problem, name),
        text,
        problem,
    ))
}

/// One test point of a plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanLine {
    /// 1-based line number in the plan file.
    pub line: usize,
    /// The invocation as written, comment removed, whitespace collapsed to single spaces.
    pub text: String,
    pub problem: &'static dyn Problem,
    pub params: GenParams,
    /// The seed as written; see [`effective_seed`] for the one actually used.
    pub seed: u64,
}

impl PlanLine {
    /// The command that prints this test's input, given the pack's `--seed`.
    pub fn command(&self, pack_seed: u64) -> String {
        let flags = self.params.to_flags();
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

/// Parses a whole plan for `problem`: `#` starts a comment anywhere on a line, blank lines
/// are skipped, every other line is `gen PROBLEM [GEN flags] --seed N`, exactly the
/// arguments of `duipai gen`. Every line is checked (flags against the problem's bounds too),
/// so a bad plan fails before anything is written.
pub fn parse_plan(
    name: &str,
    text: &str,
    problem: &'static dyn Problem,
) -> Result<Plan, PlanError> {
    let mut lines = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let code = raw.split('#').next().unwrap_or("");
        let words: Vec<&str> = code.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        let (params, seed) = parse_line(&words, problem).map_err(|message| PlanError {
            file: name.to_string(),
            line,
            message,
        })?;
        lines.push(PlanLine {
            line,
            text: words.join(" "),
            problem,
            params,
            seed,
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

/// One plan line's words: `gen PROBLEM`, then `--seed N`, `--family NAME` and parameters
/// (`--n 3`, `--n=3`, `--b-zero`) in any order, each at most once.
fn parse_line(words: &[&str], problem: &'static dyn Problem) -> Result<(GenParams, u64), String> {
    check_generator(words, problem)?;
    let mut params = GenParams::default();
    let mut seed = None;
    let mut rest = words[2..].iter();
    while let Some(&word) = rest.next() {
        let mut flag = Flag::read(word, &mut rest)?;
        match flag.name {
            "seed" => {
                flag.once(seed.is_some())?;
                seed = Some(flag.seed()?);
            }
            "family" => {
                flag.once(params.family.is_some())?;
                params.family = Some(flag.value("a family name")?.to_string());
            }
            _ => read_param(&mut flag, problem, &mut params)?,
        }
    }
    let seed = seed.ok_or("the line has no --seed N (every test point names its seed)")?;
    Spec::new(problem, &params).map_err(|e| e.message)?;
    Ok((params, seed))
}

/// That the line starts `gen PROBLEM`, for the pack's own problem.
fn check_generator(words: &[&str], problem: &'static dyn Problem) -> Result<(), String> {
    if words[0] != "gen" {
        return Err(format!(
            "expected a `gen {problem} ... --seed N` line, found {}",
            quote(words[0])
        ));
    }
    let Some(&game) = words.get(1) else {
        return Err(format!("expected `gen {problem}`, found nothing after gen"));
    };
    if game != problem.name() {
        return Err(match problem::by_name(game) {
            Some(other) => format!("this line generates {other} but the pack is for {problem}"),
            None => format!("expected `gen {problem}`, found {}", quote(game)),
        });
    }
    Ok(())
}

/// A flag of a plan line and the words after it: its value follows `=` in the same word, or
/// is the next word.
struct Flag<'a, 'r> {
    /// Without its dashes.
    name: &'a str,
    inline: Option<&'a str>,
    rest: &'r mut std::slice::Iter<'a, &'a str>,
}

impl<'a, 'r> Flag<'a, 'r> {
    fn read(word: &'a str, rest: &'r mut std::slice::Iter<'a, &'a str>) -> Result<Self, String> {
        let Some(flag) = word.strip_prefix("--") else {
            return Err(format!(
                "expected a flag like --seed N, found {}",
                quote(word)
            ));
        };
        let (name, inline) = match flag.split_once('=') {
            Some((f, v)) => (f, Some(v)),
            None => (flag, None),
        };
        Ok(Flag { name, inline, rest })
    }

    /// The flag's value; `what` names what it should be when there is none.
    fn value(&mut self, what: &str) -> Result<&'a str, String> {
        self.inline
            .or_else(|| self.rest.next().copied())
            .ok_or_else(|| format!("--{} needs a value ({what})", self.name))
    }

    /// Refuses the flag when the line has given it before.
    fn once(&self, present: bool) -> Result<(), String> {
        if present {
            Err(format!("--{} is given twice", self.name))
        } else {
            Ok(())
        }
    }

    fn seed(&mut self) -> Result<u64, String> {
        let v = self.value("a whole number")?;
        v.parse::<u64>().map_err(|_| {
            format!(
                "--seed: expected a whole number 0..={}, found {}",
                u64::MAX,
                quote(v)
            )
        })
    }
}

/// Sets the game parameter `flag` names in `params`; a flag that is no game's parameter is
/// refused with the list of this game's own.
fn read_param(
    flag: &mut Flag<'_, '_>,
    problem: &'static dyn Problem,
    params: &mut GenParams,
) -> Result<(), String> {
    let Some(spec) = problem::all_params()
        .into_iter()
        .find(|p| p.name == flag.name)
    else {
        let own: Vec<String> = problem
            .params()
            .iter()
            .map(|p| format!("--{}", p.name))
            .collect();
        return Err(format!(
            "unknown flag --{}: a plan line takes --seed, --family and the parameters of \
             {problem} ({})",
            flag.name,
            own.join(", ")
        ));
    };
    flag.once(params.get(spec.name).is_some())?;
    let name = flag.name;
    let parsed = match spec.kind {
        ParamKind::Flag if flag.inline.is_none() => ParamValue::Flag,
        ParamKind::Flag => return Err(format!("--{name} takes no value")),
        ParamKind::Range { .. } => {
            let v = flag.value("N or LO..HI")?;
            ParamValue::Range(
                v.parse::<SizeRange>()
                    .map_err(|e| format!("--{name}: {e}"))?,
            )
        }
        ParamKind::Value { .. } => {
            let v = flag.value("an integer")?;
            ParamValue::Value(
                v.parse::<i64>()
                    .map_err(|_| format!("--{name}: expected an integer, found {}", quote(v)))?,
            )
        }
    };
    params.set(spec.name, parsed);
    Ok(())
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
    use crate::problem::{CHESS, CHESSBOARD};
    #[test]
    fn builtin_plans_parse_plan() {
        let chess = parse_plan("chess.plan", CHESS.builtin_plan(), &CHESS).unwrap();
        assert_eq!(chess.lines.len(), 30);
        let official = named_builtin(&CHESS, "official").unwrap().unwrap();
        assert_eq!(official.lines.len(), 20);
        assert!(named_builtin(&CHESS, "nothing").is_none());
        let board = parse_plan("chessboard.plan", CHESSBOARD.builtin_plan(), &CHESSBOARD).unwrap();
        assert!(board.lines.len() >= 20);
    }

    #[test]
    fn errors_carry_file_and_line() {
        let text = "# header\n\ngen chess --n 2 --seed 1\ngen chess --n 2 --sed 4\n";
        let e = parse_plan("my.plan", text, &CHESS).unwrap_err();
        assert_eq!(e.line, 4);
        assert!(e.to_string().starts_with("my.plan:4: "), "{e}");
        assert!(e.message.contains("--sed"), "{e}");

        let e = parse_plan("p", "gen chessboard --n 2 --seed 1", &CHESS).unwrap_err();
        assert_eq!(
            e.to_string(),
            "p:1: this line generates chessboard but the pack is for chess"
        );

        let e = parse_plan("p", "gen chess --n 11 --seed 1", &CHESS).unwrap_err();
        assert_eq!(e.to_string(), "p:1: --n 11: chess allows 1 <= n <= 10");

        let e = parse_plan("p", "gen chess --n 3", &CHESS).unwrap_err();
        assert!(e.message.contains("--seed"), "{e}");

        let e = parse_plan("p", "chess --n 3 --seed 2", &CHESS).unwrap_err();
        assert_eq!(e.line, 1);

        let e = parse_plan("p", "# nothing\n", &CHESS).unwrap_err();
        assert_eq!(e.to_string(), "p: the plan has no `gen` line");
    }

    #[test]
    fn command_replays_with_the_effective_seed() {
        let plan = parse_plan(
            "p",
            "gen chess --n 2 --m 2 --b-zero --seed 101  # one",
            &CHESS,
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
}
