//! Choice candidates a second: a generator's recorded choices replayed as the minimizer's
//! candidates are (one value of the recording set to its simplest, in turn), through the
//! library's recorder, for a Python generator (warm, duipai's default, and fresh) and a C++
//! one; and the time the C++ recorder's build took, in a build cache of its own. A candidate
//! here is the generator's run alone: a probe adds the reference's and the program's runs.

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

/// Candidates a second replaying `typed`'s recording for seed 1, and the recorder's
/// preparation time; `None` when it cannot be recorded.
fn rate(typed: &[&str], cache: &Path) -> Option<(f64, Duration)> {
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
    Some((
        CANDIDATES as f64 / started.elapsed().as_secs_f64(),
        prepared,
    ))
}

/// The load average, for the figures' context.
fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "?".to_string())
}

/// Prints the table.
pub fn choice_rates(root: &Path) {
    println!(
        "\nchoice candidates a second (the generator's replay alone, {CANDIDATES} candidates, \
         load {} at the start)",
        load()
    );
    println!("| generator | candidates/s | recorder ready in |");
    println!("|---|---|---|");
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
    for (name, typed, warm) in rows {
        duipai::run::warm::set_enabled(warm);
        match rate(&typed, cache.path()) {
            Some((per_second, prepared)) => println!(
                "| {name} | {per_second:.1} | {:.1} s |",
                prepared.as_secs_f64()
            ),
            None => println!("| {name} | cannot be recorded here | |"),
        }
    }
    duipai::run::warm::set_enabled(true);
    println!("(load {} at the end)", load());
}
