//! The messages between the harness and a spawner: a request to start a program (with its
//! three standard streams passed alongside as descriptors), the reply (with when the program's
//! `exec` returned, by `CLOCK_MONOTONIC`), and the greeting a new
//! spawner sends when it is ready. Both ends are the same executable, so numbers travel in
//! native byte order; every message starts with a magic number all the same.

use std::ffi::{CStr, c_int};

use crate::run::clone::{Failed, Program, Rlimit, Setup, Stage};

/// "dspw": the first word of every message.
pub(super) const MAGIC: u32 = 0x6473_7077;

/// The largest request a spawner reads (a longer command line is started by the harness
/// itself); a `SOCK_SEQPACKET` message must fit the socket's buffer anyway.
pub(super) const MAX_REQUEST: usize = 192 * 1024;

/// The greeting is three words.
pub(super) const WORDS_LEN: usize = 12;

/// The reply is three words, then a 64-bit time.
pub(super) const REPLY_LEN: usize = WORDS_LEN + 8;

const HEADER_WORDS: usize = 9;
const RLIMIT_LEN: usize = 24;

fn push_u32(buf: &mut Vec<u8>, value: u32) {
    buf.extend_from_slice(&value.to_ne_bytes());
}

/// Writes the request to start `program` into `buf`: the header (magic, then the counts of
/// rlimits, candidates, arguments, environment entries, whether there is a working
/// directory, the setup's flags, uid and gid), the rlimits, then every string with its NUL. The working directory is the
/// program's own, else `cwd` (else the spawner's); `setup` replaces the program's.
// rlim_t and the resource type differ in width between targets.
#[allow(clippy::unnecessary_cast)]
pub(super) fn encode_request(
    program: &Program,
    cwd: Option<&CStr>,
    setup: Setup,
    buf: &mut Vec<u8>,
) {
    let cwd = program.cwd.as_deref().or(cwd);
    buf.clear();
    push_u32(buf, MAGIC);
    push_u32(buf, program.rlimits.len() as u32);
    push_u32(buf, program.candidates.len() as u32);
    push_u32(buf, program.argv.len() as u32);
    push_u32(buf, program.env.len() as u32);
    push_u32(buf, u32::from(cwd.is_some()));
    let flags = u32::from(setup.no_terminal)
        | u32::from(setup.oom_first) << 1
        | u32::from(setup.credentials.is_some()) << 2
        | u32::from(setup.filter) << 4;
    push_u32(buf, flags);
    let (uid, gid) = setup.credentials.unwrap_or_default();
    push_u32(buf, uid);
    push_u32(buf, gid);
    for rlimit in program.rlimits {
        push_u32(buf, rlimit.resource as u32);
        push_u32(buf, u32::from(rlimit.required));
        buf.extend_from_slice(&(rlimit.limit.rlim_cur as u64).to_ne_bytes());
        buf.extend_from_slice(&(rlimit.limit.rlim_max as u64).to_ne_bytes());
    }
    let mut push = |s: &CStr| buf.extend_from_slice(s.to_bytes_with_nul());
    if let Some(cwd) = cwd {
        push(cwd);
    }
    for c in program
        .candidates
        .iter()
        .chain(&program.argv)
        .chain(&program.env)
    {
        push(c);
    }
}

/// A request as the spawner reads it: pointers into the received bytes, each list
/// null-terminated, ready for a [`crate::run::clone::ChildSetup`].
pub(super) struct Request {
    pub rlimits: Vec<Rlimit>,
    pub cwd: *const libc::c_char,
    pub candidates: Vec<*const libc::c_char>,
    pub argv: Vec<*const libc::c_char>,
    pub envp: Vec<*const libc::c_char>,
    pub setup: Setup,
}

fn word(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_ne_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

fn wide(bytes: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_ne_bytes(bytes.get(at..at + 8)?.try_into().ok()?))
}

/// Reads a request; `None` if it is malformed. The pointers point into `bytes`.
#[allow(clippy::unnecessary_cast)]
pub(super) fn decode_request(bytes: &[u8]) -> Option<Request> {
    let header: Vec<u32> = (0..HEADER_WORDS)
        .map(|i| word(bytes, 4 * i))
        .collect::<Option<_>>()?;
    let [
        magic,
        n_rlimits,
        n_candidates,
        n_argv,
        n_env,
        has_cwd,
        flags,
        uid,
        gid,
    ] = header[..]
    else {
        return None;
    };
    if magic != MAGIC {
        return None;
    }
    let mut at = 4 * HEADER_WORDS;
    let mut rlimits = Vec::with_capacity(n_rlimits as usize);
    for _ in 0..n_rlimits {
        rlimits.push(Rlimit {
            resource: word(bytes, at)? as libc::__rlimit_resource_t,
            required: word(bytes, at + 4)? != 0,
            limit: libc::rlimit {
                rlim_cur: wide(bytes, at + 8)? as libc::rlim_t,
                rlim_max: wide(bytes, at + 16)? as libc::rlim_t,
            },
        });
        at += RLIMIT_LEN;
    }
    let mut strings = bytes.get(at..)?.split_inclusive(|&b| b == 0);
    let mut take = |n: u32| -> Option<Vec<*const libc::c_char>> {
        let mut list = Vec::with_capacity(n as usize + 1);
        for _ in 0..n {
            let s = strings.next().filter(|s| s.last() == Some(&0))?;
            list.push(s.as_ptr().cast());
        }
        list.push(std::ptr::null());
        Some(list)
    };
    let cwd = if has_cwd != 0 {
        take(1)?[0]
    } else {
        std::ptr::null()
    };
    let candidates = take(n_candidates)?;
    let argv = take(n_argv)?;
    let envp = take(n_env)?;
    let setup = Setup {
        no_terminal: flags & 1 != 0,
        oom_first: flags & 2 != 0,
        credentials: (flags & 4 != 0).then_some((uid, gid)),
        filter: flags & 16 != 0,
    };
    Some(Request {
        rlimits,
        cwd,
        candidates,
        argv,
        envp,
        setup,
    })
}

