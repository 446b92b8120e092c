//! Renders the difference between expected and actual output for humans. It only renders:
//! verdicts are decided elsewhere, by tokens.

use std::time::Duration;

use similar::ChangeTag;

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
    let want = window_text(&shown.expected, from, to);
    let got = window_text(&shown.actual, from, to);
    let diff = similar::TextDiff::configure()
        .timeout(Duration::from_millis(200))
        .diff_lines(want.as_str(), got.as_str());
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
    for change in diff.iter_all_changes() {
        let (sign, style) = match change.tag() {
            ChangeTag::Delete => ('-', styles.diff_removed),
            ChangeTag::Insert => ('+', styles.diff_added),
            ChangeTag::Equal => (' ', anstyle::Style::new()),
        };
        let line = format!("{sign}{}", change.value().trim_end_matches('\n'));
        rendered.push_str(&paint(&line, style));
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

/// The excerpt's lines in `from..to` as text, a cut line ending with how much is not shown.
fn window_text(excerpt: &Excerpt, from: u64, to: u64) -> String {
    excerpt.window(from, to).map(shown_line).collect()
}

fn shown_line(line: &Line) -> String {
    if line.cut > 0 {
        format!("{} … ({} more)\n", line.text, crate::text::bytes(line.cut))
    } else {
        format!("{}\n", line.text)
    }
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
