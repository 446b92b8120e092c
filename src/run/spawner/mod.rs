//! Spawners: small processes that start programs on the harness's behalf, so that a
//! program's peak resident memory is measured from its own start.
//!
//! A process's `ru_maxrss` (what `wait4` reports) is the larger of its own peak and the
//! peak of the address space it was `exec`uted from: at `exec` the kernel records the old
//! address space's high-water mark. A program started from the harness's own address space
//! (a `vfork`-style child shares it) therefore shows at least the harness's peak, and a quick
//! program has no figure of its own. A spawner is the harness's executable started again in
//! spawner mode (`serve`), which keeps its resident set small (about 2 MiB, mostly the code it
//! runs); the program is `exec`uted from the spawner's address space instead, and its
//! `ru_maxrss` is its own peak, or the spawner's size if that is larger.
//!
//! The spawner clones the program with `CLONE_PARENT`: the program is the harness's child, as
//! if the harness had started it (it reaps it, gets its resource usage, waits on its pidfd,
//! and inherits what it orphans as their subreaper). A request carries the prepared command
//! (`wire`) and the program's three standard streams as descriptors (`SCM_RIGHTS`); the reply
//! is its pid or what failed, once it has `exec`uted. Before each request the harness pins
//! the spawner to the CPU the asking thread runs on, so that the request and the reply pass
//! the CPU between the two rather than wake another one, as long as there are fewer spawners
//! than CPUs (see `Spawner::follow_this_thread`);
//! the program gets the spawner's CPUs as it started back before `exec`, so that it is
//! pinned no more than a program the harness starts itself. Each thread that starts programs
//! keeps the spawner it used last (one per worker), and a pool keeps those of threads that
//! ended; a new one is started when neither has one to spare. Each lives until the harness
//! exits (the socket's other end closes). When none can be had, the harness starts
//! programs itself (`clone::launch_here`) for a second before it tries again.

mod serve;
mod wire;

use std::cell::RefCell;
use std::ffi::CString;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStringExt;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::clone::{self, Failed, Program};
use super::contain::cgroup::{Baseline, Figures, Slot};
use super::contain::keeper::Keeper;
use super::contain::view::View;
use super::contain::{self, Role};
use super::own;

/// One spawner: its socket, its pid (a child of the harness), and its working directory
/// (the harness's when it started it), where programs run unless told otherwise.
struct Spawner {
    /// Whose programs it starts (each role has its own spawners, in their own cgroups).
    role: Role,
    /// Its cgroup, where it lives and its programs are born; `None` without containment or
    /// cgroups.
    slot: Option<Slot>,
    /// The keeper of the namespaces it joined (its programs are born in them), for a
    /// program slot where namespaces can be had.
    keeper: Option<Keeper>,
    /// The box uid and gid its programs run as (root, in namespaces).
    credentials: Option<(u32, u32)>,
    /// The scratch folder last given to the box uid.
    chowned: Option<CString>,
    socket: OwnedFd,
    pid: i32,
    cwd: Option<CString>,
    /// The CPU it was last pinned to, or -1 while it is not (or if that failed).
    cpu: i32,
    /// The CPUs it may run on as it starts (the starting thread's), and how many they are (0
    /// if unknown: it is never pinned then).
    allowed: libc::cpu_set_t,
    cpus: usize,
}

/// Spawners not in use and kept by no thread.
static IDLE: Mutex<Vec<Spawner>> = Mutex::new(Vec::new());

/// The spawners a thread used last, one per role, which it asks first: so each thread that
/// starts programs keeps one, pinned to the thread's CPU (see
/// [`Spawner::follow_this_thread`]), rather than move one spawner from CPU to CPU between
/// threads. The pool gets them back when the thread ends.
struct Kept([Option<Spawner>; 2]);

impl Drop for Kept {
    fn drop(&mut self) {
        for spawner in self.0.iter_mut().filter_map(Option::take) {
            to_idle(spawner);
        }
    }
}

