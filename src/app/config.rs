//! `duipai.toml`: a problem folder's settings. Every key is a flag of the command it applies
//! to, spelled without its dashes (`time-limit = "2s"` is `--time-limit 2s`; `problem` is the
//! command's PROBLEM), found in the command's clap definition, so a flag a command gains works
//! in the file with no change here. The settings become words inserted after the command's
//! name, before the command line's own, except those the command line gives itself: typed
//! flags win. Top-level keys are shared by the commands that have them; a table (`[stress]`)
//! holds one command's own, which win over the shared ones.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Arg, ArgAction, Command, CommandFactory, ValueHint};
use toml_edit::{Item, TableLike, Value};

use crate::app::args::Cli;
use crate::text::{closest, quote};

/// The file a problem folder keeps its settings in.
pub const FILE_NAME: &str = "duipai.toml";
/// The commands that read the file; each may have a table of its own.
pub const COMMANDS: [&str; 10] = [
    "test", "stress", "gen", "pack", "failures", "validate", "answers", "solve", "judge", "hunt",
];
/// The commands that run a package's solutions (`gen` and `validate` run only its
/// generators and validator).
const RUNS_SOLUTIONS: [&str; 7] = [
    "test", "stress", "pack", "failures", "answers", "judge", "hunt",
];
/// The table of named generators, `name = "command"`: each is a `--named-generator
/// NAME=COMMAND` of the commands that take one.
pub const GENERATORS: &str = "generators";
/// The flag a `[generators]` entry becomes.
const NAMED_GENERATOR: &str = "named-generator";
/// The key of the problem: the commands' first positional argument.
const PROBLEM: &str = "problem";
/// Flags that make no sense as settings.
const NOT_SETTINGS: [&str; 2] = ["help", "config"];

/// A byte range of the file, for positioned messages.
type Span = std::ops::Range<usize>;

/// What went wrong with the settings, as one line: `duipai.toml:4:12: message`, or a file that
/// cannot be read.
#[derive(Debug)]
pub struct ConfigError(pub String);

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The file as read: its name for messages, its directory (what relative paths in it are
/// relative to) and its text; or, for a Polygon package, its settings as a table already.
struct File {
    shown: String,
    dir: PathBuf,
    text: String,
    table: Option<toml_edit::Table>,
    /// A Polygon package's refusal to have its solutions run (they use files).
    file_io_refusal: Option<String>,
}

impl File {
    /// `NAME:LINE:COLUMN: message` for a byte offset.
    fn error(&self, at: &Option<Span>, message: impl Into<String>) -> ConfigError {
        let offset = at.as_ref().map_or(0, |s| s.start).min(self.text.len());
        let before = &self.text[..offset];
        let line = before.matches('\n').count() + 1;
        let column = before[before.rfind('\n').map_or(0, |i| i + 1)..]
            .chars()
            .count()
            + 1;
        ConfigError(format!(
            "{}:{line}:{column}: {}",
            self.shown,
            message.into()
        ))
    }
}

/// One setting: its key, where the key is, and its value.
struct Setting<'a> {
    key: &'a str,
    key_span: Option<Span>,
    value: &'a Value,
}

