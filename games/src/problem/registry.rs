//! The registry: every game duipai knows, and what the command line derives from them.

use super::chess::CHESS;
use super::chessboard::CHESSBOARD;
use super::fishhead::FISHHEAD;
use super::gems::GEMS;
use super::params::{BoundSpec, GenParams, ParamSpec, ParamValue};
use super::shooting::SHOOTING;
use crate::problem::contract::{Problem, Registered};

/// Every game duipai knows, in the order help texts list them. Adding a game is one folder
/// and one entry here.
pub static ALL: &[&dyn Registered] = &[&CHESS, &CHESSBOARD, &GEMS, &FISHHEAD, &SHOOTING];

/// The registered game called `name` (as typed on the command line).
pub fn by_name(name: &str) -> Option<&'static dyn Problem> {
    ALL.iter()
        .copied()
        .find(|p| p.name() == name)
        .map(|p| p as &dyn Problem)
}

/// The names of every registered game, for messages and `--help`.
pub fn names() -> Vec<&'static str> {
    ALL.iter().map(|p| p.name()).collect()
}

/// Every generator parameter of every game, each name once (its first declaration), in
/// registry order: the command line's generator flags, and the order replay lines use.
pub fn all_params() -> Vec<&'static ParamSpec> {
    first_of_each_name(|game| game.params(), |p| p.name)
}

/// Every bound of every game, each name once, in registry order: the `--bound-*` flags.
pub fn all_bounds() -> Vec<&'static BoundSpec> {
    first_of_each_name(|game| game.bounds(), |b| b.name)
}

/// The `items` of every game in registry order, each `name` once (its first declaration).
fn first_of_each_name<T>(
    items: impl Fn(&'static dyn Registered) -> &'static [T],
    name: impl Fn(&T) -> &'static str,
) -> Vec<&'static T> {
    let mut out: Vec<&'static T> = Vec::new();
    for item in ALL.iter().flat_map(|&game| items(game)) {
        if !out.iter().any(|q| name(q) == name(item)) {
            out.push(item);
        }
    }
    out
}

impl GenParams {
    /// Sets a parameter, keeping every parameter in the order of [`super::all_params`].
    pub fn set(&mut self, name: &'static str, value: ParamValue) {
        self.given.retain(|(n, _)| *n != name);
        self.given.push((name, value));
        let order = |n: &str| {
            all_params()
                .iter()
                .position(|p| p.name == n)
                .unwrap_or(usize::MAX)
        };
        self.given.sort_by_key(|(n, _)| order(n));
    }
}
