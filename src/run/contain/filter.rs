//! The system calls a contained program may not make ([`program_filter`], a seccomp filter
//! its process installs last before `exec`), because no namespace covers what they reach:
//! - the **keyrings** (`keyctl`, `add_key`, `request_key`): a key outlives the process that
//!   made it, in its user's keyring (a box uid is the same user run after run) or in the
//!   session keyring it inherited from duipai, and its memory is charged to no cgroup: one
//!   run could leave a key for the next, or read duipai's. They fail with `ENOSYS`, as under
//!   isolate, and programs that look for a keyring carry on without one;
//! - **`AF_VSOCK` sockets**, which reach the hypervisor of a virtual machine (its host)
//!   whatever the network namespace: `socket(AF_VSOCK, ...)` fails with `EAFNOSUPPORT`.
//!
//! Everything else is allowed. On x86-64, the 32-bit system calls (`int 0x80`, a program
//! built with `-m32`) are filtered by their own numbers, and `socketcall`'s `socket`, whose
//! family the filter cannot read, is refused whole; on AArch64, 32-bit ARM's likewise.

use std::sync::OnceLock;

/// `AUDIT_ARCH_*` of `<linux/audit.h>`: the architecture a system call was made for.
#[cfg(target_arch = "x86_64")]
const AUDIT_ARCH_X86_64: u32 = 0xc000_003e;
#[cfg(target_arch = "x86_64")]
const AUDIT_ARCH_I386: u32 = 0x4000_0003;
#[cfg(target_arch = "aarch64")]
const AUDIT_ARCH_AARCH64: u32 = 0xc000_00b7;
#[cfg(target_arch = "aarch64")]
const AUDIT_ARCH_ARM: u32 = 0x4000_0028;

/// x32 system calls come with the native architecture and this bit in their number.
const X32_SYSCALL_BIT: u32 = 0x4000_0000;

/// Offsets in `struct seccomp_data`: the number, the architecture, the first argument's
/// low 32 bits (little-endian).
const NR: u32 = 0;
const ARCH: u32 = 4;
const ARG0: u32 = 16;

/// The numbers of the system calls filtered, for one architecture.
struct Numbers {
    arch: u32,
    keyrings: [u32; 3],
    socket: u32,
    /// The multiplexed socket call (i386's `socketcall`), if the architecture has one.
    socketcall: Option<u32>,
    /// Whether the x32 bit is cleared first (x86-64).
    x32: bool,
}

#[cfg(target_arch = "x86_64")]
const NATIVE: Numbers = Numbers {
    arch: AUDIT_ARCH_X86_64,
    keyrings: [
        libc::SYS_keyctl as u32,
        libc::SYS_add_key as u32,
        libc::SYS_request_key as u32,
    ],
    socket: libc::SYS_socket as u32,
    socketcall: None,
    x32: true,
};

/// i386's numbers, for 32-bit programs on x86-64.
#[cfg(target_arch = "x86_64")]
const COMPAT: Numbers = Numbers {
    arch: AUDIT_ARCH_I386,
    keyrings: [288, 286, 287],
    socket: 359,
    socketcall: Some(102),
    x32: false,
};

#[cfg(target_arch = "aarch64")]
const NATIVE: Numbers = Numbers {
    arch: AUDIT_ARCH_AARCH64,
    keyrings: [
        libc::SYS_keyctl as u32,
        libc::SYS_add_key as u32,
        libc::SYS_request_key as u32,
    ],
    socket: libc::SYS_socket as u32,
    socketcall: None,
    x32: false,
};

/// 32-bit ARM's numbers (EABI), for 32-bit programs on AArch64.
#[cfg(target_arch = "aarch64")]
const COMPAT: Numbers = Numbers {
    arch: AUDIT_ARCH_ARM,
    keyrings: [311, 309, 310],
    socket: 281,
    socketcall: None,
    x32: false,
};

