//! The limits a program runs under ([`Limits`]), which one a run exceeded ([`exceeded`], the one
//! precedence order of the runner), and the rlimits that back them up in the kernel.

use std::fmt;
#[cfg(target_os = "linux")]
use std::sync::{Mutex, OnceLock};
use std::time::Duration;
#[cfg(target_os = "linux")]
use std::time::Instant;

#[cfg(target_os = "linux")]
use super::clone::Rlimit;
#[cfg(target_os = "linux")]
use super::procfs;
use super::signal::{Signal, sig};

pub(crate) const MIB: u64 = 1024 * 1024;

/// The resources a program under test may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Limits {
    /// CPU time (user + system) of all the program's processes: its process group, its
    /// descendants, and the orphans it left.
    pub cpu: Duration,
    /// Wall-clock time from start to exit, for programs that sleep or wait: the time the
    /// program's processes wait for a CPU on a busy machine does not count (see `exceeded`).
    pub wall: Duration,
    /// Resident memory of all the program's processes at once.
    pub memory_bytes: u64,
    /// Bytes of output (stdout, or the output file); one byte more is an output limit verdict.
    pub output_bytes: u64,
    /// Tasks (processes and threads) of all the program's processes at once.
    pub processes: u64,
}

impl Limits {
    /// The default wall-clock limit for a CPU limit: twice the CPU limit plus one second,
    /// generous to a loaded machine, short for a sleeper.
    pub fn default_wall(cpu: Duration) -> Duration {
        cpu * 2 + Duration::from_secs(1)
    }

    /// The hard address-space bound (`RLIMIT_AS`): twice the memory limit plus 1 GiB, plus
    /// room for the program's threads, each of which reserves (without touching) a stack of
    /// [`Limits::stack_bytes`] and a malloc arena of up to 64 MiB. The memory limit itself
    /// is enforced on resident memory (by the supervisor, or a memory cgroup); this bound only
    /// protects the machine if the supervisor is late, so it is generous: runtimes reserve far
    /// more address space than they touch (thread stacks, malloc arenas, garbage-collected
    /// heaps), and a tight bound would stop them before they start, or refuse a program's
    /// seventh thread as soon as seven stacks of the memory limit's size exceed it. A program
    /// that asks for more than this at once fails to allocate and usually aborts, which is
    /// judged a memory limit verdict.
    pub fn address_space_bytes(&self) -> u64 {
        let threads = self.processes.clamp(1, MAX_THREADS_RESERVED) - 1;
        let per_thread = self.stack_bytes().saturating_add(64 * MIB);
        self.memory_bytes
            .saturating_mul(2)
            .saturating_add(1024 * MIB)
            .saturating_add(threads.saturating_mul(per_thread))
    }

    /// The stack limit (`RLIMIT_STACK`): contest programs recurse deeply and judges
    /// traditionally let the stack grow to the memory limit (at least 8 MiB), but glibc also
    /// reserves a stack of this size for every new thread, so it is capped at 256 MiB.
    pub fn stack_bytes(&self) -> u64 {
        self.memory_bytes.clamp(8 * MIB, 256 * MIB)
    }
}

/// The most threads the address-space bound leaves room for, whatever the process limit.
const MAX_THREADS_RESERVED: u64 = 256;

/// A limit the harness found exceeded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Limit {
    CpuTime,
    WallTime,
    Memory,
    Output,
    Processes,
    /// Interactive runs: nothing moved between the program and the interactor, and neither
    /// ran, for the idleness limit, or both were blocked reading their input with nothing in
    /// flight (see `interact`). Only the supervisor can see it.
    Idleness,
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Limit::CpuTime => "CPU time limit",
            Limit::WallTime => "wall-clock limit",
            Limit::Memory => "memory limit",
            Limit::Output => "output limit",
            Limit::Processes => "process limit",
            Limit::Idleness => "idleness limit",
        })
    }
}

/// What was observed of a run so far, as far as the limits go: the supervisor's figures while
/// it runs, the final figures once it has ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Usage {
    /// The program wrote more than the output limit.
    pub output_exceeded: bool,
    pub cpu: Duration,
    pub wall: Duration,
    /// Of the wall-clock time, how long the program's processes were ready to run but waited
    /// for a CPU (the machine was busy): not the program's doing, so not counted against the
    /// wall-clock limit.
    pub waited: Duration,
    /// The most tasks seen at once.
    pub tasks: u64,
    /// The peak resident memory seen.
    pub memory_bytes: u64,
    /// The kernel refused a fork past the process limit (in a cgroup).
    pub fork_refused: bool,
    /// The OOM killer killed a process at the memory limit (in a cgroup).
    pub oom_killed: bool,
    /// The signal that ended the program, once known: `SIGXFSZ` and `SIGXCPU` come from the
    /// `RLIMIT_FSIZE` and `RLIMIT_CPU` backstops.
    pub signal: Option<Signal>,
}

