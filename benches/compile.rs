//! The first minute with a new problem: how long `duipai stress` takes to reach its first
//! case in a fresh folder holding a testlib validator, a testlib checker and a C++ solution
//! (a Python generator and reference beside them), everything to compile.
//!
//! Two figures per binary, each the median over rounds: (cold) an empty compile cache, so
//! everything is built, testlib.h's precompiled header included; (new sources) the cache
//! kept from the round before but every source edited, as when a second problem is begun:
//! the sources build anew, the precompiled header is reused.
//!
//! Run with `cargo bench --bench compile`; needs `g++` and `python3` (says so and measures
//! nothing without). Environment: `DUIPAI_BENCH_ROUNDS` (default 3) rounds,
//! `DUIPAI_BENCH_BASELINE` another `duipai` binary (an older build) measured the same way
//! beside this one, for the before and after.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

const VALIDATOR: &str = r#"#include "testlib.h"
int main(int argc, char **argv) {
    registerValidation(argc, argv);
    inf.readInt(2, 1000000, "n");
    inf.readEoln();
    inf.readEof();
}
"#;

const SOLUTION: &str = r#"#include <bits/stdc++.h>
using namespace std;
// Wrong for odd n: the middle element stays in place.
int main() {
    int n;
    cin >> n;
    for (int i = 1; i <= n; i++) cout << n + 1 - i << " \n"[i == n];
}
"#;

fn available(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// Writes the problem's files into `dir`, each source ending with a comment naming `round`
/// so that no build of an earlier round matches.
fn write_problem(dir: &Path, round: usize) {
    let support = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support");
    let copy = |from: PathBuf, to: &str| std::fs::copy(from, dir.join(to)).expect("copy");
    copy(support.join("testlib/testlib.h"), "testlib.h");
    copy(support.join("derangement/gen.py"), "gen.py");
    copy(support.join("derangement/brute.py"), "brute.py");
    let checker = std::fs::read_to_string(support.join("derangement/checker.cpp")).unwrap();
    let mark = format!("\n// round {round}\n");
    let write = |name: &str, text: &str| {
        std::fs::write(dir.join(name), format!("{text}{mark}")).expect("write");
    };
    write("checker.cpp", &checker);
    write("validator.cpp", VALIDATOR);
    write("sol.cpp", SOLUTION);
}

/// The CPU time, in seconds, of the children this process has waited for.
fn children_cpu() -> f64 {
    // SAFETY: getrusage fills the struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage
    };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// Seconds from the start of `duipai stress` to the end of its first case, and the CPU
/// seconds it and its compilers used (what a loaded machine does not stretch).
fn first_case(duipai: &Path, dir: &Path, cache: &Path) -> (f64, f64) {
    let cpu = children_cpu();
    let started = Instant::now();
    let output = Command::new(duipai)
        .args([
            "stress",
            "der",
            "--generator",
            "gen.py",
            "--reference",
            "brute.py",
        ])
        .args(["--validator", "validator.cpp", "--checker", "checker.cpp"])
        .args([
            "--iterations",
            "1",
            "--no-replay",
            "--no-shrink",
            "--",
            "sol.cpp",
        ])
        .current_dir(dir)
        .env("DUIPAI_CACHE_DIR", cache)
        .output()
        .expect("run duipai");
    let elapsed = started.elapsed().as_secs_f64();
    let status = output.status.code();
    assert!(
        matches!(status, Some(0 | 1)),
        "duipai stress ended with {status:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    (elapsed, children_cpu() - cpu)
}

/// Medians of one binary: wall and CPU seconds, with a cold cache and with new sources.
struct Figures {
    cold: (f64, f64),
    warm: (f64, f64),
}

fn measure(duipai: &Path, rounds: usize) -> Figures {
    let (mut cold, mut warm) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        let dir = tempfile::tempdir().expect("tempdir");
        let cache = dir.path().join("cache");
        let folder = dir.path().join("problem");
        std::fs::create_dir(&folder).unwrap();
        write_problem(&folder, 2 * round);
        cold.push(first_case(duipai, &folder, &cache));
        write_problem(&folder, 2 * round + 1);
        warm.push(first_case(duipai, &folder, &cache));
    }
    let medians = |xs: &[(f64, f64)]| {
        (
            median(xs.iter().map(|x| x.0).collect()),
            median(xs.iter().map(|x| x.1).collect()),
        )
    };
    Figures {
        cold: medians(&cold),
        warm: medians(&warm),
    }
}

fn main() {
    if !available("g++") || !available("python3") {
        println!("compile: needs g++ and python3; nothing measured");
        return;
    }
    let rounds = std::env::var("DUIPAI_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&v: &usize| v > 0)
        .unwrap_or(3);
    let mut binaries: Vec<(&str, PathBuf)> = Vec::new();
    if let Some(baseline) = std::env::var_os("DUIPAI_BENCH_BASELINE") {
        binaries.push(("before (DUIPAI_BENCH_BASELINE)", PathBuf::from(baseline)));
    }
    binaries.push(("this build", PathBuf::from(env!("CARGO_BIN_EXE_duipai"))));
    println!(
        "time to the first case: testlib validator and checker, C++ solution ({rounds} rounds, medians)"
    );
    println!("  (wall seconds, and in brackets the CPU seconds of duipai and its compilers)");
    let mut figures = Vec::new();
    for (name, duipai) in &binaries {
        let f = measure(duipai, rounds);
        println!(
            "  {name:<32} cold cache {:6.2} s ({:5.2} s)   new sources {:6.2} s ({:5.2} s)",
            f.cold.0, f.cold.1, f.warm.0, f.warm.1
        );
        figures.push(f);
    }
    if let [before, after] = &figures[..] {
        println!(
            "  after / before: cold cache {:.2} ({:.2} CPU), new sources {:.2} ({:.2} CPU)",
            after.cold.0 / before.cold.0,
            after.cold.1 / before.cold.1,
            after.warm.0 / before.warm.0,
            after.warm.1 / before.warm.1
        );
    }
}
