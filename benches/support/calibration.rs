//! The calibration solutions: for each built-in game, the straightforward accepted C++ program
//! the original judge's contestants wrote, against which the default packs are sized (every
//! file at most half its time limit). Shared by `cargo bench --bench calibrate`, which times
//! them on every file of every default pack, and by the end-to-end test that holds each
//! pack's heaviest file to half its limit in work (the estimate below, against the rate the
//! bench measured), so that the test's verdict does not depend on how fast or busy the machine
//! running it is.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use duipai::problem::{
    Cell, Chess, ChessProblem, Chessboard, ChessboardProblem, FishheadProblem, GemsProblem,
    Instance, ShootingProblem,
};

/// Each game's calibration solution, in `benches/support/`.
pub const SOLUTIONS: &[(&str, &str)] = &[
    // The memoized search over row lengths in a std::map, as the chess write-ups do.
    ("chess", "chess_map.cpp"),
    // A dense int table over the 2^(2n) boundary masks, as the accepted programs do: a
    // std::map over the 2.7 million staircases of a 12×12 board takes seconds.
    ("chessboard", "chessboard_dense.cpp"),
    // The bottom-up DP over the 2^B used-bag masks (also the gems bench's baseline).
    ("gems", "gems_dp.cpp"),
    // A memo in a hash map cleared for each case, as the public programs do.
    ("fishhead", "fishhead_memo.cpp"),
    // The memoized expectation over height vectors, cleared for each case.
    ("shooting", "shooting_memo.cpp"),
];

/// Slower approaches contestants also had accepted, which the default packs keep within half
/// the limit too (`cargo bench --bench calibrate` times them on every file of their game's
/// pack, beside the calibration solutions): the same searches with a slower memo.
// Timed by the bench only; the end-to-end test includes this module too.
#[allow(dead_code)]
pub const SLOWER: &[(&str, &str)] = &[
    // The memo a std::map over the whole edge mask, looked up twice a state: about five times
    // fishhead_memo.cpp's time.
    ("fishhead", "fishhead_map.cpp"),
    // A memoized search from the empty cooker over the used-bag masks, its memo a hash map:
    // four to five times gems_dp.cpp's time (a std::map there takes some forty times as long,
    // beyond the limit on one maximal case).
    ("gems", "gems_map.cpp"),
];

/// The work (in [`work`]'s units) each game's calibration solution does in one second of CPU
/// time: its heaviest default-pack file's estimate over that file's median CPU time, as
/// `cargo bench --bench calibrate` measures it on a quiet 2-core machine (its last lines print
/// the rate again, beside this one). Recorded from the medians of 5 runs in
/// docs/benchmarks.md ("Calibration of the default packs"): chess 1.848e6 in 121 ms,
/// chessboard 1.622e8 in 739 ms, gems 1.762e9 in 2306 ms, fishhead 1.065e7 in 70 ms, shooting
/// 1.911e7 in 30 ms.
pub const WORK_PER_SECOND: &[(&str, f64)] = &[
    ("chess", 1.848e6 / 0.121),
    ("chessboard", 1.622e8 / 0.739),
    ("gems", 1.762e9 / 2.306),
    ("fishhead", 1.065e7 / 0.070),
    ("shooting", 1.911e7 / 0.030),
];

/// `game`'s recorded rate ([`WORK_PER_SECOND`]).
pub fn work_per_second(game: &str) -> f64 {
    WORK_PER_SECOND
        .iter()
        .find(|(name, _)| *name == game)
        .unwrap_or_else(|| panic!("no recorded work rate for {game}: run `cargo bench --bench calibrate -- {game}` and add its rate to WORK_PER_SECOND"))
        .1
}

/// The source of `game`'s calibration solution.
pub fn source(game: &str) -> PathBuf {
    let (_, file) = SOLUTIONS
        .iter()
        .find(|(name, _)| *name == game)
        .unwrap_or_else(|| {
            panic!(
                "no calibration solution for {game}: {game} breaks rule 11 of CONTRIBUTING.md \
                 (a calibration solution in benches/support/, listed in SOLUTIONS)"
            )
        });
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("benches/support")
        .join(file)
}

