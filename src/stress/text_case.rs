//! A case of a problem duipai does not know, minimized as text: lines of tokens, with the
//! counts in them understood well enough to shrink what they count.
//!
//! Most inputs are counts followed by what they count: `n` then n numbers (on its line or the
//! next), `n` then n lines, `T` then T test cases. Dropping an item alone leaves the count
//! wrong and the input invalid, so the candidates here drop items together with their count
//! lowered: whole test cases first (when the first line is a count of the blocks that
//! follow), then halves, quarters, … and single items of every counted list, the longest
//! list first, then chunks and single lines, then single tokens. Values are the integers
//! that are not counts, moved toward 0 by the minimizer. Which candidates are valid inputs
//! is the caller's business (a validator, or the reference accepting them); the candidates
//! only try to be valid often.
//!
//! A case is compact: its tokens point into the text it was read from, shared by every
//! candidate, and a lowered value is stored as a number. A candidate of a 2·10^5-number case
//! is one copy of a flat token list, made only when the minimizer probes it.

use std::ops::Range;
use std::sync::{Arc, OnceLock};

use super::minimize::{Candidates, Shrinkable};
use crate::problem::shrink::ChunkLevels;

/// One token: a span of the original text, or a value the minimizer wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    Text { at: usize, len: u32 },
    Int(i64),
}

/// Lines of tokens, each line's tokens separated by single spaces in its canonical form.
#[derive(Clone, Debug)]
pub struct TextCase {
    /// The text the case was read from, shared by all its candidates.
    src: Arc<[u8]>,
    tokens: Vec<Token>,
    /// Where each line ends in `tokens` (exclusive): line `i` is
    /// `line_ends[i - 1]..line_ends[i]`.
    line_ends: Vec<usize>,
    /// Whether candidates that only a validator can check are tried: single tokens dropped
    /// without their count (without a validator, such an input usually runs but is invalid).
    validated: bool,
    /// The tokens that are values: found once the case is asked for them (a candidate that is
    /// only probed never is), then kept while values are lowered (a lowered value could
    /// otherwise start to look like a count).
    values: OnceLock<Arc<Vec<usize>>>,
}

impl PartialEq for TextCase {
    fn eq(&self, other: &Self) -> bool {
        self.to_bytes() == other.to_bytes()
    }
}

impl Eq for TextCase {}

/// A count and what it counts.
#[derive(Clone, Debug, PartialEq, Eq)]
struct List {
    /// The count's token.
    count: usize,
    items: Items,
    /// How many items there are (the count's value).
    len: usize,
}

/// The items of a counted list.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Items {
    /// Tokens of one line, from this token on: `3 5 6 7` or `3` / `5 6 7`.
    Tokens { from: usize },
    /// Whole lines, each an item, from this line on: `2` / `a b` / `c d`.
    Lines { from: usize },
    /// Blocks of lines (test cases): the line range of each.
    Blocks(Vec<(usize, usize)>),
}

/// What a candidate changes: lines dropped, tokens of one line dropped, a count rewritten.
#[derive(Clone, Debug, Default)]
struct Edit {
    lines: Range<usize>,
    tokens: Range<usize>,
    count: Option<(usize, i64)>,
}

