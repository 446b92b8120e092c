//! The minimizer end to end: hard bugs shrink to the smallest failing cases known for them,
//! the failure keeps its kind, the result does not depend on the workers, big boards get a
//! compact report with the whole line saved, and text cases shrink with a validator.

use std::path::Path;

use duipai::problem::{self, ChessProblem, ChessboardProblem, Instance};

use crate::util::{
    Duipai, assert_contains, parse_file, require, with_shared_cache, write_executable,
};

/// Runs `duipai stress PROBLEM -j JOBS --json --save DIR [extra] -- fixture BUG PROBLEM` in
/// `dir` and returns the JSON report and the minimized case. Minimization gets ten minutes
/// rather than 30 s: what these tests check is where it ends (1-minimal, the same for any
/// number of workers), which a budget run out on a busy machine would cut short.
fn stress(
    dir: &Path,
    problem: &str,
    bug: &str,
    jobs: &str,
    extra: &[&str],
) -> (serde_json::Value, Box<dyn Instance>) {
    let save = format!("failures-{bug}-{jobs}");
    let report = Duipai::in_dir(dir)
        .args(["stress", problem, "-j", jobs, "--json", "--save", &save])
        .args(["--shrink-time", "600"])
        .args(extra)
        .fixture([bug, problem])
        .run()
        .code(1)
        .json();
    let game = problem::by_name(problem).unwrap();
    let instance = parse_file(game, &dir.join(report["input"].as_str().unwrap()));
    (report, instance)
}

#[test]
fn a_greedy_player_shrinks_to_a_two_by_two_board() {
    let dir = tempfile::tempdir().unwrap();
    let (report, case) = stress(dir.path(), "chess", "greedy", "2", &[]);
    assert_eq!(report["verdict"], "WA");
    assert_eq!(report["one_minimal"], true);
    let c = case.first_case::<ChessProblem>().unwrap();
    assert!(c.n * c.m <= 4, "{}×{}", c.n, c.m);
    let sum: i64 = c.a.iter().chain(&c.b).flatten().sum();
    assert!(sum <= 10, "value sum {sum}");
    // The case really fails: the greedy answer differs from the reference.
    assert_ne!(
        report["expected"],
        report["actual"].as_str().unwrap().trim()
    );
}

#[test]
fn an_array_too_small_for_the_largest_board_shrinks_to_an_empty_board() {
    let dir = tempfile::tempdir().unwrap();
    let (report, case) = stress(dir.path(), "chessboard", "crash-max", "2", &[]);
    assert_eq!(report["verdict"], "RE");
    let b = case.first_case::<ChessboardProblem>().unwrap();
    assert_eq!(b.n, 12);
    assert!(b.pieces() <= 1, "{} pieces", b.pieces());
    assert!(report["shrink_runs"].as_u64().unwrap() < 200);
}

#[test]
fn a_threshold_bug_keeps_failing_the_same_way_on_a_smaller_board() {
    let dir = tempfile::tempdir().unwrap();
    // A generous time limit: the fixture's memoized search takes a while on 10×10 boards in a
    // debug build on a loaded machine, and a TLE found first is not the bug looked for. The
    // search starts at seed 85, the first whose board the bug fails (a seed makes the same
    // case anywhere): from seed 1 the 84 passing 10×10 boards before it took 1.3 s, and what
    // is checked here is the minimizing.
    let (report, case) = stress(
        dir.path(),
        "chess",
        "threshold",
        "2",
        &["--time-limit", "20000", "--seed", "85"],
    );
    assert_eq!(report["seed"], 85);
    assert_eq!(report["verdict"], "WA");
    let original =
        std::fs::read(dir.path().join(report["original_input"].as_str().unwrap())).unwrap();
    let chess = problem::by_name("chess").unwrap();
    let original = chess.parse(&original, &chess.default_bounds()).unwrap();
    assert!(case.size() < original.size());
    // The bug only shows beyond ±10^6, and the minimized case still gets there.
    let answer: i64 = case.solve()[0].parse().unwrap();
    assert!(answer.abs() > 1_000_000, "{answer}");
}

