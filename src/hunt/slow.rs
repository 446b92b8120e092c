//! The slowest input for a slow submission: its CPU time on the plan's own tests first (the
//! mark to beat), then on new seeds of every `gen` line for half the time, keeping the
//! slowest input, then that input mutated ([`super::mutate`]) for the rest, each mutation the
//! validator accepts and the submission runs longer on kept. A run stopped at the cap (the
//! time limit × `time_limit_to_tle`, a little more) ends the search: that input times out.
//! With a budget of runs, the new seeds get the first half of the runs and the mutations the
//! rest, as they get the halves of the time.

use std::time::{Duration, Instant};

use super::mutate::Grid;
use super::{Hunt, capped, generator_lines};
use crate::own::Validity;
use crate::pack::own::plan::LineSource;
use crate::random::Rng;
use crate::run::{IoMode, Termination};

/// An input and the submission's CPU time on it.
#[derive(Clone, Debug)]
pub struct Timed {
    pub input: Vec<u8>,
    pub cpu: Duration,
    /// Stopped at the cap: it runs at least `cpu`.
    pub stopped: bool,
    /// Where it comes from: `line 7, seed 12`, or that with `then 14 mutations`.
    pub origin: String,
}

/// What the search found.
pub struct SlowHunt {
    /// The slowest of the plan's own tests, and which.
    pub baseline: Option<Timed>,
    pub slowest: Timed,
    /// Runs of the submission in all.
    pub runs: usize,
}

/// Searches for `time` at most; `cap` is the CPU time at which a run is stopped.
pub fn hunt_slow(
    hunt: &Hunt,
    cap: Duration,
    on_better: &mut dyn FnMut(&Timed),
) -> anyhow::Result<SlowHunt> {
    let started = Instant::now();
    let mut search = Search {
        hunt,
        limits: capped(&hunt.problem.limits, cap),
        runs: 0,
    };
    let baseline = search.baseline()?;
    let mut slowest = baseline.clone();
    let lines = generator_lines(hunt)?;
    let seeding = hunt.time / 2;
    'seeds: for round in 0.. {
        for line in &lines {
            let runs_spent = hunt
                .runs
                .is_some_and(|runs| search.runs as u64 >= runs.div_ceil(2));
            if started.elapsed() >= seeding
                || runs_spent
                || stopped(&slowest)
                || crate::run::cancelled()
            {
                break 'seeds;
            }
            let seed = hunt.first_seed.saturating_add(round);
            let mut command = line.command.clone();
            command.push(seed.to_string().into());
            let input = crate::judge::helper::run_helper(
                hunt.runner,
                &command,
                b"",
                &hunt.problem.helper_limits(),
                &format!("the generator of line {}", line.line),
            )?;
            if !search.valid(&input)? {
                continue;
            }
            let origin = format!("line {} ({}), seed {seed}", line.line, line.text);
            let timed = search.time(input, origin)?;
            if slowest.as_ref().is_none_or(|s| timed.cpu > s.cpu) {
                on_better(&timed);
                slowest = Some(timed);
            }
        }
    }
    let Some(mut slowest) = slowest else {
        anyhow::bail!("no valid input came from the plan's generators");
    };
    search.mutate(&mut slowest, started, on_better)?;
    Ok(SlowHunt {
        baseline,
        slowest,
        runs: search.runs,
    })
}

fn stopped(timed: &Option<Timed>) -> bool {
    timed.as_ref().is_some_and(|t| t.stopped)
}

struct Search<'a> {
    hunt: &'a Hunt<'a>,
    limits: crate::run::Limits,
    runs: usize,
}

impl Search<'_> {
    /// The submission's slowest run on the plan's own tests.
    fn baseline(&mut self) -> anyhow::Result<Option<Timed>> {
        let hunt = self.hunt;
        let mut slowest: Option<Timed> = None;
        for line in &hunt.plan.lines {
            let input = match &line.source {
                LineSource::Gen {
                    generator,
                    args,
                    seed,
                } => hunt
                    .problem
                    .generate(hunt.runner, generator.as_deref(), args, *seed)?,
                LineSource::Copy { path, crlf, .. } => {
                    crate::pack::own::plan::read_copied(path, *crlf)?
                }
            };
            let timed = self.time(input, format!("the plan's line {}", line.line))?;
            if slowest.as_ref().is_none_or(|s| timed.cpu > s.cpu) {
                slowest = Some(timed);
            }
        }
        Ok(slowest)
    }

    /// Whether the validator accepts `input` (every input is, without one).
    fn valid(&self, input: &[u8]) -> anyhow::Result<bool> {
        Ok(!matches!(
            self.hunt.problem.validate(self.hunt.runner, input)?,
            Some(Validity::Invalid(_))
        ))
    }

    /// The submission's CPU time on `input`.
    fn time(&mut self, input: Vec<u8>, origin: String) -> anyhow::Result<Timed> {
        self.runs += 1;
        let execution = self
            .hunt
            .runner
            .run_single(&self.hunt.program, &input, &self.limits, &IoMode::Stdio)
            .map_err(|e| anyhow::anyhow!("cannot run {}: {e}", self.hunt.submission))?;
        let stopped = matches!(execution.termination, Termination::LimitExceeded(_));
        Ok(Timed {
            input,
            cpu: execution.cpu_time,
            stopped,
            origin,
        })
    }

    /// Mutates `slowest` until the time is up, keeping every mutation it runs longer on.
    fn mutate(
        &mut self,
        slowest: &mut Timed,
        started: Instant,
        on_better: &mut dyn FnMut(&Timed),
    ) -> anyhow::Result<()> {
        // Validity needs the validator: without one, a mutation may be no input at all.
        if self.hunt.problem.validator.is_none() {
            return Ok(());
        }
        let mut rng = Rng::from_seed(self.hunt.first_seed);
        let mut grid = Grid::parse(&slowest.input);
        let mut kept = 0u64;
        let origin = slowest.origin.clone();
        let runs_left = |runs: usize| self.hunt.runs.is_none_or(|most| (runs as u64) < most);
        while started.elapsed() < self.hunt.time
            && runs_left(self.runs)
            && !slowest.stopped
            && !crate::run::cancelled()
        {
            let Some(candidate) = grid.mutate(&mut rng) else {
                continue;
            };
            let input = candidate.text();
            if !self.valid(&input)? {
                continue;
            }
            let timed = self.time(input, String::new())?;
            // A little better than noise: CPU times of one input vary by a few percent.
            if timed.stopped || timed.cpu.as_secs_f64() > slowest.cpu.as_secs_f64() * 1.03 {
                kept += 1;
                *slowest = Timed {
                    origin: format!("{origin}, then {}", crate::text::plural(kept, "mutation")),
                    ..timed
                };
                on_better(slowest);
                grid = candidate;
            }
        }
        Ok(())
    }
}
