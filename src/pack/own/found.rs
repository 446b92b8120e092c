//! Tests the setter put into a pack folder by hand: every `*.in` that no pack in the manifest
//! lists and this pack does not write (in an ICPC package, below `data/sample/` and
//! `data/secret/`), with its hand-made answer when it has one, and the inputs of
//! `data/invalid_input/` no pack lists. The pack checks each as it checks its own tests
//! (valid, its answer the reference's), and an ICPC package's `generators.yaml` copies them,
//! so that `bt generate` keeps them.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

use super::plan::{Group, OwnPlan};
use crate::pack::Layout;
use crate::pack::manifest::Manifest;

/// A test found in the folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundTest {
    /// Its path in the pack without `.in`: `data/secret/structure/98-bad`.
    pub stem: String,
    pub input: PathBuf,
    /// Its answer when the setter made one (a `.ans` beside it that no pack lists).
    pub answer: Option<PathBuf>,
}

/// What the folder holds by hand.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Found {
    pub tests: Vec<FoundTest>,
    /// Invalid inputs of `data/invalid_input/` (ICPC layout): their name (the path below that
    /// folder without `.in`) and file.
    pub invalid: Vec<(String, PathBuf)>,
}

impl Found {
    /// The tests found directly in `folder` (`data/secret/small`).
    pub fn in_folder<'a>(&'a self, folder: &'a str) -> impl Iterator<Item = &'a FoundTest> {
        self.tests
            .iter()
            .filter(move |t| t.stem.rsplit_once('/').map(|(f, _)| f) == Some(folder))
    }

    /// Every hand-made file found, as the report names them: `data/secret/98-hand.in`.
    pub fn names(&self) -> Vec<String> {
        let tests = self.tests.iter().map(|t| format!("{}.in", t.stem));
        let invalid = self
            .invalid
            .iter()
            .map(|(n, _)| format!("{INVALID_INPUT}{n}.in"));
        tests.chain(invalid).collect()
    }
}

/// The package folder of a plan's group: `data/sample`, `data/secret`, `data/secret/small`.
pub fn group_folder(group: &Group) -> String {
    match (group.is_sample(), group.is_own()) {
        (true, _) => "data/sample".to_string(),
        (_, true) => format!("data/secret/{}", group.name),
        _ => "data/secret".to_string(),
    }
}

/// That every hand-made test of an ICPC package is where `generators.yaml` can keep it: in
/// `data/sample/` or the folder of one of the plan's groups (the format has test groups or
/// tests in `data/secret/`, never both), and every invalid input directly in
/// `data/invalid_input/`.
pub fn check_icpc_places(found: &Found, plan: &OwnPlan) -> anyhow::Result<()> {
    let folders: Vec<String> = plan
        .groups
        .iter()
        .enumerate()
        .filter(|(i, _)| plan.tests_of(*i).next().is_some())
        .map(|(_, g)| group_folder(g))
        .collect();
    for test in &found.tests {
        let folder = test.stem.rsplit_once('/').map_or("", |(f, _)| f);
        if folder != "data/sample" && !folders.iter().any(|f| f == folder) {
            let places: Vec<&str> = folders
                .iter()
                .map(String::as_str)
                .filter(|f| *f != "data/sample")
                .collect();
            bail!(
                "{}.in, a hand-made test in the package, is in {folder}/, where the plan has no \
                 group (the ICPC format has test groups or tests in data/secret/, never both): \
                 move it into data/sample/ or {}, or make it a plan line `copy PATH`",
                test.stem,
                places.join(", ")
            );
        }
    }
    if let Some((name, _)) = found.invalid.iter().find(|(n, _)| n.contains('/')) {
        bail!(
            "{INVALID_INPUT}{name}.in, a hand-made invalid input in the package, is in a folder \
             below {INVALID_INPUT}: move it into {INVALID_INPUT} itself"
        );
    }
    Ok(())
}

/// Where the ICPC package keeps its invalid inputs.
pub const INVALID_INPUT: &str = "data/invalid_input/";

