//! Starting the program: a Python helper forked from its warm interpreter (see `warm`) when
//! it can be; else by a spawner process (see `spawner`) when one can be had, so that its
//! peak resident memory (`ru_maxrss`) counts from its own start; otherwise here, in the
//! harness ([`launch_here`]), where it counts from the harness's own peak. Either way the
//! program is cloned and set up by `clone`; here it gets its standard streams (pipes, or
//! `/dev/null` for stdin), and a start that failed becomes an `io::Error` that says at what.

use std::ffi::{OsStr, OsString, c_int};
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::time::Instant;

use super::clone::{
    Program, Rlimit, Setup, Stage, candidates, cstring, dev_null, launch_here, pipe,
};
use super::contain::Role;
use super::contain::view::View;
use super::spawner;

/// Where the program's stdin comes from.
#[derive(Clone, Copy, Debug)]
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
    /// A copy of the program's end of its stdin pipe, kept so that what the program left
    /// unread is still in the pipe when it ends ([`super::pipes::read_to_the_end`]).
    pub stdin_read: Option<OwnedFd>,
    pub stdout: OwnedFd,
    pub stderr: OwnedFd,
    /// Whether the program's `ru_maxrss` counts from its own start (a spawner started it),
    /// rather than from the harness's peak resident size.
    pub maxrss_from_start: bool,
    /// When its `exec` returned, in the process that started it.
    pub start: Instant,
    /// The spawner that started it, lent to its run (with its slot), if one did.
    pub lease: Option<spawner::Lease>,
    /// Where its working folder's files are, when elsewhere than the folder itself (see
    /// `Scratch::files_at`).
    pub scratch_at: Option<std::path::PathBuf>,
}

/// How a program is to be started besides its command line: as whose (`role`, which picks
/// its spawner), in `cwd` (else the caller's directory), with the environment `env`, set up
/// as `setup` says, under `rlimits` (set in order, before `exec`) and, in a slot, its
/// process and memory limits (`slot_limits`).
pub(crate) struct Launch<'a> {
    pub role: Role,
    /// For the program under test in namespaces: what it sees there.
    pub view: Option<&'a View>,
    pub slot_limits: (u64, u64),
    pub cwd: Option<&'a Path>,
    pub stdin: Stdin,
    /// A file written into its working folder before it starts (file I/O's input): there
    /// where the program sees it, which for a program in namespaces is their own `tmpfs`.
    pub input_file: Option<(&'a str, &'a [u8])>,
    pub env: Vec<std::ffi::CString>,
    pub setup: Setup,
    pub rlimits: &'a [Rlimit],
}

/// Starts `program` with `args` as `how` says, as the leader of a new process group (or
/// session). A program name without a `/` is looked up in `PATH`. Returns once the program
/// has been `exec`uted, or with the error that prevented it.
pub(crate) fn spawn(program: &OsStr, args: &[OsString], mut how: Launch) -> io::Result<Started> {
    let request = request_of(program, args, &mut how)?;
    let (stdin_read, stdin_write) = match how.stdin {
        Stdin::Pipe => {
            let (read, write) = pipe()?;
            (read, Some(write))
        }
        Stdin::Null => (dev_null()?, None),
    };
    let stdout_pipe = pipe()?;
    let stderr_pipe = pipe()?;
    let streams = [
        stdin_read.as_raw_fd(),
        stdout_pipe.1.as_raw_fd(),
        stderr_pipe.1.as_raw_fd(),
    ];
    let (launched, maxrss_from_start) = start(&how, &request, streams)?;
    let (pid, start, lease, scratch_at) = launched.map_err(failed_to_io)?;
    // The child's ends close here, in the harness: the program holds its own copies; the
    // read end of a stdin pipe is kept (see `Started::stdin_read`).
    let stdin_read = stdin_write.is_some().then_some(stdin_read);
    Ok(Started {
        pid,
        stdin: stdin_write,
        stdin_read,
        stdout: stdout_pipe.0,
        stderr: stderr_pipe.0,
        maxrss_from_start,
        start,
        lease,
        scratch_at,
    })
}

