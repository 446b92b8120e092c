//! `duipai pack`: a whole test pack from a plan (the built-in one or the user's).

use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::app::args::{LayoutArg, PackArgs};
use crate::app::exit::Status;
use crate::app::interrupt;
use crate::app::own::{self, Parts};
use crate::app::ui::{Progress, jobs};
use crate::pack::manifest::describe_pack;
use crate::pack::own::plan as own_plan;
use crate::pack::own::{OwnPackOptions, OwnPackReport};
use crate::pack::parse_plan;
use crate::pack::survey::names;
use crate::pack::{self, IcpcVersion, PackOptions, PackReport, YamlOutcome, plan};

/// What the report lines need to know of the pack: the problem's name, the layout, the
/// folder and the limits duipai would write.
struct Target<'a> {
    name: &'a str,
    layout: pack::Layout,
    out: &'a Path,
    /// CPU milliseconds and MiB.
    limits: (u64, u64),
}

pub fn run(args: PackArgs, config: Option<PathBuf>) -> anyhow::Result<Status> {
    // Ctrl-C stops between tests, leaving whole files and the pack marked incomplete.
    interrupt::install();
    if args.icpc_version.is_some() && !matches!(args.layout, LayoutArg::Icpc | LayoutArg::Domjudge)
    {
        anyhow::bail!("--icpc-version is for --layout icpc and domjudge");
    }
    match crate::problem::by_name(&args.problem) {
        Some(problem) => builtin(args, problem),
        None => own_pack(args, config),
    }
}

/// The pack of a built-in game.
fn builtin(
    args: PackArgs,
    problem: &'static dyn crate::problem::Problem,
) -> anyhow::Result<Status> {
    refuse_own_flags(&args, problem)?;
    let named = args
        .plan
        .as_ref()
        .and_then(|p| p.to_str())
        .filter(|p| !p.contains('/'))
        .and_then(|name| plan::named_builtin(problem, name));
    let parsed = match (&args.plan, named) {
        (_, Some(plan)) => plan?,
        (Some(path), None) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading the plan {}", path.display()))?;
            parse_plan(&plan_name(path), &text, problem).map_err(|mut e| {
                e.file = path.display().to_string();
                e
            })?
        }
        (None, None) => parse_plan(
            &plan::builtin_name(problem),
            problem.builtin_plan(),
            problem,
        )?,
    };
    let tests = parsed.lines.len();
    let opts = PackOptions {
        problem,
        out: args.out,
        plan: parsed,
        layout: args.layout.into(),
        seed: args.seed,
        force: args.force,
        icpc_version: args.icpc_version.map(Into::into),
        overwrite_edited: args.overwrite_edited,
        write_limits: args.write_limits,
    };
    let progress = Progress::bar("packing", tests as u64, "tests");
    let written = pack::write_pack_report(&opts, &mut |done, _| progress.set_position(done as u64));
    progress.finish();
    let report = written?;
    let target = Target {
        name: problem.name(),
        layout: opts.layout,
        out: &opts.out,
        limits: problem.default_limits(),
    };
    for line in report_lines(&report, &target) {
        eprintln!("duipai: {line}");
    }
    eprintln!("duipai: {}", coverage_line(&report, &opts));
    cautions(&report);
    wrote_line(&report, tests, &opts.out);
    upload(
        args.layout,
        problem.name(),
        &opts.out,
        problem.default_limits().0,
    )?;
    Ok(Status::Success)
}

