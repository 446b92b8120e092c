//! What `duipai judge` shows of the matrix of submissions and tests: a short table for
//! people, one JSON object for scripts, and a JUnit report (a test case a submission); the
//! HTML page is [`super::html`].

use std::fmt::Write;
use std::time::Duration;

use serde::Serialize;

use super::junit::{JunitCase, JunitFailure};
use crate::submissions::limit::{TimeLimit, show};
use crate::submissions::{Cell, Expected, Judged, Outcome, Row, seconds};

/// The human table: a line a submission with what it expects, what it got, its slowest run
/// and a letter a test (`.` AC, `W`, `T`, `R`), then the failures and the time limit.
pub fn table(judged: &Judged) -> String {
    let width = judged
        .rows
        .iter()
        .map(|r| r.submission.name.chars().count())
        .max()
        .unwrap_or(10)
        .max(10);
    let mut out = format!(
        "{:<width$}  {:<8}  {:<16}  {:>9}  tests\n",
        "submission", "expected", "got", "slowest"
    );
    for row in &judged.rows {
        let _ = writeln!(
            out,
            "{:<width$}  {:<8}  {:<16}  {:>9}  {}{}",
            row.submission.name,
            expected_code(row.submission.expected),
            got(row),
            slowest(row),
            letters(row),
            if row.check.is_ok() {
                ""
            } else {
                "  <- not as expected"
            }
        );
    }
    out
}

/// The folder's verdict in the table: `AC`, `WA`, `TLE`, `RTE`, `rejected`, `brute`.
pub fn expected_code(expected: Expected) -> &'static str {
    match expected {
        Expected::Accepted => "AC",
        Expected::WrongAnswer => "WA",
        Expected::TimeLimitExceeded => "TLE",
        Expected::RunTimeError => "RTE",
        Expected::Rejected => "rejected",
        Expected::BruteForce => "brute",
        Expected::TimeLimitOrAccepted => "TLE/AC",
        Expected::MemoryLimitExceeded => "MLE",
        Expected::TimeOrMemoryLimitExceeded => "TLE/MLE",
    }
}

/// What a submission got: `AC`, `WA on 3`, `TLE on 1, WA on 2`, `compile error`.
pub fn got(row: &Row) -> String {
    if row.broken.is_some() {
        return "not prepared".to_string();
    }
    let mut counts: Vec<(Outcome, usize)> = Vec::new();
    for cell in &row.cells {
        match counts.iter_mut().find(|(o, _)| *o == cell.outcome) {
            Some((_, n)) => *n += 1,
            None => counts.push((cell.outcome, 1)),
        }
    }
    let failing: Vec<String> = counts
        .iter()
        .filter(|(o, _)| *o != Outcome::AC)
        .map(|(o, n)| format!("{} on {n}", o.code()))
        .collect();
    if failing.is_empty() {
        "AC".to_string()
    } else {
        failing.join(", ")
    }
}

/// The slowest run's CPU time, `≥` when the cap stopped it.
fn slowest(row: &Row) -> String {
    match row.slowest() {
        Some((time, at)) if row.cells[at].stopped => format!(">={:.2} s", time.as_secs_f64()),
        Some((time, _)) => seconds(time),
        None => "-".to_string(),
    }
}

fn letters(row: &Row) -> String {
    row.cells.iter().map(|c| c.outcome.letter()).collect()
}

/// The lines under the table: each submission not as expected and why, with its first
/// failing test.
pub fn failures(judged: &Judged) -> Vec<String> {
    let mut lines = Vec::new();
    for row in &judged.rows {
        let Err(why) = &row.check else { continue };
        let first = row
            .cells
            .iter()
            .zip(&judged.tests)
            .find(|(c, _)| c.outcome != Outcome::AC)
            .map(|(c, test)| format!("; first on {test}: {} {}", c.code(), c.detail))
            .unwrap_or_default();
        lines.push(format!("{}: {why}{first}", row.submission.name));
    }
    lines
}

