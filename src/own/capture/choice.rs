//! One choice of a generator, and the files its recorders write and read: a line a choice,
//! `LABEL MAX VALUE` written (where the generator drew, the largest value the draw allows,
//! the value drawn or served), and the values alone read back when replaying.

use std::collections::HashMap;

/// One random choice: which of the generator's draws made it, the largest value that draw
/// allows, and the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Choice {
    /// Draws from one place of the generator (one line of a loop) share a label: labels are
    /// numbered in the order they first appear.
    pub label: u32,
    pub max: u64,
    pub value: u64,
}

/// Reads what a recorder wrote; the labels (a code address, a Python line's number) are
/// renumbered 0, 1, 2, … in the order they first appear, so that two runs of the same
/// generator give the same labels.
pub fn parse(text: &[u8]) -> Result<Vec<Choice>, String> {
    let text = std::str::from_utf8(text).map_err(|_| "the choices are not text".to_string())?;
    let mut labels: HashMap<u64, u32> = HashMap::new();
    let mut choices = Vec::with_capacity(text.len() / 16);
    for (at, line) in text.lines().enumerate() {
        let mut words = line.split_ascii_whitespace().map(str::parse::<u64>);
        let (Some(Ok(label)), Some(Ok(max)), Some(Ok(value)), None) =
            (words.next(), words.next(), words.next(), words.next())
        else {
            return Err(format!(
                "line {} of the choices is not `LABEL MAX VALUE`",
                at + 1
            ));
        };
        if value > max {
            return Err(format!(
                "line {} of the choices has a value above its maximum",
                at + 1
            ));
        }
        let next = labels.len() as u32;
        let label = *labels.entry(label).or_insert(next);
        choices.push(Choice { label, max, value });
    }
    Ok(choices)
}

/// The values to replay, as the recorders read them: one a line.
pub fn values_text(values: &[u64]) -> Vec<u8> {
    let mut out = String::with_capacity(values.len() * 8);
    for value in values {
        out.push_str(&value.to_string());
        out.push('\n');
    }
    out.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_numbered_as_they_appear_and_bad_lines_named() {
        let choices = parse(b"9400 10 3\n77 1 1\n9400 10 0\n").unwrap();
        let labels: Vec<u32> = choices.iter().map(|c| c.label).collect();
        assert_eq!(labels, [0, 1, 0]);
        assert_eq!(choices[0].max, 10);
        assert_eq!(choices[2].value, 0);
        assert_eq!(parse(b"").unwrap(), []);
        assert_eq!(
            parse(b"1 2 3\n").unwrap_err(),
            "line 1 of the choices has a value above its maximum"
        );
        assert_eq!(
            parse(b"1 2\n").unwrap_err(),
            "line 1 of the choices is not `LABEL MAX VALUE`"
        );
        assert_eq!(
            values_text(&[3, 0, 18446744073709551615]),
            b"3\n0\n18446744073709551615\n"
        );
    }
}