/// What the pack wrote: `wrote 62 files (30 tests) and manifest.txt to DIR`, with how many
/// it left as the previous pack wrote them (`wrote 2 files (30 tests; 60 unchanged) ...`,
/// `rewrote none of the 62 files (30 tests): all as the previous pack wrote them; wrote
/// manifest.txt to DIR`).
fn wrote_line(report: &PackReport, tests: usize, out: &Path) {
    let files = report.files.len();
    let tests = crate::text::plural(tests as u64, "test");
    let (manifest, out) = (pack::MANIFEST, out.display());
    match report.unchanged {
        0 => eprintln!("duipai: wrote {files} files ({tests}) and {manifest} to {out}"),
        same if same == files => eprintln!(
            "duipai: rewrote none of the {files} files ({tests}): all as the previous pack \
             wrote them; wrote {manifest} to {out}"
        ),
        same => eprintln!(
            "duipai: wrote {} files ({tests}; {same} unchanged) and {manifest} to {out}",
            files - same
        ),
    }
}

/// The judge's refusals to come ([`pack::judges::cautions`]), as warnings.
fn cautions(report: &PackReport) {
    for caution in &report.cautions {
        eprintln!("duipai: warning: {caution}");
    }
}

/// The manifest names a plan by its file name only, so that the same plan packs to the same
/// bytes wherever it is kept.
fn plan_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// The flags of a problem of one's own are refused for a game, which has its own programs.
fn refuse_own_flags(args: &PackArgs, game: &dyn crate::problem::Problem) -> anyhow::Result<()> {
    let own = &args.own;
    let given = [
        ("--generator", own.generators.is_set()),
        ("--validator", own.validator.is_some()),
        ("--reference", own.reference.is_some()),
        ("--checker", own.checker.checker.is_some()),
        ("--interactor", own.checker.interactor.is_some()),
        ("--invalid", args.invalid.is_some()),
        ("--keep-rejected-tests", args.keep_rejected_tests),
        ("--no-reuse", args.no_reuse),
    ];
    if let Some((flag, _)) = given.iter().find(|(_, set)| *set) {
        anyhow::bail!(
            "{flag} is for problems of your own; {game} has its own programs (a duipai.toml here \
             may have set it: pack {game} from another folder, or give --config)"
        );
    }
    Ok(())
}

/// The pack of a problem of one's own, from its plan.
fn own_pack(args: PackArgs, config: Option<PathBuf>) -> anyhow::Result<Status> {
    args.helpers.arm();
    crate::pack::judges::check_windows_names(&args.problem)?;
    let problem = own::problem(&args.problem, &Parts::of(&args.own))?;
    let parsed = own_plan(&problem, args.plan.as_deref())?;
    if problem.validator.is_none() {
        eprintln!(
            "duipai: warning: {} has no validator: the inputs are not checked (set `validator = \
             \"validator.cpp\"` in duipai.toml)",
            crate::text::quote(&problem.name)
        );
    }
    let folder = config
        .as_deref()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let runner = crate::judge::ProcessRunner { rerun: false };
    let tests = parsed.lines.len();
    let opts = OwnPackOptions {
        problem: &problem,
        runner: &runner,
        out: args.out.clone(),
        plan: parsed,
        layout: args.layout.into(),
        seed: args.seed,
        force: args.force,
        overwrite_edited: args.overwrite_edited,
        write_limits: args.write_limits,
        icpc_version: args.icpc_version.map(Into::into),
        invalid: args.invalid.clone(),
        folder,
        jobs: jobs(args.jobs),
        reuse: !args.no_reuse,
        keep_rejected: args.keep_rejected_tests,
        check_shipped_answers: args.check_answers,
        tests_only: false,
    };
    let progress = Progress::counter("packing");
    let written =
        pack::own::write_own_pack(&opts, &mut |stage| progress.message(stage.to_string()));
    progress.finish();
    let report = written?;
    for warning in &report.warnings {
        eprintln!("duipai: warning: {warning}");
    }
    let target = Target {
        name: &problem.name,
        layout: opts.layout,
        out: &opts.out,
        limits: (
            problem.limits.cpu.as_millis() as u64,
            problem.limits.memory_bytes >> 20,
        ),
    };
    for line in report_lines(&report.report, &target) {
        eprintln!("duipai: {line}");
    }
    for line in found_lines(&report, &opts.out) {
        eprintln!("duipai: {line}");
    }
    if let Some(note) = pypy_note(&report.report) {
        eprintln!("duipai: {note}");
    }
    eprintln!("duipai: {}", reuse_line(&report));
    eprintln!("duipai: {}", own_coverage_line(&report, &problem));
    cautions(&report.report);
    wrote_line(&report.report, tests, &opts.out);
    let time_ms = problem.limits.cpu.as_millis() as u64;
    upload(args.layout, &problem.name, &opts.out, time_ms)?;
    Ok(Status::Success)
}

