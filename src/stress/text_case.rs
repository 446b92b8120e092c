//! A case of a problem duipai does not know, minimized as text: lines of tokens, with the
//! layout read from them ([`layout`]) well enough to shrink what the counts count.
//!
//! Most inputs are counts followed by what they count: `n` then n numbers (on its line or the
//! next), `n s` then n numbers, `n` then n lines or the n − 1 edges of a tree, `n` then a
//! string of n characters, `T` then T test cases. Dropping an item alone leaves the count
//! wrong and the input invalid, so the candidates here drop items together with their count
//! lowered, in passes, most drastic first: whole test cases (when the first line counts
//! them); the vertices of graphs (leaves removed and edges contracted, labels kept within
//! the vertex count: [`graph`]); halves, quarters, … and single items of every counted list,
//! the longest list first; the characters of strings, by chunks and one at a time; strings
//! renamed keeping which are equal ([`rename`]); chunks of
//! lines and single lines; single tokens. The values the minimizer lowers toward 0 are the
//! numbers that are neither counts nor vertex labels (reals keep their decimals), and the
//! letters and digits of strings, lowered toward `a`, `A` and `0`. Which candidates are valid
//! inputs is the caller's business (a validator, or the generator's envelope and the
//! reference accepting them); the candidates only try to be valid often.
//!
//! A case is compact: its tokens point into the text it was read from, shared by every
//! candidate, a lowered value is stored as a number, and a rewritten string in a buffer of
//! the case's own. A candidate of a 2·10^5-number case is one copy of a flat token list, made
//! only when the minimizer probes it.

mod graph;
mod layout;
mod place;
mod rename;

use std::ops::Range;
use std::sync::{Arc, OnceLock};

use super::minimize::{Candidates, Shrinkable};
use crate::problem::shrink::ChunkLevels;
use layout::{Layout, List, Section};
pub use place::{Place, Placed};

/// One token: a span of the original text, or what the minimizer wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    Text {
        at: usize,
        len: u32,
    },
    Int(i64),
    /// A real: `mantissa` / 10^`decimals`, written with that many decimals.
    Real {
        mantissa: i64,
        decimals: u8,
    },
    /// A rewritten word: a span of the case's `words`.
    Word {
        at: u32,
        len: u32,
    },
}

/// Lines of tokens, each line's tokens separated by single spaces in its canonical form.
#[derive(Clone, Debug)]
pub struct TextCase {
    /// The text the case was read from, shared by all its candidates.
    src: Arc<[u8]>,
    /// The words the minimizer rewrote (strings shortened or lowered).
    words: Arc<[u8]>,
    tokens: Vec<Token>,
    /// Where each line ends in `tokens` (exclusive): line `i` is
    /// `line_ends[i - 1]..line_ends[i]`.
    line_ends: Vec<usize>,
    /// Whether candidates that only a validator can check are tried: single tokens dropped
    /// without their count (without a validator, such an input usually runs but is invalid).
    validated: bool,
    /// How the case is laid out: read once a pass asks for it.
    layout: OnceLock<Arc<Layout>>,
    /// What the minimizer lowers: found once the case is asked for them (a candidate that is
    /// only probed never is), then kept while values are lowered (a lowered value could
    /// otherwise start to look like a count).
    slots: OnceLock<Arc<Vec<Slot>>>,
}

impl PartialEq for TextCase {
    fn eq(&self, other: &Self) -> bool {
        self.to_bytes() == other.to_bytes()
    }
}

impl Eq for TextCase {}

/// One thing the minimizer lowers toward 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    /// An integer or a real token (a real's mantissa).
    Number(usize),
    /// A letter or digit of a string: its token and offset, lowered toward `a`, `A` or `0`.
    Char(usize, u32),
}

/// A token an edit rewrites.
#[derive(Clone, Debug)]
enum Put {
    Token(Token),
    Word(Vec<u8>),
}

/// What a candidate changes: lines and tokens dropped, tokens rewritten; each list sorted.
#[derive(Clone, Debug, Default)]
struct Edit {
    lines: Vec<Range<usize>>,
    tokens: Vec<Range<usize>>,
    set: Vec<(usize, Put)>,
}

impl Edit {
    /// Sorts its lists, as [`TextCase::edited`] reads them.
    fn sort(&mut self) {
        self.lines.sort_unstable_by_key(|r| r.start);
        self.tokens.sort_unstable_by_key(|r| r.start);
        self.set.sort_by_key(|(t, _)| *t);
    }
}

/// Bytes that separate tokens: ASCII whitespace.
fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\x0B' | b'\x0C')
}

/// The byte a letter or digit is lowered toward (`a`, `A`, `0`), or `None` for others.
fn char_base(b: u8) -> Option<u8> {
    match b {
        b'a'..=b'z' => Some(b'a'),
        b'A'..=b'Z' => Some(b'A'),
        b'0'..=b'9' => Some(b'0'),
        _ => None,
    }
}

/// `-123`: an integer of decimal digits with an optional minus sign, that fits an i64. One
/// pass over the bytes: every token of a 2·10^5-number case is read this way several times
/// while it is minimized (for its slots, its size and its largest value).
fn parse_integer(bytes: &[u8]) -> Option<i64> {
    let (negative, digits) = match bytes.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, bytes),
    };
    if digits.is_empty() {
        return None;
    }
    // Accumulated below zero, where i64::MIN fits.
    let mut value: i64 = 0;
    for &b in digits {
        let digit = b.wrapping_sub(b'0');
        if digit > 9 {
            return None;
        }
        value = value.checked_mul(10)?.checked_sub(i64::from(digit))?;
    }
    if negative {
        Some(value)
    } else {
        value.checked_neg()
    }
}

/// `-12.340`: the mantissa (-12340) and the decimals (3) of a real written with a point.
fn parse_real(bytes: &[u8]) -> Option<(i64, u8)> {
    let digits = bytes.strip_prefix(b"-").unwrap_or(bytes);
    let point = digits.iter().position(|&b| b == b'.')?;
    let (whole, fraction) = (&digits[..point], &digits[point + 1..]);
    let all_digits = |s: &[u8]| !s.is_empty() && s.iter().all(u8::is_ascii_digit);
    if !all_digits(whole) || !all_digits(fraction) || whole.len() + fraction.len() > 18 {
        return None;
    }
    let mut mantissa: i64 = 0;
    for &b in whole.iter().chain(fraction) {
        mantissa = mantissa * 10 + i64::from(b - b'0');
    }
    let sign = if bytes.len() > digits.len() { -1 } else { 1 };
    Some((sign * mantissa, fraction.len() as u8))
}

impl TextCase {
    pub fn new(text: &[u8]) -> TextCase {
        let src: Arc<[u8]> = Arc::from(text);
        let mut tokens = Vec::new();
        let mut line_ends = Vec::new();
        let mut rest = text;
        let mut offset = 0;
        while !rest.is_empty() {
            let end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
            let mut at = 0;
            while at < end {
                if is_blank(rest[at]) {
                    at += 1;
                    continue;
                }
                let start = at;
                while at < end && !is_blank(rest[at]) {
                    at += 1;
                }
                tokens.push(Token::Text {
                    at: offset + start,
                    len: (at - start) as u32,
                });
            }
            line_ends.push(tokens.len());
            let next = (end + 1).min(rest.len());
            offset += next;
            rest = &rest[next..];
        }
        TextCase::of_parts(src, Arc::from(&[][..]), tokens, line_ends, true)
    }

    /// The same case, shrunk without single tokens dropped alone when there is no validator
    /// to say whether such an input is still valid.
    pub fn validated(self, validated: bool) -> TextCase {
        TextCase { validated, ..self }
    }

    /// A case of these tokens and lines, its layout and values to be found anew.
    fn of_parts(
        src: Arc<[u8]>,
        words: Arc<[u8]>,
        tokens: Vec<Token>,
        line_ends: Vec<usize>,
        validated: bool,
    ) -> TextCase {
        TextCase {
            src,
            words,
            tokens,
            line_ends,
            validated,
            layout: OnceLock::new(),
            slots: OnceLock::new(),
        }
    }

    fn layout(&self) -> &Layout {
        self.layout
            .get_or_init(|| Arc::new(self.read_layout(false)))
            .as_ref()
    }

