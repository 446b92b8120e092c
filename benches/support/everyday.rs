//! The everyday problems of `benches/support/everyday/` (a tree, a graph with a 64-bit
//! overflow, a string, an `n s` header, test cases, a TLE at n = 2·10^5), each stressed by a
//! whole `duipai stress -j 2` from seed 1 with the text alone shrunk (`--no-choices`: what
//! duipai did before it recorded a generator's choices) and with the generator's choices
//! shrunk first: the probes and seconds spent minimizing, and the case each ends with.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::measured::run_measured;

/// One problem and how it is stressed.
pub struct Problem {
    /// Its name in the table.
    pub name: &'static str,
    /// Its folder under `benches/support/everyday`.
    pub folder: &'static str,
    /// The generator with its arguments (the seed goes last).
    pub generator: &'static str,
    pub validator: Option<&'static str>,
    /// What the case it ends with is, in a few words.
    pub describe: fn(&str) -> String,
    /// How the smallest failing case (known by hand, in the folder's README) begins, as
    /// `describe` puts it; `None` when it is not known.
    pub smallest: Option<&'static str>,
    /// Last round's seconds minimizing with the choices first (docs/benchmarks.md).
    pub last_round: &'static str,
}

/// The problems, in the table's order.
pub fn problems() -> Vec<Problem> {
    vec![
        Problem {
            name: "tree, validator",
            folder: "tree",
            generator: "gen.py",
            validator: Some("val.py"),
            describe: tree,
            smallest: Some("6 vertices, a tree"),
            last_round: "30.7 (budget), 11 vertices",
        },
        Problem {
            name: "tree, no validator",
            folder: "tree",
            generator: "gen.py",
            validator: None,
            describe: tree,
            smallest: Some("6 vertices, a tree"),
            last_round: "32.0 (budget), 7 vertices",
        },
        Problem {
            name: "graph, int overflow",
            folder: "graph",
            generator: "gen.py",
            validator: None,
            describe: graph,
            smallest: Some("4 vertices, 3 edges"),
            last_round: "30.7 (budget), 7 vertices",
        },
        Problem {
            name: "string",
            folder: "palindrome",
            generator: "gen.py",
            validator: None,
            describe: string,
            smallest: Some("|s| = 4"),
            last_round: "19.7, |s| = 4",
        },
        Problem {
            name: "`n s` header",
            folder: "pairsum",
            generator: "gen.py",
            validator: None,
            describe: whole,
            smallest: Some("1 2 / 1"),
            last_round: "6.8, 1 2 / 1",
        },
        Problem {
            name: "test cases",
            folder: "maxes",
            generator: "gen.py",
            validator: None,
            describe: whole,
            smallest: Some("1 / 2 / 1 2"),
            last_round: "20.2, 1 / 2 / 1 2",
        },
        Problem {
            name: "TLE, n = 2·10^5",
            folder: "slow",
            generator: "gen.py 200000",
            validator: None,
            describe: count,
            smallest: None,
            last_round: "44.8, n = 37500",
        },
    ]
}

/// What one run showed.
pub struct Run {
    pub cases: u64,
    pub probes: u64,
    pub minimize: Duration,
    /// duipai's CPU time (its own and its children's).
    pub cpu: Duration,
    pub one_minimal: bool,
    pub ends: String,
    /// When minimizing kept the case it ends with, from its start.
    pub reached: Option<Duration>,
}

