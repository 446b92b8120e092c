//! Choice shrinking: a failing case of a generator whose random choices duipai can record
//! ([`crate::own::capture`]) is minimized first as the sequence of those choices, every
//! candidate the generator's own output for an edited sequence, so it is as valid as any
//! case the generator prints (a tree stays a tree, with or without a validator). The text
//! is polished after, when a validator can check text edits.
//!
//! Before shrinking, the generator is run again recording its choices for the failing seed,
//! and once more replaying them: both must print the case as found, or the choices are not
//! trusted (a generator that reads the time, or draws from something not recorded) and the
//! text alone is shrunk, the report saying why.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::minimize::{self, Budget, End, PassReport, Probe, ShrinkStats};
use super::{Case, Engine, Event, Failing, Minimization, MinimizeStatus, Validity};
use crate::judge::{CaseOutcome, Expected, Verdict};
use crate::own::capture::{Capture, Choice, Recorded, Replayed, perturb};
use crate::run::Limits;
use crate::text::plural;
use case::{ChoiceCase, Ran, text_size};

mod case;

/// A case made of perturbed choices ([`crate::own::capture::perturb`]): the choices, and
/// what was pushed.
pub struct Perturbed {
    pub choices: Vec<Choice>,
    pub what: String,
}

/// Salted into a seed for its perturbation's draws, so that they are not the generator's own.
const PERTURB_SALT: u64 = 0x6475_6970_6169_7032;

/// What choice shrinking did.
pub(super) struct Chosen {
    pub minimization: Minimization,
    /// Whether the text is to be shrunk after: with a validator to check text edits, and
    /// unless minimization was stopped.
    pub polish: bool,
}

