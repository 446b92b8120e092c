//! Stored cases: collecting `*.in` files in natural order, their expected answers (`.ans`,
//! `.out` or the reference solver), and judging a program on all of them in parallel.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, bail};
use walkdir::WalkDir;

use crate::answer::Rule;
use crate::judge::{CaseOutcome, Expected, Runner, judge_case};
use crate::problem::{Bounds, Problem};
use crate::run::{IoMode, Limits};

/// One stored case: its input and what the program should print.
pub struct StoredCase {
    /// Its path relative to the tested directory.
    pub name: String,
    pub input: Vec<u8>,
    pub expected: Expected,
}

/// How to run the program on the cases.
pub struct SuiteRun<'a> {
    pub runner: &'a dyn Runner,
    pub program: &'a [OsString],
    pub limits: &'a Limits,
    pub io: &'a IoMode,
    pub jobs: usize,
}

/// Runs every case on the pool; `on_done` sees each result in case order as soon as it and
/// all before it are done. A harness error (the program cannot start) stops everything; a
/// cancel stops taking cases and returns those judged so far.
pub fn judge_all(
    cases: &[StoredCase],
    run: &SuiteRun,
    mut on_done: impl FnMut(usize, &CaseOutcome),
    mut on_idle: impl FnMut(),
) -> anyhow::Result<Vec<CaseOutcome>> {
    let abort = AtomicBool::new(false);
    let mut slots: Vec<Option<CaseOutcome>> = (0..cases.len()).map(|_| None).collect();
    let mut first_error = None;
    let mut delivered = 0;
    crate::pool::run_indexed(
        run.jobs,
        cases.len() as u64,
        |i| {
            let case = &cases[i as usize];
            let result = judge_case(
                run.runner,
                run.program,
                &case.input,
                &case.expected,
                run.limits,
                run.io,
            );
            if crate::run::cancelled() {
                // This run may have been killed by the interrupt: no verdict.
                return None;
            }
            if result.is_err() {
                abort.store(true, Ordering::Relaxed);
            }
            Some(result)
        },
        |_| !abort.load(Ordering::Relaxed),
        |i, result| {
            let i = i as usize;
            match result.with_context(|| format!("running {}", cases[i].name)) {
                Ok(outcome) => slots[i] = Some(outcome),
                Err(err) => {
                    first_error.get_or_insert(err);
                    return;
                }
            }
            while let Some(Some(done)) = slots.get(delivered) {
                on_done(delivered, done);
                delivered += 1;
            }
        },
        &mut on_idle,
    );
    if let Some(err) = first_error {
        return Err(err);
    }
    Ok(slots.into_iter().flatten().collect())
}

/// `*.in` files below `dir` (or `dir` itself if it is one), in file-name order, each checked
/// against `bounds` and given its expected output: the sibling `.ans`, else `.out`, else the
/// reference solver's answer. A directory without `*.in` files is read as a Polygon `tests/`
/// directory: inputs named by their number alone (`01`, `02`, ...), answers beside them as
/// `01.a`. An invalid input or a malformed answer file is an error naming the file.
pub fn collect_cases(
    problem: &dyn Problem,
    bounds: &Bounds,
    dir: &Path,
) -> anyhow::Result<Vec<StoredCase>> {
    collect(Some((problem, bounds)), "", dir)
}

/// [`collect_cases`] for a problem duipai does not know, named `name`: inputs are not checked,
/// and every one needs its answer file, compared token by token.
pub fn collect_unknown_cases(name: &str, dir: &Path) -> anyhow::Result<Vec<StoredCase>> {
    collect(None, name, dir)
}

