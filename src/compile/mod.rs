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

mod build;
mod error;
mod java;
mod language;
mod local;
mod options;
mod pch;
mod process;
mod prune;
mod shim;
mod versions;

use std::collections::HashMap;
use std::ffi::{OsStr, OsString};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use crate::run::find_program;
use build::*;
use error::*;
use language::*;
use options::*;

pub use error::CompileError;
pub use language::{Language, parse_override};
pub use options::{CompileOptions, Compiler, Origin, default_cache_dir};
pub use process::cancel;

/// The command-line flag that overrides a compiler, named in error messages; its value is
/// parsed by [`parse_override`].
pub const OVERRIDE_FLAG: &str = "--compiler";

/// The CPU time each process of one compiler run may take by default: generous for heavy
/// templates and rustc, short enough that a runaway compiler does not hang duipai; the run as a
/// whole is stopped after ten times as long of wall-clock time.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

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

/// Turns a program command into the one to run, compiling its source first when the first
/// word names an existing `.c`, `.cpp`, `.cc`, `.cxx`, `.rs`, `.java` or `.py` file (unless
/// that exact build is cached). Any other command is returned unchanged.
pub fn prepare(command: &[OsString], options: &CompileOptions) -> Result<Prepared, CompileError> {
    let Some((source, language)) = source_of(command)? else {
        let mut unchanged = Prepared::unchanged(command);
        unchanged.command = shim::unshimmed(unchanged.command, options.timeout);
        return Ok(unchanged);
    };
    let args = &command[1..];
    let compiler = options.compiler(language)?;
    if language.is_interpreted() {
        // Asked whether it starts (a missing one is named with its overrides), as the
        // interpreter a shim would start: the shim runs once, not for this and every case.
        let interpreter = shim::unshimmed_compiler(compiler, options.timeout);
        compiler_version(&interpreter, options)?;
        return interpreted(source, language, &interpreter, args);
    }
    let version = compiler_version(&compiler, options)?;
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
        Language::Java => Some(java_runtime(options, &compiler)?),
        _ => None,
    };
    // Touched before it is looked at, so that a concurrent prune sees it in use.
    prune::touch(&dir);
    let cache_hit = || {
        cached_command(&plan, &dir, runtime.as_deref()).map(|run| Prepared {
            command: with_args(run, args),
            language: Some(language),
            compiled: false,
            compile_time: None,
        })
    };
    if let Some(hit) = cache_hit() {
        return Ok(hit);
    }
    // One build of a key at a time in this process: a second asker (a hunt's plan lines
    // sharing a generator, the recorder's build begun in the background) waits for the
    // first and finds its build in the cache rather than compiling it again.
    let same_build = build_lock(&dir);
    let _building = same_build.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(hit) = cache_hit() {
        return Ok(hit);
    }
    // The header's build, when this one makes it, is part of the wait reported.
    let started = Instant::now();
    let header = precompiled_header(&plan, &version, &bytes, &cache, options);
    let header_time = started.elapsed();
    let (run, compile_time) = build_into_cache(
        &plan,
        &cache,
        &dir,
        runtime.as_deref(),
        header.as_deref(),
        options,
    )?;
    Ok(Prepared {
        command: with_args(run, args),
        language: Some(language),
        compiled: true,
        compile_time: Some(header_time + compile_time),
    })
}

/// The lock a build into `dir` holds in this process.
fn build_lock(dir: &Path) -> Arc<Mutex<()>> {
    static BUILDS: OnceLock<Mutex<HashMap<PathBuf, Arc<Mutex<()>>>>> = OnceLock::new();
    let mut builds = BUILDS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    builds.entry(dir.to_path_buf()).or_default().clone()
}

/// The source file the command's first word names and its language; `None` for a command
/// to run as it is. A Python command whose script is missing, and a source-like name that
/// is neither a file nor a program in PATH, are errors.
fn source_of(command: &[OsString]) -> Result<Option<(&Path, Language)>, CompileError> {
    let Some(first) = command.first() else {
        return Ok(None);
    };
    let source = Path::new(first);
    let Some(language) = Language::from_path(source) else {
        if let Some(script) = missing_script(command) {
            return Err(not_there(script));
        }
        return Ok(None);
    };
    if !source.is_file() {
        // A directory of that name, or a program in PATH that happens to end like a source
        // file, is run as it is; anything else is a source file that is not there, which
        // must not be reported as a program missing from PATH.
        let bare_in_path =
            !first.as_encoded_bytes().contains(&b'/') && find_program(first).is_some();
        if source.exists() || bare_in_path {
            return Ok(None);
        }
        return Err(not_there(source));
    }
    Ok(Some((source, language)))
}

/// An interpreted script: its interpreter, the script's absolute path (the runner starts
/// programs in a fresh temporary working directory), then the arguments.
fn interpreted(
    source: &Path,
    language: Language,
    compiler: &Compiler,
    args: &[OsString],
) -> Result<Prepared, CompileError> {
    let script = absolute(source)?;
    let mut run: Vec<OsString> = compiler.words.iter().map(OsString::from).collect();
    run.push(script.into_os_string());
    run.extend(args.iter().cloned());
    Ok(Prepared {
        command: run,
        language: Some(language),
        compiled: false,
        compile_time: None,
    })
}

/// The Java runtime command, checked here, where the fix can be named, rather than as a
/// failure to start every test case.
fn java_runtime(
    options: &CompileOptions,
    compiler: &Compiler,
) -> Result<Vec<String>, CompileError> {
    let runtime = options.java_runtime(compiler)?;
    if runtime
        .first()
        .and_then(|p| find_program(OsStr::new(p)))
        .is_none()
    {
        return Err(CompileError::MissingRuntime {
            program: runtime.first().cloned().unwrap_or_default(),
        });
    }
    Ok(runtime)
}

