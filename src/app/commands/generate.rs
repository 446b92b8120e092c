//! `duipai gen`: one seeded input on stdout.

use std::io::Write;

use anyhow::Context;

use crate::app::args::GenCommandArgs;
use crate::app::exit::Status;
use crate::problem::Spec;

pub fn run(args: GenCommandArgs) -> anyhow::Result<Status> {
    let spec = Spec::new(args.problem, &args.gen_args.to_params())?;
    let text = spec.generate(args.seed).to_input();
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .context("writing the case to stdout")?;
    Ok(Status::Success)
}
