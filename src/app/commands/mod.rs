//! One module per subcommand: each converts its arguments into engine types, runs the
//! engine, and hands the outcome to a reporter.

pub mod answers;
pub mod doctor;
pub mod failures;
pub mod generate;
pub mod hunt;
pub mod init;
pub mod judge;
pub mod listen;
pub mod pack;
pub mod shell;
pub mod solve;
pub mod stress;
pub mod test;
pub mod validate;
