//! The ICPC packages with the setters' real tools: BAPCtools (`bt validate`, `bt run`) on the
//! 2025-09 package and problemtools (`verifyproblem`) on the legacy one, for every built-in
//! problem, a setter's round trip (a hand-made test, a licence, a forced repack, a wrong
//! submission), a made-up problem of a setter's own, and `duipai validate` against the
//! packaged checktestdata grammars on fuzzed inputs. They take minutes and need the tools, so
//! they are ignored by `cargo test`;
//! `.ci/setter-tools` installs the tools and runs them. Run without the tools, they fail and
//! say what to install.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::util::{Duipai, assert_contains};

const IGNORED: &str = "needs bt and verifyproblem: run .ci/setter-tools";

/// A tool from the venv named by `DUIPAI_SETTER_TOOLS`, else from PATH; a missing one fails
/// the test with the way to get it.
fn tool(name: &str) -> PathBuf {
    let from_venv = std::env::var_os("DUIPAI_SETTER_TOOLS").map(|v| Path::new(&v).join("bin"));
    let candidates = from_venv.into_iter().chain(
        std::env::var_os("PATH")
            .into_iter()
            .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>()),
    );
    for dir in candidates {
        let path = dir.join(name);
        if path.is_file() {
            return path;
        }
    }
    panic!("`{name}` was not found: {IGNORED} (it installs BAPCtools and problemtools)");
}

/// Runs a tool in `dir` with a fresh BAPCtools configuration (its uuid cache would otherwise
/// warn about the same problem in two folders) and the venv's `bin` first on PATH.
fn run_tool(dir: &Path, name: &str, args: &[&str], config: &Path) -> (i32, String) {
    let program = tool(name);
    let bin = program.parent().unwrap().to_path_buf();
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut paths = vec![bin];
    paths.extend(std::env::split_paths(&path));
    let out: Output = Command::new(&program)
        .args(args)
        .current_dir(dir)
        .env("XDG_CONFIG_HOME", config)
        .env("PATH", std::env::join_paths(paths).unwrap())
        .output()
        .unwrap_or_else(|e| panic!("running {}: {e}", program.display()));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
    .replace('\r', "\n");
    (out.status.code().unwrap_or(-1), text)
}

/// `duipai pack PROBLEM --out FOLDER --layout icpc EXTRA` in `dir`: it must succeed.
fn pack(dir: &Path, problem: &str, folder: &str, extra: &[&str]) -> String {
    Duipai::in_dir(dir)
        .args(["pack", problem, "--out", folder, "--layout", "icpc"])
        .args(extra)
        .run()
        .success()
        .stderr()
}

/// The lines of a tool's output that warn or report an error.
fn complaints(output: &str) -> Vec<&str> {
    output
        .lines()
        .filter(|l| l.contains("WARNING") || l.contains("ERROR") || l.contains("was not properly"))
        .collect()
}

/// `bt STEP --no-bar` in `package`: it must succeed without a warning. Returns what it said.
fn bt(package: &Path, step: &str, config: &Path) -> String {
    let (code, out) = run_tool(package, "bt", &[step, "--no-bar"], config);
    assert_eq!(
        (code, complaints(&out)),
        (0, vec![]),
        "bt {step} in {}:\n{out}",
        package.display()
    );
    out
}

/// `verifyproblem` on every part of `package` but the statement, which needs LaTeX.
fn verifyproblem(package: &Path, config: &Path) -> (i32, String) {
    let args = [
        ".",
        "-p",
        "config",
        "data",
        "submissions",
        "validators",
        "graders",
    ];
    run_tool(package, "verifyproblem", &args, config)
}

/// `bt validate` and `bt run` pass the 2025-09 package without a warning, and judge the
/// accepted submission AC on every test.
fn bapctools_accepts(problem: &str) {
    let dir = tempfile::tempdir().unwrap();
    let config = tempfile::tempdir().unwrap();
    pack(dir.path(), problem, problem, &[]);
    let package = dir.path().join(problem);
    bt(&package, "validate", config.path());
    let out = bt(&package, "run", config.path());
    assert!(
        out.contains(&format!("accepted/{problem}.cpp")) && out.contains(" AC "),
        "{out}"
    );
}

