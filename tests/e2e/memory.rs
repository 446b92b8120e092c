//! Memory figures and memory verdicts on real compiled programs: every run has a figure,
//! counted from the program's own start (a program that ends at once too), and a run that
//! fails after an allocation was refused is a memory limit verdict.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::util::{Duipai, assert_contains, require, wait_until_executable};
use duipai::judge::Expected;
use duipai::judge::verdict::{self, Verdict};
use duipai::run::{self, IoMode, Limits};

const MIB: u64 = 1024 * 1024;
const CHESS_SAMPLE: &str = "2 3\n2 7 3\n9 1 2\n3 7 2\n2 3 1\n";

/// Compiles `source` (C, or C++ for a `.cpp` name) into `dir`; the compiler must be here.
fn build(dir: &Path, name: &str, source: &str) -> PathBuf {
    let cpp = name.ends_with(".cpp");
    let compiler = if cpp { "g++" } else { "cc" };
    require(&[compiler]);
    let src = dir.join(name);
    std::fs::write(&src, source).expect("write the source");
    let binary = dir.join(name.split('.').next().unwrap_or(name));
    let built = Command::new(compiler)
        .arg("-O2")
        .arg("-o")
        .arg(&binary)
        .arg(&src)
        .output()
        .expect("the compiler runs");
    assert!(
        built.status.success(),
        "{name} does not build: {}",
        String::from_utf8_lossy(&built.stderr)
    );
    wait_until_executable(&binary);
    binary
}

fn limits(memory_mib: u64) -> Limits {
    Limits {
        cpu: Duration::from_secs(2),
        wall: Duration::from_secs(10),
        memory_bytes: memory_mib * MIB,
        output_bytes: MIB,
        processes: 16,
    }
}

fn peak_of(binary: &Path, memory_mib: u64) -> u64 {
    let program: Vec<OsString> = vec![binary.into()];
    let execution = run::run(
        &program,
        CHESS_SAMPLE.as_bytes(),
        &limits(memory_mib),
        &IoMode::Stdio,
    )
    .expect("the run starts");
    assert_eq!(
        verdict::judge(&execution, &Expected::integer(2)).verdict,
        Verdict::Accepted,
        "{execution:?}"
    );
    execution
        .peak_memory_bytes
        .expect("every run has a memory figure")
}

/// A trivial program ends long before the first sample; its figure is still its own: more
/// than nothing, and far less than the harness's own size.
#[test]
fn a_program_that_ends_at_once_has_a_small_figure_of_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let trivial = build(
        dir.path(),
        "trivial.c",
        "#include <stdio.h>\nint main(void) { puts(\"2\"); return 0; }\n",
    );
    for _ in 0..5 {
        let peak = peak_of(&trivial, 256);
        assert!(peak > 0 && peak < 8 * MIB, "peak {peak}");
    }
    // The same through the command line: a figure in JSON, not 0 or null.
    let sample = dir.path().join("sample.in");
    std::fs::write(&sample, CHESS_SAMPLE).unwrap();
    let report = Duipai::in_dir(dir.path())
        .args(["test", "chess", "sample.in", "--json"])
        .program(["./trivial"])
        .run()
        .success()
        .json();
    let kib = report["cases"][0]["memory_kib"]
        .as_u64()
        .expect("a memory figure");
    assert!(kib > 0 && kib < 8 * 1024, "{kib} KiB");
}

/// A program that touches 64 MiB shows 64 MiB and a little more (its code and libraries),
/// however quickly it ends.
#[test]
fn a_program_that_touches_64_mib_shows_64_to_80_mib() {
    let dir = tempfile::tempdir().unwrap();
    let hog = build(
        dir.path(),
        "touch64.c",
        "#include <stdio.h>\n#include <stdlib.h>\n\
         int main(void) {\n\
           size_t n = (size_t)64 << 20;\n\
           volatile char *p = malloc(n);\n\
           if (!p) return 1;\n\
           for (size_t i = 0; i < n; i += 4096) p[i] = 1;\n\
           puts(\"2\");\n\
         }\n",
    );
    for _ in 0..3 {
        let peak = peak_of(&hog, 256);
        assert!(
            (64 * MIB..=80 * MIB).contains(&peak),
            "peak {} MiB",
            peak / MIB
        );
    }
}

/// Asks for 64 GB at once: more than the address-space bound of a 512 MiB limit (which leaves
/// room for the stacks of the program's threads), and than the memory of the machines the
/// tests run on (when a memory cgroup enforces the limit instead, with no address-space
/// bound, the kernel's overcommit check refuses it), so the allocation is refused before
/// any of it is resident.
const HUGE_VECTOR_CPP: &str = "#include <cstdio>\n#include <vector>\n\
int main() {\n\
  std::vector<char> v(64000000000ULL);\n\
  v[12345] = 2;\n\
  std::printf(\"%d\\n\", v[12345]);\n\
}\n";

const HUGE_BYTEARRAY_PY: &str = "x = bytearray(64000000000)\nprint(len(x))\n";

/// `duipai test` on one sample case with a 512 MiB memory limit: the case's verdict and
/// detail.
fn judged(dir: &Path, program: &[&str]) -> (String, String) {
    std::fs::write(dir.join("sample.in"), CHESS_SAMPLE).unwrap();
    let report = Duipai::in_dir(dir)
        .args(["test", "chess", "sample.in", "--memory-limit", "512"])
        .arg("--json")
        .program(program)
        .run()
        .code(1)
        .json();
    let case = &report["cases"][0];
    (
        case["verdict"].as_str().unwrap_or_default().to_string(),
        case["detail"].as_str().unwrap_or_default().to_string(),
    )
}

#[test]
fn a_refused_cpp_allocation_is_a_memory_limit_verdict() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), "huge.cpp", HUGE_VECTOR_CPP);
    let (verdict, detail) = judged(dir.path(), &["./huge"]);
    assert_eq!(verdict, "MLE", "{detail}");
    assert_contains(&detail, "allocation was refused");
    assert_contains(&detail, "std::bad_alloc");
}

#[test]
fn a_python_memory_error_is_a_memory_limit_verdict() {
    require(&["python3"]);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("huge.py"), HUGE_BYTEARRAY_PY).unwrap();
    let (verdict, detail) = judged(dir.path(), &["python3", "huge.py"]);
    assert_eq!(verdict, "MLE", "{detail}");
    assert_contains(&detail, "MemoryError");
}

/// A crash that is not about memory stays a runtime error.
#[test]
fn an_abort_without_a_refused_allocation_is_a_runtime_error() {
    let dir = tempfile::tempdir().unwrap();
    build(
        dir.path(),
        "aborts.cpp",
        "#include <cstdlib>\nint main() { std::abort(); }\n",
    );
    let (verdict, detail) = judged(dir.path(), &["./aborts"]);
    assert_eq!(verdict, "RE", "{detail}");
    assert_contains(&detail, "SIGABRT");
}
