//! Counterexample minimization: greedy reduction of a failing instance (fewer rows and
//! columns, fewer pieces, smaller values) while a caller-supplied test still fails.
//!
//! Every candidate is strictly smaller than its parent in (cells, pieces, sum of values), in
//! that order, and stays inside the original bounds, so the search always terminates and
//! the result is as valid as the input.

use std::time::{Duration, Instant};

use crate::problem::{Cell, Chess, Chessboard, Instance};

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
    start: &Instance,
    budget: Budget,
    probe: &mut dyn FnMut(&Instance) -> Probe,
) -> (Instance, ShrinkStats) {
    let started = Instant::now();
    let mut current = start.clone();
    let mut stats = ShrinkStats::default();
    loop {
        let mut next = None;
        for candidate in candidates(&current) {
            if stats.attempts >= budget.max_attempts || started.elapsed() >= budget.max_time {
                stats.exhausted = true;
                break;
            }
            match probe(&candidate) {
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

/// Smaller variants of `instance`, most drastic first. Produced lazily so that an early
/// success does not pay for building the rest.
pub fn candidates(instance: &Instance) -> Box<dyn Iterator<Item = Instance> + '_> {
    match instance {
        Instance::Chess(c) => Box::new(chess_candidates(c).map(Instance::Chess)),
        Instance::Chessboard(c) => Box::new(chessboard_candidates(c).map(Instance::Chessboard)),
    }
}

/// Index sets to keep when dropping lines: the halves first, then each single line.
fn line_drops(len: usize) -> Vec<Vec<usize>> {
    let mut drops = Vec::new();
    if len >= 4 {
        drops.push((len / 2..len).collect());
        drops.push((0..len / 2).collect());
    }
    if len >= 2 {
        drops.extend((0..len).rev().map(|i| vec![i]));
    }
    drops
}

/// Smaller replacements for a value, most drastic first: 0, 1, v/2, then v − d for d = v/4,
/// v/8, …, 1, so a threshold anywhere below v is found in a logarithmic number of steps and
/// a property of small numbers (odd, nonzero) reaches its smallest witness quickly.
fn smaller_values(v: i64) -> impl Iterator<Item = i64> {
    let drastic = [0, 1, v / 2];
    let steps = std::iter::successors((v > 3).then_some(v / 4), |&d| (d > 1).then_some(d / 2))
        .map(move |d| v - d);
    let mut seen = Vec::new();
    drastic.into_iter().chain(steps).filter(move |&c| {
        c < v && c >= 0 && !seen.contains(&c) && {
            seen.push(c);
            true
        }
    })
}

fn without(rows: &[Vec<i64>], drop_rows: &[usize], drop_cols: &[usize]) -> Vec<Vec<i64>> {
    rows.iter()
        .enumerate()
        .filter(|(i, _)| !drop_rows.contains(i))
        .map(|(_, row)| {
            row.iter()
                .enumerate()
                .filter(|(j, _)| !drop_cols.contains(j))
                .map(|(_, &v)| v)
                .collect()
        })
        .collect()
}

fn chess_candidates(c: &Chess) -> impl Iterator<Item = Chess> + '_ {
    let drop_rows = line_drops(c.n).into_iter().map(move |rows| Chess {
        n: c.n - rows.len(),
        m: c.m,
        a: without(&c.a, &rows, &[]),
        b: without(&c.b, &rows, &[]),
    });
    let drop_cols = line_drops(c.m).into_iter().map(move |cols| Chess {
        n: c.n,
        m: c.m - cols.len(),
        a: without(&c.a, &[], &cols),
        b: without(&c.b, &[], &cols),
    });
    let zero_all = [false, true].into_iter().filter_map(move |is_b| {
        let grid = if is_b { &c.b } else { &c.a };
        grid.iter().flatten().any(|&v| v != 0).then(|| {
            let mut next = c.clone();
            let target = if is_b { &mut next.b } else { &mut next.a };
            target.iter_mut().flatten().for_each(|v| *v = 0);
            next
        })
    });
    let cells = (0..c.n).flat_map(move |i| (0..c.m).map(move |j| (i, j)));
    let values = cells.flat_map(move |(i, j)| {
        [false, true].into_iter().flat_map(move |is_b| {
            let v = if is_b { c.b[i][j] } else { c.a[i][j] };
            smaller_values(v).map(move |smaller| {
                let mut next = c.clone();
                if is_b {
                    next.b[i][j] = smaller;
                } else {
                    next.a[i][j] = smaller;
                }
                next
            })
        })
    });
    drop_rows.chain(drop_cols).chain(zero_all).chain(values)
}

fn chessboard_candidates(c: &Chessboard) -> impl Iterator<Item = Chessboard> + '_ {
    let n = c.n;
    // Boards stay square: drop one row together with one column.
    let lines = (n > 1)
        .then(|| {
            (0..n)
                .rev()
                .flat_map(move |i| (0..n).rev().map(move |j| (i, j)))
        })
        .into_iter()
        .flatten()
        .map(move |(i, j)| Chessboard {
            n: n - 1,
            cells: c
                .cells
                .iter()
                .enumerate()
                .filter(|&(r, _)| r != i)
                .map(|(_, row)| {
                    row.iter()
                        .enumerate()
                        .filter(|&(col, _)| col != j)
                        .map(|(_, &cell)| cell)
                        .collect()
                })
                .collect(),
            weights: without(&c.weights, &[i], &[j]),
        });
    let cells = move || (0..n).flat_map(move |i| (0..n).map(move |j| (i, j)));
    let clear_pieces = cells()
        .filter(move |&(i, j)| c.cells[i][j] != Cell::Empty)
        .map(move |(i, j)| {
            let mut next = c.clone();
            next.cells[i][j] = Cell::Empty;
            next.weights[i][j] = 0;
            next
        });
    let lighter = cells().flat_map(move |(i, j)| {
        smaller_values(c.weights[i][j]).map(move |w| {
            let mut next = c.clone();
            next.weights[i][j] = w;
            next
        })
    });
    lines.chain(clear_pieces).chain(lighter)
}

/// (cells, pieces, sum of values): the order in which candidates are strictly smaller.
pub fn size_key(instance: &Instance) -> (usize, usize, i64) {
    match instance {
        Instance::Chess(c) => {
            let sum = c.a.iter().chain(&c.b).flatten().sum();
            (c.n * c.m, c.n * c.m, sum)
        }
        Instance::Chessboard(c) => {
            let pieces = c
                .cells
                .iter()
                .flatten()
                .filter(|&&x| x != Cell::Empty)
                .count();
            (c.n * c.n, pieces, c.weights.iter().flatten().sum())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chess(rows_a: &[&[i64]], rows_b: &[&[i64]]) -> Instance {
        Instance::Chess(Chess {
            n: rows_a.len(),
            m: rows_a[0].len(),
            a: rows_a.iter().map(|r| r.to_vec()).collect(),
            b: rows_b.iter().map(|r| r.to_vec()).collect(),
        })
    }

    #[test]
    fn smaller_values_are_strictly_smaller_and_distinct() {
        assert_eq!(smaller_values(0).collect::<Vec<_>>(), Vec::<i64>::new());
        assert_eq!(smaller_values(1).collect::<Vec<_>>(), vec![0]);
        assert_eq!(smaller_values(2).collect::<Vec<_>>(), vec![0, 1]);
        assert_eq!(smaller_values(100_000).count(), 18);
        assert_eq!(smaller_values(10).collect::<Vec<_>>(), vec![0, 1, 5, 8, 9]);
        assert_eq!(smaller_values(3).collect::<Vec<_>>(), vec![0, 1]);
    }

    #[test]
    fn every_candidate_is_smaller_and_well_formed() {
        let start = chess(&[&[5, 3, 9], &[2, 8, 1]], &[&[4, 4, 4], &[0, 7, 6]]);
        for cand in candidates(&start) {
            assert!(size_key(&cand) < size_key(&start), "{cand:?}");
            let Instance::Chess(c) = &cand else { panic!() };
            assert_eq!(c.a.len(), c.n);
            assert!(c.a.iter().chain(&c.b).all(|r| r.len() == c.m));
        }
        let board = Instance::Chessboard(Chessboard {
            n: 2,
            cells: vec![
                vec![Cell::White, Cell::Black],
                vec![Cell::Black, Cell::Empty],
            ],
            weights: vec![vec![5, 7], vec![7, 0]],
        });
        let all: Vec<_> = candidates(&board).collect();
        assert!(all.iter().all(|c| size_key(c) < size_key(&board)));
        // 4 row/column drops, 3 pieces cleared, and 4 lighter weights per piece.
        assert_eq!(all.len(), 4 + 3 + 12);
    }

    #[test]
    fn shrinks_to_the_smallest_case_with_the_property() {
        // "Fails" whenever some A value is at least 50: the minimum is a 1×1 board with A = 50.
        let start = chess(
            &[&[1, 2, 3], &[4, 99, 6], &[7, 8, 60]],
            &[&[9, 9, 9], &[9, 9, 9], &[9, 9, 9]],
        );
        let mut fails = |i: &Instance| match i {
            Instance::Chess(c) if c.a.iter().flatten().any(|&v| v >= 50) => Probe::Fails,
            _ => Probe::Passes,
        };
        let (small, stats) = shrink(&start, Budget::default(), &mut fails);
        assert_eq!(small, chess(&[&[50]], &[&[0]]));
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
        let (_, stats) = shrink(&start, budget, &mut |_| {
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
        let (kept, stats) = shrink(&start, Budget::default(), &mut |_| {
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
        assert!(size_key(&kept) < size_key(&start));
    }
}
