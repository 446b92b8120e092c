//! Reading a program's resource use from `/proc`: CPU time, resident memory, task count.
//!
//! Linux offers no per-group counters without cgroups, so the supervisor samples every process
//! of the run, many times a second: the members of the program's process group, their
//! descendants (followed by parent pid, so a child that left the group with `setsid` is still
//! counted), and the run's orphans the harness adopted as their subreaper. New processes are
//! found by walking down the tree from those through the kernel's `children` files, or, where
//! the kernel has none, by a scan of all of `/proc`.

use std::collections::{HashMap, HashSet};
use std::fs::{self, File};
use std::io::Read;
use std::sync::OnceLock;
use std::time::Duration;

/// One process as seen in `/proc/<pid>/stat`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProcStat {
    pub pid: i32,
    pub state: u8,
    pub ppid: i32,
    pub pgid: i32,
    /// utime + stime + cutime + cstime, in clock ticks: the process, its threads and its
    /// children it has already reaped.
    pub cpu_ticks: u64,
    /// cutime + cstime alone: the children it has reaped.
    pub reaped_ticks: u64,
    pub threads: u64,
    /// When the process started, in clock ticks after boot: with the pid, it names one process
    /// even after the pid is reused.
    pub start_time: u64,
    pub rss_pages: u64,
}

impl ProcStat {
    /// A zombie has released its memory and can no longer run; only its parent's wait remains.
    pub fn is_zombie(&self) -> bool {
        self.state == b'Z' || self.state == b'X'
    }
}

/// Totals over the live (non-zombie) processes of one group at one instant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GroupSample {
    pub cpu: Duration,
    pub rss_bytes: u64,
    /// Tasks: every thread of every process counts, like `RLIMIT_NPROC` does.
    pub tasks: u64,
    /// Live processes (zombies excluded).
    pub processes: u64,
    /// The largest `VmHWM` (peak resident set since `exec`) among the live processes: catches
    /// a peak that fell between two samples.
    pub max_hwm_bytes: u64,
    /// Some process was runnable (running, or ready to run and waiting for a CPU).
    pub runnable: bool,
    /// The kernel refused a fork past the process limit (only a cgroup tells).
    pub fork_refused: bool,
    /// The OOM killer killed a process at the memory limit (only a cgroup tells).
    pub oom_killed: bool,
}

/// Parses the contents of `/proc/<pid>/stat`. The command name (field 2) may hold spaces and
/// parentheses, so the fields are counted from the last `)`.
pub fn parse_stat(text: &[u8]) -> Option<ProcStat> {
    let open = text.iter().position(|&b| b == b'(')?;
    let close = text.iter().rposition(|&b| b == b')')?;
    let pid: i32 = std::str::from_utf8(&text[..open])
        .ok()?
        .trim()
        .parse()
        .ok()?;
    let rest = std::str::from_utf8(text.get(close + 1..)?).ok()?;
    // Field 3 (state) is the first after the name; field k is rest[k - 3].
    let fields: Vec<&str> = rest.split_ascii_whitespace().collect();
    let field = |k: usize| -> Option<u64> { fields.get(k - 3)?.parse().ok() };
    let state = *fields.first()?.as_bytes().first()?;
    let ppid: i32 = fields.get(4 - 3)?.parse().ok()?;
    let pgid: i32 = fields.get(5 - 3)?.parse().ok()?;
    let reaped_ticks = field(16)? + field(17)?;
    let cpu_ticks = field(14)? + field(15)? + reaped_ticks;
    Some(ProcStat {
        pid,
        state,
        ppid,
        pgid,
        cpu_ticks,
        reaped_ticks,
        threads: field(20)?,
        start_time: field(22)?,
        rss_pages: field(24)?,
    })
}

fn clock_ticks_per_second() -> u64 {
    static TICKS: OnceLock<u64> = OnceLock::new();
    *TICKS.get_or_init(|| {
        // SAFETY: sysconf has no preconditions.
        let t = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
        if t > 0 { t as u64 } else { 100 }
    })
}

fn page_size() -> u64 {
    static PAGE: OnceLock<u64> = OnceLock::new();
    *PAGE.get_or_init(|| {
        // SAFETY: sysconf has no preconditions.
        let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        if p > 0 { p as u64 } else { 4096 }
    })
}

pub fn ticks_to_duration(ticks: u64) -> Duration {
    let hz = clock_ticks_per_second();
    Duration::from_secs(ticks / hz) + Duration::from_nanos((ticks % hz) * 1_000_000_000 / hz)
}

/// This process's pid. Asked every time (a system call without work): a process forked
/// without `exec` from one that ran programs must not take its parent's pid for its own.
pub fn harness_pid() -> i32 {
    // SAFETY: getpid has no preconditions.
    unsafe { libc::getpid() }
}

