//! What a contained run leaves in System V IPC and POSIX message queues, removed before the
//! next run of the worker starts: the programs of a worker's slot share the IPC namespace of
//! its keeper (see `keeper`), which empties it after every run ([`remove_all`],
//! [`remove_message_queues`]), as it empties `/tmp` and `/dev/shm`. So a segment, a
//! semaphore set, a message queue or a POSIX queue a run leaves is seen by no later run, and
//! its memory is uncharged before the next run's cgroup baseline is read. (A namespace made
//! for each run would do the same, but making one and freeing it cost a trivial run about a
//! tenth of its time.) The keeper may: as root it has every capability, and in a user
//! namespace it is the owner of every object (a run's programs have its uid there), which
//! `IPC_RMID` and the sticky folder of the queues allow; `*_STAT_ANY` lists even the objects
//! a program made unreadable to their owner.

/// `shmctl`'s `SHM_STAT` and `SHM_INFO`, and the `*_STAT_ANY` commands that list an object
/// whatever its mode (Linux 4.17; `<linux/shm.h>`, `<linux/sem.h>`, `<linux/msg.h>`, not in
/// the libc crate).
const SHM_STAT: libc::c_int = 13;
const SHM_INFO: libc::c_int = 14;
const SHM_STAT_ANY: libc::c_int = 15;
const SEM_STAT_ANY: libc::c_int = 20;
const MSG_STAT_ANY: libc::c_int = 13;

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

    /// In an IPC namespace of its own, one object of each kind, one of them closed even to
    /// its owner, all removed; then none is left.
    #[test]
    fn every_object_of_the_namespace_is_removed() {
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } != 0 {
            eprintln!("only root makes an IPC namespace from a thread of a test");
            return;
        }
        // A thread of its own, so that its unshare leaves the test's other threads alone.
        let removed = std::thread::spawn(|| {
            // SAFETY: unshare moves this thread alone into a new IPC namespace.
            assert_eq!(unsafe { libc::unshare(libc::CLONE_NEWIPC) }, 0);
            // SAFETY: plain System V calls.
            unsafe {
                assert!(libc::shmget(libc::IPC_PRIVATE, 1 << 20, libc::IPC_CREAT) >= 0);
                assert!(libc::semget(libc::IPC_PRIVATE, 1, libc::IPC_CREAT | 0o600) >= 0);
                assert!(libc::msgget(libc::IPC_PRIVATE, libc::IPC_CREAT | 0o600) >= 0);
            }
            (remove_all(), remove_all())
        })
        .join()
        .unwrap();
        assert_eq!(removed, (3, 0));
    }
}
