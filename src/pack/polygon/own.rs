//! A problem of one's own written as a Polygon package (`--layout polygon`): `problem.xml`
//! with its testset (each test's input in `tests/NN.in`, its answer in `tests/NN.ans`; a
//! `gen` line as the `cmd` that prints it, the seed written as its last argument; groups
//! with their points, policy and dependencies; samples), the generators, validator, checker
//! or interactor in `files/` with the headers they include (`testlib.h`), and the reference
//! and the folder's submissions in `solutions/` with the tags their folders mean. duipai
//! reads it back as a problem folder.

use std::path::Path;

use super::xml::{self, Judged};
use crate::own::{Helper, Judging};
use crate::pack::own::file::{OwnFile, OwnPackOptions};
use crate::pack::own::plan::{LineSource, OwnPlan};

/// The test stem of each plan line: `tests/01`, numbered over the whole testset.
pub fn stems(plan: &OwnPlan) -> Vec<String> {
    let width = plan.lines.len().to_string().len().max(2);
    (1..=plan.lines.len())
        .map(|i| format!("tests/{i:0width$}"))
        .collect()
}

/// `problem.xml` and the programs' files.
pub fn files(opts: &OwnPackOptions) -> anyhow::Result<Vec<OwnFile>> {
    let mut files = Vec::new();
    let problem = opts.problem;
    let mut executables = Vec::new();
    for (name, helper) in generators(opts) {
        executables.push(program(&mut files, helper, &name)?);
    }
    let validator = match &problem.validator {
        Some(helper) => Some(program(&mut files, helper, "val")?),
        None => None,
    };
    executables.extend(validator.clone());
    let judged = match &problem.judging {
        Judging::Interactor(helper) => {
            let path = program(&mut files, helper, "interactor")?;
            executables.push(path.clone());
            Judged::Interactor(path)
        }
        Judging::Checker(helper, _) => {
            let path = program(&mut files, helper, "check")?;
            executables.push(path.clone());
            Judged::Checker(path)
        }
        Judging::Compare(rule) => Judged::Standard(crate::pack::judges::standard_for(*rule)),
    };
    let solutions = solutions(opts, &mut files)?;
    let headers = files
        .iter()
        .filter(|f| f.path.ends_with(".h"))
        .map(|f| f.path.clone())
        .collect();
    let text = xml::write(&xml::Problem {
        name: &problem.name,
        title: &problem.name,
        time_ms: problem.limits.cpu.as_millis(),
        memory_bytes: problem.limits.memory_bytes,
        tests: tests(opts),
        groups: groups(&opts.plan),
        files: Some(xml::Files {
            headers,
            executables,
        }),
        judged,
        validator,
        solutions,
    });
    files.push(OwnFile::text("problem.xml", "the Polygon package", text));
    Ok(files)
}

