//! One build: everything it depends on, its cache key, the compiler run in a temporary
//! directory renamed into the cache whole, and Java's main class.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use sha2::{Digest, Sha256};

use super::*;

/// Bumped when the layout of a build directory changes, so old cache entries are not misread.
pub(super) const CACHE_FORMAT: &str = "duipai-build-v1";

/// Everything a build depends on, decided before the compiler runs.
pub(super) struct Build<'a> {
    pub(super) language: Language,
    pub(super) compiler: &'a Compiler,
    /// The source path as the user typed it: compiler messages then name it that way.
    pub(super) source: &'a Path,
    /// The binary's name (the source's stem), so reports show `a`, not a hash.
    pub(super) stem: String,
    /// Java: the top-level declarations that decide the file name and the class to run.
    pub(super) java: Option<java::Declarations>,
}

impl<'a> Build<'a> {
    pub(super) fn new(
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
    pub(super) fn template(&self) -> Vec<&'static str> {
        let native = matches!(self.language, Language::C | Language::Cpp);
        if cfg!(windows) && native && self.msvc() {
            // MSVC's cl: the stack of a contestant's deep recursion is set at link time.
            return vec!["{source}", "/Fe:{out}", "/link", WINDOWS_STACK_MSVC];
        }
        let mut template = match self.language {
            Language::C => vec!["{source}", "-o", "{out}", "-lm"],
            Language::Cpp | Language::Rust => vec!["{source}", "-o", "{out}"],
            Language::Java => vec!["-d", "{out}", "{source}"],
            Language::Python => vec!["{source}"],
        };
        if cfg!(windows) && native {
            // A Windows program's main stack is fixed in its header when it is linked (1 MiB
            // by default), not by a limit at its start as on Linux.
            template.push(WINDOWS_STACK_GNU);
        }
        template
    }

    /// Whether the compiler is MSVC's `cl` (or `clang-cl`), which takes `/` options.
    fn msvc(&self) -> bool {
        let first = self.compiler.words.first().map(Path::new);
        let stem = first
            .and_then(Path::file_stem)
            .map(|s| s.to_string_lossy().to_lowercase());
        matches!(stem.as_deref(), Some("cl" | "clang-cl"))
    }
}

/// The main thread's stack of a C or C++ program built on Windows: 256 MiB, the most the
/// runner gives on Linux (see `Limits::stack_bytes`), reserved, not committed, until used.
const WINDOWS_STACK_GNU: &str = "-Wl,--stack,268435456";
const WINDOWS_STACK_MSVC: &str = "/STACK:268435456";

/// The file a build of `stem` leaves in `dir`: `stem`, or on Windows `stem.exe`.
fn binary(dir: &Path, stem: &str) -> PathBuf {
    dir.join(format!("{stem}{}", std::env::consts::EXE_SUFFIX))
}

/// A SHA-256, in hex, of everything that decides the build's result. Every field is
/// length-prefixed so that no two different inputs hash the same byte stream.
pub(super) fn cache_key(plan: &Build<'_>, version: &str, source: &[u8]) -> String {
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
    crate::text::hex(&hasher.finalize())
}

/// The command that runs a finished build in `dir`, if `dir` holds one.
pub(super) fn cached_command(
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
        let mut run: Vec<OsString> = if cfg!(windows) {
            Vec::new()
        } else {
            vec!["env".into(), "MALLOC_ARENA_MAX=2".into()]
        };
        run.extend(runtime?.iter().map(OsString::from));
        run.push("-cp".into());
        run.push(classes.into_os_string());
        run.push(class.into());
        return Some(run);
    }
    let binary = binary(dir, &plan.stem);
    binary.is_file().then(|| vec![binary.into_os_string()])
}

/// Runs the compiler into `out` (a fresh directory), with `header` included first (a
/// precompiled one) if given. On success `out` holds a complete build.
pub(super) fn build(
    plan: &Build<'_>,
    out: &Path,
    header: Option<&Path>,
    timeout: Duration,
) -> Result<(), CompileError> {
    let target = match plan.language {
        Language::Java => out.join("classes"),
        _ => binary(out, &plan.stem),
    };
    let renamed_copy = prepare_java(plan, out, &target)?;
    let source = renamed_copy
        .clone()
        .unwrap_or_else(|| plan.source.to_path_buf());
    let mut words = compiler_words(plan, &source, &target);
    if let Some(header) = header {
        let at = plan.compiler.words.len();
        words.splice(
            at..at,
            ["-include".into(), header.as_os_str().to_os_string()],
        );
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
            after: process::wall_backstop(timeout),
        });
    };
    if !status.success() {
        let text = compiler_messages(plan, &captured, renamed_copy.as_deref());
        return Err(CompileError::Failed {
            source: plan.source.to_path_buf(),
            language: plan.language,
            command: shown,
            status: describe(status),
            messages: cap(&text),
        });
    }
    record_output(plan, out, &target)
}

/// Java: creates the directory javac writes its classes into, and the copy of the source to
/// compile when the public class is not named after the file (javac wants a public class
/// `Main` in `Main.java`). The copy's path, if one was made.
fn prepare_java(
    plan: &Build<'_>,
    out: &Path,
    target: &Path,
) -> Result<Option<PathBuf>, CompileError> {
    let Some(decl) = &plan.java else {
        return Ok(None);
    };
    let mut renamed_copy = None;
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
        renamed_copy = Some(copy);
    }
    fs::create_dir_all(target).map_err(|error| CompileError::Io {
        what: format!("cannot create {}", target.display()),
        error,
    })?;
    Ok(renamed_copy)
}

/// The whole compiler command: its own words, then the language's template filled in.
fn compiler_words(plan: &Build<'_>, source: &Path, target: &Path) -> Vec<OsString> {
    let mut words: Vec<OsString> = plan.compiler.words.iter().map(OsString::from).collect();
    for part in plan.template() {
        words.push(match part {
            "{source}" => source.as_os_str().to_os_string(),
            "{out}" => target.as_os_str().to_os_string(),
            "/Fe:{out}" => {
                let mut word = OsString::from("/Fe:");
                word.push(target);
                word
            }
            other => other.into(),
        });
    }
    words
}

/// What a failed compiler said: its standard error, then anything it printed on standard
/// output.
fn compiler_messages(
    plan: &Build<'_>,
    captured: &process::Captured,
    renamed_copy: Option<&Path>,
) -> String {
    let mut text = String::from_utf8_lossy(&captured.stderr).into_owned();
    let stdout = String::from_utf8_lossy(&captured.stdout);
    if !stdout.trim().is_empty() {
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&stdout);
    }
    if let Some(copy) = renamed_copy {
        // Point the messages back at the file the user edits.
        text = text.replace(
            copy.to_string_lossy().as_ref(),
            plan.source.to_string_lossy().as_ref(),
        );
    }
    text
}

/// Checks that the compiler left what the build runs; Java: records the class to run.
fn record_output(plan: &Build<'_>, out: &Path, target: &Path) -> Result<(), CompileError> {
    if plan.language == Language::Java {
        let class = java_main_class(plan, target)?;
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
pub(super) fn java_main_class(plan: &Build<'_>, classes: &Path) -> Result<String, CompileError> {
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
