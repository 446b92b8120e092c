//! The seam on macOS: each run is a process group. The program starts as the leader of a new
//! group with `RLIMIT_CPU` (and `RLIMIT_FSIZE`, no core files) as backstops and its stack
//! grown as far as the hard limit allows; the supervisor
//! samples the group's processes with `proc_pid_rusage` (CPU time, resident memory) and
//! counts them; the end is `SIGKILL` to the group, while its leader is still unreaped so that
//! the group's id cannot be reused; the leader's own figures come from `wait4` (`ru_maxrss`
//! is in bytes on macOS).
//!
//! Type-checked on Linux for macOS; it has not been run.

use std::io;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command};
use std::time::Duration;

use super::{Status, Tree, Used};
use crate::run::limits::Limits;

/// A run's process group, led by the program.
pub(super) struct System {
    pid: libc::pid_t,
    /// Once reaped, the leader's status and rusage.
    reaped: bool,
}

/// The group's id, to end the run from another thread.
#[derive(Clone, Copy)]
pub(super) struct GroupEnder(libc::pid_t);

impl Tree for System {
    type Ender = GroupEnder;

    fn prepare(command: &mut Command, limits: &Limits) {
        command.process_group(0);
        let cpu = limits.cpu.as_secs() + 2;
        let file_size = limits.output_bytes.saturating_add(1);
        let stack = limits.stack_bytes();
        // SAFETY: the closure only calls getrlimit and setrlimit, which are async-signal-safe,
        // between fork and exec.
        unsafe {
            command.pre_exec(move || {
                set_limit(libc::RLIMIT_CPU, cpu, cpu + 1)?;
                set_limit(libc::RLIMIT_FSIZE, file_size, file_size)?;
                set_limit(libc::RLIMIT_CORE, 0, 0)?;
                grow_stack(stack);
                Ok(())
            });
        }
    }

    fn adopt(child: &Child, _limits: &Limits) -> io::Result<System> {
        let pid = libc::pid_t::try_from(child.id()).map_err(io::Error::other)?;
        Ok(System { pid, reaped: false })
    }

    fn ender(&self) -> GroupEnder {
        GroupEnder(self.pid)
    }

    fn end_by(ender: GroupEnder) {
        // SAFETY: the group is reserved while its leader is unreaped, which is as long as
        // its run is registered.
        unsafe { libc::killpg(ender.0, libc::SIGKILL) };
    }

    fn exited(&mut self) -> bool {
        // SAFETY: a zeroed siginfo is a valid out-value; WNOWAIT leaves the leader unreaped.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let done = libc::waitid(
                libc::P_PID,
                self.pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            );
            done == 0 && info.si_pid() != 0
        }
    }

    fn used(&mut self) -> Used {
        let mut used = Used::default();
        let mut resident = 0u64;
        for pid in group(self.pid) {
            if let Some((cpu, memory)) = rusage(pid) {
                used.cpu += cpu;
                resident += memory;
                used.processes += 1;
            }
        }
        used.memory = (resident > 0).then_some(resident);
        used
    }

    fn end(&mut self) -> u32 {
        let others = group(self.pid).iter().filter(|&&p| p != self.pid).count();
        // SAFETY: the leader is unreaped: the group id is still this run's.
        unsafe { libc::killpg(self.pid, libc::SIGKILL) };
        others as u32
    }

    fn finish(&mut self) -> io::Result<(Status, Used)> {
        let mut status = 0;
        // SAFETY: a zeroed rusage is a valid out-value.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: the leader is this process's child, not reaped yet.
        let got = unsafe { libc::wait4(self.pid, &mut status, 0, &mut usage) };
        if got != self.pid {
            return Err(io::Error::last_os_error());
        }
        self.reaped = true;
        let time = |t: libc::timeval| {
            Duration::from_secs(t.tv_sec.max(0) as u64)
                + Duration::from_micros(t.tv_usec.max(0) as u64)
        };
        let used = Used {
            cpu: time(usage.ru_utime) + time(usage.ru_stime),
            // Bytes on macOS.
            memory: Some(usage.ru_maxrss.max(0) as u64).filter(|&m| m > 0),
            ..Used::default()
        };
        let status = if libc::WIFSIGNALED(status) {
            Status::Signal(libc::WTERMSIG(status))
        } else {
            Status::Code(libc::WEXITSTATUS(status))
        };
        Ok((status, used))
    }
}

