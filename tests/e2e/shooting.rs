//! shooting end to end: the typical wrong solutions found and minimized by `duipai stress`,
//! a right solution computing in single precision accepted although its last digit differs,
//! two decimals rejected, with the fixture programs and with real C++ programs, on stored
//! cases, in stress and on the ICPC pack; the validator's positioned messages.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use duipai::problem::{Problem, SHOOTING, ShootingProblem};

use crate::util::{code, duipai, duipai_in, fixture, last_json, stderr, stdout};

/// Boards on which single precision prints a different 6th decimal than the exact answer
/// (0.525835 for 0.525834 on the first), found by running the single-precision program on
/// all 7440 legal boards.
const SINGLE_PRECISION_DIFFERS: &str =
    "4\n1 2 2 6\n4\n1 2 5 6\n4\n1 2 6 1\n4\n4 6 6 4\n5\n1 1 4 4 6\n5\n1 2 3 2 1\n0\n";

/// A right solution: the DP over heights padded to 6 columns (an empty column changes
/// nothing), in the precision of `num`.
const CPP_RIGHT: &str = r#"#include <bits/stdc++.h>
using namespace std;
typedef double num;
num dp[117649];
bool seen[117649];
int code(const int *h) { int c = 0; for (int j = 5; j >= 0; j--) c = c * 7 + h[j]; return c; }
num P(const int *h) {
    int c = code(h);
    if (seen[c]) return dp[c];
    int top = *max_element(h, h + 6);
    num best = 0;
    for (int row = 1; row <= top; row++)
        for (int side = 0; side < 2; side++) {
            num sum = 0;
            for (int k = 1; k <= 3; k++) {
                int g[6];
                copy(h, h + 6, g);
                int hit = 0;
                for (int s = 0; s < 6 && hit < k; s++) {
                    int j = side == 0 ? s : 5 - s;
                    if (h[j] >= row) { g[j]--; hit++; }
                }
                bool empty = count(g, g + 6, 0) == 6;
                sum += empty ? (num)1 : (num)1 - P(g);
            }
            best = max(best, sum / (num)3);
        }
    seen[c] = true;
    return dp[c] = best;
}
int main() {
    int n;
    while (scanf("%d", &n) == 1 && n) {
        int h[6] = {0, 0, 0, 0, 0, 0};
        for (int j = 6 - n; j < 6; j++) scanf("%d", &h[j]);
        printf("%.6f\n", (double)P(h));
    }
}
"#;

fn cpp_single_precision() -> String {
    CPP_RIGHT.replace("typedef double num;", "typedef float num;")
}

fn cpp_two_decimals() -> String {
    CPP_RIGHT.replace("%.6f", "%.2f")
}

fn require_gxx() {
    let found = Command::new("g++")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok();
    assert!(
        found,
        "`g++` is needed for these tests: install g++ (GCC's C++ compiler)"
    );
}

/// `duipai ARGS` in `dir`, with a compile cache of its own.
fn duipai_cached(dir: &Path, args: &[&str]) -> Output {
    Command::new(duipai())
        .args(args)
        .current_dir(dir)
        .env("DUIPAI_CACHE_DIR", dir.join("cache"))
        .stdin(Stdio::null())
        .output()
        .expect("duipai runs")
}

/// A directory holding the boards single precision gets "wrong" in the last digit, with the
/// reference's answers.
fn differing_boards(dir: &Path) -> std::path::PathBuf {
    let cases = dir.join("differ");
    std::fs::create_dir_all(&cases).unwrap();
    std::fs::write(cases.join("f32.in"), SINGLE_PRECISION_DIFFERS).unwrap();
    let solved = duipai_in(dir, &["solve", "shooting", "differ/f32.in"]);
    assert_eq!(code(&solved), 0, "{}", stderr(&solved));
    std::fs::write(cases.join("f32.ans"), &solved.stdout).unwrap();
    cases
}

#[test]
fn the_typical_wrong_solutions_are_found_and_minimized() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = fixture();
    // (behaviour, most blocks the minimized board may keep)
    for (bug, blocks) in [
        ("wrong-shooting-one-side", 4),
        ("wrong-shooting-gap", 9),
        ("wrong-shooting-peek", 3),
        ("wrong-shooting-2dp", 3),
    ] {
        let save = format!("failures-{bug}");
        let out = duipai_in(
            dir.path(),
            &[
                "stress",
                "shooting",
                "-j",
                "2",
                "--json",
                "--save",
                &save,
                "--",
                fixture.to_str().unwrap(),
                bug,
                "shooting",
            ],
        );
        assert_eq!(code(&out), 1, "{bug}: {}", stderr(&out));
        let report = last_json(&out);
        assert_eq!(report["verdict"], "WA", "{bug}");
        assert_eq!(report["one_minimal"], true, "{bug}");
        let text = std::fs::read(dir.path().join(report["input"].as_str().unwrap())).unwrap();
        let file = SHOOTING.parse(&text, &SHOOTING.default_bounds()).unwrap();
        let cases = file.cases_of::<ShootingProblem>().unwrap();
        assert_eq!(cases.len(), 1, "{bug}: one case is enough");
        assert!(cases[0].blocks() <= blocks, "{bug}: {:?}", cases[0]);
    }
}

