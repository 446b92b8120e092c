//! Making the tests of a pack of one's own, and making again only what changed. Every test is
//! its input (a generator's output for its arguments and seed, or a hand-made file), checked
//! by the validator, and its answer (the reference's, or a hand-made one checked against it).
//! What each program said is kept as a fact ([`crate::own::facts`]) under the program's
//! fingerprint and what it was given; the contents are the previous pack's own files, found
//! by the hashes its manifest records. So a test whose generator, arguments, seed, validator
//! and reference are unchanged is read back from the pack, not made again, and a changed
//! validator only validates again.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::bail;

use super::file::OwnPackOptions;
use crate::judge::Runner;
use crate::judge::checker::{Checker, Protocol};
use crate::own::facts::{Facts, key};
use crate::own::{Helper, Judging, Overview, OwnProblem, Validity};
use crate::pack::manifest::{Section, content_hash};

/// The previous pack's files that are still as it wrote them, by their content's hash.
#[derive(Debug, Default)]
pub struct Previous {
    out: PathBuf,
    by_hash: HashMap<String, String>,
    /// Each intact file's hash, by its path in the pack.
    intact: HashMap<String, String>,
}

impl Previous {
    /// The files `section` lists in `out` whose content is the hash it records (read through
    /// no symbolic link); nothing without a section.
    pub fn of(out: &Path, section: Option<&Section>) -> Previous {
        let mut previous = Previous {
            out: out.to_path_buf(),
            ..Previous::default()
        };
        let Some(section) = section else {
            return previous;
        };
        for (file, recorded) in section.files.iter().zip(&section.hashes) {
            let Some(recorded) = recorded else { continue };
            let path = out.join(file);
            let regular = crate::fsutil::no_link_on_the_way(out, file)
                && std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file());
            if regular
                && let Ok(bytes) = std::fs::read(&path)
                && content_hash(&bytes) == *recorded
            {
                previous.by_hash.insert(recorded.clone(), file.clone());
                previous.intact.insert(file.clone(), recorded.clone());
            }
        }
        previous
    }

    /// The content of a file of the previous pack whose hash is `hash`, if one is intact.
    pub fn content(&self, hash: &str) -> Option<Vec<u8>> {
        let file = self.by_hash.get(hash)?;
        let bytes = std::fs::read(self.out.join(file)).ok()?;
        (content_hash(&bytes) == hash).then_some(bytes)
    }

    /// Whether no file of a previous pack is there as it wrote it.
    pub fn is_empty(&self) -> bool {
        self.intact.is_empty()
    }

    /// Whether `file` is in place with the content whose hash is `hash`: writing it again
    /// would change nothing.
    pub fn holds(&self, file: &str, hash: &str) -> bool {
        self.intact.get(file).is_some_and(|h| h == hash)
    }
}

/// How a test's input is made.
pub enum Source<'a> {
    /// A generator (`None`: the default one) given `args`, then `seed`; without a seed (a
    /// Polygon package's `cmd`), `args` alone.
    Gen {
        generator: Option<&'a str>,
        args: &'a [String],
        seed: Option<u64>,
        /// The answer the package ships with it.
        shipped: Option<&'a Path>,
    },
    /// A hand-made input, and its hand-made answer if it has one; `crlf` reads the input's
    /// CR LF line ends as LF (a Polygon package's manual tests). `shipped`: the answer is
    /// one a package ships, checked only when asked.
    Hand {
        input: &'a Path,
        answer: Option<PathBuf>,
        crlf: bool,
        shipped: bool,
    },
}

/// What became of a hand-made answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnswerCheck {
    /// The answer is the reference's (none was made by hand), or none is needed.
    Made,
    /// Exactly the reference's answer, or accepted by the checker against it.
    Right,
    /// Accepted by the problem's comparison, but not byte for byte the reference's.
    RightButNotExact,
    /// Rejected: the verdict and why.
    Wrong(String),
    /// Nothing to check it against: no reference.
    Unchecked,
}

