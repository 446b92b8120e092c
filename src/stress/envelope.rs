//! What the generator makes, learned from its cases, for minimizing without a validator: for
//! each place in the input's shape ([`Place`]: each count, each counted list's items, each
//! other token by line and column) the smallest and largest value seen (for words: their
//! lengths, their letters, and the keywords when a place has few), and the places every case
//! has. A candidate outside it (a count or a value the generator never went below, a
//! place it never filled, a place it always fills left empty) is not probed: without a
//! validator nothing else says whether it is a valid input, and the reference often runs
//! cleanly on invalid ones.

use std::collections::{BTreeSet, HashMap};

use super::text_case::{Place, Placed, TextCase};

/// How many generated cases are enough to know the generator's range: a failure found on
/// the first seeds is followed by more of the generator's cases up to this many.
pub const ENOUGH_CASES: usize = 100;

/// The values seen at one place.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Span {
    min: i64,
    max: i64,
    /// Whether every token seen there was an integer.
    numeric: bool,
    /// The words seen there ([`Words`]), when any.
    words: Option<Words>,
    /// How many tokens were seen there, and how many of them were counts: a place is
    /// reported as a count when most of its tokens were (a line of values that happens to
    /// start with how many follow is not one).
    seen: usize,
    counted: usize,
}

impl Span {
    /// Takes in what `other` saw at the same place.
    fn merge(&mut self, other: &Span) {
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
        self.numeric &= other.numeric;
        self.words = match (self.words.take(), &other.words) {
            (Some(mut a), Some(b)) => {
                a.merge(b);
                Some(a)
            }
            (a, b) => a.or_else(|| b.clone()),
        };
        self.seen += other.seen;
        self.counted += other.counted;
    }

    fn is_count(&self) -> bool {
        2 * self.counted > self.seen
    }

    /// The least value a candidate may have here: the least seen, but for a count the
    /// generator never varied (a size it was given, `./gen 200000`, rather than a range it
    /// chose), which may go down to 1.
    fn least(&self) -> i64 {
        if self.is_count() && self.min == self.max {
            self.min.min(1)
        } else {
            self.min
        }
    }
}

/// The words seen at one place: their lengths, their least and largest bytes, and while
/// there are few of them, which they were.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Words {
    shortest: usize,
    longest: usize,
    low: u8,
    high: u8,
    /// The distinct words seen, up to [`KEYWORDS`] of them; `None` past that.
    distinct: Option<BTreeSet<Vec<u8>>>,
}

/// How many distinct words a place may have and still be taken for keywords (`add`, `ask`)
/// rather than free strings, once it has been seen [`KEYWORD_SEEN`] times as often.
const KEYWORDS: usize = 8;
const KEYWORD_SEEN: usize = 4;

impl Words {
    fn of(word: &[u8]) -> Words {
        Words {
            shortest: word.len(),
            longest: word.len(),
            low: word.iter().copied().min().unwrap_or(b'a'),
            high: word.iter().copied().max().unwrap_or(b'a'),
            distinct: Some(BTreeSet::from([word.to_vec()])),
        }
    }

    fn merge(&mut self, other: &Words) {
        self.shortest = self.shortest.min(other.shortest);
        self.longest = self.longest.max(other.longest);
        self.low = self.low.min(other.low);
        self.high = self.high.max(other.high);
        self.distinct = match (self.distinct.take(), &other.distinct) {
            (Some(mut a), Some(b)) => {
                a.extend(b.iter().cloned());
                (a.len() <= KEYWORDS).then_some(a)
            }
            _ => None,
        };
    }

    /// Whether `word` keeps to them: one of the keywords, when the place is seen often with
    /// few distinct words; else no longer than the longest, no shorter than the shortest
    /// (unless every word there had one length: a length the generator was given, which may
    /// shrink), and its bytes within those seen.
    fn admit(&self, word: &[u8], seen: usize) -> bool {
        if let Some(distinct) = &self.distinct
            && seen >= KEYWORD_SEEN * distinct.len()
        {
            return distinct.contains(word);
        }
        let shortest = if self.shortest == self.longest {
            1
        } else {
            self.shortest
        };
        (shortest..=self.longest).contains(&word.len())
            && word.iter().all(|b| (self.low..=self.high).contains(b))
    }
}

