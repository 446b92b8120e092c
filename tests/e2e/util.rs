//! What the end-to-end tests share: the binaries under test, temporary directories, runs.

use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use duipai::problem::{Instance, Problem};

/// The stored chess cases, the statement's sample `01-sample.in` among them.
pub const CHESS_CASES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/cases/chess");

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
            .env("PATH", path_without_shims())
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

/// A scratch directory holding a copy of the support folder `tests/support/<name>` (a
/// problem's programs, checker or interactor), with the vendored `testlib.h` beside them as a
/// problem setter keeps it. Fails unless g++ and python3 are installed: the programs are C++
/// and Python.
pub fn support_workspace(name: &str) -> tempfile::TempDir {
    require(&["g++", "python3"]);
    let support = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support");
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(support.join(name)).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
    }
    let testlib = support.join("testlib/testlib.h");
    std::fs::copy(testlib, dir.path().join("testlib.h")).unwrap();
    dir
}

/// `duipai` in `dir` with the build cache the whole test run shares (as every [`Duipai`]
/// has: a testlib checker, validator or interactor takes seconds to compile, and testlib.h's
/// precompiled header as long), and the default compilers whatever the caller's environment
/// names. A test that counts compiler runs keeps a cache of its own.
pub fn with_shared_cache(dir: &Path) -> Duipai {
    Duipai::in_dir(dir)
        .env_remove("DUIPAI_CXX")
        .env_remove("DUIPAI_PYTHON")
}

/// Runs `command` to its end with its stderr read line by line as it comes: its output (the
/// stdout), its stderr, and when the last line starting with `prefix` came, which a test of
/// how long something after that line took measures from.
pub fn run_noting_line(command: &mut Command, prefix: &str) -> (Output, String, Option<Instant>) {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut seen_at = None;
    let mut text = String::new();
    for line in std::io::BufRead::lines(stderr) {
        let line = line.unwrap();
        if line.starts_with(prefix) {
            seen_at = Some(Instant::now());
        }
        text.push_str(&line);
        text.push('\n');
    }
    let out = child.wait_with_output().unwrap();
    (out, text, seen_at)
}

/// PATH for the programs the tests run, with the `python3` they start settled once. When the
/// first `python3` in PATH is a version manager's shim (pyenv's is a shell script, ~100 ms a
/// start), the shims' folders are left out, so that scripts starting `python3` themselves
/// (`#!/usr/bin/env python3`, `sh -c 'python3 …'`) start a real interpreter directly, as duipai
/// does for the programs it is given: the first one further on (a system's, which starts
/// in 15 ms here against 70 ms for the version manager's build with its site's `.pth` files),
/// or, when there is none new enough for duipai's warm start (3.9), the one behind the shim,
/// put first. The JUnit reports are read with the `python3` of the tests' own PATH, where the
/// README installs junitparser (`crate::reports::junit_check`). nextest runs every test in a
/// process of its own: its setup script settles this once and hands the answer to every test
/// in [`crate::shared::PATH_VAR`].
pub fn path_without_shims() -> &'static std::ffi::OsStr {
    static PATH: std::sync::OnceLock<OsString> = std::sync::OnceLock::new();
    PATH.get_or_init(|| {
        if let Some(settled_once) = std::env::var_os(crate::shared::PATH_VAR) {
            return settled_once;
        }
        let path = std::env::var_os("PATH").unwrap_or_default();
        let dirs: Vec<PathBuf> = std::env::split_paths(&path).collect();
        let has_shim = |dir: &PathBuf| {
            std::fs::read(dir.join("python3")).is_ok_and(|bytes| bytes.starts_with(b"#!"))
        };
        if !dirs.iter().any(has_shim) {
            return path;
        }
        let unshimmed: Vec<PathBuf> = dirs.iter().filter(|d| !has_shim(d)).cloned().collect();
        let real = unshimmed
            .iter()
            .map(|dir| dir.join("python3"))
            .find(|p| p.is_file());
        if real.is_some_and(|python| runs_warm_starts(&python)) {
            return std::env::join_paths(unshimmed).unwrap();
        }
        let asked = Command::new("python3")
            .args(["-c", "import sys; print(sys.executable)"])
            .output()
            .expect("python3 runs");
        let executable = PathBuf::from(String::from_utf8(asked.stdout).unwrap().trim_end());
        let mut first = vec![executable.parent().unwrap().to_path_buf()];
        first.extend(dirs);
        std::env::join_paths(first).unwrap()
    })
}