/// The zip a judge imports, for the layouts that have one: DOMjudge's (the ICPC package with
/// `domjudge-problem.ini`) and Luogu's (the tests and `config.yml`); for CMS, how to import
/// a task without a statement.
fn upload(layout: LayoutArg, name: &str, out: &Path, time_ms: u64) -> anyhow::Result<()> {
    if layout == LayoutArg::Cms {
        eprintln!(
            "duipai: CMS's loader stops at a task without a statement: import it with \
             `cmsImportTask --no-statement {}`, or put the statement in {} first",
            out.display(),
            out.join("statement/statement.pdf").display()
        );
        return Ok(());
    }
    let zip = match layout {
        LayoutArg::Domjudge => pack::judges::domjudge_zip(out, name, time_ms)?,
        LayoutArg::Luogu => pack::judges::luogu_upload(out, name)?,
        _ => return Ok(()),
    };
    eprintln!("duipai: wrote {} to upload", zip.display());
    Ok(())
}

/// The plan of a problem of one's own: `path`, else `PROBLEM.plan` here; parsed, every line
/// checked.
pub fn own_plan(
    problem: &crate::own::OwnProblem,
    path: Option<&Path>,
) -> anyhow::Result<own_plan::OwnPlan> {
    let plan_path = match path {
        Some(path) => path.to_path_buf(),
        None => {
            let default = PathBuf::from(format!("{}.plan", problem.name));
            if !default.is_file() {
                anyhow::bail!(
                    "{} is a problem of your own: give its plan, --plan FILE (or `plan = \
                     \"tests.plan\"` in duipai.toml); without one, duipai looks for {} here",
                    crate::text::quote(&problem.name),
                    default.display()
                );
            }
            default
        }
    };
    if plan_path.file_name() == Some(crate::polygon::FILE_NAME.as_ref()) {
        let dir = plan_path.parent().unwrap_or(Path::new(""));
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        let package = crate::polygon::Package::read(dir)?;
        return Ok(crate::pack::polygon::plan_of(&package));
    }
    let text = std::fs::read_to_string(&plan_path)
        .with_context(|| format!("reading the plan {}", plan_path.display()))?;
    let named: Vec<&str> = problem
        .generators
        .named
        .iter()
        .map(|(n, _)| n.as_str())
        .collect();
    let context = own_plan::PlanContext {
        problem: &problem.name,
        generators: &named,
        has_default: problem.generators.default.is_some(),
        base: plan_path.parent().unwrap_or(Path::new("")),
    };
    own_plan::parse_own_plan(&plan_name(&plan_path), &text, &context).map_err(|mut e| {
        e.file = plan_path.display().to_string();
        e.into()
    })
}

/// A note when a 2025-09 package holds Python programs and this machine has no `pypy3`:
/// BAPCtools runs every `*.py` with it, and fails each Python program without it.
fn pypy_note(report: &PackReport) -> Option<String> {
    let python = report
        .files
        .iter()
        .filter(|f| f.line.is_none() && f.path.ends_with(".py"))
        .count();
    let has_pypy = std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .any(|dir| dir.join("pypy3").is_file());
    (report.icpc_version == Some(IcpcVersion::V2025_09) && python > 0 && !has_pypy).then(|| {
        format!(
            "note: the package holds {}; BAPCtools runs a .py file with pypy3, which is not in \
             PATH here (apt-get install pypy3, or a pypy3 in PATH that starts python3)",
            crate::text::plural(python as u64, "Python program file")
        )
    })
}

