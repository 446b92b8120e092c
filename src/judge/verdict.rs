//! Verdicts: what one run of a program under test earns, and why.
//!
//! The order of the checks is the usual judges' one: a limit the harness enforced comes first
//! (output, then time, then memory), then an abnormal end (runtime error), and only then the
//! output itself, compared with the expected answers by [`crate::answer`]: a wrong answer is
//! WA, an output that does not have the answers' form is PE.

use std::fmt;

use serde::{Serialize, Serializer};

use crate::answer::{self, Check, Expected};
use crate::run::{Execution, Limit, OutputFile, Termination, starved};

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

/// What a program's stderr says when an allocation it asked for was refused, and how a verdict
/// names it: the C++ and Java exceptions, Python's error, Rust's abort message, `ENOMEM`'s
/// text (from `perror` and most runtimes), and the runtimes that say "out of memory" (Go,
/// Node.js, OCaml, the JVM's native allocator), matched without regard to case.
const REFUSED_ALLOCATION: [(&str, &str); 6] = [
    ("std::bad_alloc", "std::bad_alloc"),
    ("memoryerror", "MemoryError"),
    ("outofmemoryerror", "OutOfMemoryError"),
    ("memory allocation of", "a failed memory allocation"),
    ("cannot allocate memory", "ENOMEM"),
    ("out of memory", "out of memory"),
];

/// Which sign of a refused allocation a failed run's stderr shows, if any.
fn refused_allocation(stderr: &[u8]) -> Option<&'static str> {
    let text = String::from_utf8_lossy(stderr).to_lowercase();
    REFUSED_ALLOCATION
        .iter()
        .find(|(needle, _)| text.contains(needle))
        .map(|&(_, name)| name)
}

/// A run that failed after an allocation was refused is a memory limit verdict, as judges
/// give it: the program asked for more memory than its limits allow (the address-space
/// bound, `RLIMIT_AS`, refuses it whole, before any of it is resident).
fn allocation_refused(execution: &Execution, what: &str) -> Judgement {
    let limits = &execution.limits;
    let resident = match execution.peak_memory_bytes {
        Some(bytes) => format!("peak resident memory {}, ", mebibytes(bytes)),
        None => String::new(),
    };
    Judgement::new(
        Verdict::MemoryLimitExceeded,
        format!(
            "an allocation was refused ({what}): more memory than the limit allows ({resident}\
             limit {}, address space bounded at {})",
            mebibytes(limits.memory_bytes),
            mebibytes(limits.address_space_bytes())
        ),
    )
}

