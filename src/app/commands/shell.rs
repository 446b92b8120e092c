//! `duipai completions` and `duipai man`: the completion script of a shell and the manual
//! pages, written from the same clap definitions that parse the command line, so they name
//! every command and flag there is and no other.

use std::io::Write;

use clap::CommandFactory;

use crate::app::args::{Cli, CompletionsArgs, ManArgs};
use crate::app::exit::Status;

/// Prints the completion script of `args.shell` on stdout.
pub fn completions(args: CompletionsArgs) -> anyhow::Result<Status> {
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "duipai", &mut script);
    write_out(&script)?;
    Ok(Status::Success)
}

/// Prints the manual page duipai(1), or duipai-COMMAND(1), in roff on stdout.
pub fn man(args: ManArgs) -> anyhow::Result<Status> {
    let mut root = Cli::command();
    root.build();
    let page = match &args.command {
        None => root,
        Some(name) => {
            let Some(sub) = root.find_subcommand(name) else {
                let names: Vec<&str> = root.get_subcommands().map(|c| c.get_name()).collect();
                anyhow::bail!("no command `{name}`: the commands are {}", names.join(", "));
            };
            let full = format!("duipai-{name}");
            sub.clone()
                .name(full.clone())
                .display_name(full)
                .bin_name(format!("duipai {name}"))
        }
    };
    let mut roff = Vec::new();
    clap_mangen::Man::new(page).render(&mut roff)?;
    write_out(&roff)?;
    Ok(Status::Success)
}

fn write_out(bytes: &[u8]) -> anyhow::Result<()> {
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(bytes)?;
    stdout.flush()?;
    Ok(())
}
