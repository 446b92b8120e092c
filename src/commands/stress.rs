//! `duipai stress`.

use crate::cli::StressArgs;
use crate::exit::Status;

pub fn run(_args: StressArgs) -> anyhow::Result<Status> {
    anyhow::bail!("`duipai stress` is not built yet")
}
