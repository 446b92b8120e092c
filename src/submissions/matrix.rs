//! Every submission on every test, in parallel: first those whose times bound the time limit
//! from below (measured under a generous cap when the limit is to be derived), then the
//! others under the limit in force times `time_limit_to_tle`, so that a time-limit-exceeded
//! submission is known to run at least that long. The runs that may bind the limit from below
//! are measured [`BINDING_RUNS`] times (twice that when the first ones disagree) and their
//! fastest counts: a busy machine only ever slows a program down, so the fastest of a few runs
//! is the one a moment of load moved least; what the machine did meanwhile is reported.
//! Verdicts are judged by the limit in force.

use std::ffi::OsString;
use std::time::Duration;

use super::limit::{BINDING_RUNS, Bound, Multipliers, TimeLimit};
use super::machine::Machine;
use super::{Outcome, Submission};
use crate::judge::{Decider, Runner, Verdict};
use crate::run::{IoMode, Limit, Limits, Termination};
use crate::suite::StoredCase;

/// Runs of the submissions that bound the limit from below taking at least this share of the
/// slowest one's time are measured again: any of them may turn out the slowest.
const BINDING_SHARE: f64 = 0.5;

/// At most this many runs are measured again (the slowest first).
const BINDING_MOST: usize = 8;

/// One submission on one test.
#[derive(Clone, Debug)]
pub struct Cell {
    pub outcome: Outcome,
    /// duipai's own verdict (`PE`, `MLE`, ...), before the format's four; for a run the
    /// checker or interactor failed on ([`Outcome::FAIL`]), the run's end alone (`AC`: it
    /// ended cleanly), and `detail` is the helper's failure.
    pub verdict: Verdict,
    pub detail: String,
    pub cpu: Duration,
    pub wall: Duration,
    /// Stopped at the measuring cap: its CPU time is at least `cpu`.
    pub stopped: bool,
    /// The CPU cap that stopped the run, when its CPU time did: a little over the limit in
    /// force times `time_limit_to_tle`, or the measuring cap; not the limit itself.
    pub cap: Option<Duration>,
    /// Every CPU time measured, in order, when the run was measured more than once (`cpu` is
    /// then the fastest); empty otherwise.
    pub measured: Vec<Duration>,
}

impl Cell {
    /// The verdict's short code: `FAIL` for a run the checker or interactor failed on, else
    /// duipai's own (`PE`, `MLE`, ...).
    pub fn code(&self) -> &'static str {
        match self.outcome {
            Outcome::FAIL => Outcome::FAIL.code(),
            _ => self.verdict.code(),
        }
    }
}

/// One submission: whether it could be prepared, its cells, and whether it got what its
/// folder expects.
#[derive(Clone, Debug)]
pub struct Row {
    pub submission: Submission,
    /// Why it could not be prepared (a compile error), if it could not.
    pub broken: Option<String>,
    pub cells: Vec<Cell>,
    /// `Err` says what it got instead of what its folder expects.
    pub check: Result<(), String>,
}

impl Row {
    /// Its slowest run: the CPU time and the test's index.
    pub fn slowest(&self) -> Option<(Duration, usize)> {
        self.cells
            .iter()
            .enumerate()
            .map(|(i, c)| (c.cpu, i))
            .max_by_key(|(cpu, _)| *cpu)
    }
}

/// The whole matrix and the time limit.
#[derive(Clone, Debug)]
pub struct Judged {
    pub tests: Vec<String>,
    pub rows: Vec<Row>,
    pub limit: TimeLimit,
}

impl Judged {
    /// Whether every submission got what its folder expects and the limit keeps the rule.
    pub fn ok(&self) -> bool {
        self.rows.iter().all(|r| r.check.is_ok()) && self.limit.violations().is_empty()
    }

    /// The runs the checker or interactor failed on: (submission, test, why).
    pub fn helper_failures(&self) -> Vec<(&str, &str, &str)> {
        self.rows
            .iter()
            .flat_map(|row| {
                row.cells
                    .iter()
                    .zip(&self.tests)
                    .filter(|(c, _)| c.outcome == Outcome::FAIL)
                    .map(|(c, test)| {
                        (
                            row.submission.name.as_str(),
                            test.as_str(),
                            c.detail.as_str(),
                        )
                    })
            })
            .collect()
    }
}

/// How the submissions are run.
pub struct Setting<'a> {
    pub runner: &'a dyn Runner,
    pub decider: &'a Decider,
    /// The program's limits but the CPU time (memory, output, processes).
    pub limits: Limits,
    pub io: &'a IoMode,
    pub jobs: usize,
    /// The time limit given (and where), if one is; else it is derived.
    pub given: Option<(Duration, String)>,
    pub multipliers: Multipliers,
    /// The CPU cap of the runs that derive the limit.
    pub measure_cap: Duration,
}

