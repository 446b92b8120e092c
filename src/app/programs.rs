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

/// The hint for a program that wrote its answer to `NAME.out` instead of stdout: when a run
/// without `--file-io` printed nothing and that file appeared in the working directory since
/// `started`.
pub fn file_io_hint(
    name: &str,
    file_io: bool,
    empty_output: bool,
    started: std::time::SystemTime,
) -> Option<String> {
    if file_io || !empty_output {
        return None;
    }
    let file = format!("{name}.out");
    let modified = std::fs::metadata(&file).ok()?.modified().ok()?;
    // File times come from a coarse clock that can lag the one `started` was read from.
    let slack = std::time::Duration::from_secs(1);
    (modified + slack >= started).then(|| {
        format!(
            "hint: the program printed nothing but wrote {file}: it uses the contest's file \
             I/O; run it with --file-io"
        )
    })
}
