//! The languages duipai compiles or interprets: how a source file is recognized, the
//! default compiler of each, and `--compiler LANG=COMMAND` overrides.

use std::fmt;
use std::path::Path;
use std::str::FromStr;

/// A language duipai can compile or interpret.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Language {
    C,
    Cpp,
    Rust,
    Java,
    Python,
}

impl Language {
    pub const ALL: [Language; 5] = [
        Language::C,
        Language::Cpp,
        Language::Rust,
        Language::Java,
        Language::Python,
    ];

    /// The language of a source file, by its extension: `.c`, `.cpp`/`.cc`/`.cxx`, `.rs`,
    /// `.java`, `.py`.
    pub fn from_path(path: &Path) -> Option<Language> {
        let ext = path.extension()?.to_str()?;
        Language::ALL
            .into_iter()
            .find(|lang| lang.extensions().contains(&ext))
    }

    /// The file extensions of this language, without the dot.
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            Language::C => &["c"],
            Language::Cpp => &["cpp", "cc", "cxx"],
            Language::Rust => &["rs"],
            Language::Java => &["java"],
            Language::Python => &["py"],
        }
    }

    /// The name used in `LANG=COMMAND` and in cache directory names.
    pub fn id(self) -> &'static str {
        match self {
            Language::C => "c",
            Language::Cpp => "cpp",
            Language::Rust => "rust",
            Language::Java => "java",
            Language::Python => "python",
        }
    }

    /// The environment variable holding this language's compiler (interpreter) command.
    pub fn env_var(self) -> &'static str {
        match self {
            Language::C => "DUIPAI_CC",
            Language::Cpp => "DUIPAI_CXX",
            Language::Rust => "DUIPAI_RUSTC",
            Language::Java => "DUIPAI_JAVAC",
            Language::Python => "DUIPAI_PYTHON",
        }
    }

    /// The contest command: the flags most judges (Codeforces, AtCoder, NOI) use, with
    /// `ONLINE_JUDGE` defined as judges define it, so that a solution's `#ifndef ONLINE_JUDGE`
    /// debugging (a `freopen` of a local file, extra output) is off as it will be when judged.
    pub fn default_command(self) -> Vec<String> {
        #[cfg(windows)]
        if let Some(words) = windows_default(self) {
            return words.iter().map(|w| w.to_string()).collect();
        }
        let words: &[&str] = match self {
            Language::C => &["gcc", "-std=c11", "-O2", "-pipe", "-DONLINE_JUDGE"],
            Language::Cpp => &["g++", "-std=c++17", "-O2", "-pipe", "-DONLINE_JUDGE"],
            Language::Rust => &["rustc", "--edition", "2021", "-O"],
            // javac is a JVM that runs for a second or two: its second JIT tier (C2) costs
            // more CPU compiling javac than it saves on a contest-sized source (1.85 -> 1.15 s
            // of CPU a compile with the first tier alone). OpenJ9 ignores -XX options it
            // does not know.
            Language::Java => &["javac", "-J-XX:TieredStopAtLevel=1"],
            Language::Python => &["python3"],
        };
        words.iter().map(|w| w.to_string()).collect()
    }

    /// Whether sources are run by an interpreter rather than built.
    pub(super) fn is_interpreted(self) -> bool {
        self == Language::Python
    }

    /// What the command is called in messages.
    pub(super) fn tool(self) -> &'static str {
        if self.is_interpreted() {
            "interpreter"
        } else {
            "compiler"
        }
    }
}

/// The command on Windows where the contest default is not on PATH: Python as the `py -3`
/// launcher or `python` (python.org's installer gives no `python3`), C++ as LLVM's
/// `clang++` or MSVC's `cl` when there is no MinGW `g++`. `None`: the contest default.
#[cfg(windows)]
fn windows_default(language: Language) -> Option<&'static [&'static str]> {
    let on_path = |name: &str| crate::run::find_program(name.as_ref()).is_some();
    match language {
        Language::Python if !on_path("python3") => {
            if on_path("py") {
                Some(&["py", "-3"])
            } else {
                Some(&["python"])
            }
        }
        Language::Cpp if !on_path("g++") && on_path("clang++") => {
            Some(&["clang++", "-std=c++17", "-O2", "-DONLINE_JUDGE"])
        }
        Language::Cpp if !on_path("g++") && on_path("cl") => Some(&[
            "cl",
            "/nologo",
            "/std:c++17",
            "/O2",
            "/EHsc",
            "/DONLINE_JUDGE",
        ]),
        Language::C if !on_path("gcc") && on_path("cl") => {
            Some(&["cl", "/nologo", "/O2", "/DONLINE_JUDGE"])
        }
        _ => None,
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Language::C => "C",
            Language::Cpp => "C++",
            Language::Rust => "Rust",
            Language::Java => "Java",
            Language::Python => "Python",
        })
    }
}

impl FromStr for Language {
    type Err = String;

    /// Accepts the ids (`c`, `cpp`, `rust`, `java`, `python`), the extensions and a few
    /// common spellings (`c++`, `cxx`, `py`, `python3`), in any case.
    fn from_str(s: &str) -> Result<Language, String> {
        let lower = s.trim().to_ascii_lowercase();
        let found = match lower.as_str() {
            "c++" => Some(Language::Cpp),
            "python3" => Some(Language::Python),
            other => Language::ALL
                .into_iter()
                .find(|lang| lang.id() == other || lang.extensions().contains(&other)),
        };
        found.ok_or_else(|| {
            let ids: Vec<&str> = Language::ALL.iter().map(|l| l.id()).collect();
            format!(
                "unknown language \"{s}\": expected one of {}",
                ids.join(", ")
            )
        })
    }
}

/// Parses a compiler override given on the command line, `LANG=COMMAND`: `cpp=g++ -std=c++20
/// -O2`, `py=pypy3`. COMMAND is split into words as a shell would (quotes, backslashes).
pub fn parse_override(s: &str) -> Result<(Language, Vec<String>), String> {
    let Some((lang, command)) = s.split_once('=') else {
        return Err(format!(
            "expected LANG=COMMAND (for example \"cpp=g++ -std=c++20 -O2\"), found \"{s}\""
        ));
    };
    let lang: Language = lang.parse()?;
    let words = split_command(command)
        .map_err(|why| format!("cannot read the {lang} command \"{command}\": {why}"))?;
    if words.is_empty() {
        return Err(format!(
            "the {lang} command is empty: write it after the `=`, as in \"{}={}\"",
            lang.id(),
            lang.default_command().join(" ")
        ));
    }
    Ok((lang, words))
}

/// Splits a command into words like a POSIX shell (without expansions).
pub(super) fn split_command(command: &str) -> Result<Vec<String>, String> {
    shell_words::split(command).map_err(|e| match e {
        shell_words::ParseError => "a quote is not closed".to_string(),
    })
}
