//! Every numeric flag of every subcommand, given values it cannot honour: no panic, exit 2
//! with a message naming the flag, and never exit 0 without the work done.

use crate::util::{Duipai, assert_contains, fixture};

const HOSTILE: [&str; 8] = [
    "inf",
    "nan",
    "-1",
    "0",
    "18446744073709551616",
    "1e400",
    "",
    "1e20",
];

/// (subcommand words before the flag, the flag, words after it), for every numeric flag.
fn cases() -> Vec<(Vec<String>, &'static str)> {
    let fixture = fixture().to_string_lossy().into_owned();
    let program = ["--".to_string(), fixture, "correct".into(), "chess".into()];
    let cases_dir = crate::util::CHESS_CASES.to_string();
    let sample = format!("{cases_dir}/01-sample.in");
    let mut out = Vec::new();
    for flag in ["--bound-n", "--bound-m", "--bound-value"] {
        out.push((vec!["solve".into(), "chess".into(), sample.clone()], flag));
        out.push((
            vec!["validate".into(), "chess".into(), sample.clone()],
            flag,
        ));
        out.push((vec!["test".into(), "chess".into(), cases_dir.clone()], flag));
    }
    for flag in ["--seed", "--n", "--m", "--max-value"] {
        out.push((vec!["gen".into(), "chess".into()], flag));
    }
    out.push((
        vec!["pack".into(), "chess".into(), "--out".into(), "p".into()],
        "--seed",
    ));
    let limits = [
        "--time-limit",
        "--wall-limit",
        "--memory-limit",
        "--output-limit",
        "--process-limit",
        "-j",
    ];
    for flag in limits {
        out.push((vec!["test".into(), "chess".into(), cases_dir.clone()], flag));
    }
    for flag in limits.iter().copied().chain([
        "--seed",
        "--iterations",
        "--time",
        "--shrink-time",
        "--n",
        "--m",
        "--max-value",
        "--shard",
    ]) {
        out.push((vec!["stress".into(), "chess".into()], flag));
    }
    out.into_iter()
        .map(|(mut words, flag)| {
            if words[0] == "test" || words[0] == "stress" {
                words.extend(program.iter().cloned());
            }
            (words, flag)
        })
        .collect()
}

#[test]
fn hostile_numbers_are_refused_naming_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    for (words, flag) in cases() {
        for value in HOSTILE {
            // The flag goes before `--`, right after the subcommand and its positionals.
            let split = words.iter().position(|w| w == "--").unwrap_or(words.len());
            let mut args: Vec<&str> = words[..split].iter().map(String::as_str).collect();
            let joined = format!("{flag}={value}");
            args.push(&joined);
            args.extend(words[split..].iter().map(String::as_str));
            if args[0] == "stress" {
                // A bound on the work, so that an accepted value still ends.
                args.insert(2, "--iterations=3");
                if flag == "--iterations" {
                    args.remove(2);
                }
            }
            let out = Duipai::in_dir(dir.path()).args(&args).run();
            let status = out.exit_code();
            let err = out.stderr();
            assert_ne!(status, 101, "{args:?} panicked: {err}");
            assert!(!err.contains("panicked"), "{args:?}: {err}");
            let meaningful =
                value == "0" && matches!(flag, "--seed" | "--max-value" | "--bound-value");
            if meaningful {
                // 0 is a real seed, value bound and largest value: any outcome but a panic.
                continue;
            }
            assert_ne!(status, 0, "{args:?} exited 0");
            {
                assert_eq!(status, 2, "{args:?}: {err}");
                let named = flag.trim_start_matches('-');
                assert!(
                    err.contains(named) || err.contains("--jobs") && flag == "-j",
                    "{args:?}: the message does not name {flag}: {err}"
                );
            }
        }
    }
}

#[test]
fn seeds_never_wrap_around() {
    let dir = tempfile::tempdir().unwrap();
    let from_the_largest_seed = |iterations: &str| {
        Duipai::in_dir(dir.path())
            .args(["stress", "chess", "--seed", "18446744073709551615"])
            .args(["--iterations", iterations])
            .fixture(["correct", "chess"])
            .run()
    };
    let out = from_the_largest_seed("3").code(2);
    assert_contains(&out.stderr(), "largest seed");
    from_the_largest_seed("1").success();
}

#[test]
fn the_shortest_time_still_runs_a_case() {
    let dir = tempfile::tempdir().unwrap();
    let report = Duipai::in_dir(dir.path())
        .args(["stress", "chess", "--time", "0.001", "--json"])
        .fixture(["correct", "chess"])
        .run()
        .success()
        .json();
    assert!(report["cases"].as_u64().unwrap() >= 1, "{report}");
}

/// A malformed `--env` entry is refused with what is wrong with it, not a usage line alone.
#[test]
fn a_malformed_env_entry_is_refused_with_its_reason() {
    let dir = tempfile::tempdir().unwrap();
    for (entry, reason) in [
        ("=x", "the name before '=' is empty"),
        ("9LIVES=1", "a name cannot start with a digit"),
        ("MY-VAR", "the name holds '-' at byte 3"),
    ] {
        let out = Duipai::in_dir(dir.path())
            .args(["stress", "chess", "--iterations", "1", "--env", entry])
            .fixture(["correct", "chess"])
            .run()
            .code(2);
        let err = out.stderr();
        assert_contains(&err, "--env");
        assert_contains(&err, reason);
    }
}
