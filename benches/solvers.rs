//! Solver benchmark: the rank-indexed staircase DP against the dense `f[1 << 2n]` memoized
//! search contest programs use, in time (medians of repeated runs) and in peak memory of a
//! whole process. Run with `cargo bench --bench solvers`.

#[path = "support/timing.rs"]
mod timing;
use timing::{Timing, measure, ms};

use std::io::Write;
use std::process::Command;

#[path = "support/measured.rs"]
mod measured;
use measured::run_measured;

use duipai::problem::shooting::{Table, unimodal_violation};
use duipai::problem::{
    CHESSBOARD, Cases, Cell, Chess, ChessProblem, Chessboard, ChessboardProblem, Instance, Problem,
    Shooting, ShootingProblem,
};

/// Set in a child process of this benchmark: run the baseline once on the file it names.
const CHILD_ENV: &str = "DUIPAI_BENCH_BASELINE_CHILD";

/// A tiny LCG (Knuth's MMIX constants), so the boards are the same on every machine.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, bound: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % bound
    }
}

fn chess_board(n: usize, seed: u64) -> Chess {
    let mut rng = Lcg(seed);
    let mut matrix = || -> Vec<Vec<i64>> {
        (0..n)
            .map(|_| (0..n).map(|_| rng.below(100_001) as i64).collect())
            .collect()
    };
    let a = matrix();
    let b = matrix();
    Chess { n, m: n, a, b }
}

/// A board of W and B only (no empty cells, so no free shortcuts), weights up to 10^6.
fn chessboard_board(n: usize, seed: u64) -> Chessboard {
    let mut rng = Lcg(seed);
    let cells: Vec<Vec<Cell>> = (0..n)
        .map(|_| {
            (0..n)
                .map(|_| {
                    if rng.below(2) == 0 {
                        Cell::White
                    } else {
                        Cell::Black
                    }
                })
                .collect()
        })
        .collect();
    let weights = (0..n)
        .map(|_| (0..n).map(|_| rng.below(1_000_001) as i64).collect())
        .collect();
    Chessboard { n, cells, weights }
}

/// The contest baseline for chess: the staircase as an (n+m)-bit word, `f[1 << (n+m)]`,
/// memoized recursion, turn from the popcount of filled cells.
struct DenseChess {
    n: usize,
    m: usize,
    a: Vec<i32>,
    b: Vec<i32>,
    f: Vec<i32>,
    seen: Vec<bool>,
}

impl DenseChess {
    fn solve(c: &Chess) -> i64 {
        let (n, m) = (c.n, c.m);
        let flat = |v: &Vec<Vec<i64>>| v.iter().flatten().map(|&x| x as i32).collect();
        let mut s = DenseChess {
            n,
            m,
            a: flat(&c.a),
            b: flat(&c.b),
            f: vec![0; 1 << (n + m)],
            seen: vec![false; 1 << (n + m)],
        };
        // Bits from high to low: a 1 is a step up, a 0 a step right, walking from the
        // bottom-left corner. Empty board: n ups then m rights.
        let empty = ((1usize << n) - 1) << m;
        i64::from(s.dfs(empty, 0))
    }

    fn dfs(&mut self, stat: usize, filled: usize) -> i32 {
        if filled == self.n * self.m {
            return 0;
        }
        if self.seen[stat] {
            return self.f[stat];
        }
        let len = self.n + self.m;
        let feifei = filled.is_multiple_of(2);
        let mut best = if feifei { i32::MIN } else { i32::MAX };
        // Walk from the highest bit: an up-step closes a row (bottom row first), a right
        // step widens the current row.
        let (mut row, mut col) = (self.n, 0usize);
        for i in (1..len).rev() {
            let up = (stat >> i) & 1 == 1;
            let next_right = (stat >> (i - 1)) & 1 == 0;
            if up {
                row -= 1;
                if next_right {
                    // Cell (row, col) is addable: swap "up, right" into "right, up".
                    let next = stat ^ (3 << (i - 1));
                    let cell = row * self.m + col;
                    let v = self.dfs(next, filled + 1);
                    best = if feifei {
                        best.max(self.a[cell] + v)
                    } else {
                        best.min(v - self.b[cell])
                    };
                }
            } else {
                col += 1;
            }
        }
        self.seen[stat] = true;
        self.f[stat] = best;
        best
    }
}

