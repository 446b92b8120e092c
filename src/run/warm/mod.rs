//! Warm Python interpreters for helpers: a helper run as `python3 SCRIPT ARGS` (a generator,
//! a reference, a validator, a checker, an interactor; never the program under test, which
//! always starts fresh, as a judge starts it) is forked from an interpreter that has already
//! started, rather than started anew, which on a contest machine is most of what a small
//! case costs (a Python start with the usual site packages takes 20–90 ms of CPU; a warm run
//! about a fifth of that, its server's two forks included: 15 ms against 74 ms here).
//!
//! The interpreter for a script (`server`) is started as that script's fresh start would be
//! (same interpreter, environment, folder and stack limit), with a hook that stops it just
//! before it runs its script (Python's `sitecustomize`, from a folder only its `PYTHONPATH`
//! names): there it waits for requests. For each run it forks the run's process so that the
//! process is duipai's child, as a fresh start's is (through a child that exits at once:
//! duipai is the child subreaper above it); the process sets itself up as duipai's clone
//! child does (cgroup, process group, terminal, rlimits with the run's tag, streams,
//! folder), takes the run's argv, environment and standard streams, forgets the modules the
//! server imported, and then the interpreter goes on starting as any fresh `python3 SCRIPT
//! ARGS` does: it puts the script's folder first in `sys.path`, runs the script as
//! `__main__`, prints an uncaught exception and exits as it always does. From there the run
//! is an ordinary run of duipai's runner: supervised, limited and measured, its processes
//! killed and reaped, in a helper's cgroup slot when there are slots.
//!
//! What still tells a warm run from a fresh one, to a script that looks: its
//! `/proc/self/cmdline` is the server's (without the run's arguments), the interpreter's
//! objects from before the fork are frozen for the garbage collector (`gc.freeze`, so that a
//! collection does not copy every page of them: a run's CPU time fell from 25 ms to 12 ms
//! here), and every run of a server shares its hash seed. Where a warm start cannot stand
//! for a fresh one (not CPython 3.9 or newer, interpreter options before the script, a
//! script that is not a file, a server that cannot start), the helper starts fresh, and
//! [`notes`] says so once per script.

mod server;
mod wire;

use std::collections::HashSet;
use std::ffi::{CString, OsStr};
use std::io::Write;
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::clone::{self, Program};
use super::contain::{self, Role};
use super::group::RUN_VAR;
use super::spawner::{self, Lease};

pub(crate) use server::retire_all;

/// Whether helpers may start warm (`--fresh-helpers` turns it off).
static ENABLED: AtomicBool = AtomicBool::new(true);

/// Sets whether Python helpers start from a warm interpreter (the default) or fresh.
pub fn set_enabled(enabled: bool) {
    ENABLED.store(enabled, Ordering::SeqCst);
}

/// What starts one helper script's warm interpreter: the interpreter as named and where
/// `exec` finds it, the script as given, the folder, the environment (without the run's
/// variable) and the stack limit.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Key {
    argv0: CString,
    candidates: Vec<CString>,
    script: CString,
    cwd: CString,
    env: Vec<CString>,
    stack: Option<(libc::rlim_t, libc::rlim_t)>,
}

/// Scripts that start fresh from now on; and what the user has not been told of them yet.
static COLD: Mutex<Option<HashSet<Key>>> = Mutex::new(None);
static UNTOLD: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// What the user should know of the Python helpers that start fresh, once each: `gen.py
/// starts a new Python for every run: ...`. Taken: a second call says only what came since.
pub fn notes() -> Vec<String> {
    std::mem::take(&mut *lock(&UNTOLD))
}

/// A helper started warm: its process, when it was set up, and the spawner whose slot it
/// joined (when there are slots).
pub(super) struct Warm {
    pub pid: i32,
    pub start: Instant,
    pub lease: Option<Lease>,
}

/// Starts `program` (a helper's, with its standard streams `streams`, and `slot_limits` for
/// its slot) from a warm interpreter, when it is a Python script's run and one can be had;
/// `None` when it is to start as usual.
pub(super) fn launch(
    role: Role,
    program: &Program,
    streams: [RawFd; 3],
    slot_limits: (u64, u64),
) -> Option<Warm> {
    if role != Role::Helper || !ENABLED.load(Ordering::SeqCst) {
        return None;
    }
    let unwrapped = through_env(program);
    let program = unwrapped.as_ref().unwrap_or(program);
    let key = match Key::of(program) {
        Ok(key) => key,
        Err(Some(why)) => {
            tell_once(program, None, why);
            return None;
        }
        Err(None) => return None,
    };
    if lock(&COLD).as_ref().is_some_and(|cold| cold.contains(&key)) {
        return None;
    }
    match start(&key, program, streams, slot_limits) {
        Ok(warm) => warm,
        Err(why) => {
            tell_once(program, Some(key), why);
            None
        }
    }
}