/// Puts a spawner in the pool, ending the one idle longest when the pool is full: spawners
/// of programs no longer run (a submission judged, a minimization's) must not pile up.
fn to_idle(spawner: Spawner) {
    // The CPUs the spawner may run on, counted when it started. A contained program's
    // spawner serves one view (its program, its scratch folder), and a stress with a
    // validator, a reference and a checker takes turns between about 20 of them on 2 CPUs
    // (5 programs, a scratch folder for each worker and each minimization batch's): a pool
    // of 4 a CPU was full, ended one for every run, and a new one started (exec, namespaces)
    // for the next: 615 spawners for the 298 runs of a minimization, 26.5 s; 21 and 4.6 s
    // with room for them.
    let most = 16 * spawner.cpus.max(1);
    let surplus = {
        let mut idle = IDLE.lock().unwrap_or_else(|e| e.into_inner());
        idle.push(spawner);
        (idle.len() > most).then(|| idle.remove(0))
    };
    if let Some(oldest) = surplus {
        oldest.discard();
    }
}

thread_local! {
    static KEPT: RefCell<Kept> = const { RefCell::new(Kept([None, None])) };
}

/// A role's place among a thread's kept spawners.
fn index(role: Role) -> usize {
    match role {
        Role::Program => 0,
        Role::Helper => 1,
    }
}

/// Until when, after a spawner could not be started, programs are started by the harness
/// itself (the cause may pass: a moment with no process to spare, say).
static UNAVAILABLE_UNTIL: Mutex<Option<Instant>> = Mutex::new(None);

/// How long the harness starts programs itself after a spawner could not be started.
const RETRY_AFTER: Duration = Duration::from_secs(1);

fn unavailable() -> bool {
    let until = UNAVAILABLE_UNTIL.lock().unwrap_or_else(|e| e.into_inner());
    until.is_some_and(|t| Instant::now() < t)
}

/// A spawner lent to one run, from its start until it is settled: what its slot counts in
/// the meantime is that run's. Dropping it gives the spawner back.
pub(crate) struct Lease {
    spawner: Option<Spawner>,
    baseline: Option<Baseline>,
}

impl Lease {
    /// What the run used so far (`at_end`: once it is over, with its peak), from its slot;
    /// `None` without one (or if the slot cannot be read).
    pub(crate) fn figures(&self, at_end: bool) -> Option<Figures> {
        let slot = self.spawner.as_ref()?.slot.as_ref()?;
        slot.figures(self.baseline.as_ref()?, at_end).ok()
    }

    /// The run's slot and the spawner's pid (the one process of the slot that is not the
    /// run's), if it has a slot.
    pub(crate) fn slot(&self) -> Option<(&Slot, i32)> {
        let spawner = self.spawner.as_ref()?;
        Some((spawner.slot.as_ref()?, spawner.pid))
    }

    /// The keeper of the namespaces the run's program was born in, if any.
    pub(crate) fn keeper(&self) -> Option<&Keeper> {
        self.spawner.as_ref()?.keeper.as_ref()
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        if let Some(spawner) = self.spawner.take() {
            checkin(spawner);
        }
    }
}

/// A program a spawner started: its pid, when its `exec` returned, and the spawner, lent to
/// its run.
pub(crate) struct Launched {
    pub pid: i32,
    pub start: Instant,
    pub lease: Lease,
    /// Where its working folder's files are, when elsewhere than the folder itself.
    pub scratch_at: Option<std::path::PathBuf>,
}

/// Why the last spawner could not be started, for a run that may not start without one.
static LAST_FAILURE: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);

/// Why no spawner could be started, when that was so.
pub(crate) fn last_failure() -> Option<String> {
    LAST_FAILURE
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
}

