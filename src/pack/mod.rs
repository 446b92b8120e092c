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
//! leaves). The ICPC `problem.yaml` is merged into the setter's ([`yaml`]).
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

pub mod manifest;
pub mod plan;
pub mod survey;
pub mod yaml;

use manifest::{Manifest, Section};
pub use plan::{Plan, PlanError, PlanLine, effective_seed, parse_plan};
pub use survey::Survey;
pub use yaml::{YamlOutcome, problem_yaml};

/// How a pack names its files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// 1.in, 1.ans, 2.in, ...
    Plain,
    /// chess1.in, chess1.ans, ...: the NOI / Lemon / Arbiter naming.
    Noi,
    /// The ICPC problem package: data/sample, data/secret, problem.yaml.
    Icpc,
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
    /// The values of the problem's bounds that the tests reached.
    pub coverage: Coverage,
}

/// One file the pack will write, with its manifest row.
#[derive(Debug, Clone)]
struct Planned {
    file: PackedFile,
    row: String,
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
fn planned_files(opts: &PackOptions) -> Vec<Planned> {
    let problem = opts.problem;
    let count = opts.plan.lines.len();
    let mut planned = Vec::new();
    let mut add = |path: String, line: Option<usize>, text: &str, command: String| {
        let number = line.map_or("-".to_string(), |n| n.to_string());
        planned.push(Planned {
            row: format!("{path}\t{number}\t{text}\t{command}"),
            file: PackedFile { path, line },
        });
    };
    if opts.layout == Layout::Icpc {
        // The sample's own text, so the command needs nothing but a shell.
        let (input, answer) = problem.sample();
        add(SAMPLE_IN.to_string(), None, "sample", printf_command(input));
        add(
            SAMPLE_ANS.to_string(),
            None,
            "sample",
            printf_command(answer),
        );
        if let Some(testdata) = testdata_yaml(problem) {
            let command = printf_command(&testdata);
            add(TESTDATA_YAML.to_string(), None, "validator flags", command);
        }
    }
    for (i, line) in opts.plan.lines.iter().enumerate() {
        let stem = test_stem(problem, opts.layout, i + 1, count);
        let command = line.command(opts.seed);
        let answer = format!("{command} | duipai solve {problem}");
        add(format!("{stem}.in"), Some(line.line), &line.text, command);
        add(format!("{stem}.ans"), Some(line.line), &line.text, answer);
    }
    planned
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
    let mut manifest = Manifest::read(out)?.unwrap_or_default();
    let planned = planned_files(opts);
    let names: Vec<&str> = planned.iter().map(|p| p.file.path.as_str()).collect();
    let survey = Survey::of(out, &manifest, opts.problem, opts.layout, &names)?;
    if let Some(why) = survey.conflict() {
        bail!(why);
    }
    if !survey.empty && !opts.force {
        bail!(survey.not_empty_message(out));
    }
    std::fs::create_dir_all(out)
        .with_context(|| format!("creating the directory {}", out.display()))?;

    // Until it is finished, the pack's section names every file it may leave behind.
    let header = section_header(opts);
    let mut rows: Vec<String> = planned.iter().map(|p| p.row.clone()).collect();
    if let Some(old) = manifest.section(opts.problem.name(), layout_name(opts.layout)) {
        rows.extend(
            old.rows()
                .filter(|row| !names.contains(&row.split('\t').next().unwrap_or_default()))
                .map(str::to_string),
        );
    }
    manifest.put(Section::new(header.clone(), false, rows));
    write_atomic(out, MANIFEST, manifest.render().as_bytes())?;

    let coverage = write_files(opts, &planned, on_progress)?;
    let yaml = if opts.layout == Layout::Icpc {
        Some(write_problem_yaml(out, opts.problem)?)
    } else {
        None
    };
    for rel in &survey.removed {
        let path = out.join(rel);
        std::fs::remove_file(&path)
            .with_context(|| format!("removing {} of the previous pack", path.display()))?;
    }
    let rows = planned.iter().map(|p| p.row.clone()).collect();
    manifest.put(Section::new(header, true, rows));
    write_atomic(out, MANIFEST, manifest.render().as_bytes())?;
    Ok(PackReport {
        files: planned.into_iter().map(|p| p.file).collect(),
        yaml,
        coverage,
        ..survey.into_report()
    })
}

/// Generates every test and writes the planned files, in order; returns the bounds' coverage
/// of the tests.
fn write_files(
    opts: &PackOptions,
    planned: &[Planned],
    on_progress: &mut dyn FnMut(usize, usize),
) -> anyhow::Result<Coverage> {
    let mut coverage = Coverage::default();
    let (out, problem) = (&opts.out, opts.problem);
    let count = opts.plan.lines.len();
    let mut files = planned.iter();
    if opts.layout == Layout::Icpc {
        let (input, answer) = problem.sample();
        let testdata = testdata_yaml(problem);
        for content in [Some(input), Some(answer), testdata.as_deref()]
            .into_iter()
            .flatten()
        {
            let file = files.next().context("the plan of files is short")?;
            write_atomic(out, &file.file.path, content.as_bytes())?;
        }
    }
    for (i, line) in opts.plan.lines.iter().enumerate() {
        if crate::run::cancelled() {
            // Every file written so far is whole; the manifest says the pack is not.
            bail!(
                "stopped after {i} of {count} tests; {} is incomplete ({MANIFEST} marks the \
                 {problem} pack incomplete until it is packed again)",
                out.display()
            );
        }
        let (input, answer, reached) = generate(opts, line)?;
        coverage.merge(&reached);
        for content in [input, answer] {
            let file = files.next().context("the plan of files is short")?;
            write_atomic(out, &file.file.path, content.as_bytes())?;
        }
        on_progress(i + 1, count);
    }
    Ok(coverage)
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

/// Writes or merges `problem.yaml`; a file that is not a regular file is left alone.
fn write_problem_yaml(out: &Path, problem: &dyn Problem) -> anyhow::Result<YamlOutcome> {
    let path = out.join(PROBLEM_YAML);
    let existing = match std::fs::symlink_metadata(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
        Ok(meta) if !meta.is_file() => {
            return Ok(YamlOutcome::LeftAlone(
                "it is not a regular file".to_string(),
            ));
        }
        Ok(_) => Some(crate::fsutil::read_file_capped(&path)?),
    };
    let (text, outcome) = yaml::merge(existing.as_deref(), problem);
    if let Some(text) = text {
        write_atomic(out, PROBLEM_YAML, text.as_bytes())?;
    }
    Ok(outcome)
}

pub fn layout_name(layout: Layout) -> &'static str {
    match layout {
        Layout::Plain => "plain",
        Layout::Noi => "noi",
        Layout::Icpc => "icpc",
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
            problem_yaml(&SHOOTING),
            "problem_format_version: 2023-07-draft\nname: shooting\nlimits:\n  time_limit: 1\n  \
             memory: 128\nvalidation: default\n"
        );
        assert_eq!(
            testdata_yaml(&SHOOTING).as_deref(),
            Some("output_validator_flags: float_tolerance 1e-6\n")
        );
        assert!(!problem_yaml(&CHESS).contains("validation"));
        assert_eq!(testdata_yaml(&CHESS), None);
    }
}
