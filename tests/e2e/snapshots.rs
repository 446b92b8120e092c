//! The human reports, whole: each command's output (stdout and stderr as a terminal shows
//! them, without colour) held against a snapshot in `tests/e2e/snapshots/`, with what varies
//! from run to run (times, memory, run counts, temporary paths) redacted. A change to a report
//! shows as a diff of the whole report; `cargo insta review` (or `INSTA_UPDATE=always`)
//! accepts an intended one.

use std::path::Path;
use std::process::Command;

use crate::util::{duipai, fixture};

/// Runs `duipai ARGS` in `dir` as a terminal would show it: both streams in one, no colour.
fn shown(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("sh")
        .arg("-c")
        .arg("exec \"$@\" 2>&1")
        .arg("sh")
        .arg(duipai())
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        // A terminal shows the live line, not the log's plain progress lines.
        .env("DUIPAI_PROGRESS_EVERY", "86400")
        // What minimization ends with, however busy the machine (see util::Duipai).
        .env("DUIPAI_SHRINK_TIME", "600")
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The snapshot settings: snapshots beside this file, named by the test.
fn settings() -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings
}

/// The report with what varies between runs and machines redacted: the fixture's and the
/// test folder's paths, times, memory and run counts.
fn redacted(text: &str, dir: &Path) -> String {
    let text = text
        .replace(&fixture().display().to_string(), "[FIXTURE]")
        .replace(&dir.display().to_string(), "[DIR]");
    text.lines()
        .map(|line| redact_numbers(line) + "\n")
        .collect()
}

/// A number followed by ` ms`, ` s`, ` MiB`, ` runs` or ` cases/s` becomes `[N]`, and the
/// padding before it one space.
fn redact_numbers(line: &str) -> String {
    const UNITS: [&str; 6] = [" ms", " s", " MiB", " runs", " run", " cases/s"];
    let mut out = String::new();
    let mut rest = line;
    while let Some(start) = rest.find(|c: char| c.is_ascii_digit()) {
        let (before, from) = rest.split_at(start);
        out.push_str(before);
        let len = from
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(from.len());
        let (number, after) = from.split_at(len);
        let whole_word = !before.ends_with(|c: char| c.is_alphanumeric() || c == '_');
        let unit = UNITS.iter().find(|u| {
            after.starts_with(**u) && !after[u.len()..].starts_with(|c: char| c.is_alphanumeric())
        });
        match unit {
            Some(_) if whole_word => {
                // Columns padded to the number's width: one space stands for the padding.
                while out.ends_with("  ") {
                    out.pop();
                }
                out.push_str("[N]");
            }
            _ => out.push_str(number),
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

fn copy_cases(dir: &Path, game: &str) {
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("cases")
        .join(game);
    let to = dir.join(game);
    std::fs::create_dir_all(&to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, to.join(path.file_name().unwrap())).unwrap();
    }
}

#[test]
fn a_test_that_passes() {
    let dir = tempfile::tempdir().unwrap();
    copy_cases(dir.path(), "chess");
    let fx = fixture().display().to_string();
    let text = shown(
        dir.path(),
        &[
            "test", "chess", "chess", "-j", "2", "--", &fx, "correct", "chess",
        ],
    );
    let text = redacted(&text, dir.path());
    settings().bind(|| insta::assert_snapshot!("test_passed", text));
}

#[test]
fn a_test_that_fails_shows_its_diffs() {
    let dir = tempfile::tempdir().unwrap();
    copy_cases(dir.path(), "chessboard");
    let fx = fixture().display().to_string();
    let text = shown(
        dir.path(),
        &[
            "test",
            "chessboard",
            "chessboard",
            "-j",
            "2",
            "--",
            &fx,
            "wrong",
            "chessboard",
        ],
    );
    let text = redacted(&text, dir.path());
    settings().bind(|| insta::assert_snapshot!("test_failed", text));
}

#[test]
fn a_stress_failure_with_its_line_of_play() {
    let dir = tempfile::tempdir().unwrap();
    let fx = fixture().display().to_string();
    let text = shown(
        dir.path(),
        &[
            "stress",
            "chess",
            "-j",
            "2",
            "--shrink-time",
            "600",
            "--",
            &fx,
            "greedy",
            "chess",
        ],
    );
    let text = redacted(&text, dir.path());
    settings().bind(|| insta::assert_snapshot!("stress_failed_explained", text));
}

#[test]
fn a_stress_failure_minimized_to_one_case_of_a_file_of_several() {
    let dir = tempfile::tempdir().unwrap();
    let fx = fixture().display().to_string();
    let text = shown(
        dir.path(),
        &[
            "stress",
            "gems",
            "-j",
            "2",
            "--shrink-time",
            "600",
            // At most 10 bags: the game's full range (up to 21) makes the first failing file
            // take the reference and the fixture minutes to solve at a busy machine's pace.
            "--b",
            "1..10",
            "--",
            &fx,
            "no-bonus",
            "gems",
        ],
    );
    let text = redacted(&text, dir.path());
    settings().bind(|| insta::assert_snapshot!("stress_failed_multi_case", text));
}

#[test]
fn an_interactive_failure_with_its_exchange() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/guessing");
    for file in ["gen.py", "interactor.py"] {
        std::fs::copy(examples.join(file), d.join(file)).unwrap();
    }
    // Reads n, asks about 1 once, and stops: a presentation error on every secret but 1.
    std::fs::write(
        d.join("ones.py"),
        "input()\nprint('? 1', flush=True)\ninput()\n",
    )
    .unwrap();
    let text = shown(
        d,
        &[
            "stress",
            "guess",
            "-j",
            "2",
            "--generator",
            "python3 gen.py",
            "--interactor",
            "python3 interactor.py",
            "--no-shrink",
            "--",
            "python3",
            "ones.py",
        ],
    );
    let text = redacted(&text, d);
    settings().bind(|| insta::assert_snapshot!("stress_failed_interactive", text));
}

#[test]
fn a_pack_and_its_coverage() {
    let dir = tempfile::tempdir().unwrap();
    let text = shown(
        dir.path(),
        &["pack", "chess", "--out", "chess-pack", "--layout", "noi"],
    );
    let text = redacted(&text, dir.path());
    settings().bind(|| insta::assert_snapshot!("pack_summary", text));
    let mut inputs: Vec<String> = (1..=5).map(|i| format!("chess-pack/chess{i}.in")).collect();
    inputs.sort();
    let mut args = vec!["validate", "chess", "--coverage"];
    args.extend(inputs.iter().map(String::as_str));
    let text = shown(dir.path(), &args);
    let text = redacted(&text, dir.path());
    settings().bind(|| insta::assert_snapshot!("validate_coverage", text));
}
