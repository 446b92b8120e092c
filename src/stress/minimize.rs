//! Counterexample minimization: from a failing case to a small one that still fails the same
//! way, in seconds.
//!
//! The case's own passes ([`Shrinkable::pass`]) come first, most drastic first (the cleared
//! board, crops, chunks, single lines and pieces); each pass continues where it left off
//! after a success instead of starting over. Then all values are lowered together (shifted
//! down to 1, halved) while that still fails, and every value is bisected on its own: the
//! smallest value in `0..=v` that still fails, in about log2(v) probes. Rounds repeat until
//! one changes nothing; the result is then 1-minimal: no candidate of any pass fails, and no
//! value can be lowered by one.
//!
//! Probes run in batches on the worker pool, and the candidate kept is always the first
//! failing one in candidate order (bisection speculates on the next levels of its own
//! decision tree), so the result is the same for every number of workers. No case is probed
//! twice: every probed case's canonical text is remembered with its result.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use crate::problem::Instance;

/// A case the minimizer can reduce.
pub trait Shrinkable: Clone + Send + Sync {
    /// The canonical text: equal keys are the same case.
    fn key(&self) -> String;
    /// How many structural passes there are.
    fn passes(&self) -> usize;
    /// The candidates of one pass, most drastic first, each strictly smaller than `self`.
    fn pass(&self, pass: usize) -> Vec<Self>;
    /// How many values can be lowered one by one.
    fn slots(&self) -> usize;
    fn value(&self, slot: usize) -> i64;
    /// `self` with `slot` set to `value` (at most `self.value(slot)`).
    fn with_value(&self, slot: usize, value: i64) -> Self;
}

impl Shrinkable for Box<dyn Instance> {
    fn key(&self) -> String {
        self.to_input()
    }
    fn passes(&self) -> usize {
        self.shrink_passes()
    }
    fn pass(&self, pass: usize) -> Vec<Self> {
        self.shrink_pass(pass)
    }
    fn slots(&self) -> usize {
        self.value_slots()
    }
    fn value(&self, slot: usize) -> i64 {
        Instance::value(self.as_ref(), slot)
    }
    fn with_value(&self, slot: usize, value: i64) -> Self {
        Instance::with_value(self.as_ref(), slot, value)
    }
}

/// How long minimization may take.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Wall-clock bound for the whole minimization.
    pub time: Duration,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            time: Duration::from_secs(30),
        }
    }
}

/// What trying one candidate showed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Probe<P> {
    /// It still fails the same way; `P` is what the caller wants to keep of that run.
    Fails(P),
    /// It does not.
    Passes,
    /// Stop minimizing now (interrupted, or the harness failed) and keep the best so far.
    Stop,
}

/// Why minimization ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum End {
    /// A whole round changed nothing: no candidate fails, no value can be lowered by one.
    #[default]
    Minimal,
    /// The time budget ran out first.
    Budget,
    /// The probe said stop (an interrupt or a harness error).
    Stopped,
}

/// What minimization did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShrinkStats {
    /// Cases probed (each one a run of the program under test).
    pub runs: usize,
    /// Smaller failing cases kept.
    pub steps: usize,
    /// Rounds over every pass and value.
    pub rounds: usize,
    pub end: End,
}

/// The smallest failing case found, what the probe kept of it (`None` if no candidate
/// failed), and how it went.
pub struct Shrunk<S, P> {
    pub case: S,
    pub payload: Option<P>,
    pub stats: ShrinkStats,
}

/// Reduces `start` while `probe` says a smaller candidate still fails. `probe` is never
/// called on `start` itself: the caller has already seen it fail. `on_progress` sees the
/// current case and the figures after every batch of probes.
pub fn shrink<S: Shrinkable, P: Clone + Send>(
    start: S,
    jobs: usize,
    budget: Budget,
    probe: &(dyn Fn(&S) -> Probe<P> + Sync),
    on_progress: &mut dyn FnMut(&S, &ShrinkStats),
) -> Shrunk<S, P> {
    let mut driver = Driver {
        jobs: jobs.max(1),
        deadline: Instant::now() + budget.time,
        probe,
        on_progress,
        passed: HashSet::new(),
        failed: HashMap::new(),
        stats: ShrinkStats::default(),
        stopped: false,
        current: start,
        payload: None,
    };
    (driver.on_progress)(&driver.current, &driver.stats);
    driver.run();
    Shrunk {
        case: driver.current,
        payload: driver.payload,
        stats: driver.stats,
    }
}