/// The hand-made tests of `out` for a pack in `layout` that writes the tests `planned`
/// (their paths without `.in`), as the manifest tells them from packs' files.
pub fn find(
    out: &Path,
    manifest: &Manifest,
    layout: Layout,
    planned: &[String],
) -> anyhow::Result<Found> {
    let mut found = Found::default();
    // Another judge's layout names its tests its own way (Polygon's tests/01, Luogu's
    // NAME1.out) and lists them in its configuration: nothing there is taken as hand-made.
    let own_names = matches!(layout, Layout::Plain | Layout::Noi | Layout::Icpc);
    if !out.is_dir() || !own_names {
        return Ok(found);
    }
    let unlisted = |rel: &str| manifest.owner_of(rel).is_none();
    let walk = walkdir::WalkDir::new(out)
        .sort_by(|a, b| crate::text::natural_order(a.file_name(), b.file_name()));
    for entry in walk {
        let entry = entry.with_context(|| format!("reading the directory {}", out.display()))?;
        let path = entry.path();
        if !entry.file_type().is_file() || path.extension() != Some("in".as_ref()) {
            continue;
        }
        let Some(rel) = relative(out, path) else {
            continue;
        };
        let stem = rel.trim_end_matches(".in").to_string();
        if !unlisted(&rel) || planned.contains(&stem) {
            continue;
        }
        if layout == Layout::Icpc {
            if let Some(name) = stem.strip_prefix(INVALID_INPUT) {
                found.invalid.push((name.to_string(), path.to_path_buf()));
                continue;
            }
            if !(stem.starts_with("data/sample/") || stem.starts_with("data/secret/")) {
                continue;
            }
        }
        let answer = path.with_extension("ans");
        let hand_answer = answer.is_file() && unlisted(&format!("{stem}.ans"));
        found.tests.push(FoundTest {
            stem,
            input: path.to_path_buf(),
            answer: hand_answer.then_some(answer),
        });
    }
    Ok(found)
}

/// `path` relative to `out`, `/`-separated.
fn relative(out: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(out).ok()?;
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_made_tests_are_those_no_pack_lists() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        let write = |rel: &str| {
            let path = out.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "1\n").unwrap();
        };
        for rel in [
            "data/secret/small/01.in",
            "data/secret/small/01.ans",
            "data/secret/small/98-hand.in",
            "data/secret/small/98-hand.ans",
            "data/secret/small/99-ours.in",
            "data/secret/small/99-ours.ans",
            "data/invalid_input/zero/weight.in",
            "generators/manual/sample-01.in",
        ] {
            write(rel);
        }
        let manifest = Manifest::parse(
            "# duipai pack t --layout icpc --seed 0 (plan p, 1 tests)\n\
             data/secret/small/01.in\t1\tx\ty\n\
             data/secret/small/99-ours.ans\t-\tx\ty\n",
        )
        .unwrap();
        let found = find(out, &manifest, Layout::Icpc, &[]).unwrap();
        let stems: Vec<&str> = found.tests.iter().map(|t| t.stem.as_str()).collect();
        assert_eq!(
            stems,
            ["data/secret/small/98-hand", "data/secret/small/99-ours"]
        );
        assert!(found.tests[0].answer.is_some());
        // The answer a pack wrote for a hand-made input is not the setter's.
        assert_eq!(found.tests[1].answer, None);
        assert_eq!(found.invalid.len(), 1);
        assert_eq!(found.invalid[0].0, "zero/weight");
        let plan = OwnPlan {
            name: "p".into(),
            groups: vec![Group {
                name: "small".into(),
                score: None,
                line: 1,
                dependencies: Vec::new(),
                each_test: false,
            }],
            lines: vec![super::super::plan::OwnLine {
                line: 2,
                text: "gen t --seed 1".into(),
                group: 0,
                source: super::super::plan::LineSource::Gen {
                    generator: None,
                    args: Vec::new(),
                    seed: Some(1),
                },
                shipped_answer: None,
            }],
        };
        let why = check_icpc_places(&found, &plan).unwrap_err().to_string();
        assert!(
            why.contains("zero/weight.in, a hand-made invalid input"),
            "{why}"
        );
        let flat = Found {
            invalid: Vec::new(),
            ..found.clone()
        };
        check_icpc_places(&flat, &plan).unwrap();
        let mut astray = flat.clone();
        astray.tests[0].stem = "data/secret/extra/5".into();
        let why = check_icpc_places(&astray, &plan).unwrap_err().to_string();
        assert!(
            why.contains("is in data/secret/extra/, where the plan has no group"),
            "{why}"
        );
        // A test this pack writes is its own.
        let planned = ["data/secret/small/98-hand".to_string()];
        let found = find(out, &manifest, Layout::Icpc, &planned).unwrap();
        assert_eq!(found.tests.len(), 1);
    }
}