/// Starts `program` through a spawner of `role` (in namespaces that show `view`, when there
/// is one), its standard streams from `streams`, under `processes` and `memory_bytes` (its
/// slot's limits, when it has a slot): the program and its spawner, or what failed. `None`
/// when no spawner can do it (none can be started, or the request is too large); the caller
/// then starts it itself.
pub(crate) fn launch(
    role: Role,
    view: Option<&View>,
    program: &Program,
    streams: [RawFd; 3],
    limits: (u64, u64),
    input: Option<((&str, &[u8]), &std::path::Path)>,
) -> Option<Result<Launched, Failed>> {
    if unavailable() {
        return None;
    }
    let ask = Ask {
        view,
        program,
        streams,
        limits,
        input,
    };
    let mut request = Vec::with_capacity(4096);
    // A spawner that died (killed by someone), or whose slot cannot be set up, is replaced
    // once.
    for _ in 0..2 {
        let spawner = match checkout_for(role, view) {
            Ok(spawner) => spawner,
            Err(e) => {
                *UNAVAILABLE_UNTIL.lock().unwrap_or_else(|e| e.into_inner()) =
                    Some(Instant::now() + RETRY_AFTER);
                *LAST_FAILURE.lock().unwrap_or_else(|e| e.into_inner()) = Some(e.to_string());
                return None;
            }
        };
        if let Some(answer) = ask.through(spawner, &mut request) {
            return answer;
        }
    }
    None
}

/// A spawner of `role` for `view`: a spawner in namespaces of its own is tried twice,
/// 50 ms apart, before runs that must be contained are refused (its keeper binds files other
/// processes may be replacing).
fn checkout_for(role: Role, view: Option<&View>) -> std::io::Result<Spawner> {
    checkout(role, view).or_else(|e| match view {
        Some(_) => {
            std::thread::sleep(Duration::from_millis(50));
            checkout(role, view)
        }
        None => Err(e),
    })
}

/// What [`launch`] asks of a spawner.
struct Ask<'a> {
    view: Option<&'a View>,
    program: &'a Program<'a>,
    streams: [RawFd; 3],
    /// The slot's process and memory limits.
    limits: (u64, u64),
    input: Option<((&'a str, &'a [u8]), &'a std::path::Path)>,
}

/// What [`launch`] answers.
type Answer = Option<Result<Launched, Failed>>;

impl Ask<'_> {
    /// Asks `spawner` to start the program, `request` the buffer its request is encoded in:
    /// [`launch`]'s answer, or `None` when another spawner is to be tried (this one was
    /// ended).
    fn through(&self, mut spawner: Spawner, request: &mut Vec<u8>) -> Option<Answer> {
        let (baseline, scratch_at) = match self.prepare(&mut spawner) {
            Ok(prepared) => prepared,
            Err(None) => {
                spawner.discard();
                return None;
            }
            Err(Some(failed)) => {
                checkin(spawner);
                return Some(Some(Err(failed)));
            }
        };
        let mut setup = self.program.setup;
        // The OOM killer of the slot picks the program, never the spawner beside it.
        setup.oom_first = spawner.slot.is_some();
        setup.credentials = spawner.credentials;
        // A program without a directory of its own runs in the harness's current one, which
        // may have changed since the spawner started.
        let here = match &self.program.cwd {
            None => current_dir(),
            Some(_) => None,
        };
        let moved = here.filter(|here| Some(here) != spawner.cwd.as_ref());
        wire::encode_request(self.program, moved.as_deref(), setup, request);
        if request.len() > wire::MAX_REQUEST {
            checkin(spawner);
            return Some(None);
        }
        spawner.follow_this_thread();
        match spawner.exchange(request, self.streams) {
            Err(e) if e.raw_os_error() == Some(libc::EMSGSIZE) => {
                // Larger than the socket takes: the spawner is fine, the request is not.
                checkin(spawner);
                Some(None)
            }
            Ok(reply) => {
                let lease = Lease {
                    spawner: Some(spawner),
                    baseline,
                };
                Some(match reply {
                    Err(failed) if failed.stage == clone::Stage::Request => None,
                    Err(failed) => Some(Err(failed)),
                    Ok((pid, start)) => Some(Ok(Launched {
                        pid,
                        start,
                        lease,
                        scratch_at,
                    })),
                })
            }
            Err(_) => {
                spawner.discard();
                None
            }
        }
    }

    /// Readies `spawner` for the run: its slot's limits and baseline, the input file written
    /// where the program will see it (returned: where that is, when elsewhere than its
    /// folder), its folder given to its box uid. `Err(None)` when it cannot serve (it is to
    /// be ended), `Err(Some)` when the run cannot start (it serves the next one).
    fn prepare(
        &self,
        spawner: &mut Spawner,
    ) -> Result<(Option<Baseline>, Option<std::path::PathBuf>), Option<Failed>> {
        let (processes, memory_bytes) = self.limits;
        let baseline = match spawner
            .slot
            .as_mut()
            .map(|s| s.begin(processes, memory_bytes))
        {
            Some(Err(_)) => return Err(None),
            Some(Ok(baseline)) => Some(baseline),
            None => None,
        };
        // The program's working folder is its namespaces' own tmpfs, which the harness sees
        // through their keeper; the input goes there before the program starts.
        let scratch_at = spawner
            .keeper
            .as_ref()
            .zip(self.view)
            .map(|(keeper, view)| keeper.path_of(&view.scratch));
        if let Err(failed) = write_input(self.input, scratch_at.as_deref()) {
            return Err(Some(failed));
        }
        if spawner.give_scratch(self.program.cwd.as_ref()).is_err() {
            return Err(None);
        }
        Ok((baseline, scratch_at))
    }
}

