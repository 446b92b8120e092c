//! `duipai gen`.

use crate::cli::GenCommandArgs;
use crate::exit::Status;

pub fn run(_args: GenCommandArgs) -> anyhow::Result<Status> {
    anyhow::bail!("`duipai gen` is not built yet")
}
