//! Small text helpers every layer shares: plurals, indentation, the one way messages quote
//! what users and programs wrote, shell quoting, rates, and "did you mean" suggestions.

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

/// `s` in double quotes for a message, as [`quote_bytes`] shows it, whole; a leading UTF-8
/// byte-order mark is named.
pub fn quote(s: &str) -> String {
    if let Some(rest) = s.strip_prefix('\u{feff}') {
        return format!("a UTF-8 byte-order mark then {}", quote(rest));
    }
    quote_bytes(s.as_bytes(), usize::MAX).text
}

/// A token as a message shows it ([`quote_bytes`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quoted {
    /// In double quotes, with `…` before the closing quote when cut.
    pub text: String,
    /// Only the first characters are shown.
    pub cut: bool,
    /// It holds bytes that are not UTF-8, or control characters other than line ends and
    /// tabs: binary data rather than text.
    pub binary: bool,
}

/// Characters that print as nothing or as blank space other than a plain space: a message
/// shows them as their UTF-8 bytes (`\xE2\x80\x8B`), or a reader would see `"2"` and wonder
/// what is wrong with it.
pub fn is_invisible(c: char) -> bool {
    c.is_control()
        || (c.is_whitespace() && c != ' ')
        || matches!(
            c,
            '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{180E}' | '\u{200B}'..='\u{200F}'
                | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}'
        )
}

/// Bytes in lowercase hexadecimal, two digits each: how keys and hashes are written.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Bytes as `\xNN` each.
pub fn hex_bytes(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("\\x{b:02X}")).collect()
}

/// One character as a message shows it: itself when visible, else its UTF-8 bytes.
pub fn show_char(c: char) -> String {
    if is_invisible(c) {
        hex_bytes(c.encode_utf8(&mut [0; 4]).as_bytes())
    } else {
        c.to_string()
    }
}

/// The one way messages quote what a user or a program wrote: in double quotes, as a person
/// would type it. Visible characters stay as they are (no Rust escaping: `é` is `é`), `"` and
/// `\` take a backslash, line ends and tabs are `\n`, `\r`, `\t`, other invisible characters
/// and bytes that are not UTF-8 are `\xNN`; at most `max_chars` of them, then `…`.
pub fn quote_bytes(bytes: &[u8], max_chars: usize) -> Quoted {
    let mut text = String::from("\"");
    let mut shown = 0;
    let mut binary = false;
    let mut cut = false;
    'chunks: for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if shown == max_chars {
                cut = true;
                break 'chunks;
            }
            match c {
                '"' => text.push_str("\\\""),
                '\\' => text.push_str("\\\\"),
                '\n' => text.push_str("\\n"),
                '\r' => text.push_str("\\r"),
                '\t' => text.push_str("\\t"),
                c => {
                    binary |= c.is_control();
                    text.push_str(&show_char(c));
                }
            }
            shown += 1;
        }
        for &b in chunk.invalid() {
            if shown == max_chars {
                cut = true;
                break 'chunks;
            }
            binary = true;
            text.push_str(&hex_bytes(&[b]));
            shown += 1;
        }
    }
    if cut {
        text.push('…');
    }
    text.push('"');
    Quoted { text, cut, binary }
}

/// A size in bytes for people: `512 B`, `683.4 KiB`, `64.0 MiB`.
pub fn bytes(count: u64) -> String {
    const KIB: f64 = 1024.0;
    let n = count as f64;
    if count < 1024 {
        format!("{count} B")
    } else if n < KIB * KIB {
        format!("{:.1} KiB", n / KIB)
    } else if n < KIB * KIB * KIB {
        format!("{:.1} MiB", n / (KIB * KIB))
    } else {
        format!("{:.1} GiB", n / (KIB * KIB * KIB))
    }
}

/// Every line of `text` indented by four spaces.
pub fn indent(text: &str) -> String {
    text.lines().map(|l| format!("    {l}\n")).collect()
}

/// A rate (`cases/s`) with two significant digits below 10 (`0.46`, `4.6`) and whole numbers
/// from 10 on (`46`, `4621`), so that a slow program's rate never shows as `0`.
pub fn rate(per_second: f64) -> String {
    if !per_second.is_finite() || per_second <= 0.0 {
        return "0".to_string();
    }
    if per_second >= 9.95 {
        return format!("{per_second:.0}");
    }
    let decimals = (1 - per_second.log10().floor() as i32).max(1) as usize;
    let text = format!("{per_second:.decimals$}");
    // 0.0996 rounds to "0.100": three significant digits, one too many.
    match text.parse::<f64>() {
        Ok(shown) if decimals > 1 && shown >= 10f64.powi(1 - decimals as i32) * 10.0 => {
            format!("{per_second:.prec$}", prec = decimals - 1)
        }
        _ => text,
    }
}

