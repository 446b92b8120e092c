//! A problem of one's own written as a Polygon package (`--layout polygon`): `problem.xml`
//! with its testset (each test's input in `tests/NN.in`, its answer in `tests/NN.ans`; a
//! `gen` line as the `cmd` that prints it, the seed written as its last argument; groups
//! with their points, policy and dependencies; samples), the generators, validator, checker
//! or interactor in `files/` with the headers they include (`testlib.h`), and the reference
//! and the folder's submissions in `solutions/` with the tags their folders mean. duipai
//! reads it back as a problem folder.

use std::path::Path;

use crate::own::{Helper, Judging};
use crate::pack::own::file::{OwnFile, OwnPackOptions};
use crate::pack::own::plan::{LineSource, OwnPlan};
use crate::polygon::Standard;

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
    let mut xml = Xml::default();
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
    xml.head(opts);
    xml.testset(opts);
    xml.files(&files, &executables);
    xml.assets(&judged, validator.as_deref(), &solutions);
    files.push(OwnFile::text("problem.xml", "the Polygon package", xml.0));
    Ok(files)
}

/// How outputs are judged, as `problem.xml` says it.
enum Judged {
    Checker(String),
    Interactor(String),
    Standard(Standard),
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

/// `problem.xml` as it is written, element by element.
#[derive(Default)]
struct Xml(String);

impl Xml {
    fn line(&mut self, indent: usize, text: impl AsRef<str>) {
        self.0.push_str(&" ".repeat(indent * 4));
        self.0.push_str(text.as_ref());
        self.0.push('\n');
    }