/// A submission ready to run (its command), or why it is not.
pub type Prepared = (Submission, Result<Vec<OsString>, String>);

/// Judges every prepared submission on every case; `on_progress(done, total)` after each run.
pub fn judge_all(
    cases: &[StoredCase],
    submissions: Vec<Prepared>,
    setting: &Setting,
    on_progress: &mut dyn FnMut(usize, usize),
) -> anyhow::Result<Judged> {
    let total = submissions.iter().filter(|(_, p)| p.is_ok()).count() * cases.len();
    let mut done = 0;
    let mut cells: Vec<Option<Vec<Cell>>> = submissions.iter().map(|_| None).collect();
    let lower: Vec<usize> = (0..submissions.len())
        .filter(|&i| submissions[i].0.expected.bounds_below())
        .collect();
    let first_cap = setting
        .given
        .as_ref()
        .map_or(setting.measure_cap, |(limit, _)| {
            cap(*limit, &setting.multipliers)
        });
    // The two phases: the submissions that bound the limit from below, under the given
    // limit's cap (or the measuring one), then the rest under the limit in force.
    let mut phase = |rows: &[usize], cap: Duration, cells: &mut Vec<Option<Vec<Cell>>>| {
        run_rows(cases, &submissions, rows, cap, setting, cells, &mut |_| {
            done += 1;
            on_progress(done, total);
        })
    };
    phase(&lower, first_cap, &mut cells)?;
    let machine = remeasure_binding(cases, &submissions, &lower, first_cap, setting, &mut cells)?;
    let lower_bound = slowest_run(cases, &submissions, &cells, &lower, first_cap);
    let derived = lower_bound
        .as_ref()
        .map(|b| setting.multipliers.derive(b.time));
    let (in_force, source) = match (&setting.given, derived) {
        (Some((limit, source)), _) => (*limit, source.clone()),
        (None, Some(derived)) => (derived, "the format's rule".to_string()),
        (None, None) => (
            Duration::from_secs_f64(setting.multipliers.resolution),
            "the format's resolution (no submission bounds it)".to_string(),
        ),
    };
    let rest: Vec<usize> = (0..submissions.len())
        .filter(|i| !lower.contains(i))
        .collect();
    let second_cap = cap(in_force, &setting.multipliers);
    phase(&rest, second_cap, &mut cells)?;
    let upper = fastest_timeout(cases, &submissions, &cells, second_cap);
    let rows = submissions
        .into_iter()
        .zip(cells)
        .map(|((submission, prepared), cells)| finish_row(submission, prepared, cells, in_force))
        .collect();
    Ok(Judged {
        tests: cases.iter().map(|c| c.name.clone()).collect(),
        rows,
        limit: TimeLimit {
            in_force,
            source,
            derived,
            lower: lower_bound,
            upper,
            multipliers: setting.multipliers,
            machine,
        },
    })
}

/// The CPU cap that shows whether a run is over `limit × time_limit_to_tle`: a little more.
fn cap(limit: Duration, multipliers: &Multipliers) -> Duration {
    limit.mul_f64(multipliers.time_limit_to_tle * 1.05)
}

/// Runs the submissions `which` on every case under `cap`, in parallel; a harness error
/// stops everything.
fn run_rows(
    cases: &[StoredCase],
    submissions: &[Prepared],
    which: &[usize],
    cap: Duration,
    setting: &Setting,
    cells: &mut [Option<Vec<Cell>>],
    on_run: &mut dyn FnMut(usize),
) -> anyhow::Result<()> {
    let pairs: Vec<(usize, usize)> = which
        .iter()
        .filter(|&&s| submissions[s].1.is_ok())
        .flat_map(|&s| (0..cases.len()).map(move |c| (s, c)))
        .collect();
    let judged = run_pairs(cases, submissions, &pairs, cap, setting, on_run)?;
    for ((s, _), cell) in pairs.into_iter().zip(judged) {
        cells[s].get_or_insert_with(Vec::new).push(cell);
    }
    Ok(())
}

