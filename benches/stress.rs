//! Stress-testing throughput: (a) the bare cost of starting a trivial compiled program, (a')
//! of starting the solution itself, (a'') of starting it with its streams piped,
//! (b) `duipai stress` on a correct compiled solution with 1 and 2 workers, (b') the same
//! with `--no-sandbox` (what containment costs), (c) the classic
//! shell 对拍 loop (generator, reference and solution as separate processes, then `cmp`);
//! then, a section of its own (`support/python_loop.rs`), the loop with a Python generator
//! and C++ reference and solution: `duipai stress` with warm and fresh Python helpers, and
//! the plain bash loop.
//! Run with `cargo bench --bench stress`; needs `cc` (skips with a note without), and for the
//! Python section python3 and g++.
//!
//! The machine this runs on is often shared, and its load drifts over seconds, so every
//! measurement is taken once per round, the rounds interleave them, and a ratio is computed
//! within each round (both figures under the same load) before the median over rounds is
//! taken.
//!
//! A `duipai stress` command also has a fixed cost: starting up, and its progress loop, which
//! looks at the workers every 50 ms, so that a command's duration is rounded up to the next
//! 50 ms. (b) is therefore measured with `--time SECS --json`: the workers stop taking cases
//! SECS after the command began its work, and the report counts the cases done, so
//! cases / SECS is the rate of a long stress run, without rounding.
//!
//! Environment: `DUIPAI_BENCH_CASES` (default 1000) starts per bare measurement,
//! `DUIPAI_BENCH_SECONDS` (default 1) per stress measurement, `DUIPAI_BENCH_ROUNDS` (default
//! 5) rounds, `DUIPAI_BENCH_BASELINE` another `duipai` binary (an older build) to measure as
//! (b0) beside this one, `DUIPAI_BENCH_PYTHON_SECONDS` (default 5) per measurement of the
//! Python section, `DUIPAI_BENCH_ONLY=python` that section alone, and
//! `DUIPAI_BENCH_ONLY=containment` only (b) beside (b'): contained and bare, with their ratio.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[path = "support/python_loop.rs"]
mod python_loop;

const GEN_FLAGS: [&str; 4] = ["--n", "1..4", "--m", "1..4"];

fn compile(compiler: &str, source: &Path, out: &Path, extra: &[&str]) -> bool {
    Command::new(compiler)
        .args(extra)
        .arg("-O2")
        .arg("-o")
        .arg(out)
        .arg(source)
        .status()
        .is_ok_and(|s| s.success())
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&v| v > 0)
        .unwrap_or(default)
}

/// One measured thing: its name and its rate (cases per second) in each round.
struct Series {
    name: &'static str,
    rates: Vec<f64>,
}

