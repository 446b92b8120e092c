//! What a pack of one's own is asked to write ([`OwnPackOptions`]) and the files it writes
//! besides the tests ([`OwnFile`]): the pack and its ICPC layout both speak in them.

use std::path::{Path, PathBuf};

use anyhow::Context;

use super::plan::OwnPlan;
use crate::judge::Runner;
use crate::own::OwnProblem;
use crate::pack::Layout;
use crate::pack::icpc::IcpcVersion;

/// What to write and where.
pub struct OwnPackOptions<'a> {
    pub problem: &'a OwnProblem,
    pub runner: &'a dyn Runner,
    pub out: PathBuf,
    pub plan: OwnPlan,
    pub layout: Layout,
    /// Mixed into every line's seed; 0 keeps the written seeds.
    pub seed: u64,
    pub force: bool,
    pub overwrite_edited: bool,
    pub write_limits: bool,
    pub icpc_version: Option<IcpcVersion>,
    /// A folder of inputs the validator must reject (`data/invalid_input/`).
    pub invalid: Option<PathBuf>,
    /// The problem's folder: its `submissions/` go into the ICPC package.
    pub folder: PathBuf,
    pub jobs: usize,
    /// Read back from the previous pack the tests whose makers did not change (off: every
    /// test is made again).
    pub reuse: bool,
    /// Pack hand-made tests the checks reject (an invalid input, a wrong answer), with a
    /// warning each, rather than stop.
    pub keep_rejected: bool,
    /// Check the answers a package ships (a Polygon package's `tests/01.a`) against the
    /// reference's; off, they are used as they are and the reference never runs on them.
    pub check_shipped_answers: bool,
    /// Only the tests, named as the ICPC layout names them, with no package around them
    /// (the tests `judge` makes from the plan).
    pub tests_only: bool,
}

/// A file the pack writes: its path in the pack, its manifest row (without the hash), its
/// content, and whether it is a program to run.
#[derive(Debug, Clone)]
pub struct OwnFile {
    pub path: String,
    pub line: Option<usize>,
    pub row: String,
    pub content: Vec<u8>,
    pub executable: bool,
}

impl OwnFile {
    /// A file duipai writes from its own text (a script, a configuration): the manifest's
    /// command prints it.
    pub fn text(path: impl Into<String>, what: &str, content: String) -> OwnFile {
        let path = path.into();
        OwnFile {
            row: format!(
                "{path}\t-\t{what}\t{}",
                crate::pack::printf_command(&content)
            ),
            path,
            line: None,
            content: content.into_bytes(),
            executable: false,
        }
    }

    /// A copy of the setter's file `source` (shown as `shown`, relative to the problem's
    /// folder).
    pub fn copied(path: impl Into<String>, what: &str, source: &Path) -> anyhow::Result<OwnFile> {
        let path = path.into();
        let content = std::fs::read(source)
            .with_context(|| format!("reading {} for the pack", source.display()))?;
        Ok(OwnFile {
            row: format!(
                "{path}\t-\t{what}\tcat {}",
                crate::text::shell_quote(&source.display().to_string())
            ),
            path,
            line: None,
            content,
            executable: false,
        })
    }

    /// A file duipai writes from bytes it made (a configuration, a checker's source): the
    /// manifest's command prints it when it is text.
    pub fn bytes(path: impl Into<String>, what: &str, content: Vec<u8>) -> OwnFile {
        match String::from_utf8(content) {
            Ok(text) => OwnFile::text(path, what, text),
            Err(e) => {
                let path = path.into();
                OwnFile {
                    row: format!("{path}\t-\t{what}\t-"),
                    path,
                    line: None,
                    content: e.into_bytes(),
                    executable: false,
                }
            }
        }
    }

    pub fn executable(mut self) -> OwnFile {
        self.executable = true;
        self
    }
}