    fn slot_list(&self) -> &[Slot] {
        self.slots
            .get_or_init(|| Arc::new(self.find_slots()))
            .as_slice()
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.src.len() + self.words.len() + 1);
        self.write(|bytes| out.extend_from_slice(bytes));
        out
    }

    /// Writes the canonical text piece by piece.
    fn write(&self, mut out: impl FnMut(&[u8])) {
        let mut buf = NumberBuf::default();
        for line in 0..self.line_count() {
            for (k, t) in self.line(line).enumerate() {
                if k > 0 {
                    out(b" ");
                }
                out(self.text(t, &mut buf));
            }
            out(b"\n");
        }
    }

    /// The case's size for reports: `2 lines, 3 tokens`, and the longest string's length
    /// when it is longer than 20 characters: `1 line, 1 token, a string of 200000`.
    pub fn size_label(&self) -> String {
        let mut label = format!(
            "{}, {}",
            crate::text::plural(self.line_count() as u64, "line"),
            crate::text::plural(self.tokens.len() as u64, "token")
        );
        let longest = (0..self.tokens.len())
            .filter(|&t| self.is_string(t))
            .map(|t| self.token_len(t))
            .max();
        if let Some(longest) = longest.filter(|&l| l > 20) {
            label.push_str(&format!(", a string of {longest}"));
        }
        label
    }

    fn line_count(&self) -> usize {
        self.line_ends.len()
    }

    /// The tokens of line `i`.
    fn line(&self, i: usize) -> Range<usize> {
        let start = if i == 0 { 0 } else { self.line_ends[i - 1] };
        start..self.line_ends[i]
    }

    fn line_len(&self, i: usize) -> usize {
        self.line(i).len()
    }

    /// The line token `t` is on.
    fn line_of(&self, t: usize) -> usize {
        self.line_ends.partition_point(|&end| end <= t)
    }

    fn text<'a>(&'a self, t: usize, buf: &'a mut NumberBuf) -> &'a [u8] {
        match self.tokens[t] {
            Token::Text { at, len } => &self.src[at..at + len as usize],
            Token::Word { at, len } => &self.words[at as usize..(at + len) as usize],
            Token::Int(v) => buf.format(v, 0),
            Token::Real { mantissa, decimals } => buf.format(mantissa, decimals),
        }
    }

    /// The token's text, as a copy.
    fn token_text(&self, t: usize) -> Vec<u8> {
        self.text(t, &mut NumberBuf::default()).to_vec()
    }

    fn token_len(&self, t: usize) -> usize {
        match self.tokens[t] {
            Token::Text { len, .. } | Token::Word { len, .. } => len as usize,
            _ => self.text(t, &mut NumberBuf::default()).len(),
        }
    }

    /// The token's text when it is one the input had or a rewritten word (not a number the
    /// minimizer wrote).
    fn written(&self, t: usize) -> Option<&[u8]> {
        match self.tokens[t] {
            Token::Text { at, len } => Some(&self.src[at..at + len as usize]),
            Token::Word { at, len } => Some(&self.words[at as usize..(at + len) as usize]),
            _ => None,
        }
    }

    /// The token as a count: a small non-negative integer.
    fn count(&self, t: usize) -> Option<usize> {
        match self.tokens[t] {
            Token::Int(v) => (0..1_000_000).contains(&v).then_some(v as usize),
            Token::Real { .. } => None,
            _ => {
                let bytes = self.written(t)?;
                if bytes.len() > 6 || bytes.first() == Some(&b'-') {
                    return None;
                }
                parse_integer(bytes).map(|v| v as usize)
            }
        }
    }

    /// The token as an integer that fits an i64, with an optional minus sign.
    fn integer(&self, t: usize) -> Option<i64> {
        match self.tokens[t] {
            Token::Int(v) => Some(v),
            Token::Real { .. } => None,
            _ => parse_integer(self.written(t)?),
        }
    }

    /// The token as a number the minimizer lowers: an integer, or a real's mantissa and its
    /// decimals.
    fn scalar(&self, t: usize) -> Option<(i64, u8)> {
        match self.tokens[t] {
            Token::Real { mantissa, decimals } => Some((mantissa, decimals)),
            _ => match self.integer(t) {
                Some(v) => Some((v, 0)),
                None => parse_real(self.written(t)?),
            },
        }
    }

    /// Whether the token is a word: not a number.
    fn is_word(&self, t: usize) -> bool {
        self.scalar(t).is_none()
    }

    /// Whether the token reads as a string of characters: a word, or digits that are no
    /// number (`0110`: a leading zero, or only zeros and ones).
    fn is_string(&self, t: usize) -> bool {
        if self.is_word(t) {
            return true;
        }
        let Some(bytes) = self.written(t) else {
            return false;
        };
        bytes.len() >= 2
            && bytes.iter().all(u8::is_ascii_digit)
            && (bytes[0] == b'0' || bytes.iter().all(|&b| b == b'0' || b == b'1'))
    }

    /// The case with `edit` made (its lists sorted), its layout and values found anew.
    fn edited(&self, edit: &Edit) -> TextCase {
        let rewrites = edit.set.iter().any(|(_, put)| matches!(put, Put::Word(_)));
        // Rewritten words are copied into a buffer of the candidate's own, the words it
        // keeps only: a buffer never holds what its case no longer uses.
        let mut words: Vec<u8> = Vec::new();
        let mut keep_word = |bytes: &[u8]| {
            let at = words.len() as u32;
            words.extend_from_slice(bytes);
            Token::Word {
                at,
                len: bytes.len() as u32,
            }
        };
        let mut tokens = Vec::with_capacity(self.tokens.len());
        let mut line_ends = Vec::with_capacity(self.line_count());
        let (mut lines, mut dropped, mut set) = (0, 0, 0);
        for line in 0..self.line_count() {
            while lines < edit.lines.len() && edit.lines[lines].end <= line {
                lines += 1;
            }
            if edit.lines.get(lines).is_some_and(|r| r.contains(&line)) {
                continue;
            }
            for t in self.line(line) {
                while dropped < edit.tokens.len() && edit.tokens[dropped].end <= t {
                    dropped += 1;
                }
                if edit.tokens.get(dropped).is_some_and(|r| r.contains(&t)) {
                    continue;
                }
                while set < edit.set.len() && edit.set[set].0 < t {
                    set += 1;
                }
                let token = match edit.set.get(set) {
                    Some((at, Put::Token(token))) if *at == t => *token,
                    Some((at, Put::Word(bytes))) if *at == t => keep_word(bytes),
                    _ => match self.tokens[t] {
                        Token::Word { at, len } if rewrites => {
                            keep_word(&self.words[at as usize..(at + len) as usize])
                        }
                        token => token,
                    },
                };
                tokens.push(token);
            }
            line_ends.push(tokens.len());
        }
        let words = if rewrites {
            Arc::from(words)
        } else {
            self.words.clone()
        };
        TextCase::of_parts(self.src.clone(), words, tokens, line_ends, self.validated)
    }

    /// The text with the items `drop` of `list` removed and its count lowered by as many; at
    /// least one item is kept. With `bounded`, the header's values bound by the count
    /// ([`TextCase::bounded_by`]) that the lowered count falls below are lowered to it: `n k`
    /// with k ≤ n keeps k within the n numbers left. `None` when nothing is bounded.
    fn without_items(&self, list: &List, drop: Range<usize>, bounded: bool) -> Option<TextCase> {
        let items = list.droppable()?;
        if drop.is_empty() || drop.end > items || drop.len() >= items {
            return None;
        }
        if self.count(list.count) != Some(list.len) {
            return None;
        }
        let left = list.len - drop.len();
        let lowered = Token::Int(left as i64);
        let mut edit = Edit {
            set: vec![(list.count, Put::Token(lowered))],
            ..Edit::default()
        };
        if bounded {
            let above: Vec<usize> = self
                .bounded_by(list)
                .into_iter()
                .filter(|&t| self.integer(t).is_some_and(|v| v > left as i64))
                .collect();
            if above.is_empty() {
                return None;
            }
            let lowered = |t| (t, Put::Token(Token::Int(left as i64)));
            edit.set.extend(above.into_iter().map(lowered));
        }
        for section in &list.sections {
            match section {
                &Section::Tokens { from, .. } => {
                    edit.tokens.push(from + drop.start..from + drop.end);
                }
                &Section::Lines { from, .. } => {
                    edit.lines.push(from + drop.start..from + drop.end);
                }
                Section::Blocks(blocks) => {
                    edit.lines
                        .push(blocks[drop.start].start..blocks[drop.end - 1].end);
                }
                Section::Chars { words } => {
                    for &w in words {
                        edit.set.push((w, Put::Word(self.cut(w, drop.clone())?)));
                    }
                }
            }
        }
        edit.sort();
        Some(self.edited(&edit))
    }

    /// The word `t` without the characters `drop`; `None` when nothing would be left.
    fn cut(&self, t: usize, drop: Range<usize>) -> Option<Vec<u8>> {
        let text = self.token_text(t);
        if drop.end > text.len() || drop.len() >= text.len() {
            return None;
        }
        Some([&text[..drop.start], &text[drop.end..]].concat())
    }

    /// The candidates that drop items of `lists`: halves, quarters, … down to pairs of every
    /// list, the longest first, and then single items, all but the last item at most. Where
    /// the count's header has values bound by it, each drop comes twice: with those values
    /// lowered to the new count first, then as it is (`n s` with s ≤ n by chance: s is no
    /// window length).
    fn fewer_items(&self, mut lists: Vec<List>) -> Candidates<'_, TextCase> {
        lists.retain(|l| l.droppable().is_some_and(|items| items > 1));
        lists.sort_by_key(|l| std::cmp::Reverse(l.droppable()));
        let items: Vec<usize> = lists.iter().filter_map(List::droppable).collect();
        let ways: Vec<usize> = lists
            .iter()
            .map(|l| if self.bounded_by(l).is_empty() { 1 } else { 2 })
            .collect();
        let levels: Vec<ChunkLevels> = items.iter().map(|&n| ChunkLevels::new(n)).collect();
        let chunk_count: usize = levels.iter().zip(&ways).map(|(l, w)| l.count() * w).sum();
        let single_count: usize = items.iter().zip(&ways).map(|(n, w)| n * w).sum();
        let drop = move |list: &List, ways: usize, index: usize, range: Range<usize>| {
            let bounded = ways == 2 && index.is_multiple_of(2);
            self.without_items(list, range, bounded)
        };
        Candidates::lazy(chunk_count + single_count, move |mut index| {
            for ((list, levels), &w) in lists.iter().zip(&levels).zip(&ways) {
                if index < levels.count() * w {
                    return drop(list, w, index, levels.chunk(index / w));
                }
                index -= levels.count() * w;
            }
            for ((list, &n), &w) in lists.iter().zip(&items).zip(&ways) {
                if index < n * w {
                    let item = index / w;
                    return drop(list, w, index, item..item + 1);
                }
                index -= n * w;
            }
            None
        })
    }

    /// The values of `list`'s header line that lie within its count (`n k` with k ≤ n): not
    /// counts themselves, nor items of the list.
    fn bounded_by(&self, list: &List) -> Vec<usize> {
        let counts = self.layout().counts();
        let item = |t: usize| {
            list.sections.iter().any(|s| match *s {
                Section::Tokens { from, len } => (from..from + len).contains(&t),
                _ => false,
            })
        };
        self.line(self.line_of(list.count))
            .filter(|&t| t != list.count && !item(t) && counts.binary_search(&t).is_err())
            .filter(|&t| {
                self.integer(t)
                    .is_some_and(|v| (1..=list.len as i64).contains(&v))
            })
            .collect()
    }

    /// The lists a pass of counted items drops from: neither test cases, nor a graph's
    /// counts (the graph's own pass keeps its labels within them), nor a string's length,
    /// nor a list read inside an edge line (`2 4 1`, an edge of weight 1, is no count 2 of
    /// two numbers: dropping one would leave the edge without its weight).
    /// Lines that are both a list's items and a tree's edges (`3 / 1 2 1 / 3 1 1`) lose items
    /// only with a validator: without one, a tree of 3 would become `2 / 2 1 / 1 1`, which the
    /// reference may well run on.
    fn counted_lists(&self) -> Vec<List> {
        let layout = self.layout();
        let edges = self.edge_lines();
        layout
            .lists
            .iter()
            .filter(|l| !layout.in_graph(l) && !l.is_chars())
            .filter(|l| self.validated || !layout.also_tree(l))
            .filter(|l| edges.binary_search(&self.line_of(l.count)).is_err())
            .cloned()
            .collect()
    }

    /// The strings the characters pass shortens: a count's strings (with the count lowered)
    /// and the words no count measures that stand on lines of words only (a keyword among
    /// numbers, `add 3 5`, is not a string to shorten), the longest first.
    fn fewer_chars(&self) -> Candidates<'_, TextCase> {
        let layout = self.layout();
        let counted: Vec<List> = layout
            .lists
            .iter()
            .filter(|l| l.is_chars() && !layout.in_graph(l))
            .cloned()
            .collect();
        let measured = layout.chars_words();
        let mut free: Vec<usize> = self
            .string_tokens()
            .into_iter()
            .filter(|t| measured.binary_search(t).is_err() && self.token_len(*t) >= 2)
            .collect();
        free.sort_by_key(|&t| std::cmp::Reverse(self.token_len(t)));
        self.fewer_items(counted).chain(self.fewer_free_chars(free))
    }

    /// Chunks of the characters of `words` dropped (halves, quarters, … down to pairs), the
    /// first word first, then single characters: each word keeps one at least.
    fn fewer_free_chars(&self, words: Vec<usize>) -> Candidates<'_, TextCase> {
        let lens: Vec<usize> = words.iter().map(|&t| self.token_len(t)).collect();
        let levels: Vec<ChunkLevels> = lens.iter().map(|&n| ChunkLevels::new(n)).collect();
        let chunk_count: usize = levels.iter().map(ChunkLevels::count).sum();
        let single_count: usize = lens.iter().sum();
        let cut = move |t: usize, drop: Range<usize>| {
            let word = self.cut(t, drop)?;
            Some(self.edited(&Edit {
                set: vec![(t, Put::Word(word))],
                ..Edit::default()
            }))
        };
        Candidates::lazy(chunk_count + single_count, move |mut index| {
            for (&t, levels) in words.iter().zip(&levels) {
                if index < levels.count() {
                    return cut(t, levels.chunk(index));
                }
                index -= levels.count();
            }
            for (&t, &n) in words.iter().zip(&lens) {
                if index < n {
                    return cut(t, index..index + 1);
                }
                index -= n;
            }
            None
        })
    }

    /// The tokens that are strings, their characters lowered and their chunks dropped: the
    /// words of a count's strings, and the words of lines of words only.
    fn string_tokens(&self) -> Vec<usize> {
        let mut strings = self.layout().chars_words();
        for line in 0..self.line_count() {
            let tokens = self.line(line);
            if !tokens.is_empty() && tokens.clone().all(|t| self.is_word(t)) {
                strings.extend(tokens);
            }
        }
        strings.sort_unstable();
        strings.dedup();
        strings
    }

    /// Chunks of lines dropped (halves, quarters, … down to pairs), counts unchanged.
    fn fewer_lines(&self) -> Candidates<'_, TextCase> {
        let levels = ChunkLevels::new(self.line_count());
        let kept = self.lines_to_keep();
        Candidates::lazy(levels.count(), move |i| {
            let lines = levels.chunk(i);
            let first_kept = kept.partition_point(|&l| l < lines.start);
            if kept.get(first_kept).is_some_and(|&l| l < lines.end) {
                return None;
            }
            Some(self.edited(&Edit {
                lines: vec![lines],
                ..Edit::default()
            }))
        })
    }

    /// Each line dropped alone.
    fn single_lines(&self) -> Candidates<'_, TextCase> {
        let len = if self.line_count() > 1 {
            self.line_count()
        } else {
            0
        };
        let kept = self.lines_to_keep();
        Candidates::lazy(len, move |i| {
            if kept.binary_search(&i).is_ok() {
                return None;
            }
            Some(self.edited(&Edit {
                lines: std::iter::once(i..i + 1).collect(),
                ..Edit::default()
            }))
        })
    }

    /// The lines a line drop must keep, sorted: those of counted lists (a count and what it
    /// counts, test cases included) and the edges of graphs. Their own passes drop them with
    /// their count lowered; dropped alone, they would leave the count wrong, an input a
    /// validator refuses (a probe spent for nothing) and that, without one, the reference
    /// may well run on (`1` with its number gone), the case leaving the input's form.
    fn lines_to_keep(&self) -> Vec<usize> {
        let layout = self.layout();
        let mut kept = self.edge_lines();
        for list in layout.cases.iter().chain(&layout.lists) {
            kept.push(self.line_of(list.count));
            for section in &list.sections {
                match section {
                    &Section::Tokens { from, .. } => kept.push(self.line_of(from)),
                    &Section::Lines { from, len } => kept.extend(from..from + len),
                    Section::Chars { words } => {
                        kept.extend(words.iter().map(|&w| self.line_of(w)));
                    }
                    Section::Blocks(blocks) => kept.extend(blocks.iter().flat_map(|b| b.clone())),
                }
            }
        }
        kept.sort_unstable();
        kept.dedup();
        kept
    }

    /// The counts and items of counted lists, sorted: the single-token pass leaves them to
    /// the passes that keep the counts right.
    fn listed_tokens(&self) -> Vec<usize> {
        let layout = self.layout();
        let mut listed = layout.counts();
        for section in layout.lists.iter().flat_map(|l| &l.sections) {
            match section {
                &Section::Tokens { from, len } => listed.extend(from..from + len),
                &Section::Lines { from, len } => {
                    listed.extend(self.line(from).start..self.line(from + len - 1).end);
                }
                Section::Chars { words } => listed.extend(words),
                Section::Blocks(_) => {}
            }
        }
        listed.sort_unstable();
        listed.dedup();
        listed
    }

    /// Each token dropped alone from a line that keeps at least one, but those of counted
    /// lists ([`TextCase::droppable_tokens`]).
    fn fewer_tokens(&self) -> Candidates<'_, TextCase> {
        let droppable = self.droppable_tokens();
        Candidates::lazy(droppable.len(), move |i| {
            let t = droppable[i];
            Some(self.edited(&Edit {
                tokens: std::iter::once(t..t + 1).collect(),
                ..Edit::default()
            }))
        })
    }

    /// Each line and token of a counted list dropped alone, its count unchanged (lines of
    /// one token only as lines): inputs the layout reads as invalid, which a validator may
    /// accept all the same when the layout is misread.
    fn alone(&self) -> Candidates<'_, TextCase> {
        let lines = self.lines_to_keep();
        let tokens: Vec<usize> = self
            .listed_tokens()
            .into_iter()
            .filter(|&t| self.line_len(self.line_of(t)) >= 2)
            .collect();
        let line_count = if self.line_count() > 1 {
            lines.len()
        } else {
            0
        };
        Candidates::lazy(line_count + tokens.len(), move |i| {
            let edit = match i.checked_sub(line_count) {
                None => Edit {
                    lines: std::iter::once(lines[i]..lines[i] + 1).collect(),
                    ..Edit::default()
                },
                Some(k) => Edit {
                    tokens: std::iter::once(tokens[k]..tokens[k] + 1).collect(),
                    ..Edit::default()
                },
            };
            Some(self.edited(&edit))
        })
    }

    /// Whether a candidate this case leaves out for want of a validator (a token, or a line
    /// or token of a counted list, dropped alone) is one `admits` takes. When none is, the
    /// passes left out would have probed nothing (what the generator makes rules every
    /// candidate out) and the case lacks nothing. Past [`LEFT_OUT_CHECKED`] candidates the
    /// rest is taken to be admitted: a large case is not gone over again.
    pub fn leaves_out_any(&self, admits: impl Fn(&TextCase) -> bool) -> bool {
        if self.validated {
            return false;
        }
        let (tokens, alone) = (self.fewer_tokens(), self.alone());
        if tokens.len() + alone.len() > LEFT_OUT_CHECKED {
            return true;
        }
        let made = |c: &Candidates<'_, TextCase>| {
            (0..c.len()).filter_map(|i| c.get(i)).collect::<Vec<_>>()
        };
        made(&tokens).iter().chain(made(&alone).iter()).any(admits)
    }

    /// The tokens the single-token pass drops: those of lines of two tokens or more, but
    /// the counts and items of counted lists.
    fn droppable_tokens(&self) -> Vec<usize> {
        let listed = self.listed_tokens();
        (0..self.line_count())
            .filter(|&l| self.line_len(l) >= 2)
            .flat_map(|l| self.line(l))
            .filter(|t| listed.binary_search(t).is_err())
            .collect()
    }

    /// What the minimizer lowers: the numbers that are neither counts nor a graph's vertex
    /// labels, and the letters and digits of strings, in the order of the text.
    fn find_slots(&self) -> Vec<Slot> {
        let layout = self.layout();
        let mut fixed = vec![false; self.tokens.len()];
        for t in layout.counts() {
            fixed[t] = true;
        }
        // Labels that may also be a list's values, or that a count of their own counts over
        // values of the vertices (the queries `l r` of an array read as edges: `1 2` becomes
        // `1 1`), are lowered where a validator judges them. A plain graph's stay: lowered,
        // they would mostly make self-loops and double edges the validator refuses.
        let queries = |g: &layout::Graph| g.edge_count.is_some() && !g.per_vertex.is_empty();
        for graph in layout
            .graphs
            .iter()
            .filter(|g| !self.validated || !g.also_items && !queries(g))
        {
            for l in graph.edges.clone() {
                let at = self.line(l).start;
                fixed[at] = true;
                fixed[at + 1] = true;
            }
        }
        let strings = self.string_tokens();
        let mut slots = Vec::new();
        for (t, &fixed) in fixed.iter().enumerate() {
            if fixed {
                continue;
            }
            if strings.binary_search(&t).is_ok() {
                let text = self.token_text(t);
                slots.extend(
                    (0..text.len())
                        .filter(|&i| char_base(text[i]).is_some())
                        .map(|i| Slot::Char(t, i as u32)),
                );
            } else if self.scalar(t).is_some() {
                slots.push(Slot::Number(t));
            }
        }
        slots
    }

    /// The largest number the minimizer lowers (a real's mantissa), for the progress line.
    pub fn largest_number(&self) -> i64 {
        self.slot_list()
            .iter()
            .filter_map(|slot| match *slot {
                Slot::Number(t) => self.scalar(t).map(|(v, _)| v),
                Slot::Char(..) => None,
            })
            .max()
            .unwrap_or(0)
    }
}

