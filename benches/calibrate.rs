//! The calibration of the default packs: each game's default plan packed by `duipai pack`, and
//! the game's straightforward accepted C++ solution (benches/support/, compiled with g++ -O2)
//! run on every file and judged against the pack's answers. Prints, per file, the median CPU
//! time of the runs (the child's own, from `wait4`), the game's time limit and the fraction of
//! it, flagging every file above half the limit; then, per game, whether the file the
//! end-to-end test picks as the heaviest is the slowest measured, and the work per CPU second
//! on that file beside the rate the test holds it to. Figures are printed, not
//! asserted (a wrong answer does stop it). Needs g++.
//!
//! `cargo bench --bench calibrate [-- GAME...]`; DUIPAI_BENCH_RUNS sets the runs per file
//! (default 3), taken round by round over all the files so that a drift in the machine's load
//! reaches every file alike.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use duipai::answer::{Expected, check};
use duipai::problem::{self, Problem};

// Its peak-memory figure is the gems bench's; only the CPU time is calibrated here.
#[allow(dead_code)]
#[path = "support/measured.rs"]
mod measured;

#[path = "support/calibration.rs"]
mod calibration;

/// One packed file and its measurements.
struct Packed {
    game: &'static dyn Problem,
    name: String,
    input: PathBuf,
    expected: Expected,
    work: f64,
    cpu: Vec<Duration>,
}

impl Packed {
    fn median(&self) -> Duration {
        let mut cpu = self.cpu.clone();
        cpu.sort();
        cpu[cpu.len() / 2]
    }
}

/// Packs `game`'s default plan into `dir` and reads back every file with its answers.
fn pack(game: &'static dyn Problem, dir: &Path) -> Vec<Packed> {
    let out = dir.join(game.name());
    let status = Command::new(env!("CARGO_BIN_EXE_duipai"))
        .args(["pack", game.name(), "--layout", "plain", "--out"])
        .arg(&out)
        .stderr(std::process::Stdio::null())
        .status()
        .expect("duipai pack starts");
    assert!(status.success(), "duipai pack {game} failed");
    let mut files = Vec::new();
    for point in 1.. {
        let input = out.join(format!("{point}.in"));
        if !input.exists() {
            break;
        }
        let text = std::fs::read(&input).expect("the input");
        let instance = game
            .parse(&text, &game.default_bounds())
            .unwrap_or_else(|e| panic!("{game} file {point} is invalid: {e}"));
        let answers = std::fs::read(out.join(format!("{point}.ans"))).expect("the answers");
        let expected = game
            .read_answers(&answers, instance.as_ref())
            .unwrap_or_else(|e| panic!("{game} file {point}: {e}"));
        files.push(Packed {
            game,
            name: point.to_string(),
            input,
            expected,
            work: calibration::work(instance.as_ref()),
            cpu: Vec::new(),
        });
    }
    files
}

/// The slower approaches of `game` ([`calibration::SLOWER`]) timed on every file of its pack:
/// a line each, with the slowest file's fraction of the limit.
fn slower(game: &'static dyn Problem, files: &[&Packed], dir: &std::path::Path, runs: usize) {
    let limit = game.default_limits().0 as f64 / 1e3;
    for (_, file) in calibration::SLOWER
        .iter()
        .filter(|(g, _)| *g == game.name())
    {
        let binary = calibration::compile_slower(file, dir).unwrap_or_else(|e| panic!("{e}"));
        let mut slowest = (Duration::ZERO, "");
        let mut above = 0;
        for packed in files {
            let mut times: Vec<Duration> = (0..runs)
                .map(|_| {
                    let (cpu, output) = calibration::run(&binary, &packed.input);
                    let verdict = check(&packed.expected, output.as_bytes());
                    assert!(
                        verdict.is_accepted(),
                        "{game} file {}: {file}'s output is not the pack's answer: {verdict:?}",
                        packed.name
                    );
                    cpu
                })
                .collect();
            times.sort();
            let median = times[times.len() / 2];
            if median.as_secs_f64() > limit / 2.0 {
                above += 1;
            }
            if median > slowest.0 {
                slowest = (median, packed.name.as_str());
            }
        }
        println!(
            "{game}: the slower approach {file}: slowest file {} at {} ms ({:.2} of the limit), \
             {above} above 1/2",
            slowest.1,
            slowest.0.as_millis(),
            slowest.0.as_secs_f64() / limit
        );
    }
}

