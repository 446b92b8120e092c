//! Stress-testing throughput: (a) the bare cost of starting a trivial compiled program, (a')
//! of starting the solution itself, (a'') of starting it with its streams piped,
//! (b) `duipai stress` on a correct compiled solution with 1 and 2 workers, (c) the classic
//! shell 对拍 loop (generator, reference and solution as separate processes, then `cmp`).
//! Run with `cargo bench --bench stress`; needs `cc` (skips with a note without).
//! `DUIPAI_BENCH_CASES` sets the number of cases (default 400); `DUIPAI_BENCH_BINARY` times
//! another `duipai` binary instead of this build's.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

/// Runs `f` three times and returns the median wall time.
fn timed(mut f: impl FnMut()) -> Duration {
    median(
        (0..3)
            .map(|_| {
                let start = Instant::now();
                f();
                start.elapsed()
            })
            .collect(),
    )
}

fn main() {
    let cases: u64 = std::env::var("DUIPAI_BENCH_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(400);
    // `DUIPAI_BENCH_BINARY` times another build (an older release, say) in the same run.
    let duipai = std::env::var_os("DUIPAI_BENCH_BINARY")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_duipai")));
    let dir = tempfile::tempdir().expect("temporary directory");
    let work = dir.path();
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

    // (a) Start the trivial program `cases` times, one after another.
    let bare = timed(|| {
        for _ in 0..cases {
            let status = Command::new(&trivial)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .status()
                .expect("trivial program runs");
            assert!(status.success());
        }
    });

    // (a') Start the solution itself on one small input, the same number of times: what any
    // harness pays at the least for running it.
    let bare_solution = timed(|| {
        for _ in 0..cases {
            let status = Command::new(&solution)
                .stdin(std::fs::File::open(&sample).expect("sample"))
                .stdout(Stdio::null())
                .status()
                .expect("solution runs");
            assert!(status.success());
        }
    });

    // (a'') The same, with stdin, stdout and stderr piped and the output read back: what any
    // harness that captures output pays at the least.
    let piped_solution = timed(|| {
        for _ in 0..cases {
            let mut child = Command::new(&solution)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("solution runs");
            let input = std::fs::read(&sample).expect("sample");
            std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), &input)
                .expect("write");
            let output = child.wait_with_output().expect("solution ends");
            assert_eq!(output.stdout, b"2\n");
        }
    });

    // (b) duipai stress on the correct solution.
    let stress = |jobs: &str| {
        timed(|| {
            let n = cases.to_string();
            let mut args = vec!["stress", "chess"];
            args.extend(GEN_FLAGS);
            args.extend(["--iterations", &n, "-j", jobs, "--"]);
            let status = Command::new(&duipai)
                .args(&args)
                .arg(&solution)
                .current_dir(work)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .expect("duipai runs");
            assert!(status.success(), "the correct solution failed a case");
        })
    };
    let stress1 = stress("1");
    let stress2 = stress("2");

    // (c) The classic shell loop, with duipai as generator and reference.
    let script = format!(
        "set -e\nfor i in $(seq 1 {cases}); do\n  {d} gen chess {flags} --seed $i > in.txt\n  \
         {d} solve chess in.txt > ans.txt\n  {s} < in.txt > out.txt\n  cmp -s ans.txt out.txt\ndone\n",
        d = duipai.display(),
        s = solution.display(),
        flags = GEN_FLAGS.join(" "),
    );
    let shell = timed(|| {
        let status = Command::new("bash")
            .arg("-c")
            .arg(&script)
            .current_dir(work)
            .status()
            .expect("bash runs");
        assert!(status.success(), "the shell loop found a difference");
    });

    let rate = |d: Duration| cases as f64 / d.as_secs_f64();
    println!("stress throughput, {cases} chess cases (n, m in 1..4), median of 3 runs");
    println!("{:<52} {:>10} {:>12}", "", "time", "cases/s");
    for (name, d) in [
        ("(a) start a trivial compiled program", bare),
        ("(a') start the solution on one small input", bare_solution),
        (
            "(a'') the same with stdin/stdout/stderr piped",
            piped_solution,
        ),
        ("(b) duipai stress -j 1 (the correct C solution)", stress1),
        ("(b) duipai stress -j 2", stress2),
        ("(c) shell loop: gen, solve, solution, cmp", shell),
    ] {
        println!("{name:<52} {:>8.2} s {:>12.0}", d.as_secs_f64(), rate(d));
    }
    println!(
        "ratios: (b, 1 worker) / (a) = {:.2} (target >= 0.80); (b, 1) / (a') = {:.2}; \
         (b, 1) / (a'') = {:.2}; (b, 2 workers) / (b, 1) = {:.2}; (b, 1) / (c) = {:.1}; \
         (b, 2) / (c) = {:.1} (target >= 5)",
        rate(stress1) / rate(bare),
        rate(stress1) / rate(bare_solution),
        rate(stress1) / rate(piped_solution),
        rate(stress2) / rate(stress1),
        rate(stress1) / rate(shell),
        rate(stress2) / rate(shell),
    );
}
