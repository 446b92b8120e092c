//! The one worker pool of `test`, `stress` and minimization: numbered tasks on N threads,
//! results handed back on the calling thread, stopped by the runner's cancel flag.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// How often the calling thread wakes while it waits, for progress displays.
const IDLE_TICK: Duration = Duration::from_millis(50);

/// What a task of [`run_steps`] asks for.
pub enum Step<R> {
    /// Hand this result to the calling thread.
    Deliver(R),
    /// Nothing to hand over; take the next index. A stress search's passing cases end so:
    /// waking the calling thread for each would cost a context switch a case.
    Done,
    /// Stop this worker (its run was cut short by a cancel, say).
    Stop,
}

/// Runs `task(index)` for indices 0, 1, 2, … below `count` on `jobs` threads.
///
/// A worker takes the next index only while `admit(index)` says so and the run is not
/// cancelled ([`crate::run::cancelled`]); once it refuses, that worker stops. Every result
/// reaches `on_result` on the calling thread, in completion order; `on_idle` runs there about
/// every 50 ms while the workers are busy. A task that returns `None` (its run was cut short
/// by a cancel, say) has no result and stops its worker.
pub fn run_indexed<R: Send>(
    jobs: usize,
    count: u64,
    task: impl Fn(u64) -> Option<R> + Sync,
    admit: impl Fn(u64) -> bool + Sync,
    on_result: impl FnMut(u64, R),
    on_idle: impl FnMut(),
) {
    run_steps(
        jobs,
        count,
        |i| match task(i) {
            Some(r) => Step::Deliver(r),
            None => Step::Stop,
        },
        admit,
        on_result,
        on_idle,
    )
}

/// [`run_indexed`] with tasks that may have nothing to deliver ([`Step::Done`]).
pub fn run_steps<R: Send>(
    jobs: usize,
    count: u64,
    task: impl Fn(u64) -> Step<R> + Sync,
    admit: impl Fn(u64) -> bool + Sync,
    mut on_result: impl FnMut(u64, R),
    mut on_idle: impl FnMut(),
) {
    let next = AtomicU64::new(0);
    let (tx, rx) = mpsc::channel();
    let workers = (jobs.max(1) as u64).min(count.max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (next, task, admit) = (&next, &task, &admit);
            scope.spawn(move || {
                loop {
                    if crate::run::cancelled() {
                        break;
                    }
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    if index >= count || !admit(index) {
                        break;
                    }
                    match task(index) {
                        Step::Deliver(result) => {
                            if tx.send((index, result)).is_err() {
                                break;
                            }
                        }
                        Step::Done => {}
                        Step::Stop => break,
                    }
                }
            });
        }
        drop(tx);
        loop {
            match rx.recv_timeout(IDLE_TICK) {
                Ok((index, result)) => on_result(index, result),
                Err(mpsc::RecvTimeoutError::Timeout) => on_idle(),
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
    });
}

/// `f` applied to every item on `jobs` threads, results in item order; `None` where a task
/// did not run (cancelled) or returned `None`.
pub fn map<T: Sync, R: Send>(
    jobs: usize,
    items: &[T],
    f: impl Fn(&T) -> Option<R> + Sync,
) -> Vec<Option<R>> {
    let mut out: Vec<Option<R>> = (0..items.len()).map(|_| None).collect();
    run_indexed(
        jobs,
        items.len() as u64,
        |i| Some(f(&items[i as usize])),
        |_| true,
        |i, r| out[i as usize] = r,
        || {},
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn every_index_runs_once_and_results_come_back() {
        let runs = AtomicUsize::new(0);
        let mut seen = Vec::new();
        run_indexed(
            4,
            100,
            |i| {
                runs.fetch_add(1, Ordering::SeqCst);
                Some(i * 2)
            },
            |_| true,
            |i, r| seen.push((i, r)),
            || {},
        );
        seen.sort();
        assert_eq!(runs.load(Ordering::SeqCst), 100);
        assert_eq!(seen, (0..100).map(|i| (i, i * 2)).collect::<Vec<_>>());
    }

    #[test]
    fn admit_stops_workers() {
        let mut seen = Vec::new();
        run_indexed(3, 1000, Some, |i| i < 10, |i, _| seen.push(i), || {});
        seen.sort();
        assert_eq!(seen, (0..10).collect::<Vec<_>>());
    }

    #[test]
    fn map_keeps_item_order() {
        let items: Vec<u32> = (0..50).collect();
        let out = map(3, &items, |&x| (x % 7 != 0).then_some(x + 1));
        for (x, r) in items.iter().zip(&out) {
            assert_eq!(*r, (x % 7 != 0).then_some(x + 1));
        }
    }
}
