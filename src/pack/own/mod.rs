//! The pack of a problem of one's own: its plan's tests made by the setter's generators (or
//! copied from hand-made files), every input checked by the validator before anything is
//! written, answered by the reference, and written in the plain, NOI or ICPC layout with a
//! manifest that says how to make every file again. Lines whose input does not change with
//! the seed, and lines that write the same input as another, are warned about.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

pub mod file;
pub mod icpc;
pub mod judges;
pub mod plan;
pub mod polygon;

use super::icpc::IcpcVersion;
use super::manifest::Manifest;
use super::section::Writing;
use super::survey::Survey;
use super::{Layout, PackReport, PackedFile, layout_name};
use crate::own::{Judging, Overview, Validity};
pub use file::{OwnFile, OwnPackOptions};
use plan::{LineSource, OwnLine, OwnPlan};

/// What the pack did.
#[derive(Debug, Default)]
pub struct OwnPackReport {
    pub report: PackReport,
    /// `plan:LINE: ...` warnings: a line whose input does not change with the seed, two
    /// lines writing the same input.
    pub warnings: Vec<String>,
    /// With a testlib validator: the bounds the tests reached.
    pub overview: Option<Overview>,
    pub tests: usize,
}

/// One test as made, before anything is written.
pub struct Made {
    pub input: Vec<u8>,
    pub answer: Vec<u8>,
    /// Where the answer comes from, for the manifest: `None` for the reference.
    pub answer_file: Option<PathBuf>,
    /// The generator printed the same input for the next seed.
    pub seed_independent: bool,
    /// A hand-made answer that is not what the reference prints (compared answers only).
    pub answer_differs: bool,
    pub overview: Option<Overview>,
}

/// The paths of every test, by plan line, as the layout names them (without extension).
pub fn test_stems(plan: &OwnPlan, problem: &str, layout: Layout) -> anyhow::Result<Vec<String>> {
    if layout == Layout::Icpc {
        check_icpc_groups(plan)?;
    }
    if layout == Layout::Polygon {
        return Ok(polygon::stems(plan));
    }
    if layout.is_judges() {
        return Ok(judges::stems(plan, problem, layout));
    }
    let mut counters: HashMap<usize, usize> = HashMap::new();
    let mut numbered = 0;
    let mut stems = Vec::new();
    for line in &plan.lines {
        let group = &plan.groups[line.group];
        let k = counters.entry(line.group).or_default();
        *k += 1;
        if !group.is_sample() {
            numbered += 1;
        }
        let in_group = plan.tests_of(line.group).count();
        let width = in_group.to_string().len().max(2);
        stems.push(match (layout, group.is_sample()) {
            (Layout::Plain, true) => format!("sample/{k}"),
            (Layout::Plain, false) => numbered.to_string(),
            (Layout::Noi, true) => format!("down/{problem}{k}"),
            (Layout::Noi, false) => format!("{problem}{numbered}"),
            (Layout::Icpc, true) => format!("data/sample/{k:0width$}"),
            (Layout::Icpc, false) if group.is_own() => {
                format!("data/secret/{}/{k:0width$}", group.name)
            }
            (Layout::Icpc, false) => format!("data/secret/{k:0width$}"),
            _ => unreachable!("numbered above"),
        });
    }
    Ok(stems)
}

/// The ICPC format has test groups or tests in `data/secret/`, never both.
fn check_icpc_groups(plan: &OwnPlan) -> anyhow::Result<()> {
    let own = plan.groups.iter().find(|g| g.is_own());
    let secret = plan
        .groups
        .iter()
        .position(|g| g.name == "secret")
        .and_then(|i| plan.tests_of(i).next());
    if let (Some(group), Some(test)) = (own, secret) {
        bail!(
            "{}:{}: this test is in secret beside the group {} (line {}); the ICPC format has \
             test groups or tests in data/secret, never both: put it in a group",
            plan.name,
            test.line,
            group.name,
            group.line
        );
    }
    Ok(())
}

