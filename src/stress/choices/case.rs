//! A failing case as the sequence of choices the generator made for it: what the minimizer
//! shrinks before the text. A candidate is an edited sequence, which the probe replays
//! through the generator ([`ChoiceCase::given`]); what the generator was then served
//! ([`Ran`]) is the case's own sequence from then on, and it is kept only when it is smaller
//! than the case it was made from ([`ChoiceCase::beats_parent`]: fewer choices, a shorter
//! text, lower values), so that minimization always ends.
//!
//! The passes, most drastic first: every choice at its simplest (the empty sequence); the
//! sizes halved (the first choice of each run of draws from one place); steps of a loop
//! removed together with the size before it lowered by as many (halves, quarters, … of the
//! steps, then single ones), in every loop of about as many steps, a parent-picking loop's
//! later picks renumbered; values drawn more than once lowered together; a step removed
//! alone; chunks of choices removed; values moved to the middle of their range. Then the
//! minimizer lowers the values themselves.

use std::ops::Range;
use std::sync::{Arc, OnceLock};

use crate::own::capture::Choice;
use crate::own::capture::structure::{self, Loop, Trend};
use crate::problem::shrink::ChunkLevels;
use crate::stress::TextCase;
use crate::stress::minimize::{Candidates, Shrinkable};

/// How large a text is, as the choices shrink it by size: a number is one, a word as many as
/// its characters. A case's size is how many numbers it has and how long its strings are:
/// `3 / abc` is larger than `1 / a`, though both are two tokens, and `5000`, then 5000
/// numbers, is as large with every number 0.
pub fn text_size(text: &[u8]) -> usize {
    let number = |t: &[u8]| {
        let digits = t.strip_prefix(b"-").unwrap_or(t);
        !digits.is_empty() && digits.iter().all(|b| b.is_ascii_digit() || *b == b'.')
    };
    text.split(u8::is_ascii_whitespace)
        .filter(|t| !t.is_empty())
        .map(|t| if number(t) { 1 } else { t.len() })
        .sum()
}

/// A text's negative numbers, compared as the choices shrink toward 0: fewer first, then
/// nearer 0 one by one in the text's order. Each is its magnitude's digits, compared by length
/// then digit by digit (`-1` < `-9` < `-10`). A text without negative numbers has none, so
/// that the order of positive values is the choices' own.
type Negatives = (usize, Vec<(usize, Box<[u8]>)>);

fn negatives(text: &[u8]) -> Negatives {
    let magnitudes: Vec<(usize, Box<[u8]>)> = text
        .split(u8::is_ascii_whitespace)
        .filter_map(|t| t.strip_prefix(b"-"))
        .filter(|digits| {
            digits.first().is_some_and(u8::is_ascii_digit)
                && digits.iter().all(|b| b.is_ascii_digit() || *b == b'.')
        })
        .map(|digits| (digits.len(), Box::from(digits)))
        .collect();
    (magnitudes.len(), magnitudes)
}

/// A sequence of choices: given to the generator, and once replayed, what it was served.
#[derive(Clone)]
pub struct ChoiceCase {
    given: Arc<[u64]>,
    /// What the case it was made from was served: the sequence it must beat.
    parent: Arc<[Choice]>,
    /// The size ([`text_size`]) and bytes of the text of the case it was made from.
    parent_size: usize,
    parent_bytes: usize,
    /// What the case it was made from made, when it was replayed (its negative numbers).
    parent_ran: Arc<OnceLock<Ran>>,
    /// Only the sizes are shrunk (a time or memory limit exceeded, where every probe that
    /// fails costs the limit): the empty sequence and the sizes halved, then the sizes
    /// bisected.
    by_size: bool,
    /// The text is shrunk after: a round of choices that keeps nothing smaller hands over.
    hands_over: bool,
    ran: Arc<OnceLock<Ran>>,
}

/// What a replay of the given choices made.
pub struct Ran {
    pub served: Arc<[Choice]>,
    pub text: Vec<u8>,
    /// The text's size label and largest value, for the progress line.
    described: OnceLock<(String, i64)>,
    size: OnceLock<usize>,
    negatives: OnceLock<Negatives>,
}

