//! Source files given where a program is expected (`a.cpp`, `brute.rs`, `gen.py`): compiled
//! once with contest flags, cached by content, and turned into the command that runs them.
//!
//! The cache key is a SHA-256 of the source's bytes and name, the user's own headers and
//! modules it pulls in (`local`), the whole compiler command and the compiler's `--version`
//! output, so an edit, another flag or an upgraded compiler each build anew and nothing else
//! does. A build happens in a temporary directory inside the
//! cache and is renamed into place whole: concurrent duipai processes building the same
//! source are safe, and a half-written binary is never found under its final name. Builds
//! unused for 30 days are removed when a new one is stored (`prune`).
//!
//! This module prints nothing and knows no command-line parser: the caller shows progress
//! and errors, and wires `parse_override` to its `--compiler LANG=COMMAND` flag.

mod java;
mod local;
mod process;

pub use process::cancel;
mod prune;

use std::collections::HashMap;
use std::ffi::{OsStr, OsString};
use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::str::FromStr;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

use crate::run::find_program;

/// The command-line flag that overrides a compiler, named in error messages; its value is
/// parsed by [`parse_override`].
pub const OVERRIDE_FLAG: &str = "--compiler";

/// How long one compiler run may take by default: generous for heavy templates and rustc, short
/// enough that a hung compiler does not hang duipai.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// A compiler's messages are cut after this many lines or bytes: the first errors are the ones
/// to fix, and a template error can run to megabytes.
const SHOWN_LINES: usize = 200;
const SHOWN_BYTES: usize = 32 * 1024;

/// Bumped when the layout of a build directory changes, so old cache entries are not misread.
const CACHE_FORMAT: &str = "duipai-build-v1";

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
        let words: &[&str] = match self {
            Language::C => &["gcc", "-std=c11", "-O2", "-pipe", "-DONLINE_JUDGE"],
            Language::Cpp => &["g++", "-std=c++17", "-O2", "-pipe", "-DONLINE_JUDGE"],
            Language::Rust => &["rustc", "--edition", "2021", "-O"],
            Language::Java => &["javac"],
            Language::Python => &["python3"],
        };
        words.iter().map(|w| w.to_string()).collect()
    }

    /// Whether sources are run by an interpreter rather than built.
    fn is_interpreted(self) -> bool {
        self == Language::Python
    }

    /// What the command is called in messages.
    fn tool(self) -> &'static str {
        if self.is_interpreted() {
            "interpreter"
        } else {
            "compiler"
        }
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
fn split_command(command: &str) -> Result<Vec<String>, String> {
    shell_words::split(command).map_err(|e| match e {
        shell_words::ParseError => "a quote is not closed".to_string(),
    })
}

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
}

