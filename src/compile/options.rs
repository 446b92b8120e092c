//! How sources are built and where builds are kept: the options, the toolchain each
//! language uses (default or overridden), the cache directory, and the compiler's version.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use super::*;
use crate::run::find_program;

/// How sources are built and where builds are kept.
#[derive(Clone, Debug)]
pub struct CompileOptions {
    /// The cache directory; `None` means the user's: `$DUIPAI_CACHE_DIR`, else
    /// `$XDG_CACHE_HOME/duipai`, else `$HOME/.cache/duipai`.
    pub cache_dir: Option<PathBuf>,
    /// Compiler commands from the command line (`LANG=COMMAND`, see [`parse_override`]); they
    /// win over the environment. For a language given twice, the last one counts.
    pub overrides: Vec<(Language, Vec<String>)>,
    /// Whether `DUIPAI_CC`, `DUIPAI_CXX`, `DUIPAI_RUSTC`, `DUIPAI_JAVAC`, `DUIPAI_PYTHON` and
    /// `DUIPAI_JAVA` are read (they win over the defaults). Tests turn this off so that the
    /// environment they run in cannot change what they test.
    pub use_env: bool,
    /// How long one compiler run may take before it is killed.
    pub timeout: Duration,
    /// Whether the source is a judging helper (a validator, a checker, an interactor): with
    /// the default C or C++ command it is built at `-Og` instead of `-O2`. Such a helper
    /// reads small stress cases, and a testlib one spends three quarters of its `-O2` build
    /// optimizing testlib's own code: the user waits for that build before the first case.
    pub helper: bool,
}

impl Default for CompileOptions {
    fn default() -> CompileOptions {
        CompileOptions {
            cache_dir: None,
            overrides: Vec::new(),
            use_env: true,
            timeout: DEFAULT_TIMEOUT,
            helper: false,
        }
    }
}

/// Where a compiler command came from: error messages say what to change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    Default,
    /// The environment variable of that name.
    Env(&'static str),
    /// The command-line override.
    Flag,
}

/// A resolved compiler (or interpreter) command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compiler {
    pub language: Language,
    pub words: Vec<String>,
    pub origin: Origin,
}

impl CompileOptions {
    /// The command for `language`: the command-line override, else its environment variable,
    /// else the contest default.
    pub fn compiler(&self, language: Language) -> Result<Compiler, CompileError> {
        if let Some((_, words)) = self.overrides.iter().rev().find(|(l, _)| *l == language) {
            return Ok(Compiler {
                language,
                words: words.clone(),
                origin: Origin::Flag,
            });
        }
        let var = language.env_var();
        if let Some(words) = self.env_command(var)? {
            return Ok(Compiler {
                language,
                words,
                origin: Origin::Env(var),
            });
        }
        let mut words = language.default_command();
        if self.helper && matches!(language, Language::C | Language::Cpp) {
            for word in &mut words {
                if word == "-O2" {
                    *word = "-Og".into();
                }
            }
        }
        Ok(Compiler {
            language,
            words,
            origin: Origin::Default,
        })
    }

    /// The words of an environment variable's command, `None` if unset or blank (a variable
    /// set to nothing is the usual way of unsetting it).
    pub(super) fn env_command(
        &self,
        var: &'static str,
    ) -> Result<Option<Vec<String>>, CompileError> {
        if !self.use_env {
            return Ok(None);
        }
        let Some(value) = std::env::var_os(var) else {
            return Ok(None);
        };
        let bad = |why: String| CompileError::BadEnvironment {
            var,
            value: value.to_string_lossy().into_owned(),
            why,
        };
        let text = value
            .to_str()
            .ok_or_else(|| bad("it is not valid UTF-8".into()))?;
        let words = split_command(text).map_err(bad)?;
        Ok((!words.is_empty()).then_some(words))
    }

