//! Flags and files checked before any work, bounded reads, answers that are not answers,
//! inputs of another problem, stale packs, manifests that work anywhere, JSON on errors, and
//! the program's stderr where a user needs it.

use std::path::Path;

use crate::util::{CHESS_CASES, Duipai, assert_contains, write_sh};

#[test]
fn report_and_save_paths_are_checked_before_any_case_runs() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), "mine").unwrap();
    let out = Duipai::in_dir(dir.path())
        .args(["test", "chess", CHESS_CASES, "--junit", "notes.txt"])
        .fixture(["slow", "chess"])
        .run()
        .code(2);
    assert_contains(&out.stderr(), "--junit notes.txt");
    // Refused before judging: no case line, and the slow program never ran to its limit.
    assert!(!out.stdout().contains("TLE"), "{}", out.stdout());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("notes.txt")).unwrap(),
        "mine"
    );
    let out = Duipai::in_dir(dir.path())
        .args(["stress", "chess", "--save", "notes.txt"])
        .fixture(["wrong", "chess"])
        .run()
        .code(2);
    let err = out.stderr();
    assert_contains(&err, "--save notes.txt");
    assert!(!out.stdout().contains("FAILED"));
    // Said once.
    assert_eq!(err.matches("not a directory").count(), 1, "{err}");
}

#[test]
fn endless_and_huge_inputs_end_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let out = Duipai::in_dir(dir.path())
        .args(["solve", "chess", "/dev/zero"])
        .run()
        .code(2);
    assert_contains(&out.stderr(), "larger than 16 MiB");
}

fn copy_sample(dir: &Path) {
    std::fs::copy(format!("{CHESS_CASES}/01-sample.in"), dir.join("a.in")).unwrap();
}

#[test]
fn a_malformed_expected_answer_is_a_harness_error_naming_the_file() {
    for answer in ["", "2 extra\n", "two\n"] {
        let dir = tempfile::tempdir().unwrap();
        copy_sample(dir.path());
        std::fs::write(dir.path().join("a.ans"), answer).unwrap();
        let out = Duipai::in_dir(dir.path())
            .args(["test", "chess", "."])
            .fixture(["correct", "chess"])
            .run();
        assert_eq!(out.exit_code(), 2, "{answer:?}: {}", out.stdout());
        assert_contains(&out.stderr(), "a.ans");
    }
}

#[test]
fn inputs_of_another_problem_are_refused_not_judged() {
    let dir = tempfile::tempdir().unwrap();
    copy_sample(dir.path());
    let out = Duipai::in_dir(dir.path())
        .args(["test", "chessboard", "."])
        .fixture(["correct", "chessboard"])
        .run()
        .code(2);
    assert_contains(&out.stderr(), "a.in:");
    assert_contains(&out.stderr(), "not a valid chessboard input");
    // Raised bounds admit what the defaults refuse.
    let big = "11 1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n0\n0\n0\n0\n0\n0\n0\n0\n0\n0\n0\n";
    std::fs::write(dir.path().join("a.in"), big).unwrap();
    let test = Duipai::in_dir(dir.path())
        .args(["test", "chess", "."])
        .fixture(["correct", "chess"]);
    test.run().code(2);
    // The fixture itself reads with the default bounds and gives up: a failure of the
    // program (exit 1), no longer a refusal of the input (exit 2).
    test.arg("--bound-n=11").run().code(1);
}

#[test]
fn json_ends_with_an_object_even_on_errors() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        vec!["test", "chess", "missing-dir", "--json", "--", "true"],
        vec!["stress", "chess", "--json", "-j", "0", "--", "true"],
        vec![
            "stress",
            "chess",
            "--json",
            "--iterations",
            "2",
            "--",
            "./no-such-program",
        ],
    ] {
        let json = Duipai::in_dir(dir.path()).args(&args).run().code(2).json();
        assert_eq!(json["status"], "error", "{args:?}");
        assert!(!json["message"].as_str().unwrap().is_empty());
    }
}

