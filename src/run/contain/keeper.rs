//! Namespaces for the program under test, made once per worker and held by a **keeper**: a
//! small process (duipai's own executable again, [`HOOK`]) that is the first process of a
//! new PID namespace, with its own mount (the [`View`]), IPC, UTS and network namespaces,
//! and a user namespace when duipai is not root. The spawner of the worker's program slot
//! joins them (`setns`, see `spawner::serve`), so that every program it starts is born in
//! them, still duipai's child (it waits for it and gets its resource usage as before).
//!
//! In there, the program is process 2 or later: it cannot name duipai or any other process
//! of the machine (`kill(getppid())` signals nobody), its `/proc` shows its namespace alone,
//! it has no network, and the first process, the keeper, ignores its signals, shows a
//! neutral command line, and (once the spawner has joined) may not be inspected. Whatever
//! the program leaves when its run ends is reaped by the keeper, and killed on request
//! ([`Keeper::clear`]); when the keeper ends (duipai ends, even by `SIGKILL`: its socket
//! closes), the kernel kills everything in its namespace.
//!
//! The keeper is cloned by the harness with the namespace flags; until it `exec`s, the
//! child runs a plan of system calls the harness prepared (no allocation: it shares the
//! harness's memory until then), which builds the view (see `view`): a fresh `tmpfs` as the
//! new root, the runtime folders and what the program needs bound into it read-only, its
//! scratch folder read-write, a new `/proc`, its own `/tmp`, `/dev` and `/dev/shm`; then the
//! new root becomes the root (`pivot_root`), the machine's is detached, and it is sealed.
//! In a user namespace, duipai's uid and gid are mapped to themselves: the keeper and the
//! programs keep the user's uid and so have no capability once they `exec`.

use std::ffi::{CString, c_int, c_void};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

use super::super::own;
use super::view::{DEVICES, View};

/// The environment variable that makes an executable a keeper; its value is the socket's
/// descriptor number.
const TRIGGER: &str = "DUIPAI_KEEPER";
const SOCKET_FD: RawFd = 3;

/// The descriptors the plan opens are moved to `SLOTS_AT + slot`, or higher: above the
/// executable's and the socket's descriptors the child uses (a harness holding more than a
/// hundred descriptors gets them above 100, where a slot would have replaced one).
const SLOTS_AT: c_int = 100;

/// What the keeper is asked: seal itself (once the spawner has joined), or kill everything
/// else in the namespace.
const SEAL: u8 = b's';
const CLEAR: u8 = b'c';
/// Empty the namespace of what a run left: files in `/tmp` and `/dev/shm`, System V IPC
/// objects and POSIX message queues.
const TIDY: u8 = b't';

/// Where the keeper's view shows the namespace's POSIX message queues (see `ipc`).
pub(crate) const QUEUES: &str = "/dev/mqueue";

/// The folders of the namespace a run may leave files in, which the keeper empties (the
/// entries it found there at its start stay: the scratch folder's and the program's mount
/// points).
const TIDIED: [&str; 2] = ["/tmp", "/dev/shm"];
/// Its answer to a greeting or a request.
const DONE: u8 = b'k';

/// How long the keeper may take to answer: building the view, or killing and reaping what
/// a run left (a process stuck in the kernel can take that long to die; the harness then
/// reports it rather than wait for good).
const ANSWER_WITHIN: std::time::Duration = std::time::Duration::from_secs(10);

/// The namespaces of one worker's program slot, held by their keeper.
#[derive(Debug)]
pub(crate) struct Keeper {
    pid: i32,
    socket: OwnedFd,
    /// [`TIDIED`] as the machine sees them (`/proc/PID/root/...`), and their size and
    /// modification time when last emptied: a file created or removed there changes both.
    watched: [CString; 2],
    stamps: std::sync::Mutex<[Stamp; 2]>,
    /// The namespaces' IPC namespace, which the harness empties itself when it may (root).
    ipc: Option<OwnedFd>,
    /// In a user namespace (duipai is not root).
    pub userns: bool,
    pub view: View,
}

/// One system call of the keeper's plan.
#[derive(Clone, Copy)]
#[repr(C)]
enum Kind {
    /// Write `b` to the file `a`.
    Write,
    Setsid,
    /// Make every mount private (nothing propagates to or from the machine's).
    Private,
    /// Open `a` as a path descriptor, kept at `n` (its slot, `slots_at` and up).
    OpenPath,
    /// Make every mount read-only and without set-uid (`mount_setattr`, recursive).
    ReadOnlyTree,
    /// Mount a new `proc` at `a`.
    Proc,
    /// Mount a `tmpfs` at `a` with the options `b`; `optional`: a missing `a` is skipped.
    Tmpfs,
    /// Make the folder `a` (one that exists is fine).
    Mkdir,
    /// Make the empty file `a` (one that exists is fine).
    Touch,
    /// Bind `a` (a path, or `/proc/self/fd/N`) onto `b`, recursively when `n` is 1.
    Bind,
    /// Remount the bind at `a` with `flags`.
    Remount,
    /// Remount the `tmpfs` at `a` read-only.
    Seal,
    /// Make the symbolic link `b` with the text `a`.
    Symlink,
    /// Mount the IPC namespace's POSIX message queues at `a`, read-only (where the kernel
    /// has them): the keeper lists them there to remove them after each run.
    Mqueue,
    /// Make the folder `a` the root (`pivot_root`), the old one detached.
    Pivot,
}

#[derive(Clone, Copy)]
#[repr(C)]
struct Op {
    kind: Kind,
    a: *const libc::c_char,
    b: *const libc::c_char,
    n: c_int,
    flags: libc::c_ulong,
    optional: bool,
}

