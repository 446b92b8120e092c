//! Containment: what keeps a program under test in its place, chosen once per process
//! ([`arm`], with a [`Policy`]) before the first run, from what the kernel allows.
//!
//! Every mechanism is set up once per worker and reused by its runs, so that containment
//! costs a run almost nothing (creating anything per run would cost a few hundred
//! microseconds, as much as a small case's whole start):
//! - a **cgroup** per spawner (one per worker and role, `cgroup`): the kernel refuses a fork
//!   past the process limit, charges every page (memfd, pipe buffers, tmpfs, shared pages
//!   once) to the memory limit and counts the CPU time of every process, reaped or not;
//! - **namespaces** for the program under test (`keeper`): its own PID namespace (it
//!   cannot signal duipai or read its command line), a read-only view of the file system
//!   that holds only what a run needs (deny by default: the runtime folders, the program and
//!   what its arguments name), its working folder, `/tmp` and `/dev/shm` each a `tmpfs` of
//!   its own bounded by its limits (what it writes is memory, never the machine's disk), no
//!   network;
//! - an **IPC namespace** per worker (the keeper's), **emptied after every run** by the
//!   keeper (`ipc`), as it empties `/tmp` and `/dev/shm`: nothing a run leaves in System V
//!   IPC or POSIX queues reaches the next;
//! - a **system call filter** (`filter`): the keyrings and `AF_VSOCK`, which no namespace
//!   covers, are refused;
//! - as root, a **box uid** per worker, so that the program owns nothing and can signal no
//!   one of duipai's;
//! - always: **no controlling terminal** (given up, not a new session: see `clone`), a
//!   **scratch folder** as its working folder and `HOME`, and an **environment** of a few
//!   allowed variables (`env`).
//!
//! Helpers (the setter's generator, reference, validator, checker and interactor) get their
//! own cgroup and no terminal, and run as duipai's user, in its folder, with its environment;
//! with [`Policy::helpers`] (a package's helpers, which are not the user's own) they run as
//! the program under test does: in namespaces of their own, as root under a box uid, in a
//! scratch folder, with the allowed environment, seeing their own files and, read-only, the
//! files they are given (a checker's input, output and answer), and writing only their
//! scratch folder and the folder of what they write back (`files`).
//!
//! Where a mechanism is not available the runs go on without it, and [`arm`] returns one
//! [`Missing`] per protection lost, with how to get it; with [`Mode::Strict`] (`--sandbox`)
//! the caller refuses to run instead. The library's default is [`Mode::Off`]: the runner as
//! it was, for embedders that did not ask for containment.

pub(crate) mod cgroup;
mod env;
pub(crate) mod files;
pub(crate) mod filter;
pub(crate) mod ipc;
pub(crate) mod keeper;
pub(crate) mod probed;
pub(crate) mod view;

use std::sync::OnceLock;

pub(crate) use super::policy::policy;
pub use super::policy::{Missing, Mode, Policy, Role, check_entry};
pub(crate) use env::environment;
pub use files::{HelperFiles, remove_all as remove_helper_files, with_helper_files};

/// Whether runs are contained at all.
pub(crate) fn contained() -> bool {
    policy().mode != Mode::Off
}

/// Sets the policy of this process, before its first run, and finds out what the kernel
/// allows: the protections missing here (none with [`Mode::Off`]). A second call keeps the
/// first policy (a command run again by `--watch` asks again) and reports the same.
pub fn arm(policy: Policy) -> Vec<Missing> {
    super::policy::set(policy);
    if !contained() {
        return Vec::new();
    }
    let mut missing = Vec::new();
    if let Err(why) = namespaces_here() {
        missing.push(Missing {
            protection: "namespaces for the program",
            why: why.clone(),
            risk: "it can signal duipai, read its command line, see the current folder and \
                   the tests, and use the network",
            how: namespace_hint(),
        });
    }
    if let Err(why) = cgroups() {
        missing.push(Missing {
            protection: "cgroup for the runs",
            why: why.clone(),
            risk: "a fork bomb, memory in pipes, memfds or /dev/shm, and CPU time in \
                   short-lived children can escape the limits",
            how: cgroup_hint(),
        });
    }
    missing
}

