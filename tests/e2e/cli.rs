//! The command line end to end: solve, validate and gen through the real binary.

use crate::util::{Duipai, assert_contains};

fn case(problem: &str, name: &str) -> String {
    format!("{}/cases/{problem}/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn solve_prints_the_answer_from_a_file_or_stdin() {
    let out = Duipai::new()
        .args(["solve", "chess", &case("chess", "01-sample.in")])
        .run();
    assert_eq!((out.exit_code(), out.stdout()), (0, "2\n".into()));
    let sample = std::fs::read(case("chessboard", "01-sample.in")).unwrap();
    for args in [&["solve", "chessboard"][..], &["solve", "chessboard", "-"]] {
        let out = Duipai::new().args(args).stdin(&sample).run();
        assert_eq!((out.exit_code(), out.stdout()), (0, "3\n".into()));
    }
}

#[test]
fn solve_explain_adds_the_line_of_play() {
    let out = Duipai::new()
        .args(["solve", "chess"])
        .args(["--explain", &case("chess", "01-sample.in")])
        .run()
        .success();
    let stdout = out.stdout();
    assert!(stdout.starts_with("2\n"), "{stdout}");
    assert_contains(&stdout, "F(1,1) N(1,2) F(2,1) N(1,3) F(2,2) N(2,3)");
}

#[test]
fn solve_rejects_invalid_input_with_status_1() {
    let out = Duipai::new()
        .args(["solve", "chess"])
        .stdin("2 3\n2 7 3\n9 1 2\n3 7 -4\n")
        .run()
        .code(1);
    assert_eq!(
        out.stderr(),
        "<stdin>:4:5: expected an integer 0..=100000, found \"-4\"\n"
    );
    assert!(out.output.stdout.is_empty());
}

#[test]
fn solve_missing_file_is_status_2() {
    let out = Duipai::new()
        .args(["solve", "chess", "/nonexistent/duipai-case.in"])
        .run()
        .code(2);
    assert!(out.stderr().contains("/nonexistent/duipai-case.in"));
}

#[test]
fn solve_honours_raised_bounds() {
    let row = ["1"; 12].join(" ");
    let input = format!("12 12\n{}", format!("{row}\n").repeat(24));
    let solve = Duipai::new().args(["solve", "chess"]).stdin(&input);
    let out = solve.run().code(1);
    assert!(
        out.stderr()
            .starts_with("<stdin>:1:1: expected n, an integer 1..=10")
    );
    let out = solve.args(["--bound-n", "12", "--bound-m", "12"]).run();
    // All ones: each player's turns score 1 each, 72 apiece.
    assert_eq!((out.exit_code(), out.stdout()), (0, "0\n".into()));
}

/// A valid board past the reference solver's 2^26 staircase states is the harness's limit,
/// not an invalid input: exit 2, with and without `--explain`, for both problems.
#[test]
fn solve_of_a_board_too_big_for_the_solver_is_status_2() {
    let row = ["1"; 15].join(" ");
    let chess = format!("15 15\n{}", format!("{row}\n").repeat(30));
    let chessboard = format!(
        "15\n{}{}",
        format!("{}\n", "W".repeat(15)).repeat(15),
        format!("{row}\n").repeat(15)
    );
    for (problem, input, bounds) in [
        ("chess", &chess, &["--bound-n", "15", "--bound-m", "15"][..]),
        ("chessboard", &chessboard, &["--bound-n", "15"][..]),
    ] {
        for explain in [false, true] {
            let mut solve = Duipai::new().args(["solve", problem]).args(bounds);
            if explain {
                solve = solve.arg("--explain");
            }
            let out = solve.stdin(input).run().code(2);
            assert_contains(
                &out.stderr(),
                "cannot solve <stdin>: a 15×15 board has more than 67108864 staircase \
                 states (C(30, 15))",
            );
            assert!(out.output.stdout.is_empty());
        }
    }
}

#[test]
fn validate_reports_every_file_and_the_worst_status() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.in");
    let bad = dir.path().join("bad.in");
    std::fs::write(&good, "1\nW\n7\n").unwrap();
    std::fs::write(&bad, "1\nW\n-7\n").unwrap();
    let (good, bad) = (good.to_str().unwrap(), bad.to_str().unwrap());

    let validate = |files: &[&str]| {
        Duipai::new()
            .args(["validate", "chessboard"])
            .args(files)
            .run()
    };
    let out = validate(&[good]);
    assert_eq!(
        (out.exit_code(), out.stdout()),
        (0, format!("{good}: ok\n"))
    );

    let out = validate(&[good, bad]).code(1);
    assert_eq!(
        out.stdout(),
        format!("{good}: ok\n{bad}:3:1: expected an integer 0..=1000000, found \"-7\"\n")
    );

    let missing = dir.path().join("missing.in");
    let missing = missing.to_str().unwrap();
    let out = validate(&[bad, missing, good]).code(2);
    assert!(out.stdout().ends_with(&format!("{good}: ok\n")));
    let stderr = out.stderr();
    assert!(
        stderr.contains(missing) && stderr.contains("No such file"),
        "{stderr}"
    );
}

