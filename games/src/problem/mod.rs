//! The problems duipai knows. This file is the module's face: it declares the modules and
//! hands their names on, and nothing inside `problem/` imports through it. The contract, the
//! object-safe [`Problem`] and [`Instance`] the engine uses, is `contract.rs`; the registry
//! [`ALL`], the one place that names the games, is `registry.rs`. Every file imports only from
//! files below it: the games from the shared pieces, the registry from the games.
//!
//! A game is one folder (`chess/`, `chessboard/`): its strict parser, reference solver,
//! explanation, independent brute force, generator families and shrink candidates, tied
//! together by an implementation of the typed [`Game`] trait; the generic [`Builtin`] adapter
//! makes it a `Problem`. What the games share lives beside them: the file structure
//! ([`file`]), bounds and generator parameters ([`params`]), generator settings
//! ([`generate`]), the staircase state space ([`staircase`]), the input scanner and the
//! solver's result types.

pub mod chess;
pub mod chessboard;
mod contract;
pub mod coverage;
pub mod file;
pub mod fishhead;
pub mod game;
pub mod gems;
pub mod generate;
pub mod input;
pub mod layout;
pub mod package;
pub mod params;
mod registry;
pub mod shooting;
pub mod shrink;
mod solution;
pub mod staircase;

pub use chess::{CHESS, Chess, ChessProblem};
pub use chessboard::{CHESSBOARD, Cell, Chessboard, ChessboardProblem};
pub use contract::{Family, Instance, Problem, Registered, Size, Spec, Verify};
pub use coverage::{Coverage, Reached};
pub use file::Structure;
pub use fishhead::{FISHHEAD, Fishhead, FishheadProblem};
pub use game::{Builtin, Cases, Game};
pub use gems::{GEMS, Gems, GemsProblem};
pub use generate::{GenError, SizeProfile};
pub use input::InputError;
pub use package::Package;
pub use params::{BoundSpec, Bounds, GenParams, ParamKind, ParamSpec, ParamValue, SizeRange};
pub use registry::{ALL, all_bounds, all_params, by_name, names};
pub use shooting::{SHOOTING, Shooting, ShootingProblem};
pub use solution::{Explanation, SolveError, explanations_text};
