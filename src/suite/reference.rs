//! Answers from a reference program for stored inputs without an answer file: judging
//! against them (`duipai test --reference`) and writing them as the missing answer files
//! (`duipai answers`).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use anyhow::{Context, anyhow, bail};

use super::{FoundInput, builtin_answer, find_inputs, is_polygon_test};
use crate::answer::Rule;
use crate::judge::helper::run_helper;
use crate::judge::{Expected, Runner};
use crate::problem::{Bounds, Problem};
use crate::run::Limits;

/// A reference solution, run on the inputs that have no answer file.
pub struct Reference<'a> {
    pub runner: &'a dyn Runner,
    /// The command that runs it (a source file already compiled).
    pub command: &'a [OsString],
    /// How messages name it (`brute.py`).
    pub name: &'a str,
    /// Its limits: generous, it is trusted ([`crate::judge::helper::helper_limits`]).
    pub limits: &'a Limits,
    pub jobs: usize,
    /// How its output compares with a program's, for a problem duipai does not know.
    pub rule: Rule,
    /// Whether its first failure stops the inputs not yet run (when any failure fails the
    /// command, as in `test`).
    pub fail_fast: bool,
    /// Its printing nothing is an answer (an input that asks for nothing), not a failure.
    pub empty_answers: bool,
}

impl Reference<'_> {
    /// The reference's output on each input, in order, run on `jobs` workers; a failure (it
    /// cannot start, crashes, exits nonzero, runs past its limits) is an error naming the
    /// input. With [`Reference::fail_fast`] the first failure stops the rest: the command
    /// fails anyway, and a reference that never answers would otherwise take its whole time
    /// limit on every input (20 s each by default).
    pub fn answer_all(&self, inputs: &[&FoundInput]) -> Vec<anyhow::Result<Vec<u8>>> {
        use std::sync::Mutex;
        let who = format!("the reference {}", self.name);
        let mut outputs: Vec<Option<anyhow::Result<Vec<u8>>>> =
            inputs.iter().map(|_| None).collect();
        // The input it first failed on, once it has.
        let failed_on: Mutex<Option<usize>> = Mutex::new(None);
        crate::pool::run_indexed(
            self.jobs,
            inputs.len() as u64,
            |i| {
                let found = inputs[i as usize];
                let run = match self.empty_answers {
                    true => crate::judge::helper::run_helper_quiet_ok,
                    false => run_helper,
                };
                let output = run(self.runner, self.command, &found.input, self.limits, &who)
                    .with_context(|| found.path.display().to_string());
                if output.is_err() {
                    let mut first = failed_on.lock().unwrap_or_else(|e| e.into_inner());
                    first.get_or_insert(i as usize);
                }
                // A run cut short by an interrupt has no answer.
                (!crate::run::cancelled()).then_some(output)
            },
            |_| {
                !self.fail_fast
                    || failed_on
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .is_none()
            },
            |i, output| outputs[i as usize] = Some(output),
            || {},
        );
        let failed_on = failed_on.into_inner().unwrap_or_else(|e| e.into_inner());
        outputs
            .into_iter()
            .zip(inputs)
            .map(|(output, found)| {
                output.unwrap_or_else(|| {
                    Err(match failed_on {
                        Some(at) => anyhow!(
                            "{}: not run: the reference {} failed on {} first",
                            found.path.display(),
                            self.name,
                            inputs[at].path.display()
                        ),
                        None => anyhow!(
                            "{}: interrupted before the reference answered it",
                            found.path.display()
                        ),
                    })
                })
            })
            .collect()
    }

    /// The reference's output on `found` as its expected answers: read as the problem's
    /// answers when duipai knows the problem (a malformed one is an error naming the input),
    /// else compared by [`Reference::rule`].
    pub fn expected(&self, found: &FoundInput, output: &[u8]) -> anyhow::Result<Expected> {
        let Some(instance) = &found.instance else {
            return Ok(Expected::unknown(output, self.rule));
        };
        let problem = instance.problem();
        problem
            .read_answers(output, instance.as_ref())
            .map_err(|why| {
                anyhow!(
                    "{}: the reference {} printed what is not a {problem} answer: {why}",
                    found.path.display(),
                    self.name
                )
            })
    }
}

/// What [`write_missing_answers`] did.
pub struct AnswersWritten {
    /// The answer files written, in input order.
    pub written: Vec<PathBuf>,
    /// How many inputs had an answer file already.
    pub present: usize,
    /// The inputs whose answer could not be made or written, each error naming its input.
    pub failed: Vec<anyhow::Error>,
}

/// Writes the answer file of every input below `dir` that has none (`NAME.ans` beside
/// `NAME.in`, `NN.a` beside a Polygon test `NN`): the `reference`'s output when one is given,
/// the built-in solver's answer otherwise. Every input is read and checked first (an invalid
/// one is an error before anything is written). An existing file is never replaced, and each
/// is written atomically; `on_written` sees each as it is written. An input whose answer
/// fails is recorded in [`AnswersWritten::failed`] and the others are still written.
pub fn write_missing_answers(
    known: Option<(&dyn Problem, &Bounds)>,
    name: &str,
    dir: &Path,
    reference: Option<&Reference>,
    on_written: &mut dyn FnMut(&Path),
) -> anyhow::Result<AnswersWritten> {
    // The answers are written as printed; the rule only matters for judging.
    let found = find_inputs(known, dir, Rule::EXACT)?;
    // What an earlier run killed while writing left half-written.
    if dir.is_dir() {
        crate::fsutil::remove_stale_temporaries(dir, 8);
    }
    let missing: Vec<&FoundInput> = found.iter().filter(|f| f.answer.is_none()).collect();
    if known.is_none() && reference.is_none() && !missing.is_empty() {
        bail!(
            "duipai does not know the problem {}, so it has no answers of its own: give \
             --reference",
            crate::text::quote(name)
        );
    }
    let answers: Vec<anyhow::Result<Vec<u8>>> = match reference {
        Some(reference) => reference
            .answer_all(&missing)
            .into_iter()
            .zip(&missing)
            .map(|(output, found)| {
                let output = output?;
                reference.expected(found, &output)?;
                Ok(output)
            })
            .collect(),
        None => missing
            .iter()
            .map(|found| builtin_answer(found, name).map(|e| e.text.into_bytes()))
            .collect(),
    };
    let mut report = AnswersWritten {
        written: Vec::new(),
        present: found.len() - missing.len(),
        failed: Vec::new(),
    };
    for (found, answer) in missing.iter().zip(answers) {
        let written = answer.and_then(|bytes| {
            let path = answer_path(&found.path);
            crate::fsutil::write_new_atomic(&path, &bytes)?;
            Ok(path)
        });
        match written {
            Ok(path) => {
                on_written(&path);
                report.written.push(path);
            }
            Err(err) => report.failed.push(err),
        }
    }
    Ok(report)
}

/// Where the answer of an input goes: `NN.a` beside a Polygon test `NN`, else `NAME.ans`.
fn answer_path(input: &Path) -> PathBuf {
    if is_polygon_test(input.file_name().unwrap_or_default()) {
        input.with_extension("a")
    } else {
        input.with_extension("ans")
    }
}

#[cfg(test)]
mod tests {
    use super::answer_path;
    use std::path::Path;

    #[test]
    fn answers_are_named_as_the_layout_names_them() {
        assert_eq!(answer_path(Path::new("d/1.in")), Path::new("d/1.ans"));
        assert_eq!(answer_path(Path::new("tests/07")), Path::new("tests/07.a"));
    }
}
