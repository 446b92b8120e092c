//! The user's own files a source pulls into its build (C and C++ `#include "..."`, Rust
//! `mod name;`), found so that editing one of them changes the build's cache key.
//!
//! The search is textual and errs on the side of including: a directive in a block comment or
//! an `#if 0` still counts, which only costs a rebuild. A quoted include is looked for where a
//! compiler looks first: the including file's directory, then the `-I` directories of the
//! compiler command (`--compiler cpp='g++ -Ilib'`). System headers (`<...>`) are not
//! followed: an upgraded compiler changes its `--version`, which is in the key.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

use super::Language;

/// At most this many files are followed, and this many bytes read in all: a source that pulls
/// in more is keyed on what was read.
const MAX_FILES: usize = 256;
const MAX_BYTES: u64 = 16 * 1024 * 1024;

/// A file the source pulls in, with its path as found (relative to the source's directory when
/// the source's path is) and its contents.
pub(super) struct LocalFile {
    pub path: PathBuf,
    pub contents: Vec<u8>,
}

/// The local files `source` (whose text is `bytes`) pulls in, directly or through each other,
/// in the order found; each once.
pub(super) fn local_files(
    language: Language,
    source: &Path,
    bytes: &[u8],
    include_dirs: &[PathBuf],
) -> Vec<LocalFile> {
    if !matches!(language, Language::C | Language::Cpp | Language::Rust) {
        return Vec::new();
    }
    let mut found: Vec<LocalFile> = Vec::new();
    let mut seen: HashSet<PathBuf> = HashSet::new();
    if let Ok(canonical) = fs::canonicalize(source) {
        seen.insert(canonical);
    }
    let mut read = 0u64;
    // Files still to look into: the source (the Rust crate root), then each file found, by
    // its index in `found`.
    let mut queue: Vec<Option<usize>> = vec![None];
    while let Some(next) = queue.pop() {
        let (file, text, root) = match next {
            None => (source, bytes, true),
            Some(i) => (found[i].path.as_path(), found[i].contents.as_slice(), false),
        };
        let text = String::from_utf8_lossy(text);
        let candidates = match language {
            Language::Rust => rust_modules(file, root, &text),
            _ => quoted_includes(file, &text, include_dirs),
        };
        for candidate in candidates {
            if found.len() >= MAX_FILES || read >= MAX_BYTES {
                return found;
            }
            let Ok(canonical) = fs::canonicalize(&candidate) else {
                continue;
            };
            if !canonical.is_file() || !seen.insert(canonical) {
                continue;
            }
            let Ok(contents) = fs::read(&candidate) else {
                continue;
            };
            read += contents.len() as u64;
            queue.push(Some(found.len()));
            found.push(LocalFile {
                path: candidate,
                contents,
            });
        }
    }
    found
}

/// `#include "name"` lines, each resolved next to `file`, else in the first of `include_dirs`
/// that has it.
fn quoted_includes(file: &Path, text: &str, include_dirs: &[PathBuf]) -> Vec<PathBuf> {
    let dir = file.parent().unwrap_or(Path::new(""));
    text.lines()
        .filter_map(|line| {
            let rest = line.trim_start().strip_prefix('#')?.trim_start();
            let rest = rest.strip_prefix("include")?.trim_start();
            let name = rest.strip_prefix('"')?.split('"').next()?;
            if name.is_empty() {
                return None;
            }
            std::iter::once(dir)
                .chain(include_dirs.iter().map(PathBuf::as_path))
                .map(|d| d.join(name))
                .find(|candidate| candidate.is_file())
        })
        .collect()
}

/// The `-I` directories of a compiler command (`-Idir` and `-I dir`).
pub(super) fn include_dirs(words: &[String]) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    let mut words = words.iter();
    while let Some(word) = words.next() {
        if word == "-I" {
            dirs.extend(words.next().map(PathBuf::from));
        } else if let Some(dir) = word.strip_prefix("-I") {
            dirs.push(PathBuf::from(dir));
        }
    }
    dirs
}

