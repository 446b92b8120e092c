//! `chessboard` (CCPC 2019 Qinhuangdao G): the instance type and its text form.

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
}