#[test]
fn a_slow_program_keeps_its_time_limit_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let (report, case) = stress(
        dir.path(),
        "chess",
        "slow-big",
        "2",
        &["--time-limit", "300", "--no-replay"],
    );
    assert_eq!(report["verdict"], "TLE");
    let c = case.first_case::<ChessProblem>().unwrap();
    assert!(
        c.n * c.m >= 6,
        "a tiny board cannot be slow: {}×{}",
        c.n,
        c.m
    );
}

#[test]
fn the_minimized_case_does_not_depend_on_the_workers() {
    let dir = tempfile::tempdir().unwrap();
    for bug in ["greedy", "wrong"] {
        let (_, one) = stress(dir.path(), "chess", bug, "1", &[]);
        let (_, four) = stress(dir.path(), "chess", bug, "4", &[]);
        assert_eq!(one.to_input(), four.to_input(), "{bug}");
    }
}

#[test]
fn big_boards_get_a_compact_line_and_the_whole_one_in_a_file() {
    let dir = tempfile::tempdir().unwrap();
    // --no-shrink keeps the 12×12 board the crash was found on.
    let out = Duipai::in_dir(dir.path())
        .args(["stress", "chessboard", "--no-shrink", "--json"])
        .fixture(["crash-max", "chessboard"])
        .run()
        .code(1);
    let report = out.json();
    let path = dir
        .path()
        .join(report["explanation"].as_str().expect("an explanation file"));
    let whole = std::fs::read_to_string(&path).unwrap();
    assert!(whole.starts_with("Board 12×12"), "{whole}");
    let text = out.stderr();
    assert_contains(&text, "more moves ...");
    assert!(text.contains(&format!(
        "(the whole line of play: {}",
        report["explanation"].as_str().unwrap()
    )));
    // The compact line is shorter than the whole one.
    assert!(
        text.lines()
            .filter(|l| l.contains(". W") || l.contains(". B"))
            .count()
            <= 11
    );
}

/// A generator and reference for a problem duipai does not know ("sum": print the sum of
/// the numbers), and a validator for it, as shell scripts.
fn write_sum_problem(dir: &Path) {
    let scripts = [
        (
            "gen.sh",
            "#!/bin/sh\necho 5\necho \"$1 20 300\"\necho 4000 5 6\n",
        ),
        (
            "ref.sh",
            "#!/bin/sh\ntr ' ' '\\n' | awk '{s+=$1} END {print s+0}'\n",
        ),
        // Wrong once some number is at least 100.
        (
            "bad.sh",
            "#!/bin/sh\ntr ' ' '\\n' | awk '{s+=$1; if ($1 >= 100) b=1} END {print s+b}'\n",
        ),
        // Valid: only digits and spaces, at least one line.
        ("valid.sh", "#!/bin/sh\ngrep -q . && ! grep -q '[^0-9 ]'\n"),
    ];
    for (name, text) in scripts {
        write_executable(&dir.join(name), text);
    }
}

#[test]
fn unknown_problems_shrink_as_text_with_a_validator() {
    let dir = tempfile::tempdir().unwrap();
    write_sum_problem(dir.path());
    let out = Duipai::in_dir(dir.path())
        .args(["stress", "sum", "--generator", "sh gen.sh"])
        .args(["--reference", "./ref.sh"])
        .args(["--validator", "./valid.sh", "--json"])
        .program(["./bad.sh"])
        .run()
        .code(1);
    let report = out.json();
    assert_eq!(report["problem"], "sum");
    let input =
        std::fs::read_to_string(dir.path().join(report["input"].as_str().unwrap())).unwrap();
    // One line holding 100 and zeros: the smallest input with a number of at least 100.
    assert_eq!(input.lines().count(), 1, "{input}");
    let numbers: Vec<i64> = input
        .split_whitespace()
        .map(|w| w.parse().unwrap())
        .collect();
    assert_eq!(numbers.iter().max(), Some(&100), "{input}");
    assert!(
        numbers.iter().filter(|&&v| v != 100).all(|&v| v == 0),
        "{input}"
    );
    assert!(input.contains("100"));
    assert!(report["input"].as_str().unwrap().contains("sum-1"));
    // A text case is labelled with its size in lines and tokens.
    let human = out.stderr();
    let tokens = numbers.len();
    let label = if tokens == 1 { "token" } else { "tokens" };
    assert_contains(
        &human,
        &format!("\ncase (1 line, {tokens} {label}): duipai-failures/sum-1.in\n"),
    );
    assert!(!human.contains("without a --validator"), "{human}");
}

