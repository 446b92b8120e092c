//! The exact layout of a game's input, as its package's checktestdata grammar (`input.ctd`)
//! demands it: the tokens of a line separated by one space, no space at the start or the end
//! of a line, lines ended by `\n` alone, the last one too, and empty lines only where the
//! format has them (after each case of `gems`). A parsed input has that layout exactly when
//! its bytes are its canonical text ([`super::Instance::to_input`]); the first byte where they
//! differ is the error's position.

use crate::problem::input::InputError;

/// Checks that `text`, an input that parsed as `canonical`, is laid out exactly so.
pub fn check_layout(text: &[u8], canonical: &str) -> Result<(), InputError> {
    let canonical = canonical.as_bytes();
    let Some(at) = first_difference(text, canonical) else {
        return Ok(());
    };
    let before = &text[..at];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let column = at - line_start + 1;
    let at_line_start = at == line_start;
    let found = text.get(at).copied();
    let wanted = canonical.get(at).copied();
    let message = match (found, wanted) {
        (None, Some(b'\n')) => {
            "the last line has no line break: the format ends every line with one".to_string()
        }
        (None, _) => "the input ends early".to_string(),
        (Some(_), None) => format!(
            "expected end of input, found {} after the last line",
            describe(found)
        ),
        (Some(b' '), _) if at_line_start => {
            "the line starts with a space: the format has none there".to_string()
        }
        (Some(b' '), Some(b'\n')) => {
            "a space at the end of the line: the format has none there".to_string()
        }
        (Some(b' '), _) => "two spaces: the format has one space between tokens".to_string(),
        (Some(b'\t'), _) => "a tab: the format separates tokens with one space".to_string(),
        (Some(b'\r'), _) => {
            "a carriage return: the format's lines end with a line feed alone".to_string()
        }
        (Some(b'\n'), _) if at_line_start => {
            "an empty line, which the format has not here".to_string()
        }
        (Some(b'\xef'), _) if at == 0 => "a byte-order mark before the input".to_string(),
        (Some(_), Some(b'\n')) if at_line_start => {
            "expected an empty line here (the format has one after each case)".to_string()
        }
        (found, wanted) => format!("expected {}, found {}", describe(wanted), describe(found)),
    };
    Err(InputError {
        line,
        column,
        message,
    })
}

/// The first index where the two differ, `None` when they are equal.
fn first_difference(a: &[u8], b: &[u8]) -> Option<usize> {
    let common = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    (common < a.len().max(b.len())).then_some(common)
}

/// A byte as a message names it.
fn describe(byte: Option<u8>) -> String {
    match byte {
        None => "end of input".to_string(),
        Some(b' ') => "a space".to_string(),
        Some(b'\n') => "end of line".to_string(),
        Some(b'\t') => "a tab".to_string(),
        Some(b'\r') => "a carriage return".to_string(),
        Some(b) if b.is_ascii_graphic() => format!("{:?}", b as char),
        Some(b) => format!("the byte \\x{b:02X}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str, canonical: &str) -> (usize, usize, String) {
        let e = check_layout(text.as_bytes(), canonical).unwrap_err();
        (e.line, e.column, e.message)
    }

    #[test]
    fn every_departure_from_the_layout_is_named_where_it_is() {
        let canonical = "1 2\n3 4\n";
        assert!(check_layout(canonical.as_bytes(), canonical).is_ok());
        assert_eq!(error(" 1 2\n3 4\n", canonical).0, 1);
        assert!(
            error(" 1 2\n3 4\n", canonical)
                .2
                .contains("starts with a space")
        );
        assert_eq!(error("1  2\n3 4\n", canonical).1, 3);
        assert!(error("1  2\n3 4\n", canonical).2.contains("two spaces"));
        assert!(error("1\t2\n3 4\n", canonical).2.contains("a tab"));
        assert!(
            error("1 2 \n3 4\n", canonical)
                .2
                .contains("end of the line")
        );
        assert!(
            error("1 2\r\n3 4\n", canonical)
                .2
                .contains("carriage return")
        );
        assert_eq!(
            error("1 2\n3 4", canonical),
            (
                2,
                4,
                "the last line has no line break: the format ends every line with one".to_string()
            )
        );
        assert!(error("1 2\n\n3 4\n", canonical).2.contains("an empty line"));
        assert!(
            error("1 2\n3 4\n\n", canonical)
                .2
                .contains("after the last line")
        );
        assert!(
            error("1 2\n3\n", "1 2\n\n3\n")
                .2
                .contains("expected an empty line")
        );
    }
}