/// `verifyproblem` finds no error in the legacy package (the statement part, which needs
/// LaTeX, left out) and warns only that no licence is set.
fn problemtools_accepts(problem: &str) {
    let dir = tempfile::tempdir().unwrap();
    let config = tempfile::tempdir().unwrap();
    pack(dir.path(), problem, problem, &["--icpc-version", "legacy"]);
    let package = dir.path().join(problem);
    let (code, out) = verifyproblem(&package, config.path());
    assert_eq!(code, 0, "verifyproblem {problem}:\n{out}");
    assert_contains(&out, &format!("{problem} tested: 0 errors"));
    let warnings: Vec<&str> = complaints(&out)
        .into_iter()
        .filter(|l| !l.contains("License is 'unknown'"))
        .collect();
    assert_eq!(warnings, Vec::<&str>::new(), "{out}");
    assert_contains(&out, "AC");
}

/// Every registered game's packages, so a new game is checked without a test of its own.
#[test]
#[ignore = "needs bt and verifyproblem: run .ci/setter-tools"]
fn every_builtin_package_passes_bapctools_and_problemtools() {
    for game in duipai::problem::ALL {
        bapctools_accepts(game.name());
        problemtools_accepts(game.name());
    }
}

/// A setter's round trip: pack, add a test of their own and a licence with its owner (BAPCtools
/// refuses a licence without one), repack with --force,
/// then the tools accept the package with both, judge the reference AC and a greedy
/// submission WA, and problemtools no longer warns about the licence.
#[test]
#[ignore = "needs bt and verifyproblem: run .ci/setter-tools"]
fn a_setters_test_and_licence_survive_a_repack_and_the_tools_judge_a_wrong_submission() {
    let dir = tempfile::tempdir().unwrap();
    let config = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (folder, version) in [("chess", "2025-09"), ("legacy", "legacy")] {
        pack(d, "chess", folder, &["--icpc-version", version]);
        let p = d.join(folder);
        std::fs::write(p.join("data/secret/99-hand.in"), "1 1\n7\n3\n").unwrap();
        std::fs::write(p.join("data/secret/99-hand.ans"), "7\n").unwrap();
        let yaml = std::fs::read_to_string(p.join("problem.yaml")).unwrap();
        // BAPCtools wants a licence to come with its rights owner, an author or a source.
        let licence = "license: cc by-sa\nrights_owner: The setters\n";
        std::fs::write(p.join("problem.yaml"), format!("{yaml}{licence}")).unwrap();
        let wrong = p.join("submissions/wrong_answer");
        std::fs::create_dir_all(&wrong).unwrap();
        let greedy =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/setter/chess_greedy.cpp");
        std::fs::copy(greedy, wrong.join("greedy.cpp")).unwrap();
        let err = pack(d, "chess", folder, &["--force"]);
        assert_contains(&err, "left in place 3 files");
        let yaml = std::fs::read_to_string(p.join("problem.yaml")).unwrap();
        assert!(yaml.ends_with(licence), "{yaml}");
        assert_contains(&yaml, &format!("problem_format_version: {version}\n"));
    }
    bt(&d.join("chess"), "validate", config.path());
    let out = bt(&d.join("chess"), "run", config.path());
    assert!(
        out.contains("wrong_answer/greedy.cpp") && out.contains(" WA "),
        "{out}"
    );
    let (code, out) = verifyproblem(&d.join("legacy"), config.path());
    assert_eq!(code, 0, "{out}");
    assert_contains(&out, "tested: 0 errors, 0 warnings");
    assert!(
        out.contains("wrong_answer/greedy.cpp") && out.contains("WA"),
        "{out}"
    );
}

/// The test files of a package (`data/**/*.in`, `.ans`) with their contents.
fn test_data(package: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut files = std::collections::BTreeMap::new();
    for entry in walkdir::WalkDir::new(package.join("data")).sort_by_file_name() {
        let entry = entry.unwrap();
        let path = entry.path();
        let ext = path.extension().and_then(|e| e.to_str());
        if entry.file_type().is_file() && matches!(ext, Some("in" | "ans")) {
            let rel = path.strip_prefix(package).unwrap().display().to_string();
            files.insert(rel, std::fs::read(path).unwrap());
        }
    }
    files
}

/// `duipai pack --layout icpc` of the problem in the folder `dir`, with the setter tests'
/// build cache.
fn pack_own(dir: &Path, out: &str, extra: &[&str]) {
    crate::util::with_shared_cache(dir)
        .args(["pack", "--out", out, "--layout", "icpc"])
        .args(extra)
        .run()
        .success();
}

/// The line `bt run` prints for `submission`: its verdict and time.
fn verdict_of<'a>(out: &'a str, submission: &str) -> &'a str {
    out.lines()
        .find(|l| l.trim_start().starts_with(&format!("{submission}:")))
        .unwrap_or_else(|| panic!("no line for {submission} in:\n{out}"))
}