/// Without a validator, a smaller input counts as valid when it keeps to what the generator
/// produced (and the reference runs on it cleanly); the report says so. This generator
/// always writes the same three lines with the same numbers but one, so nothing smaller is
/// within it.
#[test]
fn unknown_problems_without_a_validator_keep_to_what_the_generator_made() {
    let dir = tempfile::tempdir().unwrap();
    write_sum_problem(dir.path());
    let text = Duipai::in_dir(dir.path())
        .args(["stress", "sum", "--generator", "./gen.sh"])
        .args(["--reference", "./ref.sh"])
        .program(["./bad.sh"])
        .run()
        .code(1)
        .stdout();
    assert_contains(
        &text,
        "note: kept within what the generator produced in 100 cases (",
    );
    assert_contains(&text, "give --validator for the real constraints");
    assert_contains(
        &text,
        "\ncase (3 lines, 7 tokens): duipai-failures/sum-1.in\n    5\n    1 20 300\n    4000 5 6\n",
    );
}

/// Writes `files` into `dir`.
fn write_files(dir: &Path, files: &[(&str, &str)]) {
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
}

/// The inversion count of "n, then n numbers", with a bug that counts equal pairs: the
/// minimized case drops numbers together with n, down to two equal numbers. The generator is
/// Python (its choices are recorded); the reference, the program and the validator are awk,
/// a fraction of a Python start on each probe.
#[test]
fn an_array_with_its_count_shrinks_to_two_equal_numbers() {
    require(&["python3", "awk"]);
    let dir = tempfile::tempdir().unwrap();
    write_files(
        dir.path(),
        &[
            (
                "gen.py",
                "import random, sys\nr = random.Random(int(sys.argv[1]))\nn = r.randint(5, 10)\n\
                 print(n)\nprint(*[r.randint(1, 9) for _ in range(n)])\n",
            ),
            (
                "brute.awk",
                "NR == 1 { n = $1 }\nNR == 2 { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; \
                 j++) c += $i + 0 > $j + 0; print c + 0 }\n",
            ),
            (
                "sol.awk",
                "NR == 1 { n = $1 }\nNR == 2 { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; \
                 j++) c += $i + 0 >= $j + 0; print c + 0 }\n",
            ),
            // 1 <= n <= 10, then n numbers in 1..=9; only empty lines after.
            (
                "val.awk",
                "function within(s, lo, hi) {\n    \
                 return s ~ /^[ \\t]*[0-9]+[ \\t]*$/ && s + 0 >= lo && s + 0 <= hi\n}\n\
                 NR == 1 { if (!within($0, 1, 10)) exit 1; n = $0 + 0; next }\n\
                 NR == 2 {\n    if (NF != n) exit 1\n    \
                 for (i = 1; i <= NF; i++) if (!within($i, 1, 9)) exit 1\n    next\n}\n\
                 $0 != \"\" { exit 1 }\nEND { if (NR < 2) exit 1 }\n",
            ),
        ],
    );
    let report = Duipai::in_dir(dir.path())
        .args(["stress", "inversions", "--generator", "python3 gen.py"])
        .args(["--reference", "awk -f brute.awk"])
        .args(["--validator", "awk -f val.awk", "--json"])
        .program(["awk", "-f", "sol.awk"])
        .run()
        .code(1)
        .json();
    assert_eq!(report["one_minimal"], true);
    let input = std::fs::read_to_string(dir.path().join(report["input"].as_str().unwrap()));
    assert_eq!(input.unwrap(), "2\n1 1\n");
}

