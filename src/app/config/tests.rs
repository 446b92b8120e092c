use std::ffi::OsString;
use std::path::Path;

use super::*;
use crate::app::args::{Command as Sub, StressArgs, TestArgs};

/// The command line with the settings inserted, without the note.
fn apply(argv: &[OsString]) -> Result<Vec<OsString>, ConfigError> {
    apply_noted(argv).map(|(argv, _)| argv)
}

/// Writes `text` as `duipai.toml` in `dir` and applies it to `duipai WORDS` (given
/// `--config`, so that the tests do not depend on the current directory).
fn applied(dir: &Path, text: &str, words: &[&str]) -> Result<Vec<String>, String> {
    let path = dir.join(FILE_NAME);
    std::fs::write(&path, text).unwrap();
    let mut argv: Vec<OsString> = vec!["duipai".into(), "--config".into(), path.into()];
    argv.extend(words.iter().map(OsString::from));
    apply(&argv)
        .map(|words| {
            words[3..]
                .iter()
                .map(|w| w.to_string_lossy().into_owned())
                .collect()
        })
        .map_err(|e| {
            // Messages name the file as given; the tests compare what follows its name.
            let shown = dir.join(FILE_NAME).display().to_string();
            e.0.replace(&shown, FILE_NAME)
        })
}

fn parsed(dir: &Path, text: &str, words: &[&str]) -> crate::app::args::Cli {
    let path = dir.join(FILE_NAME);
    std::fs::write(&path, text).unwrap();
    let mut argv: Vec<OsString> = vec!["duipai".into(), "--config".into(), path.into()];
    argv.extend(words.iter().map(OsString::from));
    let argv = apply(&argv).unwrap_or_else(|e| panic!("{e}"));
    crate::app::parse(&argv).unwrap_or_else(|e| panic!("{}", e.render()))
}

fn stress_args(cli: crate::app::args::Cli) -> StressArgs {
    match cli.command {
        Sub::Stress(args) => args,
        _ => panic!("not stress"),
    }
}

fn test_args(cli: crate::app::args::Cli) -> TestArgs {
    match cli.command {
        Sub::Test(args) => args,
        _ => panic!("not test"),
    }
}

const AVG: &str = "\
problem = \"avg\"
time-limit = \"2s\"
jobs = 1

[stress]
generator = \"python3 gen.py --small\"
reference = \"brute.cpp\"
seed = 7
no-shrink = true
";

#[test]
fn settings_are_flags_typed_before_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("gen.py"), "").unwrap();
    let args = stress_args(parsed(d, AVG, &["stress", "--", "sol.cpp"]));
    assert_eq!(args.problem, "avg");
    assert_eq!(args.judging.limits.time_limit, Some(2000));
    assert_eq!(args.judging.report.jobs, Some(1));
    assert_eq!(args.seed, 7);
    assert!(args.no_shrink);
    // Paths are relative to the file: gen.py is beside it; brute.cpp is not (yet), so it is
    // left as written, and python3 is a program, not a file here.
    let generator: Vec<String> = args
        .generator
        .unwrap()
        .0
        .iter()
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        generator,
        [
            "python3",
            &d.join("gen.py").display().to_string(),
            "--small"
        ]
    );
    assert_eq!(
        args.judging.reference.unwrap().0,
        [OsString::from("brute.cpp")]
    );
    assert_eq!(args.program, [OsString::from("sol.cpp")]);
}

#[test]
fn the_command_line_wins() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let args = stress_args(parsed(
        d,
        AVG,
        &[
            "stress",
            "chess",
            "--time-limit",
            "500",
            "-j2",
            "--seed=9",
            "--",
            "a.out",
        ],
    ));
    assert_eq!(args.problem, "chess");
    assert_eq!(args.judging.limits.time_limit, Some(500));
    assert_eq!(args.judging.report.jobs, Some(2));
    assert_eq!(args.seed, 9);
    // `test` has two positionals: one typed is the directory, the problem comes from the file.
    let args = test_args(parsed(d, AVG, &["test", "tests", "--", "a.out"]));
    assert_eq!(
        (args.problem.as_str(), args.dir.as_deref().unwrap()),
        ("avg", Path::new("tests"))
    );
    assert_eq!(args.judging.limits.time_limit, Some(2000));
    let args = test_args(parsed(d, AVG, &["test", "other", "cases", "--", "a.out"]));
    assert_eq!(
        (args.problem.as_str(), args.dir.as_deref().unwrap()),
        ("other", Path::new("cases"))
    );
    // The stress table is stress's alone.
    let words = applied(d, AVG, &["test", "tests", "--", "a.out"]).unwrap();
    assert!(!words.iter().any(|w| w.contains("generator")), "{words:?}");
}