/// One test as made, before anything is written.
pub struct Made {
    pub input: Vec<u8>,
    pub answer: Vec<u8>,
    /// Where a hand-made answer comes from; `None` when the reference's.
    pub answer_file: Option<PathBuf>,
    /// The generator printed the same input for the next seed.
    pub seed_independent: bool,
    pub answer_check: AnswerCheck,
    /// The validator's verdict when it rejected the input (a hand-made one: a generated
    /// input that is invalid is an error).
    pub invalid: Option<String>,
    pub overview: Option<Overview>,
    /// No program ran to make it: everything came from the previous pack and the facts.
    pub reused: bool,
}

/// Makes tests, reading back what the previous pack made when nothing that makes it changed.
pub struct Maker<'a> {
    pub opts: &'a OwnPackOptions<'a>,
    pub facts: Facts,
    pub previous: Previous,
}

impl Maker<'_> {
    /// One test: its input, the validator's verdict on it, and its answer.
    pub fn make(&self, source: &Source) -> anyhow::Result<Made> {
        let mut ran = false;
        let shipped = match source {
            Source::Gen { shipped, .. } => shipped.is_some(),
            Source::Hand { shipped, .. } => *shipped,
        };
        let (input, seed_independent, hand_answer) = match source {
            Source::Gen {
                generator,
                args,
                seed,
                shipped,
            } => {
                let (input, same) = self.generated(*generator, args, *seed, &mut ran)?;
                (input, same, shipped.map(Path::to_path_buf))
            }
            Source::Hand {
                input,
                answer,
                crlf,
                ..
            } => {
                let bytes = crate::fsutil::read_regular_capped(input)?;
                let bytes = match crlf {
                    true => super::plan::lf_line_ends(bytes),
                    false => bytes,
                };
                (bytes, false, answer.clone())
            }
        };
        let input_hash = content_hash(&input);
        let (invalid, overview) = match self.validity(&input, &input_hash, &mut ran)? {
            Some(Validity::Invalid(why)) => (Some(why), None),
            Some(Validity::Valid(overview)) => (None, overview),
            None => (None, None),
        };
        if invalid.is_some() && matches!(source, Source::Gen { .. }) {
            bail!("the input is invalid: {}", invalid.unwrap_or_default());
        }
        let problem = self.opts.problem;
        let (answer, answer_check) = match (&hand_answer, &problem.judging) {
            (Some(path), _) => {
                let answer = crate::fsutil::read_in_folder_capped(path)?;
                let trusted = shipped && !self.opts.check_shipped_answers;
                let check = match &invalid {
                    _ if trusted => AnswerCheck::Unchecked,
                    Some(_) => AnswerCheck::Unchecked,
                    None => self.check_answer(&input, &input_hash, &answer, &mut ran)?,
                };
                (answer, check)
            }
            (None, Judging::Interactor(_)) => (Vec::new(), AnswerCheck::Made),
            (None, _) if invalid.is_some() && problem.reference.is_some() => {
                // The reference need not answer an input it was never meant for.
                (Vec::new(), AnswerCheck::Made)
            }
            (None, _) => (
                self.reference_answer(&input, &input_hash, &mut ran)?,
                AnswerCheck::Made,
            ),
        };
        Ok(Made {
            input,
            answer,
            answer_file: hand_answer,
            seed_independent,
            answer_check,
            invalid,
            overview,
            reused: !ran,
        })
    }

    /// The input `generator` prints for `args` and `seed`, and whether it prints the same for
    /// the next seed (the line's input does not depend on its seed). A line without a seed
    /// is meant to be one input: never the same for the next.
    fn generated(
        &self,
        generator: Option<&str>,
        args: &[String],
        seed: Option<u64>,
        ran: &mut bool,
    ) -> anyhow::Result<(Vec<u8>, bool)> {
        let problem = self.opts.problem;
        let helper = problem.generators.get(generator)?;
        let mut parts: Vec<Vec<u8>> = vec![b"generated".to_vec(), helper.fingerprint()?.into()];
        parts.extend(args.iter().map(|a| a.as_bytes().to_vec()));
        parts.push(match seed {
            Some(seed) => seed.to_string().into_bytes(),
            None => b"no seed".to_vec(),
        });
        let fact_key = key(&parts.iter().map(Vec::as_slice).collect::<Vec<_>>());
        let known = self.facts.get(&fact_key).and_then(|fact| {
            let (hash, same) = fact.trim_end().split_once('\n')?;
            Some((hash.to_string(), same == "same"))
        });
        if let Some((hash, same)) = &known
            && let Some(input) = self.previous.content(hash)
        {
            return Ok((input, *same));
        }
        *ran = true;
        let runner = self.opts.runner;
        let input = problem.generate(runner, generator, args, seed)?;
        let same = match (known, seed) {
            (_, None) => false,
            (Some((hash, same)), _) if hash == content_hash(&input) => same,
            (_, Some(seed)) => {
                problem.generate(runner, generator, args, Some(seed.wrapping_add(1)))? == input
            }
        };
        let word = if same { "same" } else { "differs" };
        let fact = format!("{}\n{word}\n", content_hash(&input));
        self.facts.put(&fact_key, &fact);
        Ok((input, same))
    }

    /// What the validator says of the hand-made input at `path`; `None` without a validator.
    pub fn hand_validity(&self, path: &Path) -> anyhow::Result<Option<Validity>> {
        let input = crate::fsutil::read_regular_capped(path)?;
        self.validity(&input, &content_hash(&input), &mut false)
    }

    /// What the validator says of the input; `None` without a validator.
    fn validity(
        &self,
        input: &[u8],
        input_hash: &str,
        ran: &mut bool,
    ) -> anyhow::Result<Option<Validity>> {
        validity_kept(
            self.opts.problem,
            self.opts.runner,
            &self.facts,
            (input, input_hash),
            ran,
        )
    }

    /// The reference's answer to the input.
    fn reference_answer(
        &self,
        input: &[u8],
        input_hash: &str,
        ran: &mut bool,
    ) -> anyhow::Result<Vec<u8>> {
        let problem = self.opts.problem;
        let fingerprint = match &problem.reference {
            Some(reference) => reference.fingerprint()?,
            None => return problem.test_answer(self.opts.runner, input),
        };
        let fact_key = key(&[b"answered", fingerprint.as_bytes(), input_hash.as_bytes()]);
        if let Some(hash) = self.facts.get(&fact_key)
            && let Some(answer) = self.previous.content(hash.trim_end())
        {
            return Ok(answer);
        }
        *ran = true;
        let answer = problem.test_answer(self.opts.runner, input)?;
        self.facts
            .put(&fact_key, &format!("{}\n", content_hash(&answer)));
        Ok(answer)
    }

    /// A hand-made answer against the reference's: the same, accepted by the problem's
    /// comparison or its checker, or wrong.
    fn check_answer(
        &self,
        input: &[u8],
        input_hash: &str,
        answer: &[u8],
        ran: &mut bool,
    ) -> anyhow::Result<AnswerCheck> {
        let problem = self.opts.problem;
        let Some(reference) = &problem.reference else {
            return Ok(AnswerCheck::Unchecked);
        };
        let judging = match &problem.judging {
            Judging::Compare(rule) => format!("compared {rule:?}"),
            Judging::Checker(checker, protocol) => {
                format!("checker {protocol:?} {}", checker.fingerprint()?)
            }
            Judging::Interactor(_) => return Ok(AnswerCheck::Made),
        };
        let answer_hash = content_hash(answer);
        let fact_key = key(&[
            b"hand answer",
            judging.as_bytes(),
            reference.fingerprint()?.as_bytes(),
            input_hash.as_bytes(),
            answer_hash.as_bytes(),
        ]);
        if let Some(check) = self.facts.get(&fact_key).and_then(|f| read_check(&f)) {
            return Ok(check);
        }
        let expected = self.reference_answer(input, input_hash, ran)?;
        *ran = true;
        let check = if expected == answer {
            AnswerCheck::Right
        } else {
            let judgement = self.judge_answer(input, answer, &expected)?;
            match (judgement.verdict.is_accepted(), &problem.judging) {
                (true, Judging::Compare(_)) => AnswerCheck::RightButNotExact,
                (true, _) => AnswerCheck::Right,
                (false, _) => {
                    AnswerCheck::Wrong(format!("{} {}", judgement.verdict.code(), judgement.detail))
                }
            }
        };
        self.facts.put(&fact_key, &write_check(&check));
        Ok(check)
    }

    /// How the problem judges `answer` as an output, `expected` being the reference's.
    fn judge_answer(
        &self,
        input: &[u8],
        answer: &[u8],
        expected: &[u8],
    ) -> anyhow::Result<crate::judge::Judgement> {
        let output = crate::run::Captured::from(answer.to_vec());
        match &self.opts.problem.judging {
            Judging::Checker(helper, protocol) => checker_of(self.opts.problem, helper, *protocol)?
                .check(self.opts.runner, input, &output, expected),
            Judging::Compare(rule) => {
                let expected = crate::answer::Expected::unknown(expected, *rule);
                Ok(crate::judge::verdict::compare(&output, &expected))
            }
            Judging::Interactor(_) => unreachable!("no answer is checked beside an interactor"),
        }
    }
}

