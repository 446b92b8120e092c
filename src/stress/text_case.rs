//! A case of a problem duipai does not know, minimized as text: lines of tokens, with the
//! counts in them understood well enough to shrink what they count.
//!
//! Most inputs are counts followed by what they count: `n` then n numbers (on its line or the
//! next), `n` then n lines, `T` then T test cases. Dropping an item alone leaves the count
//! wrong and the input invalid, so the candidates here drop items together with their count
//! lowered: whole test cases first (when the first line is a count of the blocks that
//! follow), then chunks and single items of every counted list, then chunks and single lines,
//! then single tokens. Values are the non-negative integers that are not counts, lowered by
//! the minimizer. Which candidates are valid inputs is the caller's business (a validator,
//! or the reference accepting them); the candidates only try to be valid often.

use super::minimize::Shrinkable;
use crate::problem::shrink::chunks;

/// Lines of tokens, each line's tokens separated by single spaces in its canonical form.
#[derive(Clone, Debug)]
pub struct TextCase {
    lines: Vec<Vec<String>>,
    /// Whether candidates that only a validator can check are tried: single tokens dropped
    /// without their count (without a validator, such an input usually runs but is invalid).
    validated: bool,
    /// Where the values are: fixed when the case's structure is made, kept while values are
    /// lowered (a lowered value could otherwise start to look like a count).
    values: Vec<(usize, usize)>,
}

impl PartialEq for TextCase {
    fn eq(&self, other: &Self) -> bool {
        self.lines == other.lines
    }
}

impl Eq for TextCase {}

/// A count and what it counts.
#[derive(Clone, Debug, PartialEq, Eq)]
struct List {
    /// Where the count is: (line, token).
    count: (usize, usize),
    items: Items,
}

/// The items of a counted list.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Items {
    /// Tokens of one line, from a token index on: `3 5 6 7` or `3` / `5 6 7`.
    Tokens { line: usize, from: usize },
    /// Whole lines, each an item: `2` / `a b` / `c d`.
    Lines { from: usize },
    /// Blocks of lines (test cases): the line range of each.
    Blocks(Vec<(usize, usize)>),
}

impl TextCase {
    pub fn new(text: &[u8]) -> TextCase {
        TextCase::of_lines(
            String::from_utf8_lossy(text)
                .lines()
                .map(|l| l.split_whitespace().map(str::to_string).collect())
                .collect(),
            true,
        )
    }

    /// The same case, shrunk without single tokens dropped alone when there is no validator
    /// to say whether such an input is still valid.
    pub fn validated(self, validated: bool) -> TextCase {
        TextCase { validated, ..self }
    }

    /// A case of these lines, its values found anew.
    fn of_lines(lines: Vec<Vec<String>>, validated: bool) -> TextCase {
        let mut case = TextCase {
            lines,
            validated,
            values: Vec::new(),
        };
        case.values = case.value_positions();
        case
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        self.key().into_bytes()
    }

    /// The case's size for reports: `2 lines, 3 tokens`.
    pub fn size_label(&self) -> String {
        let tokens: usize = self.lines.iter().map(Vec::len).sum();
        format!(
            "{}, {}",
            crate::text::plural(self.lines.len() as u64, "line"),
            crate::text::plural(tokens as u64, "token")
        )
    }

    fn count_at(&self, (line, token): (usize, usize)) -> Option<usize> {
        count_value(self.lines.get(line)?.get(token)?)
    }

    /// The counted lists of the text, test cases first.
    fn lists(&self) -> Vec<List> {
        let mut out = Vec::new();
        if let Some(cases) = self.cases() {
            out.push(cases);
        }
        for (i, line) in self.lines.iter().enumerate() {
            for (j, token) in line.iter().enumerate() {
                let Some(k) = count_value(token) else {
                    continue;
                };
                if k == 0 {
                    continue;
                }
                if line.len() == j + 1 + k {
                    out.push(List {
                        count: (i, j),
                        items: Items::Tokens {
                            line: i,
                            from: j + 1,
                        },
                    });
                } else if line.len() == j + 1 {
                    let next = self.lines.get(i + 1).map_or(0, Vec::len);
                    if next == k {
                        out.push(List {
                            count: (i, j),
                            items: Items::Tokens {
                                line: i + 1,
                                from: 0,
                            },
                        });
                    } else if i + k < self.lines.len() && self.alike(i + 1, k) {
                        out.push(List {
                            count: (i, j),
                            items: Items::Lines { from: i + 1 },
                        });
                    }
                }
            }
        }
        out
    }

