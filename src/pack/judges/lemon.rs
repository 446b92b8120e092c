//! LemonLime's pack: its contest file (`.cdf`) with the task, its test cases, their
//! dependencies and the comparison, as LemonLime reads them.

use super::{Decided, File, Judge, Test, share, testlib_checker};
use crate::answer::Rule;

/// LemonLime's contest file, as LemonLime reads it (`src/core/contest.cpp`, `task.cpp` and
/// `testcase.cpp` of Project-LemonLime/Project_LemonLime): one task, each subtask a test case
/// of several inputs (scored when all pass), or a test case per test for a group scored test
/// by test; the checker's source beside the data, run compiled (`data/NAME/checker`) in
/// LemonLime's testlib mode.
pub(super) fn lemon(judge: &Judge) -> anyhow::Result<Vec<File>> {
    let mut files = Vec::new();
    let (comparison, precision, special) = lemon_comparison(judge, &mut files)?;
    let task = serde_json::json!({
        "problemTitle": judge.name,
        "sourceFileName": judge.name,
        "inputFileName": format!("{}.in", judge.name),
        "outputFileName": format!("{}.out", judge.name),
        "standardInputCheck": true,
        "standardOutputCheck": true,
        "taskType": 0,
        "subFolderCheck": false,
        "comparisonMode": comparison,
        "diffArguments": "--ignore-space-change --text --brief",
        "realPrecision": precision,
        "specialJudge": special,
        "answerFileExtension": "out",
        "compilerConfiguration": {},
        "testCases": lemon_cases(judge),
    });
    let contest = serde_json::json!({
        "version": "1.0",
        "contestTitle": judge.name,
        "tasks": [task],
        "contestants": [],
    });
    let mut text = serde_json::to_string_pretty(&contest).unwrap_or_default();
    text.push('\n');
    files.push((
        format!("{}.cdf", judge.name),
        "LemonLime's contest file",
        text.into_bytes(),
    ));
    Ok(files)
}

/// What LemonLime appends to an `inputFiles` entry that names a test case this one depends
/// on (by its number from 1) rather than an input: `TestCase::readFromJson` takes such
/// entries out of the inputs, and keeps no dependency anywhere else.
pub const LEMON_DEPENDENCE: &str = "_lemon_SUbtaskDEPENDENCE_fLAg";

/// LemonLime's test cases: a group scored whole is one of its inputs together, a group
/// scored test by test one a test; each depends on every test case of the groups its group
/// depends on.
fn lemon_cases(judge: &Judge) -> Vec<serde_json::Value> {
    let mut cases: Vec<serde_json::Value> = Vec::new();
    let mut cases_of: Vec<Vec<usize>> = vec![Vec::new(); judge.groups.len()];
    let relative = |path: &str| path.strip_prefix("data/").unwrap_or(path).to_string();
    for (index, group) in judge.groups.iter().enumerate() {
        let tests: Vec<&Test> = judge
            .tests
            .iter()
            .filter(|t| t.group == Some(index))
            .collect();
        if tests.is_empty() {
            continue;
        }
        let mut dependencies: Vec<usize> = group
            .dependencies
            .iter()
            .flat_map(|d| cases_of[*d].iter().copied())
            .collect();
        dependencies.sort_unstable();
        let parts: Vec<Vec<&Test>> = if group.each_test {
            tests.iter().map(|t| vec![*t]).collect()
        } else {
            vec![tests]
        };
        let count = parts.len();
        for (k, part) in parts.iter().enumerate() {
            let inputs = part.iter().map(|t| relative(&t.input)).chain(
                dependencies
                    .iter()
                    .map(|c| format!("{c}{LEMON_DEPENDENCE}")),
            );
            cases.push(serde_json::json!({
                "fullScore": share(group.score, count, k),
                "timeLimit": judge.time_ms,
                "memoryLimit": judge.memory_mib,
                "inputFiles": inputs.collect::<Vec<_>>(),
                "outputFiles": part.iter().map(|t| relative(&t.answer)).collect::<Vec<_>>(),
            }));
            cases_of[index].push(cases.len());
        }
    }
    cases
}

/// LemonLime's `comparisonMode` values (`Task::ComparisonMode` in its `src/core/task.h`).
const LEMON_IGNORE_SPACES: i64 = 1;
const LEMON_REAL_NUMBERS: i64 = 3;
pub(super) const LEMON_TESTLIB: i64 = 5;

/// LemonLime's comparison: its `comparisonMode`, `realPrecision` and `specialJudge`, with
/// the checker's source added to `files`. An interactor is refused: LemonLime's interactive
/// tasks compile a grader of their own with the solution, and run no testlib interactor.
fn lemon_comparison(judge: &Judge, files: &mut Vec<File>) -> anyhow::Result<(i64, i64, String)> {
    Ok(match (&judge.decided, testlib_checker(&judge.decided)) {
        (Decided::Compare(Rule::Reals { tolerance }), _) => (
            LEMON_REAL_NUMBERS,
            (-tolerance.log10()).round() as i64,
            String::new(),
        ),
        (Decided::Compare(_), _) => (LEMON_IGNORE_SPACES, 3, String::new()),
        (Decided::Interactor { .. }, _) => anyhow::bail!(
            "LemonLime runs no testlib interactor (its interactive tasks compile a grader with \
             the solution): {} cannot be packed for it",
            judge.name
        ),
        (_, Some((ext, source))) => {
            let path = format!("data/{}/checker.{ext}", judge.name);
            files.push((path, "checker", source));
            (LEMON_TESTLIB, 3, format!("{}/checker", judge.name))
        }
        (Decided::Checker { .. }, None) => unreachable!("a checker is a testlib source"),
    })
}