#[test]
fn validate_accepts_every_stored_case() {
    for problem in ["chess", "chessboard"] {
        let dir = format!("{}/cases/{problem}", env!("CARGO_MANIFEST_DIR"));
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "in"))
            .map(|p| p.to_str().unwrap().to_string())
            .collect();
        files.sort();
        Duipai::new()
            .args(["validate", problem])
            .args(&files)
            .run()
            .success();
    }
}

/// What the library generates for these `gen` arguments.
fn gen_text(args: &[&str]) -> String {
    use clap::Parser;
    use duipai::app::args::{Cli, Command};
    let mut words = vec!["duipai", "gen"];
    words.extend_from_slice(args);
    let Command::Gen(g) = Cli::try_parse_from(&words).unwrap().command else {
        panic!("not gen")
    };
    duipai::problem::Spec::new(
        duipai::problem::by_name(&g.problem).expect("a game"),
        &g.gen_args.to_params(),
    )
    .unwrap()
    .generate(g.seed)
    .to_input()
}

#[test]
fn binary_prints_the_library_output() {
    let words = ["chess", "--seed", "42", "--n", "3..5", "--m", "2"];
    let gen_chess = Duipai::new().arg("gen").args(words);
    let out = gen_chess.run();
    assert!(out.output.status.success());
    assert_eq!(
        String::from_utf8(out.output.stdout).unwrap(),
        gen_text(&words)
    );
    let again = gen_chess.run();
    assert_eq!(gen_text(&words).into_bytes(), again.output.stdout);
}

#[test]
fn usage_errors_exit_2_with_a_message() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["gen", "chessboard", "--seed", "1", "--m", "3"],
            "--m does not apply to chessboard",
        ),
        (
            &["gen", "chessboard", "--seed", "1", "--b-zero"],
            "--b-zero does not apply to chessboard",
        ),
        (
            &["gen", "chess", "--seed", "1", "--n", "11"],
            "--n 11: chess allows 1 <= n <= 10",
        ),
        (
            &["gen", "chess", "--seed", "1", "--m", "5..11"],
            "--m 5..11: chess allows 1 <= m <= 10",
        ),
        (
            &["gen", "chessboard", "--seed", "1", "--n", "13"],
            "--n 13: chessboard allows 1 <= n <= 12",
        ),
        (
            &["gen", "chess", "--seed", "1", "--max-value", "100001"],
            "--max-value 100001",
        ),
        (
            &["gen", "chessboard", "--seed", "1", "--max-value=-1"],
            "--max-value -1",
        ),
        (
            &["gen", "chess", "--seed", "1", "--family", "sparse"],
            "--family sparse does not apply to chess",
        ),
        (
            &["gen", "chessboard", "--seed", "1", "--family", "thin"],
            "--family thin does not apply to chessboard",
        ),
        (
            &["gen", "chess", "--seed", "1", "--n", "0"],
            "--n 0: chess allows 1 <= n <= 10",
        ),
        (&["gen", "chess", "--seed", "x"], "--seed"),
        (&["gen", "chess", "--seed", "1", "--family", "nope"], "nope"),
    ];
    for (args, needle) in cases {
        let out = Duipai::new().args(*args).run().code(2);
        let stderr = out.stderr();
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
        assert!(out.output.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn help_lists_every_family() {
    let out = Duipai::new().args(["gen", "--help"]).run();
    let help = String::from_utf8(out.output.stdout).unwrap();
    for &p in duipai::problem::ALL {
        for f in p.families() {
            assert!(help.contains(f.name), "{f} missing from --help");
        }
    }
    assert!(help.contains("mixed"));
}

/// The PROBLEM argument of the commands that also take a problem duipai does not know names
/// every registered game, in the registry's order: the help is built from `problem::ALL`, so
/// a new game cannot be left out of it.
#[test]
fn problem_help_names_every_registered_game() {
    use clap::CommandFactory;
    let cli = duipai::app::args::Cli::command();
    let names = duipai::problem::names();
    for command in ["stress", "test", "answers"] {
        let sub = duipai::app::args::subcommand(&cli, command).unwrap();
        let problem = sub
            .get_arguments()
            .find(|a| a.get_id() == "problem")
            .unwrap();
        let help = problem.get_help().unwrap().to_string();
        // The names as whole words, in order ("chess" is not found inside "chessboard").
        let mut words = help.split(|c: char| !c.is_ascii_alphanumeric());
        for name in &names {
            assert!(
                words.any(|w| w == *name),
                "{command}: {name} missing, or out of order, in {help:?}"
            );
        }
        // As printed: every game on the usage screen.
        let printed = Duipai::new()
            .args([command, "--help"])
            .run()
            .success()
            .stdout();
        for name in &names {
            assert_contains(&printed, name);
        }
    }
}