/// The generators the plan runs, by the names its `cmd`s call them: a named one by its name,
/// the default one `gen`.
fn generators<'a>(opts: &OwnPackOptions<'a>) -> Vec<(String, &'a Helper)> {
    let mut found: Vec<(String, &'a Helper)> = Vec::new();
    for line in &opts.plan.lines {
        let LineSource::Gen { generator, .. } = &line.source else {
            continue;
        };
        let name = generator.clone().unwrap_or_else(|| "gen".to_string());
        if found.iter().any(|(n, _)| *n == name) {
            continue;
        }
        if let Ok(helper) = opts.problem.generators.get(generator.as_deref()) {
            found.push((name, helper));
        }
    }
    found
}

/// A program's source as `files/NAME.EXT`, with the local headers it includes beside it;
/// returns its path in the package.
fn program(files: &mut Vec<OwnFile>, helper: &Helper, name: &str) -> anyhow::Result<String> {
    let Some(source) = helper.source() else {
        anyhow::bail!(
            "{} is not a source file, and a Polygon package holds sources: give a C, C++ or \
             Python file",
            helper.who()
        );
    };
    let ext = source
        .path
        .extension()
        .map(|e| e.to_string_lossy().into_owned())
        .unwrap_or_default();
    let path = format!("files/{name}.{ext}");
    files.push(OwnFile::copied(path.clone(), &helper.role, &source.path)?);
    let folder = source.path.parent().unwrap_or(Path::new(""));
    for header in source.headers() {
        let relative = header.strip_prefix(folder).unwrap_or(&header);
        let target = format!("files/{}", relative.display());
        if !files.iter().any(|f| f.path == target) {
            files.push(OwnFile::copied(target, "header", &folder.join(relative))?);
        }
    }
    Ok(path)
}

/// The reference (`main`) and the folder's submissions, each with the tag of its folder:
/// (path in the package, tag).
fn solutions(
    opts: &OwnPackOptions,
    files: &mut Vec<OwnFile>,
) -> anyhow::Result<Vec<(String, &'static str)>> {
    let mut found = Vec::new();
    let reference = opts.problem.reference.as_ref().and_then(Helper::source);
    let same = |a: &Path, b: &Path| {
        std::fs::canonicalize(a).ok().is_some()
            && std::fs::canonicalize(a).ok() == std::fs::canonicalize(b).ok()
    };
    if let Some(source) = &reference {
        let path = format!("solutions/{}", source.file_name());
        files.push(OwnFile::copied(
            path.clone(),
            "main solution",
            &source.path,
        )?);
        found.push((path, "main"));
    }
    let folder = opts.folder.join("submissions");
    if !folder.is_dir() && crate::polygon::Package::is_in(&opts.folder) {
        // A Polygon package packed again: every solution with its own tag.
        let package = crate::polygon::Package::read(&opts.folder)?;
        for solution in &package.solutions {
            let source = package.dir.join(&solution.path);
            if reference.as_ref().is_some_and(|r| same(&r.path, &source)) {
                continue;
            }
            let file = source.file_name().unwrap_or_default().to_string_lossy();
            let mut path = format!("solutions/{file}");
            if files.iter().any(|f| f.path == path) {
                path = format!("solutions/{}-{file}", solution.tag.name());
            }
            files.push(OwnFile::copied(path.clone(), "solution", &source)?);
            // One main: the reference is it, another main is an accepted one.
            let tag = match solution.tag {
                crate::polygon::Tag::Main if reference.is_some() => "accepted",
                tag => tag.name(),
            };
            found.push((path, tag));
        }
        return Ok(found);
    }
    for (verdict, tag) in [
        ("accepted", "accepted"),
        ("wrong_answer", "wrong-answer"),
        ("time_limit_exceeded", "time-limit-exceeded"),
        ("run_time_error", "rejected"),
        ("rejected", "rejected"),
        (
            "brute_force",
            "time-limit-exceeded-or-memory-limit-exceeded",
        ),
    ] {
        let Ok(entries) = std::fs::read_dir(folder.join(verdict)) else {
            continue;
        };
        let mut paths: Vec<_> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file() && crate::compile::Language::from_path(p).is_some())
            .collect();
        paths.sort();
        for source in paths {
            if reference.as_ref().is_some_and(|r| same(&r.path, &source)) {
                continue;
            }
            let file = source.file_name().unwrap_or_default().to_string_lossy();
            let mut path = format!("solutions/{file}");
            if files.iter().any(|f| f.path == path) {
                path = format!("solutions/{verdict}-{file}");
            }
            files.push(OwnFile::copied(path.clone(), "solution", &source)?);
            found.push((path, tag));
        }
    }
    Ok(found)
}

/// The plan's tests as `problem.xml`'s: a `gen` line as the command that prints it, the seed
/// written as its last argument.
fn tests(opts: &OwnPackOptions) -> Vec<xml::Test> {
    let plan = &opts.plan;
    plan.lines
        .iter()
        .map(|line| {
            let group = &plan.groups[line.group];
            let cmd = match &line.source {
                LineSource::Gen {
                    generator, args, ..
                } => {
                    let mut words = vec![generator.clone().unwrap_or_else(|| "gen".to_string())];
                    words.extend(args.iter().cloned());
                    words.extend(line.seed(opts.seed).map(|s| s.to_string()));
                    Some(shell_words::join(&words))
                }
                LineSource::Copy { .. } => None,
            };
            xml::Test {
                cmd,
                group: group
                    .is_own()
                    .then(|| (group.name.clone(), test_points(plan, line.group))),
                sample: group.is_sample(),
            }
        })
        .collect()
}

/// The setter's groups with their points, policy, and the dependencies on other groups of
/// theirs.
fn groups(plan: &OwnPlan) -> Vec<xml::Group> {
    let own = |name: &String| plan.groups.iter().any(|g| g.is_own() && g.name == *name);
    plan.groups
        .iter()
        .filter(|g| g.is_own())
        .map(|group| xml::Group {
            name: group.name.clone(),
            points: group.score.unwrap_or(0),
            each_test: group.each_test,
            dependencies: group
                .dependencies
                .iter()
                .filter(|d| own(d))
                .cloned()
                .collect(),
        })
        .collect()
}

/// A test's points: its group's score shared among its tests for the each-test policy, none
/// (the group's own points) for a complete group.
fn test_points(plan: &OwnPlan, group: usize) -> f64 {
    let g = &plan.groups[group];
    match (g.each_test, g.score) {
        (true, Some(score)) => f64::from(score) / plan.tests_of(group).count() as f64,
        _ => 0.0,
    }
}
