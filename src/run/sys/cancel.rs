//! The one cancel flag and the runs under way off Linux: [`kill_running`] ends every tree
//! registered (and every one registered after it), [`cancelled`] says whether it was called.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::{Started, Tree};

type Ender = <Started as Tree>::Ender;

/// The runs under way: their ids and, while their trees may be ended, their enders.
static RUNS: Mutex<Vec<(u64, Option<Ender>)>> = Mutex::new(Vec::new());

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// Set by [`kill_running`] (under the `RUNS` lock).
static STOPPING: AtomicBool = AtomicBool::new(false);

/// Ends every program the runner is supervising right now, with everything it started, and
/// every program started after this call: for an interrupt handler (the programs do not get
/// the console's Ctrl-C themselves).
pub fn kill_running() {
    let runs = RUNS.lock().unwrap_or_else(|e| e.into_inner());
    STOPPING.store(true, Ordering::SeqCst);
    for ender in runs.iter().filter_map(|(_, ender)| *ender) {
        Started::end_by(ender);
    }
}

/// Whether [`kill_running`] was called: runs since then were killed, and their results say
/// nothing about the program.
pub fn cancelled() -> bool {
    STOPPING.load(Ordering::SeqCst)
}

/// One run's place in the register; dropping it ends the run's registration.
pub(super) struct RunEntry {
    id: u64,
}

impl RunEntry {
    pub(super) fn begin() -> RunEntry {
        let id = NEXT_ID.fetch_add(1, Ordering::SeqCst);
        RUNS.lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((id, None));
        RunEntry { id }
    }

    /// Registers the started tree's ender; returns whether the harness is being stopped, in
    /// which case the caller ends the tree at once.
    pub(super) fn started(&self, ender: Ender) -> bool {
        self.set(Some(ender));
        STOPPING.load(Ordering::SeqCst)
    }

    /// Forgets the ender, before the tree's ids may be released (its first process reaped).
    pub(super) fn ending(&self) {
        self.set(None);
    }

    fn set(&self, ender: Option<Ender>) {
        let mut runs = RUNS.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(entry) = runs.iter_mut().find(|(id, _)| *id == self.id) {
            entry.1 = ender;
        }
    }
}

impl Drop for RunEntry {
    fn drop(&mut self) {
        let mut runs = RUNS.lock().unwrap_or_else(|e| e.into_inner());
        runs.retain(|(id, _)| *id != self.id);
    }
}
