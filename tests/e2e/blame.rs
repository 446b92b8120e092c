//! The right party blamed when a helper fails, end to end: a generator, reference, validator,
//! checker or interactor that crashes, hangs, floods or prints nothing where something is
//! required is a harness error naming it (exit 2), never the program's verdict and never an
//! "invalid input" during minimization. The helpers are small shell scripts (and one Python
//! checker), run under a short `--helper-time-limit` so that a hanging one is stopped in
//! well under a second.

use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::util::{Duipai, Ran, assert_contains, require, write_sh};

/// The problem `echo`: the input is a line of numbers, the answer their sum.
const PROBLEM: &str = "echo";

/// A right program: the sum of the numbers.
const RIGHT: &str = "awk '{ s = 0; for (i = 1; i <= NF; i++) s += $i; print s }'";

/// A wrong program: one too many when a 3 is among the numbers.
const WRONG: &str =
    "awk '{ s = 0; for (i = 1; i <= NF; i++) { s += $i; if ($i == 3) s++ } print s }'";

/// A generator: five numbers from the seed, 3 among them from seed 2 on.
const GEN: &str = "echo \"1 $1 4 $(( $1 + 1 )) 5\"";

/// A folder with `right.sh`, `wrong.sh`, `gen.sh` and `ref.sh` (a right reference).
fn folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    write_sh(d, "right.sh", RIGHT);
    write_sh(d, "wrong.sh", WRONG);
    write_sh(d, "gen.sh", GEN);
    write_sh(d, "ref.sh", RIGHT);
    dir
}

/// Everything a run printed, its report (on stdout when it is not a terminal) and its
/// messages.
fn printed(out: &Ran) -> String {
    format!("{}{}", out.stdout(), out.stderr())
}

/// The helpers' CPU time limit, in ms, of twice that of wall clock: a hanging helper is
/// stopped after 200 ms, and the shell scripts that do not hang need a few ms of CPU.
const HELPER_LIMIT: &str = "100";

/// `duipai stress echo` in `dir` with `args`, the program `program`, a short helper limit.
fn stress(dir: &Path, args: &[&str], program: &str) -> Ran {
    Duipai::in_dir(dir)
        .args([
            "stress",
            PROBLEM,
            "--iterations",
            "20",
            "--helper-time-limit",
            HELPER_LIMIT,
        ])
        .args(args)
        .program([program])
        .run()
}

#[test]
fn a_generator_that_prints_nothing_is_named_not_the_reference() {
    let dir = folder();
    write_sh(dir.path(), "silent.sh", "exit 0");
    let out = stress(
        dir.path(),
        &["--generator", "./silent.sh", "--reference", "./ref.sh"],
        "./right.sh",
    )
    .code(2);
    assert_contains(
        &out.stderr(),
        "the generator silent.sh failed: it exited with code 0 but printed nothing",
    );
}

#[test]
fn a_generator_that_crashes_is_named() {
    let dir = folder();
    write_sh(dir.path(), "crash.sh", "kill -SEGV $$");
    let out = stress(
        dir.path(),
        &["--generator", "./crash.sh", "--reference", "./ref.sh"],
        "./right.sh",
    )
    .code(2);
    assert_contains(
        &out.stderr(),
        "the generator crash.sh failed: RE (killed by SIGSEGV",
    );
}

#[test]
fn a_reference_that_prints_nothing_is_named_not_the_program() {
    let dir = folder();
    write_sh(dir.path(), "silent.sh", "cat > /dev/null");
    let out = stress(
        dir.path(),
        &["--generator", "./gen.sh", "--reference", "./silent.sh"],
        "./right.sh",
    )
    .code(2);
    let err = out.stderr();
    assert_contains(
        &err,
        "the reference silent.sh failed: it exited with code 0 but printed nothing",
    );
    assert!(!err.contains("FAILED"), "{err}");
}

