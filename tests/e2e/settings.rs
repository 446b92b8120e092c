//! A problem folder that remembers: `duipai.toml` read by the real binary (settings as flags,
//! flags typed winning, positioned errors), `duipai init`, `duipai failures` listing and
//! pruning, and the small things users met: the tip after an unknown flag, "did you mean
//! chess?" for a problem name, the rate of slow runs.

use std::path::Path;

use crate::util::{Duipai, assert_contains, require, with_shared_cache};

/// The mean of n integers rounded down, the problem of these tests.
const GEN_PY: &str = "\
import random, sys
r = random.Random(int(sys.argv[-1]))
n = r.randint(1, 6)
print(n)
print(*[r.randint(-20, 20) for _ in range(n)])
";

const BRUTE_PY: &str = "\
n = int(input())
a = list(map(int, input().split()))
print(sum(a) // n)
";

/// Wrong: C++ division rounds toward zero, so a negative mean that is not whole is off by one.
const SOL_CPP: &str = "\
#include <cstdio>
int main() {
    long long n, s = 0, x;
    if (scanf(\"%lld\", &n) != 1) return 1;
    for (long long i = 0; i < n; i++) { scanf(\"%lld\", &x); s += x; }
    printf(\"%lld\\n\", s / n);
}
";

/// Right: rounds down.
const GOOD_CPP: &str = "\
#include <cstdio>
int main() {
    long long n, s = 0, x;
    if (scanf(\"%lld\", &n) != 1) return 1;
    for (long long i = 0; i < n; i++) { scanf(\"%lld\", &x); s += x; }
    long long q = s / n;
    if (s % n != 0 && s < 0) q--;
    printf(\"%lld\\n\", q);
}
";

/// Checks an input: n, then n integers.
const VAL_PY: &str = "\
import sys
lines = sys.stdin.read().split('\\n')
n = int(lines[0])
sys.exit(0 if 1 <= n == len(lines[1].split()) else 1)
";

/// The brute force and the validator again in C++, for the test whose minimizing runs them
/// on every candidate (a Python start costs more than either's work).
const BRUTE_CPP: &str = "\
#include <cmath>
#include <cstdio>
int main() {
    long long n, s = 0, x;
    if (scanf(\"%lld\", &n) != 1) return 1;
    for (long long i = 0; i < n; i++) { if (scanf(\"%lld\", &x) != 1) return 1; s += x; }
    printf(\"%lld\\n\", (long long)std::floor((double)s / n));
}
";

const VAL_CPP: &str = "\
#include <iostream>
#include <sstream>
#include <string>
int main() {
    std::string first, second, word;
    if (!std::getline(std::cin, first) || !std::getline(std::cin, second)) return 1;
    std::istringstream head(first);
    long long n, count = 0;
    if (!(head >> n) || head >> word) return 1;
    std::istringstream values(second);
    while (values >> word) count++;
    return 1 <= n && n == count ? 0 : 1;
}
";

const SETTINGS: &str = "\
problem = \"avg\"
time-limit = \"2s\"

[stress]
generator = \"python3 gen.py\"
reference = \"brute.py\"
jobs = 2
";

/// A problem folder: the generator, the brute force, a wrong and a right solution.
fn problem_folder(settings: Option<&str>) -> tempfile::TempDir {
    require(&["python3", "g++"]);
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (name, text) in [
        ("gen.py", GEN_PY),
        ("brute.py", BRUTE_PY),
        ("sol.cpp", SOL_CPP),
        ("good.cpp", GOOD_CPP),
        ("val.py", VAL_PY),
    ] {
        std::fs::write(d.join(name), text).unwrap();
    }
    if let Some(settings) = settings {
        std::fs::write(d.join("duipai.toml"), settings).unwrap();
    }
    dir
}

/// `duipai` in `dir`, with the default compilers and the build cache these tests share:
/// every test compiles the same sources, which no test here is about.
fn duipai(dir: &Path) -> Duipai {
    with_shared_cache(dir)
}

/// `duipai stress` in `dir`, as [`duipai`].
fn stress(dir: &Path) -> Duipai {
    duipai(dir).arg("stress")
}

fn saved_inputs(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".in") && !n.contains(".original"))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn stress_finds_the_bug_with_nothing_but_the_program() {
    let dir = problem_folder(Some(SETTINGS));
    let d = dir.path();
    let report = stress(d).program(["sol.cpp"]).run().code(1).stdout();
    assert_contains(&report, "stressing sol.cpp on avg");
    assert_contains(&report, "WA expected");
    let failures = d.join("duipai-failures");
    let saved = saved_inputs(&failures);
    assert_eq!(saved.len(), 1, "{saved:?}");
    assert!(saved[0].starts_with("avg-"), "{saved:?}");
    // The sidecar names the program that failed.
    let meta = std::fs::read_to_string(failures.join(saved[0].replace(".in", ".meta"))).unwrap();
    let meta: serde_json::Value = serde_json::from_str(&meta).unwrap();
    assert_eq!(meta["program"], "sol.cpp");
    assert_eq!(meta["verdict"], "WA");
    // The right solution passes with the same settings (the saved case replayed first).
    let out = stress(d)
        .args(["--iterations", "5"])
        .program(["good.cpp"])
        .run()
        .success();
    assert_contains(&out.stdout(), "all of them pass now");
}

#[test]
fn flags_typed_override_the_file() {
    let settings = format!("{SETTINGS}seed = 5\nno-shrink = true\nwall-limit = \"3s\"\n");
    let dir = problem_folder(Some(&settings));
    let d = dir.path();
    // The seed and the save directory typed win over the file's; the file's problem,
    // generator and reference still apply (a word after `stress` is the generator's, as for
    // `gen`: gen.py takes its last argument as the seed).
    let report = stress(d)
        .args(["mean", "--seed", "40", "--iterations", "1"])
        .args(["--save", "elsewhere", "--json"])
        .program(["good.cpp"])
        .run()
        .success()
        .json();
    assert_eq!(report["problem"], "avg");
    assert_eq!(report["first_seed"], 40);
    assert_eq!(report["last_seed"], 40);
    // The file's seed, when none is typed; its no-shrink: the failure is saved as found.
    let report = stress(d)
        .args(["--iterations", "200", "--json"])
        .program(["sol.cpp"])
        .run()
        .code(1)
        .json();
    assert!(report["seed"].as_u64().unwrap() >= 5, "{report}");
    assert!(report["shrink_runs"].is_null(), "{report}");
    // `test` takes the problem from the file and the directory typed.
    let test = || duipai(d).args(["test", "duipai-failures"]);
    let out = test().program(["good.cpp"]).run().success();
    assert_contains(&out.stdout(), "testing good.cpp on 1 case");
    // A wall-clock limit typed wins over the file's 3 s.
    std::fs::write(
        d.join("slow.py"),
        "import time\ntime.sleep(0.5)\nn = int(input())\na = list(map(int, input().split()))\nprint(sum(a) // n)\n",
    )
    .unwrap();
    let slow = ["python3", "slow.py"];
    test().program(slow).run().success();
    let typed_limit = test()
        .args(["--wall-limit", "200"])
        .program(slow)
        .run()
        .code(1);
    assert_contains(&typed_limit.stdout(), "TLE");
}

#[test]
fn errors_in_the_file_are_positioned() {
    let dir = problem_folder(None);
    let d = dir.path();
    let cases = [
        (
            "problem = \"avg\"\n\n[stress]\ngenerater = \"python3 gen.py\"\n",
            "duipai.toml:4:1: unknown setting \"generater\" (did you mean \"generator\"?)",
        ),
        (
            "problem = \"avg\"\ntime-limit = \"fast\"\n",
            "duipai.toml:2:14: time-limit: expected milliseconds like 1500, 1500ms or 2s, found \
             \"fast\"",
        ),
        (
            "[test]\ngenerator = \"gen.py\"\n",
            "duipai.toml:2:1: \"generator\" is not a setting of duipai test (it is one of duipai \
             stress, duipai gen, duipai pack, duipai judge, duipai hunt)",
        ),
        ("problem = avg\n", "duipai.toml:1:11: "),
    ];
    for (text, message) in cases {
        std::fs::write(d.join("duipai.toml"), text).unwrap();
        let err = stress(d).program(["sol.cpp"]).run().code(2).stderr();
        assert!(err.starts_with(message), "{text}: {err}");
        assert!(!d.join("duipai-failures").exists());
    }
    // With --json, stdout's last line says so.
    let out = stress(d).arg("--json").program(["sol.cpp"]).run().code(2);
    assert_eq!(out.json()["status"], "error");
    // --config names another file; paths in it are relative to it.
    let elsewhere = tempfile::tempdir().unwrap();
    let config = d.join("duipai.toml");
    std::fs::write(&config, SETTINGS).unwrap();
    duipai(elsewhere.path())
        .arg("--config")
        .arg(&config)
        .args(["stress", "--iterations", "5"])
        .program([d.join("good.cpp")])
        .run()
        .success();
    let out = duipai(d)
        .args(["--config", "missing.toml", "stress"])
        .program(["sol.cpp"])
        .run()
        .code(2);
    assert_contains(&out.stderr(), "missing.toml");
}

#[test]
fn init_writes_a_file_that_then_works() {
    let parent = problem_folder(None);
    // The folder's name names the problem.
    let d = parent.path().join("avg");
    std::fs::create_dir(&d).unwrap();
    for name in ["gen.py", "brute.py", "sol.cpp"] {
        std::fs::copy(parent.path().join(name), d.join(name)).unwrap();
    }
    duipai(&d).arg("init").run().success();
    let written = std::fs::read_to_string(d.join("duipai.toml")).unwrap();
    assert_contains(&written, "\nproblem = \"avg\"\n");
    assert_contains(&written, "\ngenerator = \"gen.py\"");
    assert_contains(&written, "\nreference = \"brute.py\"");
    assert_contains(&written, "# time-limit = ");
    // The file works: the failure is found (minimizing it is other tests' subject).
    let out = stress(&d)
        .arg("--no-shrink")
        .program(["sol.cpp"])
        .run()
        .code(1);
    assert_contains(&out.stdout(), "WA expected");
    // Never over an existing file.
    std::fs::write(d.join("duipai.toml"), "# mine\n").unwrap();
    let out = duipai(&d).args(["init", "other"]).run().code(2);
    assert_contains(&out.stderr(), "already exists");
    assert_eq!(
        std::fs::read_to_string(d.join("duipai.toml")).unwrap(),
        "# mine\n"
    );
    // A game duipai knows, named: its own generator and reference serve.
    let chess = tempfile::tempdir().unwrap();
    duipai(chess.path()).args(["init", "chess"]).run().success();
    stress(chess.path())
        .args(["--iterations", "20"])
        .fixture(["correct", "chess"])
        .run()
        .success();
}

#[test]
fn failures_are_listed_and_pruned() {
    // With a validator, failing cases are minimized: each has its case as found beside it.
    let settings = SETTINGS.replace("brute.py", "brute.cpp");
    let settings = format!("{settings}validator = \"val.cpp\"\n");
    let dir = problem_folder(Some(&settings));
    let d = dir.path();
    std::fs::write(d.join("brute.cpp"), BRUTE_CPP).unwrap();
    std::fs::write(d.join("val.cpp"), VAL_CPP).unwrap();
    stress(d).program(["sol.cpp"]).run().code(1);
    let failures = d.join("duipai-failures");
    // Kept aside for the `stress --prune-passing` at the end.
    let kept = tempfile::tempdir().unwrap();
    crate::util::copy_tree(&failures, kept.path());
    std::fs::write(failures.join("notes.txt"), "mine").unwrap();
    let saved = saved_inputs(&failures);
    let seed = saved[0]
        .trim_start_matches("avg-")
        .trim_end_matches(".in")
        .to_string();

    let listing = duipai(d).arg("failures").run().success().stdout();
    let header = listing.lines().next().unwrap();
    for column in ["problem", "seed", "verdict", "program", "size", "saved"] {
        assert!(header.contains(column), "{listing}");
    }
    let row: Vec<&str> = listing.lines().nth(1).unwrap().split_whitespace().collect();
    assert_eq!(
        &row[..4],
        ["avg", seed.as_str(), "WA", "sol.cpp"],
        "{listing}"
    );
    assert_eq!(row[5], "B", "{listing}");

    // A missing program is reported before anything runs, and nothing is removed.
    let prune = || duipai(d).args(["failures", "--prune-passing"]);
    let out = prune().program(["missing.cpp"]).run().code(2);
    assert_contains(&out.stderr(), "cannot read missing.cpp");
    assert!(!out.stdout().contains("re-running"), "{}", out.stdout());
    let out = stress(d).program(["missing.cpp"]).run().code(2);
    assert!(!out.stdout().contains("replaying"), "{}", out.stdout());
    assert_eq!(saved_inputs(&failures), saved);

    // Still failing: kept.
    let out = prune().program(["sol.cpp"]).run().code(1);
    assert_contains(&out.stdout(), "1 still failing; nothing removed");
    assert_eq!(saved_inputs(&failures), saved);

    // Passing now: its files go, and only those.
    let report = prune().program(["good.cpp"]).run().success().stdout();
    assert_contains(
        &report,
        &format!("removed duipai-failures/avg-{seed}.{{in,ans,out,err,meta}}"),
    );
    assert_contains(&report, &format!("avg-{seed}.original.{{"));
    let left: Vec<String> = std::fs::read_dir(&failures)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["notes.txt"]);
    let out = duipai(d).arg("failures").run();
    assert_contains(&out.stdout(), "no saved failures of avg");

    // `stress --prune-passing` does the same with the cases it replays first.
    crate::util::copy_tree(kept.path(), &failures);
    assert_eq!(saved_inputs(&failures), saved);
    let out = stress(d)
        .args(["--prune-passing", "--iterations", "3"])
        .program(["good.cpp"])
        .run()
        .success();
    assert_contains(&out.stdout(), "removed duipai-failures/avg-");
    assert!(saved_inputs(&failures).is_empty());
}

#[test]
fn an_unknown_flag_gets_a_true_tip() {
    let dir = tempfile::tempdir().unwrap();
    let err = stress(dir.path())
        .args(["chess", "--frobnicate", "x"])
        .program(["a.out"])
        .run()
        .code(2)
        .stderr();
    assert_contains(&err, "unexpected argument '--frobnicate'");
    assert!(!err.contains("as a value, use"), "{err}");
    assert_contains(
        &err,
        "to pass '--frobnicate' to the program, write it after the program",
    );
}

#[test]
fn a_near_miss_of_a_game_is_pointed_out() {
    let dir = problem_folder(None);
    let d = dir.path();
    // Without a generator: an error that suggests the game.
    let out = stress(d).arg("chesss").program(["sol.cpp"]).run().code(2);
    assert_contains(&out.stderr(), "did you mean chess?");
    // With one: any name is allowed, so it is a note, and the run goes on.
    let external = |problem: &str| {
        stress(d)
            .args([problem, "--generator", "gen.py", "--reference", "brute.py"])
            .program(["good.cpp"])
    };
    let out = external("chesss")
        .args(["--iterations", "2"])
        .run()
        .success();
    assert_contains(&out.stderr(), "note: \"chesss\"");
    assert_contains(&out.stderr(), "did you mean chess?");
    // A name two edits or more from every game gets no note (`guess` is two from `chess`).
    for far in ["avg", "guess"] {
        let out = external(far).args(["--iterations", "1"]).run();
        assert!(!out.stderr().contains("did you mean"), "{}", out.stderr());
    }
}

#[test]
fn a_slow_run_shows_its_rate_with_two_digits() {
    let dir = problem_folder(None);
    let d = dir.path();
    std::fs::write(
        d.join("slow_gen.py"),
        format!("import time\ntime.sleep(0.15)\n{GEN_PY}"),
    )
    .unwrap();
    let report = stress(d)
        .args(["avg", "--generator", "slow_gen.py"])
        .args(["--reference", "brute.py"])
        .args(["--iterations", "2", "-j", "1"])
        .program(["good.cpp"])
        .run()
        .success()
        .stdout();
    let line = report.lines().find(|l| l.contains("cases/s")).unwrap();
    let rate = line
        .split(", ")
        .find_map(|part| part.strip_suffix(" cases/s"))
        .unwrap();
    // Two cases take more than 0.3 s: below 10 cases/s, so two significant digits.
    let digits: String = rate.chars().filter(|c| c.is_ascii_digit()).collect();
    assert!(
        rate.contains('.') && digits.trim_start_matches('0').len() == 2,
        "{line}"
    );
}