/// What the process that starts the program is asked: the candidates for its executable,
/// its command line, folder, environment (taken from `how`), rlimits and set-up.
fn request_of<'a>(
    program: &OsStr,
    args: &[OsString],
    how: &mut Launch<'a>,
) -> io::Result<Program<'a>> {
    let mut argv = Vec::with_capacity(args.len() + 1);
    argv.push(cstring(program.as_bytes())?);
    for arg in args {
        argv.push(cstring(arg.as_bytes())?);
    }
    // In its namespaces the program is started by its resolved path, which its view shows.
    let candidates = match how.view {
        Some(view) => vec![cstring(view.program.as_os_str().as_bytes())?],
        None => candidates(program)?,
    };
    Ok(Program {
        candidates,
        argv,
        env: std::mem::take(&mut how.env),
        cwd: how
            .cwd
            .map(|d| cstring(d.as_os_str().as_bytes()))
            .transpose()?,
        rlimits: how.rlimits,
        setup: how.setup,
    })
}

/// A program started, or where its start failed: its pid, when it started, its spawner and
/// where its working folder's files are.
type Launched = Result<
    (
        i32,
        Instant,
        Option<spawner::Lease>,
        Option<std::path::PathBuf>,
    ),
    super::clone::Failed,
>;

/// Starts the program with `streams`: forked from a warm interpreter, else by a spawner, else
/// (unless it must be contained) here; with whether its `ru_maxrss` counts from its start.
/// `Err` when it is to be contained and cannot be.
fn start(how: &Launch, request: &Program, streams: [c_int; 3]) -> io::Result<(Launched, bool)> {
    let input = how.input_file.zip(how.cwd);
    // A helper with a file to find in its folder first starts as usual, which writes it.
    // A helper in namespaces of its own (a package's) is never a warm interpreter's, which
    // runs outside them.
    if input.is_none()
        && how.view.is_none()
        && let Some(warm) = super::warm::launch(how.role, request, streams, how.slot_limits)
    {
        return Ok((Ok((warm.pid, warm.start, warm.lease, None)), true));
    }
    let launched = spawner::launch(how.role, how.view, request, streams, how.slot_limits, input);
    match launched {
        Some(launched) => Ok((
            launched.map(|l| (l.pid, l.start, Some(l.lease), l.scratch_at)),
            true,
        )),
        // A run that is to be contained (the program under test, a package's helper) is
        // never started outside its namespaces, as duipai's user: that would give it the
        // host's files and, as root, root's powers, with nothing said.
        None if how.view.is_some() => Err(uncontained(how.role)),
        None => Ok((
            spawner::write_input(input, None)
                .and_then(|()| launch_here(request, streams, -1, &[]))
                .map(|pid| (pid, Instant::now(), None, None)),
            false,
        )),
    }
}

/// The error of a run of `role` that is to be contained and cannot be: why, and how to run
/// it without.
fn uncontained(role: Role) -> io::Error {
    let why =
        spawner::last_failure().unwrap_or_else(|| "spawners are unavailable here".to_string());
    let opt_out = match role {
        Role::Helper => "--unboxed-helpers runs it as your own helpers run",
        Role::Program => "--no-sandbox runs it as duipai's own child",
    };
    io::Error::other(format!(
        "cannot start it contained (no spawner with its namespaces could be started: {why}); \
         {opt_out}"
    ))
}

/// The error of a start that failed, saying at what step (reaping the child if it was
/// made).
fn failed_to_io(failed: super::clone::Failed) -> io::Error {
    if failed.pid > 0 {
        reap(failed.pid);
    }
    let os = io::Error::from_raw_os_error(failed.errno);
    match failed.stage {
        Stage::Exec => os,
        stage => io::Error::new(os.kind(), format!("{}: {os}", stage_name(stage))),
    }
}