/// The keeper's plan, prepared by the harness: the operations (their strings owned by
/// `strings`), then what to `exec`.
struct Plan {
    ops: Vec<Op>,
    strings: Vec<CString>,
    /// The first slot's descriptor.
    slots_at: c_int,
}

/// What the child needs, by pointers into the harness's memory (alive while it waits).
#[repr(C)]
struct ChildPlan {
    ops: *const Op,
    len: usize,
    exe: c_int,
    socket: c_int,
    argv: *const *const libc::c_char,
    envp: *const *const libc::c_char,
    /// Written by the child when it fails: the operation (1-based; `len + 1` is the `exec`)
    /// and `errno`.
    failed: usize,
    errno: c_int,
}

impl Plan {
    fn new(slots_at: c_int) -> Plan {
        Plan {
            ops: Vec::new(),
            strings: Vec::new(),
            slots_at,
        }
    }

    fn text(&mut self, text: &[u8]) -> io::Result<*const libc::c_char> {
        let c = CString::new(text).map_err(|_| io::Error::other("a path holds a NUL byte"))?;
        // The CString's heap buffer does not move when the vector grows.
        let ptr = c.as_ptr();
        self.strings.push(c);
        Ok(ptr)
    }

    fn path(&mut self, path: &Path) -> io::Result<*const libc::c_char> {
        self.text(path.as_os_str().as_bytes())
    }

    fn op(&mut self, kind: Kind, a: *const libc::c_char, b: *const libc::c_char) -> &mut Op {
        self.ops.push(Op {
            kind,
            a,
            b,
            n: 0,
            flags: 0,
            optional: false,
        });
        self.ops.last_mut().unwrap_or_else(|| unreachable!())
    }

    /// Makes every folder from the first missing one down to `path`.
    fn mkdirs(&mut self, path: &Path) -> io::Result<()> {
        let mut missing: Vec<&Path> = path
            .ancestors()
            .take_while(|a| !a.as_os_str().is_empty() && *a != Path::new("/"))
            .collect();
        missing.reverse();
        for dir in missing {
            let dir = self.path(dir)?;
            self.op(Kind::Mkdir, dir, std::ptr::null());
        }
        Ok(())
    }

    /// Binds the descriptor of `slot` onto `target` of the new root (made first, as a
    /// folder or a file; recursively when `recursive`), then remounts it with `flags` and
    /// the flags its source has that cannot be dropped.
    fn bind(
        &mut self,
        slot: usize,
        target: &Path,
        is_dir: bool,
        flags: libc::c_ulong,
        recursive: bool,
    ) -> io::Result<()> {
        let at = staged(target);
        if let Some(parent) = at.parent() {
            self.mkdirs(parent)?;
        }
        let at_text = self.path(&at)?;
        self.op(
            if is_dir { Kind::Mkdir } else { Kind::Touch },
            at_text,
            std::ptr::null(),
        );
        let from =
            self.text(format!("/proc/self/fd/{}", self.slots_at + slot as c_int).as_bytes())?;
        self.op(Kind::Bind, from, at_text).n = i32::from(recursive);
        if flags != 0 {
            let locked = locked_flags(target);
            self.op(Kind::Remount, at_text, std::ptr::null()).flags = flags | locked;
        }
        Ok(())
    }

    /// The plan that builds `view` (and, in a user namespace, first maps duipai's uid and
    /// gid to themselves): every source opened while the machine's file system is still
    /// there, the whole of it made read-only and without set-uid, a `tmpfs` mounted over
    /// [`STAGE`] as the new root and filled (see `view`), then made the root, and sealed
    /// read-only.
    fn of(view: &View, userns: bool, slots_at: c_int) -> io::Result<Plan> {
        let mut plan = Plan::new(slots_at);
        if userns {
            plan.map_ids()?;
        }
        let none = std::ptr::null();
        plan.op(Kind::Setsid, none, none);
        plan.op(Kind::Private, none, none);
        let sources = Sources::of(view);
        for (slot, source) in sources.all.iter().enumerate() {
            let a = plan.path(source)?;
            plan.op(Kind::OpenPath, a, none).n = slots_at + slot as c_int;
        }
        plan.op(Kind::ReadOnlyTree, none, none);
        plan.tmpfs(Path::new("/"), "755")?;
        let writable = match view.space {
            0 => "1777".to_string(),
            bytes => format!("1777,size={bytes}"),
        };
        for (dir, mode) in [
            ("/tmp", &writable[..]),
            ("/dev", "755"),
            ("/dev/shm", &writable),
        ] {
            plan.mkdirs(&staged(Path::new(dir)))?;
            plan.tmpfs(Path::new(dir), mode)?;
        }
        let queues = staged(Path::new(QUEUES));
        plan.mkdirs(&queues)?;
        let a = plan.path(&queues)?;
        plan.op(Kind::Mqueue, a, none);
        plan.mkdirs(&staged(Path::new("/proc")))?;
        let a = plan.path(&staged(Path::new("/proc")))?;
        plan.op(Kind::Proc, a, none);
        plan.devices(&sources)?;
        for (i, (dir, link)) in view.runtime.iter().enumerate() {
            match link {
                Some(text) => {
                    let (a, b) = (plan.path(text)?, plan.path(&staged(dir))?);
                    plan.op(Kind::Symlink, a, b);
                }
                None => plan.bind(sources.runtime + i, dir, true, READ_ONLY, true)?,
            }
        }
        for (i, (source, is_dir)) in view.binds.iter().enumerate() {
            plan.bind(sources.binds + i, source, *is_dir, READ_ONLY, *is_dir)?;
        }
        // A helper's folder of what it writes back: the remount leaves out read-only.
        for (i, dir) in view.writable.iter().enumerate() {
            plan.bind(sources.writable + i, dir, true, WRITABLE, false)?;
        }
        // The working folder is a tmpfs of its own, bounded as /tmp is (with room for the
        // input file the harness writes there): what a program writes there is memory, not
        // the machine's disk, and the harness finds it through the keeper (`path_of`).
        plan.mkdirs(&staged(&view.scratch))?;
        let scratch_mode = match view.space {
            0 => "777".to_string(),
            bytes => format!("777,size={}", bytes.saturating_add(INPUT_ROOM)),
        };
        plan.tmpfs(&view.scratch, &scratch_mode)?;
        for cover in &view.recovers {
            plan.tmpfs(cover, "755")?;
        }
        for hidden in &view.hidden {
            plan.bind(sources.null, hidden, false, READ_ONLY, false)?;
        }
        plan.pivot_and_seal(&view.recovers)?;
        Ok(plan)
    }

