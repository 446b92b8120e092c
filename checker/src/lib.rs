//! The checker's decision, apart from any protocol: compare a contestant's output with the
//! expected answers (read from an answer file, or recomputed from the input by the reference
//! solver) through duipai's own comparison, and say why.

use duipai::answer::{self, Check, Syntax, parse_answer};
use duipai::problem::Problem;

/// The checker's decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Accepted; what was accepted (`answer is 2`, `3 cases`).
    Accepted(String),
    /// A well-formed wrong answer: why (`expected 2, found 3`).
    WrongAnswer(String),
    /// The output does not have the answer's form.
    PresentationError(String),
    /// The checker itself cannot decide: the answer file or the input is unusable.
    Fail(String),
}

/// Where the expected answer comes from.
#[derive(Clone, Copy, Debug)]
pub enum Expected<'a> {
    /// An answer file. Without a problem it holds one integer; with one, the problem's
    /// answers, one line per case.
    AnswerFile {
        answer: &'a [u8],
        problem: Option<&'static dyn Problem>,
    },
    /// Recompute with the reference solver from the input file's contents.
    Solve {
        problem: &'static dyn Problem,
        input: &'a [u8],
    },
}

/// Decides one output, reading it with `syntax`'s blanks. Never panics, whatever the bytes.
pub fn check(expected: Expected<'_>, output: &[u8], syntax: Syntax) -> Outcome {
    let expected = match expected {
        Expected::AnswerFile {
            answer,
            problem: None,
        } => match parse_answer(answer) {
            Ok(value) => answer::Expected::integer(value),
            Err(why) => return Outcome::Fail(format!("answer file is not one integer: {why}")),
        },
        Expected::AnswerFile {
            answer,
            problem: Some(problem),
        } => {
            let multi = problem.structure().is_multi();
            let lines = answer
                .split(|&b| b == b'\n')
                .filter(|l| l.iter().any(|b| !b.is_ascii_whitespace()))
                .count();
            let cases = if multi { lines } else { 1 };
            match answer::Expected::read(answer, problem.rule(), cases, multi) {
                Ok(expected) => expected,
                Err(why) => {
                    return Outcome::Fail(format!("answer file is not a {problem} answer: {why}"));
                }
            }
        }
        Expected::Solve { problem, input } => {
            match problem.parse(input, &problem.default_bounds()) {
                Ok(instance) => match instance.expected() {
                    Ok(expected) => expected,
                    Err(err) => return Outcome::Fail(format!("cannot solve the input: {err}")),
                },
                Err(err) => return Outcome::Fail(format!("input file is invalid: {err}")),
            }
        }
    };
    let single = expected.as_integer();
    match answer::check(&expected.with_syntax(syntax), output) {
        Check::Accepted(detail) => Outcome::Accepted(match single {
            Some(value) => format!("answer is {value}"),
            None => detail,
        }),
        Check::Wrong(why) => Outcome::WrongAnswer(why),
        Check::Format(why) => Outcome::PresentationError(why),
    }
}

impl Outcome {
    /// The one-line verdict message, worded like testlib's.
    pub fn message(&self) -> String {
        match self {
            Outcome::Accepted(what) => format!("ok {what}"),
            Outcome::WrongAnswer(why) => format!("wrong answer {why}"),
            Outcome::PresentationError(why) => format!("wrong output format {why}"),
            Outcome::Fail(why) => format!("FAIL {why}"),
        }
    }

    /// Exit status under the testlib protocol: 0 ok, 1 wrong answer, 2 presentation error,
    /// 3 checker failure.
    pub fn testlib_code(&self) -> u8 {
        match self {
            Outcome::Accepted(_) => 0,
            Outcome::WrongAnswer(_) => 1,
            Outcome::PresentationError(_) => 2,
            Outcome::Fail(_) => 3,
        }
    }

    /// The score under the Lemon special-judge protocol: the full score when accepted, 0
    /// otherwise (the problems have one answer per case, so there is no partial credit).
    pub fn lemon_score(&self, full_score: u64) -> u64 {
        match self {
            Outcome::Accepted(_) => full_score,
            _ => 0,
        }
    }

    /// Exit status under the Kattis output-validator protocol: 42 accepted, 43 rejected;
    /// anything else is a judge error, and 1 is used for that.
    pub fn kattis_code(&self) -> u8 {
        match self {
            Outcome::Accepted(_) => 42,
            Outcome::WrongAnswer(_) | Outcome::PresentationError(_) => 43,
            Outcome::Fail(_) => 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        /// Random bytes as output and answer: never a panic, always one of the four outcomes,
        /// and acceptance only when both really are the same single integer.
        #[test]
        fn arbitrary_bytes_never_panic(output in proptest::collection::vec(any::<u8>(), 0..40),
                                       answer in proptest::collection::vec(any::<u8>(), 0..40)) {
            let outcome = check(Expected::AnswerFile { answer: &answer, problem: None }, &output, Syntax::Testlib);
            prop_assert!(outcome.testlib_code() <= 3);
            if let Outcome::Accepted(_) = outcome {
                prop_assert_eq!(parse_answer(&output), parse_answer(&answer));
                prop_assert!(parse_answer(&answer).is_ok());
            }
        }

        /// Integer-looking noise (signs, digits, spaces) reaches the comparison paths.
        #[test]
        fn integer_like_bytes_never_panic(output in "[-+0-9 \n\r\t]{0,24}", answer in "[-+0-9 \n]{0,24}") {
            let outcome = check(Expected::AnswerFile { answer: answer.as_bytes(), problem: None }, output.as_bytes(), Syntax::Icpc);
            prop_assert!(outcome.testlib_code() <= 3);
        }

        /// Random bytes as the input with recomputation: a checker failure, never a panic.
        #[test]
        fn arbitrary_inputs_never_panic(input in proptest::collection::vec(any::<u8>(), 0..60)) {
            for &problem in duipai::problem::ALL {
                let outcome = check(Expected::Solve { problem, input: &input }, b"0\n", Syntax::Testlib);
                prop_assert!(outcome.testlib_code() <= 3);
            }
        }
    }
}