/// Measures again the runs of the submissions `lower` that may bind the limit from below
/// (those within [`BINDING_SHARE`] of the slowest, not stopped at the cap, at most
/// [`BINDING_MOST`]), [`BINDING_RUNS`] runs in all each, keeping the fastest CPU time; a run
/// whose measurements disagree (see [`super::limit::Bound::disagreement`]) is measured
/// [`BINDING_RUNS`] times more. They run on half the workers, so that they do not compete
/// with each other for the CPUs. The verdict stays the first run's: only the time is measured
/// again. Returns what the machine did meanwhile; `None` when nothing was measured again.
fn remeasure_binding(
    cases: &[StoredCase],
    submissions: &[Prepared],
    lower: &[usize],
    cap: Duration,
    setting: &Setting,
    cells: &mut [Option<Vec<Cell>>],
) -> anyhow::Result<Option<Machine>> {
    let mut binding: Vec<(usize, usize, Duration)> = lower
        .iter()
        .filter_map(|&s| Some((s, cells[s].as_ref()?)))
        .flat_map(|(s, row)| {
            row.iter()
                .enumerate()
                .filter(|(_, cell)| !cell.stopped)
                .map(move |(c, cell)| (s, c, cell.cpu))
        })
        .collect();
    binding.sort_by_key(|&(s, c, cpu)| (std::cmp::Reverse(cpu), s, c));
    let Some(&(_, _, slowest)) = binding.first() else {
        return Ok(None);
    };
    binding.retain(|&(_, _, cpu)| cpu.as_secs_f64() >= slowest.as_secs_f64() * BINDING_SHARE);
    binding.truncate(BINDING_MOST);
    let start = super::machine::sample();
    let quiet = Setting {
        jobs: (setting.jobs / 2).max(1),
        given: setting.given.clone(),
        ..*setting
    };
    let runs: Vec<(usize, usize)> = binding.iter().map(|&(s, c, _)| (s, c)).collect();
    measure_again(cases, submissions, &runs, cap, &quiet, cells)?;
    let apart: Vec<(usize, usize)> = runs
        .into_iter()
        .filter(|&(s, c)| {
            let cell = &cells[s].as_ref().expect("measured")[c];
            bound_of(cell, &submissions[s].0, &cases[c], false)
                .disagreement()
                .is_some()
        })
        .collect();
    measure_again(cases, submissions, &apart, cap, &quiet, cells)?;
    Ok(Some(Machine::since(&start)))
}

/// Measures each run of `runs` [`BINDING_RUNS`] − 1 times more, keeping every time and the
/// fastest.
fn measure_again(
    cases: &[StoredCase],
    submissions: &[Prepared],
    runs: &[(usize, usize)],
    cap: Duration,
    setting: &Setting,
    cells: &mut [Option<Vec<Cell>>],
) -> anyhow::Result<()> {
    let pairs: Vec<(usize, usize)> = runs
        .iter()
        .flat_map(|&pair| std::iter::repeat_n(pair, BINDING_RUNS - 1))
        .collect();
    let again = run_pairs(cases, submissions, &pairs, cap, setting, &mut |_| {})?;
    for ((s, c), rerun) in pairs.into_iter().zip(again) {
        let cell = &mut cells[s].as_mut().expect("measured once already")[c];
        if cell.measured.is_empty() {
            cell.measured.push(cell.cpu);
        }
        cell.measured.push(rerun.cpu);
        cell.cpu = cell.cpu.min(rerun.cpu);
    }
    Ok(())
}

/// A run as a bound of the limit.
fn bound_of(cell: &Cell, submission: &Submission, case: &StoredCase, at_least: bool) -> Bound {
    Bound {
        time: cell.cpu,
        submission: submission.name.clone(),
        test: case.name.clone(),
        at_least,
        measured: cell.measured.clone(),
    }
}

/// Runs each `(submission, case)` of `pairs` under `cap`, in parallel, and returns their
/// cells in the same order; a harness error stops everything.
fn run_pairs(
    cases: &[StoredCase],
    submissions: &[Prepared],
    pairs: &[(usize, usize)],
    cap: Duration,
    setting: &Setting,
    on_run: &mut dyn FnMut(usize),
) -> anyhow::Result<Vec<Cell>> {
    let limits = Limits {
        cpu: cap,
        wall: Limits::default_wall(cap),
        ..setting.limits
    };
    let mut results: Vec<Option<anyhow::Result<Cell>>> = pairs.iter().map(|_| None).collect();
    crate::pool::run_indexed(
        setting.jobs,
        pairs.len() as u64,
        |i| {
            let (s, c) = pairs[i as usize];
            let Ok(program) = &submissions[s].1 else {
                unreachable!("only prepared submissions run")
            };
            let judged = judge_pair(program, &cases[c], &limits, setting);
            (!crate::run::cancelled()).then_some(judged)
        },
        |_| true,
        |i, result| {
            results[i as usize] = Some(result);
            on_run(i as usize);
        },
        || {},
    );
    if crate::run::cancelled() {
        anyhow::bail!("interrupted before every submission ran on every test");
    }
    pairs
        .iter()
        .zip(results)
        .map(|(&(s, c), result)| {
            let (name, test) = (&submissions[s].0.name, &cases[c].name);
            result
                .expect("every run delivered")
                .map_err(|e| e.context(format!("running {name} on {test}")))
        })
        .collect()
}

