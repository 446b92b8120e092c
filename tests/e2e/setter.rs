//! A setter's own problem, defined by its folder's `duipai.toml` (`examples/rangesum`:
//! a Python and a C++ generator, a testlib validator, a reference, hand-made and invalid
//! inputs): `gen`, `validate`, `solve`, `test --validate` and `pack` take it as they take a
//! built-in name; plans with groups, `gen` and `copy` lines; every input validated before
//! anything is written; the ICPC package's wrapped programs; edits kept safe.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use crate::util::{Duipai, assert_contains, problem_folder, with_shared_cache};

/// duipai in the problem folder `dir`, with the build cache the setter tests share (the
/// testlib validator takes seconds to compile).
fn duipai(dir: &Path) -> Duipai {
    with_shared_cache(dir)
}

/// Every file below `dir`, relative, with its content.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            let rel = entry.path().strip_prefix(dir).unwrap();
            files.insert(
                rel.display().to_string(),
                std::fs::read(entry.path()).unwrap(),
            );
        }
    }
    files
}

/// A shell command's stdout, run in `dir`; it must succeed.
fn sh(dir: &Path, command: &str) -> Vec<u8> {
    let out = Command::new("sh")
        .args(["-c", command])
        .current_dir(dir)
        .env("PATH", path_with_duipai())
        .output()
        .unwrap();
    assert!(out.status.success(), "{command}: {out:?}");
    out.stdout
}

/// PATH with the directory of the duipai binary first, so that the manifest's commands run.
fn path_with_duipai() -> std::ffi::OsString {
    let bin = crate::util::duipai().parent().unwrap().to_path_buf();
    let mut paths = vec![bin];
    paths.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(paths).unwrap()
}

#[test]
fn gen_validate_and_solve_take_the_folders_problem() {
    let dir = problem_folder("examples/rangesum", None);
    let d = dir.path();
    // The generator gets the arguments, then the seed, as stress passes it.
    let out = duipai(d)
        .args(["gen", "10", "10", "--seed", "3"])
        .run()
        .success();
    let direct = Command::new("python3")
        .env("PATH", crate::util::path_without_shims())
        .args(["gen.py", "10", "10", "3"])
        .current_dir(d)
        .output()
        .unwrap();
    assert_eq!(out.stdout(), String::from_utf8_lossy(&direct.stdout));
    assert_contains(
        &out.stderr(),
        "settings from duipai.toml: problem, generator",
    );
    // A named generator, and words starting with - after `--`.
    let big = duipai(d)
        .args([
            "gen",
            "--generator",
            "big",
            "--seed",
            "9",
            "--",
            "3",
            "2",
            "5",
        ])
        .run()
        .success()
        .stdout();
    assert!(big.starts_with("3 2\n"), "{big}");

    // The validator: exit 0 valid, anything else invalid with its message; exit 1 if any is.
    let out = duipai(d)
        .args([
            "validate",
            "samples/1.in",
            "invalid/l_after_r.in",
            "--coverage",
        ])
        .run()
        .code(1);
    let text = out.stdout();
    assert_contains(&text, "samples/1.in: ok\n");
    assert_contains(
        &text,
        "invalid/l_after_r.in: invalid: FAIL Integer parameter [name=r]",
    );
    // A testlib validator's test overview log says which named bounds were reached.
    assert_contains(
        &text,
        "coverage of 1 valid file (the testlib validator's named bounds):",
    );
    assert_contains(&text, "BOUND NOT REACHED: min, max");

    let answer = duipai(d).args(["solve", "samples/1.in"]).run().success();
    assert_eq!(answer.stdout(), "1\n1\n4\n");
}

#[test]
fn test_validate_checks_every_input_before_judging() {
    let dir = problem_folder("examples/rangesum", None);
    let d = dir.path();
    std::fs::create_dir(d.join("hand")).unwrap();
    std::fs::write(d.join("hand/1.in"), "2 1\n1 2\n1 2\n").unwrap();
    std::fs::write(d.join("hand/2.in"), "2 1\n1 2\n2 1\n").unwrap();
    // A query missing: the reference would fail on it, but the validator is asked first.
    std::fs::write(d.join("hand/3.in"), "2 1\n1 2\n").unwrap();
    let out = duipai(d)
        .args([
            "test",
            "hand",
            "--validate",
            "--reference",
            "submissions/accepted/sol.py",
        ])
        .program(["submissions/accepted/sol.py"])
        .run()
        .code(2);
    let err = out.stderr();
    assert_contains(&err, "2 of 3 inputs are not valid; nothing was judged:");
    assert_contains(&err, "2.in: FAIL Integer parameter [name=r] equals to 1");
    assert_contains(&err, "3.in: FAIL");
    assert!(!err.contains("the reference"), "{err}");
    std::fs::remove_file(d.join("hand/2.in")).unwrap();
    std::fs::remove_file(d.join("hand/3.in")).unwrap();
    let out = duipai(d)
        .args(["test", "hand", "--validate"])
        .program(["submissions/accepted/sol.py"])
        .run()
        .success();
    assert_contains(&out.stderr(), "the validator accepts all 1 input");
}