fn main() {
    let runs: usize = std::env::var("DUIPAI_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(3);
    // `cargo bench` passes `--bench`; any other word names a game to calibrate alone.
    let wanted: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let games: Vec<&'static dyn Problem> = problem::names()
        .into_iter()
        .filter(|name| wanted.is_empty() || wanted.iter().any(|w| w == name))
        .filter_map(problem::by_name)
        .collect();
    assert!(!games.is_empty(), "no game among {wanted:?}");

    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut binaries = Vec::new();
    let mut files = Vec::new();
    for &game in &games {
        let binary =
            calibration::compile(game.name(), dir.path()).unwrap_or_else(|e| panic!("{e}"));
        binaries.push((game.name(), binary));
        files.extend(pack(game, dir.path()));
    }
    let binary = |game: &dyn Problem| {
        &binaries
            .iter()
            .find(|(name, _)| *name == game.name())
            .expect("compiled")
            .1
    };

    for round in 1..=runs {
        eprintln!("round {round} of {runs}: {} files", files.len());
        for file in &mut files {
            let (cpu, output) = calibration::run(binary(file.game), &file.input);
            let verdict = check(&file.expected, output.as_bytes());
            assert!(
                verdict.is_accepted(),
                "{} file {}: the calibration solution's output is not the pack's answer: {verdict:?}",
                file.game,
                file.name
            );
            file.cpu.push(cpu);
        }
    }

    println!(
        "Calibration: CPU time of the straightforward accepted solution on each file of the \
         default packs, median of {runs} runs (g++ -O2)\n"
    );
    println!("| game | file | CPU (median) | limit | fraction |  |");
    println!("|---|---|---|---|---|---|");
    for file in &files {
        let limit = Duration::from_millis(file.game.default_limits().0);
        let median = file.median();
        let fraction = median.as_secs_f64() / limit.as_secs_f64();
        let flag = if fraction > 0.5 { "ABOVE 1/2" } else { "" };
        println!(
            "| {} | {} | {} ms | {} s | {fraction:.2} | {flag} |",
            file.game,
            file.name,
            median.as_millis(),
            limit.as_secs_f64()
        );
    }
    println!();
    for &game in &games {
        let own: Vec<&Packed> = files.iter().filter(|f| f.game == game).collect();
        let limit = game.default_limits().0 as f64 / 1e3;
        let slowest = own.iter().max_by_key(|f| f.median()).expect("a file");
        let estimated = own
            .iter()
            .max_by(|a, b| a.work.total_cmp(&b.work))
            .expect("a file");
        let above = own
            .iter()
            .filter(|f| f.median().as_secs_f64() > limit / 2.0)
            .count();
        println!(
            "{game}: {} files, the slowest {} ({:.2} of the limit), {above} above 1/2; the \
             estimate's heaviest (the test's pick) {} ({:.2})",
            own.len(),
            slowest.name,
            slowest.median().as_secs_f64() / limit,
            estimated.name,
            estimated.median().as_secs_f64() / limit,
        );
        slower(game, &own, dir.path(), runs);
        // The rate the end-to-end test holds the heaviest file to, measured again here.
        let rate = estimated.work / estimated.median().as_secs_f64();
        let recorded = calibration::work_per_second(game.name());
        println!(
            "{game}: work per CPU second on file {}: {rate:.3e} (recorded {recorded:.3e}, \
             {:.2}×); the heaviest file holds {:.2} of the work of half the limit at this rate",
            estimated.name,
            rate / recorded,
            estimated.work / (rate * limit / 2.0),
        );
    }
}
