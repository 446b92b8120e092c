//! The JSON reports' shapes, typed. `--json` prints JSON Lines: one object per line, each
//! with `"schema": 1` first (the version of these shapes), the summary last. Field order is
//! the order of the fields here.

use std::path::PathBuf;

use serde::Serialize;

use super::CaseRecord;
use crate::judge::Verdict;

/// `duipai test --json`: after one line per case (a [`CaseRecord`]), this summary.
#[derive(Serialize)]
pub struct TestSummary<'a> {
    /// `ok` or `failed`.
    pub status: &'static str,
    pub problem: &'a str,
    pub cases: &'a [CaseRecord],
    pub passed: usize,
    pub failed: usize,
    pub elapsed_ms: u64,
    /// The case that took the most CPU time (the time it was judged on), and that time.
    pub slowest_case: Option<&'a str>,
    pub slowest_cpu_ms: Option<u64>,
    /// Accepted cases whose first run was over the time limit: they passed on a second or
    /// third measurement, as near the limit as a judge's own noise.
    pub accepted_on_rerun: usize,
}

/// `duipai stress --json` when no case failed.
#[derive(Serialize)]
pub struct StressPassed {
    /// `ok`, or `interrupted` when an interrupt stopped the search (exit 130).
    pub status: &'static str,
    pub problem: String,
    pub cases: u64,
    pub first_seed: u64,
    pub last_seed: Option<u64>,
    pub interrupted: bool,
    /// Always null: no failing seed.
    pub seed: Option<u64>,
    pub verdict: Option<Verdict>,
    pub input: Option<PathBuf>,
    pub cases_per_second: f64,
    pub elapsed_ms: u64,
    /// Saved failing cases re-run first that still fail.
    pub still_failing: Vec<String>,
}

/// `duipai stress --json` when a case failed.
#[derive(Serialize)]
pub struct StressFailed {
    /// Always `failed`.
    pub status: &'static str,
    pub problem: String,
    pub seed: u64,
    pub verdict: Verdict,
    pub detail: String,
    /// The case reported (minimized, if it was).
    pub input: PathBuf,
    /// The case as found.
    pub original_input: PathBuf,
    /// The expected answer, an excerpt when long (see [`super::CaseRecord::expected`]).
    pub expected: String,
    pub expected_bytes: u64,
    /// The program's output, an excerpt when long.
    pub actual: String,
    pub actual_bytes: u64,
    /// Where the whole expected answer and output were saved (the output's first
    /// [`crate::stress::save::SAVED_OUTPUT_BYTES`] bytes).
    pub answer_file: PathBuf,
    pub output_file: PathBuf,
    /// On an interactive problem, the exchange with the interactor (`> ` before the
    /// program's lines, `< ` before the interactor's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transcript: Option<String>,
    pub cases: u64,
    pub shrink_steps: Option<usize>,
    pub shrink_runs: Option<usize>,
    /// Milliseconds spent minimizing.
    pub shrink_ms: Option<u64>,
    /// Milliseconds from the start of minimizing to when the case reported was kept (`null`
    /// when nothing smaller was kept): the rest of `shrink_ms` found nothing smaller.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shrink_reached_ms: Option<u64>,
    /// Whether the minimized case is 1-minimal (`null` when not minimized): every pass
    /// that applies went over all its candidates on it, with none failing.
    pub one_minimal: Option<bool>,
    /// The passes that had not gone over all their candidates on the minimized case when
    /// minimization ended (the budget ran out, or it was stopped); `null` when not minimized.
    pub shrink_cut_short: Option<Vec<String>>,
    /// Candidates of the minimized case that were not tried, and why.
    pub shrink_not_tried: Option<Vec<NotTried>>,
    /// The passes that offered candidates: what `one_minimal` speaks of.
    pub shrink_passes: Option<Vec<String>>,
    /// Where the whole line of play was saved, for large boards.
    pub explanation: Option<PathBuf>,
    /// The command that judges the program on the saved case again.
    pub replay: String,
    pub elapsed_ms: u64,
    /// Saved failing cases re-run first that still fail.
    pub still_failing: Vec<String>,
}

/// Candidates a minimized case has that were not tried ([`StressFailed::shrink_not_tried`]).
#[derive(Serialize)]
pub struct NotTried {
    pub pass: String,
    pub why: String,
}

/// A harness or usage error (exit 2): the last line whenever a command fails that way.
#[derive(Serialize)]
pub struct ErrorReport<'a> {
    /// `error`, or `interrupted` after Ctrl-C.
    pub status: &'static str,
    pub message: &'a str,
}

/// The version of the shapes above, printed as `schema` in every line. It changes when a field
/// is removed or changes its meaning; new fields may appear without a change.
pub const SCHEMA: u32 = 1;

/// A report with the schema version before its own fields.
#[derive(Serialize)]
struct Versioned<'a, T> {
    schema: u32,
    #[serde(flatten)]
    report: &'a T,
}

/// A one-line JSON rendering with the schema version; the shapes above always serialize.
pub fn line<T: Serialize>(value: &T) -> String {
    serde_json::to_string(&Versioned {
        schema: SCHEMA,
        report: value,
    })
    .unwrap_or_else(|e| {
        serde_json::json!({ "schema": SCHEMA, "status": "error", "message": e.to_string() })
            .to_string()
    })
}