/// Room to write an i64 in decimal, with a decimal point when it is a real's mantissa.
#[derive(Default)]
struct NumberBuf([u8; 24]);

impl NumberBuf {
    /// `v` written with `decimals` digits after a point (none for 0): `-1234, 2` is `-12.34`.
    fn format(&mut self, v: i64, decimals: u8) -> &[u8] {
        let mut at = self.0.len();
        let mut rest = v.unsigned_abs();
        let mut written = 0;
        loop {
            if decimals > 0 && written == decimals {
                at -= 1;
                self.0[at] = b'.';
            }
            at -= 1;
            self.0[at] = b'0' + (rest % 10) as u8;
            rest /= 10;
            written += 1;
            if rest == 0 && written > decimals {
                break;
            }
        }
        if v < 0 {
            at -= 1;
            self.0[at] = b'-';
        }
        &self.0[at..]
    }
}

/// The passes, most drastic first, by name.
const PASSES: [&str; 9] = [
    "whole test cases",
    "vertices of graphs",
    "items of counted lists",
    "characters of strings",
    "strings renamed keeping which are equal",
    "chunks of lines",
    "single lines",
    "single tokens",
    "lines and tokens of counted lists dropped alone",
];

/// The late pass: a counted list's line or token dropped alone, which leaves its count wrong
/// as the layout reads it, tried once all else has settled (with a validator only).
const ALONE: usize = 8;

