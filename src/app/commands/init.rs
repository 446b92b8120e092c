//! `duipai init`: a commented `duipai.toml` for the problem in this folder, with the
//! generator, brute force (or the accepted solution of `submissions/accepted/`), validator
//! and plan found beside it already filled in; it says what it did not find.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use clap::CommandFactory;

use crate::app::args::{Cli, InitArgs, parse_problem_name};
use crate::app::config;
use crate::app::exit::Status;
use crate::companion::folder::toml_string;
use crate::text::quote;

/// The source extensions duipai runs, in the order a folder's files are looked for.
const EXTENSIONS: [&str; 7] = ["py", "cpp", "cc", "cxx", "c", "rs", "java"];

/// One line of the file: a setting, an example value (TOML), and what it is for.
struct Line {
    key: &'static str,
    example: &'static str,
    about: &'static str,
}

/// The settings shared by the commands, listed when some command has them.
const SHARED: [Line; 8] = [
    Line {
        key: "time-limit",
        example: "\"1s\"",
        about: "CPU time of the program under test: 1500, 1500ms or 2s",
    },
    Line {
        key: "memory-limit",
        example: "256",
        about: "its memory in MiB, or 512MiB, 1GiB",
    },
    Line {
        key: "jobs",
        example: "2",
        about: "parallel workers (default: one per core)",
    },
    Line {
        key: "checker",
        example: "\"check.py\"",
        about: "judges an output when answers are not compared token by token",
    },
    Line {
        key: "checker-protocol",
        example: "\"testlib\"",
        about: "how the checker is called",
    },
    Line {
        key: "interactor",
        example: "\"interact.py\"",
        about: "talks with the program, for an interactive problem",
    },
    Line {
        key: "tolerance",
        example: "1e-6",
        about: "real numbers in answers are accepted within it",
    },
    Line {
        key: "ignore-case",
        example: "true",
        about: "answers' words are compared ignoring case",
    },
];

/// The problem's programs, at the top so that every command that runs them reads them
/// (`stress`, `test`, `gen`, `validate`, `pack`, `judge`, `hunt`), then `[stress]`'s own.
const STRESS: [Line; 5] = [
    Line {
        key: "generator",
        example: "\"gen.py\"",
        about: "prints one case; gets the seed as its last argument",
    },
    Line {
        key: "reference",
        example: "\"brute.cpp\"",
        about: "its output is the answer: a solution you trust",
    },
    Line {
        key: "validator",
        example: "\"val.py\"",
        about: "exits 0 (or 42) on a valid case, 1 (or 43) on an invalid one",
    },
    Line {
        key: "save",
        example: "\"duipai-failures\"",
        about: "where failing cases are saved",
    },
    Line {
        key: "time",
        example: "60",
        about: "seconds of searching (default: until a failure or Ctrl-C)",
    },
];

/// The usual names of a folder's helper programs, by the setting that runs them; each is
/// also found after a prefix (`avg_gen.py`, `avg-brute.cpp`).
const HELPERS: [(&str, &[&str]); 5] = [
    ("generator", &["gen", "generator"]),
    (
        "reference",
        &["brute", "bf", "naive", "slow", "std", "ref", "reference"],
    ),
    ("validator", &["val", "validator", "validate"]),
    ("checker", &["checker", "check", "chk"]),
    ("interactor", &["interactor", "interact", "interactive"]),
];

