//! `duipai test`.

use crate::cli::TestArgs;
use crate::exit::Status;

pub fn run(_args: TestArgs) -> anyhow::Result<Status> {
    anyhow::bail!("`duipai test` is not built yet")
}
