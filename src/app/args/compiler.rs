//! `--compiler LANG=COMMAND`: how source files given as programs are compiled, as the
//! engine's compile options.

use crate::compile::{CompileOptions, Language, parse_override};

/// `--compiler LANG=COMMAND`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompilerOverride(pub Language, pub Vec<String>);

pub(super) fn parse_compiler(s: &str) -> Result<CompilerOverride, String> {
    let (language, words) = parse_override(s)?;
    Ok(CompilerOverride(language, words))
}

/// How source files are compiled, with these `--compiler` flags.
pub fn compile_options(compilers: &[CompilerOverride]) -> CompileOptions {
    CompileOptions {
        overrides: compilers.iter().map(|c| (c.0, c.1.clone())).collect(),
        ..CompileOptions::default()
    }
}
