//! Problems duipai does not know, compared with `--tolerance` and `--ignore-case`: a float
//! problem whose C++ and Python solutions print different decimals, a YES/NO problem, and the
//! flags refused for built-in games.

use std::path::Path;

use crate::util::{Duipai, Ran, assert_contains, require};

fn write(dir: &Path, files: &[(&str, &str)]) {
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
}

/// The average of n numbers: the reference prints 9 decimals, the C++ solution 6, the Python
/// one as many as Python does; a solution that divides integers is wrong. The generator and
/// the reference are awk scripts, started on every case for a fraction of a Python start.
fn average_problem(dir: &Path) {
    write(
        dir,
        &[
            // The seed is the last argument; only BEGIN, so awk reads no input.
            (
                "gen.awk",
                "BEGIN {\n    srand(ARGV[ARGC - 1] + 0); n = int(rand() * 6) + 1; print n\n    \
                 for (i = 1; i <= n; i++) printf \"%d%s\", int(rand() * 100) + 1, \
                 i < n ? \" \" : \"\\n\"\n}\n",
            ),
            (
                "ref.awk",
                "NR == 1 { n = $1 }\nNR == 2 { for (i = 1; i <= n; i++) s += $i; \
                 printf \"%.9f\\n\", s / n }\n",
            ),
            (
                "six.cpp",
                "#include <cstdio>\nint main() { int n; std::scanf(\"%d\", &n); double s = 0;\n\
                 for (int i = 0; i < n; i++) { int x; std::scanf(\"%d\", &x); s += x; }\n\
                 std::printf(\"%.6f\\n\", s / n); }\n",
            ),
            (
                "plain.py",
                "n = int(input()); a = list(map(int, input().split())); print(sum(a) / n)\n",
            ),
            (
                "intdiv.cpp",
                "#include <cstdio>\nint main() { int n; std::scanf(\"%d\", &n); int s = 0;\n\
                 for (int i = 0; i < n; i++) { int x; std::scanf(\"%d\", &x); s += x; }\n\
                 std::printf(\"%.6f\\n\", (double)(s / n)); }\n",
            ),
        ],
    );
}

fn stress(dir: &Path, extra: &[&str], program: &[&str]) -> Ran {
    Duipai::in_dir(dir)
        .args(["stress", "avg", "--generator", "awk -f gen.awk"])
        .args([
            "--reference",
            "awk -f ref.awk",
            "--iterations",
            "10",
            "--json",
        ])
        .args(extra)
        .program(program)
        .run()
}

#[test]
fn reals_printed_with_other_decimals_pass_within_the_tolerance() {
    require(&["python3", "g++", "awk"]);
    let dir = tempfile::tempdir().unwrap();
    average_problem(dir.path());
    for program in [&["six.cpp"][..], &["python3", "plain.py"]] {
        stress(dir.path(), &["--tolerance", "1e-6"], program).success();
        // Without the tolerance, the same outputs are wrong answers.
        // (Not minimized: only the verdict matters here.)
        let out = stress(dir.path(), &["--no-replay", "--no-shrink"], program).code(1);
        assert_eq!(out.json()["verdict"], "WA");
    }
    let report = stress(
        dir.path(),
        &["--tolerance", "1e-6", "--no-shrink", "--no-replay"],
        &["intdiv.cpp"],
    )
    .code(1)
    .json();
    assert_eq!(report["verdict"], "WA");
    // The replay lines keep the tolerance.
    assert!(
        report["replay"]
            .as_str()
            .unwrap()
            .contains(" --tolerance 1e-6 "),
        "{report}"
    );
}

#[test]
fn yes_and_no_compare_ignoring_case() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            ("t.in", "4\n"),
            ("t.ans", "YES\n"),
            ("say.sh", "#!/bin/sh\necho yes\n"),
        ],
    );
    let test = Duipai::in_dir(dir.path())
        .args(["test", "even", "t.in"])
        .program(["sh", "say.sh"]);
    test.clone().arg("--ignore-case").run().success();
    test.run().code(1);
}

#[test]
fn the_flags_are_refused_for_games_with_their_own_comparison() {
    let dir = tempfile::tempdir().unwrap();
    let refused = |args: &[&str]| {
        Duipai::in_dir(dir.path())
            .args(args)
            .program(["true"])
            .run()
            .code(2)
            .stderr()
    };
    let err = refused(&["stress", "chess", "--tolerance", "1e-6"]);
    assert_contains(
        &err,
        "--tolerance is for problems duipai does not know; chess's answers are compared \
         as integers, exactly",
    );
    let err = refused(&["stress", "shooting", "--ignore-case"]);
    assert!(err.contains("compared as real numbers within 1e-6"));
    let err = refused(&["test", "x", ".", "--tolerance", "inf"]);
    assert!(err.contains("expected a tolerance like 1e-6"));
}