/// The filter, built once per process; a program's process installs it by pointer.
pub(crate) fn program_filter() -> &'static libc::sock_fprog {
    /// The instructions, and the program that points to them.
    struct Filter {
        _code: Vec<libc::sock_filter>,
        fprog: libc::sock_fprog,
    }
    // SAFETY: the program is read only, never written, after it is built.
    unsafe impl Send for Filter {}
    // SAFETY: as above.
    unsafe impl Sync for Filter {}
    static FILTER: OnceLock<Filter> = OnceLock::new();
    let filter = FILTER.get_or_init(|| {
        let mut code = assemble(&program());
        let fprog = libc::sock_fprog {
            len: code.len() as u16,
            filter: code.as_mut_ptr(),
        };
        Filter { _code: code, fprog }
    });
    &filter.fprog
}

/// A jump target: the next instruction, or a labelled one.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum To {
    Next,
    At(&'static str),
}

/// One instruction of the filter before its jumps are resolved.
#[derive(Clone, Copy, Debug)]
enum Op {
    Label(&'static str),
    /// Load the 32-bit word at an offset of `seccomp_data`.
    Load(u32),
    /// Clear bits of the accumulator.
    And(u32),
    /// If the accumulator equals `k`, go to the first target, else the second.
    Equal(u32, To, To),
    Return(u32),
}

const ALLOW: u32 = libc::SECCOMP_RET_ALLOW;
const NO_SYSCALL: u32 = libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32;
const NO_FAMILY: u32 = libc::SECCOMP_RET_ERRNO | libc::EAFNOSUPPORT as u32;

/// The filter, as labelled instructions: on an architecture whose numbers it does not know,
/// one that allows everything.
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
fn program() -> Vec<Op> {
    vec![Op::Return(ALLOW)]
}

/// The filter, as labelled instructions.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn program() -> Vec<Op> {
    use Op::*;
    let mut ops = vec![
        Load(ARCH),
        Equal(NATIVE.arch, To::At("native"), To::Next),
        Equal(COMPAT.arch, To::At("compat"), To::Next),
        Return(ALLOW),
    ];
    for (label, numbers) in [("native", &NATIVE), ("compat", &COMPAT)] {
        ops.push(Label(label));
        ops.push(Load(NR));
        if numbers.x32 {
            ops.push(And(!X32_SYSCALL_BIT));
        }
        for nr in numbers.keyrings {
            ops.push(Equal(nr, To::At("no syscall"), To::Next));
        }
        ops.push(Equal(numbers.socket, To::At("socket"), To::Next));
        if let Some(socketcall) = numbers.socketcall {
            ops.push(Equal(socketcall, To::At("socketcall"), To::Next));
        }
        ops.push(Return(ALLOW));
    }
    ops.extend([
        Label("socket"),
        Load(ARG0),
        Equal(libc::AF_VSOCK as u32, To::At("no family"), To::Next),
        Return(ALLOW),
        // socketcall(SYS_SOCKET, args): the family is in the caller's memory, out of reach.
        Label("socketcall"),
        Load(ARG0),
        Equal(1, To::At("no family"), To::Next),
        Return(ALLOW),
        Label("no syscall"),
        Return(NO_SYSCALL),
        Label("no family"),
        Return(NO_FAMILY),
    ]);
    ops
}

