//! What writing a pack into a directory changes there, worked out before anything is
//! written: the files it replaces, the files of the previous pack it removes, the files and
//! the other packs it leaves in place, and the files it cannot write because another pack in
//! the manifest owns them. Both the refusal without `--force` and the report after it say
//! exactly this.

use std::collections::BTreeSet;
use std::path::Path;

use anyhow::Context;

use super::manifest::{Manifest, describe_pack};
use super::{Layout, MANIFEST, PROBLEM_YAML, PackReport, layout_name};

/// How many file names a message lists before `and N more`.
const NAMES_SHOWN: usize = 6;

/// What a pack would do to a directory.
#[derive(Debug, Clone, Default)]
pub struct Survey {
    /// `the chess pack (noi layout)`.
    pub pack: String,
    /// The directory does not exist or has nothing in it.
    pub empty: bool,
    /// Files of the same names that the previous pack of this problem and layout listed.
    pub replaced_own: Vec<String>,
    /// Files of the same names that no pack in the manifest lists (made by hand, or left by
    /// a pack whose manifest is gone).
    pub replaced_unlisted: Vec<String>,
    /// How many of the pack's files do not exist yet.
    pub created: usize,
    /// Files the previous pack listed that this one does not write: the only ones removed.
    pub removed: Vec<String>,
    /// `problem.yaml` exists and will be merged (ICPC layout).
    pub merges_yaml: bool,
    /// The setter's files of the package that exist: kept as they are (ICPC layout).
    pub setter_kept: Vec<String>,
    /// Files no pack lists and this one does not write.
    pub left_in_place: Vec<String>,
    /// The other packs in the manifest, with how many of their files exist.
    pub kept: Vec<(String, usize)>,
    /// Files this pack would write that another pack in the manifest lists, with that pack.
    pub conflicts: Vec<(String, String)>,
    /// Files of the previous pack that this one would replace or remove, edited since it
    /// wrote them (their hash is not the manifest's).
    pub edited: Vec<String>,
    /// ICPC layout: another problem's ICPC package in the manifest (a package is one
    /// problem's).
    pub other_package: Option<String>,
}

impl Survey {
    /// Surveys `out` for a pack of `problem` in `layout` that writes the files `planned`, and
    /// the setter's files `setter` where they are missing ([`super::icpc::setter_files`]).
    pub fn of(
        out: &Path,
        manifest: &Manifest,
        name: &str,
        layout: Layout,
        planned: &[&str],
        setter: &[String],
    ) -> anyhow::Result<Survey> {
        let layout_name = layout_name(layout);
        let existing = files_below(out)?;
        let own: &[String] = manifest
            .section(name, layout_name)
            .map_or(&[], |s| &s.files);
        let mut survey = Survey {
            pack: describe_pack(name, layout_name),
            empty: is_empty_dir(out)?,
            removed: removable(out, own, planned),
            ..Survey::default()
        };
        survey.sort_planned(manifest, (name, layout_name), planned, &existing, own);
        if let Some(previous) = manifest.section(name, layout_name) {
            survey.edited = edited_files(out, previous, |f| {
                planned.contains(&f) || survey.removed.iter().any(|r| r == f)
            });
        }
        survey.note_other_packs(manifest, (name, layout), &existing);
        survey.merges_yaml = layout == Layout::Icpc && existing.contains(PROBLEM_YAML);
        survey.setter_kept = setter
            .iter()
            .filter(|f| existing.contains(*f))
            .cloned()
            .collect();
        // `problem.yaml` belongs to the ICPC pack in the directory, whichever it is.
        let yaml_ours = layout == Layout::Icpc
            || manifest
                .sections
                .iter()
                .any(|s| s.layout == super::layout_name(Layout::Icpc));
        let others = |f: &str| {
            manifest
                .owner_of(f)
                .is_some_and(|o| o.problem != name || o.layout != layout_name)
        };
        survey.left_in_place = existing
            .iter()
            .filter(|f| {
                !(planned.contains(&f.as_str())
                    || survey.removed.contains(f)
                    || f.as_str() == MANIFEST
                    || setter.contains(f)
                    || yaml_ours && f.as_str() == PROBLEM_YAML
                    || others(f))
            })
            .cloned()
            .collect();
        Ok(survey)
    }