impl Default for CompileOptions {
    fn default() -> CompileOptions {
        CompileOptions {
            cache_dir: None,
            overrides: Vec::new(),
            use_env: true,
            timeout: DEFAULT_TIMEOUT,
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
        Ok(Compiler {
            language,
            words: language.default_command(),
            origin: Origin::Default,
        })
    }

    /// The words of an environment variable's command, `None` if unset or blank (a variable
    /// set to nothing is the usual way of unsetting it).
    fn env_command(&self, var: &'static str) -> Result<Option<Vec<String>>, CompileError> {
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

/// The command to run, and how it was obtained.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prepared {
    /// What to start: `[binary, args...]`, `[python3, /abs/gen.py, args...]`,
    /// `[java, flags..., -cp, dir, Main, args...]`, or the command as given when its first
    /// word is not a source file.
    pub command: Vec<OsString>,
    /// The source's language; `None` when the command was not a source file.
    pub language: Option<Language>,
    /// Whether the compiler ran in this call: false for a cache hit, an interpreted language
    /// or a plain program.
    pub compiled: bool,
    /// How long the compiler took, when it ran.
    pub compile_time: Option<Duration>,
}

impl Prepared {
    fn unchanged(command: &[OsString]) -> Prepared {
        Prepared {
            command: command.to_vec(),
            language: None,
            compiled: false,
            compile_time: None,
        }
    }
}

/// Why a source could not be prepared. Every variant is a harness failure (exit 2).
#[derive(Debug)]
pub enum CompileError {
    /// The source does not compile: the compiler's own messages, positions included.
    Failed {
        source: PathBuf,
        language: Language,
        /// The compiler command, without the source and output arguments duipai adds.
        command: Vec<String>,
        /// How the compiler ended: `exit status 1`, `killed by signal 9`.
        status: String,
        /// The compiler's messages, capped; positions name the source as the user typed it.
        messages: String,
    },
    /// The compiler did not finish in time and was killed.
    TimedOut {
        source: PathBuf,
        command: Vec<String>,
        after: Duration,
    },
    /// The compiler (or interpreter) cannot be started.
    Missing {
        language: Language,
        program: String,
        origin: Origin,
        error: io::Error,
    },
    /// The program that runs compiled Java classes is not installed.
    MissingRuntime { program: String },
    /// The compiler reported success but left nothing to run.
    NoOutput { source: PathBuf, what: String },
    /// An environment variable holds a command that cannot be split into words.
    BadEnvironment {
        var: &'static str,
        value: String,
        why: String,
    },
    /// Neither DUIPAI_CACHE_DIR, XDG_CACHE_HOME nor HOME is set.
    NoCacheDir,
    /// An interrupt ([`cancel`]) stopped the compiler.
    Interrupted,
    /// Reading the source or writing the cache failed.
    Io { what: String, error: io::Error },
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompileError::Failed {
                source,
                language,
                command,
                status,
                messages,
            } => {
                write!(
                    f,
                    "{} does not compile ({language} compiler `{}`: {status})",
                    source.display(),
                    command.join(" ")
                )?;
                if messages.trim().is_empty() {
                    write!(f, "; the compiler printed nothing")
                } else {
                    write!(f, ":\n{}", messages.trim_end())
                }
            }
            CompileError::TimedOut {
                source,
                command,
                after,
            } => write!(
                f,
                "compiling {} took longer than {} s and was stopped (`{}`)",
                source.display(),
                after.as_secs(),
                command.join(" ")
            ),
            CompileError::Missing {
                language,
                program,
                origin,
                error,
            } => {
                let tool = language.tool();
                let why = if error.kind() == io::ErrorKind::NotFound {
                    "not found".to_string()
                } else {
                    error.to_string()
                };
                let from = match origin {
                    Origin::Default => String::new(),
                    Origin::Env(var) => format!(" (from {var})"),
                    Origin::Flag => format!(" (from {OVERRIDE_FLAG})"),
                };
                write!(
                    f,
                    "cannot run the {language} {tool} `{program}`{from}: {why}; install it, or \
                     name another with {}=COMMAND or {OVERRIDE_FLAG} {}=COMMAND",
                    language.env_var(),
                    language.id()
                )
            }
            CompileError::MissingRuntime { program } => write!(
                f,
                "cannot find the Java runtime `{program}`: install it, or name another with \
                 DUIPAI_JAVA=COMMAND"
            ),
            CompileError::NoOutput { source, what } => write!(
                f,
                "compiling {} reported success but wrote no {what}",
                source.display()
            ),
            CompileError::BadEnvironment { var, value, why } => {
                write!(f, "{var}=\"{value}\" is not a command: {why}")
            }
            CompileError::NoCacheDir => f.write_str(
                "no cache directory for compiled sources: set DUIPAI_CACHE_DIR (or HOME)",
            ),
            CompileError::Io { what, error } => write!(f, "{what}: {error}"),
            CompileError::Interrupted => f.write_str("interrupted while compiling"),
        }
    }
}

/// Every message already includes its cause (`cannot read a.cpp: No such file ...`), so none is
/// given as a source too: an error chain would print it twice.
impl std::error::Error for CompileError {}

