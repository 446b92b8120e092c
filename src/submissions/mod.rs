//! Submissions with expected verdicts, as the ICPC package format keeps them
//! (`submissions/accepted/`, `wrong_answer/`, `time_limit_exceeded/`, `run_time_error/`, ...):
//! found in a folder, each judged on every test, checked against what its folder expects,
//! and the time limit derived from their times as the format says ([`limit`]).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context;

use crate::judge::Verdict;

pub mod cases;
pub mod limit;
pub mod machine;
pub mod matrix;

pub use limit::{Multipliers, TimeLimit};
pub use matrix::{Cell, Judged, Row, judge_all};

/// The format's four verdicts, which its expectations speak of, and `FAIL`: the problem's
/// checker or interactor failed on the run (Polygon's verdict of that name), so the run has
/// no verdict of the submission's; no folder expects it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Outcome {
    AC,
    WA,
    TLE,
    RTE,
    FAIL,
}

impl Outcome {
    /// The format's verdict for one of duipai's: a presentation error is a wrong answer, a
    /// memory or output limit a run-time error.
    pub fn of(verdict: Verdict) -> Outcome {
        match verdict {
            Verdict::Accepted => Outcome::AC,
            Verdict::WrongAnswer | Verdict::PresentationError => Outcome::WA,
            Verdict::TimeLimitExceeded => Outcome::TLE,
            _ => Outcome::RTE,
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            Outcome::AC => "AC",
            Outcome::WA => "WA",
            Outcome::TLE => "TLE",
            Outcome::RTE => "RTE",
            Outcome::FAIL => "FAIL",
        }
    }

    /// One letter for the matrix: `.` for AC.
    pub fn letter(self) -> char {
        match self {
            Outcome::AC => '.',
            Outcome::WA => 'W',
            Outcome::TLE => 'T',
            Outcome::RTE => 'R',
            Outcome::FAIL => '!',
        }
    }
}

/// What a submission's folder expects of it: the format's default requirements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Expected {
    Accepted,
    WrongAnswer,
    TimeLimitExceeded,
    RunTimeError,
    Rejected,
    BruteForce,
    /// Polygon's `time-limit-exceeded-or-accepted`: AC or TLE on every test.
    TimeLimitOrAccepted,
    /// Polygon's `memory-limit-exceeded` (duipai's MLE is the format's RTE).
    MemoryLimitExceeded,
    /// Polygon's `time-limit-exceeded-or-memory-limit-exceeded`.
    TimeOrMemoryLimitExceeded,
}

impl Expected {
    pub const ALL: [Expected; 6] = [
        Expected::Accepted,
        Expected::WrongAnswer,
        Expected::TimeLimitExceeded,
        Expected::RunTimeError,
        Expected::Rejected,
        Expected::BruteForce,
    ];

