//! Running a compiler (or its `--version`) with a budget: its own process group, each of
//! whose processes is stopped by the kernel past the budget in CPU time (`RLIMIT_CPU`), killed
//! whole at a wall-clock backstop or on [`cancel`] (an interrupted duipai), its output
//! captured up to a cap and always reaped. The budget is CPU time so that a busy machine,
//! which stretches a compile's wall-clock time many times over, never stops a compile that
//! would finish: only a compiler that computes without end (a template recursion) or waits
//! without end (a FIFO, a lock) is stopped.

use std::io::{self, Read};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};
use std::thread;
use std::time::{Duration, Instant};

/// How much of each stream is kept: the first screens of a template error are the useful
/// part, and a compiler printing without end must not fill memory.
const KEPT_BYTES: usize = 256 * 1024;

/// The wall-clock backstop of a run, as a multiple of its CPU budget.
const WALL_FACTOR: u32 = 10;

/// The wall-clock time after which a run with the CPU budget `cpu` is killed.
pub(crate) fn wall_backstop(cpu: Duration) -> Duration {
    cpu * WALL_FACTOR
}

/// What a finished (or killed) compiler run left.
#[derive(Debug)]
pub(crate) struct Captured {
    /// `None` when the run was killed at the wall-clock backstop.
    pub status: Option<ExitStatus>,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

/// Reads a pipe to its end, keeping the first `KEPT_BYTES`: the rest is drained so that the
/// writer never blocks on a full pipe.
fn drain(mut pipe: impl Read) -> Vec<u8> {
    let mut kept = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        match pipe.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                let room = KEPT_BYTES.saturating_sub(kept.len());
                kept.extend_from_slice(&buf[..n.min(room)]);
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    kept
}

/// Kills the process group led by `child`, which has not been reaped yet: its pid, and so the
/// group id, cannot have been reused by another process.
fn kill_group(child: &Child) {
    kill_pgid(child.id());
}

/// Kills the process group `pgid` (on Windows: the process, whose handle the caller keeps).
#[cfg(unix)]
fn kill_pgid(pgid: u32) {
    if let Ok(pgid) = libc::pid_t::try_from(pgid) {
        // SAFETY: killpg takes plain integers; an error (the group already gone) is harmless.
        unsafe {
            libc::killpg(pgid, libc::SIGKILL);
        }
    }
}

/// Kills the process `pid`. Windows has no process groups to signal: the compiler driver is
/// ended, and the programs it started (cc1plus, as, ld) end when their pipes close.
#[cfg(windows)]
fn kill_pgid(pid: u32) {
    use windows_sys::Win32::Foundation::CloseHandle;
    use windows_sys::Win32::System::Threading::{OpenProcess, PROCESS_TERMINATE, TerminateProcess};
    // SAFETY: opening a process by id; the handle is checked and closed. The process is an
    // unreaped child (its handle is held by its `Child`), so the id is still its own.
    unsafe {
        let process = OpenProcess(PROCESS_TERMINATE, 0, pid);
        if !process.is_null() {
            TerminateProcess(process, 1);
            CloseHandle(process);
        }
    }
}

/// The process groups of the compilers running now; a group is taken off before its leader is
/// reaped (under the lock), so that [`cancel`] never signals a reused group id.
static RUNNING: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// Set by [`cancel`]: compilers started from then on are killed at once.
static CANCELLED: AtomicBool = AtomicBool::new(false);

/// Kills every compiler running now, with everything it started, and every compiler started
/// from now on; their runs end with an `Interrupted` error. Meant for an interrupt handler: the
/// compilers run in their own groups, out of the terminal's Ctrl-C.
pub fn cancel() {
    let running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    CANCELLED.store(true, Ordering::SeqCst);
    for &pgid in running.iter() {
        // The groups listed are led by unreaped children.
        kill_pgid(pgid);
    }
}

/// Reaps the child if it has ended, taking its group off [`RUNNING`] in the same step.
fn try_reap(child: &mut Child, pgid: u32) -> io::Result<Option<ExitStatus>> {
    let mut running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    let status = child.try_wait()?;
    if status.is_some() {
        running.retain(|&p| p != pgid);
    }
    Ok(status)
}

/// Runs `command` with stdin closed and stdout and stderr captured, each of its processes
/// for at most `cpu` of CPU time, the whole for at most [`wall_backstop`]`(cpu)`. Spawn errors
/// (a missing program) are returned as they are, for the caller to explain; a run stopped by
/// [`cancel`] is an `Interrupted` error.
pub(crate) fn run(command: &mut Command, cpu: Duration) -> io::Result<Captured> {
    run_within(command, cpu, wall_backstop(cpu))
}

/// [`run`] with the wall-clock backstop given.
fn run_within(command: &mut Command, cpu: Duration, wall: Duration) -> io::Result<Captured> {
    let deadline = Instant::now() + wall;
    own_group(command, cpu);
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let pgid = child.id();
    {
        let mut running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
        running.push(pgid);
        if CANCELLED.load(Ordering::SeqCst) {
            kill_group(&child);
        }
    }
    let (sender, receiver) = mpsc::channel();
    let mut readers = 0;
    if let Some(out) = child.stdout.take() {
        let sender = sender.clone();
        thread::spawn(move || sender.send((true, drain(out))));
        readers += 1;
    }
    if let Some(err) = child.stderr.take() {
        let sender = sender.clone();
        thread::spawn(move || sender.send((false, drain(err))));
        readers += 1;
    }
    drop(sender);

    let mut pause = Duration::from_millis(1);
    let status = loop {
        if let Some(status) = try_reap(&mut child, pgid)? {
            break Some(status);
        }
        if Instant::now() >= deadline {
            kill_group(&child);
            while try_reap(&mut child, pgid)?.is_none() {
                thread::sleep(Duration::from_millis(1));
            }
            break None;
        }
        thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(25));
    };

