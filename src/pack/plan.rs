//! Test plans as data: one `gen` invocation per test point, with the seed it is generated
//! with. Plan files look like
//!
//! ```text
//! # comment
//! gen chess --n 2 --m 2 --b-zero --seed 101   # test point 1
//! ```
//! and are parsed by the command-line layer, with the same flags as `duipai gen`.

use std::fmt;

use crate::problem::{GenParams, Problem};

/// The name a built-in plan is reported under.
pub fn builtin_name(problem: &dyn Problem) -> String {
    format!("<built-in {} plan>", problem.name())
}

/// One test point of a plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanLine {
    /// 1-based line number in the plan file.
    pub line: usize,
    /// The invocation as written, comment removed, whitespace collapsed to single spaces.
    pub text: String,
    pub problem: &'static dyn Problem,
    pub params: GenParams,
    /// The seed as written; see [`effective_seed`] for the one actually used.
    pub seed: u64,
}

impl PlanLine {
    /// The command that prints this test's input, given the pack's `--seed`.
    pub fn command(&self, pack_seed: u64) -> String {
        let flags = self.params.to_flags();
        let seed = effective_seed(self.seed, pack_seed);
        if flags.is_empty() {
            format!("duipai gen {} --seed {seed}", self.problem)
        } else {
            format!("duipai gen {} {flags} --seed {seed}", self.problem)
        }
    }
}

/// A parsed plan: where it came from and its test points in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The plan's file name, used in messages and in the manifest.
    pub name: String,
    pub lines: Vec<PlanLine>,
}

/// A plan line that cannot be used, as `FILE:LINE: message`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanError {
    pub file: String,
    /// 1-based; 0 when the problem is the plan as a whole (it has no test line).
    pub line: usize,
    pub message: String,
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(f, "{}:{}: {}", self.file, self.line, self.message)
        }
    }
}

impl std::error::Error for PlanError {}

/// The seed a plan line is generated with: the written seed when the pack seed is 0, otherwise
/// both mixed by SplitMix64 so that every pack seed gives an unrelated pack.
pub fn effective_seed(line_seed: u64, pack_seed: u64) -> u64 {
    if pack_seed == 0 {
        line_seed
    } else {
        splitmix64(line_seed ^ splitmix64(pack_seed))
    }
}

/// SplitMix64's output function (Steele, Lea, Flood 2014): a bijection on u64 that scrambles
/// every input bit into every output bit.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_mix_only_when_asked() {
        assert_eq!(effective_seed(101, 0), 101);
        assert_ne!(effective_seed(101, 1), 101);
        assert_ne!(effective_seed(101, 1), effective_seed(102, 1));
        assert_ne!(effective_seed(101, 1), effective_seed(101, 2));
        // SplitMix64 with state 0 gives 0xE220A8397B1DCDAF as its first output (published
        // reference value of the generator).
        assert_eq!(splitmix64(0), 0xE220_A839_7B1D_CDAF);
    }
}
