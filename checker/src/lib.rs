//! The checker's decision, apart from any protocol: compare a contestant's output with the
//! expected answer (read from an answer file, or recomputed from the input by the reference
//! solver), and say why.

use duipai::judge::verdict::parse_answer;
use duipai::problem::Problem;

/// The checker's decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Accepted {
        answer: i64,
    },
    WrongAnswer {
        expected: i64,
        found: i64,
    },
    /// The output is not exactly one integer.
    PresentationError(String),
    /// The checker itself cannot decide: the answer file or the input is unusable.
    Fail(String),
}

/// Where the expected answer comes from.
#[derive(Clone, Copy, Debug)]
pub enum Expected<'a> {
    /// The contents of an answer file.
    AnswerFile(&'a [u8]),
    /// Recompute with the reference solver from the input file's contents.
    Solve {
        problem: &'static dyn Problem,
        input: &'a [u8],
    },
}

/// Decides one output. Never panics, whatever the bytes.
pub fn check(expected: Expected<'_>, output: &[u8]) -> Outcome {
    let expected = match expected {
        Expected::AnswerFile(bytes) => match parse_answer(bytes) {
            Ok(value) => value,
            Err(why) => return Outcome::Fail(format!("answer file is not one integer: {why}")),
        },
        Expected::Solve { problem, input } => {
            match problem.parse(input, &problem.default_bounds()) {
                Ok(instance) => instance.solve(),
                Err(err) => return Outcome::Fail(format!("input file is invalid: {err}")),
            }
        }
    };
    match parse_answer(output) {
        Err(why) => Outcome::PresentationError(why),
        Ok(found) if found == expected => Outcome::Accepted { answer: found },
        Ok(found) => Outcome::WrongAnswer { expected, found },
    }
}

impl Outcome {
    /// The one-line verdict message, worded like testlib's.
    pub fn message(&self) -> String {
        match self {
            Outcome::Accepted { answer } => format!("ok answer is {answer}"),
            Outcome::WrongAnswer { expected, found } => {
                format!("wrong answer expected {expected}, found {found}")
            }
            Outcome::PresentationError(why) => format!("wrong output format {why}"),
            Outcome::Fail(why) => format!("FAIL {why}"),
        }
    }

    /// Exit status under the testlib protocol: 0 ok, 1 wrong answer, 2 presentation error,
    /// 3 checker failure.
    pub fn testlib_code(&self) -> u8 {
        match self {
            Outcome::Accepted { .. } => 0,
            Outcome::WrongAnswer { .. } => 1,
            Outcome::PresentationError(_) => 2,
            Outcome::Fail(_) => 3,
        }
    }

    /// The score under the Lemon special-judge protocol: the full score when accepted, 0
    /// otherwise (the problems have one answer, so there is no partial credit).
    pub fn lemon_score(&self, full_score: u64) -> u64 {
        match self {
            Outcome::Accepted { .. } => full_score,
            _ => 0,
        }
    }

    /// Exit status under the Kattis output-validator protocol: 42 accepted, 43 rejected;
    /// anything else is a judge error, and 1 is used for that.
    pub fn kattis_code(&self) -> u8 {
        match self {
            Outcome::Accepted { .. } => 42,
            Outcome::WrongAnswer { .. } | Outcome::PresentationError(_) => 43,
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
            let outcome = check(Expected::AnswerFile(&answer), &output);
            prop_assert!(outcome.testlib_code() <= 3);
            if let Outcome::Accepted { answer: a } = outcome {
                prop_assert_eq!(parse_answer(&output), Ok(a));
                prop_assert_eq!(parse_answer(&answer), Ok(a));
            }
        }

        /// Integer-looking noise (signs, digits, spaces) reaches the comparison paths.
        #[test]
        fn integer_like_bytes_never_panic(output in "[-+0-9 \n\r\t]{0,24}", answer in "[-+0-9 \n]{0,24}") {
            let outcome = check(Expected::AnswerFile(answer.as_bytes()), output.as_bytes());
            prop_assert!(outcome.testlib_code() <= 3);
        }

        /// Random bytes as the input with recomputation: a checker failure, never a panic.
        #[test]
        fn arbitrary_inputs_never_panic(input in proptest::collection::vec(any::<u8>(), 0..60)) {
            for &problem in duipai::problem::ALL {
                let outcome = check(Expected::Solve { problem, input: &input }, b"0\n");
                prop_assert!(outcome.testlib_code() <= 3);
            }
        }
    }
}