/// The time limit in force and what the format's rule says of it.
pub fn limit_lines(limit: &TimeLimit) -> Vec<String> {
    let m = &limit.multipliers;
    let mut lines = vec![format!(
        "time limit {} ({})",
        show(limit.in_force),
        limit.source
    )];
    if let (Some(derived), Some(lower)) = (limit.derived, &limit.lower) {
        lines.push(format!(
            "the format's rule gives {}: the slowest run that may not time out, {:.3} s \
             ({} on {}{}), × ac_to_time_limit {} = {:.3} s, rounded up to a multiple of {} s",
            show(derived),
            lower.time.as_secs_f64(),
            lower.submission,
            lower.test,
            lower
                .runs_note()
                .map(|n| format!("; {n}"))
                .unwrap_or_default(),
            m.ac_to_time_limit,
            lower.time.as_secs_f64() * m.ac_to_time_limit,
            m.resolution
        ));
    }
    if let Some(upper) = &limit.upper {
        let against = match m.package_limit {
            true => format!(
                "the package's limit is {:.3} s, and a run over it times out",
                limit.in_force.as_secs_f64()
            ),
            false => format!(
                "the limit × time_limit_to_tle {} is {:.3} s",
                m.time_limit_to_tle,
                limit.in_force.as_secs_f64() * m.time_limit_to_tle
            ),
        };
        lines.push(format!(
            "the fastest time-limit-exceeded submission, {}, runs {}{:.3} s on {} ({against})",
            upper.submission,
            if upper.at_least { "at least " } else { "" },
            upper.time.as_secs_f64(),
            upper.test,
        ));
    }
    let broken = match m.package_limit {
        true => "the package's limit does not hold",
        false => "the limit breaks the format's rule",
    };
    lines.extend(
        limit
            .violations()
            .into_iter()
            .map(|v| format!("{broken}: {v}")),
    );
    if limit.derived.is_some() {
        lines.extend(
            limit
                .unsteady()
                .into_iter()
                .map(|why| format!("the derived limit may be too high: {why}")),
        );
    }
    lines
}

/// The JSON summary of a judge run.
#[derive(Serialize)]
pub struct JudgeSummary<'a> {
    pub status: &'static str,
    pub tests: &'a [String],
    pub time_limit_ms: u64,
    pub time_limit_source: &'a str,
    pub derived_time_limit_ms: Option<u64>,
    /// The slowest run of the submissions that may not time out.
    pub lower_bound: Option<BoundJson<'a>>,
    /// The fastest slowest-run of the time-limit-exceeded submissions.
    pub upper_bound: Option<BoundJson<'a>>,
    pub multipliers: crate::submissions::Multipliers,
    /// Where the limit in force breaks the format's rule.
    pub violations: Vec<String>,
    /// Why the derived limit may not be what a quiet machine gives (`--write-time-limit`
    /// then refuses): the binding run's measurements disagree, the machine was busy.
    pub unsteady: Vec<String>,
    /// The machine while the binding runs were measured again.
    pub machine: Option<&'a crate::submissions::machine::Machine>,
    pub submissions: Vec<SubmissionJson<'a>>,
    pub elapsed_ms: u64,
}

/// A run that bounds the time limit, in the JSON summary.
#[derive(Serialize)]
pub struct BoundJson<'a> {
    pub submission: &'a str,
    pub test: &'a str,
    pub cpu_ms: u64,
    /// Stopped at the measuring cap: it runs at least that long.
    pub at_least: bool,
    /// Every CPU time measured of the run, when it was measured more than once (`cpu_ms` is
    /// then the fastest).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub measured_ms: Vec<u64>,
    /// How far the slowest measurement is above the fastest, as a share of it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spread: Option<f64>,
}

fn bound_json(bound: &crate::submissions::limit::Bound) -> BoundJson<'_> {
    BoundJson {
        submission: &bound.submission,
        test: &bound.test,
        cpu_ms: bound.time.as_millis() as u64,
        at_least: bound.at_least,
        measured_ms: bound
            .measured
            .iter()
            .map(|t| t.as_millis() as u64)
            .collect(),
        spread: bound.spread(),
    }
}

/// One submission in the JSON summary.
#[derive(Serialize)]
pub struct SubmissionJson<'a> {
    pub name: &'a str,
    pub expected: Expected,
    pub ok: bool,
    /// What it got instead of what its folder expects.
    pub problem: Option<&'a str>,
    pub results: Vec<CellJson<'a>>,
}

/// One run in the JSON summary.
#[derive(Serialize)]
pub struct CellJson<'a> {
    pub test: &'a str,
    pub verdict: Outcome,
    pub detail: &'a str,
    pub cpu_ms: u64,
    pub wall_ms: u64,
    pub stopped: bool,
}