impl Ran {
    pub fn new(served: Vec<Choice>, text: Vec<u8>) -> Ran {
        Ran {
            served: served.into(),
            text,
            described: OnceLock::new(),
            size: OnceLock::new(),
            negatives: OnceLock::new(),
        }
    }

    /// The text's size ([`text_size`]).
    pub fn size(&self) -> usize {
        *self.size.get_or_init(|| text_size(&self.text))
    }

    /// The text's negative numbers ([`negatives`]).
    fn negatives(&self) -> &Negatives {
        self.negatives.get_or_init(|| negatives(&self.text))
    }

    /// `12 lines, 23 tokens`, and the largest integer of the text.
    pub fn described(&self) -> &(String, i64) {
        self.described.get_or_init(|| {
            let case = TextCase::new(&self.text);
            let largest = (0..case.slots()).map(|s| case.value(s)).max().unwrap_or(0);
            (case.size_label(), largest)
        })
    }
}

/// How many sizes a pass halves at most, and how far into the sequence they are looked for.
const SIZES: usize = 32;
const SIZES_WITHIN: usize = 256;
/// How many counts a pass lowers together with a loop's step.
const COUNTS: usize = 4;
/// Loops of at most this many more or fewer steps than the one a step is removed from lose
/// a step too: the loops one size governs (the parents and the shuffles of a tree's n).
const ALIKE: usize = 2;

impl ChoiceCase {
    /// The case as recorded: the choices and what the generator printed with them; only its
    /// sizes are shrunk `by_size`.
    pub fn start(
        recorded: Vec<Choice>,
        text: Vec<u8>,
        by_size: bool,
        hands_over: bool,
    ) -> ChoiceCase {
        let ran = Ran::new(recorded, text);
        let case = ChoiceCase {
            given: ran.served.iter().map(|c| c.value).collect(),
            parent: ran.served.clone(),
            parent_size: ran.size(),
            parent_bytes: ran.text.len(),
            parent_ran: Arc::new(OnceLock::new()),
            by_size,
            hands_over,
            ran: Arc::new(OnceLock::new()),
        };
        let _ = case.ran.set(ran);
        case
    }

    /// The values to replay.
    pub fn given(&self) -> &[u64] {
        &self.given
    }

    /// The sequence this candidate must beat.
    pub fn parent(&self) -> &[Choice] {
        &self.parent
    }

    /// The size ([`text_size`]) of the text of the case it was made from.
    pub fn parent_size(&self) -> usize {
        self.parent_size
    }

    /// Whether what a replay of this candidate made (the choices `served`, printing `text`)
    /// is smaller than the case it was made from: fewer choices; as many and a shorter text
    /// (a value nearer the middle of a range from −10 to 10 prints shorter); as many, as long
    /// and with negative numbers nearer 0 ([`negatives`]: `-1` beats `-9`, as Hypothesis
    /// shrinks integers toward 0); else lower at the first choice that differs (Hypothesis's
    /// shortlex order). Every kept candidate is smaller in this well-founded order (for a
    /// given length, texts are finitely many), so minimization ends.
    pub fn beats_parent(&self, served: &[Choice], text: &[u8]) -> bool {
        let values = |c: &[Choice]| c.iter().map(|c| c.value).collect::<Vec<u64>>();
        let parent = &self.parent;
        (served.len(), text.len())
            .cmp(&(parent.len(), self.parent_bytes))
            .then_with(|| match self.parent_ran.get() {
                Some(before) => negatives(text).cmp(before.negatives()),
                None => std::cmp::Ordering::Equal,
            })
            .then_with(|| values(served).cmp(&values(parent)))
            .is_lt()
    }

    /// Whether only the sizes are shrunk.
    pub fn by_size(&self) -> bool {
        self.by_size
    }

    pub fn ran(&self) -> Option<&Ran> {
        self.ran.get()
    }

    /// Keeps what the replay of this candidate made.
    pub fn set_ran(&self, ran: Ran) {
        let _ = self.ran.set(ran);
    }

    /// The case's own choices: what it was served, once replayed.
    pub fn choices(&self) -> &[Choice] {
        self.ran.get().map_or(&self.parent, |r| &r.served)
    }

