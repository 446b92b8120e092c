//! Counterexample minimization: from a failing case to a small one that still fails the same
//! way, in seconds, with memory and time that grow like the case, not like its square.
//!
//! The case's own passes ([`Shrinkable::pass`]) come first, most drastic first (whole test
//! cases, halves and then smaller chunks of the longest lists, lines, single items); each
//! pass continues where it left off after a success instead of starting over. Then the
//! values: all lowered together (shifted down to 1, divided by their greatest common divisor,
//! halved), chunks of them set to 0, and
//! every value bisected on its own toward 0 from either sign: the smallest magnitude that
//! still fails, in about log2(|v|) probes. A late pass ([`Shrinkable::late`], candidates
//! that are rarely valid) is tried only once all the others have settled. Rounds repeat
//! until one changes nothing; the result is then 1-minimal: no candidate of any pass fails,
//! and no value can move toward 0 by one. When minimization ends before that (the budget,
//! an interrupt), the passes that had not gone over all their candidates on the final case
//! are named ([`PassReport`]).
//!
//! Candidates are made one at a time from the pass's compact description
//! ([`Candidates`]), only when they are about to be probed: a pass over a case of 2·10^5
//! numbers offers hundreds of thousands of candidates but holds at most one batch of them.
//! Probes run in batches of one per worker, and the candidate kept is always the first
//! failing one in candidate order (bisection speculates on the next levels of its own
//! decision tree), so the result is the same for every number of workers. No case is probed
//! twice: every probed case's fingerprint is remembered with its result (not the case, nor
//! what its run printed). The time budget and the interrupt are checked before every probe
//! and between candidates, so both hold within one probe's time.

use std::collections::HashMap;
use std::hash::Hasher;
use std::time::{Duration, Instant};

use crate::problem::Instance;
pub use crate::problem::shrink::Candidates;
use crate::problem::shrink::ChunkLevels;

/// A case the minimizer can reduce.
pub trait Shrinkable: Clone + Send + Sync {
    /// A hash of the canonical text ([`fingerprint`]): cases with equal fingerprints are
    /// taken to be the same case.
    fn fingerprint(&self) -> u64;
    /// How many structural passes there are.
    fn passes(&self) -> usize;
    /// What one pass does, for reports: `items of counted lists`.
    fn pass_name(&self, pass: usize) -> String {
        format!("structural pass {}", pass + 1)
    }
    /// The candidates of one pass, most drastic first, each smaller than `self`.
    fn pass(&self, pass: usize) -> Candidates<'_, Self>;
    /// Whether a pass is tried only once every other pass and the values have settled on
    /// the case: its candidates rarely fail (they are mostly invalid inputs) but must be
    /// tried before the case is called 1-minimal.
    fn late(&self, _pass: usize) -> bool {
        false
    }
    /// Candidates this case has but that are not offered, and why: the minimum is then
    /// reached among the candidates tried only.
    fn not_tried(&self) -> Vec<(String, String)> {
        Vec::new()
    }
    /// How many values can be lowered one by one.
    /// Whether minimization ends after a round that kept no smaller case, rather than
    /// going on until every pass has gone over all its candidates: for a case whose probes
    /// are costly and whose shrinking another phase takes over (a generator's choices, the
    /// text after them).
    fn ends_when_idle(&self) -> bool {
        false
    }

    fn slots(&self) -> usize;
    fn value(&self, slot: usize) -> i64;
    /// `self` with each `(slot, value)` of `changes` set, made in one copy; every new value
    /// lies between 0 and the slot's value.
    fn with_values(&self, changes: &[(usize, i64)]) -> Self;
    /// How big the case is (its text's length, say): what a pass's success is worth, for
    /// the order of the passes ([`Driver::order`]). 0 leaves the passes in their order.
    fn weight(&self) -> usize {
        0
    }
}

/// The fingerprint of a canonical text.
pub fn fingerprint(text: &[u8]) -> u64 {
    let mut hasher = std::hash::DefaultHasher::new();
    hasher.write(text);
    hasher.finish()
}

