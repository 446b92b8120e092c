//! `hunt` through the generator's choices: perturbed choices reach a shape the plan's seeds
//! practically never make; `--add` writes a `gen` line for a case the line prints as it is
//! and a copy only for one that was shrunk or perturbed, a few lines (a large case minimized
//! without a validator goes in as its line); a slow hunt that does not time the
//! submission out adds nothing; a Polygon package without generated tests is told so in its
//! own words.

use std::path::Path;

use crate::util::{assert_contains, require, with_shared_cache};

/// A problem of one's own in `dir`: "the depth of a tree rooted at 1" (n, then the n − 1
/// edges `parent child`), a generator of trees of N vertices whose parents are drawn among
/// the earlier vertices (C++, `std::mt19937`), a reference, and a plan of one line, `gen
/// depth 12`. Everything is C++: a probe costs milliseconds.
fn write_depth_problem(dir: &Path, submission: &str) {
    let files = [
        (
            "gen.cpp",
            "#include <bits/stdc++.h>\nint main(int argc, char **argv) {\n  \
             std::mt19937 rng(atoll(argv[argc - 1]));\n  int n = atoi(argv[1]);\n  \
             printf(\"%d\\n\", n);\n  for (int i = 2; i <= n; i++)\n    \
             printf(\"%d %d\\n\", std::uniform_int_distribution<int>(1, i - 1)(rng), i);\n}\n",
        ),
        (
            "ref.cpp",
            "#include <cstdio>\nint depth[200001];\nint main() {\n  int n, p, c, best = 0;\n  \
             scanf(\"%d\", &n);\n  for (int i = 1; i < n; i++) {\n    scanf(\"%d %d\", &p, &c);\n    \
             depth[c] = depth[p] + 1;\n    if (depth[c] > best) best = depth[c];\n  }\n  \
             printf(\"%d\\n\", best);\n}\n",
        ),
        (
            "duipai.toml",
            "problem = \"depth\"\ngenerator = \"gen.cpp\"\nreference = \"ref.cpp\"\n\
             plan = \"tests.plan\"\n",
        ),
        ("tests.plan", "gen depth 12 --seed 1\n"),
    ];
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    std::fs::create_dir_all(dir.join("submissions/wrong_answer")).unwrap();
    std::fs::write(dir.join("submissions/wrong_answer/sub.cpp"), submission).unwrap();
}

/// The depth of a tree written as `write_depth_problem`'s inputs are.
fn depth(text: &str) -> (usize, usize) {
    let mut lines = text.lines();
    let n: usize = lines.next().unwrap().parse().unwrap();
    let mut depth = vec![0; n + 1];
    for line in lines {
        let (p, c) = line.split_once(' ').unwrap();
        let (p, c): (usize, usize) = (p.parse().unwrap(), c.parse().unwrap());
        assert!(p < c && c <= n, "not a generated tree: {text}");
        depth[c] = depth[p] + 1;
    }
    (n, depth.into_iter().max().unwrap())
}

/// Walks up at most 8 parents: wrong on a tree deeper than 8, which a random tree of 12
/// vertices is once in about 30000 seeds (a path, once in 11!).
const WALKS_EIGHT: &str = "#include <cstdio>\nint parent[200001];\nint main() {\n  \
                           int n, p, c, best = 0;\n  scanf(\"%d\", &n);\n  \
                           for (int i = 1; i < n; i++) { scanf(\"%d %d\", &p, &c); parent[c] = \
                           p; }\n  for (int v = 1; v <= n; v++) {\n    int d = 0;\n    \
                           for (int u = v; parent[u] && d < 8; u = parent[u]) d++;\n    \
                           if (d > best) best = d;\n  }\n  printf(\"%d\\n\", best);\n}\n";