/// The BPF instructions of `ops`, their jumps resolved (every jump goes forward, by less
/// than 256 instructions: the program is short).
fn assemble(ops: &[Op]) -> Vec<libc::sock_filter> {
    let mut labels: Vec<(&str, usize)> = Vec::new();
    let mut n = 0usize;
    for op in ops {
        match op {
            Op::Label(name) => labels.push((name, n)),
            _ => n += 1,
        }
    }
    let at = |label: &str| -> usize {
        labels
            .iter()
            .find(|(name, _)| *name == label)
            .map_or(n, |&(_, at)| at)
    };
    let mut code = Vec::with_capacity(n);
    for op in ops {
        let here = code.len();
        let offset = |to: To| -> u8 {
            match to {
                To::Next => 0,
                To::At(label) => (at(label) - here - 1) as u8,
            }
        };
        let (op_code, k, jt, jf) = match *op {
            Op::Label(_) => continue,
            Op::Load(offset) => (libc::BPF_LD | libc::BPF_W | libc::BPF_ABS, offset, 0, 0),
            Op::And(mask) => (libc::BPF_ALU | libc::BPF_AND | libc::BPF_K, mask, 0, 0),
            Op::Equal(k, then, other) => (
                libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K,
                k,
                offset(then),
                offset(other),
            ),
            Op::Return(action) => (libc::BPF_RET | libc::BPF_K, action, 0, 0),
        };
        code.push(libc::sock_filter {
            code: op_code as u16,
            jt,
            jf,
            k,
        });
    }
    code
}

/// Installs `filter` on the calling process (and what it starts), with `no_new_privs`,
/// which an unprivileged process needs for it (and which a program run as a box uid has
/// already). Returns false if it could not.
///
/// # Safety
/// `filter` is a valid program (from [`program_filter`]); this changes the calling process
/// for good, so only a program's own process calls it, before `exec`.
pub(crate) unsafe fn install(filter: *const libc::sock_fprog) -> bool {
    // SAFETY: prctl with a valid filter program, as the caller promises.
    unsafe {
        libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0
            && libc::prctl(libc::PR_SET_SECCOMP, libc::SECCOMP_MODE_FILTER, filter) == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_jump_lands_inside_the_program() {
        let code = assemble(&program());
        let jump = (libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K) as u16;
        for (i, insn) in code.iter().enumerate() {
            if insn.code == jump {
                assert!(i + 1 + (insn.jt.max(insn.jf) as usize) < code.len(), "{i}");
            }
        }
        let ret = (libc::BPF_RET | libc::BPF_K) as u16;
        assert_eq!(code.last().map(|i| i.code), Some(ret));
    }

    /// In a forked child with the filter: the keyrings and vsock are refused with their
    /// errors, the rest works as before.
    #[test]
    fn keyrings_and_vsock_are_refused_and_nothing_else() {
        let filter = program_filter();
        // SAFETY: the child makes system calls only, then `_exit`s.
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0);
        if pid == 0 {
            // SAFETY: this is the forked child, which exits below whatever happens.
            let code = unsafe {
                let errno = || *libc::__errno_location();
                let installed = install(filter);
                let keyctl = libc::syscall(libc::SYS_keyctl, 0, -3, 0, 0, 0);
                let keyctl_errno = errno();
                let add_key = libc::syscall(
                    libc::SYS_add_key,
                    c"user".as_ptr(),
                    c"duipai-test".as_ptr(),
                    c"x".as_ptr(),
                    1,
                    -3,
                );
                let add_key_errno = errno();
                let vsock = libc::socket(libc::AF_VSOCK, libc::SOCK_STREAM, 0);
                let vsock_errno = errno();
                let unix = libc::socket(libc::AF_UNIX, libc::SOCK_STREAM, 0);
                let pid = libc::getpid();
                match () {
                    _ if !installed => 10,
                    _ if keyctl != -1 || keyctl_errno != libc::ENOSYS => 11,
                    _ if add_key != -1 || add_key_errno != libc::ENOSYS => 12,
                    _ if vsock != -1 || vsock_errno != libc::EAFNOSUPPORT => 13,
                    _ if unix < 0 || pid <= 0 => 14,
                    _ => 0,
                }
            };
            // SAFETY: ends the child.
            unsafe { libc::_exit(code) };
        }
        let mut status = 0;
        // SAFETY: our own child; status to a local.
        unsafe { libc::waitpid(pid, &mut status, 0) };
        assert!(libc::WIFEXITED(status), "{status}");
        assert_eq!(libc::WEXITSTATUS(status), 0);
    }
}
