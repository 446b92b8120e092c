//! Programs built with a sanitizer (`-fsanitize=address`, `thread`, `memory`, `hwaddress`):
//! they reserve terabytes of address space for shadow memory as they start, which no
//! address-space rlimit allows, so they run without `RLIMIT_AS`. Their memory limit still
//! holds, on resident memory, as for every program.
//!
//! A program is recognized by the runtime's entry point in its file (`__asan_init` and its
//! kin: an undefined dynamic symbol, or the runtime itself when linked statically). The answer
//! is remembered per file, size and modification time, so that thousands of runs of one
//! program read it once.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

/// The runtimes' initialization functions, one per sanitizer that maps shadow memory.
const MARKERS: [&[u8]; 4] = [
    b"__asan_init",
    b"__tsan_init",
    b"__msan_init",
    b"__hwasan_init",
];

/// More than any contest program's binary; a larger file is read this far.
const MAX_READ: u64 = 256 * 1024 * 1024;

type Identity = (SystemTime, u64);

static KNOWN: Mutex<Option<HashMap<PathBuf, (Identity, bool)>>> = Mutex::new(None);

/// Whether `program` (as it is started: a path, or a name looked up in `PATH`) is built with
/// a sanitizer that maps shadow memory. Anything that cannot be read is not.
pub(crate) fn is_sanitized(program: &OsStr) -> bool {
    let Some(path) = locate(program) else {
        return false;
    };
    let Ok(meta) = std::fs::metadata(&path) else {
        return false;
    };
    let identity = (
        meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
        meta.len(),
    );
    let mut known = KNOWN.lock().unwrap_or_else(|e| e.into_inner());
    let known = known.get_or_insert_with(HashMap::new);
    if let Some(&(seen, answer)) = known.get(&path)
        && seen == identity
    {
        return answer;
    }
    let answer = has_marker(&path);
    known.insert(path, (identity, answer));
    answer
}

/// The file a program name starts: itself if it has a `/`, else the first match in `PATH`.
fn locate(program: &OsStr) -> Option<PathBuf> {
    let path = Path::new(program);
    if program.as_encoded_bytes().contains(&b'/') {
        return Some(path.to_path_buf());
    }
    let dirs = std::env::var_os("PATH")?;
    std::env::split_paths(&dirs)
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
}

fn has_marker(path: &Path) -> bool {
    let mut bytes = Vec::new();
    let read = std::fs::File::open(path).and_then(|f| f.take(MAX_READ).read_to_end(&mut bytes));
    read.is_ok()
        && MARKERS
            .iter()
            .any(|marker| memchr::memmem::find(&bytes, marker).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sanitizer_runtime_is_recognized_and_remembered_until_the_file_changes() {
        let dir = tempfile::tempdir().unwrap();
        let program = dir.path().join("a.out");
        std::fs::write(&program, b"\x7fELF...\0__asan_init\0main\0").unwrap();
        assert!(is_sanitized(program.as_os_str()));
        // Rebuilt without it (another size): asked again.
        std::fs::write(&program, b"\x7fELF...\0main\0puts\0").unwrap();
        assert!(!is_sanitized(program.as_os_str()));
        std::fs::write(&program, b"\x7fELF\0__tsan_init\0").unwrap();
        assert!(is_sanitized(program.as_os_str()));
        assert!(!is_sanitized(dir.path().join("missing").as_os_str()));
        assert!(!is_sanitized(OsStr::new("duipai-no-such-program-in-path")));
        // A real program from PATH, built without a sanitizer.
        assert!(!is_sanitized(OsStr::new("sh")));
    }
}
