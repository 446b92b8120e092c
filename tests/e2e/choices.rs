//! A generator's random choices, recorded and replayed: for each mechanism (Python's random,
//! C++'s <random>, C's rand(), testlib's rnd) a recording run prints the very bytes the
//! generator prints without duipai, and a replay of the recording prints them again whatever
//! the seed; and a failing case shrinks through its choices to a case the generator itself
//! prints: a tree stays a tree without a validator.

use std::ffi::OsString;
use std::path::Path;

use duipai::compile::{CompileOptions, Language};
use duipai::judge::{ProcessRunner, Runner};
use duipai::own::capture::{Capturable, Choice, Mechanism, Replayed};
use duipai::run::Limits;

use crate::util::{Duipai, assert_contains, require, with_shared_cache};

/// The build cache the suite shares, the default compilers.
fn options() -> CompileOptions {
    CompileOptions {
        cache_dir: Some(Path::new(env!("CARGO_TARGET_TMPDIR")).join("shared-cache")),
        use_env: false,
        ..CompileOptions::default()
    }
}

/// A helper's limits: 10 s of CPU, 1 GiB.
fn limits() -> Limits {
    let program = Limits {
        cpu: std::time::Duration::from_secs(1),
        wall: std::time::Duration::from_secs(3),
        memory_bytes: 1 << 30,
        output_bytes: 1 << 26,
        processes: 64,
    };
    duipai::judge::helper::helper_limits(&program, None)
}

/// What `command` with `seed` appended prints.
fn output(command: &[OsString], seed: u64) -> Vec<u8> {
    let mut command = command.to_vec();
    command.push(seed.to_string().into());
    let execution = ProcessRunner::default()
        .run_helper(&command, b"", &limits())
        .unwrap();
    assert_eq!(
        execution.termination,
        duipai::run::Termination::Exited(0),
        "{command:?}: {execution:?}"
    );
    execution.stdout.to_vec().unwrap()
}

/// For a few seeds: the recording prints what the plain generator prints, byte for byte, with
/// at least `least` choices; the recorded choices replayed with another seed print it again,
/// and are what was served; the empty sequence (every choice at its simplest) replays to a
/// case of its own, or ends as drawing too many choices. Returns the choices recorded for
/// seed 1.
fn records_and_replays(
    dir: &Path,
    source: &str,
    text: &str,
    mechanism: Mechanism,
    least: usize,
    options: &CompileOptions,
) -> Vec<Choice> {
    std::fs::write(dir.join(source), text).unwrap();
    let typed = vec![OsString::from(dir.join(source))];
    let plain = duipai::compile::prepare(&typed, options).unwrap().command;
    let capturable = Capturable::new(typed, options.clone());
    let capture = capturable
        .ready()
        .unwrap_or_else(|e| panic!("{source}: {e}"));
    assert_eq!(capture.mechanism, mechanism);
    let runner = ProcessRunner::default();
    let mut first = Vec::new();
    for seed in [1, 2, 17] {
        let expected = output(&plain, seed);
        let recorded = capture.record(&runner, seed, &limits()).unwrap().unwrap();
        assert_eq!(
            String::from_utf8_lossy(&recorded.output),
            String::from_utf8_lossy(&expected),
            "{source}, seed {seed}: recording changed the output"
        );
        assert!(
            recorded.choices.len() >= least,
            "{source}: {} choices",
            recorded.choices.len()
        );
        let values: Vec<u64> = recorded.choices.iter().map(|c| c.value).collect();
        let Replayed::Made(replayed) = capture
            .replay(&runner, 1000 + seed, &values, values.len(), &limits())
            .unwrap()
        else {
            panic!("{source}: the replay made no case");
        };
        assert_eq!(replayed.output, expected, "{source}, seed {seed}: replayed");
        let served: Vec<u64> = replayed.choices.iter().map(|c| c.value).collect();
        assert_eq!(served, values);
        if seed == 1 {
            first = recorded.choices;
        }
    }
    // At most 1000 draws: past the end every draw is the simplest, and a generator that
    // draws until two values differ (random.sample) would draw for ever.
    let simplest = capture.replay(&runner, 1, &[], 1000, &limits()).unwrap();
    match simplest {
        Replayed::Made(simplest) => assert!(!simplest.output.is_empty()),
        Replayed::Overrun => {}
        Replayed::Failed(why) => panic!("{source}: the simplest choices failed: {why}"),
    }
    first
}