/// A made-up problem of a setter's own (C++ and Python generators, a testlib validator,
/// invalid inputs, submissions of every expected verdict): `bt validate` passes its 2025-09
/// package, `bt generate` makes exactly the data duipai wrote, `bt run` gives every
/// submission its expected verdict, and `verifyproblem` passes its legacy package.
#[test]
#[ignore = "needs bt and verifyproblem: run .ci/setter-tools"]
fn a_setters_own_problem_passes_bapctools_and_problemtools() {
    let dir = crate::util::problem_folder("examples/rangesum", None);
    let config = tempfile::tempdir().unwrap();
    let d = dir.path();
    pack_own(d, "rangesum", &[]);
    let package = d.join("rangesum");
    bt(&package, "validate", config.path());
    let written = test_data(&package);
    let out = bt(&package, "generate", config.path());
    assert!(
        !out.contains("CHANGED") && !out.contains("REMOVED"),
        "{out}"
    );
    assert_eq!(test_data(&package), written, "bt generate made other data");
    let out = bt(&package, "run", config.path());
    for (submission, verdict) in [
        ("accepted/sol.cpp", "AC"),
        ("accepted/sol.py", "AC"),
        ("wrong_answer/int_sums.cpp", "WA"),
        ("time_limit_exceeded/naive.cpp", "TLE"),
        ("run_time_error/fixed_array.cpp", "RTE"),
    ] {
        let line = verdict_of(&out, submission);
        assert!(line.contains(&format!(" {verdict} ")), "{line}");
    }

    pack_own(d, "legacy", &["--icpc-version", "legacy"]);
    let (code, out) = verifyproblem(&d.join("legacy"), config.path());
    assert_eq!(code, 0, "verifyproblem:\n{out}");
    assert_contains(&out, "tested: 0 errors");
    let warnings: Vec<&str> = complaints(&out)
        .into_iter()
        .filter(|l| !l.contains("License is 'unknown'"))
        .collect();
    assert_eq!(warnings, Vec::<&str>::new(), "{out}");
}

/// The many-answers variant: its testlib checker is the package's output validator, which
/// accepts another right answer than the reference's and rejects a wrong one, under both
/// tools.
#[test]
#[ignore = "needs bt and verifyproblem: run .ci/setter-tools"]
fn a_testlib_checker_judges_a_many_answers_problem_under_both_tools() {
    let dir = crate::util::problem_folder("tests/support/rangemax", Some("examples/rangesum"));
    let config = tempfile::tempdir().unwrap();
    let d = dir.path();
    pack_own(d, "rangemax", &[]);
    let package = d.join("rangemax");
    bt(&package, "validate", config.path());
    let written = test_data(&package);
    bt(&package, "generate", config.path());
    assert_eq!(test_data(&package), written, "bt generate made other data");
    let out = bt(&package, "run", config.path());
    for (submission, verdict) in [
        ("accepted/leftmost.cpp", "AC"),
        ("accepted/rightmost.py", "AC"),
        ("wrong_answer/first.cpp", "WA"),
    ] {
        let line = verdict_of(&out, submission);
        assert!(line.contains(&format!(" {verdict} ")), "{line}");
    }
    pack_own(d, "legacy", &["--icpc-version", "legacy"]);
    let (code, out) = verifyproblem(&d.join("legacy"), config.path());
    assert_eq!(code, 0, "verifyproblem:\n{out}");
    assert_contains(&out, "tested: 0 errors");
    assert_contains(&out, "rightmost.py");
}

/// The ways a fuzzed input departs from a generated one: layout (spaces, tabs, line ends,
/// empty lines, the final line break) and content (a token dropped, a line doubled, a value
/// out of range).
fn mutations(text: &str, pick: u64) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let at = pick as usize % lines.len();
    let with_line = |new: String| {
        let mut changed: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        changed[at] = new;
        changed.join("\n") + "\n"
    };
    let line = lines[at];
    let mut out = vec![
        text.to_string(),
        with_line(format!(" {line}")),
        with_line(format!("{line} ")),
        with_line(line.replacen(' ', "  ", 1)),
        with_line(line.replacen(' ', "\t", 1)),
        text.trim_end_matches('\n').to_string(),
        format!("{text}\n"),
        text.replace('\n', "\r\n"),
        with_line(format!("{line}\n")),
        with_line(format!("{line}\n{line}")),
        with_line(line.split(' ').skip(1).collect::<Vec<_>>().join(" ")),
        with_line(line.replacen(char::is_numeric, "9999999", 1)),
    ];
    // An empty line removed (gems has one after each case).
    if let Some(empty) = lines.iter().position(|l| l.is_empty()) {
        let mut changed: Vec<&str> = lines.clone();
        changed.remove(empty);
        out.push(changed.join("\n") + "\n");
    }
    out
}

