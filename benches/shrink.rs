//! Minimization on hard bugs: for each bug mode of the fixture program (and a slow Python
//! solution when python3 is present), a whole `duipai stress -j 2` run from seed 1: the cases
//! it took to find the failure, the probes and seconds spent minimizing it, the whole run's
//! seconds, and the size of the case it ends with. Then everyday problems of one's own
//! (`benches/support/everyday/`: Python generators, C++ references and solutions), each with
//! the text alone shrunk and with the generator's choices shrunk first. Medians of several
//! runs.
//! Run with `cargo bench --bench shrink` (`-- fixtures` or `-- everyday` for one table; the
//! everyday problems need python3 and g++); `DUIPAI_BENCH_RUNS` sets the runs per mode
//! (default 3).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

#[path = "support/everyday.rs"]
mod everyday;
#[path = "support/measured.rs"]
mod measured;

struct Mode {
    name: &'static str,
    problem: &'static str,
    program: Vec<String>,
}

struct Run {
    cases: u64,
    probes: u64,
    minimize: Duration,
    total: Duration,
    shape: String,
    values: i64,
    one_minimal: bool,
}

fn median<T: Clone + Ord>(mut xs: Vec<T>) -> T {
    xs.sort();
    xs[xs.len() / 2].clone()
}

/// `n m` or `n` of a saved input, and the sum of its values (weights for chessboard).
fn describe(problem: &str, input: &Path) -> (String, i64) {
    let text = std::fs::read_to_string(input).unwrap_or_default();
    let mut lines = text.lines();
    let head: Vec<usize> = lines
        .next()
        .unwrap_or("")
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    let (shape, skip) = match (problem, head.as_slice()) {
        ("chess", [n, m]) => (format!("{n}×{m}"), 0),
        (_, [n]) => (format!("{n}×{n}"), *n),
        _ => ("?".to_string(), 0),
    };
    let sum = lines
        .skip(skip)
        .flat_map(|l| l.split_whitespace())
        .filter_map(|w| w.parse::<i64>().ok())
        .sum();
    (shape, sum)
}

fn run_once(duipai: &Path, mode: &Mode, dir: &Path) -> Option<Run> {
    let save = dir.join(format!("failures-{}", mode.name));
    let _ = std::fs::remove_dir_all(&save);
    let start = Instant::now();
    let output = Command::new(duipai)
        .args(["stress", mode.problem, "-j", "2", "--json", "--save"])
        .arg(&save)
        .arg("--")
        .args(&mode.program)
        .output()
        .ok()?;
    let total = start.elapsed();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let report: serde_json::Value = serde_json::from_str(stdout.lines().last()?).ok()?;
    let input = PathBuf::from(report["input"].as_str()?);
    let (shape, values) = describe(mode.problem, &input);
    Some(Run {
        cases: report["cases"].as_u64()?,
        probes: report["shrink_runs"].as_u64().unwrap_or(0),
        minimize: Duration::from_millis(report["shrink_ms"].as_u64().unwrap_or(0)),
        total,
        shape,
        values,
        one_minimal: report["one_minimal"].as_bool().unwrap_or(false),
    })
}

