//! Answers and how a program's output is compared with them: integers read as testlib reads
//! them, words compared exactly or ignoring case, real numbers within a tolerance; grouped by
//! the cases of the input, so that a mismatch names its case (`case 3 of 12: expected 5,
//! found 4`). `duipai test`, `stress` and `duipai-checker` all decide through [`check`].

mod integer;
mod lex;
mod real;

pub use integer::{parse_answer, parse_answer_with, read_integer};
pub use lex::{Syntax, TokenStream};
pub use real::{is_real_not_integer, read_real, within, within_icpc};

use integer::quote;

/// How the tokens of an answer are compared with the output's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rule {
    /// Every token is an integer, read as testlib's `readLong` reads one: a token that is not
    /// one is a presentation error.
    Integers,
    /// Every token is a real number, read as testlib's `readDouble` reads one, accepted
    /// within `tolerance` (absolute or relative error, [`within`]).
    Reals { tolerance: f64 },
    /// Tokens compared as text. With a tolerance, an expected token written as a real number
    /// (with a `.` or an exponent) accepts any real number within it; integers and words are
    /// still compared exactly (words ignoring ASCII case with `ignore_case`).
    Tokens {
        tolerance: Option<f64>,
        ignore_case: bool,
    },
}

impl Rule {
    /// Exact token comparison.
    pub const EXACT: Rule = Rule::Tokens {
        tolerance: None,
        ignore_case: false,
    };
}

/// What a program should print for one input, and how its output is compared with it.
#[derive(Clone, Debug, PartialEq)]
pub struct Expected {
    /// The expected output, as a program should print it.
    pub text: String,
    /// Where each case's answer lies in `text`, in case order: its tokens are the tokens of
    /// that range (read with testlib's blanks), found again whenever they are needed rather
    /// than kept (an answer of 10^7 tokens is its text, not 10^7 allocations).
    cases: Vec<std::ops::Range<usize>>,
    pub rule: Rule,
    /// Whether messages name the case (`case 3 of 12: `): the input has a case structure.
    numbered: bool,
    pub syntax: Syntax,
}

/// The decision on one output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Check {
    /// Accepted; the detail may say how (`3 tokens`), or be empty.
    Accepted(String),
    /// A well-formed output with a wrong answer.
    Wrong(String),
    /// An output that does not have the answer's form.
    Format(String),
}

impl Expected {
    /// The answers of a problem whose inputs hold `lines.len()` cases, one line each, as the
    /// reference solver writes them. `numbered` for problems with several cases per input.
    pub fn from_lines(lines: &[String], rule: Rule, numbered: bool) -> Expected {
        let mut text = String::new();
        let mut cases = Vec::with_capacity(lines.len());
        for line in lines {
            let start = text.len();
            text.push_str(line);
            cases.push(start..text.len());
            text.push('\n');
        }
        Expected {
            text,
            cases,
            rule,
            numbered,
            syntax: Syntax::Testlib,
        }
    }

    /// One integer: the answer of the single-case problems.
    pub fn integer(value: i64) -> Expected {
        Expected::from_lines(&[value.to_string()], Rule::Integers, false)
    }

    /// An answer file or a reference's output for an input of `cases` cases: one line per
    /// case, or, for answers of one token each, any layout of `cases` tokens. Every token must
    /// read under `rule` (an integer answer file holding `07` is refused); the error says why.
    pub fn read(
        bytes: &[u8],
        rule: Rule,
        cases: usize,
        numbered: bool,
    ) -> Result<Expected, String> {
        if !numbered && rule == Rule::Integers && cases == 1 {
            let value = parse_answer(bytes)?;
            return Ok(Expected::integer(value));
        }
        let text = String::from_utf8_lossy(bytes).into_owned();
        let lines = line_ranges(&text);
        let grouped = if lines.len() == cases {
            lines
        } else if !matches!(rule, Rule::Tokens { .. })
            && token_ranges(&text).take(cases + 1).count() == cases
        {
            token_ranges(&text).collect()
        } else {
            return Err(format!(
                "expected {} (one line each), found {}",
                crate::text::plural(cases as u64, "answer"),
                crate::text::plural(lines.len() as u64, "non-empty line")
            ));
        };
        let expected = Expected {
            text,
            cases: grouped,
            rule,
            numbered,
            syntax: Syntax::Testlib,
        };
        for i in 0..expected.cases.len() {
            for token in expected.case_tokens(i) {
                let reading = match rule {
                    Rule::Integers => read_integer(token).map(|_| ()),
                    Rule::Reals { .. } => read_real(token).map(|_| ()),
                    Rule::Tokens { .. } => Ok(()),
                };
                reading.map_err(|why| format!("answer {}: {}: {why}", i + 1, quote(token)))?;
            }
        }
        Ok(expected)
    }

