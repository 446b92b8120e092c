//! Test-pack export: a plan's inputs with their reference answers, in the plain, NOI or ICPC
//! layout, with a manifest that says how to regenerate every file.
//!
//! The manifest (`manifest.txt`) is tab-separated, one row per file, after `#` header lines:
//! `FILE  LINE  PLAN-LINE  COMMAND`. LINE and PLAN-LINE are the plan line that made the file
//! (number and text as written); COMMAND regenerates it with the effective seed:
//! `duipai gen ... --seed S` for an `.in`, the same piped into `duipai solve` for an `.ans`.
//! Statement samples (ICPC layout) have `-` as their line and `sample` as their text.
//!
//! Every file is written under a temporary name in its final directory and renamed into
//! place, and the manifest is written last (an existing one is removed first), so a pack that
//! has a manifest is complete.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

use crate::answer::Rule;
use crate::problem::{Problem, Spec};

pub mod plan;

pub use plan::{Plan, PlanError, PlanLine, effective_seed, parse_plan};

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

/// `problem.yaml` of the ICPC layout (problem package format 2023-07-draft): the name and
/// the judge's limits, the time limit in seconds and the memory in MiB. When the answers
/// need flags of the default output validator ([`validator_flags`]), it also says
/// `validation: default`; the flags themselves go to [`testdata_yaml`], since that version
/// of the format has no `problem.yaml` key for them.
pub fn problem_yaml(problem: &dyn Problem) -> String {
    let (time_ms, memory_mib) = problem.default_limits();
    let seconds = time_ms as f64 / 1000.0;
    let validation = match validator_flags(problem.rule()) {
        Some(_) => "validation: default\n",
        None => "",
    };
    format!(
        "problem_format_version: 2023-07-draft\nname: {}\nlimits:\n  time_limit: {seconds}\n  \
         memory: {memory_mib}\n{validation}",
        problem.name()
    )
}

/// `data/testdata.yaml` of the ICPC layout, for problems whose answers need flags of the
/// default output validator: `output_validator_flags`, which every test group inherits.
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
const TESTDATA_YAML: &str = "data/testdata.yaml";

/// Writes the pack, calling `on_progress(done, total)` after each test. Fails before writing
/// anything if the directory is not empty and `force` is off; stops between tests on a
/// cancel ([`crate::run::cancelled`]), leaving whole files and no manifest.
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
    /// Test data of the previous pack that this one does not have, removed (`--force`).
    pub removed: Vec<String>,
    /// Files in the directory that are not test data, left alone.
    pub foreign: Vec<String>,
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

/// Is `rel` (a path relative to the pack) test data a pack writes: inputs, answers, outputs,
/// the ICPC `problem.yaml` and `testdata.yaml`, the manifest?
fn is_test_data(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    name == MANIFEST
        || name == "problem.yaml"
        || name == "testdata.yaml"
        || [".in", ".ans", ".out"]
            .iter()
            .any(|ext| name.ends_with(ext))
}

/// Every file below `out`, relative and `/`-separated, in name order.
fn files_below(out: &Path) -> Vec<String> {
    walkdir::WalkDir::new(out)
        .sort_by_file_name()
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .filter_map(|e| {
            let rel = e.path().strip_prefix(out).ok()?;
            Some(
                rel.components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
                    .join("/"),
            )
        })
        .collect()
}