/// Starts the run from `key`'s server: `Ok(None)` when it cannot now but may later (no slot
/// to be had this moment), `Err` when the script is to start fresh from now on.
fn start(
    key: &Key,
    program: &Program,
    streams: [RawFd; 3],
    slot_limits: (u64, u64),
) -> Result<Option<Warm>, String> {
    let lease = match contain::tree() {
        Some(_) => match spawner::lease(Role::Helper, slot_limits) {
            Some(lease) => Some(lease),
            None => return Ok(None),
        },
        None => None,
    };
    let cgroups: Vec<RawFd> = lease
        .as_ref()
        .and_then(Lease::slot)
        .map(|(slot, _)| slot.procs_fds())
        .unwrap_or_default();
    let request = request(key, program, cgroups.len(), lease.is_some());
    // The run's process waits, set up, until duipai has its pid and says go: one that duipai
    // gave up on (a reply that never came) ends without running the script, rather than
    // write into streams a fresh start of the same run then gets.
    let (go_read, go_write) =
        clone::pipe().map_err(|e| format!("no pipe for a warm start: {e}"))?;
    let mut fds = streams.to_vec();
    fds.push(go_read.as_raw_fd());
    fds.extend(&cgroups);
    let (server, reply) = ask(key, &request, &fds)?;
    drop(go_read);
    let pid = settle(server, reply)?;
    let start = Instant::now();
    // A process that cannot be told to go has gone (killed), as a program may.
    let _ = std::fs::File::from(go_write).write_all(b"g");
    Ok(Some(Warm { pid, start, lease }))
}

/// The request for `program`'s run, from `key`'s server, joining `cgroups` cgroups (a slot,
/// where the OOM killer must pick it before the spawner beside it: `in_slot`).
fn request(key: &Key, program: &Program, cgroups: usize, in_slot: bool) -> Vec<u8> {
    wire::Run {
        flags: wire::Flags {
            no_terminal: program.setup.no_terminal,
            oom_first: in_slot,
        },
        cwd: key.cwd.as_bytes(),
        argv: &program.argv,
        env: &program.env,
        rlimits: &tagged(program.rlimits),
        cgroups,
    }
    .encode()
}

/// What the server's reply means: the run's pid, or why the script starts fresh from now on
/// (the server is given back, or ended when it stopped answering).
fn settle(server: server::Server, reply: std::io::Result<wire::Reply>) -> Result<i32, String> {
    match reply {
        Ok(wire::Reply::Started { pid }) => {
            server::checkin(server);
            Ok(pid)
        }
        Ok(wire::Reply::Failed { stage, errno, pid }) => {
            server::checkin(server);
            if let Some(pid) = pid {
                server::reap(pid);
            }
            let error = std::io::Error::from_raw_os_error(errno);
            Err(format!("a warm start failed at its {stage} ({error})"))
        }
        Err(e) => {
            server.discard();
            Err(format!("its warm interpreter stopped answering ({e})"))
        }
    }
}

/// Sends the request to a server of `key` and reads its reply. A server that cannot be sent
/// the request (it ended while idle: nothing of this run started) is replaced once.
fn ask(
    key: &Key,
    request: &[u8],
    fds: &[RawFd],
) -> Result<(server::Server, std::io::Result<wire::Reply>), String> {
    let mut server = server::checkout(key)?;
    if let Err(e) = server.send(request, fds) {
        server.discard();
        server = server::Server::start(key)?;
        if let Err(e2) = server.send(request, fds) {
            server.discard();
            return Err(format!(
                "its warm interpreter cannot be reached ({e}, then {e2})"
            ));
        }
    }
    let reply = server.reply();
    Ok((server, reply))
}

/// The run's rlimits with its tag required: a warm run's process shows duipai's run
/// variable in `/proc` only as its server had it, so the tag is what marks it as the run's.
fn tagged(rlimits: &[clone::Rlimit]) -> Vec<clone::Rlimit> {
    rlimits
        .iter()
        .map(|r| clone::Rlimit {
            required: r.required || r.resource == libc::RLIMIT_RTTIME,
            ..*r
        })
        .collect()
}

/// Marks the script as starting fresh (with `key`, when it has one) and keeps the note.
fn tell_once(program: &Program, key: Option<Key>, why: String) {
    // The script: the first word after the interpreter's options.
    let script = program
        .argv
        .iter()
        .skip(1)
        .find(|w| !w.as_bytes().starts_with(b"-"))
        .map(|s| {
            let path = Path::new(OsStr::from_bytes(s.as_bytes()));
            path.file_name()
                .unwrap_or(path.as_os_str())
                .to_string_lossy()
                .into_owned()
        })
        .unwrap_or_default();
    let note = format!("{script} starts a new Python for every run: {why}");
    if let Some(key) = key {
        lock(&COLD).get_or_insert_with(HashSet::new).insert(key);
    }
    let mut untold = lock(&UNTOLD);
    if !untold.contains(&note) {
        untold.push(note);
    }
}

