//! Test-pack export: a plan's inputs with their reference answers, in the plain, NOI or ICPC
//! layout, with a manifest that says how to regenerate every file.
//!
//! The manifest (`manifest.txt`) is tab-separated, one row per file, after `#` header lines:
//! `FILE  LINE  PLAN-LINE  COMMAND`. LINE and PLAN-LINE are the plan line that made the file
//! (number and text as written); COMMAND regenerates it with the effective seed:
//! `duipai gen ... --seed S` for an `.in`, the same piped into `duipai solve` for an `.ans`.
//! Statement samples (ICPC layout) have `-` as their line and `sample` as their text.
//!
//! Several packs (of different problems, or layouts) may share a directory: the manifest has
//! a section per pack ([`manifest`]), and `--force` removes only files that the previous pack
//! of the same problem and layout listed there ([`survey`] says what it replaces, removes and
//! leaves). The ICPC `problem.yaml` is merged into the setter's ([`yaml`]); the rest of the
//! ICPC package (statement, validators, accepted submission) is written where it is missing
//! and is the setter's from then on ([`icpc`]).
//!
//! Every file is written under a temporary name in its final directory and renamed into
//! place. Before the first file, the pack's section of the manifest is marked incomplete and
//! lists every file the pack may write and every file of the pack it replaces; the complete
//! section is written last, so a pack whose section has no incomplete mark is complete, and
//! an interrupted one can still be cleared away by packing again.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

use crate::answer::Rule;
use crate::problem::{Coverage, Problem, Spec};

pub mod icpc;
pub mod judges;
pub mod manifest;
pub mod own;
pub mod plan;
pub mod polygon;
mod section;
pub mod survey;

pub use icpc::IcpcVersion;
use icpc::yaml;
pub use icpc::yaml::{YamlOutcome, problem_yaml};
use manifest::Manifest;
pub use plan::{Plan, PlanError, PlanLine, effective_seed, parse_plan};
pub use survey::Survey;

/// How a pack names its files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// 1.in, 1.ans, 2.in, ...
    Plain,
    /// chess1.in, chess1.ans, ...: the NOI / Lemon / Arbiter naming.
    Noi,
    /// The ICPC problem package: data/sample, data/secret, problem.yaml.
    Icpc,
    /// A Polygon package: problem.xml, files/, tests/, solutions/.
    Polygon,
    /// Hydro: config.yaml with the subtasks, the tests beside it.
    Hydro,
    /// UOJ: problem.conf, NAME1.in, NAME1.out, ...
    Uoj,
    /// LemonLime: NAME.cdf, data/NAME/.
    Lemon,
    /// Luogu: NAME1.in, NAME1.out, config.yml, and their zip.
    Luogu,
    /// CMS's italian_yaml: task.yaml, gen/GEN, input/, output/.
    Cms,
}

/// The manifest's file name, at the top of the pack.
pub const MANIFEST: &str = "manifest.txt";

/// What to write and where.
#[derive(Debug, Clone)]
pub struct PackOptions {
    pub problem: &'static dyn Problem,
    pub out: PathBuf,
    pub plan: Plan,
    pub layout: Layout,
    /// Mixed into every line's seed; 0 keeps the written seeds.
    pub seed: u64,
    /// Write into a non-empty directory.
    pub force: bool,
    /// ICPC layout: the package format version; `None` keeps the version of an existing
    /// `problem.yaml`, and is 2025-09 without one.
    pub icpc_version: Option<IcpcVersion>,
    /// Replace (or remove) files of the previous pack edited by hand since it wrote them.
    pub overwrite_edited: bool,
    /// Replace the limits an existing `problem.yaml` has.
    pub write_limits: bool,
}

/// One file of a finished pack.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackedFile {
    /// Relative to the pack directory, `/`-separated.
    pub path: String,
    /// The plan line that made it; `None` for a statement sample.
    pub line: Option<usize>,
}

/// The file names of test `index` (1-based) of `count`, without extension.
pub fn test_stem(problem: &dyn Problem, layout: Layout, index: usize, count: usize) -> String {
    match layout {
        Layout::Plain => index.to_string(),
        Layout::Noi => format!("{}{index}", problem.name()),
        Layout::Icpc => {
            // Zero-padded so that file-name order is test order.
            let width = count.to_string().len().max(2);
            format!("data/secret/{index:0width$}")
        }
        Layout::Polygon => {
            let width = count.to_string().len().max(2);
            format!("tests/{index:0width$}")
        }
        layout => layout.judges_stem(problem.name(), index, false),
    }
}

