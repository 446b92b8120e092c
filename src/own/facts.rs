//! What the setter's programs said, kept by what made it: a small text a key, in the folder
//! `facts/` of duipai's cache. A key is the SHA-256 of everything the answer depends on (a
//! program's [`fingerprint`](super::fingerprint), its arguments, an input's hash), so a fact
//! is never stale: a changed program or input is another key. `pack` and `judge` keep here
//! which input a generator printed for a seed, which answer the reference gave, and what the
//! validator said, and so make again only the tests whose makers changed.
//!
//! Best effort throughout: a cache that cannot be read or written only means that the
//! programs run again. Facts unused for [`UNUSED_FOR`] are removed, at most once a day, when
//! a new one is kept.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// How long a fact may go unused before it is removed.
const UNUSED_FOR: Duration = Duration::from_secs(30 * 24 * 60 * 60);

/// How often the folder is swept for unused facts.
const SWEEP_EVERY: Duration = Duration::from_secs(24 * 60 * 60);

/// The marker whose modification time says when the folder was last swept.
const SWEPT: &str = ".swept";

/// The folder of facts, or none (nothing is kept, every program runs).
#[derive(Debug, Clone, Default)]
pub struct Facts {
    dir: Option<PathBuf>,
}

impl Facts {
    /// The facts of duipai's cache (`$DUIPAI_CACHE_DIR/facts`, ...; see
    /// [`crate::compile::default_cache_dir`]); none when there is no cache folder.
    pub fn open() -> Facts {
        let dir = crate::compile::default_cache_dir()
            .ok()
            .and_then(|d| std::path::absolute(d).ok())
            .map(|d| d.join("facts"));
        Facts { dir }
    }

    /// Facts kept in `dir`.
    pub fn at(dir: &Path) -> Facts {
        Facts {
            dir: Some(dir.to_path_buf()),
        }
    }

    /// No facts: every program runs.
    pub fn none() -> Facts {
        Facts { dir: None }
    }

    /// The fact kept under `key`, marked as used now.
    pub fn get(&self, key: &str) -> Option<String> {
        let path = self.dir.as_ref()?.join(key);
        let text = std::fs::read_to_string(&path).ok()?;
        if let Ok(file) = std::fs::File::open(&path) {
            let _ = file.set_modified(SystemTime::now());
        }
        Some(text)
    }

    /// Keeps `fact` under `key` (replacing what was there: the same key has the same fact).
    pub fn put(&self, key: &str, fact: &str) {
        let Some(dir) = &self.dir else { return };
        if std::fs::create_dir_all(dir).is_err() {
            return;
        }
        let _ = crate::fsutil::write_atomic(&dir.join(key), fact.as_bytes());
        sweep(dir, SystemTime::now());
    }
}

/// The key of a fact: the SHA-256, in hex, of its parts, each preceded by its length (so
/// that `ab` + `c` is not `a` + `bc`).
pub fn key(parts: &[&[u8]]) -> String {
    use sha2::Digest;
    let mut hasher = sha2::Sha256::new();
    for part in parts {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part);
    }
    crate::text::hex(&hasher.finalize())
}

/// The SHA-256 of `bytes`, in hex.
pub fn hash(bytes: &[u8]) -> String {
    use sha2::Digest;
    crate::text::hex(&sha2::Sha256::digest(bytes))
}

/// Whether a file name is a fact's: 64 hex digits. Nothing else in the folder is removed.
fn is_fact(name: &str) -> bool {
    name.len() == 64 && name.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Removes the facts of `dir` unused for [`UNUSED_FOR`], when the last sweep is older than
/// [`SWEEP_EVERY`]; returns how many.
fn sweep(dir: &Path, now: SystemTime) -> usize {
    let marker = dir.join(SWEPT);
    let age = |path: &Path| {
        std::fs::metadata(path)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|m| now.duration_since(m).ok())
    };
    if age(&marker).is_some_and(|a| a < SWEEP_EVERY) {
        return 0;
    }
    if std::fs::write(&marker, b"").is_err() {
        return 0;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let path = entry.path();
        let old = age(&path).is_some_and(|a| a > UNUSED_FOR);
        if name.to_str().is_some_and(is_fact) && old && std::fs::remove_file(&path).is_ok() {
            removed += 1;
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_are_kept_by_key_and_unused_ones_swept() {
        let dir = tempfile::tempdir().unwrap();
        let facts = Facts::at(dir.path());
        let (a, b) = (key(&[b"ab", b"c"]), key(&[b"a", b"bc"]));
        assert_ne!(a, b);
        assert_eq!(a.len(), 64);
        assert_eq!(facts.get(&a), None);
        facts.put(&a, "valid\n");
        assert_eq!(facts.get(&a).as_deref(), Some("valid\n"));
        assert_eq!(Facts::none().get(&a), None);

        // A fact unused for longer than a month goes at the next sweep; others stay.
        let now = SystemTime::now();
        let old = std::fs::File::open(dir.path().join(&a)).unwrap();
        old.set_modified(now - UNUSED_FOR - Duration::from_secs(60))
            .unwrap();
        std::fs::write(dir.path().join("notes.txt"), "mine").unwrap();
        facts.put(&b, "x");
        // Swept a moment ago (by the put of b, or the one before): not again today.
        assert_eq!(sweep(dir.path(), now), 0);
        let marker = std::fs::File::open(dir.path().join(SWEPT)).unwrap();
        marker.set_modified(now - SWEEP_EVERY * 2).unwrap();
        assert_eq!(sweep(dir.path(), now), 1);
        assert_eq!(facts.get(&a), None);
        assert_eq!(facts.get(&b).as_deref(), Some("x"));
        assert!(dir.path().join("notes.txt").is_file());
    }
}
