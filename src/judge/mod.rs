//! Judging one case end to end: run the program through a [`Runner`] and decide its verdict
//! against the expected answers ([`crate::answer`]).

use std::ffi::OsString;

use crate::run::{Execution, IoMode, Limits, RunError};

pub use crate::answer::Expected;

pub mod checker;
pub mod helper;
pub mod verdict;

pub use checker::Checker;
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
    fn run_single(
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

    fn run_single(
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

/// Runs `program` on `input` and judges the result. An error is the harness's: the program
/// could not start, or the checker failed.
pub fn judge_case(
    runner: &dyn Runner,
    program: &[OsString],
    input: &[u8],
    expected: &Expected,
    limits: &Limits,
    io: &IoMode,
    decider: &Decider,
) -> anyhow::Result<CaseOutcome> {
    let execution = runner.run(program, input, limits, io)?;
    let judgement = decider.decide(runner, input, &execution, expected)?;
    Ok(CaseOutcome {
        judgement,
        execution,
    })
}

/// How the output of a program that ran cleanly is decided: compared with the expected
/// answers by duipai ([`crate::answer`]), or by an external [`Checker`] given the input,
/// the output and the expected answers as its answer file.
#[derive(Clone, Debug, Default)]
pub enum Decider {
    #[default]
    Compare,
    Checker(Checker),
}

impl Decider {
    /// The verdict of a finished execution on `input`: a limit or an abnormal end decides
    /// first, then the output. An error when the checker itself fails.
    pub fn decide(
        &self,
        runner: &dyn Runner,
        input: &[u8],
        execution: &Execution,
        expected: &Expected,
    ) -> anyhow::Result<Judgement> {
        let ended = verdict::termination_judgement(execution)
            .or_else(|| verdict::missing_output_file(execution));
        if let Some(judgement) = ended {
            return Ok(judgement);
        }
        match self {
            Decider::Compare => Ok(verdict::compare(&execution.stdout, expected)),
            Decider::Checker(checker) => {
                checker.check(runner, input, &execution.stdout, expected.text.as_bytes())
            }
        }
    }
}

/// The verdict of a finished execution against the expected output.
pub fn decide(execution: &Execution, expected: &Expected) -> Judgement {
    verdict::judge(execution, expected)
}
