//! UOJ's pack: `problem.conf` with the limits, the checker and the scores as UOJ's judger
//! reads them.

use super::{Decided, File, Judge, scored, share, standard_for, testlib_checker};

/// UOJ's `problem.conf`: the tests `NAME1.in`.. with their answers `NAME1.out`.., the
/// samples as extra tests `ex_NAME1.in`.., the limits, the checker (`chk.cpp`, or a builtin
/// one) and the scores as UOJ's judger reads them (`judger/uoj_judger/builtin/judger/judger.cpp`
/// of UniversalOJ/UOJ-System). It knows two subtask types, `packed` and `min`; any other is
/// judged as no test at all and given full marks. So a group scored whole is a `packed`
/// subtask, and a group scored test by test is, beside such subtasks, a `packed` subtask of
/// one test for each of its tests; without any group scored whole or any dependency, there
/// are no subtasks and each test scores its `point_score_N`. The tests of a subtask must be
/// consecutive: the pack numbers them group by group.
pub(super) fn uoj(judge: &Judge) -> anyhow::Result<Vec<File>> {
    let mut files = Vec::new();
    let samples = judge.tests.iter().filter(|t| t.group.is_none()).count();
    let tests = judge.tests.len() - samples;
    let mut conf = String::new();
    let mut line = |key: &str, value: String| conf.push_str(&format!("{key} {value}\n"));
    line("use_builtin_judger", "on".to_string());
    match (&judge.decided, testlib_checker(&judge.decided)) {
        (Decided::Interactor { ext, source }, _) => {
            line("interaction_mode", "on".to_string());
            files.push((format!("interactor.{ext}"), "interactor", source.clone()));
        }
        (_, Some((_, source))) => files.push(("chk.cpp".to_string(), "checker", source)),
        (Decided::Compare(rule), None) => line(
            "use_builtin_checker",
            standard_for(*rule).stem().to_string(),
        ),
        (Decided::Checker { .. }, None) => unreachable!("a checker is a testlib source"),
    }
    line("n_tests", tests.to_string());
    line("n_ex_tests", samples.to_string());
    line("n_sample_tests", samples.to_string());
    line("input_pre", judge.name.clone());
    line("input_suf", "in".to_string());
    line("output_pre", judge.name.clone());
    line("output_suf", "out".to_string());
    line(
        "time_limit",
        judge.time_ms.div_ceil(1000).max(1).to_string(),
    );
    line("memory_limit", judge.memory_mib.to_string());
    line("output_limit", "64".to_string());
    for (key, value) in uoj_scores(judge)? {
        line(&key, value);
    }
    files.push((
        "problem.conf".to_string(),
        "UOJ's problem.conf",
        conf.into_bytes(),
    ));
    Ok(files)
}

/// The `problem.conf` lines of UOJ's scoring: `point_score_N` a test when every group is
/// scored test by test without dependencies, else `n_subtasks` with each subtask's end,
/// score, type (`packed`) and dependencies (`subtask_dependence_N`, or `many` and
/// `subtask_dependence_N_P`: a dependency on a group scored test by test is one on each of
/// its tests' subtasks).
fn uoj_scores(judge: &Judge) -> anyhow::Result<Vec<(String, String)>> {
    let scored = scored(judge);
    let total: u32 = scored.iter().map(|(g, _)| g.score).sum();
    if total != 100 {
        anyhow::bail!(
            "UOJ gives 100 points to a submission that passes every test, whatever the scores \
             say; the subtasks' scores add up to {total}"
        );
    }
    let mut lines = Vec::new();
    if scored
        .iter()
        .all(|(g, _)| g.each_test && g.dependencies.is_empty())
    {
        let shares = scored
            .iter()
            .flat_map(|(g, tests)| (0..tests.len()).map(|k| share(g.score, tests.len(), k)));
        for (i, points) in shares.enumerate() {
            lines.push((format!("point_score_{}", i + 1), points.to_string()));
        }
        return Ok(lines);
    }
    // Each group's subtasks, by its index in `judge.groups`: their numbers from 1.
    let mut subtasks_of: Vec<Vec<usize>> = vec![Vec::new(); judge.groups.len()];
    let (mut subtask, mut end) = (0, 0);
    let mut rows = Vec::new();
    for (index, group) in judge.groups.iter().enumerate() {
        let tests = judge
            .tests
            .iter()
            .filter(|t| t.group == Some(index))
            .count();
        if tests == 0 {
            continue;
        }
        let mut dependencies: Vec<usize> = Vec::new();
        for d in &group.dependencies {
            if *d >= index {
                anyhow::bail!(
                    "UOJ judges subtasks in order, and subtask {} depends on {}, which comes \
                     after it",
                    group.name,
                    judge.groups[*d].name
                );
            }
            dependencies.extend(&subtasks_of[*d]);
        }
        let parts: Vec<(usize, u32)> = match group.each_test {
            true => (0..tests)
                .map(|k| (1, share(group.score, tests, k)))
                .collect(),
            false => vec![(tests, group.score)],
        };
        for (count, score) in parts {
            subtask += 1;
            end += count;
            subtasks_of[index].push(subtask);
            rows.push((subtask, end, score, dependencies.clone()));
        }
    }
    lines.push(("n_subtasks".to_string(), subtask.to_string()));
    for (t, end, score, dependencies) in rows {
        lines.push((format!("subtask_end_{t}"), end.to_string()));
        lines.push((format!("subtask_score_{t}"), score.to_string()));
        lines.push((format!("subtask_type_{t}"), "packed".to_string()));
        match dependencies.as_slice() {
            [] => {}
            [one] => lines.push((format!("subtask_dependence_{t}"), one.to_string())),
            many => {
                lines.push((format!("subtask_dependence_{t}"), "many".to_string()));
                for (p, d) in many.iter().enumerate() {
                    lines.push((format!("subtask_dependence_{t}_{}", p + 1), d.to_string()));
                }
            }
        }
    }
    Ok(lines)
}
