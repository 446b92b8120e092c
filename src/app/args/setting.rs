//! How a saved failing case was judged, as flags: written into its sidecar by `stress` and
//! read back by `failures --prune-passing` and `test`, so that a replay typed without them
//! judges the case as it was judged.

use clap::{Args, Parser};

use super::checker::CheckerArgs;
use super::compare::CompareArgs;
use super::limits::LimitArgs;
use super::running::RunArgs;

// The judging flags of a case: comparison, checker or interactor, limits and running.
#[derive(Debug, Clone, Args)]
pub struct SettingArgs {
    #[command(flatten)]
    pub compare: CompareArgs,
    #[command(flatten)]
    pub checker: CheckerArgs,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub run: RunArgs,
}

/// The flags alone on a command line of their own, to parse saved words with.
#[derive(Debug, Parser)]
#[command(no_binary_name = true)]
struct SavedFlags {
    #[command(flatten)]
    setting: SettingArgs,
}

/// The flags of a setting, one word each (`--checker`, `checker.cpp`, ...): nothing for
/// the defaults.
pub fn setting_words(
    compare: &CompareArgs,
    checker: &CheckerArgs,
    limits: &LimitArgs,
    run: &RunArgs,
) -> Vec<String> {
    let flags = format!(
        "{}{}{}{}",
        compare.to_flags(),
        checker.to_flags(),
        limits.to_flags(),
        run.to_flags()
    );
    shell_words::split(&flags).unwrap_or_default()
}

/// The flags of a setting that name a program to run: a sidecar's are data, never a command
/// duipai runs on its own authority (see [`helpers_of_saved`]).
const HELPER_FLAGS: [&str; 2] = ["--checker", "--interactor"];

/// A saved setting's words split in two: those duipai may take from a sidecar (comparison,
/// limits, file I/O), and the helpers it names (`--checker checker.cpp`), which run only when
/// the command line or `duipai.toml` names them: a sidecar is a file anyone could have
/// written, and a checker it names would run as you, its verdict deciding which cases are
/// removed.
pub fn helpers_of_saved(words: &[String]) -> (Vec<String>, Vec<String>) {
    let mut kept = Vec::new();
    let mut helpers = Vec::new();
    let mut words = words.iter();
    while let Some(word) = words.next() {
        let flag = word.split_once('=').map_or(word.as_str(), |(f, _)| f);
        if !HELPER_FLAGS.contains(&flag) {
            kept.push(word.clone());
            continue;
        }
        helpers.push(word.clone());
        if !word.contains('=')
            && let Some(value) = words.next()
        {
            helpers.push(value.clone());
        }
    }
    // A protocol without its checker means nothing.
    if !helpers.is_empty()
        && let Some(at) = kept.iter().position(|w| w == "--checker-protocol")
    {
        kept.drain(at..(at + 2).min(kept.len()));
    }
    (kept, helpers)
}

/// The setting that saved words give back.
pub fn parse_setting(words: &[String]) -> anyhow::Result<SettingArgs> {
    SavedFlags::try_parse_from(words)
        .map(|f| f.setting)
        .map_err(|e| anyhow::anyhow!("the saved flags {words:?} do not parse: {e}"))
}