    /// Maps duipai's uid and gid to themselves in the new user namespace (no other group).
    fn map_ids(&mut self) -> io::Result<()> {
        // SAFETY: getuid and getgid have no preconditions.
        let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
        for (file, data) in [
            ("/proc/self/setgroups", "deny".to_string()),
            ("/proc/self/uid_map", format!("{uid} {uid} 1")),
            ("/proc/self/gid_map", format!("{gid} {gid} 1")),
        ] {
            let (a, b) = (self.text(file.as_bytes())?, self.text(data.as_bytes())?);
            self.op(Kind::Write, a, b);
        }
        Ok(())
    }

    /// Makes the staged root the root, then its folders, `/dev` and the emptied folders
    /// `recovers` read-only.
    fn pivot_and_seal(&mut self, recovers: &[PathBuf]) -> io::Result<()> {
        let none = std::ptr::null();
        let a = self.text(STAGE.as_bytes())?;
        self.op(Kind::Pivot, a, none);
        for (dir, keep) in [
            ("/", libc::MS_NODEV),
            ("/dev", libc::MS_NODEV | libc::MS_NOEXEC),
        ] {
            let a = self.text(dir.as_bytes())?;
            self.op(Kind::Seal, a, none).flags = keep;
        }
        for cover in recovers {
            let a = self.path(cover)?;
            self.op(Kind::Seal, a, none).flags = libc::MS_NODEV;
        }
        Ok(())
    }

    /// Mounts a `tmpfs` with `mode` at `dir` of the new root.
    fn tmpfs(&mut self, dir: &Path, mode: &str) -> io::Result<()> {
        let a = self.path(&staged(dir))?;
        let b = self.text(format!("mode={mode}").as_bytes())?;
        self.op(Kind::Tmpfs, a, b);
        Ok(())
    }

    /// The devices of [`DEVICES`], bound from the machine's, and the links to the
    /// descriptors in `/proc`.
    fn devices(&mut self, sources: &Sources) -> io::Result<()> {
        for (i, device) in DEVICES.iter().enumerate() {
            // A device keeps its own mount's flags: a `nodev` here would make it unusable.
            self.bind(sources.devices + i, Path::new(device), false, 0, false)?;
        }
        for (name, text) in [
            ("/dev/fd", "/proc/self/fd"),
            ("/dev/stdin", "/proc/self/fd/0"),
            ("/dev/stdout", "/proc/self/fd/1"),
            ("/dev/stderr", "/proc/self/fd/2"),
        ] {
            let (a, b) = (
                self.text(text.as_bytes())?,
                self.path(&staged(Path::new(name)))?,
            );
            self.op(Kind::Symlink, a, b);
        }
        Ok(())
    }
}

/// Room in the working folder's tmpfs for the input file (duipai reads no input larger).
const INPUT_ROOM: u64 = crate::fsutil::MAX_READ_BYTES;

/// Where the new root is built before it becomes the root: a `tmpfs` mounted over the
/// machine's `/tmp` in the keeper's mount namespace (every source is opened before).
const STAGE: &str = "/tmp";

/// `path` of the new root, while it is built at [`STAGE`].
fn staged(path: &Path) -> PathBuf {
    let rest = path.strip_prefix("/").unwrap_or(path);
    Path::new(STAGE).join(rest)
}

/// The flags of what is put back read-only.
const READ_ONLY: libc::c_ulong = libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV;
/// How a folder a helper writes is put back: writable, but nothing set-uid and no device.
const WRITABLE: libc::c_ulong = libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC;

/// Every file and folder a view's plan binds from, opened first, in slots: the runtime
/// folders, the binds, the devices, `/dev/null` (which hides duipai's executable), and the
/// folders put back read-write, with where each group starts.
struct Sources {
    all: Vec<PathBuf>,
    runtime: usize,
    binds: usize,
    devices: usize,
    null: usize,
    writable: usize,
}

impl Sources {
    fn of(view: &View) -> Sources {
        let mut all: Vec<PathBuf> = view.runtime.iter().map(|(d, _)| d.clone()).collect();
        let binds = all.len();
        all.extend(view.binds.iter().map(|(p, _)| p.clone()));
        let devices = all.len();
        all.extend(DEVICES.iter().map(PathBuf::from));
        let null = all.len();
        all.push(PathBuf::from("/dev/null"));
        let writable = all.len();
        all.extend(view.writable.iter().cloned());
        Sources {
            all,
            runtime: 0,
            binds,
            devices,
            null,
            writable,
        }
    }
}

