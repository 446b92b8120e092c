//! The models checked from outside: the DP against the independent brute force, the cases in
//! `cases/`, the parser's rejections, and the `solve` / `validate` commands end to end.

use duipai::problem::chess::{Place, Player, brute::chess as brute_chess};
use duipai::problem::chessboard::{Removal, brute::chessboard as brute_chessboard};
use duipai::problem::{
    Bounds, CHESS, CHESSBOARD, Cases, Cell, Chess, ChessProblem, Chessboard, ChessboardProblem,
    Instance, Problem,
};

fn chess_file(c: Chess) -> Box<dyn Instance> {
    Box::new(Cases::<ChessProblem>::single(c))
}

fn board_file(b: Chessboard) -> Box<dyn Instance> {
    Box::new(Cases::<ChessboardProblem>::single(b))
}
use proptest::prelude::*;

fn chess_strategy(max_value: i64) -> impl Strategy<Value = Chess> {
    chess_shapes(4, 16, max_value)
}

/// Boards up to `side` × `side` with at most `cells` cells.
fn chess_shapes(side: usize, cells: usize, max_value: i64) -> impl Strategy<Value = Chess> {
    (1usize..=side, 1usize..=side)
        .prop_filter("small enough", move |(n, m)| n * m <= cells)
        .prop_flat_map(move |(n, m)| {
            let values = || {
                prop_oneof![
                    4 => 0..=max_value,
                    1 => Just(0),
                    1 => Just(max_value),
                ]
            };
            let matrix =
                move || proptest::collection::vec(proptest::collection::vec(values(), m), n);
            // Mode: 0 general, 1 B = 0, 2 all equal, 3 all zero.
            (matrix(), matrix(), 0..4u8, values()).prop_map(move |(a, b, mode, v)| match mode {
                1 => Chess {
                    n,
                    m,
                    a,
                    b: vec![vec![0; m]; n],
                },
                2 => Chess {
                    n,
                    m,
                    a: vec![vec![v; m]; n],
                    b: vec![vec![v; m]; n],
                },
                3 => Chess {
                    n,
                    m,
                    a: vec![vec![0; m]; n],
                    b: vec![vec![0; m]; n],
                },
                _ => Chess { n, m, a, b },
            })
        })
}

fn chessboard_strategy(max_value: i64) -> impl Strategy<Value = Chessboard> {
    (1usize..=6).prop_flat_map(move |n| {
        let cell = prop_oneof![Just(Cell::White), Just(Cell::Black), Just(Cell::Empty)];
        let weight = || prop_oneof![4 => 0..=max_value, 1 => Just(0), 1 => Just(max_value)];
        // Boards with no empty cell at all, where the free shortcut never applies.
        let pieces = prop_oneof![Just(Cell::White), Just(Cell::Black)];
        let cells = prop_oneof![
            3 => proptest::collection::vec(proptest::collection::vec(cell, n), n),
            1 => proptest::collection::vec(proptest::collection::vec(pieces, n), n),
        ];
        (
            cells,
            proptest::collection::vec(proptest::collection::vec(weight(), n), n),
            // Some boards give every piece one weight (0 included: all-zero boards).
            proptest::option::weighted(0.2, weight()),
        )
            .prop_map(move |(cells, weights, equal)| {
                let weights = cells
                    .iter()
                    .zip(&weights)
                    .map(|(cr, wr)| {
                        cr.iter()
                            .zip(wr)
                            .map(|(&c, &w)| match c {
                                Cell::Empty => 0,
                                _ => equal.unwrap_or(w),
                            })
                            .collect()
                    })
                    .collect();
                Chessboard { n, cells, weights }
            })
    })
}

/// Plays a chess line on the board by the rules and returns Feifei − Niuniu.
fn replay_chess(c: &Chess, moves: &[Place]) -> i64 {
    let mut filled = vec![vec![false; c.m]; c.n];
    let mut score = 0;
    assert_eq!(moves.len(), c.n * c.m, "the line fills the board");
    for (turn, mv) in moves.iter().enumerate() {
        let Place {
            player,
            cell: (r, col),
            value,
            score: running,
        } = mv;
        let (i, j) = (r - 1, col - 1);
        let expected = if turn % 2 == 0 {
            Player::Feifei
        } else {
            Player::Niuniu
        };
        assert_eq!(*player, expected, "turn {turn}");
        assert!(!filled[i][j] && (0..j).all(|k| filled[i][k]) && (0..i).all(|k| filled[k][j]));
        filled[i][j] = true;
        match player {
            Player::Feifei => {
                assert_eq!(*value, c.a[i][j]);
                score += value;
            }
            Player::Niuniu => {
                assert_eq!(*value, c.b[i][j]);
                score -= value;
            }
        }
        assert_eq!(*running, score);
    }
    score
}