/// Compiles `game`'s solution into `dir` with `g++ -O2`, as a judge compiles C++.
pub fn compile(game: &str, dir: &Path) -> Result<PathBuf, String> {
    compile_source(&source(game), &dir.join(format!("{game}-calibration")))
}

/// Compiles the slower approach `file` of [`SLOWER`] into `dir`.
#[allow(dead_code)]
pub fn compile_slower(file: &str, dir: &Path) -> Result<PathBuf, String> {
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("benches/support")
        .join(file);
    compile_source(&source, &dir.join(file.trim_end_matches(".cpp")))
}

/// `g++ -std=c++17 -O2 -o binary source`.
fn compile_source(source: &Path, binary: &Path) -> Result<PathBuf, String> {
    let out = Command::new("g++")
        .args(["-std=c++17", "-O2", "-o"])
        .arg(binary)
        .arg(source)
        .output()
        .map_err(|e| format!("cannot run g++ (the calibration needs GNU C++): {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "g++ failed on {}:\n{}",
            source.display(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(binary.to_path_buf())
}

/// The CPU time (user and system, from `wait4`: the child's own rusage, so neither the
/// harness nor a busy machine's waiting counts) and the output of one run of `binary` on
/// `input`, which must end in a clean exit.
pub fn run(binary: &Path, input: &Path) -> (Duration, String) {
    let file = std::fs::File::open(input).expect("the input file");
    let run = super::measured::run_measured(Command::new(binary).stdin(file))
        .expect("the calibration solution starts");
    assert_eq!(
        run.status,
        0,
        "{} failed on {} (wait status {})",
        binary.display(),
        input.display(),
        run.status
    );
    (run.cpu, run.stdout)
}

/// An estimate of the work of the calibration solution on `instance`, in the unit of its
/// inner loop: it picks a pack's heaviest files without timing them, and holds them to half the
/// limit at the game's [`WORK_PER_SECOND`]. Units differ from game to game.
pub fn work(instance: &dyn Instance) -> f64 {
    // C(a + b, a): the number of staircases of an a×b board.
    fn paths(a: usize, b: usize) -> f64 {
        (1..=a).fold(1.0, |acc, i| acc * (b + i) as f64 / i as f64)
    }
    if let Some(cases) = instance.cases_of::<ChessProblem>() {
        // Every staircase once, each a std::map lookup per move.
        let Chess { n, m, .. } = &cases[0];
        return paths(*n, *m) * (*n as f64);
    }
    if let Some(cases) = instance.cases_of::<ChessboardProblem>() {
        // Every boundary once: a scan of its 2n steps, then every pair of a white and a
        // black corner (more where both colours are many).
        let Chessboard { n, cells, .. } = &cases[0];
        let count = |c: Cell| cells.iter().flatten().filter(|&&x| x == c).count() as f64;
        let cells = (n * n) as f64;
        return paths(*n, *n) * (2.0 * *n as f64 + count(Cell::White) * count(Cell::Black) / cells);
    }
    if let Some(cases) = instance.cases_of::<GemsProblem>() {
        // Every mask rebuilds the cooker and tries every bag, colour by colour.
        return cases
            .iter()
            .map(|c| (1u64 << c.bags.len()) as f64 * (c.bags.len() * c.g) as f64)
            .sum();
    }
    if let Some(cases) = instance.cases_of::<FishheadProblem>() {
        // Every set of the edges left is a hash-map entry trying every edge left.
        return cases
            .iter()
            .map(|c| {
                let left = c.remaining();
                (1u64 << left) as f64 * (left + 1) as f64
            })
            .sum();
    }
    if let Some(cases) = instance.cases_of::<ShootingProblem>() {
        // Every board below the case's, each trying every row from both sides.
        return cases
            .iter()
            .map(|c| {
                let boards: f64 = c.heights.iter().map(|&h| (h + 1) as f64).product();
                let top = c.heights.iter().max().copied().unwrap_or(0);
                boards * (6 * top + 1) as f64
            })
            .sum();
    }
    panic!("no work estimate for {}", instance.problem())
}
