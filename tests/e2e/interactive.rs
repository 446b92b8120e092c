//! Interactive problems end to end: "guess the number" (`tests/support/guess/`), judged by a
//! testlib interactor compiled from source with the vendored `testlib.h` beside it, against
//! programs in C++ and Python that are right, wrong, crash, never flush (a deadlock), think
//! too long or take too much memory. These tests need g++ and python3 and fail saying what to
//! install when one is missing.

use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::reports::{junit_cases, junit_check};
use crate::util::{
    Duipai, assert_contains, case, case_objects as cases, support_workspace, with_shared_cache,
};

/// A scratch directory holding the guessing game's programs, with `testlib.h` beside the
/// interactor, and `cases/` with hand-written inputs `n x`: among them secrets equal to n,
/// which the wrong program never finds.
fn workspace() -> tempfile::TempDir {
    let dir = support_workspace("guess");
    let cases = dir.path().join("cases");
    fs::create_dir(&cases).unwrap();
    for (name, case) in [
        ("1", "10 7"),
        ("2", "1000000000 1"),
        ("3", "1 1"),
        ("4", "8 8"),
        ("5", "1000000000 999999999"),
    ] {
        fs::write(cases.join(format!("{name}.in")), format!("{case}\n")).unwrap();
    }
    dir
}

/// `duipai` in `dir`, its builds cached for the whole test run, without PYTHONUNBUFFERED,
/// which would flush what a Python program forgot to.
fn duipai(dir: &Path) -> Duipai {
    with_shared_cache(dir).env_remove("PYTHONUNBUFFERED")
}

/// `duipai test guessing cases --interactor interactor.cpp` in `dir`.
fn test_cases(dir: &Path) -> Duipai {
    duipai(dir).args([
        "test",
        "guessing",
        "cases",
        "--interactor",
        "interactor.cpp",
    ])
}

#[test]
fn right_programs_in_cpp_and_python_pass_a_testlib_interactor_compiled_from_source() {
    let dir = workspace();
    for program in ["right.cpp", "right.py"] {
        let summary = test_cases(dir.path())
            .arg("--json")
            .program([program])
            .run()
            .success()
            .json();
        let cases = cases(&summary);
        assert_eq!(cases.len(), 5, "{summary}");
        for case in &cases {
            assert_eq!(case["verdict"], "AC", "{program}: {case}");
            // The interactor's message is the detail; the exchange starts with n.
            let detail = case["detail"].as_str().unwrap();
            assert!(detail.starts_with("ok found "), "{program}: {case}");
            let transcript = case["transcript"].as_str().unwrap();
            assert!(transcript.starts_with("< "), "{program}: {transcript}");
            assert!(transcript.ends_with("< =\n"), "{program}: {transcript}");
        }
        // 10^9 takes 30 queries at most, 1 takes one.
        let wide = case(&cases, "2.in")["transcript"].as_str().unwrap();
        let queries = wide.lines().filter(|l| l.starts_with("> ? ")).count();
        assert!((25..=30).contains(&queries), "{wide}");
        assert_eq!(
            case(&cases, "3.in")["transcript"].as_str().unwrap(),
            "< 1\n> ? 1\n< =\n"
        );
    }
}

#[test]
fn a_wrong_program_gets_the_interactors_verdict_and_message_with_the_exchange() {
    let dir = workspace();
    let junit = dir.path().join("report.xml");
    let ran = test_cases(dir.path())
        .arg("--json")
        .arg("--junit")
        .arg(&junit)
        .program(["wrong.cpp"])
        .run()
        .code(1);
    let cases = cases(&ran.json());
    for name in ["1.in", "2.in", "5.in"] {
        assert_eq!(case(&cases, name)["verdict"], "AC", "{cases:?}");
    }
    // n = 1: the search asks about 0, out of range.
    let one = case(&cases, "3.in");
    assert_eq!(one["verdict"], "WA");
    assert!(
        one["detail"]
            .as_str()
            .unwrap()
            .contains("violates the range [1, 1]"),
        "{one}"
    );
    assert_eq!(one["transcript"], "< 1\n> ? 0\n");
    // x = n: from its third query on it asks about 7, until the interactor stops it at the
    // 31st.
    let top = case(&cases, "4.in");
    assert_eq!(top["verdict"], "WA");
    assert!(
        top["detail"]
            .as_str()
            .unwrap()
            .contains("more than 30 queries"),
        "{top}"
    );
    let transcript = top["transcript"].as_str().unwrap();
    assert_eq!(transcript.matches("> ? 7\n").count(), 29, "{transcript}");
    // The human report shows the end of the exchange under the case.
    let stderr = ran.stderr();
    assert_contains(&stderr, "    exchange| > ? 7\n");
    assert_contains(&stderr, "    exchange| … ");
    // JUnit: the message and the exchange.
    let report = junit_check(&junit);
    let failed = junit_cases(&report)
        .iter()
        .find(|c| c["name"] == "4.in")
        .unwrap();
    assert!(
        failed["results"][0]["message"]
            .as_str()
            .unwrap()
            .contains("more than 30 queries"),
        "{failed}"
    );
    assert!(
        failed["system_out"].as_str().unwrap().contains("> ? 7"),
        "{failed}"
    );
}

