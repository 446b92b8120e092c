//! Each contained run's own System V IPC and POSIX message queues: the spawner starts every
//! program of the program slot in an IPC namespace made for it (see `spawner::serve`), so
//! that a segment, a semaphore set, a message queue or a POSIX queue a run leaves is seen by
//! no later run. The namespace ends with the run's last process, and the kernel frees what
//! was in it a moment later (after an RCU grace period, from a worker thread): too late for
//! the next run of the slot, whose cgroup baseline would still count it, and whose limit
//! would be raised by it. So once a run is over the harness empties its namespace itself
//! ([`clear`], when it may enter it: as root), and what the program left there is uncharged
//! before the next run starts. POSIX queues cannot be listed from outside a mount of their
//! file system; `RLIMIT_MSGQUEUE` (800 KiB by default) bounds them, and they go with the
//! namespace.

use std::cell::OnceCell;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

/// `shmctl`'s `SHM_STAT` and `SHM_INFO` (`<linux/shm.h>`, not in the libc crate).
const SHM_STAT: libc::c_int = 13;
const SHM_INFO: libc::c_int = 14;

thread_local! {
    /// This thread's own IPC namespace, to come back to.
    static HOME: OnceCell<Option<OwnedFd>> = const { OnceCell::new() };
}

/// The calling thread's IPC namespace, opened once per thread.
fn home() -> Option<libc::c_int> {
    HOME.with(|home| {
        home.get_or_init(|| {
            // SAFETY: a NUL-terminated path; open returns a new descriptor or -1.
            let fd = unsafe {
                libc::open(
                    c"/proc/thread-self/ns/ipc".as_ptr(),
                    libc::O_RDONLY | libc::O_CLOEXEC,
                )
            };
            // SAFETY: just opened, owned by nobody else.
            (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd) })
        })
        .as_ref()
        .map(AsRawFd::as_raw_fd)
    })
}