    /// Sorts the files the pack writes: another pack's (a conflict), new, this pack's own to
    /// replace, or a file no pack listed.
    fn sort_planned(
        &mut self,
        manifest: &Manifest,
        (name, layout_name): (&str, &str),
        planned: &[&str],
        existing: &BTreeSet<String>,
        own: &[String],
    ) {
        for &file in planned {
            match manifest.owner_of(file) {
                Some(owner) if owner.problem != name || owner.layout != layout_name => {
                    self.conflicts.push((file.to_string(), owner.describe()));
                }
                _ if !existing.contains(file) => self.created += 1,
                _ if own.iter().any(|f| f == file) => self.replaced_own.push(file.to_string()),
                _ => self.replaced_unlisted.push(file.to_string()),
            }
        }
    }

    /// The other packs the manifest lists, with how many of their files are there, and, for
    /// an ICPC package, another problem's package.
    fn note_other_packs(
        &mut self,
        manifest: &Manifest,
        (name, layout): (&str, Layout),
        existing: &BTreeSet<String>,
    ) {
        let layout_name = layout_name(layout);
        for section in &manifest.sections {
            if section.problem != name || section.layout != layout_name {
                let present = section.files.iter().filter(|f| existing.contains(*f));
                self.kept.push((section.describe(), present.count()));
            }
        }
        if layout == Layout::Icpc {
            self.other_package = manifest
                .sections
                .iter()
                .find(|s| s.layout == layout_name && s.problem != name)
                .map(|s| s.describe());
        }
    }
}

/// The previous pack's files this one does not write and may remove: only a regular file is
/// duipai's to remove (anything else there now is not), nor is a file reached through a
/// symbolic link (the folder it names is elsewhere).
fn removable(out: &Path, own: &[String], planned: &[&str]) -> Vec<String> {
    own.iter()
        .filter(|f| !planned.contains(&f.as_str()))
        .filter(|f| {
            crate::fsutil::no_link_on_the_way(out, f)
                && std::fs::symlink_metadata(out.join(f)).is_ok_and(|m| m.is_file())
        })
        .cloned()
        .collect()
}

impl Survey {
    /// Why the pack cannot be written at all, even with `--force`: it would overwrite
    /// another pack's files.
    pub fn conflict(&self) -> Option<String> {
        let (_, owner) = self.conflicts.first()?;
        let files: Vec<String> = self
            .conflicts
            .iter()
            .filter(|(_, o)| o == owner)
            .map(|(f, _)| f.clone())
            .collect();
        Some(format!(
            "{} would overwrite {}, which {MANIFEST} lists for {owner}; packs that share a \
             directory need their own file names: use --layout noi (files named after the \
             problem) or another --out",
            self.pack,
            names(&files)
        ))
    }

    /// Why the pack cannot go into `out` as asked: it would overwrite another pack's files;
    /// it would replace files edited by hand (unless `overwrite_edited`); the directory is
    /// not empty (unless `force`).
    pub fn refusal(&self, out: &Path, force: bool, overwrite_edited: bool) -> anyhow::Result<()> {
        if let Some(other) = &self.other_package {
            anyhow::bail!(
                "{} holds {other} ({MANIFEST} lists it): an ICPC package is one problem's; \
                 write {} into another folder",
                out.display(),
                self.pack
            );
        }
        if let Some(why) = self.conflict() {
            anyhow::bail!(why);
        }
        if !overwrite_edited && let Some(why) = self.edited_message() {
            anyhow::bail!(why);
        }
        if !self.empty && !force {
            anyhow::bail!(self.not_empty_message(out));
        }
        Ok(())
    }

    /// The refusal to replace or remove files edited by hand since the last pack, naming
    /// them; `None` when there are none.
    pub fn edited_message(&self) -> Option<String> {
        if self.edited.is_empty() {
            return None;
        }
        let (files, were) = match self.edited.len() {
            1 => (self.edited[0].clone(), "was"),
            _ => (names(&self.edited), "were"),
        };
        Some(format!(
            "{files} {were} edited by hand since the last pack (not what {MANIFEST} records \
             for it), and packing again would replace or remove {}: keep a hand-made test with \
             a plan line `copy PATH` instead, or pass --overwrite-edited to let the pack \
             replace it",
            if self.edited.len() == 1 { "it" } else { "them" }
        ))
    }

