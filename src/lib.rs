//! duipai: a stress tester (对拍) with counterexample minimization, a judge with a
//! measuring process runner, and test packs, for competitive programming problems: a
//! problem of one's own (its generator, reference and checker as programs) or one of the
//! built-in games (`chess`, `chessboard`, `gems`, `fishhead`, `shooting`), each with its
//! strict parser, reference solver, brute force, generator families and judge's package.
//!
//! The library is in layers, each importing only those below it, from `app` (the command
//! line) down to the leaves; the map of the layers and what each owns is CONTRIBUTING.md's
//! "Layers". `problem`, `answer`, `random` and `text` are the crate `duipai-games`
//! (`games/`), re-exported here: the test build optimizes what computes and not the harness.
//!
//! Linux only: the runner starts programs with a `clone` that sets rlimits in the child,
//! waits on pidfds, and measures and finds processes in `/proc`. On any other system the
//! build stops with one message saying so, not with an error for every Linux call (hence
//! every module is compiled for Linux only).

#[cfg(not(target_os = "linux"))]
compile_error!(
    "duipai runs only on Linux: its runner needs pidfds, /proc, a clone-based process start \
     and Linux rlimits. On Windows, build and run it inside WSL 2."
);

#[cfg(target_os = "linux")]
pub use duipai_games::{answer, problem, random, text};

#[cfg(target_os = "linux")]
pub mod app;
#[cfg(target_os = "linux")]
pub mod companion;
#[cfg(target_os = "linux")]
pub mod compile;
#[cfg(target_os = "linux")]
pub mod excerpt;
#[cfg(target_os = "linux")]
pub mod fsutil;
#[cfg(target_os = "linux")]
pub mod hunt;
#[cfg(target_os = "linux")]
pub mod judge;
#[cfg(target_os = "linux")]
pub mod own;
#[cfg(target_os = "linux")]
pub mod pack;
#[cfg(target_os = "linux")]
pub mod polygon;
#[cfg(target_os = "linux")]
pub mod pool;
#[cfg(target_os = "linux")]
pub mod report;
#[cfg(target_os = "linux")]
pub mod run;
#[cfg(target_os = "linux")]
pub mod saved;
#[cfg(target_os = "linux")]
pub mod stress;
#[cfg(target_os = "linux")]
pub mod submissions;
#[cfg(target_os = "linux")]
pub mod suite;