#[test]
fn plain_pack_follows_the_plan_and_its_manifest_makes_every_file_again() {
    let dir = problem_folder("examples/rangesum", None);
    let d = dir.path();
    // The folder's plan (found by its name in duipai.toml), cut to one line of each kind: a
    // copied sample, the Python generator, the C++ one at both ends of n, a hand-made test.
    let plan = "group sample\ncopy samples/1.in\ngroup secret\ngen rangesum 3 3 --seed 1\n\
                gen rangesum --generator big 1 1 1000000000 --seed 5\n\
                gen rangesum --generator big 200000 200000 1000000000 full --seed 8\n\
                copy extremes.in\n";
    std::fs::write(d.join("tests.plan"), plan).unwrap();
    let out = duipai(d)
        .args(["pack", "--out", "pack", "--layout", "plain"])
        .run()
        .success();
    let err = out.stderr();
    // The hand-made test reaches the values' ends, the generators the others.
    assert_contains(
        &err,
        "the tests reach both ends of every bound the validator names: a_i, l, n, q, r",
    );
    assert_contains(&err, "wrote 10 files (5 tests) and manifest.txt to pack");
    let files = tree(&d.join("pack"));
    assert!(files.contains_key("sample/1.in") && files.contains_key("4.ans"));
    assert_eq!(files["sample/1.ans"], b"1\n1\n4\n");
    // Every row's command, run in the problem's folder, makes the file again.
    let manifest = String::from_utf8(files["manifest.txt"].clone()).unwrap();
    let rows: Vec<&str> = manifest.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(rows.len(), 10);
    for row in rows {
        let cols: Vec<&str> = row.split('\t').collect();
        let (file, command, hash) = (cols[0], cols[3], cols[4]);
        assert_eq!(sh(d, command), files[file], "{file}: {command}");
        assert!(hash.starts_with("sha256:"), "{row}");
    }
}

#[test]
fn inputs_are_validated_before_anything_is_written_and_suspicious_lines_warned_about() {
    let dir = problem_folder("examples/rangesum", None);
    let d = dir.path();
    // A generator that ignores its seed, and one that breaks the constraints.
    std::fs::write(
        d.join("fixed.py"),
        "import sys\nprint('2 1')\nprint('5 7')\nprint(sys.argv[1], '2')\n",
    )
    .unwrap();
    let plan = "gen rangesum 5 5 --seed 1\n\
                gen rangesum --generator fixed 1 --seed 2\n\
                gen rangesum 5 5 --seed 1\n";
    std::fs::write(d.join("warn.plan"), plan).unwrap();
    let named = ["--named-generator", "fixed=python3 fixed.py"];
    let out = duipai(d)
        .args(["pack", "--out", "w", "--plan", "warn.plan"])
        .args(named)
        .run()
        .success();
    let err = out.stderr();
    assert_contains(
        &err,
        "warning: warn.plan:2: the generator prints the same input for seed 2 and seed 3: the \
         line's input does not depend on its seed",
    );
    assert_contains(
        &err,
        "warning: warn.plan:3: the same input as line 1: the test is there twice",
    );

    // Line 2 now makes `1 2` queries with l = 3 > n: invalid. Nothing is written.
    std::fs::write(d.join("bad.plan"), plan.replace("fixed 1", "fixed 3")).unwrap();
    let out = duipai(d)
        .args(["pack", "--out", "b", "--plan", "bad.plan"])
        .args(named)
        .run()
        .code(2);
    let err = out.stderr();
    assert_contains(&err, "1 test failed the checks, so nothing was written:");
    assert_contains(
        &err,
        "bad.plan:2: the input is invalid: FAIL Integer parameter [name=l]",
    );
    assert!(!d.join("b").exists());

    // A plan error names its line before anything runs.
    std::fs::write(d.join("typo.plan"), "gen rangesum 5 --sed 1\n").unwrap();
    let out = duipai(d)
        .args(["pack", "--out", "t", "--plan", "typo.plan"])
        .run()
        .code(2);
    assert_contains(&out.stderr(), "typo.plan:1: the line has no --seed N");
}