/// Writes the pack like [`write_pack`]. With `force` over a previous pack, that pack's test
/// data that the new one does not write is removed (before the manifest is written, so a
/// pack with a manifest is exactly what it lists), and other files are left and reported.
pub fn write_pack_report(
    opts: &PackOptions,
    on_progress: &mut dyn FnMut(usize, usize),
) -> anyhow::Result<PackReport> {
    let out = &opts.out;
    prepare_dir(out, opts.force)?;
    let before = files_below(out);
    let problem = opts.problem;
    let count = opts.plan.lines.len();
    let mut files: Vec<(PackedFile, String)> = Vec::new();
    let mut write = |rel: String, content: &str, source: Option<&PlanLine>, answer: bool| {
        write_atomic(out, &rel, content.as_bytes())?;
        let (line, text, command) = match source {
            Some(l) => {
                let gen_cmd = l.command(opts.seed);
                let cmd = if answer {
                    format!("{gen_cmd} | duipai solve {problem}")
                } else {
                    gen_cmd
                };
                (l.line.to_string(), l.text.clone(), cmd)
            }
            // The sample's own text, so the command needs nothing but a shell.
            None => (
                "-".to_string(),
                "sample".to_string(),
                printf_command(content),
            ),
        };
        files.push((
            PackedFile {
                path: rel.clone(),
                line: source.map(|l| l.line),
            },
            format!("{rel}\t{line}\t{text}\t{command}\n"),
        ));
        anyhow::Ok(())
    };

    if opts.layout == Layout::Icpc {
        let (input, answer) = problem.sample();
        write("data/sample/01-sample.in".to_string(), input, None, false)?;
        write("data/sample/01-sample.ans".to_string(), answer, None, true)?;
    }

    for (i, line) in opts.plan.lines.iter().enumerate() {
        if crate::run::cancelled() {
            // Every file written so far is whole; without the manifest the pack says it is not.
            bail!(
                "interrupted after {i} of {count} tests; {} is incomplete (it has no {MANIFEST})",
                out.display()
            );
        }
        let spec = Spec::new(problem, &line.params)
            .map_err(|e| anyhow::anyhow!("{}:{}: {e}", opts.plan.name, line.line))?;
        let instance = spec.generate(effective_seed(line.seed, opts.seed));
        let input = instance.to_input();
        // The validator's own check, so a pack never ships an input `duipai validate` rejects.
        problem
            .parse(input.as_bytes(), &problem.default_bounds())
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
        let stem = test_stem(problem, opts.layout, i + 1, count);
        write(format!("{stem}.in"), &input, Some(line), false)?;
        write(format!("{stem}.ans"), &answer, Some(line), true)?;
        on_progress(i + 1, count);
    }

    // The package's own files, besides the tests.
    let mut metadata: Vec<&str> = Vec::new();
    if opts.layout == Layout::Icpc {
        write_atomic(out, "problem.yaml", problem_yaml(problem).as_bytes())?;
        metadata.push("problem.yaml");
        if let Some(testdata) = testdata_yaml(problem) {
            write_atomic(out, TESTDATA_YAML, testdata.as_bytes())?;
            metadata.push(TESTDATA_YAML);
        }
    }

    let mut manifest = format!(
        "# duipai pack {problem} --layout {} --seed {} (plan {}, {count} tests)\n\
         # file\tplan line\tplan text\tregenerate with\n",
        layout_name(opts.layout),
        opts.seed,
        opts.plan.name,
    );
    for (_, row) in &files {
        manifest.push_str(row);
    }
    let written: Vec<&str> = files.iter().map(|(f, _)| f.path.as_str()).collect();
    let mut report = PackReport::default();
    for rel in before {
        if written.contains(&rel.as_str()) || metadata.contains(&rel.as_str()) {
            continue;
        }
        if is_test_data(&rel) {
            let path = out.join(&rel);
            std::fs::remove_file(&path)
                .with_context(|| format!("removing the stale {}", path.display()))?;
            report.removed.push(rel);
        } else {
            report.foreign.push(rel);
        }
    }
    write_atomic(out, MANIFEST, manifest.as_bytes())?;
    report.files = files.into_iter().map(|(f, _)| f).collect();
    Ok(report)
}

pub fn layout_name(layout: Layout) -> &'static str {
    match layout {
        Layout::Plain => "plain",
        Layout::Noi => "noi",
        Layout::Icpc => "icpc",
    }
}

/// Creates the directory, or checks that it may be written into. With `force`, an old
/// manifest is removed first: the pack is only marked complete again once rewritten.
fn prepare_dir(out: &Path, force: bool) -> anyhow::Result<()> {
    match std::fs::read_dir(out) {
        Ok(mut entries) => {
            if entries.next().is_some() && !force {
                bail!(
                    "{} is not empty; pass --force to write into it (files of the same name are replaced)",
                    out.display()
                );
            }
            let manifest = out.join(MANIFEST);
            if manifest.exists() {
                std::fs::remove_file(&manifest)
                    .with_context(|| format!("removing the old {}", manifest.display()))?;
            }
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => std::fs::create_dir_all(out)
            .with_context(|| format!("creating the directory {}", out.display())),
        Err(e) => {
            if out.exists() && !out.is_dir() {
                bail!("{} exists and is not a directory", out.display());
            }
            Err(e).with_context(|| format!("reading the directory {}", out.display()))
        }
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
