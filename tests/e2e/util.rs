//! What the end-to-end tests share: the binaries under test, temporary directories, runs.

use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The `duipai` binary built for this test run.
pub fn duipai() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_duipai"))
}

/// The fixture program (a workspace member, built beside `duipai`).
pub fn fixture() -> PathBuf {
    let path = duipai().with_file_name("duipai-fixture");
    assert!(
        path.exists(),
        "{} is missing: the fixture programs are a workspace member; run `cargo test --workspace` \
         (or plain `cargo test` at the root) so that they are built",
        path.display()
    );
    path
}

/// The CPU time the calling thread has used: what a timing assertion can rely on when other
/// programs share the machine.
pub fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes into a valid timespec.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// What to install for a tool the tests need.
fn install_hint(program: &str) -> &'static str {
    match program {
        "cc" | "gcc" => "a C compiler (Debian/Ubuntu: apt-get install gcc)",
        "g++" => "a C++ compiler (Debian/Ubuntu: apt-get install g++)",
        "python3" => "Python 3 (Debian/Ubuntu: apt-get install python3)",
        "javac" | "java" => "a Java JDK (Debian/Ubuntu: apt-get install default-jdk-headless)",
        "rustc" => "Rust (https://rustup.rs)",
        _ => "it",
    }
}

/// Fails the test unless every one of `programs` runs (`PROGRAM --version`), saying what to
/// install: a test that needs a tool never passes without it.
pub fn require(programs: &[&str]) {
    for program in programs {
        let runs = Command::new(program)
            .arg("--version")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok();
        assert!(
            runs,
            "this test needs `{program}`, which is not installed: install {}",
            install_hint(program)
        );
    }
}

/// Runs `duipai ARGS` in `dir` with `stdin`, and returns its output.
pub fn run_duipai(dir: &Path, args: &[&OsStr], stdin: &[u8]) -> Output {
    let mut child = Command::new(duipai())
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("duipai starts");
    let mut pipe = child.stdin.take().expect("stdin is piped");
    // A command that does not read stdin may close it first; that is fine.
    let _ = pipe.write_all(stdin);
    drop(pipe);
    child.wait_with_output().expect("duipai finishes")
}