impl Shrinkable for Box<dyn Instance> {
    fn fingerprint(&self) -> u64 {
        fingerprint(self.to_input().as_bytes())
    }
    fn passes(&self) -> usize {
        self.shrink_passes()
    }
    fn pass(&self, pass: usize) -> Candidates<'_, Self> {
        self.shrink_pass(pass)
    }
    fn slots(&self) -> usize {
        self.value_slots()
    }
    fn value(&self, slot: usize) -> i64 {
        Instance::value(self.as_ref(), slot)
    }
    fn with_values(&self, changes: &[(usize, i64)]) -> Self {
        let mut next = self.clone();
        for &(slot, value) in changes {
            next = Instance::with_value(next.as_ref(), slot, value);
        }
        next
    }
    fn weight(&self) -> usize {
        self.to_input().len()
    }
}

/// How long minimization may take.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Wall-clock bound for the whole minimization, checked before every probe.
    pub time: Duration,
    /// How long a probe is known to take at least before any has run: a case that failed
    /// by its time or memory limit took this long, and so may each candidate. No probe
    /// starts that could not end within the budget, the first included.
    pub probe: Duration,
}

impl Budget {
    /// A budget of `time`, its probes of unknown length.
    pub fn of(time: Duration) -> Budget {
        Budget {
            time,
            probe: Duration::ZERO,
        }
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget::of(Duration::from_secs(30))
    }
}

/// What trying one candidate showed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Probe<P> {
    /// It still fails the same way; `P` is what the caller wants to keep of that run.
    Fails(P),
    /// It does not.
    Passes,
    /// It is no valid input, known without running it: not counted as a run.
    Invalid,
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
    /// A round kept no smaller case ([`Shrinkable::ends_when_idle`]): handed over.
    Idle,
}

/// How far each pass got on the case minimization ended with.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PassReport {
    /// The passes (and value lowerings) that had not gone over all their candidates on the
    /// final case when minimization ended: the budget ran out, or it was stopped.
    pub cut_short: Vec<String>,
    /// Candidates the final case has that were not offered, and why ([`Shrinkable::not_tried`]).
    pub not_tried: Vec<(String, String)>,
    /// The passes that offered candidates, by name, and the value lowerings when the case
    /// had values: what "no smaller candidate fails" speaks of.
    pub tried: Vec<String>,
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
    /// When the last smaller case was kept: the case it ends with was reached then, and the
    /// time after it went to confirming it.
    pub last_step: Option<Instant>,
}

/// The smallest failing case found, what the probe kept of it (`None` if no candidate
/// failed), and how it went.
pub struct Shrunk<S, P> {
    pub case: S,
    pub payload: Option<P>,
    pub stats: ShrinkStats,
    pub passes: PassReport,
}

impl<S, P> Shrunk<S, P> {
    /// Whether the case is 1-minimal: every pass went over all its candidates on it with none
    /// failing, and every candidate it has was offered.
    pub fn one_minimal(&self) -> bool {
        self.stats.end == End::Minimal && self.passes.not_tried.is_empty()
    }
}

/// Reduces `start` while `probe` says a smaller candidate still fails. `probe` is never
/// called on `start` itself: the caller has already seen it fail. `on_progress` sees the
/// current case and the figures after every batch of probes. `stop` is asked before every
/// probe and between candidates (an interrupt): once it says so, minimization ends with the
/// smallest case so far.
pub fn shrink<S: Shrinkable, P: Send>(
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
        known: HashMap::new(),
        stats: ShrinkStats::default(),
        stopped: false,
        payload: None,
        longest: budget.probe,
        gains: Vec::new(),
        settled: HashMap::new(),
    };
    let mut current = start;
    let had_values = current.slots() > 0;
    (driver.on_progress)(&current, &driver.stats);
    let cut_short = driver.run(&mut current);
    let mut tried: Vec<String> = (0..current.passes())
        .filter(|&pass| driver.gains.get(pass).is_some_and(|g| g.looked > 0))
        .map(|pass| current.pass_name(pass))
        .collect();
    if had_values {
        tried.extend(VALUE_PARTS.iter().map(|p| p.to_string()));
    }
    let passes = PassReport {
        cut_short,
        not_tried: current.not_tried(),
        tried,
    };
    Shrunk {
        case: current,
        payload: driver.payload,
        stats: driver.stats,
        passes,
    }
}

/// The names of the value lowerings that follow the passes, for reports.
const VALUE_PARTS: [&str; 3] = [
    "values lowered together",
    "chunks of values set to 0",
    "single values lowered",
];

