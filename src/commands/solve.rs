//! `duipai solve`.

use crate::cli::SolveArgs;
use crate::exit::Status;

pub fn run(_args: SolveArgs) -> anyhow::Result<Status> {
    anyhow::bail!("`duipai solve` is not built yet")
}
