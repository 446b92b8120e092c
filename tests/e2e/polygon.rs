//! Polygon packages as problem folders: the packages of `tests/support/polygon/` (written for
//! these tests: generated tests and six solution tags with a standard checker named without
//! its file; groups with points, policies and dependencies; an interactive problem) judged,
//! tested, packed as ICPC and NOI packages, and broken on purpose.

use std::path::Path;

use crate::util::{assert_contains, copy_tree, require, with_shared_cache};

/// A scratch copy of the package `name` with the vendored `testlib.h` in its `files/`, as a
/// package downloaded from Polygon has it.
fn package(name: &str) -> tempfile::TempDir {
    require(&["g++", "python3"]);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&root.join("tests/support/polygon").join(name), dir.path());
    std::fs::copy(
        root.join("tests/support/testlib/testlib.h"),
        dir.path().join("files/testlib.h"),
    )
    .unwrap();
    dir
}

/// The judge's JSON summary: each submission's name, whether it got what its tag expects, and
/// its verdicts.
fn judged(summary: &serde_json::Value) -> Vec<(String, bool, Vec<String>)> {
    summary["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let verdicts = s["results"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["verdict"].as_str().unwrap().to_string())
                .collect();
            (
                s["name"].as_str().unwrap().to_string(),
                s["ok"].as_bool().unwrap(),
                verdicts,
            )
        })
        .collect()
}

fn count(verdicts: &[String], verdict: &str) -> usize {
    verdicts.iter().filter(|v| *v == verdict).count()
}

#[test]
fn judge_gives_every_solution_of_a_polygon_package_its_tags_verdict() {
    let dir = package("sumpair");
    let out = with_shared_cache(dir.path())
        .args(["judge", "--json", "--junit", "judge.xml"])
        .run()
        .success();
    // The limit is the package's, in the package's words (not the ICPC rule's multipliers).
    let junit = std::fs::read_to_string(dir.path().join("judge.xml")).unwrap();
    assert_contains(
        &junit,
        "(the package&apos;s limit is 1.000 s, and a run over it times out)",
    );
    assert!(!junit.contains("time_limit_to_tle"), "{junit}");
    assert!(
        out.stderr()
            .contains("settings from problem.xml: problem, time-limit, memory-limit, validator, checker, reference, plan, named-generator"),
        "{}",
        out.stderr()
    );
    let summary = out.json();
    assert_eq!(summary["status"], "ok", "{summary}");
    assert_eq!(summary["tests"].as_array().unwrap().len(), 5);
    assert_eq!(summary["time_limit_ms"], 1000);
    let rows = judged(&summary);
    let names: Vec<&str> = rows.iter().map(|(n, _, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "main/main.cpp",
            "wrong-answer/int_sum.cpp",
            "presentation-error/words.cpp",
            "time-limit-exceeded/spin.cpp",
            "time-limit-exceeded-or-accepted/maybe_slow.cpp",
            "rejected/crash.cpp",
        ]
    );
    assert!(rows.iter().all(|(_, ok, _)| *ok), "{rows:?}");
    let verdicts = |name: &str| &rows.iter().find(|(n, _, _)| n == name).unwrap().2;
    assert_eq!(count(verdicts("main/main.cpp"), "AC"), 5);
    // Only the test of values up to 10^9 overflows 32 bits.
    assert_eq!(count(verdicts("wrong-answer/int_sum.cpp"), "WA"), 1);
    // "sum 6" is no integer to duipai's std::ncmp.cpp: its presentation error, the format's WA.
    assert_eq!(count(verdicts("presentation-error/words.cpp"), "WA"), 5);
    assert_eq!(count(verdicts("time-limit-exceeded/spin.cpp"), "TLE"), 1);
    assert_eq!(count(verdicts("rejected/crash.cpp"), "RTE"), 1);
}

