//! Counterexample minimization: greedy reduction of a failing instance through its game's
//! shrink candidates (fewer rows and columns, fewer pieces, smaller values) while a
//! caller-supplied probe still fails.
//!
//! Every candidate is strictly smaller than its parent in (cells, pieces, sum of values), in
//! that order, and stays inside the original bounds, so the search always terminates and
//! the result is as valid as the input.

use std::time::{Duration, Instant};

use crate::problem::Instance;

/// How much effort minimization may spend.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Most candidate cases tried (each one is a run of the program under test).
    pub max_attempts: usize,
    /// Wall-clock bound for the whole minimization.
    pub max_time: Duration,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_attempts: 5000,
            max_time: Duration::from_secs(60),
        }
    }
}

/// What minimization did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShrinkStats {
    /// Candidates tried.
    pub attempts: usize,
    /// Candidates that still failed and were kept.
    pub steps: usize,
    /// Stopped by the budget rather than by reaching a case no candidate improves.
    pub exhausted: bool,
    /// Stopped because the probe said so.
    pub stopped: bool,
}

/// What trying one candidate showed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probe {
    /// It still fails the same way: keep it.
    Fails,
    /// It does not: try the next one.
    Passes,
    /// Stop minimizing now (interrupted, or the harness failed) and keep the best so far.
    Stop,
}

/// Reduces `start` as long as `probe` says a smaller candidate still fails. `probe` is never
/// called on `start` itself: the caller has already seen it fail.
pub fn shrink(
    start: &dyn Instance,
    budget: Budget,
    probe: &mut dyn FnMut(&dyn Instance) -> Probe,
) -> (Box<dyn Instance>, ShrinkStats) {
    let started = Instant::now();
    let mut current = start.clone_box();
    let mut stats = ShrinkStats::default();
    loop {
        let mut next = None;
        for candidate in current.shrink_candidates() {
            if stats.attempts >= budget.max_attempts || started.elapsed() >= budget.max_time {
                stats.exhausted = true;
                break;
            }
            match probe(candidate.as_ref()) {
                Probe::Fails => {
                    stats.attempts += 1;
                    next = Some(candidate);
                    break;
                }
                Probe::Passes => stats.attempts += 1,
                Probe::Stop => {
                    stats.stopped = true;
                    break;
                }
            }
        }
        if stats.stopped {
            break;
        }
        match next {
            // Restart from the most drastic reductions of the new, smaller case.
            Some(smaller) => {
                current = smaller;
                stats.steps += 1;
            }
            None => break,
        }
    }
    (current, stats)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::problem::Chess;

    fn chess(rows_a: &[&[i64]], rows_b: &[&[i64]]) -> Box<dyn Instance> {
        Box::new(Chess {
            n: rows_a.len(),
            m: rows_a[0].len(),
            a: rows_a.iter().map(|r| r.to_vec()).collect(),
            b: rows_b.iter().map(|r| r.to_vec()).collect(),
        })
    }

    #[test]
    fn shrinks_to_the_smallest_case_with_the_property() {
        // "Fails" whenever some A value is at least 50: the minimum is a 1×1 board with A = 50.
        let start = chess(
            &[&[1, 2, 3], &[4, 99, 6], &[7, 8, 60]],
            &[&[9, 9, 9], &[9, 9, 9], &[9, 9, 9]],
        );
        let mut fails = |i: &dyn Instance| match i.downcast_ref::<Chess>() {
            Some(c) if c.a.iter().flatten().any(|&v| v >= 50) => Probe::Fails,
            _ => Probe::Passes,
        };
        let (small, stats) = shrink(start.as_ref(), Budget::default(), &mut fails);
        assert_eq!(small.to_input(), chess(&[&[50]], &[&[0]]).to_input());
        assert!(!stats.exhausted);
        assert!(stats.steps > 0);
    }

    #[test]
    fn respects_the_attempt_budget() {
        let start = chess(&[&[1, 2], &[3, 4]], &[&[5, 6], &[7, 8]]);
        let mut calls = 0;
        let budget = Budget {
            max_attempts: 3,
            max_time: Duration::from_secs(60),
        };
        let (_, stats) = shrink(start.as_ref(), budget, &mut |_| {
            calls += 1;
            Probe::Passes
        });
        assert_eq!(calls, 3);
        assert!(stats.exhausted);
    }

    #[test]
    fn stops_when_the_probe_says_so_and_keeps_the_best_so_far() {
        let start = chess(&[&[1, 2], &[3, 4]], &[&[5, 6], &[7, 8]]);
        let mut calls = 0;
        let (kept, stats) = shrink(start.as_ref(), Budget::default(), &mut |_| {
            calls += 1;
            if calls == 1 {
                Probe::Fails
            } else {
                Probe::Stop
            }
        });
        assert_eq!(calls, 2);
        assert!(stats.stopped && !stats.exhausted);
        assert_eq!((stats.steps, stats.attempts), (1, 1));
        assert!(kept.size() < start.size());
    }
}