/// The command line with the settings for its command inserted after the command's name
/// (unchanged without a file, for a command that reads none, and for `--help`), and a note
/// naming the file and the settings it gave, when it gave any (`settings from duipai.toml:
/// problem, generator, reference`): flags a user did not type must not act unseen.
pub fn apply_noted(argv: &[OsString]) -> Result<(Vec<OsString>, Option<String>), ConfigError> {
    let words: Vec<String> = argv
        .iter()
        .skip(1)
        .take_while(|a| *a != "--")
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    if words
        .iter()
        .any(|w| ["-h", "--help", "-V", "--version"].contains(&w.as_str()))
    {
        return Ok((argv.to_vec(), None));
    }
    let root = Cli::command();
    let Some(at) = subcommand_position(&root, &words) else {
        return Ok((argv.to_vec(), None));
    };
    let name = words[at].as_str();
    if !COMMANDS.contains(&name) {
        return Ok((argv.to_vec(), None));
    }
    let package = (name == "judge")
        .then(|| super::args::subcommand(&root, name))
        .flatten()
        .and_then(|judge| package_dir(&judge, &root, &words[at + 1..]));
    let Some(file) = read(&config_flag(&words), &package)? else {
        return Ok((argv.to_vec(), None));
    };
    // The settings are checked against every command's flags (a key of another command's
    // is named as such), whose arguments are built only on demand.
    let root = super::args::with_subcommands_built(root, &COMMANDS);
    let command = subcommand(&root, name);
    if let Some(why) = file
        .file_io_refusal
        .as_ref()
        .filter(|_| RUNS_SOLUTIONS.contains(&name))
    {
        return Err(ConfigError(why.clone()));
    }
    let inserted = settings_words(&file, command, &root, &words[at + 1..])?;
    if inserted
        .iter()
        .any(|w| !w.to_string_lossy().starts_with("--"))
    {
        PROBLEM_FROM_FILE.store(true, std::sync::atomic::Ordering::Relaxed);
    }
    let note = (!inserted.is_empty()).then(|| settings_note(&file.shown, &inserted));
    let mut out: Vec<OsString> = argv[..at + 2].to_vec();
    out.extend(inserted);
    out.extend_from_slice(&argv[at + 2..]);
    Ok((out, note))
}

/// Whether the problem's name came from a settings file (`problem = …`): a problem folder of
/// the user's own (one `duipai listen` made, say), whose name is no misspelt game.
static PROBLEM_FROM_FILE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether the problem's name came from a settings file rather than the command line.
pub fn problem_from_file() -> bool {
    PROBLEM_FROM_FILE.load(std::sync::atomic::Ordering::Relaxed)
}

/// `settings from duipai.toml: problem, generator`: the flags' names, `problem` for the
/// problem's name, each once.
fn settings_note(shown: &str, inserted: &[OsString]) -> String {
    let mut keys: Vec<String> = Vec::new();
    for word in inserted {
        let word = word.to_string_lossy();
        let key = match word.strip_prefix("--") {
            Some(flag) => flag.split('=').next().unwrap_or(flag).to_string(),
            None => "problem".to_string(),
        };
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    format!("settings from {shown}: {}", keys.join(", "))
}

/// Where `--config FILE` points (the last one, before `--`), if given.
pub fn config_flag(words: &[String]) -> Option<PathBuf> {
    let mut path = None;
    for (i, word) in words.iter().enumerate() {
        if word == "--config" {
            path = words.get(i + 1).map(PathBuf::from);
        } else if let Some(value) = word.strip_prefix("--config=") {
            path = Some(PathBuf::from(value));
        }
    }
    path
}

/// The index of the subcommand's name among the words before `--`: the first word that is
/// neither a flag nor the value of a global flag (`--color never stress`).
fn subcommand_position(root: &Command, words: &[String]) -> Option<usize> {
    let mut i = 0;
    while i < words.len() {
        let word = &words[i];
        if !word.starts_with('-') {
            return Some(i);
        }
        if let Some(arg) = long_arg(root, word)
            && takes_value(arg)
            && !word.contains('=')
        {
            i += 1;
        }
        i += 1;
    }
    None
}

/// The Polygon package `judge` (`command`) is about when its first positional word is a
/// folder holding one (`duipai judge PACKAGE`).
fn package_dir(command: &Command, root: &Command, typed: &[String]) -> Option<PathBuf> {
    let (_, positionals) = given_on_command_line(command, root, typed);
    let dir = PathBuf::from(positionals.first()?);
    crate::polygon::Package::is_in(&dir).then_some(dir)
}

/// The file named by `--config`, else the Polygon package the command names (`judge DIR`),
/// else `duipai.toml` here if there is one, else a Polygon package here (its `problem.xml`
/// read as the settings it gives); `None` without any. A `--config` file that cannot be read
/// is an error, and so is a `problem.xml` that cannot be read.
fn read(flag: &Option<PathBuf>, package: &Option<PathBuf>) -> Result<Option<File>, ConfigError> {
    let path = match (flag, package) {
        (Some(path), _) => path.clone(),
        (None, Some(dir)) => return polygon(dir).map(Some),
        (None, None) if Path::new(FILE_NAME).is_file() => PathBuf::from(FILE_NAME),
        (None, None) if crate::polygon::Package::is_in(Path::new(".")) => {
            return polygon(Path::new("")).map(Some);
        }
        (None, None) => return Ok(None),
    };
    let shown = path.display().to_string();
    let bytes = crate::fsutil::read_file_capped(&path)
        .map_err(|e| ConfigError(format!("the settings: {e:#}")))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| ConfigError(format!("{shown}: not UTF-8 text, as TOML must be")))?;
    let dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
    Ok(Some(File {
        shown,
        dir,
        text,
        table: None,
        file_io_refusal: None,
    }))
}

