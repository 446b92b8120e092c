//! Integers as testlib's `readLong` reads them (its `stringToLongLong`): an optional `-` and
//! decimal digits, no leading `+`, no leading zeros (`0` itself is fine, `00`, `007` and `-0`
//! are not), within the 64-bit range. Every refusal says what was found and why.

use super::Syntax;
use crate::text::{hex_bytes, is_invisible, show_char};

/// How many characters (or raw bytes) of a token a message shows.
const SHOWN_CHARS: usize = 24;

/// A token in double quotes, as [`crate::text::quote_bytes`] shows it: at most
/// `SHOWN_CHARS` characters.
pub(crate) fn quote(token: &[u8]) -> String {
    crate::text::quote_bytes(token, SHOWN_CHARS).text
}

/// The first thing in `token` (after an optional leading `-`) that is not an ASCII digit,
/// described for a message: `'.'`, `\xE2\x80\x8B`, `byte \xFF`.
fn first_non_digit(token: &[u8]) -> Option<String> {
    let body = token.strip_prefix(b"-").unwrap_or(token);
    let at = body.iter().position(|b| !b.is_ascii_digit())?;
    let rest = &body[at..];
    let chunk = rest.utf8_chunks().next()?;
    Some(match chunk.valid().chars().next() {
        Some(c) if is_invisible(c) => show_char(c),
        Some('\'') => "'\\''".to_string(),
        Some(c) => format!("'{c}'"),
        None => format!("byte {}", hex_bytes(&chunk.invalid()[..1])),
    })
}

/// Why a token is not an integer as testlib reads one, when a fixed phrase says it.
fn integer_error(token: &[u8]) -> Option<&'static str> {
    let digits = token.strip_prefix(b"-").unwrap_or(token);
    if token.starts_with("\u{FEFF}".as_bytes()) {
        Some("it starts with a UTF-8 byte-order mark, which the program must not print")
    } else if token.starts_with(b"+") {
        Some("a leading '+' is not allowed")
    } else if digits.is_empty() {
        Some("a minus sign needs digits after it")
    } else if !digits.iter().all(u8::is_ascii_digit) {
        None // described by first_non_digit
    } else if digits.len() > 1 && digits[0] == b'0' {
        Some("leading zeros are not allowed")
    } else if token == b"-0" {
        Some("minus zero is not allowed, write 0")
    } else {
        None
    }
}

/// One token read as an integer; the error is the reason alone (`leading zeros are not
/// allowed`), for the caller to put after the token.
pub fn read_integer(token: &[u8]) -> Result<i64, String> {
    if let Some(why) = integer_error(token) {
        return Err(why.to_string());
    }
    if let Some(what) = first_non_digit(token) {
        return Err(format!("{what} is not a digit"));
    }
    // An optional '-' and ASCII digits: valid UTF-8, so only overflow can fail.
    std::str::from_utf8(token)
        .ok()
        .and_then(|t| t.parse::<i64>().ok())
        .ok_or_else(|| "it does not fit in 64 bits".to_string())
}

/// The single integer an output holds, read with testlib's rules ([`Syntax::Testlib`]): its
/// blanks (space, tab, CR, LF) may surround it, a byte-order mark may start the output;
/// nothing else may be there. `duipai test`, `stress` and `duipai-checker` all judge with
/// this, so they always agree, and agree with a testlib checker: `0011` and `+12` are
/// presentation errors, never accepted as 11 and 12.
pub fn parse_answer(output: &[u8]) -> Result<i64, String> {
    parse_answer_with(output, Syntax::Testlib)
}

/// [`parse_answer`] with the blanks of `syntax`.
pub fn parse_answer_with(output: &[u8], syntax: Syntax) -> Result<i64, String> {
    parse_stream(&mut super::TokenStream::new(output, syntax))
}

/// [`parse_answer`] on an output read as a stream.
pub(crate) fn parse_stream(
    tokens: &mut super::TokenStream<impl std::io::Read>,
) -> Result<i64, String> {
    let Some(token) = tokens.next_token() else {
        return Err("empty output".to_string());
    };
    // The first token's fault comes first, as in testlib; how much else there was helps to
    // recognise the output (a sentence, a debug dump).
    let value = match read_integer(token) {
        Ok(value) => value,
        Err(why) => {
            let shown = quote(token);
            let more = tokens.count_rest();
            let tail = if more == 0 {
                String::new()
            } else {
                format!(" ({} tokens in all)", more + 1)
            };
            return Err(format!("expected an integer, found {shown}: {why}{tail}"));
        }
    };
    if let Some(extra) = tokens.next_token() {
        let shown = quote(extra);
        let more = tokens.count_rest();
        let tail = if more == 0 {
            String::new()
        } else {
            format!(" and {more} more token{}", if more == 1 { "" } else { "s" })
        };
        return Err(format!(
            "expected one integer, found {shown}{tail} after {value}: nothing may follow the answer"
        ));
    }
    Ok(value)
}