/// The limit a run exceeded, if any; when several are, the one that best explains the run.
///
/// The supervisor asks this at every sample (and stops the program on `Some`), and the final
/// verdict asks it again of the final figures. The figures only grow, so the final answer is
/// the supervisor's or one it ranks higher.
///
/// The order, and why:
/// 1. Output: past the limit the harness stops reading, so a program blocked on a full pipe
///    then waits, and everything after is a consequence of the flood.
/// 2. CPU time: the judges' usual order, output, then time, then memory.
/// 3. Processes, before memory: the group's resident sizes are summed, so the pages a fork
///    storm's copies share are counted once per copy, and a storm of small processes would
///    otherwise read as a memory hog.
/// 4. Memory.
/// 5. Wall-clock time, last: it depends on the machine's load and it is what any other excess
///    turns into on a stalled machine (a swapping memory hog, a fork storm), so it is the
///    explanation only when the program's own figures are all within their limits: a
///    program that sleeps or waits. The time its processes spent ready to run but waiting
///    for a CPU is not counted: on a busy machine a program within its CPU limit takes
///    longer, but only a program that sleeps or waits past the limit exceeds it.
pub(crate) fn exceeded(limits: &Limits, usage: &Usage) -> Option<Limit> {
    let signal = usage.signal.map(|s| s.0);
    if usage.output_exceeded || signal == Some(sig::SIGXFSZ) {
        Some(Limit::Output)
    } else if usage.cpu > limits.cpu || signal == Some(sig::SIGXCPU) {
        Some(Limit::CpuTime)
    } else if usage.tasks > limits.processes || usage.fork_refused {
        Some(Limit::Processes)
    } else if usage.memory_bytes > limits.memory_bytes || usage.oom_killed {
        Some(Limit::Memory)
    } else if usage.wall.saturating_sub(usage.waited) > limits.wall {
        Some(Limit::WallTime)
    } else {
        None
    }
}

#[cfg(target_os = "linux")]
/// The rlimits of a program, computed before it starts.
pub(crate) struct Rlimits {
    cpu: libc::rlimit,
    /// None for a program built with a sanitizer (see `sanitizer`).
    address_space: Option<libc::rlimit>,
    processes: libc::rlimit,
    core: libc::rlimit,
    file_size: libc::rlimit,
    stack: libc::rlimit,
}

#[cfg(target_os = "linux")]
fn rlimit(soft: u64, hard: u64, current_hard: u64, privileged: bool) -> libc::rlimit {
    // An unprivileged process cannot raise a hard limit; ask for no more than it has.
    let hard = if privileged {
        hard
    } else {
        hard.min(current_hard)
    };
    libc::rlimit {
        rlim_cur: soft.min(hard) as libc::rlim_t,
        rlim_max: hard as libc::rlim_t,
    }
}

#[cfg(target_os = "linux")]
/// The harness's own hard limit for `resource` (0 if it cannot be read).
fn current_hard(resource: libc::__rlimit_resource_t) -> u64 {
    let mut cur = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: valid out-pointer.
    if unsafe { libc::getrlimit(resource, &mut cur) } == 0 {
        // rlim_t is 64 bits wide on the usual targets, not on every one.
        #[allow(clippy::unnecessary_cast)]
        let hard = cur.rlim_max as u64;
        hard
    } else {
        0
    }
}

#[cfg(target_os = "linux")]
/// What the harness may grant: whether it is root, and its own hard limits, which bound what
/// an unprivileged harness can set. Read once: the harness never changes them, and six
/// system calls per run add up over thousands of small cases.
struct Grantable {
    privileged: bool,
    cpu: u64,
    address_space: u64,
    processes: u64,
    file_size: u64,
    stack: u64,
}

#[cfg(target_os = "linux")]
fn grantable() -> &'static Grantable {
    static GRANTABLE: OnceLock<Grantable> = OnceLock::new();
    GRANTABLE.get_or_init(|| Grantable {
        // SAFETY: geteuid has no preconditions.
        privileged: unsafe { libc::geteuid() } == 0,
        cpu: current_hard(libc::RLIMIT_CPU),
        address_space: current_hard(libc::RLIMIT_AS),
        processes: current_hard(libc::RLIMIT_NPROC),
        file_size: current_hard(libc::RLIMIT_FSIZE),
        stack: current_hard(libc::RLIMIT_STACK),
    })
}