/// `data/testdata.yaml` of the ICPC layout, for problems whose answers need flags of the
/// default output validator: `output_validator_flags`, which every test group inherits (the
/// 2023-07 format has no `problem.yaml` key for them).
pub fn testdata_yaml(problem: &dyn Problem) -> Option<String> {
    let flags = validator_flags(problem.rule())?;
    Some(format!("output_validator_flags: {flags}\n"))
}

/// The default output validator's flags that make it compare answers as `rule` does:
/// `float_tolerance ε` for real numbers (accepted within ε, absolutely or relatively) and
/// `case_sensitive` for words compared exactly (it ignores case by default); `None` when
/// its defaults already do.
pub fn validator_flags(rule: Rule) -> Option<String> {
    let (tolerance, case_sensitive) = match rule {
        Rule::Integers => (None, false),
        Rule::Reals { tolerance } => (Some(tolerance), false),
        Rule::Tokens {
            tolerance,
            ignore_case,
        } => (tolerance, !ignore_case),
    };
    let mut flags = Vec::new();
    if case_sensitive {
        flags.push("case_sensitive".to_string());
    }
    if let Some(eps) = tolerance {
        flags.push(format!("float_tolerance {eps:e}"));
    }
    (!flags.is_empty()).then(|| flags.join(" "))
}

/// Where [`testdata_yaml`] goes in the pack.
pub const TESTDATA_YAML: &str = "data/testdata.yaml";

/// Writes the pack, calling `on_progress(done, total)` after each test. Fails before writing
/// anything if the directory is not empty and `force` is off; stops between tests on a
/// cancel ([`crate::run::cancelled`]), leaving whole files and the pack marked incomplete.
pub fn write_pack(
    opts: &PackOptions,
    on_progress: &mut dyn FnMut(usize, usize),
) -> anyhow::Result<Vec<PackedFile>> {
    Ok(write_pack_report(opts, on_progress)?.files)
}

/// What [`write_pack_report`] did besides writing the pack.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PackReport {
    pub files: Vec<PackedFile>,
    /// Files of the previous pack of the same problem and layout, listed in the manifest,
    /// that this one does not write: removed.
    pub removed: Vec<String>,
    /// Existing files of the same names that no pack in the manifest listed: replaced.
    pub replaced_unlisted: Vec<String>,
    /// Files no pack in the manifest lists, left in place.
    pub left_in_place: Vec<String>,
    /// The other packs in the manifest, kept: `the 40 files of the chess pack (noi layout)`.
    pub kept: Vec<String>,
    /// What became of `problem.yaml` (ICPC layout).
    pub yaml: Option<YamlOutcome>,
    /// The limits `problem.yaml` keeps though duipai's differ.
    pub yaml_kept: Vec<String>,
    /// ICPC layout: the format version written.
    pub icpc_version: Option<IcpcVersion>,
    /// ICPC layout: the setter's files of the package written because they were missing.
    pub setter_created: Vec<String>,
    /// ICPC layout: the setter's files kept because they exist and differ from duipai's.
    pub setter_kept: Vec<String>,
    /// The values of the problem's bounds that the tests reached.
    pub coverage: Coverage,
    /// What the layout's judge will refuse of the pack though it is written as the format
    /// says ([`judges::cautions`]).
    pub cautions: Vec<String>,
    /// Files whose content the previous pack already wrote: left as they were.
    pub unchanged: usize,
}

/// One file the pack will write, with its manifest row, and its content when it is not a
/// test's (a sample, validator settings, an invalid input).
#[derive(Debug, Clone)]
struct Planned {
    file: PackedFile,
    row: String,
    content: Option<String>,
}

/// A `printf` command that prints `text` exactly: one line, whatever `text` holds.
fn printf_command(text: &str) -> String {
    let mut format = String::new();
    for c in text.chars() {
        match c {
            '\\' => format.push_str("\\\\"),
            '%' => format.push_str("%%"),
            '\n' => format.push_str("\\n"),
            '\t' => format.push_str("\\t"),
            '\'' => format.push_str("'\\''"),
            c => format.push(c),
        }
    }
    format!("printf '{format}'")
}

