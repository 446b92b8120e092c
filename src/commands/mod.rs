//! One module per subcommand: each takes its parsed arguments and returns an exit status.

pub mod generate;
pub mod pack;
pub mod solve;
pub mod stress;
pub mod test;
pub mod validate;
