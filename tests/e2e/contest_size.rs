//! Cases of contest size (n up to 2·10^5) end to end: a big failing case is shown as bounded
//! excerpts in the human report, the JSON and the JUnit report, with the files that hold all
//! of it named; a flood of output keeps only excerpts; and a
//! big case with a bug on its last number minimizes to a handful of numbers.

use std::path::Path;

use crate::util::{Duipai, assert_contains, case_objects, require};

/// `n` then n numbers on one line; the number of numbers is the generator's first argument,
/// the seed its last.
const GEN: &str = "import random, sys
n = int(sys.argv[1])
r = random.Random(int(sys.argv[-1]))
print(n)
print(' '.join(str(r.randint(-10**6, 10**6)) for _ in range(n)))
";

/// The prefix sums, one a line.
const PREFIX: &str = "import sys
data = sys.stdin.buffer.read().split()
n, s, out = int(data[0]), 0, []
for x in data[1:n + 1]:
    s += int(x)
    out.append(s)
sys.stdout.write(''.join(f'{v}\\n' for v in out))
";

/// The prefix sums, wrong on the last number when it is odd.
const WRONG_AT_END: &str = "import sys
data = sys.stdin.buffer.read().split()
n, s, out = int(data[0]), 0, []
for i, x in enumerate(data[1:n + 1]):
    x = int(x)
    s += x if i + 1 < n or x % 2 == 0 else x + 1
    out.append(s)
sys.stdout.write(''.join(f'{v}\\n' for v in out))
";