/// Applies a chessboard line by the removability rule (empty cells hold no piece) and
/// returns its total cost; every piece must be removed exactly once.
fn replay_chessboard(b: &Chessboard, moves: &[Removal]) -> i64 {
    let n = b.n;
    let mut present: Vec<Vec<bool>> = b
        .cells
        .iter()
        .map(|r| r.iter().map(|&c| c != Cell::Empty).collect())
        .collect();
    let removable = |present: &Vec<Vec<bool>>, (r, c): (usize, usize)| {
        let (x, y) = (r - 1, c - 1);
        present[x][y] && (x..n).all(|i| (0..=y).all(|j| (i, j) == (x, y) || !present[i][j]))
    };
    let mut total = 0;
    for mv in moves {
        match *mv {
            Removal::Single {
                piece,
                cell,
                cost,
                total: running,
            } => {
                assert!(removable(&present, cell), "{mv:?}");
                assert_eq!(piece, b.cells[cell.0 - 1][cell.1 - 1]);
                assert_eq!(cost, b.weights[cell.0 - 1][cell.1 - 1]);
                present[cell.0 - 1][cell.1 - 1] = false;
                total += cost;
                assert_eq!(running, total);
            }
            Removal::Pair {
                white,
                black,
                cost,
                total: running,
            } => {
                assert!(
                    removable(&present, white) && removable(&present, black),
                    "{mv:?}"
                );
                assert_eq!(b.cells[white.0 - 1][white.1 - 1], Cell::White);
                assert_eq!(b.cells[black.0 - 1][black.1 - 1], Cell::Black);
                let (ww, wb) = (
                    b.weights[white.0 - 1][white.1 - 1],
                    b.weights[black.0 - 1][black.1 - 1],
                );
                assert_eq!(cost, (ww - wb).abs());
                present[white.0 - 1][white.1 - 1] = false;
                present[black.0 - 1][black.1 - 1] = false;
                total += cost;
                assert_eq!(running, total);
            }
        }
    }
    assert!(
        present.iter().flatten().all(|&p| !p),
        "the line clears the board"
    );
    total
}

/// The bounds of `game` with every side up to 16 and values up to i64::MAX.
fn wide_bounds(game: &dyn Problem) -> Bounds {
    let mut bounds = game.default_bounds();
    bounds.set("n", 16);
    bounds.set("m", 16);
    bounds.set("value", i64::MAX);
    bounds
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn chess_dp_agrees_with_game_tree(c in chess_strategy(100_000)) {
        prop_assert_eq!(c.try_solve().ok(), brute_chess(&c));
    }

    #[test]
    fn chessboard_dp_agrees_with_piece_search(b in chessboard_strategy(1_000_000)) {
        prop_assert_eq!(b.try_solve().ok(), brute_chessboard(&b));
    }

}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Values so large that the sums leave i32: the 8-byte table and i64 arithmetic.
    #[test]
    fn chess_wide_values_agree(c in chess_strategy(1 << 50)) {
        prop_assert_eq!(c.try_solve().ok(), brute_chess(&c));
    }

    #[test]
    fn chessboard_wide_values_agree(b in chessboard_strategy(1 << 50)) {
        prop_assert_eq!(b.try_solve().ok(), brute_chessboard(&b));
    }
}

