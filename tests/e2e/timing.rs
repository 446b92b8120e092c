//! Verdicts that do not flip near the time limit: a run whose CPU time lands between 0.8×
//! and 1.5× the limit is measured again (up to three runs in all) and judged on the fastest,
//! and every time measured is reported. The wall-clock limit is a minute, so that no busy
//! machine brings a run anywhere near it (nor near its cap on waiting for a CPU, after which
//! a run is measured again): these tests are about CPU time.

use std::path::Path;

use crate::util::{Duipai, assert_contains};

/// The CPU limit of these runs, in ms: short, since every run burns a good part of it.
const LIMIT_MS: u64 = 200;

/// `duipai test` in `dir` on the chess sample, with a [`LIMIT_MS`] CPU limit and a minute of
/// wall clock, of the fixture burning `burn_ms` of CPU time.
fn test_burning(dir: &Path, burn_ms: u64) -> Duipai {
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/cases/chess/01-sample.in");
    Duipai::in_dir(dir)
        .args(["test", "chess", sample])
        .args([
            "--time-limit",
            &LIMIT_MS.to_string(),
            "--wall-limit",
            "60000",
        ])
        .fixture(["burn-cpu", &burn_ms.to_string(), "chess"])
}

/// The CPU times of the one case of `duipai test` on `burn-cpu MS`, and the verdict.
fn measured(burn_ms: u64, extra: &[&str]) -> (Vec<u64>, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let out = test_burning(dir.path(), burn_ms)
        .arg("--json")
        .args(extra)
        .run();
    let report = out.json();
    let case = &report["cases"][0];
    let runs = case["cpu_runs_ms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    (
        runs,
        case["verdict"].as_str().unwrap().to_string(),
        out.stdout(),
    )
}

#[test]
fn a_run_near_the_limit_is_measured_again() {
    // 0.9× the limit (180 ms of 200): in the band.
    let (runs, verdict, _) = measured(LIMIT_MS * 9 / 10, &[]);
    assert!(runs.len() >= 2, "{runs:?}");
    assert!(runs.len() <= 3, "{runs:?}");
    assert!(
        runs.iter().all(|&ms| ms >= LIMIT_MS * 9 / 10 - 5),
        "{runs:?}"
    );
    assert_eq!(verdict, "AC");
}

#[test]
fn a_run_over_the_limit_reports_every_time_measured() {
    let dir = tempfile::tempdir().unwrap();
    let text = test_burning(dir.path(), LIMIT_MS * 6 / 5)
        .run()
        .code(1)
        .stdout();
    // 1.2× the limit (240 ms of 200): in the band, so measured three times, and over the
    // limit every time.
    let line = text.lines().find(|l| l.starts_with("TLE")).unwrap();
    assert_eq!(line.matches(" s,").count(), 2, "{line}");
    assert_contains(line, "(limit 0.200 s)");
}

#[test]
fn runs_far_from_the_limit_and_no_rerun_are_measured_once() {
    // 0.1× the limit.
    let (runs, verdict, _) = measured(LIMIT_MS / 10, &[]);
    assert_eq!((runs.len(), verdict.as_str()), (1, "AC"), "{runs:?}");
    let (runs, _, _) = measured(LIMIT_MS * 9 / 10, &["--no-rerun"]);
    assert_eq!(runs.len(), 1, "{runs:?}");
}

#[test]
fn a_run_far_over_the_limit_is_stopped_once() {
    let dir = tempfile::tempdir().unwrap();
    let text = test_burning(dir.path(), LIMIT_MS * 10)
        .run()
        .code(1)
        .stdout();
    // Stopped at 1.5× the limit, past the band: one measurement is enough.
    let line = text.lines().find(|l| l.starts_with("TLE")).unwrap();
    assert_eq!(line.matches(" s,").count(), 0, "{line}");
}
