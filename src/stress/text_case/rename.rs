//! Strings renamed keeping which of them are equal: the candidates that take `aa / a / aa`
//! to `a / b / a`, where cutting and lowering letters one at a time cannot (each single edit
//! makes two strings equal that were not, or unequal that were).
//!
//! The strings renamed are the words no count measures that stand on lines of words only
//! (a count's string keeps its length), all of one kind of character: lowercase letters,
//! uppercase letters or digits. The names are the shortest strings of that kind in order:
//! `a`, `b`, …, `z`, `aa`, `ab`, …. A candidate is kept only when its text is smaller than the
//! case's: shorter, or as long and earlier byte by byte, so that renaming never undoes what
//! the other passes did and minimization ends.

use std::collections::HashMap;

use super::{Edit, Put, TextCase};
use crate::stress::minimize::Candidates;

/// The `i`-th shortest string over the `radix` characters from `base`, in order: for letters
/// `a`, …, `z`, `aa`, `ab`, ….
fn name(mut i: usize, base: u8, radix: usize) -> Vec<u8> {
    let mut len = 1;
    let mut of_len = radix;
    while i >= of_len {
        i -= of_len;
        len += 1;
        of_len = of_len.saturating_mul(radix);
    }
    let mut out = vec![base; len];
    for at in (0..len).rev() {
        out[at] = base + (i % radix) as u8;
        i /= radix;
    }
    out
}

/// A kind of character: its first, how many there are, and which bytes are of it.
type Kind = (u8, usize, fn(&u8) -> bool);

/// The first character and how many there are of the kind every byte of `words` is of.
fn alphabet<'a>(mut words: impl Iterator<Item = &'a [u8]>) -> Option<(u8, usize)> {
    let kinds: [Kind; 3] = [
        (b'a', 26, u8::is_ascii_lowercase),
        (b'A', 26, u8::is_ascii_uppercase),
        (b'0', 10, u8::is_ascii_digit),
    ];
    let first = words.next()?;
    let &(base, radix, is) = kinds.iter().find(|(_, _, is)| first.iter().all(is))?;
    words.all(|w| w.iter().all(is)).then_some((base, radix))
}

impl TextCase {
    /// The strings the renaming pass renames: free words (no count measures them) of lines
    /// of words only, in the text's order.
    fn renamed_words(&self) -> Vec<usize> {
        let measured = self.layout().chars_words();
        self.string_tokens()
            .into_iter()
            .filter(|t| measured.binary_search(t).is_err())
            .collect()
    }

    /// Every distinct string renamed at once, the first met `a`, the next `b`, …; then each
    /// distinct string alone renamed to the shortest name no other string has. Each candidate
    /// only when its text is smaller than the case's; made only when probed (a case of 2·10^5
    /// strings offers as many).
    pub(super) fn renamed_strings(&self) -> Candidates<'_, TextCase> {
        let words = self.renamed_words();
        let texts: Vec<Vec<u8>> = words.iter().map(|&t| self.token_text(t)).collect();
        let Some((base, radix)) = alphabet(texts.iter().map(Vec::as_slice)) else {
            return Candidates::none();
        };
        // The distinct strings in the order they are first met, and each word's.
        let mut index: HashMap<Vec<u8>, usize> = HashMap::new();
        let mut class = Vec::with_capacity(texts.len());
        for text in texts {
            let next = index.len();
            class.push(*index.entry(text).or_insert(next));
        }
        let mut distinct = vec![Vec::new(); index.len()];
        for (text, &c) in &index {
            distinct[c] = text.clone();
        }
        Candidates::lazy(1 + distinct.len(), move |i| {
            let Some(c) = i.checked_sub(1) else {
                return self.renamed(&words, &class, &distinct, &|c| name(c, base, radix));
            };
            // The shortest name no other distinct string has (at worst its own).
            let free = (0..)
                .map(|i| name(i, base, radix))
                .find(|n| *n == distinct[c] || !index.contains_key(n))?;
            let names = |d: usize| {
                if d == c {
                    free.clone()
                } else {
                    distinct[d].clone()
                }
            };
            self.renamed(&words, &class, &distinct, &names)
        })
    }

    /// The case with each of `words` (of the distinct string `class`, among `distinct`)
    /// renamed to `names` of its class, when its text is smaller: shorter, or as long and
    /// earlier byte by byte.
    fn renamed(
        &self,
        words: &[usize],
        class: &[usize],
        distinct: &[Vec<u8>],
        names: &dyn Fn(usize) -> Vec<u8>,
    ) -> Option<TextCase> {
        let set = words
            .iter()
            .zip(class)
            .map(|(&t, &c)| (t, c, names(c)))
            .filter(|(_, c, name)| *name != distinct[*c])
            .map(|(t, _, name)| (t, Put::Word(name)))
            .collect();
        let candidate = self.edited(&Edit {
            set,
            ..Edit::default()
        });
        let (before, after) = (self.to_bytes(), candidate.to_bytes());
        ((after.len(), &after) < (before.len(), &before)).then_some(candidate)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_shortest_strings_in_order() {
        let names: Vec<String> = [0, 1, 25, 26, 27, 26 + 26 * 26]
            .iter()
            .map(|&i| String::from_utf8(name(i, b'a', 26)).unwrap())
            .collect();
        assert_eq!(names, ["a", "b", "z", "aa", "ab", "aaa"]);
        assert_eq!(name(10, b'0', 10), b"00");
    }

    #[test]
    fn strings_are_renamed_keeping_which_are_equal() {
        let case = TextCase::new(b"3\naa\na\naa\n");
        let out: Vec<String> = case
            .renamed_strings()
            .collect()
            .iter()
            .map(|c| String::from_utf8(c.to_bytes()).unwrap())
            .collect();
        // All at once, then `aa` alone renamed to `b` (`a` is taken); `a` is as short as can
        // be.
        assert_eq!(out, ["3\na\nb\na\n", "3\nb\na\nb\n"]);
        // Nothing smaller to offer.
        assert!(
            TextCase::new(b"3\na\nb\na\n")
                .renamed_strings()
                .collect()
                .is_empty()
        );
        // Mixed kinds of characters are left alone.
        assert!(TextCase::new(b"2\nab\nA1\n").renamed_strings().is_empty());
    }
}
