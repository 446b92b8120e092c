//! What contestants see: colour when asked for, never in pipes or JSON; saved failures
//! re-run first; `--watch` running again after an edit; a mistyped program caught before any
//! run.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::util::{CHESS_CASES, Duipai, assert_contains, duipai, fixture, write_sh};

#[test]
fn colour_only_when_wanted() {
    let dir = tempfile::tempdir().unwrap();
    let test = || {
        Duipai::in_dir(dir.path())
            .args(["test", "chess", CHESS_CASES])
            .fixture(["wrong", "chess"])
    };
    let coloured = |color: &str| test().args(["--color", color]);
    let painted = coloured("always").run().stdout();
    // The verdict code itself is painted, its padding outside the codes (columns line up),
    // and the diff's removed and added lines are red and green.
    assert_contains(&painted, "WA\x1b[0m  0");
    assert_contains(&painted, "\x1b[31m-");
    assert_contains(&painted, "\x1b[32m+");
    // Piped (as here) with auto, and with never: plain text.
    for color in ["auto", "never"] {
        let out = coloured(color).run();
        assert!(!out.stdout().contains('\x1b'), "{color}");
    }
    // NO_COLOR wins over a terminal-less auto and is honoured; CLICOLOR_FORCE forces colour.
    let out = coloured("auto").env("NO_COLOR", "1").run();
    assert!(!out.stdout().contains('\x1b'));
    let out = coloured("auto")
        .env_remove("NO_COLOR")
        .env("CLICOLOR_FORCE", "1")
        .run();
    assert!(out.stdout().contains("\x1b["));
    // JSON never carries colour, even when forced.
    let out = test().arg("--json").args(["--color", "always"]).run();
    assert!(!out.stdout().contains('\x1b'), "{}", out.stdout());
    // The line of play: whose cell is whose.
    let out = Duipai::in_dir(dir.path())
        .args(["solve", "chess", "--explain", "--color", "always"])
        .arg(format!("{CHESS_CASES}/01-sample.in"))
        .run();
    assert!(out.stdout().contains("\x1b["));
}

#[test]
fn saved_failures_are_replayed_first() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let stress = |behaviour: &str| {
        Duipai::in_dir(d)
            .args(["stress", "chess"])
            .fixture([behaviour, "chess"])
    };
    stress("wrong").run().code(1);
    // Fixed: the saved case passes now, and new seeds run.
    let text = stress("correct")
        .args(["--iterations", "20"])
        .run()
        .success()
        .stdout();
    assert!(
        text.starts_with("replaying 1 failing case saved in duipai-failures"),
        "{text}"
    );
    assert!(text.contains("all of them pass now"));
    // Broken again: it still fails, and the run says so and ends: no new seed, no duplicate.
    let out = stress("wrong-thin")
        .args(["--iterations", "1", "--json"])
        .run();
    let text = out.stderr();
    assert_contains(&text, "1 still failing");
    assert_contains(&text, "not searching: the 1 saved case above still fails");
    assert!(!text.contains("stressing"), "{text}");
    let report = out.json();
    assert_eq!(report["still_failing"].as_array().unwrap().len(), 1);
    out.code(1);
    // --no-replay skips it.
    let out = stress("correct")
        .args(["--iterations", "5", "--no-replay"])
        .run();
    assert!(!out.stdout().contains("replaying"));
}

