//! Python helpers started from a warm interpreter behave as a fresh start does: the same
//! bytes out for the same argv, stdin, environment and folder; the same exit codes and
//! uncaught exceptions, blamed on the helper as before; the same limits; files and modules
//! beside the script found as they are fresh. Each test compares a run with duipai's
//! defaults (warm) with the same run under `--fresh-helpers`, and checks that the first was
//! warm indeed: a warm run's `/proc/self/cmdline` is its interpreter's, without the run's
//! arguments.

use std::path::Path;

use crate::util::{Duipai, Ran, assert_contains, require};

/// A generator that prints what a Python script can see of how it was started, one thing a
/// line: the line `cmdline: N` (how many words `/proc/self/cmdline` holds) is the only one
/// that may tell a warm run from a fresh one. Values that name the run (its id, in the
/// environment and in the tag of its rlimits; its cgroup slot's number) are shown as
/// whether they are there.
const PROBE: &str = r##"import os, re, signal, sys
print("argv:", sys.argv, sys.orig_argv)
print("main:", __name__, __file__, __spec__, __package__, type(__loader__).__name__, __cached__)
print("globals:", list(globals()))
print("path:", sys.path)
print("modules:", sorted(sys.modules))
print("executable:", sys.executable, sys.flags, sys.getrecursionlimit())
for s in (sys.stdin, sys.stdout, sys.stderr):
    print("stream:", s.name, s.mode, s.encoding, s.errors, s.line_buffering, s.write_through, type(s.buffer).__name__, s is getattr(sys, "__%s__" % s.name.strip("<>")))
print("cwd:", os.getcwd(), oct(os.umask(0o22)))
env = dict(os.environ)
run = env.pop("DUIPAI_RUN", None)
print("env:", sorted(env.items()), "run:", run is not None and run.isdigit())
print("fds:", sorted(os.listdir("/proc/self/fd"), key=int))
print("group:", os.getpgid(0) == os.getpid(), os.getsid(0) == os.getsid(os.getppid()))
status = open("/proc/self/status").read()
print("signals:", re.findall(r"(Sig(?:Blk|Ign|Cgt)):\s*(\w+)", status))
print("handlers:", [signal.getsignal(n) for n in (signal.SIGINT, signal.SIGPIPE, signal.SIGTERM, signal.SIGCHLD)])
limits = open("/proc/self/limits").read().splitlines()
print("limits:", [l if "realtime timeout" not in l else l.split()[3][:8] for l in limits])
print("oom:", open("/proc/self/oom_score_adj").read().strip())
print("cgroup:", re.sub(r"\d+", "#", open("/proc/self/cgroup").read()).split())
print("stdin:", repr(sys.stdin.read()))
print("cmdline:", open("/proc/self/cmdline", "rb").read().count(b"\0"))
"##;

/// The lines of a probe's output but its `cmdline:` line, and how many words that showed.
fn probed(output: &str) -> (Vec<String>, usize) {
    let mut words = None;
    let mut lines = Vec::new();
    for line in output.lines() {
        match line.strip_prefix("cmdline: ") {
            Some(n) => words = Some(n.parse().expect("a count")),
            None => lines.push(line.to_string()),
        }
    }
    (lines, words.expect("a cmdline line"))
}

/// Asserts that two probes saw the same start but for the command line, the first one warm
/// (its command line has `fresh_words - extra` words: the server's has none of the run's
/// `extra` arguments), the second fresh.
fn assert_same_start(warm: &str, fresh: &str, extra: usize) {
    let (warm_lines, warm_words) = probed(warm);
    let (fresh_lines, fresh_words) = probed(fresh);
    for (w, f) in warm_lines.iter().zip(&fresh_lines) {
        assert_eq!(w, f, "a warm start differs from a fresh one");
    }
    assert_eq!(warm_lines.len(), fresh_lines.len());
    assert_eq!(
        warm_words + extra,
        fresh_words,
        "the first run was not warm:\n{warm}"
    );
}

