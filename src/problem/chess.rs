//! `chess` (Luogu P4363 一双木棋): the instance type and its text form.

/// An n×m board with Feifei's values `a` and Niuniu's values `b`, row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chess {
    pub n: usize,
    pub m: usize,
    pub a: Vec<Vec<i64>>,
    pub b: Vec<Vec<i64>>,
}

impl Chess {
    pub fn to_input(&self) -> String {
        let mut out = format!("{} {}\n", self.n, self.m);
        super::write_rows(&mut out, &self.a);
        super::write_rows(&mut out, &self.b);
        out
    }
}