    if CANCELLED.load(Ordering::SeqCst) {
        return Err(io::Error::new(
            io::ErrorKind::Interrupted,
            "the compiler was stopped by an interrupt",
        ));
    }
    // A descendant that outlived the compiler may hold the pipes open: wait for the readers
    // only until the deadline (plus a moment after a kill), then keep what they have.
    let mut captured = Captured {
        status,
        stdout: Vec::new(),
        stderr: Vec::new(),
    };
    let until = deadline.max(Instant::now()) + Duration::from_millis(200);
    for _ in 0..readers {
        let left = until.saturating_duration_since(Instant::now());
        match receiver.recv_timeout(left) {
            Ok((true, bytes)) => captured.stdout = bytes,
            Ok((false, bytes)) => captured.stderr = bytes,
            Err(_) => break,
        }
    }
    Ok(captured)
}

/// Starts the compiler in its own group, so that the deadline also stops its children
/// (cc1plus, as, ld) and a terminal's Ctrl-C reaches duipai's handler first, with its CPU
/// budget as `RLIMIT_CPU`.
#[cfg(unix)]
fn own_group(command: &mut Command, cpu: Duration) {
    use std::os::unix::process::CommandExt;
    let seconds = cpu.as_secs().max(1) as libc::rlim_t;
    // SAFETY: the closure runs in the forked child before exec and calls only getrlimit and
    // setrlimit, which are async-signal-safe, on a stack value.
    unsafe {
        command.pre_exec(move || limit_cpu(seconds));
    }
    command.process_group(0);
}

/// Starts the compiler in its own process group, out of the console's Ctrl-C. Windows has
/// no CPU-time rlimit: the wall-clock backstop alone stops a compiler that runs without end.
#[cfg(windows)]
fn own_group(command: &mut Command, _cpu: Duration) {
    use std::os::windows::process::CommandExt;
    const CREATE_NEW_PROCESS_GROUP: u32 = 0x0000_0200;
    command.creation_flags(CREATE_NEW_PROCESS_GROUP);
}

/// Lowers this process's `RLIMIT_CPU` to `seconds` (SIGXCPU), and its hard limit to a
/// second more (SIGKILL); a lower limit already there is kept. Called between fork and exec.
#[cfg(unix)]
fn limit_cpu(seconds: libc::rlim_t) -> io::Result<()> {
    let mut current = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: a valid pointer to an rlimit for getrlimit to fill.
    if unsafe { libc::getrlimit(libc::RLIMIT_CPU, &mut current) } != 0 {
        return Err(io::Error::last_os_error());
    }
    let hard = current.rlim_max.min(seconds.saturating_add(1));
    let limit = libc::rlimit {
        rlim_cur: current.rlim_cur.min(seconds).min(hard),
        rlim_max: hard,
    };
    // SAFETY: a valid pointer to an rlimit; lowering a limit needs no privilege.
    if unsafe { libc::setrlimit(libc::RLIMIT_CPU, &limit) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captures_both_streams_and_the_status() {
        let got = run(
            Command::new("sh").args(["-c", "echo out; echo err >&2; exit 3"]),
            Duration::from_secs(10),
        )
        .unwrap();
        assert_eq!(got.status.and_then(|s| s.code()), Some(3));
        assert_eq!(got.stdout, b"out\n");
        assert_eq!(got.stderr, b"err\n");
    }

    #[test]
    fn a_compiler_that_computes_without_end_is_stopped_at_its_cpu_budget() {
        use std::os::unix::process::ExitStatusExt;
        // However long a busy machine makes the second of CPU time take, the wall-clock
        // backstop of ten minutes is not what stops it.
        let got = run_within(
            Command::new("sh").args(["-c", "while :; do :; done"]),
            Duration::from_secs(1),
            Duration::from_secs(600),
        )
        .unwrap();
        let signal = got.status.and_then(|s| s.signal());
        assert!(
            signal == Some(libc::SIGXCPU) || signal == Some(libc::SIGKILL),
            "{got:?}"
        );
    }

    #[test]
    fn kills_the_whole_group_at_the_wall_clock_backstop() {
        let start = Instant::now();
        // The child sleeps in a grandchild too: both must go.
        let got = run_within(
            Command::new("sh").args(["-c", "sleep 30 & sleep 30; echo never"]),
            Duration::from_secs(1),
            Duration::from_millis(300),
        )
        .unwrap();
        assert!(got.status.is_none());
        assert!(got.stdout.is_empty());
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{:?}",
            start.elapsed()
        );
    }

    #[test]
    fn keeps_only_the_first_part_of_a_flood() {
        let got = run(
            Command::new("sh").args(["-c", "yes 0123456789 | head -c 2000000 >&2"]),
            Duration::from_secs(20),
        )
        .unwrap();
        assert_eq!(got.status.and_then(|s| s.code()), Some(0));
        assert_eq!(got.stderr.len(), KEPT_BYTES);
    }

    #[test]
    fn a_missing_program_is_a_spawn_error() {
        let err = run(
            &mut Command::new("/nonexistent/duipai-no-such-compiler"),
            Duration::from_secs(1),
        )
        .unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::NotFound);
    }
}
