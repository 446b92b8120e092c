//! Verdicts: what one run of a program under test earns, and why.
//!
//! The order of the checks is the usual judges' one: a limit the harness enforced comes first
//! (output, then time, then memory), then an abnormal end (runtime error), and only then the
//! output itself, compared with the expected answers by [`crate::answer`]: a wrong answer is
//! WA, an output that does not have the answers' form is PE.

use std::fmt;

use serde::{Serialize, Serializer};

use crate::answer::{self, Check, Expected};
use crate::run::{Execution, Limit, OutputFile, Termination};

/// The outcome of one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    Accepted,
    WrongAnswer,
    PresentationError,
    TimeLimitExceeded,
    MemoryLimitExceeded,
    RuntimeError,
    OutputLimitExceeded,
}

impl Verdict {
    pub const ALL: [Verdict; 7] = [
        Verdict::Accepted,
        Verdict::WrongAnswer,
        Verdict::PresentationError,
        Verdict::TimeLimitExceeded,
        Verdict::MemoryLimitExceeded,
        Verdict::RuntimeError,
        Verdict::OutputLimitExceeded,
    ];

    /// The short code judges print: "AC", "WA", "PE", "TLE", "MLE", "RE", "OLE".
    pub fn code(self) -> &'static str {
        match self {
            Verdict::Accepted => "AC",
            Verdict::WrongAnswer => "WA",
            Verdict::PresentationError => "PE",
            Verdict::TimeLimitExceeded => "TLE",
            Verdict::MemoryLimitExceeded => "MLE",
            Verdict::RuntimeError => "RE",
            Verdict::OutputLimitExceeded => "OLE",
        }
    }

    /// The verdict whose [`Verdict::code`] is `code`.
    pub fn from_code(code: &str) -> Option<Verdict> {
        Verdict::ALL.into_iter().find(|v| v.code() == code)
    }

    /// The long name: "Accepted", "Wrong Answer", ...
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Accepted => "Accepted",
            Verdict::WrongAnswer => "Wrong Answer",
            Verdict::PresentationError => "Presentation Error",
            Verdict::TimeLimitExceeded => "Time Limit Exceeded",
            Verdict::MemoryLimitExceeded => "Memory Limit Exceeded",
            Verdict::RuntimeError => "Runtime Error",
            Verdict::OutputLimitExceeded => "Output Limit Exceeded",
        }
    }

    pub fn is_accepted(self) -> bool {
        self == Verdict::Accepted
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl Serialize for Verdict {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.code())
    }
}

/// A verdict and a short human explanation (`expected 2, found 3`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Judgement {
    pub verdict: Verdict,
    pub detail: String,
    /// The 0-based case of the input whose answer was wrong, when the output decided.
    #[serde(skip)]
    pub case: Option<usize>,
}

impl Judgement {
    pub fn new(verdict: Verdict, detail: impl Into<String>) -> Judgement {
        Judgement {
            verdict,
            detail: detail.into(),
            case: None,
        }
    }
}

impl fmt::Display for Judgement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.detail.is_empty() {
            write!(f, "{}", self.verdict)
        } else {
            write!(f, "{} ({})", self.verdict, self.detail)
        }
    }
}

/// Seconds with milliseconds, so that a time just over a limit reads differently from it
/// (`1.004 s`, limit `1.000 s`).
fn seconds(d: std::time::Duration) -> String {
    format!("{:.3} s", d.as_secs_f64())
}

/// Every CPU time measured for the case (more than one when it was run again near the
/// limit), in the order they were measured: `1.004 s, 1.060 s, 1.050 s`.
fn cpu_times(execution: &Execution) -> String {
    if execution.cpu_times.len() <= 1 {
        return seconds(execution.cpu_time);
    }
    execution
        .cpu_times
        .iter()
        .map(|&t| seconds(t))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether a run stopped by the wall clock spent most of the time it did not run waiting for
/// a CPU rather than sleeping.
pub fn is_starved(execution: &Execution) -> bool {
    let idle = execution.wall_time.saturating_sub(execution.cpu_time);
    !idle.is_zero() && execution.cpu_wait * 2 >= idle
}

fn mebibytes(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1024.0 * 1024.0))
}

/// A program's output in double quotes for a message, at most 24 characters of it.
fn quote(bytes: &[u8]) -> String {
    crate::text::quote_bytes(bytes, 24).text
}

/// Judges one run against the expected answers.
pub fn judge(execution: &Execution, expected: &Expected) -> Judgement {
    termination_judgement(execution)
        .or_else(|| missing_output_file(execution))
        .unwrap_or_else(|| compare(&execution.stdout, expected))
}