/// Turns a program command into the one to run, compiling its source first when the first
/// word names an existing `.c`, `.cpp`, `.cc`, `.cxx`, `.rs`, `.java` or `.py` file (unless
/// that exact build is cached). Any other command is returned unchanged.
pub fn prepare(command: &[OsString], options: &CompileOptions) -> Result<Prepared, CompileError> {
    let Some(first) = command.first() else {
        return Ok(Prepared::unchanged(command));
    };
    let source = Path::new(first);
    let Some(language) = Language::from_path(source) else {
        if let Some(script) = missing_script(command) {
            return Err(not_there(script));
        }
        return Ok(Prepared::unchanged(command));
    };
    if !source.is_file() {
        // A directory of that name, or a program in PATH that happens to end like a source
        // file, is run as it is; anything else is a source file that is not there, which
        // must not be reported as a program missing from PATH.
        let bare_in_path =
            !first.as_encoded_bytes().contains(&b'/') && find_program(first).is_some();
        if source.exists() || bare_in_path {
            return Ok(Prepared::unchanged(command));
        }
        return Err(not_there(source));
    }
    let args = &command[1..];
    let compiler = options.compiler(language)?;
    let version = compiler_version(&compiler, options.timeout)?;

    if language.is_interpreted() {
        // Absolute: the runner starts programs in a fresh temporary working directory.
        let script = absolute(source)?;
        let mut run: Vec<OsString> = compiler.words.iter().map(OsString::from).collect();
        run.push(script.into_os_string());
        run.extend(args.iter().cloned());
        return Ok(Prepared {
            command: run,
            language: Some(language),
            compiled: false,
            compile_time: None,
        });
    }

    let bytes = fs::read(source).map_err(|error| CompileError::Io {
        what: format!("cannot read {}", source.display()),
        error,
    })?;
    let stem = source
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "program".into());
    let plan = Build::new(language, &compiler, &bytes, &stem, source);
    let key = cache_key(&plan, &version, &bytes);

    let cache = options.resolved_cache_dir()?;
    fs::create_dir_all(&cache).map_err(|error| CompileError::Io {
        what: format!("cannot create the cache directory {}", cache.display()),
        error,
    })?;
    let dir = cache.join(format!("{}-{key}", language.id()));
    let runtime = match language {
        Language::Java => {
            let runtime = options.java_runtime(&compiler)?;
            // Checked here, where the fix can be named, rather than as a failure to start
            // every test case.
            if runtime
                .first()
                .and_then(|p| find_program(OsStr::new(p)))
                .is_none()
            {
                return Err(CompileError::MissingRuntime {
                    program: runtime.first().cloned().unwrap_or_default(),
                });
            }
            Some(runtime)
        }
        _ => None,
    };

    // Touched before it is looked at, so that a concurrent prune sees it in use.
    prune::touch(&dir);
    if let Some(run) = cached_command(&plan, &dir, runtime.as_deref()) {
        return Ok(Prepared {
            command: with_args(run, args),
            language: Some(language),
            compiled: false,
            compile_time: None,
        });
    }

    let tmp = tempfile::Builder::new()
        .prefix(".build-")
        .tempdir_in(&cache)
        .map_err(|error| CompileError::Io {
            what: format!("cannot create a build directory in {}", cache.display()),
            error,
        })?;
    let started = Instant::now();
    build(&plan, tmp.path(), options.timeout)?;
    let compile_time = started.elapsed();

    // The atomic step: a complete build appears under its final name, or not at all. If
    // another duipai renamed the same build into place first, its copy is as good as ours.
    match fs::rename(tmp.path(), &dir) {
        Ok(()) => {
            let _kept = tmp.keep();
            // A new build is the moment to drop old ones: rare, and never on a cache hit.
            prune::prune(&cache, std::time::SystemTime::now());
        }
        Err(error) => {
            if cached_command(&plan, &dir, runtime.as_deref()).is_none() {
                return Err(CompileError::Io {
                    what: format!("cannot move the build into {}", dir.display()),
                    error,
                });
            }
        }
    }
    let run =
        cached_command(&plan, &dir, runtime.as_deref()).ok_or_else(|| CompileError::NoOutput {
            source: source.to_path_buf(),
            what: format!("program in {}", dir.display()),
        })?;
    Ok(Prepared {
        command: with_args(run, args),
        language: Some(language),
        compiled: true,
        compile_time: Some(compile_time),
    })
}

fn with_args(mut run: Vec<OsString>, args: &[OsString]) -> Vec<OsString> {
    run.extend(args.iter().cloned());
    run
}

fn absolute(path: &Path) -> Result<PathBuf, CompileError> {
    std::path::absolute(path).map_err(|error| CompileError::Io {
        what: format!("cannot resolve {}", path.display()),
        error,
    })
}

/// Everything a build depends on, decided before the compiler runs.
struct Build<'a> {
    language: Language,
    compiler: &'a Compiler,
    /// The source path as the user typed it: compiler messages then name it that way.
    source: &'a Path,
    /// The binary's name (the source's stem), so reports show `a`, not a hash.
    stem: String,
    /// Java: the top-level declarations that decide the file name and the class to run.
    java: Option<java::Declarations>,
}

