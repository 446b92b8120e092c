//! The harness's own long-lived processes (spawners, keepers of namespaces, warm
//! interpreters), listed from their start to their end, so that the cleanup of a run never
//! takes one of them for a program's leftover. Each kind lists its own; the cleanup (`group`)
//! asks here only, and so depends on none of the modules that start them.

use std::sync::{Mutex, MutexGuard};

/// What a listed process is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Spawner,
    Keeper,
    Server,
}

/// The pids of every such process alive, with their kinds.
static LISTED: Mutex<Vec<(i32, Kind)>> = Mutex::new(Vec::new());

/// The list, held: a process is added while it is held across its start, so that it is
/// listed before it can be seen among the harness's children.
pub(crate) struct Listing(MutexGuard<'static, Vec<(i32, Kind)>>);

impl Listing {
    pub(crate) fn add(&mut self, pid: i32, kind: Kind) {
        self.0.push((pid, kind));
    }
}

/// Holds the list (see [`Listing`]).
pub(crate) fn hold() -> Listing {
    Listing(LISTED.lock().unwrap_or_else(|e| e.into_inner()))
}

/// Lists `pid` as a process of `kind`.
pub(crate) fn add(pid: i32, kind: Kind) {
    hold().add(pid, kind);
}

/// Takes `pid` off the list (it is ending).
pub(crate) fn remove(pid: i32) {
    hold().0.retain(|&(p, _)| p != pid);
}

/// Whether `pid` is one of the harness's own processes, of any kind.
pub(crate) fn is_own(pid: i32) -> bool {
    hold().0.iter().any(|&(p, _)| p == pid)
}

/// How many processes of `kind` are alive.
pub(crate) fn count(kind: Kind) -> usize {
    hold().0.iter().filter(|&&(_, k)| k == kind).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listed_process_is_own_until_removed() {
        // Pids no process of this test can have (above the kernel's pid_max limit).
        let (a, b) = (i32::MAX - 7, i32::MAX - 8);
        let spawners = count(Kind::Spawner);
        add(a, Kind::Spawner);
        hold().add(b, Kind::Keeper);
        assert!(is_own(a) && is_own(b));
        assert_eq!(count(Kind::Spawner), spawners + 1);
        remove(a);
        remove(b);
        assert!(!is_own(a) && !is_own(b));
    }
}
