//! Flags and files checked before any work, bounded reads, answers that are not answers,
//! inputs of another problem, stale packs, manifests that work anywhere, JSON on errors, and
//! the program's stderr where a user needs it.

use std::path::Path;

use crate::util::{code, duipai_in, fixture, last_json, stderr, stdout};

fn cases_dir() -> &'static str {
    concat!(env!("CARGO_MANIFEST_DIR"), "/cases/chess")
}

#[test]
fn report_and_save_paths_are_checked_before_any_case_runs() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), "mine").unwrap();
    let fixture = fixture();
    let f = fixture.to_str().unwrap();
    let out = duipai_in(
        dir.path(),
        &[
            "test",
            "chess",
            cases_dir(),
            "--junit",
            "notes.txt",
            "--",
            f,
            "slow",
            "chess",
        ],
    );
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("--junit notes.txt"),
        "{}",
        stderr(&out)
    );
    // Refused before judging: no case line, and the slow program never ran to its limit.
    assert!(!stdout(&out).contains("TLE"), "{}", stdout(&out));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("notes.txt")).unwrap(),
        "mine"
    );
    let out = duipai_in(
        dir.path(),
        &[
            "stress",
            "chess",
            "--save",
            "notes.txt",
            "--",
            f,
            "wrong",
            "chess",
        ],
    );
    assert_eq!(code(&out), 2);
    let err = stderr(&out);
    assert!(err.contains("--save notes.txt"), "{err}");
    assert!(!stdout(&out).contains("FAILED"));
    // Said once.
    assert_eq!(err.matches("not a directory").count(), 1, "{err}");
}

#[test]
fn endless_and_huge_inputs_end_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let out = duipai_in(dir.path(), &["solve", "chess", "/dev/zero"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("larger than 16 MiB"),
        "{}",
        stderr(&out)
    );
}

fn copy_sample(dir: &Path) {
    std::fs::copy(format!("{}/01-sample.in", cases_dir()), dir.join("a.in")).unwrap();
}

#[test]
fn a_malformed_expected_answer_is_a_harness_error_naming_the_file() {
    let fixture = fixture();
    for answer in ["", "2 extra\n", "two\n"] {
        let dir = tempfile::tempdir().unwrap();
        copy_sample(dir.path());
        std::fs::write(dir.path().join("a.ans"), answer).unwrap();
        let out = duipai_in(
            dir.path(),
            &[
                "test",
                "chess",
                ".",
                "--",
                fixture.to_str().unwrap(),
                "correct",
                "chess",
            ],
        );
        assert_eq!(code(&out), 2, "{answer:?}: {}", stdout(&out));
        assert!(stderr(&out).contains("a.ans"), "{}", stderr(&out));
    }
}

#[test]
fn inputs_of_another_problem_are_refused_not_judged() {
    let dir = tempfile::tempdir().unwrap();
    copy_sample(dir.path());
    let fixture = fixture();
    let out = duipai_in(
        dir.path(),
        &[
            "test",
            "chessboard",
            ".",
            "--",
            fixture.to_str().unwrap(),
            "correct",
            "chessboard",
        ],
    );
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("a.in:"), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("not a valid chessboard input"),
        "{}",
        stderr(&out)
    );
    // Raised bounds admit what the defaults refuse.
    let big = "11 1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n0\n0\n0\n0\n0\n0\n0\n0\n0\n0\n0\n";
    std::fs::write(dir.path().join("a.in"), big).unwrap();
    let args = [
        "test",
        "chess",
        ".",
        "--",
        fixture.to_str().unwrap(),
        "correct",
        "chess",
    ];
    assert_eq!(code(&duipai_in(dir.path(), &args)), 2);
    let mut raised = args.to_vec();
    raised.insert(3, "--bound-n=11");
    // The fixture itself reads with the default bounds and gives up: a failure of the
    // program (exit 1), no longer a refusal of the input (exit 2).
    assert_eq!(code(&duipai_in(dir.path(), &raised)), 1);
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
        let out = duipai_in(dir.path(), &args);
        assert_eq!(code(&out), 2, "{args:?}");
        let json = last_json(&out);
        assert_eq!(json["status"], "error", "{args:?}");
        assert!(!json["message"].as_str().unwrap().is_empty());
    }
}