impl<'a> Build<'a> {
    fn new(
        language: Language,
        compiler: &'a Compiler,
        bytes: &[u8],
        stem: &str,
        source: &'a Path,
    ) -> Build<'a> {
        let java = (language == Language::Java)
            .then(|| java::declarations(&String::from_utf8_lossy(bytes)));
        Build {
            language,
            compiler,
            source,
            stem: stem.to_string(),
            java,
        }
    }

    /// The compiler's arguments after its own words, with `{source}` and `{out}` placeholders:
    /// the key hashes this template, the build fills it in.
    fn template(&self) -> Vec<&'static str> {
        match self.language {
            Language::C => vec!["{source}", "-o", "{out}", "-lm"],
            Language::Cpp | Language::Rust => vec!["{source}", "-o", "{out}"],
            Language::Java => vec!["-d", "{out}", "{source}"],
            Language::Python => vec!["{source}"],
        }
    }
}

/// A SHA-256, in hex, of everything that decides the build's result. Every field is
/// length-prefixed so that no two different inputs hash the same byte stream.
fn cache_key(plan: &Build<'_>, version: &str, source: &[u8]) -> String {
    let include_dirs = local::include_dirs(&plan.compiler.words);
    let local = local::local_files(plan.language, plan.source, source, &include_dirs);
    let mut hasher = Sha256::new();
    let mut field = |bytes: &[u8]| {
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(bytes);
    };
    field(CACHE_FORMAT.as_bytes());
    field(plan.language.id().as_bytes());
    for word in &plan.compiler.words {
        field(word.as_bytes());
    }
    field(b"--");
    for word in plan.template() {
        field(word.as_bytes());
    }
    field(version.as_bytes());
    field(plan.stem.as_bytes());
    field(source);
    // The user's headers and modules, named as the source reaches them.
    let base = plan.source.parent().unwrap_or(Path::new(""));
    for file in &local {
        let name = file.path.strip_prefix(base).unwrap_or(&file.path);
        field(name.as_os_str().as_encoded_bytes());
        field(&file.contents);
    }
    let digest = hasher.finalize();
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// The command that runs a finished build in `dir`, if `dir` holds one.
fn cached_command(
    plan: &Build<'_>,
    dir: &Path,
    runtime: Option<&[String]>,
) -> Option<Vec<OsString>> {
    if plan.language == Language::Java {
        let class = fs::read_to_string(dir.join("main-class")).ok()?;
        let class = class.trim();
        let classes = dir.join("classes");
        if class.is_empty() || !classes.is_dir() {
            return None;
        }
        // glibc gives every thread that allocates its own malloc arena, 64 MiB of address
        // space each: a JVM's dozen threads then exceed the runner's RLIMIT_AS before `main`
        // runs. Two arenas are plenty for a contest program.
        let mut run: Vec<OsString> = vec!["env".into(), "MALLOC_ARENA_MAX=2".into()];
        run.extend(runtime?.iter().map(OsString::from));
        run.push("-cp".into());
        run.push(classes.into_os_string());
        run.push(class.into());
        return Some(run);
    }
    let binary = dir.join(&plan.stem);
    binary.is_file().then(|| vec![binary.into_os_string()])
}

/// Runs the compiler into `out` (a fresh directory). On success `out` holds a complete build.
fn build(plan: &Build<'_>, out: &Path, timeout: Duration) -> Result<(), CompileError> {
    let mut source = plan.source.to_path_buf();
    // Java: javac wants a public class `Main` in `Main.java`; compile a copy named so.
    let mut renamed_copy: Option<PathBuf> = None;
    let target = match plan.language {
        Language::Java => out.join("classes"),
        _ => out.join(&plan.stem),
    };
    if let Some(decl) = &plan.java {
        if let Some(class) = &decl.public_class
            && plan.stem != *class
        {
            let copy_dir = out.join("src");
            let copy = copy_dir.join(format!("{class}.java"));
            fs::create_dir_all(&copy_dir)
                .and_then(|()| fs::copy(plan.source, &copy).map(drop))
                .map_err(|error| CompileError::Io {
                    what: format!(
                        "cannot copy {} into {}",
                        plan.source.display(),
                        copy_dir.display()
                    ),
                    error,
                })?;
            renamed_copy = Some(copy.clone());
            source = copy;
        }
        fs::create_dir_all(&target).map_err(|error| CompileError::Io {
            what: format!("cannot create {}", target.display()),
            error,
        })?;
    }

    let mut words: Vec<OsString> = plan.compiler.words.iter().map(OsString::from).collect();
    for part in plan.template() {
        words.push(match part {
            "{source}" => source.clone().into_os_string(),
            "{out}" => target.clone().into_os_string(),
            other => other.into(),
        });
    }
    // Messages show the compiler's own words: the build directory's paths are gone by the
    // time anyone reads them.
    let shown = plan.compiler.words.clone();
    let captured = process::run(Command::new(&words[0]).args(&words[1..]), timeout)
        .map_err(|error| missing(plan.compiler, error))?;

    let Some(status) = captured.status else {
        return Err(CompileError::TimedOut {
            source: plan.source.to_path_buf(),
            command: shown,
            after: timeout,
        });
    };
    if !status.success() {
        let mut text = String::from_utf8_lossy(&captured.stderr).into_owned();
        let stdout = String::from_utf8_lossy(&captured.stdout);
        if !stdout.trim().is_empty() {
            if !text.is_empty() && !text.ends_with('\n') {
                text.push('\n');
            }
            text.push_str(&stdout);
        }
        if let Some(copy) = &renamed_copy {
            // Point the messages back at the file the user edits.
            text = text.replace(
                copy.to_string_lossy().as_ref(),
                plan.source.to_string_lossy().as_ref(),
            );
        }
        return Err(CompileError::Failed {
            source: plan.source.to_path_buf(),
            language: plan.language,
            command: shown,
            status: describe(status),
            messages: cap(&text),
        });
    }

    if plan.language == Language::Java {
        let class = java_main_class(plan, &target)?;
        fs::write(out.join("main-class"), format!("{class}\n")).map_err(|error| {
            CompileError::Io {
                what: format!("cannot write into {}", out.display()),
                error,
            }
        })?;
    } else if !target.is_file() {
        return Err(CompileError::NoOutput {
            source: plan.source.to_path_buf(),
            what: format!("program {}", target.display()),
        });
    }
    Ok(())
}

/// The class to run: the public class, else the one named after the file, else `Main`;
/// qualified with the package. It must have been compiled.
fn java_main_class(plan: &Build<'_>, classes: &Path) -> Result<String, CompileError> {
    let decl = plan.java.clone().unwrap_or_default();
    let package_dir: PathBuf = decl
        .package
        .as_deref()
        .map(|p| p.split('.').collect())
        .unwrap_or_default();
    let mut candidates: Vec<String> = Vec::new();
    candidates.extend(decl.public_class.clone());
    candidates.push(plan.stem.clone());
    candidates.push("Main".into());
    for name in &candidates {
        if classes
            .join(&package_dir)
            .join(format!("{name}.class"))
            .is_file()
        {
            return Ok(match &decl.package {
                Some(p) => format!("{p}.{name}"),
                None => name.clone(),
            });
        }
    }
    Err(CompileError::NoOutput {
        source: plan.source.to_path_buf(),
        what: format!(
            "class to run (looked for {}: make the class with `main` public)",
            candidates.join(", ")
        ),
    })
}

fn describe(status: std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exit status {code}"),
        (None, Some(signal)) => format!("killed by signal {signal}"),
        (None, None) => status.to_string(),
    }
}

