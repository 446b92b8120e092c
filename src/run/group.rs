//! The program's processes as a whole: the leader of its process group ([`Leader`]), the
//! harness as the child subreaper that inherits whatever the program orphans, the tag that
//! marks a run's processes, and the cleanup after every run ([`kill_and_reap`]): kill the
//! group, reap the leader, kill and reap every orphan of the run, and check that nothing of
//! it is left.
//!
//! Why a subreaper: a process that leaves the program's group (`setsid`, a double fork) can
//! no longer be reached through the group. But every process the program starts is a
//! descendant of the harness, and once its parent is gone the kernel hands it to the nearest
//! ancestor that is a child subreaper: the harness. So after the leader is reaped, whatever
//! is left of the run hangs below the harness's own children, where it can be killed by pid
//! without a race (a child's pid cannot be reused until its parent reaps it) and reaped.
//!
//! Why tags: with several runs going on at once, an orphan must be told apart from the
//! leaders and orphans of the other runs. Each run's processes carry two marks naming it:
//! - `RLIMIT_RTTIME`, set to a value that names the run by the leader's process before it
//!   `exec`s the program ([`tag_rlimit`]). Every descendant inherits it through `fork`, `exec`,
//!   `setsid` and a cleared environment; it only matters to real-time scheduled programs, for
//!   which it is years of CPU time; a process can change it only by lowering it on purpose.
//!   An unprivileged harness whose own hard limit is lower cannot set it.
//! - The environment variable `DUIPAI_RUN`, given to the program at `exec`, but a program can
//!   clear its environment for what it starts (`env -i`).
//!
//! An orphan marked for this run, or one the sampler saw as part of the run, is this run's;
//! one marked for a run that is over is a leftover and is killed by whichever run cleans up
//! next; anything else (another run's, a spawner, or a child the embedding program started
//! itself) is left alone. (Programs are the harness's children although a spawner starts
//! them: see `spawner`.) What escapes all of it: a process that both lost the environment variable and
//! lowered the rlimit (or never had it), and left before the sampler saw it
//! (the first search for the run's processes comes 15 ms in). Only `waitpid` on one pid is ever used,
//! never `waitpid(-1)`, which could take another run's leader.

use std::io;
use std::sync::Once;
use std::time::{Duration, Instant};

use super::cancel::{self, RunEntry};
use super::clone::Rlimit;
use super::contain::cgroup::Slot;
use super::contain::keeper;
use super::error::{RunError, setup_error};
use super::own;
use super::procfs::{self, ProcStat, RunSampler};

/// How long the harness waits for killed processes to disappear before reporting a failure.
pub(crate) const KILL_GRACE: Duration = Duration::from_secs(5);

/// The environment variable that names a program's run (see the module notes).
pub(crate) const RUN_VAR: &str = "DUIPAI_RUN";

/// The high half of a run tag: "duip".
const TAG_MAGIC: u64 = 0x6475_6970 << 32;
const TAG_MASK: u64 = 0xffff_ffff << 32;

/// Makes the harness a child subreaper (once per process, before its first program starts),
/// so that the processes a program orphans are handed to it rather than to init. On kernels
/// without it (before 3.4) escaped processes are simply not found.
pub(crate) fn become_subreaper() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // SAFETY: PR_SET_CHILD_SUBREAPER takes an integer flag and has no memory effects.
        unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) };
    });
}

fn tag_value(id: u64) -> u64 {
    TAG_MAGIC | (id & !TAG_MASK)
}

fn is_tag(value: u64) -> bool {
    value & TAG_MASK == TAG_MAGIC
}

/// The rlimit that marks a program with its run's tag (see the module notes), set by the
/// program's process before `exec`. Best effort: an unprivileged harness whose own hard limit
/// is lower cannot set it, and the run then relies on the environment and on what the sampler
/// sees.
pub(crate) fn tag_rlimit(id: u64) -> Rlimit {
    let tag = tag_value(id) as libc::rlim_t;
    Rlimit {
        resource: libc::RLIMIT_RTTIME,
        limit: libc::rlimit {
            rlim_cur: tag,
            rlim_max: tag,
        },
        required: false,
    }
}

/// The tag of a process (a child of the harness), if it carries one.
fn read_tag(pid: i32) -> Option<u64> {
    let mut old = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: prlimit with a null new limit only writes the old one through a valid pointer.
    let r = unsafe { libc::prlimit(pid, libc::RLIMIT_RTTIME, std::ptr::null(), &mut old) };
    #[allow(clippy::unnecessary_cast)]
    let hard = old.rlim_max as u64;
    (r == 0 && is_tag(hard)).then_some(hard)
}

