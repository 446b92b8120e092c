//! The first minute with a new problem, with real Python and C++ helpers: every source
//! compiled at once and testlib.h precompiled, minimization that keeps to what the generator
//! makes when there is no validator, saved failures that remember how they were judged, and
//! messages that name the real cause.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::util::{
    Duipai, assert_contains, support_workspace, wait_until_executable, with_shared_cache, write_sh,
};

/// A stand-in for g++ that logs when each compile begins and ends (`begin NAME ARGS` / `end
/// NAME`, NAME the source's file name; `header ARGS` / `header-end` for a header) and holds
/// every compile, a header's too, for `hold` seconds before running the real g++: what
/// overlaps what then does not depend on how long each takes to build. The hold is read from
/// the file `hold` beside the script at every compile, so that a run whose overlaps are not
/// checked can set it to 0 ([`set_hold`]).
fn slow_logging_gxx(dir: &Path, hold: f64) -> (PathBuf, PathBuf) {
    let log = dir.join("compiles.log");
    set_hold(dir, hold);
    let body = format!(
        r#"name=""
hold=$(cat '{hold}')
for word in "$@"; do case "$word" in *.cpp) name=$(basename "$word");; esac; done
case " $* " in *" -x c++-header "*) echo "header $*" >> '{log}'; sleep $hold;; esac
if [ -n "$name" ]; then echo "begin $name $*" >> '{log}'; sleep $hold; fi
g++ "$@"; status=$?
[ -n "$name" ] && echo "end $name" >> '{log}'
case " $* " in *" -x c++-header "*) echo "header-end" >> '{log}';; esac
exit $status"#,
        log = log.display(),
        hold = dir.join("hold").display()
    );
    let script = write_sh(dir, "gxx.sh", &body);
    wait_until_executable(&script);
    (script, log)
}

/// How long [`slow_logging_gxx`]'s compiler in `dir` holds each compile from now on.
fn set_hold(dir: &Path, hold: f64) {
    fs::write(dir.join("hold"), format!("{hold}\n")).unwrap();
}