#[test]
fn a_crash_is_the_programs_runtime_error_whatever_the_interactor_said() {
    let dir = workspace();
    let ran = test_cases(dir.path())
        .arg("--json")
        .program(["crash.py"])
        .run()
        .code(1);
    let summary = ran.json();
    for case in cases(&summary) {
        if case["name"] == "3.in" || case["name"] == "4.in" {
            // x = n: its one query, n, finds the secret.
            assert_eq!(case["verdict"], "AC", "{case}");
            continue;
        }
        assert_eq!(case["verdict"], "RE", "{case}");
        assert_eq!(case["detail"], "exit code 1", "{case}");
        assert!(
            case["stderr"]
                .as_str()
                .unwrap()
                .contains("cannot handle the reply"),
            "{case}"
        );
    }
}

#[test]
fn an_interactor_that_rejects_first_decides_whatever_the_program_does_after() {
    let dir = workspace();
    let summary = test_cases(dir.path())
        .arg("--json")
        .program(["wrong.py"])
        .run()
        .code(1)
        .json();
    let cases = cases(&summary);
    // x = n: the interactor stops the search at the 31st query; the program, its input
    // ended, would die of an EOFError: the rejection is the verdict, not a runtime error.
    let top = case(&cases, "4.in");
    assert_eq!(top["verdict"], "WA", "{top}");
    assert_contains(top["detail"].as_str().unwrap(), "more than 30 queries");
    // n = 1: the query 0 is out of range, and the interactor ends first again.
    let one = case(&cases, "3.in");
    assert_eq!(one["verdict"], "WA", "{one}");
    assert_contains(one["detail"].as_str().unwrap(), "violates the range [1, 1]");
    for name in ["1.in", "2.in", "5.in"] {
        assert_eq!(case(&cases, name)["verdict"], "AC", "{cases:?}");
    }
}

/// The interactor rejects and closes its output, then takes its time to exit; the program dies
/// of the end of its input at once, so its exit is seen first. The rejection still decides:
/// the interactor's output ended while the program ran.
#[test]
fn an_interactor_that_closes_first_decides_even_when_it_exits_last() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    crate::util::write_sh(
        d,
        "judge.sh",
        "read query\nexec 1>&-\nsleep 0.3\necho 'wrong answer the first query is wrong' >&2\nexit 1",
    );
    crate::util::write_sh(
        d,
        "asker.sh",
        "while true; do echo '? 1'; read reply || { echo 'no reply' >&2; exit 1; }; done",
    );
    fs::write(d.join("1.in"), "10 7\n").unwrap();
    crate::util::wait_until_executable(&d.join("asker.sh"));
    let summary = Duipai::in_dir(d)
        .args([
            "test",
            "one",
            "1.in",
            "--interactor",
            "./judge.sh",
            "--json",
        ])
        .program(["./asker.sh"])
        .run()
        .code(1)
        .json();
    let top = case(&cases(&summary), "1.in").clone();
    assert_eq!(top["verdict"], "WA", "{top}");
    assert_contains(top["detail"].as_str().unwrap(), "the first query is wrong");
}

#[test]
fn programs_that_never_flush_end_as_idleness_long_before_the_wall_clock() {
    let dir = workspace();
    // The wall-clock limit is 2 × 5 s + 1 s: the deadlock must end long before. Both programs
    // are judged at once, each waiting out its idleness limit beside the other.
    let runs = ["noflush.cpp", "noflush.py"].map(|program| {
        let run = test_cases(dir.path())
            .args(["--json", "--time-limit", "5s", "-j", "5"])
            .program([program]);
        (program, run.start())
    });
    for (program, run) in runs {
        let (ran, took) = run.finish_within(Duration::from_secs(120));
        let summary = ran.code(1).json();
        for case in cases(&summary) {
            assert_eq!(case["verdict"], "TLE", "{program}: {case}");
            let detail = case["detail"].as_str().unwrap();
            assert!(detail.starts_with("idleness: "), "{program}: {detail}");
            assert!(detail.contains("flush"), "{program}: {detail}");
            // The query it printed never left its buffer.
            let transcript = case["transcript"].as_str().unwrap();
            assert!(!transcript.contains("> "), "{program}: {transcript}");
            assert!(case["wall_ms"].as_u64().unwrap() < 11_000, "{case}");
        }
        assert!(
            took < Duration::from_secs(10),
            "{program}: five deadlocked cases took {took:?}"
        );
    }
}