/// Judges the output of a program that ran cleanly.
pub fn compare(output: &[u8], expected: &Expected) -> Judgement {
    let (check, case) = answer::check_cases(expected, output);
    let (verdict, detail) = match check {
        Check::Accepted(detail) => (Verdict::Accepted, detail),
        Check::Wrong(detail) => (Verdict::WrongAnswer, detail),
        Check::Format(detail) => (Verdict::PresentationError, detail),
    };
    Judgement {
        verdict,
        detail,
        case,
    }
}

/// In file I/O mode, a missing output file is a presentation error that says what the
/// program did instead (the usual mistakes are an answer on stdout and a misspelt name),
/// rather than just "empty output".
pub fn missing_output_file(execution: &Execution) -> Option<Judgement> {
    let file = execution.output_file.as_ref().filter(|f| !f.found)?;
    Some(Judgement::new(
        Verdict::PresentationError,
        missing_output(file),
    ))
}

/// `no output file chess.out; the program wrote 2 bytes to stdout ("2\n") and left
/// CHESS.OUT`.
fn missing_output(file: &OutputFile) -> String {
    let mut text = format!("no output file {}; the program wrote ", file.name);
    if file.stdout_bytes == 0 {
        text.push_str("nothing to stdout");
    } else {
        let plural = if file.stdout_bytes == 1 { "" } else { "s" };
        text.push_str(&format!(
            "{} byte{plural} to stdout ({})",
            file.stdout_bytes,
            quote(&file.stdout_head)
        ));
    }
    const SHOWN: usize = 5;
    match file.other_files.len() {
        0 => text.push_str(" and left no other file"),
        n => {
            let names = file.other_files[..n.min(SHOWN)].join(", ");
            text.push_str(&format!(" and left {names}"));
            if n > SHOWN {
                text.push_str(&format!(" and {} more", n - SHOWN));
            }
        }
    }
    text
}

