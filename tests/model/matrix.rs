//! `judge`'s matrix and time limit (`submissions::matrix::judge_all`) on a runner that
//! answers each submission from a script, as hyperfine's mock executor does: every
//! submission's verdicts and its folder's check, time-limit-exceeded runs stopped at the cap,
//! the runs that bind the limit measured three times (five when they disagree) with the
//! fastest counting, and the limit derived by the format's rule. No process is started: the
//! end-to-end judge tests keep what needs real programs (compiling, the process runner's own
//! limits, the reports written to files).

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use duipai::answer::Expected as Answer;
use duipai::judge::{Decider, Runner, Verdict, scripted};
use duipai::report::matrix as report;
use duipai::run::{Execution, IoMode, Limits, RunError};
use duipai::submissions::limit::Multipliers;
use duipai::submissions::matrix::{self, Judged, Setting};
use duipai::submissions::{Expected, Outcome, Submission};
use duipai::suite::StoredCase;

/// What a submission does on a case.
#[derive(Clone, Debug)]
enum Act {
    /// Answers right, taking these CPU times (ms) on its first, second, ... run of the case
    /// (the last one again once they run out).
    Right(Vec<u64>),
    /// Answers wrong in this many ms.
    Wrong(u64),
    /// Dies of a signal.
    Crash,
    /// Runs until the CPU cap it is given stops it.
    Spins,
}

use Act::*;

/// The tests: a name, an input, its answer.
const TESTS: [(&str, &str, i64); 4] = [
    ("01", "1 1\n5\n1 1\n", 5),
    ("02", "2 1\n7 8\n1 2\n", 15),
    ("03", "3 1\n1 2 3\n1 3\n", 6),
    ("04", "4 1\n1 1 1 1\n2 4\n", 3),
];