/// The contest baseline for chessboard: `int f[1 << 2n]` filled with -1, memoized recursion,
/// every corner alone and every (W, B) corner pair.
struct DenseChessboard {
    n: usize,
    color: Vec<Cell>,
    weight: Vec<i32>,
    f: Vec<i32>,
}

impl DenseChessboard {
    fn solve(b: &Chessboard) -> i64 {
        let n = b.n;
        let mut s = DenseChessboard {
            n,
            color: b.cells.iter().flatten().copied().collect(),
            weight: b.weights.iter().flatten().map(|&w| w as i32).collect(),
            f: vec![-1; 1 << (2 * n)],
        };
        let start = (1usize << n) - 1;
        s.f[start << n] = 0;
        i64::from(s.dfs(start))
    }

    /// Bits from high to low: a 1 is a step right, a 0 a step down, from the top-left corner
    /// of the board; the removed region lies below-left of the path.
    fn dfs(&mut self, stat: usize) -> i32 {
        if self.f[stat] != -1 {
            return self.f[stat];
        }
        let n = self.n;
        let (mut r, mut c) = (0usize, 0usize);
        let mut best = i32::MAX;
        let mut whites = [(0usize, 0i32); 24];
        let mut blacks = [(0usize, 0i32); 24];
        let (mut nw, mut nb) = (0, 0);
        for i in (1..2 * n).rev() {
            if (stat >> i) & 1 == 0 && (stat >> (i - 1)) & 1 == 1 {
                let cell = r * n + c;
                let w = self.weight[cell];
                let v = self.dfs(stat ^ (3 << (i - 1)));
                best = best.min(v + w);
                match self.color[cell] {
                    Cell::White => {
                        whites[nw] = (i, w);
                        nw += 1;
                    }
                    Cell::Black => {
                        blacks[nb] = (i, w);
                        nb += 1;
                    }
                    Cell::Empty => {}
                }
            }
            if (stat >> i) & 1 == 1 {
                c += 1;
            } else {
                r += 1;
            }
        }
        for &(iw, ww) in &whites[..nw] {
            for &(ib, wb) in &blacks[..nb] {
                let next = stat ^ (3 << (iw - 1)) ^ (3 << (ib - 1));
                best = best.min(self.dfs(next) + (ww - wb).abs());
            }
        }
        self.f[stat] = best;
        best
    }
}

fn row(name: &str, t: &Timing<i64>) {
    println!(
        "  {name:<38} {:>11} {:>11}   answer {}",
        ms(t.cpu),
        ms(t.wall),
        t.result
    );
}

/// Prints the peak RSS and the CPU time of `command` after `label`, and its answer followed by
/// `note`.
fn print_peak(label: &str, command: &mut Command, note: &str) {
    match run_measured(command) {
        Ok(run) if run.status == 0 => println!(
            "  {label:<25} {:>7.1} MiB   CPU {}   (answer {}{note})",
            run.peak_mib,
            ms(run.cpu),
            run.stdout.trim()
        ),
        Ok(run) => println!("  {label:<25} failed: wait status {}", run.status),
        Err(e) => println!("  {label:<25} failed: {e}"),
    }
}