#[cfg(target_os = "linux")]
impl Rlimits {
    /// The rlimits for `limits`; without an address-space bound when `bound_address_space` is
    /// false (a sanitized program).
    pub(crate) fn new(limits: &Limits, bound_address_space: bool) -> Rlimits {
        let have = grantable();
        let privileged = have.privileged;
        // RLIMIT_CPU counts whole seconds per process; the supervisor enforces the real limit on
        // the group, this only stops a runaway process if the supervisor cannot.
        let cpu_soft = limits.cpu.as_secs() + 2;
        let address_space = limits.address_space_bytes();
        // RLIMIT_NPROC counts every task of the user, not of the group, and root is exempt
        // from it; above the user's current count it is a backstop against fork bombs for
        // unprivileged users, while the supervisor's count of the program is the real limit.
        // In a cgroup the kernel's refusal there is the one that tells the verdict (its
        // `pids.events`), so this backstop stands one task above it (the cgroup's own count
        // includes the spawner): a program run as a box uid would otherwise meet this one
        // first, and its refused forks would go unnoticed.
        let nproc = if privileged {
            limits
                .processes
                .saturating_add(u64::from(crate::run::contain::tree().is_some()))
        } else {
            user_task_count().saturating_add(limits.processes)
        };
        // One byte over the output limit is allowed so that an over-long output file shows
        // its excess instead of being silently cut at the limit.
        let fsize = limits.output_bytes.saturating_add(1);
        let stack = limits.stack_bytes();
        Rlimits {
            cpu: rlimit(cpu_soft, cpu_soft + 1, have.cpu, privileged),
            address_space: bound_address_space
                .then(|| rlimit(address_space, address_space, have.address_space, privileged)),
            processes: rlimit(nproc, nproc, have.processes, privileged),
            core: rlimit(0, 0, 0, privileged),
            file_size: rlimit(fsize, fsize, have.file_size, privileged),
            stack: rlimit(stack, stack, have.stack, privileged),
        }
    }

    /// The limits as the child sets them on itself before `exec`, after `first` (the run's
    /// tag): from the program's first instruction on, and before `exec` lays out its address
    /// space by the stack limit.
    pub(crate) fn with_tag(&self, first: Rlimit) -> Vec<Rlimit> {
        let required = |resource, limit: &libc::rlimit| Rlimit {
            resource,
            limit: *limit,
            required: true,
        };
        let mut all = vec![first, required(libc::RLIMIT_CPU, &self.cpu)];
        if let Some(address_space) = &self.address_space {
            all.push(required(libc::RLIMIT_AS, address_space));
        }
        all.extend([
            required(libc::RLIMIT_NPROC, &self.processes),
            required(libc::RLIMIT_CORE, &self.core),
            required(libc::RLIMIT_FSIZE, &self.file_size),
            required(libc::RLIMIT_STACK, &self.stack),
        ]);
        all
    }
}

#[cfg(target_os = "linux")]
/// Tasks (threads) of processes owned by this user, counted at most once a second, plus
/// slack: the base `RLIMIT_NPROC` is counted from. Counting scans all of `/proc`, which on a
/// desktop costs milliseconds, more than a small case's whole run; the slack covers what the
/// user's other programs start in the meantime, so that only a real fork storm meets the
/// backstop.
fn user_task_count() -> u64 {
    const FRESH: Duration = Duration::from_secs(1);
    const SLACK: u64 = 64;
    static COUNTED: Mutex<Option<(Instant, u64)>> = Mutex::new(None);
    let mut counted = COUNTED.lock().unwrap_or_else(|e| e.into_inner());
    match *counted {
        Some((at, count)) if at.elapsed() < FRESH => count + SLACK,
        _ => {
            let count = count_user_tasks();
            *counted = Some((Instant::now(), count));
            count + SLACK
        }
    }
}

