//! Minimization on hard bugs: for each bug mode of the fixture program (and a slow Python
//! solution when python3 is present), a whole `duipai stress -j 2` run from seed 1: the cases
//! it took to find the failure, the probes and seconds spent minimizing it, the whole run's
//! seconds, and the size of the case it ends with. Then text shrinking on the layouts of
//! contest problems ([`layouts`]), and everyday problems of one's own
//! (`benches/support/everyday/`: Python generators, C++ references and solutions) with the
//! default settings, the generator's choices shrunk first: the time to the case each ends
//! with and whether it is the smallest (`DUIPAI_BENCH_TEXT_ALONE=1` adds the text alone
//! shrunk). Medians of several runs.
//! Then the rate of choice candidates for a Python and a C++ generator ([`choice_rate`]).
//! Run with `cargo bench --bench shrink` (`-- fixtures`, `-- layouts`, `-- everyday` or
//! `-- choices` for some tables; `DUIPAI_BENCH_SECTION=layouts` as `-- layouts`; the everyday problems need
//! python3 and g++); `DUIPAI_BENCH_RUNS` sets the runs per mode (default 3),
//! `DUIPAI_BENCH_BASELINE=<duipai>` runs another build beside on the layouts.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

#[path = "support/choice_rate.rs"]
mod choice_rate;
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
    let mut only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    only.extend(std::env::var("DUIPAI_BENCH_SECTION"));
    let wanted = |table: &str| only.is_empty() || only.iter().any(|o| o == table);
    if wanted("fixtures") {
        fixtures(runs);
    }
    if wanted("layouts") {
        layouts(&PathBuf::from(env!("CARGO_BIN_EXE_duipai")), runs);
    }
    if wanted("everyday") {
        everyday_problems(runs);
    }
    if wanted("choices") {
        choice_rate::choice_rates(Path::new(env!("CARGO_MANIFEST_DIR")), runs);
    }
}

/// The everyday problems with the default settings (the generator's choices shrunk first):
/// how long minimizing took to keep the case it ends with, and whether that is the smallest
/// failing case within the default 30 s budget, beside last round's figures. With
/// `DUIPAI_BENCH_TEXT_ALONE=1`, runs with the text alone shrunk (`--no-choices`) come in
/// between, as a comparison (it doubles the section's time).
fn everyday_problems(runs: usize) {
    let have = |tool: &str| Command::new(tool).arg("--version").output().is_ok();
    if !have("python3") || !have("g++") {
        println!("\neveryday problems skipped: they need python3 and g++");
        return;
    }
    let text_alone = std::env::var_os("DUIPAI_BENCH_TEXT_ALONE").is_some_and(|v| v == "1");
    let duipai = PathBuf::from(env!("CARGO_BIN_EXE_duipai"));
    let cache = tempfile::tempdir().expect("a build cache");
    println!(
        "\neveryday problems: duipai stress -j 2 from seed 1, the default budget (30 s); \
         medians of {runs} runs (CPU: duipai's and its programs'); load average {}\n",
        load_average()
    );
    println!(
        "{:<20} {:<14} {:>5} {:>7} {:>9} {:>9} {:>7}  {:<28} {:<9} {:<9} last round (s, end)",
        "problem",
        "shrunk",
        "cases",
        "probes",
        "shrink s",
        "reached s",
        "CPU s",
        "ends at",
        "smallest",
        "1-minimal"
    );
    let mut warmed = Vec::new();
    for problem in everyday::problems() {
        let dir = everyday::workspace(problem.folder);
        // The builds (the reference, the solution, the generator's recorder) are made once
        // per folder, before the runs measured: a short run that finds the failure only.
        if !warmed.contains(&problem.folder) {
            let _ = everyday::warm_up(&duipai, &problem, dir.path(), cache.path());
            warmed.push(problem.folder);
        }
        let mut text = Vec::new();
        let mut choices = Vec::new();
        for _ in 0..runs {
            if text_alone {
                text.extend(everyday::run_once(
                    &duipai,
                    &problem,
                    dir.path(),
                    cache.path(),
                    false,
                ));
            }
            choices.extend(everyday::run_once(
                &duipai,
                &problem,
                dir.path(),
                cache.path(),
                true,
            ));
        }
        let mut rows = vec![("choices first", &choices)];
        if text_alone {
            rows.insert(0, ("text alone", &text));
        }
        for (how, results) in rows {
            print_everyday_row(&problem, how, results);
        }
    }
}

