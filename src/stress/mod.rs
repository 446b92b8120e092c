//! The stress engine (对拍): cases from consecutive seeds on the worker pool until the program
//! fails one, then save it, minimize it and save the result. It prints nothing: it emits
//! [`Event`]s while it works and returns an [`Outcome`]; reporters render both.

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

use crate::answer::Rule;
use crate::judge::helper::{Fault, HelperFailed};
use crate::judge::{CaseOutcome, Decider, Expected, Ran, Runner, Verdict};
use crate::problem::{Explanation, Instance, Problem, Spec};
use crate::run::{IoMode, Limits, Termination};
use crate::text::program_name;
use envelope::{ENOUGH_CASES, Envelope, Learning};
use minimize::Shrinkable;

mod choices;
mod envelope;
pub mod minimize;
pub mod save;
mod search;
mod text_case;

pub use minimize::{Budget, End, PassReport, Probe, ShrinkStats, Shrunk};
pub use text_case::TextCase;

/// Where cases come from: the built-in generator, or an external program given the seed.
pub enum Source {
    Builtin(Spec),
    /// The generator's command; the seed is appended as its last argument.
    External(Vec<OsString>),
}

/// Who knows the right answer: the built-in solver, an external reference program, or, on
/// an interactive problem, nobody beforehand: the interactor judges the exchange
/// ([`Decider::Interactor`]).
pub enum Oracle {
    Builtin,
    External(Vec<OsString>),
    Interactor,
}

/// Which seeds a run tries: `first + offset + i × stride` for i = 0, 1, 2, …
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seeds {
    pub first: u64,
    /// 0-based share of the seed space (a shard's index − 1).
    pub offset: u64,
    /// How many shares there are.
    pub stride: u64,
}

impl Seeds {
    /// The seed of the `index`-th case.
    pub fn seed(&self, index: u64) -> u64 {
        self.first
            .wrapping_add(self.offset)
            .wrapping_add(index.wrapping_mul(self.stride))
    }
}

/// Everything a stress run needs.
pub struct Config {
    /// The problem's name, as typed; it names the saved files.
    pub name: String,
    /// The game, when duipai knows it: without one, cases come from an external generator,
    /// answers from an external reference, and outputs are compared token by token.
    pub problem: Option<&'static dyn Problem>,
    pub source: Source,
    pub oracle: Oracle,
    pub program: Vec<OsString>,
    pub limits: Limits,
    /// The limits of the generator, the reference and the validator
    /// ([`crate::judge::helper::helper_limits`]).
    pub helper_limits: Limits,
    pub io: IoMode,
    pub seeds: Seeds,
    pub jobs: usize,
    /// Stop after this many cases.
    pub iterations: Option<u64>,
    /// Stop taking new cases after this long.
    pub time: Option<Duration>,
    /// Where failing cases are saved.
    pub save_dir: PathBuf,
    /// Minimize a failing case.
    pub shrink: bool,
    /// How long minimization may take.
    pub shrink_budget: Budget,
    /// How long minimization may take on a case the program failed by its time or memory
    /// limit, where each candidate may run up to the limit ([`LIMIT_SHRINK_TIME`] unless
    /// told otherwise).
    pub limit_shrink_budget: Budget,
    /// Checks a candidate input of a problem duipai cannot parse (exit 0: valid), so that
    /// such cases can be minimized as text.
    pub validator: Option<Vec<OsString>>,
    /// How outputs are compared for a problem duipai does not know.
    pub rule: Rule,
    /// How an output is decided: compared with the expected answers, or by a checker.
    pub decider: Decider,
    /// The external generator as typed, to record its random choices: a failing case is
    /// shrunk as those choices first ([`choices`]).
    pub choices: Option<crate::own::capture::Capturable>,
    /// Each seed's case is the generator's output for its recorded choices perturbed (a
    /// size or a loop pushed to an extreme), when they can be recorded: a hunt's search.
    pub perturb: bool,
    /// An empty output of the reference is an answer (a test that asks for nothing, as
    /// Polygon and the ICPC format allow), not a sign of a broken reference.
    pub empty_answers: bool,
}

/// What the engine reports while it works.
#[derive(Debug)]
pub enum Event {
    /// Cases judged so far (sent about every 50 ms during the search).
    Progress { cases: u64, elapsed: Duration },
    /// The lowest failing seed, after `cases` cases.
    Failed {
        seed: u64,
        cases: u64,
        verdict: Verdict,
        detail: String,
    },
    /// The case as found is on disk.
    SavedOriginal(PathBuf),
    /// Minimization begins.
    MinimizeStarted,
    /// Where minimization stands (after every batch of probes).
    MinimizeProgress(MinimizeStatus),
    /// The case is reported as found, and why it was not minimized.
    NotMinimized(String),
    /// Something the report should say about how the case was minimized.
    Note(String),
    /// Minimization stopped on a harness error; the smallest case so far is kept.
    MinimizeError(String),
    /// Minimization ended.
    Minimized(Minimization),
}

/// How minimization went.
#[derive(Clone, Debug)]
pub struct Minimization {
    pub stats: ShrinkStats,
    /// Which passes were cut short or not tried on the case it ended with.
    pub passes: PassReport,
    /// Whether the case is 1-minimal: every pass that applies went over all its candidates
    /// on it with none failing ([`Shrunk::one_minimal`]).
    pub one_minimal: bool,
    pub elapsed: Duration,
    /// How long after minimizing began it kept the case it ends with (`None` when it kept
    /// nothing smaller): the rest of `elapsed` went to finding nothing smaller.
    pub reached: Option<Duration>,
    /// Stopped by an interrupt.
    pub interrupted: bool,
    /// The time budget it had.
    pub budget: Duration,
    /// The case reported is the case as found, byte for byte: nothing smaller failed.
    pub unchanged: bool,
}

