//! Choice candidates a second: a generator's recorded choices replayed as the minimizer's
//! candidates are (one value of the recording set to its simplest, in turn), through the
//! library's recorder, for a Python generator (warm, duipai's default, and fresh) and a C++
//! one; and the time the C++ recorder's build took, in a build cache of its own. A candidate
//! here is the generator's run alone: a probe adds the reference's and the program's runs.
//! Beside the rate, the CPU time a candidate costs, less bent by the machine's load than the
//! wall clock, and its parts: this process's (the library's side: starting, watching and
//! reading the runs), its reaped children's (the generator's runs) and its live children's
//! with what they reaped (a warm interpreter, and the forks it makes and reaps).

use std::ffi::OsString;
use std::path::Path;
use std::time::{Duration, Instant};

use duipai::compile::CompileOptions;
use duipai::judge::ProcessRunner;
use duipai::own::capture::{Capturable, Replayed};
use duipai::run::Limits;

/// How many candidates each rate is measured over.
const CANDIDATES: usize = 24;

/// A helper's limits, as stress gives them: generous.
fn limits() -> Limits {
    let program = Limits {
        cpu: Duration::from_secs(2),
        wall: Duration::from_secs(6),
        memory_bytes: 1 << 30,
        output_bytes: 1 << 26,
        processes: 64,
    };
    duipai::judge::helper::helper_limits(&program, None)
}

/// What replaying cost: candidates a second, CPU milliseconds a candidate, and the recorder's
/// preparation time.
struct Rate {
    per_second: f64,
    /// The library's, the generator runs', the warm interpreter's.
    cpu_ms: [f64; 3],
    prepared: Duration,
}

/// CPU time so far, in seconds: of this process, of its reaped children, and of its live
/// children with what they reaped.
fn cpu_so_far() -> [f64; 3] {
    let rusage = |who| {
        // SAFETY: getrusage only writes the zeroed struct it is given.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: as above.
        unsafe { libc::getrusage(who, &mut usage) };
        let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
        tv(usage.ru_utime) + tv(usage.ru_stime)
    };
    let mut live = 0.0;
    // SAFETY: sysconf has no preconditions.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    let tasks = std::fs::read_dir("/proc/self/task").into_iter().flatten();
    for task in tasks.flatten() {
        let children = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
        for pid in children.split_whitespace() {
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
                continue;
            };
            let Some((_, after_name)) = stat.rsplit_once(')') else {
                continue;
            };
            // Fields 14-17 (utime, stime, cutime, cstime), counted from after the name.
            let fields: Vec<&str> = after_name.split_whitespace().collect();
            live += fields
                .get(11..15)
                .unwrap_or_default()
                .iter()
                .filter_map(|f| f.parse::<f64>().ok())
                .sum::<f64>()
                / ticks;
        }
    }
    [
        rusage(libc::RUSAGE_SELF),
        rusage(libc::RUSAGE_CHILDREN),
        live,
    ]
}

/// `typed`'s recording for seed 1 replayed as candidates; `None` when it cannot be
/// recorded.
fn rate(typed: &[&str], cache: &Path) -> Option<Rate> {
    let options = CompileOptions {
        cache_dir: Some(cache.to_path_buf()),
        use_env: false,
        ..CompileOptions::default()
    };
    let typed: Vec<OsString> = typed.iter().map(OsString::from).collect();
    let capturable = Capturable::new(typed, options);
    let started = Instant::now();
    let capture = capturable.ready().ok()?;
    let prepared = started.elapsed();
    let runner = ProcessRunner::default();
    let recorded = capture.record(&runner, 1, &limits()).ok()?.ok()?;
    let values: Vec<u64> = recorded.choices.iter().map(|c| c.value).collect();
    let cpu = cpu_so_far();
    let started = Instant::now();
    for i in 0..CANDIDATES {
        let mut given = values.clone();
        if !given.is_empty() {
            let at = i % given.len();
            given[at] = 0;
        }
        match capture
            .replay(&runner, 1, &given, given.len(), &limits())
            .ok()?
        {
            Replayed::Made(_) | Replayed::Overrun | Replayed::Failed(_) => {}
        }
    }
    let elapsed = started.elapsed();
    let spent = cpu_so_far();
    Some(Rate {
        per_second: CANDIDATES as f64 / elapsed.as_secs_f64(),
        cpu_ms: std::array::from_fn(|i| (spent[i] - cpu[i]) * 1000.0 / CANDIDATES as f64),
        prepared,
    })
}

/// The load average, for the figures' context.
fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "?".to_string())
}

/// The median of `xs` and their range, as `m (lo–hi)` (`m` alone for one).
fn spread(mut xs: Vec<f64>) -> String {
    xs.sort_by(f64::total_cmp);
    let median = xs[xs.len() / 2];
    if xs.len() == 1 {
        format!("{median:.1}")
    } else {
        format!("{median:.1} ({:.1}–{:.1})", xs[0], xs[xs.len() - 1])
    }
}

/// Prints the table: medians of `runs` rounds, the rows interleaved within each round.
pub fn choice_rates(root: &Path, runs: usize) {
    println!(
        "\nchoice candidates a second (the generator's replay alone, {CANDIDATES} candidates, \
         medians of {runs}, load {} at the start)",
        load()
    );
    println!(
        "| generator | candidates/s | CPU ms a candidate | of which the library, the runs, \
         the warm interpreter | recorder ready in |"
    );
    println!("|---|---|---|---|---|");
    let cache = tempfile::tempdir().unwrap();
    let python = root.join("benches/support/everyday/tree/gen.py");
    let python = python.to_string_lossy().into_owned();
    let cpp = root.join("tests/support/brackets/gen.cpp");
    let cpp = cpp.to_string_lossy().into_owned();
    let rows: [(&str, Vec<&str>, bool); 3] = [
        ("Python tree (warm)", vec!["python3", &python], true),
        ("Python tree (fresh)", vec!["python3", &python], false),
        ("C++ brackets, rand()", vec![&cpp], true),
    ];
    let mut measured: Vec<Vec<Rate>> = rows.iter().map(|_| Vec::new()).collect();
    for _ in 0..runs {
        for ((_, typed, warm), got) in rows.iter().zip(&mut measured) {
            duipai::run::warm::set_enabled(*warm);
            got.extend(rate(typed, cache.path()));
        }
    }
    duipai::run::warm::set_enabled(true);
    for ((name, _, _), got) in rows.iter().zip(measured) {
        match got.first() {
            Some(first) => {
                let part = |i: usize| spread(got.iter().map(|r| r.cpu_ms[i]).collect());
                println!(
                    "| {name} | {} | {} | {} / {} / {} | {:.1} s |",
                    spread(got.iter().map(|r| r.per_second).collect()),
                    spread(got.iter().map(|r| r.cpu_ms.iter().sum()).collect()),
                    part(0),
                    part(1),
                    part(2),
                    first.prepared.as_secs_f64()
                )
            }
            None => println!("| {name} | cannot be recorded here | | | |"),
        }
    }
    println!("(load {} at the end)", load());
}
