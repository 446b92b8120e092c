//! Programs as users type them: a source file (`a.cpp`, `brute.py`) is compiled (or found in
//! the cache) before the run, and the command that runs it replaces it; a compile error is a
//! harness error showing the compiler's own messages. A bare `a.out` that PATH does not know
//! is the file here.

use std::ffi::OsString;
use std::path::Path;

use anyhow::Context;

use crate::app::args::{CheckerArgs, CompareArgs, CompilerOverride, compile_options};
use crate::compile::{CompileOptions, prepare};
use crate::judge::{Checker, Decider, Interactor};
use crate::run::{Limits, find_program, has_separator};

/// The roles of the programs that only judge: built as helpers (see
/// [`CompileOptions::helper`]).
const JUDGING_HELPERS: [&str; 3] = ["validator", "checker", "interactor"];

/// The command that runs `command`, after compiling its first word if it is a source file;
/// says on stderr when the compiler ran. `role` names the program in messages.
pub fn ready(
    command: &[OsString],
    compilers: &[CompilerOverride],
    role: &str,
) -> anyhow::Result<Vec<OsString>> {
    let options = CompileOptions {
        helper: JUDGING_HELPERS.contains(&role),
        ..compile_options(compilers)
    };
    let prepared =
        prepare(command, &options).with_context(|| format!("cannot prepare the {role}"))?;
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
    let command = here_if_not_in_path(prepared.command);
    check_startable(&command, role)?;
    Ok(command)
}

/// A program that cannot be found is reported once, before any case, rather than as a failed
/// start on every seed or case.
fn check_startable(command: &[OsString], role: &str) -> anyhow::Result<()> {
    let Some(first) = command.first() else {
        anyhow::bail!("the {role} is an empty command");
    };
    if find_program(first).is_some() {
        return Ok(());
    }
    let shown = first.to_string_lossy();
    let path = Path::new(first);
    if first.as_encoded_bytes().contains(&b'/') {
        let why = if path.is_dir() {
            "it is a directory"
        } else {
            "there is no such file"
        };
        anyhow::bail!("cannot start the {role} {shown}: {why}");
    }
    if path.is_file() {
        anyhow::bail!(
            "cannot start the {role} {shown}: a name without a slash is looked up in PATH, \
             which has no such program, and the file {shown} here is not executable (chmod +x \
             it, or put its interpreter before it: sh {shown})"
        );
    }
    anyhow::bail!(
        "cannot start the {role} {shown}: no such program (a name without a slash is looked \
         up in PATH; write ./{shown} for a file in the current directory)"
    )
}

/// How outputs are decided: by the `--interactor` the program talks with, or by the
/// `--checker` (its source compiled first), under the generous `helper_limits`, else by
/// comparing them with the answers. `--tolerance` and
/// `--ignore-case` with a checker are refused: the checker alone decides, and they would
/// silently do nothing.
pub fn decider(
    checker: &CheckerArgs,
    compare: &CompareArgs,
    compilers: &[CompilerOverride],
    helper_limits: &Limits,
) -> anyhow::Result<Decider> {
    let command = match judge_helper(checker, compare)? {
        Some((command, role)) => Some(ready(command, compilers, role)?),
        None => None,
    };
    Ok(decider_of(checker, command, helper_limits))
}

/// The checker's or the interactor's command as typed and its role, once the comparison
/// flags that would do nothing beside it are refused; `None` when outputs are compared.
pub fn judge_helper<'a>(
    checker: &'a CheckerArgs,
    compare: &CompareArgs,
) -> anyhow::Result<Option<(&'a [OsString], &'static str)>> {
    let (command, role, why) = match (&checker.interactor, &checker.checker) {
        (Some(command), _) => (
            command,
            "interactor",
            "the interactor alone decides whether the program is right",
        ),
        (None, Some(command)) => (
            command,
            "checker",
            "the checker alone decides whether an output is right (testlib checkers compare \
             reals with their own tolerance)",
        ),
        (None, None) => return Ok(None),
    };
    if let Some(flag) = compare.first_flag() {
        anyhow::bail!("{flag} does nothing with --{role}: {why}");
    }
    Ok(Some((&command.0, role)))
}

/// The decider of [`judge_helper`]'s command once it is `ready`, under `helper_limits`.
pub fn decider_of(
    checker: &CheckerArgs,
    ready: Option<Vec<OsString>>,
    helper_limits: &Limits,
) -> Decider {
    let limits = *helper_limits;
    match (ready, &checker.interactor, &checker.checker) {
        (Some(command), Some(typed), _) => Decider::Interactor(Interactor {
            command,
            name: crate::text::program_name(&typed.0),
            limits,
        }),
        (Some(command), None, Some(typed)) => Decider::Checker(Checker {
            command,
            name: crate::text::program_name(&typed.0),
            protocol: checker.checker_protocol.into(),
            limits,
        }),
        _ => Decider::Compare,
    }
}

/// The program and the checker or interactor made ready at once ([`ready_all`]), and the
/// decider, under `helper_limits`.
pub fn ready_with_decider(
    program: &[OsString],
    checker: &CheckerArgs,
    compare: &CompareArgs,
    compilers: &[CompilerOverride],
    helper_limits: &Limits,
) -> anyhow::Result<(Vec<OsString>, Decider)> {
    let judge = judge_helper(checker, compare)?;
    let mut commands = vec![(program, "program")];
    commands.extend(judge);
    let mut ready = ready_all(&commands, compilers)?.into_iter();
    let program = ready.next().unwrap_or_default();
    Ok((program, decider_of(checker, ready.next(), helper_limits)))
}