/// `--watch` runs the command again after an edit, one saved while the command still runs
/// included, and ends on Ctrl-C.
#[test]
fn watch_runs_again_after_an_edit() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let script = d.join("sol.sh");
    let write = |body: &str| {
        // Written under another name and renamed, as editors do.
        let tmp = write_sh(d, "sol.sh.tmp", &format!("cat >/dev/null\n{body}"));
        std::fs::rename(&tmp, &script).unwrap();
    };
    // The first version says it has started, then takes a moment, in which it is edited.
    let started = d.join("started");
    write(&format!("touch '{}'\nsleep 0.2\necho 0", started.display()));
    let sample = format!("{CHESS_CASES}/01-sample.in");
    let mut child = Command::new(duipai())
        // Uncontained, so that the program can say it has started.
        .args([
            "test",
            "chess",
            &sample,
            "--watch",
            "--no-sandbox",
            "--",
            "./sol.sh",
        ])
        .current_dir(d)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Read on a thread of its own, so that a watch that prints nothing more fails the test
    // after 30 s rather than hangs it.
    let stdout = child.stdout.take().unwrap();
    let pid = child.id() as i32;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    let mut seen = Vec::new();
    let mut wait_for = |needle: &str| {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(line) if line.contains(needle) => return,
                Ok(line) => seen.push(line),
                Err(_) => {
                    // SAFETY: kill has no memory effects; the watch is this test's child.
                    unsafe { libc::kill(pid, libc::SIGKILL) };
                    panic!(
                        "no {needle:?} within 30 s; the watch printed:\n{}",
                        seen.join("\n")
                    );
                }
            }
        }
    };
    // Edited while it runs: the files were stamped before the run, so the edit makes it run
    // again once this run is over.
    let deadline = Instant::now() + Duration::from_secs(30);
    while !started.exists() {
        if Instant::now() >= deadline {
            // SAFETY: kill has no memory effects; the watch is this test's child.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            panic!("the first run did not start within 30 s");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    write("echo 2");
    wait_for("1 case: 1 WA");
    wait_for("1 case: 1 AC");
    // Ctrl-C ends the watch cleanly, with the status of every interrupted command.
    // SAFETY: kill has no memory effects; the child is ours and not yet reaped.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{status:?}");
}

/// A correct chess solution in C++, as a contestant writes it: memoized minimax over the
/// row profile. It names its headers and reads with scanf: with <bits/stdc++.h> and cin it
/// took 3.1 s of CPU to compile, 0.8 s so (compile::cpp_source_compiles_with_the_contest_flags
/// builds <bits/stdc++.h>).
const RIGHT_CPP: &str = r#"#include <algorithm>
#include <climits>
#include <cstdio>
#include <unordered_map>
#include <vector>
using namespace std;
int n, m, A[10][10], B[10][10];
unordered_map<long long, int> memo;
int go(vector<int>& f, int turn) {
    if (turn == n * m) return 0;
    long long key = 0; for (int x : f) key = key * 11 + x;
    auto it = memo.find(key); if (it != memo.end()) return it->second;
    bool fei = turn % 2 == 0; int best = fei ? INT_MIN : INT_MAX;
    for (int i = 0; i < n; i++) { int j = f[i];
        if (j < m && (i == 0 || f[i-1] > j)) { f[i]++; int r = go(f, turn + 1); f[i]--;
            best = fei ? max(best, A[i][j] + r) : min(best, r - B[i][j]); } }
    return memo[key] = best;
}
int main() { if (scanf("%d %d", &n, &m) != 2) return 1; for (int i=0;i<n;i++) for(int j=0;j<m;j++) scanf("%d", &A[i][j]);
    for (int i=0;i<n;i++) for(int j=0;j<m;j++) scanf("%d", &B[i][j]);
    vector<int> f(n, 0); printf("%d\n", go(f, 0)); }
"#;

/// A 1×1 chess board's answer is A (Feifei takes the only cell); this Python program is
/// wrong when A is odd.
const WRONG_PY: &str = "import sys\na = int(sys.stdin.read().split()[2])\nprint(a + a % 2)\n";

#[test]
fn source_files_are_compiled_once_and_used_anywhere_a_program_is() {
    crate::util::require(&["g++", "python3"]);
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("right.cpp"), RIGHT_CPP).unwrap();
    let duipai = || {
        Duipai::in_dir(d)
            .env("DUIPAI_CACHE_DIR", d.join("cache"))
            .env_remove("DUIPAI_CXX")
    };
    let first = duipai()
        .args(["stress", "chess", "--iterations", "30"])
        .program(["right.cpp"])
        .run()
        .success();
    assert!(first.stderr().contains("compiled right.cpp"));
    // The second run finds it in the cache: the compiler does not run again.
    let second = duipai()
        .args(["test", "chess", CHESS_CASES])
        .program(["right.cpp"])
        .run()
        .success();
    assert!(!second.stderr().contains("compiled"));
    // A source as the reference, a Python program under test.
    std::fs::write(d.join("wrong.py"), WRONG_PY).unwrap();
    let report = duipai()
        .args(["stress", "chess", "--n", "1", "--m", "1"])
        .args(["--iterations", "200"])
        .args(["--reference", "right.cpp", "--json"])
        .program(["python3", "wrong.py"])
        .run()
        .code(1)
        .json();
    assert_eq!(report["verdict"], "WA");
    let input = std::fs::read_to_string(d.join(report["input"].as_str().unwrap())).unwrap();
    assert_eq!(input, "1 1\n1\n0\n");
}

