//! Verdicts: what one run of a program under test earns, and why.
//!
//! The order of the checks is the usual judges' one: a limit the harness enforced comes first
//! (output, then time, then memory), then an abnormal end (runtime error), and only then the
//! output itself. Both problems answer with one integer, so the output comparison is a strict
//! single-token integer comparison: surrounding whitespace of any kind is accepted, anything
//! else around the number is a presentation error.

use std::fmt;

use serde::{Serialize, Serializer};

use crate::run::{Execution, Limit, OutputFile, Termination, starved};
use crate::text::{hex_bytes, is_invisible, show_char};

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

/// Judges one run against the expected answer.
pub fn judge(execution: &Execution, expected: i64) -> Judgement {
    termination_judgement(execution)
        .or_else(|| missing_output_file(execution))
        .unwrap_or_else(|| compare(&execution.stdout, expected))
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

/// How many characters (or raw bytes) of a token a message shows.
const SHOWN_CHARS: usize = 24;

/// A token in double quotes, as [`crate::text::quote_bytes`] shows it: at most
/// `SHOWN_CHARS` characters.
fn quote(token: &[u8]) -> String {
    crate::text::quote_bytes(token, SHOWN_CHARS).text
}

/// The first thing in `token` (after an optional leading `-`) that is not an ASCII digit,
/// described for a message: `'.'`, `\xE2\x80\x8B`, `byte \xFF`.
fn first_non_digit(token: &[u8]) -> Option<String> {
    let body = token.strip_prefix(b"-").unwrap_or(token);
    let at = body.iter().position(|b| !b.is_ascii_digit())?;
    let rest = &body[at..];
    let chunk = rest.utf8_chunks().next()?;
    Some(match chunk.valid().chars().next() {
        Some(c) if is_invisible(c) => show_char(c),
        Some('\'') => "'\\''".to_string(),
        Some(c) => format!("'{c}'"),
        None => format!("byte {}", hex_bytes(&chunk.invalid()[..1])),
    })
}

/// Why a token is not an integer as testlib reads one, or `None` if it is one.
fn integer_error(token: &[u8]) -> Option<&'static str> {
    let digits = token.strip_prefix(b"-").unwrap_or(token);
    if token.starts_with("\u{FEFF}".as_bytes()) {
        Some("it starts with a UTF-8 byte-order mark, which the program must not print")
    } else if token.starts_with(b"+") {
        Some("a leading '+' is not allowed")
    } else if digits.is_empty() {
        Some("a minus sign needs digits after it")
    } else if !digits.iter().all(u8::is_ascii_digit) {
        None // described by first_non_digit
    } else if digits.len() > 1 && digits[0] == b'0' {
        Some("leading zeros are not allowed")
    } else if token == b"-0" {
        Some("minus zero is not allowed, write 0")
    } else {
        None
    }
}