    /// The folder under `submissions/`.
    pub fn folder(self) -> &'static str {
        match self {
            Expected::Accepted => "accepted",
            Expected::WrongAnswer => "wrong_answer",
            Expected::TimeLimitExceeded => "time_limit_exceeded",
            Expected::RunTimeError => "run_time_error",
            Expected::Rejected => "rejected",
            Expected::BruteForce => "brute_force",
            Expected::TimeLimitOrAccepted => "time_limit_exceeded_or_accepted",
            Expected::MemoryLimitExceeded => "memory_limit_exceeded",
            Expected::TimeOrMemoryLimitExceeded => "time_or_memory_limit_exceeded",
        }
    }

    /// The verdicts every test may get.
    pub fn permitted(self) -> &'static [Outcome] {
        use Outcome::*;
        match self {
            Expected::Accepted => &[AC],
            Expected::WrongAnswer => &[AC, WA],
            Expected::TimeLimitExceeded => &[AC, TLE],
            Expected::RunTimeError => &[AC, RTE],
            Expected::Rejected => &[AC, WA, TLE, RTE],
            Expected::BruteForce => &[AC, RTE, TLE],
            Expected::TimeLimitOrAccepted => &[AC, TLE],
            Expected::MemoryLimitExceeded => &[AC, RTE],
            Expected::TimeOrMemoryLimitExceeded => &[AC, TLE, RTE],
        }
    }

    /// The verdicts of which some test must get one (none: any of the permitted ones).
    pub fn required(self) -> &'static [Outcome] {
        use Outcome::*;
        match self {
            Expected::Accepted => &[AC],
            Expected::WrongAnswer => &[WA],
            Expected::TimeLimitExceeded => &[TLE],
            Expected::RunTimeError => &[RTE],
            Expected::Rejected => &[RTE, TLE, WA],
            Expected::BruteForce => &[RTE, TLE],
            Expected::TimeLimitOrAccepted => &[],
            Expected::MemoryLimitExceeded => &[RTE],
            Expected::TimeOrMemoryLimitExceeded => &[TLE, RTE],
        }
    }

    /// Whether its times bound the time limit from below (it may not time out anywhere).
    pub fn bounds_below(self) -> bool {
        !self.permitted().contains(&Outcome::TLE)
    }

    /// Whether its times bound the time limit from above (it must time out somewhere).
    pub fn bounds_above(self) -> bool {
        self.required() == [Outcome::TLE]
    }

    /// What it expects, in a few words: `AC on every test`, `WA on some test (else AC)`.
    pub fn describe(self) -> &'static str {
        match self {
            Expected::Accepted => "AC on every test",
            Expected::WrongAnswer => "WA on some test, AC on the others",
            Expected::TimeLimitExceeded => "TLE on some test, AC on the others",
            Expected::RunTimeError => "RTE on some test, AC on the others",
            Expected::Rejected => "WA, TLE or RTE on some test",
            Expected::BruteForce => "TLE or RTE on some test, never WA",
            Expected::TimeLimitOrAccepted => "AC or TLE on every test",
            Expected::MemoryLimitExceeded => "MLE (RTE) on some test, AC on the others",
            Expected::TimeOrMemoryLimitExceeded => {
                "TLE or MLE (RTE) on some test, AC on the others"
            }
        }
    }

    /// Whether `verdicts` (one a test) meet the expectation; `Err` says why not.
    pub fn check(self, verdicts: &[Outcome]) -> Result<(), String> {
        if let Some(bad) = verdicts.iter().find(|v| !self.permitted().contains(v)) {
            let count = verdicts.iter().filter(|v| *v == bad).count();
            return Err(format!(
                "{} on {} ({} expects {})",
                bad.code(),
                crate::text::plural(count as u64, "test"),
                self.folder(),
                self.describe()
            ));
        }
        if !self.required().is_empty() && !verdicts.iter().any(|v| self.required().contains(v)) {
            let got = if verdicts.is_empty() {
                "no test to run".to_string()
            } else {
                "AC on every test".to_string()
            };
            return Err(format!(
                "{got} ({} expects {})",
                self.folder(),
                self.describe()
            ));
        }
        Ok(())
    }
}

/// A submission found in a `submissions/` folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Submission {
    /// Its path under `submissions/`: `accepted/sol.cpp`.
    pub name: String,
    pub path: PathBuf,
    pub expected: Expected,
}

impl Submission {
    /// The command that runs it, as typed: its path.
    pub fn command(&self) -> Vec<OsString> {
        vec![self.path.clone().into_os_string()]
    }
}

