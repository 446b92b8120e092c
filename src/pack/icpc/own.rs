//! The ICPC package of a problem of one's own, beside its tests: the setter's programs
//! carried as program folders (their sources, local headers, and `build` and `run` scripts
//! that compile them and call them as the format calls its validators), so that BAPCtools
//! and problemtools read duipai's conventions: a validator's exit 0 becomes 42 (valid) and
//! any other 43; a testlib checker becomes an output validator; a testlib interactor an
//! interactive one. In 2025-09, `generators/generators.yaml` lists every test with the
//! generator, arguments and seed of its plan line, so that `bt generate` makes the same data.
//! `problem.yaml` is merged into the setter's, and the statement is a skeleton written only
//! where there is none.

use std::path::{Path, PathBuf};

use anyhow::{Context, anyhow, bail};

use super::generators::generator_files;
use super::yaml::{self, YamlValues};
use crate::compile::Language;
use crate::judge::checker::Protocol;
use crate::own::source::Source;
use crate::own::{Helper, Judging, OwnProblem};
use crate::pack::icpc::IcpcVersion;
use crate::pack::own::file::{OwnFile, OwnPackOptions};
use crate::pack::own::found::Found;
use crate::pack::{PROBLEM_YAML, YamlOutcome, validator_flags};
use crate::text::shell_quote;

/// The version of the package: the one asked for, else the one `problem.yaml` names, else
/// 2025-09 (BAPCtools, DOMjudge); 2023-07-draft and legacy are problemtools'.
pub fn version(opts: &OwnPackOptions) -> anyhow::Result<IcpcVersion> {
    Ok(match opts.icpc_version {
        Some(version) => version,
        None => {
            let path = opts.out.join(PROBLEM_YAML);
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            yaml::top_value(&text, "problem_format_version")
                .and_then(|v| IcpcVersion::from_name(&v))
                .unwrap_or(IcpcVersion::V2025_09)
        }
    })
}

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

/// What became of the setter's files of the package.
pub struct SetterWritten {
    pub yaml: YamlOutcome,
    /// The limits `problem.yaml` kept though duipai's differ.
    pub yaml_kept: Vec<String>,
    /// The setter's files written because they were missing.
    pub created: Vec<String>,
}

/// The package's own files, known before any test is made.
pub struct Package {
    pub version: IcpcVersion,
    files: Vec<OwnFile>,
    /// The problem's folder has a statement of its own, copied into the package.
    own_statement: bool,
}

impl Package {
    /// Every file of the package beside the tests.
    pub fn plan(
        opts: &OwnPackOptions,
        version: IcpcVersion,
        stems: &[String],
        invalid: &[(String, PathBuf)],
        found: &Found,
    ) -> anyhow::Result<Package> {
        crate::pack::own::found::check_icpc_places(found, &opts.plan)?;
        let problem = opts.problem;
        let mut files = Vec::new();
        if let Some(validator) = &problem.validator {
            let dir = format!("input_validators/{}", folder_name(validator, "validator"));
            files.extend(program_dir(&dir, validator, Wrap::Validator)?);
        }
        files.extend(output_validator(problem, version)?);
        files.extend(answer_validator(problem, version)?);
        files.extend(flag_files(opts, version));
        // problemtools warns about a generators/ folder, which legacy does not know.
        if version == IcpcVersion::V2025_09 {
            files.extend(generator_files(opts, version, stems, invalid, found)?);
        }
        if version.has_validation_data() {
            for (name, path) in invalid {
                let file = OwnFile::copied(
                    format!("data/invalid_input/{name}.in"),
                    "invalid input",
                    path,
                )?;
                files.push(file);
            }
        }
        files.extend(submissions(opts)?);
        let statement = statement(opts, version)?;
        let own_statement = !statement.is_empty();
        files.extend(statement);
        Ok(Package {
            version,
            files,
            own_statement,
        })
    }

    /// The paths it writes.
    pub fn paths(&self) -> Vec<String> {
        self.files.iter().map(|f| f.path.clone()).collect()
    }

    /// Its files.
    pub fn files(&self) -> Vec<OwnFile> {
        self.files.clone()
    }

    /// The setter's files, written only where missing: the statement.
    pub fn setter_paths(&self) -> Vec<String> {
        if self.own_statement {
            return Vec::new();
        }
        vec![self.version.statement_path().to_string()]
    }