/// A second, bitmask-indexed minimax in the style of contest programs (memo over all 2^(n+m)
/// words), sharing no code with the library, for boards beyond the plain game tree.
fn dense_chess(c: &Chess) -> i64 {
    fn go(c: &Chess, word: usize, filled: usize, memo: &mut [Option<i64>]) -> i64 {
        if filled == c.n * c.m {
            return 0;
        }
        if let Some(v) = memo[word] {
            return v;
        }
        // Bits from the top: 1 = step up, 0 = step right, from the bottom-left corner.
        let len = c.n + c.m;
        let feifei = filled.is_multiple_of(2);
        let (mut row, mut col) = (c.n, 0);
        let mut best: Option<i64> = None;
        for i in (1..len).rev() {
            if (word >> i) & 1 == 1 {
                row -= 1;
                if (word >> (i - 1)) & 1 == 0 {
                    let rest = go(c, word ^ (3 << (i - 1)), filled + 1, memo);
                    let v = if feifei {
                        c.a[row][col] + rest
                    } else {
                        rest - c.b[row][col]
                    };
                    best = Some(match best {
                        None => v,
                        Some(b) if feifei => b.max(v),
                        Some(b) => b.min(v),
                    });
                }
            } else {
                col += 1;
            }
        }
        let best = best.expect("a board that is not full has a playable cell");
        memo[word] = Some(best);
        best
    }
    let mut memo = vec![None; 1 << (c.n + c.m)];
    go(c, ((1 << c.n) - 1) << c.m, 0, &mut memo)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Larger shapes than the game tree reaches (up to 7×7), against the bitmask search.
    #[test]
    fn chess_dp_agrees_with_bitmask_search(c in chess_shapes(7, 49, 100_000)) {
        prop_assert_eq!(c.try_solve().unwrap(), dense_chess(&c));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn chess_line_of_play_is_legal_and_optimal(c in chess_strategy(100_000)) {
        let (answer, line) = c.try_solve_line().unwrap();
        prop_assert_eq!(answer, c.try_solve().unwrap());
        prop_assert_eq!(replay_chess(&c, &line), answer);
    }

    #[test]
    fn chessboard_line_of_play_is_legal_and_optimal(b in chessboard_strategy(1_000_000)) {
        let (answer, line) = b.try_solve_line().unwrap();
        prop_assert_eq!(answer, b.try_solve().unwrap());
        prop_assert_eq!(replay_chessboard(&b, &line), answer);
    }

    #[test]
    fn text_form_round_trips(c in chess_strategy(1 << 62), b in chessboard_strategy(1 << 62)) {
        for instance in [chess_file(c.clone()), board_file(b.clone())] {
            let text = instance.to_input();
            let game = instance.problem();
            let parsed = game.parse(text.as_bytes(), &wide_bounds(game)).unwrap();
            prop_assert!(parsed.as_ref() == instance.as_ref(), "{}", text);
        }
    }
}

/// Every `cases/<problem>/*.in` has its `.ans`, the solver matches it, and so does the brute
/// force wherever it applies: rule 8 of CONTRIBUTING.md.
#[test]
fn every_stored_case_is_solved_correctly() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("cases");
    for &problem in duipai::problem::ALL {
        let dir = root.join(problem.name());
        let rule = format!(
            "{problem} breaks rule 8 of CONTRIBUTING.md (cases/{problem}/: at least five .in \
             files, each with its .ans, the first 01-sample.in, each solved as its .ans says)"
        );
        let mut inputs: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{rule}: {}: {e}", dir.display()))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "in"))
            .collect();
        inputs.sort();
        assert!(inputs.len() >= 5, "{rule}: {} of them", inputs.len());
        assert!(
            inputs[0].ends_with("01-sample.in"),
            "{rule}: the first is {}",
            inputs[0].display()
        );
        for input in inputs {
            let text = std::fs::read(&input)
                .unwrap_or_else(|e| panic!("{rule}: {}: {e}", input.display()));
            let answer_file = input.with_extension("ans");
            let answers: Vec<String> = std::fs::read_to_string(&answer_file)
                .unwrap_or_else(|e| panic!("{rule}: {}: {e}", answer_file.display()))
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(|l| l.trim().to_string())
                .collect();
            let instance = problem
                .parse(&text, &problem.default_bounds())
                .unwrap_or_else(|e| panic!("{rule}: {}: {e}", input.display()));
            assert_eq!(instance.solve(), answers, "{}", input.display());
            if let Some(brute) = problem.brute_force(instance.as_ref()) {
                assert_eq!(brute, answers, "{}", input.display());
            }
        }
    }
}

#[test]
fn chess_sample_explanation_matches_the_statement() {
    let text = b"2 3\n2 7 3\n9 1 2\n3 7 2\n2 3 1\n";
    let instance = CHESS.parse(text, &CHESS.default_bounds()).unwrap();
    let explained = instance.try_explain().unwrap().remove(0);
    assert_eq!(explained.answer, "2");
    let explanation = explained.full();
    assert!(
        explanation.contains("F(1,1) N(1,2) F(2,1) N(1,3) F(2,2) N(2,3)"),
        "{explanation}"
    );
    assert!(
        explanation.contains("Feifei 2+9+1 = 12, Niuniu 7+2+1 = 10"),
        "{explanation}"
    );
}

