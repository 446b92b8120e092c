//! What a compiler's `--version` said, kept in the build cache from run to run
//! (`versions/KEY`), for compilers and interpreters that are machine code: asking `javac`
//! starts a JVM (0.3 s of CPU), `python3` 15 ms, and every duipai command that builds or runs
//! a source asked again. KEY names the very file (its real path, device, inode, size and
//! times), so an upgraded compiler, which is a new file, is asked anew. A script (a version
//! manager's shim, a wrapper) is always asked: what it starts can change while it does not.

use std::fs;
use std::path::{Path, PathBuf};

/// The folder of the cache that holds them.
const FOLDER: &str = "versions";

/// What `program`'s `--version` said when it was asked last, if it is machine code and was
/// asked before as this very file.
pub(super) fn remembered(program: &Path, cache: &Path) -> Option<String> {
    fs::read_to_string(entry(program, cache)?).ok()
}

/// Keeps `version` as what `program` said, when it is machine code. Best effort: a cache
/// that cannot be written only means asking again next time.
pub(super) fn remember(program: &Path, cache: &Path, version: &str) {
    let Some(path) = entry(program, cache) else {
        return;
    };
    if fs::create_dir_all(cache.join(FOLDER)).is_ok() {
        let _ = crate::fsutil::write_atomic(&path, version.as_bytes());
    }
}

/// The file `program`'s answer is kept in; `None` for a script or a file that cannot be read
/// (and off Unix, where a file's identity is not read yet: every run asks).
#[cfg(not(unix))]
fn entry(_program: &Path, _cache: &Path) -> Option<PathBuf> {
    None
}

#[cfg(unix)]
fn entry(program: &Path, cache: &Path) -> Option<PathBuf> {
    use sha2::{Digest, Sha256};
    use std::io::Read;

    let real = fs::canonicalize(program).ok()?;
    let mut file = fs::File::open(&real).ok()?;
    let mut magic = [0u8; 4];
    file.read_exact(&mut magic).ok()?;
    if !is_machine_code(&magic) {
        return None;
    }
    let identity = crate::fsutil::identity(&real, &file.metadata().ok()?);
    let key = crate::text::hex(&Sha256::digest(identity));
    Some(cache.join(FOLDER).join(key))
}

/// ELF (Linux and the BSDs) or Mach-O (macOS), either byte order, 32 or 64 bits, or fat.
#[cfg(any(unix, test))]
fn is_machine_code(magic: &[u8; 4]) -> bool {
    let word = u32::from_be_bytes(*magic);
    magic == b"\x7fELF"
        || [0xfeedface, 0xfeedfacf, 0xcafebabe].contains(&word)
        || [0xfeedface, 0xfeedfacf].contains(&word.swap_bytes())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_binary_is_remembered_until_it_changes_and_a_script_never() {
        let dir = tempfile::tempdir().unwrap();
        let cache = dir.path().join("cache");
        let binary = dir.path().join("cc");
        fs::write(&binary, b"\x7fELF and the rest").unwrap();
        assert_eq!(remembered(&binary, &cache), None);
        remember(&binary, &cache, "cc 1.0");
        assert_eq!(remembered(&binary, &cache).as_deref(), Some("cc 1.0"));
        // Through a link, as PATH often finds it: the same file.
        let link = dir.path().join("cc-link");
        std::os::unix::fs::symlink(&binary, &link).unwrap();
        assert_eq!(remembered(&link, &cache).as_deref(), Some("cc 1.0"));
        // An upgrade replaces the file: asked anew.
        fs::remove_file(&binary).unwrap();
        fs::write(&binary, b"\x7fELF and more of the rest").unwrap();
        assert_eq!(remembered(&binary, &cache), None);

        let script = dir.path().join("shim");
        fs::write(&script, "#!/bin/sh\nexec cc \"$@\"\n").unwrap();
        remember(&script, &cache, "cc 1.0");
        assert_eq!(remembered(&script, &cache), None);
        assert!(
            !cache
                .join(FOLDER)
                .read_dir()
                .unwrap()
                .any(|e| { fs::read_to_string(e.unwrap().path()).unwrap() != "cc 1.0" })
        );
    }

    #[test]
    fn machine_code_is_told_by_its_first_bytes() {
        assert!(is_machine_code(b"\x7fELF"));
        assert!(is_machine_code(&0xfeedfacfu32.to_le_bytes()));
        assert!(is_machine_code(&0xcafebabeu32.to_be_bytes()));
        assert!(!is_machine_code(b"#!/b"));
        assert!(!is_machine_code(b"\0\0\0\0"));
    }
}