/// Variables that name one run rather than the script's start: a server started without
/// them serves every run, each run getting its own. duipai's run variable, and the files and
/// mode of a generator's choices being recorded or replayed (`crate::own::capture`), which
/// change with every candidate.
fn per_run(var: &[u8]) -> bool {
    let name = var.split(|&b| b == b'=').next().unwrap_or_default();
    name == RUN_VAR.as_bytes() || name.starts_with(b"DUIPAI_CHOICES")
}

/// `env NAME=VALUE… python3 SCRIPT ARGS` (how a generator's choices are recorded and
/// replayed) as the Python run it is: the interpreter started with those variables in its
/// environment. `None` for any other program.
fn through_env<'a>(program: &Program<'a>) -> Option<Program<'a>> {
    let (first, rest) = program.argv.split_first()?;
    let name = Path::new(OsStr::from_bytes(first.as_bytes())).file_name()?;
    if name != "env" {
        return None;
    }
    let set = rest
        .iter()
        .take_while(|w| !w.as_bytes().starts_with(b"-") && w.as_bytes().contains(&b'='))
        .count();
    let (assignments, argv) = rest.split_at(set);
    let named = |v: &CString| {
        v.as_bytes()
            .split(|&b| b == b'=')
            .next()
            .map(<[u8]>::to_vec)
    };
    let overridden: HashSet<Vec<u8>> = assignments.iter().filter_map(named).collect();
    let mut env: Vec<CString> = program
        .env
        .iter()
        .filter(|v| named(v).is_none_or(|n| !overridden.contains(&n)))
        .cloned()
        .collect();
    env.extend(assignments.iter().cloned());
    let interpreter = in_path(argv.first()?, &env)?;
    Some(Program {
        candidates: vec![interpreter],
        argv: argv.to_vec(),
        env,
        cwd: program.cwd.clone(),
        rlimits: program.rlimits,
        setup: program.setup,
    })
}

/// Where `env` finds `program`: itself when it names a path, else the first file of that
/// name in the folders of `env`'s PATH.
fn in_path(program: &CString, env: &[CString]) -> Option<CString> {
    let name = program.as_bytes();
    if name.contains(&b'/') {
        return Some(program.clone());
    }
    let path = env
        .iter()
        .find_map(|v| v.as_bytes().strip_prefix(b"PATH="))?;
    path.split(|&b| b == b':')
        .filter(|dir| !dir.is_empty())
        .map(|dir| Path::new(OsStr::from_bytes(dir)).join(OsStr::from_bytes(name)))
        .find(|candidate| candidate.is_file())
        .and_then(|found| CString::new(found.into_os_string().into_vec()).ok())
}

impl Key {
    /// The key of a Python script's run, `Err(None)` for any other program, and
    /// `Err(Some(why))` for a Python run a warm start cannot stand for.
    fn of(program: &Program) -> Result<Key, Option<String>> {
        let (argv0, script) = match program.argv.as_slice() {
            [argv0, script, ..] => (argv0, script),
            _ => return Err(None),
        };
        let name = Path::new(OsStr::from_bytes(argv0.as_bytes()))
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if !is_cpython_name(name) {
            return Err(None);
        }
        if script.as_bytes().starts_with(b"-") {
            return Err(Some(
                "options before its script are not given to a warm interpreter".to_string(),
            ));
        }
        if program.setup.credentials.is_some() {
            return Err(None);
        }
        let cwd = match &program.cwd {
            Some(cwd) => cwd.clone(),
            None => current_dir().ok_or(None)?,
        };
        let env = program
            .env
            .iter()
            .filter(|v| !per_run(v.as_bytes()))
            .cloned()
            .collect();
        let stack = program
            .rlimits
            .iter()
            .find(|r| r.resource == libc::RLIMIT_STACK)
            .map(|r| (r.limit.rlim_cur, r.limit.rlim_max));
        Ok(Key {
            argv0: argv0.clone(),
            candidates: program.candidates.clone(),
            script: script.clone(),
            cwd,
            env,
            stack,
        })
    }
}

/// Whether a program name is CPython's: `python`, `python3`, `python3.12`.
fn is_cpython_name(name: &str) -> bool {
    name.strip_prefix("python")
        .is_some_and(|version| version.chars().all(|c| c.is_ascii_digit() || c == '.'))
}

fn current_dir() -> Option<CString> {
    let dir = std::env::current_dir().ok()?;
    CString::new(dir.into_os_string().into_encoded_bytes()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_cpython_names_are_warm() {
        for name in ["python", "python3", "python3.12"] {
            assert!(is_cpython_name(name), "{name}");
        }
        for name in ["pypy3", "python3-config", "ipython3", "sh", "pythonista"] {
            assert!(!is_cpython_name(name), "{name}");
        }
    }
}
