//! The default packs pass the programs the original judges accepted, with room to spare: per
//! game, the pack's heaviest file holds at most the work its straightforward accepted solution
//! (the calibration solutions of benches/support/, compiled with g++ -O2) does in half the
//! time limit, at the rate `cargo bench --bench calibrate` measured, and that solution's
//! output on it is the pack's answer. The work is an estimate computed from the file, so the
//! verdict is the same on a fast machine, a slow one and a busy one; the bench times every
//! file and prints the rate again, which is where a changed machine shows.

use std::path::Path;
use std::time::Duration;

use duipai::pack::Layout;
use duipai::problem::{Instance, Problem};

// Its peak-memory figure is the gems bench's; only the CPU time is held here.
#[allow(dead_code)]
#[path = "../../benches/support/measured.rs"]
mod measured;

// Its `compile` is the bench's; this test builds through the shared build cache instead.
#[allow(dead_code)]
#[path = "../../benches/support/calibration.rs"]
mod solutions;

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

/// `game`'s calibration solution built as duipai builds a contestant's C++ (`g++ -std=c++17
/// -O2`, as the bench's `g++ -O2`), into the build cache the tests share: five -O2 builds
/// were a quarter of this test's CPU on every run.
fn compiled(game: &str) -> std::path::PathBuf {
    let options = duipai::compile::CompileOptions {
        cache_dir: Some(crate::shared::build_cache()),
        use_env: false,
        ..Default::default()
    };
    let source = solutions::source(game);
    let prepared = duipai::compile::prepare(&[source.clone().into_os_string()], &options)
        .unwrap_or_else(|e| panic!("{}: {e}", source.display()));
    std::path::PathBuf::from(&prepared.command[0])
}

#[test]
fn the_heaviest_file_of_every_default_pack_takes_at_most_half_the_limit() {
    // Without a compiler this test fails, saying so: it never passes without judging.
    crate::util::require(&["g++"]);
    let dir = tempfile::tempdir().unwrap();
    let mut report = Vec::new();
    let mut over = Vec::new();
    for &game in duipai::problem::ALL {
        let game: &'static dyn Problem = game;
        let binary = compiled(game.name());
        let points = crate::pack::packed(game, Layout::Plain, 0)
            .tree
            .keys()
            .filter(|name| name.ends_with(".in"))
            .count();
        assert!(points > 0, "{game}: an empty pack");
        let (point, work) = (1..=points)
            .map(|point| {
                let (instance, _, _) = packed_file(game, point, dir.path());
                (point, solutions::work(instance.as_ref()))
            })
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .unwrap();
        let (instance, input, answers) = packed_file(game, point, dir.path());
        let expected = game.read_answers(&answers, instance.as_ref()).unwrap();
        let (_, output) = solutions::run(&binary, &input);
        let check = duipai::answer::check(&expected, output.as_bytes());
        assert!(
            check.is_accepted(),
            "{game} file {point}: the calibration solution {} is not accepted: {check:?}",
            solutions::source(game.name()).display()
        );
        let half = Duration::from_millis(game.default_limits().0) / 2;
        let budget = solutions::work_per_second(game.name()) * half.as_secs_f64();
        let line = format!(
            "{game} file {point}: work {work:.3e}, {:.2} of the {budget:.3e} the solution does in \
             half the limit ({:.3} s)",
            work / budget,
            half.as_secs_f64()
        );
        if work > budget {
            over.push(line.clone());
        }
        report.push(line);
    }
    let report = report.join("\n");
    assert!(
        over.is_empty(),
        "a default pack's file takes its straightforward accepted solution more than half the \
         time limit: reshape the plan (fewer large cases per file) or, where the limit is a \
         guess, the limit; `cargo bench --bench calibrate` times every file\n{report}"
    );
    eprintln!("{report}");
}