/// T test cases, a bug in one of them: the minimized input is that case alone, with T = 1.
/// The generator is Python, so its choices are recorded and shrunk first; the reference, the
/// program and the validator are awk scripts, as the Python ones they stand for (same answers
/// and same verdicts on the generator's cases and their shrink candidates) but without an
/// interpreter's start for each of the few hundred runs.
#[test]
fn a_bug_in_one_case_of_eight_ends_with_t_1() {
    require(&["python3", "awk"]);
    let dir = tempfile::tempdir().unwrap();
    write_files(
        dir.path(),
        &[
            (
                "gen.py",
                "import random, sys\nr = random.Random(int(sys.argv[1]))\nprint(8)\n\
                 for k in range(8):\n    n = r.randint(1, 6)\n    print(n)\n    \
                 a = [r.randint(1, 6) for _ in range(n)]\n    \
                 a[-1] = 9 if k == 4 else a[-1]\n    print(*a)\n",
            ),
            // The largest number of each case.
            (
                "brute.awk",
                "NR == 1 { t = $1 }\nNR > 1 && NR <= 1 + 2 * t && NR % 2 == 1 {\n    \
                 m = $1 + 0\n    for (i = 2; i <= NF; i++) if ($i + 0 > m) m = $i + 0\n    \
                 print m\n}\n",
            ),
            // Skips the last number when it is 9.
            (
                "sol.awk",
                "NR == 1 { t = $1 }\nNR > 1 && NR <= 1 + 2 * t && NR % 2 == 0 { n = $1 + 0 }\n\
                 NR > 1 && NR <= 1 + 2 * t && NR % 2 == 1 {\n    \
                 last = (n > 1 && $n == 9) ? n - 1 : n\n    m = $1 + 0\n    \
                 for (i = 2; i <= last; i++) if ($i + 0 > m) m = $i + 0\n    print m\n}\n",
            ),
            // 1 <= T <= 8; per case 1 <= n <= 6, then n numbers in 1..=9; only empty lines after.
            (
                "val.awk",
                "function within(s, lo, hi) {\n    \
                 return s ~ /^[ \\t]*[0-9]+[ \\t]*$/ && s + 0 >= lo && s + 0 <= hi\n}\n\
                 NR == 1 { if (!within($0, 1, 8)) exit 1; t = $0 + 0; next }\n\
                 NR <= 1 + 2 * t && NR % 2 == 0 { if (!within($0, 1, 6)) exit 1; n = $0 + 0; next }\n\
                 NR <= 1 + 2 * t {\n    if (NF != n) exit 1\n    \
                 for (i = 1; i <= NF; i++) if (!within($i, 1, 9)) exit 1\n    next\n}\n\
                 $0 != \"\" { exit 1 }\nEND { if (t == 0 || NR < 1 + 2 * t) exit 1 }\n",
            ),
        ],
    );
    let out = Duipai::in_dir(dir.path())
        .args(["stress", "maxes", "--generator", "python3 gen.py"])
        .args(["--reference", "awk -f brute.awk"])
        .args(["--validator", "awk -f val.awk"])
        .arg("--json")
        .program(["awk", "-f", "sol.awk"])
        .run()
        .code(1);
    let report = out.json();
    let input =
        std::fs::read_to_string(dir.path().join(report["input"].as_str().unwrap())).unwrap();
    // One case of two numbers, the 9 last: `1 / 2 / x 9` with x lowered to 1.
    assert_eq!(input, "1\n2\n1 9\n");
    let human = out.stderr();
    assert_contains(
        &human,
        "(no smaller candidate fails: 1-minimal for the passes tried)",
    );
    assert_contains(&human, "case (3 lines, 4 tokens)");
}

/// A failing case already as small as it gets: nothing smaller replaces it, and the report
/// says so, with 0 steps, rather than "minimized"; `--json` names the passes tried.
#[test]
fn a_case_that_cannot_shrink_is_reported_as_nothing_smaller_found() {
    let dir = crate::util::support_workspace("brackets");
    let ran = with_shared_cache(dir.path())
        .args(["stress", "brackets", "--json", "--generator", "smallest.py"])
        .args(["--reference", "ref.py", "--validator", "valid.py"])
        .program(["wrong.py"])
        .run()
        .code(1);
    let report = ran.json();
    let human = ran.stderr();
    assert_contains(&human, "nothing smaller was found: 0 steps, ");
    assert!(!human.contains("minimized in"), "{human}");
    assert_eq!(report["shrink_steps"], 0);
    assert_eq!(report["one_minimal"], true);
    let input = std::fs::read(dir.path().join(report["input"].as_str().unwrap())).unwrap();
    let original = std::fs::read(dir.path().join(report["original_input"].as_str().unwrap()));
    assert_eq!(input, original.unwrap());
    let passes = report["shrink_passes"].as_array().unwrap();
    assert!(
        passes.iter().any(|p| p == "characters of strings"),
        "{passes:?}"
    );
}