#[test]
fn a_compile_error_is_a_harness_error_with_its_position() {
    crate::util::require(&["g++"]);
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("bad.cpp"), "int main() {\n  return x;\n}\n").unwrap();
    let err = Duipai::in_dir(d)
        .env("DUIPAI_CACHE_DIR", d.join("cache"))
        .args(["test", "chess", CHESS_CASES])
        .program(["bad.cpp"])
        .run()
        .code(2)
        .stderr();
    assert_contains(&err, "bad.cpp:2:10");
    assert_contains(&err, "does not compile");
}

/// A mistyped source file or script is a usage error before any case runs, not a failure of
/// every case (which would be saved, minimized and replayed from then on).
#[test]
fn a_missing_source_or_script_stops_before_any_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (program, named) in [
        (&["sol.cpp"][..], "sol.cpp"),
        (&["python3", "sol.py"][..], "sol.py"),
    ] {
        let message = Duipai::in_dir(d)
            .args(["stress", "chess"])
            .program(program)
            .run()
            .code(2)
            .stderr();
        assert_contains(
            &message,
            &format!("cannot read {named}: No such file or directory"),
        );
        assert!(!message.contains("PATH"), "{message}");
        assert!(!d.join("duipai-failures").exists(), "nothing is saved");
    }
}

/// A compiled program that is not there (`./a.out` before compiling, a misspelt command) is
/// named once, before the search says it started, for every command that runs programs.
#[test]
fn a_missing_program_stops_before_any_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let fixture = fixture();
    std::fs::create_dir(d.join("build")).unwrap();
    let runs: [(&[&str], &[&str], &str); 5] = [
        (
            &["test", "chess", CHESS_CASES],
            &["./build"],
            "cannot start the program ./build: it is a directory",
        ),
        (
            &["stress", "chess"],
            &["./a.out"],
            "cannot start the program ./a.out: there is no such file",
        ),
        (
            &["test", "chess", CHESS_CASES],
            &["./a.out"],
            "cannot start the program ./a.out: there is no such file",
        ),
        (
            &["stress", "chess", "--reference", "no-such-brute-here"],
            &[fixture.to_str().unwrap(), "correct", "chess"],
            "cannot start the reference no-such-brute-here: no such program (a name without a \
             slash is looked up in PATH; write ./no-such-brute-here for a file in the current \
             directory)",
        ),
        (
            &["failures", "chess", "--prune-passing"],
            &["./a.out"],
            "cannot start the program ./a.out: there is no such file",
        ),
    ];
    for (args, program, expected) in runs {
        let out = Duipai::in_dir(d).args(args).program(program).run().code(2);
        let message = out.stderr();
        assert!(message.contains(expected), "{args:?}: {message}");
        assert!(!message.contains("stressing"), "{message}");
        assert!(!message.contains("testing"), "{message}");
        assert!(!message.contains("seed"), "{message}");
        assert!(!d.join("duipai-failures").exists(), "nothing is saved");
    }
}

/// `a.out` without `./`: not in PATH, but an executable file here, so it is the one meant.
#[test]
fn a_bare_name_of_an_executable_here_runs_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let local = d.join("duipai-local-solution");
    std::fs::copy(fixture(), &local).unwrap();
    crate::util::wait_until_executable(&local);
    let test = || Duipai::in_dir(d).args(["test", "chess", CHESS_CASES]);
    test()
        .program(["duipai-local-solution", "correct", "chess"])
        .run()
        .success();
    // A file that is not executable is not run: the PATH message stays.
    let plain = d.join("not-a-program");
    std::fs::write(&plain, "2\n").unwrap();
    let out = test().program(["not-a-program"]).run().code(2);
    assert_contains(
        &out.stderr(),
        "cannot start the program not-a-program: a name without a slash is looked up in \
         PATH, which has no such program, and the file not-a-program here is not executable",
    );
}

