//! A problem folder that remembers: `duipai.toml` read by the real binary (settings as flags,
//! flags typed winning, positioned errors), `duipai init`, `duipai failures` listing and
//! pruning, and the small things users met: the tip after an unknown flag, "did you mean
//! chess?" for a problem name, the rate of slow runs.

use std::path::Path;
use std::process::{Command, Output};

use crate::util::{code, duipai, fixture, last_json, stderr, stdout};

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

const SETTINGS: &str = "\
problem = \"avg\"
time-limit = \"2s\"

[stress]
generator = \"python3 gen.py\"
reference = \"brute.py\"
jobs = 2
";

/// The tools these tests compile and run; missing ones fail the test, saying what to install.
fn require_tools() {
    for (tool, package) in [("python3", "python3"), ("g++", "g++ (build-essential)")] {
        let found = Command::new(tool).arg("--version").output().is_ok();
        assert!(found, "{tool} is needed by this test: install {package}");
    }
}

/// A problem folder: the generator, the brute force, a wrong and a right solution.
fn problem_folder(settings: Option<&str>) -> tempfile::TempDir {
    require_tools();
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

/// `duipai ARGS` in `dir`, with a build cache of its own and the default compilers.
fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(duipai())
        .args(args)
        .current_dir(dir)
        .env("DUIPAI_CACHE_DIR", dir.join(".cache"))
        .env_remove("DUIPAI_CXX")
        .env_remove("DUIPAI_PYTHON")
        .output()
        .expect("duipai runs")
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
    let out = run(d, &["stress", "--", "sol.cpp"]);
    assert_eq!(code(&out), 1, "{}{}", stdout(&out), stderr(&out));
    let report = stdout(&out);
    assert!(report.contains("stressing sol.cpp on avg"), "{report}");
    assert!(report.contains("WA expected"), "{report}");
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
    let out = run(d, &["stress", "--iterations", "20", "--", "good.cpp"]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    assert!(
        stdout(&out).contains("all of them pass now"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn flags_typed_override_the_file() {
    let settings = format!("{SETTINGS}seed = 5\nno-shrink = true\nwall-limit = \"3s\"\n");
    let dir = problem_folder(Some(&settings));
    let d = dir.path();
    // A problem typed on the command line wins over the file's, and so do the seed and the
    // save directory; the file's generator and reference still apply.
    let out = run(
        d,
        &[
            "stress",
            "mean",
            "--seed",
            "40",
            "--iterations",
            "1",
            "--save",
            "elsewhere",
            "--json",
            "--",
            "good.cpp",
        ],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let report = last_json(&out);
    assert_eq!(report["problem"], "mean");
    assert_eq!(report["first_seed"], 40);
    assert_eq!(report["last_seed"], 40);
    // The file's seed, when none is typed; its no-shrink: the failure is saved as found.
    let out = run(
        d,
        &["stress", "--iterations", "200", "--json", "--", "sol.cpp"],
    );
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let report = last_json(&out);
    assert!(report["seed"].as_u64().unwrap() >= 5, "{report}");
    assert!(report["shrink_runs"].is_null(), "{report}");
    // `test` takes the problem from the file and the directory typed.
    let out = run(d, &["test", "duipai-failures", "--", "good.cpp"]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    assert!(
        stdout(&out).contains("testing good.cpp on 1 case"),
        "{}",
        stdout(&out)
    );
    // A wall-clock limit typed wins over the file's 3 s.
    std::fs::write(
        d.join("slow.py"),
        "import time\ntime.sleep(1.5)\nn = int(input())\na = list(map(int, input().split()))\nprint(sum(a) // n)\n",
    )
    .unwrap();
    let file_limit = run(d, &["test", "duipai-failures", "--", "python3", "slow.py"]);
    assert_eq!(code(&file_limit), 0, "{}", stdout(&file_limit));
    let typed_limit = run(
        d,
        &[
            "test",
            "duipai-failures",
            "--wall-limit",
            "500",
            "--",
            "python3",
            "slow.py",
        ],
    );
    assert_eq!(code(&typed_limit), 1, "{}", stdout(&typed_limit));
    assert!(
        stdout(&typed_limit).contains("TLE"),
        "{}",
        stdout(&typed_limit)
    );
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
             stress)",
        ),
        ("problem = avg\n", "duipai.toml:1:11: "),
    ];
    for (text, message) in cases {
        std::fs::write(d.join("duipai.toml"), text).unwrap();
        let out = run(d, &["stress", "--", "sol.cpp"]);
        assert_eq!(code(&out), 2, "{text}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(err.starts_with(message), "{text}: {err}");
        assert!(!d.join("duipai-failures").exists());
    }
    // With --json, stdout's last line says so.
    let out = run(d, &["stress", "--json", "--", "sol.cpp"]);
    assert_eq!(code(&out), 2);
    assert_eq!(last_json(&out)["status"], "error");
    // --config names another file; paths in it are relative to it.
    let elsewhere = tempfile::tempdir().unwrap();
    let config = d.join("duipai.toml");
    std::fs::write(&config, SETTINGS).unwrap();
    let config = config.display().to_string();
    let out = run(
        elsewhere.path(),
        &[
            "--config",
            &config,
            "stress",
            "--iterations",
            "5",
            "--",
            &d.join("good.cpp").display().to_string(),
        ],
    );
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    let out = run(d, &["--config", "missing.toml", "stress", "--", "sol.cpp"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("missing.toml"), "{}", stderr(&out));
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
    let out = run(&d, &["init"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let written = std::fs::read_to_string(d.join("duipai.toml")).unwrap();
    assert!(written.contains("\nproblem = \"avg\"\n"), "{written}");
    assert!(written.contains("\ngenerator = \"gen.py\""), "{written}");
    assert!(written.contains("\nreference = \"brute.py\""), "{written}");
    assert!(written.contains("# time-limit = "), "{written}");
    let out = run(&d, &["stress", "--", "sol.cpp"]);
    assert_eq!(code(&out), 1, "{}{}", stdout(&out), stderr(&out));
    assert!(stdout(&out).contains("WA expected"), "{}", stdout(&out));
    // Never over an existing file.
    std::fs::write(d.join("duipai.toml"), "# mine\n").unwrap();
    let out = run(&d, &["init", "other"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("already exists"), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(d.join("duipai.toml")).unwrap(),
        "# mine\n"
    );
    // A game duipai knows, named: its own generator and reference serve.
    let chess = tempfile::tempdir().unwrap();
    let out = run(chess.path(), &["init", "chess"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let fixture = fixture();
    let out = run(
        chess.path(),
        &[
            "stress",
            "--iterations",
            "20",
            "--",
            fixture.to_str().unwrap(),
            "correct",
            "chess",
        ],
    );
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
}

#[test]
fn failures_are_listed_and_pruned() {
    // With a validator, failing cases are minimized: each has its case as found beside it.
    let settings = format!("{SETTINGS}validator = \"val.py\"\n");
    let dir = problem_folder(Some(&settings));
    let d = dir.path();
    let out = run(d, &["stress", "--", "sol.cpp"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let failures = d.join("duipai-failures");
    std::fs::write(failures.join("notes.txt"), "mine").unwrap();
    let saved = saved_inputs(&failures);
    let seed = saved[0]
        .trim_start_matches("avg-")
        .trim_end_matches(".in")
        .to_string();

    let out = run(d, &["failures"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let listing = stdout(&out);
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
    let out = run(d, &["failures", "--prune-passing", "--", "missing.cpp"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("cannot read missing.cpp"),
        "{}",
        stderr(&out)
    );
    assert!(!stdout(&out).contains("re-running"), "{}", stdout(&out));
    let out = run(d, &["stress", "--", "missing.cpp"]);
    assert_eq!(code(&out), 2);
    assert!(!stdout(&out).contains("replaying"), "{}", stdout(&out));
    assert_eq!(saved_inputs(&failures), saved);

    // Still failing: kept.
    let out = run(d, &["failures", "--prune-passing", "--", "sol.cpp"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(
        stdout(&out).contains("1 still failing; nothing removed"),
        "{}",
        stdout(&out)
    );
    assert_eq!(saved_inputs(&failures), saved);

    // Passing now: its files go, and only those.
    let out = run(d, &["failures", "--prune-passing", "--", "good.cpp"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let report = stdout(&out);
    assert!(
        report.contains(&format!(
            "removed duipai-failures/avg-{seed}.{{in,ans,out,err,meta}}"
        )),
        "{report}"
    );
    assert!(
        report.contains(&format!("avg-{seed}.original.{{")),
        "{report}"
    );
    let left: Vec<String> = std::fs::read_dir(&failures)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["notes.txt"]);
    let out = run(d, &["failures"]);
    assert!(
        stdout(&out).contains("no saved failures of avg"),
        "{}",
        stdout(&out)
    );

    // `stress --prune-passing` does the same with the cases it replays first.
    let out = run(d, &["stress", "--", "sol.cpp"]);
    assert_eq!(code(&out), 1);
    let out = run(
        d,
        &[
            "stress",
            "--prune-passing",
            "--iterations",
            "3",
            "--",
            "good.cpp",
        ],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stdout(&out).contains("removed duipai-failures/avg-"),
        "{}",
        stdout(&out)
    );
    assert!(saved_inputs(&failures).is_empty());
}

#[test]
fn an_unknown_flag_gets_a_true_tip() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        dir.path(),
        &["stress", "chess", "--frobnicate", "x", "--", "a.out"],
    );
    assert_eq!(code(&out), 2);
    let err = stderr(&out);
    assert!(err.contains("unexpected argument '--frobnicate'"), "{err}");
    assert!(!err.contains("as a value, use"), "{err}");
    assert!(
        err.contains("to pass '--frobnicate' to the program, write it after the program"),
        "{err}"
    );
}

#[test]
fn a_near_miss_of_a_game_is_pointed_out() {
    let dir = problem_folder(None);
    let d = dir.path();
    // Without a generator: an error that suggests the game.
    let out = run(d, &["stress", "chesss", "--", "sol.cpp"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("did you mean chess?"),
        "{}",
        stderr(&out)
    );
    // With one: any name is allowed, so it is a note, and the run goes on.
    let out = run(
        d,
        &[
            "stress",
            "chesss",
            "--generator",
            "gen.py",
            "--reference",
            "brute.py",
            "--iterations",
            "2",
            "--",
            "good.cpp",
        ],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("note: \"chesss\""),
        "{}",
        stderr(&out)
    );
    assert!(
        stderr(&out).contains("did you mean chess?"),
        "{}",
        stderr(&out)
    );
    // A name far from every game gets no note.
    let out = run(
        d,
        &[
            "stress",
            "avg",
            "--generator",
            "gen.py",
            "--reference",
            "brute.py",
            "--iterations",
            "1",
            "--",
            "good.cpp",
        ],
    );
    assert!(!stderr(&out).contains("did you mean"), "{}", stderr(&out));
}

#[test]
fn a_slow_run_shows_its_rate_with_two_digits() {
    let dir = problem_folder(None);
    let d = dir.path();
    std::fs::write(
        d.join("slow_gen.py"),
        format!("import time\ntime.sleep(0.4)\n{GEN_PY}"),
    )
    .unwrap();
    let out = run(
        d,
        &[
            "stress",
            "avg",
            "--generator",
            "slow_gen.py",
            "--reference",
            "brute.py",
            "--iterations",
            "2",
            "-j",
            "1",
            "--",
            "good.cpp",
        ],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let report = stdout(&out);
    let line = report.lines().find(|l| l.contains("cases/s")).unwrap();
    let rate = line
        .split(", ")
        .find_map(|part| part.strip_suffix(" cases/s"))
        .unwrap();
    // Two cases take more than 0.8 s: below 10 cases/s, so two significant digits.
    let digits: String = rate.chars().filter(|c| c.is_ascii_digit()).collect();
    assert!(
        rate.contains('.') && digits.trim_start_matches('0').len() == 2,
        "{line}"
    );
}