#[test]
fn python_generators_record_and_replay_through_random() {
    require(&["python3"]);
    let dir = tempfile::tempdir().unwrap();
    let source = "import random, sys\n\
               random.seed(int(sys.argv[-1]))\n\
               r = random.Random(int(sys.argv[-1]) * 3)\n\
               n = random.randint(1, 9)\n\
               a = [random.randrange(100) for _ in range(n)]\n\
               random.shuffle(a)\n\
               print(n, random.choice('xyz'), *random.sample(range(50), 3))\n\
               print(*a, r.randint(-5, 5), round(r.random(), 6), round(random.uniform(1, 2), 6))\n\
               print(random.getrandbits(100), random.getrandbits(7), *random.choices('ab', k=4))\n\
               print(round(random.gauss(0, 1), 6), random.randbytes(3).hex())\n";
    records_and_replays(
        dir.path(),
        "gen.py",
        source,
        Mechanism::Python,
        10,
        &options(),
    );
}

#[test]
fn cpp_generators_record_and_replay_through_random_engines() {
    require(&["g++"]);
    let dir = tempfile::tempdir().unwrap();
    let source = r#"#include <bits/stdc++.h>
using namespace std;
int main(int argc, char **argv) {
    long long seed = atoll(argv[argc - 1]);
    mt19937 rng(seed);
    std::mt19937_64 wide(seed * 7);
    default_random_engine other(seed + 1);
    int n = uniform_int_distribution<int>(1, 9)(rng);
    vector<int> a(n);
    for (int &x : a) x = rng() % 100;
    shuffle(a.begin(), a.end(), rng);
    printf("%d %llu %.6f\n", n, (unsigned long long) (wide() % 1000),
           uniform_real_distribution<double>(0, 1)(rng));
    for (int x : a) printf("%d ", x);
    printf("%lld %d\n", uniform_int_distribution<long long>(-1000000000000LL, 5)(wide),
           (int) (other() % 10));
}
"#;
    records_and_replays(dir.path(), "gen.cpp", source, Mechanism::Cpp, 6, &options());
}

#[test]
fn c_generators_record_and_replay_through_rand() {
    require(&["gcc"]);
    let dir = tempfile::tempdir().unwrap();
    let source = "#include <stdio.h>\n#include <stdlib.h>\n\
               int main(int argc, char **argv) {\n\
               srand(atoi(argv[argc - 1]));\n\
               int n = rand() % 9 + 1;\n\
               printf(\"%d\\n\", n);\n\
               for (int i = 0; i < n; i++) printf(\"%d \", rand() % 100);\n\
               printf(\"\\n\");\n\
               return 0;\n}\n";
    records_and_replays(dir.path(), "gen.c", source, Mechanism::C, 2, &options());
}