#[test]
fn chessboard_explanation_lists_removals_with_running_total() {
    // 05-blocked-pair: B(2,1) alone (7), then W(1,1) alone (5), then B(1,2) alone (7).
    let text = b"2\nWB\nB.\n5 7\n7 0\n";
    let instance = CHESSBOARD
        .parse(text, &CHESSBOARD.default_bounds())
        .unwrap();
    let board = instance.first_case::<ChessboardProblem>().unwrap();
    assert_eq!(
        board.try_solve_line().unwrap().1,
        vec![
            Removal::Single {
                piece: Cell::Black,
                cell: (2, 1),
                cost: 7,
                total: 7
            },
            Removal::Single {
                piece: Cell::White,
                cell: (1, 1),
                cost: 5,
                total: 12
            },
            Removal::Single {
                piece: Cell::Black,
                cell: (1, 2),
                cost: 7,
                total: 19
            },
        ]
    );
    let explanation = instance.try_explain().unwrap()[0].full();
    assert!(explanation.contains("total 19"), "{explanation}");
    assert!(explanation.contains("1 empty cell"), "{explanation}");
    assert!(
        explanation.contains("Minimum total cost: 19"),
        "{explanation}"
    );
}

#[test]
fn tables_are_narrow_within_the_default_bounds_and_wide_beyond() {
    let full = |v: i64| Chessboard {
        n: 12,
        cells: vec![vec![Cell::White; 12]; 12],
        weights: vec![vec![v; 12]; 12],
    };
    assert_eq!(full(1_000_000).table_entry_bytes(), Ok(4));
    assert_eq!(full(20_000_000).table_entry_bytes(), Ok(8));
    let chess = |v: i64| Chess {
        n: 12,
        m: 12,
        a: vec![vec![v; 12]; 12],
        b: vec![vec![v; 12]; 12],
    };
    assert_eq!(chess(100_000).table_entry_bytes(), Ok(4));
    let wide = chess(1 << 40);
    assert_eq!(wide.table_entry_bytes(), Ok(8));
    // 144 equal cells: both players take 72.
    assert_eq!(wide.try_solve(), Ok(0));
}

#[test]
fn sums_beyond_i64_are_declined_not_overflowed() {
    let big = i64::MAX / 2 + 1;
    let c = Chess {
        n: 1,
        m: 2,
        a: vec![vec![big, big]],
        b: vec![vec![0, 0]],
    };
    assert_eq!(
        c.try_solve(),
        Err(duipai::problem::SolveError::ValuesTooLarge)
    );
    let b = Chessboard {
        n: 1,
        cells: vec![vec![Cell::White]],
        weights: vec![vec![i64::MAX]],
    };
    assert_eq!(b.try_solve(), Ok(i64::MAX));
    let huge = Chess {
        n: 30,
        m: 30,
        a: vec![vec![0; 30]; 30],
        b: vec![vec![0; 30]; 30],
    };
    assert!(matches!(
        huge.try_solve(),
        Err(duipai::problem::SolveError::TooLarge(_))
    ));
    assert_eq!(brute_chess(&huge), None);
    // Through the engine's interface the same refusal is an error, not a panic.
    assert!(chess_file(huge).try_solve().is_err());
}

/// (problem, input, line, column, message): every rejection, exactly where and what.
/// A malformed input and where and what its rejection is.
type Rejection = (
    &'static dyn Problem,
    &'static [u8],
    usize,
    usize,
    &'static str,
);