/// The verdict decided by how the run ended alone (a limit, a signal, a nonzero exit), or
/// `None` for a clean exit, whose output then decides.
pub fn termination_judgement(execution: &Execution) -> Option<Judgement> {
    let limits = &execution.limits;
    Some(match execution.termination {
        Termination::LimitExceeded(Limit::Output) => Judgement::new(
            Verdict::OutputLimitExceeded,
            format!(
                "more output than the limit of {}",
                mebibytes(limits.output_bytes)
            ),
        ),
        Termination::LimitExceeded(Limit::CpuTime) => Judgement::new(
            Verdict::TimeLimitExceeded,
            format!(
                "CPU {} (limit {})",
                cpu_times(execution),
                seconds(limits.cpu)
            ),
        ),
        Termination::LimitExceeded(Limit::WallTime) => Judgement::new(
            Verdict::TimeLimitExceeded,
            if is_starved(execution) {
                format!(
                    "wall clock {} (limit {}) with only {} of CPU: CPU-starved, it waited {} \
                     for a CPU (the machine is busy; fewer -j workers help)",
                    seconds(execution.wall_time),
                    seconds(limits.wall),
                    seconds(execution.cpu_time),
                    seconds(execution.cpu_wait)
                )
            } else {
                format!(
                    "wall clock {} (limit {}) with {} of CPU: the program waits or sleeps",
                    seconds(execution.wall_time),
                    seconds(limits.wall),
                    seconds(execution.cpu_time)
                )
            },
        ),
        Termination::LimitExceeded(Limit::Memory) => Judgement::new(
            Verdict::MemoryLimitExceeded,
            format!(
                "peak memory {} (limit {})",
                mebibytes(execution.peak_memory_bytes),
                mebibytes(limits.memory_bytes)
            ),
        ),
        Termination::LimitExceeded(Limit::Processes) => Judgement::new(
            Verdict::RuntimeError,
            format!(
                "more than {} processes and threads at once",
                limits.processes
            ),
        ),
        Termination::Signaled(signal) => {
            let detail = match signal.hint() {
                Some(hint) => format!("killed by {signal}: {hint}"),
                None => format!("killed by {signal}"),
            };
            Judgement::new(Verdict::RuntimeError, detail)
        }
        Termination::Exited(code) if code != 0 => {
            Judgement::new(Verdict::RuntimeError, format!("exit code {code}"))
        }
        Termination::Exited(_) => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::Expected;
    use crate::run::{Limits, Signal};
    use std::time::Duration;

    fn execution(termination: Termination, stdout: &[u8]) -> Execution {
        Execution {
            termination,
            stdout: stdout.to_vec(),
            stderr: Vec::new(),
            stderr_bytes: 0,
            cpu_time: Duration::from_millis(1200),
            cpu_times: vec![Duration::from_millis(1200)],
            cpu_wait: Duration::ZERO,
            output_file: None,
            wall_time: Duration::from_millis(1300),
            peak_memory_bytes: 300 << 20,
            peak_processes: 1,
            pgid: 1,
            limits: Limits {
                cpu: Duration::from_secs(1),
                wall: Duration::from_secs(3),
                memory_bytes: 256 << 20,
                output_bytes: 1 << 20,
                processes: 8,
            },
        }
    }

    fn verdict_of(termination: Termination, stdout: &[u8], expected: i64) -> Verdict {
        judge(
            &execution(termination, stdout),
            &Expected::integer(expected),
        )
        .verdict
    }

    #[test]
    fn compares_the_answer() {
        let ok = judge(
            &execution(Termination::Exited(0), b"2\n"),
            &Expected::integer(2),
        );
        assert_eq!(ok.verdict, Verdict::Accepted);
        let wrong = judge(
            &execution(Termination::Exited(0), b"3\n"),
            &Expected::integer(2),
        );
        assert_eq!(wrong.verdict, Verdict::WrongAnswer);
        assert_eq!(wrong.detail, "expected 2, found 3");
        assert_eq!(
            verdict_of(Termination::Exited(0), b"2 2", 2),
            Verdict::PresentationError
        );
    }

    #[test]
    fn limits_come_before_crashes_and_output() {
        use Termination::LimitExceeded as Over;
        assert_eq!(
            verdict_of(Over(Limit::Output), b"2", 2),
            Verdict::OutputLimitExceeded
        );
        assert_eq!(
            verdict_of(Over(Limit::CpuTime), b"2", 2),
            Verdict::TimeLimitExceeded
        );
        assert_eq!(
            verdict_of(Over(Limit::WallTime), b"2", 2),
            Verdict::TimeLimitExceeded
        );
        assert_eq!(
            verdict_of(Over(Limit::Memory), b"2", 2),
            Verdict::MemoryLimitExceeded
        );
        assert_eq!(
            verdict_of(Over(Limit::Processes), b"2", 2),
            Verdict::RuntimeError
        );
        let cpu = judge(&execution(Over(Limit::CpuTime), b""), &Expected::integer(2));
        assert_eq!(cpu.detail, "CPU 1.200 s (limit 1.000 s)");
        let mut rerun = execution(Over(Limit::CpuTime), b"");
        rerun.cpu_times = [1004, 1060, 1050].map(Duration::from_millis).to_vec();
        assert_eq!(
            judge(&rerun, &Expected::integer(2)).detail,
            "CPU 1.004 s, 1.060 s, 1.050 s (limit 1.000 s)"
        );
        let mut sleeper = execution(Over(Limit::WallTime), b"");
        sleeper.cpu_time = Duration::from_millis(100);
        assert!(
            judge(&sleeper, &Expected::integer(2))
                .detail
                .contains("waits or sleeps")
        );
        let mut starved = sleeper.clone();
        starved.cpu_wait = Duration::from_millis(1000);
        assert!(
            judge(&starved, &Expected::integer(2))
                .detail
                .contains("CPU-starved")
        );
        let mem = judge(&execution(Over(Limit::Memory), b""), &Expected::integer(2));
        assert_eq!(mem.detail, "peak memory 300.0 MiB (limit 256.0 MiB)");
    }

    #[test]
    fn abnormal_ends_are_runtime_errors() {
        let segv = judge(
            &execution(Termination::Signaled(Signal(libc::SIGSEGV)), b"2"),
            &Expected::integer(2),
        );
        assert_eq!(segv.verdict, Verdict::RuntimeError);
        assert!(
            segv.detail.starts_with("killed by SIGSEGV"),
            "{}",
            segv.detail
        );
        let code = judge(
            &execution(Termination::Exited(3), b"2"),
            &Expected::integer(2),
        );
        assert_eq!(code.verdict, Verdict::RuntimeError);
        assert_eq!(code.detail, "exit code 3");
    }

    #[test]
    fn codes_display_and_serialize() {
        let codes: Vec<&str> = Verdict::ALL.iter().map(|v| v.code()).collect();
        assert_eq!(codes, ["AC", "WA", "PE", "TLE", "MLE", "RE", "OLE"]);
        assert_eq!(Verdict::TimeLimitExceeded.to_string(), "TLE");
        assert_eq!(
            serde_json::to_string(&Verdict::WrongAnswer).unwrap(),
            "\"WA\""
        );
        assert!(Verdict::Accepted.is_accepted());
        assert!(!Verdict::PresentationError.is_accepted());
        let j = Judgement::new(Verdict::WrongAnswer, "expected 2, found 3");
        assert_eq!(j.to_string(), "WA (expected 2, found 3)");
        assert_eq!(
            serde_json::to_string(&j).unwrap(),
            r#"{"verdict":"WA","detail":"expected 2, found 3"}"#
        );
    }
}
