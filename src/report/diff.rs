//! Renders the difference between expected and actual output for humans. It only renders:
//! verdicts are decided elsewhere, by tokens.

use super::Styles;
use super::styles::paint;
use crate::excerpt::{Compared, Excerpt, Line, difference_window};

/// A short unified diff of expected and actual output around their first differing line,
/// made from the excerpts the judge kept (never the whole outputs), with removed and added
/// lines in their styles.
pub fn unified(shown: &Compared, styles: &Styles) -> String {
    let Some(first) = shown.first_difference else {
        return "(outputs differ only in blanks that the line view does not show)\n".into();
    };
    let (from, to) = difference_window(first);
    let want = window_lines(&shown.expected, from, to);
    let got = window_lines(&shown.actual, from, to);
    let mut rendered = String::new();
    // Sizes only where the texts are too long to show whole.
    let sizes = |e: &Excerpt| {
        if e.is_whole() {
            String::new()
        } else {
            format!(
                " ({}, {})",
                crate::text::plural(e.total_lines, "line"),
                crate::text::bytes(e.total_bytes)
            )
        }
    };
    rendered.push_str(&paint(
        &format!("--- expected{}", sizes(&shown.expected)),
        styles.diff_header,
    ));
    rendered.push('\n');
    rendered.push_str(&paint(
        &format!("+++ actual{}", sizes(&shown.actual)),
        styles.diff_header,
    ));
    rendered.push('\n');
    let header = format!("@@ line {} @@", first + 1);
    rendered.push_str(&paint(&header, styles.diff_hunk));
    rendered.push('\n');
    if from > 0 {
        rendered.push_str(&format!(
            " … {} before\n",
            crate::text::plural(from, "line")
        ));
    }
    for (change, text) in line_changes(&want, &got) {
        let (sign, style) = match change {
            Change::Removed => ('-', styles.diff_removed),
            Change::Added => ('+', styles.diff_added),
            Change::Kept => (' ', anstyle::Style::new()),
        };
        rendered.push_str(&paint(&format!("{sign}{text}"), style));
        rendered.push('\n');
    }
    let longest = shown.expected.total_lines.max(shown.actual.total_lines);
    if longest > to {
        rendered.push_str(&format!(
            " … {} after\n",
            crate::text::plural(longest - to, "line")
        ));
    }
    rendered
}

/// The excerpt's lines in `from..to`, a cut line ending with how much is not shown.
fn window_lines(excerpt: &Excerpt, from: u64, to: u64) -> Vec<String> {
    excerpt.window(from, to).map(shown_line).collect()
}