impl Drop for System {
    fn drop(&mut self) {
        if !self.reaped {
            Self::end_by(GroupEnder(self.pid));
            let mut status = 0;
            // SAFETY: reaps the killed leader, this process's child.
            unsafe { libc::waitpid(self.pid, &mut status, 0) };
        }
    }
}

/// Sets a resource limit in the child, before `exec`.
fn set_limit(resource: libc::c_int, soft: u64, hard: u64) -> io::Result<()> {
    let limit = libc::rlimit {
        rlim_cur: soft as libc::rlim_t,
        rlim_max: hard as libc::rlim_t,
    };
    // SAFETY: a valid rlimit. A hard limit above the current one is refused to an
    // unprivileged process: the current one then stays, which bounds the program anyway.
    unsafe { libc::setrlimit(resource, &limit) };
    Ok(())
}

/// Lets the stack grow to `bytes`, or as far as the hard limit allows (64 MiB on macOS by
/// default): contest programs recurse deeply. Called between fork and exec.
fn grow_stack(bytes: u64) {
    let mut current = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: a valid out-pointer for getrlimit.
    if unsafe { libc::getrlimit(libc::RLIMIT_STACK, &mut current) } != 0 {
        return;
    }
    let soft = (bytes as libc::rlim_t).min(current.rlim_max);
    if soft > current.rlim_cur {
        let limit = libc::rlimit {
            rlim_cur: soft,
            rlim_max: current.rlim_max,
        };
        // SAFETY: a valid rlimit within the hard limit.
        unsafe { libc::setrlimit(libc::RLIMIT_STACK, &limit) };
    }
}

/// The processes of group `pgid`.
fn group(pgid: libc::pid_t) -> Vec<libc::pid_t> {
    let mut pids = vec![0 as libc::pid_t; 1024];
    let bytes = (pids.len() * size_of::<libc::pid_t>()) as libc::c_int;
    // SAFETY: a buffer of the size given.
    let got = unsafe { libc::proc_listpgrppids(pgid, pids.as_mut_ptr().cast(), bytes) };
    let count = (got.max(0) as usize / size_of::<libc::pid_t>()).min(pids.len());
    pids.truncate(count);
    pids.retain(|&p| p > 0);
    pids
}

/// A process's CPU time (its own and its reaped children's) and resident memory.
fn rusage(pid: libc::pid_t) -> Option<(Duration, u64)> {
    // SAFETY: a zeroed rusage_info_v2 is a valid out-value of the size the flavour names.
    let mut info: libc::rusage_info_v2 = unsafe { std::mem::zeroed() };
    // SAFETY: the buffer matches RUSAGE_INFO_V2.
    let got = unsafe {
        libc::proc_pid_rusage(
            pid,
            libc::RUSAGE_INFO_V2,
            (&raw mut info).cast::<libc::rusage_info_t>(),
        )
    };
    if got != 0 {
        return None;
    }
    let ticks = info.ri_user_time
        + info.ri_system_time
        + info.ri_child_user_time
        + info.ri_child_system_time;
    Some((ticks_to_duration(ticks), info.ri_resident_size))
}

/// `proc_pid_rusage`'s times are in Mach absolute time units (nanoseconds on Intel, not on
/// Apple silicon). libc marks `mach_timebase_info` deprecated in favour of the mach2 crate;
/// this one call is all the runner needs of it.
#[allow(deprecated)]
fn ticks_to_duration(ticks: u64) -> Duration {
    static TIMEBASE: std::sync::OnceLock<(u32, u32)> = std::sync::OnceLock::new();
    let (numer, denom) = *TIMEBASE.get_or_init(|| {
        let mut info = libc::mach_timebase_info { numer: 0, denom: 0 };
        // SAFETY: a valid out-pointer.
        let ok = unsafe { libc::mach_timebase_info(&mut info) } == 0;
        if ok && info.denom != 0 {
            (info.numer, info.denom)
        } else {
            (1, 1)
        }
    });
    Duration::from_nanos((u128::from(ticks) * u128::from(numer) / u128::from(denom)) as u64)
}
