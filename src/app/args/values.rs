//! The values several commands' arguments take: a problem's name (a built-in game, or a
//! plain name for a problem of one's own) and a number of workers.

use crate::problem;
use crate::text::quote;

/// A problem name for `stress`: a registered game, or a name for files of one duipai does
/// not know.
pub fn parse_problem_name(s: &str) -> Result<String, String> {
    let plain = !s.is_empty()
        && s.len() <= 64
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if plain {
        return Ok(s.to_string());
    }
    let program = if looks_like_a_program(s) {
        format!(
            "; it looks like a program, which goes last, after `--`: `-- {}`",
            crate::text::shell_quote(s)
        )
    } else {
        String::new()
    };
    Err(format!(
        "expected {} or a name of letters, digits, - and _ (it names the saved files), found \
         {}{program}",
        problem::names().join(", "),
        quote(s)
    ))
}

/// Whether a word typed where a problem name goes is rather a program: a source file, a
/// path, or a file here.
fn looks_like_a_program(s: &str) -> bool {
    let source = crate::compile::Language::from_path(std::path::Path::new(s)).is_some();
    source || s.contains('/') || s.ends_with(".out") || std::path::Path::new(s).is_file()
}

/// The help of a PROBLEM argument that also takes a problem duipai does not know: the games
/// of the registry (`chess, chessboard, ... or shooting`), then what `other` says of any other
/// name. Built from [`problem::ALL`], so that a new game is listed without editing the help.
pub(super) fn problem_help(other: &str) -> String {
    let names = problem::names();
    let games = match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    };
    format!("A built-in game ({games}); {other}")
}

/// Workers: 1 to 1024.
pub(super) fn parse_jobs(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=1024).contains(&n) => Ok(n),
        Ok(_) => Err(format!("{} workers: expected 1 to 1024", quote(s))),
        Err(_) => Err(format!(
            "expected a number of workers like 4, found {}",
            quote(s)
        )),
    }
}

/// Workers: as asked, else one per core.
pub fn jobs(asked: Option<usize>) -> usize {
    asked
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}