/// The flags of the mount `path` is on that a remount in a user namespace must keep (the
/// kernel locks them): `noexec`, `nodev`, `nosuid` and the access-time ones.
fn locked_flags(path: &Path) -> libc::c_ulong {
    let Ok(c) = CString::new(path.as_os_str().as_bytes()) else {
        return 0;
    };
    // SAFETY: a zeroed statvfs is a valid out-parameter.
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: a NUL-terminated path and a valid out-pointer.
    if unsafe { libc::statvfs(c.as_ptr(), &mut st) } != 0 {
        return 0;
    }
    let mut flags = 0;
    for (st_flag, ms_flag) in [
        (libc::ST_NOEXEC, libc::MS_NOEXEC),
        (libc::ST_NODEV, libc::MS_NODEV),
        (libc::ST_NOSUID, libc::MS_NOSUID),
        (libc::ST_NOATIME, libc::MS_NOATIME),
        (libc::ST_NODIRATIME, libc::MS_NODIRATIME),
        (libc::ST_RELATIME, libc::MS_RELATIME),
    ] {
        if st.f_flag & st_flag != 0 {
            flags |= ms_flag;
        }
    }
    flags
}

/// `mount_setattr`'s argument.
#[repr(C)]
struct MountAttr {
    attr_set: u64,
    attr_clr: u64,
    propagation: u64,
    userns_fd: u64,
}

const MOUNT_ATTR_RDONLY: u64 = 0x1;
const MOUNT_ATTR_NOSUID: u64 = 0x2;
const AT_RECURSIVE: c_int = 0x8000;

/// Runs one operation of the plan in the child.
///
/// # Safety
/// The child's, with `op`'s strings alive (the harness waits).
unsafe fn run_op(op: &Op) -> bool {
    let none = std::ptr::null::<libc::c_char>();
    let no_data = std::ptr::null::<c_void>();
    // SAFETY: plain system calls on NUL-terminated strings of the plan.
    let ok = unsafe {
        match op.kind {
            Kind::Write => write_string(op.a, op.b),
            Kind::Setsid => libc::setsid() >= 0,
            Kind::Private => mount(
                none,
                c"/".as_ptr(),
                none,
                libc::MS_REC | libc::MS_PRIVATE,
                no_data,
            ),
            Kind::OpenPath => open_into_slot(op.a, op.n),
            Kind::ReadOnlyTree => read_only_tree(),
            Kind::Proc => {
                let flags = libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC;
                mount(c"proc".as_ptr(), op.a, c"proc".as_ptr(), flags, no_data)
            }
            Kind::Tmpfs => {
                let flags = libc::MS_NOSUID | libc::MS_NODEV;
                mount(
                    c"tmpfs".as_ptr(),
                    op.a,
                    c"tmpfs".as_ptr(),
                    flags,
                    op.b.cast(),
                )
            }
            Kind::Mkdir => {
                libc::mkdir(op.a, 0o755) == 0 || *libc::__errno_location() == libc::EEXIST
            }
            Kind::Touch => touch(op.a),
            Kind::Bind => {
                let rec = if op.n == 1 { libc::MS_REC } else { 0 };
                mount(op.a, op.b, none, libc::MS_BIND | rec, no_data)
            }
            Kind::Remount => {
                let flags = libc::MS_REMOUNT | libc::MS_BIND | op.flags;
                mount(none, op.a, none, flags, no_data)
            }
            Kind::Seal => {
                let flags = libc::MS_REMOUNT | libc::MS_RDONLY | libc::MS_NOSUID | op.flags;
                mount(none, op.a, none, flags, c"mode=755".as_ptr().cast())
            }
            Kind::Symlink => libc::symlink(op.a, op.b) == 0,
            Kind::Pivot => pivot(op.a),
            Kind::Mqueue => {
                let flags = libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC | libc::MS_RDONLY;
                // A kernel without POSIX queues has none to remove.
                mount(c"mqueue".as_ptr(), op.a, c"mqueue".as_ptr(), flags, no_data)
                    || *libc::__errno_location() == libc::ENODEV
            }
        }
    };
    // SAFETY: errno of this thread, as the failed call left it.
    ok || (op.optional && unsafe { *libc::__errno_location() } == libc::ENOENT)
}

/// Makes `root` the root of the mount namespace and the process's, the old root detached
/// from it (`pivot_root(".", ".")`: no folder is needed for the old root).
///
/// # Safety
/// `root` is a NUL-terminated path.
unsafe fn pivot(root: *const libc::c_char) -> bool {
    // SAFETY: plain system calls on NUL-terminated paths.
    unsafe {
        libc::chdir(root) == 0
            && libc::syscall(libc::SYS_pivot_root, c".".as_ptr(), c".".as_ptr()) == 0
            && libc::umount2(c".".as_ptr(), libc::MNT_DETACH) == 0
            && libc::chdir(c"/".as_ptr()) == 0
    }
}

/// `mount(2)`, true when it succeeded.
///
/// # Safety
/// The strings are NUL-terminated or null, as `mount` takes them.
unsafe fn mount(
    source: *const libc::c_char,
    target: *const libc::c_char,
    fstype: *const libc::c_char,
    flags: libc::c_ulong,
    data: *const c_void,
) -> bool {
    // SAFETY: as the caller promises.
    unsafe { libc::mount(source, target, fstype, flags, data) == 0 }
}

/// Writes the string `text` to the existing file `path` (a `/proc` map, `setgroups`).
///
/// # Safety
/// Both are NUL-terminated strings.
unsafe fn write_string(path: *const libc::c_char, text: *const libc::c_char) -> bool {
    // SAFETY: as the caller promises; the descriptor is this function's own.
    unsafe {
        let fd = libc::open(path, libc::O_WRONLY | libc::O_CLOEXEC);
        let len = libc::strlen(text);
        let ok = fd >= 0 && libc::write(fd, text.cast(), len) == len as isize;
        if fd >= 0 {
            libc::close(fd);
        }
        ok
    }
}

