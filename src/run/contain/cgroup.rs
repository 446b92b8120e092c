//! Cgroups for the runs: found once per process ([`Tree::find`]), one cgroup per spawner
//! ([`Slot`]), in which the spawner lives, so that every program it starts is born there:
//! nothing is created or moved per run (moving a process waits for an RCU grace period,
//! milliseconds when the machine is quiet). Per run, a few reads and writes of the slot's
//! files ([`Slot::begin`], [`Slot::figures`]): the limits, the baseline, then what the run
//! used.
//!
//! Both cgroup versions: v2 where its hierarchy has the memory and pids controllers and
//! duipai may make cgroups there (as root, or in a delegated subtree such as a systemd scope
//! started with `Delegate=yes`); else v1, where the memory, pids and cpuacct hierarchies are
//! mounted and writable (as root). A slot is `duipai-PID/sN` under duipai's own cgroup of each
//! hierarchy (under the v2 root when duipai's own cgroup holds other processes).
//!
//! What a slot gives: the kernel refuses a fork past `pids.max` (the process limit, plus the
//! spawner); the memory limit is the baseline plus the program's limit (plus a little room
//! for the kernel's own pages), and the peak counts every page charged to the cgroup,
//! anonymous, shared memory, memfd, pipe buffers, page cache the program made, a page
//! shared by several processes once; CPU time counts every process that ran in it, reaped
//! or not.

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Room above the memory limit for the kernel's own pages of the run (page tables, pipe and
/// socket buffers of the spawner's start), so that a program at its limit is judged by its
/// peak, not killed a little before it.
const HEADROOM: u64 = 4 << 20;

/// Which cgroup version a [`Tree`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Version {
    V1,
    V2,
}

/// The v1 controllers a slot needs, each a hierarchy of its own (cpuacct may share one with
/// cpu).
const V1_CONTROLLERS: [&str; 3] = ["memory", "pids", "cpuacct"];

/// Where duipai's slots go: per hierarchy, the folder its slots are made in
/// (`.../duipai-PID`) and duipai's own cgroup (where a spawner returns before its slot is
/// removed).
#[derive(Clone, Debug)]
pub(crate) struct Tree {
    pub version: Version,
    /// Per hierarchy (v1: memory, pids, cpuacct; v2: one).
    bases: Vec<PathBuf>,
    homes: Vec<PathBuf>,
    /// v2: `memory.peak` can be reset per open file (Linux 6.12).
    peak_resettable: bool,
}

/// Numbers slots within the process.
static NEXT_SLOT: AtomicU64 = AtomicU64::new(1);

impl Tree {
    /// The cgroups duipai may use here, or why there are none (a reason for the message).
    pub fn find() -> Result<Tree, String> {
        let mountinfo = std::fs::read_to_string("/proc/self/mountinfo")
            .map_err(|e| format!("/proc/self/mountinfo cannot be read: {e}"))?;
        let own = std::fs::read_to_string("/proc/self/cgroup")
            .map_err(|e| format!("/proc/self/cgroup cannot be read: {e}"))?;
        let mounts = parse_mounts(&mountinfo);
        let v2 = match find_v2(&mounts, &own) {
            Ok(tree) => return Ok(tree),
            Err(why) => why,
        };
        find_v1(&mounts, &own).map_err(|v1| format!("{v2}; {v1}"))
    }

    /// A new slot, its folders made and its files open.
    pub fn slot(&self) -> io::Result<Slot> {
        let n = NEXT_SLOT.fetch_add(1, Ordering::Relaxed);
        let mut made = Vec::new();
        let result = (|| {
            for base in &self.bases {
                let dir = base.join(format!("s{n}"));
                make_slot_dir(base, &dir, self.version)?;
                made.push(dir);
            }
            Slot::open(self, made.clone())
        })();
        if result.is_err() {
            let _ = remove_slot_dirs(&self.bases, &made);
        }
        result
    }
}