/// The run named by a process's environment (`DUIPAI_RUN`), if it is readable and there.
fn env_run(pid: i32) -> Option<u64> {
    let environ = std::fs::read(format!("/proc/{pid}/environ")).ok()?;
    let prefix = format!("{RUN_VAR}=");
    let value = environ
        .split(|&b| b == 0)
        .find_map(|entry| entry.strip_prefix(prefix.as_bytes()))?;
    std::str::from_utf8(value).ok()?.parse().ok()
}

/// The run a process (a child of the harness) is marked for, as the low 32 bits of its id:
/// its rlimit tag, or else its environment.
fn marked_run(pid: i32) -> Option<u32> {
    match read_tag(pid) {
        Some(tag) => Some(tag as u32),
        None => env_run(pid).map(|id| id as u32),
    }
}

/// Whether a process handed to the harness is marked for run `id`: what the sampler counts as
/// part of the run while it is going on. A spawner never is (it carries the marks of the
/// harness's own run, if the harness is itself run by duipai).
pub(crate) fn tagged_for(p: &ProcStat, id: u64) -> bool {
    !own::is_own(p.pid) && marked_run(p.pid) == Some(id as u32)
}

/// The started program: its leader pid (= group id). Until [`Leader::reap`] succeeds, dropping it
/// kills the group and reaps the leader, so an early return or a panic leaves nothing behind
/// (what the program orphaned is then killed by the next run's cleanup, as a leftover).
pub(crate) struct Leader<'a> {
    pub(crate) pid: i32,
    entry: &'a RunEntry,
    reaped: bool,
}

impl<'a> Leader<'a> {
    /// Takes charge of a just-started leader, registering it for [`cancel::kill_running`].
    pub(crate) fn new(pid: i32, entry: &'a RunEntry) -> Leader<'a> {
        let stopping = entry.set_leader(pid);
        let leader = Leader {
            pid,
            entry,
            reaped: false,
        };
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
        self.entry.leader_reaping();
        loop {
            let mut status = 0;
            // SAFETY: a zeroed rusage is a valid out-parameter for wait4.
            let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
            // SAFETY: valid pointers to locals.
            let r = unsafe { libc::wait4(self.pid, &mut status, 0, &mut usage) };
            if r == self.pid {
                self.reaped = true;
                self.entry.leader_reaped();
                return Ok((status, usage));
            }
            let err = io::Error::last_os_error();
            if err.kind() != io::ErrorKind::Interrupted {
                self.reaped = true;
                self.entry.leader_reaped();
                return Err(err);
            }
        }
    }
}

impl Drop for Leader<'_> {
    fn drop(&mut self) {
        if !self.reaped {
            self.kill_group();
            let _ = self.reap();
        }
    }
}

/// What the cleanup collected: the leader's wait status and resource usage, and the CPU time
/// and the largest peak resident size of the run's orphans it reaped (which the leader's
/// usage does not include).
pub(crate) struct Reaped {
    pub status: libc::c_int,
    pub usage: libc::rusage,
    pub orphans_cpu: Duration,
    pub orphans_maxrss: u64,
    /// How many of the run's processes were still alive once its leader had exited by itself
    /// (a daemon, an orphan, a child holding its output): killed by the cleanup, and named in
    /// the verdict. Zero for a run that was stopped (everything of it is killed then).
    pub left_behind: u32,
}

/// Reaps a child of the harness if it has ended; its resource usage.
fn reap_if_dead(pid: i32) -> Option<libc::rusage> {
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid out-parameter for wait4.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: valid pointers to locals; one pid, never -1.
    let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
    (r == pid).then_some(usage)
}

pub(crate) fn rusage_cpu(usage: &libc::rusage) -> Duration {
    timeval(usage.ru_utime) + timeval(usage.ru_stime)
}

fn timeval(tv: libc::timeval) -> Duration {
    Duration::from_secs(tv.tv_sec.max(0) as u64) + Duration::from_micros(tv.tv_usec.max(0) as u64)
}

/// An orphan handed to the harness that this run's cleanup kills.
struct Orphan {
    stat: ProcStat,
    /// This run's own (its CPU time counts for the run), rather than a leftover of a run
    /// that is over.
    own: bool,
}

/// The orphans handed to the harness that this run must clean up: its own (marked for it, or
/// seen by its sampler) and the leftovers of runs that are over. The usual answer, nothing,
/// costs one read of the main thread's children list.
fn orphans_to_clean(id: u64, sampler: &RunSampler) -> Vec<Orphan> {
    let me = procfs::harness_pid();
    let candidates: Vec<ProcStat> = match procfs::main_thread_children() {
        Some(pids) => pids.into_iter().filter_map(procfs::stat).collect(),
        None => procfs::all_processes(),
    };
    candidates
        .into_iter()
        .filter(|p| p.ppid == me && !cancel::is_running_leader(p.pid) && !own::is_own(p.pid))
        .filter_map(|stat| {
            let mark = marked_run(stat.pid);
            let own = sampler.knows(&stat) || mark == Some(id as u32);
            let leftover = !own && mark.is_some_and(cancel::run_is_over);
            (own || leftover).then_some(Orphan { stat, own })
        })
        .collect()
}