/// Every file the pack writes, in order, with its manifest row: known before anything is
/// generated, so that the manifest can name them before they exist.
fn planned_files(opts: &PackOptions, version: IcpcVersion) -> Vec<Planned> {
    let problem = opts.problem;
    let count = opts.plan.lines.len();
    let mut planned = Vec::new();
    let mut fixed = |path: String, text: &str, content: &str| {
        planned.push(Planned {
            row: format!("{path}\t-\t{text}\t{}", printf_command(content)),
            file: PackedFile { path, line: None },
            content: Some(content.to_string()),
        });
    };
    if opts.layout == Layout::Icpc {
        // The sample's own text, so the command needs nothing but a shell.
        let (input, answer) = problem.sample();
        fixed(SAMPLE_IN.to_string(), "sample", input);
        fixed(SAMPLE_ANS.to_string(), "sample", answer);
        if let Some(flags) = validator_flags(problem.rule()) {
            for (path, content) in icpc::flag_files(version, &flags) {
                fixed(path, "validator flags", &content);
            }
        }
        if version.has_validation_data() {
            for (name, content) in problem.package().invalid_inputs {
                fixed(
                    format!("data/invalid_input/{name}.in"),
                    "invalid input",
                    content,
                );
            }
        }
    }
    if opts.layout.is_judges() {
        for (path, what, content) in game_judge_files(opts) {
            fixed(path, what, &content);
        }
    }
    if opts.layout == Layout::Polygon {
        let xml = polygon::game_problem_xml(problem, count);
        fixed("problem.xml".to_string(), "the Polygon package", &xml);
        let solution = format!("solutions/{}.cpp", problem.name());
        fixed(solution, "main solution", problem.package().accepted);
    }
    for (i, line) in opts.plan.lines.iter().enumerate() {
        let stem = test_stem(problem, opts.layout, i + 1, count);
        let command = line.command(opts.seed);
        let answer = format!("{command} | duipai solve {problem}");
        let number = line.line.to_string();
        let (input, answer_path) = judges::test_paths(opts.layout, &stem);
        for (path, command) in [(input, command), (answer_path, answer)] {
            planned.push(Planned {
                row: format!("{path}\t{number}\t{}\t{command}", line.text),
                file: PackedFile {
                    path,
                    line: Some(line.line),
                },
                content: None,
            });
        }
    }
    planned
}

/// What a judge needs of a built-in game: every test one subtask of 100 points, scored test
/// by test, judged by the game's rule.
fn game_judge(opts: &PackOptions) -> judges::Judge {
    let problem = opts.problem;
    let count = opts.plan.lines.len();
    // CPU milliseconds and MiB.
    let (time_ms, memory_mib) = problem.default_limits();
    let tests = (1..=count)
        .map(|i| {
            let stem = test_stem(problem, opts.layout, i, count);
            let (input, answer) = judges::test_paths(opts.layout, &stem);
            judges::Test {
                input,
                answer,
                group: Some(0),
            }
        })
        .collect();
    judges::Judge {
        name: problem.name().to_string(),
        time_ms,
        memory_mib,
        tests,
        groups: vec![judges::Group {
            name: "tests".to_string(),
            score: 100,
            each_test: true,
            dependencies: Vec::new(),
            on_samples: false,
        }],
        decided: judges::Decided::Compare(problem.rule()),
    }
}

/// The files a judge's layout holds beside a built-in game's tests.
fn game_judge_files(opts: &PackOptions) -> Vec<(String, &'static str, String)> {
    judges::files(opts.layout, &game_judge(opts))
        .unwrap_or_default()
        .into_iter()
        .map(|(path, what, content)| (path, what, String::from_utf8_lossy(&content).into_owned()))
        .collect()
}

const SAMPLE_IN: &str = "data/sample/01-sample.in";
const SAMPLE_ANS: &str = "data/sample/01-sample.ans";
/// The ICPC package's metadata file, at the top of the pack.
pub const PROBLEM_YAML: &str = "problem.yaml";

/// The manifest section header of this pack.
fn section_header(opts: &PackOptions) -> String {
    format!(
        "# duipai pack {} --layout {} --seed {} (plan {}, {} tests)",
        opts.problem,
        layout_name(opts.layout),
        opts.seed,
        opts.plan.name,
        opts.plan.lines.len()
    )
}

/// Writes the pack like [`write_pack`], and says what it did to the files already there.
/// With `force` over a previous pack of the same problem and layout, the files that pack
/// listed in the manifest and this one does not write are removed; nothing else is. Packs
/// of other problems or layouts stay, and so do their manifest sections.
pub fn write_pack_report(
    opts: &PackOptions,
    on_progress: &mut dyn FnMut(usize, usize),
) -> anyhow::Result<PackReport> {
    let out = &opts.out;
    check_out_dir(out)?;
    let created = !out.exists();
    std::fs::create_dir_all(out)
        .with_context(|| format!("creating the directory {}", out.display()))?;
    let locked = lock(out);
    let result = locked.and_then(|_lock| write_locked(opts, on_progress));
    if created && result.is_err() {
        // Refused before anything was written: the folder it made goes too (if empty).
        let _ = std::fs::remove_dir(out);
    }
    result
}