#[test]
fn a_reference_that_hangs_is_named_within_its_limit() {
    let dir = folder();
    write_sh(dir.path(), "hang.sh", "sleep 30");
    let started = Instant::now();
    let out = stress(
        dir.path(),
        &["--generator", "./gen.sh", "--reference", "./hang.sh"],
        "./right.sh",
    )
    .code(2);
    assert_contains(&out.stderr(), "the reference hang.sh failed: TLE");
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn a_validator_that_rejects_the_failing_case_stops_minimization_at_once() {
    let dir = folder();
    write_sh(dir.path(), "val.sh", "echo 'not my format' >&2; exit 1");
    let out = stress(
        dir.path(),
        &[
            "--generator",
            "./gen.sh",
            "--reference",
            "./ref.sh",
            "--validator",
            "./val.sh",
        ],
        "./wrong.sh",
    )
    .code(1);
    let err = printed(&out);
    assert_contains(
        &err,
        "not minimized: the validator val.sh rejects the failing case itself",
    );
    assert_contains(&err, "not my format");
    assert!(!err.contains("minimized in"), "{err}");
}

/// A validator that accepts the case as found (its exact size) and hangs on anything else.
#[test]
fn a_validator_that_hangs_on_candidates_stops_minimization_naming_it() {
    let dir = folder();
    write_sh(
        dir.path(),
        "val.sh",
        "[ \"$(wc -c)\" -eq 10 ] && exit 0; sleep 30",
    );
    let started = Instant::now();
    let out = stress(
        dir.path(),
        &[
            "--generator",
            "./gen.sh",
            "--reference",
            "./ref.sh",
            "--validator",
            "./val.sh",
        ],
        "./wrong.sh",
    )
    .code(1);
    let err = printed(&out);
    assert_contains(
        &err,
        "minimization stopped: the validator val.sh failed on a candidate input: TLE",
    );
    assert!(!err.contains("no smaller candidate fails"), "{err}");
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn a_validator_that_crashes_on_candidates_is_not_an_invalid_input() {
    let dir = folder();
    write_sh(
        dir.path(),
        "val.sh",
        "[ \"$(wc -c)\" -eq 10 ] && exit 0; kill -SEGV $$",
    );
    let out = stress(
        dir.path(),
        &[
            "--generator",
            "./gen.sh",
            "--reference",
            "./ref.sh",
            "--validator",
            "./val.sh",
        ],
        "./wrong.sh",
    )
    .code(1);
    assert_contains(
        &printed(&out),
        "minimization stopped: the validator val.sh failed on a candidate input: RE (killed by SIGSEGV",
    );
}

/// A case folder with one input and its answer, for `test`.
fn one_case(dir: &Path) {
    let cases = dir.join("cases");
    fs::create_dir(&cases).unwrap();
    fs::write(cases.join("1.in"), "1 2 3\n").unwrap();
    fs::write(cases.join("1.ans"), "6\n").unwrap();
}

/// `duipai test echo cases` in `dir` with `args` on the right program.
fn test(dir: &Path, args: &[&str]) -> Ran {
    test_within(dir, "300", args)
}

/// [`test`] with the helpers' time limit `helper_ms`.
fn test_within(dir: &Path, helper_ms: &str, args: &[&str]) -> Ran {
    Duipai::in_dir(dir)
        .args(["test", PROBLEM, "cases", "--helper-time-limit", helper_ms])
        .args(args)
        .program(["./right.sh"])
        .run()
}

#[test]
fn a_python_checker_that_raises_is_a_crash_not_a_wrong_answer() {
    require(&["python3"]);
    let dir = folder();
    one_case(dir.path());
    fs::write(
        dir.path().join("check.py"),
        "import sys\nopen(sys.argv[2]).read()\nraise KeyError('oops')\n",
    )
    .unwrap();
    let out = test(dir.path(), &["--checker", "python3 check.py"]).code(2);
    let err = out.stderr();
    assert_contains(
        &err,
        "the checker python3 check.py failed: exit code 1 on an uncaught Python exception: KeyError: 'oops'",
    );
    assert!(!out.stdout().contains("WA"), "{}", out.stdout());
}

#[test]
fn a_checker_that_crashes_hangs_or_floods_is_named() {
    let dir = folder();
    one_case(dir.path());
    // The flood's own limit is generous: `yes` reaches the output limit within milliseconds of
    // CPU, but on a busy machine it may wait longer than 300 ms for that CPU and end as a TLE.
    for (script, body, limit, said) in [
        (
            "segv.sh",
            "kill -SEGV $$",
            HELPER_LIMIT,
            "RE (killed by SIGSEGV",
        ),
        ("hang.sh", "sleep 30", HELPER_LIMIT, "TLE"),
        ("flood.sh", "yes", "20000", "OLE"),
    ] {
        write_sh(dir.path(), script, body);
        let checker = format!("./{script}");
        let out = test_within(dir.path(), limit, &["--checker", &checker]).code(2);
        assert_contains(
            &out.stderr(),
            &format!("the checker {script} failed: {said}"),
        );
    }
}

/// `duipai test echo cases --interactor INTERACTOR`, the program reading one line and
/// answering it, under a short wall-clock limit.
fn interact(dir: &Path, interactor: &str) -> Ran {
    Duipai::in_dir(dir)
        .args(["test", PROBLEM, "cases", "--helper-time-limit", "3000"])
        .args(["--wall-limit", "300", "--interactor", interactor])
        .program(["./asker.sh"])
        .run()
}

#[test]
fn an_interactor_that_sleeps_or_computes_instead_of_answering_is_named() {
    let dir = folder();
    one_case(dir.path());
    write_sh(dir.path(), "asker.sh", "read x; echo \"$x\"");
    for (script, body, doing) in [
        ("sleeper.sh", "sleep 30", "sleeping"),
        ("spinner.sh", "while :; do :; done", "computing"),
    ] {
        write_sh(dir.path(), script, body);
        let out = interact(dir.path(), &format!("./{script}")).code(2);
        let err = out.stderr();
        assert_contains(
            &err,
            &format!("the interactor {script} failed: it did not answer: it was {doing}"),
        );
        assert!(!out.stdout().contains("TLE"), "{}", out.stdout());
    }
}

#[test]
fn an_interactor_that_crashes_is_named_whatever_the_program_did() {
    let dir = folder();
    one_case(dir.path());
    write_sh(dir.path(), "asker.sh", "read x; echo \"$x\"");
    write_sh(dir.path(), "crash.sh", "kill -SEGV $$");
    let out = interact(dir.path(), "./crash.sh").code(2);
    assert_contains(
        &out.stderr(),
        "the interactor crash.sh failed: RE (killed by SIGSEGV",
    );
}
