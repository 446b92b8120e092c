//! Contained runs against hostile programs, end to end: the real `duipai test`, in its
//! default mode (every protection the machine allows), judging one case of the problem `sum`
//! ("A B", answer A + B) with programs that attack the harness, its files or the limits
//! (`tests/support/contained/hostile.c`, one attack per mode). Each prints the right answer
//! when its attack fails, and something else when it works, so the verdict tells.
//!
//! Each attack is stopped by a protection the machine may not offer: a cgroup for the runs
//! (the process, memory and CPU accounting) or namespaces for the program (its own PID
//! namespace, mount view, network). Where one is missing, the test does not run the attack
//! (a fork bomb without a cgroup would take the machine) and asserts instead what duipai
//! promises there: the line naming the missing protection, and `--sandbox` refusing to run
//! (exit 2). So every test asserts something true either way; on a CI machine as root, with
//! cgroups and namespaces, the attacks run.
//!
//! Each test copies the compiled fixture into its own folder, so that, once duipai is done,
//! no process running that copy may remain (the test scans `/proc`).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::util::{Duipai, Ran, assert_contains, case_objects, require, write_sh};

/// The protections the tests depend on, as duipai's missing-protection lines name them.
const CGROUP: &str = "cgroup for the runs";
const NAMESPACES: &str = "namespaces for the program";

/// Small limits, so that every hostile run ends within about a second.
const LIMITS: [&str; 8] = [
    "--time-limit",
    "500",
    "--wall-limit",
    "2000",
    "--memory-limit",
    "64",
    "--process-limit",
    "16",
];

/// A bound that catches a hang (a stopped duipai), not a measurement.
const BOUND: Duration = Duration::from_secs(60);

/// The fixture, compiled once for as long as its source and the compiler stay the same: every
/// test runs in a process of its own (nextest), and compiling it in each cost ~0.25 s of CPU a
/// test. The build is named by a hash of the source and of `cc --version`, written under a
/// name of this process's own and renamed into place, so tests racing to build it never see
/// half a file.
fn compiled() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        use std::hash::{Hash, Hasher};
        require(&["cc"]);
        let source =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/contained/hostile.c");
        let version = Command::new("cc")
            .arg("--version")
            .output()
            .expect("cc runs");
        // SipHash with fixed keys: the same name in every process and run of one toolchain.
        let mut hasher = std::hash::DefaultHasher::new();
        fs::read(&source).unwrap().hash(&mut hasher);
        version.stdout.hash(&mut hasher);
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
        let out = dir.join(format!("contained-hostile-{:016x}", hasher.finish()));
        if out.exists() {
            return out;
        }
        let building = dir.join(format!("contained-hostile-{}.building", std::process::id()));
        let status = Command::new("cc")
            .args(["-O2", "-o"])
            .arg(&building)
            .arg(&source)
            .status()
            .expect("cc runs");
        assert!(status.success(), "cannot compile {}", source.display());
        fs::rename(&building, &out).unwrap();
        out
    })
}

/// A test's folder: `pack/a.in` ("2 3") with `pack/a.ans` ("5"), and its own copy of the
/// fixture, `bin/hostile`.
struct Folder {
    dir: tempfile::TempDir,
    /// The ordinary user duipai runs as, when the test is root (see [`ordinary_user`]).
    user: Option<u32>,
}

impl Folder {
    fn new() -> Folder {
        let dir = tempfile::tempdir().expect("tempdir");
        let pack = dir.path().join("pack");
        fs::create_dir(&pack).unwrap();
        fs::write(pack.join("a.in"), "2 3\n").unwrap();
        fs::write(pack.join("a.ans"), "5\n").unwrap();
        let bin = dir.path().join("bin");
        fs::create_dir(&bin).unwrap();
        fs::copy(compiled(), bin.join("hostile")).unwrap();
        Folder { dir, user: None }
    }

    /// A folder whose runs are an ordinary user's: given to that user, and duipai run as it
    /// (from a test run as root); `None` when the test is no root (it is an ordinary user
    /// itself) or when that user may not have namespaces here (said on stderr).
    fn of_ordinary_user() -> Option<Folder> {
        let uid = ordinary_user()?;
        let mut folder = Folder::new();
        crate::util::chown_to(folder.path(), uid);
        folder.user = Some(uid);
        let (doctor, _) = folder
            .duipai()
            .args(["doctor"])
            .start()
            .finish_within(BOUND);
        let namespaces = doctor
            .stdout()
            .lines()
            .any(|l| l.trim_start().starts_with("ok") && l.contains("namespaces"));
        if !namespaces {
            eprintln!(
                "an ordinary user gets no namespaces here, so these attacks are run as root \
                 only:\n{}",
                doctor.stdout()
            );
            return None;
        }
        Some(folder)
    }