struct Driver<'a, S, P> {
    jobs: usize,
    deadline: Instant,
    probe: &'a (dyn Fn(&S) -> Probe<P> + Sync),
    on_progress: &'a mut dyn FnMut(&S, &ShrinkStats),
    /// Keys of probed cases that passed.
    passed: HashSet<String>,
    /// Keys of probed cases that failed, with what the probe kept.
    failed: HashMap<String, P>,
    stats: ShrinkStats,
    /// Set once the budget ran out or the probe said stop.
    stopped: bool,
    current: S,
    payload: Option<P>,
}

/// A probed candidate's result.
enum Known<P> {
    Fails(P),
    Passes,
}

impl<S: Shrinkable, P: Clone + Send> Driver<'_, S, P> {
    fn run(&mut self) {
        loop {
            self.stats.rounds += 1;
            let mut changed = false;
            for pass in 0..self.current.passes() {
                let mut from = 0;
                while !self.stopped {
                    let candidates = self.current.pass(pass);
                    let Some((at, case, payload)) = self.first_failing(candidates, from) else {
                        break;
                    };
                    self.accept(case, payload);
                    changed = true;
                    // Continue where this pass left off, on the new case's candidates.
                    from = at;
                }
            }
            while !self.stopped {
                let candidates = all_values_lowered(&self.current);
                let Some((_, case, payload)) = self.first_failing(candidates, 0) else {
                    break;
                };
                self.accept(case, payload);
                changed = true;
            }
            let mut slot = 0;
            while !self.stopped && slot < self.current.slots() {
                changed |= self.lower_value(slot);
                slot += 1;
            }
            if self.stopped {
                return;
            }
            if !changed {
                self.stats.end = End::Minimal;
                return;
            }
        }
    }

    fn accept(&mut self, case: S, payload: P) {
        self.current = case;
        self.payload = Some(payload);
        self.stats.steps += 1;
        (self.on_progress)(&self.current, &self.stats);
    }

    /// Probes `cases` (those not probed before) in parallel; `None` for those not run because
    /// the budget ran out or the probe said stop.
    fn probe_batch(&mut self, cases: &[S]) -> Vec<Option<Known<P>>> {
        let keys: Vec<String> = cases.iter().map(S::key).collect();
        let mut results: Vec<Option<Known<P>>> = keys
            .iter()
            .map(|k| {
                if self.passed.contains(k) {
                    Some(Known::Passes)
                } else {
                    self.failed.get(k).cloned().map(Known::Fails)
                }
            })
            .collect();
        let unknown: Vec<usize> = (0..cases.len()).filter(|&i| results[i].is_none()).collect();
        if unknown.is_empty() {
            return results;
        }
        if Instant::now() >= self.deadline {
            self.stats.end = End::Budget;
            self.stopped = true;
            return results;
        }
        let probe = self.probe;
        let probed = crate::pool::map(self.jobs, &unknown, |&i| Some(probe(&cases[i])));
        self.stats.runs += unknown.len();
        for (&i, outcome) in unknown.iter().zip(probed) {
            match outcome {
                Some(Probe::Fails(p)) => {
                    self.failed.insert(keys[i].clone(), p.clone());
                    results[i] = Some(Known::Fails(p));
                }
                Some(Probe::Passes) => {
                    self.passed.insert(keys[i].clone());
                    results[i] = Some(Known::Passes);
                }
                Some(Probe::Stop) | None => {
                    self.stats.end = End::Stopped;
                    self.stopped = true;
                }
            }
        }
        (self.on_progress)(&self.current, &self.stats);
        results
    }

    /// The first candidate at or after `from` that fails, probing in batches of `jobs`.
    fn first_failing(&mut self, candidates: Vec<S>, from: usize) -> Option<(usize, S, P)> {
        let mut at = from;
        while at < candidates.len() && !self.stopped {
            // The batch: the next candidates, up to `jobs` of them not yet probed.
            let mut end = at;
            let mut fresh = 0;
            while end < candidates.len() && fresh < self.jobs {
                let key = candidates[end].key();
                if !self.passed.contains(&key) && !self.failed.contains_key(&key) {
                    fresh += 1;
                }
                end += 1;
            }
            let results = self.probe_batch(&candidates[at..end]);
            for (offset, result) in results.into_iter().enumerate() {
                match result {
                    Some(Known::Fails(p)) => {
                        let index = at + offset;
                        return Some((index, candidates[index].clone(), p));
                    }
                    Some(Known::Passes) => {}
                    // Not run: everything after it is unknown too.
                    None => return None,
                }
            }
            at = end;
        }
        None
    }

    /// Lowers the value in `slot` to the smallest that still fails: 0 first, then bisection
    /// of (0, v], speculating on as many levels of the decision tree as there are workers.
    fn lower_value(&mut self, slot: usize) -> bool {
        let v = self.current.value(slot);
        if v <= 0 {
            return false;
        }
        let zero = self.current.with_value(slot, 0);
        if let Some((_, case, payload)) = self.first_failing(vec![zero], 0) {
            self.accept(case, payload);
            return true;
        }
        let (mut lo, mut hi) = (0i64, v);
        let mut best: Option<(S, P)> = None;
        while hi - lo > 1 && !self.stopped {
            // The mids of the decision tree below (lo, hi), breadth first.
            let mut nodes = vec![(lo, hi)];
            let mut mids = Vec::new();
            let mut next = 0;
            while mids.len() < self.jobs && next < nodes.len() {
                let (l, h) = nodes[next];
                next += 1;
                if h - l <= 1 {
                    continue;
                }
                let m = l + (h - l) / 2;
                mids.push(m);
                nodes.push((l, m));
                nodes.push((m, h));
            }
            let cases: Vec<S> = mids
                .iter()
                .map(|&m| self.current.with_value(slot, m))
                .collect();
            let mut results: HashMap<i64, (S, Known<P>)> = HashMap::new();
            for ((m, case), result) in mids.iter().zip(cases.clone()).zip(self.probe_batch(&cases))
            {
                if let Some(known) = result {
                    results.insert(*m, (case, known));
                }
            }
            let before = (lo, hi);
            while hi - lo > 1 {
                let m = lo + (hi - lo) / 2;
                match results.remove(&m) {
                    Some((case, Known::Fails(p))) => {
                        hi = m;
                        best = Some((case, p));
                    }
                    Some((_, Known::Passes)) => lo = m,
                    None => break,
                }
            }
            if (lo, hi) == before {
                break;
            }
        }
        match best {
            Some((case, payload)) => {
                self.accept(case, payload);
                true
            }
            None => false,
        }
    }
}

