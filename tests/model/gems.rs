//! Gems (HDU 4778) beyond the conformance suite: the mask solver against the plain search on
//! thousands of random files, the parser's positioned rejections, a generated file followed
//! by hand through the ChaCha8 stream, golden hashes, the families' promises, and the
//! explanation.

use duipai::problem::gems::brute;
use duipai::problem::{
    GEMS, Gems, GemsProblem, GenParams, Instance, ParamValue, Problem, SizeRange, Spec,
};
use proptest::prelude::*;

fn parse(text: &str) -> Result<Box<dyn Instance>, String> {
    GEMS.parse(text.as_bytes(), &GEMS.default_bounds())
        .map_err(|e| e.to_string())
}

fn cases_of(instance: &dyn Instance) -> Vec<Gems> {
    instance.cases_of::<GemsProblem>().unwrap().to_vec()
}

/// Random cases small enough for the plain search: up to 8 bags.
fn gems_strategy() -> impl Strategy<Value = Gems> {
    (1usize..=4, 0usize..=8, 1usize..=5).prop_flat_map(|(g, b, s)| {
        let bag = proptest::collection::vec(1..=g, 1..=5);
        proptest::collection::vec(bag, b).prop_map(move |bags| Gems { g, s, bags })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// The mask DP (with its residue trick) and the plain search with explicit players and a
    /// melting cooker agree.
    #[test]
    fn the_mask_solver_agrees_with_the_plain_search(case in gems_strategy()) {
        prop_assert_eq!(case.try_solve().ok(), brute::gems(&case), "{:?}", case);
    }

    /// The optimal line replayed by the rules reaches the answer.
    #[test]
    fn the_line_of_pours_is_legal_and_reaches_the_answer(case in gems_strategy()) {
        let (answer, pours) = case.try_solve_line().unwrap();
        prop_assert_eq!(pours.len(), case.bags.len());
        let mut used = vec![false; case.bags.len()];
        let mut cooker = vec![0u32; case.g];
        let mut turn = duipai::problem::gems::Player::Alice;
        let mut difference = 0;
        for p in &pours {
            prop_assert_eq!(p.player, turn);
            prop_assert!(!used[p.bag - 1]);
            used[p.bag - 1] = true;
            let mut made = 0;
            for (c, n) in cooker.iter_mut().zip(case.counts(p.bag - 1)) {
                *c += n;
                made += *c / case.s as u32;
                *c %= case.s as u32;
            }
            prop_assert_eq!(made, p.stones);
            prop_assert_eq!(&cooker, &p.cooker);
            difference += if turn == duipai::problem::gems::Player::Alice { made as i32 } else { -(made as i32) };
            prop_assert_eq!(difference, p.difference);
            if made == 0 {
                turn = turn.other();
            }
        }
        prop_assert_eq!(difference, answer);
    }
}

#[test]
fn the_sample_and_its_line_of_play() {
    let instance = parse(duipai::problem::GEMS.sample().0).unwrap();
    assert_eq!(instance.solve(), ["3", "-3"]);
    let explanations = instance.try_explain().unwrap();
    let first = explanations[0].full();
    // Alice pours bag 1, Bob bag 2 (no stones), then Alice melts one stone with bag 4 and
    // pours again: bag 3 gives two more.
    assert!(
        first.contains("3. Alice bag  4: 1 stone, pours again; cooker [2 2 0]"),
        "{first}"
    );
    assert!(
        first.contains("4. Alice bag  3: 2 stones; cooker [0 0 0]"),
        "{first}"
    );
    assert!(
        first.contains("Alice 3, Bob 0, answer 3 - 0 = 3"),
        "{first}"
    );
    let second = explanations[1].full();
    assert!(second.contains("2. Bob   bag  2: 3 stones"), "{second}");
}

/// (input, line, column, message): each rejection exactly where and what.
const MALFORMED: &[(&str, usize, usize, &str)] = &[
    (
        "",
        1,
        1,
        "expected a case or the line \"0 0 0\" that ends the input, found end of input",
    ),
    (
        "3 1 2\n1 1\n",
        3,
        1,
        "expected a case or the line \"0 0 0\" that ends the input, found end of input",
    ),
    (
        "3 2 3\n2 2 3\n2 1 4\n0 0 0\n",
        3,
        5,
        "colour 4 is above G = 3",
    ),
    (
        "3 1 3\n2 1 0\n0 0 0\n",
        2,
        5,
        "expected a colour 1..=3, found \"0\" (out of range)",
    ),
    (
        "9 1 3\n1 1\n0 0 0\n",
        1,
        1,
        "expected G, an integer 1..=8 (the line 0 0 0 ends the input), found \"9\" (out of range)",
    ),
    (
        "0 1 3\n1 1\n0 0 0\n",
        1,
        1,
        "expected G, an integer 1..=8 (the line 0 0 0 ends the input), found \"0\" (out of \
         range)",
    ),
    (
        "2 22 3\n",
        1,
        3,
        "expected B, an integer 0..=21, found \"22\" (out of range)",
    ),
    (
        "2 1 0\n",
        1,
        5,
        "expected S, an integer 1..=19, found \"0\" (out of range)",
    ),
    (
        "2 1 20\n",
        1,
        5,
        "expected S, an integer 1..=19, found \"20\" (out of range)",
    ),
    (
        "2 1 3\n11 1 1 1 1 1 1 1 1 1 1 1\n0 0 0\n",
        2,
        1,
        "expected n, the gems in the bag, an integer 1..=10, found \"11\" (out of range)",
    ),
    (
        "2 1 3\n3 1 2\n0 0 0\n",
        2,
        6,
        "expected 1 more integer, found end of line",
    ),
    (
        "2 1 3\n1 1 2\n0 0 0\n",
        2,
        5,
        "expected end of line after 2 integers, found \"2\"",
    ),
    (
        "2 1 3\n1 1\n0 0 0\nextra\n",
        4,
        1,
        "expected end of input, found \"extra\"",
    ),
    (
        "2 1 3\n\n1 1\n0 0 0\n",
        2,
        1,
        "expected n, the gems in the bag, an integer 1..=10, found end of line",
    ),
];

#[test]
fn malformed_files_are_rejected_with_their_position() {
    for &(text, line, column, message) in MALFORMED {
        let got = parse(text).expect_err(text);
        assert_eq!(
            got,
            format!("line {line}, column {column}: {message}"),
            "{text:?}"
        );
    }
}

#[test]
fn more_than_twenty_cases_are_refused() {
    let mut text = "1 1 1\n1 1\n".repeat(20);
    text.push_str("0 0 0\n");
    assert_eq!(cases_of(parse(&text).unwrap().as_ref()).len(), 20);
    let mut text = "1 1 1\n1 1\n".repeat(21);
    text.push_str("0 0 0\n");
    assert_eq!(
        parse(&text).unwrap_err(),
        "line 41, column 1: expected the line \"0 0 0\" that ends the input: at most 20 cases \
         are allowed"
    );
}

#[test]
fn blank_lines_between_cases_and_after_the_end_are_accepted() {
    let text = "\n1 1 1\n1 1\n\n \n2 2 2\r\n1 1\n1 2\n\n0 0 0\n\n\t\n";
    let instance = parse(text).unwrap();
    assert_eq!(instance.solve(), ["1", "0"]);
    assert_eq!(
        instance.to_input(),
        "1 1 1\n1 1\n\n2 2 2\n1 1\n1 2\n\n0 0 0\n"
    );
}

fn gen_text(params: &GenParams, seed: u64) -> String {
    Spec::new(&GEMS, params).unwrap().generate(seed).to_input()
}

fn range(lo: usize, hi: usize) -> ParamValue {
    ParamValue::Range(SizeRange { lo, hi })
}

#[test]
fn a_small_file_follows_the_stream_by_hand() {
    // Seed 0's words (the all-zero-key ChaCha8 test vector) mod 3 are 0 1 1 1 1 0 2 2 0 2.
    // Words 0-4 fix the count, G, B, S and the first bag's size (single-value ranges still
    // draw); its colours are 1 + w5 % 3 = 1 and 1 + w6 % 3 = 3; w7 fixes the second bag's
    // size, whose colours are 1 + w8 % 3 = 1 and 1 + w9 % 3 = 3.
    let params = GenParams::default()
        .with_family("uniform")
        .with("cases", range(1, 1))
        .with("g", range(3, 3))
        .with("b", range(2, 2))
        .with("s", range(2, 2))
        .with("n", range(2, 2));
    let text = gen_text(&params, 0);
    assert_eq!(text, "3 2 2\n2 1 3\n2 1 3\n\n0 0 0\n");
    // By hand: Alice pours one {1, 3} bag (no stone), Bob the other and melts two stones.
    assert_eq!(parse(&text).unwrap().solve(), ["-2"]);
}

/// FNV-1a, 64-bit.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Whole generated files pinned by their hash: a change to the gems generator or format is
/// a deliberate, visible one.
#[test]
fn golden_hashes() {
    let golden: &[(&str, u64, u64)] = &[
        ("mixed", 0, 0x3b6db09f126f1b23),
        ("mixed", 1, 0x73b4abdbf59bad48),
        ("chains", 2, 0x801a907690b17c0e),
        ("one-colour", 3, 0x2717c322c4b4e784),
        ("small-s", 4, 0xf06b266873ece405),
        ("large-s", 5, 0xe82602733dc9cde8),
        ("empty-case", 6, 0xd002db3b37eb4990),
        ("most-gems", 7, 0x12afb5dfa77b9b6f),
        ("max-size", 8, 0x3da504fc949c4831),
    ];
    let mut wrong = Vec::new();
    for &(family, seed, want) in golden {
        let text = gen_text(&GenParams::default().with_family(family), seed);
        let got = fnv1a(text.as_bytes());
        if got != want {
            wrong.push(format!("(\"{family}\", {seed}, {got:#x}),"));
        }
    }
    assert!(wrong.is_empty(), "changed:\n{}", wrong.join("\n"));
}

fn generated(family: &str, seed: u64, extra: &[(&'static str, ParamValue)]) -> Vec<Gems> {
    let mut params = GenParams::default().with_family(family);
    for &(name, value) in extra {
        params.set(name, value);
    }
    cases_of(Spec::new(&GEMS, &params).unwrap().generate(seed).as_ref())
}

#[test]
fn families_keep_their_promises() {
    for seed in 0..200u64 {
        for case in generated("chains", seed, &[]) {
            assert_eq!(case.s, 1);
        }
        for case in generated("one-colour", seed, &[]) {
            assert!(case.bags.iter().all(|b| b.iter().all(|&c| c == b[0])));
        }
        for case in generated("small-s", seed, &[]) {
            assert!((2..=3).contains(&case.s) && case.g <= 3, "{case:?}");
        }
        for case in generated("large-s", seed, &[]) {
            assert!(case.s >= 14 && case.g <= 3, "{case:?}");
        }
        let file = generated("empty-case", seed, &[]);
        assert!(file.len() >= 2);
        let empty = file.iter().position(|c| c.bags.is_empty()).unwrap();
        assert!(empty + 1 < file.len(), "the empty case is not the last");
        for case in generated("most-gems", seed, &[]) {
            assert_eq!(
                (case.g, case.s, case.bags.len(), case.gem_count()),
                (1, 1, 21, 210)
            );
        }
    }
    // The largest answers overflow 8 bits: 210 stones, all Alice's.
    let most = generated("most-gems", 1, &[("cases", range(1, 1))]);
    assert_eq!(most[0].try_solve(), Ok(210));
    let file = generated("max-size", 3, &[("cases", range(20, 20))]);
    assert_eq!(file.len(), 20);
    assert!(
        file.iter()
            .all(|c| (c.g, c.bags.len(), c.gem_count()) == (8, 21, 210))
    );
}

#[test]
fn a_state_not_reset_between_cases_is_kept_by_minimization_as_two_cases() {
    // The candidates that drop a whole case come first, and dropping either of two cases is a
    // candidate of its own.
    let instance = parse("1 1 1\n1 1\n\n1 1 2\n1 1\n\n1 2 2\n1 1\n1 1\n\n0 0 0\n").unwrap();
    let first: Vec<String> = instance
        .shrink_pass(0)
        .collect()
        .iter()
        .chain(instance.shrink_pass(1).collect().iter())
        .map(|c| c.to_input())
        .collect();
    assert!(first.contains(&"1 1 1\n1 1\n\n1 2 2\n1 1\n1 1\n\n0 0 0\n".to_string()));
    assert!(first.iter().all(|c| c.ends_with("0 0 0\n")));
    let alone = instance.only_case(2);
    assert_eq!(alone.to_input(), "1 2 2\n1 1\n1 1\n\n0 0 0\n");
    assert_eq!(alone.origins(), [2]);
}
