//! Tests hunted down for a submission the plan's tests miss. A wrong submission is stressed
//! against the reference with the plan's generators (each `gen` line's generator and
//! arguments, new seeds, in turn) and the failing case minimized, by the stress engine. A
//! slow one is run on new seeds of every line, the slowest input kept, then mutated
//! ([`mutate`]) while it gets slower ([`slow`]). Either test can be added to the plan as a
//! hand-made one ([`add_to_plan`]).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Context;

use crate::compile::CompileOptions;
use crate::judge::{Decider, Runner, Verdict};
use crate::own::capture::Capturable;
use crate::own::{Judging, OwnProblem};
use crate::pack::own::plan::{LineSource, OwnPlan};
use crate::run::{IoMode, Limits};
use crate::stress::{self, Budget, Oracle, Outcome, Seeds, Source};

pub mod mutate;
pub mod slow;

/// What a hunt works with.
pub struct Hunt<'a> {
    pub problem: &'a OwnProblem,
    pub plan: &'a OwnPlan,
    /// The submission, ready to run.
    pub program: Vec<OsString>,
    /// Its name in messages: `wrong_answer/int_sums.cpp`.
    pub submission: String,
    pub runner: &'a dyn Runner,
    pub decider: &'a Decider,
    pub jobs: usize,
    /// How long the whole search may take.
    pub time: Duration,
    /// At most this many runs of the submission (cases, for a wrong one), if set.
    pub runs: Option<u64>,
    /// The first of the new seeds.
    pub first_seed: u64,
    /// Where stress saves the failing case.
    pub save_dir: PathBuf,
    /// How long minimizing a failing case may take; `None`: the stress engine's defaults
    /// (30 s, and [`stress::LIMIT_SHRINK_TIME`] for a case failed by a limit).
    pub shrink_time: Option<Duration>,
    /// How the generators' sources are built, to record their choices.
    pub compile_options: CompileOptions,
}

/// A `gen` line of the plan as a generator to run: its line number, the command with its
/// arguments (the seed goes last), its text, and the generator as typed with the same
/// arguments, to record its choices.
pub struct Line {
    pub line: usize,
    pub command: Vec<OsString>,
    pub text: String,
    pub capturable: Capturable,
}

/// The plan's distinct generators with their arguments, in plan order.
pub fn generator_lines(hunt: &Hunt) -> anyhow::Result<Vec<Line>> {
    let mut lines: Vec<Line> = Vec::new();
    for line in &hunt.plan.lines {
        let LineSource::Gen {
            generator, args, ..
        } = &line.source
        else {
            continue;
        };
        let helper = hunt.problem.generators.get(generator.as_deref())?;
        let mut command = helper.command()?.to_vec();
        command.extend(args.iter().map(OsString::from));
        if lines.iter().any(|l| l.command == command) {
            continue;
        }
        let text = line
            .text
            .split(" --seed")
            .next()
            .unwrap_or(&line.text)
            .to_string();
        let mut typed = helper.typed.clone();
        typed.extend(args.iter().map(OsString::from));
        lines.push(Line {
            line: line.line,
            command,
            text,
            capturable: Capturable::new(typed, hunt.compile_options.clone()),
        });
    }
    if lines.is_empty() {
        // A Polygon package's tests are `<test>` elements, a generated one with its `cmd`.
        let (what, whose) = match hunt.plan.name == crate::polygon::FILE_NAME {
            true => ("generated test (a <test> with a cmd)", "package's"),
            false => ("`gen` line", "plan's"),
        };
        anyhow::bail!(
            "{} has no {what}: the hunt runs the {whose} generators with new seeds",
            hunt.plan.name
        );
    }
    Ok(lines)
}

/// A failing case the hunt found for a wrong submission.
pub struct Caught {
    /// The plan line whose generator made it, and the seed.
    pub line: usize,
    pub text: String,
    pub seed: u64,
    pub verdict: Verdict,
    pub detail: String,
    /// The saved case (minimized when it could be).
    pub input_path: PathBuf,
    pub input: Vec<u8>,
    /// Cases tried in all.
    pub cases: u64,
    /// What was perturbed of the generator's choices for the seed, when they were.
    pub perturbed: Option<String>,
    /// Whether minimization made the case smaller than the one found.
    pub shrunk: bool,
    /// The time budget minimizing had, when it ran out before anything smaller was kept: a
    /// smaller case may still fail.
    pub budget_ran_out: Option<Duration>,
    /// The case as found, when the hunt removed its files: it is the line's output for the
    /// seed, and larger than [`KEPT_ORIGINAL`].
    pub removed_original: Option<u64>,
}

impl Caught {
    /// Whether the case is exactly what the plan line prints for the seed: a `gen` line then
    /// makes it.
    pub fn is_generated(&self) -> bool {
        self.perturbed.is_none() && !self.shrunk
    }

    /// Whether the case as found is what the plan line prints for the seed, whatever
    /// minimization made of it: the line with the seed then makes a case that fails.
    pub fn found_is_generated(&self) -> bool {
        self.perturbed.is_none()
    }
}