/// Why the wall clock stopped a run: the machine starved it (after the cap on waiting for a
/// CPU, see [`starved`]), or the program waited or slept, or, under a wall-clock limit below
/// the CPU limit, it ran longer than the wall-clock limit.
fn wall_clock_detail(execution: &Execution) -> String {
    let limits = &execution.limits;
    let (wall, limit, cpu) = (
        seconds(execution.wall_time),
        seconds(limits.wall),
        seconds(execution.cpu_time),
    );
    if starved(execution) {
        return format!(
            "wall clock {wall} (limit {limit}) with only {cpu} of CPU: CPU-starved, it waited {} \
             for a CPU (the machine is busy; fewer -j workers help)",
            seconds(execution.cpu_wait)
        );
    }
    let waited = if execution.cpu_wait >= std::time::Duration::from_millis(1) {
        format!(
            ", besides {} waiting for a CPU",
            seconds(execution.cpu_wait)
        )
    } else {
        String::new()
    };
    let why = if execution.cpu_time > limits.wall {
        "more CPU time than the wall-clock limit"
    } else {
        "the program waits or sleeps"
    };
    format!("wall clock {wall} (limit {limit}{waited}) with {cpu} of CPU: {why}")
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

/// Judges the output of a program that ran cleanly, reading it as a stream.
pub fn compare(output: &crate::run::Captured, expected: &Expected) -> Judgement {
    let (check, case) = answer::check_stream(expected, output.reader());
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
    let failed = matches!(
        execution.termination,
        Termination::Signaled(_) | Termination::Exited(1..)
    );
    if failed && let Some(what) = refused_allocation(&execution.stderr) {
        return Some(allocation_refused(execution, what));
    }
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
        Termination::LimitExceeded(Limit::WallTime) => {
            Judgement::new(Verdict::TimeLimitExceeded, wall_clock_detail(execution))
        }
        Termination::LimitExceeded(Limit::Idleness) => Judgement::new(
            Verdict::TimeLimitExceeded,
            format!(
                "idleness: nothing moved between the program and the interactor and neither \
                 ran (after {} of CPU): both are waiting to read; the program may be waiting \
                 for input the interactor never sends, or has not flushed what it wrote",
                seconds(execution.cpu_time)
            ),
        ),
        Termination::LimitExceeded(Limit::Memory) => Judgement::new(
            Verdict::MemoryLimitExceeded,
            format!(
                "peak memory {} (limit {})",
                mebibytes(execution.peak_memory_bytes.unwrap_or_default()),
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
        let limits = Limits {
            cpu: Duration::from_secs(1),
            wall: Duration::from_secs(3),
            memory_bytes: 256 << 20,
            output_bytes: 1 << 20,
            processes: 8,
        };
        let mut execution = Execution::from_outcome(termination, stdout.to_vec(), limits);
        execution.cpu_time = Duration::from_millis(1200);
        execution.cpu_times = vec![execution.cpu_time];
        execution.wall_time = Duration::from_millis(1300);
        execution.peak_memory_bytes = Some(300 << 20);
        execution.peak_processes = 1;
        execution.pgid = 1;
        execution
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
        for (limit, verdict) in [
            (Limit::Output, Verdict::OutputLimitExceeded),
            (Limit::CpuTime, Verdict::TimeLimitExceeded),
            (Limit::WallTime, Verdict::TimeLimitExceeded),
            (Limit::Memory, Verdict::MemoryLimitExceeded),
            (Limit::Processes, Verdict::RuntimeError),
        ] {
            assert_eq!(verdict_of(Over(limit), b"2", 2), verdict, "{limit:?}");
        }
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
        sleeper.wall_time = Duration::from_millis(3200);
        assert_eq!(
            judge(&sleeper, &Expected::integer(2)).detail,
            "wall clock 3.200 s (limit 3.000 s) with 0.100 s of CPU: the program waits or sleeps"
        );
        sleeper.cpu_wait = Duration::from_millis(150);
        assert!(
            judge(&sleeper, &Expected::integer(2))
                .detail
                .contains("(limit 3.000 s, besides 0.150 s waiting for a CPU)")
        );
        // Stopped only by the cap on waiting for a CPU.
        let mut starved = sleeper.clone();
        starved.wall_time = Duration::from_secs(30);
        starved.cpu_wait = Duration::from_millis(29_000);
        starved.cpu_starved = true;
        assert!(
            judge(&starved, &Expected::integer(2))
                .detail
                .contains("CPU-starved")
        );
        let mem = judge(&execution(Over(Limit::Memory), b""), &Expected::integer(2));
        assert_eq!(mem.detail, "peak memory 300.0 MiB (limit 256.0 MiB)");
    }

    #[test]
    fn a_failure_after_a_refused_allocation_is_a_memory_limit_verdict() {
        let stderrs: [&[u8]; 6] = [
            b"terminate called after throwing an instance of 'std::bad_alloc'\n  what():  std::bad_alloc\n",
            b"Traceback (most recent call last):\n  File \"a.py\", line 1\nMemoryError\n",
            b"Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space\n",
            b"memory allocation of 3200000000 bytes failed\n",
            b"malloc: Cannot allocate memory\n",
            b"fatal error: runtime: out of memory\n",
        ];
        for stderr in stderrs {
            for termination in [
                Termination::Signaled(Signal(libc::SIGABRT)),
                Termination::Exited(1),
            ] {
                let mut e = execution(termination, b"");
                e.stderr = stderr.to_vec();
                let judgement = judge(&e, &Expected::integer(2));
                assert_eq!(
                    judgement.verdict,
                    Verdict::MemoryLimitExceeded,
                    "{}",
                    String::from_utf8_lossy(stderr)
                );
                assert!(
                    judgement.detail.starts_with("an allocation was refused ("),
                    "{judgement}"
                );
            }
            // A clean exit is judged on its output, whatever it logged.
            let mut e = execution(Termination::Exited(0), b"2\n");
            e.stderr = stderr.to_vec();
            assert_eq!(judge(&e, &Expected::integer(2)).verdict, Verdict::Accepted);
        }
        let mut e = execution(Termination::Signaled(Signal(libc::SIGABRT)), b"");
        e.stderr = b"terminate called after throwing an instance of 'std::bad_alloc'\n".to_vec();
        assert_eq!(
            judge(&e, &Expected::integer(2)).detail,
            "an allocation was refused (std::bad_alloc): more memory than the limit allows \
             (peak resident memory 300.0 MiB, limit 256.0 MiB, address space bounded at 3776.0 MiB)"
        );
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
