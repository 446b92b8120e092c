//! The plan of a problem of one's own: its test groups and, one a line, how each test is
//! made.
//!
//! ```text
//! group sample                          # the statement's examples
//! copy samples/1.in                     # a hand-made input (its .ans beside it, if any)
//! group secret
//! gen rangesum 10 100 --seed 1          # the generator, given 10 100 then the seed 1
//! gen rangesum --generator big 100000 --seed 2
//! group small --score 30                # a test group (an NOI subtask with its score)
//! gen rangesum 5 --seed 3
//! ```
//! Lines before any `group` line are in `secret`. `--seed N` (required) and `--generator
//! NAME` belong to duipai; every other word of a `gen` line is the generator's.

use std::path::{Path, PathBuf};

use crate::pack::plan::{PlanError, effective_seed};
use crate::text::{quote, shell_quote};

/// A test group: `sample`, `secret`, or one of the setter's (an ICPC test group, an NOI
/// subtask).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    pub name: String,
    /// An NOI subtask's score.
    pub score: Option<u32>,
    /// Its `group` line; 0 for `secret` when no line names it.
    pub line: usize,
    /// The groups that must pass for its score to count (a Polygon package's dependencies).
    pub dependencies: Vec<String>,
    /// Whether its score is shared by its tests, each passing one scoring its part (Polygon's
    /// `each-test` policy), rather than given only when every test passes.
    pub each_test: bool,
}

impl Group {
    pub fn is_sample(&self) -> bool {
        self.name == "sample"
    }

    /// A group of the setter's own, beside `sample` and `secret`.
    pub fn is_own(&self) -> bool {
        self.name != "sample" && self.name != "secret"
    }
}

/// How a test is made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineSource {
    /// A generator (`None`: the default one) given `args`, then the seed; without a seed
    /// (a Polygon package's `cmd`), `args` alone.
    Gen {
        generator: Option<String>,
        args: Vec<String>,
        seed: Option<u64>,
    },
    /// A hand-made input; `written` is the path as the plan has it. `crlf` (a Polygon
    /// package's manual tests, kept with Windows line ends) reads its CR LF line ends as LF.
    Copy {
        path: PathBuf,
        written: String,
        crlf: bool,
    },
}

/// One test of the plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnLine {
    /// 1-based line number in the plan file.
    pub line: usize,
    /// The line as written, comment removed, whitespace collapsed.
    pub text: String,
    /// Index into [`OwnPlan::groups`].
    pub group: usize,
    pub source: LineSource,
    /// The answer a package ships with the test (a Polygon package's `tests/01.a`): used
    /// as it is, and checked against the reference's only when asked.
    pub shipped_answer: Option<PathBuf>,
}

impl OwnLine {
    /// The command that prints this test's input, run in the problem's folder: `duipai gen
    /// rangesum 10 100 --seed 1`, or `cat samples/1.in`.
    pub fn command(&self, problem: &str, pack_seed: u64) -> String {
        match &self.source {
            LineSource::Copy { written, .. } => format!("cat {}", shell_quote(written)),
            LineSource::Gen {
                generator,
                args,
                seed,
            } => {
                let Some(seed) = seed else {
                    let generator = generator.as_deref().unwrap_or("the generator");
                    let quoted: Vec<String> = args.iter().map(|a| shell_quote(a)).collect();
                    return format!("{generator} {}", quoted.join(" "))
                        .trim_end()
                        .to_string();
                };
                let mut command = format!("duipai gen {problem}");
                if let Some(name) = generator {
                    command.push_str(&format!(" --generator {name}"));
                }
                let seed = effective_seed(*seed, pack_seed);
                let quoted: Vec<String> = args.iter().map(|a| shell_quote(a)).collect();
                let hyphen = args
                    .iter()
                    .any(|a| a.starts_with('-') && a.parse::<f64>().is_err());
                match (quoted.is_empty(), hyphen) {
                    (true, _) => command.push_str(&format!(" --seed {seed}")),
                    (false, false) => {
                        command.push_str(&format!(" {} --seed {seed}", quoted.join(" ")))
                    }
                    (false, true) => {
                        command.push_str(&format!(" --seed {seed} -- {}", quoted.join(" ")))
                    }
                }
                command
            }
        }
    }

