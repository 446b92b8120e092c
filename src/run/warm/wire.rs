//! What duipai and a warm interpreter say to each other (`duipai_warm.py` reads and writes
//! the other side): a request for a run, as fields separated by NUL bytes (none of them can
//! hold one: they come from C strings), and the replies.

use std::ffi::CString;

use super::super::clone::Rlimit;

/// How a run's process sets itself up besides its command line, environment and rlimits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Flags {
    /// It gives up its controlling terminal.
    pub no_terminal: bool,
    /// It raises its `oom_score_adj`, as a program beside a spawner in a slot does.
    pub oom_first: bool,
}

/// One run, as the request says it: `run`, the flags, the folder, argv, the environment,
/// the rlimits (`kind soft hard required`, an unlimited value as -1, Python's
/// `RLIM_INFINITY`) and how many cgroup files come after the three standard streams and the
/// pipe the run's process waits on to go.
pub(super) struct Run<'a> {
    pub flags: Flags,
    pub cwd: &'a [u8],
    pub argv: &'a [CString],
    pub env: &'a [CString],
    pub rlimits: &'a [Rlimit],
    pub cgroups: usize,
}

impl Run<'_> {
    pub(super) fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(4096);
        let mut field = |bytes: &[u8]| {
            if !out.is_empty() {
                out.push(0);
            }
            out.extend_from_slice(bytes);
        };
        field(b"run");
        let flags = [(self.flags.no_terminal, "t"), (self.flags.oom_first, "o")];
        let flags: String = flags.iter().filter(|f| f.0).map(|f| f.1).collect();
        field(flags.as_bytes());
        field(self.cwd);
        field(self.argv.len().to_string().as_bytes());
        for arg in self.argv {
            field(arg.as_bytes());
        }
        field(self.env.len().to_string().as_bytes());
        for var in self.env {
            field(var.as_bytes());
        }
        field(self.rlimits.len().to_string().as_bytes());
        for rlimit in self.rlimits {
            let value = |v: libc::rlim_t| {
                if v == libc::RLIM_INFINITY {
                    "-1".to_string()
                } else {
                    v.to_string()
                }
            };
            let line = format!(
                "{} {} {} {}",
                rlimit.resource,
                value(rlimit.limit.rlim_cur),
                value(rlimit.limit.rlim_max),
                u8::from(rlimit.required)
            );
            field(line.as_bytes());
        }
        field(self.cgroups.to_string().as_bytes());
        out
    }
}

/// What the server said of a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Reply {
    /// The run's process is set up, and waits for the word to go: its pid.
    Started { pid: i32 },
    /// It could not be set up: at what stage, the `errno`, and its pid (an exited child of
    /// duipai's, to reap) if it was forked.
    Failed {
        stage: String,
        errno: i32,
        pid: Option<i32>,
    },
}

impl Reply {
    pub(super) fn decode(reply: &[u8]) -> Option<Reply> {
        let text = std::str::from_utf8(reply).ok()?;
        let words: Vec<&str> = text.split_whitespace().collect();
        match words.as_slice() {
            ["ok", pid] => Some(Reply::Started {
                pid: pid.parse().ok().filter(|&p: &i32| p > 0)?,
            }),
            ["fail", stage, errno, rest @ ..] => Some(Reply::Failed {
                stage: (*stage).to_string(),
                errno: errno.parse().ok()?,
                pid: rest.first().and_then(|p| p.parse().ok()).filter(|&p| p > 0),
            }),
            _ => None,
        }
    }
}

/// The server's greeting: `Ok` when it serves, else why it cannot stand for a fresh start.
pub(super) fn decode_hello(hello: &[u8]) -> Result<(), String> {
    match hello {
        b"ok" => Ok(()),
        _ => Err(match hello.strip_prefix(b"no ") {
            Some(why) => String::from_utf8_lossy(why).into_owned(),
            None => "its warm interpreter did not start".to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_is_its_fields_between_nul_bytes() {
        let argv = [c"python3".to_owned(), c"gen.py".to_owned(), c"7".to_owned()];
        let env = [c"PATH=/bin".to_owned()];
        let rlimits = [Rlimit {
            resource: libc::RLIMIT_STACK,
            limit: libc::rlimit {
                rlim_cur: 8 << 20,
                rlim_max: libc::RLIM_INFINITY,
            },
            required: true,
        }];
        let run = Run {
            flags: Flags {
                no_terminal: true,
                oom_first: false,
            },
            cwd: b"/tmp/p",
            argv: &argv,
            env: &env,
            rlimits: &rlimits,
            cgroups: 2,
        };
        let fields: Vec<&[u8]> = Vec::leak(run.encode()).split(|&b| b == 0).collect();
        let stack = format!("{} 8388608 -1 1", libc::RLIMIT_STACK);
        let expected: Vec<&[u8]> = vec![
            b"run",
            b"t",
            b"/tmp/p",
            b"3",
            b"python3",
            b"gen.py",
            b"7",
            b"1",
            b"PATH=/bin",
            b"1",
            stack.as_bytes(),
            b"2",
        ];
        assert_eq!(fields, expected);
    }

    #[test]
    fn replies_say_started_or_failed() {
        assert_eq!(Reply::decode(b"ok 123"), Some(Reply::Started { pid: 123 }));
        assert_eq!(
            Reply::decode(b"fail directory 2 99"),
            Some(Reply::Failed {
                stage: "directory".into(),
                errno: 2,
                pid: Some(99)
            })
        );
        assert_eq!(
            Reply::decode(b"fail fork 11"),
            Some(Reply::Failed {
                stage: "fork".into(),
                errno: 11,
                pid: None
            })
        );
        assert_eq!(Reply::decode(b"bad"), None);
        assert_eq!(Reply::decode(b"ok -1"), None);
        assert_eq!(Reply::decode(b"ok 12 5"), None);
        assert_eq!(decode_hello(b"ok"), Ok(()));
        assert_eq!(
            decode_hello(b"no it is not CPython 3.9 or newer"),
            Err("it is not CPython 3.9 or newer".to_string())
        );
    }
}
