//! One started program of a run, from its start to its figures: started under its rlimits
//! and its run's tag ([`Party::start`]), watched by its own sampler while the supervisor
//! runs, and at the end killed with everything it started, reaped, and summed up
//! ([`Party::settle`]): CPU time, peak memory, how it ended. A run has one party, the
//! program; an interactive run has two, the program and the interactor.

use std::ffi::{OsStr, OsString};
use std::os::fd::{FromRawFd, OwnedFd};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::cancel::RunEntry;
use super::clone::Setup;
use super::contain::cgroup::Figures;
use super::contain::view::View;
use super::contain::{self, Role};
use super::error::RunError;
use super::error::setup_error;
use super::group::{self, Leader, kill_and_reap, rusage_cpu, tagged_for};
use super::limits::{Limit, Limits, Rlimits, Usage, exceeded};
use super::procfs::{GroupSample, RunSampler};
use super::sanitizer;
use super::signal::Signal;
use super::spawn::{self, Stdin};
use super::spawner::Lease;
use super::{Execution, Termination};

/// A started program: its leader, the samples of its processes, and what was seen of it.
pub(crate) struct Party<'e> {
    pub(crate) leader: Leader<'e>,
    entry: &'e RunEntry,
    pub(crate) sampler: RunSampler,
    /// When its `exec` returned: the wall clock counts from here.
    pub(crate) start: Instant,
    /// A descriptor that becomes readable when the leader exits (`None` on old kernels).
    pub(crate) pidfd: Option<OwnedFd>,
    pub(crate) seen: Observed,
    /// Whether `ru_maxrss` counts from the program's own start (see `spawner`).
    maxrss_from_start: bool,
    /// The spawner that started it, with its slot (its cgroup), until it is settled.
    lease: Option<Lease>,
    /// In namespaces without a cgroup: what their keeper had reaped and held in files when
    /// the run began, which the run's figures add to from there.
    unslotted: Option<Unslotted>,
}

/// What a run in namespaces but without a cgroup counts from its namespace's keeper: the CPU
/// of the orphans it reaps (no process of the run waited for them) and the files in its
/// `/tmp` and `/dev/shm` (memory, in `tmpfs`), from their amounts at the run's start.
#[derive(Clone, Copy, Debug)]
struct Unslotted {
    reaped_cpu: Duration,
    files: u64,
}

/// The harness's ends of a started program's streams.
pub(crate) struct Ends {
    pub stdin: Option<OwnedFd>,
    /// A copy of the program's end of its stdin pipe: what is left in it is what the program
    /// did not read.
    pub stdin_read: Option<OwnedFd>,
    pub stdout: OwnedFd,
    pub stderr: OwnedFd,
    /// Where the harness finds the files of the program's working folder, when it is a
    /// `tmpfs` of its namespaces (see `Scratch::files_at`).
    pub scratch_at: Option<std::path::PathBuf>,
}

/// What the supervisor saw of a party.
#[derive(Debug, Default)]
pub(crate) struct Observed {
    /// The leader exited by itself (it was not stopped).
    pub exited: bool,
    /// The limit the program was stopped for, if it was.
    pub stop: Option<Limit>,
    pub wall: Duration,
    pub cpu: Duration,
    pub peak_rss: u64,
    pub peak_tasks: u64,
    /// The kernel refused a fork past the process limit (in a cgroup).
    pub fork_refused: bool,
    /// The OOM killer of its cgroup killed one of its processes at the memory limit.
    pub oom_killed: bool,
    /// Time the run's processes spent ready to run but waiting for a CPU, as of the last
    /// sample.
    pub waited: Duration,
    /// Stopped at the cap on the wall clock, not by a limit.
    pub capped: bool,
}

/// Opens a pidfd for the leader, so the supervisor can sleep until it exits; `None` on kernels
/// before 5.3, where the supervisor looks at the leader at every wake-up instead.
pub(crate) fn pidfd_open(pid: i32) -> Option<OwnedFd> {
    // SAFETY: pidfd_open takes a pid and flags and returns a new descriptor or -1.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    if fd < 0 {
        return None;
    }
    // SAFETY: the descriptor was just created and is owned by nobody else.
    Some(unsafe { OwnedFd::from_raw_fd(fd as i32) })
}