struct Driver<'a, S, P> {
    jobs: usize,
    deadline: Instant,
    probe: &'a (dyn Fn(&S) -> Probe<P> + Sync),
    on_progress: &'a mut dyn FnMut(&S, &ShrinkStats),
    /// Fingerprints of probed cases, and whether each failed. The failing ones' payloads are
    /// not kept (a payload holds a whole run's answer): one chosen later is probed again.
    known: HashMap<u64, bool>,
    stats: ShrinkStats,
    /// Set once the budget ran out or the probe said stop.
    stopped: bool,
    payload: Option<P>,
    /// The longest a probe has taken: no probe starts that could not end within the budget
    /// (a probe of a case that runs into its time limit takes all of it).
    longest: Duration,
    /// What each structural pass has gained so far.
    gains: Vec<Gain>,
    /// The value each slot's last whole bisection ended at: a later sweep that finds the
    /// slot still at that value tries one less before bisecting it again.
    settled: HashMap<usize, i64>,
}

/// What one structural pass gained: candidates looked at (in their order, whatever the
/// workers: the same for any number of them) and the weight its successes took off.
#[derive(Clone, Copy, Debug, Default)]
struct Gain {
    looked: usize,
    removed: usize,
}

impl Gain {
    /// Weight taken off per candidate looked at, in millionths; `None` before the pass has
    /// been tried.
    fn rate(&self) -> Option<u128> {
        (self.looked > 0).then(|| self.removed as u128 * 1_000_000 / self.looked as u128)
    }
}

/// A failing candidate: its index in its pass, the case, and what its probe kept.
type Found<S, P> = (usize, S, P);

/// What became of one candidate of a batch.
enum Tried<S, P> {
    /// Not applicable here, the current case itself, or known to pass.
    Skipped,
    /// Probed: the case, its fingerprint, what the probe said and how long it took.
    Probed(S, u64, Probe<P>, Duration),
}

/// How many candidates of a long pass a round tries past its start or its last success.
const WINDOW: usize = 64;
/// A pass of at most this many candidates is tried whole in each round: the passes of a
/// board or a small text keep their order (structure before values) exactly.
const WHOLE_PASS: usize = 1024;
/// How many single values a round lowers.
const SLOT_WINDOW: usize = 16;

/// Where one part of the minimization stands across rounds.
#[derive(Clone, Copy, Debug, Default)]
struct Progress {
    /// The candidate (or slot) the next round starts at.
    resume: usize,
    /// The step count when the current sweep from the first candidate began.
    since: Option<usize>,
    /// The step count when a sweep last went over every candidate with none failing.
    done_at: Option<usize>,
}

impl Progress {
    fn begin(&mut self, steps: usize) {
        if self.resume == 0 {
            self.since = Some(steps);
        }
    }

    /// The round stops at `end`; `exhausted` when no candidate is left after it.
    fn end(&mut self, end: usize, exhausted: bool, steps: usize) {
        if exhausted {
            if self.since == Some(steps) {
                self.done_at = Some(steps);
            }
            self.resume = 0;
        } else {
            self.resume = end;
        }
    }
}

