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
/// `helpers` are the generator, reference and validator commands as (flag, words), each given
/// again as one shell word (`--generator 'python3 gen.py'`).
pub fn stress_command(
    problem: &str,
    gen_args: &GenArgs,
    helpers: &[(&str, &[OsString])],
    seed: u64,
    no_shrink: bool,
    limits: &LimitArgs,
    program: &[OsString],
) -> String {
    let mut flags = gen_args.to_params().to_flags();
    for (flag, words) in helpers {
        if !flags.is_empty() {
            flags.push(' ');
        }
        flags.push_str(&format!("{flag} {}", shell_quote(&quote_command(words))));
    }
    format!(
        "duipai stress {problem}{}{flags} --seed {seed} --iterations 1{}{} -- {}",
        if flags.is_empty() { "" } else { " " },
        if no_shrink { " --no-shrink" } else { "" },
        limits.to_flags(),
        quote_command(program)
    )
}
