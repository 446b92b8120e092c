//! Ctrl-C, SIGTERM and SIGHUP: recorded once per process, so long commands stop cleanly
//! between steps instead of dying in the middle of one.

use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static INSTALL: Once = Once::new();

/// Installs the handler (once; later calls do nothing). On a signal it records the interrupt
/// and kills every program the runner is supervising: they run in their own process groups,
/// out of the terminal's reach, and would otherwise live on (or run to their time limits).
/// If a handler cannot be installed, the signals keep their default effect.
pub fn install() {
    INSTALL.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            INTERRUPTED.store(true, Ordering::SeqCst);
            crate::run::kill_running();
        });
    });
}

/// Whether an interrupt arrived. A run that was going on then may have been killed by it, so
/// its result says nothing about the program.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}