/// Makes the slot folder `dir` in `base`, making `base` first. The last slot out removes
/// `base` (see [`remove_slot_dirs`]), and that may be another thread's slot, or a spawner's
/// whose harness is gone, between the moment `base` is found there and the moment `dir` is
/// made in it: then `base` is made again. An error names the folder it is about.
fn make_slot_dir(base: &Path, dir: &Path, version: Version) -> io::Result<()> {
    let named = |e: io::Error, path: &Path| {
        io::Error::new(e.kind(), format!("cannot make {}: {e}", path.display()))
    };
    let mut tries = 0;
    loop {
        let made = make_base(base, version)
            .map_err(|e| named(e, base))
            .and_then(|()| std::fs::create_dir(dir).map_err(|e| named(e, dir)));
        match made {
            Err(e) if e.kind() == io::ErrorKind::NotFound && tries < 100 => tries += 1,
            made => return made,
        }
    }
}

/// Makes `base` (`duipai-PID`) if it is not there, with (v2) the controllers enabled for its
/// children.
fn make_base(base: &Path, version: Version) -> io::Result<()> {
    match std::fs::create_dir(base) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists && version == Version::V2 => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => return Ok(()),
        Err(e) => return Err(e),
    }
    if version == Version::V2 {
        std::fs::write(base.join("cgroup.subtree_control"), "+memory +pids")?;
        // CPU time comes from `cpu.stat`, which every cgroup has; the controller only adds
        // weights, and is enabled when it can be.
        let _ = std::fs::write(base.join("cgroup.subtree_control"), "+cpu");
    }
    Ok(())
}

/// Removes the slot folders `dirs` (each emptied of processes first by the caller), then
/// the `bases` if no other slot is left in them.
pub(crate) fn remove_slot_dirs(bases: &[PathBuf], dirs: &[PathBuf]) -> io::Result<()> {
    let mut result = Ok(());
    for dir in dirs {
        if let Err(e) = rmdir_retrying(dir) {
            result = Err(e);
        }
    }
    for base in bases {
        // Busy while another slot is there: the last one out removes it.
        let _ = std::fs::remove_dir(base);
    }
    result
}

