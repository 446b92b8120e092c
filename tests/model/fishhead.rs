//! Fishhead beyond the conformance suite: the table solver against the plain game tree on
//! thousands of random positions, its line of play replayed by the rules, the rules' corner
//! cases by hand (strict alternation, squares of the given edges, two squares at once), and
//! the positions below the judge's smallest n.

use duipai::problem::fishhead::brute::fishhead as brute_fishhead;
use duipai::problem::fishhead::lattice::{self, EDGES};
use duipai::problem::fishhead::{Outcome, Player};
use duipai::problem::{Cases, FISHHEAD, Fishhead, FishheadProblem, Instance, Problem, Verify};
use proptest::prelude::*;

/// A position: `n` distinct edges in a random order, each written either way round.
fn position(min_n: usize) -> impl Strategy<Value = Fishhead> {
    (
        Just((0..EDGES).collect::<Vec<usize>>()).prop_shuffle(),
        min_n..=EDGES,
        proptest::collection::vec(any::<bool>(), EDGES),
    )
        .prop_map(|(order, n, flips)| Fishhead {
            edges: order[..n]
                .iter()
                .zip(flips)
                .map(|(&e, flip)| {
                    let (a, b) = lattice::endpoints(e);
                    if flip { (b, a) } else { (a, b) }
                })
                .collect(),
        })
}

/// `c` with one more edge given.
fn with_edge(c: &Fishhead, e: usize) -> Fishhead {
    let mut next = c.clone();
    next.edges.push(lattice::endpoints(e));
    next
}

