//! The models checked from outside: the DP against the independent brute force, the cases in
//! `cases/`, the parser's rejections, and the `solve` / `validate` commands end to end.

use duipai::problem::{Bounds, Cell, Chess, Chessboard, Instance, Move, Player, Problem};
use proptest::prelude::*;

fn chess_strategy(max_value: i64) -> impl Strategy<Value = Chess> {
    (1usize..=4, 1usize..=4)
        .prop_filter("at most 16 cells for the game tree", |(n, m)| n * m <= 16)
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
    (1usize..=4).prop_flat_map(move |n| {
        let cell = prop_oneof![Just(Cell::White), Just(Cell::Black), Just(Cell::Empty)];
        let weight = prop_oneof![4 => 0..=max_value, 1 => Just(0), 1 => Just(max_value)];
        (
            proptest::collection::vec(proptest::collection::vec(cell, n), n),
            proptest::collection::vec(proptest::collection::vec(weight, n), n),
            any::<bool>(),
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
                                _ if equal => max_value,
                                _ => w,
                            })
                            .collect()
                    })
                    .collect();
                Chessboard { n, cells, weights }
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn chess_dp_agrees_with_game_tree(c in chess_strategy(100_000)) {
        let instance = Instance::Chess(c);
        prop_assert_eq!(Some(instance.solve()), instance.brute_force());
    }

    #[test]
    fn chessboard_dp_agrees_with_piece_search(b in chessboard_strategy(1_000_000)) {
        let instance = Instance::Chessboard(b);
        prop_assert_eq!(Some(instance.solve()), instance.brute_force());
    }
}