    /// Any text compared token by token under `rule` (problems duipai does not know): one
    /// unnumbered case of all its tokens.
    pub fn tokens(bytes: &[u8], rule: Rule) -> Expected {
        let text = String::from_utf8_lossy(bytes).into_owned();
        Expected {
            cases: std::iter::once(0..text.len()).collect(),
            text,
            rule,
            numbered: false,
            syntax: Syntax::Testlib,
        }
    }

    /// The answer file or reference output of a problem duipai does not know, compared under
    /// `rule`. With the exact rule, an answer that is one integer is read as testlib reads one
    /// (`07` or `+7` for 7 is a presentation error, not a wrong answer); anything else is
    /// compared token by token.
    pub fn unknown(bytes: &[u8], rule: Rule) -> Expected {
        match parse_answer(bytes) {
            Ok(value) if rule == Rule::EXACT => Expected::integer(value),
            _ => Expected::tokens(bytes, rule),
        }
    }

    /// The same answers read with another protocol's blanks.
    pub fn with_syntax(mut self, syntax: Syntax) -> Expected {
        self.syntax = syntax;
        self
    }

    /// How many cases the answers are for.
    pub fn case_count(&self) -> usize {
        self.cases.len()
    }

    /// The answer of one case as text, tokens joined by single spaces.
    pub fn case_text(&self, index: usize) -> String {
        join(self.case_tokens(index))
    }

    /// The tokens of case `index`'s answer.
    fn case_tokens(&self, index: usize) -> impl Iterator<Item = &[u8]> {
        // Expected answers are always read with testlib's blanks, whatever reads the output.
        Syntax::Testlib.tokens(&self.text.as_bytes()[self.cases[index].clone()])
    }

    /// The single integer answer, when that is what this is.
    pub fn as_integer(&self) -> Option<i64> {
        if self.rule != Rule::Integers || self.cases.len() != 1 {
            return None;
        }
        let mut tokens = self.case_tokens(0);
        match (tokens.next(), tokens.next()) {
            (Some(token), None) => read_integer(token).ok(),
            _ => None,
        }
    }
}

/// The byte ranges of the non-empty lines of `text` (lines holding a token), in order.
fn line_ranges(text: &str) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for line in text.as_bytes().split(|&b| b == b'\n') {
        let range = start..start + line.len();
        start = range.end + 1;
        if Syntax::Testlib.tokens(line).next().is_some() {
            out.push(range);
        }
    }
    out
}

/// The byte ranges of the tokens of `text`, in order.
fn token_ranges(text: &str) -> impl Iterator<Item = std::ops::Range<usize>> {
    let base = text.as_ptr() as usize;
    Syntax::Testlib.tokens(text.as_bytes()).map(move |token| {
        let start = token.as_ptr() as usize - base;
        start..start + token.len()
    })
}

fn join<'t>(tokens: impl Iterator<Item = &'t [u8]>) -> String {
    let words: Vec<String> = tokens
        .map(|t| String::from_utf8_lossy(t).into_owned())
        .collect();
    words.join(" ")
}

/// Compares `output` with the expected answers; a mismatch names its case and, when it lies
/// inside the output, which case it was (`failed_case`).
pub fn check(expected: &Expected, output: &[u8]) -> Check {
    check_cases(expected, output).0
}

/// [`check`], with the 0-based index of the first case that does not match (`None` when
/// accepted, or when only something after the last answer is wrong).
pub fn check_cases(expected: &Expected, output: &[u8]) -> (Check, Option<usize>) {
    check_stream(expected, output)
}

/// [`check_cases`] on an output read as a stream, in constant memory whatever its size.
pub fn check_stream(expected: &Expected, output: impl std::io::Read) -> (Check, Option<usize>) {
    let mut output = TokenStream::new(output, expected.syntax);
    if let Some(value) = expected.as_integer().filter(|_| !expected.numbered) {
        // The single-integer answer keeps its own messages (`expected 2, found 3`).
        let check = match integer::parse_stream(&mut output) {
            Ok(found) if found == value => Check::Accepted(String::new()),
            Ok(found) => Check::Wrong(format!("expected {value}, found {found}")),
            Err(why) => Check::Format(why),
        };
        let failed = (!check.is_accepted()).then_some(0);
        return (check, failed);
    }
    Comparison {
        expected,
        output,
        index: 1,
    }
    .run()
}

impl Check {
    pub fn is_accepted(&self) -> bool {
        matches!(self, Check::Accepted(_))
    }
}

/// A walk through the output's tokens against the expected cases.
struct Comparison<'a, R> {
    expected: &'a Expected,
    output: TokenStream<R>,
    /// 1-based index of the next output token.
    index: usize,
}

/// Why one token does not match.
enum Miss {
    Wrong,
    Format(String),
}