/// The squares the player to move ends with, by the solver.
fn movers_squares(c: &Fishhead) -> u8 {
    let o = c.try_solve().unwrap();
    match Player::drawing(c.n() + 1) {
        Player::Tom => o.tom,
        Player::Jerry => o.jerry,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn the_table_agrees_with_the_game_tree(c in position(EDGES - 7)) {
        prop_assert_eq!(c.try_solve().ok(), brute_fishhead(&c), "{:?}", c);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The line of play is legal, scores what the rules say, and reaches the outcome; and the
    /// outcome is the best the mover can get over every next edge (one step of the recursion,
    /// checked with the solver on the positions one edge further).
    #[test]
    fn the_line_of_play_follows_the_rules(c in position(EDGES - 12)) {
        let (outcome, line) = c.try_solve_line().unwrap();
        let (mut drawn, given) = c.replay().unwrap();
        let (mut tom, mut jerry) = given.last().map_or((0, 0), |s| (s.tom, s.jerry));
        prop_assert_eq!(line.len(), c.remaining());
        for (k, s) in line.iter().enumerate() {
            prop_assert_eq!(s.number, c.n() + k + 1);
            prop_assert_eq!(s.player, Player::drawing(s.number));
            prop_assert!(drawn & (1 << s.edge) == 0);
            let closed: Vec<usize> = lattice::completed_by(drawn, s.edge).collect();
            prop_assert_eq!(&closed, &s.closed);
            match s.player {
                Player::Tom => tom += closed.len() as u8,
                Player::Jerry => jerry += closed.len() as u8,
            }
            prop_assert_eq!((tom, jerry), (s.tom, s.jerry));
            drawn |= 1 << s.edge;
        }
        prop_assert_eq!(Outcome { tom, jerry }, outcome);
        prop_assert_eq!(tom + jerry, 9);
        if c.remaining() > 0 {
            let best = (0..EDGES)
                .filter(|&e| c.replay().unwrap().0 & (1 << e) == 0)
                .map(|e| {
                    // After the move the other player moves: the mover gets 9 minus theirs.
                    9 - movers_squares(&with_edge(&c, e))
                })
                .max()
                .unwrap();
            prop_assert_eq!(best, movers_squares(&c));
        }
    }
}

fn case(edges: &[(u8, u8)]) -> Fishhead {
    Fishhead {
        edges: edges.to_vec(),
    }
}

/// Every edge in lattice order (the 12 horizontal ones row by row, then the vertical ones)
/// but those in `open`.
fn lattice_order_but(open: &[(u8, u8)]) -> Vec<(u8, u8)> {
    (0..EDGES)
        .map(lattice::endpoints)
        .filter(|e| !open.contains(e))
        .collect()
}

#[test]
fn moves_alternate_strictly_even_after_a_square() {
    // All but 2-3 and 15-16, the last edges each completing one square: Tom draws one (#23,
    // +1), then Jerry the other (#24, +1). Under the dots-and-boxes rule Tom would draw both.
    let given = lattice_order_but(&[(2, 3), (15, 16)]);
    let c = case(&given);
    let (_, line) = c.try_solve_line().unwrap();
    assert_eq!(line.len(), 2);
    assert_eq!(line[0].player, Player::Tom);
    assert_eq!(line[0].closed.len(), 1);
    assert_eq!(line[1].player, Player::Jerry);
    assert_eq!(line[1].closed.len(), 1);
}

#[test]
fn the_given_edges_score_for_whoever_drew_them() {
    // Lattice order: every square is completed by its right side, the vertical edges numbered
    // 14, 15, 16, 18, 19, 20, 22, 23, 24: Jerry 6, Tom 3.
    let c = case(&lattice_order_but(&[]));
    assert_eq!(c.try_solve().unwrap(), Outcome { tom: 3, jerry: 6 });
    // The same edges, the vertical ones first: bottoms complete the squares, numbered 16 to
    // 24 in order: Jerry takes 16, 18, 20, 22, 24.
    let mut v_first: Vec<(u8, u8)> = (12..EDGES).map(lattice::endpoints).collect();
    v_first.extend((0..12).map(lattice::endpoints));
    assert_eq!(
        case(&v_first).try_solve().unwrap(),
        Outcome { tom: 4, jerry: 5 }
    );
}

#[test]
fn an_inner_edge_can_complete_two_squares_at_once() {
    // The vertical edges first, then the horizontal ones but 10-11, which stays open: the
    // squares above and below it wait for it, and Jerry's forced 24th edge takes both.
    let mut order: Vec<(u8, u8)> = (12..EDGES).map(lattice::endpoints).collect();
    order.extend((0..12).map(lattice::endpoints).filter(|&e| e != (10, 11)));
    let c = case(&order);
    let (outcome, line) = c.try_solve_line().unwrap();
    assert_eq!(line[0].closed.len(), 2);
    assert_eq!(outcome, Outcome { tom: 4, jerry: 5 });
    assert_eq!(brute_fishhead(&c), Some(outcome));
}

#[test]
fn the_sample_is_right_by_the_rules() {
    let (input, answer) = FISHHEAD.sample();
    let file = FISHHEAD
        .parse(input.as_bytes(), &FISHHEAD.default_bounds())
        .unwrap();
    let cases = file.cases_of::<FishheadProblem>().unwrap();
    // Case 1: Tom leads 4-3 and takes 6-7 (one square), leaving Jerry one; 2-3 first would
    // hand Jerry both squares of 6-7.
    assert_eq!(cases[0].try_solve().unwrap(), Outcome { tom: 5, jerry: 4 });
    // Case 2: Jerry leads 4-3; one square each follows.
    assert_eq!(cases[1].try_solve().unwrap(), Outcome { tom: 4, jerry: 5 });
    assert_eq!(file.answer_text(), answer);
    let brute: Vec<String> = FISHHEAD.brute_force(file.as_ref()).unwrap();
    assert_eq!(brute, file.solve());
}

#[test]
fn answers_are_words_compared_exactly() {
    let (input, _) = FISHHEAD.sample();
    let file = FISHHEAD
        .parse(input.as_bytes(), &FISHHEAD.default_bounds())
        .unwrap();
    let expected = file.expected().unwrap();
    assert_eq!(expected.case_count(), 2);
    assert_eq!(expected.case_text(0), "Case #1: Tom200");
    let read = FISHHEAD
        .read_answers(b"Case #1: Tom200\nCase #2: Jerry404\n", file.as_ref())
        .unwrap();
    assert_eq!(read.case_text(1), "Case #2: Jerry404");
}

/// Below the judge's smallest n: positions with up to 24 edges left, solved by tables of their
/// own and by the table shared over all drawn sets (built once here: slow in a debug build).
#[test]
fn the_lowered_bound_is_solved_exactly() {
    let mut bounds = FISHHEAD.default_bounds();
    bounds.set("min-n", 0);
    let text = "3\n0\n1\n1 2\n11\n1 2\n2 3\n3 4\n5 6\n6 7\n7 8\n1 5\n2 6\n3 7\n4 8\n9 10\n";
    let file = FISHHEAD.parse(text.as_bytes(), &bounds).unwrap();
    assert!(
        FISHHEAD
            .parse(text.as_bytes(), &FISHHEAD.default_bounds())
            .unwrap_err()
            .to_string()
            .contains("--bound-min-n 0 allows it")
    );
    let cases = file.cases_of::<FishheadProblem>().unwrap().to_vec();
    for c in &cases {
        let best = (0..EDGES)
            .filter(|&e| c.replay().unwrap().0 & (1 << e) == 0)
            .map(|e| 9 - movers_squares(&with_edge(c, e)))
            .max()
            .unwrap();
        assert_eq!(best, movers_squares(c), "{c:?}");
        let explanation = Cases::<FishheadProblem>::single(c.clone())
            .try_explain()
            .unwrap();
        assert_eq!(explanation[0].moves.len(), c.remaining());
    }
    assert_eq!(file.solve().len(), 3);
}