#[test]
fn force_replaces_the_previous_pack_and_leaves_other_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    assert_eq!(
        code(&duipai_in(
            d,
            &["pack", "chess", "--out", "p", "--layout", "noi"]
        )),
        0
    );
    std::fs::write(d.join("p/notes.txt"), "mine").unwrap();
    std::fs::write(
        d.join("three.plan"),
        "gen chess --n 2 --seed 1\ngen chess --n 3 --seed 2\ngen chess --n 4 --seed 3\n",
    )
    .unwrap();
    let out = duipai_in(
        d,
        &[
            "pack",
            "chess",
            "--out",
            "p",
            "--layout",
            "noi",
            "--plan",
            "three.plan",
            "--force",
        ],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(d.join("p/chess3.in").exists());
    assert!(!d.join("p/chess4.in").exists());
    assert_eq!(
        std::fs::read_to_string(d.join("p/notes.txt")).unwrap(),
        "mine"
    );
    let err = stderr(&out);
    assert!(
        err.contains("removed 54 files of the previous chess pack (noi layout)"),
        "{err}"
    );
    assert!(
        err.contains("left in place 1 file that no pack in manifest.txt lists: notes.txt"),
        "{err}"
    );
    // `test` now sees exactly the new pack.
    let fixture = fixture();
    let out = duipai_in(
        d,
        &[
            "test",
            "chess",
            "p",
            "--",
            fixture.to_str().unwrap(),
            "correct",
            "chess",
        ],
    );
    assert!(stdout(&out).contains("3 cases: 3 AC"), "{}", stdout(&out));
}

#[test]
fn manifest_commands_work_from_anywhere() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    assert_eq!(
        code(&duipai_in(
            d,
            &["pack", "chessboard", "--out", "p", "--layout", "icpc"]
        )),
        0
    );
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
    let fixture = fixture();
    let f = fixture.to_str().unwrap();
    // crash-max aborts with a message on stderr on the largest boards.
    assert_eq!(code(&duipai_in(d, &["pack", "chess", "--out", "p"])), 0);
    let out = duipai_in(
        d,
        &[
            "test",
            "chess",
            "p",
            "--junit",
            "r.xml",
            "--json",
            "--",
            f,
            "crash-max",
            "chess",
        ],
    );
    assert_eq!(code(&out), 1, "{}\n{}", stdout(&out), stderr(&out));
    assert!(
        stderr(&out).contains("stderr| duipai-fixture: crashing on a board of the maximum size")
    );
    let json = last_json(&out);
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
    assert!(xml.contains("<system-err>"), "{xml}");
    let out = duipai_in(
        d,
        &[
            "stress",
            "chess",
            "--no-shrink",
            "--",
            f,
            "crash-max",
            "chess",
        ],
    );
    assert_eq!(code(&out), 1);
    assert!(
        stdout(&out).contains("stderr| duipai-fixture: crashing"),
        "{}",
        stdout(&out)
    );
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

fn script(dir: &Path, name: &str, body: &str) {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn file_io_says_what_was_written_instead_of_the_output_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_sample(d);
    script(d, "upper.sh", "echo debug\necho 2 > CHESS.OUT");
    let out = duipai_in(
        d,
        &["test", "chess", "a.in", "--file-io", "--", "./upper.sh"],
    );
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(
        text.contains(
            "no output file chess.out; the program wrote 6 bytes to stdout (\"debug\\n\") and left CHESS.OUT"
        ),
        "{text}"
    );
}

