//! Interactive problems: the program talks with an interactor, testlib's protocol
//! (`interactor input output`, its stdin the program's stdout and its stdout the program's
//! stdin), and the interactor's exit code is the verdict: 0 accepted, 1 wrong answer, 2
//! presentation error (and 8, testlib's unexpected end of file), 3 its own failure.
//!
//! The order: an interactor that stalled while the program waited for its reply (it slept
//! or computed, not reading, when the program was stopped as idle or past the wall clock)
//! is the harness's failure, not the program's time limit. So is an interactor that broke
//! by itself, whatever the program did, for the program may only have reacted to it: it
//! said it failed (exit 3, testlib's FAIL: an invalid input, a bug of its own), a signal
//! killed it, or it ran past its own limits (unless the harness stopped it because the
//! program's verdict was decided). An interactor that rejects the program (WA, PE) before
//! the program ends decides, as BAPCtools and DOMjudge decide: the program is stopped at
//! once, and its end (an EOF error, most often) is not judged; a limit the program exceeded
//! before still is. Otherwise the program's own end decides, as on every judge: a crash, a
//! time or memory limit, or idleness (both waiting to read) is the program's verdict,
//! whatever the interactor did after it. Then an interactor that failed otherwise (an
//! uncaught exception, any code the protocol does not define) is the harness's failure, an
//! error naming it, never the program's; else its exit code is the verdict.

use std::ffi::OsString;

use anyhow::Context;

use super::checker::testlib_verdict;
use super::helper::{Fault, HelperFailed};
use super::{Judgement, Ran, Runner, Verdict};
use crate::run::{Limits, RunError, Termination};

/// An interactor, ready to run.
#[derive(Clone, Debug)]
pub struct Interactor {
    /// The command that runs it (a source file already compiled); the two files are appended.
    pub command: Vec<OsString>,
    /// How messages name it, as the user typed it (`interactor.cpp`).
    pub name: String,
    /// Its limits: generous, it is trusted ([`super::helper::helper_limits`]).
    pub limits: Limits,
}

impl Interactor {
    /// Runs `program` against the interactor on `input`, the program under `limits`,
    /// measured steadily when `steady`.
    pub fn run(
        &self,
        runner: &dyn Runner,
        program: &[OsString],
        input: &[u8],
        limits: &Limits,
        steady: bool,
    ) -> anyhow::Result<Ran> {
        let interaction = runner
            .interact(&super::InteractiveRun {
                program,
                interactor: &self.command,
                input,
                limits,
                interactor_limits: &self.limits,
                steady,
            })
            .map_err(|e| match &e {
                // Which of the two could not start.
                RunError::Spawn { program: exe, .. } if self.command.first() == Some(exe) => {
                    anyhow::Error::new(e)
                        .context(format!("cannot start the interactor {}", self.name))
                }
                _ => anyhow::Error::new(e),
            })?;
        Ok(Ran::from(interaction))
    }

    /// The verdict of an interactive run (in the order of the module notes); an error when
    /// the interactor failed.
    pub fn decide(&self, ran: &Ran) -> anyhow::Result<Judgement> {
        let (interactor, _) = ran
            .interactor
            .as_ref()
            .context("an interactive problem's run has no interactor")?;
        let failed = |fault, why: String| {
            HelperFailed::error(fault, format!("the interactor {} failed: {why}", self.name))
        };
        if let Some(doing) = &ran.interactor_stalled {
            let stopped = super::verdict::termination_judgement(&ran.execution)
                .map(|j| format!(" ({})", j.detail))
                .unwrap_or_default();
            return Err(failed(
                Fault::Limit,
                format!(
                    "it did not answer: it was {doing}, not reading, when the program, waiting \
                     for its reply, was stopped{stopped}"
                ),
            ));
        }
        let said = testlib_verdict(interactor);
        if !ran.interactor_dismissed {
            // Broken whatever the program did: it said so (testlib's FAIL), it was killed by
            // a signal, or it ran past its own limits.
            let broken = match interactor.termination {
                Termination::Exited(3) => Some(Fault::Rejected),
                Termination::Signaled(_) => Some(Fault::Crashed),
                Termination::LimitExceeded(_) => Some(Fault::Limit),
                Termination::Exited(_) => None,
            };
            if let (Some(fault), Err(why)) = (broken, &said) {
                return Err(failed(fault, why.clone()));
            }
        }
        let (_, transcript) = ran.interactor.as_ref().expect("checked above");
        match said {
            Ok(rejection)
                if transcript.interactor_ended_first
                    && rejection.verdict != Verdict::Accepted
                    && !matches!(ran.execution.termination, Termination::LimitExceeded(_)) =>
            {
                Ok(rejection)
            }
            _ => match super::verdict::termination_judgement(&ran.execution) {
                Some(ended) => Ok(ended),
                None => said.map_err(|why| failed(Fault::Crashed, why)),
            },
        }
    }
}
