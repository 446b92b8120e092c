//! Verdicts: what one run of a program under test earns, and why.
//!
//! The order of the checks is the usual judges' one: a limit the harness enforced comes first
//! (output, then time, then memory), then an abnormal end (runtime error), and only then the
//! output itself. Both problems answer with one integer, so the output comparison is a strict
//! single-token integer comparison: surrounding whitespace of any kind is accepted, anything
//! else around the number is a presentation error.

use std::fmt;

use serde::{Serialize, Serializer};

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
}

impl Judgement {
    fn new(verdict: Verdict, detail: impl Into<String>) -> Judgement {
        Judgement {
            verdict,
            detail: detail.into(),
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

fn seconds(d: std::time::Duration) -> String {
    format!("{:.2} s", d.as_secs_f64())
}

/// Every CPU time measured (a re-run near the limit measures up to three), to the millisecond:
/// `1.004 s, 1.006 s`.
fn cpu_times(execution: &Execution) -> String {
    let times: &[std::time::Duration] = if execution.cpu_times.is_empty() {
        std::slice::from_ref(&execution.cpu_time)
    } else {
        &execution.cpu_times
    };
    let shown: Vec<String> = times
        .iter()
        .map(|t| format!("{:.3} s", t.as_secs_f64()))
        .collect();
    shown.join(", ")
}

/// Why a file I/O run has no answer: the output file is missing, and what the program wrote
/// instead (`no output file chess.out; the program wrote 2 bytes to stdout ("2\n") and left
/// CHESS.OUT`).
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

fn mebibytes(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1024.0 * 1024.0))
}

/// Judges one run against the expected answer.
pub fn judge(execution: &Execution, expected: i64) -> Judgement {
    termination_judgement(execution).unwrap_or_else(|| compare(&execution.stdout, expected))
}

/// The verdict decided by how the run ended alone (a limit, a signal, a nonzero exit), or
/// `None` for a clean exit, whose output then decides.
pub fn termination_judgement(execution: &Execution) -> Option<Judgement> {
    let limits = &execution.limits;
    Some(match execution.termination {
        Termination::LimitExceeded(Limit::Output) => Judgement::new(
            Verdict::OutputLimitExceeded,
            format!("more than {} bytes of output", limits.output_bytes),
        ),
        Termination::LimitExceeded(Limit::CpuTime) => Judgement::new(
            Verdict::TimeLimitExceeded,
            format!(
                "CPU {} (limit {:.3} s)",
                cpu_times(execution),
                limits.cpu.as_secs_f64()
            ),
        ),
        Termination::LimitExceeded(Limit::WallTime) => Judgement::new(
            Verdict::TimeLimitExceeded,
            format!(
                "wall-clock time {} over the limit of {} with {} of CPU: the program waits or sleeps",
                seconds(execution.wall_time),
                seconds(limits.wall),
                seconds(execution.cpu_time)
            ),
        ),
        Termination::LimitExceeded(Limit::Memory) => Judgement::new(
            Verdict::MemoryLimitExceeded,
            format!(
                "peak memory {} over the limit of {}",
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
        Termination::Exited(_) => match &execution.output_file {
            // File I/O without the file: say what the program did instead (the usual mistakes
            // are an answer on stdout and a misspelt name), rather than just "empty output".
            Some(file) if !file.found => {
                Judgement::new(Verdict::PresentationError, missing_output(file))
            }
            _ => return None,
        },
    })
}

/// Judges the output of a program that ran cleanly.
pub fn compare(output: &[u8], expected: i64) -> Judgement {
    match parse_answer(output) {
        Ok(found) if found == expected => Judgement::new(Verdict::Accepted, ""),
        Ok(found) => Judgement::new(
            Verdict::WrongAnswer,
            format!("expected {expected}, found {found}"),
        ),
        Err(why) => Judgement::new(Verdict::PresentationError, why),
    }
}

/// Shows at most a few characters of a token, quoted.
fn quote(token: &[u8]) -> String {
    const SHOWN: usize = 24;
    let text = String::from_utf8_lossy(token);
    let mut shown: String = text.chars().take(SHOWN).collect();
    if text.chars().count() > SHOWN {
        shown.push('…');
    }
    format!("{shown:?}")
}

/// The single integer an output holds: one token of an optional sign and decimal digits that
/// fits in an `i64`, with only ASCII whitespace around it. Numeric equality decides, so `+2`
/// and `002` both read as 2. The error says briefly what was found instead.
pub fn parse_answer(output: &[u8]) -> Result<i64, String> {
    if std::str::from_utf8(output).is_err() {
        return Err("output is not UTF-8 text".to_string());
    }
    let mut tokens = output
        .split(|b| b.is_ascii_whitespace())
        .filter(|t| !t.is_empty());
    let Some(token) = tokens.next() else {
        return Err("empty output".to_string());
    };
    let extra = tokens.count();
    if extra > 0 {
        return Err(format!(
            "expected one integer, found {} tokens starting with {}",
            extra + 1,
            quote(token)
        ));
    }
    let digits = token
        .strip_prefix(b"-")
        .or_else(|| token.strip_prefix(b"+"));
    let digits = digits.unwrap_or(token);
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return Err(format!("expected an integer, found {}", quote(token)));
    }
    // The token is ASCII digits with a sign, so it is valid UTF-8 and only overflow can fail.
    std::str::from_utf8(token)
        .ok()
        .and_then(|t| t.parse::<i64>().ok())
        .ok_or_else(|| format!("integer {} does not fit in 64 bits", quote(token)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::{Limits, Signal};
    use std::time::Duration;

    fn execution(termination: Termination, stdout: &[u8]) -> Execution {
        Execution {
            termination,
            stdout: stdout.to_vec(),
            stderr: Vec::new(),
            stderr_bytes: 0,
            cpu_time: Duration::from_millis(1200),
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
            cpu_times: vec![Duration::from_millis(1200)],
            output_file: None,
        }
    }

    fn verdict_of(termination: Termination, stdout: &[u8], expected: i64) -> Verdict {
        judge(&execution(termination, stdout), expected).verdict
    }

    #[test]
    fn parses_single_integers() {
        assert_eq!(parse_answer(b"2\n"), Ok(2));
        assert_eq!(parse_answer(b"  -17 \r\n\n"), Ok(-17));
        assert_eq!(parse_answer(b"+5"), Ok(5));
        assert_eq!(parse_answer(b"\t007\t"), Ok(7));
        assert_eq!(parse_answer(b"-9223372036854775808"), Ok(i64::MIN));
        assert_eq!(parse_answer(b"9223372036854775807\n"), Ok(i64::MAX));
    }

    #[test]
    fn rejects_everything_else() {
        assert_eq!(parse_answer(b""), Err("empty output".to_string()));
        assert_eq!(parse_answer(b" \n\t"), Err("empty output".to_string()));
        assert_eq!(
            parse_answer(b"2 3\n"),
            Err("expected one integer, found 2 tokens starting with \"2\"".to_string())
        );
        assert_eq!(
            parse_answer(b"two"),
            Err("expected an integer, found \"two\"".to_string())
        );
        assert!(parse_answer(b"-").is_err());
        assert!(parse_answer(b"+-3").is_err());
        assert!(parse_answer(b"3.0").is_err());
        assert!(parse_answer(b"1e3").is_err());
        assert!(parse_answer(b"\xff2").is_err());
        assert_eq!(
            parse_answer(b"9223372036854775808"),
            Err("integer \"9223372036854775808\" does not fit in 64 bits".to_string())
        );
        let long = parse_answer(&[b'x'; 100]).unwrap_err();
        assert!(long.len() < 60, "{long}");
    }

    #[test]
    fn compares_the_answer() {
        let ok = judge(&execution(Termination::Exited(0), b"2\n"), 2);
        assert_eq!(ok.verdict, Verdict::Accepted);
        let wrong = judge(&execution(Termination::Exited(0), b"3\n"), 2);
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
        let cpu = judge(&execution(Over(Limit::CpuTime), b""), 2);
        assert_eq!(cpu.detail, "CPU 1.200 s (limit 1.000 s)");
        let mut rerun = execution(Over(Limit::CpuTime), b"");
        rerun.cpu_times = [1004, 1006, 1005].map(Duration::from_millis).to_vec();
        rerun.cpu_time = Duration::from_millis(1004);
        assert_eq!(
            judge(&rerun, 2).detail,
            "CPU 1.004 s, 1.006 s, 1.005 s (limit 1.000 s)"
        );
        let mem = judge(&execution(Over(Limit::Memory), b""), 2);
        assert_eq!(
            mem.detail,
            "peak memory 300.0 MiB over the limit of 256.0 MiB"
        );
    }

    #[test]
    fn abnormal_ends_are_runtime_errors() {
        let segv = judge(
            &execution(Termination::Signaled(Signal(libc::SIGSEGV)), b"2"),
            2,
        );
        assert_eq!(segv.verdict, Verdict::RuntimeError);
        assert!(
            segv.detail.starts_with("killed by SIGSEGV"),
            "{}",
            segv.detail
        );
        let code = judge(&execution(Termination::Exited(3), b"2"), 2);
        assert_eq!(code.verdict, Verdict::RuntimeError);
        assert_eq!(code.detail, "exit code 3");
    }

    #[test]
    fn a_missing_output_file_says_what_the_program_did_instead() {
        let mut run = execution(Termination::Exited(0), b"");
        run.output_file = Some(OutputFile {
            name: "chess.out".into(),
            found: false,
            stdout_bytes: 2,
            stdout_head: b"2\n".to_vec(),
            other_files: vec!["CHESS.OUT".into()],
        });
        let judgement = judge(&run, 2);
        assert_eq!(judgement.verdict, Verdict::PresentationError);
        assert_eq!(
            judgement.detail,
            "no output file chess.out; the program wrote 2 bytes to stdout (\"2\\n\") \
             and left CHESS.OUT"
        );
        let file = run.output_file.as_mut().unwrap();
        file.stdout_bytes = 0;
        file.other_files.clear();
        assert_eq!(
            judge(&run, 2).detail,
            "no output file chess.out; the program wrote nothing to stdout and left no other file"
        );
        // Found but empty is judged by its content, as before.
        run.output_file.as_mut().unwrap().found = true;
        assert_eq!(judge(&run, 2).detail, "empty output");
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