    /// The seed the test is generated with under the pack's `--seed`, for a `gen` line.
    pub fn seed(&self, pack_seed: u64) -> Option<u64> {
        match &self.source {
            LineSource::Gen { seed, .. } => seed.map(|seed| effective_seed(seed, pack_seed)),
            LineSource::Copy { .. } => None,
        }
    }
}

/// A hand-made input as the tests hold it: the file's bytes, with CR LF line ends read as LF
/// when `crlf` (a Polygon package's).
pub fn read_copied(path: &Path, crlf: bool) -> anyhow::Result<Vec<u8>> {
    let bytes = crate::fsutil::read_file_capped(path)?;
    Ok(match crlf {
        true => lf_line_ends(bytes),
        false => bytes,
    })
}

/// The bytes with every CR LF line end made LF.
pub fn lf_line_ends(bytes: Vec<u8>) -> Vec<u8> {
    if !bytes.contains(&b'\r') {
        return bytes;
    }
    let mut unix = Vec::with_capacity(bytes.len());
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
            continue;
        }
        unix.push(b);
    }
    unix
}

/// A parsed plan of a problem of one's own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnPlan {
    /// The plan's file name, for messages and the manifest.
    pub name: String,
    pub groups: Vec<Group>,
    pub lines: Vec<OwnLine>,
}

impl OwnPlan {
    /// The tests of group `index`, in plan order.
    pub fn tests_of(&self, index: usize) -> impl Iterator<Item = &OwnLine> {
        self.lines.iter().filter(move |l| l.group == index)
    }
}

/// What a plan line may name: the problem, and its generators.
pub struct PlanContext<'a> {
    pub problem: &'a str,
    /// The named generators.
    pub generators: &'a [&'a str],
    /// Whether a `gen` line without `--generator` has a generator to run.
    pub has_default: bool,
    /// What `copy` paths are relative to: the plan file's folder.
    pub base: &'a Path,
}

/// Parses a whole plan; every line is checked (generator names, hand-made files), so a bad
/// plan fails before anything runs, naming its line.
pub fn parse_own_plan(name: &str, text: &str, context: &PlanContext) -> Result<OwnPlan, PlanError> {
    let mut plan = OwnPlan {
        name: name.to_string(),
        groups: Vec::new(),
        lines: Vec::new(),
    };
    let mut current: Option<usize> = None;
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let code = raw.split('#').next().unwrap_or("");
        let words: Vec<&str> = code.split_whitespace().collect();
        let error = |message: String| PlanError {
            file: name.to_string(),
            line,
            message,
        };
        match words.first().copied() {
            None => continue,
            Some("group") => {
                let group = parse_group(&words, line).map_err(error)?;
                if let Some(first) = plan.groups.iter().find(|g| g.name == group.name) {
                    return Err(error(format!(
                        "group {} is started twice (first on line {})",
                        group.name, first.line
                    )));
                }
                plan.groups.push(group);
                current = Some(plan.groups.len() - 1);
            }
            Some(_) => {
                let source = parse_test(&words, context).map_err(error)?;
                let group = match current {
                    Some(group) => group,
                    None => secret_group(&mut plan.groups),
                };
                plan.lines.push(OwnLine {
                    line,
                    text: words.join(" "),
                    group,
                    source,
                    shipped_answer: None,
                });
            }
        }
    }
    check_whole(&plan).map_err(|(line, message)| PlanError {
        file: name.to_string(),
        line,
        message,
    })?;
    Ok(plan)
}

/// The index of the implicit `secret` group, added when missing.
fn secret_group(groups: &mut Vec<Group>) -> usize {
    if let Some(at) = groups.iter().position(|g| g.name == "secret") {
        return at;
    }
    groups.push(Group {
        name: "secret".to_string(),
        score: None,
        line: 0,
        dependencies: Vec::new(),
        each_test: false,
    });
    groups.len() - 1
}