/// One submission's run on one case, judged. A program that cannot be started is an error
/// (of the harness); a checker or interactor that fails on its output is the run's verdict,
/// [`Outcome::FAIL`], named with the helper's message, so that one broken helper run does
/// not throw away every other verdict.
fn judge_pair(
    program: &[OsString],
    case: &StoredCase,
    limits: &Limits,
    setting: &Setting,
) -> anyhow::Result<Cell> {
    let decider = setting.decider;
    let ran = decider.execute(
        setting.runner,
        program,
        &case.input,
        limits,
        setting.io,
        true,
    )?;
    let (cpu, wall) = (ran.execution.cpu_time, ran.execution.wall_time);
    let cap = matches!(
        ran.execution.termination,
        Termination::LimitExceeded(Limit::CpuTime)
    )
    .then_some(limits.cpu);
    match decider.decide(setting.runner, &case.input, &ran, &case.expected) {
        Ok(judgement) => Ok(Cell {
            outcome: Outcome::of(judgement.verdict),
            verdict: judgement.verdict,
            detail: judgement.detail,
            cpu,
            wall,
            stopped: judgement.verdict == Verdict::TimeLimitExceeded,
            cap,
            measured: Vec::new(),
        }),
        Err(failed) => Ok(Cell {
            outcome: Outcome::FAIL,
            verdict: Verdict::Accepted,
            detail: format!("{failed:#}"),
            cpu,
            wall,
            stopped: false,
            cap,
            measured: Vec::new(),
        }),
    }
}

/// The slowest run of the submissions `which`: the lower bound of the time limit.
fn slowest_run(
    cases: &[StoredCase],
    submissions: &[Prepared],
    cells: &[Option<Vec<Cell>>],
    which: &[usize],
    cap: Duration,
) -> Option<Bound> {
    which
        .iter()
        .filter_map(|&s| {
            let row = cells[s].as_ref()?;
            let (c, cell) = row.iter().enumerate().max_by_key(|(_, c)| c.cpu)?;
            let at_least = cell.stopped && cell.cpu >= cap;
            Some(bound_of(cell, &submissions[s].0, &cases[c], at_least))
        })
        .max_by_key(|b| b.time)
}

/// Of the time-limit-exceeded submissions, the one whose slowest run is fastest: the upper
/// bound of the time limit.
fn fastest_timeout(
    cases: &[StoredCase],
    submissions: &[Prepared],
    cells: &[Option<Vec<Cell>>],
    cap: Duration,
) -> Option<Bound> {
    (0..submissions.len())
        .filter(|&s| submissions[s].0.expected.bounds_above())
        .filter_map(|s| {
            let row = cells[s].as_ref()?;
            let (c, cell) = row.iter().enumerate().max_by_key(|(_, c)| c.cpu)?;
            let at_least = cell.stopped || cell.cpu >= cap;
            Some(bound_of(cell, &submissions[s].0, &cases[c], at_least))
        })
        .min_by_key(|b| b.time)
}

/// A cell judged by the limit in force: an accepted run over it is TLE, and a run the cap
/// stopped says the limit, not the cap (which is only where the run was cut short).
fn judge_by_limit(cell: &mut Cell, limit: Duration) {
    let cpu = format!("CPU {:.3} s", cell.cpu.as_secs_f64());
    let over = format!("over the limit {}", super::limit::show(limit));
    if let Some(cap) = cell.cap {
        let stopped = format!("stopped at {:.3} s", cap.as_secs_f64());
        cell.detail = if cell.cpu > limit {
            format!("{cpu}, {over} ({stopped})")
        } else {
            format!(
                "{cpu}, {stopped}, under the limit {}",
                super::limit::show(limit)
            )
        };
    } else if cell.cpu > limit && cell.outcome != Outcome::TLE {
        cell.outcome = Outcome::TLE;
        cell.verdict = Verdict::TimeLimitExceeded;
        cell.detail = format!("{cpu}, {over}");
    }
}

/// A submission's row: its cells judged by the limit in force, and its check.
fn finish_row(
    submission: Submission,
    prepared: Result<Vec<OsString>, String>,
    cells: Option<Vec<Cell>>,
    limit: Duration,
) -> Row {
    let broken = prepared.err();
    let mut cells = cells.unwrap_or_default();
    for cell in &mut cells {
        judge_by_limit(cell, limit);
    }
    let check = match &broken {
        Some(why) => Err(format!("it could not be prepared: {why}")),
        None => {
            let outcomes: Vec<Outcome> = cells.iter().map(|c| c.outcome).collect();
            submission.expected.check(&outcomes)
        }
    };
    Row {
        submission,
        broken,
        cells,
        check,
    }
}
