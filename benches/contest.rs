//! Contest-size cases (n up to 2·10^5), whole `duipai` processes with C++ generator,
//! reference and solution (g++ -O2):
//!
//! - the prefix-sum bug (wrong on the last number when it is odd) on one case of n = 10^4,
//!   4·10^4 and 2·10^5: wall time from start to the minimized case, duipai's peak resident
//!   memory, the probes, the final case, and each size's ratios against n·log n;
//! - the T-case median bug (one case of n = 32 among 7, 6-digit values): the final case;
//! - `test` of a program that prints 64 MiB on each of 60 cases: duipai's peak memory;
//! - `stress --no-shrink` on the 2·10^5 case: the lines of the human report.
//!
//! Medians of `DUIPAI_BENCH_RUNS` runs (default 3). With `DUIPAI_BENCH_BASELINE=<duipai>`,
//! another build runs the same commands beside (at most n = 4000 for the minimization, and
//! under a 6 GiB address-space limit, where earlier builds grew quadratically).
//! Run with `cargo bench --bench contest`; needs g++.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const GEN: &str = r#"#include <cstdio>
#include <cstdlib>
#include <random>
int main(int argc, char** argv) {
    int n = atoi(argv[1]);
    std::mt19937_64 rng(strtoull(argv[argc - 1], 0, 10));
    printf("%d\n", n);
    for (int i = 0; i < n; i++)
        printf("%lld%c", (long long)(rng() % 2000001) - 1000000, i + 1 < n ? ' ' : '\n');
}
"#;

const PREFIX: &str = r#"#include <cstdio>
int main() {
    int n; scanf("%d", &n); long long s = 0;
    for (int i = 0; i < n; i++) { long long x; scanf("%lld", &x); s += x; printf("%lld\n", s); }
}
"#;

/// Wrong on the last number when it is odd.
const PREFIX_WRONG: &str = r#"#include <cstdio>
int main() {
    int n; scanf("%d", &n); long long s = 0;
    for (int i = 0; i < n; i++) {
        long long x; scanf("%lld", &x);
        s += (i + 1 < n) ? x : x / 2 * 2;
        printf("%lld\n", s);
    }
}
"#;

/// T = 7 cases, one of n = 32, the others of n < 32, values of six digits.
const MEDIAN_GEN: &str = r#"#include <cstdio>
#include <cstdlib>
#include <random>
int main(int argc, char** argv) {
    std::mt19937_64 rng(strtoull(argv[argc - 1], 0, 10));
    int T = 7, bad = rng() % T;
    printf("%d\n", T);
    for (int t = 0; t < T; t++) {
        int n = t == bad ? 32 : 1 + rng() % 31;
        printf("%d\n", n);
        for (int i = 0; i < n; i++)
            printf("%d%c", (int)(100000 + rng() % 900000), i + 1 < n ? ' ' : '\n');
    }
}
"#;

const MEDIAN: &str = r#"#include <cstdio>
#include <algorithm>
int main() {
    int T; scanf("%d", &T);
    while (T--) {
        int n; scanf("%d", &n); static long long a[1000];
        for (int i = 0; i < n; i++) scanf("%lld", &a[i]);
        std::sort(a, a + n); printf("%lld\n", a[(n - 1) / 2]);
    }
}
"#;

/// Sorts only the first n - 1 numbers once n reaches 32.
const MEDIAN_WRONG: &str = r#"#include <cstdio>
#include <algorithm>
int main() {
    int T; scanf("%d", &T);
    while (T--) {
        int n; scanf("%d", &n); static long long a[1000];
        for (int i = 0; i < n; i++) scanf("%lld", &a[i]);
        std::sort(a, a + (n >= 32 ? n - 1 : n)); printf("%lld\n", a[(n - 1) / 2]);
    }
}
"#;

/// 65 MiB on stdout, past the 64 MiB output limit.
const FLOOD: &str = r#"#include <cstdio>
#include <cstring>
int main() {
    static char buf[1 << 20]; memset(buf, '7', sizeof buf);
    for (int i = 0; i < 65; i++) fwrite(buf, 1, sizeof buf, stdout);
}
"#;