/// Answers each submission (by its command's file name) from a table, each test by its
/// input; records every run's submission, test and CPU cap.
struct ScriptedRunner {
    table: Vec<(&'static str, [Act; 4])>,
    runs: Mutex<HashMap<(String, usize), Vec<Duration>>>,
}

impl ScriptedRunner {
    fn new(table: Vec<(&'static str, [Act; 4])>) -> ScriptedRunner {
        ScriptedRunner {
            table,
            runs: Mutex::new(HashMap::new()),
        }
    }

    /// The CPU caps `name` was run under on test `test`, in order.
    fn caps(&self, name: &str, test: usize) -> Vec<Duration> {
        let runs = self.runs.lock().unwrap();
        runs.get(&(name.to_string(), test))
            .cloned()
            .unwrap_or_default()
    }
}

impl Runner for ScriptedRunner {
    fn run(
        &self,
        program: &[OsString],
        input: &[u8],
        limits: &Limits,
        _io: &IoMode,
    ) -> Result<Execution, RunError> {
        let name = PathBuf::from(&program[0]);
        let name = name.file_name().unwrap().to_str().unwrap().to_string();
        let (_, acts) = self.table.iter().find(|(n, _)| *n == name).unwrap();
        let test = TESTS
            .iter()
            .position(|(_, i, _)| i.as_bytes() == input)
            .unwrap();
        let nth = {
            let mut runs = self.runs.lock().unwrap();
            let caps = runs.entry((name, test)).or_default();
            caps.push(limits.cpu);
            caps.len() - 1
        };
        let (act, cpu) = match &acts[test] {
            Right(times) => (
                scripted::Act::Prints(format!("{}\n", TESTS[test].2)),
                times[nth.min(times.len() - 1)],
            ),
            Wrong(ms) => (scripted::Act::Prints("-1\n".to_string()), *ms),
            Crash => (scripted::Act::Crashes, 3),
            Spins => (scripted::Act::Spins, limits.cpu.as_millis() as u64 + 4),
        };
        let ms = Duration::from_millis;
        Ok(scripted::execution(act, ms(cpu), ms(cpu + 2), limits))
    }
}

fn stored() -> Vec<StoredCase> {
    TESTS
        .iter()
        .map(|(name, input, answer)| StoredCase {
            name: name.to_string(),
            input: input.as_bytes().to_vec(),
            expected: Answer::integer(*answer),
        })
        .collect()
}

/// The submission `folder/file`, ready to run.
fn submission(expected: Expected, file: &str) -> matrix::Prepared {
    let name = format!("{}/{file}", expected.folder());
    let path = PathBuf::from("submissions").join(&name);
    let command = vec![path.clone().into_os_string()];
    (
        Submission {
            name,
            path,
            expected,
        },
        Ok(command),
    )
}

/// Judges `submissions` on the four tests with `runner`, the limit `given` (from
/// duipai.toml) or derived, two at a time.
fn judge(
    runner: &ScriptedRunner,
    submissions: Vec<matrix::Prepared>,
    given: Option<u64>,
) -> Judged {
    let setting = Setting {
        runner,
        decider: &Decider::Compare,
        limits: Limits {
            cpu: Duration::from_secs(1),
            wall: Duration::from_secs(3),
            memory_bytes: 256 << 20,
            output_bytes: 1 << 20,
            processes: 8,
        },
        io: &IoMode::Stdio,
        jobs: 2,
        given: given.map(|ms| {
            (
                Duration::from_millis(ms),
                "duipai.toml or --time-limit".to_string(),
            )
        }),
        multipliers: Multipliers::default(),
        measure_cap: Duration::from_secs(10),
    };
    matrix::judge_all(&stored(), submissions, &setting, &mut |_, _| {}).unwrap()
}

/// A submission's verdicts, the format's (as the JSON summary gives them).
fn codes(judged: &Judged, name: &str) -> Vec<&'static str> {
    let row = judged
        .rows
        .iter()
        .find(|r| r.submission.name == name)
        .unwrap();
    row.cells.iter().map(|c| c.outcome.code()).collect()
}

fn ms(times: &[u64]) -> Vec<Duration> {
    times.iter().map(|&t| Duration::from_millis(t)).collect()
}

/// The five kinds of submission of a setter's folder, as examples/rangesum has them.
fn rangesum_like() -> (ScriptedRunner, Vec<matrix::Prepared>) {
    let runner = ScriptedRunner::new(vec![
        ("sol.cpp", [R(10), R(12), R(15), R(140)]),
        ("sol.py", [R(40), R(45), R(60), Right(vec![600, 640, 610])]),
        ("int_sums.cpp", [R(10), R(10), Wrong(14), Wrong(120)]),
        ("naive.cpp", [R(10), R(11), R(30), Spins]),
        ("fixed_array.cpp", [R(10), R(10), R(12), Crash]),
    ]);
    let submissions = vec![
        submission(Expected::Accepted, "sol.cpp"),
        submission(Expected::Accepted, "sol.py"),
        submission(Expected::WrongAnswer, "int_sums.cpp"),
        submission(Expected::TimeLimitExceeded, "naive.cpp"),
        submission(Expected::RunTimeError, "fixed_array.cpp"),
    ];
    (runner, submissions)
}

/// `time` is `ms` milliseconds, give or take the nanoseconds of a product of floats.
fn assert_near(time: Duration, ms: u64) {
    let diff = time.abs_diff(Duration::from_millis(ms));
    assert!(diff < Duration::from_micros(1), "{time:?}, not {ms} ms");
}

#[allow(non_snake_case)]
fn R(ms: u64) -> Act {
    Right(vec![ms])
}

#[test]
fn every_submission_is_judged_on_every_test_against_what_its_folder_expects() {
    let (runner, submissions) = rangesum_like();
    let judged = judge(&runner, submissions, Some(2000));
    assert_eq!(judged.tests, ["01", "02", "03", "04"]);
    assert_eq!(codes(&judged, "accepted/sol.cpp"), ["AC"; 4]);
    assert_eq!(codes(&judged, "accepted/sol.py"), ["AC"; 4]);
    assert_eq!(
        codes(&judged, "wrong_answer/int_sums.cpp"),
        ["AC", "AC", "WA", "WA"]
    );
    assert_eq!(
        codes(&judged, "time_limit_exceeded/naive.cpp"),
        ["AC", "AC", "AC", "TLE"]
    );
    assert_eq!(
        codes(&judged, "run_time_error/fixed_array.cpp"),
        ["AC", "AC", "AC", "RTE"]
    );
    assert!(judged.rows.iter().all(|r| r.check.is_ok()));
    assert!(judged.ok(), "{:?}", judged.limit.violations());
    let limit = &judged.limit;
    assert_eq!(limit.in_force, Duration::from_secs(2));
    assert_eq!(limit.source, "duipai.toml or --time-limit");

    // Every run is capped at the limit × time_limit_to_tle (1.5), and a little more: a run
    // that spins is stopped there and known to take at least that long.
    let cap = runner.caps("naive.cpp", 3)[0];
    assert_near(cap, 3150);
    assert_eq!(runner.caps("fixed_array.cpp", 3), [cap]);
    assert_eq!(runner.caps("sol.cpp", 0), [cap]);
    let upper = limit.upper.as_ref().unwrap();
    assert_eq!(upper.submission, "time_limit_exceeded/naive.cpp");
    assert_eq!(upper.test, "04");
    assert!(upper.at_least && upper.time >= cap, "{upper:?}");
    let spun = &judged.rows[3].cells[3];
    assert!(spun.stopped && spun.verdict == Verdict::TimeLimitExceeded);
    // Its line says the limit (2 s), and the cap only as where it was stopped.
    assert_eq!(
        spun.detail,
        "CPU 3.154 s, over the limit 2 s (stopped at 3.150 s)"
    );

    // The slowest accepted run binds the limit from below: measured three times, the
    // fastest counts, and the rule derives 2 × 0.6 s, rounded up to whole seconds.
    let lower = limit.lower.as_ref().unwrap();
    assert_eq!(
        (lower.submission.as_str(), lower.test.as_str()),
        ("accepted/sol.py", "04")
    );
    assert_eq!(lower.measured, ms(&[600, 640, 610]));
    assert_eq!(lower.time, Duration::from_millis(600));
    assert_eq!(limit.derived, Some(Duration::from_secs(2)));
    assert_eq!(lower.disagreement(), None);
    assert_eq!(
        lower.runs_note().unwrap(),
        "fastest of 3 runs: 0.600, 0.640, 0.610 s, spread 7%"
    );
    // Runs within half the slowest's time are measured again (sol.cpp's 140 ms is not), the
    // others and the runs of the submissions that may time out once.
    assert_eq!(runner.caps("sol.py", 3).len(), 3);
    assert_eq!(runner.caps("sol.cpp", 3).len(), 1);
    assert_eq!(runner.caps("naive.cpp", 2).len(), 1);
    assert!(judged.rows[0].cells[3].measured.is_empty());
}

#[test]
fn measurements_that_disagree_are_taken_twice_more_and_said_to_make_the_limit_unsteady() {
    let (mut runner, submissions) = rangesum_like();
    runner.table[1].1[3] = Right(vec![600, 900, 700, 650, 620]);
    let judged = judge(&runner, submissions, None);
    let limit = &judged.limit;
    let lower = limit.lower.as_ref().unwrap();
    assert_eq!(lower.measured, ms(&[600, 900, 700, 650, 620]));
    assert_eq!(lower.time, Duration::from_millis(600));
    let why = lower.disagreement().unwrap();
    assert_eq!(
        why,
        "the runs that bind it disagree: accepted/sol.py on 04 took 0.600, 0.900, 0.700, \
         0.650, 0.620 s, measured again as the first three disagreed, 50% apart (more than 10%)"
    );
    assert!(limit.unsteady().contains(&why), "{:?}", limit.unsteady());
    let lines = report::limit_lines(limit);
    assert!(
        lines.contains(&format!("the derived limit may be too high: {why}")),
        "{lines:#?}"
    );
    // The JSON summary carries every measurement, the fastest as the bound's time, and the
    // spread between the extremes.
    let json = serde_json::to_value(report::json(&judged, Duration::ZERO)).unwrap();
    let bound = &json["lower_bound"];
    assert_eq!(bound["cpu_ms"], 600);
    assert_eq!(
        bound["measured_ms"],
        serde_json::json!([600, 900, 700, 650, 620])
    );
    assert!(
        (bound["spread"].as_f64().unwrap() - 0.5).abs() < 1e-9,
        "{bound}"
    );
    assert_eq!(json["unsteady"][0], why.as_str());

    // Times that disagree by less than 20 ms are a timer's tick apart, not a busy machine.
    let (mut runner, submissions) = rangesum_like();
    runner.table[1].1[3] = Right(vec![100, 118, 105]);
    runner.table[0].1[3] = R(10);
    let judged = judge(&runner, submissions, None);
    assert_eq!(judged.limit.lower.as_ref().unwrap().measured.len(), 3);
    assert!(
        judged
            .limit
            .unsteady()
            .iter()
            .all(|w| !w.contains("disagree"))
    );
}

#[test]
fn without_a_given_limit_the_format_rule_sets_it_and_the_others_are_judged_by_it() {
    let (runner, submissions) = rangesum_like();
    let judged = judge(&runner, submissions, None);
    let limit = &judged.limit;
    assert_eq!(limit.source, "the format's rule");
    assert_eq!(limit.in_force, Duration::from_secs(2));
    assert_eq!(limit.derived, Some(limit.in_force));
    // The submissions that bound it from below ran under the generous measuring cap; the
    // others under the derived limit's.
    assert_eq!(runner.caps("sol.cpp", 0), [Duration::from_secs(10)]);
    assert_near(runner.caps("naive.cpp", 3)[0], 3150);
    assert!(judged.ok());
    let json = serde_json::to_value(report::json(&judged, Duration::ZERO)).unwrap();
    assert_eq!(json["time_limit_ms"], json["derived_time_limit_ms"]);
    assert_eq!(
        json["upper_bound"]["submission"],
        "time_limit_exceeded/naive.cpp"
    );

    // An accepted run over the derived limit's rounding: 2 × 1.2 s is 2.4, so 3 s.
    let (mut runner, submissions) = rangesum_like();
    runner.table[1].1[3] = R(1200);
    let judged = judge(&runner, submissions, None);
    assert_eq!(judged.limit.in_force, Duration::from_secs(3));
    assert_near(runner.caps("naive.cpp", 3)[0], 4725);
}

#[test]
fn a_submission_that_does_not_do_what_its_folder_says_fails_the_judging() {
    // The accepted submission is over the limit on the last test (but under the cap), and
    // the slow one is fast enough.
    let runner = ScriptedRunner::new(vec![
        ("sol.cpp", [R(10), R(12), R(15), R(1300)]),
        ("naive.cpp", [R(10), R(11), R(30), R(50)]),
    ]);
    let judged = judge(
        &runner,
        vec![
            submission(Expected::Accepted, "sol.cpp"),
            submission(Expected::TimeLimitExceeded, "naive.cpp"),
        ],
        Some(1000),
    );
    assert!(!judged.ok());
    assert_eq!(
        codes(&judged, "accepted/sol.cpp"),
        ["AC", "AC", "AC", "TLE"]
    );
    // A run slower than the limit in force is a TLE by that limit, whatever the cap.
    let cell = &judged.rows[0].cells[3];
    assert_eq!(
        (cell.outcome, cell.verdict),
        (Outcome::TLE, Verdict::TimeLimitExceeded)
    );
    assert_eq!(cell.detail, "CPU 1.300 s, over the limit 1 s");
    assert_eq!(
        judged.rows[0].check,
        Err("TLE on 1 test (accepted expects AC on every test)".to_string())
    );
    assert_eq!(
        judged.rows[1].check,
        Err(
            "AC on every test (time_limit_exceeded expects TLE on some test, AC on the others)"
                .to_string()
        )
    );
    // Both break the format's rule, and the report says how.
    assert_eq!(
        judged.limit.violations(),
        [
            "accepted/sol.cpp takes 1.300 s on 04, and 1.300 s × 2 is more than the limit 1 s",
            "time_limit_exceeded/naive.cpp is slowest on 04 with 0.050 s, less than the limit \
             1 s × 1.5 = 1.500 s: a judge's machine a little faster accepts it"
        ]
    );
}
