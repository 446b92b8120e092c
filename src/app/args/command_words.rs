//! Commands given as one flag value (`--reference 'python3 brute.py'`): split into words as
//! a shell would, without running a shell.

use std::ffi::OsString;

use crate::text::quote;

/// A command given as one flag value, already split into its words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandWords(pub Vec<OsString>);

/// A command typed as one word: split like a shell would (quotes respected), no shell run.
pub(super) fn parse_command(s: &str) -> Result<CommandWords, String> {
    let words =
        shell_words::split(s).map_err(|e| format!("cannot split {} into words: {e}", quote(s)))?;
    if words.is_empty() {
        return Err("expected a command, found nothing".to_string());
    }
    Ok(CommandWords(
        words.into_iter().map(OsString::from).collect(),
    ))
}
