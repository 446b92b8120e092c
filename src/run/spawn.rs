//! Starting the program: `posix_spawn` (a `vfork` and an `exec`, no copy of the harness's
//! page tables) with its standard streams, its own process group, its working directory and
//! the environment variable that names its run.
//!
//! Why not `std::process::Command`: it does the same `posix_spawn`, but a `Command` with one
//! variable added to the environment copies the whole environment into new strings on every
//! spawn, which costs about 4% of a small case. Here the program's environment is the
//! harness's own `environ` pointers plus the run's variable.

use std::ffi::{CString, OsStr, OsString};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// Where the program's stdin comes from.
pub(crate) enum Stdin {
    /// A pipe the harness writes the input to.
    Pipe,
    /// `/dev/null` (file I/O: the input is a file).
    Null,
}

/// The started program: its pid and the harness's ends of its pipes.
pub(crate) struct Started {
    pub pid: i32,
    pub stdin: Option<OwnedFd>,
    pub stdout: OwnedFd,
    pub stderr: OwnedFd,
}

fn cstring(bytes: &[u8]) -> io::Result<CString> {
    CString::new(bytes).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            "a program name or argument contains a NUL byte",
        )
    })
}

/// A pipe as (read end, write end), both close-on-exec, neither numbered 0, 1 or 2: the
/// `dup2` onto the standard descriptors in the child must not overwrite another end. (The
/// Rust runtime keeps 0, 1 and 2 open, so this only matters if the embedding program
/// closed them.)
fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two new descriptors into a valid array.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both descriptors were just created and are owned by nobody else.
    let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    Ok((above_standard(read)?, above_standard(write)?))
}

fn above_standard(fd: OwnedFd) -> io::Result<OwnedFd> {
    if fd.as_raw_fd() > 2 {
        return Ok(fd);
    }
    // SAFETY: F_DUPFD_CLOEXEC duplicates a descriptor we own onto a new one (>= 3).
    let new = unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_DUPFD_CLOEXEC, 3) };
    if new < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the descriptor was just created and is owned by nobody else.
    Ok(unsafe { OwnedFd::from_raw_fd(new) })
}

/// The spawn attributes and file actions, destroyed on every path out.
struct Plan {
    actions: libc::posix_spawn_file_actions_t,
    attributes: libc::posix_spawnattr_t,
}

impl Plan {
    fn new() -> io::Result<Box<Plan>> {
        // Boxed: glibc's objects must not move once initialized.
        // SAFETY: zeroed memory is a valid place for the init functions to write to.
        let mut plan: Box<Plan> = Box::new(unsafe { std::mem::zeroed() });
        // SAFETY: both point to memory owned by `plan`; each is destroyed in Drop.
        unsafe {
            check(libc::posix_spawn_file_actions_init(&mut plan.actions))?;
            if let Err(e) = check(libc::posix_spawnattr_init(&mut plan.attributes)) {
                libc::posix_spawn_file_actions_destroy(&mut plan.actions);
                return Err(e);
            }
        }
        Ok(plan)
    }
}

impl Drop for Plan {
    fn drop(&mut self) {
        // SAFETY: both were initialized in `Plan::new`.
        unsafe {
            libc::posix_spawn_file_actions_destroy(&mut self.actions);
            libc::posix_spawnattr_destroy(&mut self.attributes);
        }
    }
}

fn check(code: libc::c_int) -> io::Result<()> {
    if code == 0 {
        Ok(())
    } else {
        Err(io::Error::from_raw_os_error(code))
    }
}

