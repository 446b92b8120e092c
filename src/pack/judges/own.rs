//! A problem of one's own as the other judges' layouts see it (`hydro`, `uoj`, `lemon`,
//! `luogu`, `cms`): its tests numbered group by group, and what a judge needs of it
//! ([`judges::Judge`]: the tests by group, the groups with their scores, policies and
//! dependencies, the limits, how outputs are judged).

use crate::own::{Helper, Judging};
use crate::pack::own::file::OwnPackOptions;
use crate::pack::own::plan::{Group, OwnPlan};
use crate::pack::{Layout, judges};

/// The stems of another judge's layout: the samples numbered apart, the other tests group by
/// group (a UOJ or CMS subtask is a run of consecutive tests).
pub fn stems(plan: &OwnPlan, problem: &str, layout: Layout) -> Vec<String> {
    let mut stems = vec![String::new(); plan.lines.len()];
    let (mut samples, mut tests) = (0, 0);
    for (index, group) in plan.groups.iter().enumerate() {
        for (at, line) in plan.lines.iter().enumerate() {
            if line.group != index {
                continue;
            }
            stems[at] = if group.is_sample() {
                samples += 1;
                layout.judges_stem(problem, samples, true)
            } else {
                tests += 1;
                layout.judges_stem(problem, tests, false)
            };
        }
    }
    stems
}

/// What another judge needs of the problem, for its layout's files: the tests by group, the
/// groups with their scores (a plan without scores is one subtask of 100 points, scored test
/// by test), the limits and how outputs are judged.
pub fn view(opts: &OwnPackOptions, stems: &[String]) -> anyhow::Result<judges::Judge> {
    let problem = opts.problem;
    let (groups, index_of) = groups(&opts.plan);
    let tests = opts
        .plan
        .lines
        .iter()
        .zip(stems)
        .map(|(line, stem)| {
            let (input, answer) = judges::test_paths(opts.layout, stem);
            judges::Test {
                input,
                answer,
                group: index_of[line.group],
            }
        })
        .collect();
    let decided = match &problem.judging {
        Judging::Compare(rule) => judges::Decided::Compare(*rule),
        Judging::Checker(helper, _) => {
            let (ext, source) = source_of(helper)?;
            judges::Decided::Checker { ext, source }
        }
        Judging::Interactor(helper) => {
            let (ext, source) = source_of(helper)?;
            judges::Decided::Interactor { ext, source }
        }
    };
    Ok(judges::Judge {
        name: problem.name.clone(),
        time_ms: problem.limits.cpu.as_millis() as u64,
        memory_mib: problem.limits.memory_bytes >> 20,
        tests,
        groups,
        decided,
    })
}

/// The subtasks of the plan, and each plan group's subtask (`None` for the samples). A group
/// without a score beside groups with one is a subtask of 0 points: its tests are numbered
/// among the others, so a judge must know them as tests (UOJ would look for them among its
/// extra tests). Without any score, every group but the samples is one subtask of 100 points
/// shared by its tests.
fn groups(plan: &OwnPlan) -> (Vec<judges::Group>, Vec<Option<usize>>) {
    let scored = plan.groups.iter().any(|g| g.score.is_some());
    let mut groups: Vec<judges::Group> = Vec::new();
    let mut index_of = vec![None; plan.groups.len()];
    for (index, group) in plan.groups.iter().enumerate() {
        if group.is_sample() {
            continue;
        }
        index_of[index] = Some(groups.len());
        groups.push(judges::Group {
            name: group.name.clone(),
            score: group.score.unwrap_or(0),
            each_test: group.each_test,
            dependencies: Vec::new(),
            on_samples: on_samples(plan, group),
        });
    }
    if !scored {
        let one = judges::Group {
            name: "tests".to_string(),
            score: 100,
            each_test: true,
            dependencies: Vec::new(),
            on_samples: plan.groups.iter().any(|g| on_samples(plan, g)),
        };
        index_of.iter_mut().flatten().for_each(|slot| *slot = 0);
        return (vec![one], index_of);
    }
    for (index, group) in plan.groups.iter().enumerate() {
        let Some(at) = index_of[index] else { continue };
        groups[at].dependencies = group
            .dependencies
            .iter()
            .filter_map(|d| plan.groups.iter().position(|g| g.name == *d))
            .filter_map(|d| index_of[d])
            .collect();
    }
    (groups, index_of)
}

/// Whether `group` depends on the plan's samples.
fn on_samples(plan: &OwnPlan, group: &Group) -> bool {
    group
        .dependencies
        .iter()
        .any(|d| plan.groups.iter().any(|g| g.name == *d && g.is_sample()))
}

/// A checker's or an interactor's source: its extension and content.
fn source_of(helper: &Helper) -> anyhow::Result<(String, Vec<u8>)> {
    let source = helper.source().ok_or_else(|| {
        anyhow::anyhow!(
            "{} is not a source file: another judge's pack holds its source",
            helper.who()
        )
    })?;
    let ext = source
        .path
        .extension()
        .map(|e| e.to_string_lossy().into_owned())
        .unwrap_or_default();
    Ok((ext, crate::fsutil::read_file_capped(&source.path)?))
}