    /// The command that runs compiled Java classes: `$DUIPAI_JAVA`, else the `java` beside an
    /// overridden `javac` given as a path, else `java` from PATH. The flags keep the JVM's
    /// address-space reservations (class space, code cache) small enough to start under the
    /// runner's `RLIMIT_AS`, and give it the deep stack (64 MiB) judges give Java.
    pub fn java_runtime(&self, javac: &Compiler) -> Result<Vec<String>, CompileError> {
        if let Some(words) = self.env_command("DUIPAI_JAVA")? {
            return Ok(words);
        }
        let mut program = "java".to_string();
        if let Some(first) = javac.words.first() {
            let path = Path::new(first);
            if path.file_name() == Some(OsStr::new("javac")) && first.contains('/') {
                let sibling = path.with_file_name("java");
                if sibling.is_file() {
                    program = sibling.to_string_lossy().into_owned();
                }
            }
        }
        Ok([
            program.as_str(),
            "-Xss64m",
            // Codeforces' convention: `System.getProperty("ONLINE_JUDGE")` is set.
            "-DONLINE_JUDGE=true",
            "-XX:+UseSerialGC",
            "-XX:CompressedClassSpaceSize=64m",
            "-XX:ReservedCodeCacheSize=64m",
        ]
        .iter()
        .map(|w| w.to_string())
        .collect())
    }

    /// The cache directory, absolute (programs run in fresh working directories).
    pub fn resolved_cache_dir(&self) -> Result<PathBuf, CompileError> {
        let dir = match &self.cache_dir {
            Some(dir) => dir.clone(),
            None => default_cache_dir()?,
        };
        std::path::absolute(&dir).map_err(|error| CompileError::Io {
            what: format!("cannot resolve the cache directory {}", dir.display()),
            error,
        })
    }
}

/// The user's cache directory for duipai: `$DUIPAI_CACHE_DIR`, else `$XDG_CACHE_HOME/duipai`
/// (when absolute, as the XDG specification requires), else `$HOME/.cache/duipai`.
pub fn default_cache_dir() -> Result<PathBuf, CompileError> {
    let set = |var: &str| std::env::var_os(var).filter(|v| !v.is_empty());
    if let Some(dir) = set("DUIPAI_CACHE_DIR") {
        return Ok(PathBuf::from(dir));
    }
    if let Some(dir) = set("XDG_CACHE_HOME").map(PathBuf::from)
        && dir.is_absolute()
    {
        return Ok(dir.join("duipai"));
    }
    if let Some(home) = set("HOME") {
        return Ok(PathBuf::from(home).join(".cache").join("duipai"));
    }
    Err(CompileError::NoCacheDir)
}

/// The compiler's `--version` output, run once per process per program (threads asking for
/// the same one at once wait for the first's answer), and kept from run to run for a compiler
/// that is machine code ([`versions`]): it goes into the cache key, so an upgraded compiler
/// builds anew. A program that cannot be started is reported here, before any build, naming
/// what overrides it.
pub(super) fn compiler_version(
    compiler: &Compiler,
    options: &CompileOptions,
) -> Result<String, CompileError> {
    type Slot = std::sync::Arc<Mutex<Option<String>>>;
    static SEEN: OnceLock<Mutex<HashMap<String, Slot>>> = OnceLock::new();
    let program = compiler.words.first().cloned().unwrap_or_default();
    let slot = SEEN
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(program.clone())
        .or_default()
        .clone();
    // Held while asking: another thread asking for this program waits for the answer (four
    // roles of a stress, all Python, asked python3 four times at once); a thread asking for
    // another program does not.
    let mut known = slot.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(version) = known.as_ref() {
        return Ok(version.clone());
    }
    let path = find_program(OsStr::new(&program));
    let cache = options.resolved_cache_dir().ok();
    let kept = path.as_ref().zip(cache.as_ref());
    let version = match kept.and_then(|(path, cache)| versions::remembered(path, cache)) {
        Some(version) => version,
        None => {
            let version = ask_version(compiler, &program, path.as_deref(), options.timeout)?;
            if let Some((path, cache)) = kept {
                versions::remember(path, cache, &version);
            }
            version
        }
    };
    *known = Some(version.clone());
    Ok(version)
}

/// Runs `program --version`: what it printed and how it ended, then its full path.
fn ask_version(
    compiler: &Compiler,
    program: &str,
    path: Option<&Path>,
    timeout: Duration,
) -> Result<String, CompileError> {
    let captured = process::run(Command::new(program).arg("--version"), timeout)
        .map_err(|error| missing(compiler, error))?;
    // Whatever it printed and however it ended: a compiler without `--version` still gets a
    // stable key, and its full path below tells different installations apart.
    let mut version = String::from_utf8_lossy(&captured.stdout).into_owned();
    version.push_str(&String::from_utf8_lossy(&captured.stderr));
    if let Some(status) = captured.status {
        version.push_str(&describe(status));
    }
    if let Some(path) = path {
        version.push_str(&path.to_string_lossy());
    }
    Ok(version)
}