/// Opens `path` as an `O_PATH` descriptor into slot `n`, for a later bind from it.
///
/// # Safety
/// `path` is a NUL-terminated string.
unsafe fn open_into_slot(path: *const libc::c_char, n: c_int) -> bool {
    // SAFETY: as the caller promises; the slots are above every descriptor the child holds.
    unsafe {
        let fd = libc::open(path, libc::O_PATH | libc::O_CLOEXEC);
        // A harness holding a hundred descriptors and more (many workers, their pipes) may
        // get the slot's own number back from `open`: it is in place, and `dup3` onto itself
        // would fail (EINVAL), and with it the keeper, and every run that needs one.
        fd >= 0
            && (fd == n
                || libc::dup3(fd, n, libc::O_CLOEXEC) >= 0 && {
                    libc::close(fd);
                    true
                })
    }
}

/// Makes every mount below `/` read-only and without set-uid programs at once.
fn read_only_tree() -> bool {
    let attr = MountAttr {
        attr_set: MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID,
        attr_clr: 0,
        propagation: 0,
        userns_fd: 0,
    };
    // SAFETY: a system call on a constant path and a live, correctly sized attribute struct.
    unsafe {
        libc::syscall(
            libc::SYS_mount_setattr,
            libc::AT_FDCWD,
            c"/".as_ptr(),
            AT_RECURSIVE,
            &attr as *const MountAttr,
            std::mem::size_of::<MountAttr>(),
        ) == 0
    }
}

/// Makes an empty file at `path` unless something is there, for a file to be bound onto.
///
/// # Safety
/// `path` is a NUL-terminated string.
unsafe fn touch(path: *const libc::c_char) -> bool {
    // SAFETY: as the caller promises; the descriptor is this function's own.
    unsafe {
        let mut st: libc::stat = std::mem::zeroed();
        libc::stat(path, &mut st) == 0 || {
            let flags = libc::O_WRONLY | libc::O_CREAT | libc::O_CLOEXEC;
            let fd = libc::open(path, flags, 0o644);
            fd >= 0 && libc::close(fd) == 0
        }
    }
}

/// The keeper's child, from `clone` to `exec`: the plan, then the keeper's executable.
extern "C" fn child(arg: *mut c_void) -> c_int {
    // SAFETY: `arg` is the harness's `ChildPlan`, alive while the harness waits for this
    // vfork-style child, whose pointers all point to the harness's live data.
    unsafe {
        let plan = &mut *arg.cast::<ChildPlan>();
        for i in 0..plan.len {
            if !run_op(&*plan.ops.add(i)) {
                plan.errno = *libc::__errno_location();
                plan.failed = i + 1;
                libc::_exit(127);
            }
        }
        if libc::dup2(plan.socket, SOCKET_FD) < 0 {
            plan.errno = *libc::__errno_location();
            plan.failed = plan.len + 1;
            libc::_exit(127);
        }
        libc::syscall(
            libc::SYS_execveat,
            plan.exe,
            c"".as_ptr(),
            plan.argv,
            plan.envp,
            libc::AT_EMPTY_PATH,
        );
        plan.errno = *libc::__errno_location();
        plan.failed = plan.len + 1;
        libc::_exit(127)
    }
}

impl Keeper {
    /// Starts a keeper whose namespaces show the program `view`; `userns` when duipai is not
    /// root. An error says which step failed.
    pub fn start(view: View, userns: bool) -> io::Result<Keeper> {
        // The linker keeps the constructor only if something refers to it.
        std::hint::black_box(&HOOK);
        let (ours, theirs) = super::super::clone::socket_pair()?;
        let exe = open_self()?;
        let held = [ours.as_raw_fd(), theirs.as_raw_fd(), exe.as_raw_fd()];
        let slots_at = held.iter().map(|fd| fd + 1).fold(SLOTS_AT, c_int::max);
        let plan = Plan::of(&view, userns, slots_at)?;
        let argv = [c"duipai-keeper".as_ptr(), std::ptr::null()];
        let trigger = CString::new(format!("{TRIGGER}={SOCKET_FD}")).map_err(io::Error::other)?;
        let envp = [trigger.as_ptr(), std::ptr::null()];
        let mut child_plan = ChildPlan {
            ops: plan.ops.as_ptr(),
            len: plan.ops.len(),
            exe: exe.as_raw_fd(),
            socket: theirs.as_raw_fd(),
            argv: argv.as_ptr(),
            envp: envp.as_ptr(),
            failed: 0,
            errno: 0,
        };
        let mut flags = libc::CLONE_NEWPID
            | libc::CLONE_NEWNS
            | libc::CLONE_NEWIPC
            | libc::CLONE_NEWUTS
            | libc::CLONE_NEWNET;
        if userns {
            flags |= libc::CLONE_NEWUSER;
        }
        let pid = clone_child(&mut child_plan, flags)?;
        drop(theirs);
        if child_plan.failed != 0 {
            let mut status = 0;
            // SAFETY: our own child, which has exited; status to a local.
            unsafe { libc::waitpid(pid, &mut status, 0) };
            return Err(plan_error(&plan, &child_plan));
        }
        own::add(pid, own::Kind::Keeper);
        let watched = TIDIED.map(|dir| {
            CString::new(format!("/proc/{pid}/root{dir}")).unwrap_or_else(|_| unreachable!())
        });
        let keeper = Keeper {
            pid,
            socket: ours,
            watched,
            stamps: std::sync::Mutex::new([Stamp::default(); 2]),
            ipc: (!userns)
                .then(|| std::fs::File::open(format!("/proc/{pid}/ns/ipc")).ok())
                .flatten()
                .map(OwnedFd::from),
            userns,
            view,
        };
        keeper.expect_done()?;
        *keeper.stamps.lock().unwrap_or_else(|e| e.into_inner()) = keeper.stamps_now();
        Ok(keeper)
    }

