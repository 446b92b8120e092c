//! Bounded views of texts of any size: the first lines, the lines around the first
//! difference between two texts, and the last lines, each line cut to a screen's width, read
//! as a stream so that a 64 MiB output costs a few kilobytes to show.
//!
//! Reports, saved sidecars and JSON fields carry these excerpts, never whole outputs; the
//! full texts stay in the files they were read from or saved to.

use std::collections::VecDeque;
use std::hash::Hasher;
use std::io::{self, BufRead, BufReader, Read};

/// Bytes of a shown line kept; the rest of a longer line is counted, not kept.
pub const LINE_BYTES: usize = 160;
/// Lines shown from the start of a text.
const HEAD: usize = 3;
/// Lines shown before and from the first difference.
const BEFORE: usize = 2;
const FROM: usize = 3;
/// Lines shown from the end of a text.
const TAIL: usize = 2;
/// A text of at most this many lines is shown whole (each line still cut at [`LINE_BYTES`]):
/// a board, or the answers of a file of cases, reads better whole than in pieces.
pub const WHOLE_LINES: usize = 30;

/// One line of a text as an excerpt keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// 0-based line number.
    pub number: u64,
    /// Its first [`LINE_BYTES`] bytes (without the line break), bytes that are not UTF-8
    /// replaced.
    pub text: String,
    /// Bytes of the line not kept.
    pub cut: u64,
}

/// Some lines of a text, and how large the text is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Excerpt {
    /// The lines kept, in order.
    pub lines: Vec<Line>,
    pub total_lines: u64,
    pub total_bytes: u64,
}

/// Two texts compared line by line, for showing where they differ.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Compared {
    pub expected: Excerpt,
    pub actual: Excerpt,
    /// The first line (0-based) that differs, ignoring blanks at the ends of lines; `None`
    /// when every line is the same.
    pub first_difference: Option<u64>,
}

/// A line as the scanner reads it: its start, its length and a hash of its content without
/// trailing blanks.
struct Scanned {
    head: Vec<u8>,
    len: u64,
    hash: u64,
}

/// Reads a text line by line without ever holding a whole line.
struct Scanner<R> {
    reader: BufReader<R>,
    number: u64,
    bytes: u64,
    done: bool,
}

impl<R: Read> Scanner<R> {
    fn new(reader: R) -> Scanner<R> {
        Scanner {
            reader: BufReader::with_capacity(64 * 1024, reader),
            number: 0,
            bytes: 0,
            done: false,
        }
    }

    /// The next line, or `None` at the end. A read error ends the text there.
    fn next_line(&mut self) -> Option<Scanned> {
        if self.done {
            return None;
        }
        let mut line = Scanned {
            head: Vec::new(),
            len: 0,
            hash: 0,
        };
        let mut hasher = std::hash::DefaultHasher::new();
        let mut blanks: u64 = 0;
        let mut any = false;
        loop {
            let chunk = match self.reader.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => &[],
            };
            if chunk.is_empty() {
                self.done = true;
                if !any {
                    return None;
                }
                break;
            }
            any = true;
            let end = memchr::memchr(b'\n', chunk);
            let body = &chunk[..end.unwrap_or(chunk.len())];
            let room = LINE_BYTES.saturating_sub(line.head.len());
            line.head.extend_from_slice(&body[..room.min(body.len())]);
            // Blanks are hashed (each as a space) only once something follows them on the
            // line; everything else goes to the hash a run at a time.
            let is_blank = |b: u8| matches!(b, b' ' | b'\t' | b'\r');
            let mut at = 0;
            while at < body.len() {
                let blank = is_blank(body[at]);
                let run = body[at..]
                    .iter()
                    .position(|&b| is_blank(b) != blank)
                    .unwrap_or(body.len() - at);
                if blank {
                    blanks += run as u64;
                } else {
                    write_spaces(&mut hasher, blanks);
                    blanks = 0;
                    hasher.write(&body[at..at + run]);
                }
                at += run;
            }
            line.len += body.len() as u64;
            let used = body.len() + usize::from(end.is_some());
            self.reader.consume(used);
            self.bytes += used as u64;
            if end.is_some() {
                break;
            }
        }
        line.hash = hasher.finish();
        self.number += 1;
        Some(line)
    }
}

