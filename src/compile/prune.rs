//! Keeping the build cache bounded: a build's directory is touched whenever it is used, and
//! when a new build is stored, builds unused for [`UNUSED_FOR`] and build directories left
//! half-made by an interrupted duipai for a day are removed.

use std::fs;
use std::path::Path;
use std::time::{Duration, SystemTime};

/// How long a build may go unused before a later build removes it.
pub(super) const UNUSED_FOR: Duration = Duration::from_secs(30 * 24 * 60 * 60);

/// How old a temporary build directory must be to be someone's leftover rather than a build
/// under way.
const ABANDONED_AFTER: Duration = Duration::from_secs(24 * 60 * 60);

/// Marks a build as used now (its directory's modification time). Best effort: a cache on a
/// read-only disk still serves its builds.
pub(super) fn touch(build: &Path) {
    if let Ok(dir) = fs::File::open(build) {
        let _ = dir.set_modified(SystemTime::now());
    }
}

/// Whether a cache entry's name is one of duipai's builds (`cpp-<64 hex digits>`, and the
/// precompiled headers `pch-<64 hex digits>`) or temporary build directories (`.build-...`,
/// `.pch-...`): nothing else in the directory is touched.
fn kind(name: &str) -> Option<Duration> {
    if name.starts_with(".build-") || name.starts_with(".pch-") {
        return Some(ABANDONED_AFTER);
    }
    let (language, key) = name.split_once('-')?;
    let is_build = !language.is_empty()
        && language.chars().all(|c| c.is_ascii_lowercase())
        && key.len() == 64
        && key.chars().all(|c| c.is_ascii_hexdigit());
    is_build.then_some(UNUSED_FOR)
}

/// Removes the builds of `cache` unused for [`UNUSED_FOR`] and abandoned temporary build
/// directories, as of `now`; returns how many were removed. Failures are ignored: pruning is
/// housekeeping, never a reason to fail a run.
pub(super) fn prune(cache: &Path, now: SystemTime) -> usize {
    let Ok(entries) = fs::read_dir(cache) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(max_age) = name.to_str().and_then(kind) else {
            continue;
        };
        // Not following a symbolic link: only real directories of the cache are removed.
        let Ok(meta) = fs::symlink_metadata(entry.path()) else {
            continue;
        };
        let age = meta
            .modified()
            .ok()
            .and_then(|m| now.duration_since(m).ok());
        if meta.is_dir()
            && age.is_some_and(|a| a > max_age)
            && fs::remove_dir_all(entry.path()).is_ok()
        {
            removed += 1;
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn aged(dir: &Path, name: &str, age: Duration, now: SystemTime) {
        let path = dir.join(name);
        fs::create_dir(&path).unwrap();
        fs::write(path.join("a"), "binary").unwrap();
        fs::File::open(&path)
            .unwrap()
            .set_modified(now - age)
            .unwrap();
    }

    #[test]
    fn old_builds_and_leftovers_go_everything_else_stays() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let now = SystemTime::now();
        let key = "0123456789abcdef".repeat(4);
        let day = Duration::from_secs(24 * 60 * 60);
        aged(d, &format!("cpp-{key}"), 31 * day, now);
        aged(d, &format!("rust-{key}"), 29 * day, now);
        aged(d, ".build-old", 2 * day, now);
        aged(d, ".build-new", Duration::from_secs(60), now);
        aged(d, "notes", 400 * day, now);
        aged(d, &format!("cpp-{}", &key[1..]), 400 * day, now);
        assert_eq!(prune(d, now), 2);
        let mut left: Vec<String> = fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(
            left,
            [
                ".build-new".to_string(),
                format!("cpp-{}", &key[1..]),
                "notes".to_string(),
                format!("rust-{key}"),
            ]
        );
    }

    #[test]
    fn a_used_build_is_young_again() {
        let dir = tempfile::tempdir().unwrap();
        let now = SystemTime::now();
        let name = format!("c-{}", "f".repeat(64));
        aged(dir.path(), &name, UNUSED_FOR * 2, now);
        touch(&dir.path().join(&name));
        assert_eq!(prune(dir.path(), SystemTime::now()), 0);
        assert!(dir.path().join(&name).is_dir());
    }
}