    /// duipai in the folder, as its user.
    fn duipai(&self) -> Duipai {
        let duipai = Duipai::in_dir(self.path());
        match self.user {
            Some(uid) => duipai.run_as(uid),
            None => duipai,
        }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn pack(&self) -> PathBuf {
        self.path().join("pack")
    }

    fn program(&self) -> PathBuf {
        self.path().join("bin/hostile")
    }

    /// `duipai test sum pack --json` with the small limits, `extra` flags, the fixture in
    /// `mode` (with `args`), and `env` for duipai (which passes none of it to the program
    /// but what an `--env` flag names).
    fn judge(&self, mode: &str, args: &[&str], extra: &[&str], env: &[(&str, &str)]) -> Judged {
        let mut duipai = self
            .duipai()
            .args(["test", "sum", "pack", "--json"])
            .args(extra);
        // The small limits, but those `extra` sets.
        for limit in LIMITS.chunks(2) {
            if !extra.contains(&limit[0]) {
                duipai = duipai.args(limit);
            }
        }
        for (key, value) in env {
            duipai = duipai.env(key, value);
        }
        let mut program = vec![self.program().into_os_string(), mode.into()];
        program.extend(args.iter().map(Into::into));
        let (ran, took) = duipai.program(program).start().finish_within(BOUND);
        let left = self.running();
        assert!(
            left.is_empty(),
            "processes of the fixture outlived duipai: {left:?}\nstderr:\n{}",
            ran.stderr()
        );
        Judged { ran, took }
    }

    /// The processes running this test's copy of the fixture, killed (so that a failing
    /// test leaks nothing either) and listed. duipai reaps what it kills, but the kernel
    /// may take a moment to remove a process, so they get half a second.
    fn running(&self) -> Vec<i32> {
        let program = self.program();
        let deadline = Instant::now() + Duration::from_millis(500);
        loop {
            let alive: Vec<i32> = fs::read_dir("/proc")
                .unwrap()
                .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
                .filter(|pid: &i32| {
                    fs::read_link(format!("/proc/{pid}/exe")).is_ok_and(|exe| exe == program)
                })
                .collect();
            if alive.is_empty() || Instant::now() >= deadline {
                for &pid in &alive {
                    // SAFETY: kill has no memory effects; the process runs this test's file.
                    unsafe { libc::kill(pid, libc::SIGKILL) };
                }
                return alive;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// A finished `duipai test` run and how long it took.
struct Judged {
    ran: Ran,
    took: Duration,
}

impl Judged {
    /// The one case's object of the summary.
    fn case(&self) -> serde_json::Value {
        let cases = case_objects(&self.ran.json());
        assert_eq!(cases.len(), 1, "{}", self.ran.stdout());
        cases[0].clone()
    }

    #[track_caller]
    fn verdict(&self, expected: &str) -> serde_json::Value {
        let case = self.case();
        assert_eq!(
            case["verdict"],
            expected,
            "{case}\nstderr:\n{}",
            self.ran.stderr()
        );
        case
    }
}

/// The ordinary user the tests run duipai as besides root, when they run as root: `nobody`
/// (65534), by `setpriv`; `None` when the tests are not root.
fn ordinary_user() -> Option<u32> {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return None;
    }
    require(&["setpriv"]);
    Some(65534)
}

/// The missing-protection lines duipai prints here (none where every protection can be
/// had), found once by judging the right program.
fn missing_here() -> &'static [String] {
    static MISSING: OnceLock<Vec<String>> = OnceLock::new();
    MISSING.get_or_init(|| {
        let folder = Folder::new();
        let judged = folder.judge("right", &[], &[], &[]);
        judged.verdict("AC");
        judged
            .ran
            .stderr()
            .lines()
            .filter(|l| l.starts_with("duipai: no "))
            .map(str::to_owned)
            .collect()
    })
}

/// Whether `protection` can be had here. When it cannot, asserts what duipai promises
/// instead: its line says so, and `--sandbox` refuses to run (exit 2) naming it. As root,
/// where every protection can be had but for a machine that withholds it (a container
/// without the privileges), a missing one fails the test: the attacks must run there, not
/// pass unseen.
fn available(protection: &str) -> bool {
    let Some(line) = missing_here().iter().find(|l| l.contains(protection)) else {
        return true;
    };
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        panic!(
            "run as root, the hostile suite expects every protection, but this machine \
             withholds one, so its attacks cannot be tried: {line}"
        );
    }
    eprintln!("not available here, so the attack is not run: {line}");
    let folder = Folder::new();
    let judged = folder.judge("right", &[], &["--sandbox"], &[]);
    let ran = judged.ran.code(2);
    assert_contains(&ran.stderr(), "--sandbox");
    assert_contains(&ran.stderr(), protection);
    false
}

#[test]
fn a_fork_bomb_is_stopped_within_seconds_with_the_process_verdict() {
    if !available(CGROUP) {
        return;
    }
    let folder = Folder::new();
    let judged = folder.judge("forkbomb", &[], &[], &[]);
    let case = judged.verdict("RE");
    assert_contains(case["detail"].as_str().unwrap(), "processes");
    assert!(
        case["wall_ms"].as_u64().unwrap() < 5000,
        "stopped after {case}"
    );
    assert!(judged.took < Duration::from_secs(20), "{:?}", judged.took);
}

#[test]
fn the_program_cannot_find_or_stop_duipai() {
    if !available(NAMESPACES) {
        return;
    }
    let folder = Folder::new();
    // The folder's path is on duipai's command line (its program's path).
    let marker = folder.path().to_str().unwrap().to_owned();
    for mode in ["cmdline", "signals"] {
        let judged = folder.judge(mode, &[], &["--env", &format!("MARKER={marker}")], &[]);
        judged.verdict("AC");
        judged.ran.success();
    }
}

#[test]
fn cpu_time_of_children_the_kernel_reaps_is_counted() {
    if !available(CGROUP) {
        return;
    }
    let folder = Folder::new();
    // 3 s of CPU in children, stopped at 200 ms.
    let judged = folder.judge("reaped", &[], &["--time-limit", "200"], &[]);
    let case = judged.verdict("TLE");
    assert!(case["cpu_ms"].as_u64().unwrap() >= 200, "{case}");
}

#[test]
fn memory_in_memfds_pipes_and_shared_memory_is_counted() {
    if !available(CGROUP) {
        return;
    }
    let folder = Folder::new();
    // The memfd and /dev/shm files are files: the output limit must not stop them first.
    for mode in ["memfd", "shm", "pipes"] {
        let judged = folder.judge(mode, &["128"], &["--output-limit", "512"], &[]);
        let case = judged.verdict("MLE");
        assert!(
            case["memory_kib"].as_u64().unwrap() >= 64 << 10,
            "{mode}: {case}"
        );
    }
}

#[test]
fn memory_shared_by_forked_children_is_counted_once() {
    if !available(CGROUP) {
        return;
    }
    let folder = Folder::new();
    // 48 MiB, shared by 4 processes: 192 MiB if counted per process.
    let judged = folder.judge("shared", &["48"], &["--memory-limit", "128"], &[]);
    let case = judged.verdict("AC");
    let kib = case["memory_kib"].as_u64().unwrap();
    assert!((48 << 10..80 << 10).contains(&kib), "{case}");
}

#[test]
fn the_answers_cannot_be_read() {
    if !available(NAMESPACES) {
        return;
    }
    let folder = Folder::new();
    let pack = folder.pack().to_str().unwrap().to_owned();
    let judged = folder.judge("cheat", &[], &["--env", &format!("PACK={pack}")], &[]);
    judged.verdict("WA");
}

#[test]
fn the_pack_cannot_be_written() {
    if !available(NAMESPACES) {
        return;
    }
    let folder = Folder::new();
    let pack = folder.pack().to_str().unwrap().to_owned();
    let judged = folder.judge("vandal", &[], &["--env", &format!("PACK={pack}")], &[]);
    judged.verdict("AC");
    assert_eq!(
        fs::read_to_string(folder.pack().join("a.ans")).unwrap(),
        "5\n"
    );
    assert!(!folder.pack().join("planted.in").exists());
}

#[test]
fn the_network_is_out_of_reach() {
    if !available(NAMESPACES) {
        return;
    }
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    let folder = Folder::new();
    let judged = folder.judge("network", &[], &["--env", &format!("PORT={port}")], &[]);
    judged.verdict("AC");
}

#[test]
fn tmp_and_dev_shm_are_the_programs_own() {
    if !available(NAMESPACES) {
        return;
    }
    let folder = Folder::new();
    // A second case, judged after the first by the same worker: it must not find what the
    // first left.
    fs::write(folder.pack().join("b.in"), "2 3\n").unwrap();
    fs::write(folder.pack().join("b.ans"), "5\n").unwrap();
    // A file in the machine's /tmp the program must not see, and names for what it leaves.
    let host = tempfile::NamedTempFile::new().unwrap();
    let left = format!("duipai-left-{}", std::process::id());
    let env = [
        format!("HOST_FILE={}", host.path().display()),
        format!("LEFT={left}"),
    ];
    let judged = folder.judge(
        "temporaries",
        &[],
        &["-j", "1", "--env", &env[0], "--env", &env[1]],
        &[],
    );
    let cases = case_objects(&judged.ran.json());
    assert_eq!(cases.len(), 2);
    for case in cases {
        assert_eq!(case["verdict"], "AC", "{case}");
    }
    for dir in ["/tmp", "/dev/shm"] {
        let path = Path::new(dir).join(&left);
        let leaked = path.exists();
        let _ = fs::remove_file(&path);
        assert!(!leaked, "{} was left on the machine", path.display());
    }
    // Nor does its working folder keep what a run left there.
    let judged = folder.judge("cwd-file", &[], &["-j", "1"], &[]);
    for case in case_objects(&judged.ran.json()) {
        assert_eq!(case["verdict"], "AC", "{case}");
    }
}

#[test]
fn the_terminal_is_out_of_reach() {
    // A new session, always: no protection to miss.
    let folder = Folder::new();
    folder.judge("tty", &[], &[], &[]).verdict("AC");
}

#[test]
fn duipais_environment_is_not_the_programs() {
    // The allowlist, always.
    let folder = Folder::new();
    let secret = [("DUIPAI_TEST_SECRET", "hunter2")];
    folder.judge("environment", &[], &[], &secret).verdict("AC");
    // Passed on when asked for.
    folder
        .judge(
            "environment",
            &[],
            &["--env", "DUIPAI_TEST_SECRET"],
            &secret,
        )
        .verdict("WA");
}

#[test]
fn stress_contains_the_program_and_not_its_helpers() {
    if !available(NAMESPACES) {
        return;
    }
    let folder = Folder::new();
    let d = folder.path();
    // The helpers read the folder, as a setter's do; the program cannot see it.
    fs::write(d.join("seed-base"), "1").unwrap();
    write_sh(d, "gen.sh", "echo \"$(cat seed-base) $1\"");
    write_sh(d, "ref.sh", "awk '{ print $1 + $2 }'");
    let marker = d.to_str().unwrap().to_owned();
    let pack = folder.pack().to_str().unwrap().to_owned();
    for mode in ["signals", "vandal"] {
        let (ran, _) = Duipai::in_dir(d)
            .args(["stress", "sum", "--iterations", "30", "--json"])
            .args(["--generator", "./gen.sh", "--reference", "./ref.sh"])
            .args(["--env", &format!("MARKER={marker}")])
            .args(["--env", &format!("PACK={pack}")])
            .program([folder.program().into_os_string(), mode.into()])
            .start()
            .finish_within(BOUND);
        let ran = ran.success();
        assert_eq!(ran.json()["cases"], 30, "{mode}: {}", ran.stdout());
        assert!(folder.running().is_empty());
    }
    assert_eq!(
        fs::read_to_string(folder.pack().join("a.ans")).unwrap(),
        "5\n"
    );
}

/// A program that leaves a daemon (a double fork, and a child in a session of its own) is
/// judged on what it printed, its daemons are killed with its run, and the verdict says so;
/// nothing of it outlives duipai (`Folder::judge` checks), in `test` as in `stress`.
#[test]
fn daemons_are_killed_with_their_run_and_named_in_the_verdict() {
    let folder = Folder::new();
    let judged = folder.judge("daemon", &[], &[], &[]);
    let case = judged.verdict("AC");
    assert_eq!(case["left_behind"], 2, "{case}");
    judged.ran.success();
    let d = folder.path();
    let (ran, _) = Duipai::in_dir(d)
        .args(["test", "sum", "pack"])
        .program([folder.program().into_os_string(), "daemon".into()])
        .start()
        .finish_within(BOUND);
    assert_contains(
        &ran.success().stdout(),
        "(left 2 processes running, killed by duipai)",
    );
    write_sh(d, "gen.sh", "echo \"2 $1\"");
    write_sh(d, "ref.sh", "awk '{ print $1 + $2 }'");
    let (ran, _) = Duipai::in_dir(d)
        .args(["stress", "sum", "--iterations", "20", "--json"])
        .args(["--generator", "./gen.sh", "--reference", "./ref.sh"])
        .program([folder.program().into_os_string(), "daemon".into()])
        .start()
        .finish_within(BOUND);
    let ran = ran.success();
    assert_eq!(ran.json()["cases"], 20, "{}", ran.stdout());
    assert!(folder.running().is_empty());
}

/// Nothing a run leaves in System V IPC (a segment, a semaphore set, a message queue), in a
/// POSIX message queue or in a keyring (its user's, its session's) is found by the next run
/// of the same worker: each run has an IPC namespace of its own, and the keyrings are
/// refused to programs.
#[test]
fn the_next_run_finds_nothing_of_the_last_ones_ipc_or_keys() {
    if !available(NAMESPACES) {
        return;
    }
    let folder = Folder::new();
    fs::write(folder.pack().join("b.in"), "2 3\n").unwrap();
    fs::write(folder.pack().join("b.ans"), "5\n").unwrap();
    for kind in ["shm", "sem", "msg", "mq", "user-key", "session-key"] {
        let judged = folder.judge("ipc", &[kind], &["-j", "1"], &[]);
        let cases = case_objects(&judged.ran.json());
        let verdicts: Vec<&str> = cases
            .iter()
            .map(|c| c["verdict"].as_str().unwrap())
            .collect();
        assert_eq!(verdicts, ["AC", "AC"], "{kind}: {}", judged.ran.stdout());
    }
}

/// A System V segment the program fills and leaves, mapped by no process, is memory of its
/// run: counted, and over the limit a memory verdict.
#[test]
fn shared_memory_a_run_leaves_is_charged_to_it() {
    if !available(CGROUP) || !available(NAMESPACES) {
        return;
    }
    let folder = Folder::new();
    let judged = folder.judge("shm-hold", &["48"], &[], &[]);
    let case = judged.verdict("AC");
    assert!(case["memory_kib"].as_u64().unwrap() >= 48 << 10, "{case}");
    folder.judge("shm-hold", &["96"], &[], &[]).verdict("MLE");
}

/// The hypervisor's sockets (`AF_VSOCK`), which no network namespace covers, are refused.
#[test]
fn vsock_is_refused() {
    let folder = Folder::new();
    folder.judge("vsock", &[], &[], &[]).verdict("AC");
}

/// A Unix socket of the machine's outside `/tmp` and `/run`, open to everyone, is out of
/// the program's reach: the view holds nothing of the machine but its runtime folders.
#[test]
fn the_machines_unix_sockets_are_out_of_reach() {
    use std::os::unix::fs::PermissionsExt;
    if !available(NAMESPACES) {
        return;
    }
    // A folder of the machine's that no view shows: the build's own temporary folder.
    let dir = tempfile::Builder::new()
        .prefix("sock")
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .unwrap();
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o777)).unwrap();
    let path = dir.path().join("s");
    let listener = std::os::unix::net::UnixListener::bind(&path).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o777)).unwrap();
    listener.set_nonblocking(true).unwrap();
    let folder = Folder::new();
    let env = format!("SOCKET={}", path.display());
    folder
        .judge("unix-socket", &[], &["--env", &env], &[])
        .verdict("AC");
    let accepted = listener.accept();
    assert!(
        accepted
            .as_ref()
            .is_err_and(|e| e.kind() == std::io::ErrorKind::WouldBlock),
        "the program connected: {accepted:?}"
    );
}