#[test]
fn testlib_generators_record_and_replay_through_rnd() {
    require(&["g++"]);
    let dir = tempfile::tempdir().unwrap();
    let testlib = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/testlib/testlib.h");
    std::fs::copy(testlib, dir.path().join("testlib.h")).unwrap();
    let source = r#"#include "testlib.h"
#include <bits/stdc++.h>
using namespace std;
int main(int argc, char *argv[]) {
    registerGen(argc, argv, 1);
    int n = rnd.next(1, 9);
    vector<int> a(n);
    for (int &x : a) x = rnd.next(0, 99);
    shuffle(a.begin(), a.end());
    println(n, rnd.next("[a-z]{1,5}"), rnd.wnext(100, 2), rnd.next(1LL, 1000000000000LL));
    println(a, rnd.any(a), rnd.next(0.0, 1.0));
}
"#;
    // Built at -O1, where testlib's rnd.next is not inlined into the generator: every draw
    // is made inside testlib, and the place of a draw is still the generator's line that
    // called it, so n's draw and the loop's n draws are two places, the loop's one.
    let mut options = options();
    let o1 = ["g++", "-std=c++17", "-O1", "-pipe"];
    options
        .overrides
        .push((Language::Cpp, o1.map(String::from).to_vec()));
    let choices = records_and_replays(
        dir.path(),
        "gen.cpp",
        source,
        Mechanism::Testlib,
        6,
        &options,
    );
    let n = choices[0].value as usize + 1;
    let labels: Vec<u32> = choices.iter().map(|c| c.label).collect();
    assert!(
        labels[1..=n].iter().all(|&l| l == labels[1]) && labels[0] != labels[1],
        "places of n = {n} and its loop: {labels:?}"
    );
    assert_ne!(labels[n + 1], labels[1], "the shuffle's place: {labels:?}");
}

/// The diameter of a tree (n, then n − 1 edges), computed as the longest path through vertex
/// 1 only: wrong exactly when the longest path avoids vertex 1, whose smallest case is the
/// 6-vertex "double broom" (1 hangs off a vertex with two branches of two edges). A C++
/// generator of trees of 2 to 12 vertices (`std::mt19937`), relabelled and shuffled as setters
/// make them: every probe costs milliseconds. (The everyday benchmark runs the same problem
/// with a Python generator.)
fn write_tree_problem(dir: &Path) {
    let files = [
        (
            "gen.cpp",
            "#include <bits/stdc++.h>\nusing namespace std;\nint main(int argc, char **argv) {\n  \
             mt19937 rng(atoll(argv[argc - 1]));\n  \
             auto pick = [&](int lo, int hi) {\n    \
             return uniform_int_distribution<int>(lo, hi)(rng);\n  };\n  \
             int n = pick(2, 12);\n  vector<int> parent(n + 1), label(n + 1);\n  \
             for (int i = 2; i <= n; i++) parent[i] = pick(1, i - 1);\n  \
             iota(label.begin(), label.end(), 0);\n  \
             shuffle(label.begin() + 1, label.end(), rng);\n  \
             vector<pair<int, int>> edges;\n  \
             for (int i = 2; i <= n; i++) edges.push_back({label[parent[i]], label[i]});\n  \
             shuffle(edges.begin(), edges.end(), rng);\n  printf(\"%d\\n\", n);\n  \
             for (auto [u, v] : edges) printf(\"%d %d\\n\", u, v);\n}\n",
        ),
        (
            "ref.cpp",
            "#include <bits/stdc++.h>\nusing namespace std;\nint n; vector<vector<int>> g;\n\
             pair<int, int> far(int s) {\n  vector<int> d(n + 1, -1); queue<int> q; q.push(s); \
             d[s] = 0; int best = s;\n  while (!q.empty()) { int u = q.front(); q.pop(); if \
             (d[u] > d[best]) best = u;\n    for (int v : g[u]) if (d[v] < 0) { d[v] = d[u] + \
             1; q.push(v); } }\n  return {best, d[best]};\n}\nint main() {\n  scanf(\"%d\", \
             &n); g.assign(n + 1, {});\n  for (int i = 0; i < n - 1; i++) { int u, v; \
             scanf(\"%d %d\", &u, &v); g[u].push_back(v); g[v].push_back(u); }\n  \
             printf(\"%d\\n\", far(far(1).first).second);\n}\n",
        ),
        (
            "sol.cpp",
            "#include <bits/stdc++.h>\nusing namespace std;\nint n; vector<vector<int>> g;\n\
             int depth(int u, int p) { int best = 0; for (int v : g[u]) if (v != p) best = \
             max(best, depth(v, u) + 1); return best; }\nint main() {\n  scanf(\"%d\", &n); \
             g.assign(n + 1, {});\n  for (int i = 0; i < n - 1; i++) { int u, v; scanf(\"%d \
             %d\", &u, &v); g[u].push_back(v); g[v].push_back(u); }\n  int a = 0, b = 0;\n  \
             for (int v : g[1]) { int d = depth(v, 1) + 1; if (d > a) { b = a; a = d; } else \
             if (d > b) b = d; }\n  printf(\"%d\\n\", a + b);\n}\n",
        ),
    ];
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
}

