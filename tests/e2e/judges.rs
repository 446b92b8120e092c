//! Packs for other judges (`--layout hydro|uoj|lemon|luogu|cms|domjudge`), each on a built-in
//! game and on a problem of one's own: the Polygon package `maxpair` of
//! `tests/support/polygon/` (two scored subtasks, one complete, one scored test by test, the
//! second depending on the first, a testlib checker) or `sumpair` (no groups). Each judge's
//! scoring is read back the way its loader reads it: small readers below follow UOJ's
//! judger, LemonLime's test cases and CMS's italian_yaml loader step by step, and score a
//! submission that fails some tests as the judge would.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

use crate::util::{Duipai, copy_tree, problem_folder, require, with_shared_cache};

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

/// How many tests [`small_gems`] packs: past the 60 s of time limits Hydro allows a domain it
/// does not trust (`HYDRO_TOTAL_TIME_MS`) at gems' 10 s a test, as the default plan's 19 are.
const SMALL_GEMS_TESTS: usize = 7;

/// `duipai pack gems` into `out` below `dir` with the default limits on a plan of
/// [`SMALL_GEMS_TESTS`] files of small cases, solved at once: the default plan's files of
/// maximal cases take seconds each to solve in a test build, and the layouts name, count and
/// score tests the same way whatever they hold. What it printed on stderr.
fn pack_small_gems(dir: &Path, out: &str, layout: &str) -> String {
    let plan: String = (1..=SMALL_GEMS_TESTS)
        .map(|i| format!("gen gems --cases 3 --b 0..3 --n 1..3 --seed {i}\n"))
        .collect();
    std::fs::write(dir.join("small.plan"), plan).unwrap();
    Duipai::in_dir(dir)
        .args(["pack", "gems", "--out", out, "--layout", layout])
        .args(["--plan", "small.plan"])
        .run()
        .success()
        .stderr()
}

#[test]
fn hydro_gets_config_yaml_with_subtasks_and_the_testlib_checker() {
    let dir = package("maxpair");
    let d = dir.path();
    let out = with_shared_cache(d)
        .args(["pack", "--out", "hydro", "--layout", "hydro"])
        .run()
        .success();
    warns_of_the_samples_dependency(&out.stderr(), "Hydro");
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
    let shooting = ran_stderr(game.path(), "shooting", "hydro");
    let config = read(game.path().join("hydro/config.yaml"));
    // Real answers: duipai's std::rcmp6.cpp, every test its share of 100 points.
    assert!(config.starts_with("type: default\ntime: 1000ms\nmemory: 128m\nchecker_type: testlib\nchecker: checker.cpp\nsubtasks:\n  - id: 1\n    score: 100\n    type: sum\n"), "{config}");
    assert_eq!(config.matches("      - input: ").count(), 22);
    assert!(read(game.path().join("hydro/checker.cpp")).contains("duipai's std::rcmp6.cpp"));
    // 22 tests of 1 s: within the cap.
    assert!(!shooting.contains("Hydro cancels"), "{shooting}");

    // gems: 7 tests of 10 s, past the 60 s Hydro's judge allows a domain it does not trust
    // (`total_time_limit`, packages/hydrojudge/src/cases.ts and config.ts of hydro-dev/Hydro).
    let err = pack_small_gems(game.path(), "hydro2", "hydro");
    assert!(
        err.contains(
            "warning: Hydro cancels the judging of this pack on a domain it does not trust: its \
             7 tests of 10 s each add up to 70 s of time limits, past its default cap of 60 s"
        ),
        "{err}"
    );
}

/// maxpair's small depends on the samples, which no judge's pack scores or lets a subtask
/// depend on: the pack says the dependency is dropped, in the format's name.
fn warns_of_the_samples_dependency(stderr: &str, format: &str) {
    let said = format!(
        "warning: {format} has no dependency on the samples: small is scored whether or not the \
         samples pass"
    );
    assert!(stderr.contains(&said), "{stderr}");
}

/// `duipai pack GAME --layout hydro` into `out` below `dir`: what it printed on stderr.
fn ran_stderr(dir: &Path, game: &str, out: &str) -> String {
    Duipai::in_dir(dir)
        .args(["pack", game, "--out", out, "--layout", "hydro"])
        .run()
        .success()
        .stderr()
}