fn main() {
    if let Ok(path) = std::env::var(CHILD_ENV) {
        let text = std::fs::read(path).expect("the board file");
        let bounds = CHESSBOARD.default_bounds();
        let Ok(board) = Chessboard::parse(&text, &bounds) else {
            panic!("the bench wrote an invalid board");
        };
        println!("{}", DenseChessboard::solve(&board));
        return;
    }

    let chess = chess_board(10, 2018);
    let chessboard = chessboard_board(12, 2019);
    // Through the engine's interface, as `duipai solve` reaches the solvers.
    let chess_instance: Box<dyn Instance> = Box::new(Cases::<ChessProblem>::single(chess.clone()));
    let board_instance: Box<dyn Instance> =
        Box::new(Cases::<ChessboardProblem>::single(chessboard.clone()));
    let answer = |i: &dyn Instance| -> i64 { i.solve()[0].parse().expect("an integer answer") };

    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("board12.in");
    std::fs::File::create(&file)
        .and_then(|mut f| f.write_all(board_instance.to_input().as_bytes()))
        .expect("the board file");
    // First, while this process is still small: a spawned child's ru_maxrss starts from the
    // resident size of the process image it was started from.
    println!("peak RSS of a whole process on the 12×12 chessboard:");
    let duipai = env!("CARGO_BIN_EXE_duipai");
    print_peak(
        "duipai solve chessboard",
        Command::new(duipai)
            .args(["solve", "chessboard"])
            .arg(&file),
        ", target < 16 MiB",
    );
    let me = std::env::current_exe().expect("the bench executable");
    print_peak(
        "dense baseline (child)",
        Command::new(me).env(CHILD_ENV, &file),
        "",
    );

    println!("duipai solvers: medians (CPU time of the thread, wall time)");
    println!("  {:<38} {:>11} {:>11}", "", "cpu", "wall");
    let chess_dp = measure(31, || answer(chess_instance.as_ref()));
    row("chess 10×10, rank-indexed DP", &chess_dp);
    let chess_dense = measure(31, || DenseChess::solve(&chess));
    row("chess 10×10, dense f[1 << 20] baseline", &chess_dense);
    let board_dp = measure(9, || answer(board_instance.as_ref()));
    row("chessboard 12×12, rank-indexed DP", &board_dp);
    let board_dense = measure(5, || DenseChessboard::solve(&chessboard));
    row("chessboard 12×12, dense f[1 << 24]", &board_dense);
    assert_eq!(chess_dp.result, chess_dense.result, "chess answers differ");
    assert_eq!(
        board_dp.result, board_dense.result,
        "chessboard answers differ"
    );

    let ratio = |base: &Timing<i64>, ours: &Timing<i64>| {
        base.cpu.as_secs_f64() / ours.cpu.as_secs_f64().max(1e-9)
    };
    println!("speed-up over the baseline (CPU time):");
    println!(
        "  chess 10×10       {:>6.2}×",
        ratio(&chess_dense, &chess_dp)
    );
    println!(
        "  chessboard 12×12  {:>6.2}×   (target >= 3×)",
        ratio(&board_dense, &board_dp)
    );
    shooting_figures();
}

/// Every legal shooting board: 1 to 6 columns of heights 1 to 6, unimodal, not all equal.
fn shooting_boards() -> Vec<Vec<usize>> {
    let mut boards = Vec::new();
    for n in 1..=6u32 {
        for code in 0..6usize.pow(n) {
            let h: Vec<usize> = (0..n).map(|j| code / 6usize.pow(j) % 6 + 1).collect();
            if unimodal_violation(&h).is_none() && h.iter().any(|&x| x != h[0]) {
                boards.push(h);
            }
        }
    }
    boards
}

fn shooting_figures() {
    let boards = shooting_boards();
    let files: Vec<Cases<ShootingProblem>> = boards
        .iter()
        .map(|h| Cases::single(Shooting::new(h.clone())))
        .collect();
    // A checksum of the answers in millionths, so both sides are compared.
    let all = || -> i64 {
        files
            .iter()
            .map(|f| {
                let line = &(f as &dyn Instance).solve()[0];
                (line.parse::<f64>().expect("a real") * 1e6).round() as i64
            })
            .sum()
    };
    println!("shooting, all {} legal boards: medians", boards.len());
    let table = measure(9, || {
        let t = Table::new(&[6; 6]).expect("7^6 positions fit");
        (t.chance(&[6, 6, 6, 6, 6, 5]) * 1e6) as i64
    });
    row("the shared 6×6 table (7^6 positions)", &table);
    let ours = measure(9, all);
    row("every board, answered from it", &ours);
    // The alternative: a table over each board's own positions, built case by case.
    let baseline = measure(5, || {
        boards
            .iter()
            .map(|h| {
                let t = Table::new(h).expect("a legal board fits");
                (t.chance(h) * 1e6).round() as i64
            })
            .sum()
    });
    row("every board, a table of its own", &baseline);
    assert_eq!(ours.result, baseline.result, "shooting answers differ");
    let total = table.cpu + ours.cpu;
    println!(
        "  shared table and answers {} against {}: {:.1}× faster",
        ms(total),
        ms(baseline.cpu),
        baseline.cpu.as_secs_f64() / total.as_secs_f64().max(1e-9)
    );
}
