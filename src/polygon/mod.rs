//! A Polygon package (a folder with `problem.xml`, `files/`, `tests/`, `solutions/`) read as
//! a problem of one's own: its testset (limits, file names, manual and generated tests,
//! groups with their points, policy and dependencies, samples), its checker, validator and
//! interactor (from `files/`, or duipai's own copies of testlib's standard checkers), its
//! generators and its solutions with their tags. Every error in `problem.xml` names its line
//! and column.

use std::path::{Path, PathBuf};

use anyhow::Context;

pub mod standard;
mod stresses;
mod xml;

pub use standard::Standard;

/// The file that makes a folder a Polygon package.
pub const FILE_NAME: &str = "problem.xml";

/// A Polygon package, as duipai uses it.
#[derive(Debug, Clone, PartialEq)]
pub struct Package {
    /// The package's folder: every path below is relative to it.
    pub dir: PathBuf,
    /// `short-name`, made a name duipai takes (lowercase letters, digits, `-`, `_`).
    pub name: String,
    /// The first of `<names>`, if any.
    pub title: Option<String>,
    pub time_limit_ms: u64,
    pub memory_bytes: u64,
    /// `input-file` and `output-file` of `<judging>`: empty for stdin and stdout.
    pub input_file: String,
    pub output_file: String,
    /// Where `<judging>` is (`problem.xml:LINE:COLUMN`), for a message about its files.
    pub judging_at: String,
    pub tests: Vec<Test>,
    pub groups: Vec<Group>,
    pub checker: Checker,
    /// The first validator's source.
    pub validator: Option<PathBuf>,
    pub interactor: Option<PathBuf>,
    /// The executables that are not the checker, a validator or the interactor, by the
    /// names tests' `cmd` call them (the source's stem: `files/gen.cpp` is `gen`).
    pub generators: Vec<(String, PathBuf)>,
    pub solutions: Vec<Solution>,
    /// `files/testlib.h`, when the package has it.
    pub testlib: Option<PathBuf>,
    /// The first validator's own tests (`files/tests/validator-tests/01`), in order.
    pub validator_tests: Vec<ValidatorTest>,
    /// The checker's own tests (`files/tests/checker-tests/01`, `.o`, `.a`), in order.
    pub checker_tests: Vec<CheckerTest>,
    /// The stresses of `<stresses>` by their index, each read or why it cannot be run: only
    /// `stress --polygon-stress N` uses one, so a stress that cannot be run (a script with
    /// Polygon's `[1..10]` choices, a solution the package lacks) stops that stress alone,
    /// never the judging, packing or stressing of the package otherwise.
    pub stresses: Vec<(usize, Result<Stress, String>)>,
}

/// A stress of the package (`stresses/001`): a generator script run with more and more
/// seeds, the solutions it names compared with the main one, under its own limits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stress {
    /// Its `index` in `<stresses>`.
    pub index: usize,
    /// `scriptPattern` split: an executable of the package by name, and its arguments.
    pub generator: String,
    pub args: Vec<String>,
    pub time_limit_ms: u64,
    pub memory_mib: u64,
    /// `totalTimeLimit`: how long the whole stress may look for a difference.
    pub total_time_ms: u64,
    /// The solutions named (`solutionNames`), as paths relative to the package, in order.
    pub solutions: Vec<PathBuf>,
    /// The stress's file, relative to the package.
    pub file: PathBuf,
    /// Where its `<stress>` is: `problem.xml:LINE:COLUMN`, and that line.
    pub at: String,
    pub line: usize,
    /// `inputFile` and `outputFile`: the files the solutions read and write, `None` for stdin
    /// and stdout ([`Stress::check_streams`] refuses files).
    pub input_file: Option<String>,
    pub output_file: Option<String>,
    /// Where `inputFile` is in the stress file: `/pkg/stresses/001:1:71`.
    pub files_at: String,
}

/// A test of the validator: an input and whether it is valid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidatorTest {
    /// The input, relative to the package (it may be missing from a package downloaded
    /// without its files).
    pub input: PathBuf,
    pub valid: bool,
    /// Where its `<test>` is: `problem.xml:LINE:COLUMN`.
    pub at: String,
}