/// `duipai doctor` names every protection and what makes timings unsteady, and its exit
/// status says what `--sandbox` then does: 0 when it runs, 1 when it refuses (exit 2).
#[test]
fn doctor_says_what_sandbox_then_does() {
    let folder = Folder::new();
    let (doctor, _) = Duipai::in_dir(folder.path())
        .args(["doctor"])
        .start()
        .finish_within(BOUND);
    let text = doctor.stdout();
    for name in [
        "cgroup",
        "namespaces",
        "box uid",
        "seccomp",
        "swap",
        "SMT",
        "governor",
    ] {
        assert_contains(&text, name);
    }
    let ready = match doctor.exit_code() {
        0 => true,
        1 => false,
        other => panic!("doctor exited with {other}:\n{text}"),
    };
    let judged = folder.judge("right", &[], &["--sandbox"], &[]);
    if ready {
        judged.verdict("AC");
        judged.ran.success();
        assert_contains(&text, "--sandbox runs");
    } else {
        judged.ran.code(2);
        assert_contains(&text, "missing");
    }
}

// ---------------------------------------------------------------------------------------------
// As an ordinary user: what root gets from a cgroup, held by the means an ordinary user has
// (or by a delegated cgroup, where the machine gives one), and nothing of a run reaching the
// next. Run as root, these run duipai as `nobody`; run as an ordinary user, as that user.