/// The first `SHOWN_LINES` lines and `SHOWN_BYTES` bytes of a compiler's messages, with a note
/// of what was cut.
fn cap(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut shown = String::new();
    let mut count = 0;
    for line in &lines {
        if count == SHOWN_LINES || shown.len() + line.len() + 1 > SHOWN_BYTES {
            if count == 0 {
                // One enormous line: show its beginning rather than nothing.
                let mut end = SHOWN_BYTES.min(line.len());
                while !line.is_char_boundary(end) {
                    end -= 1;
                }
                shown.push_str(&line[..end]);
                shown.push_str("...\n");
                count = 1;
            }
            break;
        }
        shown.push_str(line);
        shown.push('\n');
        count += 1;
    }
    if count < lines.len() {
        let cut = lines.len() - count;
        shown.push_str(&format!(
            "... ({cut} more line{} not shown)\n",
            if cut == 1 { "" } else { "s" }
        ));
    }
    shown
}

/// Why a compiler run produced nothing: it could not be started, or an interrupt stopped it.
fn missing(compiler: &Compiler, error: io::Error) -> CompileError {
    if error.kind() == io::ErrorKind::Interrupted {
        return CompileError::Interrupted;
    }
    CompileError::Missing {
        language: compiler.language,
        program: compiler.words.first().cloned().unwrap_or_default(),
        origin: compiler.origin.clone(),
        error,
    }
}