/// A test of the checker: an input, an output and an answer, and what the checker says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckerTest {
    pub input: PathBuf,
    pub output: PathBuf,
    pub answer: PathBuf,
    pub verdict: CheckerVerdict,
    /// Where its `<test>` is: `problem.xml:LINE:COLUMN`.
    pub at: String,
}

/// What a checker test expects of the checker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckerVerdict {
    Ok,
    WrongAnswer,
    PresentationError,
    /// The checker fails (testlib's FAIL).
    Crashed,
}

impl CheckerVerdict {
    /// As `problem.xml` writes it.
    pub fn name(self) -> &'static str {
        match self {
            CheckerVerdict::Ok => "ok",
            CheckerVerdict::WrongAnswer => "wrong-answer",
            CheckerVerdict::PresentationError => "presentation-error",
            CheckerVerdict::Crashed => "crashed",
        }
    }

    fn parse(text: &str) -> Option<CheckerVerdict> {
        [
            CheckerVerdict::Ok,
            CheckerVerdict::WrongAnswer,
            CheckerVerdict::PresentationError,
            CheckerVerdict::Crashed,
        ]
        .into_iter()
        .find(|v| v.name().eq_ignore_ascii_case(text))
    }
}

/// One test of the testset, in its order.
#[derive(Debug, Clone, PartialEq)]
pub struct Test {
    /// 1-based, as Polygon numbers it (`tests/01`).
    pub index: usize,
    pub source: TestSource,
    /// The group's name, as written.
    pub group: Option<String>,
    pub points: Option<f64>,
    pub sample: bool,
    /// The answer the package ships for it (the answer path pattern's file, `tests/01.a`),
    /// when there is one.
    pub answer: Option<PathBuf>,
    /// Where the `<test>` element is in `problem.xml`: `problem.xml:LINE:COLUMN`, and its
    /// line alone.
    pub at: String,
    pub line: usize,
}

/// How a test is made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TestSource {
    /// A hand-made input, the file of the input path pattern (`tests/01`).
    Manual(PathBuf),
    /// `cmd="gen --type=tree 10 3"`: the generator `gen` run with exactly those arguments.
    Generated {
        generator: String,
        args: Vec<String>,
    },
}

/// How a group's points are given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PointsPolicy {
    /// Each test's points count when it passes.
    EachTest,
    /// The group's points count when all its tests pass.
    CompleteGroup,
}

/// A group of the testset.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    pub name: String,
    /// The group's `points`, when given.
    pub points: Option<f64>,
    pub policy: PointsPolicy,
    /// The groups that must pass for this one to count.
    pub dependencies: Vec<String>,
}

/// The package's checker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Checker {
    /// A checker of the package's own (or the copy of a standard one it carries).
    Source(PathBuf),
    /// A standard checker the package names without its file: duipai's own copy.
    Standard(Standard),
}

/// What a solution's tag says it must get.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tag {
    Main,
    Accepted,
    WrongAnswer,
    PresentationError,
    TimeLimitExceeded,
    TimeLimitExceededOrAccepted,
    TimeLimitExceededOrMemoryLimitExceeded,
    MemoryLimitExceeded,
    Rejected,
    Failed,
}

impl Tag {
    pub const ALL: [Tag; 10] = [
        Tag::Main,
        Tag::Accepted,
        Tag::WrongAnswer,
        Tag::PresentationError,
        Tag::TimeLimitExceeded,
        Tag::TimeLimitExceededOrAccepted,
        Tag::TimeLimitExceededOrMemoryLimitExceeded,
        Tag::MemoryLimitExceeded,
        Tag::Rejected,
        Tag::Failed,
    ];