/// A folder of the ordinary user's (see `Folder::of_ordinary_user`), or, in a test that is
/// not root, the test's own.
fn ordinary_folder() -> Option<Folder> {
    match ordinary_user() {
        Some(_) => Folder::of_ordinary_user(),
        None => available(NAMESPACES).then(Folder::new),
    }
}

/// The limits hold without a cgroup: an orphan's memory is the run's, memory shared by
/// copy-on-write children counts once, files written in the working folder are memory (not
/// the machine's disk), and CPU time the machine cannot count is named in the verdict.
#[test]
fn as_an_ordinary_user_the_limits_hold() {
    let Some(folder) = ordinary_folder() else {
        return;
    };
    // An orphan holding 128 MiB after the program exits: over 64 MiB, and counted under 256.
    folder
        .judge("orphan-hog", &["128"], &[], &[])
        .verdict("MLE");
    let judged = folder.judge("orphan-hog", &["128"], &["--memory-limit", "256"], &[]);
    let case = judged.verdict("AC");
    assert!(case["memory_kib"].as_u64().unwrap() >= 128 << 10, "{case}");
    // 48 MiB shared by 4 processes: 192 MiB if counted per process.
    let judged = folder.judge("shared", &["48"], &["--memory-limit", "128"], &[]);
    let kib = judged.verdict("AC")["memory_kib"].as_u64().unwrap();
    assert!((48 << 10..96 << 10).contains(&kib), "{kib} KiB");
    // 200 MiB written to the working folder under a 64 MiB limit.
    folder
        .judge("disk", &["200"], &["--output-limit", "512"], &[])
        .verdict("MLE");
    // Children the kernel reaps: counted by a cgroup (a time limit), else named. Five rounds,
    // 300 ms of CPU in children, against a 200 ms limit: without a cgroup they run to the end.
    let judged = folder.judge("reaped", &["5"], &["--time-limit", "200"], &[]);
    let case = judged.case();
    let named = case["uncounted"]
        .as_str()
        .is_some_and(|u| u.contains("children the kernel reaped"));
    assert!(case["verdict"] == "TLE" || named, "{case}");
}

