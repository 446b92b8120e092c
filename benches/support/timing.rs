//! In-process timing for the benchmarks: medians of CPU time (this thread's, since the
//! machine may be shared and wall time would count the waits) and of wall time.

use std::time::{Duration, Instant};

/// CPU time of this thread.
pub fn thread_cpu() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime only writes the timespec we pass.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// Medians of several runs, and what the last run returned (the runs must agree on it).
pub struct Timing<T> {
    pub cpu: Duration,
    pub wall: Duration,
    pub result: T,
}

/// Runs `f` `runs` times and takes the medians, CPU and wall time separately.
pub fn measure<T>(runs: usize, mut f: impl FnMut() -> T) -> Timing<T> {
    let mut cpu = Vec::with_capacity(runs);
    let mut wall = Vec::with_capacity(runs);
    let mut result = None;
    for _ in 0..runs {
        let (c0, w0) = (thread_cpu(), Instant::now());
        result = Some(std::hint::black_box(f()));
        cpu.push(thread_cpu() - c0);
        wall.push(w0.elapsed());
    }
    cpu.sort();
    wall.sort();
    Timing {
        cpu: cpu[runs / 2],
        wall: wall[runs / 2],
        result: result.expect("at least one run"),
    }
}

/// `12.34 ms`.
pub fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}