/// The compiler's `--version` output, run once per process per program: it goes into the
/// cache key, so an upgraded compiler builds anew. A program that cannot be started is
/// reported here, before any build, naming what overrides it.
fn compiler_version(compiler: &Compiler, timeout: Duration) -> Result<String, CompileError> {
    static SEEN: OnceLock<Mutex<HashMap<String, String>>> = OnceLock::new();
    let program = compiler.words.first().cloned().unwrap_or_default();
    let seen = SEEN.get_or_init(Default::default);
    if let Some(version) = seen.lock().unwrap_or_else(|e| e.into_inner()).get(&program) {
        return Ok(version.clone());
    }
    // Not under the lock: a slow compiler must not hold up another language's lookup. Two
    // threads asking at once both run it, which is harmless.
    let captured = process::run(Command::new(&program).arg("--version"), timeout)
        .map_err(|error| missing(compiler, error))?;
    // Whatever it printed and however it ended: a compiler without `--version` still gets a
    // stable key, and its full path below tells different installations apart.
    let mut version = String::from_utf8_lossy(&captured.stdout).into_owned();
    version.push_str(&String::from_utf8_lossy(&captured.stderr));
    if let Some(status) = captured.status {
        version.push_str(&describe(status));
    }
    if let Some(path) = find_program(OsStr::new(&program)) {
        version.push_str(&path.to_string_lossy());
    }
    seen.lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(program, version.clone());
    Ok(version)
}

/// A source or script the command names that is not there.
fn not_there(path: &Path) -> CompileError {
    CompileError::Io {
        what: format!("cannot read {}", path.display()),
        error: io::Error::from_raw_os_error(libc::ENOENT),
    }
}

/// The script of a Python command (`python3 sol.py`, `pypy3 -O sol.py`) when that file is not
/// there: caught before the runs, every one of which would fail the same way and be kept as a
/// failing case.
fn missing_script(command: &[OsString]) -> Option<&Path> {
    let (interpreter, args) = command.split_first()?;
    let name = Path::new(interpreter).file_name()?.to_str()?;
    let version = name
        .strip_prefix("python")
        .or_else(|| name.strip_prefix("pypy"))?;
    if !version.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return None;
    }
    let script = Path::new(
        args.iter()
            .find(|a| !a.as_encoded_bytes().starts_with(b"-"))?,
    );
    let is_python = script.extension().is_some_and(|e| e == "py");
    (is_python && !script.exists()).then_some(script)
}