/// Whether the settings of this command came from a Polygon package's `problem.xml`: its
/// helpers are then not the user's own, and run contained (see `--unboxed-helpers`).
static FROM_PACKAGE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether the settings of this command came from a Polygon package.
pub fn from_package() -> bool {
    FROM_PACKAGE.load(std::sync::atomic::Ordering::SeqCst)
}

/// The settings a Polygon package in `dir` gives, as the file that would give them.
fn polygon(dir: &Path) -> Result<File, ConfigError> {
    FROM_PACKAGE.store(true, std::sync::atomic::Ordering::SeqCst);
    use crate::app::polygon::Value as Setting;
    let shown = dir.join(crate::polygon::FILE_NAME).display().to_string();
    let settings = crate::app::polygon::settings(dir).map_err(|e| ConfigError(format!("{e:#}")))?;
    let mut table = toml_edit::Table::new();
    for (key, value) in settings.values {
        let value = match value {
            Setting::Text(text) => toml_edit::value(text),
            Setting::On => toml_edit::value(true),
        };
        table.insert(&key, value);
    }
    if !settings.generators.is_empty() {
        let mut generators = toml_edit::Table::new();
        for (name, command) in settings.generators {
            generators.insert(&name, toml_edit::value(command));
        }
        table.insert(GENERATORS, Item::Table(generators));
    }
    Ok(File {
        shown,
        dir: PathBuf::new(),
        text: String::new(),
        table: Some(table),
        file_io_refusal: settings.file_io_refusal,
    })
}

/// The words the file adds to `command`'s command line, whose own words after the command's
/// name are `typed`.
fn settings_words(
    file: &File,
    command: &Command,
    root: &Command,
    typed: &[String],
) -> Result<Vec<OsString>, ConfigError> {
    let parsed;
    let table = match &file.table {
        Some(table) => table,
        None => {
            parsed = toml_edit::Document::parse(file.text.as_str()).map_err(|e| {
                let message = e.message().trim().trim_end_matches('.').to_string();
                file.error(&e.span(), message)
            })?;
            parsed.as_table()
        }
    };
    let named = named_generators(file, table)?;
    let settings = collect(file, table, command.get_name(), root)?;
    let (given, positionals) = given_on_command_line(command, root, typed);
    let mut problem = Vec::new();
    let mut flags = Vec::new();
    for setting in settings {
        let arg = find_arg(command, setting.key).ok_or_else(|| {
            file.error(&setting.key_span, unknown_key(setting.key, command, root))
        })?;
        if arg.is_positional() {
            let words = words_of(file, arg, &setting)?;
            if problem_missing(command, &positionals, &words) {
                problem = words;
            }
        } else if !given.contains(&arg.get_id().as_str().to_string()) {
            flags.extend(words_of(file, arg, &setting)?);
        }
    }
    if let Some(arg) = find_arg(command, NAMED_GENERATOR)
        && !given.contains(&arg.get_id().as_str().to_string())
    {
        flags.extend(named);
    }
    problem.extend(flags);
    Ok(problem)
}