/// Bytes that separate tokens: ASCII whitespace.
fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\x0B' | b'\x0C')
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
        TextCase::of_parts(src, tokens, line_ends, true)
    }

    /// The same case, shrunk without single tokens dropped alone when there is no validator
    /// to say whether such an input is still valid.
    pub fn validated(self, validated: bool) -> TextCase {
        TextCase { validated, ..self }
    }

    /// A case of these tokens and lines, its values to be found anew.
    fn of_parts(
        src: Arc<[u8]>,
        tokens: Vec<Token>,
        line_ends: Vec<usize>,
        validated: bool,
    ) -> TextCase {
        TextCase {
            src,
            tokens,
            line_ends,
            validated,
            values: OnceLock::new(),
        }
    }

    fn values(&self) -> &[usize] {
        self.values
            .get_or_init(|| Arc::new(self.value_positions()))
            .as_slice()
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.src.len() + 1);
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

    /// The case's size for reports: `2 lines, 3 tokens`.
    pub fn size_label(&self) -> String {
        format!(
            "{}, {}",
            crate::text::plural(self.line_count() as u64, "line"),
            crate::text::plural(self.tokens.len() as u64, "token")
        )
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

    fn text<'a>(&'a self, t: usize, buf: &'a mut NumberBuf) -> &'a [u8] {
        match self.tokens[t] {
            Token::Text { at, len } => &self.src[at..at + len as usize],
            Token::Int(v) => buf.format(v),
        }
    }

    /// The token as a count: a small non-negative integer.
    fn count(&self, t: usize) -> Option<usize> {
        match self.tokens[t] {
            Token::Int(v) => (0..1_000_000).contains(&v).then_some(v as usize),
            Token::Text { at, len } => {
                let bytes = &self.src[at..at + len as usize];
                if len > 6 || !bytes.iter().all(u8::is_ascii_digit) {
                    return None;
                }
                std::str::from_utf8(bytes).ok()?.parse().ok()
            }
        }
    }

    /// The token as a value: an integer that fits an i64, with an optional minus sign.
    fn number(&self, t: usize) -> Option<i64> {
        match self.tokens[t] {
            Token::Int(v) => Some(v),
            Token::Text { at, len } => {
                let bytes = &self.src[at..at + len as usize];
                let digits = bytes.strip_prefix(b"-").unwrap_or(bytes);
                if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
                    return None;
                }
                std::str::from_utf8(bytes).ok()?.parse().ok()
            }
        }
    }

    /// The counted lists of the text: test cases first, then the others, longest first.
    fn lists(&self) -> Vec<List> {
        let mut out = Vec::new();
        for i in 0..self.line_count() {
            let line = self.line(i);
            for t in line.clone() {
                let Some(k) = self.count(t) else {
                    continue;
                };
                if k == 0 {
                    continue;
                }
                let after = line.end - t - 1;
                let items = if after == k {
                    Items::Tokens { from: t + 1 }
                } else if after == 0 && i + 1 < self.line_count() && self.line_len(i + 1) == k {
                    Items::Tokens {
                        from: self.line(i + 1).start,
                    }
                } else if after == 0 && i + k < self.line_count() && self.alike(i + 1, k) {
                    Items::Lines { from: i + 1 }
                } else {
                    continue;
                };
                out.push(List {
                    count: t,
                    items,
                    len: k,
                });
            }
        }
        out.sort_by_key(|list| std::cmp::Reverse(list.len));
        if let Some(cases) = self.cases() {
            out.retain(|l| l.count != cases.count);
            out.insert(0, cases);
        }
        out
    }

    /// Whether the `k` lines from `from` have the same number of tokens: items of one kind.
    fn alike(&self, from: usize, k: usize) -> bool {
        let len = self.line_len(from);
        len > 0 && (from..from + k).all(|l| self.line_len(l) == len)
    }

    /// The test cases, when the first line is a count T and the lines after it split into
    /// exactly T blocks: blocks of equal length whose first lines look alike, or blocks that
    /// each start with a count of the lines (or the next line's tokens) that follow.
    fn cases(&self) -> Option<List> {
        if self.line_count() == 0 || self.line_len(0) != 1 {
            return None;
        }
        let t = self.count(0)?;
        let rest = self.line_count() - 1;
        if t < 2 || rest < t {
            return None;
        }
        let ranges = self.equal_blocks(t).or_else(|| self.counted_blocks(t))?;
        Some(List {
            count: 0,
            items: Items::Blocks(ranges),
            len: t,
        })
    }

    /// T blocks of the same length, their first lines of the same token count.
    fn equal_blocks(&self, t: usize) -> Option<Vec<(usize, usize)>> {
        let rest = self.line_count() - 1;
        if !rest.is_multiple_of(t) {
            return None;
        }
        let len = rest / t;
        let ranges: Vec<(usize, usize)> =
            (0..t).map(|b| (1 + b * len, 1 + (b + 1) * len)).collect();
        let head = self.line_len(1);
        ranges
            .iter()
            .all(|&(a, _)| self.line_len(a) == head)
            .then_some(ranges)
    }

    /// Blocks read one after another: a line whose first token k counts the k lines after it,
    /// or a lone count k followed by a line of k tokens; T of them to the end of the text.
    fn counted_blocks(&self, t: usize) -> Option<Vec<(usize, usize)>> {
        let mut ranges = Vec::with_capacity(t);
        let mut at = 1;
        while at < self.line_count() {
            let line = self.line(at);
            if line.is_empty() || ranges.len() == t {
                return None;
            }
            let k = self.count(line.start)?;
            let next = (at + 1 < self.line_count()).then(|| self.line_len(at + 1));
            let len = if line.len() == 1 && next == Some(k) {
                2
            } else {
                1 + k
            };
            if at + len > self.line_count() {
                return None;
            }
            ranges.push((at, at + len));
            at += len;
        }
        (ranges.len() == t).then_some(ranges)
    }

    /// The case with `edit` made, its values found anew.
    fn edited(&self, edit: &Edit) -> TextCase {
        let mut tokens = Vec::with_capacity(self.tokens.len());
        let mut line_ends = Vec::with_capacity(self.line_count());
        for line in 0..self.line_count() {
            if edit.lines.contains(&line) {
                continue;
            }
            for t in self.line(line) {
                if edit.tokens.contains(&t) {
                    continue;
                }
                tokens.push(match edit.count {
                    Some((at, value)) if at == t => Token::Int(value),
                    _ => self.tokens[t],
                });
            }
            line_ends.push(tokens.len());
        }
        TextCase::of_parts(self.src.clone(), tokens, line_ends, self.validated)
    }

    /// The text with the items `drop` of `list` removed and its count lowered by as many.
    fn without_items(&self, list: &List, drop: Range<usize>) -> Option<TextCase> {
        if drop.is_empty() || drop.end > list.len || self.count(list.count) != Some(list.len) {
            return None;
        }
        let mut edit = Edit {
            count: Some((list.count, (list.len - drop.len()) as i64)),
            ..Edit::default()
        };
        match &list.items {
            &Items::Tokens { from } => edit.tokens = from + drop.start..from + drop.end,
            &Items::Lines { from } => edit.lines = from + drop.start..from + drop.end,
            Items::Blocks(ranges) => edit.lines = ranges[drop.start].0..ranges[drop.end - 1].1,
        }
        Some(self.edited(&edit))
    }

    /// The candidates that drop items of counted lists: halves, quarters, … down to pairs of
    /// every list, the longest first, and then single items, all but the last item at most.
    fn fewer_items(&self, lists: Vec<List>) -> Candidates<'_, TextCase> {
        let chunked: Vec<(usize, ChunkLevels)> = lists
            .iter()
            .enumerate()
            .map(|(i, l)| (i, ChunkLevels::new(l.len)))
            .filter(|(_, levels)| levels.count() > 0)
            .collect();
        let singles: Vec<usize> = (0..lists.len()).filter(|&i| lists[i].len > 1).collect();
        let chunk_count: usize = chunked.iter().map(|(_, l)| l.count()).sum();
        let single_count: usize = singles.iter().map(|&i| lists[i].len).sum();
        Candidates::lazy(chunk_count + single_count, move |mut index| {
            for (list, levels) in &chunked {
                if index < levels.count() {
                    return self.without_items(&lists[*list], levels.chunk(index));
                }
                index -= levels.count();
            }
            for &list in &singles {
                if index < lists[list].len {
                    return self.without_items(&lists[list], index..index + 1);
                }
                index -= lists[list].len;
            }
            None
        })
    }

    /// Chunks of lines dropped (halves, quarters, … down to pairs), counts unchanged.
    fn fewer_lines(&self) -> Candidates<'_, TextCase> {
        let levels = ChunkLevels::new(self.line_count());
        let kept = self.lines_to_keep();
        Candidates::lazy(levels.count(), move |i| {
            let lines = levels.chunk(i);
            if kept.iter().any(|l| lines.contains(l)) {
                return None;
            }
            Some(self.edited(&Edit {
                lines,
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
            if kept.contains(&i) {
                return None;
            }
            Some(self.edited(&Edit {
                lines: i..i + 1,
                ..Edit::default()
            }))
        })
    }

    /// The lines a line drop must keep: without a validator, the lines of counted lists (a
    /// count and what it counts), whose drop leaves the count wrong while the reference may
    /// well run on it (`1` with its number gone), so that the case would leave the input's
    /// form; with a validator, none (it says what is valid).
    fn lines_to_keep(&self) -> Vec<usize> {
        if self.validated {
            return Vec::new();
        }
        let line_of = |token: usize| self.line_ends.partition_point(|&end| end <= token);
        let mut kept = Vec::new();
        for list in self.lists() {
            kept.push(line_of(list.count));
            match &list.items {
                &Items::Tokens { from } => kept.push(line_of(from)),
                &Items::Lines { from } => kept.extend(from..from + list.len),
                Items::Blocks(ranges) => kept.extend(ranges.iter().flat_map(|&(a, b)| a..b)),
            }
        }
        kept.sort_unstable();
        kept.dedup();
        kept
    }

    /// Each token dropped alone from a line that keeps at least one.
    fn fewer_tokens(&self) -> Candidates<'_, TextCase> {
        let droppable: Vec<usize> = (0..self.line_count())
            .filter(|&l| self.line_len(l) >= 2)
            .flat_map(|l| self.line(l))
            .collect();
        Candidates::lazy(droppable.len(), move |i| {
            let t = droppable[i];
            Some(self.edited(&Edit {
                tokens: t..t + 1,
                ..Edit::default()
            }))
        })
    }

    /// The tokens the minimizer may lower: integers that are not counts of a list.
    fn value_positions(&self) -> Vec<usize> {
        let mut counts: Vec<usize> = self.lists().iter().map(|l| l.count).collect();
        counts.sort_unstable();
        (0..self.tokens.len())
            .filter(|t| counts.binary_search(t).is_err() && self.number(*t).is_some())
            .collect()
    }
}