/// Stresses `problem` once in `dir` (a copy of its folder, the builds in `cache`), with the
/// choices shrunk first or not.
pub fn run_once(
    duipai: &Path,
    problem: &Problem,
    dir: &Path,
    cache: &Path,
    choices: bool,
) -> Option<Run> {
    let save = dir.join(if choices {
        "saved-choices"
    } else {
        "saved-text"
    });
    let _ = std::fs::remove_dir_all(&save);
    let mut command = Command::new(duipai);
    command
        .current_dir(dir)
        .env("DUIPAI_CACHE_DIR", cache)
        .args(["stress", problem.folder, "-j", "2", "--json", "--save"])
        .arg(&save)
        .args(["--generator", problem.generator, "--reference", "ref.cpp"]);
    if let Some(validator) = problem.validator {
        command.args(["--validator", validator]);
    }
    if !choices {
        command.arg("--no-choices");
    }
    command.args(["--", "sol.cpp"]);
    command.stderr(std::process::Stdio::null());
    let measured = run_measured(&mut command).ok()?;
    // Exit status 1: a failure found (a harness error, 2, has no case to show).
    if (measured.status >> 8) & 0xff != 1 {
        return None;
    }
    let report: serde_json::Value = serde_json::from_str(measured.stdout.lines().last()?).ok()?;
    let input = PathBuf::from(report["input"].as_str()?);
    let text = std::fs::read_to_string(dir.join(input)).ok()?;
    Some(Run {
        cases: report["cases"].as_u64()?,
        probes: report["shrink_runs"].as_u64().unwrap_or(0),
        minimize: Duration::from_millis(report["shrink_ms"].as_u64().unwrap_or(0)),
        cpu: measured.cpu,
        one_minimal: report["one_minimal"].as_bool().unwrap_or(false),
        ends: (problem.describe)(&text),
        reached: report["shrink_reached_ms"]
            .as_u64()
            .map(Duration::from_millis),
    })
}

/// Builds what `problem` runs (reference, solution, the generator's recorder) into `cache`:
/// a run that stops at the first failure, minimized for a second (long enough to wait for
/// the recorder's build).
pub fn warm_up(duipai: &Path, problem: &Problem, dir: &Path, cache: &Path) -> Option<()> {
    let mut command = Command::new(duipai);
    command
        .current_dir(dir)
        .env("DUIPAI_CACHE_DIR", cache)
        .args([
            "stress",
            problem.folder,
            "-j",
            "2",
            "--shrink-time",
            "1",
            "--save",
        ])
        .arg(dir.join("saved-warm-up"))
        .args([
            "--generator",
            problem.generator,
            "--reference",
            "ref.cpp",
            "--",
        ])
        .arg("sol.cpp")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    command.status().ok().map(drop)
}

/// A copy of `folder`'s files in a fresh folder.
pub fn workspace(folder: &str) -> tempfile::TempDir {
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("benches/support/everyday")
        .join(folder);
    let dir = tempfile::tempdir().expect("temporary directory");
    for entry in std::fs::read_dir(from).expect("the problem's folder") {
        let path = entry.expect("a file").path();
        std::fs::copy(&path, dir.path().join(path.file_name().unwrap())).expect("copied");
    }
    dir
}

/// `6 vertices, a tree`, or what it is instead.
fn tree(text: &str) -> String {
    let mut lines = text.lines();
    let Some(n) = lines.next().and_then(|l| l.trim().parse::<usize>().ok()) else {
        return "not a tree".to_string();
    };
    let mut root: Vec<usize> = (0..=n).collect();
    let mut edges = 0;
    let mut tree = true;
    for line in lines {
        let ends: Vec<usize> = line
            .split_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect();
        let [u, v] = ends[..] else {
            tree = false;
            continue;
        };
        if !(1..=n).contains(&u) || !(1..=n).contains(&v) {
            tree = false;
            continue;
        }
        let (a, b) = (find(&mut root, u), find(&mut root, v));
        tree &= a != b;
        root[a] = b;
        edges += 1;
    }
    tree &= edges + 1 == n;
    format!(
        "{n} vertices{}",
        if tree { ", a tree" } else { ", NOT a tree" }
    )
}

fn find(root: &mut [usize], mut x: usize) -> usize {
    while root[x] != x {
        x = root[x];
    }
    x
}

/// `4 vertices, 3 edges`.
fn graph(text: &str) -> String {
    let head: Vec<&str> = text
        .lines()
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    match head[..] {
        [n, m] => format!("{n} vertices, {m} edges"),
        _ => format!("? ({})", whole(text)),
    }
}

/// `|s| = 4: aaaa`.
fn string(text: &str) -> String {
    let s = text.trim();
    format!("|s| = {}: {}", s.len(), if s.len() <= 12 { s } else { "…" })
}

/// `n = 51234`.
fn count(text: &str) -> String {
    format!("n = {}", text.lines().next().unwrap_or("?").trim())
}

/// The whole case, its lines joined by ` / `, when short.
fn whole(text: &str) -> String {
    let joined = text.lines().collect::<Vec<_>>().join(" / ");
    if joined.len() <= 40 {
        joined
    } else {
        format!("{} lines, {} bytes", text.lines().count(), text.len())
    }
}
