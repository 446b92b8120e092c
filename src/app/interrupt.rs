//! Ctrl-C, SIGTERM and SIGHUP: turned into the runner's cancel, so long commands stop cleanly
//! between steps instead of dying in the middle of one.

use std::sync::Once;

static INSTALL: Once = Once::new();

/// Installs the handler (once; later calls do nothing). On a signal it cancels the runner: it
/// kills every program being supervised (they run in their own process groups, out of the
/// terminal's reach, and would otherwise live on) and every program started after it, and
/// the engines stop between steps ([`crate::run::cancelled`]); and it stops any compiler
/// building a source file. If a handler cannot be installed, the signals keep their default
/// effect.
pub fn install() {
    INSTALL.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            crate::run::kill_running();
            crate::compile::cancel();
        });
    });
}
