//! Times `duipai pack` on both built-in plans (generation, reference answers and file writes)
//! and prints each and the total. Run with `cargo bench --bench pack`; the target is under 2 s
//! in all on one core.

use std::time::{Duration, Instant};

use duipai::pack::parse_plan;
use duipai::pack::{self, Layout, PackOptions, plan};

fn main() {
    let mut total = Duration::ZERO;
    for &problem in duipai::problem::ALL {
        let parsed = match parse_plan(
            &plan::builtin_name(problem),
            problem.builtin_plan(),
            problem,
        ) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        };
        let dir = match tempfile::tempdir() {
            Ok(d) => d,
            Err(e) => {
                eprintln!("creating a temporary directory: {e}");
                std::process::exit(2);
            }
        };
        let tests = parsed.lines.len();
        let opts = PackOptions {
            problem,
            out: dir.path().to_path_buf(),
            plan: parsed,
            layout: Layout::Plain,
            seed: 0,
            force: false,
            icpc_version: None,
            overwrite_edited: false,
            write_limits: false,
        };
        let start = Instant::now();
        if let Err(e) = pack::write_pack(&opts, &mut |_, _| {}) {
            eprintln!("pack {problem}: {e:#}");
            std::process::exit(2);
        }
        let elapsed = start.elapsed();
        total += elapsed;
        println!(
            "pack {:<10} {tests:>3} tests {:>8.3} s",
            problem.name(),
            elapsed.as_secs_f64()
        );
    }
    println!("total {:>28.3} s", total.as_secs_f64());
}