/// A tree at contest size from a C++ generator whose size comes from its arguments (`path
/// 200000 1000000000`: a weighted path, labels at random, edges shuffled), with a validator:
/// the choices cannot shrink it, and the text passes halve the path step after step (every
/// leaf at once is two vertices of a path, not the most drastic candidate) down to a few
/// lines, a tree the validator accepts that the program still fails. The steps, not the
/// seconds, are asserted: one leaf pair a step took 10^5 of them. The contest-size run shrinks
/// the text alone (`--no-choices`: recording its 399,998 choices and replaying them at their
/// simplest took half the test's CPU); that the choices hand such a case to the text, saying
/// why, is checked on the same generator at 50 vertices.
#[test]
fn a_path_of_contest_size_shrinks_to_a_few_lines() {
    let dir = crate::util::support_workspace("path");
    let stress = |n: &str, extra: &[&str]| {
        with_shared_cache(dir.path())
            .args(["stress", "path", n, "1000000000", "--json"])
            .args(["--generator", "gen.cpp", "--reference", "ref.cpp"])
            .args(["--validator", "valid.cpp", "--shrink-time", "300"])
            .args(extra)
            .program(["wrong.cpp"])
            .run()
            .code(1)
    };
    let ran = stress("200000", &["--no-choices"]);
    // Saved to a folder of its own: the contest-size case is read below.
    let small = stress("50", &["--save", "small"]);
    assert_contains(
        &small.stderr(),
        "recorded, but with every choice at its simplest the generator prints a case as large \
         (its size may come from its arguments)",
    );
    let report = ran.json();
    let input =
        std::fs::read_to_string(dir.path().join(report["input"].as_str().unwrap())).unwrap();
    assert!(input.lines().count() <= 6, "{input}");
    let steps = report["shrink_steps"].as_u64().unwrap();
    assert!(steps <= 60, "{steps} steps");
    // A tree (n − 1 edges joining all n vertices), on which the farthest distance from vertex
    // 1 is not the farthest pair's: what wrong.cpp answers is wrong.
    let mut lines = input.lines();
    let n: usize = lines.next().unwrap().trim().parse().unwrap();
    let mut adj = vec![Vec::new(); n + 1];
    for line in lines {
        let t: Vec<u64> = line
            .split_whitespace()
            .map(|x| x.parse().unwrap())
            .collect();
        let (u, v, w) = (t[0] as usize, t[1] as usize, t[2]);
        assert!((1..=n).contains(&u) && (1..=n).contains(&v) && (1..=1_000_000_000).contains(&w));
        adj[u].push((v, w));
        adj[v].push((u, w));
    }
    let distances = |from: usize| {
        let mut dist = vec![None; n + 1];
        dist[from] = Some(0u64);
        let mut stack = vec![from];
        while let Some(u) = stack.pop() {
            for &(v, w) in &adj[u] {
                if dist[v].is_none() {
                    dist[v] = Some(dist[u].unwrap() + w);
                    stack.push(v);
                }
            }
        }
        dist
    };
    let from_one = distances(1);
    assert!(
        from_one[1..].iter().all(Option::is_some),
        "not connected: {input}"
    );
    assert_eq!(input.lines().count(), n, "not a tree: {input}");
    let wrong = from_one[1..].iter().flatten().max().copied().unwrap();
    let right = (1..=n)
        .map(|s| distances(s)[1..].iter().flatten().max().copied().unwrap())
        .max()
        .unwrap();
    assert!(wrong < right, "{input}");
}