/// Writes `input` (a file's name and bytes, and the working folder it goes in) into `at`,
/// else into the working folder itself.
pub(crate) fn write_input(
    input: Option<((&str, &[u8]), &std::path::Path)>,
    at: Option<&std::path::Path>,
) -> Result<(), Failed> {
    let Some(((name, bytes), cwd)) = input else {
        return Ok(());
    };
    std::fs::write(at.unwrap_or(cwd).join(name), bytes).map_err(|e| Failed {
        pid: -1,
        stage: clone::Stage::Input,
        errno: e.raw_os_error().unwrap_or(libc::EIO),
    })
}

/// A spawner of `role` with a cgroup slot, lent to a run it does not start (a helper forked
/// from a warm interpreter, which joins the slot itself), its slot set up for `processes` and
/// `memory_bytes` as for a run it starts. `None` when no spawner or no slot can be had.
pub(crate) fn lease(role: Role, (processes, memory_bytes): (u64, u64)) -> Option<Lease> {
    if unavailable() {
        return None;
    }
    let mut spawner = checkout(role, None).ok()?;
    match spawner
        .slot
        .as_mut()
        .map(|s| s.begin(processes, memory_bytes))
    {
        Some(Ok(baseline)) => Some(Lease {
            spawner: Some(spawner),
            baseline: Some(baseline),
        }),
        Some(Err(_)) => {
            spawner.discard();
            None
        }
        None => {
            checkin(spawner);
            None
        }
    }
}

/// This thread's spawner for `role` (and `view`), or an idle one, or a new one. A kept
/// spawner whose namespaces show another view (another program) is ended: it would serve
/// nothing more.
fn checkout(role: Role, view: Option<&View>) -> std::io::Result<Spawner> {
    let kept = KEPT
        .try_with(|kept| kept.borrow_mut().0[index(role)].take())
        .ok()
        .flatten();
    match kept {
        Some(spawner) if spawner.shows(view) => return Ok(spawner),
        // Another program's (a thread's helpers take turns: validator, reference, checker):
        // kept in the pool for its next run, not ended, which made a new one start for
        // nearly every helper's run.
        Some(spawner) => to_idle(spawner),
        None => {}
    }
    let idle = {
        let mut idle = IDLE.lock().unwrap_or_else(|e| e.into_inner());
        let at = idle.iter().position(|s| s.role == role && s.shows(view));
        at.map(|at| idle.swap_remove(at))
    };
    if let Some(spawner) = idle {
        return Ok(spawner);
    }
    Spawner::start(role, view)
}

