//! Model tests, with no process started: the conformance suite over every registered game,
//! parsers, solvers against brute force, generator goldens, and the stress engine and the
//! suite on an in-process test double of the runner.

mod conformance;
mod engine;
mod fishhead;
mod gems;
mod generate;
mod plans;
mod problems;
mod shooting;
