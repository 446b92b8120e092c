//! What an interactive run observed ([`Interaction`]), its idleness limit, and the
//! interactor's two files, on every system.

use std::ffi::OsString;
use std::time::Duration;

use super::Execution;
use super::error::{RunError, setup_error};
use super::transcript::Transcript;

/// The interactor's arguments followed by its two files, testlib's `input` (the case, written
/// into a fresh scratch folder, returned to be kept as long as the run) and `output`, which
/// it may write.
pub(crate) fn interactor_files(
    args: &[OsString],
    input: &[u8],
) -> Result<(tempfile::TempDir, Vec<OsString>), RunError> {
    let files = super::temp_folder("interact").map_err(setup_error(
        "cannot create a scratch directory for the interactor",
    ))?;
    let input_path = files.path().join("input");
    std::fs::write(&input_path, input).map_err(setup_error(format!(
        "cannot write {}",
        input_path.display()
    )))?;
    let mut args = args.to_vec();
    args.push(input_path.into_os_string());
    args.push(files.path().join("output").into_os_string());
    Ok((files, args))
}

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