    /// Where the harness finds `path` of the namespaces' file system: through the keeper's
    /// root (`/proc/PID/root/...`).
    pub fn path_of(&self, path: &Path) -> PathBuf {
        let rest = path.strip_prefix("/").unwrap_or(path);
        PathBuf::from(format!("/proc/{}/root", self.pid)).join(rest)
    }

    /// The keeper's pid (in the machine's PID namespace).
    pub fn pid(&self) -> i32 {
        self.pid
    }

    /// Once the spawner has joined: the keeper may no longer be inspected (its `/proc`
    /// entries, `/proc/1/exe` among them, become the kernel's alone).
    pub fn seal(&self) -> io::Result<()> {
        self.ask(SEAL)
    }

    /// Kills everything in the namespace but the keeper, and reaps it: what a run left when
    /// no cgroup says so.
    pub fn clear(&self) -> io::Result<()> {
        self.ask(CLEAR)
    }

    /// Empties the namespace of what a run left (whose processes are all gone): its files in
    /// `/tmp` and `/dev/shm` (memory, charged to the slot, which would pile up run after
    /// run), and its System V objects and POSIX message queues, which the next run of the
    /// worker would otherwise find (they are uncharged at once). One request to the keeper,
    /// which lives in the namespace and may remove them, or as root by the harness itself,
    /// entering the IPC namespace (no round trip to the keeper), which then asks the keeper
    /// only when `/tmp` or `/dev/shm` changed (two `stat`s). A namespace made for each run
    /// instead cost a run about a tenth of its time.
    pub fn tidy(&self) -> io::Result<()> {
        let cleared = match &self.ipc {
            Some(ns) => super::ipc::clear(ns, &self.path_of(Path::new(QUEUES)))?,
            None => false,
        };
        let mut stamps = self.stamps.lock().unwrap_or_else(|e| e.into_inner());
        if cleared && self.stamps_now() == *stamps {
            return Ok(());
        }
        self.ask(TIDY)?;
        *stamps = self.stamps_now();
        Ok(())
    }

    fn stamps_now(&self) -> [Stamp; 2] {
        [Stamp::of(&self.watched[0]), Stamp::of(&self.watched[1])]
    }

    /// Whether something but the keeper is alive (or unreaped) in the namespace.
    pub fn occupied(&self) -> bool {
        std::fs::read_to_string(format!("/proc/{0}/task/{0}/children", self.pid))
            .map_or(true, |c| !c.trim().is_empty())
    }

    /// The CPU time of the processes the keeper has reaped (its children's, `cutime` and
    /// `cstime`): the orphans of the runs, which no other process waited for.
    pub fn reaped_cpu(&self) -> Option<std::time::Duration> {
        let stat = crate::run::procfs::stat(self.pid)?;
        Some(crate::run::procfs::ticks_to_duration(stat.reaped_ticks))
    }

    /// The bytes of the files in the namespace's `/tmp`, `/dev/shm` and working folder
    /// (`tmpfs`, so memory): what a run without a cgroup holds there is counted as its
    /// memory.
    pub fn files_bytes(&self) -> u64 {
        let scratch = CString::new(self.path_of(&self.view.scratch).into_os_string().into_vec())
            .unwrap_or_default();
        self.watched.iter().chain([&scratch]).map(used_bytes).sum()
    }

    /// The live processes of the namespace but the keeper (zombies excluded), as the
    /// machine numbers them: the keeper's descendants, followed by parent. Every process
    /// there descends from it but a run's leader (the harness's child), which the caller has
    /// reaped by then.
    pub fn residents(&self) -> Vec<i32> {
        let mut found = Vec::new();
        let mut stack = vec![self.pid];
        while let Some(pid) = stack.pop() {
            let children = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children"))
                .unwrap_or_default();
            for child in children.split_whitespace().filter_map(|c| c.parse().ok()) {
                stack.push(child);
                if crate::run::procfs::stat(child).is_some_and(|s| !s.is_zombie()) {
                    found.push(child);
                }
            }
        }
        found
    }

    fn ask(&self, request: u8) -> io::Result<()> {
        // SAFETY: sends one byte from a local to our socket.
        let sent = unsafe {
            libc::send(
                self.socket.as_raw_fd(),
                (&raw const request).cast(),
                1,
                libc::MSG_NOSIGNAL,
            )
        };
        if sent != 1 {
            return Err(io::Error::last_os_error());
        }
        self.expect_done()
    }

    fn expect_done(&self) -> io::Result<()> {
        let mut answer = [0u8; 1];
        let deadline = std::time::Instant::now() + ANSWER_WITHIN;
        loop {
            let mut fds = [libc::pollfd {
                fd: self.socket.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            }];
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            // SAFETY: one valid pollfd and its count.
            let ready = unsafe { libc::poll(fds.as_mut_ptr(), 1, left.as_millis() as c_int) };
            if ready == 0 {
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    format!(
                        "the keeper of the namespaces did not answer within {} s",
                        ANSWER_WITHIN.as_secs()
                    ),
                ));
            }
            if ready < 0 {
                // Interrupted by a signal: wait again for what is left of the time.
                continue;
            }
            // SAFETY: receives into a local buffer of its length.
            let n =
                unsafe { libc::recv(self.socket.as_raw_fd(), answer.as_mut_ptr().cast(), 1, 0) };
            if n == 1 && answer[0] == DONE {
                return Ok(());
            }
            if n < 0 && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(io::Error::other(
                "the keeper of the namespaces did not answer",
            ));
        }
    }
}

