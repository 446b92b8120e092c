//! JUnit XML reports for CI systems, and the guarded write that never replaces a file that
//! is not itself a JUnit report.

use std::path::Path;
use std::time::Duration;

use anyhow::Context;

use super::CaseRecord;

/// The JUnit XML of a `duipai test` run: one suite, one test case per input file.
pub fn junit_xml(suite: &str, records: &[CaseRecord], elapsed: Duration) -> anyhow::Result<String> {
    use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
    let mut report = Report::new("duipai");
    let mut test_suite = TestSuite::new(suite);
    for record in records {
        let status = if record.verdict.is_accepted() {
            TestCaseStatus::success()
        } else {
            let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
            status
                .set_message(format!("{}: {}", record.verdict.code(), record.detail))
                .set_type(record.verdict.code());
            status
        };
        let mut case = TestCase::new(record.name.as_str(), status);
        if !record.stderr.is_empty() {
            case.set_system_err(record.stderr.as_str());
        }
        case.set_classname(suite)
            .set_time(Duration::from_millis(record.wall_ms));
        test_suite.add_test_case(case);
    }
    test_suite.set_time(elapsed);
    report.add_test_suite(test_suite);
    report.set_time(elapsed);
    report.to_string().context("cannot render the JUnit report")
}

/// Checks, before any work, that a report can be written to `path`: its directory exists,
/// and an existing file there is itself a JUnit report (so a mistyped path never destroys
/// unrelated data).
pub fn check_report_path(path: &Path) -> anyhow::Result<()> {
    if path.is_dir() {
        anyhow::bail!("--junit {}: is a directory", path.display());
    }
    if path.exists() {
        let mut head = Vec::new();
        let file = std::fs::File::open(path)
            .with_context(|| format!("--junit {}: cannot read it", path.display()))?;
        use std::io::Read;
        let _ = file.take(512).read_to_end(&mut head);
        if !String::from_utf8_lossy(&head).contains("<testsuites") {
            anyhow::bail!(
                "--junit {}: exists and is not a JUnit report; refusing to overwrite it",
                path.display()
            );
        }
    }
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() && !dir.is_dir() => {
            anyhow::bail!(
                "--junit {}: {} is not a directory",
                path.display(),
                dir.display()
            )
        }
        _ => Ok(()),
    }
}

/// Writes a report file atomically, after [`check_report_path`].
pub fn write_report_file(path: &Path, contents: &str) -> anyhow::Result<()> {
    check_report_path(path)?;
    crate::fsutil::write_atomic(path, contents.as_bytes())
}