/// The precompiled header a build of `plan` includes first, if any (see `pch`).
fn precompiled_header(
    plan: &Build<'_>,
    version: &str,
    bytes: &[u8],
    cache: &Path,
    options: &CompileOptions,
) -> Option<PathBuf> {
    let include_dirs = local::include_dirs(&plan.compiler.words);
    let local = local::local_files(plan.language, plan.source, bytes, &include_dirs);
    pch::header_for(
        plan.compiler,
        version,
        bytes,
        &local,
        cache,
        options.timeout,
    )
}

/// Builds in a temporary directory inside the cache and renames it to `dir` whole: a
/// complete build appears under its final name, or not at all. If another duipai renamed the
/// same build into place first, its copy is as good as ours. Returns the command that runs
/// it and how long the compiler took.
fn build_into_cache(
    plan: &Build<'_>,
    cache: &Path,
    dir: &Path,
    runtime: Option<&[String]>,
    header: Option<&Path>,
    options: &CompileOptions,
) -> Result<(Vec<OsString>, Duration), CompileError> {
    let tmp = tempfile::Builder::new()
        .prefix(".build-")
        .tempdir_in(cache)
        .map_err(|error| CompileError::Io {
            what: format!("cannot create a build directory in {}", cache.display()),
            error,
        })?;
    let started = Instant::now();
    build(plan, tmp.path(), header, options.timeout)?;
    let compile_time = started.elapsed();
    match fs::rename(tmp.path(), dir) {
        Ok(()) => {
            let _kept = tmp.keep();
            // A new build is the moment to drop old ones: rare, and never on a cache hit.
            prune::prune(cache, std::time::SystemTime::now());
        }
        Err(error) => {
            if cached_command(plan, dir, runtime).is_none() {
                return Err(CompileError::Io {
                    what: format!("cannot move the build into {}", dir.display()),
                    error,
                });
            }
        }
    }
    let run = cached_command(plan, dir, runtime).ok_or_else(|| CompileError::NoOutput {
        source: plan.source.to_path_buf(),
        what: format!("program in {}", dir.display()),
    })?;
    Ok((run, compile_time))
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

/// The script of a Python command (`python3 sol.py`, `pypy3 -O sol.py`) when that file is not
/// there: caught before the runs, every one of which would fail the same way and be kept as a
/// failing case.
fn missing_script(command: &[OsString]) -> Option<&Path> {
    let (interpreter, args) = command.split_first()?;
    let name = Path::new(interpreter).file_name()?.to_str()?;
    if !shim::is_python_name(name) {
        return None;
    }
    let script = Path::new(
        args.iter()
            .find(|a| !a.as_encoded_bytes().starts_with(b"-"))?,
    );
    let is_python = script.extension().is_some_and(|e| e == "py");
    (is_python && !script.exists()).then_some(script)
}

/// How a Java source is compiled and run by hand: the file name javac wants for it (its public
/// class's, else its own) and the class to run (with its package); `None` when it cannot be
/// read.
pub fn java_names(source: &Path) -> Option<(String, String)> {
    let text = fs::read_to_string(source).ok()?;
    let declared = java::declarations(&text);
    let stem = source.file_stem()?.to_string_lossy().into_owned();
    let class = declared.public_class.unwrap_or(stem);
    let run = match declared.package {
        Some(package) => format!("{package}.{class}"),
        None => class.clone(),
    };
    Some((format!("{class}.java"), run))
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
    use std::io;

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

    /// Two threads asking for the same build at once: the compiler runs once, the second
    /// waits for it and finds it in the cache, and both run the same program.
    #[cfg(unix)]
    #[test]
    fn one_build_of_a_source_at_a_time_in_a_process() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let runs = dir.path().join("runs");
        let cc = dir.path().join("cc.sh");
        let script = format!(
            "#!/bin/sh\n[ \"$1\" = --version ] && {{ echo fake 1; exit 0; }}\n\
             echo run >> '{}'\nsleep 0.3\nout=; prev=\n\
             for a in \"$@\"; do [ \"$prev\" = -o ] && out=$a; prev=$a; done\n\
             printf '#!/bin/sh\\n' > \"$out\" && chmod +x \"$out\"\n",
            runs.display()
        );
        std::fs::write(&cc, script).unwrap();
        std::fs::set_permissions(&cc, std::fs::Permissions::from_mode(0o755)).unwrap();
        let source = dir.path().join("a.c");
        std::fs::write(&source, "int main(void) { return 0; }\n").unwrap();
        let options = CompileOptions {
            cache_dir: Some(dir.path().join("cache")),
            overrides: vec![(Language::C, vec![cc.to_string_lossy().into_owned()])],
            use_env: false,
            ..Default::default()
        };
        let command = [OsString::from(&source)];
        let prepared: Vec<Prepared> = std::thread::scope(|scope| {
            let asked: Vec<_> = (0..2)
                .map(|_| scope.spawn(|| prepare(&command, &options).unwrap()))
                .collect();
            asked.into_iter().map(|a| a.join().unwrap()).collect()
        });
        assert_eq!(std::fs::read_to_string(&runs).unwrap().lines().count(), 1);
        assert_eq!(prepared.iter().filter(|p| p.compiled).count(), 1);
        assert_eq!(prepared[0].command, prepared[1].command);
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