/// Nothing of a run reaches the next of the same worker, as an ordinary user too: IPC,
/// keyrings, files in /tmp, /dev/shm or /run, a daemon; nor the machine's sockets.
#[test]
fn as_an_ordinary_user_nothing_of_a_run_reaches_the_next() {
    let Some(folder) = ordinary_folder() else {
        return;
    };
    fs::write(folder.pack().join("b.in"), "2 3\n").unwrap();
    fs::write(folder.pack().join("b.ans"), "5\n").unwrap();
    if let Some(uid) = folder.user {
        crate::util::chown_to(folder.path(), uid);
    }
    let kinds = ["shm", "sem", "msg", "mq", "user-key", "session-key"];
    let runs = kinds.iter().map(|kind| ("ipc", Some(*kind))).chain([
        ("run-file", None),
        ("cwd-file", None),
        ("temporaries", None),
    ]);
    for (mode, kind) in runs {
        let args: Vec<&str> = kind.into_iter().collect();
        let judged = folder.judge(mode, &args, &["-j", "1"], &[]);
        let cases = case_objects(&judged.ran.json());
        let verdicts: Vec<&str> = cases
            .iter()
            .map(|c| c["verdict"].as_str().unwrap())
            .collect();
        assert_eq!(
            verdicts,
            ["AC", "AC"],
            "{mode} {kind:?}: {}",
            judged.ran.stdout()
        );
    }
    let judged = folder.judge("daemon", &[], &["-j", "1"], &[]);
    for case in case_objects(&judged.ran.json()) {
        assert_eq!(case["left_behind"], 2, "{case}");
    }
    let judged = folder.judge("vsock", &[], &["-j", "1"], &[]);
    for case in case_objects(&judged.ran.json()) {
        assert_eq!(case["verdict"], "AC", "{case}");
    }
}