/// Ends every spawner this thread keeps or the pool holds, with the keepers of their
/// namespaces, and reaps them: for a harness about to exit, which would otherwise hand them
/// to whoever started it, where (as in a test harness that is a subreaper) they may stay
/// zombies for good.
pub fn retire_all() {
    let kept = KEPT
        .try_with(|kept| std::mem::take(&mut kept.borrow_mut().0))
        .unwrap_or_default();
    let idle = std::mem::take(&mut *IDLE.lock().unwrap_or_else(|e| e.into_inner()));
    for spawner in kept.into_iter().flatten().chain(idle) {
        spawner.discard();
    }
}

/// Gives back a spawner that served: this thread keeps it, unless it keeps one of its role
/// already (or is ending), and then the pool does.
fn checkin(spawner: Spawner) {
    let at = index(spawner.role);
    let mut spawner = Some(spawner);
    let _ = KEPT.try_with(|kept| {
        let mut kept = kept.borrow_mut();
        if kept.0[at].is_none() {
            kept.0[at] = spawner.take();
        }
    });
    if let Some(spawner) = spawner {
        to_idle(spawner);
    }
}

impl Spawner {
    /// Starts a spawner: this executable again (`/proc/self/exe`), with the socket as its
    /// descriptor 3 and [`serve::TRIGGER`] in its environment, and waits for its greeting.
    fn start(role: Role, view: Option<&View>) -> std::io::Result<Spawner> {
        let keeper = match (view, contain::namespaces()) {
            (Some(view), Some(userns)) => Some(Keeper::start(view.clone(), userns).inspect_err(
                // An earlier process's probe promised namespaces: the next process probes
                // again, and goes on without them if they are gone.
                |_| contain::probed::forget(),
            )?),
            _ => None,
        };
        let slot = contain::tree().map(|tree| tree.slot()).transpose()?;
        let started = Spawner::start_in(role, slot.as_ref(), keeper.as_ref());
        if started.is_err()
            && let Some(slot) = slot.as_ref()
        {
            slot.remove(None);
        }
        let mut spawner = started?;
        if let Some(keeper) = &keeper {
            // Joined: from now on the keeper may not be inspected.
            if let Err(e) = keeper.seal() {
                spawner.discard();
                return Err(e);
            }
        }
        spawner.credentials = keeper.as_ref().and_then(|_| contain::box_ids());
        spawner.slot = slot;
        spawner.keeper = keeper;
        Ok(spawner)
    }

    /// Whether its programs see `view` (or, without one, it has no namespaces).
    fn shows(&self, view: Option<&View>) -> bool {
        match (&self.keeper, view) {
            (Some(keeper), Some(view)) => keeper.view == *view,
            (None, None) => true,
            // Where namespaces cannot be had, a view asks for nothing.
            (None, Some(_)) => contain::namespaces().is_none(),
            (Some(_), None) => false,
        }
    }

