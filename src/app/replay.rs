//! The commands a report prints to replay a failure: every flag that decides the case, its
//! judging or where it is saved, as typed, with the program quoted for a shell.

use std::ffi::OsString;
use std::path::Path;

use crate::app::args::{
    CompilerOverride, DEFAULT_SAVE_DIR, GenArgs, JudgingArgs, StressArgs, env_shrink_time,
};
use crate::text::{quote_command, shell_quote};

/// `duipai test PROBLEM FILE [comparison] [limits] [running] [checker] [compilers] --
/// PROGRAM`: judges the program on the saved case the way it was judged. No `--reference`:
/// the saved case has its answer.
pub fn test_command(
    problem: &str,
    input: &Path,
    judging: &JudgingArgs,
    program: &[OsString],
) -> String {
    format!(
        "duipai test {problem} {}{}{}{}{}{} -- {}",
        shell_quote(&input.to_string_lossy()),
        judging.compare.to_flags(),
        judging.limits.to_flags(),
        judging.run.to_flags(),
        judging.checker.to_flags(),
        compiler_flags(&judging.compilers),
        quote_command(program)
    )
}

/// `duipai stress PROBLEM [gen flags] [comparison] [helpers] [checker] --seed S --iterations
/// 1 --no-replay [--save DIR] [minimizing] [compilers] [limits] [running] -- PROGRAM`: finds
/// the same case again from its seed, minimizes it the same way and saves it in the same
/// directory.
pub fn stress_command(args: &StressArgs, seed: u64) -> String {
    let mut flags = gen_flags(&args.gen_args);
    flags.push_str(&args.judging.compare.to_flags());
    let helpers = [
        ("--generator", &args.generator),
        ("--reference", &args.judging.reference),
        ("--validator", &args.validator),
    ];
    for (flag, command) in helpers {
        if let Some(words) = command {
            flags.push_str(&format!(
                " {flag} {}",
                shell_quote(&quote_command(&words.0))
            ));
        }
    }
    flags.push_str(&args.judging.checker.to_flags());
    // The seed is searched even while a saved case still fails (which would end the run).
    flags.push_str(&format!(" --seed {seed} --iterations 1 --no-replay"));
    if args.save != Path::new(DEFAULT_SAVE_DIR) {
        flags.push_str(&format!(
            " --save {}",
            shell_quote(&args.save.to_string_lossy())
        ));
    }
    if args.no_shrink {
        flags.push_str(" --no-shrink");
    } else if let Some(time) = args.shrink_time.filter(|&t| Some(t) != env_shrink_time()) {
        flags.push_str(&format!(" --shrink-time {}", time.as_secs_f64()));
    }
    if args.no_choices && !args.no_shrink {
        flags.push_str(" --no-choices");
    }
    let words: String = args
        .args
        .iter()
        .map(|w| format!(" {}", shell_quote(w)))
        .collect();
    format!(
        "duipai stress {}{words}{flags}{}{}{} -- {}",
        args.problem,
        compiler_flags(&args.judging.compilers),
        args.judging.limits.to_flags(),
        args.judging.run.to_flags(),
        quote_command(&args.program)
    )
}

/// The generator flags, each with a leading space.
fn gen_flags(gen_args: &GenArgs) -> String {
    let flags = gen_args.to_params().to_flags();
    if flags.is_empty() {
        flags
    } else {
        format!(" {flags}")
    }
}

/// `--compiler LANG=COMMAND` for each override, as one shell word each, with a leading space.
fn compiler_flags(compilers: &[CompilerOverride]) -> String {
    compilers
        .iter()
        .map(|CompilerOverride(language, words)| {
            let words: Vec<OsString> = words.iter().map(OsString::from).collect();
            format!(
                " --compiler {}",
                shell_quote(&format!("{}={}", language.id(), quote_command(&words)))
            )
        })
        .collect()
}