/// A case over its time limit is minimized within its budget (10 s by default), the last
/// probe included: each failing candidate runs up to the limit, and none starts that could
/// not end in time, the first of each phase (the choices', then the text's) included. The
/// clock runs from the moment the run says it is minimizing to its exit; saving the case and
/// the report come after, hence the margin.
#[test]
fn a_time_limit_case_stops_within_its_budget_with_its_last_probe() {
    require(&["python3"]);
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
    write(
        "gen.py",
        "import random, sys\nrandom.seed(int(sys.argv[-1]))\nn = random.randint(5, 40)\n\
         print(n)\nprint(*[random.randint(1, 100) for _ in range(n)])\n",
    );
    write("ref.py", "input()\nprint(sum(map(int, input().split())))\n");
    write(
        "valid.py",
        "import sys\nn, *a = map(int, sys.stdin.read().split())\nsys.exit(0 if n == len(a) \
         and n >= 1 else 1)\n",
    );
    // Spins from n = 3 on: every candidate of 3 numbers or more runs to the limit.
    write(
        "sol.py",
        "n = int(input())\na = list(map(int, input().split()))\nwhile n >= 3:\n    pass\n\
         print(sum(a))\n",
    );
    let (out, human, minimizing_at) = crate::util::run_noting_line(
        std::process::Command::new(crate::util::duipai())
            .current_dir(dir.path())
            .args(["stress", "sums", "--json", "--generator", "gen.py"])
            .args(["--reference", "ref.py", "--validator", "valid.py"])
            .args(["--time-limit", "200", "--", "sol.py"]),
        "minimizing",
    );
    let waited = minimizing_at.expect("a minimizing line").elapsed();
    assert_eq!(out.status.code(), Some(1), "{human}");
    let report: serde_json::Value =
        serde_json::from_slice(out.stdout.split(|&b| b == b'\n').next().unwrap()).unwrap();
    assert_eq!(report["verdict"], "TLE", "{human}");
    let budget = std::time::Duration::from_secs(10);
    let reported = std::time::Duration::from_millis(report["shrink_ms"].as_u64().unwrap());
    assert!(reported <= budget, "{reported:?} reported\n{human}");
    assert!(
        waited <= budget + std::time::Duration::from_secs(2),
        "{waited:?} from the minimizing line to the exit\n{human}"
    );
}

/// A large case over its time limit whose budget is shorter than one run of it (the
/// failing run took at least the 0.5 s limit; the budget is 0.3 s) is not read for the text
/// at all: reading 10^5 numbers and listing their candidates would only overrun it, since no
/// candidate could run. The report says why, and minimizing keeps within the budget.
#[test]
fn a_large_time_limit_case_with_no_time_for_a_run_is_not_read_for_the_text() {
    require(&["python3"]);
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
    write(
        "gen.py",
        "import random, sys\nrandom.seed(int(sys.argv[-1]))\nn = 100000\nprint(n)\n\
         print(' '.join(str(random.randint(1, 10**9)) for _ in range(n)))\n",
    );
    write("ref.py", "input()\nprint(max(map(int, input().split())))\n");
    write("sol.py", "while True:\n    pass\n");
    let out = std::process::Command::new(crate::util::duipai())
        .current_dir(dir.path())
        .args(["stress", "maxes", "--json", "--no-choices", "-j", "1"])
        .args(["--generator", "gen.py", "--reference", "ref.py"])
        .args([
            "--time-limit",
            "500",
            "--shrink-time",
            "0.3",
            "--",
            "sol.py",
        ])
        .output()
        .unwrap();
    let human = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{human}");
    let report: serde_json::Value =
        serde_json::from_slice(out.stdout.split(|&b| b == b'\n').next().unwrap()).unwrap();
    assert_eq!(report["verdict"], "TLE", "{human}");
    assert_contains(&human, "note: the text is not shrunk: ");
    assert_contains(
        &human,
        "s of the budget left, less than a run of the case takes",
    );
    assert_eq!(report["shrink_runs"], 0, "{human}");
    let reported = report["shrink_ms"].as_u64().unwrap();
    assert!(reported <= 300, "{reported} ms reported\n{human}");
    let input = std::fs::read_to_string(dir.path().join(report["input"].as_str().unwrap()));
    assert_eq!(input.unwrap().split_whitespace().count(), 100_001);
}
