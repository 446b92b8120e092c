//! The time limit by the ICPC format's rule (`time_multipliers` in `problem.yaml`): at least
//! the slowest run of the submissions that may not time out times `ac_to_time_limit`, at most
//! the slowest run of each time-limit-exceeded submission divided by `time_limit_to_tle`; when
//! none is given, the smallest multiple of `time_resolution` that satisfies both.

use std::time::Duration;

/// The format's timing settings.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Multipliers {
    pub ac_to_time_limit: f64,
    pub time_limit_to_tle: f64,
    /// `time_resolution`, in seconds.
    pub resolution: f64,
}

impl Default for Multipliers {
    /// The format's defaults: 2.0, 1.5 and 1 s.
    fn default() -> Self {
        Multipliers {
            ac_to_time_limit: 2.0,
            time_limit_to_tle: 1.5,
            resolution: 1.0,
        }
    }
}

impl Multipliers {
    /// The smallest multiple of the resolution at or above `slowest × ac_to_time_limit` (one
    /// resolution at least).
    pub fn derive(&self, slowest: Duration) -> Duration {
        let need = slowest.as_secs_f64() * self.ac_to_time_limit;
        // A hair below, so that a product that is a multiple up to rounding stays one.
        let steps = (need / self.resolution - 1e-9).ceil().max(1.0);
        Duration::from_secs_f64(steps * self.resolution)
    }
}

/// A run that bounds the time limit: its CPU time, the submission and the test.
#[derive(Clone, Debug, PartialEq)]
pub struct Bound {
    pub time: Duration,
    pub submission: String,
    pub test: String,
    /// The run was stopped at the measuring cap: its time is at least `time`.
    pub at_least: bool,
    /// Every CPU time measured of the run when it was measured more than once (`time` is then
    /// the fastest); empty otherwise.
    pub measured: Vec<Duration>,
}

impl Bound {
    /// `fastest of 3 runs: 0.412, 0.530, 0.415 s` when it was measured more than once.
    pub fn runs_note(&self) -> Option<String> {
        if self.measured.len() < 2 {
            return None;
        }
        let times: Vec<String> = self
            .measured
            .iter()
            .map(|t| format!("{:.3}", t.as_secs_f64()))
            .collect();
        Some(format!(
            "fastest of {} runs: {} s",
            self.measured.len(),
            times.join(", ")
        ))
    }
}

/// The time limit the verdicts are judged by, and what the format's rule says of it.
#[derive(Clone, Debug, PartialEq)]
pub struct TimeLimit {
    pub in_force: Duration,
    /// Where it comes from: `problem.yaml`, `duipai.toml or --time-limit`, or `the format's
    /// rule` when it is the derived one.
    pub source: String,
    /// What the rule gives from the lower bound; `None` without a submission that bounds it.
    pub derived: Option<Duration>,
    /// The slowest run of the submissions that may not time out.
    pub lower: Option<Bound>,
    /// The fastest slowest-run of the time-limit-exceeded submissions.
    pub upper: Option<Bound>,
    pub multipliers: Multipliers,
}

impl TimeLimit {
    /// Where the limit in force breaks the rule, each a sentence.
    pub fn violations(&self) -> Vec<String> {
        let m = &self.multipliers;
        let limit = self.in_force.as_secs_f64();
        let mut broken = Vec::new();
        if let Some(lower) = &self.lower
            && lower.time.as_secs_f64() * m.ac_to_time_limit > limit + 1e-9
        {
            broken.push(format!(
                "{} takes {:.3} s on {}, and {:.3} s × {} is more than the limit {limit} s",
                lower.submission,
                lower.time.as_secs_f64(),
                lower.test,
                lower.time.as_secs_f64(),
                m.ac_to_time_limit
            ));
        }
        if let Some(upper) = &self.upper
            && !upper.at_least
            && limit * m.time_limit_to_tle > upper.time.as_secs_f64() + 1e-9
        {
            broken.push(format!(
                "{} is slowest on {} with {:.3} s, less than the limit {limit} s × {} = {:.3} s: \
                 a judge's machine a little faster accepts it",
                upper.submission,
                upper.test,
                upper.time.as_secs_f64(),
                m.time_limit_to_tle,
                limit * m.time_limit_to_tle
            ));
        }
        broken
    }
}

/// `1 s`, `1.5 s`.
pub fn show(limit: Duration) -> String {
    format!("{} s", limit.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_is_the_smallest_multiple_of_the_resolution() {
        let m = Multipliers::default();
        assert_eq!(m.derive(Duration::from_millis(330)), Duration::from_secs(1));
        assert_eq!(m.derive(Duration::from_millis(500)), Duration::from_secs(1));
        assert_eq!(m.derive(Duration::from_millis(501)), Duration::from_secs(2));
        assert_eq!(m.derive(Duration::ZERO), Duration::from_secs(1));
        let fine = Multipliers {
            resolution: 0.1,
            ..m
        };
        assert_eq!(
            fine.derive(Duration::from_millis(330)),
            Duration::from_millis(700)
        );
    }

    #[test]
    fn a_limit_too_tight_or_too_loose_is_named() {
        let bound = |ms, at_least| Bound {
            time: Duration::from_millis(ms),
            submission: "s".into(),
            test: "t".into(),
            at_least,
            measured: Vec::new(),
        };
        let limit = TimeLimit {
            in_force: Duration::from_secs(1),
            source: "problem.yaml".into(),
            derived: Some(Duration::from_secs(2)),
            lower: Some(bound(600, false)),
            upper: Some(bound(1200, false)),
            multipliers: Multipliers::default(),
        };
        let broken = limit.violations();
        assert_eq!(broken.len(), 2, "{broken:?}");
        assert!(broken[0].contains("more than the limit 1 s"));
        assert!(broken[1].contains("less than the limit 1 s × 1.5"));
        let fine = TimeLimit {
            lower: Some(bound(400, false)),
            upper: Some(bound(1500, true)),
            ..limit
        };
        assert!(fine.violations().is_empty());
    }
}
