//! Stored cases: collecting `*.in` files in natural order, their expected answers (`.ans`,
//! `.out`, the reference solver or a reference program), and judging a program on all of
//! them in parallel.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, bail};
use walkdir::WalkDir;

use crate::text::natural_order;

use crate::answer::Rule;
use crate::judge::{CaseOutcome, Decider, Expected, Runner, judge_case};
use crate::problem::{Bounds, Instance, Problem};
use crate::run::{IoMode, Limits};

mod reference;

pub use reference::{AnswersWritten, Reference, write_missing_answers};

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
    /// How each output is decided: compared with the answers, or by a checker.
    pub decider: &'a Decider,
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
            // Only excerpts of the output outlive the verdict: a folder of cases that each
            // print 64 MiB costs no more memory than one.
            let result = judge_case(
                run.runner,
                run.program,
                &case.input,
                &case.expected,
                run.limits,
                run.io,
                run.decider,
            )
            .map(|outcome| outcome.compared_with(&case.expected).bounded());
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

/// Stored cases, and how many of their answers a reference program gave.
pub struct Collected {
    pub cases: Vec<StoredCase>,
    pub from_reference: usize,
}

/// Where the answers of inputs without an answer file come from.
#[derive(Clone, Copy)]
pub enum Answers<'a> {
    /// The built-in solver's, for a problem duipai knows; else none can be had (an error).
    Builtin,
    /// A reference program's output.
    Reference(&'a Reference<'a>),
    /// None are needed: an interactor judges every case.
    Unneeded,
}

/// Every input below `dir` (a file, or a directory of `*.in` files in natural order), each
/// checked against `bounds` when duipai knows the problem (`known`), else the problem named
/// `name` whose answers compare by `rule`. Each gets its expected output: the sibling `.ans`,
/// else `.out`, else as `answers` says. A directory without `*.in` files is read as a Polygon `tests/` directory:
/// inputs named by their number alone (`01`, `02`, ...), answers beside them as `01.a`. An
/// invalid input, a malformed answer file or a reference that fails is an error naming the
/// input.
pub fn collect(
    known: Option<(&dyn Problem, &Bounds)>,
    name: &str,
    dir: &Path,
    rule: Rule,
    answers: Answers,
) -> anyhow::Result<Collected> {
    let mut found = find_inputs(known, dir, rule)?;
    let mut from_reference = 0;
    if let Answers::Reference(reference) = answers {
        let missing: Vec<&FoundInput> = found.iter().filter(|f| f.answer.is_none()).collect();
        let outputs = reference.answer_all(&missing);
        let answers = missing
            .iter()
            .zip(outputs)
            .map(|(found, output)| reference.expected(found, &output?))
            .collect::<anyhow::Result<Vec<Expected>>>()?;
        from_reference = answers.len();
        let unanswered = found.iter_mut().filter(|f| f.answer.is_none());
        for (found, answer) in unanswered.zip(answers) {
            found.answer = Some(answer);
        }
    }
    let cases = found
        .into_iter()
        .map(|mut found| {
            let expected = match (found.answer.take(), answers) {
                (Some(answer), _) => answer,
                (None, Answers::Unneeded) => Expected::unknown(b"", rule),
                (None, _) => builtin_answer(&found, name)?,
            };
            Ok(StoredCase {
                name: found.name,
                input: found.input,
                expected,
            })
        })
        .collect::<anyhow::Result<Vec<StoredCase>>>()?;
    Ok(Collected {
        cases,
        from_reference,
    })
}

/// One input below the tested directory, with its answer file's answers if it has one.
pub struct FoundInput {
    pub path: PathBuf,
    /// Its path relative to the tested directory.
    pub name: String,
    pub input: Vec<u8>,
    /// The parsed input, for a problem duipai knows.
    pub instance: Option<Box<dyn Instance>>,
    pub answer: Option<Expected>,
}

