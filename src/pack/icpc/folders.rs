//! Where the ICPC package of a problem of one's own keeps the setter's things, as both the
//! package and its `generators/generators.yaml` name them: a program folder a program (the
//! source, its local headers, and `build` and `run` scripts that call it as the format calls
//! its validators), the test groups' folders with their `test_group.yaml`, and the accepted
//! submission's path.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail};

use crate::compile::Language;
use crate::own::source::Source;
use crate::own::{Helper, Judging, OwnProblem};
use crate::pack::icpc::IcpcVersion;
use crate::pack::own::file::{OwnFile, OwnPackOptions};
use crate::pack::validator_flags;
use crate::text::shell_quote;

/// What a program folder's `run` script does around the program.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Wrap {
    /// Runs it with the arguments it gets (a generator, an output validator of the format).
    Plain,
    /// An input validator: exit 0 or 42 is 42, anything else 43.
    Validator,
    /// A testlib checker as an output validator.
    TestlibChecker,
    /// A testlib interactor as an interactive output validator.
    TestlibInteractor,
    /// The reference as an answer validator: the answer must be exactly its output.
    Reference,
}

/// The folder name of a helper's program: its source's stem, made a plain name.
pub(super) fn folder_name(helper: &Helper, fallback: &str) -> String {
    let stem = helper.source().map(|s| s.stem()).unwrap_or_default();
    let plain: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    if plain.is_empty() {
        fallback.to_string()
    } else {
        plain
    }
}

/// The `output_validator_args` line of the default output validator for the problem's
/// comparison (a tolerance, case), in 2025-09; `None` when it needs none.
fn validator_args(problem: &OwnProblem, version: IcpcVersion) -> Option<String> {
    let Judging::Compare(rule) = problem.judging else {
        return None;
    };
    let flags = validator_flags(rule).filter(|_| version == IcpcVersion::V2025_09)?;
    Some(format!(
        "output_validator_args: {}",
        crate::pack::icpc::args_list(&flags)
    ))
}

/// The test folders of the plan (`data/sample`, `data/secret`, `data/secret/GROUP`) with the
/// `test_group.yaml` each gets: the validator's arguments, and for a test group of the
/// setter's before 2025-09 at least an empty one, which makes it a group. In 2025-09 a folder
/// is a group by itself, and an empty `test_group.yaml` is one BAPCtools removes as not
/// generated (`bt generate` and so `bt run` then fail: "Some files were changed/removed").
pub(super) fn test_groups(
    opts: &OwnPackOptions,
    version: IcpcVersion,
) -> Vec<(usize, String, Option<String>)> {
    let args = validator_args(opts.problem, version);
    let mut folders = Vec::new();
    for (index, group) in opts.plan.groups.iter().enumerate() {
        if opts.plan.tests_of(index).next().is_none() {
            continue;
        }
        let folder = match (group.is_sample(), group.is_own()) {
            (true, _) => "data/sample".to_string(),
            (_, true) => format!("data/secret/{}", group.name),
            _ => "data/secret".to_string(),
        };
        let content = match (&args, group.is_own()) {
            (Some(args), _) => Some(format!("{args}\n")),
            (None, true) if version != IcpcVersion::V2025_09 => Some("{}\n".to_string()),
            (None, true) => None,
            (None, false) => None,
        };
        folders.push((index, folder, content));
    }
    folders
}