/// The `[generators]` table as `--named-generator=NAME=COMMAND` words, each command's files
/// relative to the file's directory: checked whichever command runs, so that a mistake in it
/// is found the first time the file is used.
fn named_generators(file: &File, root: &toml_edit::Table) -> Result<Vec<OsString>, ConfigError> {
    let Some(item) = root.get(GENERATORS) else {
        return Ok(Vec::new());
    };
    let key_span = root.get_key_value(GENERATORS).and_then(|(k, _)| k.span());
    let Some(table) = item.as_table_like() else {
        let message = format!(
            "{GENERATORS} names the named generators: write them in a table, [{GENERATORS}], \
             one `name = \"command\"` a line"
        );
        return Err(file.error(&key_span, message));
    };
    let mut words = Vec::new();
    for (name, value) in table.iter() {
        let span = table.get_key_value(name).and_then(|(k, _)| k.span());
        crate::app::args::parse_generator_name(name)
            .map_err(|why| file.error(&span, format!("[{GENERATORS}] {why}")))?;
        let Some(command) = value.as_str() else {
            let message = format!(
                "[{GENERATORS}] {name}: expected a command like \"python3 gen.py\" or \"gen.cpp\""
            );
            return Err(file.error(&span, message));
        };
        let command = relative_command(&file.dir, command);
        words.push(OsString::from(format!(
            "--{NAMED_GENERATOR}={name}={command}"
        )));
    }
    Ok(words)
}

/// The settings that apply to the command named `name`: the shared ones it has, then its own
/// table's (which win). Every key in the file is checked, whichever command runs, so that a
/// misspelt key is found the first time the file is used.
fn collect<'a>(
    file: &File,
    root_table: &'a toml_edit::Table,
    name: &str,
    root: &Command,
) -> Result<Vec<Setting<'a>>, ConfigError> {
    let mut shared = Vec::new();
    let mut own = Vec::new();
    for (key, item) in root_table.iter() {
        let key_span = root_table.get_key_value(key).and_then(|(k, _)| k.span());
        match item.as_table_like() {
            // Read by `named_generators`.
            Some(_) if key == GENERATORS => {}
            Some(table) if COMMANDS.contains(&key) => {
                let command = subcommand(root, key);
                for setting in table_settings(file, table, key)? {
                    if find_arg(command, setting.key).is_none() {
                        let message = unknown_key(setting.key, command, root);
                        return Err(file.error(&setting.key_span, message));
                    }
                    if key == name {
                        own.push(setting);
                    }
                }
            }
            Some(_) => {
                let hint = closest(key, COMMANDS, 2)
                    .map(|c| format!(" (did you mean [{c}]?)"))
                    .unwrap_or_default();
                let mut tables: Vec<String> = COMMANDS.iter().map(|c| format!("[{c}]")).collect();
                tables.push(format!("[{GENERATORS}]"));
                let message = format!(
                    "unknown table [{key}]{hint}; the tables are {}",
                    tables.join(", ")
                );
                return Err(file.error(&key_span, message));
            }
            None if COMMANDS.contains(&key) => {
                let message = format!(
                    "{key} names the settings of `duipai {key}`: write them in a table, [{key}]"
                );
                return Err(file.error(&key_span, message));
            }
            None => {
                let value = value_of(file, item, key, &key_span)?;
                if !COMMANDS
                    .iter()
                    .any(|c| find_arg(subcommand(root, c), key).is_some())
                {
                    return Err(file.error(&key_span, unknown_shared_key(key, root)));
                }
                if find_arg(subcommand(root, name), key).is_some() {
                    shared.push(Setting {
                        key,
                        key_span,
                        value,
                    });
                }
            }
        }
    }
    shared.retain(|s| !own.iter().any(|o| o.key == s.key));
    shared.extend(own);
    Ok(shared)
}