#[test]
fn force_replaces_the_previous_pack_and_leaves_other_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let pack = Duipai::in_dir(d).args(["pack", "chess", "--out", "p", "--layout", "noi"]);
    pack.run().success();
    std::fs::write(d.join("p/notes.txt"), "mine").unwrap();
    std::fs::write(
        d.join("three.plan"),
        "gen chess --n 2 --seed 1\ngen chess --n 3 --seed 2\ngen chess --n 4 --seed 3\n",
    )
    .unwrap();
    let out = pack
        .args(["--plan", "three.plan", "--force"])
        .run()
        .success();
    assert!(d.join("p/chess3.in").exists());
    assert!(!d.join("p/chess4.in").exists());
    assert_eq!(
        std::fs::read_to_string(d.join("p/notes.txt")).unwrap(),
        "mine"
    );
    let err = out.stderr();
    assert_contains(
        &err,
        "removed 54 files of the previous chess pack (noi layout)",
    );
    assert_contains(
        &err,
        "left in place 1 file that no pack in manifest.txt lists: notes.txt",
    );
    // `test` now sees exactly the new pack.
    let out = Duipai::in_dir(d)
        .args(["test", "chess", "p"])
        .fixture(["correct", "chess"])
        .run();
    assert_contains(&out.stdout(), "3 cases: 3 AC");
}

#[test]
fn manifest_commands_work_from_anywhere() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // The default plan's first lines (the sample and the invalid inputs come with every
    // plan): every file's command is written the same way whatever the plan, and that every
    // line of the whole plan replays is tests/model/plans.rs's.
    let plan = Path::new(env!("CARGO_MANIFEST_DIR")).join("generators/chessboard.plan");
    let first: String = std::fs::read_to_string(plan)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("gen "))
        .take(3)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(d.join("first.plan"), first).unwrap();
    Duipai::in_dir(d)
        .args(["pack", "chessboard", "--out", "p", "--layout", "icpc"])
        .args(["--plan", "first.plan"])
        .run()
        .success();
    let manifest = std::fs::read_to_string(d.join("p/manifest.txt")).unwrap();
    assert!(!manifest.contains("cases/"), "{manifest}");
    assert!(!manifest.contains("generators/"), "{manifest}");
    let bin_dir = crate::util::duipai().parent().unwrap().to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let elsewhere = tempfile::tempdir().unwrap();
    for row in manifest.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = row.split('\t').collect();
        let out = std::process::Command::new("sh")
            .args(["-c", fields[3]])
            .current_dir(elsewhere.path())
            .env("PATH", &path)
            .output()
            .unwrap();
        assert!(out.status.success(), "{row}");
        assert_eq!(
            out.stdout,
            std::fs::read(d.join("p").join(fields[0])).unwrap(),
            "{row}"
        );
    }
}

#[test]
fn stderr_is_shown_saved_and_reported() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // crash-max aborts with a message on stderr on the largest boards.
    Duipai::in_dir(d)
        .args(["pack", "chess", "--out", "p"])
        .run()
        .success();
    let out = Duipai::in_dir(d)
        .args(["test", "chess", "p", "--junit", "r.xml", "--json"])
        .fixture(["crash-max", "chess"])
        .run()
        .code(1);
    assert!(
        out.stderr()
            .contains("stderr| duipai-fixture: crashing on a board of the maximum size")
    );
    let json = out.json();
    let failing: Vec<&serde_json::Value> = json["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["verdict"] == "RE")
        .collect();
    assert!(!failing.is_empty());
    assert!(
        failing
            .iter()
            .all(|c| c["stderr"].as_str().unwrap().contains("crashing"))
    );
    let xml = std::fs::read_to_string(d.join("r.xml")).unwrap();
    assert_contains(&xml, "<system-err>");
    let out = Duipai::in_dir(d)
        .args(["stress", "chess", "--no-shrink"])
        .fixture(["crash-max", "chess"])
        .run()
        .code(1);
    assert_contains(&out.stdout(), "stderr| duipai-fixture: crashing");
    let saved: Vec<_> = std::fs::read_dir(d.join("duipai-failures"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "err"))
        .collect();
    assert_eq!(saved.len(), 1);
    assert!(
        std::fs::read_to_string(saved[0].path())
            .unwrap()
            .contains("crashing")
    );
}

#[test]
fn file_io_says_what_was_written_instead_of_the_output_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_sample(d);
    write_sh(d, "upper.sh", "echo debug\necho 2 > CHESS.OUT");
    let text = Duipai::in_dir(d)
        .args(["test", "chess", "a.in", "--file-io"])
        .program(["./upper.sh"])
        .run()
        .code(1)
        .stdout();
    assert_contains(
        &text,
        "no output file chess.out; the program wrote 6 bytes to stdout (\"debug\\n\") and left CHESS.OUT",
    );
}