fn log_lines(log: &Path) -> Vec<String> {
    fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

/// The program, the validator and the checker compile side by side: the program while
/// testlib.h is precompiled, the validator and the checker together. The testlib sources are built with the precompiled header,
/// made once; a second run with an edited checker builds the header no more.
#[test]
fn sources_compile_at_once_and_testlib_h_is_precompiled_once() {
    let dir = support_workspace("derangement");
    let d = dir.path();
    small_testlib(d);
    // Each compile held half a second: the program's build overlaps the header's, the
    // validator's the checker's, however a busy machine delays the start of either.
    let (gxx, log) = slow_logging_gxx(d, 0.5);
    // -O0: what is checked is when each compile runs and with which header, not the code.
    let compiler = format!("cpp={} -std=c++17 -O0 -DONLINE_JUDGE", gxx.display());
    let stress = || {
        Duipai::in_dir(d)
            .env("DUIPAI_CACHE_DIR", d.join("cache"))
            .args([
                "stress",
                "der",
                "--generator",
                "gen.py",
                "--reference",
                "brute.py",
            ])
            .args(["--validator", "validator.cpp", "--checker", "checker.cpp"])
            .args(["--compiler", &compiler, "--iterations", "3"])
            .program(["right.cpp"])
            .run()
    };
    stress().success();
    let lines = log_lines(&log);
    let at = |prefix: &str| {
        lines
            .iter()
            .position(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no {prefix:?} in {lines:#?}"))
    };
    assert!(at("begin right.cpp ") < at("header-end"), "{lines:#?}");
    let first_testlib_end = at("end validator.cpp").min(at("end checker.cpp"));
    assert!(at("begin validator.cpp ") < first_testlib_end, "{lines:#?}");
    assert!(at("begin checker.cpp ") < first_testlib_end, "{lines:#?}");
    let headers = lines.iter().filter(|l| l.starts_with("header ")).count();
    assert_eq!(headers, 1, "testlib.h is precompiled once: {lines:#?}");
    for source in ["validator.cpp", "checker.cpp"] {
        let line = lines
            .iter()
            .find(|l| l.starts_with(&format!("begin {source} ")));
        assert_contains(line.unwrap(), "-include");
    }
    let plain = lines
        .iter()
        .find(|l| l.starts_with("begin right.cpp "))
        .unwrap();
    assert!(
        !plain.contains("-include"),
        "right.cpp has no testlib.h: {plain}"
    );

    let edited = fs::read_to_string(d.join("checker.cpp")).unwrap() + "\n// edited\n";
    fs::write(d.join("checker.cpp"), edited).unwrap();
    fs::write(&log, "").unwrap();
    // What is built now is checked, not what overlaps: no hold.
    set_hold(d, 0.0);
    stress().success();
    let lines = log_lines(&log);
    assert!(
        lines.iter().any(|l| l.starts_with("begin checker.cpp ")),
        "the edited checker is built anew: {lines:#?}"
    );
    assert!(
        !lines.iter().any(|l| l.starts_with("header ")),
        "the header is not built again: {lines:#?}"
    );
}

/// A testlib source with something before its `#include "testlib.h"` is built as it is
/// written: the header is not put before it.
#[test]
fn a_define_before_testlib_h_keeps_the_plain_build() {
    let dir = support_workspace("derangement");
    let d = dir.path();
    small_testlib(d);
    let (gxx, log) = slow_logging_gxx(d, 0.0);
    let checker = fs::read_to_string(d.join("checker.cpp")).unwrap();
    let defined = checker.replacen(
        "#include \"testlib.h\"",
        "#define DUIPAI_TEST_DEFINE 1\n#include \"testlib.h\"",
        1,
    );
    fs::write(d.join("checker.cpp"), defined).unwrap();
    // -O0, as above: the command line is what is checked.
    let compiler = format!("cpp={} -std=c++17 -O0", gxx.display());
    Duipai::in_dir(d)
        .env("DUIPAI_CACHE_DIR", d.join("cache"))
        .args([
            "stress",
            "der",
            "--generator",
            "gen.py",
            "--reference",
            "brute.py",
        ])
        .args([
            "--checker",
            "checker.cpp",
            "--compiler",
            &compiler,
            "--iterations",
            "2",
        ])
        .program(["right.cpp"])
        .run()
        .success();
    let lines = log_lines(&log);
    let built = lines
        .iter()
        .find(|l| l.starts_with("begin checker.cpp "))
        .unwrap();
    assert!(!built.contains("-include"), "{built}");
}

/// Puts in `dir` a small header under testlib.h's name, with a validator and a checker of
/// "derangement" written against it. What duipai does with a header of that name (precompile
/// it once, put it before the sources that include it first, build plainly a source that
/// defines something before it) does not depend on what the header holds, and testlib's own
/// code costs seconds of CPU in every source that includes it (about 3 s each, 4 s more to
/// precompile it). The real testlib.h is precompiled by the readme's validator example, whose
/// cache readme.rs checks for its `.gch`.
fn small_testlib(dir: &Path) {
    fs::write(dir.join("testlib.h"), SMALL_TESTLIB).unwrap();
    fs::write(dir.join("validator.cpp"), VALIDATOR).unwrap();
    fs::write(dir.join("checker.cpp"), CHECKER).unwrap();
}

/// Guarded, as testlib.h is: the source's own `#include` comes after the `-include`.
const SMALL_TESTLIB: &str = r#"// Not testlib: a few lines under its name.
#ifndef SMALL_TESTLIB_H
#define SMALL_TESTLIB_H
#include <cstdio>
#include <cstdlib>

// Reads an integer in [lo, hi] from f, or exits with status `fail`.
inline int readIntIn(std::FILE *f, int lo, int hi, int fail) {
    int x;
    if (!f || std::fscanf(f, "%d", &x) != 1 || x < lo || x > hi) std::exit(fail);
    return x;
}
#endif
"#;

/// n alone on its line, 2 <= n <= 10^6.
const VALIDATOR: &str = r#"#include "testlib.h"
int main() {
    readIntIn(stdin, 2, 1000000, 3);
    return std::getchar() == '\n' && std::getchar() == EOF ? 0 : 3;
}
"#;

/// The output (its second argument) is a derangement of 1..n, n read from the input (its
/// first): exit 0, else 1 (WA), as testlib's checkers exit.
const CHECKER: &str = r#"#include "testlib.h"
int main(int argc, char **argv) {
    if (argc < 4) return 3;
    int n = readIntIn(std::fopen(argv[1], "r"), 2, 1000000, 3);
    std::FILE *out = std::fopen(argv[2], "r");
    char *seen = static_cast<char *>(std::calloc(n + 1, 1));
    for (int i = 1; i <= n; i++) {
        int p = readIntIn(out, 1, n, 1);
        if (p == i || seen[p]) return 1;
        seen[p] = 1;
    }
    return 0;
}
"#;

/// `duipai` in `dir` with the build cache these tests share.
fn shared(dir: &Path) -> Duipai {
    with_shared_cache(dir)
}

/// Without a validator, a program wrong for every n is minimized to the smallest n the
/// generator makes (2), not to n = 1 or 0, where no derangement exists; the report says what
/// it kept to.
#[test]
fn without_a_validator_derangement_ends_at_the_generators_smallest_n() {
    let dir = support_workspace("derangement");
    let d = dir.path();
    fs::write(d.join("zero.py"), "input()\nprint(0)\n").unwrap();
    // n from 2 to 4, so that the few cases a loaded machine learns from surely hold a 2.
    let generator = "import random, sys\nprint(random.Random(int(sys.argv[-1])).randint(2, 4))\n";
    fs::write(d.join("gen.py"), generator).unwrap();
    let out = shared(d)
        .args([
            "stress",
            "der",
            "--generator",
            "gen.py",
            "--reference",
            "brute.py",
            // The text's shrinking is what keeps to the envelope (the generator's choices
            // would keep to its output by themselves).
            "--no-choices",
        ])
        .program(["zero.py"])
        .run()
        .code(1);
    let text = out.stdout();
    assert_contains(&text, "note: kept within what the generator produced in ");
    assert_contains(
        &text,
        "(values 2..4); give --validator for the real constraints",
    );
    let input = fs::read_to_string(d.join("duipai-failures/der-1.in")).unwrap();
    assert_eq!(input, "2\n", "{text}");
}

/// Without a validator, an interactive case keeps 1 <= x <= n as the generator made them:
/// a program that always asks about 0 fails everywhere, but the case it is left with is one
/// a right solution passes.
#[test]
fn without_a_validator_guess_keeps_its_values_inside_the_generators_range() {
    let dir = support_workspace("guess");
    let d = dir.path();
    fs::write(d.join("zero.py"), "input()\nprint('? 0', flush=True)\n").unwrap();
    let text = shared(d)
        .args([
            "stress",
            "guess",
            "--generator",
            "gen.py",
            "--interactor",
            "interactor.cpp",
            "--no-choices",
        ])
        .program(["zero.py"])
        .run()
        .code(1)
        .stdout();
    assert_contains(&text, "note: kept within what the generator produced in ");
    let input = fs::read_to_string(d.join("duipai-failures/guess-1.in")).unwrap();
    assert_eq!(input, "1 1\n", "{text}");
    shared(d)
        .args([
            "test",
            "guess",
            "duipai-failures/guess-1.in",
            "--interactor",
            "interactor.cpp",
        ])
        .program(["right.py"])
        .run()
        .success();
}

/// A case saved by a run with a testlib checker and a time limit remembers them: `test` on it
/// and `failures --prune-passing` run the checker only when the command line names it too (a
/// right program printing another derangement passes), and a later `stress` that finds it
/// still failing ends at once instead of finding and minimizing it again.
#[test]
fn a_saved_failure_is_replayed_as_it_was_judged() {
    let dir = support_workspace("derangement");
    let d = dir.path();
    let stress = || {
        shared(d)
            .args([
                "stress",
                "der",
                "--generator",
                "gen.py",
                "--reference",
                "brute.py",
            ])
            .args(["--checker", "checker.cpp", "--time-limit", "3000"])
    };
    stress().program(["wrong.cpp"]).run().code(1);
    let saved: Vec<String> = fs::read_dir(d.join("duipai-failures"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".meta"))
        .collect();
    let [meta] = &saved[..] else {
        panic!("one saved case: {saved:?}")
    };
    let record: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(d.join("duipai-failures").join(meta)).unwrap())
            .unwrap();
    let setting = &record["setting"];
    assert_eq!(setting["checker"], "checker.cpp", "{record}");
    assert_eq!(setting["time_limit_ms"], 3000, "{record}");
    assert_eq!(setting["generator"], "gen.py", "{record}");
    let input = format!("duipai-failures/{}", meta.replace(".meta", ".in"));
    // The listing shows how to replay it as it was judged.
    let listing = shared(d).arg("failures").run().success().stdout();
    assert_contains(
        &listing,
        &format!(
            "    duipai test der {input} --checker checker.cpp --time-limit 3000 -- wrong.cpp\n"
        ),
    );

    // Still failing: the replay is the report, nothing is searched or saved again.
    let out = stress().program(["wrong.cpp"]).run().code(1);
    let text = out.stdout();
    assert_contains(&text, "1 still failing");
    assert_contains(&text, "not searching");
    assert!(!text.contains("FAILED on seed"), "{text}");
    let files = fs::read_dir(d.join("duipai-failures")).unwrap().count();

    // sol.py prints another derangement than brute.py: right only under the checker. The
    // sidecar's checker is not run on its word (a sidecar is data, not a command): typed
    // without it, the replay refuses and the prune skips the case, each saying what to add.
    let out = shared(d)
        .args(["test", "der", &input])
        .program(["sol.py"])
        .run()
        .code(2);
    assert_contains(
        &out.stderr(),
        "add --checker checker.cpp to the command line",
    );
    let out = shared(d)
        .args(["test", "der", &input, "--checker", "checker.cpp"])
        .program(["sol.py"])
        .run();
    out.success();
    let out = shared(d)
        .args(["failures", "der", "--prune-passing"])
        .program(["sol.py"])
        .run()
        .code(1);
    assert_contains(&out.stdout(), "the sidecar names --checker checker.cpp");
    assert!(d.join(&input).exists());
    let out = shared(d)
        .args([
            "failures",
            "der",
            "--prune-passing",
            "--checker",
            "checker.cpp",
        ])
        .program(["sol.py"])
        .run();
    assert_contains(&out.stdout(), "all of them pass now: removed 1 case");
    out.success();
    assert!(files > 0);
    assert!(!d.join(&input).exists());
}

/// `duipai test guess` on one case `5 3` with the testlib interactor, in `dir`.
fn guess_test(dir: &Path) -> Duipai {
    fs::write(dir.join("case.in"), "5 3\n").unwrap();
    shared(dir).args(["test", "guess", "case.in", "--interactor", "interactor.cpp"])
}

/// A program that waits for a second line the interactor never sends: both read, and the
/// message says so rather than blaming a flush alone.
#[test]
fn a_deadlock_where_both_sides_read_says_so() {
    let dir = support_workspace("guess");
    let d = dir.path();
    fs::write(
        d.join("greedy.py"),
        "n = int(input())\nm = int(input())\nprint('?', m, flush=True)\n",
    )
    .unwrap();
    let text = guess_test(d).program(["greedy.py"]).run().code(1).stdout();
    assert_contains(
        &text,
        "both are waiting to read; the program may be waiting for input the interactor never \
         sends, or has not flushed what it wrote",
    );
}

/// `PYTHONUNBUFFERED=1` in duipai's environment does not reach the program: a Python
/// solution that never flushes times out as a judge would time it out, unless the variable
/// is kept on purpose with DUIPAI_KEEP_ENV.
#[test]
fn buffering_variables_do_not_hide_a_missing_flush() {
    let dir = support_workspace("guess");
    let d = dir.path();
    let right = fs::read_to_string(d.join("right.py")).unwrap();
    // `input()` flushes stdout before it reads: the program reads with readline, as
    // programs that read fast do.
    let unflushed = right
        .replace(", flush=True", "")
        .replace("input()", "sys.stdin.readline()");
    fs::write(d.join("unflushed.py"), format!("import sys\n{unflushed}")).unwrap();
    // The two runs side by side: the first waits out its idleness limit meanwhile.
    let dropped = guess_test(d)
        .env("PYTHONUNBUFFERED", "1")
        .program(["unflushed.py"]);
    let kept = guess_test(d)
        .env("PYTHONUNBUFFERED", "1")
        .env("DUIPAI_KEEP_ENV", "PYTHONUNBUFFERED")
        .program(["unflushed.py"]);
    let (dropped, kept) = (dropped.start(), kept.start());
    let text = dropped.finish_within(BOUND).0.code(1).stdout();
    assert_contains(&text, "TLE");
    assert_contains(&text, "idleness");
    kept.finish_within(BOUND).0.success();
}

/// A bound on a run that catches a hang, not a measurement.
const BOUND: Duration = Duration::from_secs(120);

/// A checker and an interactor that reject without a word: the verdict says "(no message)"
/// rather than nothing.
#[test]
fn a_silent_rejection_says_it_gave_no_message() {
    let dir = support_workspace("guess");
    let d = dir.path();
    fs::write(
        d.join("silent.py"),
        "import sys\nprint(5, flush=True)\ninput()\nsys.exit(1)\n",
    )
    .unwrap();
    fs::write(d.join("case.in"), "5 3\n").unwrap();
    // It asks once and ends quietly on the end of the exchange.
    let asks = "input()\nprint('? 1', flush=True)\ntry:\n    input()\nexcept EOFError:\n    pass\n";
    fs::write(d.join("asks.py"), asks).unwrap();
    let text = shared(d)
        .args([
            "test",
            "guess",
            "case.in",
            "--interactor",
            "python3 silent.py",
        ])
        .program(["asks.py"])
        .run()
        .code(1)
        .stdout();
    let line = text
        .lines()
        .find(|l| l.starts_with("WA "))
        .unwrap_or_default();
    assert!(line.ends_with(" (no message)"), "{text}");

    fs::write(d.join("reject.py"), "import sys\nsys.exit(1)\n").unwrap();
    fs::write(d.join("case.ans"), "1\n").unwrap();
    fs::write(d.join("one.py"), "print(1)\n").unwrap();
    let text = shared(d)
        .args(["test", "one", "case.in", "--checker", "python3 reject.py"])
        .program(["one.py"])
        .run()
        .code(1)
        .stdout();
    let line = text
        .lines()
        .find(|l| l.starts_with("WA "))
        .unwrap_or_default();
    assert!(line.ends_with(" (no message)"), "{text}");
}

/// `duipai init` finds a checker, an interactor, and helpers named after the problem.
#[test]
fn init_finds_checkers_interactors_and_prefixed_helpers() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for file in ["avg_gen.py", "avg_brute.py", "checker.cpp", "sol.cpp"] {
        fs::write(d.join(file), "").unwrap();
    }
    Duipai::in_dir(d).args(["init", "avg"]).run().success();
    let toml = fs::read_to_string(d.join("duipai.toml")).unwrap();
    for line in [
        "\nchecker = \"checker.cpp\"",
        "\ngenerator = \"avg_gen.py\"",
        "\nreference = \"avg_brute.py\"",
    ] {
        assert_contains(&toml, line);
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for file in ["gen.py", "interactor.cpp", "checker.py"] {
        fs::write(d.join(file), "").unwrap();
    }
    Duipai::in_dir(d).args(["init", "game"]).run().success();
    let toml = fs::read_to_string(d.join("duipai.toml")).unwrap();
    assert_contains(&toml, "\ninteractor = \"interactor.cpp\"");
    assert!(
        !toml.contains("\nchecker ="),
        "an interactor judges alone:\n{toml}"
    );
}

/// The small mistakes of a first run are named with their fix.
#[test]
fn first_mistakes_are_named_with_their_fix() {
    let dir = support_workspace("derangement");
    let d = dir.path();
    let text = Duipai::in_dir(d)
        .args(["stress", "sol.py"])
        .run()
        .code(2)
        .stderr();
    assert_contains(
        &text,
        "it looks like a program, which goes last, after `--`: `-- sol.py`",
    );
    let text = shared(d)
        .args([
            "stress",
            "der",
            "--generator",
            "gen.py",
            "--reference",
            "brutee.py",
        ])
        .program(["sol.py"])
        .run()
        .code(2)
        .stderr();
    assert_contains(
        &text,
        "cannot read brutee.py: No such file or directory (os error 2); did you mean brute.py?",
    );
    let help = Duipai::new()
        .args(["stress", "--help"])
        .run()
        .success()
        .stdout();
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert_contains(&help, "1 s for a problem of your own");
    let help = Duipai::new().arg("--help").run().success().stdout();
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(!help.contains("staircase"), "{help}");
    assert_contains(&help, "competitive programming");
}