/// Makes every test of the plan on `jobs` workers: generated (or read), validated, answered.
/// Every invalid input is reported together, naming its line, and nothing is returned.
pub fn make_tests(opts: &OwnPackOptions) -> anyhow::Result<Vec<Made>> {
    let lines = &opts.plan.lines;
    let mut made: Vec<Option<anyhow::Result<Made>>> = (0..lines.len()).map(|_| None).collect();
    crate::pool::run_indexed(
        opts.jobs,
        lines.len() as u64,
        |i| (!crate::run::cancelled()).then(|| make_test(opts, &lines[i as usize])),
        |_| true,
        |i, result| made[i as usize] = Some(result),
        || {},
    );
    if made.iter().any(Option::is_none) {
        bail!("interrupted before every test was made; nothing was written");
    }
    let mut tests = Vec::new();
    let mut errors = Vec::new();
    for (line, result) in lines.iter().zip(made.into_iter().flatten()) {
        match result {
            Ok(test) => tests.push(test),
            Err(err) => errors.push(format!("{}:{}: {err:#}", opts.plan.name, line.line)),
        }
    }
    if !errors.is_empty() {
        bail!(
            "{} of the plan failed, so nothing was written:\n{}",
            crate::text::plural(errors.len() as u64, "line"),
            errors.join("\n")
        );
    }
    Ok(tests)
}

/// One test: its input, checked by the validator, and its answer.
fn make_test(opts: &OwnPackOptions, line: &OwnLine) -> anyhow::Result<Made> {
    let problem = opts.problem;
    let runner = opts.runner;
    let (input, seed_independent, answer_file) = match &line.source {
        LineSource::Gen {
            generator,
            args,
            seed,
        } => {
            let seed = seed.map(|seed| super::effective_seed(seed, opts.seed));
            let input = problem.generate(runner, generator.as_deref(), args, seed)?;
            // A line without a seed (a Polygon package's cmd) is meant to be one input.
            let same = match seed {
                Some(seed) => {
                    let next = problem.generate(
                        runner,
                        generator.as_deref(),
                        args,
                        Some(seed.wrapping_add(1)),
                    )?;
                    next == input
                }
                None => false,
            };
            (input, same, None)
        }
        LineSource::Copy { path, crlf, .. } => {
            let input = plan::read_copied(path, *crlf)?;
            let answer = path.with_extension("ans");
            (input, false, answer.is_file().then_some(answer))
        }
    };
    let overview = match problem.validate(runner, &input)? {
        Some(Validity::Invalid(message)) => bail!("the input is invalid: {message}"),
        Some(Validity::Valid(overview)) => overview,
        None => None,
    };
    let mut answer_differs = false;
    let answer = match (&answer_file, &problem.judging) {
        (Some(path), judging) => {
            let answer = crate::fsutil::read_file_capped(path)?;
            if matches!(judging, Judging::Compare(_)) && problem.reference.is_some() {
                answer_differs = problem.answer(runner, &input)? != answer;
            }
            answer
        }
        (None, Judging::Interactor(_)) => Vec::new(),
        (None, _) => problem.answer(runner, &input)?,
    };
    Ok(Made {
        input,
        answer,
        answer_file,
        seed_independent,
        answer_differs,
        overview,
    })
}

/// The warnings about the tests as made: a `gen` line whose input is the same for the next
/// seed, and a line whose input another line wrote before.
pub fn warnings(plan: &OwnPlan, made: &[Made], pack_seed: u64) -> Vec<String> {
    let mut warnings = Vec::new();
    let mut first_of: HashMap<&[u8], usize> = HashMap::new();
    for (line, test) in plan.lines.iter().zip(made) {
        if test.seed_independent
            && let Some(seed) = line.seed(pack_seed)
        {
            warnings.push(format!(
                "{}:{}: the generator prints the same input for seed {seed} and seed {}: the \
                 line's input does not depend on its seed",
                plan.name,
                line.line,
                seed.wrapping_add(1)
            ));
        }
        if test.answer_differs
            && let Some(path) = &test.answer_file
        {
            warnings.push(format!(
                "{}:{}: the hand-made answer {} is not exactly what the reference prints (the \
                 ICPC package's answer validator accepts only that)",
                plan.name,
                line.line,
                path.display()
            ));
        }
        match first_of.get(test.input.as_slice()) {
            Some(&first) => warnings.push(format!(
                "{}:{}: the same input as line {first}: the test is there twice",
                plan.name, line.line
            )),
            None => {
                first_of.insert(&test.input, line.line);
            }
        }
    }
    warnings
}

