//! The failing cases `stress` saved, as a catalogue: their names (`NAME-SEED.in`, a second
//! case of the same seed `NAME-SEED-2.in`), the sidecar that records which program failed a
//! case and how (`NAME-SEED.meta`), the listing of a save directory, and the removal of one
//! case, which touches only the files duipai writes for it, in the save directory.
//!
//! A case as found is saved first as `NAME-SEED.original.in`, and its minimized form as
//! `NAME-SEED.in` once minimization ends; a stress run killed in between leaves only the
//! former, which then stands for the case (it is listed and replayed) until a minimized one
//! joins it.
//!
//! A sidecar is data anyone may have written (a program under test, a cloned repository):
//! it names files only by plain names in its own directory, and one that does not describe
//! the case beside it is ignored.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use anyhow::Context;
use serde::{Deserialize, Serialize};

/// What the sidecar `NAME-SEED.meta` records about a saved failing case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Meta {
    /// The problem's name, as typed.
    pub problem: String,
    pub seed: u64,
    /// The verdict's code: `WA`, `TLE`, ...
    pub verdict: String,
    pub detail: String,
    /// The program that failed, as typed (quoted for a shell).
    pub program: String,
    /// The file name of the case as found, beside this one, when this one is its minimized
    /// form.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub original: Option<String>,
    /// When it was saved, in seconds since the Unix epoch.
    pub saved_at: u64,
    /// How it was judged and made; absent from the sidecars of older versions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setting: Option<Setting>,
    /// The whole output's size in bytes, when the `.out` beside it holds only its start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_bytes: Option<u64>,
}

/// How a saved case was judged and made: what a replay needs besides the program.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Setting {
    /// The judging flags as typed, one word each (`--checker`, `checker.cpp`, ...): what
    /// replays read back. The fields after it say the same for a reader.
    pub flags: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checker: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interactor: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tolerance: Option<f64>,
    #[serde(default)]
    pub ignore_case: bool,
    /// The program's CPU time limit and memory limit, as they were.
    pub time_limit_ms: u64,
    pub memory_limit_mib: u64,
    /// The generator as typed (none for a built-in game's) and its flags (a game's `--n
    /// 1..4`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generator: Option<String>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub generator_flags: String,
}

/// The extensions of the files saved for one case (the input last: it is removed first).
const CASE_FILES: [&str; 7] = [
    "in",
    "ans",
    "out",
    "err",
    "transcript",
    "meta",
    "explain.txt",
];
/// The extensions of the files saved for a case as found.
const ORIGINAL_FILES: [&str; 6] = ["in", "ans", "out", "err", "transcript", "explain.txt"];

/// The sidecar of a saved input: `chess-5.in` → `chess-5.meta`.
pub fn meta_path(input: &Path) -> PathBuf {
    input.with_extension("meta")
}

/// Writes the sidecar of the saved input `input`.
pub fn write_meta(input: &Path, meta: &Meta) -> anyhow::Result<()> {
    let mut json = serde_json::to_string_pretty(meta).context("encoding the case's record")?;
    json.push('\n');
    crate::fsutil::write_atomic(&meta_path(input), json.as_bytes())
}

/// The sidecar of a saved input, if it has a readable one that describes it: its problem
/// and seed name the input's file, and the case as found it names (if any) is a plain file
/// name, beside it.
pub fn read_meta(input: &Path) -> Option<Meta> {
    let bytes = crate::fsutil::read_regular_capped(&meta_path(input)).ok()?;
    let meta: Meta = serde_json::from_slice(&bytes).ok()?;
    let file = input.file_name()?.to_str()?;
    let stem = file.strip_suffix(".in")?;
    let own = format!("{}-{}", meta.problem, meta.seed);
    let describes = is_plain_name(&meta.problem)
        && is_case_of(file, &meta.problem)
        && (stem == own || stem.strip_prefix(&own).is_some_and(|k| k.starts_with('-')));
    let original_ok = meta.original.as_deref().is_none_or(is_plain_name);
    (describes && original_ok).then_some(meta)
}

/// A plain file name: no directory part, not `.` or `..`, not empty.
fn is_plain_name(name: &str) -> bool {
    !name.is_empty() && name != "." && name != ".." && !name.contains('/') && !name.contains('\0')
}

/// Seconds since the Unix epoch, now.
pub fn now() -> u64 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Whether `file` is a saved case of `problem` (not a case as found): `PROBLEM-SEED.in` or
/// `PROBLEM-SEED-K.in`.
pub fn is_case_of(file: &str, problem: &str) -> bool {
    file.strip_prefix(problem)
        .and_then(|rest| rest.strip_prefix('-'))
        .and_then(|rest| rest.strip_suffix(".in"))
        .is_some_and(seed_part)
}

