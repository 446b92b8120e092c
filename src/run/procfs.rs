//! Reading a process group's resource use from `/proc`: CPU time, resident memory, task count.
//!
//! Linux offers no per-group counters without cgroups, so the supervisor samples every process
//! whose `/proc/<pid>/stat` names the group, many times a second. A process that leaves the
//! group (`setsid`, `setpgid`) escapes these figures; that is accepted: the runner contains
//! mistakes, it is not a sandbox.

use std::fs::{self, File};
use std::io::Read;
use std::sync::OnceLock;
use std::time::Duration;

/// One process as seen in `/proc/<pid>/stat`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProcStat {
    pub pid: i32,
    pub state: u8,
    /// The parent's pid.
    pub ppid: i32,
    pub pgid: i32,
    /// utime + stime + cutime + cstime, in clock ticks: the process, its threads and its
    /// children it has already reaped.
    pub cpu_ticks: u64,
    pub threads: u64,
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
    let cpu_ticks = field(14)? + field(15)? + field(16)? + field(17)?;
    Some(ProcStat {
        pid,
        state,
        ppid,
        pgid,
        cpu_ticks,
        threads: field(20)?,
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

fn read_stat(pid: &str, buf: &mut Vec<u8>) -> Option<ProcStat> {
    buf.clear();
    let mut file = File::open(format!("/proc/{pid}/stat")).ok()?;
    file.read_to_end(buf).ok()?;
    parse_stat(buf)
}

/// Every process currently in `/proc` whose process group is `pgid`, zombies included.
/// Processes that vanish during the scan are skipped.
pub fn group_members(pgid: i32) -> Vec<ProcStat> {
    let mut members = Vec::new();
    let Ok(dir) = fs::read_dir("/proc") else {
        return members;
    };
    let mut buf = Vec::with_capacity(512);
    for entry in dir.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if !name.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        if let Some(stat) = read_stat(name, &mut buf)
            && stat.pgid == pgid
        {
            members.push(stat);
        }
    }
    members
}

/// The most recently allocated pid (last field of `/proc/loadavg`): if it has not changed, no
/// process was created anywhere, so a group cannot have gained members.
fn newest_pid() -> Option<i32> {
    let text = fs::read_to_string("/proc/loadavg").ok()?;
    text.split_ascii_whitespace().last()?.parse().ok()
}

/// Samples one group repeatedly at a low cost. Scanning all of `/proc` costs a file read per
/// process on the machine, so a full scan (which finds new members) runs at most every
/// [`GroupSampler::FULL_SCAN_EVERY`] samples, and only if some process was created since the
/// last one; the samples in between read only the members already known.
pub struct GroupSampler {
    pgid: i32,
    known: Vec<i32>,
    samples: u64,
    last_full: u64,
    newest_at_full: Option<i32>,
    buf: Vec<u8>,
}

impl GroupSampler {
    pub const FULL_SCAN_EVERY: u64 = 4;
    pub const FIRST_FULL_SCAN: u64 = 4;

    pub fn new(pgid: i32) -> GroupSampler {
        GroupSampler {
            pgid,
            known: vec![pgid],
            samples: 0,
            last_full: 0,
            newest_at_full: None,
            buf: Vec::with_capacity(512),
        }
    }

    pub fn sample(&mut self) -> GroupSample {
        // The first samples, 1 to 8 ms after the start, read the leader alone: a full scan
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
            let members = group_members(self.pgid);
            self.known = members
                .iter()
                .filter(|m| !m.is_zombie())
                .map(|m| m.pid)
                .collect();
            let mut sample = summarize(&members);
            sample.max_hwm_bytes = self
                .known
                .iter()
                .filter_map(|&p| peak_rss(p))
                .max()
                .unwrap_or(0);
            return sample;
        }
        self.sample_known()
    }

    /// A sample of the members already known only: no scan for new ones.
    pub fn sample_known(&mut self) -> GroupSample {
        let pgid = self.pgid;
        let buf = &mut self.buf;
        let members: Vec<ProcStat> = self
            .known
            .iter()
            .filter_map(|pid| read_stat(&pid.to_string(), buf))
            .filter(|m| m.pgid == pgid)
            .collect();
        let mut sample = summarize(&members);
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

/// How long `pid` has been ready to run but waiting for a CPU (`/proc/PID/schedstat`, its
/// second field, in nanoseconds): the mark of a machine too busy to give it its share.
pub fn run_delay(pid: i32) -> Option<Duration> {
    let text = fs::read_to_string(format!("/proc/{pid}/schedstat")).ok()?;
    let nanos: u64 = text.split_whitespace().nth(1)?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

impl GroupSampler {
    /// The time the known members have spent waiting for a CPU, summed.
    pub fn run_delay(&self) -> Duration {
        self.known.iter().filter_map(|&p| run_delay(p)).sum()
    }
}

/// `VmHWM` of a process in bytes. Unlike `ru_maxrss` from `wait4`, it starts over at `exec`:
/// `ru_maxrss` of a freshly spawned program already includes the resident size the harness had
/// when it forked, so it cannot be used for the program's own peak.
pub fn peak_rss(pid: i32) -> Option<u64> {
    let text = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    parse_kib_field(&text, "VmHWM:")
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
            sample.rss_bytes += m.rss_pages * page_size();
            sample.tasks += m.threads.max(1);
            sample.processes += 1;
        }
    }
    sample.cpu = ticks_to_duration(ticks);
    sample
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
        assert_eq!(stat.pgid, 4242);
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
