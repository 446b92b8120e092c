//! The files duipai reads and writes, against what a hostile folder or an interrupted run
//! leaves: an unfinished pack is not judged on unless asked, two packs never write one folder
//! at once, a FIFO among the tests is refused by name (never waited on), a folder of the pack
//! replaced by a symbolic link is not written or emptied through, the temporary files of a
//! killed write are cleared, a case whose minimization was cut short is listed and replayed,
//! and a program may start threads as judges let it.

use std::fs;
use std::os::fd::AsRawFd;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::util::{Duipai, assert_contains, require};

/// A two-test plan, so that packs are quick.
const PLAN: &str = "gen chess --n 2 --seed 1\ngen chess --n 3 --seed 2\n";

/// `duipai pack chess --out OUT --plan two.plan` in `dir` (with `extra` flags).
fn pack(dir: &Path, out: &str, extra: &[&str]) -> crate::util::Ran {
    fs::write(dir.join("two.plan"), PLAN).unwrap();
    Duipai::in_dir(dir)
        .args(["pack", "chess", "--out", out, "--plan", "two.plan"])
        .args(extra)
        .run()
}

#[test]
fn test_refuses_an_incomplete_pack_unless_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    pack(d, "p", &[]).success();
    let manifest = d.join("p/manifest.txt");
    let text = fs::read_to_string(&manifest).unwrap();
    let header_end = text.find('\n').unwrap() + 1;
    let marked = format!(
        "{}{}\n{}",
        &text[..header_end],
        duipai::pack::manifest::INCOMPLETE,
        &text[header_end..]
    );
    fs::write(&manifest, marked).unwrap();
    let refused = Duipai::in_dir(d)
        .args(["test", "chess", "p"])
        .fixture(["correct", "chess"])
        .run()
        .code(2);
    assert_contains(
        &refused.stderr(),
        "marks the chess pack (plain layout) incomplete",
    );
    assert_contains(&refused.stderr(), "--allow-incomplete");
    Duipai::in_dir(d)
        .args(["test", "chess", "p", "--allow-incomplete"])
        .fixture(["correct", "chess"])
        .run()
        .success();
}

#[test]
fn a_pack_refuses_a_folder_another_pack_is_writing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    pack(d, "p", &[]).success();
    // Another pack holds the folder's lock.
    let held = fs::File::open(d.join("p")).unwrap();
    // SAFETY: flock on a descriptor of ours.
    let locked = unsafe { libc::flock(held.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    assert_eq!(locked, 0);
    let refused = pack(d, "p", &["--force"]).code(2);
    assert_contains(&refused.stderr(), "is being written by another duipai pack");
    drop(held);
    pack(d, "p", &["--force"]).success();
}

#[test]
fn a_fifo_among_the_tests_is_refused_by_name_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("x.in"), "1 1\n0\n0\n").unwrap();
    mkfifo(&d.join("x.ans"));
    let started = Instant::now();
    let refused = Duipai::in_dir(d)
        .args(["test", "chess", "."])
        .fixture(["correct", "chess"])
        .run()
        .code(2);
    assert_contains(
        &refused.stderr(),
        "x.ans: a FIFO (named pipe), not a regular file",
    );
    fs::remove_file(d.join("x.ans")).unwrap();
    mkfifo(&d.join("y.in"));
    let refused = Duipai::in_dir(d)
        .args(["test", "chess", "."])
        .fixture(["correct", "chess"])
        .run()
        .code(2);
    assert_contains(
        &refused.stderr(),
        "y.in: a FIFO (named pipe), not a regular file",
    );
    assert!(started.elapsed() < Duration::from_secs(30));
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
}

#[test]
fn a_pack_folder_replaced_by_a_link_is_not_written_or_emptied_through() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    pack(d, "p", &["--layout", "icpc"]).success();
    // The pack's data/secret becomes a link to a folder of someone else's files of the same
    // names.
    let elsewhere = d.join("elsewhere");
    fs::rename(d.join("p/data/secret"), &elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, d.join("p/data/secret")).unwrap();
    let before = fs::read_dir(&elsewhere).unwrap().count();
    let refused = pack(d, "p", &["--layout", "icpc", "--force"]).code(2);
    assert_contains(
        &refused.stderr(),
        "a folder on the way to it is a symbolic link",
    );
    assert_eq!(fs::read_dir(&elsewhere).unwrap().count(), before);
}

