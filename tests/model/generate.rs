//! Generator tests: the ChaCha8 stream against published test vectors, hand-checked small
//! cases, golden hashes of whole generated files, the families' promises, flag handling, and a
//! property test that every generated case is valid input that round-trips through the parser.

use clap::Parser;
use duipai::app::args::{Cli, Command as Sub};
use duipai::problem::generate::generate;
use duipai::problem::{
    CHESS, CHESSBOARD, Cell, Chess, ChessProblem, Chessboard, ChessboardProblem, Family, GenParams,
    Instance, ParamValue, Problem, SizeProfile, SizeRange, Spec,
};
use duipai::random::Rng;

/// FNV-1a, 64-bit: offset basis 0xcbf29ce484222325, prime 0x100000001b3.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The words of a hex keystream as `next_u64` returns them: 8 bytes, little-endian.
fn words(hex: &str) -> Vec<u64> {
    let bytes: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect();
    bytes
        .chunks(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// `duipai gen` arguments parsed by the real command line, generated in-process.
fn gen_text(args: &str) -> String {
    let cli = Cli::try_parse_from(format!("duipai gen {args}").split_whitespace())
        .unwrap_or_else(|e| panic!("{args}: {e}"));
    let Sub::Gen(g) = cli.command else {
        panic!("not a gen command")
    };
    let game = duipai::problem::by_name(&g.problem).expect("a game");
    generate(game, &g.gen_args.to_params(), g.seed)
        .unwrap_or_else(|e| panic!("{args}: {e}"))
        .to_input()
}

#[test]
fn chacha8_stream_matches_the_published_test_vectors() {
    // draft-strombergson-chacha-test-vectors, ChaCha8 with a 256-bit key and a zero IV.
    // TC1: the all-zero key = seed 0. TC2: key byte 0 = 0x01, rest zero = seed 1.
    let tc1 = "3e00ef2f895f40d67f5bb8e81f09a5a12c840ec3ce9a7f3b181be188ef711a1e\
               984ce172b9216f419f445367456d5619314a42a3da86b001387bfdb80e0cfe42\
               d2aefa0deaa5c151bf0adb6c01f2a5adc0fd581259f9a2aadcf20f8fd566a26b\
               5032ec38bbc5da98ee0c6f568b872a65a08abf251deb21bb4b56e5d8821e68aa";
    let tc2 = "cf5ee9a0494aa9613e05d5ed725b804b12f4a465ee635acc3a311de8740489ea\
               289d04f43c7518db56eb4433e498a1238cd8464d3763ddbb9222ee3bd8fae3c8\
               b4355a7d93dd8867089ee643558b95754efa2bd1a8a1e2d75bcdb32015542638\
               291941feb49965587c4fdfe219cf0ec132a6cd4dc067392e67982fe53278c0b4";
    for (seed, hex) in [(0u64, tc1), (1, tc2)] {
        let mut rng = Rng::from_seed(seed);
        // Sixteen words: the first two 64-byte blocks, so the block counter is covered too.
        for (i, expected) in words(hex).into_iter().enumerate() {
            assert_eq!(rng.next_u64(), expected, "seed {seed}, word {i}");
        }
    }
    assert_eq!(Rng::from_seed(0).next_u64(), 0xd640_5f89_2fef_003e);
}

#[test]
fn small_cases_follow_the_stream_by_hand() {
    // Seed 0 words (TC1): w0, w1 fix n and m (single-value ranges still draw one word);
    // then A = w2 % 10, w3 % 10 and B = w4 % 10, w5 % 10 = 6 0 / 6 7.
    assert_eq!(
        gen_text("chess --seed 0 --n 1 --m 2 --max-value 9 --family uniform"),
        "1 2\n6 0\n6 7\n"
    );
    // Seed 1 words (TC2) mod 10 are 7 0 8 4 0 6: A = 8 4, B = 0 6.
    assert_eq!(
        gen_text("chess --seed 1 --n 1 --m 2 --max-value 9 --family uniform"),
        "1 2\n8 4\n0 6\n"
    );
    // Chessboard: w0 fixes n; w1 % 3 = 1 is B (W, B, . in that order); weight w2 % 10.
    assert_eq!(
        gen_text("chessboard --seed 0 --n 1 --max-value 9 --family uniform"),
        "1\nB\n6\n"
    );
    assert_eq!(
        gen_text("chessboard --seed 1 --n 1 --max-value 9 --family uniform"),
        "1\nB\n8\n"
    );
}

/// Whole generated files pinned by their FNV-1a hash: any change in the stream, a sampler,
/// a family or the text format shows up here.
#[test]
fn golden_hashes() {
    let golden: &[(&str, u64)] = &[
        ("chess --seed 0", 0xdf691e3afce40ccb),
        ("chess --seed 1", 0x170bd7136107d378),
        ("chess --seed 42 --n 3..5 --m 2", 0x6154c7a92484eca3),
        ("chess --seed 7 --b-zero", 0xbc2da3decff0e536),
        ("chess --seed 8 --family thin", 0x126c9ebec56c0768),
        ("chess --seed 9 --family max-size", 0x2241a6dd6c2f653b),
        (
            "chess --seed 10 --family max-values --max-value 77",
            0x01ba4196efffa807,
        ),
        ("chess --seed 11 --family ties", 0x11a8acd8a2058ca3),
        ("chess --seed 12 --family a-equals-b", 0x9073aca80eb035d3),
        ("chess --seed 13 --family greedy-trap", 0xea4cd036be0b6d76),
        ("chess --seed 14 --family b-zero --n 4", 0xbbb36935af4f6583),
        ("chess --seed 18446744073709551615", 0xb8d3ad7cd24d3bfe),
        ("chessboard --seed 0", 0xdcd1a97dfe6048f7),
        ("chessboard --seed 1", 0xa8c11be81da0594d),
        (
            "chessboard --seed 5 --n 6..8 --max-value 3",
            0xf763d916a5f73e82,
        ),
        (
            "chessboard --seed 20 --family one-colour",
            0xecf1e51d9ba49555,
        ),
        (
            "chessboard --seed 21 --family checkerboard",
            0xad6e9e0760b97e47,
        ),
        (
            "chessboard --seed 22 --family equal-pairs",
            0x9dd4d89a37f9fe15,
        ),
        ("chessboard --seed 23 --family sparse", 0x9eb7ac48800c0878),
        (
            "chessboard --seed 24 --family self-blocked",
            0xdd78ffde618c00ae,
        ),
        ("chessboard --seed 25 --family max-size", 0xd5fe9e988d9b4dbf),
        (
            "chessboard --seed 26 --family max-values",
            0xfcbe206d5df24e3e,
        ),
    ];
    let mut wrong = Vec::new();
    for &(args, expected) in golden {
        let got = fnv1a(gen_text(args).as_bytes());
        if got != expected {
            wrong.push(format!("(\"{args}\", {got:#018x}),"));
        }
    }
    assert!(wrong.is_empty(), "changed:\n{}", wrong.join("\n"));
}

#[test]
fn golden_full_outputs() {
    assert_eq!(
        gen_text("chess --seed 3 --n 2 --m 3 --max-value 20 --family uniform"),
        "2 3\n15 10 12\n10 5 13\n5 3 9\n12 2 1\n"
    );
    assert_eq!(
        gen_text("chessboard --seed 4 --n 3 --max-value 9 --family self-blocked"),
        // Tiles `XY / Y.`: (0,0) B W / W ., (0,2) W / B, (2,0) B W, (2,2) B; Y within 1 of X.
        "3\nBWW\nW.B\nBWB\n2 3 3\n3 0 2\n4 5 1\n"
    );
}

fn spec(problem: &'static dyn Problem, args: &GenParams) -> Spec {
    Spec::new(problem, args).unwrap()
}

fn chess_of(i: Box<dyn Instance>) -> Chess {
    i.first_case::<ChessProblem>()
        .expect("expected chess")
        .clone()
}

fn board_of(i: Box<dyn Instance>) -> Chessboard {
    i.first_case::<ChessboardProblem>()
        .expect("expected chessboard")
        .clone()
}

fn family(f: &str) -> GenParams {
    GenParams::default().with_family(f)
}

fn range(text: &str) -> ParamValue {
    ParamValue::Range(text.parse().unwrap())
}

/// The two staircase games, whose families these tests check case by case.
const STAIRCASE_GAMES: [&'static dyn Problem; 2] = [&CHESS, &CHESSBOARD];

#[test]
fn chess_families_keep_their_promises() {
    for seed in 0..300u64 {
        let c = chess_of(spec(&CHESS, &family("thin")).generate(seed));
        assert!(c.n == 1 || c.m == 1, "thin {seed}: {}x{}", c.n, c.m);

        let c = chess_of(spec(&CHESS, &family("max-size")).generate(seed));
        assert_eq!((c.n, c.m), (10, 10));

        let c = chess_of(spec(&CHESS, &family("max-values")).generate(seed));
        assert!(c.a.iter().chain(&c.b).flatten().all(|&v| v == 100_000));

        let c = chess_of(spec(&CHESS, &family("a-equals-b")).generate(seed));
        assert_eq!(c.a, c.b);

        let c = chess_of(spec(&CHESS, &family("b-zero")).generate(seed));
        assert!(c.b.iter().flatten().all(|&v| v == 0));

        let c = chess_of(spec(&CHESS, &family("ties")).generate(seed));
        let mut distinct: Vec<i64> = c.a.iter().chain(&c.b).flatten().copied().collect();
        distinct.sort_unstable();
        distinct.dedup();
        // At most three palette values, plus 0 from the zeroed regions.
        assert!(distinct.len() <= 4, "ties {seed}: {distinct:?}");
    }
    // A greedy trap: some cell whose right or lower neighbour is worth far more to both.
    let mut traps = 0;
    for seed in 0..100u64 {
        let args = family("greedy-trap").with("n", range("2..10"));
        let c = chess_of(spec(&CHESS, &args).generate(seed));
        let big = |i: usize, j: usize| i < c.n && j < c.m && c.b[i][j] >= 80_000;
        let found = (0..c.n)
            .any(|i| (0..c.m).any(|j| c.a[i][j] <= 20_000 && (big(i, j + 1) || big(i + 1, j))));
        traps += usize::from(found);
    }
    assert_eq!(traps, 100);
}

#[test]
fn chessboard_families_keep_their_promises() {
    let board = |f: &str, seed: u64| board_of(spec(&CHESSBOARD, &family(f)).generate(seed));
    for seed in 0..300u64 {
        let b = board("one-colour", seed);
        let colours: Vec<Cell> = b
            .cells
            .iter()
            .flatten()
            .filter(|&&c| c != Cell::Empty)
            .copied()
            .collect();
        assert!(
            colours.windows(2).all(|w| w[0] == w[1]),
            "one-colour {seed}"
        );

        let b = board("checkerboard", seed);
        for i in 0..b.n {
            for j in 0..b.n {
                assert_ne!(b.cells[i][j], Cell::Empty);
                if j + 1 < b.n {
                    assert_ne!(b.cells[i][j], b.cells[i][j + 1]);
                }
                if i + 1 < b.n {
                    assert_ne!(b.cells[i][j], b.cells[i + 1][j]);
                }
            }
        }

        let b = board("equal-pairs", seed);
        // Every weight appears on a W and a B alike, except possibly one odd piece.
        let mut w: Vec<i64> = Vec::new();
        let mut k: Vec<i64> = Vec::new();
        for (row, ws) in b.cells.iter().zip(&b.weights) {
            for (c, &x) in row.iter().zip(ws) {
                match c {
                    Cell::White => w.push(x),
                    Cell::Black => k.push(x),
                    Cell::Empty => {}
                }
            }
        }
        w.sort_unstable();
        k.sort_unstable();
        let common = multiset_common(&w, &k);
        assert!(w.len() + k.len() - 2 * common <= 1, "equal-pairs {seed}");

        let b = board("max-size", seed);
        assert_eq!(b.n, 12);

        let b = board("max-values", seed);
        for (row, ws) in b.cells.iter().zip(&b.weights) {
            for (c, &x) in row.iter().zip(ws) {
                assert_eq!(x, if *c == Cell::Empty { 0 } else { 1_000_000 });
            }
        }
    }
    // Sparse boards are mostly empty; self-blocked boards have the `XY / Y.` tile.
    let mut empty = 0usize;
    let mut total = 0usize;
    let mut tiles = 0;
    for seed in 0..200u64 {
        let b = board("sparse", seed);
        empty += b
            .cells
            .iter()
            .flatten()
            .filter(|&&c| c == Cell::Empty)
            .count();
        total += b.n * b.n;
        let args = family("self-blocked").with("n", range("2..12"));
        let b = board_of(spec(&CHESSBOARD, &args).generate(seed));
        let c = &b.cells;
        let tile = c[0][0] != Cell::Empty
            && c[0][1] != Cell::Empty
            && c[0][1] != c[0][0]
            && c[1][0] == c[0][1]
            && c[1][1] == Cell::Empty;
        tiles += usize::from(tile);
    }
    assert!(empty * 10 >= total * 7, "sparse: {empty} of {total} empty");
    // Three quarters of the tiles are structured; allow for chance.
    assert!(tiles >= 120, "self-blocked: {tiles} of 200");
}

fn multiset_common(a: &[i64], b: &[i64]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                n += 1;
                i += 1;
                j += 1;
            }
        }
    }
    n
}