/// The settings of one command's table.
fn table_settings<'a>(
    file: &File,
    table: &'a dyn TableLike,
    name: &str,
) -> Result<Vec<Setting<'a>>, ConfigError> {
    let mut settings = Vec::new();
    for (key, item) in table.iter() {
        let key_span = table.get_key_value(key).and_then(|(k, _)| k.span());
        if item.as_table_like().is_some() {
            let message = format!(
                "[{name}] holds settings, not tables: write `{key} = ...` there, or move \
                 [{name}.{key}] to a table of its own"
            );
            return Err(file.error(&key_span, message));
        }
        let value = value_of(file, item, key, &key_span)?;
        settings.push(Setting {
            key,
            key_span,
            value,
        });
    }
    Ok(settings)
}

/// A key's value; an array of tables is no setting.
fn value_of<'a>(
    file: &File,
    item: &'a Item,
    key: &str,
    key_span: &Option<Span>,
) -> Result<&'a Value, ConfigError> {
    item.as_value().ok_or_else(|| {
        let message = format!("{key}: expected a string, a number, true or false, or a list");
        file.error(key_span, message)
    })
}

fn subcommand<'a>(root: &'a Command, name: &str) -> &'a Command {
    root.find_subcommand(name)
        .unwrap_or_else(|| unreachable!("COMMANDS are subcommands of duipai"))
}

/// Whether `command` takes the setting `key`.
pub fn takes_key(command: &Command, key: &str) -> bool {
    find_arg(command, key).is_some()
}

/// The argument a key sets: the flag of that long name, or PROBLEM for `problem`.
fn find_arg<'a>(command: &'a Command, key: &str) -> Option<&'a Arg> {
    if NOT_SETTINGS.contains(&key) {
        return None;
    }
    command.get_arguments().find(|a| {
        if a.is_positional() {
            key == PROBLEM && a.get_id() == PROBLEM && !a.is_last_set()
        } else {
            a.get_long() == Some(key)
        }
    })
}

/// The keys `command` takes: its flags' long names and `problem`.
fn keys(command: &Command) -> Vec<&str> {
    command
        .get_arguments()
        .filter_map(|a| match a.get_long() {
            Some(long) => Some(long),
            None if a.get_id() == PROBLEM => Some(PROBLEM),
            None => None,
        })
        .filter(|k| !NOT_SETTINGS.contains(k))
        .collect()
}

/// The message for a key of a command's table that the command does not take.
fn unknown_key(key: &str, command: &Command, root: &Command) -> String {
    let name = command.get_name();
    let elsewhere: Vec<String> = COMMANDS
        .iter()
        .filter(|c| **c != name && find_arg(subcommand(root, c), key).is_some())
        .map(|c| format!("duipai {c}"))
        .collect();
    if !elsewhere.is_empty() {
        return format!(
            "{} is not a setting of duipai {name} (it is one of {})",
            quote(key),
            elsewhere.join(", ")
        );
    }
    let hint = closest(key, keys(command), 2)
        .map(|c| format!(" (did you mean {}?)", quote(c)))
        .unwrap_or_default();
    format!(
        "unknown setting {}{hint}: settings are the flags of `duipai {name} --help`, without \
         their dashes",
        quote(key)
    )
}

/// The message for a top-level key that no command takes.
fn unknown_shared_key(key: &str, root: &Command) -> String {
    let all: Vec<&str> = COMMANDS
        .iter()
        .flat_map(|c| keys(subcommand(root, c)))
        .collect();
    let hint = closest(key, all, 2)
        .map(|c| format!(" (did you mean {}?)", quote(c)))
        .unwrap_or_default();
    format!(
        "unknown setting {}{hint}: settings are the flags of {}, without their dashes",
        quote(key),
        COMMANDS.map(|c| format!("`duipai {c}`")).join(", ")
    )
}

/// The long flag a word names (`--time-limit`, `--time-limit=2s`).
fn long_arg<'a>(command: &'a Command, word: &str) -> Option<&'a Arg> {
    let name = word.strip_prefix("--")?;
    let name = name.split_once('=').map_or(name, |(n, _)| n);
    command.get_arguments().find(|a| a.get_long() == Some(name))
}

fn takes_value(arg: &Arg) -> bool {
    arg.get_action().takes_values()
}

