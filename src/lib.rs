//! duipai: reference solvers, seeded generators, a judging runner and stress testing for
//! staircase game problems (`chess`, `chessboard`).

pub mod cli;
pub mod commands;
pub mod exit;
pub mod generate;
pub mod pack;
pub mod problem;
pub mod staircase;
