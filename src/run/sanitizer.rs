//! Programs built with a sanitizer (`-fsanitize=address`, `thread`, `memory`, `hwaddress`):
//! they reserve terabytes of address space for shadow memory as they start, which no
//! address-space rlimit allows, so they run without `RLIMIT_AS`. Their memory limit still
//! holds, on resident memory, as for every program.
//!
//! A program is recognized by the runtime's entry point among its symbols (`__asan_init` and
//! its kin): a dynamic symbol when the runtime is a shared library (gcc's default) or exported
//! by a linked-in one (clang's), else in the symbol table (gcc's `-static-libasan`, unless
//! stripped). Only the ELF file's symbol-name tables are read, not its code and debug
//! information; a file that is not a 64-bit little-endian ELF file is searched whole. The
//! answer is remembered per file (device and inode), size and modification time, so that
//! thousands of runs of one program look once.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::io::Read;
use std::os::unix::fs::MetadataExt;
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

/// A file as it is now: its device and inode, modification time and size.
type Identity = (u64, u64, SystemTime, u64);

static KNOWN: Mutex<Option<HashMap<Identity, bool>>> = Mutex::new(None);

/// Whether `program` (as it is started: a path, or a name looked up in `PATH`) is built with
/// a sanitizer that maps shadow memory. Anything that cannot be read is not.
///
/// Asked before every run, so a program given as a path costs one `statx` (no current
/// directory to look up, no path to hash): the answer is remembered by the file's identity.
pub(crate) fn is_sanitized(program: &OsStr) -> bool {
    let path = if program.as_encoded_bytes().contains(&b'/') {
        PathBuf::from(program)
    } else {
        match super::find_program(program) {
            Some(found) => found,
            None => return false,
        }
    };
    let Ok(meta) = std::fs::metadata(&path) else {
        return false;
    };
    if !meta.is_file() {
        return false;
    }
    let identity = (
        meta.dev(),
        meta.ino(),
        meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
        meta.len(),
    );
    let mut known = KNOWN.lock().unwrap_or_else(|e| e.into_inner());
    *known
        .get_or_insert_with(HashMap::new)
        .entry(identity)
        .or_insert_with(|| has_marker(&path))
}

fn has_marker(path: &Path) -> bool {
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    let has = |bytes: &[u8]| {
        MARKERS
            .iter()
            .any(|marker| memchr::memmem::find(bytes, marker).is_some())
    };
    match symbol_names(&file) {
        Some(tables) => tables.iter().any(|table| has(table)),
        None => {
            let mut bytes = Vec::new();
            file.take(MAX_READ).read_to_end(&mut bytes).is_ok() && has(&bytes)
        }
    }
}

/// The string tables of an ELF64 little-endian file's symbol tables (dynamic symbols first,
/// then the full symbol table if it is not stripped); `None` if the file is not one, or its
/// headers make no sense (then it is searched whole).
fn symbol_names(file: &std::fs::File) -> Option<Vec<Vec<u8>>> {
    use std::os::unix::fs::FileExt;
    const SECTION_HEADER: usize = 64;
    const SHT_SYMTAB: u64 = 2;
    const SHT_DYNSYM: u64 = 11;
    let read_at = |offset: u64, len: usize| -> Option<Vec<u8>> {
        let mut buf = vec![0; len];
        file.read_exact_at(&mut buf, offset).ok()?;
        Some(buf)
    };
    let field = |bytes: &[u8], at: usize, width: usize| -> Option<u64> {
        let mut le = [0u8; 8];
        le[..width].copy_from_slice(bytes.get(at..at + width)?);
        Some(u64::from_le_bytes(le))
    };
    let header = read_at(0, 64)?;
    // The magic, 64-bit class, little-endian data.
    if header.get(..6)? != b"\x7fELF\x02\x01" {
        return None;
    }
    let table_offset = field(&header, 0x28, 8)?;
    let entry_size = field(&header, 0x3A, 2)? as usize;
    let count = field(&header, 0x3C, 2)? as usize;
    if entry_size != SECTION_HEADER || count == 0 {
        return None;
    }
    let table = read_at(table_offset, count * SECTION_HEADER)?;
    let section = |i: usize| table.get(i * SECTION_HEADER..(i + 1) * SECTION_HEADER);
    let mut names = Vec::new();
    for wanted in [SHT_DYNSYM, SHT_SYMTAB] {
        for i in 0..count {
            let header = section(i)?;
            if field(header, 4, 4)? != wanted {
                continue;
            }
            // sh_link names the section that holds the symbols' names.
            let strings = section(field(header, 0x28, 4)? as usize)?;
            let size = field(strings, 0x20, 8)?;
            if size > MAX_READ {
                return None;
            }
            names.push(read_at(field(strings, 0x18, 8)?, size as usize)?);
        }
    }
    Some(names)
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
        // A real program from PATH, built without a sanitizer: its dynamic strings are read.
        assert!(!is_sanitized(OsStr::new("sh")));
        let sh = super::super::find_program(OsStr::new("sh")).expect("sh in PATH");
        let tables = symbol_names(&std::fs::File::open(sh).unwrap()).expect("an ELF file");
        assert!(
            tables
                .iter()
                .any(|t| memchr::memmem::find(t, b"libc.so").is_some())
        );
    }
}