fn collect(
    known: Option<(&dyn Problem, &Bounds)>,
    name: &str,
    dir: &Path,
) -> anyhow::Result<Vec<StoredCase>> {
    let meta = std::fs::metadata(dir).with_context(|| format!("cannot read {}", dir.display()))?;
    let (root, inputs): (PathBuf, Vec<PathBuf>) = if meta.is_file() {
        let parent = dir.parent().unwrap_or(Path::new("")).to_path_buf();
        (parent, vec![dir.to_path_buf()])
    } else {
        let mut inputs = Vec::new();
        let mut numbered = Vec::new();
        for entry in WalkDir::new(dir).sort_by(|a, b| natural_order(a.file_name(), b.file_name())) {
            let entry = entry.with_context(|| format!("cannot list {}", dir.display()))?;
            if !entry.file_type().is_file() {
                continue;
            }
            if entry.path().extension() == Some("in".as_ref()) {
                inputs.push(entry.into_path());
            } else if is_polygon_test(entry.file_name()) {
                numbered.push(entry.into_path());
            }
        }
        if inputs.is_empty() {
            inputs = numbered;
        }
        (dir.to_path_buf(), inputs)
    };
    if inputs.is_empty() {
        bail!(
            "no *.in files (nor Polygon tests 01, 02, ...) below {}",
            dir.display()
        );
    }
    inputs
        .into_iter()
        .map(|path| {
            let input = crate::fsutil::read_file_capped(&path)?;
            let expected = match known {
                Some((problem, bounds)) => expected_for(problem, bounds, &path, &input)?,
                None => answer_file(&path)?
                    .map(|(_, bytes)| Expected::unknown(&bytes, Rule::EXACT))
                    .ok_or_else(|| {
                        anyhow::anyhow!(
                            "{}: no answer file beside it (.ans, .out); duipai does not know \
                             the problem {}, so it has no reference answers",
                            path.display(),
                            crate::text::quote(name)
                        )
                    })?,
            };
            let name = path
                .strip_prefix(&root)
                .unwrap_or(&path)
                .display()
                .to_string();
            Ok(StoredCase {
                name,
                input,
                expected,
            })
        })
        .collect()
}

/// A Polygon test input: a file named by its number alone (`01`, `7`).
fn is_polygon_test(name: &std::ffi::OsStr) -> bool {
    let name = name.as_encoded_bytes();
    !name.is_empty() && name.iter().all(u8::is_ascii_digit)
}

/// The failing cases a stress run saved in `dir` for the problem `name` (`NAME-SEED.in` and
/// `NAME-SEED-K.in`, the minimized ones, not `.original`, nor another problem's whose name
/// starts with `NAME-`), in natural order, with the answers saved beside them.
/// A missing directory holds none.
pub fn collect_saved(dir: &Path, name: &str) -> anyhow::Result<Vec<StoredCase>> {
    let problem = crate::problem::by_name(name);
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(Vec::new());
    };
    let mut inputs: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let file = p.file_name().and_then(|f| f.to_str()).unwrap_or("");
            crate::saved::is_case_of(file, name) && p.with_extension("ans").is_file()
        })
        .collect();
    inputs.sort_by(|a, b| natural_order(a.as_os_str(), b.as_os_str()));
    inputs
        .into_iter()
        .map(|path| {
            let input = crate::fsutil::read_file_capped(&path)?;
            let answer = crate::fsutil::read_file_capped(&path.with_extension("ans"))?;
            let expected = saved_answer(problem, &path, &input, &answer)?;
            Ok(StoredCase {
                name: path.display().to_string(),
                input,
                expected,
            })
        })
        .collect()
}

/// File-name order with digit runs compared as numbers, so `chess2.in` comes before
/// `chess10.in` (NOI packs are not zero-padded); ties fall back to plain byte order.
pub fn natural_order(a: &std::ffi::OsStr, b: &std::ffi::OsStr) -> std::cmp::Ordering {
    /// Digit runs before other text (as in ASCII), numbers by value, text by bytes.
    #[derive(PartialEq, Eq, PartialOrd, Ord)]
    enum Chunk<'a> {
        Number { digits: usize, value: &'a [u8] },
        Text(&'a [u8]),
    }
    fn chunks(s: &[u8]) -> Vec<Chunk<'_>> {
        s.chunk_by(|x, y| x.is_ascii_digit() == y.is_ascii_digit())
            .map(|c| {
                if c[0].is_ascii_digit() {
                    let value = trim_zeros(c);
                    Chunk::Number {
                        digits: value.len(),
                        value,
                    }
                } else {
                    Chunk::Text(c)
                }
            })
            .collect()
    }
    let (ab, bb) = (a.as_encoded_bytes(), b.as_encoded_bytes());
    chunks(ab).cmp(&chunks(bb)).then_with(|| ab.cmp(bb))
}

