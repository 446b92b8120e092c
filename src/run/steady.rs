//! Verdicts that do not depend on what else the machine is doing: the one definition of a run
//! "near the limit" ([`near_the_limit`]: another measurement could change its verdict) and of
//! a "starved" run ([`starved`]: the machine kept it from running), and [`run_steady`], which
//! measures such runs again.
//!
//! A loaded machine slows a program down, never speeds it up, so of several measurements of
//! the same run the fastest is the closest to the program's own cost. Only runs near the limit
//! are repeated: far below it or far above it, no measurement changes the verdict.
//!
//! The wall clock does not count the time the program's processes were ready to run but
//! waited for a CPU (see `limits::exceeded`): a program within its CPU limit that a busy
//! machine keeps waiting is given the time it waits, up to a cap of ten times the wall-clock
//! limit. Stopped at that cap, a run is starved, and is measured again with a cap twice as
//! long.

use std::ffi::OsString;
use std::time::Duration;

use super::interact::{Interaction, interact_until, run_interactive};
use super::{
    Execution, IoMode, Limit, Limits, RunError, Stop, Termination, cancelled, run, run_until,
};

/// Runs in all, at most, for one case.
const MAX_RUNS: usize = 3;

/// How many times the wall-clock limit a run's first measurement may take while the time
/// past the limit is time it waited for a CPU.
const WALL_CAP_FACTOR: u32 = 10;

/// The band of CPU time, as a fraction of the limit, in which a run counts as near it:
/// from 0.8 to 1.5 times the limit.
fn in_band(cpu: Duration, limit: Duration) -> bool {
    cpu >= limit * 4 / 5 && cpu <= band_high(limit)
}

/// The upper end of the band: 1.5 times the limit. It is also where a re-runnable run is
/// stopped, rather than at the limit, so that a near-limit run's time is measured, not cut,
/// and a program far over the limit is stopped past the band and not run again.
fn band_high(limit: Duration) -> Duration {
    limit * 3 / 2
}

/// Where the wall clock stops a run however long it waited for a CPU: ten times the
/// wall-clock limit, doubled for every measurement after the first (`attempt` 0, 1, ...).
pub(crate) fn wall_cap(limits: &Limits, attempt: usize) -> Duration {
    limits
        .wall
        .saturating_mul(WALL_CAP_FACTOR.saturating_mul(1 << attempt.min(8)))
}

/// Whether the machine, not the program, decided the run: the wall clock stopped it at the
/// cap on waiting for a CPU ([`Execution::cpu_starved`]), where the wall-clock limit itself
/// would not have. Such a run says nothing about the program: it is measured again, and a
/// stress test never reports it as a failure.
pub fn starved(execution: &Execution) -> bool {
    execution.termination == Termination::LimitExceeded(Limit::WallTime) && execution.cpu_starved
}

/// Whether another measurement could change how the run is judged: its CPU time lands between
/// 0.8 and 1.5 times the CPU limit and it ended in a way its time decides (a clean exit, or a
/// time limit; not a crash or another limit), or it was [`starved`].
pub fn near_the_limit(execution: &Execution) -> bool {
    let timed = matches!(
        execution.termination,
        Termination::Exited(0)
            | Termination::LimitExceeded(Limit::CpuTime)
            | Termination::LimitExceeded(Limit::WallTime)
    );
    (timed && in_band(execution.cpu_time, execution.limits.cpu)) || starved(execution)
}

/// [`run`], but a run [`near_the_limit`] is run again, up to two more times, while the run it
/// would be judged on is still near the limit, and the fastest run the machine did not starve
/// is returned (the last one if it starved them all), with every CPU time measured, in order,
/// in [`Execution::cpu_times`]. A starved run is measured again with a cap on waiting for a
/// CPU twice as long. With `rerun` false this is [`run`] (the caller passes `!--no-rerun`).
///
/// With re-runs on, the program is stopped at 1.5 times the CPU limit instead of at the limit
/// (and judged against the limit all the same), so that the times shown are the program's.
pub fn run_steady(
    program: &[OsString],
    input: &[u8],
    limits: &Limits,
    io: &IoMode,
    rerun: bool,
) -> Result<Execution, RunError> {
    if !rerun {
        return run(program, input, limits, io);
    }
    steadily(limits, |stop| {
        run_until(super::Role::Program, program, input, limits, io, stop)
    })
}

/// [`run_steady`] for an interactive run: the program's run decides whether the whole
/// exchange is run again, and which one is kept.
pub fn interact_steady(
    program: &[OsString],
    interactor: &[OsString],
    input: &[u8],
    limits: &Limits,
    interactor_limits: &Limits,
    rerun: bool,
) -> Result<Interaction, RunError> {
    if !rerun {
        return run_interactive(program, interactor, input, limits, interactor_limits);
    }
    let once = |stop| interact_until(program, interactor, input, limits, interactor_limits, stop);
    steadily(limits, once)
}

/// A measured run: one program's, or an exchange with the program's run in it.
trait Measured {
    /// The program's execution, which decides whether to measure again.
    fn program(&self) -> &Execution;
    fn program_mut(&mut self) -> &mut Execution;
}

impl Measured for Execution {
    fn program(&self) -> &Execution {
        self
    }
    fn program_mut(&mut self) -> &mut Execution {
        self
    }
}

impl Measured for Interaction {
    fn program(&self) -> &Execution {
        &self.program
    }
    fn program_mut(&mut self) -> &mut Execution {
        &mut self.program
    }
}