/// `rmdir` of a cgroup, retried a little: the kernel may still be finishing the last
/// process's exit.
fn rmdir_retrying(dir: &Path) -> io::Result<()> {
    let mut last = Ok(());
    for _ in 0..20 {
        last = std::fs::remove_dir(dir);
        match &last {
            Ok(()) => return Ok(()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(_) => std::thread::sleep(Duration::from_millis(1)),
        }
    }
    last
}

/// One mount of a cgroup file system: where, its root, its type and options.
#[derive(Debug, PartialEq, Eq)]
struct Mount {
    point: PathBuf,
    root: String,
    v2: bool,
    options: Vec<String>,
}

/// The cgroup mounts of a `/proc/self/mountinfo`.
fn parse_mounts(mountinfo: &str) -> Vec<Mount> {
    mountinfo
        .lines()
        .filter_map(|line| {
            let (left, right) = line.split_once(" - ")?;
            let left: Vec<&str> = left.split(' ').collect();
            let right: Vec<&str> = right.split(' ').collect();
            let fstype = *right.first()?;
            if fstype != "cgroup" && fstype != "cgroup2" {
                return None;
            }
            Some(Mount {
                point: PathBuf::from(unescape(left.get(4)?)),
                root: unescape(left.get(3)?),
                v2: fstype == "cgroup2",
                options: right.get(2)?.split(',').map(str::to_string).collect(),
            })
        })
        .collect()
}

/// A mountinfo field with its octal escapes (`\040` for a space) read.
fn unescape(field: &str) -> String {
    let bytes = field.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\'
            && i + 3 < bytes.len()
            && let Ok(v) = u8::from_str_radix(&field[i + 1..i + 4], 8)
        {
            out.push(v);
            i += 4;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// duipai's own path in the hierarchy whose `/proc/self/cgroup` line names `controller`
/// (`""` for v2's `0::` line).
fn own_path<'a>(cgroup: &'a str, controller: &str) -> Option<&'a str> {
    cgroup.lines().find_map(|line| {
        let mut parts = line.splitn(3, ':');
        let (_, names, path) = (parts.next()?, parts.next()?, parts.next()?);
        let matches = if controller.is_empty() {
            names.is_empty()
        } else {
            names.split(',').any(|n| n == controller)
        };
        matches.then_some(path)
    })
}

/// The folder of the cgroup at `path` (as `/proc/self/cgroup` gives it) in `mount`.
fn folder(mount: &Mount, path: &str) -> PathBuf {
    let relative = path.strip_prefix(mount.root.as_str()).unwrap_or(path);
    mount.point.join(relative.trim_start_matches('/'))
}

fn find_v1(mounts: &[Mount], own: &str) -> Result<Tree, String> {
    let mut bases = Vec::new();
    let mut homes = Vec::new();
    for controller in V1_CONTROLLERS {
        let mount = mounts
            .iter()
            .find(|m| !m.v2 && m.options.iter().any(|o| o == controller))
            .ok_or_else(|| format!("no cgroup v1 {controller} hierarchy is mounted"))?;
        let path = own_path(own, controller)
            .ok_or_else(|| format!("/proc/self/cgroup names no {controller} cgroup"))?;
        let home = folder(mount, path);
        probe(&home).map_err(|e| format!("cgroups cannot be made in {} ({e})", home.display()))?;
        bases.push(home.join(base_name()));
        homes.push(home);
    }
    Ok(Tree {
        version: Version::V1,
        bases,
        homes,
        peak_resettable: true,
    })
}

fn find_v2(mounts: &[Mount], own: &str) -> Result<Tree, String> {
    let mount = mounts
        .iter()
        .find(|m| m.v2)
        .ok_or("no cgroup v2 hierarchy is mounted")?;
    let path = own_path(own, "").ok_or("/proc/self/cgroup names no cgroup v2 path")?;
    let home = folder(mount, path);
    let controllers = std::fs::read_to_string(home.join("cgroup.controllers")).unwrap_or_default();
    let has = |c: &str| controllers.split_whitespace().any(|x| x == c);
    if !has("memory") || !has("pids") {
        return Err(format!(
            "the cgroup v2 hierarchy at {} offers no memory and pids controllers to {}",
            mount.point.display(),
            home.display()
        ));
    }
    // Slots go beside duipai's own cgroup's processes only at the root, which is exempt from
    // the rule that a cgroup with controllers for its children holds no process.
    let parent = if only_this_process(&home) || home == mount.point {
        home.clone()
    } else if is_root() {
        mount.point.clone()
    } else {
        return Err(format!(
            "duipai's cgroup {} holds other processes and is not delegated to it alone",
            home.display()
        ));
    };
    probe(&parent).map_err(|e| format!("cgroups cannot be made in {} ({e})", parent.display()))?;
    let base = parent.join(base_name());
    let home = if parent == home && home != mount.point {
        // duipai leaves its own cgroup for a leaf beside the slots, so that its own cgroup
        // may enable the controllers for its children.
        settle_in_leaf(&home, &base)?
    } else {
        home
    };
    Ok(Tree {
        version: Version::V2,
        peak_resettable: resettable_peak(&home),
        bases: vec![base],
        homes: vec![home],
    })
}

/// The name of duipai's folder of slots in each hierarchy.
fn base_name() -> String {
    format!("duipai-{}", std::process::id())
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// Whether the only process in the cgroup at `dir` is this one.
fn only_this_process(dir: &Path) -> bool {
    let me = std::process::id().to_string();
    std::fs::read_to_string(dir.join("cgroup.procs"))
        .is_ok_and(|procs| procs.split_whitespace().all(|p| p == me))
}

/// Moves this process into `BASE/harness` and enables the memory and pids controllers for
/// the children of `home` (v2, in a delegated cgroup that holds only duipai); returns the
/// leaf, duipai's cgroup from now on.
fn settle_in_leaf(home: &Path, base: &Path) -> Result<PathBuf, String> {
    let fail = |what: &str, e: io::Error| format!("cannot {what} in {} ({e})", home.display());
    make_base_plain(base).map_err(|e| fail("make duipai's cgroup", e))?;
    let leaf = base.join("harness");
    if let Err(e) = std::fs::create_dir(&leaf)
        && e.kind() != io::ErrorKind::AlreadyExists
    {
        return Err(fail("make duipai's cgroup", e));
    }
    std::fs::write(leaf.join("cgroup.procs"), std::process::id().to_string())
        .map_err(|e| fail("move duipai into its own leaf", e))?;
    std::fs::write(home.join("cgroup.subtree_control"), "+memory +pids")
        .map_err(|e| fail("enable the memory and pids controllers", e))?;
    Ok(leaf)
}

/// Makes `base` without enabling anything (the leaf beside the slots comes first).
fn make_base_plain(base: &Path) -> io::Result<()> {
    match std::fs::create_dir(base) {
        Err(e) if e.kind() != io::ErrorKind::AlreadyExists => Err(e),
        _ => Ok(()),
    }
}

/// Whether a cgroup can be made (and removed) in `dir`.
fn probe(dir: &Path) -> io::Result<()> {
    let probe = dir.join(format!("duipai-probe-{}", std::process::id()));
    std::fs::create_dir(&probe)?;
    std::fs::remove_dir(&probe)
}

/// Whether `memory.peak` in `dir`'s hierarchy can be reset by writing to it (Linux 6.12).
fn resettable_peak(dir: &Path) -> bool {
    std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(dir.join("memory.peak"))
        .is_ok_and(|f| f.write_at(b"reset", 0).is_ok())
}

/// One spawner's cgroup (a folder per hierarchy) and its files, kept open: the per-run reads
/// and writes are then a system call each.
#[derive(Debug)]
pub(crate) struct Slot {
    version: Version,
    dirs: Vec<PathBuf>,
    bases: Vec<PathBuf>,
    homes: Vec<PathBuf>,
    /// `cgroup.procs` of each hierarchy, open for writing: the spawner's child writes `0` to
    /// each to move itself in.
    procs: Vec<File>,
    memory_limit: File,
    /// v1 with swap accounting: `memory.memsw.limit_in_bytes`, which must stay at or above
    /// the memory limit.
    memsw_limit: Option<File>,
    memory_current: File,
    /// The resettable peak: v1 `memory.max_usage_in_bytes`, v2 `memory.peak` (6.12 and
    /// later); `None` where the peak cannot be reset (it is then sampled).
    memory_peak: Option<File>,
    /// v1 `memory.oom_control`, v2 `memory.events`: the `oom_kill` count.
    memory_events: File,
    pids_max: File,
    pids_current: File,
    pids_events: File,
    /// v1 `cpuacct.usage` (ns), v2 `cpu.stat` (`usage_usec`).
    cpu: File,
    /// What was last written, so that it is written only when it changes.
    set_pids: u64,
    set_memory: u64,
}

/// A slot's counters at the start of a run.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Baseline {
    memory: u64,
    cpu: Duration,
    refused: u64,
    oom_kills: u64,
}

/// What a run used, from its slot.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Figures {
    pub cpu: Duration,
    /// Memory charged to the slot above the baseline: the peak when it can be read, else
    /// the current amount.
    pub memory: u64,
    /// Tasks (processes and threads) in the slot but the spawner.
    pub tasks: u64,
    /// The kernel refused a fork past the process limit.
    pub fork_refused: bool,
    /// The OOM killer killed a process at the memory limit.
    pub oom_killed: bool,
}

