//! Splitting a program's output into tokens the way a checker protocol does: which bytes
//! separate tokens, and whether a leading byte-order mark is skipped.

/// Whose reading rules apply to an output.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Syntax {
    /// testlib's: tokens are separated by space, tab, CR and LF only (its `isBlanks`), so a
    /// form feed or a vertical tab is part of a token; a UTF-8 byte-order mark at the very
    /// start of the output is skipped.
    #[default]
    Testlib,
    /// The ICPC default output validator's: every ASCII whitespace byte separates tokens
    /// (C's `isspace`: space, tab, LF, vertical tab, form feed, CR); nothing is skipped.
    Icpc,
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

impl Syntax {
    /// Whether `b` separates tokens.
    pub fn is_blank(self, b: u8) -> bool {
        match self {
            Syntax::Testlib => matches!(b, b' ' | b'\t' | b'\r' | b'\n'),
            Syntax::Icpc => matches!(b, b' ' | b'\t' | b'\n' | b'\x0B' | b'\x0C' | b'\r'),
        }
    }

    /// The tokens of `output`, in order.
    pub fn tokens(self, output: &[u8]) -> impl Iterator<Item = &[u8]> {
        let body = match self {
            Syntax::Testlib => output.strip_prefix(BOM).unwrap_or(output),
            Syntax::Icpc => output,
        };
        body.split(move |&b| self.is_blank(b))
            .filter(|t| !t.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(syntax: Syntax, output: &[u8]) -> Vec<&[u8]> {
        syntax.tokens(output).collect()
    }

    #[test]
    fn testlib_blanks_are_four_bytes_and_a_leading_bom_is_skipped() {
        assert_eq!(
            tokens(Syntax::Testlib, b"\xEF\xBB\xBF 1\t2\r\n3\n"),
            [b"1", b"2", b"3"]
        );
        assert_eq!(tokens(Syntax::Testlib, b"\x0C5"), [b"\x0C5"]);
        assert_eq!(tokens(Syntax::Testlib, b"5\x0B"), [b"5\x0B"]);
        // Only at the very start.
        assert_eq!(
            tokens(Syntax::Testlib, b"1 \xEF\xBB\xBF2"),
            [&b"1"[..], b"\xEF\xBB\xBF2"]
        );
    }

    #[test]
    fn icpc_blanks_are_every_ascii_space() {
        assert_eq!(tokens(Syntax::Icpc, b"\x0C5\x0B 6"), [b"5", b"6"]);
        assert_eq!(tokens(Syntax::Icpc, b"\xEF\xBB\xBF5"), [b"\xEF\xBB\xBF5"]);
    }
}