/// `duipai validate` of every built-in game accepts exactly what the package's checktestdata
/// grammar accepts: generated inputs and their fuzzed variants, run through both.
#[test]
#[ignore = "needs checktestdata: run .ci/setter-tools"]
fn validate_accepts_exactly_what_the_packaged_ctd_accepts() {
    let python = tool("python");
    let has_ctd = Command::new(&python)
        .args(["-m", "checktestdata", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        has_ctd,
        "{} has no checktestdata: {IGNORED}",
        python.display()
    );
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for problem in ["chess", "chessboard", "gems", "fishhead", "shooting"] {
        let grammar = root.join(format!("games/src/problem/{problem}/package/input.ctd"));
        let mut files = Vec::new();
        for seed in 1..=8u64 {
            let base = Duipai::new()
                .args(["gen", problem, "--seed", &seed.to_string()])
                .run()
                .success()
                .stdout();
            for (k, text) in mutations(&base, seed * 7919).into_iter().enumerate() {
                let path = dir.path().join(format!("{problem}-{seed}-{k}.in"));
                std::fs::write(&path, text).unwrap();
                files.push(path);
            }
        }
        let out = Duipai::new()
            .arg("validate")
            .arg(problem)
            .args(&files)
            .run();
        let report = out.stdout();
        let (mut accepted, mut rejected) = (0, 0);
        for path in &files {
            let name = path.display().to_string();
            let ours = report.lines().any(|l| l == format!("{name}: ok"));
            let ctd = Command::new(&python)
                .args(["-m", "checktestdata"])
                .arg(&grammar)
                .arg(path)
                .output()
                .unwrap();
            let theirs = ctd.status.success();
            let line = report.lines().find(|l| l.starts_with(&name)).unwrap_or("");
            assert_eq!(
                ours,
                theirs,
                "{problem}: duipai says {line:?}, checktestdata {}, on {:?}",
                String::from_utf8_lossy(&ctd.stdout),
                std::fs::read_to_string(path).unwrap()
            );
            if ours {
                accepted += 1;
            } else {
                rejected += 1;
            }
        }
        // Both kinds were tried: the generated inputs pass, most variants do not.
        assert!(
            accepted >= 8 && rejected >= 40,
            "{problem}: {accepted}, {rejected}"
        );
    }
}

/// Polygon packages converted to ICPC packages (`tests/support/polygon/`: generated tests with
/// named options and six solution tags; groups named as Polygon names them, with points and
/// dependencies): `bt validate` passes them, `bt generate` makes the same data, and `bt run`
/// gives every solution the verdict its tag's folder expects.
#[test]
#[ignore = "needs bt and verifyproblem: run .ci/setter-tools"]
fn polygon_packages_converted_to_icpc_pass_bapctools() {
    for (name, verdicts) in [
        (
            "sumpair",
            &[
                ("accepted/main.cpp", "AC"),
                ("wrong_answer/int_sum.cpp", "WA"),
                ("wrong_answer/words.cpp", "WA"),
                ("time_limit_exceeded/spin.cpp", "TLE"),
                ("rejected/crash.cpp", "RTE"),
            ][..],
        ),
        (
            "maxpair",
            &[
                ("accepted/main.cpp", "AC"),
                ("accepted/ternary.py", "AC"),
                ("wrong_answer/int32.cpp", "WA"),
            ][..],
        ),
    ] {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let dir = tempfile::tempdir().unwrap();
        let config = tempfile::tempdir().unwrap();
        crate::util::copy_tree(&root.join("tests/support/polygon").join(name), dir.path());
        std::fs::copy(
            root.join("tests/support/testlib/testlib.h"),
            dir.path().join("files/testlib.h"),
        )
        .unwrap();
        pack_own(dir.path(), name, &[]);
        let package = dir.path().join(name);
        bt(&package, "validate", config.path());
        let written = test_data(&package);
        let out = bt(&package, "generate", config.path());
        assert!(
            !out.contains("CHANGED") && !out.contains("REMOVED"),
            "{out}"
        );
        assert_eq!(test_data(&package), written, "bt generate made other data");
        let out = bt(&package, "run", config.path());
        for (submission, verdict) in verdicts {
            assert_contains(verdict_of(&out, submission), verdict);
        }
    }
}