/// Takes the pack folder's lock (see [`crate::fsutil::FolderLock`]), or says who has it.
pub(crate) fn lock(out: &Path) -> anyhow::Result<crate::fsutil::FolderLock> {
    match crate::fsutil::FolderLock::try_take(out) {
        Ok(Some(lock)) => Ok(lock),
        Ok(None) => bail!(
            "{} is being written by another duipai pack (it holds the folder's lock); run one \
             pack at a time into a folder",
            out.display()
        ),
        Err(e) => Err(e).with_context(|| format!("cannot lock {}", out.display())),
    }
}

/// [`write_pack_report`], the folder made and locked.
fn write_locked(
    opts: &PackOptions,
    on_progress: &mut dyn FnMut(usize, usize),
) -> anyhow::Result<PackReport> {
    let out = &opts.out;
    // Temporary files of a pack that was killed half-way (the lock says none is under way).
    crate::fsutil::remove_stale_temporaries(out, 4);
    let manifest = Manifest::read(out)?.unwrap_or_default();
    let version = resolve_version(opts)?;
    let planned = planned_files(opts, version);
    let names: Vec<&str> = planned.iter().map(|p| p.file.path.as_str()).collect();
    let setter = match opts.layout {
        Layout::Icpc => icpc::setter_paths(opts.problem, version),
        _ => Vec::new(),
    };
    let survey = Survey::of(
        out,
        &manifest,
        opts.problem.name(),
        opts.layout,
        &names,
        &setter,
    )?;
    survey.refusal(out, opts.force, opts.overwrite_edited)?;
    if let Some(linked) = names
        .iter()
        .find(|rel| !crate::fsutil::no_link_on_the_way(out, rel))
    {
        bail!(
            "{}: a folder on the way to it is a symbolic link; duipai writes a pack only into \
             real folders below {}",
            out.join(linked).display(),
            out.display()
        );
    }

    // Until it is finished, the pack's section names every file it may leave behind.
    let rows = planned.iter().map(|p| p.row.clone()).collect();
    let writing = section::Writing::begin(
        out,
        manifest,
        (opts.problem.name(), opts.layout),
        section_header(opts),
        (rows, &names),
    )?;
    let (coverage, hashes) = write_files(opts, &planned, on_progress)?;
    let (yaml, setter_created, setter_kept) = if opts.layout == Layout::Icpc {
        let mut values = yaml::YamlValues::of_game(opts.problem, version);
        values.write_limits = opts.write_limits;
        let (yaml, name) = write_problem_yaml(out, &values)?;
        let (created, kept) = write_setter_files(out, opts.problem, version, &name)?;
        (Some(yaml), created, kept)
    } else {
        (None, Vec::new(), Vec::new())
    };
    writing.remove_previous(&survey.removed)?;
    let rows = planned
        .iter()
        .map(|p| with_hash(&p.row, hashes.get(&p.file.path)))
        .collect();
    writing.finish(rows)?;
    let (yaml, yaml_kept) = match yaml {
        Some(merged) => (Some(merged.outcome), merged.kept),
        None => (None, Vec::new()),
    };
    Ok(PackReport {
        files: planned.into_iter().map(|p| p.file).collect(),
        yaml,
        yaml_kept,
        coverage,
        icpc_version: (opts.layout == Layout::Icpc).then_some(version),
        setter_created,
        setter_kept,
        cautions: match opts.layout.is_judges() {
            true => judges::cautions(opts.layout, &game_judge(opts)),
            false => Vec::new(),
        },
        ..survey.into_report()
    })
}

/// The ICPC format version of the pack: the one asked for, else the one the existing
/// `problem.yaml` names, else 2025-09.
fn resolve_version(opts: &PackOptions) -> anyhow::Result<IcpcVersion> {
    if let Some(version) = opts.icpc_version {
        return Ok(version);
    }
    let path = opts.out.join(PROBLEM_YAML);
    let existing = match std::fs::symlink_metadata(&path) {
        Ok(meta) if meta.is_file() => crate::fsutil::read_file_capped(&path)?,
        _ => return Ok(IcpcVersion::V2025_09),
    };
    let text = String::from_utf8_lossy(&existing);
    Ok(yaml::top_value(&text, "problem_format_version")
        .and_then(|v| IcpcVersion::from_name(&v))
        .unwrap_or(IcpcVersion::V2025_09))
}

