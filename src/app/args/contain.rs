//! `--sandbox`, `--no-sandbox` and `--env`: how the programs of a command are contained
//! ([`crate::run::contain`]), and what environment the program under test gets.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::Args;

use crate::run::contain::{self, Mode, Policy};

// How the programs are contained.
#[derive(Debug, Clone, Default, PartialEq, Eq, Args)]
pub struct ContainArgs {
    /// Refuse to run unless every protection of the programs is available here (a cgroup,
    /// namespaces, and as root a box uid): a missing one is an error (exit 2) rather than a
    /// warning. For setters and CI that judge programs that are not theirs.
    #[arg(long, conflicts_with = "no_sandbox")]
    pub sandbox: bool,
    /// Run the programs as duipai's own children, in the current folder, with duipai's
    /// environment, as before containment: to debug a program that needs files around it.
    #[arg(long)]
    pub no_sandbox: bool,
    /// A variable the program under test gets besides PATH, LANG, LC_ALL, HOME (its scratch
    /// folder) and ONLINE_JUDGE: NAME passes duipai's value, NAME=VALUE sets one; repeatable.
    #[arg(long = "env", value_name = "NAME[=VALUE]", value_parser = parse_env)]
    pub env: Vec<OsString>,
    /// Run a Polygon package's helpers (checker, validator, generators, interactor, main
    /// solution) as your own ones run, as duipai's user in the current folder, rather than
    /// contained as the program under test is: for a package whose helpers need files beside
    /// them. Only for packages you trust.
    #[arg(long)]
    pub unboxed_helpers: bool,
}

/// An `--env` entry: `NAME` or `NAME=VALUE`.
fn parse_env(text: &str) -> Result<OsString, String> {
    let text = OsString::from(text);
    contain::check_entry(&text)?;
    Ok(text)
}

impl ContainArgs {
    /// The flags as typed (each with a leading space), for a replay command.
    pub fn to_flags(&self) -> String {
        let mut flags = String::new();
        if self.sandbox {
            flags.push_str(" --sandbox");
        }
        if self.no_sandbox {
            flags.push_str(" --no-sandbox");
        }
        if self.unboxed_helpers {
            flags.push_str(" --unboxed-helpers");
        }
        for entry in &self.env {
            let words = [entry.to_string_lossy().into_owned()];
            flags.push_str(&format!(" --env {}", shell_words::join(words)));
        }
        flags
    }

    /// Contains the programs of this command as the flags say, before its first run
    /// ([`contain::arm`]), the program under test kept out of `protect` (the test folder,
    /// the saved failures, a package) besides the current folder. The helpers run contained
    /// too when the settings came from a Polygon package, unless `--unboxed-helpers`. Each
    /// protection missing here is a line on stderr, and with `--sandbox` an error.
    pub fn arm(&self, protect: Vec<PathBuf>) -> anyhow::Result<()> {
        let mode = if self.no_sandbox {
            Mode::Off
        } else if self.sandbox {
            Mode::Strict
        } else {
            Mode::Auto
        };
        let missing = contain::arm(Policy {
            mode,
            env: self.env.clone(),
            protect,
            helpers: crate::app::config::from_package() && !self.unboxed_helpers,
        });
        if mode == Mode::Strict && !missing.is_empty() {
            let lines: Vec<String> = missing.iter().map(|m| format!("  {m}")).collect();
            anyhow::bail!(
                "--sandbox: {} missing here, so no program is run:\n{}",
                crate::text::plural(missing.len() as u64, "protection"),
                lines.join("\n")
            );
        }
        for missing in missing {
            eprintln!("duipai: {missing}");
        }
        Ok(())
    }
}

// `--unboxed-helpers` alone, for the commands that run no program under test but may run a
// Polygon package's helpers (`pack`, `answers`, `validate`, `gen`): its generators,
// validator and main solution run contained there as in `judge`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Args)]
pub struct HelperBoxArgs {
    /// Run a Polygon package's helpers (validator, generators, main solution) as your own
    /// ones run, as duipai's user in the current folder, rather than contained: for a
    /// package you trust whose helpers need files beside them.
    #[arg(long)]
    pub unboxed_helpers: bool,
}

impl HelperBoxArgs {
    /// Contains a Polygon package's helpers before the first of them runs (a helper of one's
    /// own runs as the user's own, as before): each protection missing here is a line on
    /// stderr, and the helpers then run as the user's own.
    pub fn arm(&self) {
        if !crate::app::config::from_package() || self.unboxed_helpers {
            return;
        }
        let missing = contain::arm(Policy {
            mode: Mode::Auto,
            env: Vec::new(),
            protect: Vec::new(),
            helpers: true,
        });
        for missing in missing {
            eprintln!("duipai: {missing}");
        }
    }
}
