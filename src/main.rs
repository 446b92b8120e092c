//! The `duipai` binary: parse the command line, hand it to the library, map the outcome to an exit status.

use std::process::ExitCode;

fn main() -> ExitCode {
    duipai::cli::main()
}
