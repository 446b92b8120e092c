//! The setter's loop on `examples/rangesum` (10 tests, 5 submissions): `duipai pack --layout
//! icpc` cold (an empty cache: every program compiled, every test made), with the programs
//! built but every test made again (`--no-reuse`), and warm (nothing changed: every test read
//! back); then `duipai judge` of the package against BAPCtools' `bt run` on the same package,
//! one after the other, in the same minute. Each figure is the median of the runs (`RUNS`,
//! default 3) of wall time and of the CPU time of the processes it started. Run with `cargo
//! bench --bench setter`; `bt` is `DUIPAI_BT`, else `target/setter-tools/bin/bt` (what
//! `.ci/setter-tools` installs), else `bt` in PATH; without one the comparison is left out,
//! saying so.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The CPU time (user and system) of the finished children of this process so far.
fn children_cpu() -> Duration {
    // SAFETY: getrusage only writes the struct we pass.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage
    };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// One run: wall time, children's CPU time, and whether the command succeeded.
fn timed(command: &mut Command) -> (Duration, Duration, bool) {
    let (cpu, wall) = (children_cpu(), Instant::now());
    let output = command.output().expect("the command starts");
    let elapsed = (wall.elapsed(), children_cpu() - cpu);
    if !output.status.success() {
        eprintln!(
            "{:?} exited with {}:\n{}",
            command,
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
    }
    (elapsed.0, elapsed.1, output.status.success())
}

fn median(mut values: Vec<Duration>) -> Duration {
    values.sort();
    values[values.len() / 2]
}

/// Medians of `runs` runs of what `command` builds, after `before` each run.
fn measure(
    runs: usize,
    mut before: impl FnMut(),
    mut command: impl FnMut() -> Command,
) -> (Duration, Duration) {
    let (mut walls, mut cpus) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        before();
        let (wall, cpu, ok) = timed(&mut command());
        assert!(ok, "a run of the setter's benchmark failed");
        walls.push(wall);
        cpus.push(cpu);
    }
    (median(walls), median(cpus))
}

fn row(what: &str, (wall, cpu): (Duration, Duration)) {
    println!(
        "{what:<44} {:>8.2} s wall {:>8.2} s CPU",
        wall.as_secs_f64(),
        cpu.as_secs_f64()
    );
}

/// BAPCtools' `bt`, if there is one.
fn bt(root: &Path) -> Option<PathBuf> {
    if let Some(bt) = std::env::var_os("DUIPAI_BT") {
        return Some(PathBuf::from(bt));
    }
    let installed = root.join("target/setter-tools/bin/bt");
    if installed.is_file() {
        return Some(installed);
    }
    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|dir| dir.join("bt"))
        .find(|bt| bt.is_file())
}

fn main() {
    let runs: usize = std::env::var("RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3);
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let scratch = tempfile::tempdir().expect("a temporary directory");
    let work = scratch.path().join("problem");
    copy_dir(&root.join("examples/rangesum"), &work);
    // The validator's testlib.h, as the guide says to put beside it.
    std::fs::copy(
        root.join("tests/support/testlib/testlib.h"),
        work.join("testlib.h"),
    )
    .expect("testlib.h copied");
    let cache = scratch.path().join("cache");
    let duipai = || {
        let mut command = Command::new(env!("CARGO_BIN_EXE_duipai"));
        command.current_dir(&work).env("DUIPAI_CACHE_DIR", &cache);
        command
    };
    let pack = |extra: &[&str]| {
        let mut command = duipai();
        command.args(["pack", "--out", "rangesum", "--layout", "icpc", "--force"]);
        command.args(extra);
        command
    };
    println!("examples/rangesum: 10 tests, 5 submissions; medians of {runs} runs");
    let fresh = || {
        let _ = std::fs::remove_dir_all(&cache);
        let _ = std::fs::remove_dir_all(work.join("rangesum"));
    };
    row(
        "pack, cold (empty cache, no package)",
        measure(runs, fresh, || pack(&[])),
    );
    row(
        "pack --no-reuse (programs built)",
        measure(runs, || {}, || pack(&["--no-reuse"])),
    );
    row(
        "pack, warm (nothing changed)",
        measure(runs, || {}, || pack(&[])),
    );
    let Some(bt) = bt(&root) else {
        println!("bt run: not measured, no BAPCtools (.ci/setter-tools installs it)");
        return;
    };
    // BAPCtools runs Python with pypy3: the virtualenv's bin/ has one (or a stand-in).
    let mut path = vec![bt.parent().unwrap_or(Path::new("")).to_path_buf()];
    path.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    let path = std::env::join_paths(path).expect("PATH joins");
    let (mut judge, mut bt_run) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        let mut command = duipai();
        command.args(["judge", "rangesum"]);
        judge.push(timed(&mut command));
        let mut command = Command::new(&bt);
        command
            .args(["run", "--no-bar"])
            .current_dir(work.join("rangesum"))
            .env("PATH", &path);
        bt_run.push(timed(&mut command));
    }
    for (what, results) in [("duipai judge rangesum", judge), ("bt run", bt_run)] {
        let ok = results.iter().filter(|r| r.2).count();
        let walls = results.iter().map(|r| r.0).collect();
        let cpus = results.iter().map(|r| r.1).collect();
        row(
            &format!("{what} ({ok} of {runs} runs exit 0)"),
            (median(walls), median(cpus)),
        );
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "load average at the end: {}",
        load.split_whitespace().next().unwrap_or("?")
    );
}

fn copy_dir(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.expect("reading the example");
        let rel = entry.path().strip_prefix(from).expect("below the example");
        let target = to.join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).expect("a folder");
        } else {
            std::fs::copy(entry.path(), &target).expect("a copy");
        }
    }
}
