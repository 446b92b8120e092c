//! A Polygon package's own tests of its helpers, run: the validator's
//! (`files/tests/validator-tests`, each input valid or invalid) and the checker's
//! (`files/tests/checker-tests`, an input, an output and an answer, and the checker's verdict).
//! `validate` and `judge` in a package run them; a test the helper does not pass is reported
//! with where `problem.xml` lists it.

use std::path::Path;

use crate::judge::{Checker, Runner, Verdict};
use crate::own::{OwnProblem, Validity};
use crate::polygon::{CheckerVerdict, Package};

/// What the tests of one helper gave: a line a test, and how many the helper failed.
#[derive(Debug, Default)]
pub struct Ran {
    pub lines: Vec<String>,
    pub failed: usize,
    /// Tests whose files the package does not have.
    pub missing: usize,
}

impl Ran {
    fn missing(&mut self, package: &Package, path: &Path, at: &str) {
        self.missing += 1;
        self.lines.push(format!(
            "{}: not run, the package has no such file ({at})",
            package.dir.join(path).display()
        ));
    }

    /// `validator tests: 5 passed, 1 failed`.
    pub fn summary(&self, helper: &str, count: usize) -> String {
        let run = count - self.missing;
        let mut text = format!(
            "{helper} tests: {} passed, {} failed",
            run - self.failed,
            self.failed
        );
        if self.missing > 0 {
            text.push_str(&format!(", {} not in the package", self.missing));
        }
        text
    }
}

/// Reads a helper test's file with LF line ends (Polygon keeps its files with CR LF, as it
/// does its manual tests): `None` when the package lacks it; a link is refused.
fn read(package: &Package, path: &Path) -> anyhow::Result<Option<Vec<u8>>> {
    let full = package.dir.join(path);
    if std::fs::symlink_metadata(&full).is_err() {
        return Ok(None);
    }
    let bytes = crate::fsutil::read_in_folder_capped(&full)?;
    Ok(Some(crate::pack::own::plan::lf_line_ends(bytes)))
}

/// Runs the validator (the problem's) on each of its tests.
pub fn validator_tests(
    package: &Package,
    problem: &OwnProblem,
    runner: &dyn Runner,
) -> anyhow::Result<Ran> {
    let mut ran = Ran::default();
    for test in &package.validator_tests {
        let Some(input) = read(package, &test.input)? else {
            ran.missing(package, &test.input, &test.at);
            continue;
        };
        let said = problem.validate(runner, &input)?;
        let valid = matches!(said, Some(Validity::Valid(_)));
        if valid != test.valid {
            ran.failed += 1;
            let why = match said {
                Some(Validity::Invalid(why)) => format!(": {why}"),
                _ => String::new(),
            };
            ran.lines.push(format!(
                "{}: the validator says {}, the package expects {} ({}){why}",
                package.dir.join(&test.input).display(),
                if valid { "valid" } else { "invalid" },
                if test.valid { "valid" } else { "invalid" },
                test.at
            ));
        }
    }
    Ok(ran)
}

/// Runs the checker on each of its tests.
pub fn checker_tests(
    package: &Package,
    checker: &Checker,
    runner: &dyn Runner,
) -> anyhow::Result<Ran> {
    let mut ran = Ran::default();
    for test in &package.checker_tests {
        let mut files = Vec::new();
        for path in [&test.input, &test.output, &test.answer] {
            match read(package, path)? {
                Some(bytes) => files.push(bytes),
                None => {
                    ran.missing(package, path, &test.at);
                    break;
                }
            }
        }
        let [input, output, answer] = files.as_slice() else {
            continue;
        };
        let output = crate::run::Captured::from(output.clone());
        let (said, detail) = match checker.check(runner, input, &output, answer) {
            Ok(judgement) => (
                match judgement.verdict {
                    Verdict::Accepted => CheckerVerdict::Ok,
                    Verdict::PresentationError => CheckerVerdict::PresentationError,
                    _ => CheckerVerdict::WrongAnswer,
                },
                judgement.detail,
            ),
            Err(failed) => (CheckerVerdict::Crashed, format!("{failed:#}")),
        };
        if said != test.verdict {
            ran.failed += 1;
            ran.lines.push(format!(
                "{}: the checker says {}, the package expects {} ({}): {detail}",
                package.dir.join(&test.output).display(),
                said.name(),
                test.verdict.name(),
                test.at
            ));
        }
    }
    Ok(ran)
}
