//! Source files as programs, through `duipai::compile` with the real compilers: builds that
//! run, cache hits that do not invoke the compiler, compile errors with their positions,
//! rebuilds after an edit or a new command, and safe concurrent builds. Every language is
//! covered: a test whose compiler or runtime is missing fails, saying what to install.

use std::ffi::OsString;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use duipai::compile::{CompileError, CompileOptions, Language, Prepared, prepare};

use crate::util::{Duipai, assert_contains, require, wait_until_executable, write_sh};

/// Options with a private cache and no environment: the user's DUIPAI_CXX or cache must not
/// change what is tested.
fn options(cache: &Path) -> CompileOptions {
    CompileOptions {
        cache_dir: Some(cache.to_path_buf()),
        use_env: false,
        ..CompileOptions::default()
    }
}

fn os(words: &[&str]) -> Vec<OsString> {
    words.iter().map(OsString::from).collect()
}

/// Writes `text` as the source file `dir/name`; returns its path.
fn write_source(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    fs::write(&path, text).unwrap();
    path
}

/// [`prepare`] on the source file `source` run without arguments.
fn prepare_source(source: &Path, options: &CompileOptions) -> Result<Prepared, CompileError> {
    prepare(&path_command(source, &[]), options)
}

fn path_command(path: &Path, args: &[&str]) -> Vec<OsString> {
    let mut command = vec![path.as_os_str().to_owned()];
    command.extend(args.iter().map(OsString::from));
    command
}