    fn served(&self) -> Arc<[Choice]> {
        self.ran
            .get()
            .map_or_else(|| self.parent.clone(), |r| r.served.clone())
    }

    /// A candidate replaying `given`, to beat this case.
    fn derived(&self, given: Vec<u64>) -> ChoiceCase {
        ChoiceCase {
            given: given.into(),
            parent: self.served(),
            parent_size: self.ran.get().map_or(self.parent_size, Ran::size),
            parent_bytes: self.ran.get().map_or(self.parent_bytes, |r| r.text.len()),
            parent_ran: self.ran.clone(),
            by_size: self.by_size,
            hands_over: self.hands_over,
            ran: Arc::new(OnceLock::new()),
        }
    }

    /// This case's values with `edit` made.
    fn edited(&self, edit: &Edit) -> ChoiceCase {
        let choices = self.choices();
        let mut values: Vec<u64> = choices.iter().map(|c| c.value).collect();
        for &(at, value) in &edit.set {
            if let Some(v) = values.get_mut(at) {
                *v = value;
            }
        }
        let mut gone = edit.delete.clone();
        gone.sort_by_key(|r| r.start);
        gone.retain(|r| r.start < r.end);
        let mut kept = Vec::with_capacity(values.len());
        let mut from = 0;
        for range in gone {
            if range.start > from {
                kept.extend_from_slice(&values[from..range.start]);
            }
            from = from.max(range.end);
        }
        if from < values.len() {
            kept.extend_from_slice(&values[from..]);
        }
        self.derived(kept)
    }

    /// The first choice of each run of draws from one place, early in the sequence: the
    /// sizes a generator draws before what they size.
    fn sizes(&self) -> Vec<usize> {
        let choices = self.choices();
        (0..choices.len().min(SIZES_WITHIN))
            .filter(|&i| i == 0 || choices[i - 1].label != choices[i].label)
            .filter(|&i| choices[i].value > 1)
            .take(SIZES)
            .collect()
    }

    /// Where the value of `slot` is in the sequence.
    fn place(&self, slot: usize) -> usize {
        if self.by_size {
            self.sizes().get(slot).copied().unwrap_or(usize::MAX)
        } else {
            slot
        }
    }

    /// Choices drawn once, from a place drawn nowhere else, that can be lowered: counts.
    fn counts(&self) -> Vec<usize> {
        let choices = self.choices();
        let mut drawn = std::collections::HashMap::new();
        for c in choices {
            *drawn.entry(c.label).or_insert(0usize) += 1;
        }
        (0..choices.len().min(SIZES_WITHIN))
            .filter(|&i| drawn[&choices[i].label] == 1 && choices[i].value > 0)
            .take(COUNTS)
            .collect()
    }

