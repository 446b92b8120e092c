//! duipai-checker side by side with the real tools: on every output of the tables in
//! `recorded/` (integers and reals, whitespace, byte-order marks, form feeds, vertical tabs,
//! NUL bytes, overflow, no output file), its testlib protocol gives testlib's exit code and
//! its Kattis protocol the ICPC default output validator's, as recorded from testlib 0.9.45
//! and BAPCtools 2026.10. The few rows where duipai decides otherwise on purpose are listed
//! below with the reason; a row that changes either way fails the test.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};

/// Rows where duipai-checker differs from the recorded tool, on purpose: (table, row,
/// protocol, duipai's exit code, why).
const DIFFERENCES: &[(&str, &str, &str, i32, &str)] = &[
    (
        "integers",
        "two-tokens-wrong-first",
        "testlib",
        2,
        "`3 2` for 2: a checker that reads the whole output first (testlib's eof-first style) \
         says PE; icmp's style compares first and says WA",
    ),
    (
        "integers",
        "ff-answer",
        "kattis",
        1,
        "an answer file of `2\\f` is not one integer: duipai's checker fails, as testlib does, \
         where the default validator compares it as text",
    ),
    (
        "integers",
        "upper-word",
        "kattis",
        1,
        "an answer that is a word is not a duipai answer: the checker fails",
    ),
    (
        "reals",
        "ans-inf-out-inf",
        "kattis",
        1,
        "an answer of inf is not a shooting answer: the checker fails",
    ),
    (
        "reals",
        "ans-nan-out-nan",
        "kattis",
        1,
        "an answer of nan is not a shooting answer: the checker fails",
    ),
];

/// Undoes the tables' C escapes.
fn unescape(field: &str) -> Vec<u8> {
    let bytes = field.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            out.push(bytes[i]);
            i += 1;
            continue;
        }
        let (byte, len) = match bytes[i + 1] {
            b'n' => (b'\n', 2),
            b'r' => (b'\r', 2),
            b't' => (b'\t', 2),
            b'f' => (0x0C, 2),
            b'v' => (0x0B, 2),
            b'0' => (0, 2),
            b'\\' => (b'\\', 2),
            b'x' => {
                let hex = std::str::from_utf8(&bytes[i + 2..i + 4]).unwrap();
                (u8::from_str_radix(hex, 16).unwrap(), 4)
            }
            other => panic!("unknown escape \\{}", other as char),
        };
        out.push(byte);
        i += len;
    }
    out
}

/// One row: (name, answer, output or None for no output file, testlib code, ICPC code).
type Row = (String, Vec<u8>, Option<Vec<u8>>, i32, i32);

fn rows(table: &str) -> Vec<Row> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/recorded/{table}.tsv"));
    let text = fs::read_to_string(&path).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!(f.len(), 5, "{table}: {line}");
            let output = (f[2] != "<missing>").then(|| unescape(f[2]));
            let code = |s: &str| s.parse::<i32>().unwrap();
            (
                f[0].to_string(),
                unescape(f[1]),
                output,
                code(f[3]),
                code(f[4]),
            )
        })
        .collect()
}

/// The checker's exit codes on a row under (testlib, kattis), with `extra` arguments first.
fn verdicts(extra: &[&str], answer: &[u8], output: Option<&[u8]>) -> (i32, i32) {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("in"), "1\n").unwrap();
    fs::write(d.join("ans"), answer).unwrap();
    if let Some(output) = output {
        fs::write(d.join("out"), output).unwrap();
    }
    fs::create_dir(d.join("feedback")).unwrap();
    let checker = || Command::new(env!("CARGO_BIN_EXE_duipai-checker"));
    let testlib = checker()
        .args(extra)
        .args([d.join("in"), d.join("out"), d.join("ans")])
        .output()
        .unwrap();
    let mut kattis = checker()
        .args(extra)
        .args(["--protocol", "kattis"])
        .args([d.join("in"), d.join("ans"), d.join("feedback")])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    use std::io::Write;
    let _ = kattis
        .stdin
        .take()
        .unwrap()
        .write_all(output.unwrap_or_default());
    let kattis = kattis.wait().unwrap();
    (testlib.status.code().unwrap(), kattis.code().unwrap())
}

fn agrees_with_the_recorded_tools(table: &str, extra: &[&str]) {
    let mut disagreements = Vec::new();
    for (name, answer, output, testlib, icpc) in rows(table) {
        let (ours_testlib, ours_kattis) = verdicts(extra, &answer, output.as_deref());
        for (protocol, ours, theirs) in [
            ("testlib", ours_testlib, testlib),
            ("kattis", ours_kattis, icpc),
        ] {
            let expected = DIFFERENCES
                .iter()
                .find(|d| d.0 == table && d.1 == name && d.2 == protocol)
                .map_or(theirs, |d| d.3);
            if ours != expected {
                disagreements.push(format!(
                    "{table} {name} {protocol}: duipai-checker {ours}, expected {expected} \
                     (the real tool: {theirs})"
                ));
            }
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

#[test]
fn integers_are_judged_as_testlib_and_the_icpc_default_validator_judge_them() {
    agrees_with_the_recorded_tools("integers", &[]);
}

/// The real answers are read as a shooting answer (one real a line, within 1e-6): testlib's
/// rcmp6 with its 1e-15 slack under the testlib protocol, `float_tolerance 1e-6` without
/// slack under the Kattis one.
#[test]
fn reals_are_judged_as_rcmp6_and_the_icpc_default_validator_judge_them() {
    agrees_with_the_recorded_tools("reals", &["--problem", "shooting"]);
}

#[test]
fn every_listed_difference_names_a_recorded_row() {
    for (table, name, ..) in DIFFERENCES {
        assert!(
            rows(table).iter().any(|r| r.0 == *name),
            "{table} has no row {name}"
        );
    }
}
