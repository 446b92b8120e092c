//! The conformance suite: what every registered game must satisfy, checked for each entry
//! of `problem::ALL` with no per-game code. A new game gets all of it by registering.

use duipai::pack::parse_plan;
use duipai::pack::plan::builtin_name;
use duipai::problem::{
    self, GenParams, Instance, ParamKind, ParamValue, Problem, Registered, SizeRange, Spec,
};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

/// Small cases of every family of `game`, so that brute force can follow: every size
/// parameter at most `side`.
fn small_spec(game: &'static dyn Registered, family: &str, side: usize) -> Spec {
    let bounds = game.default_bounds();
    let mut params = GenParams::default().with_family(family);
    for p in game.params() {
        if let ParamKind::Range { min, bound, .. } = p.kind {
            let hi = (side as i64).max(min).min(bounds.get(bound));
            let range = SizeRange {
                lo: min as usize,
                hi: hi as usize,
            };
            params.set(p.name, ParamValue::Range(range));
        }
    }
    Spec::new(game, &params).unwrap_or_else(|e| panic!("{game} {family}: {e}"))
}

/// Every family of every game, and `mixed`, as (game, family name).
fn every_family() -> Vec<(&'static dyn Registered, &'static str)> {
    problem::ALL
        .iter()
        .flat_map(|&g| {
            g.families()
                .iter()
                .map(move |f| (g, f.name))
                .chain([(g, "mixed")])
        })
        .collect()
}

/// Runs `check` on cases of every game and family for many seeds (proptest picks them and
/// shrinks a failing seed).
fn for_generated_cases(
    side: usize,
    cases: u32,
    check: impl Fn(&'static dyn Registered, &dyn Instance) -> Result<(), TestCaseError>,
) {
    for (game, family) in every_family() {
        let spec = small_spec(game, family, side);
        let mut runner = TestRunner::new(Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        });
        runner
            .run(&any::<u64>(), |seed| {
                check(game, spec.generate(seed).as_ref())
            })
            .unwrap_or_else(|e| panic!("{game} --family {family}: {e}"));
    }
}

/// Every candidate the minimizer may try next: each pass's, then each value slot at 0 and
/// halved.
fn shrink_candidates(case: &dyn Instance) -> Vec<Box<dyn Instance>> {
    let mut out: Vec<Box<dyn Instance>> = (0..case.shrink_passes())
        .flat_map(|p| case.shrink_pass(p).collect())
        .collect();
    for slot in 0..case.value_slots() {
        let v = case.value(slot);
        for lower in [0, v / 2] {
            if lower < v {
                out.push(case.with_value(slot, lower));
            }
        }
    }
    out
}

/// `chess breaks rule 9 of CONTRIBUTING.md (...)`: which of the rules a new game must meet
/// it does not.
fn broken(game: impl std::fmt::Display, rule: u32, what: &str) -> String {
    format!("{game} breaks rule {rule} of CONTRIBUTING.md ({what})")
}

/// Rule 1.
#[test]
fn every_game_has_a_unique_name_and_is_found_by_it() {
    let names = problem::names();
    for &game in problem::ALL {
        let rule = broken(game, 1, "a name of its own, found by it, and a family");
        assert_eq!(
            problem::by_name(game.name()).map(|g| g.name()),
            Some(game.name()),
            "{rule}"
        );
        assert_eq!(
            names.iter().filter(|&&n| n == game.name()).count(),
            1,
            "{rule}"
        );
        assert!(!game.families().is_empty(), "{rule}");
    }
}

/// Rule 2.
#[test]
fn the_reference_solver_agrees_with_brute_force() {
    for_generated_cases(3, 60, |game, case| {
        let brute = game.brute_force(case);
        prop_assert!(
            brute.is_some(),
            "no brute force for a small case:\n{}",
            case.to_input()
        );
        prop_assert_eq!(case.try_solve().ok(), brute, "{}", case.to_input());
        Ok(())
    });
}

/// Rule 3.
#[test]
fn the_text_form_round_trips_and_every_family_is_valid() {
    for_generated_cases(12, 40, |_, case| {
        let game = case.problem();
        let text = case.to_input();
        let parsed = game
            .parse(text.as_bytes(), &game.default_bounds())
            .map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(parsed.to_input(), text.clone());
        prop_assert!(parsed.as_ref() == case);
        Ok(())
    });
}

/// Rule 4.
#[test]
fn the_explanation_reaches_the_answer() {
    for_generated_cases(4, 30, |_, case| {
        let explanations = case
            .try_explain()
            .map_err(|e| TestCaseError::fail(format!("rule 4 of CONTRIBUTING.md: {e}")))?;
        let answers = case.solve();
        prop_assert_eq!(explanations.len(), answers.len());
        for (explanation, line) in explanations.iter().zip(&answers) {
            prop_assert!(
                line.contains(&explanation.answer),
                "{} in {}",
                explanation.answer,
                line
            );
            let full = explanation.full();
            prop_assert!(full.contains(&explanation.answer), "{}", full);
            prop_assert!(explanation.compact(1).len() <= full.len());
        }
        Ok(())
    });
}