/// The vertex count of `text` when it is a tree on 1..=n (n, then n − 1 edges, connected
/// and without a cycle); `None` otherwise.
fn tree_size(text: &str) -> Option<usize> {
    let mut lines = text.lines();
    let n: usize = lines.next()?.trim().parse().ok()?;
    let mut root: Vec<usize> = (0..=n).collect();
    fn find(root: &mut [usize], mut x: usize) -> usize {
        while root[x] != x {
            x = root[x];
        }
        x
    }
    let mut edges = 0;
    for line in lines {
        let ends: Vec<usize> = line
            .split_whitespace()
            .map(|w| w.parse().ok())
            .collect::<Option<_>>()?;
        let [u, v] = ends[..] else { return None };
        if !(1..=n).contains(&u) || !(1..=n).contains(&v) {
            return None;
        }
        let (a, b) = (find(&mut root, u), find(&mut root, v));
        if a == b {
            return None;
        }
        root[a] = b;
        edges += 1;
    }
    (edges + 1 == n).then_some(n)
}

#[test]
fn tree_sizes_are_read_only_from_trees() {
    assert_eq!(tree_size("3\n1 2\n3 2\n"), Some(3));
    assert_eq!(tree_size("3\n1 2\n1 2\n"), None);
    assert_eq!(tree_size("3\n1 2\n"), None);
    assert_eq!(tree_size("2\n1 3\n"), None);
}

#[test]
fn a_tree_shrinks_to_the_smallest_failing_tree_without_a_validator() {
    require(&["g++"]);
    let dir = tempfile::tempdir().unwrap();
    write_tree_problem(dir.path());
    // The budget is generous: what this checks is where minimization ends, which a busy
    // machine must not cut short.
    let out = with_shared_cache(dir.path())
        .args([
            "stress",
            "diameter",
            "--generator",
            "gen.cpp",
            "--reference",
            "ref.cpp",
        ])
        .args(["--shrink-time", "600", "--json"])
        .program(["sol.cpp"])
        .run()
        .code(1);
    let report = out.json();
    let original =
        std::fs::read_to_string(dir.path().join(report["original_input"].as_str().unwrap()))
            .unwrap();
    let input =
        std::fs::read_to_string(dir.path().join(report["input"].as_str().unwrap())).unwrap();
    assert!(tree_size(&original).unwrap() > 6, "{original}");
    assert_eq!(
        tree_size(&input),
        Some(6),
        "not the 6-vertex tree:\n{input}"
    );
    assert_eq!(report["verdict"], "WA");
    let human = out.stderr();
    assert_contains(
        &human,
        "shrinking the generator's choices first (C++'s <random> and rand(): ",
    );
    assert_contains(
        &human,
        "without a --validator, only the generator's own output is",
    );
}