/// The largest copy of a wrong answer's case `--add` writes into the package: a minimized
/// case is a few lines. A larger one is added as the line that prints the case as found, or
/// not at all; only a slow input may be large.
pub const SMALL_COPY: u64 = 4 * 1024;

/// What the hunt for a wrong submission ends with.
pub enum WrongHunt {
    Caught(Box<Caught>),
    /// No case failed within the time; how many were tried.
    Missed {
        cases: u64,
    },
}

/// A case as found larger than this is not kept in the saved failures when a plan line and a
/// seed make it again: the failures folder holds bounded files.
pub const KEPT_ORIGINAL: u64 = 64 * 1024;

/// Stresses the submission with each generator line in turn, `batch` new seeds at a time,
/// first as the generator prints them, then with its choices perturbed (when they can be
/// recorded), until one fails (minimized and saved by the stress engine) or the time is up.
/// `on_round` hears of each batch: the line, its first seed, and whether perturbed.
pub fn hunt_wrong(
    hunt: &Hunt,
    on_round: &mut dyn FnMut(&Line, u64, bool),
) -> anyhow::Result<WrongHunt> {
    const BATCH: u64 = 25;
    let started = Instant::now();
    let lines = generator_lines(hunt)?;
    let mut cases = 0;
    for round in 0.. {
        for perturb in [false, true] {
            for line in &lines {
                if perturb && line.capturable.ready().is_err() {
                    continue;
                }
                let left = hunt.time.saturating_sub(started.elapsed());
                let count = hunt
                    .runs
                    .map_or(BATCH, |runs| BATCH.min(runs.saturating_sub(cases)));
                if left.is_zero() || count == 0 || crate::run::cancelled() {
                    return Ok(WrongHunt::Missed { cases });
                }
                let first = hunt.first_seed.saturating_add(round * BATCH);
                on_round(line, first, perturb);
                let mut config = stress_config(hunt, line, first, count, left)?;
                config.perturb = perturb;
                match stress::run(&config, hunt.runner, &mut |_| {})? {
                    Outcome::Passed(passed) => cases += passed.cases,
                    Outcome::Failed(failure) => {
                        return Ok(WrongHunt::Caught(Box::new(caught(line, &failure, cases))));
                    }
                }
            }
        }
    }
    unreachable!("the rounds end by returning")
}

/// What the hunt reports of a failure the stress engine found with `line`; a large case as
/// found that the line makes again for its seed has its files removed.
fn caught(line: &Line, failure: &stress::Failure, cases: u64) -> Caught {
    let original = std::fs::read(&failure.original_path).ok();
    let shrunk = original.as_deref() != Some(failure.input.as_slice());
    let mut found = Caught {
        line: line.line,
        text: line.text.clone(),
        seed: failure.seed,
        verdict: failure.outcome.verdict(),
        detail: failure.outcome.judgement.detail.clone(),
        input_path: failure.input_path.clone(),
        input: failure.input.clone(),
        cases: cases + failure.cases,
        perturbed: failure.perturbed.clone(),
        shrunk,
        budget_ran_out: failure
            .minimization
            .as_ref()
            .filter(|m| !shrunk && m.stats.end == stress::End::Budget && !m.interrupted)
            .map(|m| m.budget),
        removed_original: None,
    };
    let size = original.map_or(0, |o| o.len() as u64);
    let reproducible = failure.perturbed.is_none() && failure.original_path != failure.input_path;
    if reproducible && size > KEPT_ORIGINAL && remove_original(&failure.original_path) {
        found.removed_original = Some(size);
    }
    found
}

/// Removes the files of a saved case as found (`NAME.original.in` and its `.ans`, `.out`,
/// `.err`); whether its input is gone.
fn remove_original(input: &Path) -> bool {
    for ext in ["ans", "out", "err", "transcript"] {
        let _ = std::fs::remove_file(input.with_extension(ext));
    }
    std::fs::remove_file(input).is_ok()
}

/// The stress engine's configuration for `count` seeds of one generator line from `first`.
fn stress_config(
    hunt: &Hunt,
    line: &Line,
    first: u64,
    count: u64,
    time: Duration,
) -> anyhow::Result<stress::Config> {
    let problem = hunt.problem;
    let oracle = match (&problem.judging, &problem.reference) {
        (Judging::Interactor(_), _) => Oracle::Interactor,
        (_, Some(reference)) => Oracle::External(reference.command()?.to_vec()),
        (_, None) => anyhow::bail!(
            "the hunt compares the submission with the reference: set `reference = \"sol.cpp\"`"
        ),
    };
    let validator = match &problem.validator {
        Some(v) => Some(v.command()?.to_vec()),
        None => None,
    };
    let rule = match problem.judging {
        Judging::Compare(rule) => rule,
        _ => crate::answer::Rule::EXACT,
    };
    Ok(stress::Config {
        name: format!("{}-hunt", problem.name),
        problem: None,
        source: Source::External(line.command.clone()),
        oracle,
        program: hunt.program.clone(),
        limits: problem.limits,
        helper_limits: problem.helper_limits(),
        io: IoMode::Stdio,
        seeds: Seeds {
            first,
            offset: 0,
            stride: 1,
        },
        jobs: hunt.jobs,
        iterations: Some(count),
        time: Some(time),
        save_dir: hunt.save_dir.clone(),
        shrink: true,
        shrink_budget: hunt.shrink_time.map_or_else(Budget::default, Budget::of),
        limit_shrink_budget: Budget::of(hunt.shrink_time.unwrap_or(stress::LIMIT_SHRINK_TIME)),
        validator,
        rule,
        decider: hunt.decider.clone(),
        choices: Some(line.capturable.clone()),
        perturb: false,
        // As in the tests a pack makes: an empty answer is an answer.
        empty_answers: true,
    })
}