/// `duipai` with string arguments.
pub fn duipai_in(dir: &Path, args: &[&str]) -> Output {
    let args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
    run_duipai(dir, &args, b"")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The last line of stdout, parsed as JSON.
pub fn last_json(output: &Output) -> serde_json::Value {
    let text = stdout(output);
    let line = text.lines().last().unwrap_or_default();
    serde_json::from_str(line).unwrap_or_else(|e| {
        panic!(
            "last stdout line is not JSON ({e}): {line:?}\nstderr:\n{}",
            stderr(output)
        )
    })
}

pub fn code(output: &Output) -> i32 {
    output.status.code().unwrap_or(-1)
}

/// A file the fixture programs record their pids in (`DUIPAI_FIXTURE_PIDS`), so that a test
/// can check that every process a run started, forked children and grandchildren included,
/// is gone afterwards.
pub struct PidLog {
    dir: tempfile::TempDir,
}

impl PidLog {
    pub const VAR: &'static str = "DUIPAI_FIXTURE_PIDS";

    pub fn new() -> PidLog {
        PidLog {
            dir: tempfile::tempdir().expect("tempdir for the pid log"),
        }
    }

    pub fn path(&self) -> PathBuf {
        self.dir.path().join("pids")
    }

    /// The pids recorded so far (a line cut short by a kill is skipped).
    pub fn pids(&self) -> Vec<i32> {
        std::fs::read_to_string(self.path())
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect()
    }

    /// Waits up to `grace` for every recorded process to be gone, else kills them and fails
    /// the test naming them. Returns how many processes were recorded.
    pub fn assert_none_alive(&self, grace: Duration) -> usize {
        let pids = self.pids();
        let deadline = Instant::now() + grace;
        loop {
            let alive: Vec<i32> = pids
                .iter()
                .copied()
                .filter(|&pid| self.is_alive(pid))
                .collect();
            if alive.is_empty() {
                return pids.len();
            }
            if Instant::now() >= deadline {
                let states: Vec<String> = alive
                    .iter()
                    .map(|pid| {
                        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"));
                        format!("{pid}: {}", stat.unwrap_or_default().trim())
                    })
                    .collect();
                // Clean up before failing, so that a failing test leaks nothing either.
                for &pid in &alive {
                    // SAFETY: kill has no memory effects; the pid was checked to be ours.
                    unsafe { libc::kill(pid, libc::SIGKILL) };
                }
                panic!(
                    "{} of {} recorded fixture processes survived:\n{}",
                    alive.len(),
                    pids.len(),
                    states.join("\n")
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Alive: present in /proc, not a zombie (init reaps those), and still one of ours (its
    /// environment names this log), so that a reused pid is not mistaken for a survivor.
    fn is_alive(&self, pid: i32) -> bool {
        let Ok(stat) = std::fs::read(format!("/proc/{pid}/stat")) else {
            return false;
        };
        if process_state(&stat) == Some(b'Z') {
            return false;
        }
        match std::fs::read(format!("/proc/{pid}/environ")) {
            Ok(environ) => {
                let mut ours = format!("{}=", Self::VAR).into_bytes();
                ours.extend_from_slice(self.path().as_os_str().as_encoded_bytes());
                environ.split(|&b| b == 0).any(|entry| entry == ours)
            }
            // Gone between the two reads, or not ours to read: only ours count.
            Err(_) => false,
        }
    }
}

/// The state letter of a `/proc/<pid>/stat` line: the first field after the name, which is
/// in parentheses and may itself hold spaces and parentheses.
pub fn process_state(stat: &[u8]) -> Option<u8> {
    let close = stat.iter().rposition(|&b| b == b')')?;
    stat.get(close + 1..)?
        .iter()
        .copied()
        .find(|b| !b.is_ascii_whitespace())
}

/// A `duipai` process started in the background, its output drained by threads so that it
/// never blocks on a full pipe, and awaited against a deadline.
pub struct Background {
    child: std::process::Child,
    stdout: Option<std::thread::JoinHandle<Vec<u8>>>,
    stderr: Option<std::thread::JoinHandle<Vec<u8>>>,
    started: Instant,
}

impl Background {
    /// Starts `duipai ARGS` in `dir` with extra environment variables and an empty stdin.
    pub fn start(dir: &Path, args: &[&OsStr], env: &[(&str, &OsStr)]) -> Background {
        let mut command = Command::new(duipai());
        command
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (key, value) in env {
            command.env(key, value);
        }
        let mut child = command.spawn().expect("duipai starts");
        let drain = |mut pipe: Box<dyn std::io::Read + Send>| {
            std::thread::spawn(move || {
                let mut bytes = Vec::new();
                let _ = pipe.read_to_end(&mut bytes);
                bytes
            })
        };
        let stdout = drain(Box::new(child.stdout.take().expect("stdout is piped")));
        let stderr = drain(Box::new(child.stderr.take().expect("stderr is piped")));
        Background {
            child,
            stdout: Some(stdout),
            stderr: Some(stderr),
            started: Instant::now(),
        }
    }

    pub fn pid(&self) -> i32 {
        self.child.id() as i32
    }

    /// Whether it has exited (without collecting its output).
    pub fn has_exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }

    /// Sends `signal` to it (only to it: the programs it runs are in their own groups), unless
    /// it has exited already; returns whether it was sent.
    pub fn signal(&mut self, signal: i32) -> bool {
        if self.has_exited() {
            return false;
        }
        // SAFETY: kill has no memory effects; the child is not reaped (`has_exited` would have
        // reaped it), so the pid is still ours.
        let r = unsafe { libc::kill(self.pid(), signal) };
        assert_eq!(r, 0, "kill({}, {signal})", self.pid());
        true
    }

    /// Waits for it to exit within `bound` from now; past that, kills it and fails the test.
    /// Returns its output and how long it ran in all.
    pub fn finish_within(mut self, bound: Duration) -> (Output, Duration) {
        let deadline = Instant::now() + bound;
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                break status;
            }
            if Instant::now() >= deadline {
                let _ = self.child.kill();
                let _ = self.child.wait();
                let stderr = self.stderr.take().map(|t| t.join().unwrap_or_default());
                panic!(
                    "duipai overstayed {bound:?} (ran {:?}) and was killed; stderr:\n{}",
                    self.started.elapsed(),
                    String::from_utf8_lossy(&stderr.unwrap_or_default())
                );
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        let took = self.started.elapsed();
        let stdout = self.stdout.take().map(|t| t.join().unwrap_or_default());
        let stderr = self.stderr.take().map(|t| t.join().unwrap_or_default());
        let output = Output {
            status,
            stdout: stdout.unwrap_or_default(),
            stderr: stderr.unwrap_or_default(),
        };
        (output, took)
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        // A test that fails midway must not leave duipai running.
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Waits until a file just written can be executed: while another thread of the tests starts
/// a process, that process holds a copy of every descriptor open at that moment until it
/// `exec`s, and the kernel refuses to run a file open for writing (ETXTBSY).
pub fn wait_until_executable(program: &Path) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match Command::new(program)
            .arg("--version")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
        {
            Ok(_) => return,
            Err(e) if e.raw_os_error() == Some(libc::ETXTBSY) && Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) => panic!("cannot run {}: {e}", program.display()),
        }
    }
}
