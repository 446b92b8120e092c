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
//! On every system: Linux runs programs with its own runner (a `clone` that sets rlimits in the
//! child, pidfds, `/proc`, cgroups and containment); Windows and macOS run them through the
//! runner's platform seam (`run::sys`), a Job Object or a process group. Everything above the
//! runner is the same code everywhere.

pub use duipai_games::{answer, problem, random, text};

pub mod app;
pub mod companion;
pub mod compile;
pub mod excerpt;
pub mod fsutil;
pub mod hunt;
pub mod judge;
pub mod own;
pub mod pack;
pub mod polygon;
pub mod pool;
pub mod report;
pub mod run;
pub mod saved;
pub mod stress;
pub mod submissions;
pub mod suite;
