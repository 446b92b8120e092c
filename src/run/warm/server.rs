//! The warm interpreters themselves: one process per helper script and concurrent use,
//! started as `python3 SCRIPT` with the hook folder on `PYTHONPATH` ([`Server::start`]),
//! asked for runs over a socket ([`Server::exchange`]), kept in a pool between runs, and
//! ended with duipai ([`retire_all`]). Their pids are listed, so that the cleanup of a run
//! never takes one for a leftover (`own`).

use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::sync::Mutex;
use std::time::Duration;

use super::super::clone::{self, Program, Rlimit, Setup};
use super::super::own;
use super::super::spawner;
use super::Key;
use super::wire::{self, Reply};

/// How long a warm interpreter may take to start, and to answer a request: generous (a
/// Python start with many site packages takes a second on a loaded machine), and only a
/// broken one meets it.
const PATIENCE: Duration = Duration::from_secs(20);

/// The most idle servers kept: one per worker and helper script is what a command uses (a
/// generator, a reference, a validator and a checker, or a plan's several generators, on
/// every worker); each holds about 10 MiB of its own.
const IDLE_PER_CPU: usize = 4;
const IDLE_AT_LEAST: usize = 16;

/// The file that makes Python call duipai's server while it starts, and the server.
const HOOK: &str = include_str!("sitecustomize.py");
const SERVER: &str = include_str!("duipai_warm.py");

/// The environment variable that tells the hook to serve (with the socket as descriptor 3).
const TRIGGER: &str = "DUIPAI_WARM=3";

/// One warm interpreter, the child of duipai's that serves one helper.
pub(super) struct Server {
    key: Key,
    pid: i32,
    socket: OwnedFd,
}

/// Servers not in use.
static IDLE: Mutex<Vec<Server>> = Mutex::new(Vec::new());

/// The folder holding the hook and the server, made once per duipai process (and again
/// after [`retire_all`]), removed with it.
static HOOK_DIR: Mutex<Option<tempfile::TempDir>> = Mutex::new(None);

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// An idle server for `key`, or a new one; `Err` says why none can be had.
pub(super) fn checkout(key: &Key) -> Result<Server, String> {
    let idle = {
        let mut idle = lock(&IDLE);
        let at = idle.iter().position(|s| s.key == *key);
        at.map(|at| idle.swap_remove(at))
    };
    match idle {
        Some(server) => Ok(server),
        None => Server::start(key),
    }
}

/// Gives a server back to the pool, ending the one idle longest when the pool is full.
pub(super) fn checkin(server: Server) {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let most = (IDLE_PER_CPU * cpus).max(IDLE_AT_LEAST);
    let surplus = {
        let mut idle = lock(&IDLE);
        idle.push(server);
        (idle.len() > most).then(|| idle.remove(0))
    };
    if let Some(oldest) = surplus {
        oldest.discard();
    }
}

/// Ends every idle server and removes the hook folder: for a duipai about to exit.
pub(crate) fn retire_all() {
    let idle = std::mem::take(&mut *lock(&IDLE));
    for server in idle {
        server.discard();
    }
    lock(&HOOK_DIR).take();
}

/// The hook folder's path, made if it is not there.
fn hook_dir() -> io::Result<CString> {
    let mut dir = lock(&HOOK_DIR);
    if dir.is_none() {
        let made = crate::run::scratch::temp_folder("warm")?;
        std::fs::write(made.path().join("sitecustomize.py"), HOOK)?;
        std::fs::write(made.path().join("duipai_warm.py"), SERVER)?;
        *dir = Some(made);
    }
    let path = dir
        .as_ref()
        .map(|d| d.path().as_os_str().as_encoded_bytes());
    clone::cstring(path.unwrap_or_default())
}

impl Server {
    /// Starts `python3 SCRIPT` as the key says, with the hook folder first on `PYTHONPATH`,
    /// the trigger in its environment and the socket as descriptor 3, under the helper's
    /// stack limit (which shapes its address space as it would a fresh start's), in its own
    /// process group; and waits for its greeting.
    pub(super) fn start(key: &Key) -> Result<Server, String> {
        let started =
            Server::spawn(key).map_err(|e| format!("its warm interpreter cannot start: {e}"))?;
        match started.hello() {
            Ok(()) => Ok(started),
            Err(why) => {
                started.discard();
                Err(why)
            }
        }
    }