/// The bytes used in the file system of `path` (0 if it cannot be told).
fn used_bytes(path: &CString) -> u64 {
    // SAFETY: a zeroed statvfs is a valid out-parameter.
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: a NUL-terminated path and a valid out-pointer.
    if unsafe { libc::statvfs(path.as_ptr(), &mut st) } != 0 {
        return 0;
    }
    #[allow(clippy::unnecessary_cast)]
    let used = (st.f_blocks as u64).saturating_sub(st.f_bfree as u64);
    used.saturating_mul(st.f_frsize as u64)
}

/// A folder's size and modification time (zero if it cannot be read).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Stamp(i64, i64, i64);

impl Stamp {
    fn of(path: &CString) -> Stamp {
        // SAFETY: a zeroed stat is a valid out-parameter.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        // SAFETY: a NUL-terminated path and a valid out-pointer.
        if unsafe { libc::stat(path.as_ptr(), &mut st) } != 0 {
            return Stamp::default();
        }
        Stamp(st.st_size, st.st_mtime, st.st_mtime_nsec)
    }
}

impl Drop for Keeper {
    fn drop(&mut self) {
        own::remove(self.pid);
        // SAFETY: the keeper is an unreaped child of the harness, so its pid is its own.
        unsafe { libc::kill(self.pid, libc::SIGKILL) };
        let mut status = 0;
        // SAFETY: waits for our own child; status to a local.
        while unsafe { libc::waitpid(self.pid, &mut status, 0) } < 0
            && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted
        {}
    }
}

/// This executable, opened for `execveat`.
fn open_self() -> io::Result<OwnedFd> {
    // SAFETY: a NUL-terminated path; open returns a new descriptor or -1.
    let fd = unsafe { libc::open(c"/proc/self/exe".as_ptr(), libc::O_PATH | libc::O_CLOEXEC) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: just opened, owned by nobody else.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// Clones the keeper's child with `flags` (vfork-style: the harness's thread waits until the
/// child has `exec`uted or failed).
fn clone_child(plan: &mut ChildPlan, flags: c_int) -> io::Result<i32> {
    const STACK: usize = 64 * 1024;
    let mut stack = vec![0u8; STACK];
    // SAFETY: the top of a buffer alive until `clone` returns (with CLONE_VFORK, after the
    // child's `exec` or exit), 16-byte aligned below its end, and the plan the child reads.
    unsafe {
        let top = stack.as_mut_ptr().add(STACK - 64);
        let top = (top as usize & !15) as *mut c_void;
        let pid =
            crate::run::clone::clone_vfork(child, top, flags, std::ptr::from_mut(plan).cast())?;
        // The child wrote these (if it failed) through the shared memory.
        plan.failed = std::ptr::read_volatile(&raw const plan.failed);
        plan.errno = std::ptr::read_volatile(&raw const plan.errno);
        Ok(pid)
    }
}

/// What failed in the keeper's child: the step and the error.
fn plan_error(plan: &Plan, child: &ChildPlan) -> io::Error {
    let os = io::Error::from_raw_os_error(child.errno);
    let what = match plan.ops.get(child.failed - 1) {
        None => "start the keeper".to_string(),
        Some(op) => {
            // SAFETY: the plan's strings are alive; a null one reads as nothing.
            let a = unsafe { op_text(op.a) };
            match op.kind {
                Kind::Write => format!("write {a}"),
                Kind::Setsid => "start a session".into(),
                Kind::Private => "make the mounts private".into(),
                Kind::OpenPath => format!("open {a}"),
                Kind::ReadOnlyTree => "make the mounts read-only (mount_setattr)".into(),
                Kind::Proc => format!("mount /proc on {a}"),
                Kind::Tmpfs => format!("mount a tmpfs on {a}"),
                Kind::Mkdir => format!("make {a}"),
                Kind::Touch => format!("make {a}"),
                // SAFETY: as above.
                Kind::Bind => format!("bind onto {}", unsafe { op_text(op.b) }),
                Kind::Remount => format!("remount {a}"),
                Kind::Seal => format!("remount {a} read-only"),
                // SAFETY: as above.
                Kind::Symlink => format!("make the link {}", unsafe { op_text(op.b) }),
                Kind::Pivot => format!("make {a} the root"),
                Kind::Mqueue => format!("mount the message queues on {a}"),
            }
        }
    };
    io::Error::new(os.kind(), format!("cannot {what}: {os}"))
}

/// The text of a plan string.
///
/// # Safety
/// `text` is null or a live NUL-terminated string.
unsafe fn op_text(text: *const libc::c_char) -> String {
    if text.is_null() {
        return String::new();
    }
    // SAFETY: the caller's promise.
    unsafe { std::ffi::CStr::from_ptr(text) }
        .to_string_lossy()
        .into_owned()
}

/// Whether namespaces can be had here: a throwaway keeper of an empty view is started and
/// ended. `Err` says why not.
pub(crate) fn probe(userns: bool) -> Result<(), String> {
    let scratch = crate::run::temp_folder("probe")
        .map_err(|e| format!("cannot make a scratch folder: {e}"))?;
    let view = View::bare(scratch.path());
    Keeper::start(view, userns)
        .map(drop)
        .map_err(|e| e.to_string())
}

/// Run by the C runtime before `main` in every executable that links this module: a keeper
/// keeps its namespaces and never returns; any other process returns at once.
#[used]
#[unsafe(link_section = ".init_array")]
static HOOK: extern "C" fn() = hook;

extern "C" fn hook() {
    // SAFETY: getenv with a NUL-terminated name, before any thread of this process exists.
    let value = unsafe { libc::getenv(c"DUIPAI_KEEPER".as_ptr()) };
    if value.is_null() {
        return;
    }
    // SAFETY: getenv returned a NUL-terminated string.
    if unsafe { std::ffi::CStr::from_ptr(value) }.to_bytes() != b"3" {
        return;
    }
    keep(SOCKET_FD)
}

/// The keeper's life: greet, then reap whatever is handed to it, and answer requests, until
/// the harness closes the socket (its end ends the namespace).
fn keep(socket: RawFd) -> ! {
    // SAFETY: plain system calls on this process's own signal dispositions and descriptors.
    unsafe {
        // A handler (rather than the default, ignore) so that a child's end interrupts
        // the wait; blocked but during the wait.
        let mut wake: libc::sigaction = std::mem::zeroed();
        wake.sa_sigaction = wake_up as extern "C" fn(c_int) as libc::sighandler_t;
        libc::sigaction(libc::SIGCHLD, &wake, std::ptr::null_mut());
        let mut chld: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut chld);
        libc::sigaddset(&mut chld, libc::SIGCHLD);
        libc::sigprocmask(libc::SIG_BLOCK, &chld, std::ptr::null_mut());
        libc::fcntl(socket, libc::F_SETFD, libc::FD_CLOEXEC);
    }
    let initial = TIDIED.map(entries);
    reply(socket);
    // SAFETY: a zeroed sigset_t is a valid value, emptied below.
    let mut unblocked: libc::sigset_t = unsafe { std::mem::zeroed() };
    // SAFETY: an empty set.
    unsafe { libc::sigemptyset(&mut unblocked) };
    loop {
        reap_all(false);
        let mut fds = [libc::pollfd {
            fd: socket,
            events: libc::POLLIN,
            revents: 0,
        }];
        // SAFETY: a valid array of one pollfd, no timeout, the mask above.
        let r = unsafe { libc::ppoll(fds.as_mut_ptr(), 1, std::ptr::null(), &unblocked) };
        if r <= 0 {
            continue;
        }
        let mut request = [0u8; 1];
        // SAFETY: receives into a local buffer of its length.
        let n = unsafe { libc::recv(socket, request.as_mut_ptr().cast(), 1, 0) };
        match (n, request[0]) {
            (1, SEAL) => {
                // SAFETY: prctl on this process.
                unsafe { libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0) };
                reply(socket);
            }
            (1, TIDY) => {
                for (dir, keep) in TIDIED.iter().zip(&initial) {
                    empty(Path::new(dir), keep);
                }
                super::ipc::remove_all();
                super::ipc::remove_message_queues(Path::new(QUEUES));
                reply(socket);
            }
            (1, CLEAR) => {
                // SAFETY: kill(-1) signals every process of the namespace this process may
                // signal, but itself.
                unsafe { libc::kill(-1, libc::SIGKILL) };
                reap_all(true);
                reply(socket);
            }
            (n, _) if n <= 0 => {
                if n < 0 && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                // SAFETY: _exit ends the keeper; the kernel kills the rest of its namespace.
                unsafe { libc::_exit(0) };
            }
            _ => {}
        }
    }
}