/// The number of single-character insertions, deletions, substitutions and swaps of two
/// neighbours that turn `a` into `b` (the optimal string alignment distance), so that the
/// common typo `nio` for `noi` is one edit away, not two.
pub fn edit_distance(a: &str, b: &str) -> usize {
    strsim::osa_distance(a, b)
}

/// The candidate closest to `word` within `max` edits (the first of equally close ones), for
/// a "did you mean" hint; never `word` itself. Short words allow fewer edits, at most half
/// their length, so that `x` suggests nothing rather than any one-letter name.
pub fn closest<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    max: usize,
) -> Option<&'a str> {
    let max = max.min(word.chars().count() / 2);
    candidates
        .into_iter()
        .filter(|c| *c != word)
        .map(|c| (edit_distance(word, c), c))
        .filter(|(d, _)| *d <= max)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Quotes a word for the shell when it needs it: a POSIX shell, or on Windows cmd and PowerShell.
pub fn shell_quote(word: &str) -> String {
    // Windows' shells (cmd, PowerShell) read `\` as itself, a path's separator, and quote
    // with double quotes.
    let separator = if cfg!(windows) { "\\" } else { "" };
    let safe = !word.is_empty()
        && word.chars().all(|c| {
            c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c) || separator.contains(c)
        });
    if safe {
        word.to_string()
    } else if cfg!(windows) {
        format!("\"{}\"", word.replace('"', "\\\""))
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

/// What a sanitizer's report has in lines that contain these: the error, the bad access's
/// own frame (`#0 ... in main a.cpp:3`, found after the error), UBSan's `runtime error:` lines
/// and the one-line summary. The rest (the stack's other frames, the shadow-memory legend at
/// the end) is what the last lines would show instead.
const SANITIZER_LINES: [&str; 7] = [
    "ERROR: AddressSanitizer",
    "ERROR: LeakSanitizer",
    "ERROR: MemorySanitizer",
    "ERROR: HWAddressSanitizer",
    "WARNING: ThreadSanitizer",
    "runtime error: ",
    "SUMMARY: ",
];

/// The lines of a sanitizer report worth showing, in order, or none if there is no report.
fn sanitizer_report(lines: &[&str]) -> Vec<usize> {
    let mut picked = Vec::new();
    let mut want_frame = false;
    for (i, line) in lines.iter().enumerate() {
        if SANITIZER_LINES.iter().any(|marker| line.contains(marker)) {
            want_frame = line.contains("ERROR: ") || line.contains("WARNING: ");
            picked.push(i);
        } else if want_frame && line.trim_start().starts_with("#0 ") {
            want_frame = false;
            picked.push(i);
        }
    }
    picked
}

/// A program's stderr as reports show it: its last few lines, or, when it holds a sanitizer's
/// report (AddressSanitizer and its kin, UBSan), that report's key lines; each line cut to a
/// readable length, as text (bytes that are not UTF-8 become U+FFFD); empty when it wrote
/// nothing.
pub fn stderr_tail(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    let lines: Vec<&str> = text.lines().collect();
    let mut shown = sanitizer_report(&lines);
    shown.truncate(STDERR_LINES);
    if shown.is_empty() {
        shown = (lines.len().saturating_sub(STDERR_LINES)..lines.len()).collect();
    }
    let mut out = String::new();
    if shown.len() < lines.len() {
        out.push_str("…\n");
    }
    for &i in &shown {
        let line = lines[i];
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

/// The program's file name, for headings and messages; for an interpreter, with the file of
/// its script (`python3 sol.py`, not `python3`).
pub fn program_name(program: &[std::ffi::OsString]) -> String {
    let file_name = |word: &std::ffi::OsString| {
        std::path::Path::new(word)
            .file_name()
            .unwrap_or(word.as_os_str())
            .to_string_lossy()
            .into_owned()
    };
    let Some(first) = program.first() else {
        return String::new();
    };
    let name = file_name(first);
    let interpreter = [
        "python", "pypy", "node", "ruby", "perl", "sh", "bash", "php",
    ]
    .iter()
    .any(|i| {
        name.strip_prefix(i)
            .is_some_and(|v| v.chars().all(|c| c.is_ascii_digit() || c == '.'))
    });
    let script = program[1..]
        .iter()
        .find(|w| !w.as_encoded_bytes().starts_with(b"-"))
        .filter(|w| std::path::Path::new(w).is_file());
    match script {
        Some(script) if interpreter => format!("{name} {}", file_name(script)),
        _ => name,
    }
}

/// File-name order with digit runs compared as numbers, so `chess2.in` comes before
/// `chess10.in` (NOI packs are not zero-padded); ties fall back to plain byte order.
pub fn natural_order(a: &std::ffi::OsStr, b: &std::ffi::OsStr) -> std::cmp::Ordering {
    /// Digit runs before other text (as in ASCII), numbers by value, text by bytes.
    #[derive(PartialEq, Eq, PartialOrd, Ord)]
    enum Chunk<'a> {
        Number { digits: usize, value: &'a [u8] },
        Text(&'a [u8]),
    }
    fn chunks(s: &[u8]) -> Vec<Chunk<'_>> {
        s.chunk_by(|x, y| x.is_ascii_digit() == y.is_ascii_digit())
            .map(|c| {
                if c[0].is_ascii_digit() {
                    let value = trim_zeros(c);
                    Chunk::Number {
                        digits: value.len(),
                        value,
                    }
                } else {
                    Chunk::Text(c)
                }
            })
            .collect()
    }
    let (ab, bb) = (a.as_encoded_bytes(), b.as_encoded_bytes());
    chunks(ab).cmp(&chunks(bb)).then_with(|| ab.cmp(bb))
}

fn trim_zeros(digits: &[u8]) -> &[u8] {
    let first = digits
        .iter()
        .position(|&d| d != b'0')
        .unwrap_or(digits.len());
    &digits[first..]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_keep_two_significant_digits_below_ten() {
        assert_eq!(rate(0.46), "0.46");
        assert_eq!(rate(0.0123), "0.012");
        assert_eq!(rate(4.62), "4.6");
        assert_eq!(rate(0.996), "1.0");
        assert_eq!(rate(0.0996), "0.10");
        assert_eq!(rate(9.97), "10");
        assert_eq!(rate(46.4), "46");
        assert_eq!(rate(4621.7), "4622");
        assert_eq!(rate(0.0), "0");
    }

    #[test]
    fn close_names_are_suggested() {
        assert_eq!(edit_distance("chesss", "chess"), 1);
        assert_eq!(edit_distance("generater", "generator"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("nio", "noi"), 1);
        let games = ["chess", "chessboard", "gems"];
        assert_eq!(closest("chesss", games, 2), Some("chess"));
        assert_eq!(closest("gem", games, 2), Some("gems"));
        assert_eq!(closest("chess", games, 2), None);
        assert_eq!(closest("avg", games, 2), None);
        assert_eq!(closest("x", ["n", "m"], 2), None);
        assert_eq!(closest("sed", ["seed", "save"], 2), Some("seed"));
    }

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
    fn a_sanitizer_report_shows_its_key_lines() {
        let report = "==7==ERROR: AddressSanitizer: global-buffer-overflow on address 0x5\n\
                      WRITE of size 4 at 0x5 thread T0\n    #0 0x4 in main /w/oob.cpp:3\n\
                      \x20   #1 0x7 in __libc_start_main\n\
                      SUMMARY: AddressSanitizer: global-buffer-overflow /w/oob.cpp:3 in main\n\
                      Shadow bytes around the buggy address:\n  Heap left redzone: fa\n\
                      \x20 Freed heap region: fd\n  Stack left redzone: f1\n==7==ABORTING\n";
        assert_eq!(
            stderr_tail(report.as_bytes()),
            "…\n==7==ERROR: AddressSanitizer: global-buffer-overflow on address 0x5\n\
             \x20   #0 0x4 in main /w/oob.cpp:3\n\
             SUMMARY: AddressSanitizer: global-buffer-overflow /w/oob.cpp:3 in main\n"
        );
        let ubsan = "a.cpp:5:9: runtime error: signed integer overflow: 2147483647 + 1\n";
        assert_eq!(stderr_tail(ubsan.as_bytes()), ubsan);
    }

    #[test]
    fn quotes_read_like_text() {
        assert_eq!(quote("abc"), "\"abc\"");
        assert_eq!(quote("é 对拍"), "\"é 对拍\"");
        assert_eq!(quote("a\tb\x01"), "\"a\\tb\\x01\"");
        assert_eq!(quote("\u{feff}12"), "a UTF-8 byte-order mark then \"12\"");
        assert_eq!(quote("a b\u{200b}"), "\"a b\\xE2\\x80\\x8B\"");
    }

    #[test]
    fn tokens_are_cut_and_binary_is_told_apart() {
        let q = quote_bytes(b"1234567", 4);
        assert_eq!(q.text, "\"1234…\"");
        assert!(q.cut && !q.binary);
        let q = quote_bytes(b"\xff\x00\"\\", 10);
        assert_eq!(q.text, "\"\\xFF\\x00\\\"\\\\\"");
        assert!(!q.cut && q.binary);
        let q = quote_bytes("é\t\n".as_bytes(), 3);
        assert_eq!(q.text, "\"é\\t\\n\"");
        assert!(!q.cut && !q.binary);
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