#[test]
fn a_generator_that_is_a_program_or_reads_the_time_shrinks_as_text_saying_why() {
    require(&["python3"]);
    let dir = tempfile::tempdir().unwrap();
    let files = [
        // Seeded from the system, not the seed: another case on every run.
        (
            "gen.py",
            "import random\nrandom.seed()\nprint(random.randint(100, 10**12), 5)\n",
        ),
        ("gen.sh", "#!/bin/sh\necho \"$1 250\"\n"),
        ("ref.sh", "#!/bin/sh\nread a b; echo $((a + b))\n"),
        // Wrong once a number is at least 100.
        (
            "bad.sh",
            "#!/bin/sh\nread a b; if [ $a -ge 100 ] || [ $b -ge 100 ]; then echo 0; else \
             echo $((a + b)); fi\n",
        ),
        // Given, so that shrinking is bounded by it rather than by sampling 100 of the
        // generator's cases first (100 runs of gen.py: most of the test's time).
        ("valid.sh", "#!/bin/sh\nread a b && [ -n \"$b\" ]\n"),
    ];
    for (name, text) in files {
        crate::util::write_executable(&dir.path().join(name), text);
    }
    let stress = |generator: &str, save: &str| {
        Duipai::in_dir(dir.path())
            .args([
                "stress",
                "sum",
                "--generator",
                generator,
                "--reference",
                "./ref.sh",
                "--validator",
                "./valid.sh",
            ])
            .args(["--save", save])
            .program(["./bad.sh"])
            .run()
            .code(1)
            .stdout()
    };
    let program = stress("./gen.sh", "program");
    assert_contains(
        &program,
        "note: shrinking the text alone: ./gen.sh runs a program duipai does not build",
    );
    let timed = stress("gen.py", "timed");
    assert_contains(
        &timed,
        "note: shrinking the text alone: run again for seed 1, the generator printed another \
         case",
    );
}