/// The plan as a whole: it has tests, and every group has one.
fn check_whole(plan: &OwnPlan) -> Result<(), (usize, String)> {
    if plan.lines.is_empty() {
        return Err((
            0,
            "the plan has no test: write `gen NAME ARGS... --seed N` or `copy PATH` lines"
                .to_string(),
        ));
    }
    for (index, group) in plan.groups.iter().enumerate() {
        if plan.tests_of(index).next().is_none() {
            return Err((group.line, format!("group {} has no test", group.name)));
        }
    }
    Ok(())
}

/// `group NAME [--score N]`.
fn parse_group(words: &[&str], line: usize) -> Result<Group, String> {
    let Some(&name) = words.get(1) else {
        return Err("expected `group NAME`, found nothing after group".to_string());
    };
    let plain = name
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
        && name
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_alphanumeric())
        && name.len() <= 64;
    if !plain {
        return Err(format!(
            "a group's name is lowercase letters, digits, - and _ (it names a folder), found {}",
            quote(name)
        ));
    }
    let score = match &words[2..] {
        [] => None,
        ["--score", value] => Some(parse_score(value)?),
        [flag] if flag.starts_with("--score=") => Some(parse_score(&flag[8..])?),
        rest => {
            return Err(format!(
                "expected `group {name}` or `group {name} --score N`, found {}",
                quote(&rest.join(" "))
            ));
        }
    };
    if score.is_some() && (name == "sample" || name == "secret") {
        return Err(format!(
            "--score is for the setter's own groups (NOI subtasks), not {name}"
        ));
    }
    Ok(Group {
        name: name.to_string(),
        score,
        line,
        dependencies: Vec::new(),
        each_test: false,
    })
}

fn parse_score(value: &str) -> Result<u32, String> {
    value
        .parse::<u32>()
        .ok()
        .filter(|s| *s <= 100_000)
        .ok_or_else(|| {
            format!(
                "--score: expected a whole number of points, found {}",
                quote(value)
            )
        })
}

/// `gen PROBLEM [--generator G] ARGS... --seed N` or `copy PATH`.
fn parse_test(words: &[&str], context: &PlanContext) -> Result<LineSource, String> {
    match words[0] {
        "gen" => parse_gen(words, context),
        "copy" => parse_copy(words, context),
        other => Err(format!(
            "expected `gen {} ARGS... --seed N`, `copy PATH` or `group NAME`, found {}",
            context.problem,
            quote(other)
        )),
    }
}

fn parse_gen(words: &[&str], context: &PlanContext) -> Result<LineSource, String> {
    let problem = context.problem;
    match words.get(1) {
        None => return Err(format!("expected `gen {problem}`, found nothing after gen")),
        Some(&name) if name != problem => {
            return Err(format!(
                "this line generates {} but the pack is for {problem}",
                quote(name)
            ));
        }
        Some(_) => {}
    }
    let (mut seed, mut generator, mut args) = (None, None, Vec::new());
    let mut rest = words[2..].iter();
    while let Some(&word) = rest.next() {
        let (flag, inline) = match word.split_once('=') {
            Some((flag, value)) if flag == "--seed" || flag == "--generator" => (flag, Some(value)),
            _ => (word, None),
        };
        let mut value = |what: &str| {
            inline
                .or_else(|| rest.next().copied())
                .ok_or_else(|| format!("{flag} needs a value ({what})"))
        };
        match flag {
            "--seed" if seed.is_some() => return Err("--seed is given twice".to_string()),
            "--seed" => {
                let v = value("a whole number")?;
                seed = Some(v.parse::<u64>().map_err(|_| {
                    format!(
                        "--seed: expected a whole number 0..={}, found {}",
                        u64::MAX,
                        quote(v)
                    )
                })?);
            }
            "--generator" if generator.is_some() => {
                return Err("--generator is given twice".to_string());
            }
            "--generator" => generator = Some(value("a generator's name")?.to_string()),
            _ => args.push(word.to_string()),
        }
    }
    let seed = seed.ok_or("the line has no --seed N (every generated test names its seed)")?;
    check_generator(generator.as_deref(), context)?;
    Ok(LineSource::Gen {
        generator,
        args,
        seed: Some(seed),
    })
}