/// Reads a small `/proc` file into `buf`. A plain `read`: the standard library's
/// `read_to_end` first asks a `File` for its size (`statx`, `lseek`), two wasted system calls
/// on a file that does not know it, on every sample. The kernel produces these files whole,
/// so a read that does not fill the buffer has read everything.
fn read_proc(path: &str, buf: &mut Vec<u8>) -> Option<()> {
    buf.clear();
    let mut file = File::open(path).ok()?;
    let mut chunk = [0u8; 4096];
    loop {
        match file.read(&mut chunk) {
            Ok(n) => {
                buf.extend_from_slice(&chunk[..n]);
                if n < chunk.len() {
                    return Some(());
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
}

fn read_stat(pid: &str, buf: &mut Vec<u8>) -> Option<ProcStat> {
    read_proc(&format!("/proc/{pid}/stat"), buf)?;
    parse_stat(buf)
}

/// One process's `/proc/<pid>/stat`, if it exists.
pub fn stat(pid: i32) -> Option<ProcStat> {
    read_stat(&pid.to_string(), &mut Vec::with_capacity(512))
}

/// Every process in `/proc` now, zombies included; processes that vanish during the scan are
/// skipped. It costs one file read per process on the machine.
pub fn all_processes() -> Vec<ProcStat> {
    let mut all = Vec::new();
    let Ok(dir) = fs::read_dir("/proc") else {
        return all;
    };
    let mut buf = Vec::with_capacity(512);
    for entry in dir.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if !name.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        if let Some(stat) = read_stat(name, &mut buf) {
            all.push(stat);
        }
    }
    all
}

/// Every process currently in `/proc` whose process group is `pgid`, zombies included.
/// Processes that vanish during the scan are skipped.
pub fn group_members(pgid: i32) -> Vec<ProcStat> {
    all_processes()
        .into_iter()
        .filter(|p| p.pgid == pgid)
        .collect()
}

/// The children of this process's main thread, from `/proc/self/task/<pid>/children`: where
/// the kernel puts the orphans it hands to this process as their subreaper (the first live
/// thread of the subreaper gets them). `None` when the kernel does not offer the file
/// (`CONFIG_PROC_CHILDREN`); then only a scan of all of `/proc` can tell.
///
/// The file is opened once and read again from offset 0 each time (the kernel makes it anew
/// on every read): two system calls for the check every run ends with.
pub fn main_thread_children() -> Option<Vec<i32>> {
    use std::sync::Mutex;
    // Kept with the pid it belongs to: a forked copy of the harness opens its own.
    static FILE: Mutex<Option<(i32, Option<std::sync::Arc<File>>)>> = Mutex::new(None);
    let pid = harness_pid();
    let file = {
        let mut slot = FILE.lock().unwrap_or_else(|e| e.into_inner());
        match &*slot {
            Some((owner, file)) if *owner == pid => file.clone(),
            _ => {
                let file = File::open(format!("/proc/{pid}/task/{pid}/children"))
                    .ok()
                    .map(std::sync::Arc::new);
                *slot = Some((pid, file.clone()));
                file
            }
        }
    }?;
    read_pids(&file)
}

/// The pids listed in a `children` file, read to its end. The kernel fills a read with as
/// many whole entries as fit in one page, so a read shorter than asked for is not the end:
/// only an empty one is (a harness with some seven hundred children overlooked the newest).
fn read_pids(file: &File) -> Option<Vec<i32>> {
    use std::os::unix::fs::FileExt;
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        match file.read_at(&mut chunk, buf.len() as u64) {
            Ok(0) => break,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
    Some(
        buf.split(u8::is_ascii_whitespace)
            .filter_map(|p| std::str::from_utf8(p).ok()?.parse().ok())
            .collect(),
    )
}

/// The most recently allocated pid (last field of `/proc/loadavg`): if it has not changed, no
/// process was created anywhere, so a group cannot have gained members.
fn newest_pid() -> Option<i32> {
    let mut buf = Vec::new();
    read_proc("/proc/loadavg", &mut buf)?;
    let text = std::str::from_utf8(&buf).ok()?;
    text.split_ascii_whitespace().last()?.parse().ok()
}

/// The processes of one run: its leader, the members of its process group, their descendants
/// and the orphans `adopt` claims, sampled repeatedly at a low cost. A search for new
/// processes (a walk down the tree, or a scan of all of `/proc` where that cannot be had)
/// runs at most every [`RunSampler::FULL_SCAN_EVERY`] samples, and only if some process was
/// created since the last one; the samples in between read only the processes already known.
pub struct RunSampler {
    leader: i32,
    /// The init of the run's PID namespace, if it has one: every process it holds as a
    /// child is an orphan of the run (the namespace holds one run at a time).
    reaper: Option<i32>,
    /// Memory is summed as proportional set sizes when the run has several processes, so
    /// that a page they share counts once (without a cgroup, which counts it so itself).
    proportional: bool,
    /// A process of the run was seen ignoring `SIGCHLD` while it had children: the kernel
    /// reaps those itself, and their CPU time reaches no one's figures (without a cgroup).
    unseen_children: bool,
    /// Known live processes of the run, as (pid, start time): a pid alone could name another
    /// process once reused.
    known: Vec<(i32, u64)>,
    samples: u64,
    last_full: u64,
    newest_at_full: Option<i32>,
    /// Every process of the run seen so far, as (pid, start time), with the time its tasks
    /// had waited for a CPU when last seen: kept after it ends, so that the sum covers the
    /// whole run.
    delays: Vec<(i32, u64, Duration)>,
    buf: Vec<u8>,
}

/// How long the task whose `schedstat` file is `path` has been ready to run but waiting for
/// a CPU (the second field, in nanoseconds): the mark of a machine too busy to give it its
/// share.
fn task_delay(path: &str, buf: &mut Vec<u8>) -> Option<Duration> {
    read_proc(path, buf)?;
    let text = std::str::from_utf8(buf).ok()?;
    let nanos: u64 = text.split_ascii_whitespace().nth(1)?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// How long the tasks of process `pid` (its `threads` threads) have waited for a CPU, summed:
/// one file for a single-threaded process, one per thread otherwise.
pub fn run_delay(pid: i32, threads: u64, buf: &mut Vec<u8>) -> Option<Duration> {
    if threads <= 1 {
        return task_delay(&format!("/proc/{pid}/schedstat"), buf);
    }
    let tasks = fs::read_dir(format!("/proc/{pid}/task")).ok()?;
    let mut total = Duration::ZERO;
    for task in tasks.flatten() {
        let path = format!(
            "/proc/{pid}/task/{}/schedstat",
            task.file_name().to_string_lossy()
        );
        total += task_delay(&path, buf).unwrap_or_default();
    }
    Some(total)
}

impl RunSampler {
    /// How long the run's processes have waited for a CPU in all, as far as the samples saw.
    pub fn waited(&self) -> Duration {
        self.delays.iter().map(|&(_, _, d)| d).sum()
    }

    /// [`RunSampler::waited`], read again now for the leader (a zombie until it is reaped)
    /// and the live processes: the figure at the end of a run, not at its last sample.
    pub fn waited_now(&mut self) -> Duration {
        let mut pids: Vec<i32> = self.known.iter().map(|&(p, _)| p).collect();
        if !pids.contains(&self.leader) {
            pids.push(self.leader);
        }
        for pid in pids {
            if let Some(stat) = read_stat(&pid.to_string(), &mut self.buf) {
                self.note_delay(&stat);
            }
        }
        self.waited()
    }

    /// Records how long `p`'s tasks have waited for a CPU.
    fn note_delay(&mut self, p: &ProcStat) {
        let Some(delay) = run_delay(p.pid, p.threads, &mut self.buf) else {
            return;
        };
        match self
            .delays
            .iter_mut()
            .find(|(pid, start, _)| *pid == p.pid && *start == p.start_time)
        {
            Some((_, _, seen)) => *seen = (*seen).max(delay),
            None => self.delays.push((p.pid, p.start_time, delay)),
        }
    }

    pub const FULL_SCAN_EVERY: u64 = 4;
    pub const FIRST_FULL_SCAN: u64 = 3;

    /// A sampler for the run whose leader (and process group) is `leader`.
    pub fn new(leader: i32) -> RunSampler {
        RunSampler {
            leader,
            reaper: None,
            proportional: false,
            unseen_children: false,
            known: Vec::new(),
            samples: 0,
            last_full: 0,
            newest_at_full: None,
            delays: Vec::new(),
            buf: Vec::with_capacity(512),
        }
    }

    /// Follows the children of `reaper`, the init of the run's PID namespace, as the run's:
    /// the orphans it left there.
    pub fn with_reaper(mut self, reaper: i32) -> RunSampler {
        self.reaper = Some(reaper);
        self
    }

    /// Sums the memory of several processes as proportional set sizes (see
    /// [`RunSampler::proportional`]).
    pub fn proportional(mut self) -> RunSampler {
        self.proportional = true;
        self
    }

    /// The processes of the run seen alive at the last sample, as (pid, start time).
    pub fn known(&self) -> &[(i32, u64)] {
        &self.known
    }

    /// Whether `p` is a process the sampler saw alive as part of the run (by pid and start
    /// time, so a reused pid is not mistaken for it).
    pub fn knows(&self, p: &ProcStat) -> bool {
        self.known.contains(&(p.pid, p.start_time))
    }

    /// One sample; a full scan when one is due. `adopt` says whether an orphan handed to this
    /// process (a child of it that is not the leader) belongs to the run.
    pub fn sample(&mut self, adopt: &dyn Fn(&ProcStat) -> bool) -> GroupSample {
        // The first samples, 1 to 7 ms after the start, read the leader alone: a full scan
        // costs more than a small case's whole run, and a new program has had little time to
        // fork. The first full scan comes about 15 ms in.
        let due = self.samples == Self::FIRST_FULL_SCAN
            || (self.samples > Self::FIRST_FULL_SCAN
                && self.samples - self.last_full >= Self::FULL_SCAN_EVERY
                && newest_pid().is_none_or(|p| Some(p) != self.newest_at_full));
        self.samples += 1;
        if due {
            // Read before scanning: a process created during the scan triggers the next one.
            self.newest_at_full = newest_pid();
            self.last_full = self.samples;
            return self.sample_all(adopt);
        }
        self.sample_known()
    }

    /// A sample of every process of the run now, a full search: what a run that exited left
    /// (the orphans its namespace holds) is measured once more before it is killed.
    pub fn sample_all(&mut self, adopt: &dyn Fn(&ProcStat) -> bool) -> GroupSample {
        let members = match self.members_below(adopt) {
            Some(members) => members,
            None => self.members_among(all_processes(), adopt),
        };
        if self.proportional && !self.unseen_children && members.len() > 1 {
            self.unseen_children = members.iter().any(|m| {
                !m.is_zombie() && members.iter().any(|c| c.ppid == m.pid) && ignores_sigchld(m.pid)
            });
        }
        self.record(&members)
    }

    /// Whether a process of the run ignored `SIGCHLD` while it had children, as far as the
    /// full scans saw (see `unseen_children`).
    pub fn children_unseen(&self) -> bool {
        self.unseen_children
    }

    /// A sample of the processes already known only: no scan for new ones.
    pub fn sample_known(&mut self) -> GroupSample {
        let mut members = Vec::with_capacity(self.known.len().max(1));
        let leader = self.leader;
        if let Some(stat) = read_stat(&leader.to_string(), &mut self.buf) {
            members.push(stat);
        }
        for &(pid, start) in &self.known {
            if pid == leader {
                continue;
            }
            if let Some(stat) = read_stat(&pid.to_string(), &mut self.buf)
                && stat.start_time == start
            {
                members.push(stat);
            }
        }
        self.record(&members)
    }

    /// The run's processes found by walking down the process tree through the kernel's
    /// `children` files, from the leader, the processes already known, the children of the
    /// reaper, and the orphans handed to the harness that are the run's (in its group, known,
    /// or claimed by `adopt`): a few file reads per process of the run, where a scan of all of
    /// `/proc` costs one per process on the machine. It finds what the scan finds as long as
    /// every process of the run that loses its parent is handed to one of those roots: the
    /// harness must be a child subreaper (then an orphan goes to the harness, to the run's
    /// namespace init, or to a subreaper of the run's own, all walked). `None` when the
    /// kernel has no `children` files or the harness is not a subreaper: then only the scan
    /// can tell.
    fn members_below(&mut self, adopt: &dyn Fn(&ProcStat) -> bool) -> Option<Vec<ProcStat>> {
        if !is_child_subreaper() {
            return None;
        }
        let mut walk = Walk::default();
        walk.roots.push((self.leader, None));
        let known = self.known.iter().map(|&(pid, start)| (pid, Some(start)));
        walk.roots.extend(known);
        if let Some(reaper) = self.reaper
            && let Some(stat) = read_stat(&reaper.to_string(), &mut self.buf)
        {
            let children = children_of(&stat);
            walk.roots
                .extend(children.into_iter().map(|pid| (pid, None)));
        }
        walk.descend(&mut self.buf);
        // Read last: a process of the run orphaned while the tree was walked is found here.
        let me = harness_pid();
        for pid in main_thread_children()? {
            if walk.seen.contains(&pid) {
                continue;
            }
            let Some(p) = read_stat(&pid.to_string(), &mut self.buf) else {
                continue;
            };
            if p.ppid == me && (p.pgid == self.leader || self.knows(&p) || adopt(&p)) {
                walk.roots.push((pid, Some(p.start_time)));
            }
        }
        walk.descend(&mut self.buf);
        Some(walk.found)
    }

    /// The run's processes among `all`: the leader, its group, what the sampler already knew,
    /// adopted orphans, and every descendant of those.
    fn members_among(
        &self,
        all: Vec<ProcStat>,
        adopt: &dyn Fn(&ProcStat) -> bool,
    ) -> Vec<ProcStat> {
        let me = harness_pid();
        let mut children: HashMap<i32, Vec<usize>> = HashMap::new();
        for (i, p) in all.iter().enumerate() {
            children.entry(p.ppid).or_default().push(i);
        }
        let mut ours: HashSet<i32> = HashSet::new();
        let mut stack = Vec::new();
        for p in &all {
            let root = p.pid == self.leader
                || p.pgid == self.leader
                || self.knows(p)
                || Some(p.ppid) == self.reaper
                || (p.ppid == me && adopt(p));
            if root && ours.insert(p.pid) {
                stack.push(p.pid);
            }
        }
        while let Some(pid) = stack.pop() {
            for &i in children.get(&pid).map(Vec::as_slice).unwrap_or_default() {
                if ours.insert(all[i].pid) {
                    stack.push(all[i].pid);
                }
            }
        }
        all.into_iter().filter(|p| ours.contains(&p.pid)).collect()
    }

    fn record(&mut self, members: &[ProcStat]) -> GroupSample {
        for member in members {
            self.note_delay(member);
        }
        self.known = members
            .iter()
            .filter(|m| !m.is_zombie())
            .map(|m| (m.pid, m.start_time))
            .collect();
        let mut sample = summarize(members);
        if self.proportional && sample.processes > 1 {
            // Shared pages (a copy-on-write fork's) once, not once per process. A process
            // that has ended since its stat was read has released its memory: none of it.
            sample.rss_bytes = members
                .iter()
                .filter(|m| !m.is_zombie())
                .filter_map(|m| proportional_set_size(m.pid))
                .sum();
        }
        // VmHWM is the peak since exec: it covers the moments between samples.
        sample.max_hwm_bytes = members
            .iter()
            .filter(|m| !m.is_zombie())
            .filter_map(|m| peak_rss(m.pid))
            .max()
            .unwrap_or(0);
        sample
    }
}

/// A walk down the process tree (see [`RunSampler::members_below`]).
#[derive(Default)]
struct Walk {
    /// Where to go on from: a pid, with the start time it must have when it names a process
    /// known from before (its pid may have been reused since).
    roots: Vec<(i32, Option<u64>)>,
    seen: HashSet<i32>,
    found: Vec<ProcStat>,
}

impl Walk {
    /// Takes in the roots and every descendant of theirs, each once.
    fn descend(&mut self, buf: &mut Vec<u8>) {
        while let Some((pid, start)) = self.roots.pop() {
            if self.seen.contains(&pid) {
                continue;
            }
            let Some(stat) = read_stat(&pid.to_string(), buf) else {
                continue;
            };
            if start.is_some_and(|s| s != stat.start_time) {
                continue;
            }
            self.seen.insert(pid);
            let children = children_of(&stat);
            self.roots.extend(children.into_iter().map(|c| (c, None)));
            self.found.push(stat);
        }
    }
}

/// The children of process `p`, zombies included: those of each of its threads (a child is
/// listed under the thread that forked it). A process whose threads have all ended has none
/// left (they went to a reaper when it exited).
fn children_of(p: &ProcStat) -> Vec<i32> {
    let pid = p.pid;
    if p.threads <= 1 {
        if p.is_zombie() {
            return Vec::new();
        }
        return read_children(&format!("/proc/{pid}/task/{pid}/children"));
    }
    let Ok(tasks) = fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    let mut children = Vec::new();
    for task in tasks.flatten() {
        let path = format!(
            "/proc/{pid}/task/{}/children",
            task.file_name().to_string_lossy()
        );
        children.extend(read_children(&path));
    }
    children
}

/// The pids listed in the `children` file at `path`; none if it cannot be read (the task
/// has ended).
fn read_children(path: &str) -> Vec<i32> {
    let Ok(file) = File::open(path) else {
        return Vec::new();
    };
    read_pids(&file).unwrap_or_default()
}

/// Whether this process is a child subreaper now: the orphans of what it started come to
/// it. Asked every time (one system call): the mark is not inherited by a forked copy.
fn is_child_subreaper() -> bool {
    let mut flag: libc::c_int = 0;
    // SAFETY: PR_GET_CHILD_SUBREAPER writes one int through the pointer, a valid local.
    let r = unsafe { libc::prctl(libc::PR_GET_CHILD_SUBREAPER, &mut flag as *mut libc::c_int) };
    r == 0 && flag != 0
}

/// Whether process `pid` ignores `SIGCHLD` (its children are then reaped by the kernel, not
/// waited for).
fn ignores_sigchld(pid: i32) -> bool {
    let mut buf = Vec::new();
    if read_proc(&format!("/proc/{pid}/status"), &mut buf).is_none() {
        return false;
    }
    String::from_utf8_lossy(&buf)
        .lines()
        .find_map(|l| l.strip_prefix("SigIgn:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .is_some_and(|mask| mask & (1 << (libc::SIGCHLD - 1)) != 0)
}

/// A process's proportional set size in bytes (`Pss` of `/proc/PID/smaps_rollup`): each of
/// its resident pages divided by the number of processes that map it. The kernel walks the
/// process's page tables to tell, so it is read only for runs of several processes.
pub fn proportional_set_size(pid: i32) -> Option<u64> {
    let mut buf = Vec::new();
    read_proc(&format!("/proc/{pid}/smaps_rollup"), &mut buf)?;
    parse_kib_field(std::str::from_utf8(&buf).ok()?, "Pss:")
}

/// `VmHWM` of a process in bytes. Unlike `ru_maxrss` from `wait4`, it starts over at `exec`:
/// `ru_maxrss` of a freshly spawned program already includes the resident size the harness had
/// when it forked, so it cannot be used for the program's own peak.
pub fn peak_rss(pid: i32) -> Option<u64> {
    let mut buf = Vec::new();
    read_proc(&format!("/proc/{pid}/status"), &mut buf)?;
    parse_kib_field(std::str::from_utf8(&buf).ok()?, "VmHWM:")
}

fn parse_kib_field(status: &str, key: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with(key))?;
    let kib: u64 = line[key.len()..].split_whitespace().next()?.parse().ok()?;
    Some(kib * 1024)
}

pub fn summarize(members: &[ProcStat]) -> GroupSample {
    let mut sample = GroupSample::default();
    let mut ticks = 0;
    for m in members {
        // A zombie's CPU time is still reported until it is reaped; after that its parent's
        // cutime/cstime carry it, so counting zombies keeps the sum from dipping.
        ticks += m.cpu_ticks;
        if !m.is_zombie() {
            sample.runnable |= m.state == b'R';
            sample.rss_bytes += m.rss_pages * page_size();
            sample.tasks += m.threads.max(1);
            sample.processes += 1;
        }
    }
    sample.cpu = ticks_to_duration(ticks);
    sample
}

/// Whether process `pid` waits for input: some thread of it is blocked reading its
/// standard input (`read` or `readv` on descriptor 0) or waiting in `poll`, `select` or
/// `epoll` (on what, `/proc` does not say: counted as input). `None` when it cannot be told
/// (the process is gone, or `/proc/PID/task/TID/syscall` is not readable to the harness).
pub fn waits_for_input(pid: i32) -> Option<bool> {
    let tasks = fs::read_dir(format!("/proc/{pid}/task")).ok()?;
    let mut known = false;
    let mut buf = Vec::with_capacity(256);
    for task in tasks.flatten() {
        let path = format!(
            "/proc/{pid}/task/{}/syscall",
            task.file_name().to_string_lossy()
        );
        if read_proc(&path, &mut buf).is_none() {
            continue;
        }
        known = true;
        if blocked_on_input(&String::from_utf8_lossy(&buf)) {
            return Some(true);
        }
    }
    known.then_some(false)
}

/// Whether a `/proc/.../syscall` line (`NR ARG0 ARG1 ...`, or `running`) shows a read of
/// descriptor 0 or a wait for any descriptor.
fn blocked_on_input(line: &str) -> bool {
    let mut fields = line.split_ascii_whitespace();
    let (Some(nr), Some(fd)) = (fields.next(), fields.next()) else {
        return false;
    };
    let Ok(nr) = nr.parse::<i64>() else {
        return false;
    };
    let reads = [libc::SYS_read, libc::SYS_readv];
    #[cfg(target_arch = "x86_64")]
    let waits = [
        libc::SYS_ppoll,
        libc::SYS_pselect6,
        libc::SYS_epoll_pwait,
        libc::SYS_poll,
        libc::SYS_select,
        libc::SYS_epoll_wait,
    ];
    #[cfg(not(target_arch = "x86_64"))]
    let waits = [libc::SYS_ppoll, libc::SYS_pselect6, libc::SYS_epoll_pwait];
    (reads.contains(&nr) && fd == "0x0") || waits.contains(&nr)
}

/// The live processes (zombies excluded) whose process group is `pgid`: what a caller checks
/// to be sure nothing of a run survived it.
pub fn live_group_members(pgid: i32) -> Vec<i32> {
    group_members(pgid)
        .into_iter()
        .filter(|m| !m.is_zombie())
        .map(|m| m.pid)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_name_with_spaces_and_parentheses() {
        let text = b"4242 (a) b (c)) R 1 4242 4242 0 -1 4194304 100 0 0 0 \
                     30 12 5 3 20 0 3 0 12345 1000000 256 18446744073709551615";
        let stat = parse_stat(text).expect("parses");
        assert_eq!(stat.pid, 4242);
        assert_eq!(stat.state, b'R');
        assert_eq!(stat.ppid, 1);
        assert_eq!(stat.pgid, 4242);
        assert_eq!(stat.start_time, 12345);
        assert_eq!(stat.cpu_ticks, 30 + 12 + 5 + 3);
        assert_eq!(stat.threads, 3);
        assert_eq!(stat.rss_pages, 256);
    }

    #[test]
    fn reads_kib_fields() {
        let status = "Name:\tx\nVmPeak:\t  9000 kB\nVmHWM:\t    1234 kB\nVmRSS:\t 1000 kB\n";
        assert_eq!(parse_kib_field(status, "VmHWM:"), Some(1234 * 1024));
        assert_eq!(parse_kib_field(status, "VmSwap:"), None);
    }

    #[test]
    fn reads_of_stdin_and_waits_are_waiting_for_input() {
        let read = format!(
            "{} 0x0 0x7ffd 0x1000 0x0 0x0 0x0 0x7ffd 0x7f00",
            libc::SYS_read
        );
        assert!(blocked_on_input(&read));
        let other_fd = format!(
            "{} 0x3 0x7ffd 0x1000 0x0 0x0 0x0 0x7ffd 0x7f00",
            libc::SYS_read
        );
        assert!(!blocked_on_input(&other_fd));
        let sleep = format!(
            "{} 0x0 0x0 0x7ffd 0x0 0x0 0x0 0x7ffd 0x7f00",
            libc::SYS_clock_nanosleep
        );
        assert!(!blocked_on_input(&sleep));
        assert!(!blocked_on_input("running"));
        // SAFETY: getpid has no preconditions.
        let me = unsafe { libc::getpid() };
        assert!(waits_for_input(me).is_some());
    }

    /// More children than one page of the `children` file lists: every one is read, the
    /// newest included (they are zombies of this test's thread until reaped at the end).
    #[test]
    fn a_children_file_longer_than_a_page_is_read_whole() {
        let mut pids = Vec::new();
        for _ in 0..1200 {
            // SAFETY: the child calls only _exit, which is async-signal-safe after fork.
            match unsafe { libc::fork() } {
                // SAFETY: the forked child ends at once, running nothing of the test's.
                0 => unsafe { libc::_exit(0) },
                pid if pid > 0 => pids.push(pid),
                _ => break,
            }
        }
        // SAFETY: gettid has no preconditions.
        let tid = unsafe { libc::gettid() };
        let file = File::open(format!("/proc/self/task/{tid}/children")).expect("children");
        let listed = read_pids(&file).expect("readable");
        for &pid in &pids {
            // SAFETY: waits for this thread's own child; the status goes to a local.
            unsafe { libc::waitpid(pid, &mut 0, 0) };
        }
        assert!(pids.len() >= 1000, "only {} forks", pids.len());
        let text_len: usize = pids.iter().map(|p| p.to_string().len() + 1).sum();
        assert!(text_len > 4096, "{text_len} bytes fit one page");
        let missing: Vec<_> = pids.iter().filter(|p| !listed.contains(p)).collect();
        assert!(
            missing.is_empty(),
            "{} of {} not listed",
            missing.len(),
            pids.len()
        );
    }

    /// Forks a process that runs `then` and waits to be killed.
    fn fork_and_wait(then: impl FnOnce()) -> i32 {
        // SAFETY: the child calls only async-signal-safe functions (setpgid, setsid, fork,
        // pause, _exit) and never returns into the test.
        match unsafe { libc::fork() } {
            0 => {
                then();
                loop {
                    // SAFETY: pause has no preconditions.
                    unsafe { libc::pause() };
                }
            }
            pid => {
                assert!(pid > 0, "fork failed");
                pid
            }
        }
    }

    /// Kills the processes a test forked even when it fails, so that none outlives it.
    struct KillOnDrop(Vec<i32>);

    impl Drop for KillOnDrop {
        fn drop(&mut self) {
            for &pid in &self.0 {
                // SAFETY: kill and waitpid have no memory effects; the pids are the test's
                // own forked processes, unreaped until here.
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                    libc::waitpid(pid, &mut 0, libc::WNOHANG);
                }
            }
        }
    }

    fn pids(members: &[ProcStat]) -> Vec<i32> {
        let mut pids: Vec<i32> = members.iter().map(|m| m.pid).collect();
        pids.sort_unstable();
        pids
    }

    /// What the walk down the tree finds, and what a scan of all of `/proc` finds.
    fn both_ways(sampler: &mut RunSampler) -> (Vec<i32>, Vec<i32>) {
        let walked = sampler.members_below(&|_| false).expect("children files");
        let scanned = sampler.members_among(all_processes(), &|_| false);
        (pids(&walked), pids(&scanned))
    }

    /// A leader whose child left the session (`setsid`) and whose grandchild leads a group of
    /// its own, and an orphan of the leader's group handed to this process (the subreaper)
    /// before any sample saw it: the walk finds them all, as the scan does. Once the child is
    /// killed, its orphan (handed to this process) is still found because it was known, and
    /// the dead child too (a zombie of the leader until reaped).
    #[test]
    fn the_walk_down_the_tree_finds_what_a_scan_finds() {
        crate::run::group::become_subreaper();
        let leader = fork_and_wait(|| {
            // SAFETY: setpgid and setsid have no memory effects.
            unsafe { libc::setpgid(0, 0) };
            fork_and_wait(|| {
                // SAFETY: as above.
                unsafe { libc::setsid() };
                // SAFETY: as above.
                fork_and_wait(|| unsafe {
                    libc::setpgid(0, 0);
                });
            });
            fork_and_wait(|| {
                fork_and_wait(|| ());
                // SAFETY: _exit ends the forked process at once.
                unsafe { libc::_exit(0) };
            });
        });
        let mut sampler = RunSampler::new(leader);
        let start = std::time::Instant::now();
        let zombies = |pids: &[i32]| {
            pids.iter()
                .filter(|&&p| stat(p).is_some_and(|s| s.is_zombie()))
                .count()
        };
        let mut scanned = both_ways(&mut sampler).1;
        while (scanned.len() < 5 || zombies(&scanned) < 1)
            && start.elapsed() < Duration::from_secs(10)
        {
            std::thread::sleep(Duration::from_millis(5));
            scanned = both_ways(&mut sampler).1;
        }
        // Each walk runs just before its scan, so a process forked between the two is missing
        // from the walk: both look again once the scan has seen the tree settled.
        let (walked, scanned) = both_ways(&mut sampler);
        let _cleanup = KillOnDrop(scanned.clone());
        assert_eq!(scanned.len(), 5, "{scanned:?}");
        assert_eq!(walked, scanned);
        let all = sampler.sample_all(&|_| false);
        assert_eq!(all.processes, 4);
        let find = |what: &str, is: &dyn Fn(ProcStat) -> bool| {
            *scanned
                .iter()
                .find(|&&p| stat(p).is_some_and(is))
                .unwrap_or_else(|| panic!("no {what}"))
        };
        let child = find("child", &|s| s.ppid == leader && !s.is_zombie());
        let grandchild = find("grandchild", &|s| s.ppid == child);
        let gone = find("ended child", &|s| s.ppid == leader && s.is_zombie());
        let orphan = find("orphan", &|s| s.ppid == harness_pid() && s.pid != leader);
        // SAFETY: kill has no memory effects; the child is an unreaped descendant.
        unsafe { libc::kill(child, libc::SIGKILL) };
        while stat(grandchild).is_some_and(|s| s.ppid != harness_pid())
            && start.elapsed() < Duration::from_secs(10)
        {
            std::thread::sleep(Duration::from_millis(5));
        }
        let (walked, scanned) = both_ways(&mut sampler);
        let mut expected = vec![leader, child, grandchild, gone, orphan];
        expected.sort_unstable();
        assert_eq!(scanned, expected);
        assert_eq!(walked, expected);
        for pid in [grandchild, orphan, leader, child, gone] {
            // SAFETY: kill and waitpid have no memory effects; each is a child of this
            // process or of a process killed before it (handed to this subreaper then).
            unsafe {
                libc::kill(pid, libc::SIGKILL);
                libc::waitpid(pid, &mut 0, 0);
            }
        }
    }

    /// A child forked by a thread other than the main one is listed under that thread: the
    /// walk reads every thread's list.
    #[test]
    fn the_walk_finds_a_child_of_any_thread() {
        crate::run::group::become_subreaper();
        let (tx, rx) = std::sync::mpsc::channel();
        let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
        let thread = std::thread::spawn(move || {
            tx.send(fork_and_wait(|| ())).expect("sent");
            let _ = done_rx.recv();
        });
        let child = rx.recv().expect("forked");
        let mut sampler = RunSampler::new(harness_pid());
        let walked = pids(&sampler.members_below(&|_| false).expect("children files"));
        // SAFETY: kill and waitpid on this process's own child.
        unsafe {
            libc::kill(child, libc::SIGKILL);
            libc::waitpid(child, &mut 0, 0);
        }
        drop(done_tx);
        thread.join().expect("joined");
        assert!(walked.contains(&child), "{child} not in {walked:?}");
    }

    #[test]
    fn rejects_truncated_text() {
        assert_eq!(parse_stat(b"12 (x) R 1 12"), None);
        assert_eq!(parse_stat(b""), None);
    }

    #[test]
    fn sees_its_own_process() {
        // SAFETY: getpid and getpgrp have no preconditions.
        let (pid, pgid) = unsafe { (libc::getpid(), libc::getpgrp()) };
        let members = group_members(pgid);
        let me = members.iter().find(|m| m.pid == pid).expect("self listed");
        assert!(me.threads >= 1);
        assert!(me.rss_pages > 0);
        assert!(summarize(&members).processes >= 1);
    }
}
