//! Model tests, with no process started: the conformance suite over every registered game,
//! parsers, solvers against brute force, generator goldens, and the stress engine, the suite
//! and `judge`'s matrix and time limit on in-process test doubles of the runner.

mod conformance;
mod engine;
mod fishhead;
mod gems;
mod generate;
mod matrix;
mod plans;
mod problems;
mod shooting;