fn main() {
    let runs: usize = std::env::var("DUIPAI_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
        .max(1);
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let wanted = |table: &str| only.is_empty() || only.iter().any(|o| o == table);
    if wanted("fixtures") {
        fixtures(runs);
    }
    if wanted("everyday") {
        everyday_problems(runs);
    }
}

/// The everyday problems, text alone and choices first, in interleaved runs.
fn everyday_problems(runs: usize) {
    let have = |tool: &str| Command::new(tool).arg("--version").output().is_ok();
    if !have("python3") || !have("g++") {
        println!("\neveryday problems skipped: they need python3 and g++");
        return;
    }
    let duipai = PathBuf::from(env!("CARGO_BIN_EXE_duipai"));
    let cache = tempfile::tempdir().expect("a build cache");
    println!(
        "\neveryday problems: duipai stress -j 2 from seed 1, the default budget (30 s); \
         medians of {runs} runs (CPU: duipai's and its programs')\n"
    );
    println!(
        "{:<20} {:<14} {:>5} {:>7} {:>9} {:>7} {:>8}  {:<28} 1-minimal",
        "problem", "shrunk", "cases", "probes", "shrink s", "CPU s", "peak MiB", "ends at"
    );
    for problem in everyday::problems() {
        let dir = everyday::workspace(problem.folder);
        // The builds (the reference, the solution, the generator's recorder) are made once,
        // before the runs measured.
        let _ = everyday::run_once(&duipai, &problem, dir.path(), cache.path(), true);
        let mut text = Vec::new();
        let mut choices = Vec::new();
        for _ in 0..runs {
            text.extend(everyday::run_once(
                &duipai,
                &problem,
                dir.path(),
                cache.path(),
                false,
            ));
            choices.extend(everyday::run_once(
                &duipai,
                &problem,
                dir.path(),
                cache.path(),
                true,
            ));
        }
        for (how, results) in [("text alone", &text), ("choices first", &choices)] {
            let Some(last) = results.last() else {
                println!(
                    "{:<20} {how:<14} (no failure found or no report)",
                    problem.name
                );
                continue;
            };
            println!(
                "{:<20} {how:<14} {:>5} {:>7} {:>9.2} {:>7.2} {:>8.1}  {:<28} {}",
                problem.name,
                median(results.iter().map(|r| r.cases).collect()),
                median(results.iter().map(|r| r.probes).collect()),
                median(results.iter().map(|r| r.minimize).collect()).as_secs_f64(),
                median(results.iter().map(|r| r.cpu).collect()).as_secs_f64(),
                median(results.iter().map(|r| (r.peak_mib * 10.0) as u64).collect()) as f64 / 10.0,
                last.ends,
                if results.iter().all(|r| r.one_minimal) {
                    "yes"
                } else {
                    "no"
                }
            );
        }
    }
}

/// The fixture program's bugs on the built-in games.
fn fixtures(runs: usize) {
    let duipai = PathBuf::from(env!("CARGO_BIN_EXE_duipai"));
    // The fixture binary is built beside duipai by `cargo bench` (a workspace default member).
    let fixture = duipai.with_file_name("duipai-fixture");
    if !fixture.exists() {
        println!(
            "shrink benchmark skipped: build the fixtures first (cargo build --workspace --release)"
        );
        return;
    }
    let fixture = fixture.to_string_lossy().into_owned();
    let dir = tempfile::tempdir().expect("temporary directory");
    let fixture_mode = |name: &'static str, problem: &'static str, bug: &str| Mode {
        name,
        problem,
        program: vec![fixture.clone(), bug.to_string(), problem.to_string()],
    };
    let mut modes = vec![
        fixture_mode("greedy", "chess", "greedy"),
        fixture_mode("array-too-small", "chessboard", "crash-max"),
        fixture_mode("threshold", "chess", "threshold"),
        fixture_mode("slow (TLE)", "chess", "slow-big"),
    ];
    let python = Command::new("python3").arg("--version").output().is_ok();
    if python {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/support/slow_chess.py");
        modes.push(Mode {
            name: "slow Python (TLE)",
            problem: "chess",
            program: vec!["python3".into(), script.to_string_lossy().into_owned()],
        });
    } else {
        println!("(python3 not found: the slow Python mode is skipped)");
    }

    println!("duipai stress -j 2 from seed 1, minimization included; medians of {runs} runs\n");
    println!(
        "{:<20} {:>6} {:>8} {:>10} {:>9}  {:<8} {:>10}  1-minimal",
        "bug", "cases", "probes", "shrink s", "total s", "result", "value sum"
    );
    let mut totals = Vec::new();
    for mode in &modes {
        let results: Vec<Run> = (0..runs)
            .filter_map(|_| run_once(&duipai, mode, dir.path()))
            .collect();
        if results.is_empty() {
            println!("{:<20} (no failure found or no report)", mode.name);
            continue;
        }
        let total = median(results.iter().map(|r| r.total).collect());
        totals.push(total);
        let last = &results[results.len() - 1];
        println!(
            "{:<20} {:>6} {:>8} {:>10.2} {:>9.2}  {:<8} {:>10}  {}",
            mode.name,
            median(results.iter().map(|r| r.cases).collect()),
            median(results.iter().map(|r| r.probes).collect()),
            median(results.iter().map(|r| r.minimize).collect()).as_secs_f64(),
            total.as_secs_f64(),
            last.shape,
            last.values,
            if results.iter().all(|r| r.one_minimal) {
                "yes"
            } else {
                "no"
            }
        );
    }
    if !totals.is_empty() {
        println!(
            "\nwhole runs: median {:.2} s, slowest {:.2} s",
            median(totals.clone()).as_secs_f64(),
            totals
                .iter()
                .max()
                .copied()
                .unwrap_or_default()
                .as_secs_f64()
        );
    }
}
