//! The exchange of an interactive run as it is kept ([`Transcript`]): who wrote what, in order,
//! its start and its end when it is long, and how it reads as text (`> ` before what the
//! program wrote, `< ` before what it read).

use std::collections::VecDeque;

/// How much of the exchange a transcript keeps: its first [`HEAD`] bytes and its last
/// [`TAIL`] bytes.
const HEAD: usize = 16 * 1024;
const TAIL: usize = 48 * 1024;

/// Who wrote a piece of the exchange.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Direction {
    /// The program wrote it; the interactor read it.
    FromProgram,
    /// The interactor wrote it; the program read it.
    FromInteractor,
}

/// What passed between the program and the interactor, in order: its start and its end when
/// it is long, with how much of the middle was left out.
#[derive(Clone, Debug, Default)]
pub struct Transcript {
    head: Vec<(Direction, Vec<u8>)>,
    head_bytes: usize,
    tail: VecDeque<(Direction, Vec<u8>)>,
    tail_bytes: usize,
    /// Bytes of the middle not kept.
    pub omitted: u64,
    /// The interactor exited by itself while the program still ran and wrote: a rejection of its
    /// decides the verdict, whatever the program did once its input ended.
    pub interactor_ended_first: bool,
}

impl Transcript {
    /// Appends what `from` wrote.
    pub(crate) fn record(&mut self, from: Direction, bytes: &[u8]) {
        let room = HEAD - self.head_bytes;
        let (head, rest) = bytes.split_at(room.min(bytes.len()));
        if !head.is_empty() {
            push(&mut self.head, from, head);
            self.head_bytes += head.len();
        }
        if rest.is_empty() {
            return;
        }
        let rest = &rest[rest.len().saturating_sub(TAIL)..];
        self.omitted += (bytes.len() - head.len() - rest.len()) as u64;
        match self.tail.back_mut() {
            Some((dir, last)) if *dir == from => last.extend_from_slice(rest),
            _ => self.tail.push_back((from, rest.to_vec())),
        }
        self.tail_bytes += rest.len();
        while self.tail_bytes > TAIL {
            let excess = self.tail_bytes - TAIL;
            let Some((_, first)) = self.tail.front_mut() else {
                break;
            };
            let cut = excess.min(first.len());
            first.drain(..cut);
            self.tail_bytes -= cut;
            self.omitted += cut as u64;
            if first.is_empty() {
                self.tail.pop_front();
            }
        }
    }

    /// The pieces kept, in order; `None` stands where the middle was left out.
    pub fn pieces(&self) -> impl Iterator<Item = Option<(Direction, &[u8])>> {
        let gap = (self.omitted > 0).then_some(None);
        self.head
            .iter()
            .map(|(d, b)| Some((*d, b.as_slice())))
            .chain(gap)
            .chain(self.tail.iter().map(|(d, b)| Some((*d, b.as_slice()))))
    }

    /// Whether nothing passed at all.
    pub fn is_empty(&self) -> bool {
        self.head.is_empty()
    }

    /// The transcript as text, a line of the exchange a line: `> ` before what the program
    /// wrote, `< ` before what it read; a line cut by the end of the exchange ends with `⏎`
    /// missing (marked `[no newline]`); the left-out middle is one line saying how much.
    pub fn render(&self) -> String {
        let mut text = String::new();
        for piece in self.pieces() {
            let Some((from, bytes)) = piece else {
                text.push_str(&format!("… {} bytes not kept …\n", self.omitted));
                continue;
            };
            let mark = match from {
                Direction::FromProgram => "> ",
                Direction::FromInteractor => "< ",
            };
            let piece = String::from_utf8_lossy(bytes);
            for line in piece.split_inclusive('\n') {
                text.push_str(mark);
                match line.strip_suffix('\n') {
                    Some(line) => {
                        text.push_str(line);
                        text.push('\n');
                    }
                    None => {
                        text.push_str(line);
                        text.push_str(" [no newline]\n");
                    }
                }
            }
        }
        text
    }
}

/// Appends `bytes` from `from`, to the last piece when it has the same writer.
fn push(pieces: &mut Vec<(Direction, Vec<u8>)>, from: Direction, bytes: &[u8]) {
    match pieces.last_mut() {
        Some((dir, last)) if *dir == from => last.extend_from_slice(bytes),
        _ => pieces.push((from, bytes.to_vec())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_exchange_keeps_its_start_and_its_end() {
        let mut t = Transcript::default();
        t.record(Direction::FromInteractor, b"5\n");
        t.record(Direction::FromProgram, b"? 1\n");
        for _ in 0..20_000 {
            t.record(Direction::FromProgram, b"? 2\n");
            t.record(Direction::FromInteractor, b">\n");
        }
        t.record(Direction::FromProgram, b"! 3\n");
        let text = t.render();
        assert!(
            text.starts_with("< 5\n> ? 1\n> ? 2\n< >\n"),
            "{}",
            &text[..40]
        );
        assert!(text.ends_with("< >\n> ! 3\n"));
        let total = 2 + 4 + 20_000 * 6 + 4;
        assert_eq!(t.omitted as usize, total - HEAD - TAIL);
        assert!(text.contains(&format!("… {} bytes not kept …\n", t.omitted)));
    }

    #[test]
    fn a_line_without_its_newline_says_so() {
        let mut t = Transcript::default();
        t.record(Direction::FromProgram, b"42");
        assert_eq!(t.render(), "> 42 [no newline]\n");
        assert!(!t.is_empty());
    }
}