/// The cgroups of this process's runs, found once: `Err` says why there are none.
pub(crate) fn cgroups() -> Result<&'static cgroup::Tree, &'static String> {
    static TREE: OnceLock<Result<cgroup::Tree, String>> = OnceLock::new();
    TREE.get_or_init(cgroup::Tree::find).as_ref()
}

/// The cgroups of the runs of a contained process, if it has them.
pub(crate) fn tree() -> Option<&'static cgroup::Tree> {
    if contained() { cgroups().ok() } else { None }
}

/// Whether helpers run in namespaces of their own, as the program under test does: asked
/// ([`Policy::helpers`]) and had here.
pub(crate) fn helpers_boxed() -> bool {
    policy().helpers && namespaces().is_some()
}

/// Whether this process is root (runs programs as box uids, needs no user namespace).
pub(crate) fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// Whether namespaces can be had for the program here, whatever the policy, probed now
/// rather than taken from an earlier process: `Err` says why not (for `duipai doctor`).
pub(crate) fn namespaces_available() -> Result<(), String> {
    probe()
}

/// Whether namespaces can be had for the program (in a user namespace unless root), found
/// once: by an earlier process's success in the same circumstances ([`probed`]), else by
/// starting a throwaway keeper. `Err` says why not.
fn namespaces_here() -> Result<(), &'static String> {
    static PROBED: OnceLock<Result<(), String>> = OnceLock::new();
    PROBED
        .get_or_init(|| {
            if probed::succeeded_before(!is_root()) {
                return Ok(());
            }
            probe()
        })
        .as_ref()
        .map(|_| ())
}

/// Starts a throwaway keeper; its success is kept for the next processes.
fn probe() -> Result<(), String> {
    let userns = !is_root();
    let probed = keeper::probe(userns);
    if probed.is_ok() {
        probed::remember(userns);
    }
    probed
}

/// Whether the program under test runs in namespaces (a keeper's), and then whether in a
/// user namespace.
pub(crate) fn namespaces() -> Option<bool> {
    (contained() && namespaces_here().is_ok()).then(|| !is_root())
}

/// How to get namespaces: as root, a kernel that allows them; as another user, unprivileged
/// user namespaces.
fn namespace_hint() -> String {
    if is_root() {
        "run duipai where namespaces may be made (a container needs CAP_SYS_ADMIN, e.g. \
         docker run --privileged)"
            .to_string()
    } else {
        "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, or \
         kernel.apparmor_restrict_unprivileged_userns=0), or run duipai as root"
            .to_string()
    }
}

/// A box uid and gid for a new program slot, when duipai is root and the program runs in
/// namespaces (outside them a box uid could not even reach the program's files): one per
/// slot, from a range no user account uses (2^31 and up), told apart between duipai
/// processes by their pid.
pub(crate) fn box_ids() -> Option<(u32, u32)> {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(0);
    if !is_root() || namespaces().is_none() {
        return None;
    }
    let n = NEXT.fetch_add(1, Ordering::Relaxed) % BOXES_PER_PROCESS;
    let id = BOX_BASE + (std::process::id() % (1 << 22)) * BOXES_PER_PROCESS + n;
    Some((id, id))
}

/// The first box uid, and how many each duipai process has.
pub const BOX_BASE: u32 = 1 << 31;
pub const BOXES_PER_PROCESS: u32 = 64;

/// How to get cgroups: as root, a hierarchy with the memory and pids controllers; as
/// another user, a delegated systemd scope.
fn cgroup_hint() -> String {
    if is_root() {
        "mount the cgroup v2 hierarchy with the memory and pids controllers (or cgroup v1's \
         memory, pids and cpuacct)"
            .to_string()
    } else {
        "run duipai in a delegated cgroup: systemd-run --user --scope -p Delegate=yes duipai …"
            .to_string()
    }
}