impl<S: Shrinkable, P: Send> Driver<'_, S, P> {
    /// Minimizes `current` in place; the names of the parts that had not gone over all their
    /// candidates on the final case (none when it ends minimal).
    fn run(&mut self, current: &mut S) -> Vec<String> {
        // Each pass, then the lowering of all values, the zeroing of chunks of them and the
        // lowering of single values: where each resumes, and when it last went over all its
        // candidates with none failing.
        let mut progress = vec![Progress::default(); current.passes() + 3];
        loop {
            self.stats.rounds += 1;
            let round_began = self.stats.steps;
            let passes = current.passes();
            for pass in self.order(passes) {
                if current.late(pass) {
                    continue;
                }
                let before = (current.weight(), self.stats.steps);
                let looked = self.repeat(current, |case| case.pass(pass), &mut progress[pass]);
                let gain = &mut self.gains[pass];
                gain.looked += looked;
                if self.stats.steps > before.1 {
                    gain.removed += before.0.saturating_sub(current.weight());
                }
            }
            self.repeat(current, all_values_lowered, &mut progress[passes]);
            self.repeat(current, values_zeroed, &mut progress[passes + 1]);
            self.lower_values(current, &mut progress[passes + 2]);
            let now = self.stats.steps;
            if current.ends_when_idle() && now == round_began && !self.stopped {
                // Whatever the passes have left, they are left to the phase after.
                let finished = progress.iter().all(|p| p.done_at == Some(now));
                if !finished {
                    self.stats.end = End::Idle;
                    return (0..progress.len())
                        .filter(|&part| progress[part].done_at != Some(now))
                        .filter(|&part| offers(current, part))
                        .map(|part| match part.checked_sub(passes) {
                            None => current.pass_name(part),
                            Some(value) => VALUE_PARTS[value].to_string(),
                        })
                        .collect();
                }
            }
            let settled = (0..progress.len())
                .filter(|&part| part >= passes || !current.late(part))
                .all(|part| progress[part].done_at == Some(now));
            if settled {
                for (pass, part) in progress.iter_mut().take(passes).enumerate() {
                    if current.late(pass) {
                        let looked = self.repeat(current, |case| case.pass(pass), part);
                        self.gains[pass].looked += looked;
                    }
                }
            }
            let now = self.stats.steps;
            if self.stopped {
                return (0..progress.len())
                    .filter(|&part| progress[part].done_at != Some(now))
                    .filter(|&part| offers(current, part))
                    .map(|part| match part.checked_sub(passes) {
                        None => current.pass_name(part),
                        Some(value) => VALUE_PARTS[value].to_string(),
                    })
                    .collect();
            }
            // Minimal once every part has gone over all its candidates since the last change.
            if progress.iter().all(|p| p.done_at == Some(now)) {
                self.stats.end = End::Minimal;
                return Vec::new();
            }
        }
    }

    /// The structural passes in the order of their expected gain: those not tried yet first,
    /// in their own order (most drastic first), then by the weight each took off per
    /// candidate it looked at, most first, ties in their own order. A pass that kept
    /// failing to shrink anything (a case of one test case has no test case to drop) stops
    /// going before those that pay.
    fn order(&mut self, passes: usize) -> Vec<usize> {
        self.gains
            .resize(passes.max(self.gains.len()), Gain::default());
        let mut order: Vec<usize> = (0..passes).collect();
        order.sort_by_key(|&pass| match self.gains[pass].rate() {
            None => (0, 0, pass),
            Some(rate) => (1, u128::MAX - rate, pass),
        });
        order
    }

    /// Takes the first failing candidate of `candidates(current)` as long as there is one,
    /// each time continuing where the last one was found, from where the last round left
    /// off. In a pass of more than [`WHOLE_PASS`] candidates, at most [`WINDOW`] are tried
    /// past a success (or the start) before the round moves on, so that a pass of 4·10^5
    /// candidates that mostly pass cannot keep the others waiting; the next round picks it up
    /// there. Returns how many candidates it looked at.
    fn repeat(
        &mut self,
        current: &mut S,
        candidates: impl for<'c> Fn(&'c S) -> Candidates<'c, S>,
        progress: &mut Progress,
    ) -> usize {
        progress.begin(self.stats.steps);
        let mut from = progress.resume;
        let mut looked = 0;
        // Checked before the candidates are made: listing those of a case of 2·10^5 numbers
        // takes a while, which a budget already spent has not got.
        while !self.out_of_time() {
            let found = {
                let offered = candidates(current);
                let end = if offered.len() <= WHOLE_PASS {
                    offered.len()
                } else {
                    (from + WINDOW).min(offered.len())
                };
                if from >= end {
                    Err((0, true))
                } else {
                    self.first_failing(current, &offered, from, end)
                        .map_err(|()| (end, end == offered.len()))
                }
            };
            match found {
                Ok((at, case, payload)) => {
                    looked += at + 1 - from;
                    self.accept(current, case, payload);
                    from = at;
                }
                Err((end, exhausted)) => {
                    looked += end.saturating_sub(from);
                    progress.end(end, exhausted && !self.stopped, self.stats.steps);
                    return looked;
                }
            }
        }
        looked
    }

    /// Moves single values toward 0, [`SLOT_WINDOW`] of them a round, from where the last
    /// round left off.
    fn lower_values(&mut self, current: &mut S, progress: &mut Progress) {
        progress.begin(self.stats.steps);
        let mut slot = progress.resume;
        let end = (slot + SLOT_WINDOW).min(current.slots());
        while !self.stopped && slot < end {
            self.lower_value(current, slot);
            slot += 1;
        }
        let exhausted = slot >= current.slots() && !self.stopped;
        progress.end(slot, exhausted, self.stats.steps);
    }

    fn accept(&mut self, current: &mut S, case: S, payload: P) {
        *current = case;
        self.payload = Some(payload);
        self.stats.steps += 1;
        self.stats.last_step = Some(Instant::now());
        (self.on_progress)(current, &self.stats);
    }

    /// Whether minimization must end now: the budget is spent or the run is interrupted.
    fn out_of_time(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if crate::run::cancelled() {
            self.stats.end = End::Stopped;
            self.stopped = true;
        } else if Instant::now() >= self.last_start() {
            self.stats.end = End::Budget;
            self.stopped = true;
        }
        self.stopped
    }

    /// The last moment a probe may start: one that takes as long as the longest so far
    /// still ends within the budget.
    fn last_start(&self) -> Instant {
        self.deadline
            .checked_sub(self.longest)
            .unwrap_or(self.deadline)
    }

    /// The first candidate in `from..end` that fails, probing those not known to pass; `Err`
    /// when none does (or the budget ran out). Candidates are made, fingerprinted and probed
    /// on the workers, a batch of `jobs` at a time: making a candidate of a large case costs
    /// about as much as running a program on it.
    fn first_failing(
        &mut self,
        current: &S,
        candidates: &Candidates<'_, S>,
        from: usize,
        end: usize,
    ) -> Result<Found<S, P>, ()> {
        let here = current.fingerprint();
        let end = end.min(candidates.len());
        let mut at = from;
        while at < end {
            if self.out_of_time() {
                return Err(());
            }
            let batch: Vec<usize> = (at..end.min(at + self.jobs)).collect();
            at += batch.len();
            let (probe, deadline, known) = (self.probe, self.last_start(), &self.known);
            let results = crate::pool::map(self.jobs, &batch, |&index| {
                let Some(case) = candidates.get(index) else {
                    return Some(Tried::Skipped);
                };
                let key = case.fingerprint();
                if key == here || known.get(&key) == Some(&false) {
                    return Some(Tried::Skipped);
                }
                if Instant::now() >= deadline || crate::run::cancelled() {
                    return None;
                }
                let started = Instant::now();
                let result = probe(&case);
                Some(Tried::Probed(case, key, result, started.elapsed()))
            });
            let mut first = None;
            for (&index, result) in batch.iter().zip(results) {
                match result {
                    Some(Tried::Skipped) => {}
                    Some(Tried::Probed(case, key, result, took)) => {
                        self.longest = self.longest.max(took);
                        self.record(key, &result);
                        if let (None, Probe::Fails(payload)) = (&first, result) {
                            first = Some((index, case, payload));
                        }
                    }
                    None => {
                        self.out_of_time();
                        self.stopped = true;
                    }
                }
                if self.stopped && first.is_none() {
                    return Err(());
                }
            }
            (self.on_progress)(current, &self.stats);
            if let Some(found) = first {
                return Ok(found);
            }
        }
        Err(())
    }

    /// Remembers what one probe showed.
    fn record(&mut self, key: u64, result: &Probe<P>) {
        match result {
            Probe::Fails(_) => {
                self.known.insert(key, true);
                self.stats.runs += 1;
            }
            Probe::Passes => {
                self.known.insert(key, false);
                self.stats.runs += 1;
            }
            Probe::Invalid => {
                self.known.insert(key, false);
            }
            Probe::Stop => {
                self.stats.end = End::Stopped;
                self.stopped = true;
            }
        }
    }

    /// Probes `batch` in parallel, each probe only while the budget lasts; `None` for those
    /// not run.
    fn probe_batch(&mut self, current: &S, batch: &[(usize, S, u64)]) -> Vec<Option<Probe<P>>> {
        if batch.is_empty() {
            return Vec::new();
        }
        let (probe, deadline, known) = (self.probe, self.last_start(), &self.known);
        let timed = crate::pool::map(self.jobs, batch, |(_, case, key)| {
            if known.get(key) == Some(&false) {
                return Some((Probe::Passes, Duration::ZERO));
            }
            (Instant::now() < deadline && !crate::run::cancelled()).then(|| {
                let started = Instant::now();
                (probe(case), started.elapsed())
            })
        });
        let mut results = Vec::with_capacity(timed.len());
        for result in timed {
            if let Some((_, took)) = &result {
                self.longest = self.longest.max(*took);
            }
            results.push(result.map(|(probe, _)| probe));
        }
        for ((_, _, key), result) in batch.iter().zip(&results) {
            if self.known.get(key) == Some(&false) {
                continue;
            }
            match result {
                Some(Probe::Fails(_)) => {
                    self.known.insert(*key, true);
                    self.stats.runs += 1;
                }
                Some(Probe::Passes) => {
                    self.known.insert(*key, false);
                    self.stats.runs += 1;
                }
                Some(Probe::Invalid) => {
                    self.known.insert(*key, false);
                }
                Some(Probe::Stop) => {
                    self.stats.end = End::Stopped;
                    self.stopped = true;
                }
                None => {
                    self.out_of_time();
                    if !self.stopped {
                        // The pool was cancelled under it.
                        self.stats.end = End::Stopped;
                        self.stopped = true;
                    }
                }
            }
        }
        (self.on_progress)(current, &self.stats);
        results
    }

    /// Moves the value in `slot` toward 0 as far as it still fails: 0 first, then bisection
    /// of the magnitudes (0, |v|), speculating on as many levels of the decision tree as
    /// there are workers.
    fn lower_value(&mut self, current: &mut S, slot: usize) -> bool {
        let v = current.value(slot);
        if v == 0 {
            return false;
        }
        let sign = v.signum();
        // 0, then the smallest magnitudes: a bug that depends on parity or on a value being
        // nonzero is not monotone, and bisection alone would stop anywhere.
        let magnitude = v.unsigned_abs().min(i64::MAX as u64) as i64;
        let small: Vec<S> = [0, 1, 2]
            .into_iter()
            .filter(|&m| m < magnitude)
            .map(|m| current.with_values(&[(slot, sign * m)]))
            .collect();
        let small = Candidates::built(small);
        if let Ok((_, case, payload)) = self.first_failing(current, &small, 0, small.len()) {
            self.accept(current, case, payload);
            return true;
        }
        if self.settled.get(&slot) == Some(&v) && magnitude > 3 {
            return self.lower_settled_value(current, slot, v - sign);
        }
        let (mut lo, mut hi) = (2i64.min(magnitude - 1).max(0), magnitude);
        let mut best: Option<(S, P)> = None;
        while hi - lo > 1 && !self.out_of_time() {
            let mids = speculated_mids(lo, hi, self.jobs);
            let batch: Vec<(usize, S, u64)> = mids
                .iter()
                .map(|&m| {
                    let case = current.with_values(&[(slot, sign * m)]);
                    let key = case.fingerprint();
                    (m as usize, case, key)
                })
                .collect();
            let probed = self.probe_batch(current, &batch);
            let mut results: HashMap<i64, (S, Probe<P>)> = HashMap::new();
            for ((m, case, _), result) in batch.into_iter().zip(probed) {
                if let Some(result) = result {
                    results.insert(m as i64, (case, result));
                }
            }
            let before = (lo, hi);
            while hi - lo > 1 {
                let m = lo + (hi - lo) / 2;
                match results.remove(&m) {
                    Some((case, Probe::Fails(p))) => {
                        hi = m;
                        best = Some((case, p));
                    }
                    Some((_, Probe::Passes | Probe::Invalid)) => lo = m,
                    _ => break,
                }
            }
            if (lo, hi) == before {
                break;
            }
        }
        if hi - lo <= 1 {
            self.settled.insert(slot, sign * hi);
        }
        match best {
            Some((case, payload)) => {
                self.accept(current, case, payload);
                true
            }
            None => false,
        }
    }

    /// A value its last bisection ended at, in a later sweep (other parts of the case have
    /// changed since): one less is tried, and only if it fails is the value bisected again in
    /// the sweep after. Where the failure is monotone in the value, as bisection assumes, one
    /// less passing means every smaller value passes: bisecting again (about twenty probes a
    /// value on every sweep, all passing) would end where it is. The minimal case's claim,
    /// no value can be lowered by one, is what this checks.
    fn lower_settled_value(&mut self, current: &mut S, slot: usize, one_less: i64) -> bool {
        let candidate = Candidates::built(vec![current.with_values(&[(slot, one_less)])]);
        match self.first_failing(current, &candidate, 0, 1) {
            Ok((_, case, payload)) => {
                self.accept(current, case, payload);
                true
            }
            Err(()) => false,
        }
    }
}

