//! The strict line-oriented scanner both input formats are read with, and its positioned errors.
//!
//! Layout rules shared by both problems: every line of the format holds exactly its tokens,
//! separated by spaces or tabs (runs allowed, also at the start and end of a line); a line ends
//! with `\n` or `\r\n`; after the last line only whitespace may follow. Everything is linear in
//! the input size and nothing panics: malformed bytes are reported, never indexed past.

use std::fmt;

use super::coverage::Coverage;

/// How many characters of an offending token a message shows.
const SHOWN_CHARS: usize = 20;

/// A rejected input: 1-based line and column of the offending spot, and what was expected there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl std::error::Error for InputError {}

/// What a value token turned out to be.
enum Number {
    Value(i64),
    /// Digits with an optional minus sign, but beyond what `i64` holds.
    Overflow,
    /// Anything that is not an integer in canonical form.
    NotInteger,
    /// Digits with a superfluous leading zero, like `007`.
    LeadingZero,
}

/// A cursor over the input bytes that knows its line and column.
pub struct Scanner<'a> {
    text: &'a [u8],
    pos: usize,
    line: usize,
    line_start: usize,
    /// The bounded values read so far ([`Scanner::bounded`], [`Scanner::record`]).
    coverage: Coverage,
}

fn is_blank(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

fn ends_token(b: u8) -> bool {
    is_blank(b) || b == b'\n' || b == b'\r'
}

impl<'a> Scanner<'a> {
    pub fn new(text: &'a [u8]) -> Self {
        Scanner {
            text,
            pos: 0,
            line: 1,
            line_start: 0,
            coverage: Coverage::default(),
        }
    }

    /// Reads an integer in `lo..=hi` as [`Scanner::integer`] does, and records it as a value
    /// of the bound called `bound` ([`Coverage`]).
    pub fn bounded(
        &mut self,
        bound: &'static str,
        expected: &str,
        missing: &str,
        lo: i64,
        hi: i64,
    ) -> Result<(i64, usize), InputError> {
        let read = self.integer(expected, missing, lo, hi)?;
        self.coverage.record(bound, lo, hi, read.0);
        Ok(read)
    }

    /// [`Scanner::bounded`] for a value read many times an input: the words of its message,
    /// `(expected, missing)`, are made by `words` only when a message is needed.
    pub fn bounded_with(
        &mut self,
        bound: &'static str,
        lo: i64,
        hi: i64,
        words: impl FnOnce() -> (String, String),
    ) -> Result<(i64, usize), InputError> {
        let read = self.integer_with(lo, hi, words)?;
        self.coverage.record(bound, lo, hi, read.0);
        Ok(read)
    }

    /// [`Scanner::integer`] for a value read many times an input: the words of its message,
    /// `(expected, missing)`, are made by `words` only when a message is needed. (Made for
    /// every value, "3 more integers" and the like were most of a large input's parse.)
    pub fn integer_with(
        &mut self,
        lo: i64,
        hi: i64,
        words: impl FnOnce() -> (String, String),
    ) -> Result<(i64, usize), InputError> {
        self.skip_blanks();
        let token = self.peek_token();
        if let Number::Value(v) = parse_number(token)
            && (lo..=hi).contains(&v)
        {
            let column = self.pos - self.line_start + 1;
            self.pos += token.len();
            return Ok((v, column));
        }
        let (expected, missing) = words();
        self.integer(&expected, &missing, lo, hi)
    }

    /// Records `value` of the bound called `bound`, which valid inputs keep within `lo..=hi`:
    /// for values checked beyond one read (a count of cases, a lower bound checked after the
    /// read).
    pub fn record(&mut self, bound: &'static str, lo: i64, hi: i64, value: i64) {
        self.coverage.record(bound, lo, hi, value);
    }

    /// The bounded values read so far.
    pub fn coverage(&self) -> &Coverage {
        &self.coverage
    }

    /// The scanner's current line (1-based).
    pub fn line(&self) -> usize {
        self.line
    }

    /// An error at the current position.
    pub fn error_here(&self, message: String) -> InputError {
        self.error_at(self.pos, message)
    }

    /// An error at byte offset `pos` of the current line.
    fn error_at(&self, pos: usize, message: String) -> InputError {
        InputError {
            line: self.line,
            column: pos - self.line_start + 1,
            message,
        }
    }

    fn skip_blanks(&mut self) {
        while self.pos < self.text.len() && is_blank(self.text[self.pos]) {
            self.pos += 1;
        }
    }

    /// Describes what sits at the current position, for a "found ..." clause.
    pub fn found_here(&self) -> String {
        let rest = &self.text[self.pos..];
        match rest {
            [] if self.text.is_empty() => "end of input (the input is empty)".to_string(),
            [] => "end of input".to_string(),
            [b'\n', ..] | [b'\r', b'\n', ..] => "end of line".to_string(),
            [b'\r', ..] => "a carriage return not followed by a line feed".to_string(),
            [b' ', ..] => "a space".to_string(),
            [b'\t', ..] => "a tab".to_string(),
            _ => show_token(self.peek_token()),
        }
    }

    fn peek_token(&self) -> &'a [u8] {
        let len = self.text[self.pos..]
            .iter()
            .position(|&b| ends_token(b))
            .unwrap_or(self.text.len() - self.pos);
        &self.text[self.pos..self.pos + len]
    }

    /// The next token on this line; on end of line or input, an error built from `missing`.
    fn token(&mut self, missing: &str) -> Result<(usize, &'a [u8]), InputError> {
        self.skip_blanks();
        let token = self.peek_token();
        if token.is_empty() {
            return Err(self.error_here(format!("expected {missing}, found {}", self.found_here())));
        }
        let start = self.pos;
        self.pos += token.len();
        Ok((start, token))
    }

    /// Reads an integer in `lo..=hi` and returns it with its column. `expected` names what
    /// belongs here ("an integer 0..=100000"); `missing` is said instead when the line has ended.
    pub fn integer(
        &mut self,
        expected: &str,
        missing: &str,
        lo: i64,
        hi: i64,
    ) -> Result<(i64, usize), InputError> {
        let (start, token) = self.token(missing)?;
        let number = parse_number(token);
        if let Number::Value(v) = number
            && (lo..=hi).contains(&v)
        {
            return Ok((v, start - self.line_start + 1));
        }
        // Quoted only for the message: quoting every integer read cost a parse most of its time.
        let found = show_token(token);
        let message = match number {
            Number::Value(v) if v < 0 && lo >= 0 => format!("expected {expected}, found {found}"),
            Number::Value(_) | Number::Overflow => {
                format!("expected {expected}, found {found} (out of range)")
            }
            Number::LeadingZero => {
                format!("expected {expected} without leading zeros, found {found}")
            }
            Number::NotInteger => format!("expected {expected}, found {found}"),
        };
        Err(self.error_at(start, message))
    }

    /// Reads one whole token as raw bytes, with its starting column.
    pub fn word(&mut self, missing: &str) -> Result<(usize, &'a [u8]), InputError> {
        let (start, token) = self.token(missing)?;
        Ok((start - self.line_start + 1, token))
    }

    /// An error at a 1-based column of the current line.
    pub fn error_at_column(&self, column: usize, message: String) -> InputError {
        InputError {
            line: self.line,
            column,
            message,
        }
    }

    /// Requires the end of the current line (or of the input), then moves to the next line.
    /// `what` completes "expected end of line after ...".
    pub fn end_line(&mut self, what: &str) -> Result<(), InputError> {
        self.skip_blanks();
        match &self.text[self.pos..] {
            [] => Ok(()),
            [b'\n', ..] => {
                self.newline(1);
                Ok(())
            }
            [b'\r', b'\n', ..] => {
                self.newline(2);
                Ok(())
            }
            _ => Err(self.error_here(format!(
                "expected end of line after {what}, found {}",
                self.found_here()
            ))),
        }
    }

    fn newline(&mut self, len: usize) {
        self.pos += len;
        self.line += 1;
        self.line_start = self.pos;
    }

    /// Skips lines holding nothing but spaces and tabs.
    pub fn skip_blank_lines(&mut self) {
        loop {
            let mut at = self.pos;
            while at < self.text.len() && is_blank(self.text[at]) {
                at += 1;
            }
            match &self.text[at..] {
                [b'\n', ..] => {
                    self.pos = at;
                    self.newline(1);
                }
                [b'\r', b'\n', ..] => {
                    self.pos = at;
                    self.newline(2);
                }
                _ => return,
            }
        }
    }

    /// The tokens of the rest of the current line, without moving.
    pub fn line_tokens(&self) -> Vec<&'a [u8]> {
        let end = self.text[self.pos..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(self.text.len(), |i| self.pos + i);
        self.text[self.pos..end]
            .split(|&b| is_blank(b) || b == b'\r')
            .filter(|t| !t.is_empty())
            .collect()
    }

    /// Moves past the end of the current line.
    pub fn skip_line(&mut self) {
        match self.text[self.pos..].iter().position(|&b| b == b'\n') {
            Some(i) => {
                self.pos += i;
                self.newline(1);
            }
            None => self.pos = self.text.len(),
        }
    }

    /// Whether only whitespace remains.
    pub fn at_end(&self) -> bool {
        self.text[self.pos..]
            .iter()
            .all(|&b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
    }

    /// Requires that only whitespace (including blank lines) remains.
    pub fn finish(&mut self) -> Result<(), InputError> {
        loop {
            match self.text.get(self.pos) {
                None => return Ok(()),
                Some(b'\n') => self.newline(1),
                Some(b'\r' | b' ' | b'\t') => self.pos += 1,
                Some(_) => {
                    return Err(self.error_here(format!(
                        "expected end of input, found {}",
                        self.found_here()
                    )));
                }
            }
        }
    }
}

fn parse_number(token: &[u8]) -> Number {
    let (negative, digits) = match token {
        [b'-', rest @ ..] => (true, rest),
        _ => (false, token),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return Number::NotInteger;
    }
    if digits.len() > 1 && digits[0] == b'0' || negative && digits == b"0" {
        return Number::LeadingZero;
    }
    let mut value: i64 = 0;
    for &d in digits {
        let digit = i64::from(d - b'0');
        let next = value.checked_mul(10).and_then(|v| {
            if negative {
                v.checked_sub(digit)
            } else {
                v.checked_add(digit)
            }
        });
        match next {
            Some(v) => value = v,
            None => return Number::Overflow,
        }
    }
    Number::Value(value)
}

/// Quotes a token for a message ([`crate::text::quote_bytes`]): at most [`SHOWN_CHARS`]
/// characters, then its length, with a note when it is not text at all or starts with a
/// byte-order mark.
pub(crate) fn show_token(token: &[u8]) -> String {
    let quoted = crate::text::quote_bytes(token, SHOWN_CHARS);
    let mut shown = quoted.text;
    if quoted.cut {
        shown.push_str(&format!(" ({} bytes)", token.len()));
    }
    if quoted.binary {
        shown.push_str(" (binary data, not text)");
    }
    if token.starts_with("\u{feff}".as_bytes()) {
        shown.push_str(" (the text starts with a byte-order mark: save it as UTF-8 without one)");
    }
    shown
}

/// "1 more integer", "3 more integers".
pub(crate) fn more_integers(count: usize) -> String {
    plural(count, "more integer")
}

/// "1 integer", "3 integers", and the like.
pub(crate) fn plural(count: usize, noun: &str) -> String {
    crate::text::plural(count as u64, noun)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shows_long_and_binary_tokens_briefly() {
        assert_eq!(show_token(b"abc"), "\"abc\"");
        let long = show_token(&[b'7'; 1000]);
        assert_eq!(long, format!("\"{}…\" (1000 bytes)", "7".repeat(20)));
        assert_eq!(
            show_token(b"\xff\x00"),
            "\"\\xFF\\x00\" (binary data, not text)"
        );
        // No Rust escapes: a byte-order mark is shown as its bytes and named, accents stay as
        // they are.
        assert_eq!(
            show_token("\u{feff}5é".as_bytes()),
            "\"\\xEF\\xBB\\xBF5é\" (the text starts with a byte-order mark: save it as \
             UTF-8 without one)"
        );
    }

    #[test]
    fn numbers_are_canonical_decimal() {
        assert!(matches!(parse_number(b"0"), Number::Value(0)));
        assert!(matches!(parse_number(b"-12"), Number::Value(-12)));
        assert!(matches!(parse_number(b"007"), Number::LeadingZero));
        assert!(matches!(parse_number(b"-0"), Number::LeadingZero));
        assert!(matches!(parse_number(b"+5"), Number::NotInteger));
        assert!(matches!(parse_number(b"5x"), Number::NotInteger));
        assert!(matches!(parse_number(b"-"), Number::NotInteger));
        assert!(matches!(
            parse_number(b"9223372036854775807"),
            Number::Value(i64::MAX)
        ));
        assert!(matches!(
            parse_number(b"9223372036854775808"),
            Number::Overflow
        ));
        assert!(matches!(
            parse_number(b"-9223372036854775808"),
            Number::Value(i64::MIN)
        ));
        assert!(matches!(
            parse_number(b"99999999999999999999"),
            Number::Overflow
        ));
    }
}