fn write(dir: &Path, name: &str, text: &str) {
    if let Some(parent) = dir.join(name).parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(dir.join(name), text).unwrap();
}

/// `duipai ARGS` in `dir`, warm (the default) and with `--fresh-helpers`.
fn both(dir: &Path, args: &[&str]) -> (Ran, Ran) {
    let warm = Duipai::in_dir(dir).args(args).run();
    let fresh = Duipai::in_dir(dir).args(args).arg("--fresh-helpers").run();
    (warm, fresh)
}

#[test]
fn a_warm_generator_sees_what_a_fresh_one_sees() {
    require(&["python3"]);
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "probe.py", PROBE);
    let args = [
        "gen",
        "probe",
        "--generator",
        "python3 probe.py",
        "--seed",
        "7",
        "first",
        "2nd arg",
    ];
    let (warm, fresh) = both(dir.path(), &args);
    let (warm, fresh) = (warm.success().stdout(), fresh.success().stdout());
    assert_contains(&warm, "argv: ['probe.py', 'first', '2nd arg', '7']");
    assert_contains(&warm, "main: __main__ ");
    // The three arguments are the run's: the server was started without them.
    assert_same_start(&warm, &fresh, 3);
}

/// Contained (a cgroup slot, no terminal, the run's rlimits), a generator's run in a stress
/// loop: the case it printed is saved, and the program fails every case.
#[test]
fn a_warm_generator_in_a_stress_loop_sees_what_a_fresh_one_sees() {
    require(&["python3"]);
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "probe.py", PROBE);
    let args = [
        "stress",
        "probe",
        "--generator",
        "python3 probe.py",
        "--reference",
        "cat",
        "--seed",
        "3",
        "--iterations",
        "1",
        "--no-shrink",
        "--json",
        "-j",
        "1",
    ];
    let failing = |ran: Ran, save: &str| {
        let report = ran.code(1).json();
        assert_eq!(report["verdict"], "RE", "{report}");
        std::fs::read_to_string(dir.path().join(save).join("probe-3.in")).unwrap()
    };
    let warm = Duipai::in_dir(dir.path())
        .args(args)
        .args(["--save", "warm"])
        .program(["false"])
        .run();
    let fresh = Duipai::in_dir(dir.path())
        .args(args)
        .args(["--save", "fresh", "--fresh-helpers"])
        .program(["false"])
        .run();
    let (warm, fresh) = (failing(warm, "warm"), failing(fresh, "fresh"));
    assert_contains(&warm, "argv: ['probe.py', '3']");
    assert_same_start(&warm, &fresh, 1);
}

/// A reference reads its stdin and prints what it saw, warm; the program under test is the
/// same script, which always starts fresh: every case of the stress loop is answered alike.
#[test]
fn a_warm_reference_answers_every_case_as_the_same_script_does_fresh() {
    require(&["python3"]);
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "gen.py",
        "import random, sys\nr = random.Random(int(sys.argv[-1]))\nn = r.randint(0, 6)\n\
         print(n)\nprint(*[r.randint(-9, 99) for _ in range(n)])\n",
    );
    // What it prints depends on its input, its argv and how it started, but not on its
    // role: a program under test runs in a scratch folder with its own environment unless
    // --no-sandbox, so the loop runs without containment.
    write(
        dir.path(),
        "echo.py",
        "import os, sys\ndata = sys.stdin.buffer.read()\nprint(len(data), data.split())\n\
         print(sys.argv, __name__, sorted(sys.modules))\n\
         print(sorted(k for k in os.environ if k != 'DUIPAI_RUN'))\n\
         print(sum(map(int, data.split())), os.getcwd())\n",
    );
    let ran = Duipai::in_dir(dir.path())
        .args(["stress", "echo", "--generator", "python3 gen.py"])
        .args(["--reference", "python3 echo.py", "--iterations", "12"])
        .args(["--no-sandbox", "--json"])
        .program(["python3", "echo.py"])
        .run()
        .success();
    assert_eq!(ran.json()["cases"], 12);
}