impl Observed {
    /// Takes in one sample of the run's processes, taken `wall` after the start, with
    /// `waited` the time they have waited for a CPU so far; returns the limit of `limits`
    /// the run is to be stopped for, if any: or past `wall_cap`, the wall-clock limit
    /// (however long the run waited for a CPU: on a machine that busy, a run is stopped all
    /// the same).
    pub(crate) fn absorb(
        &mut self,
        sample: &GroupSample,
        wall: Duration,
        waited: Duration,
        limits: &Limits,
        wall_cap: Duration,
    ) -> Option<Limit> {
        self.wall = wall;
        self.cpu = self.cpu.max(sample.cpu);
        self.peak_rss = self
            .peak_rss
            .max(sample.rss_bytes)
            .max(sample.max_hwm_bytes);
        self.peak_tasks = self.peak_tasks.max(sample.tasks);
        self.fork_refused |= sample.fork_refused;
        self.oom_killed |= sample.oom_killed;
        self.waited = waited;
        let usage = Usage {
            output_exceeded: false,
            cpu: self.cpu,
            wall: self.wall,
            waited: self.waited,
            tasks: self.peak_tasks,
            memory_bytes: self.peak_rss,
            fork_refused: self.fork_refused,
            oom_killed: self.oom_killed,
            signal: None,
        };
        let mut stop = exceeded(limits, &usage);
        if stop == Some(Limit::WallTime) && sample.runnable && self.cpu <= limits.wall {
            // A process ready to run may be waiting for a CPU right now, a wait its figures
            // count only once it runs again: the next sample decides.
            stop = None;
        }
        if stop.is_none() && self.wall > wall_cap {
            stop = Some(Limit::WallTime);
            self.capped = true;
        }
        self.stop = stop;
        stop
    }
}

impl Party<'_> {
    /// Samples the party's processes now and takes the sample in ([`Observed::absorb`]).
    pub(crate) fn sample(&mut self, limits: &Limits, wall_cap: Duration) -> GroupSample {
        let run_id = self.run_id();
        let adopt = |p: &_| tagged_for(p, run_id);
        let mut sample = self.sampler.sample(&adopt);
        if let Some(figures) = self.lease.as_ref().and_then(|l| l.figures(false)) {
            merge(&mut sample, &figures);
        }
        if let (Some(base), Some(keeper)) = (self.unslotted, self.keeper()) {
            let reaped = keeper.reaped_cpu().unwrap_or_default();
            sample.cpu += reaped.saturating_sub(base.reaped_cpu);
            sample.rss_bytes += keeper.files_bytes().saturating_sub(base.files);
        }
        let waited = self.sampler.waited();
        let wall = self.start.elapsed();
        self.seen.absorb(&sample, wall, waited, limits, wall_cap);
        sample
    }
}

/// What the program `exe_path` with `args` sees in its namespaces, when it runs in some
/// (`boxed`: the program under test, or a package's helper, where namespaces can be had, in
/// its scratch folder `cwd`).
fn view_for(
    boxed: bool,
    exe_path: &OsStr,
    args: &[OsString],
    cwd: Option<&Path>,
    stop: &Limits,
) -> Option<View> {
    match (boxed, contain::namespaces(), cwd) {
        (true, Some(_), Some(scratch)) => {
            View::of(exe_path, args, scratch, &contain::policy().protect).map(|mut view| {
                view.space = space_for(stop);
                view
            })
        }
        _ => None,
    }
}

/// The sampler of a run led by `leader`, started through `lease`: with a cgroup slot the
/// slot counts what the run shares; without one, shared pages count in proportion, and in
/// namespaces their keeper's reaped CPU and files count from what they are now.
fn sampler_for(leader: i32, lease: Option<&Lease>) -> (RunSampler, Option<Unslotted>) {
    let sampler = RunSampler::new(leader);
    if lease.and_then(Lease::slot).is_some() {
        return (sampler, None);
    }
    match lease.and_then(Lease::keeper) {
        Some(keeper) => (
            sampler.with_reaper(keeper.pid()).proportional(),
            Some(Unslotted {
                reaped_cpu: keeper.reaped_cpu().unwrap_or_default(),
                files: keeper.files_bytes(),
            }),
        ),
        None => (sampler.proportional(), None),
    }
}

/// How much its `/tmp` and `/dev/shm` may each hold: its memory and output limits, in whole
/// MiB (files there are memory; see `View::space`).
fn space_for(limits: &Limits) -> u64 {
    const MIB: u64 = 1 << 20;
    limits
        .memory_bytes
        .saturating_add(limits.output_bytes)
        .div_ceil(MIB)
        .saturating_mul(MIB)
}

/// A sample of the run's processes with what its cgroup counts: the CPU time of every
/// process (reaped or not), the memory charged to it (where a page several processes share
/// counts once, and what is in no process counts too: shared memory, pipe buffers), its
/// tasks, and whether the kernel refused a fork or killed for memory.
fn merge(sample: &mut GroupSample, figures: &Figures) {
    sample.cpu = sample.cpu.max(figures.cpu);
    sample.rss_bytes = figures.memory;
    sample.tasks = sample.tasks.max(figures.tasks);
    sample.fork_refused |= figures.fork_refused;
    sample.oom_killed |= figures.oom_killed;
}