#[test]
fn perturbed_choices_reach_a_deep_tree_the_seeds_do_not() {
    require(&["g++"]);
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_depth_problem(d, WALKS_EIGHT);
    let out = with_shared_cache(d)
        .args([
            "hunt",
            "submissions/wrong_answer/sub.cpp",
            "--add",
            "--time",
            "120",
        ])
        .args(["--shrink-time", "600"])
        .run()
        .success();
    let text = out.stdout();
    assert_contains(&text, "  line 1: gen depth 12 with seeds from 1000001\n");
    assert_contains(
        &text,
        "  line 1: gen depth 12 with seeds from 1000001, the generator's choices perturbed\n",
    );
    assert_contains(&text, "its choices perturbed (");
    assert_contains(&text, "minimized case (");
    // A copy of the case, which no seed of the line prints.
    let plan = std::fs::read_to_string(d.join("tests.plan")).unwrap();
    assert_contains(
        &plan,
        "copy hunt/sub.in  # catches wrong_answer/sub.cpp (WA), found by duipai hunt from line 1",
    );
    // Still a tree the generator makes (no validator checks it), deep enough to fail.
    let case = std::fs::read_to_string(d.join("hunt/sub.in")).unwrap();
    // The copy is named with its size: a file of the package from now on.
    assert_contains(
        &text,
        &format!("saved the input as hunt/sub.in ({} B)", case.len()),
    );
    let (n, deepest) = depth(&case);
    assert_eq!(n, 12);
    assert!(deepest > 8, "{case}");
}

#[test]
fn a_case_the_line_prints_as_it_is_is_added_as_a_gen_line() {
    require(&["g++"]);
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Wrong on one tree only: the line's tree for seed 1000001, which nothing smaller is. Of
    // 8 vertices: minimizing tries every smaller candidate, each a run of three programs.
    let generated = |seed: &str| {
        let out = with_shared_cache(d)
            .args(["gen", "depth", "8", "--seed", seed])
            .run()
            .success();
        out.stdout()
    };
    write_depth_problem(d, "");
    std::fs::write(d.join("tests.plan"), "gen depth 8 --seed 1\n").unwrap();
    let target = generated("1000001");
    let submission = format!(
        "#include <bits/stdc++.h>\nint main() {{\n  std::string text((std::istreambuf_iterator<char>(\
         std::cin)), {{}});\n  if (text == R\"({target})\") {{ puts(\"-1\"); return 0; }}\n  \
         std::istringstream in(text);\n  int n, p, c, best = 0;\n  in >> n;\n  std::vector<int> \
         depth(n + 1);\n  for (int i = 1; i < n; i++) {{ in >> p >> c; depth[c] = depth[p] + 1; \
         best = std::max(best, depth[c]); }}\n  printf(\"%d\\n\", best);\n}}\n"
    );
    write_depth_problem(d, &submission);
    std::fs::write(d.join("tests.plan"), "gen depth 8 --seed 1\n").unwrap();
    let out = with_shared_cache(d)
        .args([
            "hunt",
            "submissions/wrong_answer/sub.cpp",
            "--add",
            "--time",
            "60",
        ])
        .run()
        .success();
    let text = out.stdout();
    assert_contains(&text, "seed 1000001, after 1 case");
    assert_contains(&text, "the case, no smaller case found (");
    let plan = std::fs::read_to_string(d.join("tests.plan")).unwrap();
    assert_eq!(
        plan,
        "gen depth 8 --seed 1\ngen depth 8 --seed 1000001  # catches wrong_answer/sub.cpp \
         (WA), found by duipai hunt from line 1 with seed 1000001\n"
    );
    assert!(!d.join("hunt").exists());
}

