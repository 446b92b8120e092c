//! Snapshots (insta) of every report, built in process from fixed engine results: the human
//! lines and blocks, `test --json`, JUnit, and `judge`'s matrix, JSON, JUnit and HTML page,
//! the matrix judged by `submissions::matrix::judge_all` on a runner that answers each
//! submission from a table (no process started). A changed rendering shows here as a diff
//! to review (`cargo insta review`), not as a test that asserts one substring.

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use crate::judge::scripted::{self, Act};
use crate::judge::{Decider, Runner, Verdict, judge_case};
use crate::problem::{CHESS, GenParams, Instance, Spec};
use crate::run::{Execution, IoMode, Limits, RunError};
use crate::submissions::matrix::{self, Judged, Setting};
use crate::submissions::{Expected, Multipliers, Submission};
use crate::suite::StoredCase;

use super::{CaseRecord, Styles};

fn limits() -> Limits {
    Limits {
        cpu: Duration::from_secs(1),
        wall: Duration::from_secs(3),
        memory_bytes: 256 << 20,
        output_bytes: 1 << 20,
        processes: 8,
    }
}

/// Three chess cases, from fixed seeds.
fn cases() -> Vec<(String, Box<dyn Instance>)> {
    let spec = Spec::new(&CHESS, &GenParams::default()).unwrap();
    [3, 5, 8]
        .into_iter()
        .map(|seed| (format!("{seed}.in"), spec.generate(seed)))
        .collect()
}

/// What a submission does on a case: its CPU time, and whether it answers, answers wrong,
/// crashes or runs out of time.
#[derive(Clone, Copy)]
enum Behaviour {
    Right(u64),
    Wrong(u64),
    Crash,
    Slow,
}

/// An execution as the runner would return it, with fixed figures.
fn execution(behaviour: Behaviour, answer: &str, limits: &Limits) -> Execution {
    let (act, cpu) = match behaviour {
        Behaviour::Right(ms) => (Act::Prints(answer.to_string()), ms),
        Behaviour::Wrong(ms) => (Act::Prints("-1\n".to_string()), ms),
        Behaviour::Crash => (Act::Crashes, 12),
        Behaviour::Slow => (Act::Spins, limits.cpu.as_millis() as u64 + 10),
    };
    let ms = Duration::from_millis;
    let mut e = scripted::execution(act, ms(cpu), ms(cpu + 3), limits);
    e.peak_memory_bytes = Some(3 << 20);
    if matches!(behaviour, Behaviour::Crash) {
        e.stderr = b"Segmentation fault\n".to_vec();
        e.stderr_bytes = e.stderr.len() as u64;
    }
    e
}