/// What a party used, once it is reaped.
pub(crate) struct Settled {
    /// Its leader's wait status.
    status: libc::c_int,
    pub cpu_time: Duration,
    pub seen: Observed,
    pub pgid: i32,
    /// Processes of the party still alive when its leader had exited, killed by the cleanup.
    pub left_behind: u32,
    /// What no mechanism here could count (see `Execution::uncounted`).
    pub uncounted: Option<&'static str>,
}

/// What a run without a cgroup cannot count, when it did it.
const CHILDREN_UNSEEN: &str =
    "the CPU time of children the kernel reaped is not counted without a cgroup";

impl Settled {
    /// Its leader's exit code, when it exited rather than died of a signal.
    pub(crate) fn exit_code(&self) -> Option<i32> {
        libc::WIFEXITED(self.status).then(|| libc::WEXITSTATUS(self.status))
    }
}

impl<'e> Party<'e> {
    /// Starts `exe_path` with `args` in `cwd` under `stop` (the limits it is stopped at), as
    /// run `entry`'s program, of `role`. `shown` names it in the error when it cannot start.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn start(
        entry: &'e RunEntry,
        role: Role,
        shown: &OsStr,
        exe_path: &OsStr,
        args: &[OsString],
        cwd: Option<&Path>,
        stdin: Stdin,
        input_file: Option<(&str, &[u8])>,
        stop: &Limits,
    ) -> Result<(Party<'e>, Ends), RunError> {
        // Before the first program starts, so that whatever it orphans comes back to us.
        group::become_subreaper();
        // The rlimits, led by the tag, and the environment variable mark the program's
        // processes as this run's from its first instruction on (see `group`); it leads its
        // own process group from then on too, so that the whole group can be measured and
        // killed.
        // In a memory cgroup the kernel enforces the memory limit on what is resident, and
        // no address-space bound is needed (it would only refuse threads' stacks).
        let bound_address_space = !sanitizer::is_sanitized(exe_path) && contain::tree().is_none();
        let rlimits =
            Rlimits::new(stop, bound_address_space).with_tag(group::tag_rlimit(entry.id()));
        let run_var = format!("{}={}", group::RUN_VAR, entry.id());
        let contained = contain::contained();
        // A boxed helper (a package's) is seen as the program is.
        let boxed = role == Role::Program || contain::helpers_boxed();
        let view = view_for(boxed, exe_path, args, cwd, stop);
        let how = spawn::Launch {
            role,
            view: view.as_ref(),
            slot_limits: (stop.processes, stop.memory_bytes),
            cwd,
            stdin,
            input_file,
            env: contain::environment(role, contained, cwd, Some(&run_var), &contain::policy().env),
            setup: Setup {
                no_terminal: contained,
                filter: contained && boxed,
                ..Setup::default()
            },
            rlimits: &rlimits,
        };
        let started = spawn::spawn(exe_path, args, how).map_err(|source| RunError::Spawn {
            program: shown.to_os_string(),
            source,
        })?;
        // The wall clock starts once the program has, when its `exec` returned (as the
        // process that started it saw it): the harness's own part of the start (a spawner's
        // turn, on a busy machine a wait for a CPU) is none of the program's time, but the
        // time until the harness reads the spawner's reply is (the program may run meanwhile,
        // on the harness's CPU).
        let start = started.start;
        let leader = Leader::new(started.pid, entry);
        let lease = started.lease;
        let (sampler, unslotted) = sampler_for(leader.pid, lease.as_ref());
        let party = Party {
            pidfd: pidfd_open(leader.pid),
            sampler,
            leader,
            entry,
            start,
            seen: Observed::default(),
            maxrss_from_start: started.maxrss_from_start,
            lease,
            unslotted,
        };
        let ends = Ends {
            stdin: started.stdin,
            stdin_read: started.stdin_read,
            stdout: started.stdout,
            stderr: started.stderr,
            scratch_at: started.scratch_at,
        };
        Ok((party, ends))
    }

    /// The keeper of the namespaces the program runs in, if any.
    fn keeper(&self) -> Option<&contain::keeper::Keeper> {
        self.lease.as_ref().and_then(Lease::keeper)
    }

    /// The run id its processes are tagged with.
    pub(crate) fn run_id(&self) -> u64 {
        self.entry.id()
    }

    /// Whether the leader has exited, as of the last wait (`exit_ready` from its pidfd's
    /// readiness; without a pidfd, asked now).
    pub(crate) fn exited_now(&self, exit_ready: bool) -> bool {
        match self.pidfd {
            Some(_) => exit_ready,
            None => self.leader.has_exited(),
        }
    }

    /// Kills what is left of it and reaps it with everything it started: its final figures.
    /// How it ended is decided once its output is read ([`Settled::into_execution`]).
    pub(crate) fn settle(mut self, limits: &Limits) -> Result<Settled, RunError> {
        let mut seen = std::mem::take(&mut self.seen);
        if seen.exited && seen.wall > limits.wall {
            // Past the limit, the time it waited for a CPU decides: as of the end, not of the
            // last sample.
            seen.waited = self.sampler.waited_now();
        }
        self.measure_leftovers(&mut seen);
        let reaped = self.kill_and_reap(seen.exited)?;
        self.empty_namespaces(&mut seen)?;
        let cpu_time = self.final_figures(&mut seen, &reaped);
        let unseen = !self.slotted() && self.sampler.children_unseen();
        // The spawner serves the next run.
        drop(self.lease.take());
        // ru_maxrss is the leader's peak (or a process's it reaped), from the resident size of
        // the address space it was started from on (see `spawner`): a spawner's, about 2 MiB,
        // so the program's own as soon as it is larger; it covers a program that ended before
        // the first sample. Started from the harness, it counts from the harness's peak, and
        // only a figure above that can be the program's.
        let maxrss = (reaped.usage.ru_maxrss.max(0) as u64).saturating_mul(1024);
        if self.maxrss_from_start || maxrss > own_peak_rss(maxrss) {
            seen.peak_rss = seen.peak_rss.max(maxrss);
        }
        seen.peak_rss = seen.peak_rss.max(reaped.orphans_maxrss);
        Ok(Settled {
            status: reaped.status,
            cpu_time,
            seen,
            pgid: self.leader.pid,
            left_behind: reaped.left_behind,
            uncounted: unseen.then_some(CHILDREN_UNSEEN),
        })
    }

    /// Whether the run has a cgroup (its spawner's slot).
    fn slotted(&self) -> bool {
        self.lease.as_ref().and_then(Lease::slot).is_some()
    }

    /// What a run that exited left in its namespaces, measured once more before it is killed
    /// (without a cgroup, which counts it anyway): an orphan's memory and CPU are the run's.
    fn measure_leftovers(&mut self, seen: &mut Observed) {
        if !seen.exited || self.slotted() || !self.keeper().is_some_and(|k| k.occupied()) {
            return;
        }
        let run_id = self.entry.id();
        let last = self.sampler.sample_all(&|p: &_| tagged_for(p, run_id));
        seen.peak_rss = seen.peak_rss.max(last.rss_bytes);
        seen.cpu = seen.cpu.max(last.cpu);
    }

    /// Kills what is left of the run and reaps it (always, even after a clean exit: a child
    /// may still be running, and may hold the output pipes open); `exited` says the leader
    /// ended by itself, so that what is left counts as left behind.
    fn kill_and_reap(&mut self, exited: bool) -> Result<group::Reaped, RunError> {
        let keeper = self.lease.as_ref().and_then(Lease::keeper);
        if let Some((slot, spawner)) = self.lease.as_ref().and_then(Lease::slot) {
            return group::kill_and_reap_in(&mut self.leader, exited, slot, spawner, keeper);
        }
        let mut reaped = kill_and_reap(&mut self.leader, exited, &self.sampler)?;
        // In namespaces, what the program orphaned went to their keeper.
        if let Some(keeper) = keeper
            && keeper.occupied()
        {
            if exited {
                reaped.left_behind += keeper.residents().len() as u32;
            }
            keeper
                .clear()
                .map_err(setup_error("cannot clear the program's namespaces"))?;
        }
        Ok(reaped)
    }

    /// Empties what the run left in its namespaces: its IPC objects and POSIX queues
    /// (uncharged before the next run starts) and its files in /tmp and /dev/shm, counted
    /// first (without a cgroup) as memory it held to its end.
    fn empty_namespaces(&mut self, seen: &mut Observed) -> Result<(), RunError> {
        if let (Some(base), Some(keeper)) = (self.unslotted, self.keeper()) {
            let files = keeper.files_bytes().saturating_sub(base.files);
            seen.peak_rss = seen.peak_rss.max(files);
        }
        if let Some(keeper) = self.keeper() {
            keeper.tidy().map_err(setup_error(
                "cannot empty the program's /tmp, /dev/shm and IPC objects",
            ))?;
        }
        Ok(())
    }

    /// The run's CPU time, and its other figures completed from its cgroup, once it is
    /// over: the largest of what the samples saw and what the reaps tell (the leader's, its
    /// orphans', and without a cgroup those its namespace's keeper reaped).
    fn final_figures(&self, seen: &mut Observed, reaped: &group::Reaped) -> Duration {
        let keeper_reaped = match (self.unslotted, self.keeper()) {
            (Some(base), Some(keeper)) => keeper
                .reaped_cpu()
                .unwrap_or_default()
                .saturating_sub(base.reaped_cpu),
            _ => Duration::ZERO,
        };
        let mut cpu_time = seen
            .cpu
            .max(rusage_cpu(&reaped.usage) + reaped.orphans_cpu + keeper_reaped);
        if let Some(figures) = self.lease.as_ref().and_then(|l| l.figures(true)) {
            cpu_time = cpu_time.max(figures.cpu);
            seen.peak_rss = seen.peak_rss.max(figures.memory);
            seen.peak_tasks = seen.peak_tasks.max(figures.tasks);
            seen.fork_refused |= figures.fork_refused;
            seen.oom_killed |= figures.oom_killed;
        }
        cpu_time
    }
}