#[test]
fn a_program_that_writes_the_output_file_is_told_about_file_io() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_sample(d);
    write_sh(d, "tofile.sh", "cat > /dev/null\necho 2 > chess.out");
    let test = Duipai::in_dir(d).args(["test", "chess", "a.in"]);
    let out = test.clone().program(["./tofile.sh"]).run().code(1);
    assert_contains(&out.stdout(), "run it with --file-io");
    // It wrote the file in its scratch folder, not in the test's.
    assert!(!d.join("chess.out").exists());
    // With the flag it is judged on the file.
    write_sh(d, "files.sh", "cp chess.in /dev/null\necho 2 > chess.out");
    test.arg("--file-io")
        .program(["./files.sh"])
        .run()
        .success();
}

/// A program that exits normally having printed nothing, the mark of one reading its input
/// from a file (`input.txt` unless ONLINE_JUDGE is defined): a presentation error in every
/// game, whatever its answers' form (fishhead's are words), and a hint naming both ways out,
/// in `test` and in `stress`.
#[test]
fn a_program_that_prints_nothing_is_a_presentation_error_with_a_hint() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // It reads no input: it would read a file.
    write_sh(d, "silent.sh", "exit 0");
    for &game in duipai::problem::ALL {
        let (input, answer) = game.sample();
        let cases = d.join(game.name());
        std::fs::create_dir(&cases).unwrap();
        std::fs::write(cases.join("01.in"), input).unwrap();
        std::fs::write(cases.join("01.ans"), answer).unwrap();
        let out = Duipai::in_dir(d)
            .args(["test", game.name(), game.name(), "--json"])
            .program(["./silent.sh"])
            .run()
            .code(1);
        let summary = out.json();
        assert_eq!(summary["cases"][0]["verdict"], "PE", "{game}: {summary}");
        let human = out.stderr();
        for says in [
            "hint: the program exited normally, printed nothing and left its input unread",
            "--file-io",
            "-DONLINE_JUDGE",
        ] {
            assert_contains(&human, says);
        }
    }
    let out = Duipai::in_dir(d)
        .args(["stress", "fishhead", "--iterations", "1", "--no-shrink"])
        .program(["./silent.sh"])
        .run()
        .code(1);
    assert_contains(&out.stdout(), "PE");
    assert_contains(
        &out.stdout(),
        "hint: the program exited normally, printed nothing and left its input unread: it may \
         read its input from a file. Run it with --file-io if it reads fishhead.in and writes \
         fishhead.out",
    );
    // A program that read its input to the end and printed nothing read no file: no hint.
    write_sh(d, "reader.sh", "cat > /dev/null");
    let out = Duipai::in_dir(d)
        .args(["test", "gems", "gems"])
        .program(["./reader.sh"])
        .run()
        .code(1);
    assert_contains(&out.stdout(), "PE");
    assert!(!out.stdout().contains("hint:"), "{}", out.stdout());
    // A program that fails says why on its own: no hint.
    write_sh(d, "crash.sh", "cat > /dev/null\nexit 3");
    let out = Duipai::in_dir(d)
        .args(["test", "gems", "gems"])
        .program(["./crash.sh"])
        .run()
        .code(1);
    assert!(!out.stdout().contains("hint:"), "{}", out.stdout());
}

/// A Polygon `tests/` directory: inputs named by their number, answers as `NN.a`; an input
/// without an answer is judged against the reference solver.
#[test]
fn polygon_tests_directories_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let tests = dir.path().join("tests");
    std::fs::create_dir(&tests).unwrap();
    std::fs::write(tests.join("01"), "2 3\n2 7 3\n9 1 2\n3 7 2\n2 3 1\n").unwrap();
    std::fs::write(tests.join("02"), "1 1\n3\n0\n").unwrap();
    // A deliberately different answer: the verdict shows it was read.
    std::fs::write(tests.join("01.a"), "5\n").unwrap();
    let test = Duipai::in_dir(dir.path())
        .args(["test", "chess", "tests"])
        .fixture(["correct", "chess"]);
    let report = test.clone().arg("--json").run().code(1).json();
    let cases = report["cases"].as_array().expect("cases");
    let seen: Vec<(&str, &str)> = cases
        .iter()
        .map(|c| (c["name"].as_str().unwrap(), c["verdict"].as_str().unwrap()))
        .collect();
    assert_eq!(seen, [("01", "WA"), ("02", "AC")], "{report}");
    assert!(
        cases[0]["detail"]
            .as_str()
            .unwrap()
            .contains("expected 5, found 2"),
        "{report}"
    );

    // `*.in` files win when both are there.
    std::fs::write(tests.join("x.in"), "1 1\n3\n0\n").unwrap();
    let out = test.run().success();
    assert_contains(&out.stdout(), "1 case: 1 AC");
}

