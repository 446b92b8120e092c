//! The gems figures: a file of 5 maximal cases (G = 8, B = 21, n = 10, S of every size) solved
//! by `duipai solve gems` as a whole process, against the straightforward bottom-up C++ DP
//! over the masks (benches/support/gems_dp.cpp, compiled here with g++ -O2): CPU time of each
//! process and duipai's peak resident memory, medians of the runs (DUIPAI_BENCH_RUNS, default
//! 7), interleaved so that both see the same load. Needs g++.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

#[path = "support/measured.rs"]
mod measured;
use measured::run_measured;

/// CPU time, peak resident memory and stdout of one successful run fed `input`.
fn measure(command: &mut Command, input: &Path) -> (Duration, f64, String) {
    let file = std::fs::File::open(input).expect("the input file");
    let run = run_measured(command.stdin(file)).expect("the command starts");
    assert_eq!(run.status, 0, "the command failed");
    (run.cpu, run.peak_mib, run.stdout)
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() {
    let runs: usize = std::env::var("DUIPAI_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(7);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let baseline = dir.path().join("gems_dp");
    let compiled = Command::new("g++")
        .args(["-O2", "-o"])
        .arg(&baseline)
        .arg(root.join("benches/support/gems_dp.cpp"))
        .status()
        .unwrap_or_else(|e| panic!("the gems bench needs g++ (install GNU C++): {e}"));
    assert!(
        compiled.success(),
        "g++ failed on benches/support/gems_dp.cpp"
    );

    let duipai = env!("CARGO_BIN_EXE_duipai");
    let input = dir.path().join("gems5.in");
    let generated = Command::new(duipai)
        .args([
            "gen", "gems", "--family", "max-size", "--cases", "5", "--seed", "2026",
        ])
        .output()
        .expect("duipai gen");
    assert!(generated.status.success());
    std::fs::write(&input, &generated.stdout).expect("the input file");

    let (mut ours, mut theirs, mut rss) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..runs {
        let (cpu, peak, answers) =
            measure(Command::new(duipai).args(["solve", "gems", "-"]), &input);
        let (base_cpu, _, base_answers) = measure(&mut Command::new(&baseline), &input);
        assert_eq!(answers, base_answers, "the answers differ");
        ours.push(cpu.as_secs_f64());
        theirs.push(base_cpu.as_secs_f64());
        rss.push(peak);
    }
    let (ours, theirs, rss) = (median(ours), median(theirs), median(rss));
    println!("gems, 5 maximal cases (G = 8, B = 21, n = 10): medians of {runs} interleaved runs");
    println!(
        "  duipai solve gems (whole process)   CPU {:>8.1} ms   peak RSS {rss:.1} MiB (target <= 64)",
        ours * 1e3
    );
    println!(
        "  bottom-up C++ DP, g++ -O2            CPU {:>8.1} ms",
        theirs * 1e3
    );
    println!(
        "  duipai is {:.2}× as fast (target >= 1)",
        theirs / ours.max(1e-9)
    );
}