/// The hand-made tests found in the pack folder, checked as the plan's are.
fn found_lines(report: &OwnPackReport, out: &Path) -> Vec<String> {
    let (invalid, tests): (Vec<String>, Vec<String>) = report
        .found
        .iter()
        .cloned()
        .partition(|f| f.starts_with(pack::own::found::INVALID_INPUT));
    let mut lines = Vec::new();
    if !tests.is_empty() {
        lines.push(format!(
            "checked {} put into {} by hand (valid, and its answer the reference's): {}",
            crate::text::plural(tests.len() as u64, "test"),
            out.display(),
            names(&tests)
        ));
    }
    if !invalid.is_empty() {
        lines.push(format!(
            "checked {} put into {} by hand (each rejected by the validator): {}",
            crate::text::plural(invalid.len() as u64, "invalid input"),
            out.display(),
            names(&invalid)
        ));
    }
    lines
}

/// How many tests were made, and how many read back from the previous pack.
fn reuse_line(report: &OwnPackReport) -> String {
    match (report.reused, report.tests) {
        (0, tests) => format!(
            "made {} (none could be reused from a previous pack)",
            crate::text::plural(tests as u64, "test")
        ),
        (reused, tests) if reused == tests => format!(
            "reused all {tests} tests of the previous pack: their generators, arguments, seeds, \
             validator and reference did not change"
        ),
        (reused, tests) => format!(
            "made {} again, reused {reused} of the previous pack (what makes them did not change)",
            crate::text::plural((tests - reused) as u64, "test")
        ),
    }
}

/// What the tests reached of the bounds a testlib validator names; another validator cannot
/// say.
fn own_coverage_line(report: &OwnPackReport, problem: &crate::own::OwnProblem) -> String {
    let Some(overview) = &report.overview else {
        return match &problem.validator {
            Some(_) => "which bounds the tests reach is not known: the validator is not a \
                        testlib one, whose test overview log would say"
                .to_string(),
            None => "which bounds the tests reach is not known: there is no validator".to_string(),
        };
    };
    let missed = overview.missed();
    if missed.is_empty() {
        let names: Vec<&str> = overview.hits.keys().map(String::as_str).collect();
        return format!(
            "the tests reach both ends of every bound the validator names: {}",
            names.join(", ")
        );
    }
    format!(
        "BOUND NOT REACHED by the tests: {} (duipai validate --coverage shows every bound)",
        missed.join(", ")
    )
}

/// One line: the range of every bound when the tests reach both its ends, else the ends no
/// test reached (`duipai validate --coverage` shows the whole table).
fn coverage_line(report: &PackReport, opts: &PackOptions) -> String {
    let bounds = opts.problem.bounds();
    let coverage = &report.coverage;
    let missed = coverage.missed_ends(bounds);
    if missed.is_empty() {
        let ranges: Vec<String> = coverage
            .rows(bounds)
            .filter_map(|(name, r)| Some(format!("{name} {}..={}", r?.lo, r?.hi)))
            .collect();
        return format!(
            "the tests reach both ends of every bound: {}",
            ranges.join(", ")
        );
    }
    format!(
        "BOUND NOT REACHED by the tests: {} (duipai validate --coverage shows every bound)",
        missed.join("; ")
    )
}

/// Which tools read the ICPC package's format version.
fn icpc_version_line(version: IcpcVersion) -> String {
    let readers = match version {
        IcpcVersion::V2025_09 => {
            "BAPCtools and DOMjudge read it; problemtools needs --icpc-version legacy"
        }
        IcpcVersion::Draft2023_07 => {
            "problemtools reads it in part; BAPCtools needs 2025-09, problemtools reads legacy fully"
        }
        IcpcVersion::Legacy => "problemtools and Kattis read it; BAPCtools needs 2025-09",
    };
    format!("ICPC package format {}: {readers}", version.name())
}