/// The minimized case's file name for `file` when it is a case as found of `problem`
/// (`chess-5.original.in` → `chess-5.in`, `chess-5.original-2.in` → `chess-5-2.in`).
pub fn minimized_name(file: &str, problem: &str) -> Option<String> {
    let stem = file.strip_suffix(".in")?;
    let (seed_stem, k) = match stem.rsplit_once(".original") {
        Some((seed_stem, "")) => (seed_stem, None),
        Some((seed_stem, k)) => (seed_stem, Some(k.strip_prefix('-')?)),
        None => return None,
    };
    let minimized = match k {
        Some(k) => format!("{seed_stem}-{k}.in"),
        None => format!("{seed_stem}.in"),
    };
    is_case_of(&minimized, problem).then_some(minimized)
}

/// Whether `file` in `dir` is a case of `problem` to list and replay: a minimized case, or a
/// case as found whose minimization never finished: no minimized case is beside it (by
/// name), and no sidecar in `dir` names it as its case as found (`claimed`, from
/// [`claimed_originals`]).
pub fn is_saved_case(dir: &Path, file: &str, problem: &str, claimed: &[String]) -> bool {
    is_case_of(file, problem)
        || (minimized_name(file, problem).is_some_and(|m| !dir.join(m).exists())
            && !claimed.iter().any(|c| c == file))
}

/// The cases as found that the sidecars in `dir` name: each has its minimized case.
pub fn claimed_originals(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| {
            let path = e.path();
            let input = path
                .to_str()
                .filter(|p| p.ends_with(".meta"))
                .map(|p| PathBuf::from(p).with_extension("in"))?;
            read_meta(&input)?.original
        })
        .collect()
}

/// `SEED` or `SEED-K`.
fn seed_part(text: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    match text.split_once('-') {
        Some((seed, k)) => digits(seed) && digits(k),
        None => digits(text),
    }
}

/// The problem and seed a saved case's file name gives (`chess-5.in`, `chess-5-2.in`), when
/// there is no sidecar to say. A name ending in two numbers is read as a second case of a
/// seed.
fn read_name(file: &str) -> Option<(String, u64)> {
    let stem = file.strip_suffix(".in")?;
    let stem = match stem.rsplit_once(".original") {
        Some((seed_stem, k)) if k.is_empty() || k.starts_with('-') => seed_stem,
        _ => stem,
    };
    let (head, last) = stem.rsplit_once('-')?;
    let number = |s: &str| {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<u64>().ok())
            .flatten()
    };
    let last = number(last)?;
    if let Some((name, seed)) = head.rsplit_once('-')
        && let Some(seed) = number(seed)
        && !name.is_empty()
    {
        return Some((name.to_string(), seed));
    }
    (!head.is_empty()).then(|| (head.to_string(), last))
}

/// One saved failing case.
#[derive(Debug)]
pub struct Saved {
    pub input: PathBuf,
    pub problem: String,
    pub seed: u64,
    pub meta: Option<Meta>,
    /// The input's size in bytes.
    pub bytes: u64,
    /// When it was saved: the sidecar's time, else the input file's.
    pub saved_at: Option<u64>,
}

/// The saved failing cases in `dir` (of `problem` only, if given), in natural order of their
/// names. A missing directory holds none.
pub fn list(dir: &Path, problem: Option<&str>) -> anyhow::Result<Vec<Saved>> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("cannot list {}", dir.display())),
    };
    let claimed = claimed_originals(dir);
    let mut saved = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        let Some(file) = path.file_name().and_then(|f| f.to_str()) else {
            continue;
        };
        if !file.ends_with(".in") || !path.is_file() {
            continue;
        }
        let meta = read_meta(&path);
        let (name, seed) = match &meta {
            Some(m) => (m.problem.clone(), m.seed),
            None => match read_name(file) {
                Some(named) => named,
                None => continue,
            },
        };
        if !is_saved_case(dir, file, problem.unwrap_or(&name), &claimed) {
            continue;
        }
        let metadata = entry.metadata().ok();
        let modified = metadata
            .as_ref()
            .and_then(|m| m.modified().ok())
            .and_then(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok())
            .map(|d| d.as_secs());
        saved.push(Saved {
            saved_at: meta.as_ref().map(|m| m.saved_at).or(modified),
            bytes: metadata.map_or(0, |m| m.len()),
            input: path,
            problem: name,
            seed,
            meta,
        });
    }
    saved.sort_by(|a, b| crate::text::natural_order(a.input.as_os_str(), b.input.as_os_str()));
    Ok(saved)
}