/// With a build cache of its own, the recorder of a C++ generator is built during the run:
/// `shrink_ms` counts everything minimizing waited for (the build, if the search did not
/// leave it ready; recording; validation), measured here by the clock from the moment the
/// run says it is minimizing to its end. The case ends as the smallest failing one.
#[test]
fn the_time_minimizing_waited_for_the_recorder_is_reported() {
    require(&["g++", "python3"]);
    let dir = crate::util::support_workspace("brackets");
    let cache = tempfile::tempdir().unwrap();
    let (out, human, minimizing_at) = crate::util::run_noting_line(
        std::process::Command::new(crate::util::duipai())
            .current_dir(dir.path())
            .env("DUIPAI_CACHE_DIR", cache.path())
            .env("PATH", crate::util::path_without_shims())
            .env_remove("DUIPAI_CXX")
            .env_remove("DUIPAI_PYTHON")
            .args([
                "stress",
                "brackets",
                "--json",
                "-j",
                "2",
                "--generator",
                "gen.cpp",
            ])
            .args([
                "--reference",
                "ref.py",
                "--validator",
                "valid.py",
                "--",
                "wrong.py",
            ]),
        "minimizing",
    );
    let ended = std::time::Instant::now();
    assert_eq!(out.status.code(), Some(1), "{human}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let waited = ended - minimizing_at.expect("a minimizing line");
    let reported = std::time::Duration::from_millis(report["shrink_ms"].as_u64().unwrap());
    // Saving the case and writing the report come after minimizing: a little slack.
    assert!(
        reported + std::time::Duration::from_millis(1500) >= waited,
        "{reported:?} reported, {waited:?} measured\n{human}"
    );
    assert!(
        reported <= waited,
        "{reported:?} reported, {waited:?} measured"
    );
    // The case it ends with was kept within the time minimizing took.
    let reached = report["shrink_reached_ms"].as_u64().expect("a case kept");
    assert!(reached <= report["shrink_ms"].as_u64().unwrap(), "{report}");
    let input = std::fs::read_to_string(dir.path().join(report["input"].as_str().unwrap()));
    assert_eq!(input.unwrap(), "2\n)(\n", "{human}");
}

/// A Python grid generator's recorded choices are replayed in its warm interpreter (each
/// recording and replay run's command line is the server's, without the seed: the generator
/// notes it in `choices.log`), and the grid ends at the smallest failing one, 2 × 2, found by
/// enumerating every grid of up to 3 × 3.
#[test]
fn a_python_generators_choices_are_replayed_warm() {
    require(&["python3"]);
    let dir = crate::util::support_workspace("grid");
    let ran = with_shared_cache(dir.path())
        .args([
            "stress",
            "grid",
            "--json",
            "-j",
            "2",
            "--generator",
            "python3 gen.py",
        ])
        .args(["--reference", "ref.py", "--validator", "valid.py"])
        .program(["wrong.py"])
        .run()
        .code(1);
    let report = ran.json();
    let human = ran.stderr();
    assert_contains(
        &human,
        "shrinking the generator's choices first (Python's random",
    );
    let input = std::fs::read_to_string(dir.path().join(report["input"].as_str().unwrap()));
    assert_eq!(input.unwrap(), "2 2\n##\n##\n", "{human}");
    let log = std::fs::read_to_string(dir.path().join("choices.log")).unwrap();
    let words: Vec<&str> = log.lines().collect();
    // A recording run, its replay and the probes: every one warm.
    assert!(words.len() >= 3, "{log}");
    assert!(
        words.iter().all(|&w| w == "2"),
        "not all warm: {log}\n{human}"
    );
    let passes = report["shrink_passes"].as_array().unwrap();
    assert!(
        passes.iter().any(|p| p == "choices all at their simplest"),
        "{passes:?}"
    );
}

/// A recorded or replayed Python generator ends as it would without duipai, however it ends:
/// a replay whose script asks for another exit status (`sys.exit(3)`, a SystemExit raised by
/// itself or by a module of its own beside it) or raises an error makes no case; one that
/// ends cleanly makes its case, with what it wrote through a file object of its own that it
/// never closed, and one that asks for status 0 makes its case too.
#[test]
fn a_python_generators_replay_ends_with_the_status_its_script_asks_for() {
    require(&["python3"]);
    let dir = tempfile::tempdir().unwrap();
    let source = "import random, sys\n\
                  random.seed(int(sys.argv[-1]))\n\
                  k = random.randint(0, 6)\n\
                  print('case', k)\n\
                  if k == 1:\n    sys.exit(3)\n\
                  if k == 2:\n    raise SystemExit(4)\n\
                  if k == 3:\n    out = open(1, 'w', closefd=False)\n    out.write('tail')\n\
                  if k == 4:\n    import ending\n\
                  if k == 5:\n    1 / 0\n\
                  if k == 6:\n    exit(0)\n";
    std::fs::write(dir.path().join("gen.py"), source).unwrap();
    std::fs::write(dir.path().join("ending.py"), "raise SystemExit(5)\n").unwrap();
    let typed = vec![OsString::from(dir.path().join("gen.py"))];
    let capture = Capturable::new(typed, options());
    let capture = capture.ready().unwrap();
    let runner = ProcessRunner::default();
    // Seed 9 draws 3: its recording ends cleanly, with what the file object wrote.
    let recorded = capture.record(&runner, 9, &limits()).unwrap().unwrap();
    assert_eq!(recorded.output, b"case 3\ntail");
    assert_eq!(recorded.choices.len(), 1);
    for k in 0..=6u64 {
        let replayed = capture.replay(&runner, 1, &[k], 1, &limits()).unwrap();
        match (k, replayed) {
            (0, Replayed::Made(made)) => assert_eq!(made.output, b"case 0\n"),
            (3, Replayed::Made(made)) => assert_eq!(made.output, b"case 3\ntail"),
            (6, Replayed::Made(made)) => assert_eq!(made.output, b"case 6\n"),
            (1 | 2 | 4 | 5, Replayed::Failed(why)) => {
                let status = ["", "3", "4", "", "5", "1"][k as usize];
                assert_contains(&why, &format!("exit code {status}"));
            }
            (k, other) => panic!("choice {k}: {other:?}"),
        }
    }
}

#[test]
fn a_negative_value_drawn_from_a_symmetric_range_shrinks_toward_0() {
    require(&["python3"]);
    let dir = tempfile::tempdir().unwrap();
    // The largest sum of a subarray; the wrong one lets the empty subarray count, so it fails
    // exactly on arrays with every value negative. Every such array of one value fails, and
    // of them `-1` is the nearest 0; without a validator the text stays as the generator
    // printed it, so only the choices can reach it.
    let files = [
        (
            "gen.py",
            "import random, sys\nrandom.seed(int(sys.argv[-1]))\nn = random.randint(1, 8)\n\
             print(n)\nprint(*[random.randint(-10, 10) for _ in range(n)])\n",
        ),
        // The reference and the wrong program in awk, which starts in a millisecond where
        // Python takes ~70 ms: they run on every case and candidate.
        (
            "ref.sh",
            "#!/bin/sh\nawk 'NR == 2 { best = $1; for (i = 1; i <= NF; i++) { s = 0; \
             for (j = i; j <= NF; j++) { s += $j; if (s > best) best = s } } print best }'\n",
        ),
        (
            "wrong.sh",
            "#!/bin/sh\nawk 'NR == 2 { best = cur = 0; for (i = 1; i <= NF; i++) { \
             cur += $i; if (cur < 0) cur = 0; if (cur > best) best = cur } print best }'\n",
        ),
    ];
    for (name, text) in files {
        crate::util::write_executable(&dir.path().join(name), text);
    }
    let out = with_shared_cache(dir.path())
        .args(["stress", "maxsum", "--generator", "gen.py"])
        .args(["--reference", "./ref.sh", "--shrink-time", "600", "--json"])
        .program(["./wrong.sh"])
        .run()
        .code(1);
    let report = out.json();
    let input =
        std::fs::read_to_string(dir.path().join(report["input"].as_str().unwrap())).unwrap();
    assert_eq!(input, "1\n-1\n", "{}", out.stderr());
}

/// Processes that work in `dir` or whose command line names it, and that have not ended
/// (zombies aside): their pids and command lines.
fn processes_naming(dir: &Path) -> Vec<(i32, String)> {
    let needle = dir.to_string_lossy().into_owned();
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse().ok()) else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let stat = std::fs::read(entry.path().join("stat")).unwrap_or_default();
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        let works_in = std::fs::read_link(entry.path().join("cwd")).is_ok_and(|cwd| cwd == dir);
        let names = works_in || cmdline.contains(&needle);
        if names && crate::util::process_state(&stat) != Some(b'Z') {
            found.push((pid, cmdline));
        }
    }
    found
}

