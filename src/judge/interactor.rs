//! Interactive problems: the program talks with an interactor, testlib's protocol
//! (`interactor input output`, its stdin the program's stdout and its stdout the program's
//! stdin), and the interactor's exit code is the verdict: 0 accepted, 1 wrong answer, 2
//! presentation error (and 8, testlib's unexpected end of file), 3 its own failure.
//!
//! The program's own end decides first, as on every judge: a crash, a time or memory limit,
//! or idleness (both waiting to read) is the program's verdict whatever the interactor said
//! after it. An interactor that fails (exit 3, a crash, any code the protocol does not
//! define, a limit) is the harness's failure, an error naming it, never the program's.

use std::ffi::OsString;

use anyhow::Context;

use super::checker::testlib_verdict;
use super::{Judgement, Ran, Runner};
use crate::run::{Limits, RunError};

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
    ) -> Result<Ran, RunError> {
        let interaction =
            runner.interact(program, &self.command, input, limits, &self.limits, steady)?;
        Ok(Ran::from(interaction))
    }

    /// The verdict the interactor gave a program that ran cleanly; an error when the
    /// interactor failed.
    pub fn decide(&self, ran: &Ran) -> anyhow::Result<Judgement> {
        let (interactor, _) = ran
            .interactor
            .as_ref()
            .context("an interactive problem's run has no interactor")?;
        testlib_verdict(interactor).map_err(|why| {
            anyhow::Error::new(InteractorFailed(format!(
                "the interactor {} failed: {why}",
                self.name
            )))
        })
    }
}

/// An interactor that ran and failed (rather than could not start): in a stress test without
/// a validator, a sign that the input it was given is not valid.
#[derive(Debug)]
pub struct InteractorFailed(String);

impl std::fmt::Display for InteractorFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InteractorFailed {}