/// Removes the files duipai saved for the case whose input is `input` (`chess-5.in`): its
/// `.in`, `.ans`, `.out`, `.err`, `.transcript`, `.meta` and `.explain.txt`, and the case as
/// found that it was minimized from (`chess-5.original.in` and its siblings: the one its
/// sidecar names, else the one numbered as it is). Returns the files removed, the input first.
pub fn remove_case(input: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let dir = input.parent().unwrap_or(Path::new(""));
    let file = input
        .file_name()
        .and_then(|f| f.to_str())
        .and_then(|f| f.strip_suffix(".in"))
        .with_context(|| format!("{} is not a saved case", input.display()))?;
    let original = original_stem(input, file);
    let mut removed = Vec::new();
    let mut remove = |path: PathBuf| -> anyhow::Result<()> {
        match std::fs::remove_file(&path) {
            Ok(()) => {
                removed.push(path);
                Ok(())
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(e).with_context(|| format!("cannot remove {}", path.display())),
        }
    };
    for ext in CASE_FILES {
        remove(dir.join(format!("{file}.{ext}")))?;
    }
    if let Some(original) = original {
        for ext in ORIGINAL_FILES {
            remove(dir.join(format!("{original}.{ext}")))?;
        }
    }
    Ok(removed)
}

/// The stem of the case as found that `input` (whose stem is `stem`) was minimized from.
fn original_stem(input: &Path, stem: &str) -> Option<String> {
    if stem.contains(".original") {
        // A case as found itself.
        return None;
    }
    if let Some(meta) = read_meta(input) {
        // Only a case-as-found name of this very seed, beside it: never a path elsewhere.
        let named = meta.original?;
        let own = format!("{}-{}.original", meta.problem, meta.seed);
        let original = named.strip_suffix(".in")?;
        // The sidecar is anyone's data: its problem could hold a path (`../../x`).
        let plain = !original.is_empty() && !original.contains('/') && !original.contains('\0');
        let ours = plain
            && (original == own
                || original
                    .strip_prefix(&own)
                    .and_then(|k| k.strip_prefix('-'))
                    .is_some_and(|k| !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit())));
        return ours.then(|| original.to_string());
    }
    // Without a sidecar: `chess-5` was minimized from `chess-5.original`, `chess-5-2` from
    // `chess-5.original-2`.
    match stem.rsplit_once('-') {
        Some((seed_stem, k)) if is_dup(stem) => Some(format!("{seed_stem}.original-{k}")),
        _ => Some(format!("{stem}.original")),
    }
}