/// Where minimization stands: the case it started from, the current one, and the effort.
#[derive(Clone, Debug)]
pub struct MinimizeStatus {
    /// Board shapes (`12×12`), or line counts for text cases.
    pub start_shape: String,
    pub shape: String,
    /// The largest value or weight.
    pub start_max: i64,
    pub max: i64,
    pub runs: usize,
    pub elapsed: Duration,
}

/// The result of a stress run.
pub enum Outcome {
    /// No failure within the seeds tried.
    Passed(Passed),
    Failed(Box<Failure>),
}

/// A search that found no failure: how far it went.
#[derive(Clone, Copy, Debug)]
pub struct Passed {
    pub cases: u64,
    pub first_seed: u64,
    /// `None` when no case ran.
    pub last_seed: Option<u64>,
    pub interrupted: bool,
    pub elapsed: Duration,
}

/// A failing case, as found and as minimized.
pub struct Failure {
    pub seed: u64,
    /// Cases tried up to and including the failing one.
    pub cases: u64,
    /// The case as found, saved before anything else.
    pub original_path: PathBuf,
    /// The case reported (the minimized one, or the original).
    pub input_path: PathBuf,
    pub input: Vec<u8>,
    /// The parsed case, when duipai knows the problem's format.
    pub instance: Option<Box<dyn Instance>>,
    /// How many cases the input as found held (when duipai knows the format).
    pub original_cases: Option<usize>,
    pub expected: Expected,
    pub outcome: CaseOutcome,
    /// When the built-in solver is the oracle: per case, the answer and an optimal line of
    /// play.
    pub explanation: Option<Vec<Explanation>>,
    /// Where the whole explanation was saved, for boards too big to show it all.
    pub explain_path: Option<PathBuf>,
    /// `None` when the case was not minimized.
    pub minimization: Option<Minimization>,
    pub elapsed: Duration,
    /// What was perturbed of the generator's choices for its seed, when they were.
    pub perturbed: Option<String>,
}

/// One generated case.
struct Case {
    input: Vec<u8>,
    /// The parsed input, when it is a valid input of the problem (always, for the built-in
    /// generator); minimization and the line of play need it.
    instance: Option<Box<dyn Instance>>,
    /// The choices that made it, when they were perturbed ([`Config::perturb`]).
    perturbed: Option<Arc<choices::Perturbed>>,
}

/// The engine's working state, shared read-only by the workers.
struct Engine<'a> {
    config: &'a Config,
    runner: &'a dyn Runner,
    helper_limits: Limits,
    /// The most CPU time, in microseconds, a run of the reference that ended cleanly took:
    /// what a minimization candidate's reference run is first allowed a few times over
    /// ([`Engine::candidate_expected`]).
    reference_cpu: AtomicU64,
    /// Without a validator, what the generator's cases teach of its envelope
    /// ([`envelope`]); `None` when a validator says what is valid.
    learning: Option<Mutex<Learning>>,
}

/// A minimization candidate's reference runs first under this many times its slowest clean
/// run so far, and at least [`PROBE_REFERENCE_FLOOR`] of CPU ([`Engine::candidate_expected`]):
/// candidates are mostly smaller than the case found, and one past it runs again in full.
const PROBE_REFERENCE_FACTOR: u32 = 4;
const PROBE_REFERENCE_FLOOR: Duration = Duration::from_millis(250);

/// How long minimization takes by default on a case the program failed by its time or
/// memory limit: its failing candidates each cost the whole limit (a correct O(n²) at n =
/// 2·10^5 spent 61 s on 15 probes), so it stops sooner and says so.
pub const LIMIT_SHRINK_TIME: Duration = Duration::from_secs(10);

/// How many generated cases the envelope is learned from at most: enough to see the
/// generator's range, few enough to cost nothing on a long run; and past [`ENOUGH_CASES`],
/// how many bytes of them (a search over cases of 2·10^5 numbers stops learning early).
const LEARNED_CASES: usize = 1000;
const LEARNED_BYTES: usize = 32 << 20;

/// How much of the minimization's budget generating more cases for the envelope may take
/// beside it, after a failure found early: a third (10 s of the default 30 s, 3.3 s for a
/// case that ran into a limit). A Python generator of small cases makes 100 in about a
/// second; one of contest-size cases makes a few a second, and then the envelope is learned
/// from fewer, which the report says.
const LEARNING_SHARE: u32 = 3;

/// The envelope of the generator's cases, and why it was learned from fewer than
/// [`ENOUGH_CASES`], if it was.
struct Learned {
    envelope: Envelope,
    short: Option<String>,
}

/// Runs the search, and on a failure saves, minimizes and saves again.
pub fn run(
    config: &Config,
    runner: &dyn Runner,
    on_event: &mut dyn FnMut(Event),
) -> anyhow::Result<Outcome> {
    let started = Instant::now();
    let engine = Engine {
        config,
        runner,
        helper_limits: config.helper_limits,
        reference_cpu: AtomicU64::new(0),
        learning: config
            .validator
            .is_none()
            .then(|| Mutex::new(Learning::default())),
    };
    prepare_recorder(config);
    let found = search::search(&engine, started, on_event)?;
    let elapsed = started.elapsed();
    let Some(found) = found.failure else {
        let last_seed = (found.cases > 0).then(|| config.seeds.seed(found.cases - 1));
        return Ok(Outcome::Passed(Passed {
            cases: found.cases,
            first_seed: config.seeds.seed(0),
            last_seed,
            interrupted: crate::run::cancelled(),
            elapsed,
        }));
    };
    let failure = engine.finish(found, started, on_event)?;
    Ok(Outcome::Failed(Box::new(failure)))
}

/// Builds the generator with the recorder of its choices on a thread of its own while the
/// search runs, so that a failure finds it ready (a C++ build takes seconds to tens of
/// seconds on a loaded machine). Whoever asks for it first waits for the same build.
fn prepare_recorder(config: &Config) {
    let Some(capturable) = config.choices.clone().filter(|_| config.shrink) else {
        return;
    };
    // Detached: a search that finds nothing does not wait for a build it will not use.
    let spawned = std::thread::Builder::new()
        .name("duipai-recorder".to_string())
        .spawn(move || {
            let _ = capturable.ready();
        });
    drop(spawned);
}