impl<R: std::io::Read> Comparison<'_, R> {
    fn prefix(&self, case: usize) -> String {
        if self.expected.numbered {
            format!("case {} of {}: ", case + 1, self.expected.cases.len())
        } else {
            String::new()
        }
    }

    fn run(mut self) -> (Check, Option<usize>) {
        let expected = self.expected;
        let numbered = expected.numbered;
        for case in 0..expected.cases.len() {
            // The tokens of the case so far, for a message that shows the whole case: kept
            // only where a case is one answer line, never for one unnumbered case (which may
            // be the whole of a large output).
            let mut got: Vec<Vec<u8>> = Vec::new();
            for (k, want) in expected.case_tokens(case).enumerate() {
                let Some((found, cut)) = self.output.next_with_cut() else {
                    return (self.ended(case, want), Some(case));
                };
                self.index += 1;
                // A token cut to the longest kept is longer than any answer: it matches none.
                let matched = if cut {
                    Err(Miss::Wrong)
                } else {
                    compare(expected.rule, expected.syntax, want, found)
                };
                match matched {
                    Ok(()) if numbered => got.push(found.to_vec()),
                    Ok(()) => {}
                    Err(Miss::Wrong) if numbered => {
                        got.push(found.to_vec());
                        let rest = expected.case_tokens(case).count() - k - 1;
                        for _ in 0..rest {
                            match self.output.next_token() {
                                Some(t) => got.push(t.to_vec()),
                                None => break,
                            }
                        }
                        return (self.wrong_case(case, &got), Some(case));
                    }
                    Err(Miss::Wrong) => {
                        let found = found.to_vec();
                        return (self.wrong_token(want, &found), Some(case));
                    }
                    Err(Miss::Format(why)) => {
                        let message = format!("{}{why}", self.prefix(case));
                        return (Check::Format(message), Some(case));
                    }
                }
            }
        }
        if let Some(extra) = self.output.next_token() {
            let extra = extra.to_vec();
            let more = self.output.count_rest();
            return (self.extra(&extra, more), None);
        }
        let tokens = self.index - 1;
        (
            Check::Accepted(if numbered {
                crate::text::plural(expected.cases.len() as u64, "case")
            } else {
                crate::text::plural(tokens as u64, "token")
            }),
            None,
        )
    }

    /// The output ended inside case `case`, where `want` was expected next.
    fn ended(&self, case: usize, want: &[u8]) -> Check {
        let prefix = self.prefix(case);
        let missing = if self.expected.numbered {
            let tokens: Vec<&[u8]> = self.expected.case_tokens(case).collect();
            format!(
                "{prefix}expected {}, found end of output",
                shown_answer(&tokens)
            )
        } else {
            format!(
                "token {}: expected {}, found end of output",
                self.index,
                quote(want)
            )
        };
        let empty = self.index == 1;
        match self.expected.rule {
            // testlib's readers stop at the end of the output with a presentation error.
            Rule::Integers | Rule::Reals { .. } => Check::Format(missing),
            // An output with nothing in it is no answer of any form, whatever the answers'
            // rule: a presentation error for every problem, as for the integer ones (and the
            // mark of a program that reads a file, which the reports then hint at).
            Rule::Tokens { .. } if empty => Check::Format(missing),
            // Words cut short are wrong words, as testlib's token-by-token checkers say.
            Rule::Tokens { .. } => Check::Wrong(missing),
        }
    }

    /// The one case of an unnumbered answer is wrong at the token just read.
    fn wrong_token(&self, want: &[u8], found: &[u8]) -> Check {
        let why = match self.expected.rule {
            Rule::Tokens {
                tolerance: Some(tolerance),
                ..
            } if is_real_not_integer(want) => real_error(want, found, tolerance),
            _ => near_miss_hint(self.expected.rule, want, found).to_string(),
        };
        Check::Wrong(format!(
            "token {}: expected {}, found {}{why}",
            self.index - 1,
            quote(want),
            quote(found),
        ))
    }

    /// Case `case` is wrong; `got` is as much of the case as the output has.
    fn wrong_case(&self, case: usize, got: &[Vec<u8>]) -> Check {
        let want: Vec<&[u8]> = self.expected.case_tokens(case).collect();
        let why = match (self.expected.rule, want.as_slice()) {
            (Rule::Reals { tolerance }, [one]) => real_error(one, &got[0], tolerance),
            _ => String::new(),
        };
        let (want, found) = if want.len() == 1 {
            (plain(want[0]), plain(&got[0]))
        } else {
            (
                quote(join(want.into_iter()).as_bytes()),
                quote(join(got.iter().map(Vec::as_slice)).as_bytes()),
            )
        };
        Check::Wrong(format!(
            "{}expected {want}, found {found}{why}",
            self.prefix(case)
        ))
    }

    fn extra(&self, extra: &[u8], more: usize) -> Check {
        let tail = if more == 0 {
            String::new()
        } else {
            format!(
                " and {more} more token{}",
                crate::text::plural_s(more as u64)
            )
        };
        let answers = if self.expected.numbered {
            format!(
                "the last of {}",
                crate::text::plural(self.expected.cases.len() as u64, "answer")
            )
        } else {
            format!("token {}", self.index - 1)
        };
        let message = format!(
            "found {}{tail} after {answers}: nothing may follow it",
            quote(extra)
        );
        match self.expected.rule {
            Rule::Integers | Rule::Reals { .. } => Check::Format(message),
            Rule::Tokens { .. } => Check::Wrong(message),
        }
    }
}