impl Slot {
    fn open(tree: &Tree, dirs: Vec<PathBuf>) -> io::Result<Slot> {
        let rw = |path: PathBuf| {
            std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .open(&path)
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))
        };
        let ro = |path: PathBuf| {
            File::open(&path)
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))
        };
        let procs = dirs
            .iter()
            .map(|d| rw(d.join("cgroup.procs")))
            .collect::<io::Result<Vec<File>>>()?;
        let (memory, pids, cpu) = match tree.version {
            Version::V1 => (&dirs[0], &dirs[1], &dirs[2]),
            Version::V2 => (&dirs[0], &dirs[0], &dirs[0]),
        };
        // The files of each version: the memory limit, its usage, its peak, its events, and
        // the CPU time.
        let (limit, usage, peak, events, cpu_file) = match tree.version {
            Version::V1 => (
                "memory.limit_in_bytes",
                "memory.usage_in_bytes",
                Some("memory.max_usage_in_bytes"),
                "memory.oom_control",
                "cpuacct.usage",
            ),
            Version::V2 => {
                // No swap: a program's memory stays resident, where the limit sees it.
                let _ = std::fs::write(memory.join("memory.swap.max"), "0");
                let peak = tree.peak_resettable.then_some("memory.peak");
                (
                    "memory.max",
                    "memory.current",
                    peak,
                    "memory.events",
                    "cpu.stat",
                )
            }
        };
        let memory_peak = match (tree.version, peak) {
            (Version::V1, Some(peak)) => Some(rw(memory.join(peak))?),
            // A v2 peak that cannot be opened is done without, as a kernel without it.
            (_, Some(peak)) => rw(memory.join(peak)).ok(),
            (_, None) => None,
        };
        let memsw_limit = match tree.version {
            Version::V1 => rw(memory.join("memory.memsw.limit_in_bytes")).ok(),
            Version::V2 => None,
        };
        let slot = Slot {
            memory_limit: rw(memory.join(limit))?,
            memsw_limit,
            memory_current: ro(memory.join(usage))?,
            memory_peak,
            memory_events: ro(memory.join(events))?,
            pids_max: rw(pids.join("pids.max"))?,
            pids_current: ro(pids.join("pids.current"))?,
            pids_events: ro(pids.join("pids.events"))?,
            cpu: ro(cpu.join(cpu_file))?,
            version: tree.version,
            dirs: dirs.clone(),
            bases: tree.bases.clone(),
            homes: tree.homes.clone(),
            procs,
            set_pids: 0,
            set_memory: 0,
        };
        let mut slot = slot;
        // What the limit is now (no limit, in a new cgroup): whether a new one rises or
        // falls decides the order of the v1 memory+swap limit's writes.
        slot.set_memory = read_number(&slot.memory_limit)?;
        Ok(slot)
    }

    /// The open `cgroup.procs` files, for the spawner's child to move itself in.
    pub fn procs_fds(&self) -> Vec<i32> {
        use std::os::fd::AsRawFd;
        self.procs.iter().map(File::as_raw_fd).collect()
    }

    /// The slot's folders, and the folders they are in and duipai's own cgroups: what a
    /// spawner needs to leave and remove its slot when it ends.
    pub fn paths(&self) -> (&[PathBuf], &[PathBuf], &[PathBuf]) {
        (&self.dirs, &self.bases, &self.homes)
    }

    /// Before a run under `processes` and `memory_bytes`: sets the limits (when they changed),
    /// resets the peak and reads the baseline.
    pub fn begin(&mut self, processes: u64, memory_bytes: u64) -> io::Result<Baseline> {
        let pids = processes.saturating_add(1);
        if pids != self.set_pids {
            write_number(&self.pids_max, pids)?;
            self.set_pids = pids;
        }
        let current = read_number(&self.memory_current)?;
        let limit = current
            .saturating_add(memory_bytes)
            .saturating_add(HEADROOM);
        if limit != self.set_memory {
            self.set_memory_limit(limit)?;
        }
        if let Some(peak) = &self.memory_peak {
            // v1: any write resets to the current usage; v2: to the current usage, for reads
            // through this descriptor.
            peak.write_at(b"0", 0)?;
        }
        Ok(Baseline {
            memory: current,
            cpu: self.cpu_time()?,
            refused: self.key(&self.pids_events, "max")?,
            oom_kills: self.key(&self.memory_events, "oom_kill")?,
        })
    }

    /// Sets the memory limit (and, on v1 with swap accounting, memory plus swap, which must
    /// not be below it: raised first when the limit rises, lowered after when it falls).
    fn set_memory_limit(&mut self, limit: u64) -> io::Result<()> {
        let rising = limit > self.set_memory;
        if let (Some(memsw), true) = (&self.memsw_limit, rising) {
            write_number(memsw, limit)?;
        }
        write_number(&self.memory_limit, limit)?;
        if let (Some(memsw), false) = (&self.memsw_limit, rising) {
            write_number(memsw, limit)?;
        }
        self.set_memory = limit;
        Ok(())
    }

    /// What the run has used since `base`: `at_end` reads the peak (once the run is over),
    /// else the current memory (while it runs).
    pub fn figures(&self, base: &Baseline, at_end: bool) -> io::Result<Figures> {
        let memory = match (&self.memory_peak, at_end) {
            (Some(peak), true) => read_number(peak)?,
            _ => read_number(&self.memory_current)?,
        };
        Ok(Figures {
            cpu: self.cpu_time()?.saturating_sub(base.cpu),
            memory: memory.saturating_sub(base.memory),
            tasks: self.tasks()?.saturating_sub(1),
            fork_refused: self.key(&self.pids_events, "max")? > base.refused,
            oom_killed: self.key(&self.memory_events, "oom_kill")? > base.oom_kills,
        })
    }

    /// Kills every process in the slot but `keep`, until none is left (a second at most),
    /// then removes the slot (and duipai's folder of slots, if it was the last).
    pub fn remove(&self, keep: Option<i32>) {
        kill_all_in(&self.dirs[0], keep);
        let _ = remove_slot_dirs(&self.bases, &self.dirs);
    }

    /// Tasks in the slot, the spawner's included; zombies count until they are reaped.
    pub fn tasks(&self) -> io::Result<u64> {
        read_number(&self.pids_current)
    }

    /// The live processes in the slot now but `except` (the spawner), read from a
    /// `cgroup.procs` opened afresh: cgroup v1 answers a read through a descriptor kept open
    /// from a list it cached up to a second before (see `group::kill_and_reap_in`). A process
    /// that is already a zombie is left out (only its parent's wait is left of it).
    pub fn live_processes(&self, except: i32) -> Vec<i32> {
        let Ok(text) = std::fs::read_to_string(self.dirs[0].join("cgroup.procs")) else {
            return Vec::new();
        };
        text.split_whitespace()
            .filter_map(|p| p.parse().ok())
            .filter(|&p| p != except)
            .filter(|&p| crate::run::procfs::stat(p).is_some_and(|s| !s.is_zombie()))
            .collect()
    }

    fn cpu_time(&self) -> io::Result<Duration> {
        Ok(match self.version {
            Version::V1 => Duration::from_nanos(read_number(&self.cpu)?),
            Version::V2 => Duration::from_micros(self.key(&self.cpu, "usage_usec")?),
        })
    }

    /// The value of `key` in a flat keyed file (`key value` lines); 0 when it is absent.
    fn key(&self, file: &File, key: &str) -> io::Result<u64> {
        let mut buf = [0u8; 1024];
        let n = file.read_at(&mut buf, 0)?;
        Ok(keyed(&buf[..n], key).unwrap_or(0))
    }
}