fn shown_line(line: &Line) -> String {
    if line.cut > 0 {
        format!("{} … ({} more)", line.text, crate::text::bytes(line.cut))
    } else {
        line.text.to_string()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Change {
    Kept,
    Removed,
    Added,
}

/// Both windows' lines in diff order, from a longest common subsequence of lines; where a
/// line was replaced, the removed line comes before the added one. The windows are a few lines
/// each (`difference_window`), so the quadratic table is tiny: a diff library's linear-space
/// algorithms bought nothing here and cost most of the crate's optimized build time in
/// generic code.
fn line_changes<'a>(want: &'a [String], got: &'a [String]) -> Vec<(Change, &'a str)> {
    // common[i][j]: the length of a longest common subsequence of want[i..] and got[j..].
    let mut common = vec![vec![0usize; got.len() + 1]; want.len() + 1];
    for i in (0..want.len()).rev() {
        for j in (0..got.len()).rev() {
            common[i][j] = if want[i] == got[j] {
                common[i + 1][j + 1] + 1
            } else {
                common[i + 1][j].max(common[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut changes = Vec::with_capacity(want.len() + got.len());
    while i < want.len() || j < got.len() {
        if i < want.len() && j < got.len() && want[i] == got[j] {
            changes.push((Change::Kept, want[i].as_str()));
            (i, j) = (i + 1, j + 1);
        } else if j == got.len() || (i < want.len() && common[i + 1][j] >= common[i][j + 1]) {
            changes.push((Change::Removed, want[i].as_str()));
            i += 1;
        } else {
            changes.push((Change::Added, got[j].as_str()));
            j += 1;
        }
    }
    changes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diff(want: &str, got: &str, styles: &Styles) -> String {
        unified(
            &crate::excerpt::compare(want.as_bytes(), got.as_bytes()),
            styles,
        )
    }

    /// Every sequence of up to `len` lines drawn from `a` and `b`.
    fn sequences(len: usize) -> Vec<Vec<String>> {
        let mut all = vec![vec![]];
        for n in 1..=len {
            for mask in 0..1usize << n {
                all.push(
                    (0..n)
                        .map(|k| ["a", "b"][mask >> k & 1].to_string())
                        .collect(),
                );
            }
        }
        all
    }

    fn is_subsequence(short: &[&str], long: &[String]) -> bool {
        let mut rest = long.iter();
        short.iter().all(|s| rest.any(|l| l == s))
    }

    /// The longest common subsequence's length by trying every subset of `want`.
    fn brute_common(want: &[String], got: &[String]) -> usize {
        (0..1usize << want.len())
            .filter_map(|mask| {
                let kept: Vec<&str> = (0..want.len())
                    .filter(|k| mask >> k & 1 == 1)
                    .map(|k| want[k].as_str())
                    .collect();
                is_subsequence(&kept, got).then_some(kept.len())
            })
            .max()
            .unwrap()
    }

    #[test]
    fn line_changes_rebuild_both_sides_and_keep_a_longest_common_subsequence() {
        let all = sequences(4);
        for want in &all {
            for got in &all {
                let changes = line_changes(want, got);
                let side = |drop: Change| -> Vec<&str> {
                    changes
                        .iter()
                        .filter(|c| c.0 != drop)
                        .map(|c| c.1)
                        .collect()
                };
                assert_eq!(side(Change::Added), *want, "{want:?} {got:?}");
                assert_eq!(side(Change::Removed), *got, "{want:?} {got:?}");
                let kept = changes.iter().filter(|c| c.0 == Change::Kept).count();
                assert_eq!(kept, brute_common(want, got), "{want:?} {got:?}");
            }
        }
    }

    #[test]
    fn shows_both_sides() {
        assert_eq!(
            diff("2\n", "3\n", &Styles::plain()),
            "--- expected\n+++ actual\n@@ line 1 @@\n-2\n+3\n"
        );
    }

    #[test]
    fn colours_removed_and_added_lines_where_it_renders_them() {
        let d = diff("1\n2\n", "1\n3\n", &Styles::colored());
        let removed = paint("-2", Styles::colored().diff_removed);
        let added = paint("+3", Styles::colored().diff_added);
        assert!(d.contains(&format!("\n {}\n", "1")), "{d:?}");
        assert!(d.contains(&format!("{removed}\n{added}\n")), "{d:?}");
    }

    #[test]
    fn a_difference_deep_in_a_huge_output_is_shown_in_a_few_lines() {
        let want: String = (0..200_000).map(|i| format!("{i}\n")).collect();
        let got = want.replace("\n150000\n", "\nx\n");
        let d = diff(&want, &got, &Styles::plain());
        // 1288890 bytes: the digits of 0..200000 and a line break each.
        assert_eq!(
            d,
            "--- expected (200000 lines, 1.2 MiB)\n+++ actual (200000 lines, 1.2 MiB)\n\
             @@ line 150001 @@\n … 149998 lines before\n 149998\n 149999\n-150000\n+x\n\
             \u{20}150001\n 150002\n … 49997 lines after\n"
        );
        // A long line is cut.
        let d = diff("1\n", &"9".repeat(100_000), &Styles::plain());
        assert!(d.contains("… (97.5 KiB more)"), "{d}");
        assert!(d.len() < 400, "{d}");
    }
}