impl Engine<'_> {
    /// Shrinks the failing case found with `seed` as the generator's choices, when they can
    /// be recorded; `None` (with a note saying why, for a generator duipai could record)
    /// when the text alone is to be shrunk. The recorder's build (begun in the background
    /// when the search started, so it is usually ready) and the recording runs are part of
    /// minimizing: timed from `began`.
    pub(super) fn shrink_choices(
        &self,
        failing: &mut Failing,
        seed: u64,
        verdict: Verdict,
        began: Instant,
        on_event: &mut dyn FnMut(Event),
    ) -> Option<Chosen> {
        let (capture, recorded) = self.recording(failing, seed, began, on_event)?;
        let half = self.budget_for(&failing.outcome).time / 2;
        let left = || half.saturating_sub(began.elapsed());
        let polish = self.config.validator.is_some();
        // A time or memory limit exceeded: every failing probe costs the limit, which is worth
        // spending on size alone; a candidate is kept only when its text is smaller
        // ([`text_size`]: fewer numbers, or shorter strings).
        let by_size = matches!(
            verdict,
            Verdict::TimeLimitExceeded | Verdict::MemoryLimitExceeded
        );
        // A size the choices do not govern (`gen.py 5000`) is the text's to shrink, when a
        // validator checks the text or the size is all that is wanted; without a validator the
        // choices still simplify what is inside it, keeping it the generator's own.
        if (polish || by_size) && self.fixed_size(capture, seed, &recorded, left()) {
            on_event(fixed_size_note(recorded.choices.len()));
            return None;
        }
        on_event(first_note(capture, recorded.choices.len()));
        let recorded_len = recorded.choices.len();
        let start = ChoiceCase::start(recorded.choices, recorded.output, by_size, polish);
        let prober = ChoiceProber {
            engine: self,
            capture,
            seed,
            verdict,
            texts: Mutex::new(HashMap::new()),
            harness_error: Mutex::new(None),
            validity: Validity::default(),
        };
        let (start_shape, start_max) = start.ran().map(|r| r.described().clone())?;
        let shown_shape = start_shape.clone();
        let mut on_progress = |current: &ChoiceCase, stats: &ShrinkStats| {
            let (shape, max) = current
                .ran()
                .map(|r| r.described().clone())
                .unwrap_or_default();
            on_event(Event::MinimizeProgress(MinimizeStatus {
                start_shape: start_shape.clone(),
                shape,
                start_max,
                max,
                runs: stats.runs,
                elapsed: began.elapsed(),
            }))
        };
        // With a text phase after it, the choices get half the budget: what the generator
        // cannot make (fewer test cases than it always prints) is the text's to find.
        let full = self.budget_for(&failing.outcome);
        let budget = choices_share(full, polish, began);
        let probe = |candidate: &ChoiceCase| prober.probe(candidate);
        let mut shrunk =
            minimize::shrink(start, self.config.jobs, budget, &probe, &mut on_progress);
        if let Some(err) = prober.harness_error.into_inner().ok().flatten() {
            on_event(Event::MinimizeError(format!("{err:#}")));
        }
        let payload = shrunk.payload.take();
        if let (Some((expected, outcome)), Some(ran)) = (payload, shrunk.case.ran()) {
            failing.input = ran.text.clone();
            (failing.expected, failing.outcome) = (expected, outcome);
        }
        let ended = Ended {
            by_size,
            polish,
            recorded_len,
            shown_shape,
            full_time: full.time,
            started: began,
        };
        Some(ended.chosen(shrunk, on_event))
    }

    /// The recorder ready and the failing case's choices recorded (or taken from its
    /// perturbation), within half the minimization's budget; `None`, with a note saying why,
    /// when the text alone is to be shrunk.
    fn recording(
        &self,
        failing: &Failing,
        seed: u64,
        began: Instant,
        on_event: &mut dyn FnMut(Event),
    ) -> Option<(&Capture, Recorded)> {
        let capturable = self.config.choices.as_ref()?;
        let fallback = |why: String| Event::Note(format!("shrinking the text alone: {why}"));
        // A build still going on after half the budget (a testlib generator on a loaded
        // machine can take a minute), or a recording that runs past it (a generator of 2·10^5
        // numbers, each a choice), leaves the time to the text rather than to waiting.
        let half = self.budget_for(&failing.outcome).time / 2;
        let left = || half.saturating_sub(began.elapsed());
        let past_half = |what: &str| {
            fallback(format!(
                "{what} took {:.1} s, over half the budget",
                began.elapsed().as_secs_f64()
            ))
        };
        let capture = match capturable.ready_within(left()) {
            Some(Ok(capture)) => capture,
            Some(Err(why)) => {
                on_event(fallback(why.to_string()));
                return None;
            }
            None => {
                on_event(past_half("building the generator with the recorder"));
                return None;
            }
        };
        let recorded = match &failing.perturbed {
            // Perturbed choices replay to the case by construction.
            Some(perturbed) => Recorded {
                output: failing.input.clone(),
                choices: perturbed.choices.clone(),
            },
            None => match self.recorded(capture, seed, &failing.input, left()) {
                Ok(recorded) => recorded,
                Err(_) if left().is_zero() => {
                    on_event(past_half("recording the generator's choices"));
                    return None;
                }
                Err(why) => {
                    on_event(fallback(why));
                    return None;
                }
            },
        };
        Some((capture, recorded))
    }

    /// Whether the case the generator prints with every choice at its simplest is as large
    /// ([`text_size`]) as the one recorded: the choices do not govern its size. A string's
    /// length counts, so a case of one string the choices make shorter is theirs to shrink.
    /// A replay that would not end within `left` counts as fixed size: the text is then
    /// shrunk with what is left.
    fn fixed_size(
        &self,
        capture: &Capture,
        seed: u64,
        recorded: &Recorded,
        left: Duration,
    ) -> bool {
        let simplest = capture.replay(
            self.runner,
            seed,
            &[],
            recorded.choices.len(),
            &self.limits_within(left),
        );
        match simplest {
            Ok(Replayed::Made(made)) => text_size(&made.output) >= text_size(&recorded.output),
            // Cut short by what was left of the budget: the text has the rest.
            _ => left < self.helper_limits.wall,
        }
    }

    /// The helpers' limits, their times cut to `left` at most.
    fn limits_within(&self, left: Duration) -> Limits {
        let mut limits = self.helper_limits;
        limits.cpu = limits.cpu.min(left);
        limits.wall = limits.wall.min(left);
        limits
    }

    /// The case of `seed` with the generator's choices perturbed, or as the generator
    /// printed it when the perturbation made none; `None` when its choices cannot be
    /// recorded.
    pub(super) fn perturbed_case(&self, seed: u64) -> anyhow::Result<Option<Case>> {
        let Some(capture) = self.config.choices.as_ref().and_then(|c| c.ready().ok()) else {
            return Ok(None);
        };
        let limits = &self.helper_limits;
        let recorded = capture
            .record(self.runner, seed, limits)?
            .map_err(|why| anyhow::anyhow!("the generator failed: {why}"))?;
        let mut rng = crate::random::Rng::from_seed(seed ^ PERTURB_SALT);
        let case =
            match perturb::perturbed(capture, self.runner, seed, &recorded, &mut rng, limits)? {
                Some((made, what)) => Case {
                    input: made.output,
                    instance: None,
                    perturbed: Some(Arc::new(Perturbed {
                        choices: made.choices,
                        what,
                    })),
                },
                None => Case {
                    input: recorded.output,
                    instance: None,
                    perturbed: None,
                },
            };
        Ok(Some(case))
    }

    /// The choices of the generator's run for `seed`, once a recording run printed `input`
    /// and a replay of what it recorded printed it again.
    /// The choices of the run of `seed` that printed `input`, recorded and replayed to it
    /// again, both runs within `left`.
    fn recorded(
        &self,
        capture: &Capture,
        seed: u64,
        input: &[u8],
        left: Duration,
    ) -> Result<Recorded, String> {
        let until = Instant::now() + left;
        let limits = &self.limits_within(left);
        let recorded = capture
            .record(self.runner, seed, limits)
            .map_err(|e| format!("{e:#}"))?
            .map_err(|why| {
                format!("the generator failed while its choices were recorded: {why}")
            })?;
        if recorded.output != input {
            return Err(format!(
                "run again for seed {seed}, the generator printed another case: it depends on \
                 something besides its seed (the time?), so its choices cannot be replayed"
            ));
        }
        if recorded.choices.is_empty() {
            return Err(
                "the generator draws no random choice duipai can record (it has a random \
                 number generator of its own), so its choices cannot be replayed"
                    .to_string(),
            );
        }
        let values: Vec<u64> = recorded.choices.iter().map(|c| c.value).collect();
        let again = capture
            .replay(
                self.runner,
                seed,
                &values,
                values.len(),
                &self.limits_within(until.saturating_duration_since(Instant::now())),
            )
            .map_err(|e| format!("{e:#}"))?;
        match again {
            Replayed::Made(replayed) if replayed.output == input => Ok(recorded),
            _ => Err(
                "served its recorded choices again, the generator printed another case: \
                      it draws from something duipai does not record (numpy.random, \
                      os.urandom, the time, an engine of its own)"
                    .to_string(),
            ),
        }
    }
}