/// What the pack did besides writing its own files, a line each, and the ICPC format version.
fn report_lines(report: &PackReport, opts: &Target) -> Vec<String> {
    let mut lines = other_files_lines(report, opts);
    if let Some(version) = report.icpc_version {
        lines.push(icpc_version_line(version));
        lines.extend(folder_name_note(version, opts.out));
    }
    if !report.setter_kept.is_empty() {
        lines.push(format!(
            "kept {} as {} (different from duipai's: the package's statement, validators and \
             submission are written only where missing)",
            names(&report.setter_kept),
            if report.setter_kept.len() == 1 {
                "it is"
            } else {
                "they are"
            }
        ));
    }
    lines.extend(yaml_line(report.yaml.as_ref(), opts));
    lines.extend(kept_limits_line(&report.yaml_kept));
    lines
}

/// The limits `problem.yaml` keeps though duipai's differ, and how to replace them.
pub fn kept_limits_line(kept: &[String]) -> Option<String> {
    (!kept.is_empty()).then(|| {
        format!(
            "{}: kept {} (limits already there are the setter's; --write-limits replaces them)",
            pack::PROBLEM_YAML,
            kept.join(", ")
        )
    })
}

/// What became of the files already in the output folder: the previous pack's, those no pack
/// lists, and the other packs'.
fn other_files_lines(report: &PackReport, opts: &Target) -> Vec<String> {
    let files = |n: usize| crate::text::plural(n as u64, "file");
    let pack_name = describe_pack(opts.name, pack::layout_name(opts.layout));
    let mut lines = Vec::new();
    if !report.removed.is_empty() {
        lines.push(format!(
            "removed {} of the previous {} listed in {}: {}",
            files(report.removed.len()),
            pack_name.trim_start_matches("the "),
            pack::MANIFEST,
            names(&report.removed)
        ));
    }
    if !report.replaced_unlisted.is_empty() {
        lines.push(format!(
            "replaced {} of the same names that {} did not list: {}",
            files(report.replaced_unlisted.len()),
            pack::MANIFEST,
            names(&report.replaced_unlisted)
        ));
    }
    if !report.left_in_place.is_empty() {
        lines.push(format!(
            "left in place {} that no pack in {} lists: {}",
            files(report.left_in_place.len()),
            pack::MANIFEST,
            names(&report.left_in_place)
        ));
    }
    for kept in &report.kept {
        lines.push(format!("kept {kept}"));
    }
    lines
}

/// A note when a 2025-09 package, the version BAPCtools reads, is written to a folder whose
/// name BAPCtools would not take for a problem's (lowercase letters and digits only).
fn folder_name_note(version: IcpcVersion, out: &std::path::Path) -> Option<String> {
    let folder = out.file_name().map(|n| n.to_string_lossy().into_owned());
    let plain = |n: &String| {
        !n.is_empty()
            && n.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    };
    let folder = folder.filter(|n| version == IcpcVersion::V2025_09 && !plain(n))?;
    Some(format!(
        "note: BAPCtools wants a problem's folder named with lowercase letters and digits only \
         ({folder} is not)"
    ))
}

/// What became of the setter's `problem.yaml`, when there was one to merge into.
fn yaml_line(yaml: Option<&YamlOutcome>, opts: &Target) -> Option<String> {
    match yaml {
        Some(YamlOutcome::Updated(changes)) => Some(format!(
            "{}: {}; every other key and comment kept",
            pack::PROBLEM_YAML,
            changes.join(", ")
        )),
        Some(YamlOutcome::LeftAlone(why)) => {
            let (time_ms, memory_mib) = opts.limits;
            Some(format!(
                "warning: {} left as it is ({why}); its limits should be time_limit: {} and \
                 memory: {memory_mib}",
                pack::PROBLEM_YAML,
                time_ms as f64 / 1000.0
            ))
        }
        _ => None,
    }
}
