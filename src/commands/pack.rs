//! `duipai pack`: a whole test pack from a plan (the built-in one or the user's).

use anyhow::Context;

use crate::cli::PackArgs;
use crate::exit::Status;
use crate::pack::{self, PackOptions, plan};

pub fn run(args: PackArgs) -> anyhow::Result<Status> {
    // Ctrl-C stops between tests, leaving whole files and no manifest.
    crate::interrupt::install();
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
            plan::parse(&name, &text, problem).map_err(|mut e| {
                e.file = path.display().to_string();
                e
            })?
        }
        None => plan::parse(
            &plan::builtin_name(problem),
            plan::builtin(problem),
            problem,
        )?,
    };
    let tests = parsed.lines.len();
    let opts = PackOptions {
        problem,
        out: args.out,
        plan: parsed,
        layout: args.layout,
        seed: args.seed,
        force: args.force,
        progress: true,
    };
    let files = pack::write_pack(&opts)?;
    eprintln!(
        "duipai: wrote {} files ({tests} tests) and {} to {}",
        files.len(),
        pack::MANIFEST,
        opts.out.display()
    );
    Ok(Status::Success)
}
