//! The pack of a problem of one's own: its plan's tests made by the setter's generators (or
//! copied from hand-made files), every input checked by the validator before anything is
//! written, answered by the reference, and written in the plain, NOI or ICPC layout with a
//! manifest that says how to make every file again. Hand-made tests the setter put in the
//! folder are checked as well ([`found`]); a test whose makers did not change is read back
//! from the previous pack rather than made again ([`make`]). Lines whose input does not
//! change with the seed, and lines that write the same input as another, are warned about;
//! an invalid input or a wrong hand-made answer stops the pack ([`review`]).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

pub mod file;
pub mod found;
mod make;
pub mod plan;
mod review;

use super::icpc::IcpcVersion;
use super::icpc::own as icpc;
use super::judges::own as judges;
use super::manifest::Manifest;
use super::polygon::own as polygon;
use super::section::Writing;
use super::survey::Survey;
use super::{Layout, PackReport, PackedFile, layout_name};
use crate::own::facts::Facts;
use crate::own::{Judging, Overview, Validity};
pub use file::{OwnFile, OwnPackOptions};
use found::Found;
pub use make::{AnswerCheck, Made, validity_kept};
use make::{Maker, Previous, Source};
use plan::{LineSource, OwnPlan};

/// What the pack did.
#[derive(Debug, Default)]
pub struct OwnPackReport {
    pub report: PackReport,
    /// `plan:LINE: ...` warnings: a line whose input does not change with the seed, two
    /// lines writing the same input, a hand-made test kept though the checks reject it.
    pub warnings: Vec<String>,
    /// With a testlib validator: the bounds the tests reached.
    pub overview: Option<Overview>,
    pub tests: usize,
    /// Tests read back from the previous pack: nothing that makes them changed.
    pub reused: usize,
    /// Hand-made tests found in the folder and checked (`data/secret/98-hand.in`), and
    /// invalid inputs found in `data/invalid_input/`.
    pub found: Vec<String>,
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

/// Makes every test of `sources` on `jobs` workers, each through `maker`; `None` for a test
/// not made before an interruption.
fn make_all(maker: &Maker, sources: &[Source], jobs: usize) -> Vec<Option<anyhow::Result<Made>>> {
    let mut made: Vec<Option<anyhow::Result<Made>>> = sources.iter().map(|_| None).collect();
    crate::pool::run_indexed(
        jobs,
        sources.len() as u64,
        |i| (!crate::run::cancelled()).then(|| maker.make(&sources[i as usize])),
        |_| true,
        |i, result| made[i as usize] = Some(result),
        || {},
    );
    made
}

/// How each plan line's input is made.
fn plan_sources<'a>(plan: &'a OwnPlan, pack_seed: u64) -> Vec<Source<'a>> {
    plan.lines
        .iter()
        .map(|line| match &line.source {
            LineSource::Gen {
                generator,
                args,
                seed,
            } => Source::Gen {
                generator: generator.as_deref(),
                args,
                seed: seed.map(|seed| super::effective_seed(seed, pack_seed)),
                shipped: line.shipped_answer.as_deref(),
            },
            LineSource::Copy { path, crlf, .. } => {
                let beside = path.with_extension("ans");
                let answer = match &line.shipped_answer {
                    Some(shipped) => Some(shipped.clone()),
                    None => beside.is_file().then_some(beside),
                };
                Source::Hand {
                    input: path,
                    answer,
                    crlf: *crlf,
                    shipped: line.shipped_answer.is_some(),
                }
            }
        })
        .collect()
}