/// One row of the everyday table: medians of `results`, the last run's end.
fn print_everyday_row(problem: &everyday::Problem, how: &str, results: &[everyday::Run]) {
    let Some(last) = results.last() else {
        println!(
            "{:<20} {how:<14} (no failure found or no report)",
            problem.name
        );
        return;
    };
    let reached = median(
        results
            .iter()
            .map(|r| r.reached.unwrap_or_default())
            .collect(),
    );
    // At the smallest within the default budget: every run ended at it, in 30 s.
    let smallest = match problem.smallest {
        None => "unknown",
        Some(begins) => {
            let all = results.iter().all(|r| {
                r.ends.starts_with(begins) && r.reached.unwrap_or_default().as_secs_f64() <= 30.0
            });
            if all { "yes" } else { "no" }
        }
    };
    println!(
        "{:<20} {how:<14} {:>5} {:>7} {:>9.2} {:>9.2} {:>7.2}  {:<28} {:<9} {:<9} {}",
        problem.name,
        median(results.iter().map(|r| r.cases).collect()),
        median(results.iter().map(|r| r.probes).collect()),
        median(results.iter().map(|r| r.minimize).collect()).as_secs_f64(),
        reached.as_secs_f64(),
        median(results.iter().map(|r| r.cpu).collect()).as_secs_f64(),
        last.ends,
        smallest,
        if results.iter().all(|r| r.one_minimal) {
            "yes"
        } else {
            "no"
        },
        problem.last_round,
    );
}

/// The 1-minute load average, as /proc/loadavg gives it ("?" elsewhere).
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "?".to_string())
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
    println!();
}

/// One layout of text shrinking's benchmark: a problem of `tests/support/layouts/layouts.cpp`
/// at a size (`None`: the small cases its generator makes by default), with or without its
/// validator.
struct Layout {
    name: &'static str,
    problem: &'static str,
    size: Option<u32>,
    validator: bool,
}

/// What one run of a layout showed.
struct LayoutRun {
    cases: u64,
    probes: u64,
    minimize: Duration,
    total: Duration,
    /// The whole run's CPU time, duipai's and the programs' it ran.
    cpu: Duration,
    peak_mib: f64,
    /// The minimized case, shortened for the table.
    result: String,
    one_minimal: bool,
    /// How minimization ended: `minimal`, `budget`, `stopped`.
    end: &'static str,
}

/// Text shrinking on the layouts of contest problems, whole `duipai stress -j 2` runs with
/// the default budget of 30 s, C++ generator, reference, validator and wrong solution
/// (`tests/support/layouts/layouts.cpp`): a tree given as n − 1 edge lines (with and without
/// a validator), a string, `n s` then n numbers, T cases of `n k` then n numbers; each small
/// and at 2·10^5. Per layout, medians of the runs: the cases the search took, the probes and
/// seconds spent minimizing, the whole run, duipai's peak memory, the case it ends with and
/// whether it was called 1-minimal; and the same for `DUIPAI_BENCH_BASELINE` when set.
fn layouts(duipai: &Path, runs: usize) {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/layouts/layouts.cpp");
    if Command::new("g++").arg("--version").output().is_err() {
        println!("layouts: needs g++; nothing measured");
        return;
    }
    let dir = tempfile::tempdir().expect("temporary directory");
    std::fs::copy(&source, dir.path().join("layouts.cpp")).expect("layouts.cpp");
    let shapes = [
        Layout {
            name: "tree, no validator",
            problem: "tree",
            size: None,
            validator: false,
        },
        Layout {
            name: "tree",
            problem: "tree",
            size: None,
            validator: true,
        },
        Layout {
            name: "tree, no validator",
            problem: "tree",
            size: Some(200_000),
            validator: false,
        },
        Layout {
            name: "tree",
            problem: "tree",
            size: Some(200_000),
            validator: true,
        },
        Layout {
            name: "string",
            problem: "string",
            size: None,
            validator: true,
        },
        Layout {
            name: "string",
            problem: "string",
            size: Some(200_000),
            validator: true,
        },
        Layout {
            name: "n s, then n numbers",
            problem: "pairsum",
            size: None,
            validator: true,
        },
        Layout {
            name: "n s, then n numbers",
            problem: "pairsum",
            size: Some(200_000),
            validator: true,
        },
        Layout {
            name: "T cases of n k",
            problem: "windows",
            size: None,
            validator: true,
        },
        Layout {
            name: "T cases of n k",
            problem: "windows",
            size: Some(200_000),
            validator: true,
        },
    ];
    let mut builds = vec![("now", duipai.to_path_buf())];
    if let Some(old) = std::env::var_os("DUIPAI_BENCH_BASELINE") {
        builds.push(("before", PathBuf::from(old)));
    }
    println!(
        "text layouts: duipai stress -j 2 from seed 1, default budget (30 s); medians of {runs} runs\n"
    );
    println!(
        "{:<22} {:>7} {:<7} {:>6} {:>7} {:>10} {:>8} {:>7} {:>9}  {:<24} 1-minimal",
        "layout",
        "size",
        "build",
        "cases",
        "probes",
        "shrink s",
        "total s",
        "CPU s",
        "peak MiB",
        "ends at"
    );
    for shape in &shapes {
        for (label, build) in &builds {
            let results: Vec<LayoutRun> = (0..runs)
                .filter_map(|i| layout_once(build, shape, dir.path(), i))
                .collect();
            let size = shape.size.map_or("small".to_string(), |n| n.to_string());
            if results.is_empty() {
                println!(
                    "{:<22} {:>7} {:<7} (no failure found or no report)",
                    shape.name, size, label
                );
                continue;
            }
            let last = &results[results.len() - 1];
            println!(
                "{:<22} {:>7} {:<7} {:>6} {:>7} {:>10.2} {:>8.2} {:>7.2} {:>9.1}  {:<24} {}",
                shape.name,
                size,
                label,
                median(results.iter().map(|r| r.cases).collect()),
                median(results.iter().map(|r| r.probes).collect()),
                median(results.iter().map(|r| r.minimize).collect()).as_secs_f64(),
                median(results.iter().map(|r| r.total).collect()).as_secs_f64(),
                median(results.iter().map(|r| r.cpu).collect()).as_secs_f64(),
                median(results.iter().map(|r| (r.peak_mib * 10.0) as u64).collect()) as f64 / 10.0,
                last.result,
                match (results.iter().all(|r| r.one_minimal), last.end) {
                    (true, _) => "yes".to_string(),
                    (false, end) => format!("no ({end})"),
                }
            );
        }
    }
}

