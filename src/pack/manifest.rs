//! `manifest.txt`: which files of a pack directory each pack wrote, and how to regenerate
//! them. Packs of several problems (or layouts) may share one directory, as NOI's Arbiter
//! wants all of a contest's data in one flat folder; each pack has a section of its own:
//!
//! ```text
//! # duipai pack chess --layout noi --seed 0 (plan <built-in chess plan>, 20 tests)
//! # file  plan line  plan text  regenerate with
//! chess1.in  1  gen chess --n 2 ... --seed 101  duipai gen chess --n 2 ... --seed 101
//! ```
//! (the columns separated by tabs)
//!
//! A row is `FILE  LINE  PLAN-LINE  COMMAND  HASH`, tab-separated (see [`super`]); HASH,
//! `sha256:` and the file's SHA-256 as written, lets the next pack tell a file edited by
//! hand since from one it may replace (rows of older manifests have no HASH). A section whose
//! header is followed by an [`INCOMPLETE`] line belongs to a pack that was interrupted or
//! failed; its rows name every file that pack may have written and every file of the pack it
//! was replacing, so that packing again can still clear them away. The manifest is what
//! `--force` may remove: nothing it does not list.

use std::path::Path;

use anyhow::Context;

/// The line that marks a section whose pack did not finish.
pub const INCOMPLETE: &str = "# INCOMPLETE: this pack was interrupted or failed before it was \
                              finished; pack it again";

/// The column names under every section header.
pub const COLUMNS: &str = "# file\tplan line\tplan text\tregenerate with\tsha256";

/// What the HASH column holds for `content`: `sha256:` and its SHA-256 in hex.
pub fn content_hash(content: &[u8]) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(content);
    let hex = crate::text::hex(&digest);
    format!("sha256:{hex}")
}

/// Whether a HASH column is one duipai writes.
fn is_hash(column: &str) -> bool {
    column
        .strip_prefix("sha256:")
        .is_some_and(|hex| hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// What starts a section's header line.
const HEADER_PREFIX: &str = "# duipai pack ";

/// A parsed manifest: comment lines before the first section, then the sections in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Manifest {
    preamble: Vec<String>,
    pub sections: Vec<Section>,
}

/// One pack's part of the manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    pub problem: String,
    /// The layout's name as written (`plain`, `noi`, `icpc`).
    pub layout: String,
    /// The `# duipai pack ...` line.
    pub header: String,
    pub complete: bool,
    /// Every line after the header and the [`INCOMPLETE`] mark, comments and rows, as written.
    lines: Vec<String>,
    /// The files its rows name, in order.
    pub files: Vec<String>,
    /// Each file's hash as written, when its row has one.
    pub hashes: Vec<Option<String>>,
}

impl Section {
    /// A section of `header` with the column names and `rows` (each `FILE\t...`, no line
    /// break).
    pub fn new(header: String, complete: bool, rows: Vec<String>) -> Section {
        let (problem, layout) = header_key(&header).unwrap_or_default();
        let files = rows
            .iter()
            .map(|r| r.split('\t').next().unwrap_or_default().to_string())
            .collect();
        let hashes = rows
            .iter()
            .map(|r| {
                r.split('\t')
                    .nth(4)
                    .filter(|h| is_hash(h))
                    .map(str::to_string)
            })
            .collect();
        let mut lines = vec![COLUMNS.to_string()];
        lines.extend(rows);
        Section {
            problem,
            layout,
            header,
            complete,
            lines,
            files,
            hashes,
        }
    }

    /// The hash the row of `file` records, if it has one.
    pub fn hash_of(&self, file: &str) -> Option<&str> {
        let at = self.files.iter().position(|f| f == file)?;
        self.hashes.get(at)?.as_deref()
    }

    /// The rows as written, without comments.
    pub fn rows(&self) -> impl Iterator<Item = &str> {
        self.lines
            .iter()
            .map(String::as_str)
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    }

    /// `the chess pack (noi layout)`.
    pub fn describe(&self) -> String {
        describe_pack(&self.problem, &self.layout)
    }
}

/// `the chess pack (noi layout)`.
pub fn describe_pack(problem: &str, layout: &str) -> String {
    format!("the {problem} pack ({layout} layout)")
}

/// The problem and the layout a header line names.
fn header_key(header: &str) -> Option<(String, String)> {
    let words: Vec<&str> = header.strip_prefix(HEADER_PREFIX)?.split(' ').collect();
    let problem = words.first().filter(|p| !p.is_empty())?;
    let at = words.iter().position(|w| *w == "--layout")?;
    let layout = words.get(at + 1).filter(|l| !l.is_empty())?;
    Some((problem.to_string(), layout.to_string()))
}