const MALFORMED: &[Rejection] = &[
    (
        &CHESS,
        b"",
        1,
        1,
        "expected n, an integer 1..=10, found end of input (the input is empty)",
    ),
    (
        &CHESS,
        b"2 3\n",
        2,
        1,
        "expected 3 more integers, found end of input",
    ),
    (
        &CHESS,
        b"2 3\n2 7 3\n9 1",
        3,
        4,
        "expected 1 more integer, found end of input",
    ),
    (
        &CHESS,
        b"2 3\n2 7 3 5\n9 1 2\n3 7 2\n2 3 1\n",
        2,
        7,
        "expected end of line after 3 integers, found \"5\"",
    ),
    (
        &CHESS,
        b"2 3\n2 7 3\n9 1 2\n3 7 2\n2 3 1\n5\n",
        6,
        1,
        "expected end of input, found \"5\"",
    ),
    (
        &CHESS,
        b"2 3\n2 x 3\n",
        2,
        3,
        "expected an integer 0..=100000, found \"x\"",
    ),
    (
        &CHESS,
        b"2 3\n2 7 3\n9 1 2\n3 7 -4\n",
        4,
        5,
        "expected an integer 0..=100000, found \"-4\"",
    ),
    (
        &CHESS,
        b"2 3\n2 7 3\n9 1 2\n3 7 100001\n",
        4,
        5,
        "expected an integer 0..=100000, found \"100001\" (out of range)",
    ),
    (
        &CHESS,
        b"2 3\n2 7 99999999999999999999\n",
        2,
        5,
        "expected an integer 0..=100000, found \"99999999999999999999\" (out of range)",
    ),
    (
        &CHESS,
        b"2 3\n1 2 999999999999999999999999999\n",
        2,
        5,
        "expected an integer 0..=100000, found \"99999999999999999999…\" (27 bytes) (out of range)",
    ),
    (
        &CHESS,
        b"11 3\n",
        1,
        1,
        "expected n, an integer 1..=10, found \"11\" (out of range)",
    ),
    (
        &CHESS,
        b"2 0\n",
        1,
        3,
        "expected m, an integer 1..=10, found \"0\" (out of range)",
    ),
    (
        &CHESS,
        b"2\n3\n",
        1,
        2,
        "expected m, an integer 1..=10, found end of line",
    ),
    (
        &CHESS,
        b"2 3.5\n",
        1,
        3,
        "expected m, an integer 1..=10, found \"3.5\"",
    ),
    (
        &CHESS,
        b"2 3\n\xff\xfe\x00\n",
        2,
        1,
        "expected an integer 0..=100000, found \"\\xFF\\xFE\\x00\" (binary data, not text)",
    ),
    (
        &CHESS,
        b"2 3\n2 07 3\n",
        2,
        3,
        "expected an integer 0..=100000 without leading zeros, found \"07\"",
    ),
    (
        &CHESS,
        b"2 3\n\n2 7 3\n",
        2,
        1,
        "expected 3 more integers, found end of line",
    ),
    (
        &CHESS,
        b"1 1\r5\n",
        1,
        4,
        "expected end of line after n and m, found a carriage return not followed by a line feed",
    ),
    (
        &CHESSBOARD,
        b"",
        1,
        1,
        "expected n, an integer 1..=12, found end of input (the input is empty)",
    ),
    (
        &CHESSBOARD,
        b"13\n",
        1,
        1,
        "expected n, an integer 1..=12, found \"13\" (out of range)",
    ),
    (
        &CHESSBOARD,
        b"2\nW\nB.\n1 0\n1 0\n",
        2,
        2,
        "expected 1 more cell (W, B or .), found end of line",
    ),
    (
        &CHESSBOARD,
        b"2\nW.B\nB.\n1 0\n1 0\n",
        2,
        3,
        "expected end of line after 2 cells, found \"B\"",
    ),
    (
        &CHESSBOARD,
        b"2\nW B\nB.\n",
        2,
        2,
        "expected 1 more cell (W, B or .), found a space",
    ),
    (
        &CHESSBOARD,
        b"2\nWx\nB.\n1 0\n1 0\n",
        2,
        2,
        "expected a cell W, B or ., found \"x\"",
    ),
    (
        &CHESSBOARD,
        b"2\nw.\nB.\n",
        2,
        1,
        "expected a cell W, B or ., found \"w\"",
    ),
    (
        &CHESSBOARD,
        "2\nWé\nB.\n".as_bytes(),
        2,
        2,
        "expected a cell W, B or ., found \"é\"",
    ),
    (
        &CHESSBOARD,
        b"2\nW.\nB.\n1 3\n1 0\n",
        4,
        3,
        "expected 0, the weight of an empty cell ('.' at row 1, column 2), found \"3\"",
    ),
    (
        &CHESSBOARD,
        b"2\nW.\nB.\n1 0\n1000001 0\n",
        5,
        1,
        "expected an integer 0..=1000000, found \"1000001\" (out of range)",
    ),
    (
        &CHESSBOARD,
        b"2\nW.\nB.\n1 0\n",
        5,
        1,
        "expected 2 more integers, found end of input",
    ),
    (
        &CHESSBOARD,
        b"2\nW.\nB.\n1 0\n1 0\nextra",
        6,
        1,
        "expected end of input, found \"extra\"",
    ),
];