/// Exit codes, `sys.exit` with a message, uncaught exceptions, syntax errors and
/// `KeyboardInterrupt` end a warm generator as they end a fresh one, and duipai blames the
/// generator for them in the same words.
#[test]
fn a_warm_generator_fails_as_a_fresh_one_does_and_is_blamed_alike() {
    require(&["python3"]);
    let dir = tempfile::tempdir().unwrap();
    let scripts = [
        ("code.py", "import sys\nprint('half a case')\nsys.exit(3)\n"),
        (
            "message.py",
            "import sys\nsys.exit('n is out of range: ' + sys.argv[-1])\n",
        ),
        (
            "raises.py",
            "import sys\n\ndef pick(n):\n    return [1, 2][n]\n\nprint(pick(int(sys.argv[-1])))\n",
        ),
        ("syntax.py", "print('x')\ndef (:\n"),
        ("interrupt.py", "raise KeyboardInterrupt\n"),
        (
            "chained.py",
            "try:\n    {}['k']\nexcept KeyError as e:\n    raise ValueError('wrapped') from e\n",
        ),
    ];
    for (name, text) in scripts {
        write(dir.path(), name, text);
        let generator = format!("python3 {name}");
        let args = ["gen", "p", "--generator", &generator, "--seed", "5"];
        let (warm, fresh) = both(dir.path(), &args);
        assert_eq!(warm.exit_code(), 2, "{name}: {}", warm.stderr());
        assert_eq!(fresh.exit_code(), 2, "{name}");
        assert_eq!(warm.stderr(), fresh.stderr(), "{name}");
        assert_eq!(warm.stdout(), fresh.stdout(), "{name}");
        assert_contains(
            &warm.stderr(),
            &format!("the generator python3 {name} failed"),
        );
    }
}

/// A generator in a folder of its own imports a module beside it and reads a file beside it
/// by `__file__`; run from the folder above, warm as fresh.
#[test]
fn a_warm_generator_finds_the_files_and_modules_beside_it() {
    require(&["python3"]);
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "gens/sizes.py", "SIZES = [3, 1, 4]\n");
    write(dir.path(), "gens/words.txt", "apple pear\n");
    write(
        dir.path(),
        "gens/gen.py",
        "import os, sys, sizes\nhere = os.path.dirname(os.path.abspath(__file__))\n\
         words = open(os.path.join(here, 'words.txt')).read().split()\n\
         print(sizes.SIZES[int(sys.argv[-1]) % 3], *words)\n",
    );
    // A module named like one the warm interpreter itself imports, beside the script: the
    // script gets its own, as it would fresh.
    write(dir.path(), "gens/socket.py", "MINE = True\n");
    write(
        dir.path(),
        "gens/shadow.py",
        "import socket\nprint(getattr(socket, 'MINE', False))\n",
    );
    let (warm, fresh) = both(
        dir.path(),
        &[
            "gen",
            "p",
            "--generator",
            "python3 gens/gen.py",
            "--seed",
            "4",
        ],
    );
    assert_eq!(warm.success().stdout(), "1 apple pear\n");
    assert_eq!(fresh.success().stdout(), "1 apple pear\n");
    let (warm, fresh) = both(
        dir.path(),
        &[
            "gen",
            "p",
            "--generator",
            "python3 gens/shadow.py",
            "--seed",
            "1",
        ],
    );
    assert_eq!(warm.success().stdout(), "True\n");
    assert_eq!(fresh.success().stdout(), "True\n");
}