#[test]
fn noi_pack_writes_the_subtasks_and_the_samples_for_contestants() {
    let dir = problem_folder("examples/rangesum", None);
    let d = dir.path();
    let plan = "group sample\ncopy samples/1.in\n\
                group small --score 40\ngen rangesum 5 5 --seed 1\ngen rangesum 9 9 --seed 2\n\
                group large --score 60\ngen rangesum --generator big 1000 1000 9 --seed 3\n";
    std::fs::write(d.join("noi.plan"), plan).unwrap();
    duipai(d)
        .args([
            "pack", "--out", "noi", "--layout", "noi", "--plan", "noi.plan",
        ])
        .run()
        .success();
    let files = tree(&d.join("noi"));
    for name in ["down/rangesum1.in", "rangesum1.in", "rangesum3.ans"] {
        assert!(files.contains_key(name), "{name}: {:?}", files.keys());
    }
    assert_eq!(
        String::from_utf8_lossy(&files["subtasks.txt"]),
        "# subtask\tscore\ttests\nsmall\t40\trangesum1.in rangesum2.in\nlarge\t60\trangesum3.in\n"
    );
}

#[test]
fn a_hand_edited_test_is_never_overwritten_unless_asked() {
    let dir = problem_folder("examples/rangesum", None);
    let d = dir.path();
    std::fs::write(
        d.join("p.plan"),
        "gen rangesum 5 5 --seed 1\ngen rangesum 5 5 --seed 2\n",
    )
    .unwrap();
    let pack = ["pack", "--out", "p", "--plan", "p.plan", "--force"];
    duipai(d).args(pack).run().success();
    std::fs::write(d.join("p/2.in"), "1 1\n7\n1 1\n").unwrap();
    let out = duipai(d).args(pack).run().code(2);
    assert_contains(
        &out.stderr(),
        "2.in was edited by hand since the last pack (not what manifest.txt records for it), \
         and packing again would replace or remove it: keep a hand-made test with a plan line \
         `copy PATH` instead, or pass --overwrite-edited",
    );
    assert_eq!(std::fs::read(d.join("p/2.in")).unwrap(), b"1 1\n7\n1 1\n");
    duipai(d)
        .args(pack)
        .arg("--overwrite-edited")
        .run()
        .success();
    assert_ne!(std::fs::read(d.join("p/2.in")).unwrap(), b"1 1\n7\n1 1\n");
}