/// `count` spaces into `hasher`.
fn write_spaces(hasher: &mut impl Hasher, mut count: u64) {
    const SPACES: [u8; 64] = [b' '; 64];
    while count > 0 {
        let n = count.min(64) as usize;
        hasher.write(&SPACES[..n]);
        count -= n as u64;
    }
}

/// What one side keeps while it is read: the head, a window before the current line, the
/// lines from the first difference on, and the tail.
#[derive(Default)]
struct Keeper {
    /// Every line, while there are at most [`WHOLE_LINES`].
    all: Vec<Line>,
    head: Vec<Line>,
    before: VecDeque<Line>,
    from: Vec<Line>,
    tail: VecDeque<Line>,
}

impl Keeper {
    fn keep(&mut self, number: u64, scanned: &Scanned, differing: Option<u64>) {
        let line = Line {
            number,
            text: String::from_utf8_lossy(&scanned.head).into_owned(),
            cut: scanned.len - scanned.head.len() as u64,
        };
        if (number as usize) < WHOLE_LINES {
            self.all.push(line.clone());
        }
        if (number as usize) < HEAD {
            self.head.push(line.clone());
        }
        match differing {
            Some(d) if number < d + FROM as u64 => self.from.push(line.clone()),
            Some(_) => {}
            None => {
                self.before.push_back(line.clone());
                if self.before.len() > BEFORE {
                    self.before.pop_front();
                }
            }
        }
        self.tail.push_back(line);
        if self.tail.len() > TAIL {
            self.tail.pop_front();
        }
    }

    fn excerpt(self, total_lines: u64, total_bytes: u64, differing: Option<u64>) -> Excerpt {
        if total_lines as usize <= WHOLE_LINES {
            return Excerpt {
                lines: self.all,
                total_lines,
                total_bytes,
            };
        }
        let mut lines: Vec<Line> = self.head;
        if differing.is_some() {
            lines.extend(self.before);
            lines.extend(self.from);
        }
        lines.extend(self.tail);
        lines.sort_by_key(|l| l.number);
        lines.dedup_by_key(|l| l.number);
        Excerpt {
            lines,
            total_lines,
            total_bytes,
        }
    }
}

/// The excerpt of one text: its first and last lines.
pub fn excerpt(text: impl Read) -> Excerpt {
    let mut scanner = Scanner::new(text);
    let mut keeper = Keeper::default();
    while let Some(line) = scanner.next_line() {
        keeper.keep(scanner.number - 1, &line, None);
    }
    keeper.excerpt(scanner.number, scanner.bytes, None)
}

/// Compares two texts line by line (blanks at the ends of lines ignored) and keeps of each
/// its head, the lines around the first difference, and its tail.
pub fn compare(expected: impl Read, actual: impl Read) -> Compared {
    let (mut want, mut got) = (Scanner::new(expected), Scanner::new(actual));
    let (mut keep_want, mut keep_got) = (Keeper::default(), Keeper::default());
    let mut differing: Option<u64> = None;
    let mut number = 0u64;
    loop {
        let (w, g) = (want.next_line(), got.next_line());
        if w.is_none() && g.is_none() {
            break;
        }
        if differing.is_none() && w.as_ref().map(|l| l.hash) != g.as_ref().map(|l| l.hash) {
            differing = Some(number);
        }
        if let Some(w) = &w {
            keep_want.keep(number, w, differing);
        }
        if let Some(g) = &g {
            keep_got.keep(number, g, differing);
        }
        number += 1;
    }
    Compared {
        expected: keep_want.excerpt(want.number, want.bytes, differing),
        actual: keep_got.excerpt(got.number, got.bytes, differing),
        first_difference: differing,
    }
}

impl Excerpt {
    /// Whether every line is shown whole.
    pub fn is_whole(&self) -> bool {
        self.lines.len() as u64 == self.total_lines && self.lines.iter().all(|l| l.cut == 0)
    }