    fn head(&mut self, opts: &OwnPackOptions) {
        let name = escape(&opts.problem.name);
        self.line(
            0,
            r#"<?xml version="1.0" encoding="utf-8" standalone="no"?>"#,
        );
        self.line(0, format!(r#"<problem revision="1" short-name="{name}">"#));
        self.line(1, "<names>");
        self.line(2, format!(r#"<name language="english" value="{name}"/>"#));
        self.line(1, "</names>");
    }

    fn testset(&mut self, opts: &OwnPackOptions) {
        let plan = &opts.plan;
        let limits = &opts.problem.limits;
        let width = plan.lines.len().to_string().len().max(2);
        self.line(1, r#"<judging input-file="" output-file="">"#);
        self.line(2, r#"<testset name="tests">"#);
        self.line(
            3,
            format!("<time-limit>{}</time-limit>", limits.cpu.as_millis()),
        );
        self.line(
            3,
            format!("<memory-limit>{}</memory-limit>", limits.memory_bytes),
        );
        self.line(3, format!("<test-count>{}</test-count>", plan.lines.len()));
        self.line(
            3,
            format!("<input-path-pattern>tests/%0{width}d.in</input-path-pattern>"),
        );
        self.line(
            3,
            format!("<answer-path-pattern>tests/%0{width}d.ans</answer-path-pattern>"),
        );
        self.line(3, "<tests>");
        for line in &plan.lines {
            let group = &plan.groups[line.group];
            let mut attributes = String::new();
            if let LineSource::Gen {
                generator, args, ..
            } = &line.source
            {
                let mut words = vec![generator.clone().unwrap_or_else(|| "gen".to_string())];
                words.extend(args.iter().cloned());
                words.extend(line.seed(opts.seed).map(|s| s.to_string()));
                let cmd = shell_words::join(&words);
                attributes.push_str(&format!(r#" cmd="{}" method="generated""#, escape(&cmd)));
            } else {
                attributes.push_str(r#" method="manual""#);
            }
            if group.is_own() {
                attributes.push_str(&format!(r#" group="{}""#, escape(&group.name)));
                let points = test_points(plan, line.group);
                attributes.push_str(&format!(r#" points="{points:.1}""#));
            }
            if group.is_sample() {
                attributes.push_str(r#" sample="true""#);
            }
            self.line(4, format!("<test{attributes}/>"));
        }
        self.line(3, "</tests>");
        self.groups(plan);
        self.line(2, "</testset>");
        self.line(1, "</judging>");
    }

    fn groups(&mut self, plan: &OwnPlan) {
        if !plan.groups.iter().any(|g| g.is_own()) {
            return;
        }
        self.line(3, "<groups>");
        for group in plan.groups.iter().filter(|g| g.is_own()) {
            let policy = if group.each_test {
                "each-test"
            } else {
                "complete-group"
            };
            let points = group.score.unwrap_or(0);
            let open = format!(
                r#"<group feedback-policy="icpc" name="{}" points="{points}.0" points-policy="{policy}""#,
                escape(&group.name)
            );
            let dependencies: Vec<&String> = group
                .dependencies
                .iter()
                .filter(|d| plan.groups.iter().any(|g| g.is_own() && g.name == **d))
                .collect();
            if dependencies.is_empty() {
                self.line(4, format!("{open}/>"));
                continue;
            }
            self.line(4, format!("{open}>"));
            self.line(5, "<dependencies>");
            for dependency in dependencies {
                self.line(
                    6,
                    format!(r#"<dependency group="{}"/>"#, escape(dependency)),
                );
            }
            self.line(5, "</dependencies>");
            self.line(4, "</group>");
        }
        self.line(3, "</groups>");
    }

    fn files(&mut self, files: &[OwnFile], executables: &[String]) {
        self.line(1, "<files>");
        self.line(2, "<resources>");
        for file in files.iter().filter(|f| f.path.ends_with(".h")) {
            self.line(
                3,
                format!(r#"<file path="{}" type="h.g++"/>"#, escape(&file.path)),
            );
        }
        self.line(2, "</resources>");
        self.line(2, "<executables>");
        for path in executables {
            self.line(3, "<executable>");
            self.line(
                4,
                format!(r#"<source path="{}" type="{}"/>"#, escape(path), kind(path)),
            );
            self.line(3, "</executable>");
        }
        self.line(2, "</executables>");
        self.line(1, "</files>");
    }

    fn assets(&mut self, judged: &Judged, validator: Option<&str>, solutions: &[(String, &str)]) {
        self.line(1, "<assets>");
        match judged {
            Judged::Checker(path) => {
                self.line(2, r#"<checker type="testlib">"#);
                self.line(
                    3,
                    format!(r#"<source path="{}" type="{}"/>"#, escape(path), kind(path)),
                );
                self.line(2, "</checker>");
            }
            Judged::Standard(standard) => {
                let name = standard.polygon_name();
                self.line(2, format!(r#"<checker name="{name}" type="testlib"/>"#));
            }
            Judged::Interactor(path) => {
                self.line(2, r#"<checker name="std::wcmp.cpp" type="testlib"/>"#);
                self.line(2, "<interactor>");
                self.line(
                    3,
                    format!(r#"<source path="{}" type="{}"/>"#, escape(path), kind(path)),
                );
                self.line(2, "</interactor>");
            }
        }
        if let Some(path) = validator {
            self.line(2, "<validators>");
            self.line(3, "<validator>");
            self.line(
                4,
                format!(r#"<source path="{}" type="{}"/>"#, escape(path), kind(path)),
            );
            self.line(3, "</validator>");
            self.line(2, "</validators>");
        }
        self.line(2, "<solutions>");
        for (path, tag) in solutions {
            self.line(3, format!(r#"<solution tag="{tag}">"#));
            self.line(
                4,
                format!(r#"<source path="{}" type="{}"/>"#, escape(path), kind(path)),
            );
            self.line(3, "</solution>");
        }
        self.line(2, "</solutions>");
        self.line(1, "</assets>");
        self.line(0, "</problem>");
    }
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

/// Polygon's name of a source's language.
fn kind(path: &str) -> &'static str {
    match Path::new(path).extension().and_then(|e| e.to_str()) {
        Some("c") => "c.gcc",
        Some("py") => "python.3",
        Some("java") => "java11",
        Some("rs") => "rust",
        _ => "cpp.g++17",
    }
}

/// Text for an XML attribute.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
