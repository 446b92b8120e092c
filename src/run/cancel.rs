//! The one cancel flag: which programs are running now ([`RUNNING`]), [`kill_running`] for an
//! interrupt handler, and [`cancelled`] for the code that decides whether a result counts.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// Process groups of programs running now, so that an interrupted harness can kill them.
static RUNNING: Mutex<Vec<i32>> = Mutex::new(Vec::new());

/// Set by [`kill_running`] (under the `RUNNING` lock): programs started from then on are killed
/// as soon as they are registered.
static STOPPING: AtomicBool = AtomicBool::new(false);

/// Kills every program the runner is supervising right now, with its whole process group, and
/// every program started after this call. Meant for an interrupt handler: the programs run in
/// their own groups, so a terminal's Ctrl-C does not reach them, and nothing kills them when
/// the harness exits. A program being started at the same instant is caught too: it registers
/// under the same lock and then sees the flag.
pub fn kill_running() {
    let groups = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    STOPPING.store(true, Ordering::SeqCst);
    for &pgid in groups.iter() {
        // SAFETY: killpg has no memory effects; the group is still reserved because its
        // leader is not reaped before it is removed from this list.
        unsafe { libc::killpg(pgid, libc::SIGKILL) };
    }
}

/// Whether [`kill_running`] was called: runs since then were killed, and their results say
/// nothing about the program.
pub fn cancelled() -> bool {
    STOPPING.load(Ordering::SeqCst)
}

/// Records a started program's group; returns whether the harness is being stopped, in which
/// case the caller kills it at once (its result will be discarded).
pub(crate) fn register(pgid: i32) -> bool {
    let mut groups = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    groups.push(pgid);
    STOPPING.load(Ordering::SeqCst)
}

/// Forgets a group, before its leader is reaped (after that, its id may be reused).
pub(crate) fn unregister(pgid: i32) {
    let mut groups = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    groups.retain(|&g| g != pgid);
}
