//! The documents' console examples, run: every ```console block's `$ duipai ...` command in the
//! README, CONTRIBUTING and `docs/` is run
//! through the real binary in a directory holding the files the examples name, and its output
//! (stdout and stderr, as a terminal shows them) must be the block's text. Times, memory,
//! worker and run counts vary with the machine and are compared as numbers only; a line `...`
//! in the block stands for any number of lines.

use std::path::Path;
use std::process::Command;

use crate::util::{Duipai, duipai, fixture, path_without_shims, wait_until_executable};

/// The programs the examples run: copies of the fixture, which knows what each stands for.
const PROGRAMS: [&str; 2] = ["a.out", "greedy"];

/// `bad.in` of the `validate` example: a row one integer short.
const BAD_IN: &str = "2 3\n2 7 3\n9 1\n3 7 2\n2 3 1\n";

/// Each console block: its command line (without the `$ `) and the lines shown under it.
fn console_blocks(readme: &str) -> Vec<(String, Vec<String>)> {
    let mut blocks = Vec::new();
    let mut lines = readme.lines();
    while let Some(line) = lines.next() {
        if line.trim() != "```console" {
            continue;
        }
        let body: Vec<&str> = lines.by_ref().take_while(|l| l.trim() != "```").collect();
        let command = body[0]
            .strip_prefix("$ ")
            .unwrap_or_else(|| panic!("a console block starts with `$ `: {:?}", body[0]));
        blocks.push((
            command.to_string(),
            body[1..].iter().map(|l| l.to_string()).collect(),
        ));
    }
    blocks
}

/// The files the examples name: the repository's `cases/`, a copy of its `examples/` (their
/// commands write there; `testlib.h` beside the setter's validator), `bad.in` and `good.in`, the official chess pack (`--plan official`) as `chess-data/`,
/// and the example programs.
fn example_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::os::unix::fs::symlink(root.join("cases"), d.join("cases")).unwrap();
    let copied = Command::new("cp")
        .arg("-R")
        .arg(root.join("examples"))
        .arg(d)
        .status()
        .unwrap();
    assert!(copied.success(), "cannot copy examples/");
    // The setter's example wants testlib.h beside its validator, as the README says.
    std::fs::copy(
        root.join("tests/support/testlib/testlib.h"),
        d.join("examples/rangesum/testlib.h"),
    )
    .unwrap();
    std::fs::write(d.join("bad.in"), BAD_IN).unwrap();
    std::fs::copy(root.join("cases/chess/01-sample.in"), d.join("good.in")).unwrap();
    // Copies of the fixture, which behaves under these names as the examples say.
    for name in PROGRAMS {
        std::fs::copy(fixture(), d.join(name)).unwrap();
        wait_until_executable(&d.join(name));
    }
    Duipai::in_dir(d)
        .args(["pack", "chess", "--out", "chess-data", "--layout", "noi"])
        .args(["--plan", "official"])
        .run()
        .success();
    dir
}

/// A line with what varies between machines and runs replaced by `#`: a number before
/// `ms`, `s` or `MiB` (or a `-` memory figure), before `runs,`, in `in N cases` (the
/// generator's cases learned in a machine's seconds) and in `(N workers)`; and a note's
/// `; fewer than 100: ...` (on a machine too busy to make the generator's 100 cases in the
/// time given) left out.
fn normalized(line: &str) -> String {
    let line = match (
        line.find("; fewer than 100: "),
        line.find("); give --validator"),
    ) {
        (Some(from), Some(to)) if from < to => format!("{}{}", &line[..from], &line[to..]),
        _ => line.to_string(),
    };
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut out: Vec<String> = Vec::new();
    for (i, word) in words.iter().enumerate() {
        let next = words.get(i + 1).copied().unwrap_or_default();
        let learned = next == "cases" && i > 0 && words[i - 1] == "in";
        let unit = learned
            || [
                "ms", "s", "s,", "s)", "MiB", "run,", "runs,", "workers)", "worker)",
            ]
            .contains(&next);
        let number = word.trim_start_matches('(').parse::<f64>().is_ok() || *word == "-";
        if unit && number {
            out.push(if word.starts_with('(') { "(#" } else { "#" }.to_string());
        } else {
            out.push(word.to_string());
        }
    }
    out.join(" ")
}

/// Whether `actual` is `expected`, a `...` line of `expected` matching any run of lines.
fn matches(expected: &[String], actual: &[String]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first.trim() == "..." => {
            (0..=actual.len()).any(|skip| matches(rest, &actual[skip..]))
        }
        Some((first, rest)) => {
            actual.first().is_some_and(|a| a == first) && matches(rest, &actual[1..])
        }
    }
}

/// The documents whose examples are run: the README, CONTRIBUTING and every page of `docs/`.
fn documents() -> Vec<std::path::PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut docs: Vec<std::path::PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    docs.insert(0, root.join("README.md"));
    let contributing = root.join("CONTRIBUTING.md");
    if contributing.exists() {
        docs.push(contributing);
    }
    docs
}