    fn simplest(&self) -> Candidates<'_, ChoiceCase> {
        Candidates::built(vec![self.derived(Vec::new())])
    }

    fn halved_sizes(&self) -> Candidates<'_, ChoiceCase> {
        let sizes = self.sizes();
        Candidates::lazy(sizes.len(), move |i| {
            let at = sizes[i];
            let half = self.choices()[at].value / 2;
            Some(self.edited(&Edit {
                set: vec![(at, half)],
                ..Edit::default()
            }))
        })
    }

    /// Steps of a loop removed with a count before it lowered by as many: halves, quarters,
    /// … of the steps first (the alike loops losing as many), then single steps.
    fn counted_steps(&self) -> Candidates<'_, ChoiceCase> {
        let loops = structure::loops(self.choices());
        let mut blocks: Vec<(usize, usize, ChunkLevels)> = Vec::new();
        for count in self.counts() {
            for (l, lp) in loops.iter().enumerate() {
                if lp.steps[0].start > count {
                    blocks.push((count, l, ChunkLevels::new(lp.steps.len())));
                }
            }
        }
        let variants = |lp: &Loop| if lp.trend == Trend::Growing { 3 } else { 2 };
        let sizes: Vec<usize> = blocks
            .iter()
            .map(|(_, l, chunks)| chunks.count() + loops[*l].steps.len() * variants(&loops[*l]))
            .collect();
        let total = sizes.iter().sum();
        Candidates::lazy(total, move |mut index| {
            let block = sizes.iter().position(|&size| {
                let here = index < size;
                if !here {
                    index -= size;
                }
                here
            })?;
            let (count, l, chunks) = &blocks[block];
            if index < chunks.count() {
                let edit = self.steps_removed(&loops, *l, chunks.chunk(index), *count)?;
                return Some(self.edited(&edit));
            }
            index -= chunks.count();
            let lp = &loops[*l];
            let v = variants(lp);
            // The later steps first, each in all its variants.
            let k = lp.steps.len() - 1 - index / v;
            let variant = v - 1 - index % v;
            Some(self.edited(&self.step_removed(&loops, *l, k, *count, variant)))
        })
    }

    /// Loop `l`'s steps `range` removed, count `count` lowered by as many, and as many steps
    /// of every alike loop after the count; `None` when the count is too low.
    fn steps_removed(
        &self,
        loops: &[Loop],
        l: usize,
        range: Range<usize>,
        count: usize,
    ) -> Option<Edit> {
        let choices = self.choices();
        let lp = &loops[l];
        let k = range.len();
        let lowered = choices[count].value.checked_sub(k as u64)?;
        let gone = lp.steps[range.start].start..lp.steps[range.end - 1].end;
        let mut edit = Edit {
            set: vec![(count, lowered)],
            delete: Vec::from([gone]),
        };
        for (other, alike) in loops.iter().enumerate() {
            let near = alike.steps.len().abs_diff(lp.steps.len()) <= ALIKE;
            if other != l && near && alike.steps[0].start > count && alike.steps.len() >= k {
                let ends = alike.dropped_steps(k);
                edit.delete.push(ends);
            }
        }
        Some(edit)
    }

    /// Loop `l`'s step `k` removed, and count `count` lowered by one: variant 0 alone, 1 with a
    /// step of every alike loop after the count, 2 that and the loop's later picks
    /// renumbered (a growing loop).
    fn step_removed(
        &self,
        loops: &[Loop],
        l: usize,
        k: usize,
        count: usize,
        variant: usize,
    ) -> Edit {
        let choices = self.choices();
        let lp = &loops[l];
        let mut edit = Edit {
            set: vec![(count, choices[count].value - 1)],
            delete: vec![lp.steps[k].clone()],
        };
        if variant >= 1 {
            for (other, alike) in loops.iter().enumerate() {
                let near = alike.steps.len().abs_diff(lp.steps.len()) <= ALIKE;
                if other != l && near && alike.steps[0].start > count {
                    edit.delete.push(alike.dropped_step());
                }
            }
        }
        if variant == 2 {
            edit.set.extend(structure::renumbered(choices, lp, k));
        }
        edit
    }

    /// Values drawn more than once lowered together, the most frequent first: to 0, then
    /// halved (both ends of a palindrome, the two endpoints of an edge).
    fn duplicates_lowered(&self) -> Candidates<'_, ChoiceCase> {
        let choices = self.choices();
        let mut seen: std::collections::HashMap<u64, usize> = std::collections::HashMap::new();
        for c in choices.iter().filter(|c| c.value > 0) {
            *seen.entry(c.value).or_insert(0) += 1;
        }
        let mut repeated: Vec<(usize, u64)> = seen
            .into_iter()
            .filter(|&(_, n)| n >= 2)
            .map(|(v, n)| (n, v))
            .collect();
        repeated.sort_by_key(|&(n, v)| (std::cmp::Reverse(n), v));
        Candidates::lazy(repeated.len() * 2, move |index| {
            let value = repeated[index / 2].1;
            let lowered = if index % 2 == 0 { 0 } else { value / 2 };
            let set = self
                .choices()
                .iter()
                .enumerate()
                .filter(|(_, c)| c.value == value)
                .map(|(at, _)| (at, lowered))
                .collect();
            Some(self.edited(&Edit {
                set,
                ..Edit::default()
            }))
        })
    }

    /// Each value set to the middle of its range, where a symmetric range's zero is (kept
    /// only when the text gets shorter: `-10` becomes `0`); then, when the text has negative
    /// numbers, each value below the middle moved toward it ([`ChoiceCase::toward_middle`]).
    fn centred(&self) -> Candidates<'_, ChoiceCase> {
        self.middles().chain(self.toward_middle())
    }

    /// Each value set to the middle of its range.
    fn middles(&self) -> Candidates<'_, ChoiceCase> {
        let places: Vec<usize> = self
            .choices()
            .iter()
            .enumerate()
            .filter(|(_, c)| c.max >= 2 && c.value != c.max / 2 && c.value != c.max.div_ceil(2))
            .map(|(at, _)| at)
            .collect();
        Candidates::lazy(places.len() * 2, move |index| {
            let at = places[index / 2];
            let max = self.choices()[at].max;
            let middle = if index % 2 == 0 {
                max / 2
            } else {
                max.div_ceil(2)
            };
            Some(self.edited(&Edit {
                set: vec![(at, middle)],
                ..Edit::default()
            }))
        })
    }

    /// Values below the middle of their range moved toward it, nearest the middle first: to
    /// 1, 2, 4, … below it and to one above where they are. In a range from −10 to 10 drawn
    /// at −9, that is −1, −2, −4, −8: the value nearest 0 that still fails is kept, as the
    /// order of [`ChoiceCase::beats_parent`] takes negative numbers nearer 0 as smaller. Only
    /// when the text has negative numbers: elsewhere such a move only raises a value.
    fn toward_middle(&self) -> Candidates<'_, ChoiceCase> {
        if self.ran.get().is_none_or(|r| r.negatives().0 == 0) {
            return Candidates::none();
        }
        // Each place below its middle, with how far below it is; the steps of each place
        // follow one another.
        let below: Vec<(usize, u64)> = self
            .choices()
            .iter()
            .enumerate()
            .filter(|(_, c)| c.value + 1 < c.max / 2)
            .map(|(at, c)| (at, c.max / 2 - c.value))
            .collect();
        // The powers of two below gap − 1, and gap − 1.
        let steps = |gap: u64| (u64::BITS - (gap - 2).leading_zeros()) as usize + 1;
        let mut ends = Vec::with_capacity(below.len());
        let mut total = 0;
        for &(_, gap) in &below {
            total += steps(gap);
            ends.push(total);
        }
        Candidates::lazy(total, move |index| {
            let place = ends.partition_point(|&end| end <= index);
            let (at, gap) = below[place];
            let first = if place == 0 { 0 } else { ends[place - 1] };
            let k = index - first;
            // 1, 2, 4, … below the middle while nearer it than the value, then one above
            // the value.
            let below_middle = if k + 1 < steps(gap) {
                1u64 << k
            } else {
                gap - 1
            };
            let middle = self.choices()[at].max / 2;
            Some(self.edited(&Edit {
                set: vec![(at, middle - below_middle)],
                ..Edit::default()
            }))
        })
    }

    /// A step of a loop removed alone.
    fn steps(&self) -> Candidates<'_, ChoiceCase> {
        let loops = structure::loops(self.choices());
        let total = loops.iter().map(|lp| lp.steps.len()).sum();
        Candidates::lazy(total, move |mut index| {
            for lp in &loops {
                if index < lp.steps.len() {
                    let k = lp.steps.len() - 1 - index;
                    return Some(self.edited(&Edit {
                        delete: vec![lp.steps[k].clone()],
                        ..Edit::default()
                    }));
                }
                index -= lp.steps.len();
            }
            None
        })
    }

    /// Halves, quarters, … down to pairs of choices removed.
    fn chunks(&self) -> Candidates<'_, ChoiceCase> {
        let levels = ChunkLevels::new(self.choices().len());
        Candidates::lazy(levels.count(), move |i| {
            Some(self.edited(&Edit {
                delete: vec![levels.chunk(i)],
                ..Edit::default()
            }))
        })
    }
}