/// A program folder: the source, its local headers, `build` and `run`.
pub(super) fn program_dir(dir: &str, helper: &Helper, wrap: Wrap) -> anyhow::Result<Vec<OwnFile>> {
    let source = helper.source().ok_or_else(|| {
        anyhow!(
            "{} is not a source file duipai can put in the package ({}): give its source, a \
             .cpp, .c, .rs, .java or .py file",
            helper.who(),
            crate::text::quote_command(&helper.typed)
        )
    })?;
    let what = helper.role.clone();
    let file = packaged_name(&source)?;
    let mut files = vec![OwnFile::copied(
        format!("{dir}/{file}"),
        &what,
        &source.path,
    )?];
    let base = source.path.parent().unwrap_or(Path::new(""));
    for header in source.headers() {
        let rel = header
            .strip_prefix(base)
            .map(Path::to_path_buf)
            .unwrap_or_else(|_| PathBuf::from(header.file_name().unwrap_or_default()));
        let rel = rel.display().to_string();
        files.push(OwnFile::copied(format!("{dir}/{rel}"), &what, &header)?);
    }
    files.push(
        OwnFile::text(
            format!("{dir}/build"),
            "build script",
            build_script(&source, &file),
        )
        .executable(),
    );
    files.push(
        OwnFile::text(
            format!("{dir}/run"),
            "run script",
            run_script(&source, wrap, &what)?,
        )
        .executable(),
    );
    Ok(files)
}

/// The source's name in its program folder: its own, but a Java source's, named after its
/// public class as javac requires.
pub(super) fn packaged_name(source: &Source) -> anyhow::Result<String> {
    if source.language != Language::Java {
        return Ok(source.file_name());
    }
    crate::compile::java_names(&source.path)
        .map(|(file, _)| file)
        .ok_or_else(|| anyhow!("cannot read {}", source.path.display()))
}

/// `build`: compiles the source `file` as duipai's contest flags do (nothing for Python).
fn build_script(source: &Source, file: &str) -> String {
    let quoted = shell_quote(file);
    let command = match source.language {
        Language::Cpp => format!("g++ -std=c++17 -O2 -o program {quoted}"),
        Language::C => format!("gcc -std=c11 -O2 -o program {quoted} -lm"),
        Language::Rust => format!("rustc --edition 2021 -O -o program {quoted}"),
        Language::Java => format!("javac -encoding UTF-8 -d . {quoted}"),
        Language::Python => "true".to_string(),
    };
    format!(
        "#!/bin/sh\n# Written by duipai pack: compiles {file} in this folder.\nset -e\ncd \"$(dirname \"$0\")\"\n{command}\n"
    )
}

/// How `run` starts the program, with the arguments the setter's command gives it. Java runs
/// with the stack and the small reservations duipai gives it (a judge's memory limit is an
/// address-space limit).
fn invocation(source: &Source) -> anyhow::Result<String> {
    let mut words = match source.language {
        Language::Python => format!("python3 \"$dir\"/{}", shell_quote(&source.file_name())),
        Language::Java => {
            let (_, class) = crate::compile::java_names(&source.path)
                .ok_or_else(|| anyhow!("cannot read {}", source.path.display()))?;
            format!(
                "env MALLOC_ARENA_MAX=2 java -Xss64m -XX:+UseSerialGC \
                 -XX:CompressedClassSpaceSize=64m -XX:ReservedCodeCacheSize=64m -cp \"$dir\" {}",
                shell_quote(&class)
            )
        }
        _ => "\"$dir\"/program".to_string(),
    };
    for arg in &source.args {
        words.push(' ');
        words.push_str(&shell_quote(arg));
    }
    Ok(words)
}

