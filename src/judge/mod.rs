//! Judging one case end to end: run the program through a [`Runner`] (alone, or against an
//! interactor) and decide its verdict against the expected answers ([`crate::answer`]), by a
//! checker, or by the interactor.

use std::ffi::OsString;

use crate::excerpt::Compared;
use crate::run::{Execution, Interaction, IoMode, Limits, RunError, Transcript};

pub use crate::answer::Expected;

pub mod checker;
pub mod helper;
pub mod interactor;
pub mod scripted;
pub mod verdict;

pub use checker::Checker;
pub use interactor::Interactor;
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

    /// Runs a helper (a generator, a reference, a validator, a checker) on `input` on
    /// stdin under `limits`, once: its verdict is not measured, only whether it ran cleanly.
    fn run_helper(
        &self,
        command: &[OsString],
        input: &[u8],
        limits: &Limits,
    ) -> Result<Execution, RunError> {
        self.run_single(command, input, limits, &IoMode::Stdio)
    }

    /// Runs a program against an interactor ([`crate::run::run_interactive`]), as `run`
    /// says. A runner that cannot start two processes talking to each other (a test double
    /// answering in-process) says so.
    fn interact(&self, _run: &InteractiveRun) -> Result<Interaction, RunError> {
        Err(RunError::Setup {
            what: "this runner cannot run interactive problems".to_string(),
            source: std::io::Error::from(std::io::ErrorKind::Unsupported),
        })
    }
}

/// An interactive run: `program` against `interactor` on `input`, the program under
/// `limits`, the interactor under `interactor_limits`; measured steadily when `steady`, as
/// [`Runner::run`] is.
pub struct InteractiveRun<'a> {
    pub program: &'a [OsString],
    pub interactor: &'a [OsString],
    pub input: &'a [u8],
    pub limits: &'a Limits,
    pub interactor_limits: &'a Limits,
    pub steady: bool,
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

    fn run_helper(
        &self,
        command: &[OsString],
        input: &[u8],
        limits: &Limits,
    ) -> Result<Execution, RunError> {
        crate::run::run_helper(command, input, limits)
    }

    fn interact(&self, run: &InteractiveRun) -> Result<Interaction, RunError> {
        crate::run::interact_steady(
            run.program,
            run.interactor,
            run.input,
            run.limits,
            run.interactor_limits,
            run.steady && self.rerun,
        )
    }
}

/// The result of running a program on one case.
#[derive(Clone, Debug)]
pub struct CaseOutcome {
    pub judgement: Judgement,
    pub execution: Execution,
    /// What the program and the interactor said to each other, on an interactive problem.
    pub transcript: Option<Transcript>,
    /// For a case not accepted: the expected answer and the output, each as an excerpt
    /// around their first differing line ([`CaseOutcome::compared_with`]).
    pub shown: Option<Compared>,
}

/// How much of a judged case's output is kept once its verdict and excerpts are made.
pub const OUTPUT_KEPT: usize = 4096;

impl CaseOutcome {
    pub fn verdict(&self) -> Verdict {
        self.judgement.verdict
    }

    /// For a wrong or malformed answer (not interactive), the excerpts of the expected answer
    /// and the output around their first differing line, read as streams.
    pub fn compared_with(mut self, expected: &Expected) -> CaseOutcome {
        self.compare_with(expected);
        self
    }

    /// [`CaseOutcome::compared_with`], in place.
    pub fn compare_with(&mut self, expected: &Expected) {
        // Only a wrong or malformed answer is worth comparing line by line; a crash, a
        // limit or a flood is shown by the start of what it printed.
        let answered = matches!(
            self.verdict(),
            Verdict::WrongAnswer | Verdict::PresentationError
        );
        if answered && self.transcript.is_none() {
            self.shown = Some(crate::excerpt::compare(
                expected.text.as_bytes(),
                self.execution.stdout.reader(),
            ));
        }
    }