    /// Gives the program's working folder (its scratch folder) to the box uid its programs
    /// run as, if it has one and has not already.
    fn give_scratch(&mut self, cwd: Option<&CString>) -> std::io::Result<()> {
        let (Some((uid, gid)), Some(cwd)) = (self.credentials, cwd) else {
            return Ok(());
        };
        if self.chowned.as_ref() == Some(cwd) {
            return Ok(());
        }
        // SAFETY: a NUL-terminated path; chown reads it only.
        if unsafe { libc::chown(cwd.as_ptr(), uid, gid) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        self.chowned = Some(cwd.clone());
        Ok(())
    }

    /// [`Spawner::start`], in `slot` if there is one, joining the namespaces of `keeper` if
    /// there is one.
    fn start_in(
        role: Role,
        slot: Option<&Slot>,
        keeper: Option<&Keeper>,
    ) -> std::io::Result<Spawner> {
        // The linker keeps the constructor only if something here refers to it.
        std::hint::black_box(&serve::HOOK);
        let (ours, theirs) = clone::socket_pair()?;
        let null_in = clone::dev_null()?;
        let null_out = std::fs::OpenOptions::new().write(true).open("/dev/null")?;
        let env = spawner_env(slot, keeper)?;
        let program = Program {
            candidates: vec![c"/proc/self/exe".to_owned()],
            argv: vec![c"duipai-spawner".to_owned()],
            env,
            cwd: None,
            rlimits: &[],
            setup: clone::Setup::default(),
        };
        let streams = [
            null_in.as_raw_fd(),
            null_out.as_raw_fd(),
            libc::STDERR_FILENO,
        ];
        let cgroups = slot.map(Slot::procs_fds).unwrap_or_default();
        let pid =
            clone::launch_here(&program, streams, theirs.as_raw_fd(), &cgroups).map_err(|f| {
                if f.pid > 0 {
                    reap(f.pid);
                }
                std::io::Error::from_raw_os_error(f.errno)
            })?;
        drop(theirs);
        let (allowed, cpus) = match serve::current_affinity() {
            // SAFETY: CPU_COUNT reads a set the system filled.
            Some(set) => (set, unsafe { libc::CPU_COUNT(&set) }.max(0) as usize),
            // SAFETY: an empty set; 0 CPUs says it is unknown.
            None => (unsafe { std::mem::zeroed() }, 0),
        };
        let spawner = Spawner {
            role,
            slot: None,
            keeper: None,
            credentials: None,
            chowned: None,
            socket: ours,
            pid,
            cwd: current_dir(),
            cpu: -1,
            allowed,
            cpus,
        };
        own::add(pid, own::Kind::Spawner);
        let mut hello = [0u8; wire::WORDS_LEN];
        match recv(spawner.socket.as_raw_fd(), &mut hello) {
            Ok(n) if wire::decode_hello(&hello[..n]) == Some(pid) => Ok(spawner),
            Ok(_) => {
                spawner.discard();
                Err(std::io::Error::other("the spawner did not start"))
            }
            Err(e) => {
                spawner.discard();
                Err(e)
            }
        }
    }

    /// Pins the spawner to the CPU this thread runs on, if it is not already, so that the
    /// request wakes it there: the thread is about to sleep until the reply, and the spawner
    /// takes its place. Left to itself, the scheduler wakes a spawner on an idle CPU, and on a
    /// virtual machine an idle CPU's wake-up is a round trip through the host: twice per start
    /// (the request, then the reply), it cost 70 to 280 µs a start where the whole round trip
    /// on one CPU costs about 6. The program does not stay pinned: the spawner's child gives it
    /// the spawner's CPUs as it started, before `exec` (`serve`).
    ///
    /// Only while there are fewer spawners than CPUs (fewer threads starting programs): with
    /// as many, no CPU is left idle for a spawner to be woken on, and pinning would only keep
    /// the scheduler from spreading the starts (on 2 CPUs, 2 workers ran 5% fewer cases
    /// pinned); the spawner then gets its CPUs back. Best effort: a CPU the spawner may not
    /// use leaves it where it was.
    fn follow_this_thread(&mut self) {
        let spawners = own::count(own::Kind::Spawner);
        let size = std::mem::size_of::<libc::cpu_set_t>();
        if spawners >= self.cpus {
            if self.cpu >= 0 {
                // SAFETY: sched_setaffinity reads the set of its size.
                unsafe { libc::sched_setaffinity(self.pid, size, &self.allowed) };
                self.cpu = -1;
            }
            return;
        }
        // SAFETY: sched_getcpu has no preconditions.
        let cpu = unsafe { libc::sched_getcpu() };
        if cpu < 0 || cpu == self.cpu || cpu as usize >= libc::CPU_SETSIZE as usize {
            return;
        }
        // SAFETY: a zeroed cpu_set_t is an empty set; CPU_SET writes within it (cpu is below
        // CPU_SETSIZE); sched_setaffinity reads the set of its size.
        let pinned = unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_SET(cpu as usize, &mut set);
            libc::sched_setaffinity(self.pid, size, &set) == 0
        };
        self.cpu = if pinned { cpu } else { -1 };
    }