/// `run`: the program called as the format calls it, its exit code made the format's.
fn run_script(source: &Source, wrap: Wrap, what: &str) -> anyhow::Result<String> {
    let program = invocation(source)?;
    let body = match wrap {
        Wrap::Plain => format!("exec {program} \"$@\"\n"),
        Wrap::Validator => format!(
            "# duipai's validators exit 0 (testlib's convention) or 42 on a valid input; the\n\
             # format wants 42 for a valid input and 43 for an invalid one.\n\
             {program} \"$@\"\n\
             case $? in\n    0|42) exit 42 ;;\n    *) exit 43 ;;\nesac\n"
        ),
        Wrap::TestlibChecker => format!(
            "# Called as an output validator (run input answer feedback_dir < output); the testlib\n\
             # checker takes input, output and answer files and exits 0 (accepted), 1 or 2\n\
             # (rejected); its message goes to judgemessage.txt.\n\
             output=$(mktemp) || exit 1\n\
             cat > \"$output\"\n\
             {program} \"$1\" \"$output\" \"$2\" 2> \"$3/judgemessage.txt\"\n\
             code=$?\n\
             rm -f \"$output\"\n\
             case $code in\n    0) exit 42 ;;\n    1|2) exit 43 ;;\n    *) exit 1 ;;\nesac\n"
        ),
        Wrap::Reference => format!(
            "# Called as an answer validator (run input < answer): the answer must be exactly\n\
             # what the reference prints for the input.\n\
             expected=$(mktemp) || exit 1\n\
             if ! {program} < \"$1\" > \"$expected\"; then rm -f \"$expected\"; exit 1; fi\n\
             cmp -s \"$expected\" -\n\
             code=$?\n\
             rm -f \"$expected\"\n\
             case $code in\n    0) exit 42 ;;\n    1) exit 43 ;;\n    *) exit 1 ;;\nesac\n"
        ),
        Wrap::TestlibInteractor => format!(
            "# Called as an interactive output validator (run input answer feedback_dir, talking\n\
             # with the submission on stdin and stdout); the testlib interactor takes the input\n\
             # and an output file and exits 0 (accepted), 1, 2 or 8 (rejected).\n\
             # Accepted, it waits for the submission's end: anything more it prints is\n\
             # trailing output, a wrong answer.\n\
             {program} \"$1\" \"$3/interactor.out\" 2> \"$3/judgemessage.txt\"\n\
             case $? in\n    0) ;;\n    1|2|8) exit 43 ;;\n    *) exit 1 ;;\nesac\n\
             if [ -n \"$(head -c 1)\" ]; then\n    echo \"trailing output after the interaction ended\" >> \"$3/judgemessage.txt\"\n    exit 43\nfi\nexit 42\n"
        ),
    };
    Ok(format!(
        "#!/bin/sh\n# Written by duipai pack: runs the {what} {}.\ndir=$(dirname \"$0\")\n{body}",
        source.file_name()
    ))
}

/// The reference's path in the package, under `submissions/accepted/`; `None` for an
/// interactive problem without one.
pub(super) fn accepted_path(opts: &OwnPackOptions) -> anyhow::Result<Option<String>> {
    let Some(reference) = &opts.problem.reference else {
        if matches!(opts.problem.judging, Judging::Interactor(_)) {
            // BAPCtools runs a solution on an interactive problem's samples (for their
            // .interaction), and writes its own choice into generators.yaml without one.
            return Ok(first_accepted(opts));
        }
        bail!(
            "the ICPC package needs the reference solution as an accepted submission: set `reference = \"sol.cpp\"`"
        );
    };
    let source = reference.source().ok_or_else(|| {
        anyhow!(
            "the reference {} is not a source file duipai can put in the package as an accepted \
             submission (a .cpp, .c, .rs, .java or .py file)",
            crate::text::quote_command(&reference.typed)
        )
    })?;
    if let Some(rel) = within_submissions(opts, &source.path) {
        return Ok(Some(rel));
    }
    Ok(Some(format!("submissions/accepted/{}", source.file_name())))
}

/// The first accepted submission of the problem folder, by name: `submissions/accepted/a.cpp`.
fn first_accepted(opts: &OwnPackOptions) -> Option<String> {
    let folder = opts.folder.join("submissions/accepted");
    let mut names: Vec<String> = std::fs::read_dir(&folder)
        .ok()?
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_file())
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|n| !n.starts_with('.') && Language::from_path(Path::new(n)).is_some())
        .collect();
    names.sort();
    names.first().map(|n| format!("submissions/accepted/{n}"))
}

/// `submissions/VERDICT/NAME` when `path` is a file of the problem folder's submissions.
pub(super) fn within_submissions(opts: &OwnPackOptions, path: &Path) -> Option<String> {
    let folder = std::fs::canonicalize(opts.folder.join("submissions")).ok()?;
    let path = std::fs::canonicalize(path).ok()?;
    let rel = path.strip_prefix(&folder).ok()?;
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    (parts.len() == 2).then(|| format!("submissions/{}", parts.join("/")))
}
