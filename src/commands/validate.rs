//! `duipai validate`.

use crate::cli::ValidateArgs;
use crate::exit::Status;

pub fn run(_args: ValidateArgs) -> anyhow::Result<Status> {
    anyhow::bail!("`duipai validate` is not built yet")
}