fn trim_zeros(digits: &[u8]) -> &[u8] {
    let first = digits
        .iter()
        .position(|&d| d != b'0')
        .unwrap_or(digits.len());
    &digits[first..]
}

/// The answer file beside an input and its bytes: `NN.a` for a Polygon test, else `.ans`,
/// else `.out`; `None` if there is none.
fn answer_file(input_path: &Path) -> anyhow::Result<Option<(PathBuf, Vec<u8>)>> {
    let polygon = is_polygon_test(input_path.file_name().unwrap_or_default())
        .then(|| input_path.with_extension("a"));
    let answers = ["ans", "out"].map(|ext| input_path.with_extension(ext));
    for answer in polygon.into_iter().chain(answers) {
        if answer.exists() {
            let bytes = crate::fsutil::read_file_capped(&answer)?;
            return Ok(Some((answer, bytes)));
        }
    }
    Ok(None)
}

fn expected_for(
    problem: &dyn Problem,
    bounds: &Bounds,
    input_path: &Path,
    input: &[u8],
) -> anyhow::Result<Expected> {
    // Judging an input of another problem (or a broken one) would blame the program.
    let instance = problem.parse(input, bounds).map_err(|e| {
        anyhow::anyhow!(
            "{}:{}:{}: not a valid {problem} input: {}",
            input_path.display(),
            e.line,
            e.column,
            e.message
        )
    })?;
    if let Some((answer, bytes)) = answer_file(input_path)? {
        // A malformed expected answer is the harness's problem, not the program's.
        return problem
            .read_answers(&bytes, instance.as_ref())
            .map_err(|why| {
                anyhow::anyhow!(
                    "{}: not a {problem} answer ({}): {why}",
                    answer.display(),
                    answer_form(problem, instance.case_count())
                )
            });
    }
    instance
        .expected()
        .map_err(|e| anyhow::anyhow!("{}: {e}", input_path.display()))
}

/// What an answer file of `problem` holds, for messages: `one integer`, `3 lines, one per case`.
fn answer_form(problem: &dyn Problem, cases: usize) -> String {
    if problem.structure().is_multi() {
        format!(
            "{}, one per case",
            crate::text::plural(cases as u64, "line")
        )
    } else {
        match problem.rule() {
            Rule::Integers => "one integer".to_string(),
            Rule::Reals { .. } => "one real number".to_string(),
            Rule::Tokens { .. } => "one line".to_string(),
        }
    }
}

/// The answer saved beside a failing case: read as the problem's answers when duipai knows
/// the problem and the case parses, else as an unknown problem's.
fn saved_answer(
    problem: Option<&dyn Problem>,
    path: &Path,
    input: &[u8],
    answer: &[u8],
) -> anyhow::Result<Expected> {
    let instance = problem.and_then(|p| Some((p, p.parse(input, &p.default_bounds()).ok()?)));
    match instance {
        Some((problem, instance)) => problem
            .read_answers(answer, instance.as_ref())
            .map_err(|why| anyhow::anyhow!("{}: {why}", path.with_extension("ans").display())),
        None => Ok(Expected::unknown(answer, Rule::EXACT)),
    }
}

#[cfg(test)]
mod tests {
    use super::natural_order;
    use std::cmp::Ordering;
    use std::ffi::OsStr;

    #[test]
    fn numbers_in_names_sort_as_numbers() {
        let mut names = [
            "chess10.in",
            "chess2.in",
            "chess1.in",
            "a.in",
            "chess02.in",
            "b",
        ];
        names.sort_by(|a, b| natural_order(OsStr::new(a), OsStr::new(b)));
        assert_eq!(
            names,
            [
                "a.in",
                "b",
                "chess1.in",
                "chess02.in",
                "chess2.in",
                "chess10.in"
            ]
        );
        assert_eq!(
            natural_order(OsStr::new("x"), OsStr::new("x")),
            Ordering::Equal
        );
    }
}
