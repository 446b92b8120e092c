//! What one of the setter's programs is made of, as one hash: its command as written and as
//! prepared (a compiled source runs from the build cache, whose folder is named by the build's
//! key: the source, its headers, the compiler command and version), and the contents of the
//! files it names and pulls in (a script, a program, local headers, a Python script's local
//! modules). Two runs of programs with the same fingerprint on the same input print the same,
//! for the deterministic programs a setter writes; a file a program opens by itself (a list
//! of words beside the generator) is not seen.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::Helper;
use super::facts::{hash, key};

/// Files larger than this are named by their size and modification time rather than read.
const MAX_HASHED: u64 = 64 * 1024 * 1024;

impl Helper {
    /// The program's fingerprint (see the module), worked out once; it prepares the program
    /// (a source file is compiled, or taken from the build cache).
    pub fn fingerprint(&self) -> anyhow::Result<String> {
        let prepared = self.command()?.to_vec();
        let kept = self
            .fingerprint
            .get_or_init(|| Ok(fingerprint_of(&self.typed, &prepared)));
        kept.clone().map_err(|e: String| anyhow::anyhow!(e))
    }
}

/// The fingerprint of a program typed as `typed` and run as `prepared`.
fn fingerprint_of(typed: &[OsString], prepared: &[OsString]) -> String {
    let mut parts: Vec<Vec<u8>> = vec![b"duipai program 1".to_vec()];
    for words in [typed, prepared] {
        parts.push(format!("{} words", words.len()).into_bytes());
        parts.extend(words.iter().map(|w| w.as_encoded_bytes().to_vec()));
    }
    for file in files_of(typed) {
        parts.push(file.display().to_string().into_bytes());
        parts.push(content_id(&file).into_bytes());
    }
    let borrowed: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
    key(&borrowed)
}

/// The files a command as typed names (each word that is a file) and what those pull in:
/// a source's local headers and modules, a Python script's local imports.
fn files_of(typed: &[OsString]) -> BTreeSet<PathBuf> {
    let mut files = BTreeSet::new();
    for word in typed {
        let path = PathBuf::from(word);
        if !path.is_file() {
            continue;
        }
        files.extend(crate::compile::local_sources(&path));
        if path.extension().is_some_and(|e| e == "py") {
            python_imports(&path, &mut files);
        }
        files.insert(path);
    }
    files
}

/// A file's content as a hash (its size and modification time when it is huge).
fn content_id(path: &Path) -> String {
    let meta = std::fs::metadata(path).ok();
    match meta {
        Some(m) if m.len() > MAX_HASHED => {
            let modified = m
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos());
            format!("{} bytes, modified {modified}", m.len())
        }
        Some(_) => std::fs::read(path).map_or_else(|_| "unreadable".to_string(), |b| hash(&b)),
        None => "missing".to_string(),
    }
}

/// The modules of the script's folder that `script` imports (`import tree`, `from tree import
/// x`, `from .tree import x`), and theirs in turn, into `found`.
fn python_imports(script: &Path, found: &mut BTreeSet<PathBuf>) {
    let dir = script.parent().unwrap_or(Path::new(""));
    let Ok(text) = std::fs::read_to_string(script) else {
        return;
    };
    for name in imported_names(&text) {
        let module = dir.join(format!("{name}.py"));
        if module.is_file() && found.insert(module.clone()) {
            python_imports(&module, found);
        }
    }
}

/// The top-level module names a Python source imports.
fn imported_names(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in text.lines().map(str::trim_start) {
        let listed = if let Some(rest) = line.strip_prefix("import ") {
            rest.split(',').map(str::trim).collect::<Vec<_>>()
        } else if let Some(rest) = line.strip_prefix("from ") {
            vec![rest.split_whitespace().next().unwrap_or("")]
        } else {
            continue;
        };
        for item in listed {
            let module = item.trim_start_matches('.').split([' ', '.']).next();
            if let Some(module) = module.filter(|m| !m.is_empty()) {
                names.push(module.to_string());
            }
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_python_scripts_local_modules_count() {
        assert_eq!(
            imported_names(
                "import sys, tree as t\nfrom .shapes import star\n  from x.y import z\n"
            ),
            ["sys", "tree", "shapes", "x"]
        );
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("gen.py");
        std::fs::write(&script, "import random, shapes\n").unwrap();
        std::fs::write(dir.path().join("shapes.py"), "from util import line\n").unwrap();
        std::fs::write(dir.path().join("util.py"), "X = 1\n").unwrap();
        let typed = vec![OsString::from("python3"), script.clone().into_os_string()];
        let files = files_of(&typed);
        assert_eq!(files.len(), 3, "{files:?}");
        let before = fingerprint_of(&typed, &typed);
        assert_eq!(before, fingerprint_of(&typed, &typed));
        // Editing a module two imports away is another program.
        std::fs::write(dir.path().join("util.py"), "X = 2\n").unwrap();
        assert_ne!(before, fingerprint_of(&typed, &typed));
    }
}
