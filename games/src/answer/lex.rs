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

/// The tokens of an output read as a stream, a buffer's worth at a time: an output of any
/// size is compared in constant memory. Each token borrows the stream until the next call.
pub struct TokenStream<R> {
    reader: R,
    buf: Vec<u8>,
    /// The unread bytes are `buf[start..end]`.
    start: usize,
    end: usize,
    eof: bool,
    syntax: Syntax,
    /// Whether the byte-order mark check at the very start is still to be made.
    at_start: bool,
    /// Whether the last token was longer than [`MAX_TOKEN`] and only its start is shown.
    cut: bool,
}

/// The longest token a stream holds: a longer one (a flood with no blank in it) is read to
/// its end but only its start kept, and it matches nothing.
pub const MAX_TOKEN: usize = 16 * 1024 * 1024;

/// How much a stream reads at a time.
const CHUNK: usize = 64 * 1024;

impl<R: std::io::Read> TokenStream<R> {
    pub fn new(reader: R, syntax: Syntax) -> TokenStream<R> {
        TokenStream {
            reader,
            buf: Vec::new(),
            start: 0,
            end: 0,
            eof: false,
            syntax,
            at_start: true,
            cut: false,
        }
    }

    /// Whether the token last returned was cut to [`MAX_TOKEN`] bytes.
    pub fn was_cut(&self) -> bool {
        self.cut
    }

    /// Reads more, keeping the unread bytes; `false` at the end of the output (a read error
    /// ends it too: what was read is what the program wrote, as far as anyone can tell).
    fn fill(&mut self) -> bool {
        if self.eof {
            return false;
        }
        if self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        if self.end + CHUNK > self.buf.len() {
            self.buf.resize(self.end + CHUNK, 0);
        }
        loop {
            match self.reader.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    return false;
                }
                Ok(n) => {
                    self.end += n;
                    return true;
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => {
                    self.eof = true;
                    return false;
                }
            }
        }
    }

    /// The next token, or `None` at the end of the output.
    pub fn next_token(&mut self) -> Option<&[u8]> {
        self.next_with_cut().map(|(token, _)| token)
    }

    /// The next token, and whether it was cut to [`MAX_TOKEN`] bytes.
    pub fn next_with_cut(&mut self) -> Option<(&[u8], bool)> {
        if self.at_start {
            self.at_start = false;
            while self.end - self.start < BOM.len() && self.fill() {}
            if self.syntax == Syntax::Testlib && self.buf[self.start..self.end].starts_with(BOM) {
                self.start += BOM.len();
            }
        }
        loop {
            while self.start < self.end && self.syntax.is_blank(self.buf[self.start]) {
                self.start += 1;
            }
            if self.start < self.end {
                break;
            }
            if !self.fill() {
                return None;
            }
        }
        self.cut = false;
        let mut at = self.start;
        loop {
            while at < self.end && !self.syntax.is_blank(self.buf[at]) {
                at += 1;
            }
            if at < self.end {
                break;
            }
            if at - self.start >= MAX_TOKEN {
                self.cut = true;
                let token = self.start..self.start + MAX_TOKEN;
                self.skip_token();
                return Some((&self.buf[token], true));
            }
            let offset = at - self.start;
            if !self.fill() {
                at = self.start + offset;
                break;
            }
            at = self.start + offset;
        }
        let token = self.start..at;
        self.start = at;
        Some((&self.buf[token], false))
    }

    /// Reads past the rest of a token cut at [`MAX_TOKEN`], keeping its start in the buffer
    /// (at `start`) and dropping what follows it.
    fn skip_token(&mut self) {
        let keep_end = self.start + MAX_TOKEN;
        let mut at = keep_end;
        loop {
            while at < self.end && !self.syntax.is_blank(self.buf[at]) {
                at += 1;
            }
            if at < self.end {
                // Shift the rest of the buffer after the kept start, so the kept bytes stay
                // readable until the next call.
                self.buf.copy_within(at..self.end, keep_end);
                self.end = keep_end + (self.end - at);
                self.start = keep_end;
                return;
            }
            // Drop the part read so far and read more into its place.
            self.end = keep_end;
            at = keep_end;
            if self.eof {
                self.start = keep_end;
                return;
            }
            if self.end + CHUNK > self.buf.len() {
                self.buf.resize(self.end + CHUNK, 0);
            }
            match self.reader.read(&mut self.buf[self.end..]) {
                Ok(0) | Err(_) => self.eof = true,
                Ok(n) => self.end += n,
            }
        }
    }

    /// How many tokens are left; reads them all.
    pub fn count_rest(&mut self) -> usize {
        let mut n = 0;
        while self.next_token().is_some() {
            n += 1;
        }
        n
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

    /// The stream's tokens, read through a reader that hands out `step` bytes at a time.
    fn streamed(syntax: Syntax, output: &[u8], step: usize) -> Vec<Vec<u8>> {
        struct Trickle<'a>(&'a [u8], usize);
        impl std::io::Read for Trickle<'_> {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                let n = self.0.len().min(self.1).min(buf.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let mut stream = TokenStream::new(Trickle(output, step), syntax);
        let mut out = Vec::new();
        while let Some(t) = stream.next_token() {
            out.push(t.to_vec());
        }
        out
    }

    #[test]
    fn a_stream_reads_the_tokens_the_slice_does_however_it_arrives() {
        let long = "7".repeat(200_000);
        let outputs: Vec<Vec<u8>> = vec![
            b"\xEF\xBB\xBF 1\t2\r\n3\n".to_vec(),
            b"\xEF\xBB".to_vec(),
            b"".to_vec(),
            b"  \n".to_vec(),
            b"\x0C5\x0B 6".to_vec(),
            format!("1 {long} 2\n{long}").into_bytes(),
        ];
        for output in &outputs {
            for syntax in [Syntax::Testlib, Syntax::Icpc] {
                let want: Vec<Vec<u8>> = syntax.tokens(output).map(<[u8]>::to_vec).collect();
                for step in [1, 2, 3, 7, 1 << 20] {
                    assert_eq!(streamed(syntax, output, step), want, "step {step}");
                }
            }
        }
    }

    #[test]
    fn a_token_past_the_longest_kept_is_cut_and_the_next_one_still_read() {
        let mut output = vec![b'7'; MAX_TOKEN + 3 * CHUNK + 5];
        output.extend_from_slice(b" 12\n");
        let mut stream = TokenStream::new(&output[..], Syntax::Testlib);
        assert_eq!(stream.next_token().map(<[u8]>::len), Some(MAX_TOKEN));
        assert!(stream.was_cut());
        assert_eq!(stream.next_token(), Some(&b"12"[..]));
        assert!(!stream.was_cut());
        assert_eq!(stream.next_token(), None);
    }

    #[test]
    fn icpc_blanks_are_every_ascii_space() {
        assert_eq!(tokens(Syntax::Icpc, b"\x0C5\x0B 6"), [b"5", b"6"]);
        assert_eq!(tokens(Syntax::Icpc, b"\xEF\xBB\xBF5"), [b"\xEF\xBB\xBF5"]);
    }
}