/// The plan's tests and the hand-made ones found in the folder, made (or read back), every
/// one checked: an invalid input, or a hand-made answer the reference's does not accept,
/// stops the pack with all of them named (a hand-made test is kept with a warning instead
/// under `--keep-rejected-tests`). Returns the plan's tests, the found ones, and the
/// warnings.
fn make_tests(
    opts: &OwnPackOptions,
    maker: &Maker,
    found: &Found,
) -> anyhow::Result<(Vec<Made>, Vec<Made>, Vec<String>)> {
    let mut sources = plan_sources(&opts.plan, opts.seed);
    sources.extend(found.tests.iter().map(|test| Source::Hand {
        input: &test.input,
        answer: test.answer.clone(),
        crlf: false,
        shipped: false,
    }));
    let results = make_all(maker, &sources, opts.jobs);
    if results.iter().any(Option::is_none) {
        bail!("interrupted before every test was made; nothing was written");
    }
    let mut review = review::Review::new(opts);
    let mut made = Vec::new();
    for (index, result) in results.into_iter().flatten().enumerate() {
        let name = match opts.plan.lines.get(index) {
            Some(line) => review::Name::Line(line),
            None => review::Name::Found(&found.tests[index - opts.plan.lines.len()]),
        };
        if let Some(test) = review.test(name, result) {
            made.push(test);
        }
    }
    review.invalid_inputs(maker, &found.invalid);
    let found_made = made.split_off(opts.plan.lines.len().min(made.len()));
    let warnings = review.finish(&made)?;
    Ok((made, found_made, warnings))
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

/// The answers the pack writes for hand-made tests found without one (none beside an
/// interactor, which needs none).
fn found_answers(opts: &OwnPackOptions, found: &Found, made: &[Made]) -> Vec<OwnFile> {
    if matches!(opts.problem.judging, Judging::Interactor(_)) {
        return Vec::new();
    }
    let name = &opts.problem.name;
    found
        .tests
        .iter()
        .zip(made)
        .filter(|(test, made)| test.answer.is_none() && made.invalid.is_none())
        .map(|(test, made)| {
            let input = opts.out.join(format!("{}.in", test.stem));
            let command = format!(
                "duipai solve {name} {}",
                crate::text::shell_quote(&input.display().to_string())
            );
            let path = format!("{}.ans", test.stem);
            OwnFile {
                row: format!("{path}\t-\thand-made test\t{command}"),
                path,
                line: None,
                content: made.answer.clone(),
                executable: false,
            }
        })
        .collect()
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

/// Writes the pack of a problem of one's own, holding the folder's lock. Nothing is written
/// until every test is made and checked; the manifest's section is marked incomplete until
/// every file is written.
pub fn write_own_pack(
    opts: &OwnPackOptions,
    on_progress: &mut dyn FnMut(&str),
) -> anyhow::Result<OwnPackReport> {
    let out = &opts.out;
    super::check_out_dir(out)?;
    let created = !out.exists();
    std::fs::create_dir_all(out)
        .with_context(|| format!("creating the directory {}", out.display()))?;
    let result = super::lock(out).and_then(|_lock| write_own_pack_locked(opts, on_progress));
    if created && result.is_err() {
        // Refused before anything was written: the folder it made goes too (if empty).
        let _ = std::fs::remove_dir(out);
    }
    result
}

/// [`write_own_pack`] into an existing folder whose lock the caller holds.
pub fn write_own_pack_locked(
    opts: &OwnPackOptions,
    on_progress: &mut dyn FnMut(&str),
) -> anyhow::Result<OwnPackReport> {
    let out = &opts.out;
    crate::fsutil::remove_stale_temporaries(out, 4);
    let manifest = Manifest::read(out)?.unwrap_or_default();
    let shape = Shape::of(opts, &manifest)?;
    // What will be written is known before any test is made, so that a refusal comes first.
    let survey = shape.survey(opts, &manifest)?;
    survey.refusal(out, opts.force, opts.overwrite_edited)?;

    on_progress("making the tests");
    let section = manifest.section(&opts.problem.name, layout_name(opts.layout));
    let maker = Maker {
        opts,
        facts: if opts.reuse {
            Facts::open()
        } else {
            Facts::none()
        },
        previous: match opts.reuse {
            true => Previous::of(out, section),
            false => Previous::default(),
        },
    };
    let (made, found_made, warnings) = make_tests(opts, &maker, &shape.found)?;
    let files = shape.files(opts, &made, &found_made);

    on_progress("writing");
    let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
    let rows = files.iter().map(|f| f.row.clone()).collect();
    let layout = (opts.problem.name.as_str(), opts.layout);
    let writing = Writing::begin(out, manifest, layout, section_header(opts), (rows, &paths))?;
    let (hashes, unchanged) = write_files(out, &files, &maker.previous)?;
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
    let all: Vec<&Made> = made.iter().chain(&found_made).collect();
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
            cautions: shape.cautions.clone(),
            unchanged,
            ..survey.into_report()
        },
        warnings,
        overview: merged_overview(opts, &all),
        tests: opts.plan.lines.len(),
        // A test from a hand-made file may need no program run, but a pack with nothing
        // before it reused nothing.
        reused: match maker.previous.is_empty() {
            true => 0,
            false => made.iter().filter(|m| m.reused).count(),
        },
        found: shape.found.names(),
    })
}