    /// Sends a request with the program's streams and reads the reply: the program's pid
    /// and when it started, or what failed.
    fn exchange(&self, request: &[u8], streams: [RawFd; 3]) -> std::io::Result<Exchanged> {
        send_with_fds(self.socket.as_raw_fd(), request, &streams)?;
        let mut reply = [0u8; wire::REPLY_LEN];
        let n = recv(self.socket.as_raw_fd(), &mut reply)?;
        let (result, started) = wire::decode_reply(&reply[..n])
            .ok_or_else(|| std::io::Error::other("the spawner's reply is malformed"))?;
        Ok(result.map(|pid| (pid, clone::instant_at(started))))
    }

    /// Ends a spawner that cannot serve: kills and reaps it, and removes its slot with
    /// whatever is left in it.
    fn discard(self) {
        own::remove(self.pid);
        // SAFETY: the spawner is an unreaped child of the harness, so its pid is its own.
        unsafe { libc::kill(self.pid, libc::SIGKILL) };
        reap(self.pid);
        if let Some(slot) = &self.slot {
            slot.remove(None);
        }
    }
}

/// The harness's current directory (`None` if it cannot be known, as when it was removed).
fn current_dir() -> Option<CString> {
    let dir = std::env::current_dir().ok()?;
    CString::new(dir.into_os_string().into_vec()).ok()
}

fn reap(pid: i32) {
    let mut status = 0;
    // SAFETY: waits for a child of the harness; the status goes to a local.
    while unsafe { libc::waitpid(pid, &mut status, 0) } < 0
        && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted
    {}
}

fn recv(socket: RawFd, buf: &mut [u8]) -> std::io::Result<usize> {
    loop {
        // SAFETY: receives into a valid buffer of its length.
        let r = unsafe { libc::recv(socket, buf.as_mut_ptr().cast(), buf.len(), 0) };
        if r > 0 {
            return Ok(r as usize);
        }
        if r == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        let err = std::io::Error::last_os_error();
        if err.kind() != std::io::ErrorKind::Interrupted {
            return Err(err);
        }
    }
}

/// A spawner's reply: the program's pid and start, or what failed.
type Exchanged = Result<(i32, Instant), Failed>;

/// Receives one message into `buf`: its length, the descriptors that came with it (at most
/// `max_fds`, close-on-exec), and whether it arrived whole. The end of the connection is an
/// `UnexpectedEof` error. The harness's replies and the spawner's requests alike.
pub(super) fn recv_with_fds(
    socket: RawFd,
    buf: &mut [u8],
    max_fds: usize,
) -> std::io::Result<(usize, Vec<OwnedFd>, bool)> {
    // SAFETY: CMSG_SPACE only computes a size.
    let space = unsafe { libc::CMSG_SPACE((max_fds * std::mem::size_of::<libc::c_int>()) as u32) };
    // u64 words keep the control buffer aligned for cmsghdr.
    let mut control = vec![0u64; (space as usize).div_ceil(8)];
    loop {
        let mut iov = libc::iovec {
            iov_base: buf.as_mut_ptr().cast(),
            iov_len: buf.len(),
        };
        // SAFETY: a zeroed msghdr is valid; its pointers are set to live buffers below.
        let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
        msg.msg_iov = &mut iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control.as_mut_ptr().cast();
        msg.msg_controllen = control.len() * 8;
        // SAFETY: recvmsg writes into the buffers the header describes.
        let r = unsafe { libc::recvmsg(socket, &mut msg, libc::MSG_CMSG_CLOEXEC) };
        if r == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        if r < 0 {
            let err = std::io::Error::last_os_error();
            if err.kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return Err(err);
        }
        let mut fds = Vec::new();
        // SAFETY: the CMSG macros walk the control buffer recvmsg filled, within its length;
        // a descriptor received is ours alone.
        unsafe {
            let mut cmsg = libc::CMSG_FIRSTHDR(&msg);
            while !cmsg.is_null() {
                if (*cmsg).cmsg_level == libc::SOL_SOCKET && (*cmsg).cmsg_type == libc::SCM_RIGHTS {
                    let data = libc::CMSG_DATA(cmsg).cast::<libc::c_int>();
                    let bytes = (*cmsg).cmsg_len as usize - libc::CMSG_LEN(0) as usize;
                    for i in 0..bytes / std::mem::size_of::<libc::c_int>() {
                        fds.push(OwnedFd::from_raw_fd(std::ptr::read_unaligned(data.add(i))));
                    }
                }
                cmsg = libc::CMSG_NXTHDR(&msg, cmsg);
            }
        }
        let complete = msg.msg_flags & (libc::MSG_TRUNC | libc::MSG_CTRUNC) == 0;
        return Ok((r as usize, fds, complete));
    }
}

