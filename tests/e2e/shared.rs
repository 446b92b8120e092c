//! The fixtures a whole test run shares, built once before the tests by nextest's setup
//! script (`.config/nextest.toml` runs [`build_shared_fixtures`]) and handed to every test
//! process through [`PACKS_VAR`]: the default packs the pack and calibration tests read, and
//! the testlib programs of tests/support with testlib's precompiled header, in the build cache
//! of `util::with_shared_cache`. Under `cargo test`, which runs every test in one process and
//! sets no such variable, each is built by the first test that needs it, as before.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The folder of the packs this run shares, set by the setup script.
pub const PACKS_VAR: &str = "DUIPAI_TEST_PACKS";

/// PATH with no version manager's shim before Python (`util::path_without_shims`), settled
/// once by the setup script.
pub const PATH_VAR: &str = "DUIPAI_TEST_PATH";

/// The shared pack folder, when a setup script made one.
pub fn packs_dir() -> Option<PathBuf> {
    std::env::var_os(PACKS_VAR).map(PathBuf::from)
}

/// The build cache every test shares (`util::Duipai` names it to duipai): like the test
/// binaries, it lasts from run to run in target/, since its builds are keyed by content,
/// compiler and flags.
pub fn build_cache() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("shared-cache")
}

/// Run by the setup script (`cargo test --test e2e -- --ignored --exact
/// shared::build_shared_fixtures`), with `NEXTEST_ENV` naming the file where the variables
/// for the tests go. Ignored otherwise: plain `cargo test` builds each fixture lazily.
///
/// Up to date, it costs next to nothing: the packs of an earlier run are kept while this test
/// binary is the same one (they are made by the library linked into it, from the plans built
/// into it), and the testlib programs are found in the build cache.
#[test]
#[ignore = "nextest's setup script runs it (.config/nextest.toml)"]
fn build_shared_fixtures() {
    let env_file = std::env::var_os("NEXTEST_ENV").expect("run by nextest's setup script");
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("shared-packs");
    std::fs::create_dir_all(&root).unwrap();
    let packs = root.join(binary_identity());
    // The packs of other builds were made by other code: gone.
    for entry in std::fs::read_dir(&root).unwrap() {
        let path = entry.unwrap().path();
        if path != packs {
            let _ = std::fs::remove_dir_all(path);
        }
    }
    std::fs::create_dir_all(&packs).unwrap();
    // SAFETY: set before any other thread of this test process reads the environment.
    unsafe { std::env::set_var(PACKS_VAR, &packs) };
    let compiled = std::thread::spawn(compile_testlib_programs);
    crate::pack::write_shared();
    compiled.join().unwrap();
    let mut env = std::fs::OpenOptions::new()
        .append(true)
        .open(env_file)
        .unwrap();
    use std::io::Write;
    writeln!(env, "{PACKS_VAR}={}", packs.display()).unwrap();
    let path = crate::util::path_without_shims();
    writeln!(env, "{PATH_VAR}={}", path.to_str().expect("PATH is UTF-8")).unwrap();
}

/// This test binary's identity: its length and modification time. Cargo links a new binary
/// whenever the code or the plans change, and a new link is a new time, so a pack folder
/// named by it holds only what this very code made. (Hashing the binary, hundreds of
/// megabytes with its debug information, would cost more than the check is worth.)
fn binary_identity() -> String {
    let exe = std::env::current_exe().unwrap();
    let meta = std::fs::metadata(&exe).unwrap();
    let modified = meta
        .modified()
        .unwrap()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap();
    format!("{}-{}", meta.len(), modified.as_nanos())
}

/// Compiles every C++ program of tests/support that includes testlib.h (checkers, validators,
/// interactors, generators), as a judging helper, into the shared build cache: testlib's
/// precompiled header first, then each program, which the tests then find there.
fn compile_testlib_programs() {
    crate::util::require(&["g++"]);
    let support = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support");
    let testlib = support.join("testlib/testlib.h");
    let options = duipai::compile::CompileOptions {
        cache_dir: Some(build_cache()),
        use_env: false,
        helper: true,
        ..Default::default()
    };
    let scratch = tempfile::tempdir().unwrap();
    let sources = walkdir::WalkDir::new(&support)
        .sort_by_file_name()
        .into_iter()
        .map(|e| e.unwrap().into_path())
        .filter(|p| p.extension().is_some_and(|e| e == "cpp"))
        .filter(|p| std::fs::read_to_string(p).is_ok_and(|t| t.contains("#include \"testlib.h\"")));
    for (i, source) in sources.enumerate() {
        // As the tests hold it: in a folder of its own, testlib.h beside it.
        let dir = scratch.path().join(i.to_string());
        std::fs::create_dir(&dir).unwrap();
        let copy = dir.join(source.file_name().unwrap());
        std::fs::copy(&source, &copy).unwrap();
        std::fs::copy(&testlib, dir.join("testlib.h")).unwrap();
        duipai::compile::prepare(&[OsString::from(&copy)], &options)
            .unwrap_or_else(|e| panic!("{}: {e}", source.display()));
    }
}