    /// Whether the `k` lines from `from` have the same number of tokens: items of one kind.
    fn alike(&self, from: usize, k: usize) -> bool {
        let len = self.lines[from].len();
        len > 0 && self.lines[from..from + k].iter().all(|l| l.len() == len)
    }

    /// The test cases, when the first line is a count T and the lines after it split into
    /// exactly T blocks: blocks of equal length whose first lines look alike, or blocks that
    /// each start with a count of the lines (or the next line's tokens) that follow.
    fn cases(&self) -> Option<List> {
        let t = match self.lines.first()?.as_slice() {
            [only] => count_value(only)?,
            _ => return None,
        };
        let rest = self.lines.len() - 1;
        if t < 2 || rest < t {
            return None;
        }
        let ranges = self.equal_blocks(t).or_else(|| self.counted_blocks(t))?;
        Some(List {
            count: (0, 0),
            items: Items::Blocks(ranges),
        })
    }

    /// T blocks of the same length, their first lines of the same token count.
    fn equal_blocks(&self, t: usize) -> Option<Vec<(usize, usize)>> {
        let rest = self.lines.len() - 1;
        if !rest.is_multiple_of(t) {
            return None;
        }
        let len = rest / t;
        let ranges: Vec<(usize, usize)> =
            (0..t).map(|b| (1 + b * len, 1 + (b + 1) * len)).collect();
        let head = self.lines[1].len();
        ranges
            .iter()
            .all(|&(a, _)| self.lines[a].len() == head)
            .then_some(ranges)
    }

    /// Blocks read one after another: a line whose first token k counts the k lines after it,
    /// or a lone count k followed by a line of k tokens; T of them to the end of the text.
    fn counted_blocks(&self, t: usize) -> Option<Vec<(usize, usize)>> {
        let mut ranges = Vec::with_capacity(t);
        let mut at = 1;
        while at < self.lines.len() {
            let line = &self.lines[at];
            let k = count_value(line.first()?)?;
            let next = self.lines.get(at + 1).map_or(usize::MAX, Vec::len);
            let len = if line.len() == 1 && next == k {
                2
            } else {
                1 + k
            };
            if at + len > self.lines.len() {
                return None;
            }
            ranges.push((at, at + len));
            at += len;
        }
        (ranges.len() == t).then_some(ranges)
    }

    /// The text with the items of `list` at `drop` (item indices) removed and its count
    /// lowered by as many.
    fn without_items(&self, list: &List, drop: &[usize]) -> Option<TextCase> {
        let k = self.count_at(list.count)?;
        if drop.is_empty() || drop.len() > k {
            return None;
        }
        let mut next = self.clone();
        match &list.items {
            &Items::Tokens { line, from } => {
                let kept: Vec<String> = next.lines[line]
                    .iter()
                    .enumerate()
                    .filter(|(t, _)| *t < from || !drop.contains(&(t - from)))
                    .map(|(_, s)| s.clone())
                    .collect();
                next.lines[line] = kept;
            }
            &Items::Lines { from } => {
                let gone: Vec<usize> = drop.iter().map(|d| from + d).collect();
                next.lines = next.without_lines(&gone).lines;
            }
            Items::Blocks(ranges) => {
                let gone: Vec<usize> = drop
                    .iter()
                    .flat_map(|&d| ranges[d].0..ranges[d].1)
                    .collect();
                next.lines = next.without_lines(&gone).lines;
            }
        }
        let (line, token) = list.count;
        next.lines[line][token] = (k - drop.len()).to_string();
        Some(TextCase::of_lines(next.lines, self.validated))
    }

    fn without_lines(&self, drop: &[usize]) -> TextCase {
        TextCase::of_lines(
            self.lines
                .iter()
                .enumerate()
                .filter(|(i, _)| !drop.contains(i))
                .map(|(_, l)| l.clone())
                .collect(),
            self.validated,
        )
    }

    /// The candidates that drop items of counted lists: for each list, chunks of its items
    /// (halves, quarters, ...) and then single items, all but the last item at most.
    fn fewer_items(&self, lists: &[List]) -> Vec<TextCase> {
        let mut out = Vec::new();
        for list in lists {
            let Some(k) = self.count_at(list.count) else {
                continue;
            };
            let mut drops = chunks(k);
            if k > 1 {
                drops.extend((0..k).map(|i| vec![i]));
            }
            out.extend(drops.iter().filter_map(|d| self.without_items(list, d)));
        }
        out
    }