fn layout_once(duipai: &Path, shape: &Layout, dir: &Path, run: usize) -> Option<LayoutRun> {
    let save = dir.join(format!("failures-{}-{run}", std::process::id()));
    let _ = std::fs::remove_dir_all(&save);
    let size = shape.size.map(|n| n.to_string());
    let role = |role: &str| {
        let mut words = vec!["layouts.cpp", role, shape.problem];
        words.extend(size.as_deref());
        words.join(" ")
    };
    let mut command = Command::new(duipai);
    command
        .current_dir(dir)
        .args(["stress", shape.problem, "-j", "2", "--json", "--save"])
        .arg(&save)
        .args(["--generator", &role("gen"), "--reference", &role("ref")]);
    if shape.validator {
        command.args(["--validator", &role("valid")]);
    }
    command
        .args(["--", "layouts.cpp", "wrong", shape.problem])
        .stderr(std::process::Stdio::null());
    let start = Instant::now();
    let measured = measured::run_measured(&mut command).ok()?;
    let total = start.elapsed();
    // Exit status 1: a failure found and reported.
    if measured.status != 1 << 8 {
        return None;
    }
    let report: serde_json::Value = serde_json::from_str(measured.stdout.lines().last()?).ok()?;
    let input = std::fs::read_to_string(dir.join(report["input"].as_str()?)).ok()?;
    let _ = std::fs::remove_dir_all(&save);
    let end = if report["one_minimal"].as_bool() == Some(true) {
        "minimal"
    } else if report["shrink_cut_short"]
        .as_array()
        .is_some_and(|a| !a.is_empty())
        || report.get("shrink_cut_short").is_none()
    {
        "cut short"
    } else {
        "not all tried"
    };
    Some(LayoutRun {
        cases: report["cases"].as_u64()?,
        probes: report["shrink_runs"].as_u64().unwrap_or(0),
        minimize: Duration::from_millis(report["shrink_ms"].as_u64().unwrap_or(0)),
        total,
        cpu: measured.cpu,
        peak_mib: measured.peak_mib,
        result: short_case(&input),
        one_minimal: report["one_minimal"].as_bool().unwrap_or(false),
        end,
    })
}

/// A case for the table: its lines joined by ` / ` when short, else its first line and size.
fn short_case(input: &str) -> String {
    let lines: Vec<&str> = input.lines().collect();
    let joined = lines.join(" / ");
    if joined.len() <= 24 {
        return joined;
    }
    let first: String = lines.first().unwrap_or(&"").chars().take(12).collect();
    format!("{first}… {} lines", lines.len())
}