/// Whether `python` is a CPython new enough for duipai's warm starts, which the tests of
/// Python programs count on.
fn runs_warm_starts(python: &Path) -> bool {
    Command::new(python)
        .args([
            "-c",
            "import sys; sys.exit(sys.implementation.name != 'cpython' or sys.version_info < (3, 9))",
        ])
        .status()
        .is_ok_and(|status| status.success())
}

/// Reads and parses a saved input of `problem` with the default bounds: it must be valid.
pub fn parse_file(problem: &'static dyn Problem, path: &Path) -> Box<dyn Instance> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    problem
        .parse(&bytes, &problem.default_bounds())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Fails the test unless `text` contains `needle`, showing both.
#[track_caller]
pub fn assert_contains(text: &str, needle: &str) {
    assert!(text.contains(needle), "{needle:?} is not in:\n{text}");
}

/// The case objects of a `test --json` summary.
pub fn case_objects(summary: &serde_json::Value) -> Vec<serde_json::Value> {
    summary["cases"].as_array().expect("cases").clone()
}

/// The case object named `name` among `cases`.
pub fn case<'a>(cases: &'a [serde_json::Value], name: &str) -> &'a serde_json::Value {
    cases
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no case {name} in {cases:?}"))
}

/// One invocation of the `duipai` binary, built up and then run, after the `Test` builder of
/// `just`'s test suite:
///
/// ```ignore
/// let report = Duipai::new()
///     .current_dir(dir)
///     .args(["stress", "chess", "--json"])
///     .fixture(["wrong", "chess"])
///     .run()
///     .code(1)
///     .json();
/// ```
///
/// The program under test (`.program`, `.fixture`) goes last, after `--`, whatever the order
/// of the calls. By default duipai runs in the tests' working directory (the package root),
/// with the tests' environment and an empty stdin.
#[derive(Clone, Debug, Default)]
pub struct Duipai {
    args: Vec<OsString>,
    program: Option<Vec<OsString>>,
    dir: Option<PathBuf>,
    stdin: Vec<u8>,
    env: Vec<(OsString, Option<OsString>)>,
    /// `--no-sandbox` after the subcommand's name.
    uncontained: bool,
    /// Run as this uid and gid (by `setpriv`, from a test run as root), with `HOME` set to
    /// its working folder.
    user: Option<u32>,
}

impl Duipai {
    pub fn new() -> Duipai {
        Duipai::default()
    }

    /// `Duipai::new().current_dir(dir)`.
    pub fn in_dir(dir: impl AsRef<Path>) -> Duipai {
        Duipai::new().current_dir(dir)
    }

    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> Duipai {
        self.args.push(arg.as_ref().to_owned());
        self
    }

