//! `duipai solve`: the reference answer for one input, optionally with the optimal line of play.

use std::path::Path;

use anyhow::Context;

use crate::app::args::SolveArgs;
use crate::app::exit::Status;
use crate::app::ui::{self, Human};
use crate::problem::explanations_text;

/// Reads INPUT, or stdin when it is absent or `-`; returns the bytes and the name messages use.
pub fn read_input(input: Option<&Path>) -> anyhow::Result<(Vec<u8>, String)> {
    match input {
        Some(path) if path.as_os_str() != "-" => {
            let name = path.display().to_string();
            Ok((crate::fsutil::read_file_capped(path)?, name))
        }
        _ => {
            let bytes = crate::fsutil::read_capped(std::io::stdin().lock(), "standard input")?;
            Ok((bytes, "<stdin>".to_string()))
        }
    }
}

pub fn run(args: SolveArgs) -> anyhow::Result<Status> {
    let Some(problem) = crate::problem::by_name(&args.problem) else {
        return own(&args);
    };
    if args.reference.is_some() {
        anyhow::bail!("--reference is for problems of your own; {problem} has a solver of its own");
    }
    let bounds = args.bounds.resolve(problem)?;
    let (bytes, name) = read_input(args.input.as_deref())?;
    let instance = match problem.parse(&bytes, &bounds) {
        Ok(instance) => instance,
        Err(e) => {
            eprintln!("{name}:{}:{}: {}", e.line, e.column, e.message);
            return Ok(Status::Failure);
        }
    };
    let answers = instance
        .try_solve()
        .with_context(|| format!("cannot solve {name}"))?;
    let out = Human::new(false);
    out.text(answers.iter().map(|a| format!("{a}\n")).collect::<String>());
    if args.explain {
        let explanations = instance
            .try_explain()
            .with_context(|| format!("cannot solve {name}"))?;
        out.text(ui::explanation(&explanations_text(&explanations, None)));
    }
    Ok(Status::Success)
}

/// The reference's answer for a problem of one's own, as it prints it.
fn own(args: &SolveArgs) -> anyhow::Result<Status> {
    if args.explain || args.bounds.is_set() {
        anyhow::bail!(
            "--explain and the --bound-* flags are for the built-in games; {} is a problem of \
             your own",
            crate::text::quote(&args.problem)
        );
    }
    let Some(reference) = &args.reference else {
        return Err(crate::app::own::missing(
            &args.problem,
            "reference",
            "sol.cpp",
        ));
    };
    let parts = crate::app::own::Parts {
        reference: Some(reference),
        compilers: &args.compilers,
        ..Default::default()
    };
    let problem = crate::app::own::problem(&args.problem, &parts)?;
    let (bytes, _) = read_input(args.input.as_deref())?;
    let runner = crate::judge::ProcessRunner { rerun: false };
    let answer = problem.answer(&runner, &bytes)?;
    let mut out = std::io::stdout().lock();
    std::io::Write::write_all(&mut out, &answer)
        .and_then(|()| std::io::Write::flush(&mut out))
        .context("writing the answer to stdout")?;
    Ok(Status::Success)
}
