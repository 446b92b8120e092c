//! Steadier timing: a run whose CPU time lands near the limit is run again, and judged on the
//! fastest ([`run_steady`]).
//!
//! A loaded machine slows a program down, never speeds it up, so of several measurements of
//! the same run the fastest is the closest to the program's own cost. Only runs near the limit
//! are repeated: far below it or far above it, no measurement changes the verdict.

use std::ffi::OsString;
use std::time::Duration;

use super::{Execution, IoMode, Limit, Limits, RunError, Termination, cancelled, run, run_until};

/// Runs in all, at most, for one case.
const MAX_RUNS: usize = 3;

/// The lower end of the band where a run counts as near the limit: 0.8 of it.
fn band_low(limit: Duration) -> Duration {
    limit * 4 / 5
}

/// The upper end of the band: 1.5 times the limit. It is also where a re-runnable run is
/// stopped, rather than at the limit, so that a near-limit run's time is measured, not cut,
/// and a program far over the limit is stopped past the band and not run again.
fn band_high(limit: Duration) -> Duration {
    limit * 3 / 2
}

/// Whether a run should be measured again: its CPU time is in the band, and it ended in a
/// way its time decides (a clean exit, or a time limit), not by a crash or another limit.
fn near_limit(execution: &Execution) -> bool {
    let limit = execution.limits.cpu;
    let in_band = execution.cpu_time >= band_low(limit) && execution.cpu_time <= band_high(limit);
    let timed = matches!(
        execution.termination,
        Termination::Exited(0)
            | Termination::LimitExceeded(Limit::CpuTime)
            | Termination::LimitExceeded(Limit::WallTime)
    );
    in_band && timed
}

/// [`run`], but a run whose CPU time lands between 0.8 and 1.5 times the CPU limit is run
/// again, up to two more times, while the fastest so far is still in that band, and the
/// fastest run is returned, with every CPU time measured, in order, in
/// [`Execution::cpu_times`]. With `rerun` false this is [`run`] (the caller passes
/// `!--no-rerun`).
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
    let stop = band_high(limits.cpu);
    let mut runs = vec![run_until(program, input, limits, io, stop)?];
    while runs.len() < MAX_RUNS && !cancelled() && near_limit(&runs[fastest(&runs)]) {
        runs.push(run_until(program, input, limits, io, stop)?);
    }
    let times: Vec<Duration> = runs.iter().map(|e| e.cpu_time).collect();
    let mut best = runs.swap_remove(fastest(&runs));
    best.cpu_times = times;
    Ok(best)
}

/// The index of the run with the least CPU time (the first of equals).
fn fastest(runs: &[Execution]) -> usize {
    (0..runs.len())
        .min_by_key(|&i| (runs[i].cpu_time, i))
        .unwrap_or(0)
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

    #[test]
    fn the_band_is_from_0_8_to_1_5_times_the_limit() {
        let tle = Termination::LimitExceeded(Limit::CpuTime);
        assert!(!near_limit(&at(799, Termination::Exited(0))));
        assert!(near_limit(&at(800, Termination::Exited(0))));
        assert!(near_limit(&at(1040, tle)));
        assert!(near_limit(&at(1500, tle)));
        // Stopped past the band: clearly over, not run again.
        assert!(!near_limit(&at(1501, tle)));
    }

    #[test]
    fn only_runs_their_time_decides_are_repeated() {
        assert!(!near_limit(&at(900, Termination::Exited(1))));
        assert!(!near_limit(&at(
            900,
            Termination::LimitExceeded(Limit::Memory)
        )));
        assert!(near_limit(&at(
            900,
            Termination::LimitExceeded(Limit::WallTime)
        )));
    }

    #[test]
    fn the_fastest_is_the_first_of_the_least() {
        let tle = Termination::LimitExceeded(Limit::CpuTime);
        let runs = [at(1040, tle), at(1010, tle), at(1010, tle)];
        assert_eq!(fastest(&runs), 1);
    }
}
