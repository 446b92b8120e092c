//! `duipai gen`: one seeded input on stdout, from the built-in generator of a game duipai
//! knows or from a problem of one's own's generator.

use std::io::Write;

use anyhow::{Context, bail};

use crate::app::args::GenCommandArgs;
use crate::app::exit::Status;
use crate::app::own::{self, Parts};
use crate::judge::ProcessRunner;
use crate::problem::Spec;
use crate::text::quote;

pub fn run(args: GenCommandArgs) -> anyhow::Result<Status> {
    args.helpers.arm();
    let text = match crate::problem::by_name(&args.problem) {
        Some(game) => {
            if let Some(word) = args.args.first() {
                bail!(
                    "{game}'s generator takes flags (--n 3, --family NAME), not arguments: found \
                     {}",
                    quote(word)
                );
            }
            if args.generators.is_set() {
                bail!("--generator is for problems of your own; {game} has a generator of its own");
            }
            let spec = Spec::new(game, &args.gen_args.to_params())?;
            spec.generate(args.seed).to_input().into_bytes()
        }
        None => own_input(&args)?,
    };
    let mut out = std::io::stdout().lock();
    out.write_all(&text)
        .and_then(|()| out.flush())
        .context("writing the case to stdout")?;
    Ok(Status::Success)
}

/// The input the generator of a problem of one's own prints for the arguments and the seed.
fn own_input(args: &GenCommandArgs) -> anyhow::Result<Vec<u8>> {
    if args.gen_args != Default::default() {
        bail!(
            "the generator flags (--n, --m, ...) are for the built-in games; a generator of your \
             own gets its arguments after the problem's name, those starting with `-` after \
             `--`: duipai gen {} --seed {} -- --n 10",
            args.problem,
            args.seed
        );
    }
    if !args.generators.is_set() {
        return Err(own::missing(&args.problem, "generator", "gen.py"));
    }
    let parts = Parts {
        generators: Some(&args.generators),
        compilers: &args.compilers,
        ..Parts::default()
    };
    let problem = own::problem(&args.problem, &parts)?;
    let runner = ProcessRunner { rerun: false };
    problem.generate(&runner, None, &args.args, Some(args.seed))
}
