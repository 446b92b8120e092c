//! `duipai pack`: a whole test pack from a plan (the built-in one or the user's).

use anyhow::Context;

use crate::app::args::PackArgs;
use crate::app::exit::Status;
use crate::app::interrupt;
use crate::app::ui::Progress;
use crate::pack::parse_plan;
use crate::pack::{self, PackOptions, plan};

pub fn run(args: PackArgs) -> anyhow::Result<Status> {
    // Ctrl-C stops between tests, leaving whole files and no manifest.
    interrupt::install();
    let problem = args.problem;
    let parsed = match &args.plan {
        Some(path) => {
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
        None => parse_plan(
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
    };
    let progress = Progress::bar("packing", tests as u64, "tests");
    let written = pack::write_pack_report(&opts, &mut |done, _| progress.set_position(done as u64));
    progress.finish();
    let report = written?;
    let files = &report.files;
    if !report.removed.is_empty() {
        let shown = report.removed.len().min(8);
        let more = report.removed.len() - shown;
        eprintln!(
            "duipai: removed {} of the previous pack: {}{}",
            crate::text::plural(report.removed.len() as u64, "file"),
            report.removed[..shown].join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        );
    }
    if !report.foreign.is_empty() {
        eprintln!(
            "duipai: left alone (not test data): {}",
            report.foreign.join(", ")
        );
    }
    eprintln!(
        "duipai: wrote {} files ({tests} tests) and {} to {}",
        files.len(),
        pack::MANIFEST,
        opts.out.display()
    );
    Ok(Status::Success)
}
