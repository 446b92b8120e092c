//! `duipai test` and `duipai stress` end to end, on the fixture programs: verdicts, reports,
//! exit statuses, saved and minimized counterexamples, determinism, sharding and external
//! generators and references.

use std::fs;
use std::path::Path;

use crate::util::{Duipai, assert_contains, fixture, parse_file, write_sh};
use duipai::problem::{CHESS, CHESSBOARD, ChessProblem, ChessboardProblem, Instance, Problem};

/// `duipai ARGS -- duipai-fixture BEHAVIOUR PROBLEM` in `dir`.
fn on_fixture(dir: &Path, args: &[&str], behaviour: &str, problem: &str) -> Duipai {
    Duipai::in_dir(dir).args(args).fixture([behaviour, problem])
}

fn cells(instance: &dyn Instance) -> usize {
    // Both staircase games measure cells first.
    instance.size().measure[0] as usize
}

/// Sum of every value on the board: with `cells`, what "smaller" means.
fn weight(instance: &dyn Instance) -> i64 {
    *instance.size().measure.last().unwrap()
}

/// Runs stress on a wrong fixture and checks the whole failure report.
fn stress_finds(
    problem: &'static dyn Problem,
    behaviour: &str,
    extra: &[&str],
) -> (Box<dyn Instance>, Box<dyn Instance>) {
    let dir = tempfile::tempdir().unwrap();
    let out = Duipai::in_dir(dir.path())
        .args(["stress", problem.name(), "--json", "-j", "2"])
        .args(extra)
        .fixture([behaviour, problem.name()])
        .run()
        .code(1);
    let report = out.json();
    assert_eq!(report["status"], "failed");
    let seed = report["seed"].as_u64().expect("seed");
    let input = dir
        .path()
        .join(report["input"].as_str().expect("input path"));
    assert_eq!(
        input.file_name().unwrap().to_string_lossy(),
        format!("{problem}-{seed}.in")
    );
    let original = input.with_file_name(format!("{problem}-{seed}.original.in"));
    let small = parse_file(problem, &input);
    let found = parse_file(problem, &original);
    assert!(
        (cells(small.as_ref()), weight(small.as_ref()))
            < (cells(found.as_ref()), weight(found.as_ref())),
        "minimized {small:?} is not smaller than {found:?}"
    );
    // The saved answer is the reference's, and the program still fails on the minimized case.
    let ans = fs::read_to_string(input.with_extension("ans")).unwrap();
    assert_eq!(ans.trim(), small.solve().join("\n"));
    let replay = on_fixture(
        dir.path(),
        &["test", problem.name(), input.to_str().unwrap()],
        behaviour,
        problem.name(),
    )
    .run()
    .code(1);
    assert!(
        replay
            .stdout()
            .contains(report["verdict"].as_str().unwrap())
    );
    // The human report went to stderr, with the line of play and a replay command.
    let human = out.stderr();
    assert_contains(&human, "reference line of play");
    assert_contains(&human, "replay: duipai test");
    (found, small)
}

#[test]
fn stress_finds_and_minimizes_a_wrong_chess_solution() {
    let (_, small) = stress_finds(&CHESS, "wrong", &[]);
    // `wrong` fails when the top-left A is odd: the smallest such case is 1×1 with A = 1.
    let c = small.first_case::<ChessProblem>().unwrap();
    assert_eq!((c.n, c.m, c.a[0][0], c.b[0][0]), (1, 1, 1, 0));
}

#[test]
fn stress_finds_a_bug_on_thin_boards_only() {
    let (_, small) = stress_finds(&CHESS, "wrong-thin", &[]);
    let c = small.first_case::<ChessProblem>().unwrap();
    assert_eq!((c.n, c.m), (1, 1));
}

#[test]
fn stress_finds_a_wrong_chessboard_solution() {
    let (_, small) = stress_finds(&CHESSBOARD, "wrong", &[]);
    let c = small.first_case::<ChessboardProblem>().unwrap();
    assert_eq!(c.n, 1);
}

#[test]
fn stress_finds_a_crash_on_max_size_boards() {
    let (found, small) = stress_finds(&CHESS, "crash-max", &["--n", "10", "--m", "10"]);
    assert_eq!(cells(found.as_ref()), 100);
    // It only crashes at 10×10, so the board keeps its size and loses its values.
    assert_eq!(cells(small.as_ref()), 100);
    assert_eq!(weight(small.as_ref()), 0);
}