/// PREFIX and WRONG_AT_END as awk scripts (the same answers), for the test that runs them on a
/// few hundred shrink candidates: an awk start costs a fraction of a Python one. Sums are
/// printed with `%.0f`, exact to 2^53, as awk's own integer formats are not past 2^31.
const PREFIX_AWK: &str = "NR == 1 { n = $1 + 0; k = 0 }
NR > 1 { for (i = 1; i <= NF && k < n; i++) { k++; s += $i; printf \"%.0f\\n\", s } }
";

const WRONG_AT_END_AWK: &str = "NR == 1 { n = $1 + 0; k = 0 }
NR > 1 {
    for (i = 1; i <= NF && k < n; i++) {
        k++
        s += (k < n || $i % 2 == 0) ? $i : $i + 1
        printf \"%.0f\\n\", s
    }
}
";

/// The constraints: n >= 1, then n integers of at most 10^6 in absolute value.
const VALIDATOR_AWK: &str = "{
    for (i = 1; i <= NF; i++) {
        if ($i !~ /^[+-]?[0-9]+$/) bad = 1
        else if (count == 0) n = $i + 0
        else if ($i + 0 > 1000000 || $i + 0 < -1000000) bad = 1
        count++
    }
}
END { exit (bad || count < 2 || n != count - 1) ? 1 : 0 }
";

fn problem_dir() -> tempfile::TempDir {
    require(&["python3"]);
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in [
        ("gen.py", GEN),
        ("ref.py", PREFIX),
        ("sol.py", WRONG_AT_END),
        ("ref.awk", PREFIX_AWK),
        ("sol.awk", WRONG_AT_END_AWK),
        ("val.awk", VALIDATOR_AWK),
    ] {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    dir
}

fn stress(dir: &Path, n: usize, extra: &[&str]) -> Duipai {
    Duipai::in_dir(dir)
        .args(["stress", "sums", "--generator"])
        .arg(format!("python3 gen.py {n}"))
        .args(["--reference", "python3 ref.py", "-j", "2"])
        .args(extra)
        .program(["python3", "sol.py"])
}

#[test]
fn a_big_failing_case_is_shown_in_excerpts_everywhere_with_its_files_named() {
    let dir = problem_dir();
    // 2·10^4 numbers show what 2·10^5 would (the bench runs that size): the report's length
    // does not depend on the case's.
    let ran = stress(
        dir.path(),
        20_000,
        &["--no-shrink", "--json", "--junit", "report.xml"],
    )
    .run()
    .code(1);
    let human = ran.stderr();
    assert!(
        human.lines().count() <= 40,
        "{} lines:\n{human}",
        human.lines().count()
    );
    assert_contains(&human, "… 19994 lines not shown …");
    assert_contains(&human, "all of it: the case in duipai-failures/sums-");
    assert_contains(&human, "KiB more)");
    let report = ran.json();
    let (expected, actual) = (
        report["expected"].as_str().unwrap(),
        report["actual"].as_str().unwrap(),
    );
    assert!(expected.len() < 2048 && actual.len() < 2048, "{report}");
    assert_contains(expected, "… 19994 lines not shown …");
    assert!(report["expected_bytes"].as_u64().unwrap() > 100_000);
    assert_eq!(
        report["actual_bytes"].as_u64(),
        report["expected_bytes"].as_u64(),
        "the wrong last sum has as many digits as the right one, or one more"
    );
    // The saved files hold all of the case and the answer.
    let input = std::fs::read(dir.path().join(report["input"].as_str().unwrap())).unwrap();
    assert!(input.len() > 100_000);
    let answer = std::fs::metadata(dir.path().join(report["answer_file"].as_str().unwrap()));
    assert_eq!(
        answer.unwrap().len(),
        report["expected_bytes"].as_u64().unwrap()
    );
    let junit = std::fs::read_to_string(dir.path().join("report.xml")).unwrap();
    assert!(junit.len() < 16 * 1024, "{} bytes of JUnit", junit.len());
    assert_contains(&junit, "lines not shown");
}

#[test]
fn a_big_case_wrong_on_its_last_number_shrinks_to_a_few_numbers() {
    require(&["awk"]);
    let dir = problem_dir();
    // The generator always makes n = 5000: only a validator lets the case leave that. The
    // generator stays Python (its choices are recorded); the programs run on every probe are
    // the awk ones.
    let report = Duipai::in_dir(dir.path())
        .args(["stress", "sums", "--generator", "python3 gen.py 5000"])
        .args(["--reference", "awk -f ref.awk", "-j", "2", "--json"])
        .args(["--validator", "awk -f val.awk"])
        // A loaded machine must not cut minimizing short.
        .args(["--shrink-time", "600"])
        .program(["awk", "-f", "sol.awk"])
        .run()
        .code(1)
        .json();
    let input =
        std::fs::read_to_string(dir.path().join(report["input"].as_str().unwrap())).unwrap();
    let numbers: Vec<i64> = input
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    // n, then n numbers, the last one odd: nothing smaller fails.
    assert!(numbers.len() <= 4, "{input}");
    assert_eq!(numbers[0] as usize, numbers.len() - 1);
    assert_eq!(numbers.last().unwrap().rem_euclid(2), 1, "{input}");
    assert!(numbers[1..].iter().all(|v| v.abs() <= 1), "{input}");
    assert!(report["shrink_runs"].as_u64().unwrap() < 200, "{report}");
}

#[test]
fn judging_floods_keeps_excerpts_of_each_output() {
    require(&["python3"]);
    let dir = tempfile::tempdir().unwrap();
    let cases = dir.path().join("cases");
    std::fs::create_dir(&cases).unwrap();
    for i in 1..=3 {
        std::fs::write(cases.join(format!("{i}.in")), format!("{i}\n")).unwrap();
        std::fs::write(cases.join(format!("{i}.ans")), "x\n").unwrap();
    }
    // 3 MiB of lines of 7s, past the size kept in memory.
    let flood = "import sys\nsys.stdout.write('7' * 1023 + '\\n')\nsys.stdout.write(('7' * 1023 + '\\n') * 3071)\n";
    std::fs::write(dir.path().join("flood.py"), flood).unwrap();
    let ran = Duipai::in_dir(dir.path())
        .args(["test", "flood", "cases", "--json"])
        .program(["python3", "flood.py"])
        .run()
        .code(1);
    let records = case_objects(&ran.json());
    assert_eq!(records.len(), 3);
    for record in &records {
        assert_eq!(record["verdict"], "WA");
        assert_eq!(record["actual_bytes"], 3 * 1024 * 1024);
        assert!(record["actual"].as_str().unwrap().len() < 2048, "{record}");
        assert_contains(record["actual"].as_str().unwrap(), "lines not shown");
    }
    let human = ran.stderr();
    assert!(human.len() < 16 * 1024, "{} bytes:\n{human}", human.len());
    assert_contains(&human, "+++ actual (3072 lines, 3.0 MiB)");
    // Found by stress, the flood is saved cut to its first MiB, and the sidecar says how much
    // there was.
    std::fs::write(
        dir.path().join("gen.py"),
        "import sys\nprint(sys.argv[-1])\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("ref.py"), "print('x')\n").unwrap();
    Duipai::in_dir(dir.path())
        .args(["stress", "flood", "--generator", "python3 gen.py"])
        .args(["--reference", "python3 ref.py", "--no-shrink"])
        .program(["python3", "flood.py"])
        .run()
        .code(1);
    let saved = dir.path().join("duipai-failures");
    let out = std::fs::metadata(saved.join("flood-1.out")).unwrap();
    assert_eq!(out.len(), 1024 * 1024);
    let meta: serde_json::Value =
        serde_json::from_slice(&std::fs::read(saved.join("flood-1.meta")).unwrap()).unwrap();
    assert_eq!(meta["output_bytes"], 3 * 1024 * 1024, "{meta}");
}