fn stage_name(stage: Stage) -> &'static str {
    match stage {
        Stage::None | Stage::Exec => "cannot execute it",
        Stage::ProcessGroup => "cannot give it its own process group",
        Stage::Cgroup => "cannot move it into its cgroup",
        Stage::Credentials => "cannot drop its privileges to its box uid",
        Stage::Rlimit => "cannot set its resource limits",
        Stage::Streams => "cannot connect its standard streams",
        Stage::Directory => "cannot enter its working directory",
        Stage::Signals => "cannot reset its signals",
        Stage::Filter => "cannot refuse it the system calls no namespace covers (seccomp)",
        Stage::Input => "cannot write its input file",
        Stage::Clone | Stage::Request => "cannot start a process",
    }
}

/// Reaps a child that failed before `exec` (it has exited already).
fn reap(pid: c_int) {
    let mut status = 0;
    // SAFETY: waits for our own child; the status goes to a local.
    while unsafe { libc::waitpid(pid, &mut status, 0) } < 0
        && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted
    {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    /// How the tests start a program: from the harness's environment, and the variable
    /// `DUIPAI_SPAWN_TEST=7`.
    fn how(rlimits: &[Rlimit]) -> Launch<'_> {
        Launch {
            role: Role::Program,
            view: None,
            slot_limits: (64, 256 << 20),
            cwd: None,
            stdin: Stdin::Null,
            input_file: None,
            env: crate::run::contain::environment(
                Role::Program,
                false,
                None,
                Some("DUIPAI_SPAWN_TEST=7"),
                &[],
            ),
            setup: Setup::default(),
            rlimits,
        }
    }

    fn run(program: &str, args: &[&str], rlimits: &[Rlimit]) -> io::Result<(Vec<u8>, i32)> {
        let args: Vec<OsString> = args.iter().map(OsString::from).collect();
        let started = spawn(OsStr::new(program), &args, how(rlimits))?;
        let mut out = Vec::new();
        std::fs::File::from(started.stdout).read_to_end(&mut out)?;
        let mut status = 0;
        // SAFETY: our own child, status to a local.
        unsafe { libc::waitpid(started.pid, &mut status, 0) };
        Ok((out, status))
    }

    /// A spawner starts the program, yet the program is the harness's own child (the harness
    /// reaps it and is the subreaper of what it orphans), and its `ru_maxrss` counts from its
    /// own start.
    #[test]
    fn the_program_is_the_harness_s_child_measured_from_its_start() {
        let started = spawn(
            OsStr::new("cat"),
            &[OsString::from("/proc/self/stat")],
            how(&[]),
        )
        .expect("cat starts");
        assert!(started.maxrss_from_start, "started without a spawner");
        let mut out = String::new();
        std::fs::File::from(started.stdout)
            .read_to_string(&mut out)
            .unwrap();
        let ppid = out
            .rsplit(')')
            .next()
            .and_then(|rest| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse::<i32>().ok());
        // SAFETY: getpid has no preconditions.
        assert_eq!(ppid, Some(unsafe { libc::getpid() }), "{out}");
        let mut status = 0;
        // SAFETY: a zeroed rusage is a valid out-parameter; our own child.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: valid pointers to locals.
        let reaped = unsafe { libc::wait4(started.pid, &mut status, 0, &mut usage) };
        assert_eq!(reaped, started.pid);
        // `cat` is far smaller than this test process.
        let peak = usage.ru_maxrss as u64 * 1024;
        assert!(peak > 0 && peak < 8 << 20, "ru_maxrss {peak}");
    }

    #[test]
    fn a_missing_program_is_not_found() {
        let err = run("/nonexistent/duipai-test", &[], &[]).expect_err("an error");
        assert_eq!(err.kind(), io::ErrorKind::NotFound);
        let err = run("duipai-no-such-program-anywhere", &[], &[]).expect_err("an error");
        assert_eq!(err.kind(), io::ErrorKind::NotFound);
    }

    #[test]
    fn a_directory_cannot_be_executed() {
        let err = run("/tmp", &[], &[]).expect_err("an error");
        assert_eq!(err.kind(), io::ErrorKind::PermissionDenied);
    }

    #[test]
    fn names_are_looked_up_in_path_and_get_the_run_variable() {
        let (out, status) = run("sh", &["-c", "echo $DUIPAI_SPAWN_TEST"], &[]).expect("sh runs");
        assert_eq!(out, b"7\n");
        assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0);
    }

    /// The spawner is pinned to the CPU of the thread that asks it (see `spawner`), but the
    /// program may run on every CPU the harness may, from whichever CPU it is started.
    #[test]
    fn the_program_is_not_pinned_to_the_spawner_s_cpu() {
        let allowed = |status: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
                .map(|v| v.trim().to_owned())
        };
        let own = std::fs::read_to_string("/proc/self/status").unwrap();
        for _ in 0..3 {
            let (out, _) = run("cat", &["/proc/self/status"], &[]).expect("cat runs");
            let text = String::from_utf8(out).unwrap();
            assert!(allowed(&text).is_some(), "{text}");
            assert_eq!(allowed(&text), allowed(&own), "{text}");
        }
    }

    #[test]
    fn the_program_leads_its_own_group_with_an_empty_signal_mask() {
        // `cat` reads its own figures: a shell would show its own mask, which it changes
        // while it waits for a command.
        let (out, _) =
            run("cat", &["/proc/self/stat", "/proc/self/status"], &[]).expect("cat runs");
        let text = String::from_utf8(out).unwrap();
        let stat: Vec<&str> = text.split_whitespace().collect();
        // pid (cat) state ppid pgrp
        assert_eq!(stat.get(1), Some(&"(cat)"), "{text}");
        assert_eq!(stat.first(), stat.get(4), "{text}");
        assert!(text.contains("SigBlk:\t0000000000000000"), "{text}");
        let ignored = text
            .lines()
            .find_map(|l| l.strip_prefix("SigIgn:\t"))
            .expect("a SigIgn line");
        let ignored = u64::from_str_radix(ignored.trim(), 16).unwrap();
        assert_eq!(
            ignored & (1 << (libc::SIGPIPE - 1)),
            0,
            "SIGPIPE is not ignored"
        );
    }

    #[test]
    fn rlimits_hold_from_the_first_instruction_also_in_a_child_forked_at_once() {
        // A stack limit shows in `ulimit -s` (KiB) of the shell itself, and the tag-like
        // RTTIME value in a `cat` the shell forks right away.
        let rlimits = [
            Rlimit {
                resource: libc::RLIMIT_STACK,
                limit: libc::rlimit {
                    rlim_cur: 32 << 20,
                    rlim_max: 32 << 20,
                },
                required: true,
            },
            Rlimit {
                resource: libc::RLIMIT_RTTIME,
                limit: libc::rlimit {
                    rlim_cur: 123_456_789,
                    rlim_max: 123_456_789,
                },
                required: false,
            },
        ];
        let (out, _) =
            run("sh", &["-c", "ulimit -s; cat /proc/self/limits"], &rlimits).expect("sh runs");
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("32768\n"), "{text}");
        let rttime = text
            .lines()
            .find(|l| l.starts_with("Max realtime timeout"))
            .expect("a realtime timeout line");
        assert!(rttime.contains("123456789"), "{text}");
    }

    #[test]
    fn an_rlimit_that_cannot_be_set_fails_the_start_when_required() {
        // A soft limit above the hard one is invalid for everybody.
        let invalid = libc::rlimit {
            rlim_cur: 2 << 20,
            rlim_max: 1 << 20,
        };
        let required = Rlimit {
            resource: libc::RLIMIT_FSIZE,
            limit: invalid,
            required: true,
        };
        let err = run("true", &[], &[required]).expect_err("an error");
        assert!(err.to_string().contains("resource limits"), "{err}");
        let optional = Rlimit {
            required: false,
            ..required
        };
        let (_, status) = run("true", &[], &[optional]).expect("best effort only");
        assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0);
    }
}
