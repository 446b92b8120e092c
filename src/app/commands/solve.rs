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
    let bounds = args.bounds.resolve(args.problem)?;
    let (bytes, name) = read_input(args.input.as_deref())?;
    let instance = match args.problem.parse(&bytes, &bounds) {
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