    /// The tag as `problem.xml` writes it.
    pub fn name(self) -> &'static str {
        match self {
            Tag::Main => "main",
            Tag::Accepted => "accepted",
            Tag::WrongAnswer => "wrong-answer",
            Tag::PresentationError => "presentation-error",
            Tag::TimeLimitExceeded => "time-limit-exceeded",
            Tag::TimeLimitExceededOrAccepted => "time-limit-exceeded-or-accepted",
            Tag::TimeLimitExceededOrMemoryLimitExceeded => {
                "time-limit-exceeded-or-memory-limit-exceeded"
            }
            Tag::MemoryLimitExceeded => "memory-limit-exceeded",
            Tag::Rejected => "rejected",
            Tag::Failed => "failed",
        }
    }

    fn parse(text: &str) -> Option<Tag> {
        Tag::ALL.into_iter().find(|t| t.name() == text)
    }
}

/// A solution with its tag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// The source, relative to the package's folder: `solutions/main.cpp`.
    pub path: PathBuf,
    pub tag: Tag,
}

impl Package {
    /// Whether `dir` holds a Polygon package.
    pub fn is_in(dir: &Path) -> bool {
        dir.join(FILE_NAME).is_file()
    }

    /// Reads the package in `dir`: `problem.xml`, and the files it names that must be there
    /// (manual tests, sources). A process reads a package once: the settings, the plan, the
    /// solutions and a pack all take the same model, kept while `problem.xml` is unchanged.
    pub fn read(dir: &Path) -> anyhow::Result<Package> {
        static READ: std::sync::Mutex<Vec<(PathBuf, Stamp, Package)>> =
            std::sync::Mutex::new(Vec::new());
        let path = dir.join(FILE_NAME);
        let stamp = stamp(&path);
        let key = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
        let mut read = READ.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, _, package)) = read
            .iter()
            .find(|(k, s, p)| *k == key && stamp.is_some() && *s == stamp && p.dir == dir)
        {
            return Ok(package.clone());
        }
        let bytes = crate::fsutil::read_file_capped(&path)?;
        let text = String::from_utf8(bytes)
            .map_err(|_| anyhow::anyhow!("{}: not UTF-8 text", path.display()))?;
        let package = xml::parse(dir, &path.display().to_string(), &text)?;
        read.retain(|(k, _, _)| *k != key);
        read.push((key, stamp, package.clone()));
        Ok(package)
    }

    /// Why duipai cannot run this package's solutions, when they read and write files
    /// (`<judging input-file="input.txt" ...>`): it runs a package's solutions, main
    /// included, on stdin and stdout, and a solution that opens `input.txt` would be judged
    /// on a file that is not there. `None` for a package read from stdin and written to stdout.
    pub fn file_io_refusal(&self) -> Option<String> {
        let named = |file: &str| !file.is_empty() && file != "stdin" && file != "stdout";
        if !named(&self.input_file) && !named(&self.output_file) {
            return None;
        }
        let shown = |file: &str, stream: &str| match named(file) {
            true => format!("\"{file}\""),
            false => stream.to_string(),
        };
        Some(format!(
            "{}: the package's solutions read {} and write {} (<judging input-file output-file>): \
             duipai runs a Polygon package's solutions on stdin and stdout, so it does not run \
             them rather than judge them on a file that is not there; `gen` and `validate` \
             still take the package",
            self.judging_at,
            shown(&self.input_file, "stdin"),
            shown(&self.output_file, "stdout"),
        ))
    }

    /// The main solution, else the first accepted one: the reference answers come from it.
    pub fn main_solution(&self) -> Option<&Solution> {
        self.solutions
            .iter()
            .find(|s| s.tag == Tag::Main)
            .or_else(|| self.solutions.iter().find(|s| s.tag == Tag::Accepted))
    }

    /// The checker's source file: the package's own, or duipai's copy of a standard one
    /// written beside the package's `testlib.h` in duipai's cache.
    pub fn checker_source(&self) -> anyhow::Result<PathBuf> {
        match &self.checker {
            Checker::Source(path) => Ok(self.dir.join(path)),
            Checker::Standard(standard) => {
                let testlib = self.testlib.as_ref().with_context(|| {
                    format!(
                        "the package names the checker {} without its file, and has no \
                         files/testlib.h to build duipai's copy with",
                        standard.polygon_name()
                    )
                })?;
                standard.write_beside(&self.dir.join(testlib))
            }
        }
    }

    /// The stress listed with `index`, or why it cannot be run; `None` when none is listed.
    pub fn stress(&self, index: usize) -> Option<Result<&Stress, &str>> {
        self.stresses
            .iter()
            .find(|(i, _)| *i == index)
            .map(|(_, stress)| stress.as_ref().map_err(String::as_str))
    }

    /// Stress `index`, or an error naming the stresses there are, or saying why it cannot be
    /// run.
    pub fn stress_numbered(&self, index: u64) -> anyhow::Result<&Stress> {
        let found = usize::try_from(index).ok().and_then(|i| self.stress(i));
        let Some(stress) = found else {
            let have: Vec<String> = self.stresses.iter().map(|(i, _)| i.to_string()).collect();
            anyhow::bail!(
                "the package has no stress {index} ({})",
                if have.is_empty() {
                    "it lists none in <stresses>".to_string()
                } else {
                    format!("its stresses: {}", have.join(", "))
                }
            );
        };
        stress.map_err(|why| anyhow::anyhow!("stress {index} cannot be run: {why}"))
    }

    /// The group named `name`.
    pub fn group(&self, name: &str) -> Option<&Group> {
        self.groups.iter().find(|g| g.name == name)
    }

    /// A group's score: its points for a complete group, the sum of its tests' points for
    /// each test; `None` when neither gives any.
    pub fn score_of(&self, group: &Group) -> Option<f64> {
        let tests = self
            .tests
            .iter()
            .filter(|t| t.group.as_deref() == Some(&group.name));
        let summed: Option<f64> = tests.filter_map(|t| t.points).reduce(|a, b| a + b);
        match group.policy {
            PointsPolicy::CompleteGroup => group.points.or(summed),
            PointsPolicy::EachTest => summed.or(group.points),
        }
    }
}

