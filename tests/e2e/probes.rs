//! What a minimization probe runs, end to end: the validator is asked about a candidate
//! once the program fails it (first only while most candidates it judged were invalid), and a
//! failing candidate it rejects is never kept; without a validator, the generator's envelope
//! is learned from 100 cases, or the report says from how many and why.

use std::path::Path;

use crate::util::{Duipai, assert_contains, require, write_executable};

/// "sum": n (3 to 6), then n numbers from 1 to 9. The program is wrong on a 9, and on every
/// list shorter than 3 (invalid inputs); the validator logs every input it is asked about.
fn write_sum_problem(dir: &Path) {
    write_executable(
        &dir.join("gen.sh"),
        "#!/bin/sh\necho 6\necho \"1 5 9 $(($1 % 9 + 1)) 2 3\"\n",
    );
    write_executable(
        &dir.join("ref.sh"),
        "#!/bin/sh\nawk 'NR == 2 {s = 0; for (i = 1; i <= NF; i++) s += $i; print s}'\n",
    );
    write_executable(
        &dir.join("bad.sh"),
        "#!/bin/sh\nawk 'NR == 1 {n = $1} NR == 2 {s = 0; b = (n < 3); \
         for (i = 1; i <= NF; i++) {s += $i; if ($i == 9) b = 1}; print s + b}'\n",
    );
    std::fs::write(
        dir.join("val.py"),
        "import sys\ntext = sys.stdin.read()\nopen('asked.log', 'a').write(text + '--\\n')\n\
         lines = text.split('\\n')\nn = int(lines[0]); a = list(map(int, lines[1].split()))\n\
         assert 3 <= n <= 6 and len(a) == n and all(1 <= x <= 9 for x in a)\n\
         assert lines[2:] == ['']\n",
    )
    .unwrap();
}

/// Whether bad.sh fails on `input` (a 9, or fewer than 3 numbers), as read by the test.
fn bad_fails(input: &str) -> bool {
    let mut lines = input.lines();
    let n: i64 = lines
        .next()
        .and_then(|l| l.trim().parse().ok())
        .unwrap_or(0);
    let nines = lines
        .next()
        .unwrap_or("")
        .split_whitespace()
        .any(|w| w == "9");
    n < 3 || nines
}

/// Whether `input` is a valid "sum" input, as val.py has it.
fn valid(input: &str) -> bool {
    let lines: Vec<&str> = input.split('\n').collect();
    let n: Option<usize> = lines[0].parse().ok();
    let items: Option<Vec<u32>> = lines
        .get(1)
        .map(|l| l.split_whitespace().map(|w| w.parse().ok()).collect())
        .unwrap_or(None);
    match (n, items) {
        (Some(n), Some(items)) => {
            (3..=6).contains(&n)
                && items.len() == n
                && items.iter().all(|x| (1..=9).contains(x))
                && lines[2..] == [""]
        }
        _ => false,
    }
}

#[test]
fn the_validator_is_asked_after_the_program_fails_and_an_invalid_case_is_never_kept() {
    require(&["python3"]);
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_sum_problem(d);
    let report = Duipai::in_dir(d)
        .args([
            "stress",
            "sum",
            "--generator",
            "./gen.sh",
            "--reference",
            "./ref.sh",
        ])
        .args([
            "--validator",
            "python3 val.py",
            "--json",
            "--shrink-time",
            "600",
        ])
        .args(["-j", "1"])
        .program(["./bad.sh"])
        .run()
        .code(1)
        .json();
    assert_eq!(report["one_minimal"], true, "{report}");
    let input = std::fs::read_to_string(d.join(report["input"].as_str().unwrap())).unwrap();
    // The smallest valid failing case: three numbers, one of them a 9, the others 1.
    let mut numbers: Vec<&str> = input.lines().nth(1).unwrap().split(' ').collect();
    numbers.sort();
    assert_eq!(input.lines().next(), Some("3"), "{input}");
    assert_eq!(numbers, ["1", "1", "9"], "{input}");
    let asked = std::fs::read_to_string(d.join("asked.log")).unwrap();
    let asked: Vec<&str> = asked.split("--\n").filter(|a| !a.is_empty()).collect();
    // First the case as found, then the candidates. The validator is asked about a
    // candidate the program passes only once most candidates it judged were invalid (it
    // then goes first); until then, only about candidates the program fails.
    assert!(bad_fails(asked[0]) && valid(asked[0]), "{:?}", asked[0]);
    let (mut judged, mut rejected) = (0, 0);
    for candidate in &asked[1..] {
        if !bad_fails(candidate) {
            assert!(
                2 * rejected > judged + 2,
                "asked about {candidate:?}, which the program passes, after {rejected} of \
                 {judged} judged were invalid"
            );
        }
        judged += 1;
        rejected += usize::from(!valid(candidate));
    }
    // Invalid candidates the program failed (shorter than three numbers) were tried, and
    // discarded.
    let invalid_failing = asked.iter().filter(|a| bad_fails(a) && !valid(a)).count();
    assert!(invalid_failing > 0, "{asked:?}");
}

/// The generator fails from seed 30 on: the envelope is learned from the 29 cases before,
/// and the note says so.
#[test]
fn an_envelope_learned_from_fewer_than_100_cases_says_from_how_many_and_why() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_sum_problem(d);
    write_executable(
        &d.join("gen.sh"),
        "#!/bin/sh\n[ \"$1\" -ge 30 ] && exit 1\necho 6\necho \"1 5 9 $(($1 % 9 + 1)) 2 3\"\n",
    );
    let out = Duipai::in_dir(d)
        .args([
            "stress",
            "sum",
            "--generator",
            "./gen.sh",
            "--reference",
            "./ref.sh",
        ])
        .args(["-j", "1"])
        .program(["./bad.sh"])
        .run()
        .code(1);
    assert_contains(
        &out.stdout(),
        "note: kept within what the generator produced in 29 cases (",
    );
    assert_contains(
        &out.stdout(),
        "; fewer than 100: the generator failed on seed 30); give --validator for the real \
         constraints",
    );
}