#[test]
fn single_precision_is_accepted_where_its_last_digit_differs() {
    let dir = tempfile::tempdir().unwrap();
    let cases = differing_boards(dir.path());
    let fixture = fixture();
    let args = [
        "test",
        "shooting",
        "differ",
        "--",
        fixture.to_str().unwrap(),
        "shooting-f32",
        "shooting",
    ];
    let out = duipai_in(dir.path(), &args);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // The fixture really prints other digits than the answer file.
    let printed = Command::new(&fixture)
        .args(["shooting-f32", "shooting"])
        .stdin(std::fs::File::open(cases.join("f32.in")).unwrap())
        .output()
        .unwrap();
    let answers = std::fs::read(cases.join("f32.ans")).unwrap();
    assert_ne!(printed.stdout, answers);
    // A stress run finds nothing wrong with it either.
    let out = duipai_in(
        dir.path(),
        &[
            "stress",
            "shooting",
            "--iterations",
            "60",
            "--family",
            "smallest",
            "--",
            fixture.to_str().unwrap(),
            "shooting-f32",
            "shooting",
        ],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

#[test]
fn cpp_in_single_precision_passes_and_two_decimals_fail() {
    require_gxx();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    std::fs::write(path.join("right.cpp"), CPP_RIGHT).unwrap();
    std::fs::write(path.join("f32.cpp"), cpp_single_precision()).unwrap();
    std::fs::write(path.join("two.cpp"), cpp_two_decimals()).unwrap();
    differing_boards(path);

    let f32_run = duipai_cached(path, &["test", "shooting", "differ", "--", "f32.cpp"]);
    assert_eq!(code(&f32_run), 0, "{}", stderr(&f32_run));
    let two_run = duipai_cached(path, &["test", "shooting", "differ", "--", "two.cpp"]);
    assert_eq!(code(&two_run), 1, "{}", stderr(&two_run));
    assert!(
        stdout(&two_run).contains("case 1 of 6: expected 0.525834, found 0.53"),
        "{}",
        stdout(&two_run)
    );

    // Stress: single precision survives, two decimals are caught on the smallest board.
    let stress = |program: &str| {
        duipai_cached(
            path,
            &[
                "stress",
                "shooting",
                "--iterations",
                "300",
                "--json",
                "--save",
                "failures",
                "--",
                program,
            ],
        )
    };
    let out = stress("f32.cpp");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let out = stress("two.cpp");
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let report = last_json(&out);
    assert_eq!(report["verdict"], "WA");
    let minimized = std::fs::read_to_string(path.join(report["input"].as_str().unwrap())).unwrap();
    assert!(
        ["2\n1 2\n0\n", "2\n2 1\n0\n"].contains(&minimized.as_str()),
        "{minimized}"
    );
}

#[test]
fn the_icpc_pack_judges_single_precision_and_two_decimals_as_test_does() {
    require_gxx();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    std::fs::write(path.join("right.cpp"), CPP_RIGHT).unwrap();
    std::fs::write(path.join("f32.cpp"), cpp_single_precision()).unwrap();
    std::fs::write(path.join("two.cpp"), cpp_two_decimals()).unwrap();
    let out = duipai_in(
        path,
        &["pack", "shooting", "--out", "p", "--layout", "icpc"],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let settings = std::fs::read_to_string(path.join("p/data/secret/test_group.yaml")).unwrap();
    assert_eq!(
        settings,
        "output_validator_args: [float_tolerance, \"1e-6\"]\n"
    );
    // `test` judges the tests, not the inputs the package's validators must reject.
    assert!(path.join("p/data/invalid_input/rectangle.in").exists());
    for (program, status) in [("right.cpp", 0), ("f32.cpp", 0), ("two.cpp", 1)] {
        let out = duipai_cached(path, &["test", "shooting", "p", "--", program]);
        assert_eq!(code(&out), status, "{program}: {}", stderr(&out));
    }
}

#[test]
fn validate_and_solve_speak_the_games_terms() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.in"), "3\n2 1 1\n4\n2 3 1 3\n0\n").unwrap();
    std::fs::write(dir.path().join("flat.in"), "2\n3 3\n0\n").unwrap();
    std::fs::write(dir.path().join("good.in"), "3\n2 1 1\n0\n").unwrap();
    let out = duipai_in(
        dir.path(),
        &["validate", "shooting", "bad.in", "flat.in", "good.in"],
    );
    assert_eq!(code(&out), 1);
    let text = format!("{}{}", stdout(&out), stderr(&out));
    assert!(
        text.contains(
            "bad.in:4:7: heights 3 1 3 are not unimodal: the perimeter would exceed the \
             bounding rectangle's"
        ),
        "{text}"
    );
    assert!(
        text.contains("flat.in:2:1: all 2 heights are 3: the battlefield is a rectangle"),
        "{text}"
    );
    assert!(text.contains("good.in: ok"), "{text}");
    let out = duipai_in(dir.path(), &["solve", "shooting", "good.in", "--explain"]);
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    assert!(text.starts_with("0.555556\n"), "{text}");
    assert!(
        text.contains("Best first shot: row 1 from the right"),
        "{text}"
    );
    assert!(
        text.contains("power 2: hits columns 3, 2 -> heights 2 0 0"),
        "{text}"
    );
}