/// The user's own files a source file pulls into its build (its local headers and modules),
/// for a caller that watches them; nothing for a file that is not a source or cannot be read.
pub fn local_sources(source: &Path) -> Vec<PathBuf> {
    let Some(language) = Language::from_path(source) else {
        return Vec::new();
    };
    let Ok(bytes) = fs::read(source) else {
        return Vec::new();
    };
    local::local_files(language, source, &bytes, &[])
        .into_iter()
        .map(|f| f.path)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_by_extension() {
        let cases = [
            ("a.c", Some(Language::C)),
            ("a.cpp", Some(Language::Cpp)),
            ("dir/b.cc", Some(Language::Cpp)),
            ("x.cxx", Some(Language::Cpp)),
            ("brute.rs", Some(Language::Rust)),
            ("Main.java", Some(Language::Java)),
            ("gen.py", Some(Language::Python)),
            ("a.out", None),
            ("a", None),
            (".cpp", None),
            ("a.h", None),
        ];
        for (path, want) in cases {
            assert_eq!(Language::from_path(Path::new(path)), want, "{path}");
        }
    }

    #[test]
    fn a_python_command_whose_script_is_missing_is_caught() {
        let words = |ws: &[&str]| ws.iter().map(OsString::from).collect::<Vec<_>>();
        let missing = "duipai-no-such-dir/sol.py";
        for command in [
            words(&["python3", missing]),
            words(&["/usr/bin/python3.11", "-O", missing, "arg"]),
            words(&["pypy3", missing]),
        ] {
            assert_eq!(
                missing_script(&command),
                Some(Path::new(missing)),
                "{command:?}"
            );
        }
        let here = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/support/slow_chess.py");
        for command in [
            words(&["python3", here]),
            words(&["python3", "-m", "module"]),
            words(&["python3", "-c", "print(1)"]),
            words(&["pythonista", missing]),
            words(&["./a.out", missing]),
            words(&["python3"]),
        ] {
            assert_eq!(missing_script(&command), None, "{command:?}");
        }
    }

    #[test]
    fn parses_overrides() {
        assert_eq!(
            parse_override("cpp=g++ -std=c++20 -O2"),
            Ok((
                Language::Cpp,
                vec!["g++".into(), "-std=c++20".into(), "-O2".into()]
            ))
        );
        assert_eq!(
            parse_override("C++=clang++ -DLOCAL='1 2'"),
            Ok((Language::Cpp, vec!["clang++".into(), "-DLOCAL=1 2".into()]))
        );
        assert_eq!(
            parse_override("py=pypy3"),
            Ok((Language::Python, vec!["pypy3".into()]))
        );
        assert_eq!(
            parse_override("rust=rustc -C opt-level=3").map(|(l, w)| (l, w.len())),
            Ok((Language::Rust, 3)),
            "only the first `=` separates"
        );
    }

    #[test]
    fn rejects_bad_overrides_clearly() {
        let err = parse_override("g++ -O2").unwrap_err();
        assert!(err.contains("expected LANG=COMMAND"), "{err}");
        let err = parse_override("go=go build").unwrap_err();
        assert_eq!(
            err,
            "unknown language \"go\": expected one of c, cpp, rust, java, python"
        );
        let err = parse_override("cpp=  ").unwrap_err();
        assert!(err.contains("the C++ command is empty"), "{err}");
        let err = parse_override("cpp=g++ \"-O2").unwrap_err();
        assert!(err.contains("a quote is not closed"), "{err}");
    }

    #[test]
    fn flag_wins_over_default_and_last_flag_counts() {
        let mut options = CompileOptions {
            use_env: false,
            ..CompileOptions::default()
        };
        let default = options.compiler(Language::Cpp).unwrap();
        assert_eq!(
            default.words,
            ["g++", "-std=c++17", "-O2", "-pipe", "-DONLINE_JUDGE"]
        );
        assert_eq!(default.origin, Origin::Default);
        options
            .overrides
            .push((Language::Cpp, vec!["clang++".into()]));
        options
            .overrides
            .push((Language::Cpp, vec!["g++-13".into()]));
        let flagged = options.compiler(Language::Cpp).unwrap();
        assert_eq!(flagged.words, ["g++-13"]);
        assert_eq!(flagged.origin, Origin::Flag);
        assert_eq!(
            options.compiler(Language::C).unwrap().origin,
            Origin::Default
        );
    }

    #[test]
    fn caps_long_messages() {
        let long: String = (0..1000).map(|i| format!("line {i}\n")).collect();
        let shown = cap(&long);
        assert!(shown.starts_with("line 0\nline 1\n"));
        assert!(
            shown.ends_with("... (800 more lines not shown)\n"),
            "{shown}"
        );
        let wide = "x".repeat(SHOWN_BYTES * 3);
        let shown = cap(&wide);
        assert!(shown.starts_with("xxxx"));
        assert!(shown.len() <= SHOWN_BYTES + 10, "{}", shown.len());
        assert_eq!(cap("a.c:1:1: error\n"), "a.c:1:1: error\n");
    }

    #[test]
    fn missing_compiler_names_the_overrides() {
        let err = CompileError::Missing {
            language: Language::Cpp,
            program: "g++".into(),
            origin: Origin::Default,
            error: io::Error::from_raw_os_error(libc::ENOENT),
        };
        assert_eq!(
            err.to_string(),
            "cannot run the C++ compiler `g++`: not found; install it, or name another with \
             DUIPAI_CXX=COMMAND or --compiler cpp=COMMAND"
        );
    }
}