/// The envelope of the cases learned so far.
#[derive(Clone, Debug, Default)]
pub struct Envelope {
    spans: HashMap<Place, Span>,
    /// The places every case had; `None` before the first case.
    required: Option<BTreeSet<Place>>,
    cases: usize,
    /// Whether the generator's inputs are test cases after a count T.
    tests: bool,
}

/// What is learned while cases come: an input whose first line is `1` may be one test case
/// or not, which only the generator's other cases tell; it is learned both ways until then.
#[derive(Clone, Debug, Default)]
pub struct Learning {
    /// The bytes of the cases learned.
    bytes: usize,
    others: Envelope,
    /// The inputs that may be one test case, read as plain lines, and as one test case.
    one_plain: Envelope,
    one_test: Envelope,
}

impl Learning {
    /// What one case, of `bytes` bytes, teaches.
    pub fn of(case: &TextCase, bytes: usize) -> Learning {
        let mut learning = Learning {
            bytes,
            ..Learning::default()
        };
        if case.one_test() {
            learning.one_plain = Envelope::of(case, false);
            learning.one_test = Envelope::of(case, true);
        } else {
            learning.others = Envelope::of(case, false);
        }
        learning
    }

    pub fn merge(&mut self, other: Learning) {
        self.bytes += other.bytes;
        self.others.merge(other.others);
        self.one_plain.merge(other.one_plain);
        self.one_test.merge(other.one_test);
    }

    /// How many cases it was learned from.
    pub fn cases(&self) -> usize {
        self.others.cases + self.one_plain.cases
    }

    /// How many bytes of cases it was learned from.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The envelope: the inputs that may be one test case are test cases when the others
    /// are.
    pub fn finish(self) -> Envelope {
        let tests = self.others.spans.keys().any(|p| p.in_case);
        let mut envelope = self.others;
        envelope.merge(if tests { self.one_test } else { self.one_plain });
        envelope.tests = tests || envelope.spans.keys().any(|p| p.in_case);
        envelope
    }
}

impl Envelope {
    /// The envelope of one case, read as test cases after a first line `1` if `tests`.
    fn of(case: &TextCase, tests: bool) -> Envelope {
        let mut envelope = Envelope::default();
        for placed in case.placed(tests) {
            envelope.add(placed);
        }
        envelope.required = Some(envelope.spans.keys().copied().collect());
        envelope.cases = 1;
        envelope
    }

    fn add(
        &mut self,
        Placed {
            place,
            value,
            count,
            word,
        }: Placed,
    ) {
        let seen = Span {
            min: value.unwrap_or(i64::MAX),
            max: value.unwrap_or(i64::MIN),
            numeric: value.is_some(),
            words: word.as_deref().map(Words::of),
            seen: 1,
            counted: usize::from(count),
        };
        match self.spans.get_mut(&place) {
            Some(span) => span.merge(&seen),
            None => {
                self.spans.insert(place, seen);
            }
        }
    }

    /// Takes in the cases `other` learned.
    fn merge(&mut self, other: Envelope) {
        for (place, span) in other.spans {
            match self.spans.get_mut(&place) {
                Some(s) => s.merge(&span),
                None => {
                    self.spans.insert(place, span);
                }
            }
        }
        self.required = match (self.required.take(), other.required) {
            (Some(a), Some(b)) => Some(a.intersection(&b).copied().collect()),
            (a, b) => a.or(b),
        };
        self.cases += other.cases;
        self.tests |= other.tests;
    }

    /// How many cases it was learned from.
    pub fn cases(&self) -> usize {
        self.cases
    }