/// A Polygon package's checker runs contained, as the program under test does: one that
/// tries to read a file only root may read and to write the host's `/tmp` does neither
/// (as root it runs under a box uid in namespaces of its own, where neither is there), and
/// the package's main solution is judged by it as usual. With `--unboxed-helpers` the same
/// checker runs as duipai's user in the machine's folders, and both attacks work: the test
/// sees the difference.
#[test]
fn a_package_checker_can_neither_read_a_root_only_file_nor_write_the_host_tmp() {
    require(&["g++"]);
    if !available("namespaces") {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let work = tempfile::tempdir().unwrap();
    let package = work.path().join("sumpair");
    crate::util::copy_tree(&root.join("tests/support/polygon/sumpair"), &package);
    fs::copy(
        root.join("tests/support/testlib/testlib.h"),
        package.join("files/testlib.h"),
    )
    .unwrap();
    // Only the main solution, judged by a checker of the package's own.
    let xml = fs::read_to_string(package.join("problem.xml")).unwrap();
    let start = xml.find("<solution tag=\"wrong-answer\">").unwrap();
    let end = xml.find("</solutions>").unwrap();
    let xml = format!("{}{}", &xml[..start], &xml[end..]).replace(
        "<checker name=\"std::ncmp.cpp\" type=\"testlib\">",
        "<checker type=\"testlib\">",
    );
    fs::write(package.join("problem.xml"), xml).unwrap();
    let secrets = tempfile::tempdir().unwrap();
    let secret = secrets.path().join("secret");
    fs::write(&secret, "s3cret-of-root\n").unwrap();
    fs::set_permissions(&secret, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    fs::set_permissions(
        secrets.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o700),
    )
    .unwrap();
    let host_tmp = PathBuf::from(format!(
        "/tmp/duipai-hostile-checker-{}",
        std::process::id()
    ));
    let _ = fs::remove_file(&host_tmp);
    fs::write(
        package.join("files/check.cpp"),
        format!(
            r#"#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>
// Compares the first tokens, after trying to read {secret} and to write {tmp}.
int main(int argc, char** argv) {{
    if (argc < 4) return 3;
    std::string secret;
    {{ std::ifstream s("{secret}"); if (s) std::getline(s, secret); }}
    if (FILE* f = std::fopen("{tmp}", "a")) {{
        char ns[64] = {{0}};
        readlink("/proc/self/ns/mnt", ns, sizeof ns - 1);
        std::fprintf(f, "uid %d, %s, %s\n", (int)getuid(), ns, argv[0]);
        std::fclose(f);
    }}
    if (!secret.empty()) {{ std::fprintf(stderr, "read the secret: %s\n", secret.c_str()); return 1; }}
    std::ifstream out(argv[2]), ans(argv[3]);
    std::string x, y;
    out >> x; ans >> y;
    if (x != y) {{ std::fprintf(stderr, "expected %s, found %s\n", y.c_str(), x.c_str()); return 1; }}
    return 0;
}}
"#,
            secret = secret.display(),
            tmp = host_tmp.display()
        ),
    )
    .unwrap();
    let judged = crate::util::with_shared_cache(work.path())
        .args(["judge", "sumpair", "--json"])
        .run();
    let out = judged.success();
    assert!(
        !out.stdout().contains("s3cret") && !out.stderr().contains("s3cret"),
        "{}",
        out.stdout()
    );
    assert!(
        !host_tmp.exists(),
        "the contained checker wrote the host's /tmp: {:?}\n{}",
        fs::read_to_string(&host_tmp),
        out.stderr()
    );
    // Uncontained, the same checker reads the secret (as root) and writes the host's /tmp.
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        let unboxed = crate::util::with_shared_cache(work.path())
            .args(["judge", "sumpair", "--unboxed-helpers"])
            .run();
        assert!(host_tmp.exists(), "{}", unboxed.stderr());
        let _ = fs::remove_file(&host_tmp);
        let ran = unboxed.code(1);
        assert_contains(&ran.stdout(), "read the secret: s3cret-of-root");
    }
}

