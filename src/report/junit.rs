//! JUnit XML reports for CI systems: `test`'s cases, `stress`'s run or failing seed, and the
//! report of a harness error that replaces the previous run's; and the guarded write that
//! never replaces a file that is not itself a JUnit report.

use std::path::Path;
use std::time::Duration;

use anyhow::Context;
use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

use super::CaseRecord;

/// One test case of a report.
#[derive(Clone, Debug, Default)]
pub struct JunitCase {
    pub name: String,
    pub time: Duration,
    /// `None` for a passed case.
    pub failure: Option<JunitFailure>,
    pub system_out: String,
    pub system_err: String,
}

/// Why a test case did not pass.
#[derive(Clone, Debug)]
pub struct JunitFailure {
    /// An `<error>` (the harness could not run it) rather than a `<failure>` (the program
    /// under test failed it).
    pub error: bool,
    /// The `type` attribute: a verdict code, or `harness error`.
    pub kind: String,
    /// The `message` attribute: one line.
    pub message: String,
    /// The element's text: the details.
    pub description: String,
}

impl JunitCase {
    /// A case of `duipai test` (or a saved case replayed by `stress`).
    pub fn of_record(record: &CaseRecord) -> JunitCase {
        JunitCase {
            name: record.name.clone(),
            time: Duration::from_millis(record.wall_ms),
            failure: (!record.verdict.is_accepted()).then(|| JunitFailure {
                error: false,
                kind: record.verdict.code().to_string(),
                message: format!("{}: {}", record.verdict.code(), record.detail),
                description: String::new(),
            }),
            // An interactive case's output is its exchange with the interactor.
            system_out: record.transcript.clone().unwrap_or_default(),
            system_err: record.stderr.clone(),
        }
    }
}

/// A report of one suite named `suite`, its cases in order.
pub fn render(suite: &str, cases: &[JunitCase], elapsed: Duration) -> anyhow::Result<String> {
    let mut report = Report::new("duipai");
    let mut test_suite = TestSuite::new(suite);
    for case in cases {
        let status = match &case.failure {
            None => TestCaseStatus::success(),
            Some(failure) => {
                let kind = if failure.error {
                    NonSuccessKind::Error
                } else {
                    NonSuccessKind::Failure
                };
                let mut status = TestCaseStatus::non_success(kind);
                status
                    .set_message(failure.message.as_str())
                    .set_type(failure.kind.as_str());
                if !failure.description.is_empty() {
                    status.set_description(failure.description.as_str());
                }
                status
            }
        };
        let mut test_case = TestCase::new(case.name.as_str(), status);
        if !case.system_out.is_empty() {
            test_case.set_system_out(case.system_out.as_str());
        }
        if !case.system_err.is_empty() {
            test_case.set_system_err(case.system_err.as_str());
        }
        test_case.set_classname(suite).set_time(case.time);
        test_suite.add_test_case(test_case);
    }
    test_suite.set_time(elapsed);
    report.add_test_suite(test_suite);
    report.set_time(elapsed);
    report.to_string().context("cannot render the JUnit report")
}

/// The JUnit XML of a `duipai test` run: one suite, one test case per input file.
pub fn junit_xml(suite: &str, records: &[CaseRecord], elapsed: Duration) -> anyhow::Result<String> {
    let cases: Vec<JunitCase> = records.iter().map(JunitCase::of_record).collect();
    render(suite, &cases, elapsed)
}

/// The most characters of an error message in a test case's name.
const NAME_CHARS: usize = 200;

/// The report of a run that ended in a harness or usage error (exit 2): one errored test
/// case whose name and message say what went wrong, so that CI shows the error instead of
/// an earlier run's report.
pub fn error_xml(suite: &str, message: &str) -> anyhow::Result<String> {
    let first = message.lines().next().unwrap_or_default();
    let mut name: String = first.chars().take(NAME_CHARS).collect();
    if name.len() < first.len() {
        name.push('…');
    }
    let case = JunitCase {
        name: format!("harness error: {name}"),
        failure: Some(JunitFailure {
            error: true,
            kind: "harness error".to_string(),
            message: first.to_string(),
            description: format!("{message}\n(duipai exited with status 2)"),
        }),
        ..JunitCase::default()
    };
    render(suite, &[case], Duration::ZERO)
}

/// Replaces the report at `path` with [`error_xml`], if `path` may hold a report (see
/// [`check_report_path`]): a file that is not a JUnit report is never touched, and the error
/// already says what is wrong with it. A report that cannot be written (a full disk) is
/// said on stderr, and an earlier run's report there is removed, so that CI does not read it
/// as this run's.
pub fn write_error_report(path: &Path, suite: &str, message: &str) {
    if check_report_path(path).is_err() {
        return;
    }
    let written = error_xml(suite, message).and_then(|xml| write_report_file(path, &xml));
    if let Err(e) = written {
        eprintln!(
            "duipai: {}",
            unwritten(path, &e, std::fs::remove_file(path))
        );
    }
}

/// What is said when the report of an error could not be written (`error`), and what became
/// of the earlier report there (`removed`).
fn unwritten(path: &Path, error: &anyhow::Error, removed: std::io::Result<()>) -> String {
    let full = error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::StorageFull)
    });
    let why = if full {
        "the disk is full".to_string()
    } else {
        format!("{error:#}")
    };
    let earlier = match removed {
        Ok(()) => "; the earlier report there is removed, so that it is not read as this run's",
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => "",
        Err(_) => "; the earlier report there could not be removed either: it is not this run's",
    };
    format!(
        "--junit {}: the report of this error was not written: {why}{earlier}",
        path.display()
    )
}

/// Passes `result` on; an error first replaces the report at `path` (if any) with
/// [`error_xml`]. For runs repeated by `--watch`, whose errors do not end the command.
pub fn on_error<T>(
    path: Option<&Path>,
    suite: &str,
    result: anyhow::Result<T>,
) -> anyhow::Result<T> {
    if let (Err(e), Some(path)) = (&result, path) {
        write_error_report(path, suite, &format!("{e:#}"));
    }
    result
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A report that cannot be written says why in words, and what became of the earlier one.
    #[test]
    fn an_unwritten_report_says_why_in_words() {
        let path = Path::new("out/report.xml");
        let full = anyhow::Error::new(std::io::Error::from(std::io::ErrorKind::StorageFull))
            .context("cannot write out/report.xml");
        assert_eq!(
            unwritten(path, &full, Ok(())),
            "--junit out/report.xml: the report of this error was not written: the disk is \
             full; the earlier report there is removed, so that it is not read as this run's"
        );
        let gone = std::io::Error::from(std::io::ErrorKind::NotFound);
        assert_eq!(
            unwritten(path, &full, Err(gone)),
            "--junit out/report.xml: the report of this error was not written: the disk is full"
        );
    }
}