/// Every value lowered at once, keeping what comparisons between values see: all nonzero
/// values shifted down so that the smallest becomes 1 (differences kept exactly), then all
/// values halved (order kept, up to ties). Bugs that compare values (greed, ties) then reach
/// small numbers in a few steps, where one value at a time could not move without the others.
fn all_values_lowered<S: Shrinkable>(case: &S) -> Vec<S> {
    let values: Vec<i64> = (0..case.slots()).map(|slot| case.value(slot)).collect();
    let apply = |f: &dyn Fn(i64) -> i64| {
        let mut next = case.clone();
        let mut lowered = false;
        for (slot, &v) in values.iter().enumerate() {
            let w = f(v);
            if w != v {
                next = next.with_value(slot, w);
                lowered = true;
            }
        }
        lowered.then_some(next)
    };
    let mut out = Vec::new();
    if let Some(low) = values.iter().copied().filter(|&v| v > 0).min()
        && low > 1
        && let Some(shifted) = apply(&|v| if v > 0 { v - (low - 1) } else { v })
    {
        out.push(shifted);
    }
    if let Some(halved) = apply(&|v| v / 2) {
        out.push(halved);
    }
    out
}

#[cfg(test)]
// The minimizer's case type here is `Box<dyn Instance>` itself, so probes take `&Box<..>`.
#[allow(clippy::borrowed_box)]
pub(crate) mod tests {
    use super::*;
    use crate::problem::{CHESSBOARD, Cases, Chess, ChessProblem, ChessboardProblem, Problem};
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn chess(rows_a: &[&[i64]], rows_b: &[&[i64]]) -> Box<dyn Instance> {
        Box::new(Cases::<ChessProblem>::single(Chess {
            n: rows_a.len(),
            m: rows_a[0].len(),
            a: rows_a.iter().map(|r| r.to_vec()).collect(),
            b: rows_b.iter().map(|r| r.to_vec()).collect(),
        }))
    }

    fn board(i: &Box<dyn Instance>) -> &Chess {
        i.first_case::<ChessProblem>().unwrap()
    }

    /// Shrinks `start` with the default budget while `fails` holds.
    pub(crate) fn run<S: Shrinkable>(
        start: S,
        jobs: usize,
        fails: impl Fn(&S) -> bool + Sync,
    ) -> Shrunk<S, ()> {
        shrink(
            start,
            jobs,
            Budget::default(),
            &|c: &S| {
                if fails(c) {
                    Probe::Fails(())
                } else {
                    Probe::Passes
                }
            },
            &mut |_, _| {},
        )
    }

    #[test]
    fn shrinks_to_the_smallest_case_with_the_property() {
        // "Fails" whenever some A value is at least 50: the minimum is a 1×1 board with A = 50.
        let start = chess(
            &[&[1, 2, 3], &[4, 99, 6], &[7, 8, 60]],
            &[&[9, 9, 9], &[9, 9, 9], &[9, 9, 9]],
        );
        let fails = |i: &Box<dyn Instance>| board(i).a.iter().flatten().any(|&v| v >= 50);
        let out = run(start, 1, fails);
        assert_eq!(out.case.to_input(), "1 1\n50\n0\n");
        assert_eq!(out.stats.end, End::Minimal);
        assert!(out.stats.steps > 0);
    }