/// Where a token sits in the input's shape, the same for every case a generator makes: its
/// line and column, where the lines that are items of a counted list do not count (they are
/// one place, that of their count), and inside a test case counted from the case's first
/// line. Lines and columns past [`EDGE`] share the place at the edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Place {
    /// Inside one of the test cases that follow a count T on the first line.
    pub in_case: bool,
    pub line: u32,
    pub column: u32,
    /// For an item of a counted list: its column in an item line (0 for a list of tokens);
    /// `line` and `column` are then its count's.
    pub item: Option<u32>,
}

/// Where places stop being told apart: the shape of a generator's cases is in their first
/// lines and columns, and a flat grid of numbers must not make a place of every cell.
pub const EDGE: u32 = 64;

/// One token of a case, placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    pub place: Place,
    /// Its value, when it is an integer.
    pub value: Option<i64>,
    /// Whether it counts the items of a list (or the test cases).
    pub count: bool,
}

impl TextCase {
    /// Every token, placed ([`Place`]). Lists of a single item are not taken for lists here:
    /// `1 5` is as likely two values as a list of one. With `tests` (the input is known to be
    /// test cases), a first line `1` is a count of one test case, all the lines after it.
    pub fn placed(&self, tests: bool) -> Vec<Placed> {
        let lists = self.lists();
        let mut roles = Roles::new(self.tokens.len(), self.line_count());
        let mut regions = vec![(0..self.line_count(), false)];
        if let Some(List {
            count,
            items: Items::Blocks(blocks),
            ..
        }) = lists.first()
        {
            roles.count[*count] = true;
            regions = vec![(0..1, false)];
            regions.extend(blocks.iter().map(|&(a, b)| (a..b, true)));
        } else if tests && self.one_test() {
            roles.count[0] = true;
            regions = vec![(0..1, false), (1..self.line_count(), true)];
        }
        // A list is read within one region: a count at the end of one test case does not
        // count the next case's first line.
        let mut region_of = vec![0; self.line_count()];
        for (r, (lines, _)) in regions.iter().enumerate() {
            region_of[lines.clone()].fill(r);
        }
        let within = |l: &List| {
            let last = match l.items {
                Items::Tokens { from } => self.line_of(from + l.len - 1),
                Items::Lines { from } => from + l.len - 1,
                Items::Blocks(_) => return false,
            };
            region_of[self.line_of(l.count)] == region_of[last]
        };
        let mut counted: Vec<&List> = lists.iter().filter(|l| l.len >= 2 && within(l)).collect();
        counted.sort_by_key(|l| l.count);
        for list in counted {
            self.take_list(list, &mut roles);
        }
        let mut placed = Vec::with_capacity(self.tokens.len());
        let mut at: Vec<Option<Place>> = vec![None; self.tokens.len()];
        for (lines, in_case) in regions {
            let mut row = 0u32;
            for line in lines {
                if roles.item_line[line] {
                    continue;
                }
                for (column, t) in self.line(line).enumerate() {
                    at[t] = Some(Place {
                        in_case,
                        line: row.min(EDGE),
                        column: (column as u32).min(EDGE),
                        item: None,
                    });
                }
                row += 1;
            }
        }
        for t in 0..self.tokens.len() {
            let place = match (roles.item_of[t], at[t]) {
                (Some((count, column)), _) => at[count].map(|p| Place {
                    item: Some(column.min(EDGE)),
                    ..p
                }),
                (None, place) => place,
            };
            if let Some(place) = place {
                placed.push(Placed {
                    place,
                    value: self.number(t),
                    count: roles.count[t],
                });
            }
        }
        placed
    }