#[test]
fn stress_reports_the_lowest_failing_seed_every_time() {
    let run = || {
        let dir = tempfile::tempdir().unwrap();
        let report = on_fixture(
            dir.path(),
            &["stress", "chess", "--json", "--no-shrink", "-j", "2"],
            "wrong",
            "chess",
        )
        .run()
        .code(1)
        .json();
        report["seed"].as_u64().unwrap()
    };
    let first = run();
    for _ in 0..3 {
        assert_eq!(run(), first);
    }
    // No seed below it fails: one worker, seeds 1..first-1, all accepted.
    if first > 1 {
        let dir = tempfile::tempdir().unwrap();
        let n = (first - 1).to_string();
        on_fixture(
            dir.path(),
            &["stress", "chess", "--json", "-j", "1", "--iterations", &n],
            "wrong",
            "chess",
        )
        .run()
        .success();
    }
}

#[test]
fn stress_passes_a_correct_solution_and_counts_cases() {
    let dir = tempfile::tempdir().unwrap();
    let out = on_fixture(
        dir.path(),
        &[
            "stress",
            "chessboard",
            "--n",
            "1..6",
            "--json",
            "--iterations",
            "40",
            "--seed",
            "100",
        ],
        "correct",
        "chessboard",
    )
    .run()
    .success();
    let report = out.json();
    assert_eq!(report["status"], "ok");
    assert_eq!(report["cases"], 40);
    assert_eq!(report["first_seed"], 100);
    assert_eq!(report["last_seed"], 139);
    assert!(!dir.path().join("duipai-failures").exists());
}

#[test]
fn shards_split_the_seed_space() {
    let dir = tempfile::tempdir().unwrap();
    let out = on_fixture(
        dir.path(),
        &[
            "stress",
            "chess",
            "--json",
            "--seed",
            "10",
            "--shard",
            "2/3",
            "--iterations",
            "4",
        ],
        "correct",
        "chess",
    )
    .run()
    .success();
    let report = out.json();
    // Share 2 of 3 from seed 10: 11, 14, 17, 20.
    assert_eq!(report["first_seed"], 11);
    assert_eq!(report["last_seed"], 20);
}

#[test]
fn external_generator_and_reference_replace_the_built_in_ones() {
    let dir = tempfile::tempdir().unwrap();
    let duipai = crate::util::duipai();
    let script = |name: &str, body: String| {
        let path = write_sh(dir.path(), name, &body);
        path.to_string_lossy().into_owned()
    };
    let generator = script(
        "gen.sh",
        format!(
            "exec {} gen chess --n 1..3 --m 1..3 --seed \"$1\"",
            duipai.display()
        ),
    );
    let reference = script("ref.sh", format!("exec {} solve chess", duipai.display()));
    let out = on_fixture(
        dir.path(),
        &[
            "stress",
            "chess",
            "--json",
            "--generator",
            &generator,
            "--reference",
            &reference,
        ],
        "wrong",
        "chess",
    )
    .run()
    .code(1);
    let report = out.json();
    assert_eq!(report["verdict"], "WA");
    // The replay from the seed names the same generator and reference.
    let seed = report["seed"].as_u64().expect("a seed");
    let replay = format!(
        "duipai stress chess --generator {generator} --reference {reference} --seed {seed} \
         --iterations 1 --no-replay -- "
    );
    assert_contains(&out.stderr(), &replay);
    // A reference that is not a program is a harness error, exit 2.
    let out = on_fixture(
        dir.path(),
        &[
            "stress",
            "chess",
            "--reference",
            "/nonexistent/ref",
            "--iterations",
            "3",
        ],
        "correct",
        "chess",
    )
    .run()
    .code(2);
    assert_contains(&out.stderr(), "reference");
}

/// The words of the replay lines a failure report printed: the `duipai test` one and the
/// `duipai stress` one, each split as a shell would.
fn replay_lines(human: &str) -> (Vec<String>, Vec<String>) {
    let test = human
        .lines()
        .find_map(|l| l.strip_prefix("replay: "))
        .unwrap_or_else(|| panic!("no replay line:\n{human}"));
    let stress = human
        .lines()
        .map(str::trim_start)
        .find(|l| l.starts_with("duipai stress "))
        .unwrap_or_else(|| panic!("no stress replay line:\n{human}"));
    let split = |line: &str| shell_words::split(line).expect("a replay line is shell words");
    (split(test), split(stress))
}

