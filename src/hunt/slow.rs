//! The slowest input for a slow submission: its CPU time on the plan's own tests first (the
//! mark to beat), then on new seeds of every `gen` line for half the time, keeping the
//! slowest input, then that input changed for the rest, each change the submission runs
//! longer on kept: the generator's choices for it perturbed (a size or a loop pushed to an
//! extreme, [`crate::own::capture::perturb`]), when they can be recorded, and the text
//! mutated ([`super::mutate`]) when a validator can check it. A run stopped at the cap (the
//! time limit × `time_limit_to_tle`, a little more) ends the search: that input times out.
//! With a budget of runs, the new seeds get the first half of the runs and the mutations the
//! rest, as they get the halves of the time.

use std::time::{Duration, Instant};

use super::mutate::Grid;
use super::{Hunt, Line, capped, generator_lines};
use crate::own::Validity;
use crate::own::capture::{Choice, Recorded, perturb};
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
    /// The plan line that prints it, with its seed (`gen big 200000 --seed 1000001`), when it
    /// is exactly a line's output for a new seed.
    pub generated: Option<String>,
    /// The generator line (its index among [`generator_lines`]) and seed it came from, and
    /// the choices that make it once they were perturbed.
    from: Option<(usize, u64, Option<Vec<Choice>>)>,
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
        for (index, line) in lines.iter().enumerate() {
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
            let mut timed = search.time(input, origin)?;
            timed.generated = Some(format!("{} --seed {seed}", line.text));
            timed.from = Some((index, seed, None));
            if slowest.as_ref().is_none_or(|s| timed.cpu > s.cpu) {
                on_better(&timed);
                slowest = Some(timed);
            }
        }
    }
    let Some(mut slowest) = slowest else {
        anyhow::bail!("no valid input came from the plan's generators");
    };
    search.mutate(&mut slowest, &lines, started, on_better)?;
    Ok(SlowHunt {
        baseline,
        slowest,
        runs: search.runs,
    })
}

fn stopped(timed: &Option<Timed>) -> bool {
    timed.as_ref().is_some_and(|t| t.stopped)
}

/// What perturbing the slowest input's choices gave.
enum Perturbed {
    Made(Timed),
    /// Not this time (the generator made no case of them, or the validator refused it).
    Nothing,
    /// Never: its choices cannot be recorded.
    Impossible,
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
            generated: None,
            from: None,
        })
    }

    /// Changes `slowest` until the time is up, keeping every change it runs longer on: its
    /// choices perturbed and its text mutated, in turn, as far as each can be.
    fn mutate(
        &mut self,
        slowest: &mut Timed,
        lines: &[Line],
        started: Instant,
        on_better: &mut dyn FnMut(&Timed),
    ) -> anyhow::Result<()> {
        let mut rng = Rng::from_seed(self.hunt.first_seed);
        let mut grid = Grid::parse(&slowest.input);
        let mut kept = 0u64;
        let origin = slowest.origin.clone();
        // Validity needs the validator: without one, a text mutation may be no input at all.
        let text = self.hunt.problem.validator.is_some();
        let mut choices = slowest.from.is_some();
        let mut turn = 0u64;
        let runs_left = |runs: usize| self.hunt.runs.is_none_or(|most| (runs as u64) < most);
        while (text || choices)
            && started.elapsed() < self.hunt.time
            && runs_left(self.runs)
            && !slowest.stopped
            && !crate::run::cancelled()
        {
            turn += 1;
            // A perturbation, or a text mutation with the grid it is.
            let (timed, mutated) = if choices && (!text || turn.is_multiple_of(2)) {
                match self.perturbed(slowest, lines, &mut rng)? {
                    Perturbed::Made(timed) => (timed, None),
                    Perturbed::Nothing => continue,
                    Perturbed::Impossible => {
                        choices = false;
                        continue;
                    }
                }
            } else {
                let Some(next) = grid.mutate(&mut rng) else {
                    continue;
                };
                let input = next.text();
                if !self.valid(&input)? {
                    continue;
                }
                (self.time(input, String::new())?, Some(next))
            };
            // A little better than noise: CPU times of one input vary by a few percent.
            if timed.stopped || timed.cpu.as_secs_f64() > slowest.cpu.as_secs_f64() * 1.03 {
                kept += 1;
                grid = mutated.unwrap_or_else(|| Grid::parse(&timed.input));
                *slowest = Timed {
                    origin: format!("{origin}, then {}", crate::text::plural(kept, "change")),
                    generated: None,
                    // A text mutation's choices are unknown: perturbing goes on from the
                    // last case of known choices.
                    from: timed.from.clone().or(slowest.from.clone()),
                    ..timed
                };
                on_better(slowest);
            }
        }
        Ok(())
    }

    /// The submission timed on `slowest`'s choices perturbed once.
    fn perturbed(
        &mut self,
        slowest: &Timed,
        lines: &[Line],
        rng: &mut Rng,
    ) -> anyhow::Result<Perturbed> {
        let Some((index, seed, choices)) = &slowest.from else {
            return Ok(Perturbed::Impossible);
        };
        let Ok(capture) = lines[*index].capturable.ready() else {
            return Ok(Perturbed::Impossible);
        };
        let limits = self.hunt.problem.helper_limits();
        let recorded = match choices {
            Some(choices) => Recorded {
                output: slowest.input.clone(),
                choices: choices.clone(),
            },
            None => match capture.record(self.hunt.runner, *seed, &limits)? {
                Ok(recorded) if !recorded.choices.is_empty() => recorded,
                _ => return Ok(Perturbed::Impossible),
            },
        };
        let made = perturb::perturbed(capture, self.hunt.runner, *seed, &recorded, rng, &limits)?;
        let Some((made, _)) = made else {
            return Ok(Perturbed::Nothing);
        };
        if !self.valid(&made.output)? {
            return Ok(Perturbed::Nothing);
        }
        let mut timed = self.time(made.output, String::new())?;
        timed.from = Some((*index, *seed, Some(made.choices)));
        Ok(Perturbed::Made(timed))
    }
}
