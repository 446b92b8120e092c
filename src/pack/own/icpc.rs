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

use super::file::{OwnFile, OwnPackOptions};
use super::plan::{LineSource, OwnLine};
use crate::compile::Language;
use crate::judge::checker::Protocol;
use crate::own::source::Source;
use crate::own::{Helper, Judging, OwnProblem};
use crate::pack::icpc::IcpcVersion;
use crate::pack::yaml::{self, YamlValues};
use crate::pack::{PROBLEM_YAML, YamlOutcome, validator_flags};
use crate::text::shell_quote;

/// The version of the package: the one asked for, else the one `problem.yaml` names, else
/// 2025-09. A problem of one's own is packed in 2025-09 (BAPCtools) or legacy (problemtools).
pub fn version(opts: &OwnPackOptions) -> anyhow::Result<IcpcVersion> {
    let version = match opts.icpc_version {
        Some(version) => version,
        None => {
            let path = opts.out.join(PROBLEM_YAML);
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            yaml::top_value(&text, "problem_format_version")
                .and_then(|v| IcpcVersion::from_name(&v))
                .unwrap_or(IcpcVersion::V2025_09)
        }
    };
    if version == IcpcVersion::Draft2023_07 {
        bail!(
            "a problem of your own is packed in the ICPC format 2025-09 (BAPCtools, DOMjudge) or \
             legacy (problemtools, Kattis); give --icpc-version 2025-09 or legacy"
        );
    }
    Ok(version)
}