/// Whether part `part` (a pass, then the three value lowerings) has any candidate for
/// `case`: one that has none cannot have been cut short.
fn offers<S: Shrinkable>(case: &S, part: usize) -> bool {
    match part.checked_sub(case.passes()) {
        None => !case.pass(part).is_empty(),
        Some(0) => !all_values_lowered(case).is_empty(),
        Some(1) => !values_zeroed(case).is_empty(),
        Some(_) => (0..case.slots()).any(|slot| case.value(slot) != 0),
    }
}

/// The mids of the bisection tree below (lo, hi), breadth first, as many as `jobs`: the
/// next levels of the decision, probed at once.
fn speculated_mids(lo: i64, hi: i64, jobs: usize) -> Vec<i64> {
    let mut nodes = vec![(lo, hi)];
    let mut mids = Vec::new();
    let mut next = 0;
    while mids.len() < jobs && next < nodes.len() {
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
    mids
}

/// Every value lowered at once, keeping what comparisons between values see: all positive
/// values shifted down so that the smallest becomes 1 (differences kept exactly), all values
/// divided by their greatest common divisor (ratios kept exactly), then halved toward 0
/// (order kept, up to ties), then each value down to its parity (-1, 0 or 1). Bugs that compare values (greed, ties)
/// then reach small numbers in a few steps, where one value at a time could not move
/// without the others.
fn all_values_lowered<S: Shrinkable>(case: &S) -> Candidates<'_, S> {
    let values: Vec<i64> = (0..case.slots()).map(|slot| case.value(slot)).collect();
    let low = values.iter().copied().filter(|&v| v > 0).min().unwrap_or(1);
    // Divided by their greatest common divisor: every relation of the form a + b = s or
    // s = 2a holds as it did (`1 6 / 3` becomes `1 2 / 1`).
    let divisor = values.iter().fold(0u64, |g, &v| gcd(g, v.unsigned_abs()));
    let divisor = i64::try_from(divisor).unwrap_or(1).max(1);
    let lowerings: [&dyn Fn(i64) -> i64; 4] = [
        &|v| if v > 0 { v - (low - 1) } else { v },
        &|v| v / divisor,
        &|v| v / 2,
        // Each value down to its parity: bugs about odd and even values keep failing.
        &|v| v % 2,
    ];
    // Each lowering once: two that give the same values (a lone value shifted to 1 and
    // divided by itself) would be probed twice in one batch.
    let mut seen: Vec<Vec<i64>> = Vec::new();
    let mut out = Vec::new();
    for lower in lowerings {
        let lowered: Vec<i64> = values.iter().map(|&v| lower(v)).collect();
        if lowered == values || seen.contains(&lowered) {
            continue;
        }
        let changes: Vec<(usize, i64)> = values
            .iter()
            .zip(&lowered)
            .enumerate()
            .filter(|&(_, (v, l))| v != l)
            .map(|(slot, (_, &l))| (slot, l))
            .collect();
        out.push(case.with_values(&changes));
        seen.push(lowered);
    }
    Candidates::built(out)
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Chunks of the nonzero values set to 0 at once: all of them, then halves, quarters, …
/// down to pairs (single values are left to the bisection). A case of thousands of values
/// most of which do not matter loses them in a few dozen probes, not one probe each.
fn values_zeroed<S: Shrinkable>(case: &S) -> Candidates<'_, S> {
    let nonzero: Vec<usize> = (0..case.slots()).filter(|&s| case.value(s) != 0).collect();
    if nonzero.len() < 2 {
        return Candidates::none();
    }
    let levels = ChunkLevels::new(nonzero.len());
    let zeroed = move |slots: &[usize]| {
        let changes: Vec<(usize, i64)> = slots.iter().map(|&s| (s, 0)).collect();
        case.with_values(&changes)
    };
    let all = zeroed(&nonzero);
    Candidates::built(vec![all]).chain(Candidates::lazy(levels.count(), move |i| {
        Some(zeroed(&nonzero[levels.chunk(i)]))
    }))
}

#[cfg(test)]
// The minimizer's case type here is `Box<dyn Instance>` itself, so probes take `&Box<..>`.
#[allow(clippy::borrowed_box)]
pub(crate) mod tests {
    use super::*;
    use crate::problem::{CHESSBOARD, Cases, Chess, ChessProblem, ChessboardProblem, Problem};
    use std::collections::HashSet;
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
            Budget::of(Duration::ZERO),
            &|_: &Box<dyn Instance>| Probe::<()>::Fails(()),
            &mut |_, _| {},
        );
        assert_eq!(out.stats.end, End::Budget);
        assert_eq!(out.stats.runs, 0);
    }
}