fn main() {
    let cases = env_number("DUIPAI_BENCH_CASES", 1000);
    let seconds = std::env::var("DUIPAI_BENCH_SECONDS")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|&s| s > 0.0)
        .unwrap_or(1.0);
    let rounds = env_number("DUIPAI_BENCH_ROUNDS", 5) as usize;
    let duipai = PathBuf::from(env!("CARGO_BIN_EXE_duipai"));
    let baseline = std::env::var_os("DUIPAI_BENCH_BASELINE").map(PathBuf::from);
    let dir = tempfile::tempdir().expect("temporary directory");
    let work = dir.path();
    let python_seconds = std::env::var("DUIPAI_BENCH_PYTHON_SECONDS")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|&s| s > 0.0)
        .unwrap_or(5.0);
    let only = std::env::var("DUIPAI_BENCH_ONLY").unwrap_or_default();
    if only == "python" {
        python_loop::run(&duipai, work, python_seconds, rounds);
        return;
    }
    let trivial_src = work.join("trivial.c");
    std::fs::write(&trivial_src, "int main(void) { return 0; }\n").expect("write");
    let trivial = work.join("trivial");
    let solution = work.join("solution");
    let solution_src =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/support/chess_solution.c");
    if !compile("cc", &trivial_src, &trivial, &[]) || !compile("cc", &solution_src, &solution, &[])
    {
        println!("stress benchmark skipped: needs cc to build the programs under test");
        return;
    }
    let sample = work.join("sample.in");
    std::fs::write(&sample, "2 3\n2 7 3\n9 1 2\n3 7 2\n2 3 1\n").expect("write");
    let input = std::fs::read(&sample).expect("sample");

    // (a) Start the trivial program, one after another.
    let bare = || {
        for _ in 0..cases {
            let status = Command::new(&trivial)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .status()
                .expect("trivial program runs");
            assert!(status.success());
        }
    };
    // (a') Start the solution itself on one small input: what any harness pays at the least
    // for running it.
    let bare_solution = || {
        for _ in 0..cases {
            let status = Command::new(&solution)
                .stdin(std::fs::File::open(&sample).expect("sample"))
                .stdout(Stdio::null())
                .status()
                .expect("solution runs");
            assert!(status.success());
        }
    };
    // (a'') The same, with stdin, stdout and stderr piped and the output read back: what any
    // harness that captures output pays at the least.
    let piped_solution = || {
        for _ in 0..cases {
            let mut child = Command::new(&solution)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("solution runs");
            std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), &input)
                .expect("write");
            let output = child.wait_with_output().expect("solution ends");
            assert_eq!(output.stdout, b"2\n");
        }
    };
    // (b) duipai stress on the correct solution for `seconds`: its rate.
    let stress_with = |binary: &Path, jobs: &str, flags: &[&str]| -> f64 {
        let time = seconds.to_string();
        let mut args = vec!["stress", "chess", "--json", "--time", &time, "-j", jobs];
        args.extend(flags);
        args.extend(GEN_FLAGS);
        args.push("--");
        let output = Command::new(binary)
            .args(&args)
            .arg(&solution)
            .current_dir(work)
            .stderr(Stdio::null())
            .output()
            .expect("duipai runs");
        assert!(
            output.status.success(),
            "the correct solution failed a case"
        );
        let text = String::from_utf8_lossy(&output.stdout);
        let report: serde_json::Value =
            serde_json::from_str(text.lines().last().unwrap_or_default()).expect("JSON report");
        let done = report["cases"].as_u64().expect("cases in the report");
        done as f64 / seconds
    };
    let stress = |binary: &Path, jobs: &str| stress_with(binary, jobs, &[]);
    if only == "containment" {
        containment(&stress_with, &duipai, baseline.as_deref(), rounds, seconds);
        return;
    }
    // (c) The classic shell loop, with duipai as generator and reference: slow, so a quarter
    // of the cases, in the first round only (it is context, not a target).
    let shell_cases = (cases / 4).max(1);
    let script = format!(
        "set -e\nfor i in $(seq 1 {shell_cases}); do\n  {d} gen chess {flags} --seed $i > in.txt\n  \
         {d} solve chess in.txt > ans.txt\n  {s} < in.txt > out.txt\n  cmp -s ans.txt out.txt\ndone\n",
        d = duipai.display(),
        s = solution.display(),
        flags = GEN_FLAGS.join(" "),
    );
    let shell = || {
        let status = Command::new("bash")
            .arg("-c")
            .arg(&script)
            .current_dir(work)
            .status()
            .expect("bash runs");
        assert!(status.success(), "the shell loop found a difference");
    };

    type Measure<'a> = Box<dyn Fn() -> f64 + 'a>;
    let rate = |d: Duration, n: u64| n as f64 / d.as_secs_f64();
    let timed = |f: &dyn Fn()| {
        let start = Instant::now();
        f();
        rate(start.elapsed(), cases)
    };
    let mut measured: Vec<(Series, Measure)> = vec![
        (
            series("(a) start a trivial compiled program"),
            Box::new(|| timed(&bare)),
        ),
        (
            series("(a') start the solution on one small input"),
            Box::new(|| timed(&bare_solution)),
        ),
        (
            series("(a'') the same with stdin/stdout/stderr piped"),
            Box::new(|| timed(&piped_solution)),
        ),
        (
            series("(b) duipai stress -j 1 (the correct C solution)"),
            Box::new(|| stress(&duipai, "1")),
        ),
        (
            series("(b) duipai stress -j 2"),
            Box::new(|| stress(&duipai, "2")),
        ),
    ];
    // (b') The same without containment (`--no-sandbox`: no cgroup, namespaces, box uid,
    // session, scratch folder or environment allowlist): what containment costs.
    measured.push((
        series("(b') duipai stress -j 1 --no-sandbox"),
        Box::new(|| stress_with(&duipai, "1", &["--no-sandbox"])),
    ));
    measured.push((
        series("(b') duipai stress -j 2 --no-sandbox"),
        Box::new(|| stress_with(&duipai, "2", &["--no-sandbox"])),
    ));
    if let Some(old) = &baseline {
        measured.push((
            series("(b0) baseline duipai stress -j 1"),
            Box::new(move || stress(old, "1")),
        ));
        measured.push((
            series("(b0) baseline duipai stress -j 2"),
            Box::new(move || stress(old, "2")),
        ));
    }
    let mut shell_rate = 0.0;
    for round in 0..rounds {
        for (series, f) in measured.iter_mut() {
            series.rates.push(f());
        }
        if round == 0 {
            let start = Instant::now();
            shell();
            shell_rate = rate(start.elapsed(), shell_cases);
        }
    }

    println!(
        "stress throughput, chess cases (n, m in 1..4): {cases} bare starts, {seconds} s of stress, \
         {rounds} interleaved rounds, medians"
    );
    println!("{:<52} {:>10} {:>19}", "", "cases/s", "(slowest-fastest)");
    for (s, _) in &measured {
        let lo = s.rates.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = s.rates.iter().copied().fold(0.0, f64::max);
        println!(
            "{:<52} {:>10.0} {:>19}",
            s.name,
            median(s.rates.clone()),
            format!("({lo:.0}-{hi:.0})")
        );
    }
    println!(
        "{:<52} {:>10.0}   (first round, {shell_cases} cases)",
        "(c) shell loop: gen, solve, solution, cmp", shell_rate
    );
    // Ratios within each round, then the median over rounds.
    let ratio = |num: usize, den: usize| {
        median(
            (0..rounds)
                .map(|r| measured[num].0.rates[r] / measured[den].0.rates[r])
                .collect(),
        )
    };
    println!("ratios (each within one round, median over rounds):");
    println!("  (b, -j 1) / (a)   = {:.2}  (target >= 0.80)", ratio(3, 0));
    println!("  (b, -j 1) / (a')  = {:.2}", ratio(3, 1));
    println!("  (b, -j 1) / (a'') = {:.2}  (target >= 0.95)", ratio(3, 2));
    println!(
        "  (b, -j 2) / (b, -j 1) = {:.2}  (target >= 1.70 on 2 idle cores; this machine has {})",
        ratio(4, 3),
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    println!(
        "  (b, -j 2) / (c)   = {:.1}  (target >= 5)",
        median(measured[4].0.rates.clone()) / shell_rate
    );
    println!(
        "  (b, -j 1) / (b', -j 1) = {:.2}  (containment's cost; target >= 0.90)",
        ratio(3, 5)
    );
    println!(
        "  (b, -j 2) / (b', -j 2) = {:.2}  (target >= 0.90)",
        ratio(4, 6)
    );
    containment_line("-j 1", &measured[3].0.rates, &measured[5].0.rates);
    containment_line("-j 2", &measured[4].0.rates, &measured[6].0.rates);
    if baseline.is_some() {
        println!("  (b0, -j 1) / (a)  = {:.2}", ratio(7, 0));
        println!("  (b0, -j 1) / (a'') = {:.2}", ratio(7, 2));
        println!("  (b0, -j 2) / (b0, -j 1) = {:.2}", ratio(8, 7));
        println!("  (b, -j 1) / (b0, -j 1) = {:.2}", ratio(3, 7));
        println!("  (b, -j 2) / (b0, -j 2) = {:.2}", ratio(4, 8));
    }
    python_loop::run(&duipai, work, python_seconds, rounds);
}

