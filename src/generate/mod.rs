//! Seeded random inputs: the portable random stream, samplers, and case families.

use std::str::FromStr;

/// The generator flags shared by `gen` and `stress`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct GenArgs {
    /// Rows: N or LO..HI (default: the problem's whole range).
    #[arg(long, value_name = "N|LO..HI")]
    pub n: Option<SizeRange>,
    /// Columns, chess only: N or LO..HI (default: the problem's whole range).
    #[arg(long, value_name = "N|LO..HI")]
    pub m: Option<SizeRange>,
    /// Largest value or weight generated (default: the problem's bound).
    #[arg(long, value_name = "V")]
    pub max_value: Option<i64>,
    /// Chess only: all B = 0 (the official subtask).
    #[arg(long)]
    pub b_zero: bool,
}

/// An inclusive range of sizes, written `N` or `LO..HI`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SizeRange {
    pub lo: usize,
    pub hi: usize,
}

impl FromStr for SizeRange {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let parse = |t: &str| {
            t.trim()
                .parse::<usize>()
                .map_err(|_| format!("expected N or LO..HI, found {s:?}"))
        };
        let (lo, hi) = match s.split_once("..") {
            Some((lo, hi)) => (parse(lo)?, parse(hi.strip_prefix('=').unwrap_or(hi))?),
            None => {
                let v = parse(s)?;
                (v, v)
            }
        };
        if lo == 0 || lo > hi {
            return Err(format!("size range {s:?}: need 1 <= LO <= HI"));
        }
        Ok(SizeRange { lo, hi })
    }
}