/// A search that ends before the recorder's build it began beside it (here a compiler that
/// takes 30 s for the recorder's build) ends that build too: the compiler ends with duipai
/// rather than run on after it, its work thrown away.
#[test]
fn the_recorders_build_ends_with_a_search_that_found_nothing() {
    require(&["g++"]);
    let dir = tempfile::tempdir().unwrap();
    let d = &dir.path().canonicalize().unwrap();
    std::fs::write(
        d.join("gen.cpp"),
        "#include <cstdio>\n#include <cstdlib>\nint main(int argc, char **argv) {\n    \
         srand(atoi(argv[argc - 1]));\n    printf(\"%d\\n\", rand() % 10);\n}\n",
    )
    .unwrap();
    let compiler = crate::util::write_sh(
        d,
        "slow-recorder-cc",
        "case \"$*\" in *duipai_choices.h*) exec sleep 30;; esac\nexec g++ \"$@\"\n",
    );
    crate::util::wait_until_executable(&compiler);
    let mut cpp = OsString::from("cpp=");
    cpp.push(&compiler);
    with_shared_cache(d)
        .args([
            "stress",
            "echo",
            "--generator",
            "gen.cpp",
            "--reference",
            "cat",
        ])
        .args(["--time", "1", "--compiler"])
        .arg(cpp)
        .program(["cat"])
        .run()
        .success();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
    let mut left = processes_naming(d);
    while !left.is_empty() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
        left = processes_naming(d);
    }
    for &(pid, _) in &left {
        // SAFETY: kill has no memory effects; these run in this test's own folder.
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
    assert_eq!(left, Vec::new(), "still running after duipai ended");
}