/// `DUIPAI_BENCH_ONLY=containment`: `duipai stress` contained and with `--no-sandbox`, with
/// 1 and 2 workers (and the baseline build's, contained, when there is one), interleaved over
/// the rounds, and nothing else.
fn containment(
    stress_with: &dyn Fn(&Path, &str, &[&str]) -> f64,
    duipai: &Path,
    baseline: Option<&Path>,
    rounds: usize,
    seconds: f64,
) {
    let mut rates: [Vec<f64>; 6] = Default::default();
    for _ in 0..rounds {
        rates[0].push(stress_with(duipai, "1", &[]));
        rates[1].push(stress_with(duipai, "1", &["--no-sandbox"]));
        rates[2].push(stress_with(duipai, "2", &[]));
        rates[3].push(stress_with(duipai, "2", &["--no-sandbox"]));
        if let Some(old) = baseline {
            rates[4].push(stress_with(old, "1", &[]));
            rates[5].push(stress_with(old, "1", &["--no-sandbox"]));
        }
    }
    println!(
        "containment's cost, chess cases (n, m in 1..4), a correct C solution: {seconds} s of \
         stress per measurement, {rounds} interleaved rounds, medians"
    );
    containment_line("-j 1", &rates[0], &rates[1]);
    containment_line("-j 2", &rates[2], &rates[3]);
    if baseline.is_some() {
        containment_line("-j 1, the baseline build", &rates[4], &rates[5]);
        let ratio = median(rates[0].iter().zip(&rates[4]).map(|(n, b)| n / b).collect());
        println!("  contained, -j 1: this build / the baseline = {ratio:.2}");
    }
}

/// One line of containment's cost: the contained and bare (`--no-sandbox`) rates (medians)
/// and their ratio, taken within each round (both under the same load) before the median.
fn containment_line(jobs: &str, contained: &[f64], bare: &[f64]) {
    let ratio = median(contained.iter().zip(bare).map(|(c, b)| c / b).collect());
    println!(
        "  containment, {jobs}: contained {:.0} cases/s, bare (--no-sandbox) {:.0} cases/s, \
         contained / bare = {ratio:.2} (goal >= 0.90)",
        median(contained.to_vec()),
        median(bare.to_vec()),
    );
}

fn series(name: &'static str) -> Series {
    Series {
        name,
        rates: Vec::new(),
    }
}
