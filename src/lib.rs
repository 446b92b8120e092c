//! duipai: reference solvers, seeded generators, a judging runner and stress testing for
//! staircase game problems (`chess`, `chessboard`).
//!
//! Layers, each importing only those below it: `app` (the command line) → `report` →
//! `stress`, `suite` → `pool`, `pack`, `judge`, `problem` → `run`, `compile` → the leaves
//! `random`, `text`, `fsutil`.

pub mod answer;
pub mod app;
pub mod compile;
pub mod fsutil;
pub mod judge;
pub mod pack;
pub mod pool;
pub mod problem;
pub mod random;
pub mod report;
pub mod run;
pub mod stress;
pub mod suite;
pub mod text;