/// `test` on a problem duipai does not know: answers from the files, compared token by token;
/// an input without one is a harness error, and a note says the inputs are not checked.
#[test]
fn test_judges_problems_it_does_not_know_by_their_answer_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("1.in"), "1 2\n").unwrap();
    std::fs::write(d.join("1.ans"), "3\n").unwrap();
    std::fs::write(d.join("2.in"), "20 22\n").unwrap();
    std::fs::write(d.join("2.ans"), "42 \n").unwrap();
    let test = |script: &str| {
        Duipai::in_dir(d)
            .args(["test", "aplusb", "."])
            .program(["sh", "-c", script])
            .run()
    };
    let adder = "read a b; echo $((a + b))";
    let out = test(adder).success();
    assert_contains(&out.stdout(), "2 cases: 2 AC");
    assert_contains(&out.stderr(), "\"aplusb\" is not a problem duipai knows");

    let out = test("read a b; echo $((a - b))").code(1);
    assert_contains(&out.stdout(), "expected 3, found -1");

    std::fs::write(d.join("3.in"), "5 5\n").unwrap();
    let out = test(adder).code(2);
    assert_contains(&out.stderr(), "3.in: no answer file beside it");

    let out = Duipai::in_dir(d)
        .args(["test", "aplusb", "1.in", "--bound-n", "5"])
        .program(["cat"])
        .run()
        .code(2);
    assert_contains(&out.stderr(), "--bound-*");
}

/// The names of the files in `dir`, sorted.
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// `NAME-SEED.original.*` as found and `NAME-SEED.*` minimized; `NAME-SEED.*` alone when not
/// minimized; `-2` added to a name whose files hold something else, which stays as it was.
#[test]
fn saved_cases_are_named_as_the_readme_says() {
    let exts = |stem: &str| -> Vec<String> {
        ["ans", "err", "in", "out"]
            .iter()
            .map(|e| format!("{stem}.{e}"))
            .collect()
    };
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let stress = || {
        Duipai::in_dir(d)
            .args(["stress", "chess", "--json", "--no-replay"])
            .fixture(["wrong", "chess"])
            .run()
            .code(1)
            .json()
    };
    let report = stress();
    let seed = report["seed"].as_u64().unwrap();
    let stem = format!("chess-{seed}");
    let saved = d.join("duipai-failures");
    // The case as minimized and as found, and one sidecar naming the program that failed.
    let mut both = [exts(&stem), exts(&format!("{stem}.original"))].concat();
    both.push(format!("{stem}.meta"));
    both.sort();
    assert_eq!(names_in(&saved), both);
    assert_eq!(report["input"], format!("duipai-failures/{stem}.in"));
    assert_eq!(
        report["original_input"],
        format!("duipai-failures/{stem}.original.in")
    );

    // Found again: the same contents, the same files.
    stress();
    assert_eq!(names_in(&saved), both);
    // Files of those names holding something else are kept, and the new ones get `-2`.
    for name in [format!("{stem}.out"), format!("{stem}.original.out")] {
        std::fs::write(saved.join(name), "mine").unwrap();
    }
    let report = stress();
    assert_eq!(report["input"], format!("duipai-failures/{stem}-2.in"));
    assert_eq!(
        report["original_input"],
        format!("duipai-failures/{stem}.original-2.in")
    );
    assert_eq!(
        std::fs::read_to_string(saved.join(format!("{stem}.out"))).unwrap(),
        "mine"
    );
    assert_eq!(names_in(&saved).len(), 2 * both.len());
    assert!(saved.join(format!("{stem}-2.meta")).is_file());

    // Not minimized: the case as found is NAME-SEED.in, with no `.original`.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let report = Duipai::in_dir(d)
        .args(["stress", "chess", "--json", "--no-shrink", "--save", "s"])
        .fixture(["wrong", "chess"])
        .run()
        .code(1)
        .json();
    assert_eq!(report["input"], format!("s/{stem}.in"));
    // The 10×8 board's whole line of play is saved beside it.
    let mut files = [
        exts(&stem),
        vec![format!("{stem}.explain.txt"), format!("{stem}.meta")],
    ]
    .concat();
    files.sort();
    assert_eq!(names_in(&d.join("s")), files);
}