#[test]
fn a_slow_hunt_that_times_nothing_out_adds_nothing() {
    require(&["g++"]);
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_depth_problem(d, "");
    let fast = std::fs::read_to_string(d.join("ref.cpp")).unwrap();
    std::fs::create_dir_all(d.join("submissions/time_limit_exceeded")).unwrap();
    std::fs::write(d.join("submissions/time_limit_exceeded/fast.cpp"), fast).unwrap();
    // A budget of runs, not seconds: new seeds, then changes of the slowest input, as many
    // on a busy machine as on a quiet one (3 s of it were 3 s of this test, however fast).
    let out = with_shared_cache(d)
        .args([
            "hunt",
            "submissions/time_limit_exceeded/fast.cpp",
            "--add",
            "--runs",
            "100",
        ])
        .run()
        .code(1);
    let text = out.stdout();
    assert!(
        text.contains("no input slower than the plan's own tests was found")
            || text.contains("it stays within the time limit"),
        "{text}"
    );
    assert!(!text.contains("added to tests.plan"), "{text}");
    let plan = std::fs::read_to_string(d.join("tests.plan")).unwrap();
    assert_eq!(plan, "gen depth 12 --seed 1\n");
    assert!(!d.join("hunt").exists());
}

#[test]
fn a_polygon_package_without_generated_tests_is_told_in_its_own_words() {
    require(&["g++"]);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    crate::util::copy_tree(&root.join("tests/support/polygon/sumpair"), d);
    std::fs::copy(
        root.join("tests/support/testlib/testlib.h"),
        d.join("files/testlib.h"),
    )
    .unwrap();
    // Only the manual sample is left: no test the package's generators make.
    let xml = std::fs::read_to_string(d.join("problem.xml")).unwrap();
    let manual: String = xml
        .lines()
        .filter(|l| !l.contains("method=\"generated\""))
        .map(|l| format!("{l}\n"))
        .collect();
    let manual = manual.replace("<test-count>5</test-count>", "<test-count>1</test-count>");
    std::fs::write(d.join("problem.xml"), manual).unwrap();
    let out = with_shared_cache(d)
        .args(["hunt", "solutions/int_sum.cpp", "--runs", "20"])
        .run()
        .code(2);
    let err = out.stderr();
    assert!(
        err.contains(
            "problem.xml has no generated test (a <test> with a cmd): the hunt runs the \
             package's generators with new seeds"
        ),
        "{err}"
    );
    assert!(!err.contains("`gen` line"), "{err}");
}

/// The depth problem of [`write_depth_problem`] whose plan makes trees of 2000 vertices (the
/// size from the generator's arguments, which the choices do not govern), with a validator
/// of its trees or without one.
fn write_large_depth_problem(dir: &Path, submission: &str, validator: bool) {
    write_depth_problem(dir, submission);
    std::fs::write(dir.join("tests.plan"), "gen depth 2000 --seed 1\n").unwrap();
    if !validator {
        return;
    }
    let validator = "#include <cstdio>\nint main() {\n  int n, p, c;\n  \
                     if (scanf(\"%d\", &n) != 1 || n < 1 || n > 200000) return 1;\n  \
                     for (int i = 2; i <= n; i++) {\n    \
                     if (scanf(\"%d %d\", &p, &c) != 2 || c != i || p < 1 || p >= c) return 1;\n  \
                     }\n  return scanf(\"%d\", &p) == 1;\n}\n";
    std::fs::write(dir.join("val.cpp"), validator).unwrap();
    std::fs::write(
        dir.join("duipai.toml"),
        "problem = \"depth\"\ngenerator = \"gen.cpp\"\nreference = \"ref.cpp\"\n\
         validator = \"val.cpp\"\nplan = \"tests.plan\"\n",
    )
    .unwrap();
}