/// Changes to a sequence: values set (at their places before anything is removed), spans
/// removed.
#[derive(Clone, Debug, Default)]
struct Edit {
    set: Vec<(usize, u64)>,
    delete: Vec<Range<usize>>,
}

/// The passes, most drastic first.
const PASSES: usize = 7;

impl Shrinkable for ChoiceCase {
    fn ends_when_idle(&self) -> bool {
        self.hands_over
    }

    fn fingerprint(&self) -> u64 {
        use std::hash::Hasher;
        let mut hasher = std::hash::DefaultHasher::new();
        match self.ran.get() {
            Some(ran) => ran.served.iter().for_each(|c| hasher.write_u64(c.value)),
            None => self.given.iter().for_each(|&v| hasher.write_u64(v)),
        }
        hasher.finish()
    }

    fn passes(&self) -> usize {
        if self.by_size { 2 } else { PASSES }
    }

    fn pass_name(&self, pass: usize) -> String {
        let name = match pass {
            0 => "choices all at their simplest",
            1 => "sizes among the choices halved",
            2 => "loop steps removed with their count",
            3 => "values drawn more than once lowered together",
            4 => "single loop steps removed",
            5 => "chunks of choices removed",
            6 => "values moved to the middle of their range",
            _ => "a pass of choices",
        };
        name.to_string()
    }

