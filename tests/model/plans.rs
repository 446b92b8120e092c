//! The built-in plans' whole content, with no pack written: every input of every plan line is
//! generated once, checked valid and canonical under the default bounds, replayed by the
//! `duipai gen` command the manifest writes for its line, and solved once, its answer one the
//! game reads back. The pack tests (tests/e2e/pack.rs) hold the writing of these inputs and
//! answers into files, on the plans' first lines.

use clap::Parser;
use duipai::app::args::{Cli, Command as Sub};
use duipai::pack::parse_plan;
use duipai::pack::plan::{builtin_name, effective_seed};
use duipai::problem::Spec;

/// The input `duipai gen …` prints, parsed as the binary parses it.
fn replay(command: &str) -> String {
    let words = shell_words::split(command).unwrap();
    let cli = Cli::try_parse_from(&words).unwrap_or_else(|e| panic!("{command}: {e}"));
    let Sub::Gen(g) = cli.command else {
        panic!("{command} is not a gen command")
    };
    Spec::new(
        duipai::problem::by_name(&g.problem).expect("a game"),
        &g.gen_args.to_params(),
    )
    .unwrap()
    .generate(g.seed)
    .to_input()
}

#[test]
fn every_input_of_every_built_in_plan_is_valid_canonical_replayed_and_solved() {
    for &problem in duipai::problem::ALL {
        let plan = parse_plan(&builtin_name(problem), problem.builtin_plan(), problem).unwrap();
        assert!(!plan.lines.is_empty(), "{problem}: an empty plan");
        for line in &plan.lines {
            let at = format!("{problem} plan line {}", line.line);
            let input = Spec::new(problem, &line.params)
                .unwrap()
                .generate(effective_seed(line.seed, 0))
                .to_input();
            let instance = problem
                .parse(input.as_bytes(), &problem.default_bounds())
                .unwrap_or_else(|e| panic!("{at}: {e}"));
            assert_eq!(instance.to_input(), input, "{at} is canonical");
            assert_eq!(
                replay(&line.command(0)),
                input,
                "{at}: its manifest command"
            );
            let answer = instance.answer_text();
            problem
                .read_answers(answer.as_bytes(), instance.as_ref())
                .unwrap_or_else(|e| panic!("{at}: its answer does not read back: {e}"));
        }
    }
}
