//! Verdicts on a busy machine. Each test makes the machine busy itself: busy-looping processes,
//! four for every core. A correct program within its CPU limit that the machine keeps waiting
//! for a CPU past the wall-clock limit is accepted, and stress reports, saves and minimizes
//! nothing; a program that sleeps past the wall-clock limit, or spins past the CPU limit, is
//! still a time limit verdict. The tests assert verdicts, not times (only that the load did
//! slow the program down, without which they would prove nothing).

use std::path::Path;
use std::sync::Mutex;

use crate::util::Duipai;

/// One load at a time: these tests would otherwise pile their loads on each other.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Busy-looping processes, more than there are cores, until dropped. Each leads a session of
/// its own, as the program under test does (duipai starts it with `setsid`): where the
/// kernel groups the scheduling of each session (`sched_autogroup`), threads of this test's
/// process would all share one session's CPU time and slow the program down much less.
struct Load {
    spinners: Vec<std::process::Child>,
}

impl Load {
    fn start() -> Load {
        use std::os::unix::process::CommandExt;
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let spinners = (0..(4 * cores).max(8))
            .map(|_| {
                let mut command = std::process::Command::new("sh");
                command.args(["-c", "while :; do :; done"]);
                // SAFETY: setsid is async-signal-safe.
                unsafe {
                    command.pre_exec(|| {
                        libc::setsid();
                        Ok(())
                    });
                }
                command.spawn().expect("a spinner starts")
            })
            .collect();
        Load { spinners }
    }
}

impl Drop for Load {
    fn drop(&mut self) {
        for spinner in &mut self.spinners {
            let _ = spinner.kill();
            let _ = spinner.wait();
        }
    }
}

const WALL_LIMIT_MS: u64 = 400;

fn write_sample(dir: &Path) {
    std::fs::write(dir.join("sample.in"), "2 3\n2 7 3\n9 1 2\n3 7 2\n2 3 1\n").unwrap();
}

/// `duipai test` on the chess sample, a CPU limit of `cpu_ms` and a 400 ms wall-clock limit,
/// of the fixture behaving as `behaviour` (with its arguments): the case's JSON record.
fn test_fixture(dir: &Path, cpu_ms: u64, behaviour: &[&str]) -> serde_json::Value {
    write_sample(dir);
    let report = Duipai::in_dir(dir)
        .args(["test", "chess", "sample.in", "--json"])
        .args(["--time-limit", &cpu_ms.to_string()])
        .args(["--wall-limit", &WALL_LIMIT_MS.to_string()])
        .fixture(behaviour)
        .program(["chess"])
        .run()
        .json();
    report["cases"][0].clone()
}

#[test]
fn a_correct_program_kept_waiting_for_a_cpu_is_accepted() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let _load = Load::start();
    // A few hundred ms of CPU: far within both limits, but at the share of a CPU it gets,
    // over the wall-clock limit. The scheduler sometimes favours a new process for a while,
    // so a program it did not slow down enough proves nothing: it is tried again with more
    // work, and every try must be accepted.
    let mut tries = Vec::new();
    for burn_ms in ["150", "300", "600"] {
        let case = test_fixture(dir.path(), 1000, &["burn-cpu", burn_ms]);
        assert_eq!(case["verdict"], "AC", "{case}");
        if case["wall_ms"].as_u64().unwrap_or(0) > WALL_LIMIT_MS {
            return;
        }
        tries.push(case);
    }
    panic!("the load did not slow the program past the wall-clock limit: {tries:?}");
}

#[test]
fn a_sleeper_on_a_busy_machine_exceeds_the_wall_clock_limit() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let _load = Load::start();
    let case = test_fixture(dir.path(), 1000, &["sleep"]);
    assert_eq!(case["verdict"], "TLE", "{case}");
    let detail = case["detail"].as_str().unwrap_or_default();
    assert!(detail.contains("waits or sleeps"), "{case}");
    // And a program that spins forever exceeds the CPU limit (here below the wall-clock
    // limit), not the wall-clock one, however slowly it gets there. (The load stretches every
    // CPU millisecond to about five of the clock: a limit of 100 ms rather than 200 halves
    // the test's time, the check the same.)
    let case = test_fixture(dir.path(), 100, &["slow"]);
    assert_eq!(case["verdict"], "TLE", "{case}");
    let detail = case["detail"].as_str().unwrap_or_default();
    assert!(detail.starts_with("CPU"), "{case}");
}

#[test]
fn stress_on_a_busy_machine_finds_no_failure_in_a_correct_program() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let _load = Load::start();
    let out = Duipai::in_dir(dir.path())
        .args(["stress", "chess", "--n", "1..3", "--m", "1..3"])
        // Two cases on two workers: both run at once, beside each other and the load.
        .args(["--iterations", "2", "-j", "2", "--time-limit", "1000"])
        .args(["--wall-limit", &WALL_LIMIT_MS.to_string(), "--json"])
        .fixture(["burn-cpu", "150", "chess"])
        .run();
    let report = out.json();
    out.success();
    assert_eq!(report["status"], "ok", "{report}");
    assert_eq!(report["cases"], 2, "{report}");
    let saved = dir.path().join("duipai-failures");
    assert!(
        !saved.exists() || std::fs::read_dir(&saved).unwrap().next().is_none(),
        "a failure was saved"
    );
}
