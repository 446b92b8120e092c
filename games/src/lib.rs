//! duipai's built-in games and the contract they implement, apart from the harness: the part
//! of duipai that computes (parsers, exact solvers, brute forces, generators, shrinking,
//! explanations, answer rules) and so is built optimized even in the test build, while the
//! harness that starts and watches processes is not (see the profiles in the workspace's
//! `Cargo.toml`). `duipai` re-exports every module here under its own name
//! (`duipai::problem`, `duipai::answer`, `duipai::random`, `duipai::text`).
//!
//! Layers, each importing only those below it: `problem` → `answer` → the leaves `random`,
//! `text`. Inside `problem`, `registry` names the games, each game's folder implements
//! `game::Game`, and the engine sees them through the contract (`Problem`, `Instance`).

pub mod answer;
pub mod problem;
pub mod random;
pub mod text;