/// A Polygon package's validator runs contained in `validate` and `pack` too, not only in
/// `judge`: one that writes the host's /tmp writes nothing there, and the package is validated
/// and packed as usual. With `--unboxed-helpers` it runs as duipai's user and the file
/// appears: the test sees the difference.
#[test]
fn a_package_validator_is_contained_in_validate_and_pack() {
    require(&["g++"]);
    if !available("namespaces") {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let work = tempfile::tempdir().unwrap();
    let package = work.path().join("sumpair");
    crate::util::copy_tree(&root.join("tests/support/polygon/sumpair"), &package);
    fs::copy(
        root.join("tests/support/testlib/testlib.h"),
        package.join("files/testlib.h"),
    )
    .unwrap();
    let host_tmp = PathBuf::from(format!(
        "/tmp/duipai-hostile-validator-{}",
        std::process::id()
    ));
    let _ = fs::remove_file(&host_tmp);
    fs::write(
        package.join("files/val.cpp"),
        format!(
            r#"#include <cstdio>
// Accepts every input, after trying to write {tmp}.
int main() {{
    if (FILE* f = std::fopen("{tmp}", "a")) {{ std::fputs("written\n", f); std::fclose(f); }}
    int c;
    while ((c = std::getchar()) != EOF) {{}}
    return 0;
}}
"#,
            tmp = host_tmp.display()
        ),
    )
    .unwrap();
    let sample = package.join("tests/01");
    let validated = crate::util::with_shared_cache(&package)
        .args(["validate", "sumpair"])
        .arg(&sample)
        .run();
    let stderr = validated.stderr();
    validated.success();
    assert!(
        !host_tmp.exists(),
        "the package's validator wrote the host's /tmp in validate: {stderr}"
    );
    let packed = crate::util::with_shared_cache(&package)
        .args(["pack", "sumpair", "--out"])
        .arg(work.path().join("out"))
        .run();
    let stderr = packed.stderr();
    packed.success();
    let inputs = walkdir::WalkDir::new(work.path().join("out"))
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "in"))
        .count();
    assert_eq!(inputs, 5, "the package's five tests are packed: {stderr}");
    assert!(
        !host_tmp.exists(),
        "the package's validator wrote the host's /tmp in pack: {stderr}"
    );
    let unboxed = crate::util::with_shared_cache(&package)
        .args(["validate", "sumpair", "--unboxed-helpers"])
        .arg(&sample)
        .run();
    let stderr = unboxed.stderr();
    unboxed.success();
    assert!(host_tmp.exists(), "{stderr}");
    let _ = fs::remove_file(&host_tmp);
}

