//! `duipai gen`: one seeded input on stdout.

use std::io::Write;

use anyhow::Context;

use crate::cli::GenCommandArgs;
use crate::exit::Status;
use crate::generate::Spec;

pub fn run(args: GenCommandArgs) -> anyhow::Result<Status> {
    let spec = Spec::new(args.problem, &args.gen_args)?;
    let text = spec.generate(args.seed).to_input();
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .context("writing the case to stdout")?;
    Ok(Status::Success)
}
