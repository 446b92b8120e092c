//! Packs for other judges (`--layout hydro|uoj|lemon|luogu|cms|domjudge`), each on a built-in
//! game and on a problem of one's own: the Polygon package `maxpair` of
//! `tests/support/polygon/` (two scored subtasks, one complete, one scored test by test, the
//! second depending on the first, a testlib checker) or `sumpair` (no groups).

use std::io::Read;
use std::path::Path;

use crate::util::{Duipai, copy_tree, require, with_shared_cache};

/// A scratch copy of the Polygon package `name` with `testlib.h` in its `files/`.
fn package(name: &str) -> tempfile::TempDir {
    require(&["g++"]);
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

fn read(path: impl AsRef<Path>) -> String {
    std::fs::read_to_string(path.as_ref())
        .unwrap_or_else(|e| panic!("{}: {e}", path.as_ref().display()))
}

/// The names and contents of a zip's files.
fn unzip(path: &Path) -> Vec<(String, Vec<u8>)> {
    let mut archive = zip::ZipArchive::new(std::fs::File::open(path).unwrap()).unwrap();
    (0..archive.len())
        .map(|i| {
            let mut file = archive.by_index(i).unwrap();
            let mut content = Vec::new();
            file.read_to_end(&mut content).unwrap();
            (file.name().unwrap().to_string(), content)
        })
        .collect()
}

/// `duipai pack` of a built-in game into `out` below `dir`.
fn pack_game(dir: &Path, game: &str, layout: &str) {
    Duipai::in_dir(dir)
        .args(["pack", game, "--out", layout, "--layout", layout])
        .run()
        .success();
}

#[test]
fn hydro_gets_config_yaml_with_subtasks_and_the_testlib_checker() {
    let dir = package("maxpair");
    let d = dir.path();
    with_shared_cache(d)
        .args(["pack", "--out", "hydro", "--layout", "hydro"])
        .run()
        .success();
    let cases = |range: std::ops::RangeInclusive<u32>| {
        range
            .map(|i| format!("      - input: '{i}.in'\n        output: '{i}.ans'\n"))
            .collect::<String>()
    };
    let expected = format!(
        "type: default\ntime: 2000ms\nmemory: 64m\nchecker_type: testlib\nchecker: checker.cpp\n\
         subtasks:\n  - id: 1\n    score: 40\n    type: min\n    cases:\n{}  - id: 2\n    \
         score: 60\n    type: sum\n    if: [1]\n    cases:\n{}",
        cases(1..=3),
        cases(4..=6)
    );
    assert_eq!(read(d.join("hydro/config.yaml")), expected);
    assert_eq!(
        read(d.join("hydro/checker.cpp")),
        read(d.join("files/check.cpp"))
    );
    // The samples are not judged, but kept for the statement.
    assert_eq!(read(d.join("hydro/sample1.in")), "3 5\n");
    assert!(d.join("hydro/6.ans").is_file() && !d.join("hydro/7.in").exists());

    let game = tempfile::tempdir().unwrap();
    pack_game(game.path(), "shooting", "hydro");
    let config = read(game.path().join("hydro/config.yaml"));
    // Real answers: duipai's std::rcmp6.cpp, every test its share of 100 points.
    assert!(config.starts_with("type: default\ntime: 1000ms\nmemory: 128m\nchecker_type: testlib\nchecker: checker.cpp\nsubtasks:\n  - id: 1\n    score: 100\n    type: sum\n"), "{config}");
    assert_eq!(config.matches("      - input: ").count(), 22);
    assert!(read(game.path().join("hydro/checker.cpp")).contains("duipai's std::rcmp6.cpp"));
}

#[test]
fn uoj_gets_problem_conf_with_subtask_ends_scores_and_dependencies() {
    let dir = package("maxpair");
    let d = dir.path();
    let out = with_shared_cache(d)
        .args(["pack", "--out", "uoj", "--layout", "uoj"])
        .run()
        .code(2);
    // UOJ's judger refuses a dependency of a subtask scored test by test.
    assert!(
        out.stderr()
            .contains("UOJ has no dependencies for a subtask scored test by test (subtask large)"),
        "{}",
        out.stderr()
    );
    let xml = read(d.join("problem.xml"));
    std::fs::write(
        d.join("problem.xml"),
        xml.replace(
            "points-policy=\"each-test\">",
            "points-policy=\"complete-group\" points=\"60\">",
        ),
    )
    .unwrap();
    with_shared_cache(d)
        .args(["pack", "--out", "uoj", "--layout", "uoj"])
        .run()
        .success();
    assert_eq!(
        read(d.join("uoj/problem.conf")),
        "use_builtin_judger on\nn_tests 6\nn_ex_tests 1\nn_sample_tests 1\n\
         input_pre maxpair\ninput_suf in\noutput_pre maxpair\noutput_suf out\ntime_limit 2\n\
         memory_limit 64\noutput_limit 64\nn_subtasks 2\nsubtask_end_1 3\nsubtask_score_1 40\n\
         subtask_type_1 packed\nsubtask_end_2 6\nsubtask_score_2 60\nsubtask_type_2 packed\n\
         subtask_dependence_2 1\n"
    );
    assert_eq!(read(d.join("uoj/chk.cpp")), read(d.join("files/check.cpp")));
    assert_eq!(read(d.join("uoj/ex_maxpair1.in")), "3 5\n");
    assert!(d.join("uoj/maxpair6.out").is_file());

    let game = tempfile::tempdir().unwrap();
    pack_game(game.path(), "chess", "uoj");
    let conf = read(game.path().join("uoj/problem.conf"));
    assert!(
        conf.starts_with("use_builtin_judger on\nuse_builtin_checker ncmp\nn_tests 30\n"),
        "{conf}"
    );
    assert!(!conf.contains("n_subtasks"), "{conf}");
    assert!(game.path().join("uoj/chess30.out").is_file());
}

#[test]
fn lemon_gets_its_contest_file_with_scored_test_cases() {
    let dir = package("maxpair");
    let d = dir.path();
    with_shared_cache(d)
        .args(["pack", "--out", "lemon", "--layout", "lemon"])
        .run()
        .success();
    let cdf: serde_json::Value = serde_json::from_str(&read(d.join("lemon/maxpair.cdf"))).unwrap();
    let task = &cdf["tasks"][0];
    assert_eq!(task["comparisonMode"], 4);
    assert_eq!(task["specialJudge"], "maxpair/checker");
    let cases = task["testCases"].as_array().unwrap();
    // small: one test case of its three inputs, all or nothing; large: a case a test.
    let scores: Vec<u64> = cases
        .iter()
        .map(|c| c["fullScore"].as_u64().unwrap())
        .collect();
    assert_eq!(scores, [40, 20, 20, 20]);
    assert_eq!(
        cases[0]["inputFiles"],
        serde_json::json!([
            "maxpair/maxpair1.in",
            "maxpair/maxpair2.in",
            "maxpair/maxpair3.in"
        ])
    );
    assert_eq!(cases[3]["dependenceSubtask"], serde_json::json!([1]));
    assert_eq!(cases[0]["timeLimit"], 2000);
    assert_eq!(cases[0]["memoryLimit"], 64);
    assert!(d.join("lemon/data/maxpair/maxpair3.ans").is_file());
    assert!(d.join("lemon/data/maxpair/checker.cpp").is_file());

    let game = tempfile::tempdir().unwrap();
    pack_game(game.path(), "shooting", "lemon");
    let cdf: serde_json::Value =
        serde_json::from_str(&read(game.path().join("lemon/shooting.cdf"))).unwrap();
    let task = &cdf["tasks"][0];
    // Real answers: Lemon's own real-number comparison at six digits.
    assert_eq!(task["comparisonMode"], 3);
    assert_eq!(task["realPrecision"], 6);
    let total: u64 = task["testCases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["fullScore"].as_u64().unwrap())
        .sum();
    assert_eq!(total, 100);
}

#[test]
fn luogu_gets_a_zip_of_its_tests_and_config_yml() {
    let dir = package("maxpair");
    let d = dir.path();
    let out = with_shared_cache(d)
        .args(["pack", "--out", "luogu", "--layout", "luogu"])
        .run()
        .success();
    assert!(
        out.stderr().contains("luogu/maxpair.zip to upload"),
        "{}",
        out.stderr()
    );
    let files = unzip(&d.join("luogu/maxpair.zip"));
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names.len(), 13, "{names:?}");
    assert!(names.contains(&"config.yml") && names.contains(&"maxpair6.out"));
    assert!(!names.iter().any(|n| n.contains('/') || n.ends_with(".ans")));
    let config = String::from_utf8(
        files
            .iter()
            .find(|(n, _)| n == "config.yml")
            .unwrap()
            .1
            .clone(),
    )
    .unwrap();
    assert!(
        config.starts_with(
            "maxpair1.in:\n  timeLimit: 2000\n  memoryLimit: 65536\n  score: 14\n  subtaskId: 1\n  isPretest: false\n"
        ),
        "{config}"
    );
    assert!(
        config.contains(
            "maxpair6.in:\n  timeLimit: 2000\n  memoryLimit: 65536\n  score: 20\n  subtaskId: 2\n"
        ),
        "{config}"
    );

    let game = tempfile::tempdir().unwrap();
    pack_game(game.path(), "gems", "luogu");
    let files = unzip(&game.path().join("luogu/gems.zip"));
    assert_eq!(files.iter().filter(|(n, _)| n.ends_with(".in")).count(), 19);
    let input = &files.iter().find(|(n, _)| n == "gems1.in").unwrap().1;
    assert_eq!(
        input,
        &std::fs::read(game.path().join("luogu/gems1.in")).unwrap()
    );
}

#[test]
fn cms_gets_task_yaml_and_gen_with_its_subtasks() {
    let dir = package("maxpair");
    let d = dir.path();
    with_shared_cache(d)
        .args(["pack", "--out", "cms", "--layout", "cms"])
        .run()
        .success();
    assert_eq!(
        read(d.join("cms/gen/GEN")),
        "#ST: 40\n#COPY: input/input0.txt\n#COPY: input/input1.txt\n#COPY: input/input2.txt\n\
         #ST: 60\n#COPY: input/input3.txt\n#COPY: input/input4.txt\n#COPY: input/input5.txt\n"
    );
    let task = read(d.join("cms/task.yaml"));
    assert!(
        task.contains("time_limit: 2\nmemory_limit: 64\nn_input: 6\n"),
        "{task}"
    );
    assert!(d.join("cms/output/output5.txt").is_file());

    let game = tempfile::tempdir().unwrap();
    pack_game(game.path(), "fishhead", "cms");
    let list = read(game.path().join("cms/gen/GEN"));
    assert!(
        list.starts_with("#ST: 100\n#COPY: input/input0.txt\n"),
        "{list}"
    );
    assert_eq!(list.lines().count(), 25);
}

#[test]
fn domjudge_gets_the_icpc_package_zipped_with_its_ini() {
    let dir = package("sumpair");
    let d = dir.path();
    with_shared_cache(d)
        .args(["pack", "--out", "dj", "--layout", "domjudge"])
        .run()
        .success();
    let files = unzip(&d.join("dj/sumpair.zip"));
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    for name in [
        "domjudge-problem.ini",
        "problem.yaml",
        "data/sample/01.in",
        "output_validator/ncmp.cpp",
        "submissions/wrong_answer/int_sum.cpp",
    ] {
        assert!(names.contains(&name), "{name} not in {names:?}");
    }
    assert!(!names.contains(&"manifest.txt"));
    let ini = &files
        .iter()
        .find(|(n, _)| n == "domjudge-problem.ini")
        .unwrap()
        .1;
    assert_eq!(
        String::from_utf8_lossy(ini),
        "probid = sumpair\nname = sumpair\ntimelimit = 1\n"
    );

    let game = tempfile::tempdir().unwrap();
    pack_game(game.path(), "chess", "domjudge");
    let files = unzip(&game.path().join("domjudge/chess.zip"));
    assert!(files.iter().any(|(n, _)| n == "data/secret/30.ans"));
    assert!(
        files
            .iter()
            .any(|(n, _)| n == "submissions/accepted/chess.cpp")
    );
}