/// The summary as one JSON object.
pub fn json(judged: &Judged, elapsed: Duration) -> JudgeSummary<'_> {
    let limit = &judged.limit;
    JudgeSummary {
        status: if judged.ok() { "ok" } else { "failed" },
        tests: &judged.tests,
        time_limit_ms: limit.in_force.as_millis() as u64,
        time_limit_source: &limit.source,
        derived_time_limit_ms: limit.derived.map(|d| d.as_millis() as u64),
        lower_bound: limit.lower.as_ref().map(bound_json),
        upper_bound: limit.upper.as_ref().map(bound_json),
        multipliers: limit.multipliers,
        violations: limit.violations(),
        unsteady: limit.unsteady(),
        machine: limit.machine.as_ref(),
        submissions: judged
            .rows
            .iter()
            .map(|row| SubmissionJson {
                name: &row.submission.name,
                expected: row.submission.expected,
                ok: row.check.is_ok(),
                problem: row.check.as_ref().err().map(String::as_str),
                results: row
                    .cells
                    .iter()
                    .zip(&judged.tests)
                    .map(|(cell, test)| cell_json(cell, test))
                    .collect(),
            })
            .collect(),
        elapsed_ms: elapsed.as_millis() as u64,
    }
}

fn cell_json<'a>(cell: &'a Cell, test: &'a str) -> CellJson<'a> {
    CellJson {
        test,
        verdict: cell.outcome,
        detail: &cell.detail,
        cpu_ms: cell.cpu.as_millis() as u64,
        wall_ms: cell.wall.as_millis() as u64,
        stopped: cell.stopped,
    }
}

/// The JUnit test cases: one a submission, failed when it did not get what its folder
/// expects; and one for the time limit when it breaks the format's rule.
pub fn junit_cases(judged: &Judged) -> Vec<JunitCase> {
    let mut cases: Vec<JunitCase> = judged
        .rows
        .iter()
        .map(|row| JunitCase {
            name: row.submission.name.clone(),
            time: row.cells.iter().map(|c| c.wall).sum(),
            failure: row.check.as_ref().err().map(|why| JunitFailure {
                error: false,
                kind: got(row),
                message: why.clone(),
                description: row
                    .cells
                    .iter()
                    .zip(&judged.tests)
                    .map(|(c, t)| {
                        format!(
                            "{t}: {} {:.3} s {}\n",
                            c.outcome.code(),
                            c.cpu.as_secs_f64(),
                            c.detail
                        )
                    })
                    .collect(),
            }),
            system_out: letters(row),
            system_err: String::new(),
        })
        .collect();
    let broken = judged.limit.violations();
    cases.push(JunitCase {
        name: format!("time limit {}", show(judged.limit.in_force)),
        failure: (!broken.is_empty()).then(|| JunitFailure {
            error: false,
            kind: "time limit".to_string(),
            message: broken.join("; "),
            description: String::new(),
        }),
        system_out: limit_lines(&judged.limit).join("\n"),
        ..JunitCase::default()
    });
    cases
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::submissions::Multipliers;
    use crate::submissions::limit::Bound;

    fn limit(multipliers: Multipliers, tle_ms: u64) -> TimeLimit {
        TimeLimit {
            in_force: Duration::from_secs(1),
            source: "problem.xml".into(),
            derived: None,
            lower: None,
            upper: Some(Bound {
                time: Duration::from_millis(tle_ms),
                submission: "solutions/slow.cpp".into(),
                test: "07".into(),
                at_least: false,
                measured: Vec::new(),
            }),
            multipliers,
            machine: None,
        }
    }

    #[test]
    fn a_package_limit_is_spoken_of_as_the_packages() {
        let lines = limit_lines(&limit(Multipliers::polygon(), 1070));
        assert_eq!(
            lines[1],
            "the fastest time-limit-exceeded submission, solutions/slow.cpp, runs 1.070 s on 07 \
             (the package's limit is 1.000 s, and a run over it times out)"
        );
        assert_eq!(lines.len(), 2, "{lines:?}");
        let within = limit_lines(&limit(Multipliers::polygon(), 900));
        assert_eq!(
            within[2],
            "the package's limit does not hold: solutions/slow.cpp is slowest on 07 with 0.900 s, \
             within the package's limit 1 s"
        );
        // The ICPC format's words where its rule applies.
        let icpc = limit_lines(&limit(Multipliers::default(), 1070));
        assert!(
            icpc[1].ends_with("(the limit × time_limit_to_tle 1.5 is 1.500 s)"),
            "{icpc:?}"
        );
        assert!(
            icpc[2]
                .starts_with("the limit breaks the format's rule: solutions/slow.cpp is slowest"),
            "{icpc:?}"
        );
    }
}