/// The test files of the pack: each test's `.in` and `.ans`, with their manifest rows.
pub fn test_files(opts: &OwnPackOptions, stems: &[String], made: &[Made]) -> Vec<OwnFile> {
    let name = &opts.problem.name;
    let mut files = Vec::new();
    for ((line, stem), test) in opts.plan.lines.iter().zip(stems).zip(made) {
        let command = line.command(name, opts.seed);
        let answer_command = match (&test.answer_file, &opts.problem.judging) {
            (Some(path), _) => format!(
                "cat {}",
                crate::text::shell_quote(&path.display().to_string())
            ),
            (None, Judging::Interactor(_)) => "printf ''".to_string(),
            (None, _) => format!("{command} | duipai solve {name}"),
        };
        let (input, answer) = super::judges::test_paths(opts.layout, stem);
        for (path, content, command) in [
            (input, &test.input, &command),
            (answer, &test.answer, &answer_command),
        ] {
            files.push(OwnFile {
                row: format!("{path}\t{}\t{}\t{command}", line.line, line.text),
                path,
                line: Some(line.line),
                content: content.clone(),
                executable: false,
            });
        }
    }
    files
}

/// The inputs of the setter's folder of invalid ones, each checked to be rejected by the
/// validator: (file name without `.in`, content).
pub fn invalid_inputs(opts: &OwnPackOptions) -> anyhow::Result<Vec<(String, PathBuf)>> {
    let Some(dir) = &opts.invalid else {
        return Ok(Vec::new());
    };
    if opts.problem.validator.is_none() {
        bail!("--invalid needs a validator to reject its inputs");
    }
    let paths = crate::own::inputs_below(dir)?;
    if paths.is_empty() {
        bail!("{} holds no *.in file of an invalid input", dir.display());
    }
    let mut accepted = Vec::new();
    let mut found = Vec::new();
    for path in paths {
        let input = crate::fsutil::read_file_capped(&path)?;
        if let Some(Validity::Valid(_)) = opts.problem.validate(opts.runner, &input)? {
            accepted.push(path.display().to_string());
        }
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        found.push((stem, path));
    }
    if !accepted.is_empty() {
        bail!(
            "the validator accepts {} of the invalid inputs: {}; an invalid input must be \
             rejected",
            accepted.len(),
            accepted.join(", ")
        );
    }
    Ok(found)
}

/// Writes the pack of a problem of one's own. Nothing is written until every test is made
/// and valid; the manifest's section is marked incomplete until every file is written.
pub fn write_own_pack(
    opts: &OwnPackOptions,
    on_progress: &mut dyn FnMut(&str),
) -> anyhow::Result<OwnPackReport> {
    let out = &opts.out;
    super::check_out_dir(out)?;
    let shape = Shape::of(opts)?;
    let manifest = Manifest::read(out)?.unwrap_or_default();
    // What will be written is known before any test is made, so that a refusal comes first.
    let survey = shape.survey(opts, &manifest)?;
    survey.refusal(out, opts.force, opts.overwrite_edited)?;

    on_progress("making the tests");
    let made = make_tests(opts)?;
    let warnings = warnings(&opts.plan, &made, opts.seed);
    let files = shape.files(opts, &made);

    on_progress("writing");
    std::fs::create_dir_all(out)
        .with_context(|| format!("creating the directory {}", out.display()))?;
    let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
    let rows = files.iter().map(|f| f.row.clone()).collect();
    let layout = (opts.problem.name.as_str(), opts.layout);
    let writing = Writing::begin(out, manifest, layout, section_header(opts), (rows, &paths))?;
    let hashes = write_files(out, &files)?;
    let setter = match &shape.package {
        Some(package) => Some(package.write_setter_files(opts)?),
        None => None,
    };
    writing.remove_previous(&survey.removed)?;
    let rows = files
        .iter()
        .map(|f| super::with_hash(&f.row, hashes.get(&f.path)))
        .collect();
    writing.finish(rows)?;
    let (yaml, yaml_kept, setter_created) = match setter {
        Some(written) => (Some(written.yaml), written.yaml_kept, written.created),
        None => (None, Vec::new(), Vec::new()),
    };
    Ok(OwnPackReport {
        report: PackReport {
            files: files
                .into_iter()
                .map(|f| PackedFile {
                    path: f.path,
                    line: f.line,
                })
                .collect(),
            yaml,
            yaml_kept,
            icpc_version: (opts.layout == Layout::Icpc).then_some(shape.version),
            setter_created,
            ..survey.into_report()
        },
        warnings,
        overview: merged_overview(opts, &made),
        tests: opts.plan.lines.len(),
    })
}

/// What a pack of one's own is made of, known before any test is made.
struct Shape {
    version: IcpcVersion,
    /// Each plan line's test, without its extension.
    stems: Vec<String>,
    /// The ICPC package around the tests, for that layout.
    package: Option<icpc::Package>,
    /// `problem.xml` and the programs of the Polygon layout; the configuration and checker of
    /// another judge's.
    polygon: Vec<OwnFile>,
}