    fn spawn(key: &Key) -> io::Result<Server> {
        let hook = hook_dir()?;
        let (ours, theirs) = clone::socket_pair()?;
        let null_in = clone::dev_null()?;
        let null_out = std::fs::OpenOptions::new().write(true).open("/dev/null")?;
        let stack: Vec<Rlimit> = key
            .stack
            .map(|(rlim_cur, rlim_max)| Rlimit {
                resource: libc::RLIMIT_STACK,
                limit: libc::rlimit { rlim_cur, rlim_max },
                required: false,
            })
            .into_iter()
            .collect();
        let program = Program {
            candidates: key.candidates.clone(),
            argv: vec![key.argv0.clone(), key.script.clone()],
            env: server_env(&key.env, &hook)?,
            cwd: Some(key.cwd.clone()),
            rlimits: &stack,
            setup: Setup::default(),
        };
        let streams = [
            null_in.as_raw_fd(),
            null_out.as_raw_fd(),
            null_out.as_raw_fd(),
        ];
        // Registered before it can be seen among duipai's children.
        let listing = own::hold();
        let pid = clone::launch_here(&program, streams, theirs.as_raw_fd(), &[]).map_err(|f| {
            if f.pid > 0 {
                reap(f.pid);
            }
            io::Error::from_raw_os_error(f.errno)
        });
        let mut listing = listing;
        let pid = pid?;
        listing.add(pid, own::Kind::Server);
        drop(listing);
        Ok(Server {
            key: key.clone(),
            pid,
            socket: ours,
        })
    }

    /// Waits for the greeting: `Err` says why the server will not serve.
    fn hello(&self) -> Result<(), String> {
        let mut hello = [0u8; 512];
        match receive(self.socket.as_raw_fd(), &mut hello, PATIENCE) {
            Ok(n) => wire::decode_hello(&hello[..n]),
            Err(e) if e.kind() == io::ErrorKind::TimedOut => Err(format!(
                "its warm interpreter did not start within {} s",
                PATIENCE.as_secs()
            )),
            Err(_) => Err("its warm interpreter ended as it started".to_string()),
        }
    }

    /// Sends a request with its descriptors.
    pub(super) fn send(&self, request: &[u8], fds: &[RawFd]) -> io::Result<()> {
        spawner::send_with_fds(self.socket.as_raw_fd(), request, fds)
    }

    /// Reads the reply to the request sent.
    pub(super) fn reply(&self) -> io::Result<Reply> {
        let mut reply = [0u8; 256];
        let n = receive(self.socket.as_raw_fd(), &mut reply, PATIENCE)?;
        Reply::decode(&reply[..n]).ok_or_else(|| io::Error::other("a malformed reply"))
    }

    /// Ends a server: kills and reaps it.
    pub(super) fn discard(self) {
        own::remove(self.pid);
        // SAFETY: the server is an unreaped child of duipai's, so its pid is its own.
        unsafe { libc::kill(self.pid, libc::SIGKILL) };
        reap(self.pid);
    }
}

/// The server's environment: the helper's (without the run's variable), the hook folder
/// first on `PYTHONPATH`, and the trigger.
fn server_env(env: &[CString], hook: &CString) -> io::Result<Vec<CString>> {
    let mut out = Vec::with_capacity(env.len() + 2);
    let mut path = hook.as_bytes().to_vec();
    for var in env {
        match var.as_bytes().strip_prefix(b"PYTHONPATH=") {
            Some(given) => {
                path.push(b':');
                path.extend_from_slice(given);
            }
            None => out.push(var.clone()),
        }
    }
    let mut pythonpath = b"PYTHONPATH=".to_vec();
    pythonpath.extend_from_slice(&path);
    out.push(clone::cstring(&pythonpath)?);
    out.push(clone::cstring(TRIGGER.as_bytes())?);
    Ok(out)
}

/// Reaps a child of duipai's that has ended or is about to (it was killed).
pub(super) fn reap(pid: i32) {
    let mut status = 0;
    // SAFETY: waits for a child of duipai's; the status goes to a local.
    while unsafe { libc::waitpid(pid, &mut status, 0) } < 0
        && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted
    {}
}

/// One message from `socket`, waiting at most `patience`.
fn receive(socket: RawFd, buf: &mut [u8], patience: Duration) -> io::Result<usize> {
    let mut poll = libc::pollfd {
        fd: socket,
        events: libc::POLLIN,
        revents: 0,
    };
    let deadline = std::time::Instant::now() + patience;
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        if left.is_zero() {
            return Err(io::ErrorKind::TimedOut.into());
        }
        let ms = left.as_millis().min(i32::MAX as u128) as i32;
        // SAFETY: one valid pollfd.
        let r = unsafe { libc::poll(&mut poll, 1, ms) };
        if r < 0 {
            let err = io::Error::last_os_error();
            if err.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(err);
        }
        if r == 0 {
            continue;
        }
        // SAFETY: receives into a valid buffer of its length.
        let n = unsafe { libc::recv(socket, buf.as_mut_ptr().cast(), buf.len(), 0) };
        if n > 0 {
            return Ok(n as usize);
        }
        if n == 0 {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        let err = io::Error::last_os_error();
        if err.kind() != io::ErrorKind::Interrupted {
            return Err(err);
        }
    }
}