/// Every input below `dir` in order ([`collect`]), read, checked (for a known problem) and
/// given the answers of its answer file when it has one (compared by `rule` for a problem
/// duipai does not know).
pub fn find_inputs(
    known: Option<(&dyn Problem, &Bounds)>,
    dir: &Path,
    rule: Rule,
) -> anyhow::Result<Vec<FoundInput>> {
    let (root, inputs) = list_inputs(dir)?;
    inputs
        .into_iter()
        .map(|path| {
            let input = crate::fsutil::read_regular_capped(&path)?;
            let (instance, answer) = match known {
                Some((problem, bounds)) => {
                    let instance = parse_input(problem, bounds, &path, &input)?;
                    let answer = known_answer_file(problem, &path, instance.as_ref())?;
                    (Some(instance), answer)
                }
                None => {
                    let answer =
                        answer_file(&path)?.map(|(_, bytes)| Expected::unknown(&bytes, rule));
                    (None, answer)
                }
            };
            let name = path
                .strip_prefix(&root)
                .unwrap_or(&path)
                .display()
                .to_string();
            Ok(FoundInput {
                path,
                name,
                input,
                instance,
                answer,
            })
        })
        .collect()
}

/// The directory names are relative to, and the input files below `dir` in order.
fn list_inputs(dir: &Path) -> anyhow::Result<(PathBuf, Vec<PathBuf>)> {
    let meta = std::fs::metadata(dir).with_context(|| format!("cannot read {}", dir.display()))?;
    if meta.is_file() {
        let parent = dir.parent().unwrap_or(Path::new("")).to_path_buf();
        return Ok((parent, vec![dir.to_path_buf()]));
    }
    let mut inputs = Vec::new();
    let mut numbered = Vec::new();
    let walk = WalkDir::new(dir)
        .sort_by(|a, b| natural_order(a.file_name(), b.file_name()))
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !is_validation_folder(e));
    for entry in walk {
        let entry = entry.with_context(|| format!("cannot list {}", dir.display()))?;
        let named_as_test =
            entry.path().extension() == Some("in".as_ref()) || is_polygon_test(entry.file_name());
        let kind = entry.file_type();
        if named_as_test && kind.is_symlink() && entry.depth() > 0 {
            bail!(
                "{}: {}",
                entry.path().display(),
                crate::fsutil::LINK_REFUSED
            );
        }
        if named_as_test && !kind.is_file() && !kind.is_dir() && !kind.is_symlink() {
            bail!(
                "{}: {}; duipai reads only regular files as tests",
                entry.path().display(),
                crate::fsutil::describe_kind(&kind)
            );
        }
        if !kind.is_file() {
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
    if inputs.is_empty() {
        bail!(
            "no *.in files (nor Polygon tests 01, 02, ...) below {}",
            dir.display()
        );
    }
    Ok((dir.to_path_buf(), inputs))
}

/// The answer of an input without an answer file when no reference is given: the built-in
/// solver's, or an error for a problem duipai does not know.
fn builtin_answer(found: &FoundInput, name: &str) -> anyhow::Result<Expected> {
    match &found.instance {
        Some(instance) => instance
            .expected()
            .map_err(|e| anyhow::anyhow!("{}: {e}", found.path.display())),
        None => bail!(
            "{}: no answer file beside it (.ans, .out); duipai does not know the problem {}, \
             so it has no reference answers: give one with --reference",
            found.path.display(),
            crate::text::quote(name)
        ),
    }
}

/// A folder of an ICPC package's `data/` that holds no tests to judge, but inputs or
/// outputs for its validators (`invalid_input`, `invalid_answer`, `invalid_output`,
/// `valid_output`).
fn is_validation_folder(entry: &walkdir::DirEntry) -> bool {
    const FOLDERS: [&str; 4] = [
        "invalid_input",
        "invalid_answer",
        "invalid_output",
        "valid_output",
    ];
    let in_data = entry
        .path()
        .parent()
        .and_then(Path::file_name)
        .is_some_and(|p| p == "data");
    entry.file_type().is_dir() && in_data && FOLDERS.iter().any(|f| entry.file_name() == *f)
}

/// A Polygon test input: a file named by its number alone (`01`, `7`).
fn is_polygon_test(name: &std::ffi::OsStr) -> bool {
    let name = name.as_encoded_bytes();
    !name.is_empty() && name.iter().all(u8::is_ascii_digit)
}

/// The failing cases a stress run saved in `dir` for the problem `name` (`NAME-SEED.in` and
/// `NAME-SEED-K.in`, the minimized ones, and a case as found whose minimization was cut
/// short ([`crate::saved::is_saved_case`]), not another problem's whose name starts with
/// `NAME-`), in natural order, with the answers saved beside them.
/// A missing directory holds none.
pub fn collect_saved(dir: &Path, name: &str, rule: Rule) -> anyhow::Result<Vec<StoredCase>> {
    let problem = crate::problem::by_name(name);
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(Vec::new());
    };
    let claimed = crate::saved::claimed_originals(dir);
    let mut inputs: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let file = p.file_name().and_then(|f| f.to_str()).unwrap_or("");
            crate::saved::is_saved_case(dir, file, name, &claimed)
                && p.with_extension("ans").is_file()
        })
        .collect();
    inputs.sort_by(|a, b| natural_order(a.as_os_str(), b.as_os_str()));
    inputs
        .into_iter()
        .map(|path| {
            let input = crate::fsutil::read_regular_capped(&path)?;
            let answer = crate::fsutil::read_in_folder_capped(&path.with_extension("ans"))?;
            let expected = saved_answer(problem, &path, &input, &answer, rule)?;
            Ok(StoredCase {
                name: path.display().to_string(),
                input,
                expected,
            })
        })
        .collect()
}

