//! Renders the difference between expected and actual output for humans. It only renders:
//! verdicts are decided elsewhere, by tokens.

use std::time::Duration;

use similar::ChangeTag;

use super::Styles;
use super::styles::paint;

/// Most bytes of each side shown; past that the text is cut (and says so).
const SHOWN_BYTES: usize = 4096;

/// A short unified diff of expected and actual output, with a deadline so that large,
/// entirely different outputs cannot stall the report; removed and added lines in their
/// styles.
pub fn unified(expected: &str, actual: &[u8], styles: &Styles) -> String {
    let expected = clip(expected.as_bytes());
    let actual = clip(actual);
    let diff = similar::TextDiff::configure()
        .timeout(Duration::from_millis(200))
        .diff_lines(expected.as_str(), actual.as_str());
    let mut rendered = String::new();
    for hunk in diff.unified_diff().context_radius(2).iter_hunks() {
        if rendered.is_empty() {
            rendered.push_str(&paint("--- expected", styles.diff_header));
            rendered.push('\n');
            rendered.push_str(&paint("+++ actual", styles.diff_header));
            rendered.push('\n');
        }
        rendered.push_str(&paint(&hunk.header().to_string(), styles.diff_hunk));
        rendered.push('\n');
        for change in hunk.iter_changes() {
            let (sign, style) = match change.tag() {
                ChangeTag::Delete => ('-', styles.diff_removed),
                ChangeTag::Insert => ('+', styles.diff_added),
                ChangeTag::Equal => (' ', anstyle::Style::new()),
            };
            let line = format!("{sign}{}", change.value().trim_end_matches('\n'));
            rendered.push_str(&paint(&line, style));
            rendered.push('\n');
        }
    }
    if rendered.is_empty() {
        rendered = "(outputs differ only in bytes that are not shown)\n".into();
    }
    rendered
}

fn clip(bytes: &[u8]) -> String {
    let mut text = String::from_utf8_lossy(&bytes[..bytes.len().min(SHOWN_BYTES)]).into_owned();
    if bytes.len() > SHOWN_BYTES {
        text.push_str(&format!(
            "\n[... {} more bytes]\n",
            bytes.len() - SHOWN_BYTES
        ));
    }
    if !text.ends_with('\n') {
        // Without a final newline `similar` marks the last line specially; the verdict already
        // ignores trailing whitespace, so the diff should too.
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shows_both_sides() {
        let d = unified("2\n", b"3\n", &Styles::plain());
        assert!(d.contains("--- expected"), "{d}");
        assert!(d.contains("-2"), "{d}");
        assert!(d.contains("+3"), "{d}");
        assert_eq!(d, "--- expected\n+++ actual\n@@ -1 +1 @@\n-2\n+3\n");
    }

    #[test]
    fn colours_removed_and_added_lines_where_it_renders_them() {
        let d = unified("1\n2\n", b"1\n3\n", &Styles::colored());
        let removed = paint("-2", Styles::colored().diff_removed);
        let added = paint("+3", Styles::colored().diff_added);
        assert!(d.contains(&format!("\n {}\n", "1")), "{d:?}");
        assert!(d.contains(&format!("{removed}\n{added}\n")), "{d:?}");
    }

    #[test]
    fn clips_huge_output() {
        let huge = vec![b'x'; 100_000];
        let d = unified("1\n", &huge, &Styles::plain());
        assert!(d.contains("more bytes"));
        assert!(d.len() < 10_000);
    }
}