/// Three native-endian words.
fn words(a: u32, b: u32, c: u32) -> [u8; WORDS_LEN] {
    let mut out = [0u8; WORDS_LEN];
    out[..4].copy_from_slice(&a.to_ne_bytes());
    out[4..8].copy_from_slice(&b.to_ne_bytes());
    out[8..].copy_from_slice(&c.to_ne_bytes());
    out
}

fn unwords(bytes: &[u8]) -> Option<(u32, u32, u32)> {
    if bytes.len() != WORDS_LEN {
        return None;
    }
    Some((word(bytes, 0)?, word(bytes, 4)?, word(bytes, 8)?))
}

/// The reply to a request: the program's pid, or what failed (a failed child's pid, or -1),
/// and when its `exec` returned in the spawner (`CLOCK_MONOTONIC`, in nanoseconds; 0 if it
/// failed).
pub(super) fn encode_reply(result: Result<i32, Failed>, started: u64) -> [u8; REPLY_LEN] {
    let head = match result {
        Ok(pid) => words(pid as u32, Stage::None as u32, 0),
        Err(f) => words(f.pid as u32, f.stage as u32, f.errno as u32),
    };
    let mut out = [0u8; REPLY_LEN];
    out[..WORDS_LEN].copy_from_slice(&head);
    out[WORDS_LEN..].copy_from_slice(&started.to_ne_bytes());
    out
}

pub(super) fn decode_reply(bytes: &[u8]) -> Option<(Result<i32, Failed>, u64)> {
    if bytes.len() != REPLY_LEN {
        return None;
    }
    let (pid, stage, errno) = unwords(&bytes[..WORDS_LEN])?;
    let started = wide(bytes, WORDS_LEN)?;
    let (pid, errno) = (pid as i32, errno as c_int);
    let result = match Stage::from_code(stage as i32) {
        Stage::None if pid > 0 => Ok(pid),
        Stage::None => return None,
        stage => Err(Failed { pid, stage, errno }),
    };
    Some((result, started))
}

/// The greeting of a spawner that is ready: the magic and its pid.
pub(super) fn encode_hello(pid: i32) -> [u8; WORDS_LEN] {
    words(MAGIC, pid as u32, 0)
}

pub(super) fn decode_hello(bytes: &[u8]) -> Option<i32> {
    let (magic, pid, _) = unwords(bytes)?;
    (magic == MAGIC).then_some(pid as i32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CString;

    fn c(s: &str) -> CString {
        CString::new(s).unwrap()
    }

    fn read(p: *const libc::c_char) -> String {
        // SAFETY: a pointer decode_request made into the NUL-terminated strings of the buffer.
        unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
    }

    #[test]
    fn a_request_reads_back_as_written() {
        let rlimits = [Rlimit {
            resource: libc::RLIMIT_STACK,
            limit: libc::rlimit {
                rlim_cur: 1 << 20,
                rlim_max: u64::MAX as libc::rlim_t,
            },
            required: true,
        }];
        let program = Program {
            candidates: vec![c("/bin/a"), c("/usr/bin/a")],
            argv: vec![c("a"), c("x y")],
            env: vec![c("PATH=/bin"), c("DUIPAI_WIRE_TEST=5")],
            cwd: Some(c("/tmp")),
            rlimits: &rlimits,
            setup: Setup {
                no_terminal: true,
                oom_first: false,
                credentials: Some((70001, 70002)),
                filter: false,
            },
        };
        let mut buf = Vec::new();
        encode_request(&program, None, program.setup, &mut buf);
        let request = decode_request(&buf).expect("decodes");
        assert_eq!(read(request.cwd), "/tmp");
        let names: Vec<String> = request.candidates[..2].iter().map(|&p| read(p)).collect();
        assert_eq!(names, ["/bin/a", "/usr/bin/a"]);
        assert!(request.candidates[2].is_null());
        assert_eq!(read(request.argv[1]), "x y");
        let env: Vec<String> = request
            .envp
            .iter()
            .take_while(|p| !p.is_null())
            .map(|&p| read(p))
            .collect();
        assert_eq!(env.last().map(String::as_str), Some("DUIPAI_WIRE_TEST=5"));
        assert_eq!(request.rlimits.len(), 1);
        assert_eq!(request.rlimits[0].limit.rlim_cur, 1 << 20);
        assert!(request.rlimits[0].required);
        assert_eq!(request.setup, program.setup);
        // Cut anywhere, it is refused rather than read past its end.
        for len in [0, 10, buf.len() - 1] {
            assert!(decode_request(&buf[..len]).is_none(), "{len}");
        }
    }

    #[test]
    fn replies_and_greetings_read_back() {
        assert_eq!(
            decode_reply(&encode_reply(Ok(42), 123)).map(|(r, t)| (r.ok(), t)),
            Some((Some(42), 123))
        );
        let failed = Failed {
            pid: 7,
            stage: Stage::Exec,
            errno: libc::ENOENT,
        };
        let back = decode_reply(&encode_reply(Err(failed), 0))
            .unwrap()
            .0
            .unwrap_err();
        assert_eq!(
            (back.pid, back.stage, back.errno),
            (7, Stage::Exec, libc::ENOENT)
        );
        assert_eq!(decode_hello(&encode_hello(99)), Some(99));
        assert_eq!(decode_hello(&encode_reply(Ok(99), 0)), None);
        assert!(decode_reply(&encode_hello(99)).is_none());
    }
}
