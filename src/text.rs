//! Small text helpers every layer shares: plurals, indentation, shell quoting.

use std::ffi::OsString;

/// "1 case", "3 cases": the count and the noun, with an `s` unless the count is 1.
pub fn plural(count: impl Into<u64>, noun: &str) -> String {
    let count = count.into();
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

/// `s` unless the count is 1, for nouns inside longer phrases.
pub fn plural_s(count: impl Into<u64>) -> &'static str {
    if count.into() == 1 { "" } else { "s" }
}

/// `s` in double quotes for a message, as a person would read it: printable characters as
/// they are, a UTF-8 byte-order mark named, other invisible characters as `\xNN` or `\u{N}`.
/// No Rust escaping of ordinary text (`é` stays `é`).
pub fn quote(s: &str) -> String {
    if let Some(rest) = s.strip_prefix('\u{feff}') {
        return format!("a UTF-8 byte-order mark then {}", quote(rest));
    }
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02X}", c as u32))
            }
            c if c.is_control() || c == '\u{feff}' || c == '\u{200b}' => {
                out.push_str(&format!("\\u{{{:X}}}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Every line of `text` indented by four spaces.
pub fn indent(text: &str) -> String {
    text.lines().map(|l| format!("    {l}\n")).collect()
}

/// Quotes a word for a POSIX shell when it needs it.
pub fn shell_quote(word: &str) -> String {
    let safe = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if safe {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// A command line as a shell would need it typed.
pub fn quote_command(words: &[OsString]) -> String {
    words
        .iter()
        .map(|w| shell_quote(&w.to_string_lossy()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Lines of stderr shown under a failing case.
pub const STDERR_LINES: usize = 5;
/// Characters of one stderr line shown.
const STDERR_LINE_CHARS: usize = 200;

/// The last few lines of a program's stderr, each cut to a readable length, as text (bytes
/// that are not UTF-8 become U+FFFD); empty when it wrote nothing.
pub fn stderr_tail(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.len().saturating_sub(STDERR_LINES);
    let mut out = String::new();
    if start > 0 {
        out.push_str("…\n");
    }
    for line in &lines[start..] {
        match line.char_indices().nth(STDERR_LINE_CHARS) {
            Some((cut, _)) => {
                out.push_str(&line[..cut]);
                out.push('…');
            }
            None => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stderr_tails_keep_the_last_lines_cut_short() {
        assert_eq!(stderr_tail(b""), "");
        assert_eq!(stderr_tail(b"one\ntwo\n"), "one\ntwo\n");
        let many: String = (1..=9).map(|i| format!("line {i}\n")).collect();
        assert_eq!(
            stderr_tail(many.as_bytes()),
            "…\nline 5\nline 6\nline 7\nline 8\nline 9\n"
        );
        let long = "x".repeat(500);
        assert_eq!(stderr_tail(long.as_bytes()).chars().count(), 202);
        assert_eq!(stderr_tail(b"\xEF\xBB bad"), "\u{FFFD} bad\n");
    }

    #[test]
    fn quotes_read_like_text() {
        assert_eq!(quote("abc"), "\"abc\"");
        assert_eq!(quote("é 对拍"), "\"é 对拍\"");
        assert_eq!(quote("a\tb\x01"), "\"a\\tb\\x01\"");
        assert_eq!(quote("\u{feff}12"), "a UTF-8 byte-order mark then \"12\"");
    }

    #[test]
    fn plurals() {
        assert_eq!(plural(1u64, "case"), "1 case");
        assert_eq!(plural(0u64, "case"), "0 cases");
        assert_eq!(plural(12usize as u64, "run"), "12 runs");
        assert_eq!(plural_s(1u64), "");
        assert_eq!(plural_s(2u64), "s");
    }

    #[test]
    fn quoting_leaves_plain_words_alone() {
        assert_eq!(shell_quote("./a.out"), "./a.out");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote(""), "''");
        let words: Vec<OsString> = vec!["python3".into(), "my sol.py".into()];
        assert_eq!(quote_command(&words), "python3 'my sol.py'");
    }
}
