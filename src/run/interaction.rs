//! What an interactive run observed ([`Interaction`]) and its idleness limit, on every system.

use std::time::Duration;

use super::Execution;
use super::transcript::Transcript;

/// How long every live party may sleep with nothing moving between them before the run is
/// stopped for idleness (at most the wall-clock limit).
pub const IDLENESS: Duration = Duration::from_secs(1);

/// Everything observed about an interactive run.
#[derive(Clone, Debug)]
pub struct Interaction {
    /// The program's run: its stdout is everything it wrote (up to the output limit).
    pub program: Execution,
    /// The interactor's run: its stderr carries its message.
    pub interactor: Execution,
    pub transcript: Transcript,
    /// The interactor was killed by the harness because the program's verdict was decided
    /// without it (the program ran past a limit): how it ended says nothing about it.
    pub interactor_dismissed: bool,
    /// The program was stopped (idle, or past the wall clock) while it waited for the
    /// interactor's reply, and the interactor was not waiting for the program: what the
    /// interactor was doing instead (`sleeping`, `computing`). The interactor's failure, not
    /// the program's.
    pub interactor_stalled: Option<String>,
}