/// `mod name;` lines, resolved as rustc does without `#[path]`: `name.rs` or `name/mod.rs` in
/// the directory of `file`'s modules (its own directory for the crate root and a `mod.rs`,
/// else the directory named after it).
fn rust_modules(file: &Path, root: bool, text: &str) -> Vec<PathBuf> {
    let parent = file.parent().unwrap_or(Path::new(""));
    let is_mod_rs = file.file_name().is_some_and(|n| n == "mod.rs");
    let dir = match file.file_stem() {
        Some(stem) if !root && !is_mod_rs => parent.join(stem),
        _ => parent.to_path_buf(),
    };
    text.lines()
        .filter_map(|line| {
            let mut rest = line.trim_start();
            if let Some(after) = rest.strip_prefix("pub") {
                // `pub mod`, `pub(crate) mod`, `pub(super) mod`.
                rest = match after.trim_start().strip_prefix('(') {
                    Some(scoped) => scoped.split_once(')')?.1,
                    None => after,
                }
                .trim_start();
            }
            let name = rest.strip_prefix("mod")?.trim_start();
            let name = name.strip_suffix(';')?.trim_end();
            let valid =
                !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            valid.then(|| name.to_string())
        })
        .flat_map(|name| {
            [
                dir.join(format!("{name}.rs")),
                dir.join(&name).join("mod.rs"),
            ]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(files: &[LocalFile], base: &Path) -> Vec<String> {
        files
            .iter()
            .map(|f| {
                f.path
                    .strip_prefix(base)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect()
    }

    #[test]
    fn quoted_includes_are_followed_once_system_headers_not() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        fs::create_dir(d.join("lib")).unwrap();
        let source = "#include <cstdio>\n  #  include \"lib/a.h\"\n#include \"missing.h\"\n\
                      // #include \"commented.h\"\n#include \"b.h\"\n";
        fs::write(d.join("sol.cpp"), source).unwrap();
        fs::write(d.join("lib/a.h"), "#include \"c.h\"\n#include \"../b.h\"\n").unwrap();
        fs::write(d.join("lib/c.h"), "int c;\n").unwrap();
        fs::write(d.join("b.h"), "#include \"b.h\"\n").unwrap();
        fs::write(d.join("commented.h"), "").unwrap();
        let files = local_files(Language::Cpp, &d.join("sol.cpp"), source.as_bytes(), &[]);
        // b.h once, though reached three ways; a line comment is not a directive.
        let mut found = names(&files, d);
        found.sort();
        assert_eq!(found, ["b.h", "lib/a.h", "lib/c.h"]);
        let c = files.iter().find(|f| f.path.ends_with("c.h")).unwrap();
        assert_eq!(c.contents, b"int c;\n");
    }

    #[test]
    fn include_directories_of_the_command_are_searched_after_the_files_own() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        fs::create_dir_all(d.join("lib")).unwrap();
        fs::write(d.join("lib/util.h"), "int u;\n").unwrap();
        fs::write(d.join("lib/here.h"), "from lib\n").unwrap();
        fs::write(d.join("here.h"), "beside\n").unwrap();
        let source = "#include \"util.h\"\n#include \"here.h\"\n";
        let lib = d.join("lib").display().to_string();
        let words = ["g++".to_string(), "-O2".into(), "-I".into(), lib];
        let dirs = include_dirs(&words);
        assert_eq!(dirs, [d.join("lib")]);
        assert_eq!(include_dirs(&["-Ifoo".to_string()]), [PathBuf::from("foo")]);
        let files = local_files(Language::Cpp, &d.join("sol.cpp"), source.as_bytes(), &dirs);
        let found: Vec<&[u8]> = files.iter().map(|f| f.contents.as_slice()).collect();
        assert_eq!(found, [&b"int u;\n"[..], b"beside\n"]);
    }

    #[test]
    fn rust_modules_follow_rustc_paths() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        fs::create_dir_all(d.join("graph")).unwrap();
        let main = "mod util;\npub(crate) mod graph;\n// mod nothing;\nmod inline { }\n";
        fs::write(d.join("main.rs"), main).unwrap();
        fs::write(d.join("util.rs"), "pub mod deep;\n").unwrap();
        fs::create_dir(d.join("util")).unwrap();
        fs::write(d.join("util/deep.rs"), "").unwrap();
        fs::write(d.join("graph/mod.rs"), "mod edge;\n").unwrap();
        fs::write(d.join("graph/edge.rs"), "").unwrap();
        let files = local_files(Language::Rust, &d.join("main.rs"), main.as_bytes(), &[]);
        let mut found = names(&files, d);
        found.sort();
        assert_eq!(
            found,
            ["graph/edge.rs", "graph/mod.rs", "util.rs", "util/deep.rs"]
        );
    }

    #[test]
    fn other_languages_pull_in_nothing() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("b.h"), "").unwrap();
        let text = b"#include \"b.h\"\n";
        assert!(local_files(Language::Java, &dir.path().join("Main.java"), text, &[]).is_empty());
    }
}