impl Shape {
    fn of(opts: &OwnPackOptions) -> anyhow::Result<Shape> {
        let version = match opts.layout {
            Layout::Icpc => icpc::version(opts)?,
            _ => IcpcVersion::V2025_09,
        };
        let stems = test_stems(&opts.plan, &opts.problem.name, opts.layout)?;
        // Checked in every layout: each must be rejected, though only a package holds them.
        let invalid = invalid_inputs(opts)?;
        let package = match opts.layout {
            Layout::Icpc => Some(icpc::Package::plan(opts, version, &stems, &invalid)?),
            _ => None,
        };
        let polygon = match opts.layout {
            Layout::Polygon => polygon::files(opts)?,
            layout if layout.is_judges() => {
                let judge = judges::view(opts, &stems)?;
                super::judges::files(layout, &judge)?
                    .into_iter()
                    .map(|(path, what, content)| OwnFile::bytes(path, what, content))
                    .collect()
            }
            _ => Vec::new(),
        };
        Ok(Shape {
            version,
            stems,
            package,
            polygon,
        })
    }

    /// What the folder holds against what this pack will write.
    fn survey(&self, opts: &OwnPackOptions, manifest: &Manifest) -> anyhow::Result<Survey> {
        let mut paths: Vec<String> = self
            .stems
            .iter()
            .flat_map(|s| {
                let (input, answer) = super::judges::test_paths(opts.layout, s);
                [input, answer]
            })
            .collect();
        let mut setter = Vec::new();
        if let Some(package) = &self.package {
            paths.extend(package.paths());
            setter = package.setter_paths();
        }
        paths.extend(self.polygon.iter().map(|f| f.path.clone()));
        let names: Vec<&str> = paths.iter().map(String::as_str).collect();
        let problem = &opts.problem.name;
        Survey::of(&opts.out, manifest, problem, opts.layout, &names, &setter)
    }

    /// Every file of the pack, the tests first.
    fn files(&self, opts: &OwnPackOptions, made: &[Made]) -> Vec<OwnFile> {
        let mut files = test_files(opts, &self.stems, made);
        if let Some(package) = &self.package {
            files.extend(package.files());
        }
        files.extend(self.polygon.iter().cloned());
        if matches!(opts.layout, Layout::Plain | Layout::Noi)
            && let Some(table) = subtasks(opts, &self.stems)
        {
            files.push(table);
        }
        files
    }
}

/// Writes the files in order; returns the hash of each.
fn write_files(out: &Path, files: &[OwnFile]) -> anyhow::Result<super::Hashes> {
    let mut hashes = super::Hashes::new();
    for file in files {
        super::write_hashed(out, &file.path, &file.content, &mut hashes)?;
        if file.executable {
            make_executable(&out.join(&file.path))?;
        }
    }
    Ok(hashes)
}

/// What the testlib validator saw of the bounds over every test, when it is a testlib one.
fn merged_overview(opts: &OwnPackOptions, made: &[Made]) -> Option<Overview> {
    if !opts.problem.testlib_validator() {
        return None;
    }
    let mut merged = Overview::default();
    made.iter()
        .filter_map(|m| m.overview.as_ref())
        .for_each(|o| merged.merge(o));
    Some(merged)
}

/// `subtasks.txt` of the plain and NOI layouts, when the plan's groups have scores: a line
/// per subtask with its score and its tests.
fn subtasks(opts: &OwnPackOptions, stems: &[String]) -> Option<OwnFile> {
    let plan = &opts.plan;
    if plan.groups.iter().all(|g| g.score.is_none()) {
        return None;
    }
    let mut text = String::from("# subtask\tscore\ttests\n");
    for (index, group) in plan.groups.iter().enumerate() {
        let Some(score) = group.score else { continue };
        let tests: Vec<String> = plan
            .lines
            .iter()
            .zip(stems)
            .filter(|(l, _)| l.group == index)
            .map(|(_, s)| format!("{s}.in"))
            .collect();
        text.push_str(&format!("{}\t{score}\t{}\n", group.name, tests.join(" ")));
    }
    Some(OwnFile::text("subtasks.txt", "subtask scores", text))
}

/// The manifest section header of this pack.
fn section_header(opts: &OwnPackOptions) -> String {
    format!(
        "# duipai pack {} --layout {} --seed {} (plan {}, {} tests)",
        opts.problem.name,
        layout_name(opts.layout),
        opts.seed,
        opts.plan.name,
        opts.plan.lines.len()
    )
}

/// Makes a written program runnable by its owner and everyone (a package is shared).
fn make_executable(path: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
        .with_context(|| format!("making {} executable", path.display()))
}