/// The limits of a measuring run: the program's, the CPU time capped at `cap`.
pub fn capped(limits: &Limits, cap: Duration) -> Limits {
    Limits {
        cpu: cap,
        wall: Limits::default_wall(cap),
        ..*limits
    }
}

/// Saves `input` as `DIR/STEM.in` (or the first free `STEM-2.in`, …), a new file, and
/// returns its path.
pub fn save_input(dir: &Path, stem: &str, input: &[u8]) -> anyhow::Result<PathBuf> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut path = dir.join(format!("{stem}.in"));
    for k in 2.. {
        if !path.exists() {
            break;
        }
        path = dir.join(format!("{stem}-{k}.in"));
    }
    crate::fsutil::write_new_atomic(&path, input)?;
    Ok(path)
}

/// Adds `input` to the plan as a hand-made test: saved as `hunt/NAME.in` beside the plan (a
/// free name), and a line `copy hunt/NAME.in  # COMMENT` inserted after the plan's last test
/// of a group other than `sample`. Returns the file written and the line added.
pub fn add_to_plan(
    plan_path: &Path,
    plan: &OwnPlan,
    stem: &str,
    input: &[u8],
    comment: &str,
) -> anyhow::Result<(PathBuf, String)> {
    let base = plan_path.parent().unwrap_or(Path::new(""));
    let folder = base.join("hunt");
    std::fs::create_dir_all(&folder).with_context(|| format!("creating {}", folder.display()))?;
    let mut name = format!("{stem}.in");
    for k in 2.. {
        if !folder.join(&name).exists() {
            break;
        }
        name = format!("{stem}-{k}.in");
    }
    let file = folder.join(&name);
    crate::fsutil::write_new_atomic(&file, input)?;
    let added = add_line_to_plan(plan_path, plan, &format!("copy hunt/{name}  # {comment}"))?;
    Ok((file, added))
}

/// Inserts `line` into the plan after its last test of a group other than `sample`, and
/// returns it.
pub fn add_line_to_plan(plan_path: &Path, plan: &OwnPlan, line: &str) -> anyhow::Result<String> {
    let text = std::fs::read_to_string(plan_path)
        .with_context(|| format!("reading the plan {}", plan_path.display()))?;
    let after = plan
        .lines
        .iter()
        .filter(|l| !plan.groups[l.group].is_sample())
        .map(|l| l.line)
        .max()
        .unwrap_or(text.lines().count());
    let mut lines: Vec<&str> = text.lines().collect();
    lines.insert(after.min(lines.len()), line);
    let mut new = lines.join("\n");
    new.push('\n');
    crate::fsutil::write_atomic(plan_path, new.as_bytes())?;
    Ok(line.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pack::own::plan::{PlanContext, parse_own_plan};

    #[test]
    fn a_test_is_added_after_the_last_secret_one() {
        let dir = tempfile::tempdir().unwrap();
        let plan_path = dir.path().join("p.plan");
        let text = "group secret\ngen p 1 --seed 1\n\ngroup sample\ngen p 2 --seed 2\n";
        std::fs::write(&plan_path, text).unwrap();
        let context = PlanContext {
            problem: "p",
            generators: &[],
            has_default: true,
            base: dir.path(),
        };
        let plan = parse_own_plan("p.plan", text, &context).unwrap();
        let (file, line) = add_to_plan(&plan_path, &plan, "wa", b"1\n", "kills x").unwrap();
        assert_eq!(file, dir.path().join("hunt/wa.in"));
        assert_eq!(line, "copy hunt/wa.in  # kills x");
        assert_eq!(
            std::fs::read_to_string(&plan_path).unwrap(),
            "group secret\ngen p 1 --seed 1\ncopy hunt/wa.in  # kills x\n\ngroup sample\n\
             gen p 2 --seed 2\n"
        );
        let (again, _) = add_to_plan(&plan_path, &plan, "wa", b"2\n", "kills x").unwrap();
        assert_eq!(again, dir.path().join("hunt/wa-2.in"));
        let reparsed = std::fs::read_to_string(&plan_path).unwrap();
        assert!(parse_own_plan("p.plan", &reparsed, &context).is_ok());
    }
}