#[test]
fn a_program_that_writes_the_output_file_is_told_about_file_io() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_sample(d);
    script(d, "tofile.sh", "cat > /dev/null\necho 2 > chess.out");
    let out = duipai_in(d, &["test", "chess", "a.in", "--", "./tofile.sh"]);
    assert_eq!(code(&out), 1);
    assert!(
        stdout(&out).contains("run it with --file-io"),
        "{}",
        stdout(&out)
    );
    // With the flag it is judged on the file.
    std::fs::remove_file(d.join("chess.out")).unwrap();
    script(d, "files.sh", "cp chess.in /dev/null\necho 2 > chess.out");
    let out = duipai_in(
        d,
        &["test", "chess", "a.in", "--file-io", "--", "./files.sh"],
    );
    assert_eq!(code(&out), 0, "{}", stdout(&out));
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
    let fixture = fixture();
    let f = fixture.to_str().unwrap();
    let out = duipai_in(
        dir.path(),
        &[
            "test", "chess", "tests", "--json", "--", f, "correct", "chess",
        ],
    );
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let report = last_json(&out);
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
    let out = duipai_in(
        dir.path(),
        &["test", "chess", "tests", "--", f, "correct", "chess"],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).contains("1 case: 1 AC"), "{}", stdout(&out));
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
    let adder = ["sh", "-c", "read a b; echo $((a + b))"];
    let mut args = vec!["test", "aplusb", ".", "--"];
    args.extend(adder);
    let out = duipai_in(d, &args);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    assert!(stdout(&out).contains("2 cases: 2 AC"), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("\"aplusb\" is not a problem duipai knows"),
        "{}",
        stderr(&out)
    );

    let mut args = vec!["test", "aplusb", ".", "--"];
    args.extend(["sh", "-c", "read a b; echo $((a - b))"]);
    let out = duipai_in(d, &args);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    assert!(
        stdout(&out).contains("expected 3, found -1"),
        "{}",
        stdout(&out)
    );

    std::fs::write(d.join("3.in"), "5 5\n").unwrap();
    let mut args = vec!["test", "aplusb", ".", "--"];
    args.extend(adder);
    let out = duipai_in(d, &args);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("3.in: no answer file beside it"),
        "{}",
        stderr(&out)
    );

    let out = duipai_in(
        d,
        &["test", "aplusb", "1.in", "--bound-n", "5", "--", "cat"],
    );
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("--bound-*"), "{}", stderr(&out));
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
    let fixture = fixture();
    let f = fixture.to_str().unwrap();
    let exts = |stem: &str| -> Vec<String> {
        ["ans", "err", "in", "out"]
            .iter()
            .map(|e| format!("{stem}.{e}"))
            .collect()
    };
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let stress = |extra: &[&str]| {
        let mut args = vec!["stress", "chess", "--json", "--no-replay"];
        args.extend(extra);
        args.extend(["--", f, "wrong", "chess"]);
        let out = duipai_in(d, &args);
        assert_eq!(code(&out), 1, "{}", stderr(&out));
        last_json(&out)
    };
    let report = stress(&[]);
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
    stress(&[]);
    assert_eq!(names_in(&saved), both);
    // Files of those names holding something else are kept, and the new ones get `-2`.
    for name in [format!("{stem}.out"), format!("{stem}.original.out")] {
        std::fs::write(saved.join(name), "mine").unwrap();
    }
    let report = stress(&[]);
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
    let mut args = vec!["stress", "chess", "--json", "--no-shrink", "--save", "s"];
    args.extend(["--", f, "wrong", "chess"]);
    let out = duipai_in(d, &args);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert_eq!(last_json(&out)["input"], format!("s/{stem}.in"));
    // The 10×8 board's whole line of play is saved beside it.
    let mut files = [
        exts(&stem),
        vec![format!("{stem}.explain.txt"), format!("{stem}.meta")],
    ]
    .concat();
    files.sort();
    assert_eq!(names_in(&d.join("s")), files);
}