/// Whether a saved stem ends in a second number (`chess-5-2`), the mark of a second case of
/// the same seed.
fn is_dup(stem: &str) -> bool {
    let Some((head, k)) = stem.rsplit_once('-') else {
        return false;
    };
    let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    number(k)
        && head
            .rsplit_once('-')
            .is_some_and(|(n, s)| !n.is_empty() && number(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_names_are_recognized() {
        assert!(is_case_of("chess-5.in", "chess"));
        assert!(is_case_of("chess-5-2.in", "chess"));
        assert!(!is_case_of("chess-5.original.in", "chess"));
        assert!(!is_case_of("chessboard-5.in", "chess"));
        assert!(!is_case_of("chess-board-5.in", "chess"));
        assert!(is_case_of("chess-board-5.in", "chess-board"));
        assert!(!is_case_of("chess-5.ans", "chess"));
        assert_eq!(read_name("avg-12.in"), Some(("avg".into(), 12)));
        assert_eq!(read_name("avg-12-2.in"), Some(("avg".into(), 12)));
        assert_eq!(read_name("my-prob-3.in"), Some(("my-prob".into(), 3)));
        assert_eq!(read_name("x.in"), None);
    }

    fn touch(dir: &Path, names: &[&str]) {
        for name in names {
            std::fs::write(dir.join(name), name).unwrap();
        }
    }

    #[test]
    fn removing_a_case_takes_its_files_and_its_original_only() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        touch(
            d,
            &[
                "avg-5.in",
                "avg-5.ans",
                "avg-5.out",
                "avg-5.err",
                "avg-5.original.in",
                "avg-5.original.ans",
                "avg-5-2.in",
                "avg-5-2.ans",
                "avg-5.original-2.in",
                "avg-5.txt",
                "notes.md",
            ],
        );
        let removed = remove_case(&d.join("avg-5.in")).unwrap();
        let names: Vec<String> = removed
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            names,
            [
                "avg-5.in",
                "avg-5.ans",
                "avg-5.out",
                "avg-5.err",
                "avg-5.original.in",
                "avg-5.original.ans"
            ]
        );
        for kept in ["avg-5-2.in", "avg-5.original-2.in", "avg-5.txt", "notes.md"] {
            assert!(d.join(kept).exists(), "{kept} is kept");
        }
        remove_case(&d.join("avg-5-2.in")).unwrap();
        assert!(!d.join("avg-5.original-2.in").exists());
    }

    #[test]
    fn the_sidecar_names_the_original() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        touch(d, &["avg-5.in", "avg-5.original-3.in", "avg-5.original.in"]);
        let meta = Meta {
            problem: "avg".into(),
            seed: 5,
            verdict: "WA".into(),
            detail: "expected 1, found 2".into(),
            program: "sol.cpp".into(),
            original: Some("avg-5.original-3.in".into()),
            output_bytes: None,
            saved_at: 1,
            setting: Some(Setting {
                flags: vec!["--tolerance".into(), "1e-6".into()],
                tolerance: Some(1e-6),
                ..Setting::default()
            }),
        };
        write_meta(&d.join("avg-5.in"), &meta).unwrap();
        assert_eq!(read_meta(&d.join("avg-5.in")), Some(meta.clone()));
        let listed = list(d, Some("avg")).unwrap();
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].meta.as_ref().unwrap().program, "sol.cpp");
        remove_case(&d.join("avg-5.in")).unwrap();
        assert!(!d.join("avg-5.original-3.in").exists());
        assert!(!d.join("avg-5.meta").exists());
        assert!(
            d.join("avg-5.original.in").exists(),
            "another case as found"
        );
        // A sidecar naming a file of another seed, or elsewhere, is not followed.
        touch(d, &["avg-6.in", "avg-7.original.in"]);
        let stray = Meta {
            seed: 6,
            original: Some("../avg-7.original.in".into()),
            ..meta
        };
        write_meta(&d.join("avg-6.in"), &stray).unwrap();
        remove_case(&d.join("avg-6.in")).unwrap();
        assert!(d.join("avg-7.original.in").exists());
        // A problem named as a path (`../x`) leads nowhere outside the folder either.
        let victim = d.join("x-8.original.in");
        std::fs::write(&victim, "keep").unwrap();
        let inside = d.join("sub");
        std::fs::create_dir(&inside).unwrap();
        let traversal = Meta {
            problem: "../x".into(),
            seed: 8,
            original: Some("../x-8.original.in".into()),
            ..stray
        };
        write_meta(&inside.join("x-8.in"), &traversal).unwrap();
        std::fs::write(inside.join("x-8.in"), "1\n").unwrap();
        remove_case(&inside.join("x-8.in")).unwrap();
        assert!(
            victim.exists(),
            "a file outside the save folder was removed"
        );
    }

    /// A crafted sidecar whose problem is a path reaches nothing outside the save folder,
    /// absolute paths included.
    #[test]
    fn a_sidecar_cannot_name_files_outside_its_folder() {
        let outside = tempfile::tempdir().unwrap();
        let victim = outside.path().join("x-6.original.in");
        std::fs::write(&victim, "precious").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let escape = |problem: String| {
            touch(d, &["avg-6.in"]);
            let meta = Meta {
                problem: problem.clone(),
                seed: 6,
                verdict: "WA".into(),
                detail: String::new(),
                program: "p".into(),
                original: Some(format!("{problem}-6.original.in")),
                saved_at: 1,
                setting: None,
                output_bytes: None,
            };
            write_meta(&d.join("avg-6.in"), &meta).unwrap();
            assert_eq!(read_meta(&d.join("avg-6.in")), None, "{problem}");
            remove_case(&d.join("avg-6.in")).unwrap();
        };
        escape(outside.path().join("x").display().to_string());
        let depth = d.components().count();
        let up = "../".repeat(depth);
        escape(format!("{up}{}", outside.path().join("x").display()));
        assert!(
            victim.exists(),
            "a file outside the save folder was removed"
        );
    }

    /// A case as found whose minimized form was never written (the run was killed) is
    /// listed, and removing it takes its own files.
    #[test]
    fn an_unfinished_minimization_leaves_a_listed_case() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        touch(
            d,
            &[
                "avg-5.original.in",
                "avg-5.original.ans",
                "avg-6.in",
                "avg-6.original.in",
                "avg-7.original-2.in",
            ],
        );
        let listed: Vec<String> = list(d, Some("avg"))
            .unwrap()
            .iter()
            .map(|s| s.input.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            listed,
            ["avg-5.original.in", "avg-6.in", "avg-7.original-2.in"]
        );
        assert_eq!(
            minimized_name("avg-7.original-2.in", "avg").as_deref(),
            Some("avg-7-2.in")
        );
        assert_eq!(minimized_name("avg-7.in", "avg"), None);
        let removed = remove_case(&d.join("avg-5.original.in")).unwrap();
        assert_eq!(removed.len(), 2);
        assert!(d.join("avg-6.original.in").exists());
    }
}