/// The probe of a choice candidate, shared by the minimizer's workers.
struct ChoiceProber<'e, 'a> {
    engine: &'e Engine<'a>,
    capture: &'e Capture,
    seed: u64,
    verdict: Verdict,
    /// The texts probed, by fingerprint, and whether they failed.
    texts: Mutex<HashMap<u64, bool>>,
    harness_error: Mutex<Option<anyhow::Error>>,
    /// Whether the validator goes first (an edited choice sequence is almost always valid).
    validity: Validity,
}

impl ChoiceProber<'_, '_> {
    fn probe(&self, candidate: &ChoiceCase) -> Probe<(Expected, CaseOutcome)> {
        if crate::run::cancelled() || self.failed() {
            return Probe::Stop;
        }
        let engine = self.engine;
        let parent = candidate.parent();
        let replayed = self.capture.replay(
            engine.runner,
            self.seed,
            candidate.given(),
            parent.len(),
            &engine.helper_limits,
        );
        let made = match replayed {
            Ok(Replayed::Made(made)) => made,
            Ok(Replayed::Overrun | Replayed::Failed(_)) => return Probe::Invalid,
            Err(err) => return self.stop(err),
        };
        if !candidate.beats_parent(&made.choices, &made.output) {
            return Probe::Invalid;
        }
        let key = minimize::fingerprint(&made.output);
        let case = Case {
            input: made.output.clone(),
            instance: None,
            perturbed: None,
        };
        let ran = Ran::new(made.choices, made.output);
        if candidate.by_size() && ran.size() >= candidate.parent_size() {
            return Probe::Invalid;
        }
        candidate.set_ran(ran);
        if self.known(key) == Some(false) {
            return Probe::Invalid;
        }
        let result = engine.fails_alike(&case, self.verdict, &self.validity);
        if crate::run::cancelled() {
            return Probe::Stop;
        }
        match result {
            Ok(found) => {
                if let Ok(mut texts) = self.texts.lock() {
                    texts.insert(key, found.is_some());
                }
                found.map_or(Probe::Passes, Probe::Fails)
            }
            Err(err) => self.stop(err),
        }
    }

    fn known(&self, key: u64) -> Option<bool> {
        self.texts.lock().ok()?.get(&key).copied()
    }

    fn stop(&self, err: anyhow::Error) -> Probe<(Expected, CaseOutcome)> {
        if let Ok(mut e) = self.harness_error.lock() {
            e.get_or_insert(err);
        }
        Probe::Stop
    }

    fn failed(&self) -> bool {
        self.harness_error.lock().map_or(true, |e| e.is_some())
    }
}