pub fn run(args: InitArgs, path: Option<PathBuf>) -> anyhow::Result<Status> {
    let path = path.unwrap_or_else(|| PathBuf::from(config::FILE_NAME));
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if path.exists() {
        bail!(
            "{} already exists; edit it, or remove it to write a new one",
            path.display()
        );
    }
    let name = match args.problem {
        Some(name) => name,
        None => folder_name(&dir)?,
    };
    let helpers = found_helpers(&dir);
    let text = template(&name, &helpers);
    crate::fsutil::write_new_atomic(&path, text.as_bytes())?;
    let set: Vec<String> = helpers
        .iter()
        .map(|(key, file)| format!("{key} {file}"))
        .collect();
    eprintln!(
        "duipai: wrote {} for {}{}",
        path.display(),
        quote(&name),
        if set.is_empty() {
            String::new()
        } else {
            format!(", with {}", set.join(", "))
        }
    );
    let missing = missing_helpers(&name, &helpers);
    for line in &missing {
        eprintln!("duipai: {line}");
    }
    if missing.is_empty() {
        eprintln!("duipai: `duipai stress -- SOLUTION` stresses a solution with it");
    }
    Ok(Status::Success)
}

/// What a problem needs that the folder did not have, a line each with where duipai looked
/// and the setting to write: a generator, and a reference (or an interactor). A game duipai
/// knows has its own.
fn missing_helpers(name: &str, found: &[(&str, String)]) -> Vec<String> {
    if crate::problem::by_name(name).is_some() {
        return Vec::new();
    }
    let has = |key: &str| found.iter().any(|(k, _)| *k == key);
    let mut missing = Vec::new();
    if !has("generator") {
        missing
            .push("no generator found (gen.*, generator.*): set `generator = \"...\"`".to_string());
    }
    if !has("reference") && !has("interactor") {
        missing.push(format!(
            "no reference found (brute.*, std.*, ref.*, ..., or {{{}}}.* in {ACCEPTED}): set \
             `reference = \"...\"`",
            ACCEPTED_NAMES.join(",")
        ));
    }
    missing
}

/// The problem's name from the folder's: it names the saved files, so it must be one.
fn folder_name(dir: &Path) -> anyhow::Result<String> {
    let absolute = std::fs::canonicalize(dir)
        .with_context(|| format!("cannot read the folder {}", dir.display()))?;
    let folder = absolute
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    parse_problem_name(&folder).map_err(|_| {
        anyhow::anyhow!(
            "the folder's name {} cannot name a problem (letters, digits, - and _): give one, \
             `duipai init NAME`",
            quote(&folder)
        )
    })
}

