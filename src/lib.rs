//! duipai: reference solvers, seeded generators, a judging runner and stress testing for
//! staircase game problems (`chess`, `chessboard`).

pub mod cli;
pub mod commands;
pub mod compile;
pub mod diff;
pub mod exit;
pub mod fsutil;
pub mod generate;
pub mod interrupt;
pub mod judge;
pub mod pack;
pub mod problem;
pub mod report;
pub mod run;
pub mod shrink;
pub mod staircase;
pub mod verdict;