/// What the C++ program `source` (compiled in `dir`) prints for `input`.
fn run_cpp(dir: &Path, source: &str, input: &str) -> String {
    use std::io::Write;
    let exe = dir.join(format!("{}.bin", source.replace('/', "_")));
    let built = std::process::Command::new("g++")
        .arg("-O1")
        .arg("-o")
        .arg(&exe)
        .arg(dir.join(source))
        .status()
        .unwrap();
    assert!(built.success(), "g++ {source}");
    let mut child = std::process::Command::new(&exe)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_large_case_a_wrong_submission_fails_is_added_as_a_small_copy() {
    require(&["g++"]);
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_large_depth_problem(d, WALKS_EIGHT, true);
    // The first seed's tree of 2000 vertices is deeper than 8 (a random tree's depth grows
    // as e·ln n, about 20): caught at once, at 2000 lines.
    let found = with_shared_cache(d)
        .args(["gen", "depth", "2000", "--seed", "1000001"])
        .run()
        .success()
        .stdout();
    assert!(depth(&found).1 > 8, "the case as found does not fail");
    // With no time to minimize, the case as found is shown as that, not as one nothing
    // smaller than fails.
    let hurried = with_shared_cache(d)
        .args(["hunt", "submissions/wrong_answer/sub.cpp", "--time", "60"])
        .args(["--shrink-time", "0.001"])
        .run()
        .success()
        .stdout();
    assert_contains(&hurried, "the case as found (");
    assert_contains(
        &hurried,
        "the time budget of 0.001 s to minimize it ran out first, a smaller case may still \
         fail (--shrink-time): ",
    );
    assert!(!hurried.contains("no smaller case found"), "{hurried}");
    let out = with_shared_cache(d)
        .args([
            "hunt",
            "submissions/wrong_answer/sub.cpp",
            "--add",
            "--time",
            "60",
        ])
        .run()
        .success();
    let text = out.stdout();
    assert_contains(&text, "seed 1000001, after 1 case");
    let plan = std::fs::read_to_string(d.join("tests.plan")).unwrap();
    assert_contains(
        &plan,
        "copy hunt/sub.in  # catches wrong_answer/sub.cpp (WA), found by duipai hunt from line 1",
    );
    let case = std::fs::read_to_string(d.join("hunt/sub.in")).unwrap();
    assert_contains(
        &text,
        &format!("saved the input as hunt/sub.in ({} B)", case.len()),
    );
    // A few lines: the smallest tree deeper than 8 is a path of 10 vertices, 10 lines.
    assert!(case.lines().count() <= 12, "{case}");
    // Still a tree of the validator's, and still failed by the submission.
    let (n, deepest) = depth(&case);
    assert!(n <= 12 && deepest > 8, "{case}");
    let expected = run_cpp(d, "ref.cpp", &case);
    let wrong = run_cpp(d, "submissions/wrong_answer/sub.cpp", &case);
    assert_eq!(expected.trim(), deepest.to_string());
    assert_ne!(wrong.trim(), expected.trim(), "{case}");
}

#[test]
fn without_a_validator_a_large_case_is_added_as_the_line_that_prints_it() {
    require(&["g++"]);
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_large_depth_problem(d, WALKS_EIGHT, false);
    // The recorder of gen.cpp's choices ready in the build cache: the hunt waits for its
    // build at most half its minimizing budget, and without it the text alone is shrunk
    // (to a few lines, added as a copy), which is not what this test is about.
    crate::polygon::recorder_built(&d.join("gen.cpp"));
    let out = with_shared_cache(d)
        .args([
            "hunt",
            "submissions/wrong_answer/sub.cpp",
            "--add",
            "--time",
            "60",
            // The size comes from the plan line's arguments: no budget makes the case
            // smaller (a minute of it does not: the choices shrink for as long as they are
            // given), and a simpler tree is found within the first half second.
            "--shrink-time",
            "2",
        ])
        .run()
        .success();
    let text = out.stdout();
    // The choices simplify the tree inside its 2000 vertices; no text edit can be checked.
    assert_contains(&text, "the minimized case is still 2000 lines (");
    let plan = std::fs::read_to_string(d.join("tests.plan")).unwrap();
    assert_eq!(
        plan,
        "gen depth 2000 --seed 1\ngen depth 2000 --seed 1000001  # catches \
         wrong_answer/sub.cpp (WA), found by duipai hunt from line 1 with seed 1000001\n"
    );
    assert!(!d.join("hunt").exists());
}