/// Runs the program folder `dir`'s `build`, as the format's tools do. The `g++` it finds first
/// is the real one at -O0 (the last level given winning), with a cache keyed by its
/// arguments, its version and the folder's sources: what is checked is that the script builds
/// a program that works, and testlib's sources take seconds to compile. A script that
/// changes, or sources that do, miss the cache and are compiled.
fn build(dir: &Path) {
    let real = std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|d| d.join("g++"))
        .find(|p| p.is_file())
        .expect("g++ in PATH");
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("package-builds");
    std::fs::create_dir_all(&cache).unwrap();
    let wrapper = tempfile::tempdir().unwrap();
    let script = format!(
        r#"real='{real}'
out=; prev=
for a in "$@"; do [ "$prev" = -o ] && out=$a; prev=$a; done
[ -n "$out" ] || exec "$real" "$@" -O0
key=$( {{ printf '%s\n' "$@"; "$real" --version; cat ./*.cpp ./*.h 2>/dev/null; }} | sha256sum | cut -c1-64)
cached='{cache}'/$key
if [ -f "$cached" ]; then exec cp "$cached" "$out"; fi
"$real" "$@" -O0 || exit $?
cp "$out" "$cached.$$" && mv "$cached.$$" "$cached""#,
        real = real.display(),
        cache = cache.display(),
    );
    let gxx = crate::util::write_sh(wrapper.path(), "g++", &script);
    crate::util::wait_until_executable(&gxx);
    let mut path = vec![wrapper.path().to_path_buf()];
    path.extend(std::env::split_paths(&std::env::var_os("PATH").unwrap()));
    let status = Command::new(dir.join("build"))
        .env("PATH", std::env::join_paths(path).unwrap())
        .status()
        .unwrap();
    assert!(status.success(), "{}/build", dir.display());
}

/// Runs the program folder's `run` with `args` and `stdin`: (exit code, stdout).
fn run_program(dir: &Path, args: &[&str], stdin: &[u8]) -> (i32, Vec<u8>) {
    use std::io::Write;
    let mut child = Command::new(dir.join("run"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let out = child.wait_with_output().unwrap();
    (out.status.code().unwrap_or(-1), out.stdout)
}

#[test]
fn the_icpc_package_carries_the_setters_programs_as_the_format_calls_them() {
    let dir = problem_folder("examples/rangesum", None);
    let d = dir.path();
    let out = duipai(d)
        .args(["pack", "--out", "rangesum", "--layout", "icpc"])
        .run()
        .success();
    assert_contains(&out.stderr(), "ICPC package format 2025-09");
    let p = d.join("rangesum");
    let files = tree(&p);
    for name in [
        "input_validators/validator/validator.cpp",
        "input_validators/validator/testlib.h",
        "generators/gen/gen.py",
        "generators/big/gen_big.cpp",
        "generators/manual/sample-01.in",
        "generators/manual/sample-01.ans",
        "data/invalid_input/leading_space.in",
        "submissions/accepted/sol.cpp",
        "submissions/time_limit_exceeded/naive.cpp",
        "answer_validators/reference/sol.cpp",
        "statement/problem.en.tex",
    ] {
        assert!(files.contains_key(name), "{name}");
    }
    // generators.yaml gives each test the generator, the arguments and the seed of its line.
    let yaml = String::from_utf8_lossy(&files["generators/generators.yaml"]).into_owned();
    assert_contains(&yaml, "solution: /submissions/accepted/sol.cpp\n");
    assert_contains(&yaml, "      '02': 'gen 10 10 2'\n");
    assert_contains(&yaml, "      '08': 'big 200000 200000 1000000000 full 8'\n");
    assert_contains(
        &yaml,
        "      'leading_space':\n        copy: invalid_input/leading_space\n",
    );
    // problem.yaml has the folder's limits; the statement's title is its name.
    let problem_yaml = String::from_utf8_lossy(&files["problem.yaml"]).into_owned();
    assert_contains(&problem_yaml, "name: rangesum\n");
    assert_contains(&problem_yaml, "limits:\n  time_limit: 2\n  memory: 256\n");

    // The validator, wrapped: exit 42 for a valid input, 43 for an invalid one.
    let validator = p.join("input_validators/validator");
    build(&validator);
    assert_eq!(
        run_program(&validator, &[], &files["data/secret/01.in"]).0,
        42
    );
    assert_eq!(
        run_program(&validator, &[], &files["data/invalid_input/l_after_r.in"]).0,
        43
    );
    // The answer validator accepts exactly the reference's output.
    let answers = p.join("answer_validators/reference");
    build(&answers);
    let input = p.join("data/secret/02.in");
    let answer = &files["data/secret/02.ans"];
    let input_arg = [input.to_str().unwrap()];
    assert_eq!(run_program(&answers, &input_arg, answer).0, 42);
    let mut spaced = answer.clone();
    spaced.insert(0, b' ');
    assert_eq!(run_program(&answers, &input_arg, &spaced).0, 43);
    // The generator, built by its script, prints what duipai wrote.
    let big = p.join("generators/big");
    build(&big);
    let (code, input) = run_program(&big, &["1", "1", "1000000000", "5"], b"");
    assert_eq!((code, input), (0, files["data/secret/05.in"].clone()));

    // A limit the setter sets by hand is kept on every pack.
    let edited = problem_yaml.replace("time_limit: 2\n", "time_limit: 3  # I want 3 s\n");
    std::fs::write(p.join("problem.yaml"), &edited).unwrap();
    std::fs::write(
        p.join("statement/problem.en.tex"),
        "\\problemname{rangesum}\nMine.\n",
    )
    .unwrap();
    let out = duipai(d)
        .args(["pack", "--out", "rangesum", "--layout", "icpc", "--force"])
        .run()
        .success();
    assert_eq!(
        std::fs::read_to_string(p.join("problem.yaml")).unwrap(),
        edited
    );
    assert_contains(
        &out.stderr(),
        "problem.yaml: kept limits.time_limit 3, not duipai's 2",
    );
    assert_eq!(
        std::fs::read_to_string(p.join("statement/problem.en.tex")).unwrap(),
        "\\problemname{rangesum}\nMine.\n"
    );
}

#[test]
fn a_testlib_checker_becomes_the_output_validator() {
    let dir = problem_folder("tests/support/rangemax", Some("examples/rangesum"));
    let d = dir.path();
    duipai(d)
        .args(["pack", "--out", "rangemax", "--layout", "icpc"])
        .run()
        .success();
    let p = d.join("rangemax");
    let checker = p.join("output_validator");
    assert!(checker.join("checker.cpp").is_file() && checker.join("testlib.h").is_file());
    build(&checker);
    let input = p.join("data/sample/01.in");
    let answer = p.join("data/sample/01.ans");
    assert_eq!(std::fs::read_to_string(&answer).unwrap(), "1\n3\n4\n");
    let feedback = tempfile::tempdir().unwrap();
    let args = [
        input.to_str().unwrap(),
        answer.to_str().unwrap(),
        feedback.path().to_str().unwrap(),
    ];
    // Another largest value's index is right, a smaller one's is not.
    assert_eq!(run_program(&checker, &args, b"5\n3\n4\n").0, 42);
    assert_eq!(run_program(&checker, &args, b"2\n3\n4\n").0, 43);
    let message = std::fs::read_to_string(feedback.path().join("judgemessage.txt")).unwrap();
    assert_contains(&message, "query 1: a[2] = 1 is not the largest");
}

/// The JSON summary `duipai judge --json` prints (followed by an error's object when the
/// run then fails).
fn judge_json(out: &crate::util::Ran) -> serde_json::Value {
    let stdout = out.stdout();
    let line = stdout
        .lines()
        .find(|l| l.contains("\"tests\":"))
        .unwrap_or_default();
    serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

/// The verdicts of one submission in a judge summary, as letters.
fn verdicts(summary: &serde_json::Value, submission: &str) -> Vec<String> {
    let row = summary["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == submission)
        .unwrap_or_else(|| panic!("no {submission} in {summary}"));
    row["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["verdict"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn judge_runs_every_submission_on_every_test_and_checks_what_its_folder_expects() {
    let dir = problem_folder("examples/rangesum", None);
    let d = dir.path();
    // The real programs on a short plan under a short limit: the sample, sums beyond 32 bits,
    // more values than the fixed array holds, and one test the naive submission spends
    // seconds on (stopped at 1 s × 1.5 × 1.05). How the matrix and the limit follow from
    // the runs' times is model matrix's, on a scripted runner.
    let toml = std::fs::read_to_string(d.join("duipai.toml")).unwrap();
    let toml = toml.replace("time-limit = \"2s\"", "time-limit = \"1s\"");
    std::fs::write(d.join("duipai.toml"), toml).unwrap();
    let plan = "group sample\ncopy samples/1.in\ngroup secret\ngen rangesum 10 10 --seed 2\n\
                gen rangesum --generator big 2000 2000 1000000000 --seed 6\n\
                gen rangesum --generator big 100000 100000 1000000000 full --seed 8\n";
    std::fs::write(d.join("short.plan"), plan).unwrap();
    let out = duipai(d)
        .args([
            "judge",
            "--plan",
            "short.plan",
            "--json",
            "--junit",
            "judge.xml",
            "--html",
            "judge.html",
        ])
        .run()
        .success();
    let summary = judge_json(&out);
    assert_eq!(summary["status"], "ok");
    let tests = summary["tests"].as_array().unwrap().len();
    assert_eq!(tests, 4);
    assert_eq!(verdicts(&summary, "accepted/sol.cpp"), vec!["AC"; tests]);
    assert_eq!(verdicts(&summary, "accepted/sol.py"), vec!["AC"; tests]);
    // 32-bit sums are wrong exactly where the sums leave that range: the largest tests.
    let wrong = verdicts(&summary, "wrong_answer/int_sums.cpp");
    assert!(wrong.contains(&"WA".to_string()) && wrong.iter().all(|v| v == "WA" || v == "AC"));
    let slow = verdicts(&summary, "time_limit_exceeded/naive.cpp");
    assert_eq!(slow, ["AC", "AC", "AC", "TLE"]);
    let crash = verdicts(&summary, "run_time_error/fixed_array.cpp");
    assert_eq!(crash, ["AC", "AC", "RTE", "RTE"]);
    // The naive run was stopped by the runner near the cap, 1 s × 1.5 × 1.05.
    let upper = &summary["upper_bound"];
    let stopped = upper["cpu_ms"].as_u64().unwrap();
    assert!((1575..1575 + 500).contains(&stopped), "{upper}");
    // The limit in force is the folder's; the format's rule: the slowest accepted run × 2,
    // rounded up to whole seconds, that run being the fastest of the three times it was
    // measured.
    assert_eq!(summary["time_limit_ms"], 1000);
    let lower = &summary["lower_bound"];
    let cpu = lower["cpu_ms"].as_u64().unwrap();
    let measured: Vec<u64> = lower["measured_ms"]
        .as_array()
        .unwrap_or_else(|| panic!("{lower}"))
        .iter()
        .map(|t| t.as_u64().unwrap())
        .collect();
    assert_eq!(measured.iter().min(), Some(&cpu), "{lower}");
    // Three measurements, and two more when the first three were more than 10% (and 20 ms)
    // apart (give or take the milliseconds the JSON rounds to).
    let apart = |times: &[u64], margin: f64| {
        let (low, high) = (times.iter().min().unwrap(), times.iter().max().unwrap());
        let (low, high) = (*low as f64, *high as f64);
        high - low > (0.10 + margin) * low && high - low > 20.0 + margin * 100.0
    };
    match measured.len() {
        3 => assert!(!apart(&measured, 0.01), "{lower}"),
        5 => assert!(apart(&measured[..3], -0.01), "{lower}"),
        n => panic!("{n} measurements: {lower}"),
    }
    let spread = lower["spread"].as_f64().unwrap();
    let (low, high) = (
        measured.iter().min().unwrap(),
        measured.iter().max().unwrap(),
    );
    assert!(
        (spread - (high - low) as f64 / *low as f64).abs() < 0.01,
        "{lower}"
    );
    let derived = summary["derived_time_limit_ms"].as_u64().unwrap();
    assert_eq!(derived, (2 * cpu).div_ceil(1000).max(1) * 1000);
    assert_eq!(
        summary["upper_bound"]["submission"],
        "time_limit_exceeded/naive.cpp"
    );
    let human = out.stderr();
    assert_contains(&human, "time limit 1 s (duipai.toml or --time-limit)");
    assert_contains(&human, &format!("; fastest of {} runs: ", measured.len()));
    assert_contains(&human, "every submission got what its folder expects");
    let junit = std::fs::read_to_string(d.join("judge.xml")).unwrap();
    assert_contains(&junit, "accepted/sol.cpp");
    let html = std::fs::read_to_string(d.join("judge.html")).unwrap();
    assert!(
        html.starts_with("<!DOCTYPE html>") && html.contains("<svg"),
        "{html}"
    );
}

#[test]
fn a_wrong_submission_the_plan_misses_is_named_then_hunted_down_and_added() {
    let dir = problem_folder("examples/rangesum", None);
    let d = dir.path();
    // The small plan catches none of the other wrong submissions either: only this one stays,
    // beside the C++ reference (the Python one would only be judged again, at more cost).
    for folder in ["wrong_answer", "time_limit_exceeded", "run_time_error"] {
        std::fs::remove_dir_all(d.join("submissions").join(folder)).unwrap();
    }
    std::fs::remove_file(d.join("submissions/accepted/sol.py")).unwrap();
    std::fs::create_dir(d.join("submissions/wrong_answer")).unwrap();
    std::fs::copy(
        d.join("extra/one_value.cpp"),
        d.join("submissions/wrong_answer/one_value.cpp"),
    )
    .unwrap();
    let judge = ["judge", "--plan", "extra/small.plan"];
    let out = duipai(d).args(judge).run().code(1);
    assert_contains(
        &out.stdout(),
        "wrong_answer/one_value.cpp: AC on every test (wrong_answer expects WA on some test, \
         AC on the others)",
    );
    let out = duipai(d)
        .args(["hunt", "submissions/wrong_answer/one_value.cpp", "--add"])
        .args(["--plan", "extra/small.plan", "--time", "60"])
        .run()
        .success();
    let text = out.stdout();
    assert_contains(&text, "caught: WA");
    assert_contains(
        &text,
        "added to extra/small.plan: copy hunt/one_value.in  # catches \
         wrong_answer/one_value.cpp (WA), found by duipai hunt from line 2",
    );
    // The case is minimized: one value.
    let case = std::fs::read_to_string(d.join("extra/hunt/one_value.in")).unwrap();
    assert!(case.starts_with("1 "), "{case}");
    // With the test added, every submission gets what its folder expects.
    duipai(d).args(judge).run().success();
}

/// The naive submission's work on a rangesum input: the length of every query's range.
fn naive_work(input: &[u8]) -> i64 {
    let text = String::from_utf8_lossy(input);
    let mut tokens = text
        .split_ascii_whitespace()
        .map(|t| t.parse::<i64>().unwrap());
    let (n, q) = (tokens.next().unwrap(), tokens.next().unwrap());
    let mut queries = tokens.skip(n as usize);
    assert!(n > 0 && q > 0, "an input with n = {n}, q = {q}");
    (0..q)
        .map(|_| {
            let (l, r) = (queries.next().unwrap(), queries.next().unwrap());
            r + 1 - l
        })
        .sum()
}

#[test]
fn a_slow_submissions_slowest_input_is_found_within_the_runs_given() {
    let dir = problem_folder("examples/rangesum", None);
    let d = dir.path();
    let plan = "gen rangesum 3 3 --seed 5\n\
                gen rangesum --generator big 5000 5000 1000 --seed 1\n";
    std::fs::write(d.join("extra/slow.plan"), plan).unwrap();
    // A budget of runs rather than seconds, and a limit no input reaches: what is found does
    // not depend on how fast or busy the machine is.
    let out = duipai(d)
        .args(["hunt", "submissions/time_limit_exceeded/naive.cpp", "--add"])
        .args(["--plan", "extra/slow.plan", "--runs", "30", "--time", "600"])
        .args(["--time-limit", "10s"])
        .run()
        .code(1);
    let text = out.stdout();
    assert_contains(&text, "in 30 runs");
    assert_contains(&text, "it stays within the time limit 10.000 s");
    // Not caught: nothing goes into the plan, and the input is kept to look at.
    assert_eq!(
        std::fs::read_to_string(d.join("extra/slow.plan")).unwrap(),
        plan
    );
    let saved = "duipai-failures/rangesum-hunt-naive-slowest.in";
    assert_contains(&text, &format!("the slowest input: {saved}\n"));
    // The plan's random queries cover a quarter of the array on average; a column of the
    // queries set to its end (every l = 1, or every r = n), which the mutations reach, covers
    // half of it or more.
    let big = duipai(d)
        .args(["gen", "--generator", "big", "--seed", "1", "--"])
        .args(["5000", "5000", "1000"])
        .run()
        .success()
        .stdout();
    let found = std::fs::read(d.join(saved)).unwrap();
    let (plan_work, found_work) = (naive_work(big.as_bytes()), naive_work(&found));
    assert!(
        found_work >= 2 * plan_work,
        "the plan's slowest test: {plan_work} steps; the input found: {found_work}\n{text}"
    );
    duipai(d).args(["validate", saved]).run().success();
}

#[test]
fn the_derived_time_limit_is_written_only_when_asked() {
    let dir = problem_folder("examples/rangesum", None);
    let d = dir.path();
    let toml = std::fs::read_to_string(d.join("duipai.toml")).unwrap();
    std::fs::write(
        d.join("duipai.toml"),
        toml.replace("time-limit = \"2s\"\n", ""),
    )
    .unwrap();
    // The limit comes from the accepted submissions alone: the others, the slow one above
    // all, would only make the judgings longer; so would the plan's largest tests (how the
    // limit follows from the runs' times is model matrix's).
    for other in ["time_limit_exceeded", "run_time_error", "wrong_answer"] {
        std::fs::remove_dir_all(d.join("submissions").join(other)).unwrap();
    }
    // One accepted submission derives a limit as well as two (model matrix has the rule).
    std::fs::remove_file(d.join("submissions/accepted/sol.py")).unwrap();
    duipai(d)
        .args(["pack", "--out", "rangesum", "--layout", "icpc"])
        .args(["--plan", "extra/small.plan"])
        .run()
        .success();
    let yaml = d.join("rangesum/problem.yaml");
    let before = std::fs::read_to_string(&yaml).unwrap();
    assert!(!before.contains("time_limit"), "{before}");
    let out = duipai(d)
        .args(["judge", "rangesum", "--json"])
        .run()
        .success();
    let summary = judge_json(&out);
    assert_eq!(summary["time_limit_source"], "the format's rule");
    assert_eq!(summary["time_limit_ms"], summary["derived_time_limit_ms"]);
    assert_eq!(std::fs::read_to_string(&yaml).unwrap(), before);
    // Written only when the binding run's measurements agree and the machine was quiet;
    // refused, saying why, otherwise (this machine may be busy: either way is checked).
    let out = duipai(d)
        .args(["judge", "rangesum", "--write-time-limit", "--json"])
        .run();
    let summary = judge_json(&out);
    let unsteady = summary["unsteady"].as_array().unwrap();
    if unsteady.is_empty() {
        out.success();
    } else {
        // A refusal, as the docs say: exit 1, not an error's 2.
        let out = out.code(1);
        assert_contains(&out.stderr(), "not writing the time limit ");
        let why = unsteady[0].as_str().unwrap();
        assert_contains(&out.stderr(), why);
        assert_eq!(std::fs::read_to_string(&yaml).unwrap(), before);
        let busy = summary["machine"]["waiting"].as_f64().unwrap_or(0.0) > 0.25;
        let apart = summary["lower_bound"]["spread"].as_f64().unwrap() > 0.10;
        assert!(busy || apart || why.contains("load average"), "{summary}");
    }
    // What is written is what this judging derived (another judging's times may differ).
    let out = duipai(d)
        .args([
            "judge",
            "rangesum",
            "--write-time-limit",
            "--even-if-busy",
            "--json",
        ])
        .run()
        .success();
    let summary = judge_json(&out);
    let after = std::fs::read_to_string(&yaml).unwrap();
    let limit = summary["derived_time_limit_ms"].as_u64().unwrap() as f64 / 1000.0;
    assert_contains(&after, &format!("  time_limit: {limit}\n"));
}

#[test]
fn the_folders_statement_goes_into_the_package_and_a_package_is_one_problems() {
    let dir = problem_folder("examples/rangesum", None);
    let d = dir.path();
    std::fs::create_dir(d.join("statement")).unwrap();
    let tex = "\\problemname{rangesum}\nAdd them up.\n";
    std::fs::write(d.join("statement/problem.en.tex"), tex).unwrap();
    std::fs::write(d.join("statement/figure.txt"), "a figure\n").unwrap();
    let pack = [
        "pack",
        "--out",
        "p",
        "--layout",
        "icpc",
        "--plan",
        "extra/small.plan",
    ];
    duipai(d).args(pack).run().success();
    assert_eq!(
        std::fs::read_to_string(d.join("p/statement/problem.en.tex")).unwrap(),
        tex
    );
    assert!(d.join("p/statement/figure.txt").is_file());
    // Another problem's ICPC package does not go into the same folder.
    let out = duipai(d)
        .args([
            "--config",
            "/dev/null",
            "pack",
            "chess",
            "--out",
            "p",
            "--layout",
            "icpc",
        ])
        .arg("--force")
        .run()
        .code(2);
    assert_contains(
        &out.stderr(),
        "p holds the rangesum pack (icpc layout) (manifest.txt lists it): an ICPC package is \
         one problem's; write the chess pack (icpc layout) into another folder",
    );
}

#[test]
fn stress_runs_the_folders_generator_validator_and_reference() {
    let dir = problem_folder("examples/rangesum", None);
    let d = dir.path();
    // Minimizing through the folder's validator, not what is tested here (the minimize and
    // choices modules test it), gets a second, a few steps of the text (given no time for a
    // step, no "minimized in" line is printed): by default it takes half a minute, and
    // recording gen.py's choices first takes most of a second on a busy machine.
    let out = duipai(d)
        .args([
            "stress",
            "--iterations",
            "30",
            "--shrink-time",
            "1",
            "--no-choices",
        ])
        .program(["submissions/wrong_answer/int_sums.cpp"])
        .run()
        .code(1);
    // Sums of ten values of up to 10^9 leave 32 bits.
    assert_contains(&out.stdout(), "stressing int_sums.cpp on rangesum");
    assert_contains(&out.stdout(), "FAILED on seed");
    assert_contains(&out.stdout(), "minimized in ");
    // A Python submission passes the folder's generator, validator and reference: a few
    // cases say so (each is a Python start, 0.1 s or more here).
    duipai(d)
        .args(["stress", "--iterations", "4", "--no-replay"])
        .program(["submissions/accepted/sol.py"])
        .run()
        .success();
}