    pub fn args<I, S>(mut self, args: I) -> Duipai
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_owned()));
        self
    }

    /// The program under test and its arguments, after `--`.
    pub fn program<I, S>(mut self, words: I) -> Duipai
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let program = self.program.get_or_insert_with(Vec::new);
        program.extend(words.into_iter().map(|w| w.as_ref().to_owned()));
        self
    }

    /// The fixture program with `words` (a behaviour and a problem, and any arguments of the
    /// behaviour) as the program under test.
    pub fn fixture<I, S>(self, words: I) -> Duipai
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.program([fixture()]).program(words)
    }

    pub fn current_dir(mut self, dir: impl AsRef<Path>) -> Duipai {
        self.dir = Some(dir.as_ref().to_path_buf());
        self
    }

    pub fn stdin(mut self, stdin: impl AsRef<[u8]>) -> Duipai {
        self.stdin = stdin.as_ref().to_vec();
        self
    }

    pub fn env(mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> Duipai {
        let value = Some(value.as_ref().to_owned());
        self.env.push((key.as_ref().to_owned(), value));
        self
    }

    pub fn env_remove(mut self, key: impl AsRef<OsStr>) -> Duipai {
        self.env.push((key.as_ref().to_owned(), None));
        self
    }

    /// Runs the programs without containment (`--no-sandbox` after the subcommand's name):
    /// as duipai's own children, which the fixtures' pid log (`DUIPAI_FIXTURE_PIDS`, an
    /// environment variable naming a file in the tests' `/tmp`) needs.
    pub fn uncontained(mut self) -> Duipai {
        self.uncontained = true;
        self
    }

    /// Every argument, the program's after `--`.
    fn words(&self) -> Vec<OsString> {
        let mut words = self.args.clone();
        if self.uncontained && !words.is_empty() {
            words.insert(1, "--no-sandbox".into());
        }
        if let Some(program) = &self.program {
            words.push("--".into());
            words.extend(program.iter().cloned());
        }
        words
    }

    /// Runs duipai as the ordinary user `uid` (its gid the same number), from a test run as
    /// root: by `setpriv`, without supplementary groups, `HOME` its working folder. The
    /// files it needs must be the user's (see `chown_to`).
    pub fn run_as(mut self, uid: u32) -> Duipai {
        self.user = Some(uid);
        self
    }

    fn command(&self) -> Command {
        let mut command = match self.user {
            None => Command::new(duipai()),
            Some(uid) => {
                let mut command = Command::new("setpriv");
                command
                    .arg(format!("--reuid={uid}"))
                    .arg(format!("--regid={uid}"))
                    .args(["--clear-groups", "--"])
                    .arg(duipai());
                if let Some(dir) = &self.dir {
                    command.env("HOME", dir);
                }
                command
            }
        };
        command.args(self.words());
        if let Some(dir) = &self.dir {
            command.current_dir(dir);
        }
        command.env("PATH", path_without_shims());
        // The tests check what minimization ends with, not how fast it gets there (the benches
        // do): a budget no run reaches, however busy the machine, makes that the same
        // everywhere. A test about the budget gives --shrink-time, which wins.
        command.env("DUIPAI_SHRINK_TIME", "600");
        // Sources build into the cache the whole suite shares, which lasts from run to run in
        // target/ (keyed by content and flags, like the test binaries), not into the user's
        // own: a test that counts compiler runs names a cache of its own, which wins. A run as
        // another user keeps the cache under its HOME, which it can write.
        if self.user.is_none() {
            command.env("DUIPAI_CACHE_DIR", crate::shared::build_cache());
        }
        for (key, value) in &self.env {
            match value {
                Some(value) => command.env(key, value),
                None => command.env_remove(key),
            };
        }
        command
    }

    /// Runs it to the end and returns what it did.
    pub fn run(&self) -> Ran {
        let mut child = self
            .command()
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("duipai starts");
        let mut pipe = child.stdin.take().expect("stdin is piped");
        // A command that does not read stdin may close it first; that is fine.
        let _ = pipe.write_all(&self.stdin);
        drop(pipe);
        let output = child.wait_with_output().expect("duipai finishes");
        Ran::new(self.words(), output)
    }

    /// Starts it in the background, with stdin closed.
    pub fn start(&self) -> Background {
        Background::start(self.command(), self.words())
    }
}

/// What a `duipai` run did: its exit status and output, with the assertions the tests make
/// on them. A failed assertion shows the command line, stdout and stderr.
pub struct Ran {
    words: Vec<OsString>,
    pub output: Output,
}

impl Ran {
    fn new(words: Vec<OsString>, output: Output) -> Ran {
        Ran { words, output }
    }

    /// The exit code, -1 for a run ended by a signal.
    pub fn exit_code(&self) -> i32 {
        self.output.status.code().unwrap_or(-1)
    }

    /// Fails the test unless duipai exited with `expected`.
    #[track_caller]
    pub fn code(self, expected: i32) -> Ran {
        assert_eq!(
            self.exit_code(),
            expected,
            "exit status of `{}` ({:?})\nstdout:\n{}\nstderr:\n{}",
            self.command_line(),
            self.output.status,
            self.stdout(),
            self.stderr()
        );
        self
    }

    /// Fails the test unless duipai exited 0.
    #[track_caller]
    pub fn success(self) -> Ran {
        self.code(0)
    }

    pub fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.output.stdout).into_owned()
    }

    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.output.stderr).into_owned()
    }

    /// The last line of stdout, parsed as JSON.
    #[track_caller]
    pub fn json(&self) -> serde_json::Value {
        let text = self.stdout();
        let line = text.lines().last().unwrap_or_default();
        serde_json::from_str(line).unwrap_or_else(|e| {
            panic!(
                "last stdout line of `{}` is not JSON ({e}): {line:?}\nstderr:\n{}",
                self.command_line(),
                self.stderr()
            )
        })
    }

    fn command_line(&self) -> String {
        let words: Vec<String> = self
            .words
            .iter()
            .map(|w| w.to_string_lossy().into_owned())
            .collect();
        format!("duipai {}", words.join(" "))
    }
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