#[test]
fn readme_console_examples_show_what_duipai_prints() {
    // The problem folder example (examples/inversions) compiles sol.cpp and runs Python.
    crate::util::require(&["g++", "python3"]);
    let blocks: Vec<(String, Vec<String>)> = documents()
        .iter()
        .flat_map(|doc| console_blocks(&std::fs::read_to_string(doc).unwrap()))
        .collect();
    assert!(blocks.len() >= 4, "only {} console blocks", blocks.len());
    let dir = example_dir();
    // A build cache without builds: a source file's "compiled" line shows every time.
    let cache = tempfile::tempdir().unwrap();
    seed_precompiled_headers(cache.path());
    for (command, shown) in blocks {
        // `cd DIR && duipai ...` runs in DIR, as the examples of a problem folder do.
        let (cwd, command) = match command
            .strip_prefix("cd ")
            .and_then(|c| c.split_once(" && "))
        {
            Some((sub, rest)) => (dir.path().join(sub), rest.to_string()),
            None => (dir.path().to_path_buf(), command),
        };
        let words = shell_words::split(&command).unwrap();
        assert_eq!(words[0], "duipai", "{command}");
        // An example that shows no "compiled" line (the pack's, whose compiles are among the
        // lines it leaves out) builds into the cache the tests share, where its programs are
        // found already built: its three compiles took a fifth of this test's CPU.
        let cache_dir = if shown.iter().any(|line| line.contains("compiled")) {
            cache.path().to_path_buf()
        } else {
            crate::shared::build_cache()
        };
        // One pipe for both streams, as a terminal interleaves them.
        let out = Command::new("sh")
            .arg("-c")
            .arg("exec \"$@\" 2>&1")
            .arg("sh")
            .arg(duipai())
            .args(&words[1..])
            .current_dir(&cwd)
            // As every duipai of the tests runs (see util::Duipai): a version manager's shim
            // for python3 is not asked again by each run for the interpreter behind it.
            .env("PATH", path_without_shims())
            .env("NO_COLOR", "1")
            // A terminal shows the live line, not the log's plain progress lines.
            .env("DUIPAI_PROGRESS_EVERY", "86400")
            .env("DUIPAI_CACHE_DIR", &cache_dir)
            // What minimization ends with, however busy the machine (see util::Duipai).
            .env("DUIPAI_SHRINK_TIME", "600")
            .output()
            .unwrap();
        let printed = String::from_utf8_lossy(&out.stdout);
        let actual: Vec<String> = printed.lines().map(normalized).collect();
        let expected: Vec<String> = shown.iter().map(|l| normalized(l)).collect();
        assert!(
            matches(&expected, &actual),
            "the README shows for `{command}`:\n{}\nbut duipai prints:\n{printed}",
            shown.join("\n")
        );
    }
    assert_testlib_precompiled(cache.path());
}

/// Links into `cache` the precompiled headers of the build cache the other tests share
/// (`shared::build_cache`): testlib.h's takes 4 s of CPU to build, is the same for the same
/// compiler command and header, and no example shows a line for it. Every program is still
/// compiled in `cache`, so each example's "compiled" line shows; without a shared header yet,
/// the validator example builds its own.
fn seed_precompiled_headers(cache: &Path) {
    let Ok(entries) = std::fs::read_dir(crate::shared::build_cache()) else {
        return;
    };
    for entry in entries {
        let from = entry.unwrap().path();
        let name = from.file_name().unwrap().to_owned();
        // A pch-KEY folder is renamed into place whole, once built.
        if !name.to_string_lossy().starts_with("pch-") || !from.join("testlib.h.gch").is_file() {
            continue;
        }
        let to = cache.join(name);
        std::fs::create_dir(&to).unwrap();
        for file in ["testlib.h", "testlib.h.gch"] {
            if std::fs::hard_link(from.join(file), to.join(file)).is_err() {
                std::fs::copy(from.join(file), to.join(file)).unwrap();
            }
        }
    }
}

/// The validator example's build found or built testlib.h's precompiled header in `cache`:
/// GCC takes the real header (first_minute.rs checks how the header is used with a small one
/// of its name). A header GCC refused leaves a folder holding only a mark saying so; one
/// found in the shared cache was built there by the same compiler command, flags and header.
fn assert_testlib_precompiled(cache: &Path) {
    let testlib = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/testlib/testlib.h"),
    )
    .unwrap();
    let headers: Vec<std::path::PathBuf> = std::fs::read_dir(cache)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("pch-"))
        .collect();
    assert!(!headers.is_empty(), "no precompiled header in {cache:?}");
    for dir in &headers {
        let gch = dir.join("testlib.h.gch");
        assert!(
            gch.is_file(),
            "GCC did not precompile testlib.h: no {gch:?}"
        );
        assert_eq!(std::fs::read(dir.join("testlib.h")).unwrap(), testlib);
    }
}

#[test]
fn the_line_matcher_skips_and_compares() {
    let lines = |s: &str| -> Vec<String> { s.lines().map(normalized).collect() };
    assert!(matches(&lines("a\n...\nd"), &lines("a\nb\nc\nd")));
    assert!(matches(&lines("a\n...\nd"), &lines("a\nd")));
    assert!(!matches(&lines("a\n...\nd"), &lines("a\nb")));
    assert!(matches(
        &lines("AC  x   0 ms CPU  1 ms wall  - MiB"),
        &lines("AC x 12 ms CPU 30 ms wall 2.9 MiB")
    ));
    assert!(!matches(
        &lines("WA x 0 ms CPU  expected 1, found 2"),
        &lines("WA x 0 ms CPU  expected 1, found 3")
    ));
    assert_eq!(
        normalized("minimized in 11 steps, 420 runs, 0.2 s (1-minimal)"),
        "minimized in 11 steps, # runs, # s (1-minimal)"
    );
    assert_eq!(
        normalized("on 20 cases (2 workers)"),
        "on 20 cases (# workers)"
    );
    assert_eq!(
        normalized("note: kept within what the generator produced in 46 cases (values 1..10)"),
        "note: kept within what the generator produced in # cases (values 1..10)"
    );
}