/// Measures with `once` (given where to stop the program) until the run it would be judged on
/// is no longer [`near_the_limit`], three times at most; keeps the fastest run the machine did
/// not starve, with every CPU time measured in its [`Execution::cpu_times`].
fn steadily<T: Measured>(
    limits: &Limits,
    mut once: impl FnMut(Stop) -> Result<T, RunError>,
) -> Result<T, RunError> {
    let stop = |attempt| Stop {
        cpu: band_high(limits.cpu),
        wall: wall_cap(limits, attempt),
    };
    let mut runs = vec![once(stop(0))?];
    loop {
        let judged_run = judged(&runs);
        let done = runs.len() >= MAX_RUNS || cancelled();
        if done || !near_the_limit(runs[judged_run].program()) {
            let times: Vec<Duration> = runs.iter().map(|r| r.program().cpu_time).collect();
            let mut best = runs.swap_remove(judged_run);
            best.program_mut().cpu_times = times;
            return Ok(best);
        }
        let starved_runs = runs.iter().filter(|r| starved(r.program())).count();
        runs.push(once(stop(starved_runs))?);
    }
}

/// The index of the run a case is judged on: the one with the least CPU time (the first of
/// equals) among those the machine did not starve, else the last.
fn judged<T: Measured>(runs: &[T]) -> usize {
    let mut best: Option<(Duration, usize)> = None;
    for (i, run) in runs.iter().enumerate() {
        let execution = run.program();
        if !starved(execution) && best.is_none_or(|(time, _)| execution.cpu_time < time) {
            best = Some((execution.cpu_time, i));
        }
    }
    best.map_or(runs.len().saturating_sub(1), |(_, i)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(ms: u64, termination: Termination) -> Execution {
        let limits = Limits {
            cpu: Duration::from_secs(1),
            wall: Duration::from_secs(3),
            memory_bytes: 1 << 28,
            output_bytes: 1 << 20,
            processes: 8,
        };
        let mut e = Execution::from_outcome(termination, Vec::new(), limits);
        e.cpu_time = Duration::from_millis(ms);
        e
    }

    /// A run stopped by the wall clock after `wall_ms`, `waited_ms` of it waiting for a CPU,
    /// at the cap on waiting or by the limit.
    fn stopped_by_the_wall_clock(wall_ms: u64, waited_ms: u64, capped: bool) -> Execution {
        let mut e = at(200, Termination::LimitExceeded(Limit::WallTime));
        e.wall_time = Duration::from_millis(wall_ms);
        e.cpu_wait = Duration::from_millis(waited_ms);
        e.cpu_starved = capped;
        e
    }

    #[test]
    fn the_band_is_from_0_8_to_1_5_times_the_limit() {
        let tle = Termination::LimitExceeded(Limit::CpuTime);
        assert!(!near_the_limit(&at(799, Termination::Exited(0))));
        assert!(near_the_limit(&at(800, Termination::Exited(0))));
        assert!(near_the_limit(&at(1040, tle)));
        assert!(near_the_limit(&at(1500, tle)));
        // Stopped past the band: clearly over, not run again.
        assert!(!near_the_limit(&at(1501, tle)));
    }

    #[test]
    fn only_runs_their_time_decides_are_repeated() {
        assert!(!near_the_limit(&at(900, Termination::Exited(1))));
        assert!(!near_the_limit(&at(
            900,
            Termination::LimitExceeded(Limit::Memory)
        )));
        assert!(near_the_limit(&at(
            900,
            Termination::LimitExceeded(Limit::WallTime)
        )));
        assert!(!near_the_limit(&at(
            300,
            Termination::LimitExceeded(Limit::WallTime)
        )));
    }

    #[test]
    fn a_run_stopped_only_by_the_cap_on_waiting_is_starved() {
        // 30 s at the cap, 28 s of it waiting.
        let capped = stopped_by_the_wall_clock(30_000, 28_000, true);
        assert!(starved(&capped));
        assert!(near_the_limit(&capped));
        // A sleeper: 3.1 s of its own.
        let sleeper = stopped_by_the_wall_clock(3_200, 100, false);
        assert!(!starved(&sleeper));
        assert!(!near_the_limit(&sleeper));
        // Only a wall-clock stop can be starved.
        let mut done = capped.clone();
        done.termination = Termination::Exited(0);
        assert!(!starved(&done));
    }

    #[test]
    fn the_cap_on_waiting_doubles_with_every_measurement() {
        let limits = at(0, Termination::Exited(0)).limits;
        let caps: Vec<u64> = (0..3).map(|a| wall_cap(&limits, a).as_secs()).collect();
        assert_eq!(caps, [30, 60, 120]);
    }

    #[test]
    fn the_run_judged_is_the_fastest_the_machine_did_not_starve() {
        let tle = Termination::LimitExceeded(Limit::CpuTime);
        let runs = [at(1040, tle), at(1010, tle), at(1010, tle)];
        assert_eq!(judged(&runs), 1);
        // A starved run's CPU time is cut short: it is not the fastest.
        let runs = [
            stopped_by_the_wall_clock(30_000, 28_000, true),
            at(900, tle),
        ];
        assert_eq!(judged(&runs), 1);
        let all_starved = [
            stopped_by_the_wall_clock(30_000, 28_000, true),
            stopped_by_the_wall_clock(60_000, 58_000, true),
        ];
        assert_eq!(judged(&all_starved), 1);
    }
}
