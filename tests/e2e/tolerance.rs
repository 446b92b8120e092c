//! Problems duipai does not know, compared with `--tolerance` and `--ignore-case`: a float
//! problem whose C++ and Python solutions print different decimals, a YES/NO problem, and the
//! flags refused for built-in games.

use std::path::Path;

use crate::util::{code, duipai_in, last_json, stderr};

fn write(dir: &Path, files: &[(&str, &str)]) {
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
}

/// The tools the programs need: a missing one fails the test with what to install.
fn require(tool: &str, args: &[&str], install: &str) {
    let found = std::process::Command::new(tool)
        .args(args)
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(found, "this test needs {tool} on PATH: install {install}");
}

/// The average of n numbers: the reference prints 9 decimals, the C++ solution 6, the Python
/// one as many as Python does; a solution that divides integers is wrong.
fn average_problem(dir: &Path) {
    write(
        dir,
        &[
            (
                "gen.py",
                "import random, sys\nr = random.Random(int(sys.argv[1]))\nn = r.randint(1, 6)\n\
                 print(n)\nprint(*[r.randint(1, 100) for _ in range(n)])\n",
            ),
            (
                "ref.py",
                "n = int(input()); a = list(map(int, input().split()))\n\
                 print('%.9f' % (sum(a) / n))\n",
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

fn stress(dir: &Path, extra: &[&str], program: &[&str]) -> std::process::Output {
    let mut args = vec![
        "stress",
        "avg",
        "--generator",
        "python3 gen.py",
        "--reference",
        "ref.py",
        "--iterations",
        "25",
        "--json",
    ];
    args.extend_from_slice(extra);
    args.push("--");
    args.extend_from_slice(program);
    duipai_in(dir, &args)
}

#[test]
fn reals_printed_with_other_decimals_pass_within_the_tolerance() {
    require("python3", &["--version"], "Python 3");
    require("g++", &["--version"], "g++ (GNU C++)");
    let dir = tempfile::tempdir().unwrap();
    average_problem(dir.path());
    for program in [&["six.cpp"][..], &["python3", "plain.py"]] {
        let out = stress(dir.path(), &["--tolerance", "1e-6"], program);
        assert_eq!(code(&out), 0, "{program:?}: {}", stderr(&out));
        // Without the tolerance, the same outputs are wrong answers.
        // (Not minimized: only the verdict matters here.)
        let out = stress(dir.path(), &["--no-replay", "--no-shrink"], program);
        assert_eq!(code(&out), 1, "{program:?}: {}", stderr(&out));
        assert_eq!(last_json(&out)["verdict"], "WA");
    }
    let out = stress(
        dir.path(),
        &["--tolerance", "1e-6", "--no-shrink"],
        &["intdiv.cpp"],
    );
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let report = last_json(&out);
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
    let ok = duipai_in(
        dir.path(),
        &[
            "test",
            "even",
            "t.in",
            "--ignore-case",
            "--",
            "sh",
            "say.sh",
        ],
    );
    assert_eq!(code(&ok), 0, "{}", stderr(&ok));
    let exact = duipai_in(dir.path(), &["test", "even", "t.in", "--", "sh", "say.sh"]);
    assert_eq!(code(&exact), 1, "{}", stderr(&exact));
}

#[test]
fn the_flags_are_refused_for_games_with_their_own_comparison() {
    let dir = tempfile::tempdir().unwrap();
    let out = duipai_in(
        dir.path(),
        &["stress", "chess", "--tolerance", "1e-6", "--", "true"],
    );
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains(
            "--tolerance is for problems duipai does not know; chess's answers are compared \
             as integers, exactly"
        ),
        "{}",
        stderr(&out)
    );
    let out = duipai_in(
        dir.path(),
        &["stress", "shooting", "--ignore-case", "--", "true"],
    );
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("compared as real numbers within 1e-6"));
    let out = duipai_in(
        dir.path(),
        &["test", "x", ".", "--tolerance", "inf", "--", "true"],
    );
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("expected a tolerance like 1e-6"));
}