/// Every submission below `dir/submissions/` in the format's folders, in folder order and by
/// name within one: a file each (a source file, or an executable program).
pub fn find(dir: &Path) -> anyhow::Result<Vec<Submission>> {
    let root = dir.join("submissions");
    if !root.is_dir() {
        anyhow::bail!(
            "{} has no submissions/ folder: put the programs in submissions/accepted/, \
             wrong_answer/, time_limit_exceeded/ and run_time_error/",
            dir.display()
        );
    }
    let mut found = Vec::new();
    for expected in Expected::ALL {
        let folder = root.join(expected.folder());
        if !folder.is_dir() {
            continue;
        }
        let mut entries: Vec<PathBuf> = std::fs::read_dir(&folder)
            .with_context(|| format!("listing {}", folder.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file() && !is_hidden(p))
            .collect();
        entries.sort_by(|a, b| crate::text::natural_order(a.as_os_str(), b.as_os_str()));
        for path in entries {
            let file = path.file_name().unwrap_or_default().to_string_lossy();
            found.push(Submission {
                name: format!("{}/{file}", expected.folder()),
                path,
                expected,
            });
        }
    }
    if found.is_empty() {
        anyhow::bail!(
            "{} holds no submission in accepted/, wrong_answer/, time_limit_exceeded/, \
             run_time_error/, rejected/ or brute_force/",
            root.display()
        );
    }
    Ok(found)
}

/// The solutions of a Polygon package, each expected to get what its tag says, named
/// `TAG/FILE` (`wrong-answer/wa.cpp`). A `failed` solution is meant to make the checker fail,
/// which duipai reports as the harness's error, not a verdict: it is left out and named in the
/// second list.
pub fn of_polygon(package: &crate::polygon::Package) -> (Vec<Submission>, Vec<String>) {
    use crate::polygon::Tag;
    let mut found = Vec::new();
    let mut left_out = Vec::new();
    for solution in &package.solutions {
        let file = solution
            .path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy();
        let name = format!("{}/{file}", solution.tag.name());
        let expected = match solution.tag {
            Tag::Main | Tag::Accepted => Expected::Accepted,
            Tag::WrongAnswer | Tag::PresentationError => Expected::WrongAnswer,
            Tag::TimeLimitExceeded => Expected::TimeLimitExceeded,
            Tag::TimeLimitExceededOrAccepted => Expected::TimeLimitOrAccepted,
            Tag::TimeLimitExceededOrMemoryLimitExceeded => Expected::TimeOrMemoryLimitExceeded,
            Tag::MemoryLimitExceeded => Expected::MemoryLimitExceeded,
            Tag::Rejected => Expected::Rejected,
            Tag::Failed => {
                left_out.push(name);
                continue;
            }
        };
        found.push(Submission {
            name,
            path: package.dir.join(&solution.path),
            expected,
        });
    }
    (found, left_out)
}

/// `.gitkeep` and the like are no submissions.
fn is_hidden(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n.to_string_lossy().starts_with('.'))
}

/// A CPU time as the reports show it: `0.33 s`.
pub fn seconds(time: Duration) -> String {
    format!("{:.2} s", time.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;
    use Outcome::*;

    #[test]
    fn expectations_are_the_formats_defaults() {
        assert!(Expected::Accepted.check(&[AC, AC]).is_ok());
        assert_eq!(
            Expected::Accepted.check(&[AC, WA]).unwrap_err(),
            "WA on 1 test (accepted expects AC on every test)"
        );
        assert!(Expected::WrongAnswer.check(&[AC, WA]).is_ok());
        assert_eq!(
            Expected::WrongAnswer.check(&[AC, AC]).unwrap_err(),
            "AC on every test (wrong_answer expects WA on some test, AC on the others)"
        );
        assert!(Expected::WrongAnswer.check(&[WA, TLE]).is_err());
        assert!(Expected::TimeLimitExceeded.check(&[AC, TLE]).is_ok());
        assert!(Expected::RunTimeError.check(&[RTE]).is_ok());
        assert!(Expected::Rejected.check(&[AC, TLE]).is_ok());
        assert!(Expected::BruteForce.check(&[AC, WA, TLE]).is_err());
        assert!(Expected::Accepted.bounds_below() && Expected::RunTimeError.bounds_below());
        assert!(!Expected::BruteForce.bounds_below());
        assert!(Expected::TimeLimitExceeded.bounds_above() && !Expected::Rejected.bounds_above());
        assert!(Expected::TimeLimitOrAccepted.check(&[AC, AC]).is_ok());
        assert!(Expected::TimeLimitOrAccepted.check(&[TLE, AC]).is_ok());
        assert!(Expected::TimeLimitOrAccepted.check(&[WA]).is_err());
        assert!(!Expected::TimeLimitOrAccepted.bounds_below());
        assert!(!Expected::TimeLimitOrAccepted.bounds_above());
        assert!(Expected::MemoryLimitExceeded.check(&[AC, RTE]).is_ok());
        assert!(Expected::MemoryLimitExceeded.check(&[AC]).is_err());
        assert!(Expected::TimeOrMemoryLimitExceeded.check(&[TLE]).is_ok());
    }
}