/// The namespace probe's success is kept in the temporary folder for the next command (a
/// throwaway keeper a command is 3–4 ms of CPU); a kept key that is not this machine's and
/// this duipai's is not trusted: the next command probes again and keeps the right one.
#[test]
fn a_probe_that_succeeded_is_kept_and_a_wrong_key_is_probed_again() {
    if !available(NAMESPACES) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    let kept = tmp.path().join(format!("duipai-namespaces-{me}"));
    let judge = || {
        let sample = format!("{}/01-sample.in", crate::util::CHESS_CASES);
        let report = Duipai::new()
            .env("TMPDIR", tmp.path())
            .args(["test", "chess", &sample, "--json"])
            .fixture(["correct", "chess"])
            .run()
            .success()
            .json();
        assert_eq!(report["cases"][0]["verdict"], "AC", "{report}");
    };
    judge();
    use std::os::unix::fs::PermissionsExt;
    let key = fs::read_to_string(&kept).expect("the probe's success is kept");
    assert_eq!(key.len(), 64, "{key:?}");
    assert!(key.bytes().all(|b| b.is_ascii_hexdigit()), "{key:?}");
    assert_eq!(
        fs::metadata(&kept).unwrap().permissions().mode() & 0o777,
        0o600
    );
    fs::write(&kept, "0".repeat(64)).unwrap();
    judge();
    assert_eq!(fs::read_to_string(&kept).unwrap(), key);
}
