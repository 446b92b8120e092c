//! Programs as users type them: a source file (`a.cpp`, `brute.py`) is compiled (or found in
//! the cache) before the run, and the command that runs it replaces it; a compile error is a
//! harness error showing the compiler's own messages.

use std::ffi::OsString;

use anyhow::Context;

use crate::app::args::{CompilerOverride, compile_options};
use crate::compile::prepare;

/// The command that runs `command`, after compiling its first word if it is a source file;
/// says on stderr when the compiler ran. `role` names the program in messages.
pub fn ready(
    command: &[OsString],
    compilers: &[CompilerOverride],
    role: &str,
) -> anyhow::Result<Vec<OsString>> {
    let prepared = prepare(command, &compile_options(compilers))
        .with_context(|| format!("cannot prepare the {role}"))?;
    if prepared.compiled {
        let source = command
            .first()
            .map(|w| w.to_string_lossy().into_owned())
            .unwrap_or_default();
        eprintln!(
            "duipai: compiled {source} in {:.1} s",
            prepared.compile_time.unwrap_or_default().as_secs_f64()
        );
    }
    Ok(prepared.command)
}