    /// The refusal of a non-empty directory `out` without `--force`: what `--force` would do.
    pub fn not_empty_message(&self, out: &Path) -> String {
        let mut lines = vec![format!(
            "{} is not empty; pass --force to write {} into it. With --force, duipai",
            out.display(),
            self.pack
        )];
        let mut replaced = Vec::new();
        if !self.replaced_own.is_empty() {
            replaced.push(format!(
                "{} that the previous pack listed in {MANIFEST} ({})",
                count(self.replaced_own.len()),
                names(&self.replaced_own)
            ));
        }
        if !self.replaced_unlisted.is_empty() {
            replaced.push(format!(
                "{} that {MANIFEST} does not list ({})",
                count(self.replaced_unlisted.len()),
                names(&self.replaced_unlisted)
            ));
        }
        lines.push(match replaced.is_empty() {
            true => "  replaces no file".to_string(),
            false => format!("  replaces {}", replaced.join(", and ")),
        });
        lines.push(format!("  creates {}", count(self.created)));
        if self.merges_yaml {
            lines.push(format!(
                "  merges {PROBLEM_YAML}: adds the keys and limits it lacks and sets the \
                 format version, keeps every other key, limit and comment"
            ));
        }
        if !self.setter_kept.is_empty() {
            lines.push(format!(
                "  keeps {} of the package as they are ({}): duipai writes them only where \
                 they are missing",
                count(self.setter_kept.len()),
                names(&self.setter_kept)
            ));
        }
        lines.push(match self.removed.is_empty() {
            true => "  removes no file".to_string(),
            false => format!(
                "  removes {} that the previous pack listed in {MANIFEST} and this one does not \
                 write ({})",
                count(self.removed.len()),
                names(&self.removed)
            ),
        });
        if !self.left_in_place.is_empty() {
            lines.push(format!(
                "  leaves in place {} that no pack in {MANIFEST} lists ({})",
                count(self.left_in_place.len()),
                names(&self.left_in_place)
            ));
        }
        for (pack, files) in &self.kept {
            lines.push(format!("  keeps the {} of {pack}", count(*files)));
        }
        lines.join("\n")
    }

    /// The report's fields that the survey knows.
    pub fn into_report(self) -> PackReport {
        PackReport {
            removed: self.removed,
            replaced_unlisted: self.replaced_unlisted,
            left_in_place: self.left_in_place,
            kept: self
                .kept
                .into_iter()
                .map(|(pack, n)| format!("the {} of {pack}", count(n)))
                .collect(),
            ..PackReport::default()
        }
    }
}

/// `1 file`, `40 files`.
fn count(n: usize) -> String {
    crate::text::plural(n as u64, "file")
}

/// `a, b, c and 5 more`.
pub fn names(files: &[String]) -> String {
    let shown = files.len().min(NAMES_SHOWN);
    let mut text = files[..shown].join(", ");
    if files.len() > shown {
        text.push_str(&format!(" and {} more", files.len() - shown));
    }
    text
}

/// The files `section` lists that `touched` would replace or remove, whose content is no
/// longer the hash the section records (rows without a hash are taken as they are).
fn edited_files(
    out: &Path,
    section: &super::manifest::Section,
    touched: impl Fn(&str) -> bool,
) -> Vec<String> {
    section
        .files
        .iter()
        .filter(|f| touched(f))
        .filter(|f| {
            let Some(recorded) = section.hash_of(f) else {
                return false;
            };
            let path = out.join(f);
            let regular = std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file());
            regular
                && std::fs::read(&path)
                    .is_ok_and(|bytes| super::manifest::content_hash(&bytes) != recorded)
        })
        .cloned()
        .collect()
}

fn is_empty_dir(out: &Path) -> anyhow::Result<bool> {
    match std::fs::read_dir(out) {
        Ok(mut entries) => Ok(entries.next().is_none()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(true),
        Err(e) => Err(e).with_context(|| format!("reading the directory {}", out.display())),
    }
}

/// Everything below `out` but directories, relative and `/`-separated.
fn files_below(out: &Path) -> anyhow::Result<BTreeSet<String>> {
    let mut files = BTreeSet::new();
    if !out.is_dir() {
        return Ok(files);
    }
    for entry in walkdir::WalkDir::new(out).sort_by_file_name() {
        let entry = entry.with_context(|| format!("reading the directory {}", out.display()))?;
        if entry.file_type().is_dir() {
            continue;
        }
        let Ok(rel) = entry.path().strip_prefix(out) else {
            continue;
        };
        let parts: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        files.insert(parts.join("/"));
    }
    Ok(files)
}
