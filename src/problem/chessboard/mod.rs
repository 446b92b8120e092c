//! `chessboard` (CCPC 2019 Qinhuangdao G "Game on Chessboard"): clear an n×n board of white
//! and black pieces, one at a time at its weight or a white with a black at the difference of
//! their weights, each piece only once no other piece remains below-left of it; the answer is
//! the minimum total cost.

use std::any::Any;

use super::generate::{Family, GenError, GenParams, SizeProfile, Spec, usage};
use super::{Bounds, Explanation, InputError, Instance, Problem, Size, SolveError};
use crate::random::Rng;

pub mod brute;
mod explain;
mod generate;
mod parse;
mod shrink;
mod solve;

/// The game, as registered in [`crate::problem::ALL`].
#[derive(Clone, Copy, Debug, Default)]
pub struct ChessboardProblem;

/// The content of one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    White,
    Black,
    Empty,
}

impl Cell {
    pub fn to_char(self) -> char {
        match self {
            Cell::White => 'W',
            Cell::Black => 'B',
            Cell::Empty => '.',
        }
    }

    pub fn from_char(c: char) -> Option<Cell> {
        match c {
            'W' => Some(Cell::White),
            'B' => Some(Cell::Black),
            '.' => Some(Cell::Empty),
            _ => None,
        }
    }
}

/// An n×n board: cells and weights, row-major, row 0 at the top.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chessboard {
    pub n: usize,
    pub cells: Vec<Vec<Cell>>,
    pub weights: Vec<Vec<i64>>,
}

/// One removal of an optimal sequence. Cells are 1-based (row, column), row 1 at the top;
/// `total` is the cost so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Removal {
    /// One piece removed alone at `cost`, its weight.
    Single {
        piece: Cell,
        cell: (usize, usize),
        cost: i64,
        total: i64,
    },
    /// A white and a black piece removed together at |w_W − w_B|.
    Pair {
        white: (usize, usize),
        black: (usize, usize),
        cost: i64,
        total: i64,
    },
}

impl Chessboard {
    pub fn to_input(&self) -> String {
        let mut out = format!("{}\n", self.n);
        for row in &self.cells {
            out.extend(row.iter().map(|c| c.to_char()));
            out.push('\n');
        }
        super::write_rows(&mut out, &self.weights);
        out
    }

    /// How many cells hold a piece.
    pub fn pieces(&self) -> usize {
        self.cells
            .iter()
            .flatten()
            .filter(|&&c| c != Cell::Empty)
            .count()
    }
}

impl Problem for ChessboardProblem {
    fn name(&self) -> &'static str {
        "chessboard"
    }

    fn about(&self) -> &'static str {
        "CCPC 2019 Qinhuangdao G: clear an n×n board of W/B pieces at minimum cost"
    }

    fn default_bounds(&self) -> Bounds {
        Bounds {
            max_n: 12,
            max_m: 12,
            max_value: 1_000_000,
        }
    }

    fn default_limits(&self) -> (u64, u64) {
        (1000, 1024)
    }

    fn parse(&self, text: &[u8], bounds: &Bounds) -> Result<Box<dyn Instance>, InputError> {
        Ok(Box::new(Chessboard::parse(text, bounds)?))
    }

    fn sample(&self) -> (&'static str, &'static str) {
        (
            include_str!("../../../cases/chessboard/01-sample.in"),
            include_str!("../../../cases/chessboard/01-sample.ans"),
        )
    }

    fn builtin_plan(&self) -> &'static str {
        include_str!("../../../generators/chessboard.plan")
    }

    fn has_columns(&self) -> bool {
        false
    }

    fn check_params(&self, params: &GenParams) -> Result<(), GenError> {
        if params.m.is_some() {
            return Err(usage(
                "--m does not apply to chessboard (boards are n×n; use --n)".to_string(),
            ));
        }
        if params.b_zero {
            return Err(usage(
                "--b-zero does not apply to chessboard (it is the chess B = 0 subtask)".to_string(),
            ));
        }
        Ok(())
    }

    fn families(&self) -> &'static [Family] {
        generate::FAMILIES
    }

    fn generate(
        &self,
        rng: &mut Rng,
        family: &Family,
        profile: SizeProfile,
        spec: &Spec,
    ) -> Box<dyn Instance> {
        Box::new(generate::generate(rng, family, profile, spec))
    }
}

impl Instance for Chessboard {
    fn problem(&self) -> &'static dyn Problem {
        &ChessboardProblem
    }

    fn to_input(&self) -> String {
        Chessboard::to_input(self)
    }

    fn shape(&self) -> String {
        format!("{}×{}", self.n, self.n)
    }

    fn size(&self) -> Size {
        Size {
            cells: self.n * self.n,
            pieces: self.pieces(),
            value_sum: self.weights.iter().flatten().sum(),
        }
    }

    fn max_value(&self) -> i64 {
        self.weights.iter().flatten().copied().max().unwrap_or(0)
    }

    fn try_solve(&self) -> Result<i64, SolveError> {
        Chessboard::try_solve(self)
    }

    fn table_entry_bytes(&self) -> Result<usize, SolveError> {
        Chessboard::table_entry_bytes(self)
    }

    fn try_explain(&self) -> Result<Explanation, SolveError> {
        let (answer, line) = self.try_solve_line()?;
        Ok(self.explanation(answer, &line))
    }

    fn brute_force(&self) -> Option<i64> {
        brute::chessboard(self)
    }

    fn shrink_passes(&self) -> usize {
        shrink::PASSES
    }

    fn shrink_pass(&self, pass: usize) -> Vec<Box<dyn Instance>> {
        shrink::pass(self, pass)
            .into_iter()
            .map(|c| Box::new(c) as Box<dyn Instance>)
            .collect()
    }

    fn value_slots(&self) -> usize {
        shrink::slots(self)
    }

    fn value(&self, slot: usize) -> i64 {
        shrink::value(self, slot)
    }

    fn with_value(&self, slot: usize, value: i64) -> Box<dyn Instance> {
        Box::new(shrink::with_value(self, slot, value))
    }

    fn clone_box(&self) -> Box<dyn Instance> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
