//! The spawner's side: a copy of the harness's executable started again with
//! [`TRIGGER`] in its environment turns into a spawner before `main`, from a constructor
//! ([`HOOK`]), so that any executable built with this library (the `duipai` binary, a test
//! binary) can be its own spawner. It sheds what it can of its resident set, greets the
//! harness, then starts one program per request until the harness closes the socket (or
//! dies). A spawner that lives in a slot (a cgroup, see `contain::cgroup`) then kills what
//! is left there, leaves it and removes it: nothing of its runs outlives the harness, even
//! one killed with `SIGKILL`.

use std::ffi::c_int;
use std::os::fd::{IntoRawFd, RawFd};

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;

use super::wire;
use crate::run::clone::{self, ChildSetup, Failed, Stage};
use crate::run::contain::cgroup::{self, Slot};
use crate::run::contain::keeper;

/// The environment variable that makes an executable a spawner; its value is the socket's
/// descriptor number.
pub(super) const TRIGGER: &str = "DUIPAI_SPAWNER";

/// The socket's descriptor in a spawner.
pub(super) const SOCKET_FD: RawFd = 3;

/// The variable that names the keeper whose namespaces a spawner joins (its pid), and the
/// one that says they include a user namespace.
pub(super) const JOIN: &str = "DUIPAI_JOIN";
pub(super) const JOIN_USER: &str = "DUIPAI_JOIN_USER";