/// Kills every process of the cgroup at `dir` but `keep`, until none is left or a second
/// has passed. (Killed processes may linger as zombies of their parents: they no longer
/// keep the cgroup from being removed.)
pub(crate) fn kill_all_in(dir: &Path, keep: Option<i32>) {
    let procs = dir.join("cgroup.procs");
    for _ in 0..1000 {
        let Ok(text) = std::fs::read_to_string(&procs) else {
            return;
        };
        let others: Vec<i32> = text
            .split_whitespace()
            .filter_map(|p| p.parse().ok())
            .filter(|&p| Some(p) != keep)
            .collect();
        if others.is_empty() {
            return;
        }
        for pid in others {
            // SAFETY: kill has no memory effects; a pid listed in the cgroup is one of its
            // processes (or, after a reuse in between, a process of the same slot).
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// The number of `key` in `key value` lines.
fn keyed(text: &[u8], key: &str) -> Option<u64> {
    String::from_utf8_lossy(text).lines().find_map(|line| {
        let (k, v) = line.split_once(' ')?;
        (k == key).then(|| v.trim().parse().ok()).flatten()
    })
}

fn read_number(file: &File) -> io::Result<u64> {
    let mut buf = [0u8; 64];
    let n = file.read_at(&mut buf, 0)?;
    let text = String::from_utf8_lossy(&buf[..n]);
    let text = text.trim();
    if text == "max" {
        return Ok(u64::MAX);
    }
    text.parse()
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, format!("not a number: {text}")))
}

fn write_number(file: &File, value: u64) -> io::Result<()> {
    file.write_at(value.to_string().as_bytes(), 0).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two makers of slots in one folder of slots, each removing the folder once its own
    /// slot is gone (as the last slot out does): no slot fails to be made because the other
    /// removed the folder in between. A plain folder stands for the cgroup one (v1 makes it
    /// with nothing more). Without the retry, 300 slots a maker failed 20 runs of 20 (100: 19
    /// of 20) in a temporary folder on disk.
    #[test]
    fn a_slot_is_made_even_when_its_folder_goes_meanwhile() {
        let scratch = tempfile::tempdir().unwrap();
        let base = scratch.path().join("duipai-slots");
        let makers: Vec<_> = ["a", "b"]
            .into_iter()
            .map(|name| {
                let base = base.clone();
                std::thread::spawn(move || {
                    for i in 0..300 {
                        let dir = base.join(format!("{name}{i}"));
                        make_slot_dir(&base, &dir, Version::V1)?;
                        remove_slot_dirs(std::slice::from_ref(&base), &[dir])?;
                    }
                    io::Result::Ok(())
                })
            })
            .collect();
        for maker in makers {
            maker.join().unwrap().expect("every slot made");
        }
    }

    const MOUNTINFO: &str = "\
31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
33 31 0:30 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
39 31 0:36 /outer /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
41 31 0:38 / /sys/fs/cgroup/unified\\040dir rw,relatime - cgroup2 cgroup2 rw
";

    const CGROUP: &str = "\
8:pids:/outer/inner
4:memory:/process_api/7a
2:cpu,cpuacct:/
0::/user.slice/x.scope
";

    #[test]
    fn mounts_and_own_paths_are_read() {
        let mounts = parse_mounts(MOUNTINFO);
        assert_eq!(mounts.len(), 4);
        let v2 = mounts.iter().find(|m| m.v2).unwrap();
        assert_eq!(v2.point, Path::new("/sys/fs/cgroup/unified dir"));
        assert_eq!(own_path(CGROUP, "cpuacct"), Some("/"));
        assert_eq!(own_path(CGROUP, "memory"), Some("/process_api/7a"));
        assert_eq!(own_path(CGROUP, ""), Some("/user.slice/x.scope"));
        assert_eq!(own_path(CGROUP, "freezer"), None);
        let pids = mounts
            .iter()
            .find(|m| m.options.contains(&"pids".into()))
            .unwrap();
        assert_eq!(
            folder(pids, "/outer/inner"),
            Path::new("/sys/fs/cgroup/pids/inner")
        );
    }

    #[test]
    fn keyed_files_are_read() {
        assert_eq!(keyed(b"max 7\n", "max"), Some(7));
        assert_eq!(
            keyed(b"oom_kill_disable 0\nunder_oom 0\noom_kill 2\n", "oom_kill"),
            Some(2)
        );
        assert_eq!(
            keyed(b"usage_usec 1500\nuser_usec 1000\n", "usage_usec"),
            Some(1500)
        );
        assert_eq!(keyed(b"", "max"), None);
    }

    /// A real slot, where this machine allows one: its limits are set, and a process in it
    /// is counted.
    #[test]
    fn a_slot_sets_its_limits_and_counts_its_processes() {
        let Ok(tree) = Tree::find() else {
            eprintln!("no cgroup for this test here");
            return;
        };
        let mut slot = tree.slot().expect("a slot");
        let base = slot.begin(4, 64 << 20).expect("begin");
        let figures = slot.figures(&base, true).expect("figures");
        assert_eq!(figures.tasks, 0, "{figures:?}");
        assert!(!figures.fork_refused && !figures.oom_killed);
        assert_eq!(read_number(&slot.pids_max).unwrap(), 5);
        let (dirs, bases, _) = slot.paths();
        let (dirs, bases) = (dirs.to_vec(), bases.to_vec());
        drop(slot);
        remove_slot_dirs(&bases, &dirs).expect("removed");
        assert!(dirs.iter().all(|d| !d.exists()));
    }
}