#[test]
fn a_polygon_package_packs_as_an_icpc_package_with_its_cmds_and_solutions() {
    let dir = package("sumpair");
    let d = dir.path();
    with_shared_cache(d)
        .args(["pack", "--out", "out", "--layout", "icpc"])
        .run()
        .success();
    let out = d.join("out");
    // The sample is read with LF line ends, as Polygon's own tests are.
    assert_eq!(
        std::fs::read_to_string(out.join("data/sample/01.in")).unwrap(),
        "3\n1 2 3\n"
    );
    assert_eq!(
        std::fs::read_to_string(out.join("data/sample/01.ans")).unwrap(),
        "6\n"
    );
    let yaml = std::fs::read_to_string(out.join("generators/generators.yaml")).unwrap();
    // Each cmd as written: no seed added.
    assert!(yaml.contains("'gen --n=8 --max=1000000000 big'"), "{yaml}");
    assert!(yaml.contains("'gen 5 10'"), "{yaml}");
    for submission in [
        "accepted/main.cpp",
        "wrong_answer/int_sum.cpp",
        "wrong_answer/words.cpp",
        "time_limit_exceeded/spin.cpp",
        "rejected/crash.cpp",
    ] {
        assert!(
            out.join("submissions").join(submission).is_file(),
            "{submission}"
        );
    }
    assert!(!out.join("submissions/accepted/maybe_slow.cpp").exists());
    let problem = std::fs::read_to_string(out.join("problem.yaml")).unwrap();
    assert!(problem.contains("time_limit: 1"), "{problem}");
    // duipai's std::ncmp.cpp is the package's checker, built beside testlib.h.
    let checker = std::fs::read_to_string(out.join("output_validator/ncmp.cpp")).unwrap();
    assert!(checker.contains("duipai's std::ncmp.cpp"), "{checker}");
    // The package judges as the Polygon package did (but for the spinning solution, whose
    // TLE the Polygon package's test pays for), its output validator built by its own `build`.
    std::fs::remove_file(out.join("submissions/time_limit_exceeded/spin.cpp")).unwrap();
    let summary = with_shared_cache(&out)
        .env("PATH", unoptimized_gxx_first())
        .args(["judge", "--json", "--tests", "data"])
        .run()
        .success()
        .json();
    assert_eq!(summary["status"], "ok", "{summary}");
}

