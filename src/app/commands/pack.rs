//! `duipai pack`: a whole test pack from a plan (the built-in one or the user's).

use anyhow::Context;

use crate::app::args::{LayoutArg, PackArgs};
use crate::app::exit::Status;
use crate::app::interrupt;
use crate::app::ui::Progress;
use crate::pack::manifest::describe_pack;
use crate::pack::parse_plan;
use crate::pack::survey::names;
use crate::pack::{self, IcpcVersion, PackOptions, PackReport, YamlOutcome, plan};

pub fn run(args: PackArgs) -> anyhow::Result<Status> {
    // Ctrl-C stops between tests, leaving whole files and the pack marked incomplete.
    interrupt::install();
    let Some(problem) = crate::problem::by_name(&args.problem) else {
        anyhow::bail!("packs of problems of your own are not written yet");
    };
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
            // The manifest names the plan by its file name only, so that the same plan packs
            // to the same bytes wherever it is kept.
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| path.display().to_string());
            parse_plan(&name, &text, problem).map_err(|mut e| {
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
    if args.icpc_version.is_some() && args.layout != LayoutArg::Icpc {
        anyhow::bail!("--icpc-version is for --layout icpc");
    }
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
    for line in report_lines(&report, &opts) {
        eprintln!("duipai: {line}");
    }
    eprintln!("duipai: {}", coverage_line(&report, &opts));
    eprintln!(
        "duipai: wrote {} files ({}) and {} to {}",
        report.files.len(),
        crate::text::plural(tests as u64, "test"),
        pack::MANIFEST,
        opts.out.display()
    );
    Ok(Status::Success)
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
fn report_lines(report: &PackReport, opts: &PackOptions) -> Vec<String> {
    let mut lines = other_files_lines(report, opts);
    if let Some(version) = report.icpc_version {
        lines.push(icpc_version_line(version));
        lines.extend(folder_name_note(version, &opts.out));
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
fn other_files_lines(report: &PackReport, opts: &PackOptions) -> Vec<String> {
    let files = |n: usize| crate::text::plural(n as u64, "file");
    let pack_name = describe_pack(opts.problem.name(), pack::layout_name(opts.layout));
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
fn yaml_line(yaml: Option<&YamlOutcome>, opts: &PackOptions) -> Option<String> {
    match yaml {
        Some(YamlOutcome::Updated(changes)) => Some(format!(
            "{}: {}; every other key and comment kept",
            pack::PROBLEM_YAML,
            changes.join(", ")
        )),
        Some(YamlOutcome::LeftAlone(why)) => {
            let (time_ms, memory_mib) = opts.problem.default_limits();
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