    /// The outcome with only the start of the output kept: what reports need of a case
    /// once it is judged, so that judging many cases keeps none of their outputs.
    pub fn bounded(mut self) -> CaseOutcome {
        self.execution.stdout = self.execution.stdout.forget_beyond(OUTPUT_KEPT);
        self
    }
}

/// One run of the program on a case, as its [`Decider`] needs it.
#[derive(Clone, Debug)]
pub struct Ran {
    pub execution: Execution,
    /// On an interactive problem: the interactor's run and the exchange.
    pub interactor: Option<(Execution, Transcript)>,
    /// See [`Interaction::interactor_dismissed`].
    pub interactor_dismissed: bool,
    /// See [`Interaction::interactor_stalled`].
    pub interactor_stalled: Option<String>,
}

impl From<Interaction> for Ran {
    fn from(interaction: Interaction) -> Ran {
        Ran {
            execution: interaction.program,
            interactor: Some((interaction.interactor, interaction.transcript)),
            interactor_dismissed: interaction.interactor_dismissed,
            interactor_stalled: interaction.interactor_stalled,
        }
    }
}

/// Runs `program` on `input` and judges the result. An error is the harness's: the program
/// could not start, or the checker or the interactor failed.
pub fn judge_case(
    runner: &dyn Runner,
    program: &[OsString],
    input: &[u8],
    expected: &Expected,
    limits: &Limits,
    io: &IoMode,
    decider: &Decider,
) -> anyhow::Result<CaseOutcome> {
    let ran = decider.execute(runner, program, input, limits, io, true)?;
    let judgement = decider.decide(runner, input, &ran, expected)?;
    Ok(ran.judged(judgement))
}

impl Ran {
    /// The outcome, with its verdict.
    pub fn judged(self, judgement: Judgement) -> CaseOutcome {
        CaseOutcome {
            judgement,
            execution: self.execution,
            transcript: self.interactor.map(|(_, transcript)| transcript),
            shown: None,
        }
    }
}

/// How the output of a program that ran cleanly is decided: compared with the expected
/// answers by duipai ([`crate::answer`]), by an external [`Checker`] given the input, the
/// output and the expected answers as its answer file, or by an [`Interactor`] the program
/// talks with.
#[derive(Clone, Debug, Default)]
pub enum Decider {
    #[default]
    Compare,
    Checker(Checker),
    Interactor(Interactor),
}

impl Decider {
    /// Runs the program on `input` as this decider needs: alone, or against the interactor;
    /// measured steadily ([`Runner::run`]) when `steady`, else once.
    pub fn execute(
        &self,
        runner: &dyn Runner,
        program: &[OsString],
        input: &[u8],
        limits: &Limits,
        io: &IoMode,
        steady: bool,
    ) -> anyhow::Result<Ran> {
        if let Decider::Interactor(interactor) = self {
            return interactor.run(runner, program, input, limits, steady);
        }
        let execution = if steady {
            runner.run(program, input, limits, io)?
        } else {
            runner.run_single(program, input, limits, io)?
        };
        Ok(Ran {
            execution,
            interactor: None,
            interactor_dismissed: false,
            interactor_stalled: None,
        })
    }

    /// The verdict of a finished run on `input`: a limit or an abnormal end decides first,
    /// then the output (or the interactor). An error when the checker or the interactor
    /// itself fails.
    pub fn decide(
        &self,
        runner: &dyn Runner,
        input: &[u8],
        ran: &Ran,
        expected: &Expected,
    ) -> anyhow::Result<Judgement> {
        if let Decider::Interactor(interactor) = self {
            return interactor.decide(ran);
        }
        let execution = &ran.execution;
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
            Decider::Interactor(interactor) => interactor.decide(ran),
        }
    }
}

/// The verdict of a finished execution against the expected output.
pub fn decide(execution: &Execution, expected: &Expected) -> Judgement {
    verdict::judge(execution, expected)
}