#[test]
fn mixed_visits_every_family_with_small_and_largest_boards() {
    for problem in STAIRCASE_GAMES {
        let s = spec(problem, &GenParams::default());
        let mut seen = std::collections::HashSet::new();
        let (mut small, mut largest) = (0, 0);
        for seed in 0..2000u64 {
            let (f, p) = s.choose(&mut Rng::from_seed(seed));
            seen.insert(f);
            let inst = s.generate(seed);
            let (n, max) = match inst.first_case::<ChessProblem>() {
                Some(c) => (c.n.max(c.m), 10),
                None => (inst.first_case::<ChessboardProblem>().unwrap().n, 12),
            };
            if n <= 4 {
                small += 1;
            }
            if n == max {
                largest += 1;
            }
            if p == SizeProfile::Small && f != Family::MAX_SIZE {
                assert!(n <= 4, "{problem} seed {seed}: small profile gave n = {n}");
            }
        }
        assert_eq!(seen.len(), problem.families().len(), "{problem}");
        assert!(small >= 1000, "{problem}: {small} small boards of 2000");
        assert!(
            largest >= 200,
            "{problem}: {largest} largest boards of 2000"
        );
    }
}

#[test]
fn explicit_flags_override_every_family() {
    for problem in STAIRCASE_GAMES {
        let names = problem.families().iter().map(|f| f.name);
        for f in names.chain([Family::MIXED]) {
            for seed in 0..200u64 {
                let mut args = family(f)
                    .with("n", range("3..4"))
                    .with("max-value", ParamValue::Value(5));
                let b_zero = problem.name() == "chess" && seed % 2 == 0;
                if problem.name() == "chess" {
                    args.set("m", range("2"));
                }
                if b_zero {
                    args.set("b-zero", ParamValue::Flag);
                }
                let inst = spec(problem, &args).generate(seed);
                match inst.first_case::<ChessProblem>() {
                    Some(c) => {
                        assert!((3..=4).contains(&c.n) && c.m == 2, "{f} {seed}");
                        assert!(
                            c.a.iter()
                                .chain(&c.b)
                                .flatten()
                                .all(|v| (0..=5).contains(v))
                        );
                        if b_zero {
                            assert!(c.b.iter().flatten().all(|&v| v == 0), "{f} {seed}");
                        }
                    }
                    None => {
                        let b = inst.first_case::<ChessboardProblem>().unwrap();
                        assert!((3..=4).contains(&b.n), "{f} {seed}");
                        assert!(b.weights.iter().flatten().all(|v| (0..=5).contains(v)));
                    }
                }
            }
        }
    }
}

