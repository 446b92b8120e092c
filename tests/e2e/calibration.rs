//! The default packs pass the programs the original judges accepted, with room to spare: per
//! game, the pack's heaviest file takes the game's straightforward accepted solution (the
//! calibration solutions of benches/support/, compiled with g++ -O2) at most half the time
//! limit, in CPU time. `cargo bench --bench calibrate` times every file; this holds the
//! heaviest of each pack, which is what a plan change would push over.

use std::path::Path;
use std::time::Duration;

use duipai::pack::Layout;
use duipai::problem::{Instance, Problem};

// Its peak-memory figure is the gems bench's; only the CPU time is held here.
#[allow(dead_code)]
#[path = "../../benches/support/measured.rs"]
mod measured;

#[path = "../../benches/support/calibration.rs"]
mod solutions;

/// Runs of a file measured at most: a run above half the limit is measured again, up to this
/// many runs in all, and judged on the fastest (a busy machine only ever slows a program down,
/// even in CPU time, through the caches and the cores it shares).
const RUNS: usize = 3;

/// The pack's file `point` (plain layout) parsed, with its input written into `dir`.
fn packed_file(
    game: &'static dyn Problem,
    point: usize,
    dir: &Path,
) -> (Box<dyn Instance>, std::path::PathBuf, Vec<u8>) {
    let tree = &crate::pack::packed(game, Layout::Plain, 0).tree;
    let input = &tree[&format!("{point}.in")];
    let instance = game
        .parse(input, &game.default_bounds())
        .unwrap_or_else(|e| panic!("{game} file {point}: {e}"));
    let path = dir.join(format!("{game}{point}.in"));
    std::fs::write(&path, input).unwrap();
    (instance, path, tree[&format!("{point}.ans")].clone())
}

#[test]
fn the_heaviest_file_of_every_default_pack_takes_at_most_half_the_limit() {
    // Without a compiler this test fails, saying so: it never passes without measuring.
    crate::util::require(&["g++"]);
    let dir = tempfile::tempdir().unwrap();
    let mut measured = Vec::new();
    for &game in duipai::problem::ALL {
        let game: &'static dyn Problem = game;
        let binary = solutions::compile(game.name(), dir.path()).unwrap_or_else(|e| panic!("{e}"));
        let points = crate::pack::packed(game, Layout::Plain, 0)
            .tree
            .keys()
            .filter(|name| name.ends_with(".in"))
            .count();
        assert!(points > 0, "{game}: an empty pack");
        // The heaviest file by the calibration's estimate of the solution's work (the bench
        // prints whether it is also the slowest measured).
        let (point, _) = (1..=points)
            .map(|point| {
                let (instance, _, _) = packed_file(game, point, dir.path());
                (point, solutions::work(instance.as_ref()))
            })
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .unwrap();
        let (instance, input, answers) = packed_file(game, point, dir.path());
        let expected = game.read_answers(&answers, instance.as_ref()).unwrap();
        let half = Duration::from_millis(game.default_limits().0) / 2;
        let mut fastest = Duration::MAX;
        let mut times = Vec::new();
        while times.len() < RUNS && fastest > half {
            let (cpu, output) = solutions::run(&binary, &input);
            let check = duipai::answer::check(&expected, output.as_bytes());
            assert!(
                check.is_accepted(),
                "{game} file {point}: the calibration solution {} is not accepted: {check:?}",
                solutions::source(game.name()).display()
            );
            fastest = fastest.min(cpu);
            times.push(format!("{:.3} s", cpu.as_secs_f64()));
        }
        measured.push((game, point, fastest, half, times));
    }
    let report: Vec<String> = measured
        .iter()
        .map(|(game, point, _, half, times)| {
            format!(
                "{game} file {point}: CPU {} (half the limit: {:.3} s)",
                times.join(", "),
                half.as_secs_f64()
            )
        })
        .collect();
    let report = report.join("\n");
    assert!(
        measured
            .iter()
            .all(|(_, _, fastest, half, _)| fastest <= half),
        "a default pack's file takes its straightforward accepted solution more than half the \
         time limit: reshape the plan (fewer large cases per file) or, where the limit is a \
         guess, the limit; `cargo bench --bench calibrate` times every file\n{report}"
    );
    eprintln!("{report}");
}