/// Starts `program` with `args`, in `cwd` (else the caller's directory), as the leader of a
/// new process group, with `run_var` (`NAME=VALUE`) added to the harness's environment
/// (replacing a variable of that name). A program name without a `/` is looked up in `PATH`.
/// Returns once the program has been `exec`uted, or with the error that prevented it.
pub(crate) fn spawn(
    program: &OsStr,
    args: &[OsString],
    cwd: Option<&Path>,
    stdin: Stdin,
    run_var: &str,
) -> io::Result<Started> {
    let program_c = cstring(program.as_bytes())?;
    let args_c = args
        .iter()
        .map(|a| cstring(a.as_bytes()))
        .collect::<io::Result<Vec<_>>>()?;
    let mut argv: Vec<*mut libc::c_char> = Vec::with_capacity(args_c.len() + 2);
    argv.push(program_c.as_ptr().cast_mut());
    argv.extend(args_c.iter().map(|a| a.as_ptr().cast_mut()));
    argv.push(std::ptr::null_mut());

    let run_var_c = cstring(run_var.as_bytes())?;
    let name_len = run_var.find('=').map_or(run_var.len(), |i| i + 1);
    let name = &run_var.as_bytes()[..name_len];
    let mut envp: Vec<*mut libc::c_char> = Vec::with_capacity(64);
    // SAFETY: `environ` is the process's null-terminated array of NUL-terminated strings. It
    // is read without std's environment lock: changing the environment while another thread
    // reads it is already undefined behaviour (which is why `std::env::set_var` is unsafe),
    // so a caller that keeps `set_var`'s contract leaves it alone while runs are going on.
    // The strings are only pointed to, and only until `posix_spawn` has copied them.
    unsafe {
        let mut entry = libc::environ;
        while !entry.is_null() && !(*entry).is_null() {
            let var = std::ffi::CStr::from_ptr(*entry);
            if !var.to_bytes().starts_with(name) {
                envp.push(*entry);
            }
            entry = entry.add(1);
        }
    }
    envp.push(run_var_c.as_ptr().cast_mut());
    envp.push(std::ptr::null_mut());

    let cwd_c = cwd.map(|d| cstring(d.as_os_str().as_bytes())).transpose()?;
    let stdin_pipe = match stdin {
        Stdin::Pipe => Some(pipe()?),
        Stdin::Null => None,
    };
    let stdout_pipe = pipe()?;
    let stderr_pipe = pipe()?;

    let mut plan = Plan::new()?;
    let dev_null = c"/dev/null";
    // SAFETY: every pointer passed is valid for the call (the plan is initialized, the
    // strings are live locals); the actions run in the child between `vfork` and `exec`.
    unsafe {
        let actions = &mut plan.actions;
        match &stdin_pipe {
            Some((read, _)) => {
                check(libc::posix_spawn_file_actions_adddup2(
                    actions,
                    read.as_raw_fd(),
                    0,
                ))?;
            }
            None => check(libc::posix_spawn_file_actions_addopen(
                actions,
                0,
                dev_null.as_ptr(),
                libc::O_RDONLY,
                0,
            ))?,
        }
        check(libc::posix_spawn_file_actions_adddup2(
            actions,
            stdout_pipe.1.as_raw_fd(),
            1,
        ))?;
        check(libc::posix_spawn_file_actions_adddup2(
            actions,
            stderr_pipe.1.as_raw_fd(),
            2,
        ))?;
        if let Some(dir) = &cwd_c {
            check(libc::posix_spawn_file_actions_addchdir_np(
                actions,
                dir.as_ptr(),
            ))?;
        }

        let attributes = &mut plan.attributes;
        // Its own process group, an empty signal mask, and SIGPIPE back to its default: the
        // Rust runtime ignores SIGPIPE, and an ignored signal stays ignored across `exec`.
        let mut signals: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut signals);
        check(libc::posix_spawnattr_setsigmask(attributes, &signals))?;
        libc::sigaddset(&mut signals, libc::SIGPIPE);
        check(libc::posix_spawnattr_setsigdefault(attributes, &signals))?;
        check(libc::posix_spawnattr_setpgroup(attributes, 0))?;
        let flags = libc::POSIX_SPAWN_SETPGROUP
            | libc::POSIX_SPAWN_SETSIGMASK
            | libc::POSIX_SPAWN_SETSIGDEF;
        check(libc::posix_spawnattr_setflags(
            attributes,
            flags as libc::c_short,
        ))?;

        let mut pid: libc::pid_t = 0;
        let spawn = if program.as_bytes().contains(&b'/') {
            libc::posix_spawn
        } else {
            libc::posix_spawnp
        };
        check(spawn(
            &mut pid,
            program_c.as_ptr(),
            &plan.actions,
            &plan.attributes,
            argv.as_ptr(),
            envp.as_ptr(),
        ))?;
        // The child's ends close here, in the harness: the program holds its own copies.
        Ok(Started {
            pid,
            stdin: stdin_pipe.map(|(_, write)| write),
            stdout: stdout_pipe.0,
            stderr: stderr_pipe.0,
        })
    }
}
