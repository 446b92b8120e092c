//! Judging one case end to end: run the program through a [`Runner`] and decide its verdict
//! against the expected answers ([`crate::answer`]).

use std::ffi::OsString;

use crate::run::{Execution, IoMode, Limits, RunError};

pub use crate::answer::Expected;

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
    verdict::judge(execution, expected)
}