#[test]
fn lists_repeat_a_flag_and_false_leaves_a_switch_off() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let text = "problem = \"chess\"\ncompiler = [\"cpp=g++ -O2\", \"py=pypy3\"]\n[stress]\nno-shrink = false\nn = 3\nmax-value = 9\n";
    let words = applied(d, text, &["stress", "--", "a.out"]).unwrap();
    assert_eq!(
        words,
        [
            "stress",
            "chess",
            "--compiler=cpp=g++ -O2",
            "--compiler=py=pypy3",
            "--n=3",
            "--max-value=9",
            "--",
            "a.out"
        ]
    );
    let args = stress_args(parsed(d, text, &["stress", "--", "a.out"]));
    assert_eq!(args.judging.compilers.len(), 2);
    assert!(!args.no_shrink);
    // Typed, the flag replaces the file's list.
    let args = stress_args(parsed(
        d,
        text,
        &["stress", "--compiler", "c=clang", "--", "a.out"],
    ));
    assert_eq!(args.judging.compilers.len(), 1);
}

#[test]
fn errors_point_into_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let err = |text: &str, words: &[&str]| applied(d, text, words).unwrap_err();
    let run = ["stress", "--", "a.out"];
    assert_eq!(
        err(
            "problem = \"avg\"\n\n[stress]\n   generater = \"gen.py\"\n",
            &run
        ),
        "duipai.toml:4:4: unknown setting \"generater\" (did you mean \"generator\"?): settings \
         are the flags of `duipai stress --help`, without their dashes"
    );
    assert_eq!(
        err("problem = \"avg\"\ntime-limit = \"fast\"\n", &run),
        "duipai.toml:2:14: time-limit: expected milliseconds like 1500, 1500ms or 2s, found \
         \"fast\""
    );
    assert_eq!(
        err("jobs = 0\n", &run),
        "duipai.toml:1:8: jobs: \"0\" workers: expected 1 to 1024"
    );
    assert_eq!(
        err("[test]\ngenerator = \"gen.py\"\n", &run),
        "duipai.toml:2:1: \"generator\" is not a setting of duipai test (it is one of duipai \
         stress, duipai gen, duipai pack, duipai judge, duipai hunt)"
    );
    assert!(
        err("[stres]\nseed = 1\n", &run)
            .starts_with("duipai.toml:1:2: unknown table [stres] (did you mean [stress]?)")
    );
    assert_eq!(
        err(
            "problem = \"chess\"\n[pack]\nlayout = \"nio\"\n",
            &["pack", "--out", "x"]
        ),
        "duipai.toml:3:10: layout: expected one of plain, noi, icpc, polygon, hydro, uoj, lemon, \
         luogu, cms, domjudge, found \"nio\" (did you mean \"noi\"?)"
    );
    assert_eq!(
        err("[stress]\nno-shrink = \"yes\"\n", &run),
        "duipai.toml:2:13: no-shrink: expected true or false, found \"yes\""
    );
    assert_eq!(
        err("[stress]\nseed = [1, 2]\n", &run),
        "duipai.toml:2:8: seed: takes one value, found a list"
    );
    assert_eq!(
        err("[stress]\nseed = true\n", &run),
        "duipai.toml:2:8: seed: expected a value like SEED, found true"
    );
    assert!(
        err("problem = \"avg\nseed = 1\n", &run).starts_with("duipai.toml:1:"),
        "a TOML syntax error is positioned"
    );
    assert!(err("stress = 3\n", &run).starts_with("duipai.toml:1:1: stress names the settings"));
    // A key of no command at all, at the top.
    assert!(err("tim-limit = 3\n", &run).starts_with(
        "duipai.toml:1:1: unknown setting \"tim-limit\" (did you mean \"time-limit\"?)"
    ));
    // A misspelt key of another command's table is found whichever command runs.
    assert!(err("[gen]\nsed = 3\n", &run).starts_with("duipai.toml:2:1: unknown setting \"sed\""));
}

