//! The search over seeds: consecutive cases on the pool until one fails, reporting the
//! lowest failing seed whatever the number of workers.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use super::{Case, Engine, Event};
use crate::judge::{CaseOutcome, Expected};
use crate::pool::Step;

/// A case the program failed.
pub(super) struct Found {
    pub seed: u64,
    /// Cases tried before it, and it.
    pub cases: u64,
    pub case: Case,
    pub expected: Expected,
    pub outcome: CaseOutcome,
}

/// What the search over seeds found.
pub(super) struct Search {
    pub cases: u64,
    pub failure: Option<Found>,
}

/// Workers take indices in order and stop taking indices past the lowest failing one found
/// so far, but finish every lower index, so the failure reported is the lowest failing seed:
/// the same command reports the same case. The first case always runs, however short the
/// time given: a run that tried nothing must not pass.
pub(super) fn search(
    engine: &Engine,
    started: Instant,
    on_event: &mut dyn FnMut(Event),
) -> anyhow::Result<Search> {
    let config = engine.config;
    let shared = Shared {
        deadline: config.time.map(|t| started + t),
        lowest_failure: AtomicU64::new(u64::MAX),
        harness_failed: AtomicBool::new(false),
        harness_error: Mutex::new(None),
        done: AtomicU64::new(0),
    };
    let mut failures: Vec<(u64, Found)> = Vec::new();
    crate::pool::run_steps(
        config.jobs,
        config.iterations.unwrap_or(u64::MAX),
        |index| shared.try_index(engine, index),
        |index| shared.admits(index),
        |index, found| failures.push((index, found)),
        || {
            on_event(Event::Progress {
                cases: shared.done.load(Ordering::SeqCst),
                elapsed: started.elapsed(),
            })
        },
    );
    if let Some(err) = shared.harness_error.into_inner().ok().flatten() {
        return Err(err);
    }
    let failure = failures
        .into_iter()
        .min_by_key(|(index, _)| *index)
        .map(|(_, f)| f);
    // Cases counted are the ones tried before the reported failure, and the failure itself.
    let cases = match &failure {
        Some(f) => f.cases,
        None => shared.done.load(Ordering::SeqCst),
    };
    Ok(Search { cases, failure })
}

/// What the workers of a search share.
struct Shared {
    deadline: Option<Instant>,
    lowest_failure: AtomicU64,
    harness_failed: AtomicBool,
    /// The first harness error, which ends the search.
    harness_error: Mutex<Option<anyhow::Error>>,
    /// Counted by the workers: a passing case wakes nobody.
    done: AtomicU64,
}

impl Shared {
    /// Tries the seed of `index`: a failure is delivered, a harness error stops the search.
    fn try_index(&self, engine: &Engine, index: u64) -> Step<Found> {
        let seed = engine.config.seeds.seed(index);
        let result = engine.try_seed(seed);
        if crate::run::cancelled() {
            // This run may have been killed by the interrupt: no verdict.
            return Step::Stop;
        }
        match result {
            Ok(None) => {
                self.done.fetch_add(1, Ordering::SeqCst);
                Step::Done
            }
            Ok(Some((case, expected, outcome))) => {
                self.lowest_failure.fetch_min(index, Ordering::SeqCst);
                self.done.fetch_add(1, Ordering::SeqCst);
                Step::Deliver(Found {
                    seed,
                    cases: index + 1,
                    case,
                    expected,
                    outcome,
                })
            }
            Err(err) => {
                if let Ok(mut e) = self.harness_error.lock() {
                    e.get_or_insert(err.context(format!("seed {seed}")));
                }
                self.harness_failed.store(true, Ordering::SeqCst);
                Step::Stop
            }
        }
    }

    /// Whether a worker may take `index`: not after a harness error, not past the lowest
    /// failure found so far, and past the deadline only the first.
    fn admits(&self, index: u64) -> bool {
        !self.harness_failed.load(Ordering::SeqCst)
            && (index == 0 || self.deadline.is_none_or(|d| Instant::now() < d))
            && index <= self.lowest_failure.load(Ordering::SeqCst)
    }
}