/// A `problem.conf` read as UOJ's judger reads it: a key and a value a line.
fn uoj_conf(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .filter_map(|l| l.split_once(' '))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// The score UOJ gives a submission that passes the tests `passed` (1-based) of a
/// `problem.conf`, following `ordinary_test` of UOJ's
/// `judger/uoj_judger/builtin/judger/judger.cpp` (UniversalOJ/UOJ-System): without
/// subtasks each test scores `point_score_N` (by default 100 / n_tests); a lone `packed`
/// subtask is all or nothing; otherwise each subtask is judged in order, `packed` (all or
/// nothing, skipped when a dependency did not pass) or `min`, and a subtask of any other
/// type runs no test and scores in full. A submission passing every test scores 100.
fn uoj_score(conf: &BTreeMap<String, String>, passed: &dyn Fn(usize) -> bool) -> u32 {
    let int = |key: &str, default: i64| conf.get(key).map_or(default, |v| v.parse().unwrap());
    let indexed = |key: &str, i: usize, default: i64| {
        conf.get(&format!("{key}_{i}"))
            .map_or_else(|| int(key, default), |v| v.parse().unwrap())
    };
    let n = int("n_tests", 10) as usize;
    let subtasks = int("n_subtasks", 0) as usize;
    if (1..=n).all(passed) {
        return 100;
    }
    let kind = |t: usize| {
        conf.get(&format!("subtask_type_{t}"))
            .cloned()
            .unwrap_or("packed".into())
    };
    if subtasks == 0 {
        let each = |i: usize| indexed("point_score", i, 100 / n as i64) as u32;
        return (1..=n).filter(|i| passed(*i)).map(each).sum();
    }
    if subtasks == 1 && kind(1) == "packed" {
        return 0;
    }
    let mut passed_subtask = vec![false; subtasks + 1];
    let mut total = 0;
    for t in 1..=subtasks {
        let mut dependencies = Vec::new();
        if conf
            .get(&format!("subtask_dependence_{t}"))
            .map(String::as_str)
            == Some("many")
        {
            let mut p = 1;
            while let Some(d) = conf.get(&format!("subtask_dependence_{t}_{p}")) {
                dependencies.push(d.parse::<usize>().unwrap());
                p += 1;
            }
        } else if let Some(d) = conf.get(&format!("subtask_dependence_{t}")) {
            dependencies.push(d.parse().unwrap());
        }
        let full = indexed("subtask_score", t, 100 / subtasks as i64) as u32;
        let first = indexed("subtask_end", t - 1, 0) as usize + 1;
        let last = indexed("subtask_end", t, 0) as usize;
        let score = match kind(t).as_str() {
            "packed" if dependencies.iter().any(|d| !passed_subtask[*d]) => 0,
            "packed" | "min" if (first..=last).all(passed) => full,
            "packed" | "min" => 0,
            // Any other type: no test is run, and the subtask scores in full.
            _ => full,
        };
        passed_subtask[t] = score == full;
        total += score;
    }
    total
}

#[test]
fn uoj_gets_problem_conf_scored_as_its_judger_scores() {
    let dir = package("maxpair");
    let d = dir.path();
    let out = with_shared_cache(d)
        .args(["pack", "--out", "uoj", "--layout", "uoj"])
        .run()
        .success();
    warns_of_the_samples_dependency(&out.stderr(), "UOJ");
    let text = read(d.join("uoj/problem.conf"));
    // small (40, whole): one packed subtask; large (60, test by test, after small): a packed
    // subtask a test, each depending on small's.
    assert_eq!(
        text,
        "use_builtin_judger on\nn_tests 6\nn_ex_tests 1\nn_sample_tests 1\n\
         input_pre maxpair\ninput_suf in\noutput_pre maxpair\noutput_suf out\ntime_limit 2\n\
         memory_limit 64\noutput_limit 64\nn_subtasks 4\nsubtask_end_1 3\nsubtask_score_1 40\n\
         subtask_type_1 packed\nsubtask_end_2 4\nsubtask_score_2 20\nsubtask_type_2 packed\n\
         subtask_dependence_2 1\nsubtask_end_3 5\nsubtask_score_3 20\nsubtask_type_3 packed\n\
         subtask_dependence_3 1\nsubtask_end_4 6\nsubtask_score_4 20\nsubtask_type_4 packed\n\
         subtask_dependence_4 1\n"
    );
    let conf = uoj_conf(&text);
    let types: Vec<&str> = conf
        .iter()
        .filter(|(k, _)| k.starts_with("subtask_type_"))
        .map(|(_, v)| v.as_str())
        .collect();
    assert!(
        types.iter().all(|t| ["packed", "min"].contains(t)),
        "{types:?}"
    );
    assert_eq!(uoj_score(&conf, &|_| true), 100);
    assert_eq!(uoj_score(&conf, &|i| i != 5), 80, "one large test failed");
    assert_eq!(
        uoj_score(&conf, &|i| i != 2),
        0,
        "small failed, large skipped"
    );
    assert_eq!(uoj_score(&conf, &|i| i <= 3), 40, "small alone");
    assert_eq!(read(d.join("uoj/chk.cpp")), read(d.join("files/check.cpp")));
    assert_eq!(read(d.join("uoj/ex_maxpair1.in")), "3 5\n");
    assert!(d.join("uoj/maxpair6.out").is_file());

    let game = tempfile::tempdir().unwrap();
    pack_game(game.path(), "chess", "uoj");
    let text = read(game.path().join("uoj/problem.conf"));
    assert!(
        text.starts_with("use_builtin_judger on\nuse_builtin_checker ncmp\nn_tests 30\n"),
        "{text}"
    );
    // No subtasks: each test its own score, the 100 points shared out (4 for the first ten,
    // 3 for the others) rather than UOJ's default of 100 / 30 = 3 a test.
    let conf = uoj_conf(&text);
    assert!(!conf.contains_key("n_subtasks"), "{text}");
    assert_eq!(conf["point_score_1"], "4");
    assert_eq!(conf["point_score_30"], "3");
    assert_eq!(uoj_score(&conf, &|i| i != 1), 96);
    assert_eq!(uoj_score(&conf, &|i| i != 30), 97);
    assert_eq!(uoj_score(&conf, &|i| i > 29), 3);
    assert!(game.path().join("uoj/chess30.out").is_file());
}

/// A LemonLime test case as `TestCase::readFromJson` reads it (`src/core/testcase.cpp` of
/// Project-LemonLime/Project_LemonLime): its score, its inputs, and the test cases it
/// depends on, which are the `inputFiles` entries ending in `_lemon_SUbtaskDEPENDENCE_fLAg`.
struct LemonCase {
    full: u64,
    inputs: Vec<String>,
    dependencies: Vec<usize>,
}

fn lemon_cases(task: &serde_json::Value) -> Vec<LemonCase> {
    const FLAG: &str = "_lemon_SUbtaskDEPENDENCE_fLAg";
    let cases = task["testCases"].as_array().unwrap();
    cases
        .iter()
        .map(|c| {
            let entries = c["inputFiles"].as_array().unwrap();
            let names = entries.iter().map(|e| e.as_str().unwrap());
            let (flags, inputs): (Vec<&str>, Vec<&str>) = names.partition(|n| n.ends_with(FLAG));
            LemonCase {
                full: c["fullScore"].as_u64().unwrap(),
                inputs: inputs.into_iter().map(String::from).collect(),
                dependencies: flags
                    .iter()
                    .map(|f| f.trim_end_matches(FLAG).parse().unwrap())
                    .collect(),
            }
        })
        .collect()
}

/// The score LemonLime gives a submission that passes the inputs `passed`, as its
/// `TaskJudger` scores test cases (`src/core/taskjudger.cpp`): a test case scores in full
/// when all of its inputs pass, and is skipped when a test case it depends on (by number
/// from 1) did not pass.
fn lemon_score(cases: &[LemonCase], passed: &dyn Fn(&str) -> bool) -> u64 {
    let mut ok = Vec::new();
    for case in cases {
        let pass =
            case.dependencies.iter().all(|d| ok[d - 1]) && case.inputs.iter().all(|i| passed(i));
        ok.push(pass);
    }
    cases
        .iter()
        .zip(&ok)
        .filter(|(_, p)| **p)
        .map(|(c, _)| c.full)
        .sum()
}

#[test]
fn a_group_without_a_score_beside_scored_ones_is_judged_for_no_points() {
    let dir = problem_folder("examples/rangesum", None);
    let d = dir.path();
    let plan = "group sample\ncopy samples/1.in\n\ngroup small --score 100\n\
                gen rangesum 3 3 --seed 1\n\ngroup extra\ngen rangesum 10 10 --seed 2\n";
    std::fs::write(d.join("p.plan"), plan).unwrap();
    with_shared_cache(d)
        .args([
            "pack", "--out", "uoj", "--layout", "uoj", "--plan", "p.plan",
        ])
        .run()
        .success();
    let conf = uoj_conf(&read(d.join("uoj/problem.conf")));
    // extra's test is rangesum2.in, a test UOJ judges, not one of its extra tests.
    assert_eq!(conf["n_tests"], "2");
    assert_eq!(conf["n_ex_tests"], "1");
    assert!(d.join("uoj/rangesum2.in").is_file() && d.join("uoj/ex_rangesum1.in").is_file());
    assert!(!d.join("uoj/ex_rangesum2.in").exists());
    assert_eq!(conf["subtask_end_2"], "2");
    assert_eq!(conf["subtask_score_2"], "0");
    assert_eq!(uoj_score(&conf, &|i| i != 2), 100);
    assert_eq!(uoj_score(&conf, &|i| i != 1), 0);
}

#[test]
fn lemon_gets_its_contest_file_scored_as_lemonlime_reads_it() {
    let dir = package("maxpair");
    let d = dir.path();
    let out = with_shared_cache(d)
        .args(["pack", "--out", "lemon", "--layout", "lemon"])
        .run()
        .success();
    warns_of_the_samples_dependency(&out.stderr(), "LemonLime");
    let cdf: serde_json::Value = serde_json::from_str(&read(d.join("lemon/maxpair.cdf"))).unwrap();
    let task = &cdf["tasks"][0];
    // Task::TestlibSpecialJudgeMode: the checker run as `checker input output answer`.
    assert_eq!(task["comparisonMode"], 5);
    assert_eq!(task["specialJudge"], "maxpair/checker");
    let cases = lemon_cases(task);
    // small: one test case of its three inputs, all or nothing; large: a case a test, each
    // depending on small's.
    let scores: Vec<u64> = cases.iter().map(|c| c.full).collect();
    assert_eq!(scores, [40, 20, 20, 20]);
    assert_eq!(
        cases[0].inputs,
        [
            "maxpair/maxpair1.in",
            "maxpair/maxpair2.in",
            "maxpair/maxpair3.in"
        ]
    );
    assert!(cases[0].dependencies.is_empty());
    assert!(cases[1..].iter().all(|c| c.dependencies == [1]));
    assert!(task["testCases"][1].get("dependenceSubtask").is_none());
    assert_eq!(lemon_score(&cases, &|_| true), 100);
    assert_eq!(lemon_score(&cases, &|i| !i.ends_with("maxpair5.in")), 80);
    assert_eq!(lemon_score(&cases, &|i| !i.ends_with("maxpair2.in")), 0);
    assert_eq!(task["testCases"][0]["timeLimit"], 2000);
    assert_eq!(task["testCases"][0]["memoryLimit"], 64);
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
    let cases = lemon_cases(task);
    assert_eq!(cases.len(), 22);
    assert_eq!(lemon_score(&cases, &|_| true), 100);
    assert_eq!(lemon_score(&cases, &|i| !i.ends_with("shooting1.in")), 95);
}

#[test]
fn luogu_gets_a_zip_of_its_tests_and_config_yml() {
    let dir = package("maxpair");
    let d = dir.path();
    let out = with_shared_cache(d)
        .args(["pack", "--out", "luogu", "--layout", "luogu"])
        .run()
        .success();
    warns_of_the_samples_dependency(&out.stderr(), "Luogu");
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
    pack_small_gems(game.path(), "luogu", "luogu");
    let files = unzip(&game.path().join("luogu/gems.zip"));
    assert_eq!(
        files.iter().filter(|(n, _)| n.ends_with(".in")).count(),
        SMALL_GEMS_TESTS
    );
    let input = &files.iter().find(|(n, _)| n == "gems1.in").unwrap().1;
    assert_eq!(
        input,
        &std::fs::read(game.path().join("luogu/gems1.in")).unwrap()
    );
}

/// How CMS's italian_yaml loader scores a task from its `gen/GEN`
/// (`cmscontrib/loaders/italy_yaml.py` of cms-dev/cms): without `#ST:` lines, `Sum` with
/// 100 / n points a test; with them, `GroupMin` with each subtask's points and count of
/// tests (a `#COPY:` line is a test).
#[derive(Debug, PartialEq)]
enum CmsScoring {
    Sum(f64),
    GroupMin(Vec<(u32, usize)>),
}

fn cms_scoring(list: &str) -> CmsScoring {
    let (mut subtasks, mut tests, mut points) = (Vec::new(), 0, None);
    for line in list.lines() {
        let line = line.trim();
        match line.split_once('#') {
            None if !line.is_empty() => tests += 1,
            None => {}
            Some((test, comment)) => {
                let comment = comment.trim();
                if !test.trim().is_empty() || comment.starts_with("COPY:") {
                    tests += 1;
                }
                if let Some(score) = comment.strip_prefix("ST:") {
                    if let Some(p) = points {
                        subtasks.push((p, tests));
                    } else {
                        assert_eq!(tests, 0, "the loader asserts no test comes before #ST:");
                    }
                    tests = 0;
                    points = Some(score.trim().parse::<u32>().unwrap());
                }
            }
        }
    }
    match points {
        None => CmsScoring::Sum(100.0 / tests as f64),
        Some(p) => {
            subtasks.push((p, tests));
            assert_eq!(subtasks.iter().map(|s| s.0).sum::<u32>(), 100);
            CmsScoring::GroupMin(subtasks)
        }
    }
}

/// The score of a submission passing the tests `passed` (from 0) under CMS's scoring.
fn cms_score(scoring: &CmsScoring, n: usize, passed: &dyn Fn(usize) -> bool) -> f64 {
    match scoring {
        CmsScoring::Sum(each) => (0..n).filter(|i| passed(*i)).count() as f64 * each,
        CmsScoring::GroupMin(subtasks) => {
            let mut first = 0;
            let mut total = 0.0;
            for (points, count) in subtasks {
                if (first..first + count).all(passed) {
                    total += f64::from(*points);
                }
                first += count;
            }
            total
        }
    }
}

#[test]
fn cms_gets_task_yaml_and_gen_scored_as_its_loader_reads_them() {
    let dir = package("maxpair");
    let d = dir.path();
    let out = with_shared_cache(d)
        .args(["pack", "--out", "cms", "--layout", "cms"])
        .run()
        .success();
    warns_of_the_samples_dependency(&out.stderr(), "CMS");
    // The loader stops at a task without statement/ unless told not to import one.
    assert!(
        out.stderr().contains("cmsImportTask --no-statement cms"),
        "{}",
        out.stderr()
    );
    // large depends on small, which CMS's GroupMin cannot say: the pack warns.
    assert!(
        out.stderr().contains(
            "warning: CMS has no dependencies between subtasks: large is scored whether or not \
             small passes"
        ),
        "{}",
        out.stderr()
    );
    let list = read(d.join("cms/gen/GEN"));
    assert_eq!(
        list,
        "#ST: 40\n#COPY: input/input0.txt\n#COPY: input/input1.txt\n#COPY: input/input2.txt\n\
         #ST: 20\n#COPY: input/input3.txt\n#ST: 20\n#COPY: input/input4.txt\n\
         #ST: 20\n#COPY: input/input5.txt\n"
    );
    let scoring = cms_scoring(&list);
    assert_eq!(
        scoring,
        CmsScoring::GroupMin(vec![(40, 3), (20, 1), (20, 1), (20, 1)])
    );
    assert_eq!(cms_score(&scoring, 6, &|i| i != 4), 80.0);
    assert_eq!(cms_score(&scoring, 6, &|i| i != 0), 60.0);
    let task = read(d.join("cms/task.yaml"));
    assert!(
        task.contains("time_limit: 2\nmemory_limit: 64\nn_input: 6\n"),
        "{task}"
    );
    assert!(d.join("cms/output/output5.txt").is_file());
    // The sample is an attachment: a statement/ folder without a statement stops the loader.
    assert_eq!(read(d.join("cms/att/sample1.in")), "3 5\n");
    assert!(!d.join("cms/statement").exists());

    // A problem without scores is scored test by test: no #ST: line, CMS's Sum.
    let game = tempfile::tempdir().unwrap();
    pack_small_gems(game.path(), "cms", "cms");
    let list = read(game.path().join("cms/gen/GEN"));
    assert!(!list.contains("#ST:"), "{list}");
    assert_eq!(list.lines().count(), 7);
    let scoring = cms_scoring(&list);
    assert_eq!(scoring, CmsScoring::Sum(100.0 / 7.0));
    let score = cms_score(&scoring, 7, &|i| i != 5);
    assert!((score - 600.0 / 7.0).abs() < 1e-9, "{score}");
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
    // Only keys DOMjudge's ImportProblemService reads (its `probid` is its own number).
    assert_eq!(
        String::from_utf8_lossy(ini),
        "short-name = sumpair\nname = sumpair\ntimelimit = 1\n"
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