/// Writes the setter's files of the package that are missing; returns those written and
/// those kept because they exist and differ from duipai's.
fn write_setter_files(
    out: &Path,
    problem: &dyn Problem,
    version: IcpcVersion,
    name: &str,
) -> anyhow::Result<(Vec<String>, Vec<String>)> {
    let (mut created, mut kept) = (Vec::new(), Vec::new());
    for file in icpc::setter_files(problem, version, name) {
        let path = out.join(&file.path);
        match std::fs::symlink_metadata(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                write_atomic(out, &file.path, file.content.as_bytes())?;
                created.push(file.path);
            }
            Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
            Ok(meta) => {
                let same = meta.is_file()
                    && std::fs::read(&path).is_ok_and(|b| b == file.content.as_bytes());
                if !same {
                    kept.push(file.path);
                }
            }
        }
    }
    Ok((created, kept))
}

/// A manifest row with its file's hash as the last column, when it has one.
pub fn with_hash(row: &str, hash: Option<&String>) -> String {
    match hash {
        Some(hash) => format!("{row}\t{hash}"),
        None => row.to_string(),
    }
}

/// The hash of every file written, by its path in the pack.
pub type Hashes = std::collections::HashMap<String, String>;

/// Writes `content` as `out/rel` and records its hash.
fn write_hashed(out: &Path, rel: &str, content: &[u8], hashes: &mut Hashes) -> anyhow::Result<()> {
    write_atomic(out, rel, content)?;
    hashes.insert(rel.to_string(), manifest::content_hash(content));
    Ok(())
}

/// Generates every test and writes the planned files, in order; returns the bounds' coverage
/// of the tests and the hash of every file written.
fn write_files(
    opts: &PackOptions,
    planned: &[Planned],
    on_progress: &mut dyn FnMut(usize, usize),
) -> anyhow::Result<(Coverage, Hashes)> {
    let mut coverage = Coverage::default();
    let mut hashes = Hashes::new();
    let (out, problem) = (&opts.out, opts.problem);
    let count = opts.plan.lines.len();
    for file in planned {
        if let Some(content) = &file.content {
            write_hashed(out, &file.file.path, content.as_bytes(), &mut hashes)?;
        }
    }
    // Tests are generated and solved on every core (a gems pack solves 40 maximal cases), and
    // written in order as they come.
    let mut files = planned.iter().filter(|p| p.content.is_none());
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut made: Vec<Option<anyhow::Result<(String, String, Coverage)>>> =
        (0..count).map(|_| None).collect();
    let mut written = 0;
    let mut failed = None;
    crate::pool::run_indexed(
        jobs,
        count as u64,
        |i| (!crate::run::cancelled()).then(|| generate(opts, &opts.plan.lines[i as usize])),
        |_| true,
        |i, result| {
            made[i as usize] = Some(result);
            while failed.is_none()
                && let Some(Some(result)) = made.get_mut(written).map(Option::take)
            {
                let step = result.and_then(|(input, answer, reached)| {
                    coverage.merge(&reached);
                    for content in [input, answer] {
                        let file = files.next().context("the plan of files is short")?;
                        write_hashed(out, &file.file.path, content.as_bytes(), &mut hashes)?;
                    }
                    Ok(())
                });
                match step {
                    Ok(()) => {
                        written += 1;
                        on_progress(written, count);
                    }
                    Err(err) => failed = Some(err),
                }
            }
        },
        || {},
    );
    if let Some(err) = failed {
        return Err(err);
    }
    if written < count {
        // Every file written so far is whole; the manifest says the pack is not.
        bail!(
            "stopped after {written} of {count} tests; {} is incomplete ({MANIFEST} marks the \
             {problem} pack incomplete until it is packed again)",
            out.display()
        );
    }
    Ok((coverage, hashes))
}

