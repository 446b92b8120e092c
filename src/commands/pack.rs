//! `duipai pack`.

use crate::cli::PackArgs;
use crate::exit::Status;

pub fn run(_args: PackArgs) -> anyhow::Result<Status> {
    anyhow::bail!("`duipai pack` is not built yet")
}
