//! `generators/` of the 2025-09 package of a problem of one's own: a folder a generator the
//! plan uses, and `generators.yaml` with every test as the plan makes it (the generator's
//! folder, the line's arguments and its seed), the hand-made inputs copied into
//! `generators/manual/` (those of `copy` lines, and the tests the setter put into the package
//! by hand) and the invalid ones into `generators/invalid_input/`, so that `bt generate`
//! makes the same data, byte for byte, and keeps every test.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

use super::folders::{Wrap, accepted_path, folder_name, program_dir, test_groups};
use crate::own::Judging;
use crate::pack::icpc::IcpcVersion;
use crate::pack::own::file::{OwnFile, OwnPackOptions};
use crate::pack::own::found::{Found, FoundTest};
use crate::pack::own::plan::{LineSource, OwnLine};

/// `generators/`: every generator's folder, the hand-made inputs, the invalid inputs, and
/// `generators.yaml` making every test again as the plan does, and keeping the hand-made tests
/// `found` in the package.
pub(super) fn generator_files(
    opts: &OwnPackOptions,
    version: IcpcVersion,
    stems: &[String],
    invalid: &[(String, PathBuf)],
    found: &Found,
) -> anyhow::Result<Vec<OwnFile>> {
    let (mut files, folders) = generator_folders(opts)?;
    let mut yaml = GeneratorsYaml {
        opts,
        stems,
        found,
        folders,
        settings: test_groups(opts, version),
        text: yaml_header(opts)?,
        copied: Vec::new(),
    };
    yaml.data()?;
    if version.has_validation_data() {
        let mut all = invalid.to_vec();
        all.extend(found.invalid.iter().cloned());
        yaml.invalid_inputs(&all)?;
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
    /// The hand-made tests in the package.
    found: &'a Found,
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
        } else if self.found.in_folder("data/sample").next().is_some() {
            self.text.push_str("  sample:\n    data:\n");
            self.found_tests("data/sample", "    ")?;
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
                    let answer = path.with_extension("ans");
                    let answer = answer.is_file().then_some(answer.as_path());
                    self.copy_hand_made(stem, (path, *crlf), answer, indent)?;
                }
            }
        }
        let folder = crate::pack::own::found::group_folder(&opts.plan.groups[group]);
        self.found_tests(&folder, indent)
    }

    /// The hand-made tests found in `folder` of the package, at `indent`.
    fn found_tests(&mut self, folder: &str, indent: &str) -> anyhow::Result<()> {
        let found: Vec<&FoundTest> = self.found.in_folder(folder).collect();
        for test in found {
            let input = (test.input.as_path(), false);
            self.copy_hand_made(&test.stem, input, test.answer.as_deref(), indent)?;
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

    /// The test `stem` (`data/secret/small/03`) made from a hand-made input (read with LF line
    /// ends when `crlf`) and its answer, when there is one: both copied under
    /// `generators/manual/`, and its entry at `indent`.
    fn copy_hand_made(
        &mut self,
        stem: &str,
        (input, crlf): (&Path, bool),
        answer: Option<&Path>,
        indent: &str,
    ) -> anyhow::Result<()> {
        let key = stem.rsplit('/').next().unwrap_or(stem);
        let manual = format!(
            "manual/{}",
            stem.trim_start_matches("data/").replace('/', "-")
        );
        let mut copy =
            OwnFile::copied(format!("generators/{manual}.in"), "hand-made input", input)?;
        copy.content = crate::pack::own::plan::read_copied(input, crlf)?;
        self.copied.push(copy);
        if let Some(answer) = answer {
            self.copied.push(OwnFile::copied(
                format!("generators/{manual}.ans"),
                "hand-made answer",
                answer,
            )?);
        }
        let entry = format!("{indent}  '{key}':\n{indent}    copy: {manual}\n");
        self.text.push_str(&entry);
        let interactive = matches!(self.opts.problem.judging, Judging::Interactor(_));
        if interactive && stem.starts_with("data/sample/") {
            // `bt generate` runs the solution on an interactive problem's samples for their
            // .interaction, which it shows in the statement; it then wants the files to
            // download given too (the input, and no answer): written out here, since a copy
            // takes .in and .ans alone. The package as packed, without .interaction, needs
            // neither.
            let text = std::fs::read_to_string(input)
                .with_context(|| format!("reading {} for generators.yaml", input.display()))?;
            let downloads = format!(
                "{indent}    in.download: {}\n{indent}    ans.download: \"\"\n",
                yaml_double_quoted(&text)
            );
            self.text.push_str(&downloads);
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

/// A YAML double-quoted scalar, line breaks and control characters escaped.
fn yaml_double_quoted(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A YAML single-quoted scalar.
fn yaml_quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}