/// A wait for a child's exit that wakes as it exits: a pidfd, where the kernel has them. A
/// poll every 10 ms instead cost each of the suite's two thousand duipai runs 5 ms of waiting
/// on average, all of it on the suite's clock.
struct ExitWatch(Option<std::os::fd::OwnedFd>);

impl ExitWatch {
    fn of(pid: i32) -> ExitWatch {
        use std::os::fd::FromRawFd;
        // SAFETY: pidfd_open takes a pid and flags and returns a new descriptor or -1.
        let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
        // SAFETY: a descriptor pidfd_open just returned, owned by nothing else.
        ExitWatch((fd >= 0).then(|| unsafe { std::os::fd::OwnedFd::from_raw_fd(fd as i32) }))
    }

    /// Sleeps until the child exits, `deadline` comes, or a second passes; 10 ms without a
    /// pidfd.
    fn wait(&self, deadline: Instant) {
        use std::os::fd::AsRawFd;
        let Some(fd) = &self.0 else {
            std::thread::sleep(Duration::from_millis(10));
            return;
        };
        let left = deadline.saturating_duration_since(Instant::now());
        let mut poll = libc::pollfd {
            fd: fd.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        let ms = left.as_millis().clamp(1, 1000) as libc::c_int;
        // SAFETY: one valid pollfd, its count, a timeout.
        unsafe { libc::poll(&mut poll, 1, ms) };
    }
}

/// A `duipai` process started in the background, its output drained by threads so that it
/// never blocks on a full pipe, and awaited against a deadline.
pub struct Background {
    words: Vec<OsString>,
    child: std::process::Child,
    stdout: Option<std::thread::JoinHandle<Vec<u8>>>,
    stderr: Option<std::thread::JoinHandle<Vec<u8>>>,
    started: Instant,
}

impl Background {
    /// Starts `command` (duipai with `words`) with an empty stdin.
    fn start(mut command: Command, words: Vec<OsString>) -> Background {
        command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
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
            words,
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
    /// Returns what it did and how long it ran in all.
    pub fn finish_within(mut self, bound: Duration) -> (Ran, Duration) {
        let deadline = Instant::now() + bound;
        let exit = ExitWatch::of(self.pid());
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
            exit.wait(deadline);
        };
        let took = self.started.elapsed();
        let stdout = self.stdout.take().map(|t| t.join().unwrap_or_default());
        let stderr = self.stderr.take().map(|t| t.join().unwrap_or_default());
        let output = Output {
            status,
            stdout: stdout.unwrap_or_default(),
            stderr: stderr.unwrap_or_default(),
        };
        (Ran::new(std::mem::take(&mut self.words), output), took)
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

/// Writes `text` to `path`, executable (mode 755).
pub fn write_executable(path: &Path, text: impl AsRef<[u8]>) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
        .unwrap_or_else(|e| panic!("chmod {}: {e}", path.display()));
}

/// Writes the shell script `#!/bin/sh`, `body` as `dir/name`, executable; returns its path.
pub fn write_sh(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    write_executable(&path, format!("#!/bin/sh\n{body}\n"));
    path
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

/// A scratch folder holding a copy of the problem folder `folder` (relative to the
/// repository: `examples/rangesum`) with its subfolders (submissions, samples, invalid
/// inputs), the files of the folder `with` it shares (a generator, a validator) and the
/// vendored `testlib.h`. Fails unless g++ and python3 are installed.
pub fn problem_folder(folder: &str, with: Option<&str>) -> tempfile::TempDir {
    require(&["g++", "python3"]);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    if let Some(with) = with {
        for file in ["gen.py", "gen_big.cpp", "validator.cpp"] {
            std::fs::copy(root.join(with).join(file), dir.path().join(file)).unwrap();
        }
    }
    copy_tree(&root.join(folder), dir.path());
    let testlib = root.join("tests/support/testlib/testlib.h");
    std::fs::copy(testlib, dir.path().join("testlib.h")).unwrap();
    dir
}

/// Copies every file below `from` to the same place below `to`.
pub fn copy_tree(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_tree(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

/// Gives `path` and everything below it to `uid` (its gid the same number), for a duipai
/// run [`Duipai::run_as`].
pub fn chown_to(path: &Path, uid: u32) {
    for entry in walkdir::WalkDir::new(path) {
        let entry = entry.expect("walk");
        std::os::unix::fs::lchown(entry.path(), Some(uid), Some(uid)).expect("chown");
    }
}