/// What would accept a token that differs from the expected one only in how it is written,
/// when the comparison is token by token: the reals `60.000000` for `60.000000000` (the usual
/// surprise on a problem with real answers), or `yes` for `YES`.
fn near_miss_hint(rule: Rule, want: &[u8], found: &[u8]) -> &'static str {
    let Rule::Tokens {
        tolerance: None,
        ignore_case,
    } = rule
    else {
        return "";
    };
    // As with --tolerance, an expected integer is still compared exactly.
    match (read_real(want), read_real(found)) {
        (Ok(w), Ok(f)) if is_real_not_integer(want) && within(w, f, 1e-6) => {
            " (equal as real numbers: --tolerance 1e-6 compares reals within 1e-6)"
        }
        _ if !ignore_case && want.eq_ignore_ascii_case(found) => {
            " (they differ only in letter case: --ignore-case accepts that)"
        }
        _ => "",
    }
}

/// How far a real number is from the expected one, and that both errors are over the
/// tolerance (it accepts a number within it by either): ` (absolute error 4.44e-3, relative
/// error 8.00e-3, both above the tolerance 1e-6)`. Empty when either is not a finite number.
fn real_error(want: &[u8], found: &[u8], tolerance: f64) -> String {
    let (Ok(w), Ok(f)) = (read_real(want), read_real(found)) else {
        return String::new();
    };
    if !(w.is_finite() && f.is_finite()) {
        return String::new();
    }
    let absolute = (f - w).abs();
    if w == 0.0 {
        return format!(
            " (absolute error {absolute:.2e}, above the tolerance {tolerance:e}; the answer is \
             0, so no relative error can accept it)"
        );
    }
    let relative = absolute / w.abs();
    format!(
        " (absolute error {absolute:.2e}, relative error {relative:.2e}, both above the \
         tolerance {tolerance:e})"
    )
}

/// An answer of one case for a message: a single number bare (`5`, `0.555556`), words
/// quoted together (`"Case #1: Tom200"`).
fn shown_answer(tokens: &[&[u8]]) -> String {
    match tokens {
        [one] => plain(one),
        _ => quote(join(tokens.iter().copied()).as_bytes()),
    }
}

/// A number as it is (`-3`), anything else quoted.
fn plain(token: &[u8]) -> String {
    if read_real(token).is_ok() {
        String::from_utf8_lossy(token).into_owned()
    } else {
        quote(token)
    }
}

/// One expected token against one output token; real numbers within the tolerance as
/// `syntax`'s checker decides ([`within`] for testlib, [`within_icpc`] for the ICPC default
/// validator).
fn compare(rule: Rule, syntax: Syntax, want: &[u8], found: &[u8]) -> Result<(), Miss> {
    let within = match syntax {
        Syntax::Testlib => within,
        Syntax::Icpc => within_icpc,
    };
    match rule {
        Rule::Integers => {
            let value = read_integer(found).map_err(|why| {
                Miss::Format(format!(
                    "expected an integer, found {}: {why}",
                    quote(found)
                ))
            })?;
            if read_integer(want) == Ok(value) {
                Ok(())
            } else {
                Err(Miss::Wrong)
            }
        }
        Rule::Reals { tolerance } => {
            let value = read_real(found).map_err(|why| {
                Miss::Format(format!(
                    "expected a real number, found {}: {why}",
                    quote(found)
                ))
            })?;
            match read_real(want) {
                Ok(w) if within(w, value, tolerance) => Ok(()),
                _ => Err(Miss::Wrong),
            }
        }
        Rule::Tokens {
            tolerance,
            ignore_case,
        } => {
            let same = if ignore_case {
                want.eq_ignore_ascii_case(found)
            } else {
                want == found
            };
            let close = || match (tolerance, read_real(want), read_real(found)) {
                (Some(eps), Ok(w), Ok(f)) if is_real_not_integer(want) => within(w, f, eps),
                _ => false,
            };
            if same || close() {
                Ok(())
            } else {
                Err(Miss::Wrong)
            }
        }
    }
}

#[cfg(test)]
mod tests;