/// The tests' PATH with a folder first whose `g++` runs the real one with `-O0` added (the
/// last level given wins), and keeps what it builds: an ICPC package's `build` script
/// compiles its testlib output validator with `g++ -O2`, about 10 s of CPU (4 s unoptimized)
/// on every `judge`, and what is checked is what the validator decides, not how fast it runs
/// or that the same source compiles again. A build is kept in target/tmp/package-builds
/// under the SHA-256 of its arguments, the real compiler's `--version`, the contents of every
/// file argument and of the sources beside it (the working folder's `*.cpp` and `*.h`, where
/// the script runs): the same inputs are copied to `-o` on the next run; anything changed
/// compiles. The folder is always the same one (in target/), since the compiler's path is
/// part of duipai's build cache key: the submissions the same judge compiles are then found
/// in the shared cache from one run to the next.
fn unoptimized_gxx_first() -> std::ffi::OsString {
    let path = crate::util::path_without_shims();
    let real = std::env::split_paths(&path)
        .map(|d| d.join("g++"))
        .find(|p| p.is_file())
        .expect("g++ in PATH");
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let cache = target.join("package-builds");
    std::fs::create_dir_all(&cache).unwrap();
    let dir = target.join("unoptimized-gxx");
    let gxx = dir.join("g++");
    let script = format!(
        r#"#!/bin/sh
real='{real}'
out=; prev=
for a in "$@"; do [ "$prev" = -o ] && out=$a; prev=$a; done
[ -n "$out" ] || exec "$real" "$@" -O0
key=$( {{ printf '%s\n' "$@"; "$real" --version; for a in "$@"; do [ -f "$a" ] && cat "$a"; done; cat ./*.cpp ./*.h 2>/dev/null; }} | sha256sum | cut -c1-64)
cached='{cache}'/$key
if [ -f "$cached" ]; then exec cp "$cached" "$out"; fi
"$real" "$@" -O0 || exit $?
cp "$out" "$cached.$$" && mv "$cached.$$" "$cached"
"#,
        real = real.display(),
        cache = cache.display(),
    );
    if std::fs::read_to_string(&gxx).ok().as_deref() != Some(script.as_str()) {
        // Written beside it and renamed into place: whole or not at all.
        std::fs::create_dir_all(&dir).unwrap();
        let staging = tempfile::tempdir_in(&dir).unwrap();
        crate::util::write_executable(&staging.path().join("g++"), &script);
        std::fs::rename(staging.path().join("g++"), &gxx).unwrap();
    }
    crate::util::wait_until_executable(&gxx);
    let mut dirs = vec![dir];
    dirs.extend(std::env::split_paths(&path));
    std::env::join_paths(dirs).unwrap()
}

#[test]
fn groups_keep_their_points_policy_and_dependencies() {
    let dir = package("maxpair");
    let d = dir.path();
    let summary = with_shared_cache(d)
        .args(["judge", "--json"])
        .run()
        .success()
        .json();
    let rows = judged(&summary);
    assert!(rows.iter().all(|(_, ok, _)| *ok), "{rows:?}");
    let wrong = &rows[2];
    assert_eq!(wrong.0, "wrong-answer/int32.cpp");
    // Values up to 10^12 do not fit an int: the three tests of `large`.
    assert_eq!(count(&wrong.2, "WA"), 3, "{wrong:?}");
    with_shared_cache(d)
        .args(["pack", "--out", "noi", "--layout", "noi"])
        .run()
        .success();
    let subtasks = std::fs::read_to_string(d.join("noi/subtasks.txt")).unwrap();
    // small: its group's 40 points; large: its each-test points summed, 3 × 20.
    assert!(
        subtasks.contains("small\t40\tmaxpair1.in maxpair2.in maxpair3.in\n"),
        "{subtasks}"
    );
    assert!(
        subtasks.contains("large\t60\tmaxpair4.in maxpair5.in maxpair6.in\n"),
        "{subtasks}"
    );
    with_shared_cache(d)
        .args(["pack", "--out", "icpc", "--layout", "icpc"])
        .run()
        .success();
    for group in ["small", "large"] {
        assert!(d.join("icpc/data/secret").join(group).is_dir(), "{group}");
    }
    assert!(d.join("icpc/data/sample/01.in").is_file());
    assert!(d.join("icpc/submissions/accepted/ternary.py").is_file());
}

#[test]
fn an_interactive_polygon_package_is_judged_with_its_interactor() {
    let dir = package("guess");
    let summary = with_shared_cache(dir.path())
        .args(["judge", "--json"])
        .run()
        .success()
        .json();
    let rows = judged(&summary);
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert!(rows.iter().all(|(_, ok, _)| *ok), "{rows:?}");
    // A linear search finds 7 in 10 and 1 in 1, not a secret below 10^6 in 30 queries.
    assert_eq!(count(&rows[1].2, "WA"), 1, "{rows:?}");
}

#[test]
fn judge_takes_a_polygon_package_by_its_folder() {
    let dir = package("guess");
    let parent = dir.path().parent().unwrap().to_path_buf();
    let name = dir.path().file_name().unwrap().to_owned();
    let out = with_shared_cache(&parent)
        .arg("judge")
        .arg(&name)
        .run()
        .success();
    assert!(out.stderr().contains("problem.xml"), "{}", out.stderr());
    assert!(out.stdout().contains("main/binary.cpp"), "{}", out.stdout());
    // The limit is the package's own, and said to be.
    assert_contains(&out.stdout(), "(problem.xml or --time-limit)");
}

#[test]
fn errors_in_problem_xml_name_their_line_and_column() {
    let dir = package("sumpair");
    let d = dir.path();
    let xml = std::fs::read_to_string(d.join("problem.xml")).unwrap();
    std::fs::write(
        d.join("problem.xml"),
        xml.replace("cmd=\"gen 5 10\"", "cmd=\"generator 5 10\""),
    )
    .unwrap();
    let out = with_shared_cache(d).args(["judge"]).run().code(2);
    assert!(
        out.stderr().contains(
            "problem.xml:15:17: test 2: cmd runs \"generator\", which is not an executable of \
             the package (its generators: gen)"
        ),
        "{}",
        out.stderr()
    );
    std::fs::write(d.join("problem.xml"), xml.replace("</tests>", "")).unwrap();
    let out = with_shared_cache(d)
        .args(["pack", "--out", "x"])
        .run()
        .code(2);
    assert!(out.stderr().contains("problem.xml:"), "{}", out.stderr());
    assert!(!d.join("x").exists());
}

/// Each submission's verdicts by its file name, from a judge's JSON summary.
fn by_file(summary: &serde_json::Value) -> Vec<(String, Vec<String>)> {
    let mut rows: Vec<(String, Vec<String>)> = judged(summary)
        .into_iter()
        .map(|(name, _, verdicts)| (name.rsplit('/').next().unwrap().to_string(), verdicts))
        .collect();
    rows.sort();
    rows
}

#[test]
fn a_problem_of_ones_own_round_trips_through_the_polygon_layout() {
    let dir = crate::util::problem_folder("examples/rangesum", None);
    let d = dir.path();
    let own = with_shared_cache(d)
        .args(["judge", "--json", "--plan", "extra/small.plan"])
        .run()
        .json();
    with_shared_cache(d)
        .args([
            "pack",
            "--out",
            "poly",
            "--layout",
            "polygon",
            "--plan",
            "extra/small.plan",
        ])
        .run()
        .success();
    let xml = std::fs::read_to_string(d.join("poly/problem.xml")).unwrap();
    // A gen line's seed is its cmd's last argument; the named generator is called by its name.
    assert!(
        xml.contains(r#"<test cmd="gen 3 3 5" method="generated"/>"#),
        "{xml}"
    );
    assert!(
        xml.contains(r#"<test cmd="big 20000 20000 1000 1" method="generated"/>"#),
        "{xml}"
    );
    assert!(xml.contains(r#"<solution tag="main">"#), "{xml}");
    assert!(d.join("poly/files/testlib.h").is_file());
    let back = with_shared_cache(&d.join("poly"))
        .args(["judge", "--json"])
        .run()
        .json();
    assert_eq!(back["tests"].as_array().unwrap().len(), 3);
    // The same tests, byte for byte, and the same verdicts.
    for i in 1..=3 {
        let packed = std::fs::read(d.join(format!("poly/tests/0{i}.in"))).unwrap();
        let plain = with_shared_cache(d)
            .args(["gen", "rangesum"])
            .args(match i {
                1 => vec!["3", "3", "--seed", "5"],
                2 => vec!["3", "3", "--seed", "6"],
                _ => vec![
                    "--generator",
                    "big",
                    "20000",
                    "20000",
                    "1000",
                    "--seed",
                    "1",
                ],
            })
            .run()
            .success();
        assert_eq!(
            String::from_utf8(packed).unwrap(),
            plain.stdout(),
            "test {i}"
        );
    }
    assert_eq!(by_file(&own), by_file(&back));
    // The reference is the main solution, not an accepted one besides.
    let names: Vec<String> = judged(&back).into_iter().map(|(n, _, _)| n).collect();
    assert!(names.contains(&"main/sol.cpp".to_string()), "{names:?}");
    assert!(
        !names
            .iter()
            .any(|n| n.starts_with("accepted/") && n.ends_with("sol.cpp"))
    );
}

#[test]
fn a_built_in_game_packs_as_a_polygon_package_duipai_judges_again() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    with_shared_cache(d)
        .args([
            "pack", "shooting", "--out", "shooting", "--layout", "polygon",
        ])
        .run()
        .success();
    let xml = std::fs::read_to_string(d.join("shooting/problem.xml")).unwrap();
    assert_eq!(xml.matches(r#"<test method="manual"/>"#).count(), 22);
    assert!(
        xml.contains(r#"<checker name="std::rcmp6.cpp" type="testlib"/>"#),
        "{xml}"
    );
    assert!(
        xml.contains("<memory-limit>134217728</memory-limit>"),
        "{xml}"
    );
    assert!(d.join("shooting/solutions/shooting.cpp").is_file());
    assert!(d.join("shooting/tests/22.ans").is_file());
    // Read back: the package's solution judged on its tests, the answers compared within
    // 1e-6 (rcmp6 without testlib.h to build it with).
    let out = with_shared_cache(&d.join("shooting"))
        .args(["judge", "--json"])
        .run()
        .success();
    assert!(out.stderr().contains("tolerance"), "{}", out.stderr());
    let summary = out.json();
    let rows = judged(&summary);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].0, "main/shooting.cpp");
    assert_eq!(count(&rows[0].2, "AC"), 22);
}

#[test]
fn stress_test_and_hunt_work_in_a_polygon_package() {
    let dir = package("sumpair");
    let d = dir.path();
    // stress: the package's reference, validator and (duipai's) std::ncmp.cpp checker.
    let out = with_shared_cache(d)
        .args([
            "stress",
            "--generator",
            "files/gen.cpp 8 1000000000",
            "--iterations",
            "40",
            // What this test checks is the package's helpers in the loop, and the replay line
            // naming them; minimizing is the minimize and checkers modules' (a minimization
            // through ncmp.cpp: checkers::stress_judges_through_the_checker_and_still_minimizes).
            // Unminimized, no recorder of gen.cpp is built either.
            "--no-shrink",
        ])
        .program(["solutions/int_sum.cpp"])
        .run()
        .code(1);
    assert!(out.stdout().contains("FAILED on seed"), "{}", out.stdout());
    assert!(out.stdout().contains("--checker "), "{}", out.stdout());
    assert!(out.stdout().contains("ncmp.cpp"), "{}", out.stdout());
    // test: a Polygon tests/ folder, answered by the main solution.
    let out = with_shared_cache(d)
        .args(["test", "tests"])
        .program(["solutions/words.cpp"])
        .run()
        .code(1);
    assert!(out.stdout().contains("PE  01"), "{}", out.stdout());
    // hunt: each cmd with new seeds added. What is checked is which lines it runs and how;
    // the case it catches is minimized for a moment only (its default budget was three
    // quarters of the hunt's CPU; minimizing a hunt's case is setter.rs's and hunting.rs's).
    recorder_built(&d.join("files/gen.cpp"));
    let out = with_shared_cache(d)
        .args(["hunt", "solutions/int_sum.cpp", "--runs", "200"])
        .args(["--shrink-time", "0.2"])
        .run()
        .success();
    assert!(
        out.stdout()
            .contains("gen --n=8 --max=1000000000 big with seeds from 1000001"),
        "{}",
        out.stdout()
    );
    let xml = std::fs::read(d.join("problem.xml")).unwrap();
    let out = with_shared_cache(d)
        .args(["hunt", "solutions/int_sum.cpp", "--runs", "200", "--add"])
        .run()
        .code(2);
    assert!(out.stderr().contains("Polygon keeps"), "{}", out.stderr());
    assert_eq!(std::fs::read(d.join("problem.xml")).unwrap(), xml);
}

/// Builds the generator `source` with the recorder of its choices into the shared build
/// cache, as `duipai stress` and `hunt` build it, unless it is there already. A hunt starts
/// that build in the background (one for each plan line of the generator) and waits for it
/// at most half its minimizing budget: with a budget of 0.2 s it is never waited for, so it
/// never lands in the cache, and each build (testlib at -O2, 10 s of CPU) goes on after
/// duipai has ended, on every run. Built here once, it is in the cache for good.
pub(crate) fn recorder_built(source: &Path) {
    let options = duipai::compile::CompileOptions {
        cache_dir: Some(crate::shared::build_cache()),
        use_env: false,
        ..Default::default()
    };
    duipai::own::capture::Capturable::new(vec![source.into()], options)
        .ready()
        .unwrap_or_else(|e| panic!("{}: {e}", source.display()));
}

/// A scratch copy of `queries`, with `negative.cpp` (whose negative sums crash the package's
/// checker) listed as a wrong answer when `with_negative`.
fn queries(with_negative: bool) -> tempfile::TempDir {
    let dir = package("queries");
    if with_negative {
        let xml = dir.path().join("problem.xml");
        let text = std::fs::read_to_string(&xml).unwrap().replace(
            "        </solutions>",
            "            <solution tag=\"wrong-answer\">\n                <source \
             path=\"solutions/negative.cpp\" type=\"cpp.g++17\"/>\n            </solution>\n        \
             </solutions>",
        );
        std::fs::write(&xml, text).unwrap();
    }
    dir
}

#[test]
fn a_test_whose_answer_is_empty_is_judged_and_the_helpers_own_tests_run() {
    let dir = queries(false);
    let d = dir.path();
    let out = with_shared_cache(d)
        .args(["judge", "--json"])
        .run()
        .success();
    let err = out.stderr();
    assert_contains(&err, "validator tests: 2 passed, 0 failed");
    assert_contains(&err, "checker tests: 2 passed, 0 failed");
    let summary = out.json();
    let rows = judged(&summary);
    assert_eq!(rows.len(), 2, "{rows:?}");
    // Tests 02 and 04 ask for nothing: main's empty output is their answer.
    assert_eq!(rows[0].0, "main/main.cpp");
    assert_eq!(rows[0].2, ["AC", "AC", "AC", "AC"]);
    assert_eq!(rows[1].2, ["WA", "AC", "WA", "AC"]);
    // The same empty answer in a pack, and `validate` runs the validator's tests alone.
    with_shared_cache(d)
        .args(["pack", "--out", "icpc", "--layout", "icpc"])
        .run()
        .success();
    let empty = walkdir::WalkDir::new(d.join("icpc/data"))
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension() == Some("ans".as_ref()))
        .filter(|e| e.metadata().unwrap().len() == 0)
        .count();
    assert_eq!(empty, 2);
    // `test` on the package's own tests: main's empty answer to 02 is the answer.
    let out = with_shared_cache(d)
        .args(["test", "tests"])
        .program(["solutions/main.cpp"])
        .run()
        .success();
    assert_contains(&out.stdout(), "AC  02");
    let out = with_shared_cache(d).args(["validate"]).run().success();
    assert_contains(&out.stdout(), "validator tests: 2 passed, 0 failed");
    std::fs::write(d.join("files/tests/validator-tests/02"), "1\nask\n").unwrap();
    let out = with_shared_cache(d).args(["validate"]).run().code(1);
    assert_contains(
        &out.stdout(),
        "files/tests/validator-tests/02: the validator says valid, the package expects invalid \
         (problem.xml:59:25)",
    );
}

#[test]
fn a_checker_that_crashes_on_one_output_fails_that_run_and_every_solution_is_judged() {
    let dir = queries(true);
    let out = with_shared_cache(dir.path())
        .args(["judge", "--json"])
        .run()
        .code(2);
    let err = out.stderr();
    assert_contains(
        &err,
        "the problem's checker or interactor failed on 2 runs (FAIL in the table), first on \
         wrong-answer/negative.cpp on ",
    );
    assert_contains(&err, "the checker check.cpp failed");
    let summary = out.json();
    let rows = judged(&summary);
    let names: Vec<&str> = rows.iter().map(|(n, _, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "main/main.cpp",
            "wrong-answer/off_by_one.cpp",
            "wrong-answer/negative.cpp"
        ]
    );
    assert_eq!(rows[0].2, ["AC", "AC", "AC", "AC"]);
    assert_eq!(rows[1].2, ["WA", "AC", "WA", "AC"]);
    // Where it asks for nothing, it prints nothing and is right; elsewhere the checker crashed.
    assert_eq!(rows[2].2, ["FAIL", "AC", "FAIL", "AC"]);
    assert!(!rows[2].1, "{rows:?}");
}

#[test]
fn the_answers_a_package_ships_are_used_and_checked_only_when_asked() {
    let dir = queries(false);
    let d = dir.path();
    std::fs::write(d.join("tests/01.a"), "1\n").unwrap();
    // Test 02 asks for nothing: a shipped answer of 7 is wrong, and judged by, as it is.
    std::fs::write(d.join("tests/02.a"), "7\n").unwrap();
    let summary = with_shared_cache(d)
        .args(["judge", "--json"])
        .run()
        .code(1)
        .json();
    let rows = judged(&summary);
    assert_eq!(rows[0].2, ["AC", "WA", "AC", "AC"]);
    let out = with_shared_cache(d)
        .args(["judge", "--check-answers"])
        .run()
        .code(2);
    assert_contains(&out.stderr(), "tests/02.a is wrong");
    assert!(!out.stderr().contains("01.a"), "{}", out.stderr());
}

#[test]
fn the_polygon_layout_keeps_every_solution_of_a_package_with_its_tag() {
    let dir = queries(true);
    let d = dir.path();
    with_shared_cache(d)
        .args(["pack", "--out", "poly", "--layout", "polygon"])
        .run()
        .success();
    let xml = std::fs::read_to_string(d.join("poly/problem.xml")).unwrap();
    for (tag, path) in [
        ("main", "solutions/main.cpp"),
        ("wrong-answer", "solutions/off_by_one.cpp"),
        ("wrong-answer", "solutions/negative.cpp"),
    ] {
        let solution = format!("<solution tag=\"{tag}\">\n                <source path=\"{path}\"");
        assert!(xml.contains(&solution), "{solution}\n{xml}");
        assert!(d.join("poly").join(path).is_file(), "{path}");
    }
    assert_eq!(std::fs::read(d.join("poly/tests/02.ans")).unwrap(), b"");
}

#[test]
fn a_manual_test_that_is_a_link_is_refused_by_name() {
    let dir = queries(false);
    let d = dir.path();
    let elsewhere = tempfile::tempdir().unwrap();
    let secret = elsewhere.path().join("secret");
    std::fs::write(&secret, "2\nadd 1\nask\n").unwrap();
    std::fs::remove_file(d.join("tests/02")).unwrap();
    std::os::unix::fs::symlink(&secret, d.join("tests/02")).unwrap();
    let out = with_shared_cache(d).args(["judge"]).run().code(2);
    let err = out.stderr();
    assert_contains(
        &err,
        "tests/02: a symbolic link; duipai does not follow links in a package",
    );
    assert_contains(&err, "problem.xml:");
}

#[test]
fn stress_takes_an_executable_of_the_package_by_name_with_its_arguments() {
    let dir = queries(false);
    let out = with_shared_cache(dir.path())
        .args(["stress", "--generator", "gen 5 mixed", "--iterations", "30"])
        .program(["solutions/off_by_one.cpp"])
        .run()
        .code(1);
    assert_contains(&out.stdout(), "FAILED on seed");
}

/// The `queries` package with one stress: `gen 5 mixed`, comparing off_by_one.cpp (and main,
/// the reference itself) with the main solution.
fn queries_with_a_stress() -> tempfile::TempDir {
    let dir = queries(false);
    let xml = dir.path().join("problem.xml");
    let text = std::fs::read_to_string(&xml).unwrap().replace(
        "<stress-count>0</stress-count>\n        <stress-path-pattern>stresses/%03d</stress-path-pattern>\n        <list/>",
        "<stress-count>1</stress-count>\n        <stress-path-pattern>stresses/%03d</stress-path-pattern>\n        \
         <list><stress index=\"1\" path=\"stresses/001\"/><stress index=\"2\" path=\"stresses/002\"/></list>",
    );
    assert!(
        text.contains("stresses/001"),
        "the fixture's <stresses> changed"
    );
    std::fs::write(&xml, text).unwrap();
    std::fs::create_dir(dir.path().join("stresses")).unwrap();
    std::fs::write(
        dir.path().join("stresses/001"),
        r#"{"id":"q1","index":1,"scriptPattern":"gen 5 mixed","inputFile":"stdin","outputFile":"stdout","memoryLimit":256,"timeLimit":2000,"totalTimeLimit":120000,"solutionNames":["main.cpp","off_by_one.cpp"],"description":"small"}"#,
    )
    .unwrap();
    // A stress with Polygon's random choices, as real packages have: duipai cannot run it,
    // and the package is judged and stressed all the same.
    std::fs::write(
        dir.path().join("stresses/002"),
        r#"{"index":2,"scriptPattern":"gen [1..10] mixed","memoryLimit":256,"timeLimit":2000,"totalTimeLimit":60000,"solutionNames":["main.cpp","off_by_one.cpp"]}"#,
    )
    .unwrap();
    dir
}

#[test]
fn a_stress_of_the_package_finds_the_wrong_solution_it_names() {
    let dir = queries_with_a_stress();
    let out = with_shared_cache(dir.path())
        .args(["stress", "--polygon-stress", "1"])
        .run()
        .code(1);
    assert_contains(
        &out.stderr(),
        "stress 1 (stresses/001): solutions/off_by_one.cpp against the main solution",
    );
    let stdout = out.stdout();
    assert_contains(&stdout, "FAILED on seed");
    // The counterexample, and a replay naming the stress's script as the generator and the
    // stress file's limits (2000 ms, 256 MiB; the package's own time limit is 1000 ms).
    assert_contains(&stdout, "case (");
    assert_contains(&stdout, "actual:");
    assert_contains(&stdout, "--generator 'gen 5 mixed'");
    assert_contains(
        &stdout,
        "--time-limit 2000 --memory-limit 256 -- solutions/off_by_one.cpp",
    );
    let ranged = with_shared_cache(dir.path())
        .args(["stress", "--polygon-stress", "2"])
        .run()
        .code(2);
    assert_contains(&ranged.stderr(), "stress 2 cannot be run: ");
    assert_contains(
        &ranged.stderr(),
        "stresses/002: scriptPattern \"gen [1..10] mixed\": duipai does not expand Polygon's",
    );
    let missing = with_shared_cache(dir.path())
        .args(["stress", "--polygon-stress", "3"])
        .run()
        .code(2);
    assert_contains(
        &missing.stderr(),
        "the package has no stress 3 (its stresses: 1, 2)",
    );
}

/// The `queries` package with stress 1 as `json` says, and the line of its `<stress>` in
/// `problem.xml`.
fn queries_with_stress_file(json: &str) -> (tempfile::TempDir, usize) {
    let dir = queries_with_a_stress();
    std::fs::write(dir.path().join("stresses/001"), json).unwrap();
    let xml = std::fs::read_to_string(dir.path().join("problem.xml")).unwrap();
    let line = xml
        .lines()
        .position(|l| l.contains("<stress index=\"1\""))
        .expect("the <stress> written above")
        + 1;
    (dir, line)
}

#[test]
fn hunt_takes_a_stress_of_the_package_with_its_generator_and_limits() {
    // `gen 3 mixed` is no test's cmd (those are `gen 20 mixed`, `gen 10 quiet`); the stress's
    // limits (2500 ms, 60 s in all) are not the package's (1000 ms).
    let (dir, line) = queries_with_stress_file(
        r#"{"index":1,"scriptPattern":"gen 3 mixed","inputFile":"stdin","outputFile":"stdout","memoryLimit":256,"timeLimit":2500,"totalTimeLimit":60000,"solutionNames":["main.cpp","off_by_one.cpp"]}"#,
    );
    let d = dir.path();
    let out = with_shared_cache(d)
        .args([
            "hunt",
            "solutions/off_by_one.cpp",
            "--polygon-stress",
            "1",
            "--shrink-time",
            "5",
        ])
        .run()
        .success();
    let stdout = out.stdout();
    assert_contains(
        &stdout,
        "with the generator of stress 1 (gen 3 mixed) and new seeds from 1000001 (at most 60 s)",
    );
    assert_contains(
        &stdout,
        &format!("  line {line}: gen 3 mixed with seeds from 1000001"),
    );
    assert_contains(&stdout, "caught: WA");
    assert_contains(
        &stdout,
        &format!("on a case of line {line} (gen 3 mixed), seed"),
    );
    // The slow hunt runs under the stress's time limit; a typed --time wins over its total.
    let out = with_shared_cache(d)
        .args([
            "hunt",
            "solutions/off_by_one.cpp",
            "--polygon-stress",
            "1",
            "--slow",
            "--runs",
            "2",
            "--time",
            "30",
        ])
        .run()
        .code(1);
    assert_contains(&out.stdout(), "(time limit 2.500 s, runs stopped at");
    assert_contains(
        &out.stdout(),
        "with the generator of stress 1 (gen 3 mixed) and new seeds, then mutations (at most 30 s)",
    );
    let out = with_shared_cache(d)
        .args(["hunt", "solutions/off_by_one.cpp", "--polygon-stress", "3"])
        .run()
        .code(2);
    assert_contains(
        &out.stderr(),
        "the package has no stress 3 (its stresses: 1, 2)",
    );
}

#[test]
fn a_stress_on_files_is_refused_at_its_input_file() {
    let (dir, _) = queries_with_stress_file(
        "{\"index\":1,\"scriptPattern\":\"gen 3 mixed\",\n \"inputFile\":\"in.txt\",\"outputFile\":\"out.txt\",\"memoryLimit\":256,\"timeLimit\":2500,\"totalTimeLimit\":60000,\"solutionNames\":[\"main.cpp\",\"off_by_one.cpp\"]}",
    );
    let refused = "stresses/001:2:2: stress 1 runs its solutions on files (inputFile \"in.txt\", \
                   outputFile \"out.txt\"): duipai runs the main solution, the reference, on \
                   stdin and stdout, so it cannot run this stress";
    let out = with_shared_cache(dir.path())
        .args(["stress", "--polygon-stress", "1"])
        .run()
        .code(2);
    assert_contains(&out.stderr(), refused);
    let out = with_shared_cache(dir.path())
        .args(["hunt", "solutions/off_by_one.cpp", "--polygon-stress", "1"])
        .run()
        .code(2);
    assert_contains(&out.stderr(), refused);
    // The package is judged as before: only the stress is refused.
    with_shared_cache(dir.path())
        .args(["validate"])
        .run()
        .success();
}

#[test]
fn a_package_whose_solutions_use_files_is_refused_where_they_would_run() {
    let dir = queries(false);
    let d = dir.path();
    let xml = d.join("problem.xml");
    let text = std::fs::read_to_string(&xml)
        .unwrap()
        .replace("input-file=\"\"", "input-file=\"input.txt\"")
        .replace("output-file=\"\"", "output-file=\"output.txt\"");
    std::fs::write(&xml, &text).unwrap();
    // The position of <judging>, counted here from the text itself.
    let offset = text.find("<judging").unwrap();
    let line = text[..offset].matches('\n').count() + 1;
    let column = offset - text[..offset].rfind('\n').map_or(0, |at| at + 1) + 1;
    let refused = format!(
        "problem.xml:{line}:{column}: the package's solutions read \"input.txt\" and write \
         \"output.txt\""
    );
    for command in [
        vec!["judge"],
        vec!["test"],
        vec!["stress", "--time", "5"],
        vec!["pack", "--layout", "icpc", "--out", "icpc"],
    ] {
        let out = with_shared_cache(d).args(&command).run().code(2);
        assert_contains(&out.stderr(), &refused);
    }
    assert!(!d.join("icpc").exists(), "a refused pack writes nothing");
    // Its validator and generators do not run the solutions: still served.
    with_shared_cache(d).args(["validate"]).run().success();
}
