//! Renders the difference between expected and actual output for humans. It only renders:
//! verdicts are decided elsewhere, by tokens.

use std::time::Duration;

/// Most bytes of each side shown; past that the text is cut (and says so).
const SHOWN_BYTES: usize = 4096;

/// A short unified diff of expected and actual output, with a deadline so that large,
/// entirely different outputs cannot stall the report.
pub fn unified(expected: &str, actual: &[u8]) -> String {
    let expected = clip(expected.as_bytes());
    let actual = clip(actual);
    let diff = similar::TextDiff::configure()
        .timeout(Duration::from_millis(200))
        .diff_lines(expected.as_str(), actual.as_str());
    let mut rendered = diff
        .unified_diff()
        .context_radius(2)
        .header("expected", "actual")
        .to_string();
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
        let d = unified("2\n", b"3\n");
        assert!(d.contains("--- expected"), "{d}");
        assert!(d.contains("-2"), "{d}");
        assert!(d.contains("+3"), "{d}");
    }

    #[test]
    fn clips_huge_output() {
        let huge = vec![b'x'; 100_000];
        let d = unified("1\n", &huge);
        assert!(d.contains("more bytes"));
        assert!(d.len() < 10_000);
    }
}