/// What a program folder's `run` script does around the program.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Wrap {
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
    ) -> anyhow::Result<Package> {
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
            files.extend(generator_files(opts, version, stems, invalid)?);
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
fn folder_name(helper: &Helper, fallback: &str) -> String {
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
    let dir = match version {
        IcpcVersion::V2025_09 => "output_validator".to_string(),
        _ => format!("output_validators/{}", folder_name(helper, "checker")),
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
fn test_groups(
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

/// The `test_group.yaml` files.
fn flag_files(opts: &OwnPackOptions, version: IcpcVersion) -> Vec<OwnFile> {
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
fn program_dir(dir: &str, helper: &Helper, wrap: Wrap) -> anyhow::Result<Vec<OwnFile>> {
    let source = helper.source().ok_or_else(|| {
        anyhow!(
            "{} is not a source file duipai can put in the package ({}): give its source, a \
             .cpp, .c, .rs or .py file",
            helper.who(),
            crate::text::quote_command(&helper.typed)
        )
    })?;
    let what = helper.role.clone();
    let mut files = vec![OwnFile::copied(
        format!("{dir}/{}", source.file_name()),
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
            build_script(&source)?,
        )
        .executable(),
    );
    files.push(
        OwnFile::text(
            format!("{dir}/run"),
            "run script",
            run_script(&source, wrap, &what),
        )
        .executable(),
    );
    Ok(files)
}

/// `build`: compiles the source as duipai's contest flags do (nothing for Python).
fn build_script(source: &Source) -> anyhow::Result<String> {
    let file = shell_quote(&source.file_name());
    let command = match source.language {
        Language::Cpp => format!("g++ -std=c++17 -O2 -o program {file}"),
        Language::C => format!("gcc -std=c11 -O2 -o program {file} -lm"),
        Language::Rust => format!("rustc --edition 2021 -O -o program {file}"),
        Language::Python => "true".to_string(),
        Language::Java => bail!(
            "{}: a Java program cannot go into the package yet; give a C, C++, Rust or Python \
             source",
            source.path.display()
        ),
    };
    Ok(format!(
        "#!/bin/sh\n# Written by duipai pack: compiles {} in this folder.\nset -e\ncd \"$(dirname \"$0\")\"\n{command}\n",
        source.file_name()
    ))
}

/// How `run` starts the program, with the arguments the setter's command gives it.
fn invocation(source: &Source) -> String {
    let mut words = match source.language {
        Language::Python => format!("python3 \"$dir\"/{}", shell_quote(&source.file_name())),
        _ => "\"$dir\"/program".to_string(),
    };
    for arg in &source.args {
        words.push(' ');
        words.push_str(&shell_quote(arg));
    }
    words
}

/// `run`: the program called as the format calls it, its exit code made the format's.
fn run_script(source: &Source, wrap: Wrap, what: &str) -> String {
    let program = invocation(source);
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
             {program} \"$1\" \"$3/interactor.out\" 2> \"$3/judgemessage.txt\"\n\
             case $? in\n    0) exit 42 ;;\n    1|2|8) exit 43 ;;\n    *) exit 1 ;;\nesac\n"
        ),
    };
    format!(
        "#!/bin/sh\n# Written by duipai pack: runs the {what} {}.\ndir=$(dirname \"$0\")\n{body}",
        source.file_name()
    )
}

/// `generators/`: every generator's folder, the hand-made inputs, the invalid inputs, and
/// `generators.yaml` making every test again as the plan does.
fn generator_files(
    opts: &OwnPackOptions,
    version: IcpcVersion,
    stems: &[String],
    invalid: &[(String, PathBuf)],
) -> anyhow::Result<Vec<OwnFile>> {
    let (mut files, folders) = generator_folders(opts)?;
    let mut yaml = GeneratorsYaml {
        opts,
        stems,
        folders,
        settings: test_groups(opts, version),
        text: yaml_header(opts)?,
        copied: Vec::new(),
    };
    yaml.data()?;
    if version.has_validation_data() {
        yaml.invalid_inputs(invalid)?;
    }
    files.append(&mut yaml.copied);
    files.push(OwnFile::text(
        "generators/generators.yaml",
        "generators.yaml",
        yaml.text,
    ));
    Ok(files)
}

/// A generator's folder in `generators/`: the generator's name (`None` for the default one)
/// and the folder's.
type Folder = (Option<String>, String);

/// The folder of each generator the plan uses (the named ones by their names, the default one
/// by its source's stem) with its files, and which generator each folder holds.
fn generator_folders(opts: &OwnPackOptions) -> anyhow::Result<(Vec<OwnFile>, Vec<Folder>)> {
    let mut files = Vec::new();
    let mut folders: Vec<Folder> = Vec::new();
    for line in &opts.plan.lines {
        let LineSource::Gen { generator, .. } = &line.source else {
            continue;
        };
        if folders.iter().any(|(g, _)| g == generator) {
            continue;
        }
        let helper = opts.problem.generators.get(generator.as_deref())?;
        let mut name = match generator {
            Some(name) => name.clone(),
            None => folder_name(helper, "gen"),
        };
        while folders.iter().any(|(_, n)| *n == name) || name == "manual" || name == "invalid_input"
        {
            name.push('_');
        }
        let dir = format!("generators/{name}");
        files.extend(program_dir(&dir, helper, Wrap::Plain)?);
        folders.push((generator.clone(), name));
    }
    Ok((files, folders))
}

/// The start of `generators.yaml`: where it comes from and the solution that answers.
fn yaml_header(opts: &OwnPackOptions) -> anyhow::Result<String> {
    let mut yaml = format!(
        "# Written by duipai pack from {}: `bt generate` makes the same tests, each with the\n\
         # generator, the arguments and the seed of its plan line.\n",
        opts.plan.name
    );
    if let Some(reference) = accepted_path(opts)? {
        yaml.push_str(&format!("solution: /{reference}\n"));
    }
    yaml.push_str("data:\n");
    Ok(yaml)
}

/// `generators.yaml` as it is written, with the hand-made and invalid inputs it copies.
struct GeneratorsYaml<'a> {
    opts: &'a OwnPackOptions<'a>,
    /// Each plan line's test, `data/secret/small/01`.
    stems: &'a [String],
    folders: Vec<Folder>,
    /// See [`test_groups`].
    settings: Vec<(usize, String, Option<String>)>,
    text: String,
    copied: Vec<OwnFile>,
}

impl GeneratorsYaml<'_> {
    /// `data:` below the header: the samples, then the secret tests, in their groups when
    /// the plan has groups of its own.
    fn data(&mut self) -> anyhow::Result<()> {
        let plan = &self.opts.plan;
        if let Some(sample) = plan.groups.iter().position(|g| g.is_sample()) {
            self.text.push_str("  sample:\n");
            self.group(sample, "    ")?;
        }
        let own: Vec<usize> = (0..plan.groups.len())
            .filter(|&i| plan.groups[i].is_own())
            .collect();
        if let Some(secret) = plan.groups.iter().position(|g| g.name == "secret") {
            self.text.push_str("  secret:\n");
            self.group(secret, "    ")?;
        } else if !own.is_empty() {
            self.text.push_str("  secret:\n    data:\n");
            for group in own {
                // Quoted: a group named `1` (as Polygon packages name theirs) is otherwise
                // the number 1 to YAML, and BAPCtools removes its folder as not generated.
                let name = &plan.groups[group].name;
                self.text.push_str(&format!("      '{name}':\n"));
                self.group(group, "        ")?;
            }
        }
        Ok(())
    }

    /// One group's `test_group.yaml` and tests, at `indent`.
    fn group(&mut self, group: usize, indent: &str) -> anyhow::Result<()> {
        // BAPCtools removes a test_group.yaml that generators.yaml does not write.
        let content = self
            .settings
            .iter()
            .find(|(g, _, _)| *g == group)
            .and_then(|(_, _, c)| c.as_deref());
        match content.map(str::trim_end) {
            Some("{}") => self
                .text
                .push_str(&format!("{indent}test_group.yaml: {{}}\n")),
            Some(args) => self
                .text
                .push_str(&format!("{indent}test_group.yaml:\n{indent}  {args}\n")),
            None => {}
        }
        self.text.push_str(&format!("{indent}data:\n"));
        let opts = self.opts;
        for (line, stem) in opts.plan.lines.iter().zip(self.stems) {
            if line.group != group {
                continue;
            }
            let key = stem.rsplit('/').next().unwrap_or(stem);
            match &line.source {
                LineSource::Gen {
                    generator, args, ..
                } => {
                    let command = self.generator_command(line, generator, args)?;
                    let entry = format!("{indent}  '{key}': {}\n", yaml_quoted(&command));
                    self.text.push_str(&entry);
                }
                LineSource::Copy { path, crlf, .. } => {
                    let manual = format!("manual/{}", stem.replace("data/", "").replace('/', "-"));
                    self.copy_hand_made(&manual, path, *crlf)?;
                    let entry = format!("{indent}  '{key}':\n{indent}    copy: {manual}\n");
                    self.text.push_str(&entry);
                }
            }
        }
        Ok(())
    }

    /// A `gen` line as `generators.yaml` calls it: the generator's folder, the line's
    /// arguments and its seed.
    fn generator_command(
        &self,
        line: &OwnLine,
        generator: &Option<String>,
        args: &[String],
    ) -> anyhow::Result<String> {
        let folder = &self
            .folders
            .iter()
            .find(|(g, _)| g == generator)
            .expect("every generator has its folder")
            .1;
        if let Some(bad) = args
            .iter()
            .find(|a| a.contains(char::is_whitespace) || a.contains('{'))
        {
            bail!(
                "{}:{}: the argument {} cannot be written in generators.yaml (no spaces or \
                 braces)",
                self.opts.plan.name,
                line.line,
                crate::text::quote(bad)
            );
        }
        let mut command = folder.clone();
        for arg in args {
            command.push(' ');
            command.push_str(arg);
        }
        if let Some(seed) = line.seed(self.opts.seed) {
            command.push_str(&format!(" {seed}"));
        }
        Ok(command)
    }

    /// A hand-made input, and its answer when there is one, under `generators/manual/`.
    fn copy_hand_made(&mut self, manual: &str, path: &Path, crlf: bool) -> anyhow::Result<()> {
        let mut input =
            OwnFile::copied(format!("generators/{manual}.in"), "hand-made input", path)?;
        input.content = super::plan::read_copied(path, crlf)?;
        self.copied.push(input);
        let answer = path.with_extension("ans");
        if answer.is_file() {
            self.copied.push(OwnFile::copied(
                format!("generators/{manual}.ans"),
                "hand-made answer",
                &answer,
            )?);
        }
        Ok(())
    }

    /// `invalid_input:`, each invalid input copied.
    fn invalid_inputs(&mut self, invalid: &[(String, PathBuf)]) -> anyhow::Result<()> {
        if invalid.is_empty() {
            return Ok(());
        }
        self.text.push_str("  invalid_input:\n    data:\n");
        for (name, path) in invalid {
            self.copied.push(OwnFile::copied(
                format!("generators/invalid_input/{name}.in"),
                "invalid input",
                path,
            )?);
            self.text.push_str(&format!(
                "      '{name}':\n        copy: invalid_input/{name}\n"
            ));
        }
        Ok(())
    }
}

/// A YAML single-quoted scalar.
fn yaml_quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// The reference's path in the package, under `submissions/accepted/`; `None` for an
/// interactive problem without one.
fn accepted_path(opts: &OwnPackOptions) -> anyhow::Result<Option<String>> {
    let Some(reference) = &opts.problem.reference else {
        if matches!(opts.problem.judging, Judging::Interactor(_)) {
            return Ok(None);
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