    #[test]
    fn the_result_does_not_depend_on_the_workers() {
        // A property that is not monotone in the values: the sum of A is odd and above 1000.
        let start = chess(
            &[&[901, 2, 3, 77], &[4, 99, 6, 5], &[7, 8, 60, 1]],
            &[&[9, 9, 9, 3], &[9, 9, 9, 3], &[9, 9, 9, 3]],
        );
        let fails = |i: &Box<dyn Instance>| {
            let c = board(i);
            let sum: i64 = c.a.iter().flatten().sum();
            sum % 2 == 1 && sum > 1000
        };
        let one = run(start.clone(), 1, fails);
        for jobs in [2, 3, 4, 8] {
            let many = run(start.clone(), jobs, fails);
            assert_eq!(many.case.to_input(), one.case.to_input(), "jobs {jobs}");
        }
        assert!(fails(&one.case));
    }

    #[test]
    fn no_case_is_probed_twice() {
        let start = chess(&[&[5, 3], &[2, 8]], &[&[4, 4], &[0, 7]]);
        let seen = std::sync::Mutex::new(HashSet::new());
        let repeats = AtomicUsize::new(0);
        let out = run(start, 2, |c| {
            if !seen.lock().unwrap().insert(c.to_input()) {
                repeats.fetch_add(1, Ordering::SeqCst);
            }
            board(c).a.iter().flatten().sum::<i64>() >= 7
        });
        assert_eq!(repeats.load(Ordering::SeqCst), 0);
        assert_eq!(out.stats.runs, seen.lock().unwrap().len());
        assert_eq!(out.case.to_input(), "1 1\n7\n0\n");
    }

    #[test]
    fn bisection_finds_a_threshold_in_logarithmic_probes() {
        let start = chess(&[&[100_000]], &[&[0]]);
        let out = run(start, 1, |c| c.value(0) >= 31_337);
        assert_eq!(out.case.to_input(), "1 1\n31337\n0\n");
        assert!(out.stats.runs <= 2 * 18, "{} runs", out.stats.runs);
    }

    #[test]
    fn an_empty_board_is_tried_first() {
        // Crashes on every 12×12 board: clearing all pieces is one probe.
        let text = CHESSBOARD.sample().0;
        let mut board = CHESSBOARD
            .parse(text.as_bytes(), &CHESSBOARD.default_bounds())
            .unwrap()
            .first_case::<ChessboardProblem>()
            .unwrap()
            .clone();
        let n = 12;
        board.n = n;
        board.cells = vec![vec![crate::problem::Cell::White; n]; n];
        board.weights = vec![vec![7; n]; n];
        let start = Box::new(Cases::<ChessboardProblem>::single(board)) as Box<dyn Instance>;
        let out = run(start, 2, |c| {
            c.first_case::<ChessboardProblem>().unwrap().n == 12
        });
        let small = out.case.first_case::<ChessboardProblem>().unwrap();
        assert_eq!((small.n, small.pieces()), (12, 0));
        assert!(out.stats.runs < 60, "{} runs", out.stats.runs);
    }

    #[test]
    fn stops_when_the_probe_says_so_and_keeps_the_best_so_far() {
        let start = chess(&[&[1, 2], &[3, 4]], &[&[5, 6], &[7, 8]]);
        let calls = AtomicUsize::new(0);
        let out = shrink(
            start.clone(),
            1,
            Budget::default(),
            &|_: &Box<dyn Instance>| {
                if calls.fetch_add(1, Ordering::SeqCst) == 0 {
                    Probe::Fails(())
                } else {
                    Probe::Stop
                }
            },
            &mut |_, _| {},
        );
        assert_eq!(calls.load(Ordering::SeqCst), 2);
        assert_eq!(out.stats.end, End::Stopped);
        assert_eq!(out.stats.steps, 1);
        assert!(out.case.size() < start.size());
    }

    #[test]
    fn respects_the_time_budget() {
        let start = chess(&[&[1, 2], &[3, 4]], &[&[5, 6], &[7, 8]]);
        let out = shrink(
            start,
            1,
            Budget {
                time: Duration::ZERO,
            },
            &|_: &Box<dyn Instance>| Probe::<()>::Fails(()),
            &mut |_, _| {},
        );
        assert_eq!(out.stats.end, End::Budget);
        assert_eq!(out.stats.runs, 0);
    }
}