/// A warm validator's verdicts (exit 0, an error code, an assertion, a crash) are a fresh
/// one's, with the same messages.
#[test]
fn a_warm_validator_judges_as_a_fresh_one() {
    require(&["python3"]);
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "val.py",
        "import sys\nn = int(sys.stdin.readline())\nassert n >= 1, 'n must be positive'\n\
         if n > 9:\n    print('n too big', file=sys.stderr)\n    sys.exit(43)\n",
    );
    for (name, text) in [
        ("ok.in", "3\n"),
        ("zero.in", "0\n"),
        ("big.in", "12\n"),
        ("word.in", "x\n"),
    ] {
        write(dir.path(), name, text);
    }
    let args = [
        "validate",
        "p",
        "--validator",
        "python3 val.py",
        "ok.in",
        "zero.in",
        "big.in",
        "word.in",
    ];
    let (warm, fresh) = both(dir.path(), &args);
    assert_eq!(warm.exit_code(), 1);
    assert_eq!(fresh.exit_code(), 1);
    assert_eq!(warm.stdout(), fresh.stdout());
    assert_eq!(warm.stderr(), fresh.stderr());
    assert_contains(&warm.stdout(), "ok.in: ok");
    assert_contains(&warm.stdout(), "n must be positive");
}

/// A warm helper is still held to its limits and measured: a generator that loops is
/// stopped at its CPU limit, and blamed.
#[test]
fn a_warm_generator_is_stopped_at_its_limit() {
    require(&["python3"]);
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "loop.py", "while True:\n    pass\n");
    let ran = Duipai::in_dir(dir.path())
        .args(["stress", "p", "--generator", "python3 loop.py"])
        .args(["--reference", "cat", "--helper-time-limit", "300"])
        .args(["--iterations", "1", "-j", "1"])
        .program(["cat"])
        .run()
        .code(2);
    assert_contains(
        &ran.stderr(),
        "the generator python3 loop.py failed: TLE (CPU 0.",
    );
    assert!(
        !ran.stderr().contains("starts a new Python"),
        "{}",
        ran.stderr()
    );
}

/// Interpreter options before the script are not passed to a warm interpreter: such a
/// helper starts fresh, and duipai says so once.
#[test]
fn a_helper_that_cannot_start_warm_starts_fresh_and_says_so() {
    require(&["python3"]);
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "gen.py", "import sys\nprint(sys.argv[-1])\n");
    let ran = Duipai::in_dir(dir.path())
        .args(["stress", "p", "--generator", "python3 -B gen.py"])
        .args(["--reference", "cat", "--iterations", "3"])
        .program(["cat"])
        .run()
        .success();
    let said = ran
        .stderr()
        .matches("duipai: note: gen.py starts a new Python for every run: options before its script are not given to a warm interpreter\n")
        .count();
    assert_eq!(said, 1, "{}", ran.stderr());
}

/// A site's own `sitecustomize.py` (on PYTHONPATH here) runs in each warm run as it does in a
/// fresh start, with the run's environment: what it sets in `os.environ` and the seed it
/// gives `random` are the generator's, warm, fresh, and in plain Python alike.
#[test]
fn a_sitecustomize_of_ones_own_runs_in_each_warm_run() {
    require(&["python3"]);
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "site/sitecustomize.py",
        "import os, random\nos.environ['DUIPAI_SITE_TEST'] = 'on'\nrandom.seed(2024)\n",
    );
    write(
        dir.path(),
        "gen.py",
        "import os, random, sys\nprint(os.environ.get('DUIPAI_SITE_TEST', 'off'), random.randint(1, 10**9))\n",
    );
    let site = dir.path().join("site");
    let args = [
        "gen",
        "site",
        "--generator",
        "python3 gen.py",
        "--seed",
        "3",
    ];
    let warm = Duipai::in_dir(dir.path())
        .env("PYTHONPATH", &site)
        .args(args)
        .run()
        .success()
        .stdout();
    let fresh = Duipai::in_dir(dir.path())
        .env("PYTHONPATH", &site)
        .args(args)
        .arg("--fresh-helpers")
        .run()
        .success()
        .stdout();
    let plain = std::process::Command::new("python3")
        .env("PATH", crate::util::path_without_shims())
        .current_dir(dir.path())
        .env("PYTHONPATH", &site)
        .args(["gen.py", "3"])
        .output()
        .unwrap();
    let plain = String::from_utf8(plain.stdout).unwrap();
    assert!(plain.starts_with("on "), "{plain}");
    assert_eq!(warm, plain, "warm");
    assert_eq!(fresh, plain, "fresh");
}