    /// Merges `problem.yaml` and writes the statement's skeleton where there is none.
    pub fn write_setter_files(&self, opts: &OwnPackOptions) -> anyhow::Result<SetterWritten> {
        let values = yaml_values(opts.problem, self.version, opts.write_limits);
        let (merged, title) = crate::pack::write_problem_yaml(&opts.out, &values)?;
        let statement = self.version.statement_path();
        let path = opts.out.join(statement);
        let mut created = Vec::new();
        if !self.own_statement && std::fs::symlink_metadata(&path).is_err() {
            let text = skeleton(&title, opts.problem);
            crate::pack::write_atomic(&opts.out, statement, text.as_bytes())?;
            created.push(statement.to_string());
        }
        Ok(SetterWritten {
            yaml: merged.outcome,
            yaml_kept: merged.kept,
            created,
        })
    }
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

/// The output validator's folder: the checker's, or the interactor's; none for the format's
/// default one.
fn output_validator(problem: &OwnProblem, version: IcpcVersion) -> anyhow::Result<Vec<OwnFile>> {
    let (helper, wrap) = match &problem.judging {
        Judging::Compare(_) => return Ok(Vec::new()),
        Judging::Checker(helper, Protocol::Testlib) => (helper, Wrap::TestlibChecker),
        Judging::Checker(helper, Protocol::Kattis) => (helper, Wrap::Plain),
        Judging::Interactor(helper) => (helper, Wrap::TestlibInteractor),
    };
    // BAPCtools' 2025-09 takes the folder itself for the program; problemtools takes each
    // folder in it (2023-07-draft's output_validator/, legacy's output_validators/) for one.
    let name = folder_name(helper, "checker");
    let dir = match version {
        IcpcVersion::V2025_09 => "output_validator".to_string(),
        IcpcVersion::Draft2023_07 => format!("output_validator/{name}"),
        IcpcVersion::Legacy => format!("output_validators/{name}"),
    };
    program_dir(&dir, helper, wrap)
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

/// The `test_group.yaml` files (2025-09), or the one `data/testdata.yaml` every group
/// inherits with the default output validator's flags (2023-07-draft).
fn flag_files(opts: &OwnPackOptions, version: IcpcVersion) -> Vec<OwnFile> {
    if version == IcpcVersion::Draft2023_07 {
        let Judging::Compare(rule) = opts.problem.judging else {
            return Vec::new();
        };
        let Some(flags) = validator_flags(rule) else {
            return Vec::new();
        };
        let content = format!("output_validator_flags: {flags}\n");
        return vec![OwnFile::text(
            crate::pack::TESTDATA_YAML,
            "test data settings",
            content,
        )];
    }
    test_groups(opts, version)
        .into_iter()
        .filter_map(|(_, folder, content)| {
            let content = content?;
            Some(OwnFile::text(
                format!("{folder}/test_group.yaml"),
                "test group settings",
                content,
            ))
        })
        .collect()
}

/// `answer_validators/` (2025-09): with the format's default output validator, BAPCtools
/// wants an answer validator of its own, and checks that it rejects answers altered in any
/// way (a space added, a token appended). The reference is the truth of a problem of one's
/// own: the answer validator runs it on the input and accepts exactly its output.
fn answer_validator(problem: &OwnProblem, version: IcpcVersion) -> anyhow::Result<Vec<OwnFile>> {
    if version != IcpcVersion::V2025_09 || !matches!(problem.judging, Judging::Compare(_)) {
        return Ok(Vec::new());
    }
    let Some(reference) = &problem.reference else {
        return Ok(Vec::new());
    };
    program_dir("answer_validators/reference", reference, Wrap::Reference)
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
fn packaged_name(source: &Source) -> anyhow::Result<String> {
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
fn within_submissions(opts: &OwnPackOptions, path: &Path) -> Option<String> {
    let folder = std::fs::canonicalize(opts.folder.join("submissions")).ok()?;
    let path = std::fs::canonicalize(path).ok()?;
    let rel = path.strip_prefix(&folder).ok()?;
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    (parts.len() == 2).then(|| format!("submissions/{}", parts.join("/")))
}

/// The submissions: the reference as an accepted one, and every program of the problem
/// folder's `submissions/VERDICT/` (files, and folders of a program).
fn submissions(opts: &OwnPackOptions) -> anyhow::Result<Vec<OwnFile>> {
    let mut files = Vec::new();
    if let Some(reference) = &opts.problem.reference
        && let Some(source) = reference.source()
        && within_submissions(opts, &source.path).is_none()
    {
        let path = format!("submissions/accepted/{}", source.file_name());
        files.push(OwnFile::copied(path, "reference", &source.path)?);
    }
    let folder = opts.folder.join("submissions");
    if !folder.is_dir() && crate::polygon::Package::is_in(&opts.folder) {
        let package = crate::polygon::Package::read(&opts.folder)?;
        for (path, source) in crate::pack::polygon::icpc_submissions(&package) {
            if !files.iter().any(|f: &OwnFile| f.path == path) {
                files.push(OwnFile::copied(path, "submission", &source)?);
            }
        }
        return Ok(files);
    }
    if !folder.is_dir() || same_folder(&folder, &opts.out.join("submissions")) {
        return Ok(files);
    }
    for entry in walkdir::WalkDir::new(&folder)
        .min_depth(2)
        .sort_by_file_name()
    {
        let entry = entry.with_context(|| format!("listing {}", folder.display()))?;
        if !entry.file_type().is_file() {
            continue;
        }
        let rel = entry.path().strip_prefix(&folder).unwrap_or(entry.path());
        let rel: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let path = format!("submissions/{}", rel.join("/"));
        if files.iter().any(|f: &OwnFile| f.path == path) {
            continue;
        }
        files.push(OwnFile::copied(path, "submission", entry.path())?);
    }
    Ok(files)
}

/// The statement the problem's folder keeps where the version has it (`statement/`, legacy
/// `problem_statement/`), every file of it, copied into the package; nothing when the folder
/// has none or is the package itself.
fn statement(opts: &OwnPackOptions, version: IcpcVersion) -> anyhow::Result<Vec<OwnFile>> {
    let main = version.statement_path();
    let folder_name = main.split('/').next().unwrap_or(main);
    let folder = opts.folder.join(folder_name);
    if !opts.folder.join(main).is_file() || same_folder(&folder, &opts.out.join(folder_name)) {
        return Ok(Vec::new());
    }
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(&folder).sort_by_file_name() {
        let entry = entry.with_context(|| format!("listing {}", folder.display()))?;
        if !entry.file_type().is_file() {
            continue;
        }
        let rel = entry.path().strip_prefix(&folder).unwrap_or(entry.path());
        let parts: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let path = format!("{folder_name}/{}", parts.join("/"));
        files.push(OwnFile::copied(path, "statement", entry.path())?);
    }
    Ok(files)
}

/// Whether two paths are the same folder.
fn same_folder(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// `problem.yaml`'s values for a problem of one's own: its name as the title, a uuid of its
/// own, how outputs are judged, and the limits it sets.
fn yaml_values(problem: &OwnProblem, version: IcpcVersion, write_limits: bool) -> YamlValues {
    let legacy = version == IcpcVersion::Legacy;
    let mut extra = Vec::new();
    match (&problem.judging, legacy) {
        (Judging::Interactor(_), true) => {
            extra.push(("validation", "custom interactive".to_string()))
        }
        (Judging::Interactor(_), false) => extra.push(("type", "interactive".to_string())),
        (Judging::Checker(..), true) => extra.push(("validation", "custom".to_string())),
        (Judging::Compare(rule), true) => {
            if let Some(flags) = validator_flags(*rule) {
                extra.push(("validation", "default".to_string()));
                extra.push(("validator_flags", flags));
            }
        }
        _ => {}
    }
    let time_ms = problem.limits.cpu.as_millis() as u64;
    let given_time = problem.time_limit_given && !legacy;
    YamlValues {
        version,
        name: problem.name.clone(),
        uuid: crate::pack::icpc::uuid_for(&problem.name),
        extra,
        time_limit: given_time.then(|| yaml::seconds(time_ms)),
        time_resolution: given_time.then(|| yaml::resolution_for(time_ms)).flatten(),
        memory: problem
            .memory_limit_given
            .then(|| (problem.limits.memory_bytes >> 20).to_string()),
        write_limits,
        supply_keys: true,
    }
}

/// The statement's skeleton, for the setter to fill in.
fn skeleton(title: &str, problem: &OwnProblem) -> String {
    format!(
        "\\problemname{{{title}}}\n\n\
         % Written by duipai pack for {}: fill it in. duipai never replaces this file.\n\n\
         What the problem asks.\n\n\
         \\section*{{Input}}\n\nThe input's format and its bounds.\n\n\
         \\section*{{Output}}\n\nWhat to print.\n",
        problem.name
    )
}