/// Whether the command line lacks the problem the file names (`file_problem`), given its
/// positional words. A command whose positionals are the problem and a fixed number more
/// (`test PROBLEM DIR`) lacks it when it has fewer words than that, unless its first word is
/// that problem or a game duipai knows (`solve PROBLEM [INPUT]`); one that takes any number
/// after it (`validate PROBLEM FILE...`, `gen PROBLEM ARGS...`) lacks it unless its first
/// word is that problem or a game duipai knows: in a problem's folder, `duipai validate
/// 1.in` and `duipai gen 10 --seed 3` are about the folder's problem.
fn problem_missing(command: &Command, positionals: &[String], file_problem: &[OsString]) -> bool {
    let wanted = command
        .get_arguments()
        .filter(|a| a.is_positional() && !a.is_last_set())
        .count();
    let variadic = command.get_arguments().any(|a| {
        a.is_positional()
            && !a.is_last_set()
            && a.get_id() != PROBLEM
            && matches!(a.get_action(), ArgAction::Append)
    });
    let Some(first) = positionals.first() else {
        return true;
    };
    let named = file_problem
        .first()
        .is_some_and(|p| p.to_str() == Some(first));
    if named || crate::problem::by_name(first).is_some() {
        return false;
    }
    variadic || positionals.len() < wanted
}

/// The arguments the command line gives itself (their ids) and its positional words, read
/// from its words after the command's name as clap reads them.
fn given_on_command_line(
    command: &Command,
    root: &Command,
    typed: &[String],
) -> (Vec<String>, Vec<String>) {
    let mut given = Vec::new();
    let mut positionals = Vec::new();
    let mut i = 0;
    while i < typed.len() {
        let word = typed[i].as_str();
        let arg = if word.starts_with("--") {
            long_arg(command, word).or_else(|| long_arg(root, word))
        } else if word.len() > 1 && word.starts_with('-') {
            let short = word.chars().nth(1);
            command.get_arguments().find(|a| a.get_short() == short)
        } else {
            positionals.push(word.to_string());
            None
        };
        if let Some(arg) = arg {
            given.push(arg.get_id().as_str().to_string());
            // `--flag VALUE` and `-j 4` take the next word; `--flag=VALUE` and `-j4` do not.
            let attached = word.contains('=') || (!word.starts_with("--") && word.len() > 2);
            if takes_value(arg) && !attached {
                i += 1;
            }
        }
        i += 1;
    }
    (given, positionals)
}

/// A TOML value as the words of the command line it stands for: `--key=VALUE` (each element
/// of a list, for a repeatable flag), `--key` for `true`, nothing for `false`, the value
/// alone for PROBLEM. Values are checked here with the flag's own parser, so that an error
/// points into the file.
fn words_of(file: &File, arg: &Arg, setting: &Setting) -> Result<Vec<OsString>, ConfigError> {
    let key = setting.key;
    let span = setting.value.span();
    let elements: Vec<&Value> = match setting.value {
        Value::Array(array) if matches!(arg.get_action(), ArgAction::Append) => {
            array.iter().collect()
        }
        Value::Array(_) => {
            return Err(file.error(&span, format!("{key}: takes one value, found a list")));
        }
        value => vec![value],
    };
    let mut words = Vec::new();
    for element in elements {
        let span = element.span();
        if !takes_value(arg) {
            match element.as_bool() {
                Some(true) => words.push(OsString::from(format!("--{key}"))),
                Some(false) => {}
                None => {
                    let found = describe(element);
                    let message = format!("{key}: expected true or false, found {found}");
                    return Err(file.error(&span, message));
                }
            }
            continue;
        }
        let text = scalar_text(element).ok_or_else(|| {
            let message = format!(
                "{key}: expected a value like {}, found {}",
                value_name(arg),
                describe(element)
            );
            file.error(&span, message)
        })?;
        check_value(arg, key, &text).map_err(|message| file.error(&span, message))?;
        let text = relative_to(&file.dir, arg, &text);
        if arg.is_positional() {
            words.push(OsString::from(text));
        } else {
            words.push(OsString::from(format!("--{key}={text}")));
        }
    }
    Ok(words)
}