    /// Marks `list`'s count and items, unless one of its tokens already has a part in a list
    /// found before it.
    fn take_list(&self, list: &List, roles: &mut Roles) {
        let items: Vec<(usize, u32)> = match list.items {
            Items::Tokens { from } => (from..from + list.len).map(|t| (t, 0)).collect(),
            Items::Lines { from } => (from..from + list.len)
                .flat_map(|l| {
                    let start = self.line(l).start;
                    self.line(l).map(move |t| (t, (t - start) as u32))
                })
                .collect(),
            Items::Blocks(_) => return,
        };
        let taken = |t: usize| roles.count[t] || roles.item_of[t].is_some();
        if taken(list.count) || items.iter().any(|&(t, _)| taken(t)) {
            return;
        }
        roles.count[list.count] = true;
        for &(t, column) in &items {
            roles.item_of[t] = Some((list.count, column));
        }
        let count_line = self.line_of(list.count);
        match list.items {
            Items::Tokens { from } if self.line_of(from) != count_line => {
                roles.item_line[self.line_of(from)] = true;
            }
            Items::Lines { from } => {
                roles.item_line[from..from + list.len].fill(true);
            }
            _ => {}
        }
    }

    /// Whether the input could be one test case: a first line `1`, then lines.
    pub fn one_test(&self) -> bool {
        self.line_count() > 1 && self.line_len(0) == 1 && self.count(0) == Some(1)
    }