fn runs() -> usize {
    std::env::var("DUIPAI_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
}

fn compile(dir: &Path, name: &str, source: &str) {
    let src = dir.join(format!("{name}.cpp"));
    std::fs::write(&src, source).unwrap();
    let ok = Command::new("g++")
        .args(["-O2", "-o"])
        .arg(dir.join(name))
        .arg(&src)
        .status()
        .expect("g++ is needed");
    assert!(ok.success(), "cannot compile {name}");
}

/// One whole duipai run: wall time, peak resident MiB, and its JSON report (last line).
struct Run {
    wall: Duration,
    peak_mib: f64,
    report: serde_json::Value,
    /// Lines of the human report (stdout without --json, stderr with it).
    human_lines: usize,
}

fn run(duipai: &Path, dir: &Path, args: &[&str], address_space: Option<&str>) -> Option<Run> {
    let save = dir.join("duipai-failures");
    let _ = std::fs::remove_dir_all(&save);
    let mut command = match address_space {
        Some(limit) => {
            let mut c = Command::new("prlimit");
            c.arg(format!("--as={limit}")).arg(duipai);
            c
        }
        None => Command::new(duipai),
    };
    command
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stderr(Stdio::piped());
    let start = Instant::now();
    let child = command.stdout(Stdio::piped()).spawn().ok()?;
    let pid = child.id() as libc::pid_t;
    let output = collect(child, pid)?;
    let wall = start.elapsed();
    let report = output
        .stdout
        .lines()
        .last()
        .and_then(|l| serde_json::from_str(l).ok())
        .unwrap_or(serde_json::Value::Null);
    Some(Run {
        wall,
        peak_mib: output.peak_mib,
        report,
        human_lines: output.stdout.lines().count() + output.stderr.lines().count(),
    })
}

struct Collected {
    stdout: String,
    stderr: String,
    peak_mib: f64,
}

/// Reads both streams on threads and reaps the child with `wait4` for its peak memory.
fn collect(mut child: std::process::Child, pid: libc::pid_t) -> Option<Collected> {
    use std::io::Read;
    let mut out = child.stdout.take()?;
    let mut err = child.stderr.take()?;
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to overwrite.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: pid is our own child, not yet reaped; both pointers are valid.
    if unsafe { libc::wait4(pid, &mut status, 0, &mut usage) } != pid {
        return None;
    }
    Some(Collected {
        stdout: out.join().ok()?,
        stderr: err.join().ok()?,
        peak_mib: usage.ru_maxrss as f64 / 1024.0,
    })
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// The numbers of the minimized case, read back.
fn final_case(dir: &Path, report: &serde_json::Value) -> String {
    let path = report["input"].as_str().unwrap_or_default();
    let text = std::fs::read_to_string(dir.join(path)).unwrap_or_default();
    let tokens: Vec<&str> = text.split_whitespace().collect();
    if tokens.len() <= 40 {
        tokens.join(" ")
    } else {
        format!("{} tokens", tokens.len())
    }
}

fn minimization(duipai: &Path, dir: &Path, n: usize, limit: Option<&str>) -> Option<(f64, f64)> {
    let generator = format!("./gen {n}");
    let args = [
        "stress",
        "sums",
        "--generator",
        &generator,
        "--reference",
        "./ref",
        "--json",
        "--",
        "./sol",
    ];
    let mut walls = Vec::new();
    let mut peaks = Vec::new();
    let mut last = None;
    for _ in 0..runs() {
        let r = run(duipai, dir, &args, limit)?;
        if r.report["status"] != "failed" {
            println!("    n = {n}: no report (killed or out of memory)");
            return None;
        }
        walls.push(r.wall.as_secs_f64());
        peaks.push(r.peak_mib);
        last = Some(r.report);
    }
    let report = last?;
    let (wall, peak) = (median(walls), median(peaks));
    println!(
        "    n = {n:>6}: {wall:>7.2} s, peak {peak:>7.1} MiB, {} probes, minimized to `{}`{}",
        report["shrink_runs"],
        final_case(dir, &report),
        if report["one_minimal"] == true {
            ""
        } else {
            " (budget ran out)"
        }
    );
    Some((wall, peak))
}

fn main() {
    let duipai = PathBuf::from(env!("CARGO_BIN_EXE_duipai"));
    let baseline = std::env::var_os("DUIPAI_BENCH_BASELINE").map(PathBuf::from);
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (name, source) in [
        ("gen", GEN),
        ("ref", PREFIX),
        ("sol", PREFIX_WRONG),
        ("mgen", MEDIAN_GEN),
        ("mref", MEDIAN),
        ("msol", MEDIAN_WRONG),
        ("flood", FLOOD),
    ] {
        compile(d, name, source);
    }

    println!(
        "prefix-sum bug on one case of n numbers (median of {} runs):",
        runs()
    );
    let sizes = [10_000usize, 40_000, 200_000];
    let mut figures = Vec::new();
    for n in sizes {
        figures.push((n, minimization(&duipai, d, n, None)));
    }
    let nlogn = |n: usize| n as f64 * (n as f64).log2();
    for pair in figures.windows(2) {
        if let [(a, Some((wa, ma))), (b, Some((wb, mb)))] = pair {
            println!(
                "    n {a} → {b}: time ×{:.2}, memory ×{:.2}, n·log n ×{:.2}",
                wb / wa,
                mb / ma,
                nlogn(*b) / nlogn(*a)
            );
        }
    }
    if let Some(old) = &baseline {
        println!("  the baseline build, under a 6 GiB address-space limit:");
        for n in [1000, 2000, 4000] {
            minimization(old, d, n, Some("6442450944"));
        }
    }

    println!("T-case median bug (one case of n = 32 among 7):");
    let args = [
        "stress",
        "median",
        "--generator",
        "./mgen",
        "--reference",
        "./mref",
        "--json",
        "--",
        "./msol",
    ];
    let mut builds = vec![("this build", duipai.clone())];
    builds.extend(baseline.iter().map(|b| ("baseline", b.clone())));
    for (label, build) in &builds {
        if let Some(r) = run(build, d, &args, Some("6442450944")) {
            println!(
                "    {label}: {:.2} s, {} probes, minimized to `{}`",
                r.wall.as_secs_f64(),
                r.report["shrink_runs"],
                final_case(d, &r.report)
            );
        }
    }

    println!("test: 60 cases of 64 MiB of output each:");
    let cases = d.join("flood-cases");
    std::fs::create_dir_all(&cases).unwrap();
    for i in 1..=60 {
        std::fs::write(cases.join(format!("{i}.in")), "1\n").unwrap();
        std::fs::write(cases.join(format!("{i}.ans")), "1\n").unwrap();
    }
    for (label, build) in &builds {
        let args = ["test", "flood", "flood-cases", "--json", "--", "./flood"];
        if let Some(r) = run(build, d, &args, Some("6442450944")) {
            let verdicts = match r.report["cases"].as_array() {
                Some(cases) => {
                    let ole = cases.iter().filter(|c| c["verdict"] == "OLE").count();
                    format!("{ole} of 60 cases OLE")
                }
                None => "no report (killed?)".to_string(),
            };
            println!(
                "    {label}: peak {:.1} MiB, {:.2} s, {verdicts}",
                r.peak_mib,
                r.wall.as_secs_f64(),
            );
        }
    }

    println!("stress --no-shrink on the n = 200000 case: lines of the human report:");
    for (label, build) in &builds {
        let args = [
            "stress",
            "sums",
            "--generator",
            "./gen 200000",
            "--reference",
            "./ref",
            "--no-shrink",
            "--",
            "./sol",
        ];
        if let Some(r) = run(build, d, &args, None) {
            println!("    {label}: {} lines", r.human_lines);
        }
    }
}