/// Runs a prepared command on `stdin` and returns its stdout; it must succeed.
fn run(prepared: &Prepared, stdin: &str) -> String {
    let mut child = Command::new(&prepared.command[0])
        .args(&prepared.command[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {:?}: {e}", prepared.command));
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{:?} failed: {}",
        prepared.command,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

const C_SUM: &str = r#"#include <math.h>
#include <stdio.h>
int main(void) {
    long long a, b;
    if (scanf("%lld %lld", &a, &b) != 2) return 1;
    /* sqrt of a runtime value needs libm: -lm must be on the command line. */
    volatile double x = (double)(a * a);
    printf("%lld\n", (long long)sqrt(x) + b);
    return 0;
}
"#;

/// A C++17 program adding two numbers, as contestants write it: <bits/stdc++.h>, which takes
/// seconds to compile.
const CPP_SUM: &str = r#"#include <bits/stdc++.h>
static_assert(__cplusplus >= 201703L, "the contest flags select C++17");
int main() {
    long long a, b;
    std::cin >> a >> b;
    if (auto [x, y] = std::pair{a, b}; true) std::cout << x + y << "\n";
}
"#;

/// [`CPP_SUM`] on <cstdio>, which compiles in a tenth of a second: for the tests about
/// caching, commands and extensions rather than the contest's headers.
const CPP_SUM_LIGHT: &str = r#"#include <cstdio>
#include <utility>
static_assert(__cplusplus >= 201703L, "the contest flags select C++17");
int main() {
    long long a, b;
    if (std::scanf("%lld %lld", &a, &b) != 2) return 1;
    if (auto [x, y] = std::pair{a, b}; true) std::printf("%lld\n", x + y);
}
"#;

/// A shell script standing in for a compiler: it logs every invocation, then runs the real
/// one. Probed until it can be executed, because a file just written may briefly be "busy"
/// while another test thread forks.
fn logging_wrapper(dir: &Path, real: &str) -> (PathBuf, PathBuf) {
    let log = dir.join("invocations.log");
    let body = format!("echo \"$@\" >> '{}'\nexec {real} \"$@\"", log.display());
    let script = write_sh(dir, &format!("{real}-wrapper"), &body);
    wait_until_executable(&script);
    fs::write(&log, "").unwrap();
    (script, log)
}

/// The compile invocations in a wrapper's log (not `--version` probes).
fn compiles(log: &Path) -> usize {
    fs::read_to_string(log)
        .unwrap()
        .lines()
        .filter(|l| l.contains(" -o "))
        .count()
}

#[test]
fn c_source_compiles_runs_and_is_cached() {
    require(&["gcc"]);
    let dir = tempfile::tempdir().unwrap();
    let source = write_source(dir.path(), "sum.c", C_SUM);
    let opts = options(&dir.path().join("cache"));

    let first = prepare(&path_command(&source, &["x", "y"]), &opts).unwrap();
    assert_eq!(first.language, Some(Language::C));
    assert!(first.compiled);
    assert!(first.compile_time.is_some());
    // The binary is named after the source and lives in the cache; arguments follow it.
    let binary = Path::new(&first.command[0]);
    assert_eq!(binary.file_name().unwrap(), "sum");
    assert!(binary.starts_with(dir.path().join("cache")), "{binary:?}");
    assert!(binary.is_absolute());
    assert_eq!(&first.command[1..], &os(&["x", "y"])[..]);
    assert_eq!(run(&first, "3 4\n"), "7\n");

    let second = prepare_source(&source, &opts).unwrap();
    assert!(!second.compiled);
    assert_eq!(second.compile_time, None);
    assert_eq!(second.command, vec![first.command[0].clone()]);
    assert_eq!(run(&second, "-5 1\n"), "6\n");
}

#[test]
fn cpp_source_compiles_with_the_contest_flags() {
    require(&["g++"]);
    let dir = tempfile::tempdir().unwrap();
    // Each extension is C++ under the contest flags.
    for name in ["a.cpp", "b.cc", "c.cxx"] {
        let source = write_source(dir.path(), name, CPP_SUM_LIGHT);
        let prepared = prepare_source(&source, &options(dir.path())).unwrap();
        assert_eq!(prepared.language, Some(Language::Cpp), "{name}");
        assert!(prepared.compiled);
        assert_eq!(run(&prepared, "40 2"), "42\n");
    }
    // <bits/stdc++.h> is there. It takes seconds to compile: its build is kept in the cache
    // the tests share, keyed by the source, the compiler, its version and flags, so that a
    // later run finds the one this very command made.
    let shared = CompileOptions {
        cache_dir: Some(crate::shared::build_cache()),
        ..options(dir.path())
    };
    let source = write_source(dir.path(), "bits.cpp", CPP_SUM);
    let prepared = prepare_source(&source, &shared).unwrap();
    assert_eq!(prepared.language, Some(Language::Cpp));
    assert_eq!(run(&prepared, "40 2"), "42\n");
}

#[test]
fn a_cache_hit_does_not_invoke_the_compiler() {
    require(&["g++"]);
    let dir = tempfile::tempdir().unwrap();
    let (wrapper, log) = logging_wrapper(dir.path(), "g++");
    let source = write_source(dir.path(), "a.cpp", CPP_SUM_LIGHT);
    let mut opts = options(&dir.path().join("cache"));
    opts.overrides.push((
        Language::Cpp,
        vec![wrapper.to_string_lossy().into_owned(), "-O2".into()],
    ));

    let first = prepare_source(&source, &opts).unwrap();
    assert!(first.compiled);
    assert_eq!(compiles(&log), 1);
    for _ in 0..3 {
        let again = prepare_source(&source, &opts).unwrap();
        assert!(!again.compiled);
        assert_eq!(again.command, first.command);
    }
    assert_eq!(compiles(&log), 1, "the compiler ran again on a cache hit");
    // The log really records compiles: another cache directory builds again.
    let other = options(&dir.path().join("cache2"));
    let opts2 = CompileOptions {
        overrides: opts.overrides.clone(),
        ..other
    };
    assert!(prepare_source(&source, &opts2).unwrap().compiled);
    assert_eq!(compiles(&log), 2);
    assert_eq!(run(&first, "1 1"), "2\n");
}

#[test]
fn an_edited_source_is_recompiled() {
    require(&["gcc"]);
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("answer.c");
    let opts = options(dir.path());
    fs::write(
        &source,
        "#include <stdio.h>\nint main(void){puts(\"1\");return 0;}\n",
    )
    .unwrap();
    let v1 = prepare_source(&source, &opts).unwrap();
    assert_eq!(run(&v1, ""), "1\n");
    fs::write(
        &source,
        "#include <stdio.h>\nint main(void){puts(\"2\");return 0;}\n",
    )
    .unwrap();
    let v2 = prepare_source(&source, &opts).unwrap();
    assert!(v2.compiled, "an edit must rebuild");
    assert_ne!(v1.command, v2.command);
    assert_eq!(run(&v2, ""), "2\n");
    // Going back to the first version finds its build again.
    fs::write(
        &source,
        "#include <stdio.h>\nint main(void){puts(\"1\");return 0;}\n",
    )
    .unwrap();
    let back = prepare_source(&source, &opts).unwrap();
    assert!(!back.compiled);
    assert_eq!(back.command, v1.command);
}

#[test]
fn an_edited_local_header_is_recompiled() {
    require(&["g++"]);
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("sol.cpp");
    let header = dir.path().join("value.h");
    let opts = options(&dir.path().join("cache"));
    fs::write(
        &source,
        "#include <cstdio>\n#include \"value.h\"\nint main(){std::printf(\"%d\\n\", VALUE);}\n",
    )
    .unwrap();
    fs::write(&header, "#define VALUE 1\n").unwrap();
    let v1 = prepare_source(&source, &opts).unwrap();
    assert_eq!(run(&v1, ""), "1\n");
    fs::write(&header, "#define VALUE 2\n").unwrap();
    let v2 = prepare_source(&source, &opts).unwrap();
    assert!(v2.compiled, "an edited header must rebuild");
    assert_eq!(run(&v2, ""), "2\n");
    fs::write(&header, "#define VALUE 1\n").unwrap();
    let back = prepare_source(&source, &opts).unwrap();
    assert!(!back.compiled, "the first build is found again");
    assert_eq!(back.command, v1.command);
}

#[test]
fn online_judge_is_defined_as_judges_define_it() {
    require(&["g++"]);
    let dir = tempfile::tempdir().unwrap();
    let source = write_source(
        dir.path(),
        "where.cpp",
        "#include <cstdio>\nint main(){\n#ifdef ONLINE_JUDGE\nstd::puts(\"judge\");\n#else\nstd::puts(\"local\");\n#endif\n}\n",
    );
    let prepared = prepare_source(&source, &options(dir.path())).unwrap();
    assert_eq!(run(&prepared, ""), "judge\n");
}

#[test]
fn another_compiler_command_is_another_build() {
    require(&["g++"]);
    let dir = tempfile::tempdir().unwrap();
    let source = write_source(
        dir.path(),
        "v.cpp",
        "#include <cstdio>\n#ifndef VALUE\n#define VALUE 0\n#endif\nint main(){std::printf(\"%d\\n\", VALUE);}\n",
    );
    let plain = options(dir.path());
    let default = prepare_source(&source, &plain).unwrap();
    assert_eq!(run(&default, ""), "0\n");

    let (lang, words) =
        duipai::compile::parse_override("cpp=g++ -std=c++17 -O2 -DVALUE=7").unwrap();
    let mut flagged = options(dir.path());
    flagged.overrides.push((lang, words));
    let seven = prepare_source(&source, &flagged).unwrap();
    assert!(seven.compiled, "a new command must not reuse the old build");
    assert_ne!(seven.command, default.command);
    assert_eq!(run(&seven, ""), "7\n");
    // And the default's build is still there, untouched.
    let again = prepare_source(&source, &plain).unwrap();
    assert!(!again.compiled);
    assert_eq!(run(&again, ""), "0\n");
}

#[test]
fn a_compile_error_shows_the_compilers_positions_for_the_typed_path() {
    require(&["g++"]);
    // A path relative to the working directory (the package root): the message must name it
    // exactly so, so that an editor can jump to it.
    fs::create_dir_all("target").unwrap();
    let dir = tempfile::Builder::new()
        .prefix("compile-test-")
        .tempdir_in("target")
        .unwrap();
    let relative = Path::new("target")
        .join(dir.path().file_name().unwrap())
        .join("bad.cpp");
    fs::write(
        &relative,
        "#include <cstdio>\nint main() {\n    return undeclared_name;\n}\n",
    )
    .unwrap();
    let err = prepare_source(&relative, &options(dir.path())).unwrap_err();
    let CompileError::Failed {
        ref source,
        language,
        ref status,
        ref messages,
        ..
    } = err
    else {
        panic!("expected a compile failure, got {err}");
    };
    assert_eq!(source, &relative);
    assert_eq!(language, Language::Cpp);
    assert_eq!(status, "exit status 1");
    let position = format!("{}:3:12: error", relative.display());
    assert_contains(messages, &position);
    assert_contains(messages, "undeclared_name");
    let shown = err.to_string();
    assert!(
        shown.starts_with(&format!(
            "{} does not compile (C++ compiler `g++ -std=c++17 -O2 -pipe -DONLINE_JUDGE",
            relative.display()
        )),
        "{shown}"
    );
    assert_contains(&shown, &position);
    // Nothing half-built is left in the cache (what g++ --version said is kept in it).
    let leftovers: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n != "bad.cpp" && n != "versions")
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn a_missing_compiler_says_what_overrides_it() {
    let dir = tempfile::tempdir().unwrap();
    let source = write_source(dir.path(), "a.cpp", CPP_SUM);
    let mut opts = options(dir.path());
    opts.overrides
        .push((Language::Cpp, vec!["/nonexistent/duipai-g++".into()]));
    let err = prepare_source(&source, &opts).unwrap_err();
    assert!(matches!(err, CompileError::Missing { .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        "cannot run the C++ compiler `/nonexistent/duipai-g++` (from --compiler): not found; \
         install it, or name another with DUIPAI_CXX=COMMAND or --compiler cpp=COMMAND"
    );
}

#[test]
fn a_hung_compiler_is_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let script = write_sh(
        dir.path(),
        "slow-cc",
        "[ \"$1\" = --version ] && { echo slow 1.0; exit 0; }\nsleep 60",
    );
    wait_until_executable(&script);
    let source = write_source(dir.path(), "a.c", "int main(void){return 0;}\n");
    let mut opts = options(dir.path());
    // A budget of 50 ms of CPU: the wall-clock backstop, ten times that, stops the sleeping
    // compiler after half a second. A budget that short may cut its `--version` too, which
    // only changes the cache key: the build is stopped either way.
    opts.timeout = Duration::from_millis(50);
    opts.overrides
        .push((Language::C, vec![script.to_string_lossy().into_owned()]));
    let start = Instant::now();
    let err = prepare_source(&source, &opts).unwrap_err();
    assert!(matches!(err, CompileError::TimedOut { .. }), "{err:?}");
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
}

/// What runs for `python3`: itself, or, when the `python3` in PATH is a script (a version
/// manager's shim), the interpreter that script starts, as Python itself names it.
fn python3_as_run() -> OsString {
    let found = std::env::split_paths(&std::env::var_os("PATH").unwrap())
        .map(|dir| dir.join("python3"))
        .find(|p| p.is_file())
        .expect("python3 in PATH");
    if !std::fs::read(&found).unwrap().starts_with(b"#!") {
        return "python3".into();
    }
    let out = std::process::Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap().trim_end().into()
}

#[test]
fn plain_programs_are_left_alone_and_missing_sources_named() {
    let dir = tempfile::tempdir().unwrap();
    let opts = options(dir.path());
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/support/slow_chess.py");
    for (command, run) in [
        (
            os(&["/bin/echo", "hello.cpp"]),
            os(&["/bin/echo", "hello.cpp"]),
        ),
        (
            os(&["python3", script]),
            vec![python3_as_run(), script.into()],
        ),
        (Vec::new(), Vec::new()),
    ] {
        let prepared = prepare(&command, &opts).unwrap();
        assert_eq!(prepared.command, run);
        assert_eq!(prepared.language, None);
        assert!(!prepared.compiled);
    }
    for (command, missing) in [
        (os(&["./no-such-file.cpp", "arg"]), "./no-such-file.cpp"),
        (os(&["python3", "gen.py"]), "gen.py"),
    ] {
        let err = prepare(&command, &opts).expect_err("a missing source");
        assert_eq!(
            err.to_string(),
            format!("cannot read {missing}: No such file or directory (os error 2)")
        );
    }
    assert_eq!(
        fs::read_dir(dir.path()).unwrap().count(),
        0,
        "no cache for plain programs"
    );
}

#[test]
fn concurrent_builds_of_one_source_agree() {
    require(&["gcc"]);
    let dir = tempfile::tempdir().unwrap();
    let source = write_source(dir.path(), "sum.c", C_SUM);
    let cache = dir.path().join("cache");
    let results: Vec<Prepared> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|_| s.spawn(|| prepare_source(&source, &options(&cache)).unwrap()))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for r in &results {
        assert_eq!(r.command, results[0].command);
        assert_eq!(run(r, "2 2"), "4\n");
    }
    // One build directory, no temporary ones left behind (beside what the compiler's
    // --version said).
    let entries: Vec<String> = fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name != "versions")
        .collect();
    assert_eq!(entries.len(), 1, "{entries:?}");
    assert!(entries[0].starts_with("c-"), "{entries:?}");
}

#[test]
fn rust_source_compiles_and_runs() {
    require(&["rustc"]);
    let dir = tempfile::tempdir().unwrap();
    let source = write_source(
        dir.path(),
        "brute.rs",
        "use std::io::Read;\nfn main() { let mut s = String::new(); std::io::stdin().read_to_string(&mut s).unwrap();\n let v: i64 = s.split_whitespace().map(|t| t.parse::<i64>().unwrap()).sum(); println!(\"{v}\"); }\n",
    );
    let opts = options(dir.path());
    let prepared = prepare_source(&source, &opts).unwrap();
    assert_eq!(prepared.language, Some(Language::Rust));
    assert!(prepared.compiled);
    assert_eq!(run(&prepared, "1 2 3"), "6\n");
    assert!(!prepare_source(&source, &opts).unwrap().compiled);
}

#[test]
fn java_public_class_runs_whatever_the_file_is_called() {
    require(&["javac", "java"]);
    let dir = tempfile::tempdir().unwrap();
    // `a.java` holding `public class Main`: javac alone would refuse it.
    let source = write_source(
        dir.path(),
        "a.java",
        "import java.util.*;\n// public class NotThis {}\npublic class Main {\n  public static void main(String[] args) {\n    Scanner in = new Scanner(System.in);\n    long a = in.nextLong(), b = in.nextLong();\n    System.out.println(a + b + args.length);\n  }\n}\n",
    );
    let opts = options(dir.path());
    let prepared = prepare(&path_command(&source, &["extra"]), &opts).unwrap();
    assert_eq!(prepared.language, Some(Language::Java));
    assert!(prepared.compiled);
    let words: Vec<String> = prepared
        .command
        .iter()
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    assert_eq!(&words[words.len() - 2..], ["Main", "extra"], "{words:?}");
    assert!(words.contains(&"-cp".to_string()), "{words:?}");
    assert_eq!(run(&prepared, "20 21"), "42\n");
    assert!(!prepare_source(&source, &opts).unwrap().compiled);

    // A Java compile error points at the file the user wrote, not at duipai's renamed copy.
    let broken = write_source(
        dir.path(),
        "b.java",
        "public class Solution {\n  int f() { return y; }\n}\n",
    );
    let err = prepare_source(&broken, &opts).unwrap_err();
    let shown = err.to_string();
    assert_contains(&shown, &format!("{}:2: error", broken.display()));
    assert!(!shown.contains("Solution.java"), "{shown}");
}

#[test]
fn python_runs_with_an_absolute_path() {
    require(&["python3"]);
    let dir = tempfile::tempdir().unwrap();
    let source = write_source(
        dir.path(),
        "gen.py",
        "import sys\nprint(int(sys.argv[1]) * 2)\n",
    );
    let prepared = prepare(&path_command(&source, &["21"]), &options(dir.path())).unwrap();
    assert_eq!(prepared.language, Some(Language::Python));
    assert!(!prepared.compiled);
    assert_eq!(
        prepared.command,
        vec![
            python3_as_run(),
            source.clone().into_os_string(),
            OsString::from("21")
        ]
    );
    assert_eq!(run(&prepared, ""), "42\n");
    // A missing interpreter is reported before anything runs.
    let mut opts = options(dir.path());
    opts.overrides
        .push((Language::Python, vec!["/nonexistent/pypy3".into()]));
    let err = prepare_source(&source, &opts).unwrap_err();
    assert!(
        err.to_string()
            .contains("cannot run the Python interpreter `/nonexistent/pypy3`"),
        "{err}"
    );
    assert!(err.to_string().contains("DUIPAI_PYTHON=COMMAND"), "{err}");
}

/// The environment is read in a child process (this test binary run again), so that no test
/// here changes the environment the others run in.
fn in_child(test: &str, env: &[(&str, &str)]) {
    let mut command = Command::new(std::env::current_exe().unwrap());
    command
        .args(["--exact", test, "--test-threads=1", "--nocapture"])
        .env("DUIPAI_COMPILE_TEST_CHILD", "1");
    for var in [
        "DUIPAI_CC",
        "DUIPAI_CXX",
        "DUIPAI_RUSTC",
        "DUIPAI_JAVAC",
        "DUIPAI_JAVA",
        "DUIPAI_PYTHON",
        "DUIPAI_CACHE_DIR",
        "XDG_CACHE_HOME",
    ] {
        command.env_remove(var);
    }
    for (var, value) in env {
        command.env(var, value);
    }
    let out = command.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "child run of {test} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn is_child() -> bool {
    std::env::var_os("DUIPAI_COMPILE_TEST_CHILD").is_some()
}

#[test]
fn environment_commands_sit_between_the_flag_and_the_default() {
    use duipai::compile::Origin;
    if !is_child() {
        in_child(
            "compile::environment_commands_sit_between_the_flag_and_the_default",
            &[
                ("DUIPAI_CXX", "clang++ -O1 '-DNAME=a b'"),
                ("DUIPAI_CC", "  "),
                ("DUIPAI_RUSTC", "rustc \"-O"),
            ],
        );
        return;
    }
    let mut opts = CompileOptions::default();
    let cxx = opts.compiler(Language::Cpp).unwrap();
    assert_eq!(cxx.words, ["clang++", "-O1", "-DNAME=a b"]);
    assert_eq!(cxx.origin, Origin::Env("DUIPAI_CXX"));
    // Blank means unset.
    assert_eq!(opts.compiler(Language::C).unwrap().origin, Origin::Default);
    let err = opts.compiler(Language::Rust).unwrap_err();
    assert_eq!(
        err.to_string(),
        "DUIPAI_RUSTC=\"rustc \"-O\" is not a command: a quote is not closed"
    );
    opts.overrides.push((Language::Cpp, vec!["g++".into()]));
    assert_eq!(opts.compiler(Language::Cpp).unwrap().origin, Origin::Flag);
    // With the environment off, the defaults come back.
    opts.use_env = false;
    opts.overrides.clear();
    assert_eq!(
        opts.compiler(Language::Cpp).unwrap().origin,
        Origin::Default
    );
}

#[test]
fn the_cache_directory_follows_the_environment() {
    use duipai::compile::default_cache_dir;
    if !is_child() {
        for (env, want) in [
            (
                &[
                    ("DUIPAI_CACHE_DIR", "/d/c"),
                    ("XDG_CACHE_HOME", "/x"),
                    ("HOME", "/h"),
                ][..],
                "/d/c",
            ),
            (&[("XDG_CACHE_HOME", "/x"), ("HOME", "/h")][..], "/x/duipai"),
            // XDG paths must be absolute; a relative one is ignored.
            (
                &[("XDG_CACHE_HOME", "rel"), ("HOME", "/h")][..],
                "/h/.cache/duipai",
            ),
            (&[("HOME", "/h")][..], "/h/.cache/duipai"),
        ] {
            let mut env = env.to_vec();
            env.push(("DUIPAI_TEST_WANT", want));
            in_child("compile::the_cache_directory_follows_the_environment", &env);
        }
        return;
    }
    let want = std::env::var("DUIPAI_TEST_WANT").unwrap();
    assert_eq!(default_cache_dir().unwrap(), PathBuf::from(want));
}

/// Ctrl-C while a source compiles stops the compiler at once (it runs in its own process
/// group, out of the terminal's reach), with everything it started, and duipai exits 130 as
/// every interrupted command does.
#[test]
fn an_interrupt_stops_a_compile_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("sol.cpp"), "int main() {}\n").unwrap();
    let sleeper = d.join("sleeper.pid");
    let body = format!(
        "case \"$1\" in --version) echo slowcc 1; exit 0;; esac\n\
         sleep 60 &\necho $! > {}\nwait",
        sleeper.display()
    );
    let compiler = write_sh(d, "slowcc.sh", &body);
    wait_until_executable(&compiler);
    let cache = d.join("cache");
    let compiler_flag = format!("cpp={}", compiler.display());
    let mut duipai = Duipai::new()
        .current_dir(d)
        .env("DUIPAI_CACHE_DIR", &cache)
        .args(["stress", "chess", "--compiler", &compiler_flag])
        .program(["sol.cpp"])
        .start();
    let start = Instant::now();
    let pid = loop {
        if let Some(pid) = fs::read_to_string(&sleeper)
            .ok()
            .and_then(|text| text.trim().parse::<i32>().ok())
        {
            break pid;
        }
        assert!(!duipai.has_exited(), "duipai ended before the interrupt");
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the compiler never started"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    assert!(
        duipai.signal(libc::SIGINT),
        "duipai ended before the interrupt"
    );
    let (out, _) = duipai.finish_within(Duration::from_secs(5));
    let message = out.code(130).stderr();
    assert_contains(&message, "duipai: interrupted: ");
    assert_contains(&message, "interrupted while compiling");
    // The compiler's child is gone too (at most a zombie of init's for a moment).
    let deadline = Instant::now() + Duration::from_secs(2);
    while Path::new(&format!("/proc/{pid}/cmdline")).exists()
        && fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| !c.is_empty())
    {
        assert!(
            Instant::now() < deadline,
            "the compiler's child {pid} survived"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A Java solution judged by duipai itself, under the runner's limits: the JVM must start
/// within the address-space bound (it did not on a machine with many cores and much memory
/// before its malloc arenas were capped). Its class is in a package and not public, which
/// runs too, with the arguments after its source (it adds its first to the answer: 0).
#[test]
fn java_in_a_package_without_public_class_runs_under_the_runners_limits() {
    require(&["javac", "java"]);
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // On a 1×1 board Feifei takes the only cell: the answer is its A value.
    fs::write(
        d.join("Sol.java"),
        "package contest.tools;\nimport java.util.*;\nclass Sol {\n  public static void main(String[] args) {\n    Scanner in = new Scanner(System.in);\n    in.nextInt(); in.nextInt();\n    System.out.println(in.nextLong() + Long.parseLong(args[0]));\n  }\n}\n",
    )
    .unwrap();
    Duipai::new()
        .current_dir(d)
        .env("DUIPAI_CACHE_DIR", d.join("cache"))
        .args(["stress", "chess", "--n", "1", "--m", "1"])
        .args(["--iterations", "4"])
        .args(["-j", "2"])
        .program(["Sol.java", "0"])
        .run()
        .success();
}

/// `--compiler py=...`, `python=...`, `python3=...` (in any case) all name the Python
/// interpreter; an unknown language is a usage error naming the ones there are.
#[test]
fn every_spelling_of_python_overrides_the_interpreter() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // The script is wrong; the stand-in interpreter ignores it and prints the right answer.
    fs::write(d.join("sol.py"), "print(3)\n").unwrap();
    let interpreter = write_sh(d, "fake-python.sh", "cat >/dev/null\necho 2");
    wait_until_executable(&interpreter);
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/cases/chess/01-sample.in");
    let test = |flag: &str| {
        Duipai::new()
            .current_dir(d)
            .args(["test", "chess", sample, "--compiler", flag])
            .program(["sol.py"])
    };
    for language in ["py", "python", "python3", "Python"] {
        let flag = format!("{language}={}", interpreter.display());
        let out = test(&flag)
            .env("DUIPAI_CACHE_DIR", d.join("cache"))
            .run()
            .success();
        let stdout = out.stdout();
        assert!(
            stdout.contains("1 case: 1 AC"),
            "--compiler {flag}: {stdout}"
        );
    }
    let out = test("pyy=python3").run().code(2);
    assert!(
        out.stderr()
            .contains("unknown language \"pyy\": expected one of c, cpp, rust, java, python")
    );
}
