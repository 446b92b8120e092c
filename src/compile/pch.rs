//! Precompiled headers: a C++ source that begins with `#include "testlib.h"` is built with
//! the header precompiled once (a `.gch`) and kept in the cache, keyed by the compiler, its
//! flags, its version and the header's bytes, so that a validator, checker or interactor
//! parses only its own code.
//!
//! Only GCC's PCH is used (clang's differs), and only when the header is the source's first
//! directive: `-include` puts it before everything else, and a `#define` written before the
//! include could otherwise change what the header means. Whatever goes wrong (another
//! compiler, a failed header build, a header GCC will not take) falls back to the plain
//! build: GCC itself reads the header as text when the `.gch` does not match.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

use sha2::{Digest, Sha256};

use super::local::LocalFile;
use super::{Compiler, Language, process};

/// The headers worth precompiling, by file name.
const HEADERS: [&str; 1] = ["testlib.h"];

/// Bumped when the layout of a header directory changes.
const PCH_FORMAT: &str = "duipai-pch-v1";

/// Held while a header is built, so that two sources compiled at once build it only once.
static BUILDING: Mutex<()> = Mutex::new(());

/// The header to pass with `-include` for `source` (its copy beside its `.gch` in the
/// cache), building the `.gch` first if the cache has none; `None` for a build that does
/// without.
pub(super) fn header_for(
    compiler: &Compiler,
    version: &str,
    source_text: &[u8],
    local: &[LocalFile],
    cache: &Path,
    timeout: std::time::Duration,
) -> Option<PathBuf> {
    // A command that force-includes a header of its own (`-include`, as the recorder of a
    // generator's choices does) puts it before the precompiled one, which GCC then cannot use.
    let includes = compiler.words.iter().any(|w| w == "-include");
    if compiler.language != Language::Cpp || !is_gcc(version) || includes {
        return None;
    }
    let name = first_include(source_text)?;
    if !HEADERS.contains(&name.as_str()) {
        return None;
    }
    let header = local
        .iter()
        .find(|f| f.path.file_name().is_some_and(|n| n == name.as_str()))?;
    let dir = cache.join(format!("pch-{}", key(compiler, version, &header.contents)));
    let copy = dir.join(&name);
    let gch = dir.join(format!("{name}.gch"));
    super::prune::touch(&dir);
    if gch.is_file() {
        return Some(copy);
    }
    if dir.join(FAILED).is_file() {
        return None;
    }
    let _one_at_a_time = BUILDING.lock().unwrap_or_else(|e| e.into_inner());
    if gch.is_file() {
        return Some(copy);
    }
    build(compiler, &name, &header.contents, cache, &dir, timeout).then_some(copy)
}

/// The mark of a header GCC would not precompile: not tried again for the same key.
const FAILED: &str = "failed";

/// Whether the `--version` text is GCC's.
fn is_gcc(version: &str) -> bool {
    version.contains("Free Software Foundation") && !version.contains("clang")
}

/// The name in the source's first preprocessor directive when it is `#include "NAME"`, after
/// blank lines and comments.
fn first_include(text: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(text);
    let mut in_block = false;
    for line in text.lines() {
        let mut rest = line.trim();
        if in_block {
            let (_, after) = rest.split_once("*/")?;
            rest = after.trim();
            in_block = false;
        }
        while let Some(after) = rest.strip_prefix("/*") {
            match after.split_once("*/") {
                Some((_, tail)) => rest = tail.trim(),
                None => {
                    in_block = true;
                    rest = "";
                }
            }
        }
        if rest.is_empty() || rest.starts_with("//") {
            continue;
        }
        let directive = rest.strip_prefix('#')?.trim_start();
        let quoted = directive.strip_prefix("include")?.trim_start();
        let name = quoted.strip_prefix('"')?.split('"').next()?;
        return Some(name.to_string());
    }
    None
}

/// A SHA-256, in hex, of everything the `.gch` depends on.
fn key(compiler: &Compiler, version: &str, header: &[u8]) -> String {
    let mut hasher = Sha256::new();
    let mut field = |bytes: &[u8]| {
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(bytes);
    };
    field(PCH_FORMAT.as_bytes());
    for word in &compiler.words {
        field(word.as_bytes());
    }
    field(version.as_bytes());
    field(header);
    crate::text::hex(&hasher.finalize())
}

/// Builds the header's `.gch` in a temporary directory of the cache and renames it to `dir`
/// whole; on failure leaves `dir` holding only the mark that says so. Whether it succeeded.
fn build(
    compiler: &Compiler,
    name: &str,
    contents: &[u8],
    cache: &Path,
    dir: &Path,
    timeout: std::time::Duration,
) -> bool {
    let Ok(tmp) = tempfile::Builder::new().prefix(".pch-").tempdir_in(cache) else {
        return false;
    };
    let header = tmp.path().join(name);
    if fs::write(&header, contents).is_err() {
        return false;
    }
    let gch = tmp.path().join(format!("{name}.gch"));
    let mut command = Command::new(&compiler.words[0]);
    command
        .args(&compiler.words[1..])
        .args(["-x", "c++-header"])
        .arg(&header)
        .arg("-o")
        .arg(&gch);
    let built = process::run(&mut command, timeout)
        .is_ok_and(|c| c.status.is_some_and(|s| s.success()))
        && gch.is_file();
    if !built {
        // Marked, so that every later build does not pay for the attempt again.
        let _ = fs::remove_file(&header);
        let _ = fs::remove_file(&gch);
        let _ = fs::write(tmp.path().join(FAILED), b"");
    }
    match fs::rename(tmp.path(), dir) {
        Ok(()) => {
            let _kept = tmp.keep();
        }
        // Another duipai put it there first: its result counts.
        Err(_) => return dir.join(format!("{name}.gch")).is_file(),
    }
    built
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_first_directive_counts() {
        let first = |s: &str| first_include(s.as_bytes());
        assert_eq!(
            first("// checker\n\n#include \"testlib.h\"\n#include <vector>\n"),
            Some("testlib.h".into())
        );
        assert_eq!(
            first("/* a\n b */ #include \"testlib.h\"\n"),
            Some("testlib.h".into())
        );
        assert_eq!(
            first("/* x */\n  #  include \"testlib.h\"\n"),
            Some("testlib.h".into())
        );
        assert_eq!(first("#define X\n#include \"testlib.h\"\n"), None);
        assert_eq!(
            first("#include <bits/stdc++.h>\n#include \"testlib.h\"\n"),
            None
        );
        assert_eq!(first("int main() {}\n"), None);
    }

    #[test]
    fn gcc_is_told_from_clang() {
        assert!(is_gcc(
            "g++ (Debian 12.2.0-14) 12.2.0\nCopyright (C) 2022 Free Software Foundation, Inc."
        ));
        assert!(!is_gcc(
            "Debian clang version 14.0.6\nTarget: x86_64-pc-linux-gnu"
        ));
    }
}
