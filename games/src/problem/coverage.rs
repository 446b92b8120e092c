//! Bound coverage: for each bound of a game, the range valid inputs may take and the smallest
//! and largest value a set of inputs reached, as the parser saw them. The scanner records a
//! value for every bounded read ([`super::input::Scanner::bounded`]), so a game's parser says
//! once which bound a read belongs to and every command gets the coverage from the same pass
//! that validates (`duipai validate --coverage`, the summary at the end of `pack`).

use super::params::BoundSpec;

/// The values one bound reached: the range valid inputs allow (`lo..=hi`) and the smallest
/// and largest value read, with how many reads there were.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reached {
    pub bound: &'static str,
    pub lo: i64,
    pub hi: i64,
    pub min: i64,
    pub max: i64,
    pub reads: u64,
}

impl Reached {
    /// Whether both ends of the allowed range were reached.
    pub fn complete(&self) -> bool {
        self.min == self.lo && self.max == self.hi
    }

    /// The ends of the allowed range no input reached: `min 1`, `max 10`.
    pub fn missing_ends(&self) -> Vec<String> {
        let mut missing = Vec::new();
        if self.min > self.lo {
            missing.push(format!("min {}", self.lo));
        }
        if self.max < self.hi {
            missing.push(format!("max {}", self.hi));
        }
        missing
    }
}

/// The values inputs reached, per bound, in the order the bounds were first read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    reached: Vec<Reached>,
}

impl Coverage {
    /// Records that a value of `bound`, which valid inputs keep within `lo..=hi`, was `value`.
    /// Ranges of several reads of one bound are joined (a bound whose range depends on the
    /// input, like a colour up to the file's G, reports the widest).
    pub fn record(&mut self, bound: &'static str, lo: i64, hi: i64, value: i64) {
        match self.reached.iter_mut().find(|r| r.bound == bound) {
            Some(r) => {
                r.lo = r.lo.min(lo);
                r.hi = r.hi.max(hi);
                r.min = r.min.min(value);
                r.max = r.max.max(value);
                r.reads += 1;
            }
            None => self.reached.push(Reached {
                bound,
                lo,
                hi,
                min: value,
                max: value,
                reads: 1,
            }),
        }
    }

    /// Adds what another set of inputs reached.
    pub fn merge(&mut self, other: &Coverage) {
        for r in &other.reached {
            match self.reached.iter_mut().find(|s| s.bound == r.bound) {
                Some(s) => {
                    s.lo = s.lo.min(r.lo);
                    s.hi = s.hi.max(r.hi);
                    s.min = s.min.min(r.min);
                    s.max = s.max.max(r.max);
                    s.reads += r.reads;
                }
                None => self.reached.push(*r),
            }
        }
    }

    /// What `bound` reached, if any input read it.
    pub fn get(&self, bound: &str) -> Option<&Reached> {
        self.reached.iter().find(|r| r.bound == bound)
    }

    /// One row per bound of `bounds`, in their order: what it reached, `None` for a bound no
    /// input read.
    pub fn rows<'a>(
        &'a self,
        bounds: &'a [BoundSpec],
    ) -> impl Iterator<Item = (&'static str, Option<&'a Reached>)> + 'a {
        bounds.iter().map(|b| (b.name, self.get(b.name)))
    }

    /// The bounds of `bounds` with an end no input reached (or that no input read).
    pub fn missed(&self, bounds: &[BoundSpec]) -> Vec<&'static str> {
        self.rows(bounds)
            .filter(|(_, r)| !r.is_some_and(Reached::complete))
            .map(|(name, _)| name)
            .collect()
    }

    /// Each bound of `bounds` with an end no input reached, with what was reached:
    /// `n min 1 (reached 2..=4)`, `m max 10 (reached 1..=3)`, `cases (no input read it)`.
    pub fn missed_ends(&self, bounds: &[BoundSpec]) -> Vec<String> {
        self.rows(bounds)
            .filter_map(|(name, reached)| {
                let Some(r) = reached else {
                    return Some(format!("{name} (no input read it)"));
                };
                let ends = r.missing_ends();
                (!ends.is_empty())
                    .then(|| format!("{name} {} (reached {}..={})", ends.join(", "), r.min, r.max))
            })
            .collect()
    }

    /// The coverage as a table, a line each (without line breaks): the bound, the range
    /// valid inputs allow, the smallest and largest value reached, and `BOUND NOT REACHED`
    /// with the ends that no input reached.
    pub fn table(&self, bounds: &[BoundSpec]) -> Vec<String> {
        let mut rows = vec![[
            "bound".to_string(),
            "allowed".to_string(),
            "reached".to_string(),
            String::new(),
        ]];
        for (name, reached) in self.rows(bounds) {
            let row = match reached {
                None => [
                    name.to_string(),
                    "-".to_string(),
                    "-".to_string(),
                    "BOUND NOT REACHED: no input read it".to_string(),
                ],
                Some(r) => {
                    let missing = r.missing_ends();
                    let note = if missing.is_empty() {
                        String::new()
                    } else {
                        format!("BOUND NOT REACHED: {}", missing.join(", "))
                    };
                    [
                        name.to_string(),
                        format!("{}..={}", r.lo, r.hi),
                        format!("{}..={}", r.min, r.max),
                        note,
                    ]
                }
            };
            rows.push(row);
        }
        let width = |i: usize| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0);
        let widths = [width(0), width(1), width(2)];
        rows.iter()
            .map(|r| {
                format!(
                    "{:w0$}  {:w1$}  {:w2$}  {}",
                    r[0],
                    r[1],
                    r[2],
                    r[3],
                    w0 = widths[0],
                    w1 = widths[1],
                    w2 = widths[2]
                )
                .trim_end()
                .to_string()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOUNDS: &[BoundSpec] = &[
        BoundSpec::new("n", "", 10, 1, 100),
        BoundSpec::new("value", "", 100, 0, 1000),
        BoundSpec::new("cases", "", 5, 1, 9),
    ];

    #[test]
    fn ends_reached_and_missed_are_reported() {
        let mut a = Coverage::default();
        a.record("n", 1, 10, 1);
        a.record("value", 0, 100, 7);
        let mut b = Coverage::default();
        b.record("n", 1, 10, 10);
        b.record("value", 0, 100, 100);
        a.merge(&b);
        assert!(a.get("n").unwrap().complete());
        assert_eq!(a.get("n").unwrap().reads, 2);
        assert_eq!(a.get("value").unwrap().min, 7);
        assert_eq!(a.missed(BOUNDS), ["value", "cases"]);
        assert_eq!(
            a.missed_ends(BOUNDS),
            ["value min 0 (reached 7..=100)", "cases (no input read it)"]
        );
        assert_eq!(
            a.table(BOUNDS),
            [
                "bound  allowed  reached",
                "n      1..=10   1..=10",
                "value  0..=100  7..=100  BOUND NOT REACHED: min 0",
                "cases  -        -        BOUND NOT REACHED: no input read it",
            ]
        );
    }
}
