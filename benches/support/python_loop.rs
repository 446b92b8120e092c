//! The stress loop most contestants run: a Python generator of small cases, and a compiled
//! reference and solution (C++, summing the numbers). Measured the same minute, in
//! interleaved rounds: `duipai stress` with 1 and 2 workers (Python helpers warm, the
//! default), with 2 workers and `--fresh-helpers` (a new Python for every case, as before),
//! and the plain bash 对拍 loop (`python3 gen.py $i > in; ./ref < in > ans; ./sol < in > out;
//! cmp ans out`). Every one of them runs for the same seconds and counts its cases; the
//! ratios are taken within each round, then the median over the rounds.
//!
//! The generator is started as duipai starts it, by the interpreter itself (not a version
//! manager's shim, which duipai looks behind once and the bash loop would pay on every case),
//! so that the loop measured is no slower than it has to be.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

const GENERATOR: &str = "import random, sys\nrandom.seed(int(sys.argv[-1]))\n\
    n = random.randint(1, 10)\nprint(n)\nprint(*[random.randint(1, 100) for _ in range(n)])\n";
const REFERENCE: &str = "#include <cstdio>\nint main() {\n    int n;\n    long long s = 0, x;\n    \
    if (std::scanf(\"%d\", &n) != 1) return 1;\n    for (int i = 0; i < n; i++) {\n        \
    if (std::scanf(\"%lld\", &x) != 1) return 1;\n        s += x;\n    }\n    \
    std::printf(\"%lld\\n\", s);\n}\n";

/// Cases per second of each way, one entry per round.
struct Rates {
    name: &'static str,
    rates: Vec<f64>,
}

/// Runs the section: `rounds` interleaved rounds of `seconds` per measurement. Prints a note
/// and returns when python3 or g++ is missing.
pub fn run(duipai: &Path, work: &Path, seconds: f64, rounds: usize) {
    let Some(python) = python_executable() else {
        println!("\nPython stress loop skipped: needs python3");
        return;
    };
    std::fs::write(work.join("gen.py"), GENERATOR).expect("write");
    std::fs::write(work.join("sum.cpp"), REFERENCE).expect("write");
    for name in ["ref", "sol"] {
        let built = Command::new("g++")
            .args(["-O2", "-o", name, "sum.cpp"])
            .current_dir(work)
            .status()
            .is_ok_and(|s| s.success());
        if !built {
            println!("\nPython stress loop skipped: needs g++");
            return;
        }
    }
    let generator = format!("{} gen.py", python.display());
    let stress = |jobs: &str, extra: &[&str]| {
        let time = seconds.to_string();
        let mut command = Command::new(duipai);
        command
            .args([
                "stress",
                "sum",
                "--generator",
                &generator,
                "--reference",
                "./ref",
            ])
            .args(["--json", "--time", &time, "-j", jobs, "--no-replay"])
            .args(extra)
            .args(["--", "./sol"])
            .current_dir(work)
            .stderr(Stdio::null());
        let output = command.output().expect("duipai runs");
        assert!(
            output.status.success(),
            "the correct solution failed a case"
        );
        let text = String::from_utf8_lossy(&output.stdout);
        let report: serde_json::Value =
            serde_json::from_str(text.lines().last().unwrap_or_default()).expect("JSON report");
        report["cases"].as_u64().expect("cases in the report") as f64 / seconds
    };
    let bash = || bash_loop(work, &python, seconds);
    let mut measured: Vec<(Rates, Box<dyn Fn() -> f64 + '_>)> = vec![
        (
            rates("(d) duipai stress -j 1, warm Python"),
            Box::new(|| stress("1", &[])),
        ),
        (
            rates("(d) duipai stress -j 2, warm Python"),
            Box::new(|| stress("2", &[])),
        ),
        (
            rates("(d') duipai stress -j 2 --fresh-helpers"),
            Box::new(|| stress("2", &["--fresh-helpers"])),
        ),
        (
            rates("(e) bash loop: python3 gen.py, ref, sol, cmp"),
            Box::new(bash),
        ),
    ];
    for _ in 0..rounds {
        for (rates, measure) in measured.iter_mut() {
            rates.rates.push(measure());
        }
    }
    println!(
        "\nPython generator, C++ reference and solution (n <= 10 numbers): {seconds} s each, \
         {rounds} interleaved rounds, medians"
    );
    println!("{:<52} {:>10} {:>19}", "", "cases/s", "(slowest-fastest)");
    for (r, _) in &measured {
        let lo = r.rates.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = r.rates.iter().copied().fold(0.0, f64::max);
        println!(
            "{:<52} {:>10.1} {:>19}",
            r.name,
            super::median(r.rates.clone()),
            format!("({lo:.1}-{hi:.1})")
        );
    }
    let ratio = |num: usize, den: usize| {
        super::median(
            (0..rounds)
                .map(|r| measured[num].0.rates[r] / measured[den].0.rates[r])
                .collect(),
        )
    };
    println!("ratios (each within one round, median over rounds):");
    println!("  (d, -j 2) / (e)   = {:.1}  (target >= 5)", ratio(1, 3));
    println!("  (d, -j 1) / (e)   = {:.1}", ratio(0, 3));
    println!(
        "  (d', -j 2) / (e)  = {:.1}  (fresh Python helpers, as before)",
        ratio(2, 3)
    );
    println!(
        "  (d, -j 2) / (d', -j 2) = {:.1}  (what the warm start gains)",
        ratio(1, 2)
    );
}

fn rates(name: &'static str) -> Rates {
    Rates {
        name,
        rates: Vec::new(),
    }
}

/// The Python interpreter `python3` in PATH starts (behind a shim, the real one).
fn python_executable() -> Option<PathBuf> {
    let output = Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .ok()?;
    let path = PathBuf::from(String::from_utf8(output.stdout).ok()?.trim());
    (output.status.success() && path.is_file()).then_some(path)
}

/// The bash loop's rate: cases it finishes in `seconds` (it checks the time after each).
fn bash_loop(work: &Path, python: &Path, seconds: f64) -> f64 {
    let micros = (seconds * 1e6) as u64;
    let script = format!(
        "set -e\nstart=${{EPOCHREALTIME/./}}\nn=0\nwhile :; do\n  n=$((n+1))\n  \
         {python} gen.py $n > in.txt\n  ./ref < in.txt > ans.txt\n  ./sol < in.txt > out.txt\n  \
         cmp -s ans.txt out.txt\n  now=${{EPOCHREALTIME/./}}\n  \
         if (( now - start >= {micros} )); then break; fi\ndone\necho $n\n",
        python = python.display(),
    );
    let started = Instant::now();
    let output = Command::new("bash")
        .arg("-c")
        .arg(&script)
        .current_dir(work)
        .output()
        .expect("bash runs");
    let elapsed = started.elapsed().as_secs_f64();
    assert!(output.status.success(), "the bash loop found a difference");
    let cases: f64 = String::from_utf8_lossy(&output.stdout)
        .trim()
        .parse()
        .expect("a count");
    cases / elapsed
}