/// What the problem's validator says of `input` (whose hash is given), as kept in `facts` or
/// asked of it (`ran` is then set); `None` without a validator.
pub fn validity_kept(
    problem: &OwnProblem,
    runner: &dyn Runner,
    facts: &Facts,
    (input, input_hash): (&[u8], &str),
    ran: &mut bool,
) -> anyhow::Result<Option<Validity>> {
    let Some(validator) = &problem.validator else {
        return Ok(None);
    };
    let fingerprint = validator.fingerprint()?;
    let fact_key = key(&[b"validated", fingerprint.as_bytes(), input_hash.as_bytes()]);
    if let Some(validity) = facts.get(&fact_key).and_then(|f| read_validity(&f)) {
        return Ok(Some(validity));
    }
    *ran = true;
    let validity = problem.validate(runner, input)?;
    if let Some(validity) = &validity {
        facts.put(&fact_key, &write_validity(validity));
    }
    Ok(validity)
}

/// The problem's checker, ready to judge.
fn checker_of(
    problem: &OwnProblem,
    helper: &Helper,
    protocol: Protocol,
) -> anyhow::Result<Checker> {
    Ok(Checker {
        command: helper.command()?.to_vec(),
        name: crate::text::program_name(&helper.typed),
        protocol,
        limits: problem.helper_limits(),
    })
}