/// Makes several programs ready at once, each compiled in its own thread (a testlib
/// checker and a solution compile side by side rather than one after the other). The
/// commands come back in the order given; of several errors, the first in that order.
pub fn ready_all(
    commands: &[(&[OsString], &str)],
    compilers: &[CompilerOverride],
) -> anyhow::Result<Vec<Vec<OsString>>> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = commands
            .iter()
            .map(|&(command, role)| scope.spawn(move || ready(command, compilers, role)))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(anyhow::anyhow!("a compiler thread panicked")))
            })
            .collect()
    })
}

/// `a.out` typed without `./`: a shell would look it up in PATH and say "command not found";
/// when PATH has no such program but the current directory has an executable file of that
/// name, it is the one meant. A name PATH knows keeps its meaning.
/// Whether a file may be run: on Unix an execute bit is set; on Windows it is a program
/// (`.exe`, `.com`).
fn is_executable(meta: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(windows)]
    {
        let _ = meta;
        true
    }
}

fn here_if_not_in_path(mut command: Vec<OsString>) -> Vec<OsString> {
    let Some(first) = command.first() else {
        return command;
    };
    let bare = !first.is_empty() && !has_separator(first);
    if !bare || find_program(first).is_some() {
        return command;
    }
    let executable_here =
        std::fs::metadata(Path::new(first)).is_ok_and(|m| m.is_file() && is_executable(&m));
    if executable_here {
        let mut local = OsString::from(if cfg!(windows) { ".\\" } else { "./" });
        local.push(first);
        command[0] = local;
    }
    command
}

/// duipai's own long flags among the program's arguments (`-- ./a.out --file-io`): everything
/// after `--` goes to the program, which is rarely what was meant when the word is one of
/// `subcommand`'s flags. Says so on stderr, once per flag; the run goes on as typed.
pub fn warn_flags_after_separator(subcommand: &str, program: &[OsString]) {
    use clap::CommandFactory;
    if program.len() < 2 {
        return;
    }
    let cli = crate::app::args::Cli::command();
    let Some(command) = crate::app::args::subcommand(&cli, subcommand) else {
        return;
    };
    let flags: Vec<String> = command
        .get_arguments()
        .chain(cli.get_arguments())
        .filter_map(|arg| arg.get_long())
        .map(|long| format!("--{long}"))
        .collect();
    let mut warned: Vec<&str> = Vec::new();
    for word in program.iter().skip(1).filter_map(|w| w.to_str()) {
        let name = word.split_once('=').map_or(word, |(name, _)| name);
        if flags.iter().any(|f| f == name) && !warned.contains(&name) {
            warned.push(name);
            eprintln!(
                "duipai: note: {name} comes after `--`, so it is an argument of the program, \
                 not a flag of duipai; put duipai's flags before `--`"
            );
        }
    }
}

/// The hint for a program that printed nothing where its answer is read (stdout, or the
/// output file under `--file-io`) and was not accepted for it: it probably reads or writes
/// files of its own. When `NAME.out` appeared in the working directory since `started`, or
/// in its scratch directory (whatever the verdict: such a program may wait for input it
/// never gets), it uses the
/// contest's file I/O. Otherwise, after a clean exit, it may read a file such as `input.txt`
/// unless `ONLINE_JUDGE` is defined, as contestants' programs often do: the hint names both
/// ways out.
pub fn silent_program_hint(
    name: &str,
    io: &crate::run::IoMode,
    outcome: &crate::judge::CaseOutcome,
    started: std::time::SystemTime,
) -> Option<String> {
    let execution = &outcome.execution;
    if !execution.stdout.is_empty() || outcome.verdict().is_accepted() {
        return None;
    }
    let (file_io, file) = match io {
        crate::run::IoMode::Files { output, .. } => (true, output.clone()),
        crate::run::IoMode::Stdio => (false, format!("{name}.out")),
    };
    let left = execution.left_files.contains(&file);
    if !file_io && (left || written_since(Path::new(&file), started)) {
        return Some(format!(
            "hint: the program printed nothing but wrote {file}: it uses the contest's file \
             I/O; run it with --file-io"
        ));
    }
    // A missing output file is a verdict that already says what the program did instead.
    let output_found = execution.output_file.as_ref().is_none_or(|f| f.found);
    if execution.termination != crate::run::Termination::Exited(0) || !output_found {
        return None;
    }
    // A program that read its stdin to the end did not read a file instead: it read its
    // input and printed nothing.
    if !file_io && execution.read_its_input == Some(true) {
        return None;
    }
    let undefined = "compile it with -DONLINE_JUDGE if it opens a file (input.txt) unless \
                     ONLINE_JUDGE is defined (duipai defines it when it compiles a source file)";
    Some(if file_io {
        format!(
            "hint: the program exited normally but wrote nothing to {file}: it may read its \
             input from another file; {undefined}"
        )
    } else {
        format!(
            "hint: the program exited normally, printed nothing and left its input unread: it \
             may read its input from a file. Run it with --file-io if it reads {name}.in and \
             writes {file}; {undefined}"
        )
    })
}

/// Whether `file` was modified since `started`.
fn written_since(file: &Path, started: std::time::SystemTime) -> bool {
    let Some(modified) = std::fs::metadata(file).ok().and_then(|m| m.modified().ok()) else {
        return false;
    };
    // File times come from a coarse clock that can lag the one `started` was read from.
    let slack = std::time::Duration::from_secs(1);
    modified + slack >= started
}
