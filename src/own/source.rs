//! The source file behind a setter's program, for a package that must carry it: the file a
//! command runs (`gen.py`, `python3 gen.py`, `val.cpp`), its language, its arguments, and
//! the local headers it includes (`testlib.h`).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::compile::Language;

/// Interpreters whose first argument is the script they run.
const PYTHONS: [&str; 5] = ["python3", "python", "pypy3", "python3.12", "python3.11"];

/// A program's source file and what the command gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    pub path: PathBuf,
    pub language: Language,
    /// The words of the command after the source file (`gen.py --small`: `--small`).
    pub args: Vec<String>,
}

impl Source {
    /// The source a command runs: its first word when that is an existing source file, or a
    /// Python interpreter's script. `None` for a program without a source here (`./gen`).
    pub fn of(command: &[OsString]) -> Option<Source> {
        let words: Vec<String> = command
            .iter()
            .map(|w| w.to_string_lossy().into_owned())
            .collect();
        let (at, path) = match words.first().map(String::as_str) {
            Some(first) if PYTHONS.contains(&first) => (1, words.get(1)?),
            Some(_) => (0, words.first()?),
            None => return None,
        };
        let path = PathBuf::from(path);
        let language = Language::from_path(&path)?;
        if !path.is_file() || (at == 1 && language != Language::Python) {
            return None;
        }
        Some(Source {
            path,
            language,
            args: words[at + 1..].to_vec(),
        })
    }

    /// The source's text, if it can be read as text.
    pub fn text(&self) -> Option<String> {
        std::fs::read_to_string(&self.path).ok()
    }

    /// The setter's own files it pulls in (`#include "testlib.h"`), relative to the source's
    /// folder when they are below it.
    pub fn headers(&self) -> Vec<PathBuf> {
        crate::compile::local_sources(&self.path)
    }

    /// Whether it is a testlib validator (C or C++ calling `registerValidation`).
    pub fn is_testlib_validator(&self) -> bool {
        self.is_c_family()
            && self
                .text()
                .is_some_and(|t| t.contains("registerValidation"))
    }

    /// Whether it is a testlib program of any kind (it includes `testlib.h`).
    pub fn is_testlib(&self) -> bool {
        self.is_c_family() && self.text().is_some_and(|t| t.contains("testlib.h"))
    }

    fn is_c_family(&self) -> bool {
        matches!(self.language, Language::C | Language::Cpp)
    }

    /// Its file name.
    pub fn file_name(&self) -> String {
        self.path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    }

    /// Its file name without the extension (`gen` for `gen.py`).
    pub fn stem(&self) -> String {
        Path::new(&self.file_name())
            .file_stem()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_source_is_the_script_or_the_program() {
        let dir = tempfile::tempdir().unwrap();
        let gen_py = dir.path().join("gen.py");
        std::fs::write(&gen_py, "print(1)\n").unwrap();
        let words = |w: &[&str]| w.iter().map(OsString::from).collect::<Vec<_>>();
        let shown = gen_py.display().to_string();
        let direct = Source::of(&words(&[&shown, "--small"])).unwrap();
        assert_eq!(direct.language, Language::Python);
        assert_eq!(direct.args, ["--small"]);
        let interpreted = Source::of(&words(&["python3", &shown, "5"])).unwrap();
        assert_eq!(interpreted.path, gen_py);
        assert_eq!(interpreted.args, ["5"]);
        assert_eq!(interpreted.stem(), "gen");
        assert!(Source::of(&words(&["./gen"])).is_none());
        assert!(Source::of(&words(&["python3", "missing.py"])).is_none());
    }
}
