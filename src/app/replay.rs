//! The commands a report prints to replay a failure: the limit and generator flags as they
//! were typed, with the program quoted for a shell.

use std::ffi::OsString;
use std::path::Path;

use crate::app::args::{GenArgs, LimitArgs};
use crate::text::{quote_command, shell_quote};

/// `duipai test PROBLEM FILE [limits] -- PROGRAM`: judges the program on the saved case.
pub fn test_command(
    problem: &str,
    input: &Path,
    limits: &LimitArgs,
    program: &[OsString],
) -> String {
    format!(
        "duipai test {problem} {}{} -- {}",
        shell_quote(&input.to_string_lossy()),
        limits.to_flags(),
        quote_command(program)
    )
}

/// `duipai stress PROBLEM [gen flags] --seed S --iterations 1 [limits] -- PROGRAM`: finds the
/// same case again from its seed.
pub fn stress_command(
    problem: &str,
    gen_args: &GenArgs,
    seed: u64,
    no_shrink: bool,
    limits: &LimitArgs,
    program: &[OsString],
) -> String {
    let flags = gen_args.to_params().to_flags();
    format!(
        "duipai stress {problem}{}{flags} --seed {seed} --iterations 1{}{} -- {}",
        if flags.is_empty() { "" } else { " " },
        if no_shrink { " --no-shrink" } else { "" },
        limits.to_flags(),
        quote_command(program)
    )
}