/// A string, an integer or a float as the text a flag would get; `None` for anything else.
fn scalar_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.value().clone()),
        Value::Integer(i) => Some(i.value().to_string()),
        Value::Float(f) => Some(f.value().to_string()),
        _ => None,
    }
}

/// A value as a message shows it.
fn describe(value: &Value) -> String {
    match value {
        Value::String(s) => quote(s.value()),
        Value::Integer(i) => i.value().to_string(),
        Value::Float(f) => f.value().to_string(),
        Value::Boolean(b) => b.value().to_string(),
        Value::Datetime(_) => "a date".to_string(),
        Value::Array(_) => "a list".to_string(),
        Value::InlineTable(_) => "a table".to_string(),
    }
}

fn value_name(arg: &Arg) -> String {
    arg.get_value_names()
        .and_then(|names| names.first())
        .map_or_else(|| "VALUE".to_string(), |n| n.to_string())
}

/// Runs the flag's own value parser on `text`: `Err` with the message a user of the file
/// needs (`time-limit: expected milliseconds like 1500, 1500ms or 2s, found "fast"`).
fn check_value(arg: &Arg, key: &str, text: &str) -> Result<(), String> {
    let probe = Command::new(FILE_NAME).no_binary_name(true).arg(
        Arg::new("value")
            .value_parser(arg.get_value_parser().clone())
            .allow_hyphen_values(true)
            .required(true),
    );
    let Err(err) = probe.try_get_matches_from([text]) else {
        return Ok(());
    };
    if err.kind() == ErrorKind::InvalidValue
        && let Some(ContextValue::Strings(valid)) = err.get(ContextKind::ValidValue)
    {
        let hint = closest(text, valid.iter().map(String::as_str), 2)
            .map(|s| format!(" (did you mean {}?)", quote(s)))
            .unwrap_or_default();
        return Err(format!(
            "{key}: expected one of {}, found {}{hint}",
            valid.join(", "),
            quote(text)
        ));
    }
    let why = match std::error::Error::source(&err) {
        Some(source) => source.to_string(),
        None => {
            let rendered = err.render().to_string();
            let first = rendered.lines().next().unwrap_or_default();
            first.strip_prefix("error: ").unwrap_or(first).to_string()
        }
    };
    if why.contains(&quote(text)) {
        Err(format!("{key}: {why}"))
    } else {
        Err(format!("{key}: {why} (found {})", quote(text)))
    }
}

/// A path in the file is relative to the file's directory: a path flag's value joined to it;
/// in a command (`python3 gen.py`), each word naming a file beside the file.
fn relative_to(dir: &Path, arg: &Arg, text: &str) -> String {
    if dir.as_os_str().is_empty() {
        return text.to_string();
    }
    let hint = arg.get_value_hint();
    let is_path = matches!(
        hint,
        ValueHint::AnyPath | ValueHint::FilePath | ValueHint::DirPath | ValueHint::ExecutablePath
    );
    let is_command = matches!(
        hint,
        ValueHint::CommandString | ValueHint::CommandWithArguments | ValueHint::CommandName
    ) || arg
        .get_value_names()
        .is_some_and(|names| names.iter().any(|n| n.split('|').any(|w| w == "COMMAND")));
    if is_path && Path::new(text).is_relative() {
        return dir.join(text).display().to_string();
    }
    if !is_command {
        return text.to_string();
    }
    relative_command(dir, text)
}

/// A command of the file, each word naming a file beside the file made relative to the
/// current directory.
fn relative_command(dir: &Path, text: &str) -> String {
    if dir.as_os_str().is_empty() {
        return text.to_string();
    }
    let Ok(words) = shell_words::split(text) else {
        return text.to_string();
    };
    let words: Vec<String> = words
        .into_iter()
        .map(|word| {
            let beside = dir.join(&word);
            if !word.starts_with('-') && Path::new(&word).is_relative() && beside.is_file() {
                beside.display().to_string()
            } else {
                word
            }
        })
        .collect();
    shell_words::join(words)
}

#[cfg(test)]
mod tests;