#[cfg(target_os = "linux")]
fn count_user_tasks() -> u64 {
    use std::os::unix::fs::MetadataExt;
    // SAFETY: getuid has no preconditions.
    let uid = unsafe { libc::getuid() };
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return 0;
    };
    let mut count = 0;
    for entry in dir.flatten() {
        let Ok(meta) = entry.metadata() else { continue };
        if meta.uid() != uid {
            continue;
        }
        if let Ok(text) = std::fs::read(entry.path().join("stat"))
            && let Some(stat) = procfs::parse_stat(&text)
        {
            count += stat.threads;
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> Limits {
        Limits {
            cpu: Duration::from_secs(1),
            wall: Duration::from_secs(3),
            memory_bytes: 256 * MIB,
            output_bytes: MIB,
            processes: 8,
        }
    }

    /// Figures that exceed every limit, then each removed in turn: the order is the
    /// documented one, and each limit is found alone.
    #[test]
    fn precedence_is_output_cpu_processes_memory_wall() {
        let limits = limits();
        let mut usage = Usage {
            output_exceeded: true,
            cpu: Duration::from_millis(1001),
            wall: Duration::from_millis(3001),
            waited: Duration::ZERO,
            tasks: 9,
            memory_bytes: 256 * MIB + 1,
            fork_refused: false,
            oom_killed: false,
            signal: None,
        };
        let mut order = Vec::new();
        while let Some(limit) = exceeded(&limits, &usage) {
            order.push(limit);
            match limit {
                Limit::Output => usage.output_exceeded = false,
                Limit::CpuTime => usage.cpu = Duration::ZERO,
                Limit::Processes => usage.tasks = 1,
                Limit::Memory => usage.memory_bytes = 0,
                Limit::WallTime => usage.wall = Duration::ZERO,
                Limit::Idleness => unreachable!("no figure of one run shows idleness"),
            }
        }
        assert_eq!(
            order,
            [
                Limit::Output,
                Limit::CpuTime,
                Limit::Processes,
                Limit::Memory,
                Limit::WallTime
            ]
        );
    }

    #[test]
    fn limits_are_exclusive_bounds() {
        let limits = limits();
        let at_the_limit = Usage {
            output_exceeded: false,
            cpu: limits.cpu,
            wall: limits.wall,
            waited: Duration::ZERO,
            tasks: limits.processes,
            memory_bytes: limits.memory_bytes,
            fork_refused: false,
            oom_killed: false,
            signal: None,
        };
        assert_eq!(exceeded(&limits, &at_the_limit), None);
        assert_eq!(exceeded(&limits, &Usage::default()), None);
    }

    #[test]
    fn backstop_signals_count_as_their_limits() {
        let limits = limits();
        let by = |signal| Usage {
            signal: Some(Signal(signal)),
            ..Usage::default()
        };
        assert_eq!(exceeded(&limits, &by(libc::SIGXFSZ)), Some(Limit::Output));
        assert_eq!(exceeded(&limits, &by(libc::SIGXCPU)), Some(Limit::CpuTime));
        assert_eq!(exceeded(&limits, &by(libc::SIGSEGV)), None);
        // A backstop signal keeps its place in the order: output before CPU.
        let both = Usage {
            cpu: Duration::from_secs(2),
            ..by(libc::SIGXFSZ)
        };
        assert_eq!(exceeded(&limits, &both), Some(Limit::Output));
    }

    /// The wall clock explains a run only when nothing of the program's own is over.
    #[test]
    fn wall_clock_comes_last() {
        let limits = limits();
        let stalled_hog = Usage {
            wall: Duration::from_secs(10),
            memory_bytes: 300 * MIB,
            ..Usage::default()
        };
        assert_eq!(exceeded(&limits, &stalled_hog), Some(Limit::Memory));
        let sleeper = Usage {
            wall: Duration::from_secs(10),
            cpu: Duration::from_millis(5),
            ..Usage::default()
        };
        assert_eq!(exceeded(&limits, &sleeper), Some(Limit::WallTime));
    }

    /// Time spent waiting for a CPU is the machine's, not the program's: a starved program
    /// within its CPU limit is not over the wall-clock limit; a sleeper on a busy machine is.
    #[test]
    fn waiting_for_a_cpu_does_not_count_against_the_wall_clock() {
        let limits = limits();
        let starved = Usage {
            wall: Duration::from_secs(10),
            waited: Duration::from_millis(9500),
            cpu: Duration::from_millis(500),
            ..Usage::default()
        };
        assert_eq!(exceeded(&limits, &starved), None);
        let sleeper_on_a_busy_machine = Usage {
            waited: Duration::from_millis(500),
            ..starved
        };
        assert_eq!(
            exceeded(&limits, &sleeper_on_a_busy_machine),
            Some(Limit::WallTime)
        );
    }
}
