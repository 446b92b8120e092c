//! Problems from the browser: the JSON document the Competitive Companion extension posts for
//! each problem of a judge's page (`task.rs`), the folder a problem becomes (`folder.rs`), the
//! problems of one contest gathered until the whole batch is there (`batch.rs`), and the
//! loopback HTTP receiver they arrive through (`receiver.rs`). `duipai listen` drives them.

pub mod batch;
pub mod folder;
pub mod receiver;
pub mod task;

pub use batch::Batches;
pub use folder::{Landed, land};
pub use receiver::{Posted, Receiver};
pub use task::{Task, parse_task};