/// The helper programs found in `dir`, by setting: `("generator", "gen.py")`. A name of its
/// own (`gen.py`) wins over a prefixed one (`avg_gen.py`); an interactor leaves the checker
/// out (an interactive problem is judged by its interactor alone).
fn found_helpers(dir: &Path) -> Vec<(&'static str, String)> {
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.path().is_file())
                .filter_map(|e| e.file_name().to_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    let source_stem = |file: &str| {
        let (stem, ext) = file.rsplit_once('.')?;
        EXTENSIONS.contains(&ext).then_some(stem.to_string())
    };
    let find = |stems: &[&str]| {
        let named = |exact: bool| {
            stems.iter().find_map(|stem| {
                files.iter().find(|file| {
                    source_stem(file).is_some_and(|s| {
                        if exact {
                            s == *stem
                        } else {
                            s.strip_suffix(stem).is_some_and(|p| {
                                p.len() > 1 && (p.ends_with('_') || p.ends_with('-'))
                            })
                        }
                    })
                })
            })
        };
        named(true).or_else(|| named(false)).cloned()
    };
    let mut found: Vec<(&'static str, String)> = HELPERS
        .iter()
        .filter_map(|(key, stems)| find(stems).map(|file| (*key, file)))
        .collect();
    if found.iter().any(|(k, _)| *k == "interactor") {
        found.retain(|(k, _)| *k != "checker");
    }
    if !found.iter().any(|(k, _)| *k == "reference")
        && let Some(accepted) = accepted_reference(dir)
    {
        found.push(("reference", accepted));
    }
    let plans: Vec<&String> = files.iter().filter(|f| f.ends_with(".plan")).collect();
    if let [plan] = plans.as_slice() {
        found.push(("plan", plan.to_string()));
    }
    found
}

/// Where a setter's folder keeps its accepted solutions.
const ACCEPTED: &str = "submissions/accepted/";

/// The names an accepted solution that is the reference goes by, the first found winning.
const ACCEPTED_NAMES: [&str; 4] = ["std", "main", "ref", "sol"];

/// The reference among the accepted solutions of `dir`: the first of [`ACCEPTED_NAMES`], as
/// a source file, relative to `dir`.
fn accepted_reference(dir: &Path) -> Option<String> {
    let folder = dir.join(ACCEPTED);
    ACCEPTED_NAMES.iter().find_map(|stem| {
        EXTENSIONS.iter().find_map(|ext| {
            let file = format!("{stem}.{ext}");
            folder
                .join(&file)
                .is_file()
                .then(|| format!("{ACCEPTED}{file}"))
        })
    })
}

/// The text of a new `duipai.toml` for the problem `name`, with the helper programs `found`
/// set and every other common setting shown commented out.
pub fn template(name: &str, found: &[(&str, String)]) -> String {
    let known = crate::problem::by_name(name).is_some();
    let mut text = format!(
        "# duipai.toml: the settings of the problem in this folder, read by the duipai commands\n\
         # run here (or given --config). Every key is a flag of those commands without its\n\
         # dashes; flags typed on the command line win. Paths are relative to this file.\n\n\
         problem = {}\n",
        toml_string(name)
    );
    let set = |key: &str| {
        found
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, file)| toml_string(file))
    };
    let root = crate::app::args::with_subcommands_built(Cli::command(), &config::COMMANDS);
    let has = |command: &str, key: &str| {
        root.find_subcommand(command)
            .is_some_and(|c| config::takes_key(c, key))
    };
    text.push_str("\n# Shared by the commands that have them.\n");
    for line in SHARED
        .iter()
        .filter(|l| config::COMMANDS.iter().any(|c| has(c, l.key)))
    {
        text.push_str(&commented(line, set(line.key)));
    }
    text.push_str("\n# The problem's programs, read by every command that runs them.\n");
    for line in STRESS.iter().filter(|l| HELPER_KEYS.contains(&l.key)) {
        text.push_str(&helper_line(line, found, known));
    }
    text.push_str(&commented(&PLAN, set("plan")));
    text.push_str("\n[stress]\n");
    for line in STRESS.iter().filter(|l| !HELPER_KEYS.contains(&l.key)) {
        if has("stress", line.key) {
            text.push_str(&helper_line(line, found, known));
        }
    }
    text.push_str(
        "\n# Generators with names, which a plan line picks with `--generator NAME`, go in a\n\
         # table [generators], a line each: big=\"gen_big.cpp\".\n",
    );
    text.push_str(
        "\n# Settings of one command alone go in its table: [test], [gen], [pack], [judge], ...\n",
    );
    text
}

/// The settings that name the problem's programs.
const HELPER_KEYS: [&str; 3] = ["generator", "reference", "validator"];

/// The plan's setting, shown commented out.
const PLAN: Line = Line {
    key: "plan",
    example: "\"tests.plan\"",
    about: "the tests pack and judge make: `gen NAME ARGS --seed N`, `copy FILE`",
};

/// A line of `STRESS`: set to the file found for it, else commented out; a game's own
/// generator and reference are the defaults.
fn helper_line(line: &Line, found: &[(&str, String)], known: bool) -> String {
    let set = found
        .iter()
        .find(|(key, _)| *key == line.key)
        .map(|(_, file)| toml_string(file));
    let builtin = known && matches!(line.key, "generator" | "reference");
    let line = Line {
        about: if builtin {
            "default: duipai's own for this problem"
        } else {
            line.about
        },
        ..*line
    };
    commented(&line, set)
}

/// `key = value  # about`, commented out unless a value is set.
fn commented(line: &Line, set: Option<String>) -> String {
    let (prefix, value) = match set {
        Some(value) => ("", value),
        None => ("# ", line.example.to_string()),
    };
    let setting = format!("{prefix}{} = {value}", line.key);
    format!("{setting:<32} # {}\n", line.about)
}