    fn pass(&self, pass: usize) -> Candidates<'_, Self> {
        match pass {
            0 => self.simplest(),
            1 => self.halved_sizes(),
            2 => self.counted_steps(),
            3 => self.duplicates_lowered(),
            4 => self.steps(),
            5 => self.chunks(),
            6 => self.centred(),
            _ => Candidates::none(),
        }
    }

    // By size, the values lowered are the sizes alone.
    fn slots(&self) -> usize {
        if self.by_size {
            self.sizes().len()
        } else {
            self.choices().len()
        }
    }

    fn value(&self, slot: usize) -> i64 {
        self.choices()
            .get(self.place(slot))
            .map_or(0, |c| c.value.min(i64::MAX as u64) as i64)
    }

    fn with_values(&self, changes: &[(usize, i64)]) -> Self {
        let set = changes
            .iter()
            .map(|&(slot, v)| (self.place(slot), v.max(0) as u64))
            .collect();
        self.edited(&Edit {
            set,
            ..Edit::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{ChoiceCase, negatives, text_size};
    use crate::own::capture::Choice;

    #[test]
    fn a_negative_number_nearer_0_beats_one_farther_at_the_same_length() {
        let choice = |max, value| Choice {
            label: 0,
            max,
            value,
        };
        // `randint(-10, 10)` drawn at −9 (1 above the range's low end).
        let case = ChoiceCase::start(vec![choice(20, 1)], b"-9\n".to_vec(), false, true);
        let moved = case.toward_middle();
        let given: Vec<u64> = (0..moved.len())
            .filter_map(|i| moved.get(i))
            .map(|c| c.given()[0])
            .collect();
        // −1, −2, −4, −8: nearest the middle (0) first.
        assert_eq!(given, [9, 8, 6, 2]);
        let candidate = moved.get(0).unwrap();
        assert!(candidate.beats_parent(&[choice(20, 9)], b"-1\n"));
        assert!(!candidate.beats_parent(&[choice(20, 0)], b"-10\n"));
        assert!(negatives(b"-1 5") < negatives(b"-9 5"));
        assert!(negatives(b"-9 5") < negatives(b"-10 5"));
        assert!(negatives(b"1 5 7") < negatives(b"-1 5"));
        assert_eq!(negatives(b"1 5 7"), negatives(b"100 2"));
        // A text without negative numbers offers no such moves.
        let positive = ChoiceCase::start(vec![choice(20, 1)], b"2\n".to_vec(), false, true);
        assert!(positive.toward_middle().is_empty());
        // Without negative numbers, the choices' own order: lower values first.
        let candidate = positive.middles().get(0).unwrap();
        assert!(candidate.beats_parent(&[choice(20, 0)], b"9\n"));
        assert!(!candidate.beats_parent(&[choice(20, 5)], b"1\n"));
    }

    #[test]
    fn a_strings_length_counts_toward_the_size_and_a_numbers_digits_do_not() {
        assert_eq!(text_size(b"3\n)()\n"), 4);
        assert!(text_size(b"2\n)(\n") < text_size(b"3\n)()\n"));
        assert_eq!(text_size(b"5\n100 -20 3.5 0 7\n"), 6);
        assert_eq!(text_size(b"5\n0 0 0 0 0\n"), 6);
        assert_eq!(text_size(b"2 3\n#.#\n..#\n"), 8);
        assert_eq!(text_size(b""), 0);
    }
}