/// That the line's generator exists.
fn check_generator(generator: Option<&str>, context: &PlanContext) -> Result<(), String> {
    let listed = if context.generators.is_empty() {
        "duipai.toml's [generators] names none".to_string()
    } else {
        format!("the named ones: {}", context.generators.join(", "))
    };
    match generator {
        Some(name) if !context.generators.contains(&name) => Err(format!(
            "there is no generator named {} ({listed})",
            quote(name)
        )),
        None if !context.has_default && context.generators.len() != 1 => Err(format!(
            "the line names no --generator and the problem has no default one ({listed})"
        )),
        _ => Ok(()),
    }
}

fn parse_copy(words: &[&str], context: &PlanContext) -> Result<LineSource, String> {
    let [_, written] = words else {
        return Err("expected `copy PATH`: one file, a hand-made input".to_string());
    };
    let path = context.base.join(written);
    if !path.is_file() {
        return Err(format!("copy: there is no file {}", path.display()));
    }
    Ok(LineSource::Copy {
        path,
        written: written.to_string(),
        crlf: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str, base: &Path) -> Result<OwnPlan, PlanError> {
        let context = PlanContext {
            problem: "rangesum",
            generators: &["big"],
            has_default: true,
            base,
        };
        parse_own_plan("p.plan", text, &context)
    }

    #[test]
    fn groups_gens_and_copies() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("1.in"), "1\n").unwrap();
        let plan = parse(
            "gen rangesum 5 --seed 1\ngroup sample\ncopy 1.in\n\
             group small --score 30\ngen rangesum --generator=big -3 --n 7 --seed=9 # x\n",
            dir.path(),
        )
        .unwrap();
        let names: Vec<&str> = plan.groups.iter().map(|g| g.name.as_str()).collect();
        assert_eq!(names, ["secret", "sample", "small"]);
        assert_eq!(plan.groups[2].score, Some(30));
        assert_eq!(plan.lines[0].group, 0);
        assert_eq!(plan.lines[1].group, 1);
        assert_eq!(
            plan.lines[2].source,
            LineSource::Gen {
                generator: Some("big".to_string()),
                args: vec!["-3".into(), "--n".into(), "7".into()],
                seed: Some(9)
            }
        );
        assert_eq!(
            plan.lines[0].command("rangesum", 0),
            "duipai gen rangesum 5 --seed 1"
        );
        assert_eq!(
            plan.lines[2].command("rangesum", 0),
            "duipai gen rangesum --generator big --seed 9 -- -3 --n 7"
        );
        assert_eq!(plan.lines[1].command("rangesum", 0), "cat 1.in");
    }

    #[test]
    fn errors_name_the_line() {
        let dir = tempfile::tempdir().unwrap();
        let at = |text: &str| {
            let e = parse(text, dir.path()).unwrap_err();
            (e.line, e.message)
        };
        assert_eq!(at("gen rangesum 5\n").0, 1);
        assert!(at("gen rangesum 5\n").1.contains("--seed"));
        assert!(
            at("\ngen rangesum --generator tiny --seed 1\n")
                .1
                .contains("no generator named")
        );
        assert_eq!(at("\ngen other --seed 1\n").0, 2);
        assert!(at("copy missing.in\n").1.contains("no file"));
        assert!(at("group Big\n").1.contains("lowercase"));
        assert!(
            at("group a\ngen rangesum --seed 1\ngroup a\n")
                .1
                .contains("twice")
        );
        assert!(
            at("group empty\ngroup b\ngen rangesum --seed 1\n")
                .1
                .contains("no test")
        );
        assert!(at("group sample --score 5\n").1.contains("--score"));
        assert!(at("# nothing\n").1.contains("no test"));
    }
}
