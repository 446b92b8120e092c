//! What the checks say of a pack's tests once they are made: the errors that stop it (an
//! input the validator rejects, a hand-made answer the reference's does not accept, an
//! invalid input the validator accepts), all named together, and the warnings (a line whose
//! input does not depend on its seed, the same input twice, a hand-made answer right but not
//! byte for byte the reference's). A hand-made test the checks reject is kept, with a
//! warning, under `--keep-rejected-tests`; a generated input never is.

use std::collections::HashMap;
use std::path::PathBuf;

use anyhow::bail;

use super::file::OwnPackOptions;
use super::found::{FoundTest, INVALID_INPUT};
use super::make::{AnswerCheck, Made, Maker};
use super::plan::{LineSource, OwnLine};
use crate::own::Validity;
use crate::pack::Layout;

/// Which test a verdict is about.
pub enum Name<'a> {
    /// A line of the plan.
    Line(&'a OwnLine),
    /// A hand-made test found in the pack folder.
    Found(&'a FoundTest),
}

/// The errors and warnings so far.
pub struct Review<'a> {
    opts: &'a OwnPackOptions<'a>,
    errors: Vec<String>,
    warnings: Vec<String>,
}

/// What the flag that keeps rejected hand-made tests is called.
const KEEP: &str = "--keep-rejected-tests";

impl<'a> Review<'a> {
    pub fn new(opts: &'a OwnPackOptions<'a>) -> Review<'a> {
        Review {
            opts,
            errors: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// Reviews one test as made; returns it unless it failed or is rejected.
    pub fn test(&mut self, name: Name, result: anyhow::Result<Made>) -> Option<Made> {
        let at = self.place(&name);
        let made = match result {
            Ok(made) => made,
            Err(err) => {
                self.errors.push(format!("{at}: {err:#}"));
                return None;
            }
        };
        if let Some(why) = &made.invalid {
            let problem = format!("{at}: the input is invalid: {why}");
            let fix = match (&name, self.opts.layout) {
                (Name::Found(_), Layout::Icpc) => format!(
                    "move it to {INVALID_INPUT} if it is meant to be invalid (the validator must \
                     reject it there), remove it, or pass {KEEP} to pack it as it is"
                ),
                _ => format!("fix or remove it, or pass {KEEP} to pack it as it is"),
            };
            self.reject(problem, fix)?;
        }
        match &made.answer_check {
            AnswerCheck::Wrong(why) => {
                let answer = self.answer_path(&name, &made);
                let problem = format!(
                    "{at}: the hand-made answer {answer} is wrong: {why} (judged against the \
                     reference {}'s answer)",
                    self.reference_name()
                );
                let fix = format!(
                    "fix it, or remove it and the reference answers the input; or pass {KEEP} to \
                     pack it as it is"
                );
                self.reject(problem, fix)?;
            }
            AnswerCheck::RightButNotExact => {
                let answer = self.answer_path(&name, &made);
                self.warnings.push(format!(
                    "{at}: the hand-made answer {answer} is not exactly what the reference \
                     prints (the ICPC package's answer validator accepts only that)"
                ));
            }
            _ => {}
        }
        Some(made)
    }

    /// Stops the pack with `problem` and how to `fix` it, or, under the flag, keeps the test
    /// with a warning. `None` when the test is not kept.
    fn reject(&mut self, problem: String, fix: String) -> Option<()> {
        if self.opts.keep_rejected {
            self.warnings
                .push(format!("{problem}; kept as it is ({KEEP})"));
            return Some(());
        }
        self.errors.push(format!("{problem}: {fix}"));
        None
    }

    /// How messages name a test: `tests.plan:7`, `data/secret/98-bad.in`.
    fn place(&self, name: &Name) -> String {
        match name {
            Name::Line(line) => format!("{}:{}", self.opts.plan.name, line.line),
            Name::Found(test) => format!("{} (put into the pack by hand)", test.input.display()),
        }
    }

    /// The hand-made answer's path, as messages show it.
    fn answer_path(&self, name: &Name, made: &Made) -> String {
        match name {
            Name::Found(test) => test.input.with_extension("ans").display().to_string(),
            Name::Line(_) => made
                .answer_file
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
        }
    }

    fn reference_name(&self) -> String {
        self.opts
            .problem
            .reference
            .as_ref()
            .map(|r| crate::text::program_name(&r.typed))
            .unwrap_or_default()
    }

    /// The invalid inputs found in the package's `data/invalid_input/`: each must be rejected.
    pub fn invalid_inputs(&mut self, maker: &Maker, invalid: &[(String, PathBuf)]) {
        for (_, path) in invalid {
            let at = format!("{} (put into the pack by hand)", path.display());
            match maker.hand_validity(path) {
                Err(err) => self.errors.push(format!("{at}: {err:#}")),
                Ok(Some(Validity::Valid(_))) => {
                    let problem = format!(
                        "{at}: the validator accepts it, and an invalid input must be rejected"
                    );
                    let fix = format!(
                        "move it to data/secret/ if it is a test, fix it, or pass {KEEP} to pack \
                         it as it is"
                    );
                    let _ = self.reject(problem, fix);
                }
                Ok(_) => {}
            }
        }
    }

    /// The warnings about the plan's tests as made (`made`, one a line), and the pack's end
    /// when any test failed or was rejected: every such test named.
    pub fn finish(mut self, made: &[Made]) -> anyhow::Result<Vec<String>> {
        if !self.errors.is_empty() {
            bail!(
                "{} failed the checks, so nothing was written:\n{}",
                crate::text::plural(self.errors.len() as u64, "test"),
                self.errors.join("\n")
            );
        }
        let plan = &self.opts.plan;
        let mut first_of: HashMap<&[u8], usize> = HashMap::new();
        for (line, test) in plan.lines.iter().zip(made) {
            if test.seed_independent
                && let Some(seed) = line.seed(self.opts.seed)
            {
                self.warnings.push(format!(
                    "{}:{}: the generator prints the same input for seed {seed} and seed {}: \
                     the line's input does not depend on its seed",
                    plan.name,
                    line.line,
                    seed.wrapping_add(1)
                ));
            }
            let hand = matches!(line.source, LineSource::Copy { .. });
            match first_of.get(test.input.as_slice()) {
                Some(&first) if !(hand && test.invalid.is_some()) => self.warnings.push(format!(
                    "{}:{}: the same input as line {first}: the test is there twice",
                    plan.name, line.line
                )),
                Some(_) => {}
                None => {
                    first_of.insert(&test.input, line.line);
                }
            }
        }
        Ok(self.warnings)
    }
}
