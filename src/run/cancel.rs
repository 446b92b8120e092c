//! The one cancel flag and the register of runs under way: which runs are going on now (their
//! ids, and their leaders' groups while those are unreaped), [`kill_running`] for an interrupt
//! handler, and [`cancelled`] for the code that decides whether a result counts.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// A run under way: from before its program starts until its cleanup is over.
struct Entry {
    id: u64,
    /// The leader's process group, from its start until just before it is reaped (after that,
    /// the group id may be reused, and must not be signalled).
    pgid: Option<i32>,
    /// The leader's pid, from its start until it is reaped: another run's cleanup must not
    /// reap it in between (its owner's wait would fail).
    leader: Option<i32>,
    /// Its program is being started: the leader's pid is not known yet.
    starting: bool,
}

/// The runs under way, so that an interrupted harness can kill their programs, and so that
/// the cleanup of one run can tell an orphan of a finished run from one of a run still going.
static RUNS: Mutex<Vec<Entry>> = Mutex::new(Vec::new());

/// The next run id; ids are never reused within a process.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// Set by [`kill_running`] (under the `RUNS` lock): programs started from then on are killed
/// as soon as they are registered.
static STOPPING: AtomicBool = AtomicBool::new(false);

/// Kills every program the runner is supervising right now, with its whole process group, and
/// every program started after this call. Meant for an interrupt handler: the programs run in
/// their own groups, so a terminal's Ctrl-C does not reach them, and nothing kills them when
/// the harness exits. A program being started at the same instant is caught too: it registers
/// under the same lock and then sees the flag. Processes a program started outside its group
/// are killed by its run's own cleanup, which follows at once.
pub fn kill_running() {
    let runs = RUNS.lock().unwrap_or_else(|e| e.into_inner());
    STOPPING.store(true, Ordering::SeqCst);
    for pgid in runs.iter().filter_map(|r| r.pgid) {
        // SAFETY: killpg has no memory effects; the group is still reserved because its
        // leader is not reaped before its pgid is taken off this list.
        unsafe { libc::killpg(pgid, libc::SIGKILL) };
    }
}

/// Whether [`kill_running`] was called: runs since then were killed, and their results say
/// nothing about the program.
pub fn cancelled() -> bool {
    STOPPING.load(Ordering::SeqCst)
}

/// One run's place in the register, from before its program starts until the end of its
/// cleanup; dropping it ends the run.
pub(crate) struct RunEntry {
    id: u64,
}

impl RunEntry {
    /// Registers a new run, before its program starts.
    pub(crate) fn begin() -> RunEntry {
        let id = NEXT_ID.fetch_add(1, Ordering::SeqCst);
        let mut runs = RUNS.lock().unwrap_or_else(|e| e.into_inner());
        runs.push(Entry {
            id,
            pgid: None,
            leader: None,
            starting: true,
        });
        RunEntry { id }
    }

    pub(crate) fn id(&self) -> u64 {
        self.id
    }

    /// Records the started program's group; returns whether the harness is being stopped, in
    /// which case the caller kills it at once (its result will be discarded).
    pub(crate) fn set_leader(&self, pgid: i32) -> bool {
        self.with_entry(|e| {
            e.pgid = Some(pgid);
            e.leader = Some(pgid);
            e.starting = false;
        });
        STOPPING.load(Ordering::SeqCst)
    }

    /// Forgets the group, before its leader is reaped.
    pub(crate) fn leader_reaping(&self) {
        self.with_entry(|e| e.pgid = None);
    }

    /// Forgets the leader, once its owner has reaped it (its pid may be reused from then on).
    pub(crate) fn leader_reaped(&self) {
        self.with_entry(|e| e.leader = None);
    }

    fn with_entry(&self, f: impl FnOnce(&mut Entry)) {
        let mut runs = RUNS.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(entry) = runs.iter_mut().find(|e| e.id == self.id) {
            f(entry);
        }
    }
}

impl Drop for RunEntry {
    fn drop(&mut self) {
        let mut runs = RUNS.lock().unwrap_or_else(|e| e.into_inner());
        runs.retain(|e| e.id != self.id);
    }
}

/// Whether the run whose id has these low 32 bits (as much of an id as a process tag holds)
/// was started and is over, its cleanup included.
pub(crate) fn run_is_over(id_low_bits: u32) -> bool {
    let runs = RUNS.lock().unwrap_or_else(|e| e.into_inner());
    let issued = NEXT_ID.load(Ordering::SeqCst);
    let started = issued > u64::from(id_low_bits) || issued > u64::from(u32::MAX);
    started && !runs.iter().any(|e| e.id as u32 == id_low_bits)
}

/// Whether `pid` is the leader of a run under way, until its owner has reaped it (a child of
/// the harness that is no orphan).
pub(crate) fn is_running_leader(pid: i32) -> bool {
    let runs = RUNS.lock().unwrap_or_else(|e| e.into_inner());
    runs.iter().any(|e| e.leader == Some(pid))
}

/// Whether a program is being started whose pid is not registered yet: a dead child of the
/// harness that no run claims may be that program, and is not an orphan to reap.
pub(crate) fn a_start_under_way() -> bool {
    let runs = RUNS.lock().unwrap_or_else(|e| e.into_inner());
    runs.iter().any(|e| e.starting)
}