/// Why a row's file name is not one a pack writes, if it is not: manifests are read to
/// decide what to remove, so a name that could reach outside the pack is refused.
fn check_file_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("the row names no file".to_string());
    }
    if name.starts_with('/') || name.contains('\\') || name.contains('\0') {
        return Err(format!(
            "{name:?} is not a /-separated path inside the pack"
        ));
    }
    if name
        .split('/')
        .any(|part| part.is_empty() || part == "." || part == "..")
    {
        return Err(format!("{name:?} is not a path inside the pack"));
    }
    if name == super::MANIFEST {
        return Err(format!("a row names the manifest itself, {name}"));
    }
    Ok(())
}

impl Manifest {
    /// Parses a manifest's text; an error says which line (1-based) and why.
    pub fn parse(text: &str) -> Result<Manifest, (usize, String)> {
        let mut manifest = Manifest::default();
        let mut seen: Vec<(&str, usize)> = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let number = i + 1;
            if line.starts_with(HEADER_PREFIX) {
                let (problem, layout) = header_key(line).ok_or((
                    number,
                    "a `# duipai pack` line without a problem and a --layout".to_string(),
                ))?;
                if manifest
                    .sections
                    .iter()
                    .any(|s| s.problem == problem && s.layout == layout)
                {
                    return Err((
                        number,
                        format!("{} has a second section", describe_pack(&problem, &layout)),
                    ));
                }
                manifest.sections.push(Section {
                    problem,
                    layout,
                    header: line.to_string(),
                    complete: true,
                    lines: Vec::new(),
                    files: Vec::new(),
                    hashes: Vec::new(),
                });
                continue;
            }
            let Some(section) = manifest.sections.last_mut() else {
                if line.trim().is_empty() || line.starts_with('#') {
                    manifest.preamble.push(line.to_string());
                    continue;
                }
                return Err((
                    number,
                    "a file row before any `# duipai pack` line".to_string(),
                ));
            };
            if line == INCOMPLETE && section.lines.is_empty() {
                section.complete = false;
                continue;
            }
            section.lines.push(line.to_string());
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let columns: Vec<&str> = line.split('\t').collect();
            if columns.len() != 4 && columns.len() != 5 {
                return Err((
                    number,
                    format!(
                        "expected 4 tab-separated columns, or 5 with the hash, found {}",
                        columns.len()
                    ),
                ));
            }
            if let Some(hash) = columns.get(4).filter(|h| !is_hash(h)) {
                return Err((
                    number,
                    format!("{hash:?} is not a hash duipai writes (sha256: and 64 hex digits)"),
                ));
            }
            let name = columns[0];
            check_file_name(name).map_err(|why| (number, why))?;
            if let Some((_, first)) = seen.iter().find(|(n, _)| *n == name) {
                return Err((number, format!("{name} is listed on line {first} already")));
            }
            seen.push((name, number));
            section.files.push(name.to_string());
            section.hashes.push(columns.get(4).map(|h| h.to_string()));
        }
        Ok(manifest)
    }

    /// Reads `dir/manifest.txt`; `None` if there is none. A manifest that does not parse is
    /// an error: it is not one duipai wrote, and nothing can be decided from it.
    pub fn read(dir: &Path) -> anyhow::Result<Option<Manifest>> {
        let path = dir.join(super::MANIFEST);
        let bytes = match std::fs::symlink_metadata(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
            Ok(meta) if !meta.is_file() => anyhow::bail!(
                "{} is not a regular file; duipai keeps its manifest there",
                path.display()
            ),
            Ok(_) => crate::fsutil::read_file_capped(&path)?,
        };
        let text = String::from_utf8(bytes).map_err(|_| {
            anyhow::anyhow!(
                "{} is not text (not UTF-8): not a manifest duipai wrote; move it away",
                path.display()
            )
        })?;
        Manifest::parse(&text).map(Some).map_err(|(line, why)| {
            anyhow::anyhow!(
                "{}:{line}: {why}: not a manifest duipai wrote (or edited since); fix that line \
                 or move the file away",
                path.display()
            )
        })
    }

    /// The unfinished pack whose files the tests at `tested` (a folder, or one file) are
    /// among, found in the nearest `manifest.txt` at or above it: the manifest's path and
    /// the pack's description. `None` when there is no manifest, it does not parse (it is
    /// not duipai's), or every pack that lists files there is complete.
    pub fn incomplete_pack_at(tested: &Path) -> Option<(std::path::PathBuf, String)> {
        let tested = std::fs::canonicalize(tested).ok()?;
        let mut dir = if tested.is_dir() {
            Some(tested.as_path())
        } else {
            tested.parent()
        };
        while let Some(d) = dir {
            if let Ok(Some(manifest)) = Manifest::read(d) {
                let section = manifest.sections.iter().find(|s| {
                    !s.complete && s.files.iter().any(|f| d.join(f).starts_with(&tested))
                })?;
                return Some((d.join(super::MANIFEST), section.describe()));
            }
            if d.join(super::MANIFEST).exists() {
                return None;
            }
            dir = d.parent();
        }
        None
    }

    /// The section of this problem and layout.
    pub fn section(&self, problem: &str, layout: &str) -> Option<&Section> {
        self.sections
            .iter()
            .find(|s| s.problem == problem && s.layout == layout)
    }

    /// The section whose rows list `file`.
    pub fn owner_of(&self, file: &str) -> Option<&Section> {
        self.sections
            .iter()
            .find(|s| s.files.iter().any(|f| f == file))
    }

    /// Puts `section` in place of the one of the same problem and layout, or after the others.
    pub fn put(&mut self, section: Section) {
        match self
            .sections
            .iter_mut()
            .find(|s| s.problem == section.problem && s.layout == section.layout)
        {
            Some(old) => *old = section,
            None => self.sections.push(section),
        }
    }

    /// The manifest's text.
    pub fn render(&self) -> String {
        let mut text = String::new();
        let mut push = |line: &str| {
            text.push_str(line);
            text.push('\n');
        };
        self.preamble.iter().for_each(|l| push(l));
        for section in &self.sections {
            push(&section.header);
            if !section.complete {
                push(INCOMPLETE);
            }
            section.lines.iter().for_each(|l| push(l));
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHESS: &str = "# duipai pack chess --layout noi --seed 0 (plan p, 1 tests)\n\
                         # file\tplan line\tplan text\tregenerate with\n\
                         chess1.in\t1\tgen chess --seed 1\tduipai gen chess --seed 1\n\
                         chess1.ans\t1\tgen chess --seed 1\tduipai gen chess --seed 1 | duipai solve chess\n";

    #[test]
    fn sections_round_trip_and_say_what_they_own() {
        let text = format!(
            "{CHESS}# duipai pack chessboard --layout noi --seed 0 (plan q, 1 tests)\n{INCOMPLETE}\n\
             # file\tplan line\tplan text\tregenerate with\n\
             chessboard1.in\t1\tgen chessboard --seed 1\tduipai gen chessboard --seed 1\n"
        );
        let manifest = Manifest::parse(&text).unwrap();
        assert_eq!(manifest.render(), text);
        assert_eq!(manifest.sections.len(), 2);
        let chess = manifest.section("chess", "noi").unwrap();
        assert!(chess.complete);
        assert_eq!(chess.files, ["chess1.in", "chess1.ans"]);
        assert_eq!(chess.rows().count(), 2);
        let board = manifest.owner_of("chessboard1.in").unwrap();
        assert_eq!(
            (board.problem.as_str(), board.complete),
            ("chessboard", false)
        );
        assert!(manifest.owner_of("chess2.in").is_none());
        assert!(manifest.section("chess", "plain").is_none());
    }

    #[test]
    fn put_replaces_the_same_pack_in_place_and_appends_others() {
        let mut manifest = Manifest::parse(CHESS).unwrap();
        let header = "# duipai pack chess --layout noi --seed 5 (plan p, 1 tests)";
        manifest.put(Section::new(
            header.to_string(),
            false,
            vec!["chess9.in\t1\tx\ty".into()],
        ));
        assert_eq!(manifest.sections.len(), 1);
        assert_eq!(manifest.sections[0].files, ["chess9.in"]);
        assert!(
            manifest
                .render()
                .contains(&format!("{header}\n{INCOMPLETE}\n{COLUMNS}\n"))
        );
        let other = "# duipai pack chess --layout plain --seed 0 (plan p, 1 tests)";
        manifest.put(Section::new(
            other.to_string(),
            true,
            vec!["1.in\t1\tx\ty".into()],
        ));
        assert_eq!(manifest.sections.len(), 2);
        let reparsed = Manifest::parse(&manifest.render()).unwrap();
        assert_eq!(reparsed, manifest);
    }

    #[test]
    fn what_is_not_a_manifest_is_refused_with_its_line() {
        let row = "chess1.in\t1\tx\ty";
        let header = "# duipai pack chess --layout noi --seed 0 (plan p, 1 tests)";
        for (text, line, says) in [
            ("stale\n".to_string(), 1, "before any"),
            (format!("{header}\nchess1.in 1 x y\n"), 2, "4 tab-separated"),
            (
                format!("{header}\n../escape.in\t1\tx\ty\n"),
                2,
                "not a path inside",
            ),
            (
                format!("{header}\n/etc/passwd\t1\tx\ty\n"),
                2,
                "not a /-separated",
            ),
            (
                format!("{header}\na//b.in\t1\tx\ty\n"),
                2,
                "not a path inside",
            ),
            (
                format!("{header}\nmanifest.txt\t1\tx\ty\n"),
                2,
                "manifest itself",
            ),
            (format!("{header}\n{row}\n{row}\n"), 3, "line 2 already"),
            ("# duipai pack chess --seed 0\n".to_string(), 1, "--layout"),
            (format!("{header}\n{header}\n"), 2, "second section"),
        ] {
            let (at, why) = Manifest::parse(&text).unwrap_err();
            assert_eq!(at, line, "{text:?}: {why}");
            assert!(why.contains(says), "{text:?}: {why}");
        }
    }
}