extern "C" fn wake_up(_: c_int) {}

/// The names in `dir`.
fn entries(dir: &str) -> Vec<std::ffi::OsString> {
    std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| Some(e.ok()?.file_name())).collect())
        .unwrap_or_default()
}

/// Removes everything in `dir` but `keep`; a folder a program closed to its owner is opened
/// first.
fn empty(dir: &Path, keep: &[std::ffi::OsString]) {
    use std::os::unix::fs::PermissionsExt;
    let Ok(list) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in list.flatten() {
        if keep.contains(&entry.file_name()) {
            continue;
        }
        let path = entry.path();
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        if !is_dir {
            let _ = std::fs::remove_file(&path);
            continue;
        }
        let _ = std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o700));
        empty(&path, &[]);
        let _ = std::fs::remove_dir(&path);
    }
}

/// Reaps every child that has ended (`all`: waits for every child to end).
fn reap_all(all: bool) {
    let flags = if all { 0 } else { libc::WNOHANG };
    loop {
        let mut status = 0;
        // SAFETY: waits for any child of the keeper; status to a local.
        let r = unsafe { libc::waitpid(-1, &mut status, flags) };
        if r > 0 {
            continue;
        }
        if r < 0 && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
            continue;
        }
        return;
    }
}

fn reply(socket: RawFd) {
    // SAFETY: sends one byte from a static.
    unsafe { libc::send(socket, [DONE].as_ptr().cast(), 1, libc::MSG_NOSIGNAL) };
}

/// The keeper's namespaces, as the spawner joins them: `/proc/PID/ns/NAME` for each, the
/// user namespace first when there is one.
pub(crate) fn namespace_files(pid: i32, userns: bool) -> Vec<(PathBuf, c_int)> {
    let mut names = Vec::new();
    if userns {
        names.push(("user", libc::CLONE_NEWUSER));
    }
    names.extend([
        ("pid", libc::CLONE_NEWPID),
        ("mnt", libc::CLONE_NEWNS),
        ("ipc", libc::CLONE_NEWIPC),
        ("uts", libc::CLONE_NEWUTS),
        ("net", libc::CLONE_NEWNET),
    ]);
    names
        .into_iter()
        .map(|(name, flag)| (PathBuf::from(format!("/proc/{pid}/ns/{name}")), flag))
        .collect()
}