    /// The line token `t` is on.
    fn line_of(&self, t: usize) -> usize {
        self.line_ends.partition_point(|&end| end <= t)
    }
}

/// The parts tokens have in counted lists, while [`TextCase::placed`] finds them.
struct Roles {
    count: Vec<bool>,
    /// An item's count token and its column in its item line.
    item_of: Vec<Option<(usize, u32)>>,
    /// Lines made of items only.
    item_line: Vec<bool>,
}

impl Roles {
    fn new(tokens: usize, lines: usize) -> Roles {
        Roles {
            count: vec![false; tokens],
            item_of: vec![None; tokens],
            item_line: vec![false; lines],
        }
    }
}

/// Room to write an i64 in decimal.
#[derive(Default)]
struct NumberBuf([u8; 20]);

impl NumberBuf {
    fn format(&mut self, v: i64) -> &[u8] {
        let mut at = self.0.len();
        let mut rest = v.unsigned_abs();
        loop {
            at -= 1;
            self.0[at] = b'0' + (rest % 10) as u8;
            rest /= 10;
            if rest == 0 {
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

/// The passes, most drastic first.
const PASSES: usize = 5;

impl Shrinkable for TextCase {
    fn fingerprint(&self) -> u64 {
        // One hash of the whole text: far cheaper than a hash fed token by token.
        super::minimize::fingerprint(&self.to_bytes())
    }

    fn weight(&self) -> usize {
        self.to_bytes().len()
    }

    fn passes(&self) -> usize {
        PASSES
    }

    fn pass(&self, pass: usize) -> Candidates<'_, Self> {
        match pass {
            // Whole test cases, with T lowered.
            0 => self.fewer_items(self.cases().into_iter().collect()),
            // Items of every counted list, with the count lowered.
            1 => self.fewer_items(self.lists()),
            2 => self.fewer_lines(),
            3 => self.single_lines(),
            4 if self.validated => self.fewer_tokens(),
            _ => Candidates::none(),
        }
    }

    fn slots(&self) -> usize {
        self.values().len()
    }

    fn value(&self, slot: usize) -> i64 {
        self.values()
            .get(slot)
            .and_then(|&t| self.number(t))
            .unwrap_or(0)
    }

    fn with_values(&self, changes: &[(usize, i64)]) -> Self {
        let mut next = self.clone();
        for &(slot, value) in changes {
            if let Some(&t) = self.values().get(slot) {
                next.tokens[t] = Token::Int(value);
            }
        }
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