/// Parses a generated case with the validator's default bounds and checks it round-trips.
fn assert_valid(problem: &'static dyn Problem, instance: &dyn Instance, context: &str) {
    let text = instance.to_input();
    let parsed = problem
        .parse(text.as_bytes(), &problem.default_bounds())
        .unwrap_or_else(|e| panic!("{context}: {e}\n{text}"));
    assert_eq!(parsed.as_ref(), instance, "{context}");
    assert_eq!(parsed.to_input(), text, "{context}");
}

#[test]
fn every_family_and_flag_combination_parses_and_round_trips() {
    let flag_sets: &[&[&str]] = &[
        &[],
        &["--n", "1"],
        &["--n", "2..3", "--max-value", "0"],
        &["--max-value", "1"],
        &["--b-zero"],
        &["--n", "1..12", "--m", "10"],
    ];
    let mut checked = 0;
    for problem in STAIRCASE_GAMES {
        let names = problem.families().iter().map(|f| f.name);
        for f in names.chain([Family::MIXED]) {
            for flags in flag_sets {
                let mut words = vec!["duipai", "gen", problem.name(), "--seed", "0"];
                words.extend_from_slice(flags);
                words.extend(["--family", f]);
                let Sub::Gen(g) = Cli::try_parse_from(&words).unwrap().command else {
                    panic!()
                };
                // Chess-only flags and sizes past the bound are refused, not generated.
                let Ok(s) = Spec::new(problem, &g.gen_args.to_params()) else {
                    let chess_only = flags.contains(&"--b-zero") || flags.contains(&"--m");
                    assert!(chess_only || problem.name() == "chess", "{words:?}");
                    continue;
                };
                for seed in 0..150u64 {
                    assert_valid(
                        problem,
                        s.generate(seed).as_ref(),
                        &format!("{words:?} seed {seed}"),
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked >= 10_000, "{checked}");
}

mod random_flags {
    use super::*;
    use proptest::prelude::*;

    fn size_range(max: usize) -> impl Strategy<Value = Option<SizeRange>> {
        proptest::option::of((1..=max, 0..max).prop_map(move |(lo, extra)| SizeRange {
            lo,
            hi: (lo + extra).min(max),
        }))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn any_valid_flags_give_valid_input(
            chess in any::<bool>(),
            n in size_range(12),
            m in size_range(10),
            max_value in proptest::option::of(0i64..=1_000_000),
            b_zero in any::<bool>(),
            family_index in 0usize..9,
            seed in any::<u64>(),
        ) {
            let problem: &'static dyn Problem = if chess { &CHESS } else { &CHESSBOARD };
            let bounds = problem.default_bounds();
            let families = problem.families();
            let mut args = family(families.get(family_index).map_or(Family::MIXED, |f| f.name));
            if let Some(n) = n.filter(|r| r.hi as i64 <= bounds.get("n")) {
                args.set("n", ParamValue::Range(n));
            }
            if let (true, Some(m)) = (chess, m) {
                args.set("m", ParamValue::Range(m));
            }
            if let Some(v) = max_value {
                args.set("max-value", ParamValue::Value(v.min(bounds.get("value"))));
            }
            if chess && b_zero {
                args.set("b-zero", ParamValue::Flag);
            }
            let instance = generate(problem, &args, seed).unwrap();
            assert_valid(problem, instance.as_ref(), &format!("{} --seed {seed}", args.to_flags()));
        }
    }
}