/// What a pack of one's own is made of, known before any test is made.
struct Shape {
    version: IcpcVersion,
    /// Each plan line's test, without its extension.
    stems: Vec<String>,
    /// The hand-made tests in the folder.
    found: Found,
    /// The ICPC package around the tests, for that layout.
    package: Option<icpc::Package>,
    /// `problem.xml` and the programs of the Polygon layout; the configuration and checker of
    /// another judge's.
    polygon: Vec<OwnFile>,
    /// What the layout's judge will refuse of the pack ([`super::judges::cautions`]).
    cautions: Vec<String>,
}

impl Shape {
    fn of(opts: &OwnPackOptions, manifest: &Manifest) -> anyhow::Result<Shape> {
        let version = match opts.layout {
            Layout::Icpc if !opts.tests_only => icpc::version(opts)?,
            _ => IcpcVersion::V2025_09,
        };
        let stems = test_stems(&opts.plan, &opts.problem.name, opts.layout)?;
        let found = match opts.tests_only {
            true => Found::default(),
            false => found::find(&opts.out, manifest, opts.layout, &stems)?,
        };
        // Checked in every layout: each must be rejected, though only a package holds them.
        let invalid = invalid_inputs(opts)?;
        let package = match opts.layout {
            Layout::Icpc if !opts.tests_only => Some(icpc::Package::plan(
                opts, version, &stems, &invalid, &found,
            )?),
            _ => None,
        };
        let mut cautions = Vec::new();
        let polygon = match opts.layout {
            Layout::Polygon => polygon::files(opts)?,
            layout if layout.is_judges() => {
                let judge = judges::view(opts, &stems)?;
                cautions = super::judges::cautions(layout, &judge);
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
            found,
            package,
            polygon,
            cautions,
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
        if !matches!(opts.problem.judging, Judging::Interactor(_)) {
            let unanswered = self.found.tests.iter().filter(|t| t.answer.is_none());
            paths.extend(unanswered.map(|t| format!("{}.ans", t.stem)));
        }
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
    fn files(&self, opts: &OwnPackOptions, made: &[Made], found: &[Made]) -> Vec<OwnFile> {
        let mut files = test_files(opts, &self.stems, made);
        files.extend(found_answers(opts, &self.found, found));
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

/// Writes the files in order, but those the previous pack left exactly as they would be;
/// returns the hash of each, and how many were left as they were.
fn write_files(
    out: &Path,
    files: &[OwnFile],
    previous: &Previous,
) -> anyhow::Result<(super::Hashes, usize)> {
    let mut hashes = super::Hashes::new();
    let mut unchanged = 0;
    for file in files {
        let hash = super::manifest::content_hash(&file.content);
        if previous.holds(&file.path, &hash) {
            unchanged += 1;
        } else {
            super::write_atomic(out, &file.path, &file.content)?;
        }
        if file.executable {
            make_executable(&out.join(&file.path))?;
        }
        hashes.insert(file.path.clone(), hash);
    }
    Ok((hashes, unchanged))
}

/// What the testlib validator saw of the bounds over every test, when it is a testlib one.
fn merged_overview(opts: &OwnPackOptions, made: &[&Made]) -> Option<Overview> {
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
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
            .with_context(|| format!("making {} executable", path.display()))
    }
    // Windows runs a file by its name (a script through its interpreter): no mode to set.
    #[cfg(windows)]
    {
        let _ = path;
        Ok(())
    }
}
