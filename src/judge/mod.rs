//! Judging one case end to end: run the program through a [`Runner`] and decide its verdict
//! against the expected output, an integer answer or, for external references, plain tokens.

use std::ffi::OsString;

use crate::run::{Execution, IoMode, Limits, RunError};
use crate::text::quote;

pub mod verdict;

pub use verdict::{Judgement, Verdict};

/// What starts programs: the real process runner, or a test double that answers in-process
/// so that suites, stress and minimization can be tested without spawning anything.
pub trait Runner: Sync {
    /// Runs `program` (the executable and its arguments) on `input` under `limits`. `Err`
    /// only for a harness failure; whatever the program does is in the [`Execution`].
    fn run(
        &self,
        program: &[OsString],
        input: &[u8],
        limits: &Limits,
        io: &IoMode,
    ) -> Result<Execution, RunError>;

    /// One run, never repeated to steady a measurement: for probes whose number matters
    /// more than their precision (minimization).
    fn run_once(
        &self,
        program: &[OsString],
        input: &[u8],
        limits: &Limits,
        io: &IoMode,
    ) -> Result<Execution, RunError> {
        self.run(program, input, limits, io)
    }
}

/// The real runner: each run is a supervised process ([`crate::run::run`]).
///
/// With `rerun`, a run near the limit ([`crate::run::near_the_limit`]) is run again, up to two
/// more times, and judged on the fastest ([`crate::run::run_steady`]): a verdict near the
/// limit should not depend on what else the machine was doing. Every CPU time measured is
/// kept in [`Execution::cpu_times`].
#[derive(Clone, Copy, Debug)]
pub struct ProcessRunner {
    pub rerun: bool,
}

impl Default for ProcessRunner {
    fn default() -> Self {
        ProcessRunner { rerun: true }
    }
}

impl Runner for ProcessRunner {
    fn run(
        &self,
        program: &[OsString],
        input: &[u8],
        limits: &Limits,
        io: &IoMode,
    ) -> Result<Execution, RunError> {
        crate::run::run_steady(program, input, limits, io, self.rerun)
    }

    fn run_once(
        &self,
        program: &[OsString],
        input: &[u8],
        limits: &Limits,
        io: &IoMode,
    ) -> Result<Execution, RunError> {
        crate::run::run(program, input, limits, io)
    }
}

/// What the program should print.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expected {
    /// One integer (both built-in problems): malformed output is a presentation error.
    Answer(i64),
    /// Any text, compared token by token (whitespace-insensitive), for problems duipai does
    /// not know (answers from `.ans` files or an external reference).
    Tokens(String),
}

impl Expected {
    /// Reads an answer file or a reference's output: one integer if it is one, tokens otherwise.
    pub fn from_bytes(bytes: &[u8]) -> Expected {
        match verdict::parse_answer(bytes) {
            Ok(value) => Expected::Answer(value),
            Err(_) => Expected::Tokens(String::from_utf8_lossy(bytes).into_owned()),
        }
    }

    /// The expected output as a program should print it.
    pub fn to_text(&self) -> String {
        match self {
            Expected::Answer(v) => format!("{v}\n"),
            Expected::Tokens(t) => t.clone(),
        }
    }
}

/// The result of running a program on one case.
#[derive(Clone, Debug)]
pub struct CaseOutcome {
    pub judgement: Judgement,
    pub execution: Execution,
}

impl CaseOutcome {
    pub fn verdict(&self) -> Verdict {
        self.judgement.verdict
    }
}

/// Runs `program` on `input` and judges the result.
pub fn judge_case(
    runner: &dyn Runner,
    program: &[OsString],
    input: &[u8],
    expected: &Expected,
    limits: &Limits,
    io: &IoMode,
) -> Result<CaseOutcome, RunError> {
    let execution = runner.run(program, input, limits, io)?;
    let judgement = decide(&execution, expected);
    Ok(CaseOutcome {
        judgement,
        execution,
    })
}

/// The verdict of a finished execution against the expected output.
pub fn decide(execution: &Execution, expected: &Expected) -> Judgement {
    match expected {
        Expected::Answer(value) => verdict::judge(execution, *value),
        Expected::Tokens(text) => {
            if let Some(stopped) = verdict::termination_judgement(execution)
                .or_else(|| verdict::missing_output_file(execution))
            {
                return stopped;
            }
            let actual = String::from_utf8_lossy(&execution.stdout);
            let mut want = text.split_whitespace();
            let mut got = actual.split_whitespace();
            let mut index = 1usize;
            loop {
                match (want.next(), got.next()) {
                    (None, None) => {
                        return Judgement {
                            verdict: Verdict::Accepted,
                            detail: format!("{} tokens", index - 1),
                        };
                    }
                    (Some(w), Some(g)) if w == g => index += 1,
                    (w, g) => {
                        return Judgement {
                            verdict: Verdict::WrongAnswer,
                            detail: format!(
                                "token {index}: expected {}, found {}",
                                w.map_or("end of output".into(), |t| quote(&short(t))),
                                g.map_or("end of output".into(), |t| quote(&short(t)))
                            ),
                        };
                    }
                }
            }
        }
    }
}

fn short(token: &str) -> String {
    match token.char_indices().nth(20) {
        Some((cut, _)) => format!("{}…", &token[..cut]),
        None => token.to_string(),
    }
}