/// A validator's verdict as a fact: `valid`, `valid` with the overview log, or `invalid`
/// with the message.
fn write_validity(validity: &Validity) -> String {
    match validity {
        Validity::Valid(None) => "valid\n".to_string(),
        Validity::Valid(Some(overview)) => format!("valid with overview\n{}", overview.to_log()),
        Validity::Invalid(why) => format!("invalid\n{why}"),
    }
}

fn read_validity(fact: &str) -> Option<Validity> {
    let (head, rest) = fact.split_once('\n')?;
    match head {
        "valid" => Some(Validity::Valid(None)),
        "valid with overview" => Some(Validity::Valid(Some(Overview::parse(rest)))),
        "invalid" => Some(Validity::Invalid(rest.to_string())),
        _ => None,
    }
}

fn write_check(check: &AnswerCheck) -> String {
    match check {
        AnswerCheck::Right => "right\n".to_string(),
        AnswerCheck::RightButNotExact => "right but not exact\n".to_string(),
        AnswerCheck::Wrong(why) => format!("wrong\n{why}"),
        AnswerCheck::Made | AnswerCheck::Unchecked => "unchecked\n".to_string(),
    }
}

fn read_check(fact: &str) -> Option<AnswerCheck> {
    let (head, rest) = fact.split_once('\n')?;
    match head {
        "right" => Some(AnswerCheck::Right),
        "right but not exact" => Some(AnswerCheck::RightButNotExact),
        "wrong" => Some(AnswerCheck::Wrong(rest.to_string())),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_read_back_as_they_were_kept() {
        let mut overview = Overview::default();
        overview.hits.insert("n".into(), (true, false));
        overview
            .bounds
            .insert("n".into(), ("1".into(), "200000".into()));
        for validity in [
            Validity::Valid(None),
            Validity::Valid(Some(overview)),
            Validity::Invalid("FAIL weight 0 out of [1, 10^9]\nline 2".into()),
        ] {
            assert_eq!(read_validity(&write_validity(&validity)), Some(validity));
        }
        for check in [
            AnswerCheck::Right,
            AnswerCheck::RightButNotExact,
            AnswerCheck::Wrong("WA expected 5, found 999".into()),
        ] {
            assert_eq!(read_check(&write_check(&check)), Some(check));
        }
        assert_eq!(read_check("unchecked\n"), None);
    }
}