/// Answers each submission (by its command's file name) from a table, each case by its
/// input: no process is started.
struct TableRunner {
    table: Vec<(&'static str, [Behaviour; 3])>,
    cases: Vec<(Vec<u8>, String)>,
}

impl Runner for TableRunner {
    fn run(
        &self,
        program: &[OsString],
        input: &[u8],
        limits: &Limits,
        _io: &IoMode,
    ) -> Result<Execution, RunError> {
        let name = PathBuf::from(&program[0]);
        let name = name.file_name().unwrap().to_str().unwrap();
        let (_, behaviours) = self.table.iter().find(|(n, _)| *n == name).unwrap();
        let case = self.cases.iter().position(|(i, _)| i == input).unwrap();
        Ok(execution(behaviours[case], &self.cases[case].1, limits))
    }
}

fn judged() -> Judged {
    use Behaviour::*;
    let cases = cases();
    let runner = TableRunner {
        table: vec![
            ("fast.cpp", [Right(120), Right(150), Right(90)]),
            ("steady.py", [Right(310), Right(280), Right(300)]),
            ("off_by_one.cpp", [Right(100), Wrong(110), Right(95)]),
            ("loops.cpp", [Right(200), Slow, Slow]),
            ("crashes.cpp", [Crash, Right(50), Right(40)]),
        ],
        cases: cases
            .iter()
            .map(|(_, c)| (c.to_input().into_bytes(), c.answer_text()))
            .collect(),
    };
    let stored: Vec<StoredCase> = cases
        .iter()
        .map(|(name, c)| StoredCase {
            name: name.clone(),
            input: c.to_input().into_bytes(),
            expected: c.expected().unwrap(),
        })
        .collect();
    let submission = |expected: Expected, file: &str| {
        let name = format!("{}/{file}", expected.folder());
        let path = PathBuf::from("submissions").join(&name);
        (
            Submission {
                name,
                path: path.clone(),
                expected,
            },
            Ok(vec![path.into_os_string()]),
        )
    };
    let submissions = vec![
        submission(Expected::Accepted, "fast.cpp"),
        submission(Expected::Accepted, "steady.py"),
        submission(Expected::WrongAnswer, "off_by_one.cpp"),
        submission(Expected::TimeLimitExceeded, "loops.cpp"),
        submission(Expected::RunTimeError, "crashes.cpp"),
        (
            Submission {
                name: "accepted/broken.cpp".to_string(),
                path: PathBuf::from("submissions/accepted/broken.cpp"),
                expected: Expected::Accepted,
            },
            Err("broken.cpp:3:1: error: expected ';' before '}' token".to_string()),
        ),
    ];
    let setting = Setting {
        runner: &runner,
        decider: &Decider::Compare,
        limits: limits(),
        io: &IoMode::Stdio,
        jobs: 1,
        given: Some((Duration::from_secs(1), "problem.yaml".to_string())),
        multipliers: Multipliers::default(),
        measure_cap: Duration::from_secs(10),
    };
    let mut judged = matrix::judge_all(&stored, submissions, &setting, &mut |_, _| {}).unwrap();
    // What the machine did while the binding runs were measured again is this machine's.
    judged.limit.machine = None;
    judged
}

/// The three cases judged as `duipai test` judges them, on fixed executions: accepted, wrong
/// and crashed.
fn records() -> Vec<CaseRecord> {
    use Behaviour::*;
    let cases = cases();
    let runner = TableRunner {
        table: vec![("sol.cpp", [Right(120), Wrong(80), Crash])],
        cases: cases
            .iter()
            .map(|(_, c)| (c.to_input().into_bytes(), c.answer_text()))
            .collect(),
    };
    let program = [OsString::from("sol.cpp")];
    cases
        .iter()
        .map(|(name, case)| {
            let input = case.to_input().into_bytes();
            let expected = case.expected().unwrap();
            let outcome = judge_case(
                &runner,
                &program,
                &input,
                &expected,
                &limits(),
                &IoMode::Stdio,
                &Decider::Compare,
            )
            .unwrap();
            CaseRecord::new(name, &case.answer_text(), &outcome)
        })
        .collect()
}

#[test]
fn human_lines_and_failure_blocks() {
    let records = records();
    assert_eq!(
        records.iter().map(|r| r.verdict).collect::<Vec<_>>(),
        [
            Verdict::Accepted,
            Verdict::WrongAnswer,
            Verdict::RuntimeError
        ]
    );
    let mut text = String::new();
    for record in &records {
        text.push_str(&super::human_line(record, &Styles::plain()));
        text.push('\n');
        if !record.verdict.is_accepted() {
            text.push_str(&super::failure_block(record));
        }
    }
    text.push_str(&super::summary(&records));
    insta::assert_snapshot!(text);
}

#[test]
fn test_json_summary() {
    let records = records();
    let summary = super::json::TestSummary {
        status: "failed",
        problem: "chess",
        cases: &records,
        passed: 1,
        failed: 2,
        elapsed_ms: 420,
        slowest_case: Some("3.in"),
        slowest_cpu_ms: Some(120),
        accepted_on_rerun: 0,
    };
    insta::assert_snapshot!(super::json::line(&summary));
}

#[test]
fn test_junit_report() {
    let xml = super::junit::junit_xml("duipai test", &records(), Duration::from_millis(420));
    insta::assert_snapshot!(without_timestamp(&xml.unwrap()));
}

#[test]
fn judge_matrix_table_and_limit() {
    let judged = judged();
    let mut text = super::matrix::table(&judged);
    text.push('\n');
    for line in super::matrix::failures(&judged) {
        text.push_str(&line);
        text.push('\n');
    }
    for line in super::matrix::limit_lines(&judged.limit) {
        text.push_str(&line);
        text.push('\n');
    }
    insta::assert_snapshot!(text);
}

#[test]
fn judge_json() {
    let judged = judged();
    let json = super::matrix::json(&judged, Duration::from_millis(1500));
    insta::assert_snapshot!(serde_json::to_string_pretty(&json).unwrap());
}

#[test]
fn judge_junit() {
    let judged = judged();
    let cases = super::matrix::junit_cases(&judged);
    let xml = super::junit::render("duipai judge", &cases, Duration::from_millis(1500)).unwrap();
    insta::assert_snapshot!(without_timestamp(&xml));
}

#[test]
fn judge_html_page() {
    insta::assert_snapshot!(super::html::page(&judged(), "rangesum"));
}

/// A JUnit report with its `timestamp` attributes (the moment it was written) replaced.
fn without_timestamp(xml: &str) -> String {
    let mut out = String::new();
    let mut rest = xml;
    while let Some(at) = rest.find("timestamp=\"") {
        let value = at + "timestamp=\"".len();
        let end = value + rest[value..].find('"').unwrap();
        out.push_str(&rest[..value]);
        out.push_str("[timestamp]");
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}