/// Kills the group, reaps the leader, then kills and reaps every process the run left behind,
/// and makes sure none is left alive.
///
/// The group is killed while the leader is an unreaped zombie, which keeps the group id from
/// being reused. After the reap, a group that still has members keeps its id reserved by
/// them, so signalling it stays safe; an empty group answers `ESRCH` to signal 0 at once.
/// Every other process of the run is by then an orphan handed to the harness, or below one:
/// each orphan is killed (with its own group, if it leads one), its children become orphans
/// in turn, and so on until none is left. Members that linger as zombies of a parent outside
/// the run are told apart from live ones by a scan, after a short while.
///
/// `exited` says the leader ended by itself; then the group is killed only after the reap, if
/// it still has members (which keep its id reserved): most programs have none, and the usual
/// run saves a system call.
pub(crate) fn kill_and_reap(
    leader: &mut Leader,
    exited: bool,
    sampler: &RunSampler,
) -> Result<Reaped, RunError> {
    let (status, usage) = stop_leader(leader, exited)?;
    let pgid = leader.pid;
    let id = leader.entry.id();
    let mut left_behind_count = 0;
    let mut orphans_usage = OrphansUsage::default();
    // Counted on the first round, before anything is killed: what the program left running.
    let mut left_behind = exited.then(|| group_alive(pgid));
    let start = Instant::now();
    loop {
        let orphans = orphans_to_clean(id, sampler);
        if let Some(group) = left_behind.take() {
            left_behind_count = group.len() + own_orphans_outside(&orphans, pgid);
        }
        let group_left = kill_group_left(pgid);
        for orphan in &orphans {
            orphan.kill();
            if let Some(usage) = reap_if_dead(orphan.stat.pid)
                && orphan.own
            {
                orphans_usage.add(&usage);
            }
        }
        if !group_left && orphans.is_empty() {
            break;
        }
        if start.elapsed() > Duration::from_millis(20) {
            let live = survivors(pgid, group_left, &orphans);
            if live.is_empty() {
                break;
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
    Ok(Reaped {
        status,
        usage,
        orphans_cpu: orphans_usage.cpu,
        orphans_maxrss: orphans_usage.maxrss,
        left_behind: left_behind_count as u32,
    })
}

/// Kills the leader's group unless the leader `exited` by itself, then reaps the leader: how
/// both cleanups begin.
fn stop_leader(leader: &mut Leader, exited: bool) -> Result<(libc::c_int, libc::rusage), RunError> {
    if !exited {
        leader.kill_group();
    }
    leader
        .reap()
        .map_err(setup_error("cannot reap the program"))
}

/// The live members left in the reaped leader's group: nothing but a signal 0 when, as
/// usual, there are none (the group id is reserved while it has members, see
/// `kill_and_reap`).
fn group_alive(pgid: i32) -> Vec<i32> {
    // SAFETY: signal 0 only checks for existence.
    if unsafe { libc::kill(-pgid, 0) } == 0 {
        procfs::live_group_members(pgid)
    } else {
        Vec::new()
    }
}

/// How many of `orphans` are the run's own and alive outside its group (which is counted
/// apart).
fn own_orphans_outside(orphans: &[Orphan], pgid: i32) -> usize {
    orphans
        .iter()
        .filter(|o| o.own && !o.stat.is_zombie() && o.stat.pgid != pgid)
        .count()
}

/// [`kill_and_reap`] for a run in a cgroup `slot` (whose spawner is `spawner`), in the
/// namespaces of `keeper` if it has them: the group is killed and the leader reaped as
/// there; then whatever is left in the slot (a process that left the group, a daemon, an
/// orphan) is the run's leftover, counted (if the leader had exited by itself) and killed,
/// and the orphans handed to the harness are reaped, until the slot holds its spawner alone.
/// The cgroup knows every process of the run, so no tag or scan is needed, and its CPU time
/// counts them all.
///
/// In namespaces the keeper kills the leftovers (`kill(-1)` in the run's PID namespace,
/// which holds the run's processes and nothing else: no pid of another process can be hit);
/// without them, each process the slot lists is killed by pid. The list is read afresh each
/// time: a cgroup v1 `cgroup.procs` read again through a descriptor kept open answers from a
/// list the kernel cached up to a second before, which named processes long gone and missed
/// a daemon started since (the cleanup then waited for it in vain).
pub(crate) fn kill_and_reap_in(
    leader: &mut Leader,
    exited: bool,
    slot: &Slot,
    spawner: i32,
    keeper: Option<&keeper::Keeper>,
) -> Result<Reaped, RunError> {
    let (status, usage) = stop_leader(leader, exited)?;
    let pgid = leader.pid;
    let start = Instant::now();
    let mut left_behind = 0;
    // The leader's group is most of what may be left: one signal for all of it.
    let mut first = true;
    loop {
        let tasks = slot
            .tasks()
            .map_err(setup_error("cannot read the run's cgroup"))?;
        if tasks <= 1 {
            break;
        }
        let left = slot.live_processes(spawner);
        if first && exited {
            left_behind = left.len() as u32;
        }
        if first {
            kill_group_left(pgid);
        }
        first = false;
        match keeper {
            Some(keeper) => keeper
                .clear()
                .map_err(setup_error("cannot clear the program's namespaces"))?,
            None => {
                for &pid in &left {
                    // SAFETY: kill has no memory effects; a pid the slot lists now is a
                    // process of the run (only the run's processes and the spawner live
                    // there).
                    unsafe { libc::kill(pid, libc::SIGKILL) };
                }
            }
        }
        reap_dead_orphans();
        if start.elapsed() > KILL_GRACE {
            return Err(RunError::Survivors {
                pgid,
                pids: slot.live_processes(spawner),
                grace: KILL_GRACE,
            });
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    Ok(Reaped {
        status,
        usage,
        orphans_cpu: Duration::ZERO,
        orphans_maxrss: 0,
        left_behind,
    })
}

/// Reaps the dead orphans handed to the harness: children of its main thread that are
/// neither a spawner nor the leader of a run under way. A zombie still counts in its
/// cgroup's tasks until it is reaped; a live one is left alone. Nothing is reaped while a
/// program is being started, which may be dead before its run has registered its pid: the
/// caller asks again a moment later.
fn reap_dead_orphans() {
    if cancel::a_start_under_way() {
        return;
    }
    let me = procfs::harness_pid();
    let children: Vec<i32> = match procfs::main_thread_children() {
        Some(pids) => pids,
        None => procfs::all_processes()
            .into_iter()
            .filter(|p| p.ppid == me)
            .map(|p| p.pid)
            .collect(),
    };
    for pid in children {
        if !own::is_own(pid) && !cancel::is_running_leader(pid) {
            reap_if_dead(pid);
        }
    }
}

/// Kills what is left of the reaped leader's group; whether anything was.
fn kill_group_left(pgid: i32) -> bool {
    // SAFETY: signal 0 only checks for existence; kill_and_reap's notes say why the id is
    // ours.
    let group_left = unsafe { libc::kill(-pgid, 0) } == 0;
    if group_left {
        // SAFETY: as above.
        unsafe { libc::killpg(pgid, libc::SIGKILL) };
    }
    group_left
}

impl Orphan {
    /// Kills the orphan, and its group if it leads one; a zombie is only waiting to be reaped.
    fn kill(&self) {
        let orphan = &self.stat;
        if !orphan.is_zombie() {
            // SAFETY: kill has no memory effects; the orphan is an unreaped child of the
            // harness, so its pid, and its group id if it leads one, are still its own.
            unsafe {
                libc::kill(orphan.pid, libc::SIGKILL);
                if orphan.pgid == orphan.pid {
                    libc::killpg(orphan.pid, libc::SIGKILL);
                }
            }
        }
    }
}

/// What the run's own orphans reaped so far used.
#[derive(Default)]
struct OrphansUsage {
    cpu: Duration,
    /// The largest peak resident size, in bytes.
    maxrss: u64,
}

impl OrphansUsage {
    fn add(&mut self, usage: &libc::rusage) {
        self.cpu += rusage_cpu(usage);
        let maxrss = (usage.ru_maxrss.max(0) as u64).saturating_mul(1024);
        self.maxrss = self.maxrss.max(maxrss);
    }
}

/// The pids of the run still alive: the group's members, if it has any left, and the
/// orphans that are not zombies.
fn survivors(pgid: i32, group_left: bool, orphans: &[Orphan]) -> Vec<i32> {
    let mut live: Vec<i32> = if group_left {
        procfs::live_group_members(pgid)
    } else {
        Vec::new()
    };
    live.extend(
        orphans
            .iter()
            .filter(|o| !o.stat.is_zombie())
            .map(|o| o.stat.pid),
    );
    live
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_name_runs_and_nothing_else() {
        let tag = tag_value(7);
        assert!(is_tag(tag));
        assert_eq!(tag as u32, 7);
        assert_ne!(tag_value(8), tag);
        // The usual value of RLIMIT_RTTIME, unlimited, is no tag.
        assert!(!is_tag(u64::MAX));
        assert!(!is_tag(0));
        // Ids wrap within the tag's 32 bits rather than spill into the magic.
        assert!(is_tag(tag_value((1 << 32) + 5)));
    }
}