/// Sends one message with `fds` passed alongside (none when `fds` is empty): the harness's
/// requests and the spawner's replies alike. A `SOCK_SEQPACKET` message goes whole or not at
/// all.
pub(super) fn send_with_fds(socket: RawFd, bytes: &[u8], fds: &[RawFd]) -> std::io::Result<()> {
    let payload = std::mem::size_of_val(fds);
    // SAFETY: CMSG_SPACE only computes a size.
    let space = unsafe { libc::CMSG_SPACE(payload as u32) } as usize;
    let mut control = vec![0u64; space.div_ceil(8)];
    let mut iov = libc::iovec {
        iov_base: bytes.as_ptr().cast_mut().cast(),
        iov_len: bytes.len(),
    };
    // SAFETY: a zeroed msghdr is valid; its pointers are set to live buffers below.
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    if !fds.is_empty() {
        msg.msg_control = control.as_mut_ptr().cast();
        msg.msg_controllen = space;
        // SAFETY: the control buffer has room for one header with `payload` bytes of data.
        unsafe {
            let cmsg = libc::CMSG_FIRSTHDR(&msg);
            (*cmsg).cmsg_level = libc::SOL_SOCKET;
            (*cmsg).cmsg_type = libc::SCM_RIGHTS;
            (*cmsg).cmsg_len = libc::CMSG_LEN(payload as u32) as usize;
            std::ptr::copy_nonoverlapping(
                fds.as_ptr().cast::<u8>(),
                libc::CMSG_DATA(cmsg),
                payload,
            );
        }
    }
    loop {
        // SAFETY: the header describes live buffers; no SIGPIPE if the other side is gone.
        let r = unsafe { libc::sendmsg(socket, &msg, libc::MSG_NOSIGNAL) };
        if r >= 0 {
            return Ok(());
        }
        let err = std::io::Error::last_os_error();
        if err.kind() != std::io::ErrorKind::Interrupted {
            return Err(err);
        }
    }
}

/// The environment that makes duipai's executable a spawner: the socket's descriptor, the
/// cgroup slot to move into, and the keeper whose namespaces to join.
fn spawner_env(slot: Option<&Slot>, keeper: Option<&Keeper>) -> std::io::Result<Vec<CString>> {
    let mut env = vec![clone::cstring(
        format!("{}={}", serve::TRIGGER, serve::SOCKET_FD).as_bytes(),
    )?];
    if let Some(slot) = slot {
        env.extend(serve::slot_env(slot)?);
    }
    if let Some(keeper) = keeper {
        let join = format!("{}={}", serve::JOIN, keeper.pid());
        env.push(clone::cstring(join.as_bytes())?);
        if keeper.userns {
            env.push(clone::cstring(
                format!("{}=1", serve::JOIN_USER).as_bytes(),
            )?);
        }
    }
    Ok(env)
}
