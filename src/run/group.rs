//! The program's process group: its leader ([`Leader`]), killing the whole group and reaping
//! the leader ([`kill_and_reap`]), and the check that nothing of the group survived.

use std::io;
use std::time::{Duration, Instant};

use super::error::{RunError, setup_error};
use super::{cancel, procfs};

/// How long the harness waits for a killed group to disappear before reporting a failure.
pub(crate) const KILL_GRACE: Duration = Duration::from_secs(5);

/// The started program: its leader pid (= group id). Until [`Leader::reap`] succeeds, dropping it
/// kills the group and reaps the leader, so an early return or a panic leaves nothing behind.
pub(crate) struct Leader {
    pub(crate) pid: i32,
    reaped: bool,
}

impl Leader {
    /// Takes charge of a just-started leader, registering it for [`cancel::kill_running`].
    pub(crate) fn new(pid: i32) -> Leader {
        let stopping = cancel::register(pid);
        let leader = Leader { pid, reaped: false };
        if stopping {
            // The harness is being interrupted: this run's result will be discarded.
            leader.kill_group();
        }
        leader
    }

    pub(crate) fn kill_group(&self) {
        // SAFETY: killpg has no memory effects; the unreaped leader keeps the group id reserved.
        unsafe { libc::killpg(self.pid, libc::SIGKILL) };
    }

    /// Whether the leader has exited, without reaping it (the zombie keeps the group id ours).
    pub(crate) fn has_exited(&self) -> bool {
        // SAFETY: a zeroed siginfo_t is a valid out-parameter for waitid.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let r = libc::waitid(
                libc::P_PID,
                self.pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            );
            r == 0 && info.si_pid() != 0
        }
    }

    /// Reaps the (dead) leader: its wait status and resource usage.
    fn reap(&mut self) -> io::Result<(libc::c_int, libc::rusage)> {
        cancel::unregister(self.pid);
        loop {
            let mut status = 0;
            // SAFETY: a zeroed rusage is a valid out-parameter for wait4.
            let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
            // SAFETY: valid pointers to locals.
            let r = unsafe { libc::wait4(self.pid, &mut status, 0, &mut usage) };
            if r == self.pid {
                self.reaped = true;
                return Ok((status, usage));
            }
            let err = io::Error::last_os_error();
            if err.kind() != io::ErrorKind::Interrupted {
                self.reaped = true;
                return Err(err);
            }
        }
    }
}

impl Drop for Leader {
    fn drop(&mut self) {
        if !self.reaped {
            self.kill_group();
            let _ = self.reap();
        }
    }
}

/// Kills the group, reaps the leader, and makes sure no live process is left in the group;
/// returns the leader's wait status and resource usage.
///
/// The group is killed while the leader is an unreaped zombie, which keeps the group id from
/// being reused. After the reap, a group that still has members keeps its id reserved by
/// them, so signalling it stays safe; an empty group answers `ESRCH` to signal 0 at once,
/// which spares the usual case a scan of all of `/proc`. Members that linger as zombies (a
/// container whose init does not reap) are told apart from live ones by a scan, after a short
/// while.
pub(crate) fn kill_and_reap(leader: &mut Leader) -> Result<(libc::c_int, libc::rusage), RunError> {
    leader.kill_group();
    let reaped = leader
        .reap()
        .map_err(setup_error("cannot reap the program"))?;
    let pgid = leader.pid;
    let start = Instant::now();
    loop {
        // SAFETY: signal 0 only checks for existence; see above for why the id is ours.
        if unsafe { libc::kill(-pgid, 0) } != 0 {
            return Ok(reaped);
        }
        // SAFETY: as above.
        unsafe { libc::killpg(pgid, libc::SIGKILL) };
        if start.elapsed() > Duration::from_millis(20) {
            let live = procfs::live_group_members(pgid);
            if live.is_empty() {
                return Ok(reaped);
            }
            if start.elapsed() > KILL_GRACE {
                return Err(RunError::Survivors {
                    pgid,
                    pids: live,
                    grace: KILL_GRACE,
                });
            }
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}
