//! A Polygon package's testset as a plan of one's own: its samples in `sample`, each group
//! of its tests a group with its score (the group's points, or its tests' summed), its
//! policy and dependencies, the tests in no group in `secret`; a manual test is a `copy` of
//! its file, a generated one its `cmd`, run as written (no seed added). Lines are numbered
//! by the `<test>` elements' lines, so a message names the place in `problem.xml`.

use std::path::PathBuf;

use crate::pack::own::plan::{Group, LineSource, OwnLine, OwnPlan};
use crate::polygon::{Package, PointsPolicy, Stress, Tag, TestSource, plain_name};

pub mod own;
mod xml;

/// The plan of the package's testset, named `problem.xml` in messages.
pub fn plan_of(package: &Package) -> OwnPlan {
    let mut groups: Vec<Group> = Vec::new();
    let mut lines = Vec::new();
    for test in &package.tests {
        let name = match (&test.group, test.sample) {
            (_, true) => "sample".to_string(),
            (None, false) => "secret".to_string(),
            (Some(group), false) => group_name(group),
        };
        let group = match groups.iter().position(|g| g.name == name) {
            Some(at) => at,
            None => {
                groups.push(group_of(package, test.group.as_deref(), name, test.line));
                groups.len() - 1
            }
        };
        let (source, text) = match &test.source {
            TestSource::Manual(path) => (
                LineSource::Copy {
                    path: package.dir.join(path),
                    written: path.display().to_string(),
                    crlf: true,
                },
                format!("copy {}", path.display()),
            ),
            TestSource::Generated { generator, args } => {
                let text = std::iter::once(generator.as_str())
                    .chain(args.iter().map(String::as_str))
                    .collect::<Vec<_>>()
                    .join(" ");
                let source = LineSource::Gen {
                    generator: Some(generator.clone()),
                    args: args.clone(),
                    seed: None,
                };
                (source, text)
            }
        };
        lines.push(OwnLine {
            line: test.line,
            text,
            group,
            source,
            shipped_answer: test.answer.as_ref().map(|a| package.dir.join(a)),
        });
    }
    OwnPlan {
        name: crate::polygon::FILE_NAME.to_string(),
        groups,
        lines,
    }
}

/// A stress of the package as a plan of one line, its script (`gen 5 mixed`), numbered by its
/// `<stress>`'s line in `problem.xml`; the seed is added last as for a `<test>`'s `cmd`.
pub fn plan_of_stress(stress: &Stress) -> OwnPlan {
    let text = std::iter::once(stress.generator.as_str())
        .chain(stress.args.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join(" ");
    OwnPlan {
        name: crate::polygon::FILE_NAME.to_string(),
        groups: vec![Group {
            name: "secret".to_string(),
            score: None,
            line: stress.line,
            dependencies: Vec::new(),
            each_test: false,
        }],
        lines: vec![OwnLine {
            line: stress.line,
            text,
            group: 0,
            source: LineSource::Gen {
                generator: Some(stress.generator.clone()),
                args: stress.args.clone(),
                seed: None,
            },
            shipped_answer: None,
        }],
    }
}

/// The package's solutions as an ICPC package's submissions: their paths there
/// (`submissions/wrong_answer/wa.cpp`) and their sources. Tags the format has no folder for
/// (`time-limit-exceeded-or-accepted`, `failed`) are left out.
pub fn icpc_submissions(package: &Package) -> Vec<(String, PathBuf)> {
    let mut found = Vec::new();
    for solution in &package.solutions {
        let folder = match solution.tag {
            Tag::Main | Tag::Accepted => "accepted",
            Tag::WrongAnswer | Tag::PresentationError => "wrong_answer",
            Tag::TimeLimitExceeded => "time_limit_exceeded",
            Tag::MemoryLimitExceeded => "run_time_error",
            Tag::Rejected | Tag::TimeLimitExceededOrMemoryLimitExceeded => "rejected",
            Tag::TimeLimitExceededOrAccepted | Tag::Failed => continue,
        };
        let file = solution
            .path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy();
        found.push((
            format!("submissions/{folder}/{file}"),
            package.dir.join(&solution.path),
        ));
    }
    found
}

/// A Polygon group's name as a folder's: `Subtask 1` is `subtask-1`.
fn group_name(polygon: &str) -> String {
    match plain_name(polygon).as_str() {
        "sample" | "secret" => format!("group-{}", plain_name(polygon)),
        name => name.to_string(),
    }
}

/// The plan's group for a test of Polygon group `polygon` (`None` outside any), named `name`.
fn group_of(package: &Package, polygon: Option<&str>, name: String, line: usize) -> Group {
    let found = polygon.and_then(|g| package.group(g));
    let score = match (name.as_str(), found) {
        ("sample" | "secret", _) | (_, None) => None,
        (_, Some(group)) => package
            .score_of(group)
            .filter(|s| *s > 0.0)
            .map(|s| s.round() as u32),
    };
    let dependencies = found
        .map(|g| {
            g.dependencies
                .iter()
                .map(|d| dependency_name(package, d))
                .collect()
        })
        .unwrap_or_default();
    Group {
        name,
        score,
        line,
        dependencies,
        each_test: found.is_some_and(|g| g.policy == PointsPolicy::EachTest),
    }
}

/// The plan's name for a group another depends on: `sample` when it holds samples only.
fn dependency_name(package: &Package, polygon: &str) -> String {
    let mut tests = package
        .tests
        .iter()
        .filter(|t| t.group.as_deref() == Some(polygon));
    if tests.all(|t| t.sample) {
        "sample".to_string()
    } else {
        group_name(polygon)
    }
}

/// `problem.xml` of a built-in game's Polygon package: its limits, every test a manual one
/// (`tests/01.in`, `tests/01.ans`), testlib's standard checker for its answers, and the
/// package's reference solution as the main one (`solutions/NAME.cpp`).
pub fn game_problem_xml(problem: &dyn crate::problem::Problem, count: usize) -> String {
    let name = problem.name();
    let (time_ms, memory_mib) = problem.default_limits();
    xml::write(&xml::Problem {
        name,
        title: problem.package().title,
        time_ms: u128::from(time_ms),
        memory_bytes: memory_mib << 20,
        tests: vec![xml::Test::default(); count],
        groups: Vec::new(),
        files: None,
        judged: xml::Judged::Standard(crate::pack::judges::standard_for(problem.rule())),
        validator: None,
        solutions: vec![(format!("solutions/{name}.cpp"), "main")],
    })
}
