//! Reporters: what `test` and `stress` show of their results, for people ([`human`]), for
//! scripts ([`json`]) and for CI systems ([`junit`]). The engines decide; these only render.

use serde::Serialize;

use crate::judge::Verdict;

pub mod diff;
pub mod html;
pub mod human;
pub mod json;
pub mod junit;
pub mod matrix;
pub mod styles;

#[cfg(test)]
mod snapshots;

pub use styles::Styles;

/// One judged case, as every report shows it.
#[derive(Clone, Debug, Serialize)]
pub struct CaseRecord {
    /// The case's name: its path relative to the tested directory, or `seed N`.
    pub name: String,
    pub verdict: Verdict,
    /// Why the verdict, in a few words (`expected 2, found 3`, `killed by SIGSEGV`).
    pub detail: String,
    /// The expected answer as text without its final line break: whole when short, else an
    /// excerpt (its first lines, the lines around the first difference, its last lines, with
    /// `… N lines not shown …` between them and long lines cut).
    pub expected: String,
    /// The expected answer's size in bytes.
    pub expected_bytes: u64,
    /// The program's output without its final line break, as `expected`: an excerpt as
    /// `expected` is, or its first [`ACTUAL_SHOWN_BYTES`] bytes.
    pub actual: String,
    /// The program's output's size in bytes.
    pub actual_bytes: u64,
    pub cpu_ms: u64,
    /// Every CPU time measured, when the case was run again near the limit.
    pub cpu_runs_ms: Vec<u64>,
    pub wall_ms: u64,
    /// Peak resident memory; `None` (JSON `null`) if it could not be measured.
    pub memory_kib: Option<u64>,
    /// The last lines the program wrote to stderr ([`crate::text::stderr_tail`]), empty if none.
    pub stderr: String,
    /// On an interactive problem, the exchange between the program and the interactor, a
    /// line of it a line: `> ` before what the program wrote, `< ` before what it read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transcript: Option<String>,
    /// How many of the program's processes were still running when it had exited (a daemon,
    /// an orphan): duipai killed them. Absent from JSON when none was.
    #[serde(skip_serializing_if = "is_zero")]
    pub left_behind: u32,
    /// What of the run this machine could not count (without a cgroup): its limit may not
    /// have held. Absent from JSON when everything was counted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uncounted: Option<String>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

pub use crate::text::stderr_tail;

/// The stderr tail indented under a case in the human report, or nothing.
pub fn stderr_block(tail: &str) -> String {
    tail.lines().map(|l| format!("    stderr| {l}\n")).collect()
}

/// How many lines of the exchange the human reports show: the last ones, where an
/// interactive program usually goes wrong.
pub const TRANSCRIPT_LINES: usize = 20;

/// The end of an exchange indented under a case in the human report, or nothing.
pub fn transcript_block(transcript: &str) -> String {
    let lines: Vec<&str> = transcript.lines().collect();
    let shown = &lines[lines.len().saturating_sub(TRANSCRIPT_LINES)..];
    let mut block = String::new();
    if shown.len() < lines.len() {
        block.push_str(&format!(
            "    exchange| … {} earlier lines\n",
            lines.len() - shown.len()
        ));
    }
    for line in shown {
        block.push_str(&format!("    exchange| {line}\n"));
    }
    block
}

/// What the human report shows under a case that failed: its stderr's end, and the end of
/// the exchange on an interactive problem.
pub fn failure_block(record: &CaseRecord) -> String {
    let mut block = stderr_block(&record.stderr);
    if let Some(transcript) = &record.transcript {
        block.push_str(&transcript_block(transcript));
    }
    block
}

/// Counts of each verdict, in a fixed order.
pub fn verdict_counts(records: &[CaseRecord]) -> Vec<(Verdict, usize)> {
    let mut counts: Vec<(Verdict, usize)> = Vec::new();
    for record in records {
        match counts.iter_mut().find(|(v, _)| *v == record.verdict) {
            Some((_, n)) => *n += 1,
            None => counts.push((record.verdict, 1)),
        }
    }
    counts.sort_by_key(|(v, _)| v.code());
    counts
}

/// How much of a program's output the reports carry.
pub const ACTUAL_SHOWN_BYTES: usize = 4096;

/// The program's output as the reports carry it: its first [`ACTUAL_SHOWN_BYTES`] bytes, bytes
/// that are not UTF-8 replaced.
pub fn actual_text(stdout: &[u8]) -> String {
    String::from_utf8_lossy(&stdout[..stdout.len().min(ACTUAL_SHOWN_BYTES)]).into_owned()
}

/// A text without its final line break (`\n` or `\r\n`), as the reports carry both the
/// expected answer and the output: `5\n` and `5` are shown alike, and a line break more (or a
/// space) in one of them still shows.
pub fn without_final_break(text: &str) -> &str {
    let text = text.strip_suffix('\n').unwrap_or(text);
    text.strip_suffix('\r').unwrap_or(text)
}

/// The expected answer as the reports carry it: its text without the final line break, or
/// an excerpt of it when long.
pub fn expected_text(answer_text: &str) -> String {
    crate::excerpt::excerpt(answer_text.as_bytes())
        .render()
        .trim_end()
        .to_string()
}

/// The expected answer and the output as the reports carry them: the excerpts around their
/// first difference when the case was compared, else the expected answer's excerpt and the
/// output's start.
pub fn shown_texts(answer_text: &str, outcome: &crate::judge::CaseOutcome) -> (String, String) {
    let stdout = &outcome.execution.stdout;
    let whole_output = || {
        let text = actual_text(&stdout.head(ACTUAL_SHOWN_BYTES));
        without_final_break(&text).to_string()
    };
    match &outcome.shown {
        Some(shown) => {
            let expected = if shown.expected.is_whole() {
                without_final_break(answer_text).to_string()
            } else {
                shown.expected.render().trim_end().to_string()
            };
            // A short output as the program printed it; a long one in excerpts.
            let actual = if shown.actual.is_whole() && stdout.len() <= ACTUAL_SHOWN_BYTES as u64 {
                whole_output()
            } else {
                shown.actual.render().trim_end().to_string()
            };
            (expected, actual)
        }
        None => (expected_text(answer_text), whole_output()),
    }
}

impl CaseRecord {
    /// The record of a case whose expected answer, as a program should print it, is
    /// `answer_text`.
    pub fn new(name: &str, answer_text: &str, outcome: &crate::judge::CaseOutcome) -> CaseRecord {
        let e = &outcome.execution;
        let (expected, actual) = shown_texts(answer_text, outcome);
        CaseRecord {
            name: name.to_string(),
            verdict: outcome.judgement.verdict,
            detail: outcome.judgement.detail.clone(),
            expected,
            expected_bytes: answer_text.len() as u64,
            actual,
            actual_bytes: e.stdout.len(),
            cpu_ms: e.cpu_time.as_millis() as u64,
            cpu_runs_ms: e.cpu_times.iter().map(|t| t.as_millis() as u64).collect(),
            wall_ms: e.wall_time.as_millis() as u64,
            memory_kib: e.peak_memory_bytes.map(|bytes| bytes / 1024),
            stderr: stderr_tail(&e.stderr),
            transcript: outcome.transcript.as_ref().map(|t| t.render()),
            left_behind: e.left_behind,
            uncounted: e.uncounted.map(str::to_string),
        }
    }
}

/// Verdicts whose output is worth a diff.
pub fn shows_output(verdict: Verdict) -> bool {
    matches!(verdict, Verdict::WrongAnswer | Verdict::PresentationError)
}

/// One line of the human report: verdict, name, CPU time, memory, and why if not accepted.
pub fn human_line(record: &CaseRecord, styles: &Styles) -> String {
    // A dash where nothing was measured, rather than a 0.0 that would claim a measurement.
    let memory = match record.memory_kib {
        Some(kib) => format!("{:.1}", kib as f64 / 1024.0),
        None => "-".to_string(),
    };
    let mut line = format!(
        "{} {:<32} {:>6} ms CPU {:>6} ms wall {:>8} MiB",
        styles::verdict_code(record.verdict, 3, styles),
        record.name,
        record.cpu_ms,
        record.wall_ms,
        memory
    );
    if record.cpu_runs_ms.len() > 1 && record.verdict.is_accepted() {
        // A re-run that changed nothing visible still shows what was measured.
        let runs: Vec<String> = record
            .cpu_runs_ms
            .iter()
            .map(|ms| format!("{ms} ms"))
            .collect();
        line.push_str(&format!("  (CPU measured {})", runs.join(", ")));
    }
    if !record.verdict.is_accepted() {
        line.push_str("  ");
        line.push_str(&record.detail);
    }
    if record.left_behind > 0 {
        line.push_str(&format!("  ({})", left_behind(record.left_behind)));
    }
    if let Some(uncounted) = &record.uncounted {
        line.push_str(&format!("  ({uncounted})"));
    }
    line
}

/// `left 1 process running, killed by duipai`: what a run that exited left behind.
pub fn left_behind(processes: u32) -> String {
    let plural = if processes == 1 { "" } else { "es" };
    format!("left {processes} process{plural} running, killed by duipai")
}

/// `10 AC, 1 WA, 1 TLE`.
/// The slowest case by the CPU time it was judged on, and how many accepted cases were
/// accepted only when measured again (their first run over `limit_ms`).
pub fn slowest_and_reruns(records: &[CaseRecord], limit_ms: u64) -> (Option<&CaseRecord>, usize) {
    let slowest = records.iter().max_by_key(|r| r.cpu_ms);
    let reruns = records
        .iter()
        .filter(|r| {
            r.verdict.is_accepted() && r.cpu_runs_ms.first().is_some_and(|&ms| ms > limit_ms)
        })
        .count();
    (slowest, reruns)
}

/// `, slowest 950 ms CPU, 1 accepted on a rerun (first run over the limit)`: what the summary
/// line adds (after `in 3.1 s`).
pub fn slowest_note(slowest: Option<&CaseRecord>, reruns: usize) -> String {
    let mut note = match slowest {
        Some(record) => format!(", slowest {} ms CPU", record.cpu_ms),
        None => String::new(),
    };
    if reruns > 0 {
        note.push_str(&format!(
            ", {reruns} accepted on a rerun (first run over the limit)"
        ));
    }
    note
}

pub fn summary(records: &[CaseRecord]) -> String {
    verdict_counts(records)
        .iter()
        .map(|(v, n)| format!("{n} {}", v.code()))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(name: &str, verdict: Verdict, runs: &[u64]) -> CaseRecord {
        CaseRecord {
            name: name.to_string(),
            verdict,
            detail: String::new(),
            expected: String::new(),
            expected_bytes: 0,
            actual: String::new(),
            actual_bytes: 0,
            cpu_ms: runs.iter().copied().min().unwrap_or(0),
            cpu_runs_ms: runs.to_vec(),
            wall_ms: 0,
            memory_kib: None,
            stderr: String::new(),
            transcript: None,
            left_behind: 0,
            uncounted: None,
        }
    }

    /// A case judged AC on the fastest of 1079, 887 and 1036 ms against 1 s was accepted on a
    /// rerun; one whose first run was within the limit, or that failed, was not.
    #[test]
    fn the_summary_names_the_slowest_time_and_the_reruns_that_passed() {
        let records = [
            record("1.in", Verdict::Accepted, &[120]),
            record("2.in", Verdict::Accepted, &[1079, 887, 1036]),
            record("3.in", Verdict::Accepted, &[850, 820]),
            record("4.in", Verdict::TimeLimitExceeded, &[1300, 1250, 1280]),
        ];
        let (slowest, reruns) = slowest_and_reruns(&records, 1000);
        assert_eq!(slowest.map(|r| r.name.as_str()), Some("4.in"));
        assert_eq!(reruns, 1);
        assert_eq!(
            slowest_note(Some(&records[1]), reruns),
            ", slowest 887 ms CPU, 1 accepted on a rerun (first run over the limit)"
        );
        assert_eq!(slowest_note(None, 0), "");
    }
}