#[test]
fn a_program_that_thinks_too_long_is_a_cpu_time_limit() {
    let dir = workspace();
    // Each case spins until its CPU limit (and a little past it): the lower the limit, the
    // less the test burns.
    let summary = test_cases(dir.path())
        .args(["--json", "--time-limit", "100"])
        .program(["slow.cpp"])
        .run()
        .code(1)
        .json();
    for case in cases(&summary) {
        assert_eq!(case["verdict"], "TLE", "{case}");
        assert!(
            case["detail"].as_str().unwrap().starts_with("CPU "),
            "{case}"
        );
        assert!(case["cpu_ms"].as_u64().unwrap() >= 100, "{case}");
    }
}

#[test]
fn a_program_over_its_memory_limit_is_a_memory_limit_verdict() {
    let dir = workspace();
    let summary = test_cases(dir.path())
        .args(["--json", "--memory-limit", "64"])
        .program(["hog.cpp"])
        .run()
        .code(1)
        .json();
    for case in cases(&summary) {
        assert_eq!(case["verdict"], "MLE", "{case}");
        assert!(case["memory_kib"].as_u64().unwrap() > 64 * 1024, "{case}");
    }
}

#[test]
fn an_interactor_that_fails_is_a_harness_error_naming_it() {
    let dir = workspace();
    // A secret above n: the interactor's input check fails (testlib's exit 3) before it says
    // anything, and the program then fails on an empty input: the interactor's failure is
    // what is reported.
    fs::write(dir.path().join("cases/6.in"), "3 9\n").unwrap();
    let ran = test_cases(dir.path()).program(["right.py"]).run().code(2);
    let stderr = ran.stderr();
    assert_contains(
        &stderr,
        "6.in: the interactor interactor.cpp failed: exit code 3",
    );
    assert_contains(&stderr, "violates the range [1, 3]");
}

#[test]
fn an_interactor_that_never_ends_is_stopped_for_idleness_and_blamed() {
    let dir = workspace();
    let started = Instant::now();
    let ran = duipai(dir.path())
        .args(["test", "guessing", "cases/1.in"])
        .args(["--interactor", "python3 stuck_interactor.py"])
        .program(["right.py"])
        .run()
        .code(2);
    let stderr = ran.stderr();
    assert!(
        stderr.contains("the interactor python3 stuck_interactor.py failed: TLE (idleness: "),
        "{stderr}"
    );
    // Its own limits would stop it after 20 s of wall clock.
    assert!(started.elapsed() < Duration::from_secs(15), "{stderr}");
}

#[test]
fn stress_finds_minimizes_and_saves_the_exchange_of_a_wrong_program() {
    let dir = workspace();
    let ran = duipai(dir.path())
        .args([
            "stress",
            "guessing",
            "--generator",
            "python3 gen.py",
            "--validator",
            "python3 validator.py",
            "--interactor",
            "interactor.cpp",
            "--json",
        ])
        .program(["wrong.cpp"])
        .run()
        .code(1);
    let summary = ran.json();
    let seed = summary["seed"].as_u64().unwrap();
    let saved = dir.path().join("duipai-failures");
    // The smallest game it loses: n = 1.
    let input = fs::read_to_string(saved.join(format!("guessing-{seed}.in"))).unwrap();
    assert_eq!(input, "1 1\n");
    let transcript = fs::read_to_string(saved.join(format!("guessing-{seed}.transcript"))).unwrap();
    assert_eq!(transcript, "< 1\n> ? 0\n");
    assert_eq!(summary["transcript"], transcript);
    // The case as found is saved with its own exchange.
    let original = saved.join(format!("guessing-{seed}.original.transcript"));
    assert!(original.is_file(), "{}", ran.stderr());
    let stderr = ran.stderr();
    assert!(stderr.contains("exchange (> the program wrote"), "{stderr}");
    assert_contains(&stderr, "--interactor interactor.cpp");
}

#[test]
fn stress_passes_a_right_program_and_refuses_what_an_interactor_makes_pointless() {
    let dir = workspace();
    let stress = || {
        duipai(dir.path()).args([
            "stress",
            "guessing",
            "--generator",
            "python3 gen.py",
            "--interactor",
            "interactor.cpp",
        ])
    };
    stress()
        .args(["--iterations", "30"])
        .program(["right.cpp"])
        .run()
        .success();
    let refused = [
        (
            vec!["--reference", "right.py"],
            "--reference does nothing with --interactor",
        ),
        (
            vec!["--file-io"],
            "--file-io does nothing with --interactor",
        ),
        (
            vec!["--tolerance", "1e-6"],
            "--tolerance does nothing with --interactor",
        ),
    ];
    for (flags, message) in refused {
        let ran = stress().args(&flags).program(["right.cpp"]).run().code(2);
        assert!(
            ran.stderr().contains(message),
            "{flags:?}: {}",
            ran.stderr()
        );
    }
    let ran = stress()
        .args(["--checker", "x.py"])
        .program(["right.cpp"])
        .run()
        .code(2);
    assert_contains(&ran.stderr(), "cannot be used with");
    let ran = duipai(dir.path())
        .args(["stress", "chess", "--interactor", "interactor.cpp"])
        .program(["right.cpp"])
        .run()
        .code(2);
    assert_contains(&ran.stderr(), "chess is not an interactive problem");
}