    /// The (line, token) of every value the minimizer may lower: non-negative integers that
    /// are not counts of a list.
    fn value_positions(&self) -> Vec<(usize, usize)> {
        let counts: Vec<(usize, usize)> = self.lists().iter().map(|l| l.count).collect();
        let mut out = Vec::new();
        for (i, line) in self.lines.iter().enumerate() {
            for (j, token) in line.iter().enumerate() {
                if is_value(token) && !counts.contains(&(i, j)) {
                    out.push((i, j));
                }
            }
        }
        out
    }
}

/// A token that can be a count: a small non-negative integer.
fn count_value(token: &str) -> Option<usize> {
    if !token.bytes().all(|b| b.is_ascii_digit()) || token.len() > 6 {
        return None;
    }
    token.parse().ok()
}

/// A token made of ASCII digits only that fits an i64.
fn is_value(token: &str) -> bool {
    !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit()) && token.parse::<i64>().is_ok()
}

/// The passes, most drastic first.
const PASSES: usize = 5;

impl Shrinkable for TextCase {
    fn key(&self) -> String {
        let mut text: String = self
            .lines
            .iter()
            .map(|l| l.join(" "))
            .collect::<Vec<_>>()
            .join("\n");
        text.push('\n');
        text
    }

    fn passes(&self) -> usize {
        PASSES
    }

    fn pass(&self, pass: usize) -> Vec<Self> {
        let len = self.lines.len();
        let mut out = match pass {
            // Whole test cases, with T lowered.
            0 => {
                let cases: Vec<List> = self.cases().into_iter().collect();
                self.fewer_items(&cases)
            }
            // Items of every counted list, with the count lowered.
            1 => self.fewer_items(&self.lists()),
            2 => chunks(len).iter().map(|c| self.without_lines(c)).collect(),
            3 if len > 1 => (0..len).map(|i| self.without_lines(&[i])).collect(),
            4 if self.validated => self.fewer_tokens(),
            _ => Vec::new(),
        };
        out.retain(|c| c != self);
        out
    }

    fn slots(&self) -> usize {
        self.values.len()
    }

    fn value(&self, slot: usize) -> i64 {
        self.values
            .get(slot)
            .and_then(|&(i, j)| self.lines[i][j].parse().ok())
            .unwrap_or(0)
    }

    fn with_value(&self, slot: usize, value: i64) -> Self {
        let mut next = self.clone();
        if let Some(&(i, j)) = self.values.get(slot) {
            next.lines[i][j] = value.to_string();
        }
        next
    }
}

impl TextCase {
    /// Each token dropped alone from a line that keeps at least one.
    fn fewer_tokens(&self) -> Vec<TextCase> {
        let mut out = Vec::new();
        for (i, line) in self.lines.iter().enumerate() {
            if line.len() < 2 {
                continue;
            }
            for j in 0..line.len() {
                let mut lines = self.lines.clone();
                lines[i].remove(j);
                out.push(TextCase::of_lines(lines, self.validated));
            }
        }
        out
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
        out.case.key()
    }

    /// `n` then n numbers, on one line or two.
    fn array(c: &TextCase) -> Option<Vec<i64>> {
        let text = c.key();
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
        let lines: Vec<Vec<i64>> = c
            .key()
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
    fn lines_counted_by_a_line_shrink_with_their_count() {
        // `n` then n lines of two numbers; fails when some pair is equal.
        let text = "4\n1 2\n3 3\n5 6\n7 8\n";
        let valid = |c: &TextCase| {
            let lines: Vec<Vec<&str>> = c
                .lines
                .iter()
                .map(|l| l.iter().map(String::as_str).collect())
                .collect();
            let n: usize = lines[0].first().and_then(|t| t.parse().ok()).unwrap_or(0);
            lines[0].len() == 1 && lines.len() == n + 1 && lines[1..].iter().all(|l| l.len() == 2)
        };
        let small = minimize(text, |c| {
            valid(c) && c.lines[1..].iter().any(|l| l[0] == l[1])
        });
        assert_eq!(small, "1\n0 0\n");
    }
}