/// Whether `words` holds `flag` (one or more words) in a row before `--`.
fn has_flag(words: &[String], flag: &[&str]) -> bool {
    let end = words.iter().position(|w| w == "--").unwrap_or(words.len());
    words[..end].windows(flag.len()).any(|w| w == flag)
}

#[test]
fn replay_lines_carry_every_flag_that_decides_the_case() {
    let dir = tempfile::tempdir().unwrap();
    let fx = fixture().to_string_lossy().into_owned();
    let limits = [
        "--time-limit",
        "2000",
        "--memory-limit",
        "256",
        "--output-limit",
        "8",
        "--process-limit",
        "16",
        "--no-rerun",
        "--file-io",
    ];
    let program = [fx.as_str(), "wrong", "chess", "--file-io"];
    let out = Duipai::in_dir(dir.path())
        .args(["stress", "chess", "--json", "-j", "2", "--save", "rp"])
        .args(["--n", "2..3", "--m", "2", "--max-value", "9"])
        .args(["--shrink-time", "5", "--compiler", "cpp=g++ -O1"])
        .args(limits)
        .program(program)
        .run()
        .code(1);
    let seed = out.json()["seed"].as_u64().expect("a seed");
    let (test, stress) = replay_lines(&out.stderr());

    let limit_flags: Vec<&[&str]> = vec![
        &["--time-limit", "2000"],
        &["--memory-limit", "256"],
        &["--output-limit", "8"],
        &["--process-limit", "16"],
        &["--no-rerun"],
        &["--file-io"],
        &["--compiler", "cpp=g++ -O1"],
    ];
    let seed_flag = seed.to_string();
    let seed_flags = ["--seed", &seed_flag, "--iterations", "1"];
    let stress_flags: Vec<&[&str]> = vec![
        &["--save", "rp"],
        &["--n", "2..3"],
        &["--m", "2"],
        &["--max-value", "9"],
        &["--shrink-time", "5"],
        &seed_flags,
    ];
    for (words, flags) in [
        (&test, limit_flags.clone()),
        (&stress, [limit_flags, stress_flags].concat()),
    ] {
        for flag in flags {
            assert!(has_flag(words, flag), "{flag:?} missing from {words:?}");
        }
        let after = words.iter().position(|w| w == "--").expect("--") + 1;
        assert_eq!(words[after..], program, "{words:?}");
    }
    assert_eq!(
        test[..4],
        ["duipai", "test", "chess", &format!("rp/chess-{seed}.in")]
    );

    // Both lines, run as printed, find the same failure, and the saved cases stay in rp/: the
    // stress line searches its seed without replaying the saved case first (which would end
    // the run).
    let replayed = Duipai::in_dir(dir.path()).args(&stress[1..]).run().code(1);
    let human = replayed.stdout();
    assert_contains(&human, &format!("FAILED on seed {seed} after 1 case"));
    assert!(!human.contains("replaying"), "{human}");
    let judged = Duipai::in_dir(dir.path()).args(&test[1..]).run().code(1);
    assert_contains(&judged.stdout(), "WA");
    assert!(!dir.path().join("duipai-failures").exists());
}

/// A directory of cases: an answer file, an `.out` answer, and one left to the reference.
fn case_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let sample = "2 3\n2 7 3\n9 1 2\n3 7 2\n2 3 1\n";
    fs::create_dir(dir.path().join("sub")).unwrap();
    fs::write(dir.path().join("a.in"), sample).unwrap();
    fs::write(dir.path().join("a.ans"), "2\n").unwrap();
    fs::write(dir.path().join("sub/b.in"), "1 1\n7\n3\n").unwrap();
    fs::write(dir.path().join("sub/b.out"), "7\n").unwrap();
    fs::write(dir.path().join("c.in"), "1 2\n4 1\n0 9\n").unwrap();
    dir
}

#[test]
fn test_accepts_a_correct_program_and_writes_reports() {
    let dir = case_dir();
    let junit = dir.path().join("report.xml");
    let out = on_fixture(
        dir.path(),
        &[
            "test",
            "chess",
            ".",
            "--json",
            "--junit",
            junit.to_str().unwrap(),
        ],
        "correct",
        "chess",
    )
    .run()
    .success();
    let report = out.json();
    assert_eq!(report["status"], "ok");
    let names: Vec<&str> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["a.in", "c.in", "sub/b.in"]);
    let xml = fs::read_to_string(&junit).unwrap();
    assert!(
        xml.contains("tests=\"3\"") && xml.contains("failures=\"0\""),
        "{xml}"
    );
}