/// Joins the namespaces of the keeper the environment names, if it names one: the programs
/// this spawner starts are then born in them. Before anything reads `/proc` (once in the
/// keeper's mount namespace, `/proc` is the keeper's, where this spawner has no pid).
fn join_namespaces() -> std::io::Result<()> {
    let Some(pid) = std::env::var(JOIN).ok().and_then(|p| p.parse().ok()) else {
        return Ok(());
    };
    let userns = std::env::var_os(JOIN_USER).is_some();
    // Every file first: the mount namespace changes what `/proc` is.
    let files = keeper::namespace_files(pid, userns)
        .into_iter()
        .map(|(path, flag)| Ok((std::fs::File::open(path)?, flag)))
        .collect::<std::io::Result<Vec<_>>>()?;
    for (file, flag) in files {
        use std::os::fd::AsRawFd;
        // SAFETY: setns with a namespace descriptor of ours, in a single-threaded process.
        if unsafe { libc::setns(file.as_raw_fd(), flag) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// The variables that name a spawner's slot: its folders, the folders they are in, and
/// duipai's own cgroups to return to, each a `:`-separated list of paths.
const SLOT_VARS: [&str; 3] = ["DUIPAI_SLOT", "DUIPAI_SLOT_BASES", "DUIPAI_SLOT_HOMES"];

/// The environment entries that tell a spawner its slot (see [`SLOT_VARS`]).
pub(super) fn slot_env(slot: &Slot) -> std::io::Result<Vec<CString>> {
    let (dirs, bases, homes) = slot.paths();
    [dirs, bases, homes]
        .iter()
        .zip(SLOT_VARS)
        .map(|(paths, name)| {
            let mut entry = format!("{name}=").into_bytes();
            for (i, path) in paths.iter().enumerate() {
                let bytes = path.as_os_str().as_bytes();
                if bytes.contains(&b':') {
                    return Err(std::io::Error::other("a cgroup path holds a `:`"));
                }
                if i > 0 {
                    entry.push(b':');
                }
                entry.extend_from_slice(bytes);
            }
            CString::new(entry).map_err(std::io::Error::other)
        })
        .collect()
}

/// This spawner's slot, from its environment: its folders, their parents, and the cgroups
/// to return to.
fn slot_from_env() -> Option<[Vec<PathBuf>; 3]> {
    let read = |name: &str| -> Option<Vec<PathBuf>> {
        let value = std::env::var_os(name)?;
        Some(
            value
                .as_bytes()
                .split(|&b| b == b':')
                .map(|p| PathBuf::from(std::ffi::OsStr::from_bytes(p)))
                .collect(),
        )
    };
    Some([
        read(SLOT_VARS[0])?,
        read(SLOT_VARS[1])?,
        read(SLOT_VARS[2])?,
    ])
}

/// The end of a spawner that lives in a slot: kills what is left there (the harness is gone,
/// or gave up on this spawner), moves itself back to duipai's own cgroups, and removes the
/// slot.
fn leave_slot([dirs, bases, homes]: &[Vec<PathBuf>; 3]) {
    // SAFETY: getpid has no preconditions.
    let me = unsafe { libc::getpid() };
    if let Some(dir) = dirs.first() {
        cgroup::kill_all_in(dir, Some(me));
    }
    for home in homes {
        let _ = std::fs::write(home.join("cgroup.procs"), "0");
    }
    let _ = cgroup::remove_slot_dirs(bases, dirs);
}

/// The signals a spawner ignores (an interrupt is for the harness, which stops its runs
/// cleanly), and so puts back to their default action in every program it starts.
const IGNORED: [c_int; 4] = [libc::SIGINT, libc::SIGHUP, libc::SIGTERM, libc::SIGPIPE];

/// Run by the C runtime before `main` in every executable that links this module (the
/// harness refers to it, so that the linker keeps it): a spawner serves and never returns;
/// any other process returns at once.
#[used]
#[unsafe(link_section = ".init_array")]
pub(super) static HOOK: extern "C" fn() = hook;

extern "C" fn hook() {
    // SAFETY: getenv with a NUL-terminated name, before any thread of this process exists.
    let value = unsafe { libc::getenv(c"DUIPAI_SPAWNER".as_ptr()) };
    if value.is_null() {
        return;
    }
    // SAFETY: getenv returned a NUL-terminated string.
    let value = unsafe { std::ffi::CStr::from_ptr(value) };
    if value.to_bytes() != b"3" || !is_seqpacket(SOCKET_FD) {
        return;
    }
    serve(SOCKET_FD)
}

fn is_seqpacket(fd: RawFd) -> bool {
    let mut kind: c_int = 0;
    let mut len = std::mem::size_of::<c_int>() as libc::socklen_t;
    // SAFETY: getsockopt writes an int into a valid pointer with its length.
    let r = unsafe {
        libc::getsockopt(
            fd,
            libc::SOL_SOCKET,
            libc::SO_TYPE,
            (&raw mut kind).cast(),
            &mut len,
        )
    };
    r == 0 && kind == libc::SOCK_SEQPACKET
}

/// The spawner's life: prepare, greet, then one program per request; exits when the harness
/// closes its end (or dies).
fn serve(socket: RawFd) -> ! {
    settle(socket);
    // Built before the resident set is shed: every program's figure starts at this
    // process's resident size.
    let filter = crate::run::contain::filter::program_filter();
    shed_resident_set();
    // The machine's root, kept before the spawner joins a keeper's mount namespace (where
    // the cgroup file system is read-only): its slot is left through it.
    // SAFETY: a NUL-terminated path; open returns a new descriptor or -1.
    let host_root = unsafe {
        libc::open(
            c"/".as_ptr(),
            libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC,
        )
    };
    if join_namespaces().is_err() {
        exit(1);
    }
    // The CPUs this spawner may run on as it starts (the harness's): the programs get them
    // back, whichever CPU the harness pins the spawner to meanwhile.
    let allowed = current_affinity();
    let serving = Serving {
        affinity: allowed
            .as_ref()
            .map_or(std::ptr::null(), |a| a as *const libc::cpu_set_t),
        filter,
    };
    // SAFETY: getpid has no preconditions.
    let hello = wire::encode_hello(unsafe { libc::getpid() });
    if !send(socket, &hello) {
        exit(1);
    }
    let slot = slot_from_env();
    let end = || -> ! {
        if let Some(slot) = &slot {
            leave_slot_from(slot, host_root);
        }
        exit(0)
    };
    let mut buf = vec![0u8; wire::MAX_REQUEST];
    loop {
        let Some((len, fds, complete)) = receive(socket, &mut buf) else {
            end();
        };
        let reply = answer(&buf[..len], fds, complete, &serving);
        if !send(socket, &reply) {
            end();
        }
    }
}

/// What every request is served with: the CPUs a program gets, and the filter a contained
/// program installs.
struct Serving {
    affinity: *const libc::cpu_set_t,
    filter: *const libc::sock_fprog,
}

/// The socket closed on `exec`, the signals the harness ignores ignored, none blocked.
fn settle(socket: RawFd) {
    // SAFETY: plain system calls on this process's own descriptor and signal dispositions.
    unsafe {
        // The programs must not inherit the socket.
        libc::fcntl(socket, libc::F_SETFD, libc::FD_CLOEXEC);
        let mut ignore: libc::sigaction = std::mem::zeroed();
        ignore.sa_sigaction = libc::SIG_IGN;
        for signal in IGNORED {
            libc::sigaction(signal, &ignore, std::ptr::null_mut());
        }
        let mut none: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut none);
        libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
    }
}

/// The CPUs this process may run on, when the system says.
pub(super) fn current_affinity() -> Option<libc::cpu_set_t> {
    // SAFETY: a zeroed cpu_set_t is a valid out-parameter of its size.
    let mut allowed: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    let size = std::mem::size_of::<libc::cpu_set_t>();
    // SAFETY: sched_getaffinity writes a set of `size` bytes into a local of that size.
    (unsafe { libc::sched_getaffinity(0, size, &mut allowed) } == 0).then_some(allowed)
}

/// Leaves the slot by paths relative to the machine's root, from there, whichever mount
/// namespace the spawner is in; by the paths as they are when that root cannot be entered.
fn leave_slot_from(slot: &[Vec<PathBuf>; 3], host_root: RawFd) {
    // SAFETY: fchdir to a descriptor of ours.
    if host_root >= 0 && unsafe { libc::fchdir(host_root) } == 0 {
        leave_slot(&slot.clone().map(|paths| {
            paths
                .iter()
                .map(|p| p.strip_prefix("/").unwrap_or(p).to_path_buf())
                .collect()
        }));
    } else {
        leave_slot(slot);
    }
}

/// Starts the program of one request (its three descriptors received with it, closed here)
/// and the reply saying how that went.
fn answer(
    request: &[u8],
    fds: Vec<RawFd>,
    complete: bool,
    serving: &Serving,
) -> [u8; wire::REPLY_LEN] {
    let result = match (complete && fds.len() == 3)
        .then(|| wire::decode_request(request))
        .flatten()
    {
        Some(request) => start(&request, [fds[0], fds[1], fds[2]], serving),
        None => Err(Failed {
            pid: -1,
            stage: Stage::Request,
            errno: libc::E2BIG,
        }),
    };
    // The program's wall clock starts here, where its `exec` returned, not when the
    // harness gets to read the reply (it may share its CPU with the program by then).
    let started = if result.is_ok() {
        clone::monotonic_ns()
    } else {
        0
    };
    for fd in fds {
        // SAFETY: descriptors received with the request, owned by nobody else here.
        unsafe { libc::close(fd) };
    }
    wire::encode_reply(result, started)
}

fn exit(code: c_int) -> ! {
    // SAFETY: _exit ends the process without running anything of the harness's.
    unsafe { libc::_exit(code) }
}

/// Starts one program: the request's plan, cloned with `CLONE_PARENT`, so that the program
/// is the harness's child (the harness reaps it, gets its resource usage, and is the
/// subreaper of what it orphans) while its address space at `exec` is this small process's.
/// The program gets the CPUs of `serving` (if any).
fn start(request: &wire::Request, streams: [RawFd; 3], serving: &Serving) -> Result<i32, Failed> {
    let setup = request.setup;
    let mut plan = ChildSetup {
        candidates: request.candidates.as_ptr(),
        argv: request.argv.as_ptr(),
        envp: request.envp.as_ptr(),
        cwd: request.cwd,
        streams,
        extra: -1,
        rlimits: request.rlimits.as_ptr(),
        rlimits_len: request.rlimits.len(),
        signals: IGNORED.as_ptr(),
        signals_len: IGNORED.len(),
        affinity: serving.affinity,
        setup,
        cgroup_procs: [-1; clone::MAX_HIERARCHIES],
        filter: if setup.filter {
            serving.filter
        } else {
            std::ptr::null()
        },
        failed: Stage::None,
        errno: 0,
    };
    clone::launch(&mut plan, libc::CLONE_PARENT)
}

fn send(socket: RawFd, bytes: &[u8]) -> bool {
    super::send_with_fds(socket, bytes, &[]).is_ok()
}

/// Receives one request into `buf`: its length, the descriptors that came with it
/// (close-on-exec), and whether it arrived whole. `None` at the end of the connection.
fn receive(socket: RawFd, buf: &mut [u8]) -> Option<(usize, Vec<RawFd>, bool)> {
    const MAX_FDS: usize = 4;
    let (len, fds, complete) = super::recv_with_fds(socket, buf, MAX_FDS).ok()?;
    let fds = fds.into_iter().map(IntoRawFd::into_raw_fd).collect();
    Some((len, fds, complete))
}

/// Makes this process's resident set, and with it its recorded peak, smaller: every
/// program's `ru_maxrss` starts at the resident size of the address space it was `exec`uted
/// from, this one's. The file-backed mappings no page of which was ever written (the
/// executable's and the libraries' code and constants, all that the dynamic loader and the
/// start-up touched) are dropped from the page tables, then the peak is reset to what is left
/// (`/proc/self/clear_refs`, value 5). Pages that were written (relocated data), the heap and
/// the stack stay, and the code the spawner runs comes back from the page cache, 64 KiB
/// around each page it faults in: about 1.7 MiB in all after the first requests, where the
/// start-up left 2.1 MiB. Best effort: without these files the figures start at the latter.
fn shed_resident_set() {
    let Ok(smaps) = std::fs::read("/proc/self/smaps") else {
        return;
    };
    let ranges = untouched_file_mappings(&smaps);
    drop(smaps);
    for (start, end) in ranges {
        // SAFETY: the range is a whole mapping of this process whose pages all still match
        // their file (none was written), so dropping them changes no content; nothing else
        // runs in this process meanwhile.
        unsafe { libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_DONTNEED) };
    }
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// The address ranges of the file-backed mappings in `smaps` without anonymous pages.
/// Byte by line, without decoding: the spawner's start reads this file once, and in a build
/// without optimization a parse by `str` iterators took most of the start's own CPU.
fn untouched_file_mappings(smaps: &[u8]) -> Vec<(usize, usize)> {
    let mut ranges = Vec::new();
    let mut current: Option<(usize, usize)> = None;
    let mut rest = smaps;
    while !rest.is_empty() {
        let end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
        let line = &rest[..end];
        rest = rest.get(end + 1..).unwrap_or_default();
        if let Some(kib) = line.strip_prefix(b"Anonymous:") {
            let anonymous = kib.iter().any(|b| (b'1'..=b'9').contains(b));
            if let Some(range) = current.take()
                && !anonymous
            {
                ranges.push(range);
            }
            continue;
        }
        // A header line (the only ones that start with a lowercase hex digit: the fields'
        // names start with a capital): a new mapping. Only file-backed ones qualify.
        if line
            .first()
            .is_some_and(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(b))
        {
            current = file_mapping(line);
        }
    }
    ranges
}

/// The address range of a mapping's header line in `smaps`, if it maps a file (an inode
/// other than 0, not a `[name]` of the kernel's).
fn file_mapping(line: &[u8]) -> Option<(usize, usize)> {
    let mut fields = line.split(|b| *b == b' ').filter(|f| !f.is_empty());
    let range = fields.next()?;
    let inode = fields.nth(3)?;
    if inode == b"0" || memchr::memchr(b'[', line).is_some() {
        return None;
    }
    let dash = memchr::memchr(b'-', range)?;
    let hex = |digits: &[u8]| usize::from_str_radix(std::str::from_utf8(digits).ok()?, 16).ok();
    Some((hex(&range[..dash])?, hex(&range[dash + 1..])?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_file_mappings_without_anonymous_pages_are_shed() {
        let smaps = "\
1000-3000 r-xp 00000000 08:01 42                         /usr/lib/libc.so.6
Size:                  8 kB
Anonymous:             0 kB
AnonHugePages:         0 kB
VmFlags: rd ex mr mw me sd
3000-4000 rw-p 00002000 08:01 42 /usr/lib/libc.so.6
Anonymous:            40 kB
4000-5000 rw-p 00000000 00:00 0
Anonymous:             0 kB
7000-8000 r--p 00000000 00:00 0 [vvar]
Anonymous:             0 kB
9000-a000 r--p 00000000 08:01 7 /usr/bin/duipai
Anonymous:             0 kB
b000-c000 r--p 00001000 08:01 7 /usr/bin/duipai
Anonymous:             4 kB
d000-e000 r--p 00002000 08:01 7 /usr/bin/duipai
Anonymous:             0 kB";
        assert_eq!(
            untouched_file_mappings(smaps.as_bytes()),
            [(0x1000, 0x3000), (0x9000, 0xa000), (0xd000, 0xe000)]
        );
    }
}