#[test]
fn malformed_inputs_are_rejected_with_their_position() {
    for &(problem, text, line, column, message) in MALFORMED {
        let err = problem
            .parse(text, &problem.default_bounds())
            .expect_err(&String::from_utf8_lossy(text));
        assert_eq!(
            (err.line, err.column, err.message.as_str()),
            (line, column, message),
            "{problem} {:?}",
            String::from_utf8_lossy(text)
        );
        assert_eq!(
            err.to_string(),
            format!("line {line}, column {column}: {message}")
        );
    }
}

#[test]
fn whitespace_variants_are_accepted() {
    let bounds = CHESS.default_bounds();
    let canonical = CHESS
        .parse(b"2 3\n2 7 3\n9 1 2\n3 7 2\n2 3 1\n", &bounds)
        .unwrap();
    for text in [
        &b"2 3\r\n2 7 3  \r\n9 1 2\r\n3 7 2\r\n2 3 1\r\n\r\n"[..],
        b"2 3\n2 7 3\n9 1 2\n3 7 2\n2 3 1",
        b"  2\t3\n2  7 3\t\n9 1 2\n3 7 2\n2 3 1\n\n\n  \n",
    ] {
        assert!(CHESS.parse(text, &bounds).unwrap().as_ref() == canonical.as_ref());
    }
}

#[test]
fn huge_and_random_inputs_are_rejected_quickly() {
    let mut digits = b"2 3\n".to_vec();
    digits.extend(std::iter::repeat_n(b'9', 5_000_000));
    let err = CHESS.parse(&digits, &CHESS.default_bounds()).unwrap_err();
    assert_eq!((err.line, err.column), (2, 1));
    assert!(
        err.message.contains("(5000000 bytes) (out of range)"),
        "{}",
        err.message
    );
    // Bytes from a fixed LCG: whatever they are, a positioned message and no panic.
    let mut x: u64 = 7;
    for len in [1usize, 2, 5, 17, 100, 10_000] {
        for _ in 0..200 {
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    const ALPHABET: &[u8] = b"0123456789 \n\r\t-WB.\xff";
                    ALPHABET[(x >> 40) as usize % ALPHABET.len()]
                })
                .collect();
            for &problem in duipai::problem::ALL {
                if let Err(e) = problem.parse(&bytes, &problem.default_bounds()) {
                    assert!(e.line >= 1 && e.column >= 1 && !e.message.is_empty());
                }
            }
        }
    }
}

#[test]
fn raised_bounds_admit_larger_boards_and_values() {
    let mut bounds = CHESS.default_bounds();
    bounds.set("n", 12);
    bounds.set("m", 12);
    bounds.set("value", 1 << 40);
    let text = format!(
        "1 12\n{}\n{}\n",
        ["1099511627776"; 12].join(" "),
        ["0"; 12].join(" ")
    );
    let instance = CHESS.parse(text.as_bytes(), &bounds).unwrap();
    // Feifei takes the 6 cells of odd turns.
    assert_eq!(instance.solve(), [(6i64 << 40).to_string()]);
    assert!(
        CHESS
            .parse(text.as_bytes(), &CHESS.default_bounds())
            .is_err()
    );
}

#[test]
fn degenerate_hand_built_instances_do_not_panic() {
    let empty = Chess {
        n: 0,
        m: usize::MAX,
        a: vec![],
        b: vec![],
    };
    assert_eq!(empty.try_solve(), Ok(0));
    let ragged = Chess {
        n: 2,
        m: 2,
        a: vec![vec![1, 2], vec![3]],
        b: vec![vec![0; 2]; 2],
    };
    assert!(matches!(
        ragged.try_solve(),
        Err(duipai::problem::SolveError::Malformed(_))
    ));
    assert_eq!(brute_chess(&ragged), None);
    let board = Chessboard {
        n: 2,
        cells: vec![vec![Cell::White; 2]],
        weights: vec![vec![0; 2]; 2],
    };
    assert!(matches!(
        board.try_solve(),
        Err(duipai::problem::SolveError::Malformed(_))
    ));
    assert_eq!(brute_chessboard(&board), None);
}