/// The input of one plan line and its reference answer, as file contents, with the values of
/// the bounds the input reached.
fn generate(opts: &PackOptions, line: &PlanLine) -> anyhow::Result<(String, String, Coverage)> {
    let problem = opts.problem;
    let spec = Spec::new(problem, &line.params)
        .map_err(|e| anyhow::anyhow!("{}:{}: {e}", opts.plan.name, line.line))?;
    let instance = spec.generate(effective_seed(line.seed, opts.seed));
    let input = instance.to_input();
    // The validator's own check, so a pack never ships an input `duipai validate` rejects.
    let coverage = problem
        .coverage(input.as_bytes(), &problem.default_bounds())
        .map_err(|e| {
            anyhow::anyhow!(
                "{}:{}: generated input is invalid: {e}",
                opts.plan.name,
                line.line
            )
        })?;
    let answer = instance
        .try_solve()
        .map_err(|e| anyhow::anyhow!("{}:{}: {e}", opts.plan.name, line.line))?;
    let answer: String = answer.iter().map(|a| format!("{a}\n")).collect();
    Ok((input, answer, coverage))
}

/// Writes or merges `problem.yaml`; a file that is not a regular file is left alone. Returns
/// what became of it and the statement's title: its `name` (the package's title when it has
/// none that reads as one).
pub fn write_problem_yaml(
    out: &Path,
    values: &yaml::YamlValues,
) -> anyhow::Result<(yaml::Merged, String)> {
    let path = out.join(PROBLEM_YAML);
    let title = values.name.clone();
    let existing = match std::fs::symlink_metadata(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
        Ok(meta) if !meta.is_file() => {
            let why = "it is not a regular file".to_string();
            let merged = yaml::Merged {
                text: None,
                outcome: YamlOutcome::LeftAlone(why),
                kept: Vec::new(),
            };
            return Ok((merged, title));
        }
        Ok(_) => Some(crate::fsutil::read_file_capped(&path)?),
    };
    let merged = yaml::merge_values(existing.as_deref(), values);
    if let Some(text) = &merged.text {
        write_atomic(out, PROBLEM_YAML, text.as_bytes())?;
    }
    let now = merged
        .text
        .clone()
        .or_else(|| existing.map(|b| String::from_utf8_lossy(&b).into_owned()));
    let name = now
        .as_deref()
        .and_then(|t| yaml::top_value(t, "name"))
        .and_then(|v| yaml::title_of(&v))
        .unwrap_or(title);
    Ok((merged, name))
}

pub fn layout_name(layout: Layout) -> &'static str {
    match layout {
        Layout::Plain => "plain",
        Layout::Noi => "noi",
        Layout::Icpc => "icpc",
        Layout::Polygon => "polygon",
        Layout::Hydro => "hydro",
        Layout::Uoj => "uoj",
        Layout::Lemon => "lemon",
        Layout::Luogu => "luogu",
        Layout::Cms => "cms",
    }
}

/// Removes the folders between `path` and `out` that the removal of `path` left empty (a
/// problemtools package must not keep an empty `data/invalid_input/`); a folder with anything
/// in it stays.
fn remove_empty_parents(out: &Path, path: &Path) {
    let mut dir = path.parent();
    while let Some(d) = dir.filter(|d| *d != out && d.starts_with(out)) {
        if std::fs::remove_dir(d).is_err() {
            break;
        }
        dir = d.parent();
    }
}

/// Checks that the pack can go to `out`: a directory, or a path that does not exist yet.
fn check_out_dir(out: &Path) -> anyhow::Result<()> {
    match std::fs::metadata(out) {
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(_) => bail!("{} exists and is not a directory", out.display()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e).with_context(|| format!("reading the directory {}", out.display())),
    }
}

/// Writes `out/rel` atomically (see [`crate::fsutil::write_atomic`]), creating its directory.
fn write_atomic(out: &Path, rel: &str, content: &[u8]) -> anyhow::Result<()> {
    let path = out.join(rel);
    let dir = path.parent().unwrap_or(out);
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    crate::fsutil::write_atomic(&path, content)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::{CHESS, SHOOTING};

    #[test]
    fn real_answers_declare_the_default_validators_tolerance() {
        assert_eq!(
            validator_flags(Rule::Reals { tolerance: 1e-6 }).as_deref(),
            Some("float_tolerance 1e-6")
        );
        assert_eq!(validator_flags(Rule::Integers), None);
        assert_eq!(
            validator_flags(Rule::EXACT).as_deref(),
            Some("case_sensitive")
        );
        let words = Rule::Tokens {
            tolerance: Some(1e-9),
            ignore_case: true,
        };
        assert_eq!(
            validator_flags(words).as_deref(),
            Some("float_tolerance 1e-9")
        );
        assert_eq!(
            testdata_yaml(&SHOOTING).as_deref(),
            Some("output_validator_flags: float_tolerance 1e-6\n")
        );
        assert_eq!(testdata_yaml(&CHESS), None);
    }
}