/// Rule 5.
#[test]
fn every_shrink_candidate_is_valid_smaller_and_new() {
    for_generated_cases(4, 25, |_, case| {
        let game = case.problem();
        let size = case.size();
        let text = case.to_input();
        for candidate in shrink_candidates(case) {
            let candidate_text = candidate.to_input();
            prop_assert!(
                candidate_text != text,
                "a candidate equal to its parent:\n{}",
                text
            );
            prop_assert!(
                candidate.size() < size,
                "not smaller: {:?} from {:?}\n{}",
                candidate.size(),
                size,
                candidate_text
            );
            prop_assert!(
                game.parse(candidate_text.as_bytes(), &game.default_bounds())
                    .is_ok(),
                "invalid candidate:\n{}",
                candidate_text
            );
        }
        // Every value slot can be set anywhere from 0 to its value and stays valid.
        for slot in 0..case.value_slots() {
            let v = case.value(slot);
            prop_assert!(v >= 0);
            let lowered = case.with_value(slot, v / 2);
            prop_assert_eq!(lowered.value(slot), v / 2);
            prop_assert!(
                game.parse(lowered.to_input().as_bytes(), &game.default_bounds())
                    .is_ok()
            );
        }
        Ok(())
    });
}

/// Rule 6.
#[test]
fn the_built_in_plan_parses_and_the_sample_solves_to_its_answer() {
    for &game in problem::ALL {
        let rule = broken(game, 6, "the plan parses, the sample solves to its answer");
        let plan = parse_plan(&builtin_name(game), game.builtin_plan(), game)
            .unwrap_or_else(|e| panic!("{rule}: {e}"));
        assert!(!plan.lines.is_empty(), "{rule}: the plan has no test");
        let (input, answer) = game.sample();
        let case = game
            .parse(input.as_bytes(), &game.default_bounds())
            .unwrap_or_else(|e| panic!("{rule}: the sample: {e}"));
        let lines: String = case.solve().iter().map(|l| format!("{l}\n")).collect();
        assert_eq!(lines, answer, "{rule}");
    }
}

/// Every built-in plan's tests reach both ends of every bound of the game (n and m at 1 and
/// at their largest, values at 0 and at the largest, files of one case and of the most), as
/// the parser reads them ([`problem::Coverage`]).
/// Rule 7.
#[test]
fn every_built_in_plan_reaches_both_ends_of_every_bound() {
    for &game in problem::ALL {
        let rule = broken(game, 7, "the plan reaches both ends of every bound");
        let plan = parse_plan(&builtin_name(game), game.builtin_plan(), game)
            .unwrap_or_else(|e| panic!("{}: {e}", broken(game, 6, "the plan parses")));
        let mut coverage = problem::Coverage::default();
        for line in &plan.lines {
            let input = Spec::new(game, &line.params)
                .unwrap_or_else(|e| panic!("{rule}: plan line {}: {e}", line.line))
                .generate(line.seed)
                .to_input();
            let reached = game
                .coverage(input.as_bytes(), &game.default_bounds())
                .unwrap_or_else(|e| panic!("{rule}: plan line {}: {e}", line.line));
            coverage.merge(&reached);
        }
        assert_eq!(
            coverage.missed(game.bounds()),
            Vec::<&str>::new(),
            "{rule}:\n{}",
            coverage.table(game.bounds()).join("\n")
        );
    }
}

/// The coverage of an input is what its parser read: a hand-made file per game.
#[test]
fn coverage_records_every_bounded_value() {
    let chess = problem::CHESS
        .coverage(
            b"2 3\n2 7 3\n9 1 2\n3 7 2\n2 3 1\n",
            &problem::CHESS.default_bounds(),
        )
        .unwrap();
    let n = chess.get("n").unwrap();
    assert_eq!((n.lo, n.hi, n.min, n.max, n.reads), (1, 10, 2, 2, 1));
    let value = chess.get("value").unwrap();
    assert_eq!(
        (value.lo, value.hi, value.min, value.max, value.reads),
        (0, 100_000, 1, 9, 12)
    );
    let shooting = problem::SHOOTING
        .coverage(
            b"2\n1 2\n3\n2 1 1\n0\n",
            &problem::SHOOTING.default_bounds(),
        )
        .unwrap();
    let cases = shooting.get("cases").unwrap();
    assert_eq!((cases.lo, cases.hi, cases.min, cases.max), (1, 25, 2, 2));
    let n = shooting.get("n").unwrap();
    assert_eq!((n.lo, n.min, n.max), (2, 2, 3));
    assert!(
        problem::CHESS
            .coverage(b"11 1\n", &problem::CHESS.default_bounds())
            .is_err()
    );
}

/// Every game's package: its invalid inputs are invalid, and its statement, validators and
/// reference solution are there.
/// Rule 9.
#[test]
fn every_package_invalid_input_is_rejected() {
    for &game in problem::ALL {
        let package = game.package();
        let count = package.invalid_inputs.len();
        assert!(
            count >= 5,
            "{}: it has {count}",
            broken(game, 9, "a package has at least five invalid inputs")
        );
        for (name, text) in package.invalid_inputs {
            assert!(
                game.parse(text.as_bytes(), &game.default_bounds()).is_err(),
                "{}: {name} is valid",
                broken(game, 9, "every invalid input is rejected")
            );
        }
        let rule = broken(game, 9, "a statement, an accepted.cpp");
        assert!(
            package.statement.contains("\\begin{Input}"),
            "{rule}: the statement has no Input section"
        );
        assert!(
            !package.statement.contains("\\problemname"),
            "{rule}: the statement names the problem itself"
        );
        assert!(
            package.accepted.contains("int main"),
            "{rule}: accepted.cpp has no main"
        );
    }
}