/// The minimization of choices then text as one: the effort added, the text's end.
pub(super) fn joined(choices: Minimization, text: Option<Minimization>) -> Minimization {
    let Some(text) = text else {
        return choices;
    };
    let (a, b) = (choices.stats, text.stats);
    Minimization {
        stats: ShrinkStats {
            runs: a.runs + b.runs,
            steps: a.steps + b.steps,
            rounds: a.rounds + b.rounds,
            // The text's passes were the last tried on the case reported: theirs is the end
            // (the choices' half budget running out says nothing of the text's candidates).
            end: b.end,
            last_step: b.last_step.or(a.last_step),
        },
        elapsed: choices.elapsed + text.elapsed,
        reached: None,
        interrupted: choices.interrupted || text.interrupted,
        budget: choices.budget,
        // Which passes of the text's were cut short or not tried is what the case reported
        // still offers; the passes tried are both phases'.
        one_minimal: text.one_minimal,
        passes: PassReport {
            tried: [choices.passes.tried, text.passes.tried].concat(),
            ..text.passes
        },
        unchanged: text.unchanged,
    }
}

/// What is left of the budget after `spent`.
pub(super) fn rest(budget: Budget, spent: Duration) -> Budget {
    Budget {
        time: budget.time.saturating_sub(spent),
        ..budget
    }
}

/// The note that a fixed-size case is the text's to shrink.
fn fixed_size_note(recorded: usize) -> Event {
    Event::Note(format!(
        "shrinking the text alone: {} recorded, but with every choice at its simplest the \
         generator prints a case as large (its size may come from its arguments)",
        plural(recorded as u64, "choice")
    ))
}

/// The note that the choices are shrunk first: how they were recorded, and how many.
fn first_note(capture: &Capture, recorded: usize) -> Event {
    Event::Note(format!(
        "shrinking the generator's choices first ({}: {} recorded{})",
        capture.mechanism,
        plural(recorded as u64, "choice"),
        capture
            .built_in
            .map(|t| format!("; built with the recorder in {:.1} s", t.as_secs_f64()))
            .unwrap_or_default(),
    ))
}

/// The choices' part of the `full` budget: half of it when a text phase follows (`polish`),
/// less what the build and the recording took since `started`.
fn choices_share(full: Budget, polish: bool, started: Instant) -> Budget {
    let share = match polish {
        true => Budget {
            time: full.time / 2,
            ..full
        },
        false => full,
    };
    rest(share, started.elapsed())
}

/// What the choices' phase knew when its search ended, for the note saying what comes next and
/// for the minimization it reports.
struct Ended {
    by_size: bool,
    polish: bool,
    recorded_len: usize,
    shown_shape: String,
    full_time: Duration,
    started: Instant,
}

impl Ended {
    /// Notes what the choices reached and what comes next, and reports the minimization.
    fn chosen(
        self,
        shrunk: minimize::Shrunk<ChoiceCase, (Expected, CaseOutcome)>,
        on_event: &mut dyn FnMut(Event),
    ) -> Chosen {
        let stopped = shrunk.stats.end == End::Stopped;
        // Sizes that no choice changed come from the generator's arguments (`gen 200000`):
        // the text is shrunk as it is without choices.
        let fixed_size = self.by_size && shrunk.stats.steps == 0;
        let next = if stopped {
            "minimization stopped"
        } else if fixed_size {
            "no choice changes the case's size (it may come from the generator's arguments): \
             the text is shrunk instead"
        } else if self.polish {
            "the text next"
        } else {
            "the text stays as the generator printed it: without a --validator, only the \
             generator's own output is known to be valid"
        };
        if let Some(ran) = shrunk.case.ran() {
            on_event(Event::Note(format!(
                "the choices shrank in {}, to {} of the {} ({} → {}); {next}",
                plural(shrunk.stats.runs as u64, "run"),
                ran.served.len(),
                self.recorded_len,
                self.shown_shape,
                ran.described().0,
            )));
        }
        let polish = (self.polish || fixed_size) && !stopped;
        let mut passes = shrunk.passes.clone();
        if !polish && !stopped {
            // The report must not call a case minimal that no text edit was tried on.
            passes.not_tried.push((
                "text edits".to_string(),
                "without a --validator only the generator's own output is known to be valid"
                    .to_string(),
            ));
        }
        Chosen {
            minimization: Minimization {
                one_minimal: shrunk.stats.end == End::Minimal && passes.not_tried.is_empty(),
                passes,
                stats: shrunk.stats,
                elapsed: self.started.elapsed(),
                reached: None,
                interrupted: stopped && crate::run::cancelled(),
                budget: self.full_time,
                unchanged: false,
            },
            polish,
        }
    }
}