/// The single integer an output holds, read as testlib's `readLong` reads it (testlib's
/// `stringToLongLong`): an optional `-` and decimal digits, no leading `+`, no leading zeros
/// (`0` itself is fine, `00`, `007` and `-0` are not), within the 64-bit range. Any ASCII
/// whitespace may surround it; nothing else may. `duipai test`, `stress` and `duipai-checker`
/// all judge with this, so they always agree, and agree with a testlib checker: `0011` and
/// `+12` are presentation errors, never accepted as 11 and 12. The error says what was found
/// and why it is wrong.
pub fn parse_answer(output: &[u8]) -> Result<i64, String> {
    let mut tokens = output
        .split(|b| b.is_ascii_whitespace())
        .filter(|t| !t.is_empty());
    let Some(token) = tokens.next() else {
        return Err("empty output".to_string());
    };
    // The first token's fault comes first, as in testlib; how much else there was helps to
    // recognise the output (a sentence, a debug dump).
    let bad = |why: &str, more: usize| {
        let tail = if more == 0 {
            String::new()
        } else {
            format!(" ({} tokens in all)", more + 1)
        };
        format!("expected an integer, found {}: {why}{tail}", quote(token))
    };
    if let Some(why) = integer_error(token) {
        return Err(bad(why, tokens.count()));
    }
    if let Some(what) = first_non_digit(token) {
        return Err(bad(&format!("{what} is not a digit"), tokens.count()));
    }
    // An optional '-' and ASCII digits: valid UTF-8, so only overflow can fail.
    let Some(value) = std::str::from_utf8(token)
        .ok()
        .and_then(|t| t.parse::<i64>().ok())
    else {
        return Err(bad("it does not fit in 64 bits", tokens.count()));
    };
    if let Some(extra) = tokens.next() {
        let more = tokens.count();
        let tail = if more == 0 {
            String::new()
        } else {
            format!(" and {more} more token{}", if more == 1 { "" } else { "s" })
        };
        return Err(format!(
            "expected one integer, found {}{tail} after {value}: nothing may follow the answer",
            quote(extra)
        ));
    }
    Ok(value)
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
            cpu_times: vec![Duration::from_millis(1200)],
            cpu_wait: Duration::ZERO,
            cpu_starved: false,
            output_file: None,
            wall_time: Duration::from_millis(1300),
            peak_memory_bytes: Some(300 << 20),
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
        judge(&execution(termination, stdout), expected).verdict
    }

    /// testlib's own integer reader decides: these are its accepted forms.
    #[test]
    fn reads_integers_as_testlib_does() {
        let table: &[(&[u8], i64)] = &[
            (b"2\n", 2),
            (b"0", 0),
            (b"  -17 \r\n\n", -17),
            (b"\t7\t", 7),
            (b"\x0c10\x0c", 10),
            (b"-9223372036854775808", i64::MIN),
            (b"9223372036854775807\n", i64::MAX),
            (b"1000000000000", 1_000_000_000_000),
        ];
        for &(output, want) in table {
            assert_eq!(
                parse_answer(output),
                Ok(want),
                "{:?}",
                String::from_utf8_lossy(output)
            );
        }
    }

    /// Everything else, each with the message that says why.
    #[test]
    fn rejects_with_a_reason() {
        let table: &[(&[u8], &str)] = &[
            (b"", "empty output"),
            (b" \n\t", "empty output"),
            (
                b"0011",
                r#"expected an integer, found "0011": leading zeros are not allowed"#,
            ),
            (
                b"00",
                r#"expected an integer, found "00": leading zeros are not allowed"#,
            ),
            (
                b"-07",
                r#"expected an integer, found "-07": leading zeros are not allowed"#,
            ),
            (
                b"+12",
                r#"expected an integer, found "+12": a leading '+' is not allowed"#,
            ),
            (
                b"+",
                r#"expected an integer, found "+": a leading '+' is not allowed"#,
            ),
            (
                b"-0",
                r#"expected an integer, found "-0": minus zero is not allowed, write 0"#,
            ),
            (
                b"-",
                r#"expected an integer, found "-": a minus sign needs digits after it"#,
            ),
            (
                b"--5",
                r#"expected an integer, found "--5": '-' is not a digit"#,
            ),
            (
                b"two",
                r#"expected an integer, found "two": 't' is not a digit"#,
            ),
            (
                b"3.0",
                r#"expected an integer, found "3.0": '.' is not a digit"#,
            ),
            (
                b"1e3",
                r#"expected an integer, found "1e3": 'e' is not a digit"#,
            ),
            (
                b"12'",
                r#"expected an integer, found "12'": '\'' is not a digit"#,
            ),
            (
                b"2\"",
                r#"expected an integer, found "2\"": '"' is not a digit"#,
            ),
            (
                "\u{FF12}".as_bytes(),
                "expected an integer, found \"\u{FF12}\": '\u{FF12}' is not a digit",
            ),
            (
                b"\xEF\xBB\xBF2\n",
                r#"expected an integer, found "\xEF\xBB\xBF2": it starts with a UTF-8 byte-order mark, which the program must not print"#,
            ),
            (
                b"\xff2",
                r#"expected an integer, found "\xFF2": byte \xFF is not a digit"#,
            ),
            (
                b"2\x00",
                r#"expected an integer, found "2\x00": \x00 is not a digit"#,
            ),
            (
                "2\u{200B}".as_bytes(),
                r#"expected an integer, found "2\xE2\x80\x8B": \xE2\x80\x8B is not a digit"#,
            ),
            (
                b"a\\b",
                r#"expected an integer, found "a\\b": 'a' is not a digit"#,
            ),
            (
                b"9223372036854775808",
                r#"expected an integer, found "9223372036854775808": it does not fit in 64 bits"#,
            ),
            (
                b"-9223372036854775809",
                r#"expected an integer, found "-9223372036854775809": it does not fit in 64 bits"#,
            ),
            (
                b"2 3\n",
                r#"expected one integer, found "3" after 2: nothing may follow the answer"#,
            ),
            (
                b"2\n3\n4 5",
                r#"expected one integer, found "3" and 2 more tokens after 2: nothing may follow the answer"#,
            ),
            (
                b"2 \xff",
                r#"expected one integer, found "\xFF" after 2: nothing may follow the answer"#,
            ),
            // The first token decides, as in testlib: its fault is named before any extra.
            (
                b"x 2",
                r#"expected an integer, found "x": 'x' is not a digit (2 tokens in all)"#,
            ),
            (
                b"the answer is 42\n",
                r#"expected an integer, found "the": 't' is not a digit (4 tokens in all)"#,
            ),
        ];
        for &(output, want) in table {
            assert_eq!(
                parse_answer(output),
                Err(want.to_string()),
                "{:?}",
                String::from_utf8_lossy(output)
            );
        }
    }

    #[test]
    fn long_tokens_are_cut() {
        let err = parse_answer(&[b'x'; 100]).unwrap_err();
        assert_eq!(
            err,
            format!(
                "expected an integer, found \"{}…\": 'x' is not a digit",
                "x".repeat(24)
            )
        );
        let err = parse_answer(&[0xff; 100]).unwrap_err();
        assert!(
            err.starts_with(&format!(
                "expected an integer, found \"{}…\"",
                r"\xFF".repeat(24)
            )),
            "{err}"
        );
    }

    /// No message ever carries a Rust debug escape (`\u{feff}`, `\0`, `\'`-style output of
    /// `{:?}`), whatever the bytes.
    #[test]
    fn messages_have_no_debug_escapes() {
        let samples: &[&[u8]] = &[
            b"\xEF\xBB\xBF1",
            "\u{FEFF}".as_bytes(),
            b"\x00\x01\x7f",
            "\u{202E}12".as_bytes(),
            b"\t\"q\"",
            b"1 \xc3",
        ];
        for sample in samples {
            let err = parse_answer(sample).unwrap_err();
            assert!(!err.contains("\\u{"), "{err}");
            assert!(!err.contains("\\0"), "{err}");
            assert!(!err.contains('\u{FEFF}'), "{err}");
            assert!(!err.contains('\u{202E}'), "{err}");
        }
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
        rerun.cpu_times = [1004, 1060, 1050].map(Duration::from_millis).to_vec();
        assert_eq!(
            judge(&rerun, 2).detail,
            "CPU 1.004 s, 1.060 s, 1.050 s (limit 1.000 s)"
        );
        let mut sleeper = execution(Over(Limit::WallTime), b"");
        sleeper.cpu_time = Duration::from_millis(100);
        sleeper.wall_time = Duration::from_millis(3200);
        assert_eq!(
            judge(&sleeper, 2).detail,
            "wall clock 3.200 s (limit 3.000 s) with 0.100 s of CPU: the program waits or sleeps"
        );
        sleeper.cpu_wait = Duration::from_millis(150);
        assert!(
            judge(&sleeper, 2)
                .detail
                .contains("(limit 3.000 s, besides 0.150 s waiting for a CPU)")
        );
        // Stopped only by the cap on waiting for a CPU.
        let mut starved = sleeper.clone();
        starved.wall_time = Duration::from_secs(30);
        starved.cpu_wait = Duration::from_millis(29_000);
        starved.cpu_starved = true;
        assert!(judge(&starved, 2).detail.contains("CPU-starved"));
        let mem = judge(&execution(Over(Limit::Memory), b""), 2);
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
                let judgement = judge(&e, 2);
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
            assert_eq!(judge(&e, 2).verdict, Verdict::Accepted);
        }
        let mut e = execution(Termination::Signaled(Signal(libc::SIGABRT)), b"");
        e.stderr = b"terminate called after throwing an instance of 'std::bad_alloc'\n".to_vec();
        assert_eq!(
            judge(&e, 2).detail,
            "an allocation was refused (std::bad_alloc): more memory than the limit allows \
             (peak resident memory 300.0 MiB, limit 256.0 MiB, address space bounded at 1536.0 MiB)"
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
