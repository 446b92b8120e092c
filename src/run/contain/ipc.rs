//! What a contained run leaves in System V IPC and POSIX message queues, removed before the
//! next run of the worker starts: the programs of a worker's slot share the IPC namespace of
//! its keeper (see `keeper`), which is emptied after every run: by the harness, entering it
//! ([`clear`]) as root, else by the keeper ([`remove_all`], [`remove_message_queues`]), as
//! it empties `/tmp` and `/dev/shm`. So a segment, a
//! semaphore set, a message queue or a POSIX queue a run leaves is seen by no later run, and
//! its memory is uncharged before the next run's cgroup baseline is read. (A namespace made
//! for each run would do the same, but making one and freeing it cost a trivial run about a
//! tenth of its time.) The keeper may: as root it has every capability, and in a user
//! namespace it is the owner of every object (a run's programs have its uid there), which
//! `IPC_RMID` and the sticky folder of the queues allow; `*_STAT_ANY` lists even the objects
//! a program made unreadable to their owner. The mount's `mq_unlink` goes by the calling
//! thread's IPC namespace, so the harness, entered, removes the keeper's queues.

use std::cell::OnceCell;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

/// `shmctl`'s `SHM_STAT` and `SHM_INFO`, and the `*_STAT_ANY` commands that list an object
/// whatever its mode (Linux 4.17; `<linux/shm.h>`, `<linux/sem.h>`, `<linux/msg.h>`, not in
/// the libc crate).
const SHM_STAT: libc::c_int = 13;
const SHM_INFO: libc::c_int = 14;
const SHM_STAT_ANY: libc::c_int = 15;
const SEM_STAT_ANY: libc::c_int = 20;
const MSG_STAT_ANY: libc::c_int = 13;

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

/// Empties the IPC namespace `ns` (a keeper's, whose runs' processes are all dead) from the
/// calling thread, which enters it and comes back: every System V object, and every POSIX
/// queue listed in `queues` (where the keeper's view mounts their file system, as the
/// harness sees it). As root, where it may enter, this costs the run no round trip to the
/// keeper (on a busy machine, a wait for the keeper's turn on a CPU). `Ok(false)` when it
/// may not enter (the keeper is then asked); an error only if the thread could not come back
/// to its own namespace (it must not start programs from the run's).
pub(crate) fn clear(ns: &OwnedFd, queues: &std::path::Path) -> std::io::Result<bool> {
    let Some(home) = home() else {
        return Ok(false);
    };
    // SAFETY: setns moves this thread alone (IPC namespaces are per thread) into a
    // namespace by a descriptor of ours; it only fails, changing nothing, if not allowed.
    if unsafe { libc::setns(ns.as_raw_fd(), libc::CLONE_NEWIPC) } != 0 {
        return Ok(false);
    }
    remove_all();
    remove_message_queues(queues);
    // SAFETY: as above, back to the thread's own namespace.
    if unsafe { libc::setns(home, libc::CLONE_NEWIPC) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(true)
}

/// Removes every System V object of the calling process's IPC namespace (a run's, whose
/// processes are all dead): its memory is uncharged at once. Returns how many it removed.
pub(crate) fn remove_all() -> usize {
    remove_segments() + remove_semaphores() + remove_queues()
}

/// Removes every POSIX message queue of the calling process's IPC namespace, listed in
/// `dir` (where its queue file system is mounted). Returns how many it removed.
pub(crate) fn remove_message_queues(dir: &std::path::Path) -> usize {
    use std::os::unix::ffi::OsStrExt;
    let Ok(list) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in list.flatten() {
        let mut name = b"/".to_vec();
        name.extend_from_slice(entry.file_name().as_bytes());
        let Ok(name) = std::ffi::CString::new(name) else {
            continue;
        };
        // SAFETY: a NUL-terminated queue name; mq_unlink reads it only.
        if unsafe { libc::mq_unlink(name.as_ptr()) } == 0 {
            removed += 1;
        }
    }
    removed
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
            let mut id = libc::shmctl(index, SHM_STAT_ANY, &mut ds);
            if id < 0 {
                id = libc::shmctl(index, SHM_STAT, &mut ds);
            }
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
            let mut id = libc::semctl(index, 0, SEM_STAT_ANY, &raw mut ds);
            if id < 0 {
                id = libc::semctl(index, 0, libc::SEM_STAT, &raw mut ds);
            }
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
            let mut id = libc::msgctl(index, MSG_STAT_ANY, &mut ds);
            if id < 0 {
                id = libc::msgctl(index, libc::MSG_STAT, &mut ds);
            }
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

    /// Moves the calling thread (a thread of its own, so that the test's other threads are
    /// left alone) into a new IPC namespace, and makes one object of each kind there, the
    /// segment closed even to its owner (mode 0).
    fn one_of_each_in_a_namespace_of_its_own() {
        // SAFETY: unshare moves this thread alone into a new IPC namespace.
        assert_eq!(unsafe { libc::unshare(libc::CLONE_NEWIPC) }, 0);
        // SAFETY: plain System V calls.
        unsafe {
            assert!(libc::shmget(libc::IPC_PRIVATE, 1 << 20, libc::IPC_CREAT) >= 0);
            assert!(libc::semget(libc::IPC_PRIVATE, 1, libc::IPC_CREAT | 0o600) >= 0);
            assert!(libc::msgget(libc::IPC_PRIVATE, libc::IPC_CREAT | 0o600) >= 0);
        }
    }

    /// In an IPC namespace of its own, one object of each kind, one of them closed even to
    /// its owner, all removed; then none is left.
    #[test]
    fn every_object_of_the_namespace_is_removed() {
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } != 0 {
            eprintln!("only root makes an IPC namespace from a thread of a test");
            return;
        }
        let removed = std::thread::spawn(|| {
            one_of_each_in_a_namespace_of_its_own();
            (remove_all(), remove_all())
        })
        .join()
        .unwrap();
        assert_eq!(removed, (3, 0));
    }

    /// A namespace with one object of each kind, emptied from this thread, which comes back
    /// to its own namespace (where nothing was touched); nothing is left in it.
    #[test]
    fn a_namespace_is_emptied_from_outside() {
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } != 0 {
            eprintln!("only root enters another IPC namespace");
            return;
        }
        let made = std::thread::spawn(|| {
            one_of_each_in_a_namespace_of_its_own();
            OwnedFd::from(std::fs::File::open("/proc/thread-self/ns/ipc").unwrap())
        })
        .join()
        .unwrap();
        let before = std::fs::read_link("/proc/thread-self/ns/ipc").unwrap();
        let no_queues = std::path::Path::new("/nonexistent/duipai-queues");
        assert!(clear(&made, no_queues).unwrap(), "entered");
        assert_eq!(
            std::fs::read_link("/proc/thread-self/ns/ipc").unwrap(),
            before
        );
        let left = std::thread::spawn(move || {
            // SAFETY: this thread alone enters the namespace by a descriptor of ours.
            let entered = unsafe { libc::setns(made.as_raw_fd(), libc::CLONE_NEWIPC) };
            assert_eq!(entered, 0);
            remove_all()
        })
        .join()
        .unwrap();
        assert_eq!(left, 0, "emptied");
    }
}