#[test]
fn test_reports_a_wrong_answer_with_a_diff_and_exit_1() {
    let dir = case_dir();
    fs::write(dir.path().join("a.ans"), "3\n").unwrap();
    let junit = dir.path().join("report.xml");
    let text = on_fixture(
        dir.path(),
        &["test", "chess", ".", "--junit", junit.to_str().unwrap()],
        "correct",
        "chess",
    )
    .run()
    .code(1)
    .stdout();
    assert_contains(&text, "WA  a.in");
    assert_contains(&text, "expected 3, found 2");
    // The first failures get a unified diff of expected and actual output.
    assert!(
        text.contains("--- expected") && text.contains("\n-3\n+2\n"),
        "{text}"
    );
    assert_contains(&text, "2 AC, 1 WA");
    let xml = fs::read_to_string(&junit).unwrap();
    assert_contains(&xml, "failures=\"1\"");
}

#[test]
fn test_shows_a_diff_for_malformed_output() {
    let dir = case_dir();
    let text = on_fixture(dir.path(), &["test", "chess", "."], "garbage", "chess")
        .run()
        .code(1)
        .stdout();
    assert_contains(&text, "PE  a.in");
    assert!(
        text.contains("--- expected") && text.contains("+++ actual"),
        "{text}"
    );
    assert!(
        text.contains("\n-2\n"),
        "the expected answer is on the diff's minus side: {text}"
    );
}

#[test]
fn test_refuses_to_overwrite_a_file_that_is_not_a_report() {
    let dir = case_dir();
    let precious = dir.path().join("notes.txt");
    fs::write(&precious, "my notes\n").unwrap();
    let out = on_fixture(
        dir.path(),
        &["test", "chess", ".", "--junit", "notes.txt"],
        "correct",
        "chess",
    )
    .run()
    .code(2);
    assert_contains(&out.stderr(), "refusing to overwrite");
    assert_eq!(fs::read_to_string(&precious).unwrap(), "my notes\n");
}

#[test]
fn test_harness_errors_exit_2() {
    let dir = case_dir();
    // A program that cannot start.
    let out = Duipai::in_dir(dir.path())
        .args(["test", "chess", "."])
        .program(["/nonexistent/solution"])
        .run()
        .code(2);
    assert_contains(&out.stderr(), "cannot start");
    // A directory without inputs.
    let empty = tempfile::tempdir().unwrap();
    let test_correct = |dir: &Path| {
        on_fixture(dir, &["test", "chess", "."], "correct", "chess")
            .run()
            .code(2)
    };
    let out = test_correct(empty.path());
    assert_contains(&out.stderr(), "no *.in files");
    // An invalid input with no answer beside it: positioned message.
    fs::write(dir.path().join("d.in"), "1 1\n7\n").unwrap();
    let out = test_correct(dir.path());
    assert_contains(&out.stderr(), "d.in:3:1");
}

#[test]
fn test_judges_file_io_programs() {
    let dir = case_dir();
    let test = on_fixture(
        dir.path(),
        &["test", "chess", ".", "--file-io"],
        "correct",
        "chess",
    );
    test.clone().program(["--file-io"]).run().success();
    // The same program reading stdin under --file-io reads nothing and prints nothing.
    test.run().code(1);
}

/// The stress replay line leaves out a --shrink-time only when DUIPAI_SHRINK_TIME gives the
/// same again (the harness sets it to 600): a typed 30 is not the default for every case
/// (a case failed by a limit gets 10 s), so it stays.
#[test]
fn a_typed_shrink_time_stays_in_the_replay_line_unless_the_variable_gives_it() {
    let dir = tempfile::tempdir().unwrap();
    let fx = fixture().to_string_lossy().into_owned();
    for (typed, kept) in [("30", true), ("600", false)] {
        let save = format!("rp{typed}");
        let out = Duipai::in_dir(dir.path())
            .args(["stress", "chess", "-j", "1", "--save", &save])
            .args(["--n", "2..3", "--m", "2", "--max-value", "9"])
            .args(["--shrink-time", typed])
            .program([fx.as_str(), "wrong", "chess"])
            .run()
            .code(1);
        let (_, stress) = replay_lines(&out.stdout());
        assert_eq!(
            has_flag(&stress, &["--shrink-time", typed]),
            kept,
            "{stress:?}"
        );
        assert!(
            kept || !stress.iter().any(|w| w == "--shrink-time"),
            "{stress:?}"
        );
    }
}