/// Fails the test, saying what to install, unless a sanitizer build (`flags`) succeeded.
fn assert_sanitizers_build(built: std::io::Result<std::process::Output>, flags: &str) {
    crate::util::require(&["g++"]);
    let built = built.expect("g++ runs");
    assert!(
        built.status.success(),
        "g++ cannot build with {flags}: install gcc's sanitizer runtimes (Debian/Ubuntu: \
         apt-get install libasan8 libubsan1, or the versions your g++ names):\n{}",
        String::from_utf8_lossy(&built.stderr)
    );
}

/// A solution built with `-fsanitize=address,undefined` (as contestants stress-test for
/// undefined behaviour) starts despite the address-space bound, and its failure shows the
/// sanitizer's key lines rather than the report's last lines.
#[test]
fn a_sanitized_solution_runs_and_its_report_is_shown() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let source = d.join("oob.cpp");
    // Right on every board but 2×2, where it writes one past the end of `seen`.
    std::fs::write(
        &source,
        "#include <cstdio>\nint seen[4];\nint main() {\n  int n, m;\n  if (std::scanf(\"%d %d\", &n, &m) != 2) return 0;\n  if (n == 2 && m == 2) seen[n * m] = 1;\n  std::printf(\"0\\n\");\n}\n",
    )
    .unwrap();
    let binary = d.join("oob");
    let built = Command::new("g++")
        .args(["-O1", "-g", "-fsanitize=address,undefined", "-o"])
        .arg(&binary)
        .arg(&source)
        .output();
    assert_sanitizers_build(built, "-fsanitize=address,undefined");
    crate::util::wait_until_executable(&binary);
    // All values zero: every answer is 0, so only the sanitizer can fail a case.
    let out = Duipai::in_dir(d)
        .args(["stress", "chess", "--n", "1..2", "--m", "1..2"])
        .args(["--max-value", "0"])
        .program(["./oob"])
        .run()
        .code(1);
    let text = format!("{}{}", out.stdout(), out.stderr());
    assert_contains(&text, "case (2×2)");
    assert_contains(&text, "SUMMARY: AddressSanitizer: global-buffer-overflow");
    assert_contains(&text, "runtime error: index 4 out of bounds");
    assert!(!text.contains("ReserveShadowMemoryRange"), "{text}");

    // The runtime linked into the program (gcc's -static-libasan) is recognized too.
    let linked_in = d.join("oob-static");
    let built = Command::new("g++")
        .args(["-O1", "-fsanitize=address", "-static-libasan", "-o"])
        .arg(&linked_in)
        .arg(&source)
        .output();
    assert_sanitizers_build(built, "-static-libasan");
    crate::util::wait_until_executable(&linked_in);
    std::fs::write(d.join("zero.in"), "1 1\n0\n0\n").unwrap();
    Duipai::in_dir(d)
        .args(["test", "chess", "zero.in"])
        .program(["./oob-static"])
        .run()
        .success();
}

/// `-- ./a.out --file-io`: the flag goes to the program, as typed, and duipai says so.
#[test]
fn duipai_flags_after_the_separator_are_pointed_out() {
    let dir = tempfile::tempdir().unwrap();
    let sample = format!("{CHESS_CASES}/01-sample.in");
    let message = Duipai::in_dir(dir.path())
        .args(["test", "chess", &sample])
        .program(["sh", "-c", "cat >/dev/null; echo 2", "sh"])
        .program(["--file-io", "--time-limit=5", "--not-ours"])
        .run()
        .success()
        .stderr();
    assert_contains(
        &message,
        "--file-io comes after `--`, so it is an argument of the program",
    );
    assert_contains(&message, "--time-limit comes after");
    assert!(!message.contains("--not-ours"), "{message}");
}