impl Engine<'_> {
    /// Generates, solves and judges one seed; `Some` when the program fails it.
    fn try_seed(&self, seed: u64) -> anyhow::Result<Option<(Case, Expected, CaseOutcome)>> {
        let case = self.make_case(seed)?;
        let expected = self.expected(&case)?;
        let outcome = self.judge(&case.input, &expected)?;
        Ok((!outcome.verdict().is_accepted()).then_some((case, expected, outcome)))
    }

    fn make_case(&self, seed: u64) -> anyhow::Result<Case> {
        match &self.config.source {
            Source::Builtin(spec) => {
                let instance = spec.generate(seed);
                Ok(Case {
                    input: instance.to_input().into_bytes(),
                    instance: Some(instance),
                    perturbed: None,
                })
            }
            Source::External(generator) => {
                if self.config.perturb
                    && let Some(case) = self.perturbed_case(seed)?
                {
                    return Ok(case);
                }
                let mut command = generator.clone();
                command.push(seed.to_string().into());
                let input = self.run_helper(&command, b"", "generator")?;
                let Some(problem) = self.config.problem else {
                    self.learn(&input);
                    return Ok(Case {
                        input,
                        instance: None,
                        perturbed: None,
                    });
                };
                let parsed = problem.parse(&input, &problem.default_bounds());
                let instance = match (parsed, &self.config.oracle) {
                    (Ok(instance), _) => Some(instance),
                    // Only the built-in solver needs to understand the input.
                    (Err(_), Oracle::External(_) | Oracle::Interactor) => {
                        self.learn(&input);
                        None
                    }
                    (Err(err), Oracle::Builtin) => bail!(
                        "the generator's output for seed {seed} is not a valid {problem} input \
                         ({err}); give a --reference for problems duipai does not know"
                    ),
                };
                Ok(Case {
                    input,
                    instance,
                    perturbed: None,
                })
            }
        }
    }

    /// Learns the envelope from a generated text case, up to [`LEARNED_CASES`] of them.
    fn learn(&self, input: &[u8]) {
        let Some(learning) = &self.learning else {
            return;
        };
        let full = |l: &Mutex<Learning>| {
            l.lock().map_or(true, |l| {
                l.cases() >= LEARNED_CASES
                    || (l.cases() >= ENOUGH_CASES && l.bytes() >= LEARNED_BYTES)
            })
        };
        if full(learning) {
            return;
        }
        // Read outside the lock: the workers learn side by side.
        let taught = Learning::of(&TextCase::new(input), input.len());
        if let Ok(mut learning) = learning.lock() {
            learning.merge(taught);
        }
    }

    /// After a failure found within the first few cases, more of the generator's cases (from
    /// the seeds after the last one tried), until [`ENOUGH_CASES`] are learned or `time` has
    /// passed; then the envelope. A generator that fails on one of them ends the learning,
    /// not the run.
    fn envelope(&self, tried: u64, time: Duration) -> Option<Learned> {
        let learning = self.learning.as_ref()?;
        let learned = || learning.lock().map_or(0, |l| l.cases());
        let missing = ENOUGH_CASES.saturating_sub(learned()) as u64;
        let started = Instant::now();
        let failed = Mutex::new(None);
        let seeds = self.config.seeds;
        crate::pool::run_steps(
            self.config.jobs,
            missing,
            |i| {
                let seed = seeds.seed(tried + i);
                if self.make_case(seed).is_err()
                    && let Ok(mut failed) = failed.lock()
                {
                    failed.get_or_insert(seed);
                }
                crate::pool::Step::<()>::Done
            },
            |_| failed.lock().is_ok_and(|f| f.is_none()) && started.elapsed() < time,
            |_, ()| {},
            || {},
        );
        let learning = std::mem::take(&mut *learning.lock().ok()?);
        let cases = learning.cases();
        if cases == 0 {
            return None;
        }
        let short = (cases < ENOUGH_CASES).then(|| {
            let why = match failed.into_inner().ok().flatten() {
                Some(seed) => format!("the generator failed on seed {seed}"),
                None if crate::run::cancelled() => "interrupted".to_string(),
                None => format!("making more took over {} s", seconds(time)),
            };
            format!("fewer than {ENOUGH_CASES}: {why}")
        });
        Some(Learned {
            envelope: learning.finish(),
            short,
        })
    }

    fn expected(&self, case: &Case) -> anyhow::Result<Expected> {
        self.expected_under(case, &self.helper_limits)
    }

    /// [`Engine::expected`], the reference run under `limits`.
    fn expected_under(&self, case: &Case, limits: &Limits) -> anyhow::Result<Expected> {
        match (&self.config.oracle, &case.instance) {
            (Oracle::Builtin, Some(instance)) => Ok(instance.expected()?),
            (Oracle::Builtin, None) => {
                bail!("no reference answer for an input duipai cannot parse")
            }
            (Oracle::Interactor, _) => Ok(Expected::unknown(b"", self.config.rule)),
            (Oracle::External(reference), instance) => {
                let (output, cpu) = crate::judge::helper::run_helper_timed(
                    self.runner,
                    reference,
                    &case.input,
                    limits,
                    &format!("the reference {}", program_name(reference)),
                    self.config.empty_answers,
                )?;
                let micros = u64::try_from(cpu.as_micros()).unwrap_or(u64::MAX);
                self.reference_cpu.fetch_max(micros, Ordering::Relaxed);
                match instance {
                    Some(instance) => instance
                        .problem()
                        .read_answers(&output, instance.as_ref())
                        .map_err(|why| {
                            anyhow::anyhow!(
                                "the reference {} printed what is not a {} answer: {why}",
                                program_name(reference),
                                instance.problem()
                            )
                        }),
                    None => Ok(Expected::unknown(&output, self.config.rule)),
                }
            }
        }
    }

    fn judge(&self, input: &[u8], expected: &Expected) -> anyhow::Result<CaseOutcome> {
        self.judge_with(input, expected, None)
    }

    /// Judges one case. For a minimization probe looking for `wanted`, the case runs once
    /// even near the time limit (many quick probes are worth more than steadier ones: the
    /// failure they keep was measured steadily when it was found), unless that one run near
    /// the limit gave another verdict, or a busy machine starved it: then it is measured
    /// steadily before the minimizer believes it. A case the machine still starved after
    /// that is no verdict on the program: a harness error, never a failure reported.
    fn judge_with(
        &self,
        input: &[u8],
        expected: &Expected,
        wanted: Option<Verdict>,
    ) -> anyhow::Result<CaseOutcome> {
        let steady = wanted.is_none();
        let config = self.config;
        let (program, limits, io) = (&config.program, &config.limits, &config.io);
        let decider = &config.decider;
        let named = || format!("cannot run {}", program_name(program));
        let execute = |steady| {
            decider
                .execute(self.runner, program, input, limits, io, steady)
                .with_context(named)
        };
        let decide = |ran: &Ran| decider.decide(self.runner, input, ran, expected);
        let mut ran = execute(steady)?;
        let mut judgement = decide(&ran)?;
        let doubtful = Some(judgement.verdict) != wanted || crate::run::starved(&ran.execution);
        if !steady && doubtful && crate::run::near_the_limit(&ran.execution) {
            ran = execute(true)?;
            judgement = decide(&ran)?;
        }
        if crate::run::starved(&ran.execution) {
            bail!(
                "cannot judge {}: the machine is too busy ({}); run fewer -j workers",
                program_name(program),
                judgement.detail
            );
        }
        Ok(ran.judged(judgement))
    }

    /// Runs the generator or the reference; anything but a clean exit is the harness's
    /// problem, not the program's.
    fn run_helper(
        &self,
        command: &[OsString],
        input: &[u8],
        role: &str,
    ) -> anyhow::Result<Vec<u8>> {
        let who = format!("the {role} {}", program_name(command));
        crate::judge::helper::run_helper(self.runner, command, input, &self.helper_limits, &who)
    }

    /// Saves the case as found, minimizes it, and saves the result.
    fn finish(
        &self,
        found: search::Found,
        started: Instant,
        on_event: &mut dyn FnMut(Event),
    ) -> anyhow::Result<Failure> {
        let seed = found.seed;
        on_event(Event::Failed {
            seed,
            cases: found.cases,
            verdict: found.outcome.verdict(),
            detail: found.outcome.judgement.detail.clone(),
        });
        let not_minimized = self.why_not_minimized(&found.case);
        let shrinking = not_minimized.is_none();
        let original_cases = found.case.instance.as_ref().map(|i| i.case_count());
        let mut failing = Failing {
            input: found.case.input,
            instance: found.case.instance,
            expected: found.expected,
            outcome: found.outcome,
            perturbed: found.case.perturbed,
        };
        let stem = format!("{}-{seed}", self.config.name);
        let original_path = self.save_original(&failing, &stem, shrinking)?;
        on_event(Event::SavedOriginal(original_path.clone()));

        let mut minimization = None;
        match not_minimized {
            Some(why) if self.config.shrink => on_event(Event::NotMinimized(why)),
            Some(_) => {}
            None => match self.validator_refuses(&failing) {
                Ok(None) => {
                    minimization =
                        Some(self.minimize_failing(&mut failing, seed, found.cases, on_event))
                }
                Ok(Some(why)) => on_event(Event::NotMinimized(why)),
                Err(err) => on_event(Event::MinimizeError(format!("{err:#}"))),
            },
        }
        failing.outcome.compare_with(&failing.expected);
        let input_path = if shrinking {
            failing.save(&self.config.save_dir, &stem)?
        } else {
            original_path.clone()
        };
        let (explanation, explain_path) = self.explain(failing.instance.as_deref(), &input_path)?;
        Ok(Failure {
            seed,
            cases: found.cases,
            original_path,
            input_path,
            input: failing.input,
            instance: failing.instance,
            original_cases,
            expected: failing.expected,
            outcome: failing.outcome,
            explanation,
            explain_path,
            minimization,
            elapsed: started.elapsed(),
            perturbed: failing.perturbed.map(|p| p.what.clone()),
        })
    }

    /// Saves the case as found, before anything else can go wrong or be interrupted: under
    /// `STEM.original` when the minimized case is to take `STEM`.
    fn save_original(
        &self,
        failing: &Failing,
        stem: &str,
        shrinking: bool,
    ) -> anyhow::Result<PathBuf> {
        let dir = &self.config.save_dir;
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        // What an earlier run killed while saving left half-written.
        crate::fsutil::remove_stale_temporaries(dir, 0);
        let original_stem = if shrinking {
            format!("{stem}.original")
        } else {
            stem.to_string()
        };
        failing.save(dir, &original_stem)
    }

    /// Minimizes the failing case in place: as the problem's instance when duipai knows the
    /// format, else as text.
    fn minimize_failing(
        &self,
        failing: &mut Failing,
        seed: u64,
        tried: u64,
        on_event: &mut dyn FnMut(Event),
    ) -> Minimization {
        on_event(Event::MinimizeStarted);
        // Everything minimizing waits for counts: the recorder's build, recording the
        // choices, learning the generator's envelope, compiles, validation.
        let began = Instant::now();
        let found = failing.input.clone();
        let verdict = failing.outcome.verdict();
        let result = match &failing.instance {
            Some(start) => {
                // The failing case alone, when the file has others and the output says
                // which one: one run that often settles most of the minimization.
                let focus = failing
                    .outcome
                    .judgement
                    .case
                    .filter(|_| start.case_count() > 1)
                    .map(|k| start.only_case(k));
                let budget = self.budget_for(&failing.outcome);
                let (small, found, result) =
                    self.minimize(start.clone(), focus, verdict, None, budget, on_event);
                if let Some((expected, outcome)) = found {
                    failing.input = small.to_input().into_bytes();
                    failing.instance = Some(small);
                    (failing.expected, failing.outcome) = (expected, outcome);
                }
                result
            }
            // The generator's choices first, when they can be recorded; the text after, with
            // what is left of the budget.
            None => match self.shrink_choices(failing, seed, verdict, began, on_event) {
                Some(chosen) if !chosen.polish => chosen.minimization,
                Some(chosen) => {
                    let rest = choices::rest(self.budget_for(&failing.outcome), began.elapsed());
                    let text = self.minimize_text(failing, tried, verdict, rest, on_event);
                    choices::joined(chosen.minimization, Some(text))
                }
                None => {
                    let rest = choices::rest(self.budget_for(&failing.outcome), began.elapsed());
                    self.minimize_text(failing, tried, verdict, rest, on_event)
                }
            },
        };
        let mut result = result;
        result.elapsed = began.elapsed();
        result.reached = result
            .stats
            .last_step
            .map(|at| at.saturating_duration_since(began));
        // The budget told is the whole one the phases shared.
        result.budget = self.budget_for(&failing.outcome).time;
        // Steps that came back to the case as found (the choices replayed to the same text)
        // made nothing smaller.
        result.unchanged = failing.input == found;
        if result.unchanged {
            result.stats.steps = 0;
            result.reached = None;
        }
        if result.stats.end == End::Budget && limit_verdict(verdict) {
            let default = if result.budget == LIMIT_SHRINK_TIME {
                " by default"
            } else {
                ""
            };
            on_event(Event::Note(format!(
                "a {} case is minimized for at most {} s{default}: its candidates may each run \
                 up to the limit",
                verdict.code(),
                seconds(result.budget)
            )));
        }
        on_event(Event::Minimized(result.clone()));
        result
    }

    /// Minimizes the failing case as text within `budget`, kept within the generator's
    /// envelope when there is no validator.
    fn minimize_text(
        &self,
        failing: &mut Failing,
        tried: u64,
        verdict: Verdict,
        budget: Budget,
        on_event: &mut dyn FnMut(Event),
    ) -> Minimization {
        // With less left than a probe of a limit case takes, no candidate will run: learning
        // what to keep it within (generating cases of 2·10^5 numbers), reading the case and
        // listing its candidates would only overrun.
        if budget.time <= budget.probe {
            return text_not_shrunk(budget, on_event);
        }
        let learning = Instant::now();
        let learned = self.envelope(tried, budget.time / LEARNING_SHARE);
        // Learning is part of the budget: what is left of it is the shrinking's.
        let budget = choices::rest(budget, learning.elapsed());
        if let Some(learned) = &learned {
            let short = learned
                .short
                .as_ref()
                .map(|why| format!("; {why}"))
                .unwrap_or_default();
            on_event(Event::Note(format!(
                "kept within what the generator produced in {} ({}{short}); give \
                 --validator for the real constraints",
                crate::text::plural(learned.envelope.cases() as u64, "case"),
                learned.envelope.summary()
            )));
        }
        let envelope = learned.map(|l| l.envelope);
        let reading = Instant::now();
        let start = TextCase::new(&failing.input).validated(!self.checked_by_reference());
        // Reading a case of 2·10^5 numbers takes a while, in which the last moment a probe
        // could start may have passed.
        let budget = choices::rest(budget, reading.elapsed());
        if budget.time <= budget.probe {
            return text_not_shrunk(budget, on_event);
        }
        let (small, found, mut result) =
            self.minimize(start, None, verdict, envelope.as_ref(), budget, on_event);
        // Candidates left out that the envelope rules out anyway were not missed.
        if let Some(envelope) = &envelope
            && !small.leaves_out_any(|c| envelope.admits(c))
        {
            result.passes.not_tried.clear();
            result.one_minimal = result.stats.end == End::Minimal;
        }
        if let Some((expected, outcome)) = found {
            failing.input = small.to_bytes();
            (failing.expected, failing.outcome) = (expected, outcome);
        }
        result
    }

    /// The built-in reference's explanation of the case, and the file it is also written to
    /// beside the case when it is too long for the report.
    fn explain(
        &self,
        instance: Option<&dyn Instance>,
        input_path: &std::path::Path,
    ) -> anyhow::Result<(Option<Vec<Explanation>>, Option<PathBuf>)> {
        let explanation = match (instance, &self.config.oracle) {
            (Some(instance), Oracle::Builtin) => Some(instance.try_explain()?),
            _ => None,
        };
        let explain_path = match &explanation {
            Some(explanations) if explanations.iter().any(|e| e.long) => {
                let path = input_path.with_extension("explain.txt");
                let text = crate::problem::explanations_text(explanations, None);
                crate::fsutil::write_atomic(&path, text.as_bytes())?;
                Some(path)
            }
            _ => None,
        };
        Ok((explanation, explain_path))
    }

    /// Why a failing case is reported as found, or `None` when it can be minimized: a case
    /// duipai cannot parse is minimized as text, its smaller versions checked by the
    /// validator, or else by the reference running on them cleanly.
    fn why_not_minimized(&self, case: &Case) -> Option<String> {
        let config = self.config;
        if !config.shrink {
            return Some("--no-shrink".to_string());
        }
        let checkable = config.validator.is_some()
            || matches!(config.oracle, Oracle::External(_) | Oracle::Interactor);
        if case.instance.is_some() || checkable {
            return None;
        }
        let problem = config.problem.map_or(config.name.as_str(), |p| p.name());
        Some(format!(
            "the case is not a valid {problem} input, and without a --validator smaller \
             versions of it cannot be checked"
        ))
    }

    /// The time minimization may take on a case failed as `outcome` says. A case over its
    /// time or memory limit took as long as its run did, and so may every candidate: no
    /// probe starts that could not end within the budget, the first of each phase included.
    fn budget_for(&self, outcome: &CaseOutcome) -> Budget {
        if limit_verdict(outcome.verdict()) {
            Budget {
                probe: outcome.execution.wall_time,
                ..self.config.limit_shrink_budget
            }
        } else {
            self.config.shrink_budget
        }
    }

    /// For a text case, whether its validity rests on the reference alone (no validator).
    fn checked_by_reference(&self) -> bool {
        self.config.validator.is_none()
    }

    /// Whether the validator accepts `input` (exit status 0, testlib's convention, or 42,
    /// the ICPC format's); it rejects it with another exit code (an uncaught exception
    /// included). A validator killed by a signal, past its limits, or that cannot start is
    /// broken, not a judge of the input: an error naming it.
    fn valid(&self, input: &[u8]) -> anyhow::Result<bool> {
        Ok(self.validate(input, "a candidate input")?.is_none())
    }

    /// The validator's verdict on `input` (`what` names it in an error): `None` when it
    /// accepts it, else why it rejects it; an error when it is broken (see
    /// [`Engine::valid`]).
    fn validate(&self, input: &[u8], what: &str) -> anyhow::Result<Option<String>> {
        let Some(validator) = &self.config.validator else {
            return Ok(None);
        };
        let name = program_name(validator);
        let execution = self
            .runner
            .run_helper(validator, input, &self.helper_limits)
            .with_context(|| format!("cannot run the validator {name}"))?;
        // A Python validator that meets an invalid input often fails on it with an exception
        // (`int('')`, an index past the end) rather than a clean exit code: any exit code is
        // a refusal; only a signal or a limit says the validator is broken.
        let exited = matches!(execution.termination, Termination::Exited(_));
        if execution.termination == Termination::Exited(42) {
            return Ok(None);
        }
        match crate::judge::helper::fault(&execution) {
            None => Ok(None),
            Some((Fault::Rejected, why)) => Ok(Some(why)),
            Some((Fault::Crashed, why)) if exited => Ok(Some(why)),
            Some((fault, why)) => Err(HelperFailed::error(
                fault,
                format!("the validator {name} failed on {what}: {why}"),
            )),
        }
    }

    /// Why minimization cannot trust the validator, if it cannot: it rejects the failing
    /// case itself (every candidate would then read as invalid, and the whole budget would
    /// be spent to shrink nothing). `Ok(None)` without a validator, or for a case duipai
    /// parses (the validator is not asked).
    fn validator_refuses(&self, failing: &Failing) -> anyhow::Result<Option<String>> {
        if failing.instance.is_some() {
            return Ok(None);
        }
        let Some(validator) = &self.config.validator else {
            return Ok(None);
        };
        let why = self.validate(&failing.input, "the failing case itself")?;
        Ok(why.map(|why| {
            format!(
                "the validator {} rejects the failing case itself, so it cannot tell valid \
                 candidates from invalid ones: {why}",
                program_name(validator)
            )
        }))
    }

    /// Shrinks `start` while the program still fails it with the same verdict, trying
    /// `focus` (a smaller case the failure points at) first, and probing only candidates
    /// within `envelope` when there is one. Returns the smallest case, its
    /// expected answer and outcome when smaller than `start`, and how it went.
    #[allow(clippy::type_complexity)]
    #[allow(clippy::too_many_arguments)]
    fn minimize<S: Shrinkable + Describe>(
        &self,
        start: S,
        focus: Option<S>,
        verdict: Verdict,
        envelope: Option<&Envelope>,
        budget: Budget,
        on_event: &mut dyn FnMut(Event),
    ) -> (S, Option<(Expected, CaseOutcome)>, Minimization) {
        let started = Instant::now();
        let prober = Prober {
            engine: self,
            verdict,
            envelope,
            harness_error: Mutex::new(None),
            validity: Validity::default(),
        };
        let probe = |candidate: &S| prober.probe(candidate);
        let (start_shape, start_max) = (start.shape(), start.largest());
        let focus = focus.map(|f| (probe(&f), f));
        let focus_kept = Instant::now();
        let probed = usize::from(focus.is_some());
        let (start, focused) = match focus {
            Some((Probe::Fails(found), f)) => (f, Some(found)),
            _ => (start, None),
        };
        // The case changes only when a step is kept, and describing one of 2·10^5 numbers
        // takes a while: each step's case is described once, not after every round of
        // probes. Until a step is kept the case is the one started from, whose shape is known.
        let mut described = focused
            .is_none()
            .then(|| (0, start_shape.clone(), start_max));
        let mut on_progress = |current: &S, stats: &ShrinkStats| {
            let (shape, max) = match &described {
                Some((steps, shape, max)) if *steps == stats.steps => (shape.clone(), *max),
                _ => {
                    let (shape, max) = (current.shape(), current.largest());
                    described = Some((stats.steps, shape.clone(), max));
                    (shape, max)
                }
            };
            on_event(Event::MinimizeProgress(MinimizeStatus {
                start_shape: start_shape.clone(),
                shape,
                start_max,
                max,
                runs: stats.runs,
                elapsed: started.elapsed(),
            }))
        };
        let steps = usize::from(focused.is_some());
        let mut shrunk =
            minimize::shrink(start, self.config.jobs, budget, &probe, &mut on_progress);
        shrunk.stats.runs += probed;
        shrunk.stats.steps += steps;
        if focused.is_some() {
            shrunk.stats.last_step = shrunk.stats.last_step.or(Some(focus_kept));
        }
        let payload = shrunk.payload.take().or(focused);
        if let Some(err) = prober.harness_error.into_inner().ok().flatten() {
            on_event(Event::MinimizeError(format!("{err:#}")));
        }
        let result = Minimization {
            one_minimal: shrunk.one_minimal(),
            passes: shrunk.passes,
            stats: shrunk.stats,
            elapsed: started.elapsed(),
            reached: None,
            interrupted: shrunk.stats.end == End::Stopped && crate::run::cancelled(),
            unchanged: false,
            budget: budget.time,
        };
        (shrunk.case, payload, result)
    }

    /// Judges a candidate of the minimization: its expected answer and outcome when the
    /// program fails it with `verdict`, `None` when the program passes it or it is no valid
    /// input. A text case's validator goes where `validity` says: after the reference and the
    /// program, only on a candidate that fails as wanted (most candidates pass, and a
    /// validator's run costs about what the reference's does: a graph problem with a Python
    /// validator ran three programs on every candidate), or first, while most candidates it
    /// judged were invalid. Either way an invalid candidate is never kept.
    fn fails_alike(
        &self,
        case: &Case,
        verdict: Verdict,
        validity: &Validity,
    ) -> anyhow::Result<Option<(Expected, CaseOutcome)>> {
        let checked = case.instance.is_none() && self.config.validator.is_some();
        let valid = |input: &[u8]| -> anyhow::Result<bool> {
            let valid = self.valid(input)?;
            validity.record(valid);
            Ok(valid)
        };
        let first = checked && validity.first();
        if first && !valid(&case.input)? {
            return Ok(None);
        }
        let mut known = first.then_some(true);
        let expected = match self.candidate_expected(case, checked && !first, &valid) {
            Ok(Some((expected, judged))) => {
                known = known.or(judged);
                expected
            }
            Ok(None) => return Ok(None),
            Err(e) => return self.passed_over(case, e, known, &valid),
        };
        let outcome = match self.judge_with(&case.input, &expected, Some(verdict)) {
            Ok(outcome) => outcome,
            Err(e) => return self.passed_over(case, e, known, &valid),
        };
        if outcome.verdict() != verdict || (known.is_none() && checked && !valid(&case.input)?) {
            return Ok(None);
        }
        Ok(Some((expected, outcome)))
    }

    /// A candidate's expected answer, with whether the validator has judged it valid on the
    /// way (`None` when the candidate turned out invalid). When the validator is still to
    /// come (`unjudged`), the reference first runs under a short CPU limit rather than its
    /// generous one: on an input the validator would refuse (a count raised past the items
    /// it counts), a reference reading in a loop may print until 10 s of CPU stop it, which
    /// one such candidate of a hunt's minimization cost. The short limit is
    /// [`PROBE_REFERENCE_FACTOR`] times the reference's slowest clean run so far, at least
    /// [`PROBE_REFERENCE_FLOOR`], at most the program's limit. A reference past it is asked
    /// of the validator, and a valid candidate runs again under the full limits: every
    /// candidate keeps its verdict, only a runaway one costs less.
    fn candidate_expected(
        &self,
        case: &Case,
        unjudged: bool,
        valid: &dyn Fn(&[u8]) -> anyhow::Result<bool>,
    ) -> anyhow::Result<Option<(Expected, Option<bool>)>> {
        if !unjudged || !matches!(self.config.oracle, Oracle::External(_)) {
            return Ok(Some((self.expected(case)?, None)));
        }
        let seen = Duration::from_micros(self.reference_cpu.load(Ordering::Relaxed));
        let cpu = (seen * PROBE_REFERENCE_FACTOR)
            .max(PROBE_REFERENCE_FLOOR)
            .min(self.config.limits.cpu);
        let short = crate::judge::helper::helper_limits(&self.config.limits, Some(cpu));
        match self.expected_under(case, &short) {
            Ok(expected) => Ok(Some((expected, None))),
            Err(e)
                if e.downcast_ref::<HelperFailed>()
                    .is_some_and(|f| f.fault == Fault::Limit) =>
            {
                if !valid(&case.input)? {
                    return Ok(None);
                }
                Ok(Some((self.expected(case)?, Some(true))))
            }
            Err(e) => Err(e),
        }
    }

    /// What a failure to judge a candidate means (the reference's, the checker's, the
    /// interactor's): the candidate is passed over when the failure says nothing of the
    /// program (a reference that prints nothing: on the case as found it printed an answer),
    /// or when the candidate is no valid input (the validator rejects it, asked through
    /// `valid` unless it already said (`known`): a checker or a reference may fail on any
    /// invalid input; without a validator, a helper refused it with an error code or a
    /// crash). Otherwise the harness failed, which stops minimization (a helper that ran past
    /// its limits on a valid input, say).
    fn passed_over<T>(
        &self,
        case: &Case,
        error: anyhow::Error,
        known: Option<bool>,
        valid: &dyn Fn(&[u8]) -> anyhow::Result<bool>,
    ) -> anyhow::Result<Option<T>> {
        let failed = error.downcast_ref::<HelperFailed>();
        if failed.is_some_and(|f| f.fault == Fault::Silent) {
            return Ok(None);
        }
        if case.instance.is_some() {
            return Err(error);
        }
        let invalid = if self.config.validator.is_some() {
            match known {
                Some(valid) => !valid,
                None => !valid(&case.input)?,
            }
        } else {
            HelperFailed::is_refusal(&error)
        };
        if invalid { Ok(None) } else { Err(error) }
    }
}