impl Settled {
    /// How it ended against `limits`, `output_exceeded` telling whether its output went past
    /// the limit.
    fn termination(&self, limits: &Limits, output_exceeded: bool) -> Termination {
        let status = self.status;
        let signal = libc::WIFSIGNALED(status).then(|| Signal(libc::WTERMSIG(status)));
        let seen = &self.seen;
        let usage = Usage {
            output_exceeded,
            cpu: self.cpu_time,
            wall: seen.wall,
            waited: seen.waited,
            tasks: seen.peak_tasks,
            memory_bytes: seen.peak_rss,
            fork_refused: seen.fork_refused,
            oom_killed: seen.oom_killed,
            signal,
        };
        // The final figures are the supervisor's or larger, so this finds the limit it stopped
        // the program for, or one ranked higher; `stop` only guards that reasoning (and is
        // the only witness of idleness, which no figure of one program shows).
        match exceeded(limits, &usage).or(seen.stop) {
            Some(limit) => Termination::LimitExceeded(limit),
            None => match signal {
                Some(signal) => Termination::Signaled(signal),
                None => Termination::Exited(libc::WEXITSTATUS(status)),
            },
        }
    }

    /// The execution this describes, with its output.
    pub(crate) fn into_execution(
        self,
        limits: &Limits,
        output: Output,
        output_file: Option<super::OutputFile>,
    ) -> Execution {
        let termination = self.termination(limits, output.exceeded);
        let seen = self.seen;
        Execution {
            termination,
            stdout: output.stdout,
            stderr: output.stderr,
            stderr_bytes: output.stderr_bytes,
            cpu_time: self.cpu_time,
            cpu_times: vec![self.cpu_time],
            cpu_wait: seen.waited,
            cpu_starved: seen.capped && termination == Termination::LimitExceeded(Limit::WallTime),
            wall_time: seen.wall,
            peak_memory_bytes: (seen.peak_rss > 0).then_some(seen.peak_rss),
            peak_processes: seen.peak_tasks,
            pgid: self.pgid,
            limits: *limits,
            output_file,
            left_files: Vec::new(),
            left_behind: self.left_behind,
            uncounted: self.uncounted,
            read_its_input: None,
        }
    }
}

/// What a party wrote, once it is over.
#[derive(Default)]
pub(crate) struct Output {
    /// Its answer: stdout, or the output file.
    pub stdout: super::Captured,
    /// More than the output limit came.
    pub exceeded: bool,
    /// The end of its stderr, and how many bytes it wrote there in all.
    pub stderr: Vec<u8>,
    pub stderr_bytes: u64,
}

/// The harness's own peak resident size (`VmHWM`), as far as it matters for comparing with
/// `maxrss`: it only grows, so a remembered value at or above `maxrss` answers without asking
/// again; otherwise `getrusage` tells (one system call, where `/proc/self/status` would cost a
/// file parse).
fn own_peak_rss(maxrss: u64) -> u64 {
    static KNOWN: AtomicU64 = AtomicU64::new(0);
    let known = KNOWN.load(Ordering::Relaxed);
    if known >= maxrss {
        return known;
    }
    // SAFETY: a zeroed rusage is a valid out-parameter for getrusage.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: valid pointer to a local.
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return u64::MAX;
    }
    let peak = (usage.ru_maxrss.max(0) as u64).saturating_mul(1024);
    KNOWN.fetch_max(peak, Ordering::Relaxed);
    peak
}