/// The answer file beside an input and its bytes: `NN.a` for a Polygon test, else `.ans`,
/// else `.out`; `None` if there is none.
fn answer_file(input_path: &Path) -> anyhow::Result<Option<(PathBuf, Vec<u8>)>> {
    let polygon = is_polygon_test(input_path.file_name().unwrap_or_default())
        .then(|| input_path.with_extension("a"));
    let answers = ["ans", "out"].map(|ext| input_path.with_extension(ext));
    for answer in polygon.into_iter().chain(answers) {
        if answer.symlink_metadata().is_ok() {
            let bytes = crate::fsutil::read_in_folder_capped(&answer)?;
            return Ok(Some((answer, bytes)));
        }
    }
    Ok(None)
}

/// The parsed input; judging an input of another problem (or a broken one) would blame the
/// program, so an invalid one is an error naming its position.
fn parse_input(
    problem: &dyn Problem,
    bounds: &Bounds,
    input_path: &Path,
    input: &[u8],
) -> anyhow::Result<Box<dyn Instance>> {
    problem.parse(input, bounds).map_err(|e| {
        anyhow::anyhow!(
            "{}:{}:{}: not a valid {problem} input: {}",
            input_path.display(),
            e.line,
            e.column,
            e.message
        )
    })
}

/// The answers of the answer file beside an input of a known problem, if it has one; a
/// malformed answer file is the harness's problem, not the program's.
fn known_answer_file(
    problem: &dyn Problem,
    input_path: &Path,
    instance: &dyn Instance,
) -> anyhow::Result<Option<Expected>> {
    let Some((answer, bytes)) = answer_file(input_path)? else {
        return Ok(None);
    };
    let expected = problem.read_answers(&bytes, instance).map_err(|why| {
        anyhow::anyhow!(
            "{}: not a {problem} answer ({}): {why}",
            answer.display(),
            answer_form(problem, instance.case_count())
        )
    })?;
    Ok(Some(expected))
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
    rule: Rule,
) -> anyhow::Result<Expected> {
    let instance = problem.and_then(|p| Some((p, p.parse(input, &p.default_bounds()).ok()?)));
    match instance {
        Some((problem, instance)) => problem
            .read_answers(answer, instance.as_ref())
            .map_err(|why| anyhow::anyhow!("{}: {why}", path.with_extension("ans").display())),
        None => Ok(Expected::unknown(answer, rule)),
    }
}

#[cfg(test)]
mod tests {
    use crate::text::natural_order;
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