/// What the validator has said of the candidates it judged, which decides whether it goes
/// first ([`Engine::fails_alike`]): after the reference and the program while most were
/// valid (a generator's own choices, edited, are always valid), first while most were not
/// (text cuts of a graph or a tree make mostly invalid inputs, on which the reference would
/// run, and often fail, for nothing: on such a graph with Python helpers, going after made
/// minimization slower than going first). Either way a candidate gets the same verdict: only
/// the cost differs, so the result stays the same for any number of workers.
#[derive(Debug, Default)]
struct Validity {
    judged: AtomicU64,
    rejected: AtomicU64,
}

impl Validity {
    fn record(&self, valid: bool) {
        self.judged.fetch_add(1, Ordering::Relaxed);
        if !valid {
            self.rejected.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Whether most candidates judged so far were invalid (two valid ones assumed before any).
    fn first(&self) -> bool {
        let judged = self.judged.load(Ordering::Relaxed);
        2 * self.rejected.load(Ordering::Relaxed) > judged + 2
    }
}

/// `10`, `3.3`: seconds for a message.
fn seconds(time: Duration) -> String {
    let text = format!("{:.1}", time.as_secs_f64());
    text.strip_suffix(".0").unwrap_or(&text).to_string()
}

/// The text phase not begun, with a note saying why: what is left of `budget` is less than a
/// run of the case takes, so no candidate could be tried.
fn text_not_shrunk(budget: Budget, on_event: &mut dyn FnMut(Event)) -> Minimization {
    on_event(Event::Note(format!(
        "the text is not shrunk: {} s of the budget left, less than a run of the case takes \
         ({} s)",
        seconds(budget.time),
        seconds(budget.probe)
    )));
    Minimization {
        stats: ShrinkStats {
            end: End::Budget,
            ..ShrinkStats::default()
        },
        passes: PassReport {
            cut_short: vec!["text edits".to_string()],
            ..PassReport::default()
        },
        one_minimal: false,
        elapsed: Duration::ZERO,
        reached: None,
        interrupted: false,
        budget: budget.time,
        unchanged: false,
    }
}

/// Whether a failure is the program's running into its time or memory limit.
fn limit_verdict(verdict: Verdict) -> bool {
    matches!(
        verdict,
        Verdict::TimeLimitExceeded | Verdict::MemoryLimitExceeded
    )
}

/// The minimizer's probe, shared by its workers: the first harness error stops every probe
/// after it, and is reported once minimization ends.
struct Prober<'e, 'a> {
    engine: &'e Engine<'a>,
    verdict: Verdict,
    /// What the generator makes: a candidate outside it is taken for invalid, unprobed.
    envelope: Option<&'e Envelope>,
    harness_error: Mutex<Option<anyhow::Error>>,
    validity: Validity,
}

impl Prober<'_, '_> {
    fn probe<S: Describe>(&self, candidate: &S) -> Probe<(Expected, CaseOutcome)> {
        if crate::run::cancelled() || self.failed() {
            return Probe::Stop;
        }
        if self.envelope.is_some_and(|e| !candidate.within(e)) {
            return Probe::Invalid;
        }
        let result = self
            .engine
            .fails_alike(&candidate.to_case(), self.verdict, &self.validity);
        if crate::run::cancelled() {
            // The run may have been killed by the interrupt: no verdict.
            return Probe::Stop;
        }
        match result {
            Ok(Some(found)) => Probe::Fails(found),
            Ok(None) => Probe::Passes,
            Err(err) => {
                if let Ok(mut e) = self.harness_error.lock() {
                    e.get_or_insert(err);
                }
                Probe::Stop
            }
        }
    }

    fn failed(&self) -> bool {
        self.harness_error.lock().map_or(true, |e| e.is_some())
    }
}

/// The failing case as it stands: found, then possibly minimized.
struct Failing {
    input: Vec<u8>,
    instance: Option<Box<dyn Instance>>,
    expected: Expected,
    outcome: CaseOutcome,
    /// The choices that made it, when they were perturbed.
    perturbed: Option<Arc<choices::Perturbed>>,
}

impl Failing {
    fn save(&self, dir: &std::path::Path, stem: &str) -> anyhow::Result<PathBuf> {
        save::save_case(dir, stem, &self.input, &self.expected, &self.outcome)
    }
}

/// What the engine needs of a case it minimizes besides [`Shrinkable`].
trait Describe {
    fn to_case(&self) -> Case;
    /// Board shape, or line count.
    fn shape(&self) -> String;
    /// The largest value.
    fn largest(&self) -> i64;
    /// Whether it keeps to what the generator makes.
    fn within(&self, _envelope: &Envelope) -> bool {
        true
    }
}

impl Describe for Box<dyn Instance> {
    fn to_case(&self) -> Case {
        Case {
            input: self.to_input().into_bytes(),
            instance: Some(self.clone()),
            perturbed: None,
        }
    }
    fn shape(&self) -> String {
        Instance::shape(self.as_ref())
    }
    fn largest(&self) -> i64 {
        Instance::largest(self.as_ref())
    }
}

impl Describe for TextCase {
    fn to_case(&self) -> Case {
        Case {
            input: self.to_bytes(),
            instance: None,
            perturbed: None,
        }
    }
    fn shape(&self) -> String {
        self.size_label()
    }
    fn largest(&self) -> i64 {
        self.largest_number()
    }
    fn within(&self, envelope: &Envelope) -> bool {
        envelope.admits(self)
    }
}

#[cfg(test)]
mod tests {
    use super::{Validity, program_name};

    #[test]
    fn the_validator_goes_first_while_most_candidates_it_judged_were_invalid() {
        let validity = Validity::default();
        assert!(!validity.first(), "nothing judged yet: after the program");
        validity.record(false);
        validity.record(false);
        assert!(
            !validity.first(),
            "two of two invalid, against two valid assumed"
        );
        validity.record(false);
        assert!(validity.first(), "three of three invalid");
        for _ in 0..4 {
            validity.record(true);
        }
        assert!(!validity.first(), "three of seven invalid");
    }
    use std::ffi::OsString;

    fn words(ws: &[&str]) -> Vec<OsString> {
        ws.iter().map(OsString::from).collect()
    }

    #[test]
    fn programs_are_named_by_their_file_and_scripts_by_theirs() {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/support/slow_chess.py");
        assert_eq!(program_name(&words(&["./build/a.out", "x"])), "a.out");
        assert_eq!(
            program_name(&words(&["/usr/bin/python3.11", "-O", script])),
            "python3.11 slow_chess.py"
        );
        // Not a file: the interpreter alone.
        assert_eq!(
            program_name(&words(&["python3", "-c", "print(2)"])),
            "python3"
        );
        assert_eq!(program_name(&words(&["./pythonic", script])), "pythonic");
        assert_eq!(program_name(&[]), "");
    }
}
