//! A pack's section of the manifest while its files are written, for the built-in games' packs
//! and one's own alike: marked incomplete before the first file, naming every file the pack
//! may leave behind; the previous pack's files this one does not make removed; marked
//! complete, with each file's hash, once everything is written.

use std::path::Path;

use anyhow::Context;

use super::manifest::{Manifest, Section};
use super::{Layout, MANIFEST, layout_name, remove_empty_parents, write_atomic};
use crate::fsutil::no_link_on_the_way;

/// The manifest with the pack's section marked incomplete.
pub(super) struct Writing<'a> {
    out: &'a Path,
    manifest: Manifest,
    header: String,
}

impl<'a> Writing<'a> {
    /// Marks the section of `problem` in `layout` incomplete: its rows are the files to be
    /// written (`rows`, whose paths are `names`) and the old section's other files, which
    /// a pack killed half-way may still leave.
    pub fn begin(
        out: &'a Path,
        mut manifest: Manifest,
        (problem, layout): (&str, Layout),
        header: String,
        (mut rows, names): (Vec<String>, &[&str]),
    ) -> anyhow::Result<Writing<'a>> {
        if let Some(old) = manifest.section(problem, layout_name(layout)) {
            rows.extend(
                old.rows()
                    .filter(|row| !names.contains(&row.split('\t').next().unwrap_or_default()))
                    .map(str::to_string),
            );
        }
        manifest.put(Section::new(header.clone(), false, rows));
        write_atomic(out, MANIFEST, manifest.render().as_bytes())?;
        Ok(Writing {
            out,
            manifest,
            header,
        })
    }

    /// Removes the previous pack's files that this one does not make (never through a
    /// symbolic link to a folder), and the folders that leaves empty.
    pub fn remove_previous(&self, removed: &[String]) -> anyhow::Result<()> {
        for rel in removed {
            if !no_link_on_the_way(self.out, rel) {
                continue;
            }
            let path = self.out.join(rel);
            std::fs::remove_file(&path)
                .with_context(|| format!("removing {} of the previous pack", path.display()))?;
            remove_empty_parents(self.out, &path);
        }
        Ok(())
    }

    /// Marks the section complete with `rows`, each with its file's hash.
    pub fn finish(mut self, rows: Vec<String>) -> anyhow::Result<()> {
        self.manifest.put(Section::new(self.header, true, rows));
        write_atomic(self.out, MANIFEST, self.manifest.render().as_bytes())
    }
}