#[test]
fn commands_that_read_no_settings_and_help_are_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let broken = "problem = \n";
    for words in [&["stress", "--help"][..], &["init", "chess"]] {
        let out = applied(d, broken, words).unwrap();
        assert_eq!(out, words);
    }
}

#[test]
fn a_missing_config_file_is_an_error() {
    let argv: Vec<OsString> = [
        "duipai",
        "--config",
        "/nonexistent/duipai.toml",
        "stress",
        "--",
        "a",
    ]
    .map(OsString::from)
    .to_vec();
    let err = apply(&argv).unwrap_err();
    assert!(err.0.contains("/nonexistent/duipai.toml"), "{err}");
}

#[test]
fn the_template_of_init_is_accepted_whole() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for name in ["avg", "chess"] {
        let template = crate::app::commands::init::template(name, &[]);
        // Every commented setting, uncommented.
        let whole: String = template
            .lines()
            .map(|l| match l.strip_prefix("# ") {
                Some(rest) if rest.contains(" = ") => format!("{rest}\n"),
                _ => format!("{l}\n"),
            })
            .collect();
        assert!(whole.contains("\ngenerator = \"gen.py\""), "{whole}");
        let words = applied(d, &whole, &["stress", "--", "a.out"]).unwrap();
        assert!(words.contains(&"--time-limit=1s".to_string()), "{words:?}");
        assert!(
            words.contains(&format!("--save={}", d.join("duipai-failures").display())),
            "{words:?}"
        );
        applied(d, &whole, &["test", "tests", "--", "a.out"]).unwrap();
    }
}

/// Flags the reader was not written for (`--checker`, `--checker-protocol`, `--tolerance`,
/// `--ignore-case`) work in the file as the commands declare them.
#[test]
fn checker_and_comparison_flags_work_in_the_file() {
    let root = crate::app::args::with_subcommands_built(Cli::command(), &COMMANDS);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("check.py"), "").unwrap();
    let file = |text: &str| File {
        shown: FILE_NAME.to_string(),
        dir: dir.path().to_path_buf(),
        text: text.to_string(),
        table: None,
        file_io_refusal: None,
    };
    let stress = root.find_subcommand("stress").unwrap();
    let text = "checker = \"python3 check.py\"\ntolerance = 1e-6\n[stress]\nchecker-protocol = \"kattis\"\nignore-case = true\n";
    let words = settings_words(&file(text), stress, &root, &["--".into()]).unwrap();
    let check = dir.path().join("check.py").display().to_string();
    assert_eq!(
        words,
        [
            format!("--checker=python3 {check}"),
            "--tolerance=0.000001".to_string(),
            "--checker-protocol=kattis".to_string(),
            "--ignore-case".to_string(),
        ]
        .map(OsString::from)
    );
    // Parsed as duipai parses (the root above is for reading the commands' flags only).
    let matches = Cli::command()
        .try_get_matches_from(
            ["duipai", "stress", "chess"]
                .map(OsString::from)
                .into_iter()
                .chain(words)
                .chain(["--", "a.out"].map(OsString::from)),
        )
        .unwrap();
    let (_, stress_matches) = matches.subcommand().unwrap();
    assert_eq!(stress_matches.get_one::<f64>("tolerance"), Some(&1e-6));
    assert!(stress_matches.get_flag("ignore_case"));
    let err = settings_words(
        &file("[stress]\nchecker-protocol = \"katis\"\n"),
        stress,
        &root,
        &[],
    )
    .err()
    .unwrap();
    assert_eq!(
        err.0,
        "duipai.toml:2:20: checker-protocol: expected one of testlib, kattis, found \"katis\" \
         (did you mean \"kattis\"?)"
    );
}

#[test]
fn the_settings_given_are_named_once_each() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE_NAME);
    std::fs::write(
        &path,
        "problem = \"avg\"\n[stress]\nvalidator = \"v.py\"\ncompiler = [\"cpp=g++\", \"c=gcc\"]\n",
    )
    .unwrap();
    let argv: Vec<OsString> = ["duipai", "--config", path.to_str().unwrap(), "stress", "--"]
        .map(OsString::from)
        .to_vec();
    let (_, note) = apply_noted(&argv).unwrap();
    assert_eq!(
        note.unwrap(),
        format!(
            "settings from {}: problem, validator, compiler",
            path.display()
        )
    );
    // Nothing taken from the file, nothing said.
    std::fs::write(&path, "# empty\n").unwrap();
    assert_eq!(apply_noted(&argv).unwrap().1, None);
}