    /// The excerpt as text, a line a line, with a marker where lines or bytes are not shown:
    /// `… 199995 lines not shown …`, and `… (1.9 MB more)` at the end of a cut line.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let mut next = 0u64;
        for line in &self.lines {
            if line.number > next {
                out.push_str(&gap(line.number - next));
                out.push('\n');
            }
            out.push_str(&line.text);
            if line.cut > 0 {
                out.push_str(&format!(" … ({} more)", crate::text::bytes(line.cut)));
            }
            out.push('\n');
            next = line.number + 1;
        }
        if self.total_lines > next {
            out.push_str(&gap(self.total_lines - next));
            out.push('\n');
        }
        out
    }

    /// The lines from `from` up to `to` (0-based, exclusive) that the excerpt holds.
    pub fn window(&self, from: u64, to: u64) -> impl Iterator<Item = &Line> {
        self.lines
            .iter()
            .filter(move |l| l.number >= from && l.number < to)
    }
}

/// `… 3 lines not shown …`.
fn gap(lines: u64) -> String {
    format!("… {} not shown …", crate::text::plural(lines, "line"))
}

/// The window of lines around the first difference: its first and last line numbers.
pub fn difference_window(first_difference: u64) -> (u64, u64) {
    (
        first_difference.saturating_sub(BEFORE as u64),
        first_difference + FROM as u64,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(n: u64, f: impl Fn(u64) -> String) -> String {
        (0..n).map(|i| format!("{}\n", f(i))).collect()
    }

    #[test]
    fn a_short_text_is_whole() {
        let e = excerpt("1\n2 3\n".as_bytes());
        assert!(e.is_whole());
        assert_eq!(e.render(), "1\n2 3\n");
        assert_eq!((e.total_lines, e.total_bytes), (2, 6));
        // Without a final line break, the last line still counts.
        assert_eq!(excerpt("7".as_bytes()).render(), "7\n");
        assert_eq!(excerpt("".as_bytes()).total_lines, 0);
    }

    #[test]
    fn a_long_text_keeps_its_head_and_tail() {
        let text = lines(200_000, |i| i.to_string());
        let e = excerpt(text.as_bytes());
        assert_eq!(
            e.render(),
            "0\n1\n2\n… 199995 lines not shown …\n199998\n199999\n"
        );
        assert_eq!(e.total_bytes, text.len() as u64);
    }

    #[test]
    fn a_long_line_is_cut_and_says_how_much() {
        let text = format!("2\n{}\n", "123456 ".repeat(100_000));
        let e = excerpt(text.as_bytes());
        let shown = e.render();
        assert!(shown.lines().count() == 2, "{shown}");
        assert!(shown.len() < 300, "{shown}");
        assert!(shown.contains("… (683.4 KiB more)"), "{shown}");
    }

    #[test]
    fn the_first_difference_is_found_deep_in_the_texts() {
        let want = lines(200_000, |i| i.to_string());
        let got = lines(200_000, |i| {
            if i == 150_000 {
                "x".into()
            } else {
                i.to_string()
            }
        });
        let c = compare(want.as_bytes(), got.as_bytes());
        assert_eq!(c.first_difference, Some(150_000));
        let window: Vec<&str> = c
            .actual
            .window(149_998, 150_003)
            .map(|l| l.text.as_str())
            .collect();
        assert_eq!(window, ["149998", "149999", "x", "150001", "150002"]);
        assert_eq!(c.expected.lines.len(), HEAD + BEFORE + FROM + TAIL);
    }

    #[test]
    fn a_text_of_a_few_dozen_lines_is_whole() {
        let text = lines(WHOLE_LINES as u64, |i| i.to_string());
        assert!(excerpt(text.as_bytes()).is_whole());
        let text = lines(WHOLE_LINES as u64 + 1, |i| i.to_string());
        assert!(!excerpt(text.as_bytes()).is_whole());
    }

    #[test]
    fn blanks_at_line_ends_do_not_differ_and_a_missing_line_does() {
        let c = compare("1 2\n3\n".as_bytes(), "1 2  \r\n3".as_bytes());
        assert_eq!(c.first_difference, None);
        let c = compare("1\n2\n".as_bytes(), "1\n".as_bytes());
        assert_eq!(c.first_difference, Some(1));
        assert_eq!(c.actual.total_lines, 1);
        // Blanks inside a line do, by their number, not their kind.
        let c = compare("1 2\n".as_bytes(), "1  2\n".as_bytes());
        assert_eq!(c.first_difference, Some(0));
        let c = compare("1 2\n".as_bytes(), "1\t2\n".as_bytes());
        assert_eq!(c.first_difference, None);
    }
}
