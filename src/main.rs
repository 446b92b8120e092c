//! The `duipai` binary: everything happens in the library's command-line layer.

use std::process::ExitCode;

fn main() -> ExitCode {
    duipai::app::main()
}