    /// Whether `case` keeps to it: every token at a place the generator filled, every integer
    /// within the values seen there, and every place the generator always filled, filled.
    pub fn admits(&self, case: &TextCase) -> bool {
        if self.cases == 0 {
            return true;
        }
        let placed = case.placed(self.tests);
        let within = placed.iter().all(|p| {
            self.spans
                .get(&p.place)
                .is_some_and(|span| match (p.value, &p.word, &span.words) {
                    (Some(v), _, _) if span.numeric => (span.least()..=span.max).contains(&v),
                    (_, Some(word), Some(words)) => words.admit(word, span.seen),
                    _ => true,
                })
        });
        if !within {
            return false;
        }
        let Some(required) = &self.required else {
            return true;
        };
        let present: BTreeSet<Place> = placed.iter().map(|p| p.place).collect();
        required.is_subset(&present)
    }

    /// What it holds, for the report: `T ≥ 1, n ≥ 2, values 1..1000`: the test cases' count,
    /// the least value of each list's count (named n, m, k, … in the input's order), and the
    /// range of all other integers.
    pub fn summary(&self) -> String {
        let mut counts: Vec<(&Place, &Span)> = self
            .spans
            .iter()
            .filter(|(_, s)| s.is_count() && s.numeric && s.least() >= 1)
            .collect();
        counts.sort_by_key(|(p, _)| **p);
        let mut parts = Vec::new();
        let mut names = ["n", "m", "k", "q"].iter();
        for (place, span) in counts {
            let top = !place.in_case && place.line == 0 && place.column == 0;
            // Blocks of one line each are the items of a count (`n` points), not test cases.
            let tests = top
                && self
                    .spans
                    .keys()
                    .any(|p| p.in_case && (p.line >= 1 || p.item.is_some()));
            let name = if tests {
                "T"
            } else {
                match names.next() {
                    Some(name) => name,
                    None => continue,
                }
            };
            parts.push(format!("{name} ≥ {}", span.least()));
        }
        let values = self.spans.values().filter(|s| !s.is_count() && s.numeric);
        let low = values.clone().map(|s| s.min).min();
        let high = values.map(|s| s.max).max();
        if let (Some(low), Some(high)) = (low, high) {
            parts.push(format!("values {low}..{high}"));
        }
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn learned(cases: &[&str]) -> Envelope {
        let mut learning = Learning::default();
        for case in cases {
            learning.merge(Learning::of(&TextCase::new(case.as_bytes()), case.len()));
        }
        learning.finish()
    }

    fn admits(envelope: &Envelope, case: &str) -> bool {
        envelope.admits(&TextCase::new(case.as_bytes()))
    }

    #[test]
    fn a_lone_number_keeps_to_its_range() {
        let envelope = learned(&["5\n", "2\n", "12\n"]);
        assert!(admits(&envelope, "2\n"));
        assert!(!admits(&envelope, "1\n"));
        assert!(!admits(&envelope, "13\n"));
        assert!(
            !admits(&envelope, ""),
            "a place always filled is left empty"
        );
        assert!(!admits(&envelope, "2 3\n"), "a place never filled");
        assert_eq!(envelope.summary(), "values 2..12");
    }

    #[test]
    fn points_keep_their_count_and_their_lines() {
        let envelope = learned(&[
            "3\n-2 0\n-1 0\n0 0\n",
            "2\n5 6\n7 2\n",
            "4\n1 2\n3 4\n5 6\n7 8\n",
        ]);
        assert_eq!(envelope.summary(), "n ≥ 2, values -2..8");
        assert!(admits(&envelope, "2\n1 2\n3 4\n"));
        assert!(
            !admits(&envelope, "2\n1 2\n"),
            "a point declared, not given"
        );
        assert!(
            !admits(&envelope, "1\n1 2\n"),
            "fewer points than the generator makes"
        );
    }

    #[test]
    fn a_line_that_happens_to_start_with_its_length_is_no_count() {
        let envelope = learned(&["1 20 300\n", "2 20 300\n", "3 20 300\n"]);
        assert_eq!(envelope.summary(), "values 1..300");
    }

    #[test]
    fn two_numbers_on_a_line_stay_two_values_whatever_they_are() {
        let envelope = learned(&["7 3\n", "10 10\n", "4 1\n"]);
        assert!(!admits(&envelope, "1 1\n"), "n never went below 4");
        assert!(admits(&envelope, "4 1\n"));
        assert!(!admits(&envelope, "4 0\n"));
        let small = learned(&["1 1\n", "3 2\n"]);
        assert!(admits(&small, "1 1\n"));
        assert!(!admits(&small, "1 0\n"));
    }

    /// A generator told its size (`./gen 4`) makes lists of one length only: that length
    /// is the size asked for, not the least valid one, and shorter lists are probed; the
    /// items keep to their range.
    #[test]
    fn a_list_of_one_length_only_may_shrink() {
        let envelope = learned(&["4\n5 6 7 8\n", "4\n1 9 9 2\n"]);
        assert!(admits(&envelope, "2\n1 9\n"));
        assert!(admits(&envelope, "3\n1 9 2\n"));
        assert!(
            !admits(&envelope, "2\n0 9\n"),
            "an item below the least seen"
        );
        assert!(
            !admits(&envelope, "5\n1 1 1 1 1\n"),
            "longer than ever made"
        );
        assert_eq!(envelope.summary(), "n ≥ 1, values 1..9");
    }

    #[test]
    fn a_counted_list_keeps_its_least_length_and_its_items_range() {
        let envelope = learned(&["3\n5 6 7\n", "5\n1 9 9 2 3\n", "2\n4 4\n"]);
        assert!(admits(&envelope, "2\n1 9\n"));
        assert!(
            !admits(&envelope, "2\n0 9\n"),
            "an item below the least seen"
        );
        assert_eq!(envelope.summary(), "n ≥ 2, values 1..9");
        // A list the generator never made that short: its single item has no place.
        assert!(!admits(&envelope, "1\n5\n"));
    }

    #[test]
    fn a_string_keeps_to_its_letters_and_shrinks_from_a_length_it_was_given() {
        let envelope = learned(&["5\nbcdcb\n", "3\nbbc\n", "7\ndcbbbcd\n"]);
        assert!(admits(&envelope, "3\nbcb\n"));
        assert!(!admits(&envelope, "2\nbb\n"), "n never went below 3");
        assert!(
            !admits(&envelope, "3\nabb\n"),
            "a letter the generator never wrote"
        );
        // Strings of one length (a length the generator was given) may shrink.
        let given = learned(&["xyzzy\n", "zyxxy\n", "yyzzx\n", "zzzzz\n", "xyxyx\n"]);
        assert!(admits(&given, "xy\n"));
        assert!(!admits(&given, "xyzzyx\n"), "longer than ever made");
    }

    #[test]
    fn keywords_stay_keywords() {
        let cases: Vec<String> = (0..12)
            .map(|i| format!("{}\n", if i % 3 == 0 { "add 3" } else { "ask 5" }))
            .collect();
        let cases: Vec<&str> = cases.iter().map(String::as_str).collect();
        let envelope = learned(&cases);
        assert!(admits(&envelope, "add 3\n"));
        assert!(!admits(&envelope, "aad 3\n"), "not one of the two words");
        assert!(!admits(&envelope, "ad 3\n"));
    }

    #[test]
    fn test_cases_are_placed_from_their_own_first_line() {
        let envelope = learned(&[
            "2\n3\n1 2 3\n2\n5 5\n",
            "3\n2\n1 1\n2\n2 2\n4\n1 2 3 4\n",
            "1\n2\n7 8\n",
        ]);
        assert!(
            admits(&envelope, "1\n2\n1 1\n"),
            "one test case, as the generator made"
        );
        assert!(!admits(&envelope, "1\n2\n0 1\n"));
        assert!(
            !admits(&envelope, "1\n1\n1\n"),
            "no test case had a list that short"
        );
        assert_eq!(envelope.summary(), "T ≥ 1, n ≥ 2, values 1..8");
        // Lines after a `1` that are not test cases stay lines.
        let plain = learned(&["1\n5 6\n", "1\n2 3\n"]);
        assert!(admits(&plain, "1\n2 6\n"));
        assert!(!admits(&plain, "1\n1 6\n"));
    }
}