/// How many candidates left out for want of a validator are checked against what the
/// generator makes ([`TextCase::leaves_out_any`]).
const LEFT_OUT_CHECKED: usize = 4096;

impl Shrinkable for TextCase {
    fn fingerprint(&self) -> u64 {
        // One hash of the whole text: far cheaper than a hash fed token by token.
        super::minimize::fingerprint(&self.to_bytes())
    }

    fn weight(&self) -> usize {
        self.to_bytes().len()
    }

    fn passes(&self) -> usize {
        PASSES.len()
    }

    fn pass_name(&self, pass: usize) -> String {
        PASSES.get(pass).unwrap_or(&"a pass").to_string()
    }

    fn pass(&self, pass: usize) -> Candidates<'_, Self> {
        match pass {
            // Whole test cases, with T lowered.
            0 => self.fewer_items(self.layout().cases.iter().cloned().collect()),
            1 => self.graph_candidates(),
            // Items of every counted list, with the count lowered.
            2 => self.fewer_items(self.counted_lists()),
            3 => self.fewer_chars(),
            4 => self.renamed_strings(),
            5 => self.fewer_lines(),
            6 => self.single_lines(),
            7 if self.validated => self.fewer_tokens(),
            ALONE if self.validated => self.alone(),
            _ => Candidates::none(),
        }
    }

    fn late(&self, pass: usize) -> bool {
        pass == ALONE
    }

    fn not_tried(&self) -> Vec<(String, String)> {
        if self.validated || self.droppable_tokens().is_empty() && self.alone().is_empty() {
            return Vec::new();
        }
        vec![(
            "single tokens, and lines of counted lists, dropped alone".to_string(),
            "without a --validator nothing tells whether such an input is valid".to_string(),
        )]
    }

    fn slots(&self) -> usize {
        self.slot_list().len()
    }

    fn value(&self, slot: usize) -> i64 {
        match self.slot_list().get(slot) {
            Some(&Slot::Number(t)) => self.scalar(t).map_or(0, |(v, _)| v),
            Some(&Slot::Char(t, i)) => {
                let mut buf = NumberBuf::default();
                let text = self.text(t, &mut buf);
                text.get(i as usize)
                    .and_then(|&b| char_base(b).map(|base| i64::from(b - base)))
                    .unwrap_or(0)
            }
            None => 0,
        }
    }

    fn with_values(&self, changes: &[(usize, i64)]) -> Self {
        let slots = self.slot_list();
        let mut edit = Edit::default();
        let mut words: Vec<(usize, Vec<u8>)> = Vec::new();
        for &(slot, value) in changes {
            match slots.get(slot) {
                Some(&Slot::Number(t)) => {
                    let token = match self.scalar(t) {
                        Some((_, decimals)) if decimals > 0 => Token::Real {
                            mantissa: value,
                            decimals,
                        },
                        _ => Token::Int(value),
                    };
                    edit.set.push((t, Put::Token(token)));
                }
                Some(&Slot::Char(t, i)) => {
                    let at = match words.iter().position(|(w, _)| *w == t) {
                        Some(at) => at,
                        None => {
                            words.push((t, self.token_text(t)));
                            words.len() - 1
                        }
                    };
                    let byte = &mut words[at].1[i as usize];
                    if let Some(base) = char_base(*byte) {
                        *byte = base + value.clamp(0, 25) as u8;
                    }
                }
                None => {}
            }
        }
        edit.set
            .extend(words.into_iter().map(|(t, word)| (t, Put::Word(word))));
        edit.sort();
        let next = self.edited(&edit);
        // The same slots: lowering a value does not turn it into a count.
        let _ = next
            .slots
            .set(Arc::clone(self.slots.get().expect("slots found above")));
        next
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_count_lines_and_tokens() {
        assert_eq!(TextCase::new(b"").size_label(), "0 lines, 0 tokens");
        assert_eq!(TextCase::new(b"3\n").size_label(), "1 line, 1 token");
        assert_eq!(TextCase::new(b"3\n1 2 3").size_label(), "2 lines, 4 tokens");
        let long = format!("1\n{}\n", "ab".repeat(11));
        assert_eq!(
            TextCase::new(long.as_bytes()).size_label(),
            "2 lines, 2 tokens, a string of 22"
        );
    }

    /// An integer is what the standard library parses, of digits after an optional minus.
    #[test]
    fn integers_read_as_the_standard_library_reads_them() {
        let ends = [i64::MIN, i64::MAX, 0, -1];
        let mut words: Vec<String> = ends.iter().map(i64::to_string).collect();
        words.extend(
            [
                "9223372036854775808",
                "-9223372036854775809",
                "99999999999999999999",
            ]
            .map(String::from),
        );
        words.extend(
            [
                "", "-", "+5", "--1", "1-", "007", "-007", "-0", "1.5", "1e3", "12a", " 1", "٣",
            ]
            .map(String::from),
        );
        for word in words {
            let digits = word.strip_prefix('-').unwrap_or(&word);
            let standard = (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
                .then(|| word.parse::<i64>().ok())
                .flatten();
            assert_eq!(parse_integer(word.as_bytes()), standard, "{word:?}");
        }
    }

    fn minimize(text: &str, fails: impl Fn(&TextCase) -> bool + Sync) -> String {
        let out = crate::stress::minimize::tests::run(TextCase::new(text.as_bytes()), 2, fails);
        String::from_utf8(out.case.to_bytes()).unwrap()
    }

    /// `n` then n numbers, on one line or two.
    fn array(c: &TextCase) -> Option<Vec<i64>> {
        let text = String::from_utf8(c.to_bytes()).unwrap();
        let mut tokens = text.split_whitespace().map(|t| t.parse::<i64>().ok());
        let n = tokens.next()??;
        let values: Option<Vec<i64>> = tokens.collect();
        let values = values?;
        (n >= 1 && values.len() as i64 == n).then_some(values)
    }

    /// The inversion count bug: equal elements counted as inversions.
    fn inversions_wrong(values: &[i64]) -> bool {
        let pairs = |strict: bool| {
            let mut count = 0;
            for i in 0..values.len() {
                for j in i + 1..values.len() {
                    if values[i] > values[j] || (!strict && values[i] == values[j]) {
                        count += 1;
                    }
                }
            }
            count
        };
        pairs(true) != pairs(false)
    }

    #[test]
    fn an_array_shrinks_with_its_length() {
        let start = "10\n5 6 9 1 8 4 1 3 2 6\n";
        assert_eq!(
            minimize(start, |c| array(c).is_some_and(|v| inversions_wrong(&v))),
            "2\n0 0\n"
        );
        // The same with the array on the count's line.
        let start = "10 5 6 9 1 8 4 1 3 2 6\n";
        assert_eq!(
            minimize(start, |c| array(c).is_some_and(|v| inversions_wrong(&v))),
            "2 0 0\n"
        );
    }

    /// `T`, then T cases `n` / n numbers; fails when some case holds a 7.
    fn cases(c: &TextCase) -> Option<Vec<Vec<i64>>> {
        let lines: Vec<Vec<i64>> = String::from_utf8(c.to_bytes())
            .unwrap()
            .lines()
            .map(|l| l.split_whitespace().map(|t| t.parse().ok()).collect())
            .collect::<Option<_>>()?;
        let t = *lines.first()?.first()? as usize;
        if lines[0].len() != 1 || lines.len() != 1 + 2 * t {
            return None;
        }
        (0..t)
            .map(|k| {
                let (head, items) = (&lines[1 + 2 * k], &lines[2 + 2 * k]);
                (head.len() == 1 && head[0] as usize == items.len() && !items.is_empty())
                    .then(|| items.clone())
            })
            .collect()
    }

    #[test]
    fn negative_values_shrink_toward_0() {
        // The largest subarray sum with the empty subarray allowed: wrong exactly when every
        // value is negative. Of the arrays of one value that fail, `-1` is nearest 0.
        let fails = |c: &TextCase| array(c).is_some_and(|v| v.iter().all(|&x| x < 0));
        assert_eq!(minimize("3\n-5 -9 -7\n", fails), "1\n-1\n");
        // A value is lowered from either sign toward 0, and stops where 0 would pass.
        let fails = |c: &TextCase| array(c).is_some_and(|v| v.iter().any(|&x| x < -3));
        assert_eq!(minimize("2\n8 -9\n", fails), "1\n-4\n");
    }

    #[test]
    fn a_bug_in_one_case_of_eight_ends_with_t_1() {
        let mut text = "8\n".to_string();
        for k in 0..8 {
            let items: Vec<String> = (0..3).map(|i| (10 * k + i).to_string()).collect();
            let items = if k == 4 {
                vec!["1".to_string(), "7".to_string(), "2".to_string()]
            } else {
                items
                    .iter()
                    .map(|x| format!("{}", x.parse::<i64>().unwrap() % 5 + 1))
                    .collect()
            };
            text.push_str(&format!("3\n{}\n", items.join(" ")));
        }
        let small = minimize(&text, |c| {
            cases(c).is_some_and(|cs| cs.iter().any(|case| case.contains(&7)))
        });
        assert_eq!(small, "1\n1\n7\n");
    }

    #[test]
    fn without_a_validator_a_count_keeps_what_it_counts() {
        // "Fails" on anything the program misreads, the count alone included: without a
        // validator, the lines of a counted list are never dropped apart from their count.
        let start = TextCase::new(b"3\n5 6 7\n").validated(false);
        let out = crate::stress::minimize::tests::run(start, 2, |_| true);
        assert_eq!(String::from_utf8(out.case.to_bytes()).unwrap(), "1\n0\n");
        // With one, it may go further.
        let start = TextCase::new(b"3\n5 6 7\n");
        let out = crate::stress::minimize::tests::run(start, 2, |_| true);
        assert!(out.case.to_bytes().len() < 4, "{:?}", out.case.to_bytes());
    }

    #[test]
    fn lines_counted_by_a_line_shrink_with_their_count() {
        // `n` then n lines of two numbers; fails when some pair is equal.
        let text = "4\n1 2\n3 3\n5 6\n7 8\n";
        let lines_of = |c: &TextCase| -> Vec<Vec<String>> {
            String::from_utf8(c.to_bytes())
                .unwrap()
                .lines()
                .map(|l| l.split_whitespace().map(str::to_string).collect())
                .collect()
        };
        let valid = |c: &TextCase| {
            let lines = lines_of(c);
            let n: usize = lines[0].first().and_then(|t| t.parse().ok()).unwrap_or(0);
            lines[0].len() == 1 && lines.len() == n + 1 && lines[1..].iter().all(|l| l.len() == 2)
        };
        let small = minimize(text, |c| {
            valid(c) && lines_of(c)[1..].iter().any(|l| l[0] == l[1])
        });
        assert_eq!(small, "1\n0 0\n");
    }
}

/// The contest layouts: counts anywhere on their line, trees and graphs, strings, test cases
/// with headers of several counts. Each predicate is a wrong solution's bug with a validity
/// check (the validator), and the expected end its smallest failing case.
#[cfg(test)]
mod layouts {
    use super::*;
    use crate::stress::minimize::tests::run;

    fn text(c: &TextCase) -> String {
        String::from_utf8(c.to_bytes()).unwrap()
    }

    fn minimize(start: &str, fails: impl Fn(&str) -> bool + Sync) -> String {
        text(&run(TextCase::new(start.as_bytes()), 2, |c| fails(&text(c))).case)
    }

    /// The numbers of each line.
    fn numbers(input: &str) -> Option<Vec<Vec<i64>>> {
        input
            .lines()
            .map(|l| l.split_whitespace().map(|w| w.parse().ok()).collect())
            .collect()
    }

    /// `n m`, then m lines of `width` numbers each (an edge list), n ≥ 1: n and the edges.
    fn counted_edges(input: &str, width: usize) -> Option<(usize, Vec<Vec<i64>>)> {
        let mut lines = numbers(input)?;
        if lines.is_empty() {
            return None;
        }
        let edges = lines.split_off(1);
        let &[n, m] = lines[0].as_slice() else {
            return None;
        };
        let fits = n >= 1 && edges.len() as i64 == m && edges.iter().all(|e| e.len() == width);
        fits.then_some((n as usize, edges))
    }

    /// `n s`, then n numbers of at least 1; the wrong answer takes a_i + a_i = s for a pair.
    fn pair_sum_wrong(input: &str) -> bool {
        let Some(lines) = numbers(input) else {
            return false;
        };
        let ([head, a], true) = (lines.as_slice(), input.ends_with('\n')) else {
            return false;
        };
        let &[n, s] = head.as_slice() else {
            return false;
        };
        if n < 1 || a.len() as i64 != n || s < 2 || a.iter().any(|&x| x < 1) {
            return false;
        }
        let pair = |distinct: bool| {
            (0..a.len()).any(|i| (0..a.len()).any(|j| (i != j || !distinct) && a[i] + a[j] == s))
        };
        pair(true) != pair(false)
    }

    #[test]
    fn a_count_before_another_number_on_its_line_shrinks_with_its_items() {
        assert_eq!(minimize("2 2\n1 2\n", pair_sum_wrong), "1 2\n1\n");
        assert_eq!(
            minimize("7 30\n9 3 15 22 4 17 1\n", pair_sum_wrong),
            "1 2\n1\n"
        );
        // s = 2a, both lowered together: divided by their common divisor.
        assert_eq!(minimize("1 6\n3\n", pair_sum_wrong), "1 2\n1\n");
    }

    /// `n k`, then n numbers of at least 1: the largest average of k in a row, wrong when
    /// the last window is the only best one (the loop stops one window early).
    fn window_wrong(input: &str) -> bool {
        let Some(lines) = numbers(input) else {
            return false;
        };
        let [head, a] = lines.as_slice() else {
            return false;
        };
        let &[n, k] = head.as_slice() else {
            return false;
        };
        if !(1 <= k && k <= n) || a.len() as i64 != n || a.iter().any(|&x| x < 1) {
            return false;
        }
        let k = k as usize;
        let sums: Vec<i64> = a.windows(k).map(|w| w.iter().sum()).collect();
        let best = |s: &[i64]| s.iter().max().copied();
        best(&sums) != best(&sums[..sums.len() - 1]).or(Some(sums[0]))
    }

    #[test]
    fn a_window_length_after_the_count_keeps_within_it() {
        assert_eq!(minimize("6 2\n5 9 1 3 8 12\n", window_wrong), "2 1\n1 2\n");
    }

    #[test]
    fn a_header_value_within_the_count_keeps_within_it_as_items_go() {
        // `n k`, k ≤ n, n numbers of at least 1: fails when k = n and a 9 is among them.
        let fails = |input: &str| {
            let Some(lines) = numbers(input) else {
                return false;
            };
            let [head, a] = lines.as_slice() else {
                return false;
            };
            let &[n, k] = head.as_slice() else {
                return false;
            };
            (1..=n).contains(&k)
                && a.len() as i64 == n
                && a.iter().all(|&x| x >= 1)
                && k == n
                && a.contains(&9)
        };
        assert_eq!(minimize("5 5\n1 2 9 3 4\n", fails), "1 1\n9\n");
    }

    /// A string of lowercase letters; the wrong answer sees only palindromes of odd length,
    /// so any two equal letters in a row break it.
    fn even_palindrome(s: &str) -> bool {
        s.as_bytes().windows(2).any(|w| w[0] == w[1])
    }

    fn lowercase(s: &str) -> bool {
        !s.is_empty() && s.bytes().all(|b| b.is_ascii_lowercase())
    }

    #[test]
    fn a_string_shrinks_by_its_characters_and_lowers_them_toward_a() {
        let fails = |input: &str| {
            let s = input.strip_suffix('\n').unwrap_or("");
            lowercase(s) && even_palindrome(s)
        };
        assert_eq!(minimize("bheaacjhff\n", fails), "aa\n");
        // Twenty thousand letters: chunks first, a few hundred probes.
        let mut state = 7u64;
        let long: String = (0..20_000)
            .map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (b'a' + (state >> 33) as u8 % 3) as char
            })
            .collect();
        let out = run(TextCase::new(format!("{long}\n").as_bytes()), 2, |c| {
            fails(&text(c))
        });
        assert_eq!(text(&out.case), "aa\n");
        assert!(out.stats.runs < 400, "{} runs", out.stats.runs);
    }

    #[test]
    fn a_string_counted_by_n_keeps_its_count() {
        let fails = |input: &str| {
            let mut lines = input.lines();
            let (Some(n), Some(s), None) = (lines.next(), lines.next(), lines.next()) else {
                return false;
            };
            n.parse() == Ok(s.len()) && lowercase(s) && even_palindrome(s)
        };
        assert_eq!(minimize("10\nbheaacjhff\n", fails), "2\naa\n");
    }

    /// A tree: `n`, then n − 1 edges over 1..=n that join every vertex.
    fn tree(input: &str) -> Option<(usize, Vec<(usize, usize)>)> {
        let lines = numbers(input)?;
        let (head, edges) = lines.split_first()?;
        let &[n] = head.as_slice() else {
            return None;
        };
        let n = usize::try_from(n).ok().filter(|&n| n >= 1)?;
        let mut parts = layout::Parts::new(n + 1);
        let mut pairs = Vec::new();
        for edge in edges {
            let &[u, v] = edge.as_slice() else {
                return None;
            };
            let (u, v) = (usize::try_from(u).ok()?, usize::try_from(v).ok()?);
            if !(1..=n).contains(&u) || !(1..=n).contains(&v) || !parts.join(u, v) {
                return None;
            }
            pairs.push((u, v));
        }
        (pairs.len() + 1 == n).then_some((n, pairs))
    }

    /// Depth of the deepest vertex below `v` (coming from `from`).
    fn depth(adj: &[Vec<usize>], v: usize, from: usize) -> usize {
        adj[v]
            .iter()
            .filter(|&&w| w != from)
            .map(|&w| depth(adj, w, v) + 1)
            .max()
            .unwrap_or(0)
    }

    /// The wrong diameter: the two deepest branches of vertex 1 only.
    fn diameter_wrong(n: usize, pairs: &[(usize, usize)]) -> bool {
        let mut adj = vec![Vec::new(); n + 1];
        for &(u, v) in pairs {
            adj[u].push(v);
            adj[v].push(u);
        }
        let right = (1..=n)
            .map(|v| {
                let mut d: Vec<usize> = adj[v].iter().map(|&w| depth(&adj, w, v) + 1).collect();
                d.sort_unstable_by(|a, b| b.cmp(a));
                d.iter().take(2).sum::<usize>()
            })
            .max()
            .unwrap_or(0);
        let mut d: Vec<usize> = adj[1].iter().map(|&w| depth(&adj, w, 1) + 1).collect();
        d.sort_unstable_by(|a, b| b.cmp(a));
        right != d.iter().take(2).sum::<usize>()
    }

    /// A random tree of `n` vertices, its labels shuffled: `n`, then the edges.
    fn random_tree(n: usize, seed: u64) -> String {
        let mut state = seed;
        let mut next = |below: usize| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as usize % below
        };
        let mut label: Vec<usize> = (1..=n).collect();
        for i in (1..n).rev() {
            label.swap(i, next(i + 1));
        }
        let mut out = format!("{n}\n");
        for i in 1..n {
            out.push_str(&format!("{} {}\n", label[i], label[next(i)]));
        }
        out
    }

    #[test]
    fn a_tree_shrinks_to_the_smallest_failing_tree_with_or_without_a_validator() {
        let mut tried = 0;
        for seed in 1..40 {
            let start = random_tree(12, seed);
            let (n, pairs) = tree(&start).unwrap();
            if !diameter_wrong(n, &pairs) {
                continue;
            }
            tried += 1;
            // With a validator: only trees are valid.
            let small = minimize(&start, |c| {
                tree(c).is_some_and(|(n, p)| diameter_wrong(n, &p))
            });
            assert_eq!(tree(&small).unwrap().0, 6, "{start}→\n{small}");
            // Without one, every candidate probed is taken for valid: the graph's own
            // candidates keep it a tree all the same.
            let out = run(TextCase::new(start.as_bytes()).validated(false), 2, |c| {
                tree(&text(c)).is_none_or(|(n, p)| diameter_wrong(n, &p))
            });
            let small = text(&out.case);
            let (n, pairs) = tree(&small).unwrap_or_else(|| panic!("not a tree:\n{small}"));
            assert!(diameter_wrong(n, &pairs));
            assert_eq!(n, 6, "{start}→\n{small}");
        }
        assert!(tried >= 3, "{tried} failing trees");
    }

    #[test]
    fn values_of_the_vertices_go_with_their_vertex() {
        // `n`, the n values, then the tree; fails when a vertex of value 7 is a leaf of a
        // tree of at least 3 vertices.
        let fails = |input: &str| {
            let Some(lines) = numbers(input) else {
                return false;
            };
            let Some((values, rest)) = lines.get(1..).and_then(|l| l.split_first()) else {
                return false;
            };
            let edges: String = rest
                .iter()
                .map(|e| {
                    format!(
                        "{}\n",
                        e.iter().map(i64::to_string).collect::<Vec<_>>().join(" ")
                    )
                })
                .collect();
            let Some((n, pairs)) = tree(&format!("{}\n{edges}", lines[0][0])) else {
                return false;
            };
            let degree = |v: usize| pairs.iter().filter(|&&(a, b)| a == v || b == v).count();
            values.len() == n && n >= 3 && (1..=n).any(|v| values[v - 1] == 7 && degree(v) == 1)
        };
        let start = "6\n1 2 3 4 5 7\n1 2\n2 3\n3 4\n4 5\n5 6\n";
        let small = minimize(start, fails);
        assert_eq!(small, "3\n0 0 7\n1 2\n2 3\n");
    }

    #[test]
    fn a_graph_counting_its_edges_keeps_its_labels_within_n() {
        // `n m`, then m edges; fails on a vertex of degree 3 (the smallest: a star of 4
        // vertices, 3 edges), valid when simple and connected.
        let fails = |input: &str| {
            let Some((n, edges)) = counted_edges(input, 2) else {
                return false;
            };
            let mut parts = layout::Parts::new(n + 1);
            let mut joined = 0;
            let mut seen = std::collections::HashSet::new();
            let mut degree = vec![0; n + 1];
            for e in edges {
                let (u, v) = (e[0] as usize, e[1] as usize);
                if !(1..=n).contains(&u) || !(1..=n).contains(&v) || u == v {
                    return false;
                }
                if !seen.insert((u.min(v), u.max(v))) {
                    return false;
                }
                joined += usize::from(parts.join(u, v));
                degree[u] += 1;
                degree[v] += 1;
            }
            joined + 1 == n && degree.iter().any(|&d| d >= 3)
        };
        let start = "8 11\n1 2\n2 3\n3 4\n4 5\n5 6\n6 7\n7 8\n8 1\n2 6\n3 7\n4 8\n";
        let small = minimize(start, fails);
        let lines = numbers(&small).unwrap();
        assert_eq!(lines[0], vec![4, 3], "{small}");
    }

    /// `n m`, then m weighted edges `u v w`: valid when simple, labels within n and
    /// weights at least 1; the wrong answer misses a cycle (the smallest: a triangle).
    fn cycle_wrong(input: &str) -> bool {
        let Some((n, edges)) = counted_edges(input, 3) else {
            return false;
        };
        if edges.iter().any(|e| e[2] < 1) {
            return false;
        }
        let mut parts = layout::Parts::new(n + 1);
        let mut seen = std::collections::HashSet::new();
        let mut cycle = false;
        for e in edges {
            let (u, v) = (e[0] as usize, e[1] as usize);
            if !(1..=n).contains(&u) || !(1..=n).contains(&v) || u == v {
                return false;
            }
            if !seen.insert((u.min(v), u.max(v))) {
                return false;
            }
            cycle |= !parts.join(u, v);
        }
        cycle
    }

    /// The graph of `edges` over 1..=n with each label v written as `labels[v - 1]`.
    fn weighted(n: usize, edges: &[(usize, usize)], labels: &[usize]) -> String {
        let mut text = format!("{n} {}\n", edges.len());
        for (i, &(u, v)) in edges.iter().enumerate() {
            let w = 1 + i % 3;
            text.push_str(&format!("{} {} {w}\n", labels[u - 1], labels[v - 1]));
        }
        text
    }

    /// Every order of `1..=n`, for small n.
    fn orders(n: usize) -> Vec<Vec<usize>> {
        if n == 0 {
            return vec![Vec::new()];
        }
        let mut all = Vec::new();
        for rest in orders(n - 1) {
            for at in 0..=rest.len() {
                let mut order = rest.clone();
                order.insert(at, n);
                all.push(order);
            }
        }
        all
    }

    #[test]
    fn a_vertex_removed_takes_its_edges_from_the_edge_count() {
        // n = m (a triangle and a leaf), n < m (a triangle with a chord and a leaf), n > m
        // (a triangle, an edge apart and a vertex alone): every labelling, so the vertex to
        // remove stands anywhere among the labels. Each ends at a triangle, `3 3`.
        let graphs: [(usize, &[(usize, usize)]); 3] = [
            (4, &[(1, 3), (1, 4), (2, 4), (1, 2)]),
            (5, &[(1, 2), (2, 3), (3, 4), (4, 1), (1, 3), (4, 5)]),
            (6, &[(1, 2), (2, 3), (3, 1), (4, 5)]),
        ];
        for (n, edges) in graphs {
            let mut tried = 0;
            for labels in orders(n).into_iter().step_by(if n > 4 { 37 } else { 1 }) {
                let start = weighted(n, edges, &labels);
                assert!(cycle_wrong(&start), "{start}");
                let small = minimize(&start, cycle_wrong);
                let lines = numbers(&small).unwrap();
                assert_eq!(lines[0], vec![3, 3], "{start}=> {small}");
                assert_eq!(lines.len(), 4, "{start}=> {small}");
                tried += 1;
            }
            assert!(tried >= 4, "{n}");
        }
        // The case first seen: its leaf, vertex 4, goes with the edge it had.
        let start = "4 4\n1 3 1\n1 4 1\n2 4 1\n1 2 1\n";
        assert_eq!(minimize(start, cycle_wrong), "3 3\n1 3 1\n2 3 1\n1 2 1\n");
    }

    /// `n m`, then m edges `u v` of a simple graph: counting its connected components, the
    /// wrong answer takes n − m (a forest's), wrong exactly when the graph has a cycle.
    fn components_wrong(input: &str) -> bool {
        let Some((n, edges)) = counted_edges(input, 2) else {
            return false;
        };
        let mut parts = layout::Parts::new(n + 1);
        let mut seen = std::collections::HashSet::new();
        let mut cycle = false;
        for e in edges {
            let (u, v) = (e[0] as usize, e[1] as usize);
            let in_range = (1..=n).contains(&u) && (1..=n).contains(&v);
            if !in_range || u == v || !seen.insert((u.min(v), u.max(v))) {
                return false;
            }
            cycle |= !parts.join(u, v);
        }
        cycle
    }

    #[test]
    fn a_graph_with_more_vertices_than_edges_loses_its_lowest_label_with_the_counts_right() {
        // The smallest failing graph, by enumeration of every simple graph of up to 4
        // vertices: the fewest vertices, then edges.
        let smallest = (1..=4usize)
            .flat_map(|n| {
                let pairs: Vec<(usize, usize)> = (1..=n)
                    .flat_map(|u| (u + 1..=n).map(move |v| (u, v)))
                    .collect();
                (0u32..1 << pairs.len()).map(move |mask| {
                    let chosen: Vec<(usize, usize)> = (0..pairs.len())
                        .filter(|&i| mask >> i & 1 == 1)
                        .map(|i| pairs[i])
                        .collect();
                    let mut text = format!("{n} {}\n", chosen.len());
                    for (u, v) in chosen {
                        text.push_str(&format!("{u} {v}\n"));
                    }
                    text
                })
            })
            .find(|t| components_wrong(t))
            .unwrap();
        assert_eq!(smallest, "3 3\n1 2\n1 3\n2 3\n");
        // n = 7 > m = 5: a vertex alone, a square, an edge apart; one labelling in 211 (the
        // vertex alone anywhere among the labels), then the vertex alone labelled 1, lowest.
        let edges = [(2, 3), (3, 4), (4, 5), (5, 2), (6, 7)];
        let mut tried = 0;
        for labels in orders(7).into_iter().step_by(211) {
            let mut text = format!("7 {}\n", edges.len());
            for &(u, v) in &edges {
                text.push_str(&format!("{} {}\n", labels[u - 1], labels[v - 1]));
            }
            assert!(components_wrong(&text), "{text}");
            let small = minimize(&text, components_wrong);
            let lines = numbers(&small).unwrap();
            assert_eq!(lines[0], [3, 3], "{text}=> {small}");
            assert!(components_wrong(&small), "{small}");
            tried += 1;
        }
        assert!(tried >= 20);
        let start = "7 5\n2 3\n3 4\n4 5\n5 2\n6 7\n";
        let small = minimize(start, components_wrong);
        assert_eq!(numbers(&small).unwrap()[0], [3, 3], "{small}");
    }

    /// An edge `u v w` (w = 1 for an unweighted one).
    type Edge = (usize, usize, i64);

    /// A tree of weighted or unweighted edges: `n`, then n − 1 lines `u v [w]` over 1..=n that
    /// join every vertex (weights of at least 0), every line of the same shape.
    fn edges_of_tree(input: &str, weighted: bool) -> Option<(usize, Vec<Edge>)> {
        let lines = numbers(input)?;
        let (head, lines) = lines.split_first()?;
        let n = usize::try_from(*head.as_slice().first()?).ok()?;
        if head.len() != 1 || n < 1 || lines.len() + 1 != n || !input.ends_with('\n') {
            return None;
        }
        let mut parts = layout::Parts::new(n + 1);
        let mut edges = Vec::new();
        for line in lines {
            let (u, v, w) = match (line.as_slice(), weighted) {
                (&[u, v, w], true) if w >= 0 => (u, v, w),
                (&[u, v], false) => (u, v, 1),
                _ => return None,
            };
            let (u, v) = (usize::try_from(u).ok()?, usize::try_from(v).ok()?);
            if !(1..=n).contains(&u) || !(1..=n).contains(&v) || !parts.join(u, v) {
                return None;
            }
            edges.push((u, v, w));
        }
        Some((n, edges))
    }

    /// The weighted distances from `from` over a tree's edges.
    fn distances(n: usize, edges: &[Edge], from: usize) -> Vec<i64> {
        let mut dist = vec![-1; n + 1];
        dist[from] = 0;
        for _ in 0..n {
            for &(u, v, w) in edges {
                for (a, b) in [(u, v), (v, u)] {
                    if dist[a] >= 0 && dist[b] < 0 {
                        dist[b] = dist[a] + w;
                    }
                }
            }
        }
        dist
    }

    /// The right diameter: the farthest distance over all pairs.
    fn diameter(n: usize, edges: &[Edge]) -> i64 {
        (1..=n)
            .flat_map(|v| distances(n, edges, v))
            .max()
            .unwrap_or(0)
    }

    /// Every tree of `n` vertices, as `n` and its edges in order of their vertices, each
    /// weight drawn from `weights` (sets of n − 1 pairs that join every vertex).
    fn every_tree(n: usize, weights: &[i64]) -> Vec<String> {
        let pairs: Vec<(usize, usize)> = (1..=n)
            .flat_map(|u| (u + 1..=n).map(move |v| (u, v)))
            .collect();
        let mut out = Vec::new();
        for mask in 0u32..1 << pairs.len() {
            let chosen: Vec<(usize, usize)> = (0..pairs.len())
                .filter(|&i| mask >> i & 1 == 1)
                .map(|i| pairs[i])
                .collect();
            let mut parts = layout::Parts::new(n + 1);
            if chosen.len() + 1 != n || !chosen.iter().all(|&(u, v)| parts.join(u, v)) {
                continue;
            }
            let mut ws = vec![0usize; chosen.len()];
            loop {
                let mut text = format!("{n}\n");
                for (&(u, v), &w) in chosen.iter().zip(&ws) {
                    // Both ways round: a bug may hang on the order of an edge's labels.
                    let (u, v) = if w % 2 == 1 { (v, u) } else { (u, v) };
                    match weights.get(w / 2) {
                        Some(w) => text.push_str(&format!("{u} {v} {w}\n")),
                        None => text.push_str(&format!("{u} {v}\n")),
                    }
                }
                out.push(text);
                let span = 2 * weights.len().max(1);
                let Some(i) = ws.iter().position(|&w| w + 1 < span) else {
                    break;
                };
                ws[i] += 1;
                ws[..i].fill(0);
            }
        }
        out
    }

    /// The least number of vertices of a tree on which `fails`, by trying every tree of up to
    /// `most` vertices.
    fn smallest_failing(most: usize, weights: &[i64], fails: impl Fn(&str) -> bool) -> usize {
        (1..=most)
            .find(|&n| every_tree(n, weights).iter().any(|t| fails(t)))
            .expect("no tree fails")
    }

    /// A random tree of `n` vertices (the labels shuffled, each edge either way round), its
    /// edges weighted from 1 to 9 when `weighted`.
    fn random_edges(n: usize, seed: u64, weighted: bool) -> String {
        let mut state = seed;
        let mut next = |below: usize| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as usize % below
        };
        let mut label: Vec<usize> = (1..=n).collect();
        for i in (1..n).rev() {
            label.swap(i, next(i + 1));
        }
        let mut out = format!("{n}\n");
        for i in 1..n {
            let (u, v) = (label[i], label[next(i)]);
            let (u, v) = if next(2) == 0 { (u, v) } else { (v, u) };
            out.push_str(&format!("{u} {v}"));
            if weighted {
                out.push_str(&format!(" {}", 1 + next(9)));
            }
            out.push('\n');
        }
        out
    }

    /// Minimizes failing random trees of 10 vertices (the first `tries` seeds that fail),
    /// with a validator and without one, and checks each ends at a tree of `expected`
    /// vertices on which `wrong` fails.
    fn trees_end_at(
        weighted: bool,
        expected: usize,
        tries: usize,
        wrong: impl Fn(usize, &[Edge]) -> bool + Sync,
    ) {
        let fails = |c: &str| edges_of_tree(c, weighted).is_some_and(|(n, e)| wrong(n, &e));
        let mut tried = 0;
        for seed in 1..200 {
            let start = random_edges(10, seed, weighted);
            if tried == tries || !fails(&start) {
                continue;
            }
            tried += 1;
            let small = minimize(&start, fails);
            let (n, _) = edges_of_tree(&small, weighted).unwrap();
            assert_eq!(n, expected, "{start}=> {small}");
            // Without a validator every candidate probed is taken for valid.
            let out = run(TextCase::new(start.as_bytes()).validated(false), 2, |c| {
                let text = text(c);
                edges_of_tree(&text, weighted).is_none_or(|(n, e)| wrong(n, &e))
            });
            let small = text(&out.case);
            let tree = edges_of_tree(&small, weighted);
            let (n, edges) = tree.unwrap_or_else(|| panic!("not a tree: {start}=> {small}"));
            assert!(wrong(n, &edges), "{small}");
            assert_eq!(n, expected, "{start}=> {small}");
        }
        assert_eq!(tried, tries);
    }

    #[test]
    fn a_weighted_tree_ends_at_three_vertices_whose_edges_read_as_three_numbers() {
        // The farthest vertex from vertex 1 taken for the diameter: wrong once vertex 1 has
        // two branches, a tree of 3 (`3 / 1 2 1 / 3 1 1`), whose two lines of three numbers
        // are also read as two lists of the count 3.
        let wrong =
            |n: usize, e: &[Edge]| distances(n, e, 1).into_iter().max() != Some(diameter(n, e));
        let fails = |t: &str| edges_of_tree(t, true).is_some_and(|(n, e)| wrong(n, &e));
        assert_eq!(smallest_failing(4, &[0, 1, 2], fails), 3);
        trees_end_at(true, 3, 4, wrong);
        // The case first seen stopped at 4 vertices.
        let start = "4\n1 2 1\n4 1 1\n3 4 1\n";
        let small = minimize(start, fails);
        assert_eq!(edges_of_tree(&small, true).unwrap().0, 3, "{small}");
    }

    #[test]
    fn a_weighted_tree_ends_at_two_vertices() {
        // The diameter counted in edges, not in weights: wrong on one edge of weight 2.
        let wrong = |n: usize, e: &[Edge]| {
            let hops: Vec<Edge> = e.iter().map(|&(u, v, _)| (u, v, 1)).collect();
            diameter(n, &hops) != diameter(n, e)
        };
        let fails = |t: &str| edges_of_tree(t, true).is_some_and(|(n, e)| wrong(n, &e));
        assert_eq!(smallest_failing(3, &[0, 1, 2], fails), 2);
        trees_end_at(true, 2, 4, wrong);
    }

    #[test]
    fn an_unweighted_tree_ends_at_two_vertices_whose_edge_reads_as_two_numbers() {
        // Each edge taken as `parent child` from the root 1: wrong on an edge written child
        // first, a tree of 2 (`2 / 2 1`), whose line is also read as the count 2's numbers.
        let wrong = |n: usize, e: &[Edge]| {
            let right = distances(n, e, 1);
            let mut depth = vec![0i64; n + 1];
            for _ in 0..n {
                for &(u, v, _) in e {
                    depth[v] = depth[u] + 1;
                }
            }
            (1..=n).any(|v| depth[v] != right[v])
        };
        let fails = |t: &str| edges_of_tree(t, false).is_some_and(|(n, e)| wrong(n, &e));
        assert_eq!(smallest_failing(3, &[], fails), 2);
        assert!(fails("2\n2 1\n"));
        trees_end_at(false, 2, 4, wrong);
    }

    #[test]
    fn test_cases_with_headers_of_two_counts_end_with_t_1() {
        // T, then T cases `n k` / n numbers; fails when a case's last number is 9.
        let fails = |input: &str| {
            let Some(lines) = numbers(input) else {
                return false;
            };
            let Some(&[t]) = lines.first().map(Vec::as_slice) else {
                return false;
            };
            if t < 1 || lines.len() as i64 != 1 + 2 * t {
                return false;
            }
            (0..t as usize).all(|c| {
                let (head, a) = (&lines[1 + 2 * c], &lines[2 + 2 * c]);
                head.len() == 2 && head[0] == a.len() as i64 && (1..=head[0]).contains(&head[1])
            }) && (0..t as usize).any(|c| lines[2 + 2 * c].last() == Some(&9))
        };
        let start = "4\n3 2\n1 2 3\n5 1\n4 4 4 4 4\n2 2\n5 9\n4 3\n1 1 1 1\n";
        assert_eq!(minimize(start, fails), "1\n1 1\n9\n");
    }

    #[test]
    fn a_grid_loses_rows_and_columns_with_its_counts() {
        // `n m`, then n rows of m characters; fails on a `#` anywhere.
        let fails = |input: &str| {
            let mut lines = input.lines();
            let Some(head) = lines.next() else {
                return false;
            };
            let head: Vec<usize> = head.split(' ').filter_map(|w| w.parse().ok()).collect();
            let rows: Vec<&str> = lines.collect();
            head.len() == 2
                && rows.len() == head[0]
                && rows
                    .iter()
                    .all(|r| r.len() == head[1] && r.bytes().all(|b| b == b'.' || b == b'#'))
                && rows.iter().any(|r| r.contains('#'))
        };
        let start = "4 5\n.....\n..#..\n.....\n.#...\n";
        assert_eq!(minimize(start, fails), "1 1\n#\n");
    }

    #[test]
    fn reals_are_lowered_keeping_their_decimals() {
        // Fails when some real is at least 1.25.
        let fails = |input: &str| {
            input
                .split_whitespace()
                .all(|w| w.contains('.') && w.parse::<f64>().is_ok())
                && input
                    .split_whitespace()
                    .any(|w| w.parse::<f64>().unwrap() >= 1.25)
        };
        // 12.00 lowered to 1.25, the others dropped (a validator checks every candidate).
        assert_eq!(minimize("3.50 0.75 12.00\n", fails), "1.25\n");
        // Without one, no token is dropped alone: all three stay, lowered.
        let out = run(
            TextCase::new(b"3.50 0.75 12.00\n").validated(false),
            2,
            |c| fails(&text(c)),
        );
        assert_eq!(text(&out.case), "0.00 0.00 1.25\n");
    }

    /// A query `l r`, from 1.
    type Query = (usize, usize);

    /// `n q`, then n values from 0 to 9, then q queries `l r` (1 ≤ l ≤ r ≤ n): the values and
    /// the queries, when valid.
    fn range_sums(input: &str) -> Option<(Vec<i64>, Vec<Query>)> {
        let lines = numbers(input)?;
        let [head, values, queries @ ..] = lines.as_slice() else {
            return None;
        };
        let &[n, q] = head.as_slice() else {
            return None;
        };
        let valid_values = values.len() as i64 == n && values.iter().all(|v| (0..=9).contains(v));
        if n < 1 || q < 1 || !valid_values || queries.len() as i64 != q {
            return None;
        }
        let queries = queries
            .iter()
            .map(|query| match query.as_slice() {
                &[l, r] if 1 <= l && l <= r && r <= n => Some((l as usize, r as usize)),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()?;
        Some((values.clone(), queries))
    }

    /// The wrong answer takes pre[r] − pre[l]: a query whose first value is not 0 breaks it.
    fn range_sum_wrong(input: &str) -> bool {
        range_sums(input)
            .is_some_and(|(values, queries)| queries.iter().any(|&(l, _)| values[l - 1] != 0))
    }

    /// Every range-sum input of `n` values from 0 to `most` and `q` queries.
    fn every_range_sum(n: usize, q: usize, most: usize) -> Vec<String> {
        let ranges: Vec<(usize, usize)> =
            (1..=n).flat_map(|l| (l..=n).map(move |r| (l, r))).collect();
        let mut out = Vec::new();
        for values in 0..(most + 1).pow(n as u32) {
            let values: Vec<usize> = (0..n)
                .map(|i| values / (most + 1).pow(i as u32) % (most + 1))
                .collect();
            for queries in 0..ranges.len().pow(q as u32) {
                let mut text = format!("{n} {q}\n");
                let values: Vec<String> = values.iter().map(usize::to_string).collect();
                text.push_str(&format!("{}\n", values.join(" ")));
                for i in 0..q {
                    let (l, r) = ranges[queries / ranges.len().pow(i as u32) % ranges.len()];
                    text.push_str(&format!("{l} {r}\n"));
                }
                out.push(text);
            }
        }
        out
    }

    #[test]
    fn range_sum_queries_end_at_one_value_and_one_query() {
        // The smallest failing input, by enumeration: one value, one query, the value 1.
        let smallest = (1..=3)
            .flat_map(|n| (1..=2).map(move |q| (n, q)))
            .find_map(|(n, q)| {
                every_range_sum(n, q, 2)
                    .into_iter()
                    .filter(|t| range_sum_wrong(t))
                    .min_by_key(|t| (t.split_whitespace().count(), t.clone()))
            })
            .unwrap();
        assert_eq!(smallest, "1 1\n1\n1 1\n");
        // `3 1 / 0 1 0 / 2 3`: the query reads as an edge over the 3 values; the vertex 1
        // removed gives `2 1 / 1 0 / 1 2`, which must read as two values and one query (not
        // two lines of two with a 1 that counts nothing) to be taken.
        assert_eq!(minimize("3 1\n0 1 0\n2 3\n", range_sum_wrong), smallest);
        assert_eq!(
            minimize("5 3\n0 4 0 7 1\n1 1\n2 5\n3 4\n", range_sum_wrong),
            smallest
        );
        let case = TextCase::new(b"2 1\n1 0\n1 2\n");
        let layout = case.layout();
        assert_eq!(layout.lists.len(), 2, "{layout:?}");
        assert!(
            layout
                .graphs
                .iter()
                .any(|g| g.n == 2 && g.edge_count == Some(1))
        );
    }

    /// `n`, then n strings of lowercase letters one a line: the strings, when valid.
    fn strings_one_a_line(input: &str) -> Option<Vec<&str>> {
        let mut lines = input.lines();
        let n: usize = lines.next()?.parse().ok()?;
        let strings: Vec<&str> = lines.collect();
        let valid = n >= 1 && strings.len() == n && strings.iter().all(|s| lowercase(s));
        (valid && input.ends_with('\n')).then_some(strings)
    }

    /// Counting distinct strings, the wrong answer counts changes between neighbours (plus 1).
    fn distinct_wrong(input: &str) -> bool {
        strings_one_a_line(input).is_some_and(|s| {
            let distinct: std::collections::HashSet<&&str> = s.iter().collect();
            let changes = 1 + s.windows(2).filter(|w| w[0] != w[1]).count();
            distinct.len() != changes
        })
    }

    #[test]
    fn strings_one_a_line_are_renamed_to_the_smallest_keeping_which_are_equal() {
        // The smallest failing input, by enumeration over strings of `a` and `b` up to two
        // letters: fewest strings, then fewest characters, then first in byte order.
        let words = ["a", "b", "aa", "ab", "ba", "bb"];
        let mut every = Vec::new();
        for n in 1..=3usize {
            for pick in 0..words.len().pow(n as u32) {
                let chosen: Vec<&str> = (0..n)
                    .map(|i| words[pick / words.len().pow(i as u32) % words.len()])
                    .collect();
                every.push(format!("{n}\n{}\n", chosen.join("\n")));
            }
        }
        let smallest = every
            .into_iter()
            .filter(|t| distinct_wrong(t))
            .min_by_key(|t| (t.lines().count(), t.len(), t.clone()))
            .unwrap();
        assert_eq!(smallest, "3\na\nb\na\n");
        // Where cutting and lowering letters one at a time stop (each edit alone passes).
        assert_eq!(minimize("3\naa\na\naa\n", distinct_wrong), smallest);
        assert_eq!(
            minimize("5\nqz\nkkt\nqz\nqz\nm\n", distinct_wrong),
            smallest
        );
    }

    #[test]
    fn a_square_matrix_is_still_read_as_the_rows_of_its_first_count() {
        // `n m` with n = m, then n rows of m numbers: the first count's two lines (the second
        // is the rows' length), not a line each.
        let case = TextCase::new(b"2 2\n1 0\n1 2\n");
        let layout = case.layout();
        let rows = Section::Lines { from: 1, len: 2 };
        assert_eq!(layout.lists.len(), 1, "{layout:?}");
        assert_eq!(layout.lists[0].sections, [rows]);
        // A matrix fails when it holds a 5: it loses its rows with their count (its columns,
        // which no section of the layout holds, stay: `1 3 / 0 5 0`, as before).
        let fails = |input: &str| {
            let Some(lines) = numbers(input) else {
                return false;
            };
            let Some((head, rows)) = lines.split_first() else {
                return false;
            };
            let &[n, m] = head.as_slice() else {
                return false;
            };
            n >= 1
                && m >= 1
                && rows.len() as i64 == n
                && rows.iter().all(|r| r.len() as i64 == m)
                && rows.iter().flatten().any(|&v| v == 5)
        };
        let small = minimize("3 3\n1 2 3\n4 5 6\n7 8 9\n", fails);
        assert!(small.starts_with("1 3\n") && fails(&small), "{small}");
    }
}

/// What the minimizer says of how far it went on a text case.
#[cfg(test)]
mod reports {
    use super::*;
    use crate::stress::minimize::tests::run;
    use crate::stress::minimize::{Budget, End, Probe, shrink};
    use std::sync::Mutex;
    use std::time::Duration;

    #[test]
    fn a_case_cut_short_by_the_budget_names_the_passes_left() {
        let start = TextCase::new(b"5 9\n1 2 3 4 5\n");
        let out = shrink(
            start,
            1,
            Budget::of(Duration::ZERO),
            &|_: &TextCase| Probe::Fails(()),
            &mut |_, _| {},
        );
        assert_eq!(out.stats.end, End::Budget);
        assert!(!out.one_minimal());
        let cut = &out.passes.cut_short;
        for part in ["items of counted lists", "single values lowered"] {
            assert!(cut.iter().any(|p| p == part), "{cut:?}");
        }
        // Passes with nothing to try on this case are not named.
        assert!(
            !cut.iter()
                .any(|p| p == "whole test cases" || p == "vertices of graphs")
        );
    }

    #[test]
    fn without_a_validator_the_candidates_left_out_are_named() {
        // `n k` then n numbers: the k could be dropped alone, which only a validator can
        // judge.
        let start = TextCase::new(b"3 2\n4 5 6\n").validated(false);
        let out = run(start, 1, |c| c.to_bytes().ends_with(b"6\n"));
        assert_eq!(out.stats.end, End::Minimal);
        assert!(!out.one_minimal());
        assert_eq!(out.passes.not_tried.len(), 1, "{:?}", out.passes.not_tried);
        // A tree too: an edge dropped alone, its count unchanged, is left out.
        let start = TextCase::new(b"3\n1 2\n2 3\n").validated(false);
        let out = run(start, 1, |c| c.to_bytes().len() > 4);
        assert_eq!(out.passes.not_tried.len(), 1, "{:?}", out.passes);
        // A lone number has nothing to leave out.
        let out = run(TextCase::new(b"500\n").validated(false), 1, |c| {
            c.value(0) > 20
        });
        assert_eq!(String::from_utf8(out.case.to_bytes()).unwrap(), "21\n");
        assert!(out.one_minimal(), "{:?}", out.passes);
    }

    #[test]
    fn a_count_broken_alone_is_tried_once_all_else_settled() {
        // Fails whenever a 7 is left, whatever the rest: the validator takes anything.
        let probed = Mutex::new(Vec::new());
        let out = shrink(
            TextCase::new(b"3\n5 6 7\n"),
            1,
            Budget::default(),
            &|c: &TextCase| {
                let text = String::from_utf8(c.to_bytes()).unwrap();
                let fails = text.contains('7');
                probed.lock().unwrap().push(text);
                if fails {
                    Probe::Fails(())
                } else {
                    Probe::Passes
                }
            },
            &mut |_, _| {},
        );
        assert_eq!(String::from_utf8(out.case.to_bytes()).unwrap(), "7\n");
        assert!(out.one_minimal());
        let probed = probed.into_inner().unwrap();
        let at = |text: &str| probed.iter().position(|p| p == text);
        // The 7 bisected toward 0 on `1 / 7` before its count's line is dropped alone.
        assert!(at("1\n3\n").unwrap() < at("7\n").unwrap(), "{probed:?}");
    }
}