#[test]
fn temporary_files_of_killed_writes_are_cleared() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    pack(d, "p", &[]).success();
    fs::write(d.join("p/.duipai-AbC123.tmp"), "half a test").unwrap();
    fs::write(d.join("p/mine.tmp"), "the setter's").unwrap();
    pack(d, "p", &["--force"]).success();
    assert!(!d.join("p/.duipai-AbC123.tmp").exists());
    assert!(d.join("p/mine.tmp").exists());
}

/// A stress run killed while minimizing leaves the case as found alone: it is listed, and
/// replayed (and removed once it passes).
#[test]
fn a_case_whose_minimization_was_cut_short_is_listed_and_replayed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let saved = d.join("duipai-failures");
    fs::create_dir(&saved).unwrap();
    fs::write(saved.join("chess-7.original.in"), "1 1\n0\n0\n").unwrap();
    fs::write(saved.join("chess-7.original.ans"), "0\n").unwrap();
    let listed = Duipai::in_dir(d)
        .args(["failures", "chess"])
        .run()
        .success();
    assert_contains(&listed.stdout(), "1 saved failure of chess");
    let pruned = Duipai::in_dir(d)
        .args(["failures", "chess", "--prune-passing"])
        .fixture(["correct", "chess"])
        .run()
        .success();
    assert_contains(&pruned.stdout(), "chess-7.original.{in,ans}");
    assert!(!saved.join("chess-7.original.in").exists());
}

/// Sixteen threads alive at once, under the default limits of a problem with 512 MiB: each
/// reserves a stack of the stack limit, which used to exhaust the address-space bound at the
/// seventh.
#[test]
fn a_program_may_start_threads_as_judges_let_it() {
    require(&["python3"]);
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("a.in"), "1 1\n0\n0\n").unwrap();
    fs::write(d.join("a.ans"), "0\n").unwrap();
    fs::write(
        d.join("threads.py"),
        "import threading\nb = threading.Barrier(17)\n\
         ts = [threading.Thread(target=b.wait) for _ in range(16)]\n\
         [t.start() for t in ts]\nb.wait()\n[t.join() for t in ts]\nprint(0)\n",
    )
    .unwrap();
    let out = Duipai::in_dir(d)
        .args(["test", "chess", "a.in"])
        .program(["python3", "threads.py"])
        .run();
    assert_eq!(out.exit_code(), 0, "{}{}", out.stdout(), out.stderr());
}

/// A sidecar written by a hostile program or a cloned repository names files outside the
/// save folder (a relative path up, an absolute path): `--prune-passing` removes only the
/// case's own files.
#[test]
fn prune_passing_removes_nothing_outside_the_save_folder() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let saved = d.join("duipai-failures");
    fs::create_dir(&saved).unwrap();
    let victims = tempfile::tempdir().unwrap();
    let v = victims.path();
    for name in ["x-1.original.in", "x-1.original.ans", "x-1.original.out"] {
        fs::write(v.join(name), "precious").unwrap();
    }
    for (seed, problem) in [
        (1, v.join("x").display().to_string()),
        (2, "../../x".into()),
    ] {
        let stem = format!("chess-{seed}");
        fs::write(saved.join(format!("{stem}.in")), "1 1\n0\n0\n").unwrap();
        fs::write(saved.join(format!("{stem}.ans")), "0\n").unwrap();
        let meta = serde_json::json!({
            "problem": problem, "seed": 1, "verdict": "WA", "detail": "", "program": "p",
            "original": format!("{problem}-1.original.in"), "saved_at": 1,
        });
        fs::write(saved.join(format!("{stem}.meta")), meta.to_string()).unwrap();
    }
    let pruned = Duipai::in_dir(d)
        .args(["failures", "chess", "--prune-passing"])
        .fixture(["correct", "chess"])
        .run()
        .success();
    assert_contains(&pruned.stdout(), "removed 2 cases");
    for name in ["x-1.original.in", "x-1.original.ans", "x-1.original.out"] {
        assert!(
            v.join(name).exists(),
            "{name} outside the save folder was removed"
        );
    }
}