/// What tells one version of `problem.xml` from another within a run: its size and its
/// modification time; `None` when they cannot be read (then it is read again each time).
type Stamp = Option<(u64, std::time::SystemTime)>;

fn stamp(path: &Path) -> Stamp {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.len(), meta.modified().ok()?))
}

/// A name duipai takes for a problem or a group: lowercase ASCII letters and digits, other
/// characters as `-`, starting with a letter or a digit.
pub fn plain_name(text: &str) -> String {
    let mut name: String = text
        .chars()
        .map(|c| {
            let c = c.to_ascii_lowercase();
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    while name.starts_with(['-', '_']) {
        name.remove(0);
    }
    name.truncate(64);
    if name.is_empty() {
        name = "problem".to_string();
    }
    name
}

/// A path pattern of `problem.xml` (`tests/%02d`) for test `index`: printf's `%d` with an
/// optional zero-padded width.
pub fn path_of(pattern: &str, index: usize) -> Option<String> {
    let at = pattern.find('%')?;
    let rest = &pattern[at + 1..];
    let digits = rest.find('d')?;
    let spec = &rest[..digits];
    let number = if spec.is_empty() {
        index.to_string()
    } else {
        let width: usize = spec.trim_start_matches('0').parse().ok()?;
        if spec.starts_with('0') {
            format!("{index:0width$}")
        } else {
            format!("{index:width$}")
        }
    };
    Some(format!("{}{number}{}", &pattern[..at], &rest[digits + 1..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_patterns_are_printf_numbers() {
        assert_eq!(path_of("tests/%02d", 3).as_deref(), Some("tests/03"));
        assert_eq!(path_of("tests/%02d.a", 12).as_deref(), Some("tests/12.a"));
        assert_eq!(path_of("t/%d", 7).as_deref(), Some("t/7"));
        assert_eq!(path_of("s/%03d", 100).as_deref(), Some("s/100"));
        assert_eq!(path_of("no pattern", 1), None);
    }

    #[test]
    fn plain_names() {
        assert_eq!(plain_name("3-moving-points"), "3-moving-points");
        assert_eq!(plain_name("Attack Plan!"), "attack-plan-");
        assert_eq!(plain_name("_x"), "x");
        assert_eq!(plain_name(""), "problem");
    }
}
