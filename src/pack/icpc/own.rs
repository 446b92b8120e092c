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

use anyhow::Context;

use super::folders::{Wrap, folder_name, program_dir, test_groups, within_submissions};
use super::generators::generator_files;
use super::yaml::{self, YamlValues};
use crate::judge::checker::Protocol;
use crate::own::{Judging, OwnProblem};
use crate::pack::icpc::IcpcVersion;
use crate::pack::own::file::{OwnFile, OwnPackOptions};
use crate::pack::own::found::Found;
use crate::pack::{PROBLEM_YAML, YamlOutcome, validator_flags};

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