/// Removes every System V object of the IPC namespace `ns` (a run's, whose processes are
/// all dead): its memory is uncharged at once. The calling thread enters it and comes back;
/// nothing happens where it may not (not root: the namespace is then freed by the kernel
/// alone). Returns how many objects were removed; an error only if the thread could not
/// come back to its own namespace (it must not start programs from the run's).
pub(crate) fn clear(ns: &OwnedFd) -> std::io::Result<usize> {
    let Some(home) = home() else {
        return Ok(0);
    };
    // SAFETY: setns moves this thread alone (IPC namespaces are per thread) into a
    // namespace by a descriptor of ours; it only fails, changing nothing, if not allowed.
    if unsafe { libc::setns(ns.as_raw_fd(), libc::CLONE_NEWIPC) } != 0 {
        return Ok(0);
    }
    let removed = remove_segments() + remove_semaphores() + remove_queues();
    // SAFETY: as above, back to the thread's own namespace.
    if unsafe { libc::setns(home, libc::CLONE_NEWIPC) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(removed)
}

/// `struct shm_info` of `<linux/shm.h>`.
#[repr(C)]
#[derive(Default)]
struct ShmInfo {
    used_ids: libc::c_int,
    shm_tot: libc::c_ulong,
    shm_rss: libc::c_ulong,
    shm_swp: libc::c_ulong,
    swap_attempts: libc::c_ulong,
    swap_successes: libc::c_ulong,
}

fn remove_segments() -> usize {
    let mut info = ShmInfo::default();
    // SAFETY: SHM_INFO writes a `struct shm_info` through the pointer.
    let highest = unsafe { libc::shmctl(0, SHM_INFO, (&raw mut info).cast()) };
    if highest < 0 || info.used_ids == 0 {
        return 0;
    }
    let mut removed = 0;
    for index in 0..=highest {
        // SAFETY: a zeroed shmid_ds is a valid out-parameter.
        let mut ds: libc::shmid_ds = unsafe { std::mem::zeroed() };
        // SAFETY: SHM_STAT writes a shmid_ds; IPC_RMID reads nothing.
        unsafe {
            let id = libc::shmctl(index, SHM_STAT, &mut ds);
            if id >= 0 && libc::shmctl(id, libc::IPC_RMID, std::ptr::null_mut()) == 0 {
                removed += 1;
            }
        }
    }
    removed
}

fn remove_semaphores() -> usize {
    // SAFETY: a zeroed seminfo is a valid out-parameter.
    let mut info: libc::seminfo = unsafe { std::mem::zeroed() };
    // SAFETY: SEM_INFO writes a `struct seminfo` through the pointer.
    let highest = unsafe { libc::semctl(0, 0, libc::SEM_INFO, &raw mut info) };
    if highest < 0 || info.semusz == 0 {
        return 0;
    }
    let mut removed = 0;
    for index in 0..=highest {
        // SAFETY: a zeroed semid_ds is a valid out-parameter.
        let mut ds: libc::semid_ds = unsafe { std::mem::zeroed() };
        // SAFETY: SEM_STAT writes a semid_ds; IPC_RMID reads nothing.
        unsafe {
            let id = libc::semctl(index, 0, libc::SEM_STAT, &raw mut ds);
            if id >= 0 && libc::semctl(id, 0, libc::IPC_RMID) == 0 {
                removed += 1;
            }
        }
    }
    removed
}

fn remove_queues() -> usize {
    // SAFETY: a zeroed msginfo is a valid out-parameter.
    let mut info: libc::msginfo = unsafe { std::mem::zeroed() };
    // SAFETY: MSG_INFO writes a `struct msginfo` through the pointer.
    let highest = unsafe { libc::msgctl(0, libc::MSG_INFO, (&raw mut info).cast()) };
    if highest < 0 || info.msgpool == 0 {
        return 0;
    }
    let mut removed = 0;
    for index in 0..=highest {
        // SAFETY: a zeroed msqid_ds is a valid out-parameter.
        let mut ds: libc::msqid_ds = unsafe { std::mem::zeroed() };
        // SAFETY: MSG_STAT writes a msqid_ds; IPC_RMID reads nothing.
        unsafe {
            let id = libc::msgctl(index, libc::MSG_STAT, &mut ds);
            if id >= 0 && libc::msgctl(id, libc::IPC_RMID, std::ptr::null_mut()) == 0 {
                removed += 1;
            }
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A namespace of its own with one object of each kind, emptied from this thread, which
    /// comes back to its own namespace (where nothing was touched).
    #[test]
    fn a_namespace_is_emptied_from_outside() {
        // SAFETY: getuid has no preconditions.
        if unsafe { libc::geteuid() } != 0 {
            eprintln!("only root enters another IPC namespace");
            return;
        }
        // A thread of its own, so that its unshare leaves the test's other threads alone.
        let made = std::thread::spawn(|| {
            // SAFETY: unshare moves this thread alone into a new IPC namespace.
            assert_eq!(unsafe { libc::unshare(libc::CLONE_NEWIPC) }, 0);
            // SAFETY: plain System V calls; the attach is detached at once.
            unsafe {
                let shm = libc::shmget(libc::IPC_PRIVATE, 1 << 20, libc::IPC_CREAT | 0o600);
                assert!(shm >= 0);
                assert!(libc::semget(libc::IPC_PRIVATE, 1, libc::IPC_CREAT | 0o600) >= 0);
                assert!(libc::msgget(libc::IPC_PRIVATE, libc::IPC_CREAT | 0o600) >= 0);
            }
            let fd = std::fs::File::open("/proc/thread-self/ns/ipc").unwrap();
            OwnedFd::from(fd)
        })
        .join()
        .unwrap();
        let before = std::fs::read_link("/proc/thread-self/ns/ipc").unwrap();
        assert_eq!(clear(&made).unwrap(), 3);
        assert_eq!(
            std::fs::read_link("/proc/thread-self/ns/ipc").unwrap(),
            before
        );
        assert_eq!(clear(&made).unwrap(), 0, "emptied");
    }
}
