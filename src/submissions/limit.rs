//! The time limit by the ICPC format's rule (`time_multipliers` in `problem.yaml`): at least
//! the slowest run of the submissions that may not time out times `ac_to_time_limit`, at most
//! the slowest run of each time-limit-exceeded submission divided by `time_limit_to_tle`; when
//! none is given, the smallest multiple of `time_resolution` that satisfies both.

use std::time::Duration;

/// Measurements of each run that may bind the time limit from below, the first included.
pub const BINDING_RUNS: usize = 3;

/// The format's timing settings.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Multipliers {
    pub ac_to_time_limit: f64,
    pub time_limit_to_tle: f64,
    /// `time_resolution`, in seconds.
    pub resolution: f64,
    /// The limit is a Polygon package's own: a run over it times out and one within it does
    /// not, with no margin either way; reports speak of the package's limit, not of the
    /// ICPC format's rule. Not in the JSON report, whose multipliers say the same.
    #[serde(skip)]
    pub package_limit: bool,
}

impl Default for Multipliers {
    /// The format's defaults: 2.0, 1.5 and 1 s.
    fn default() -> Self {
        Multipliers {
            ac_to_time_limit: 2.0,
            time_limit_to_tle: 1.5,
            resolution: 1.0,
            package_limit: false,
        }
    }
}

impl Multipliers {
    /// A Polygon package's: its time limit is its own, with no margin asked of the accepted
    /// solutions nor of the time-limit-exceeded ones (a run over the limit is over it).
    pub fn polygon() -> Multipliers {
        Multipliers {
            ac_to_time_limit: 1.0,
            time_limit_to_tle: 1.0,
            resolution: 0.001,
            package_limit: true,
        }
    }

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

/// The measurements of a run that binds the limit agree when the slowest is at most this
/// share above the fastest...
pub const SPREAD_BOUND: f64 = 0.10;

/// ... or at most this much above it (a short run's times differ by a timer's tick).
pub const SPREAD_FLOOR: Duration = Duration::from_millis(20);

impl Bound {
    /// `fastest of 3 runs: 0.412, 0.530, 0.415 s, spread 29%` when it was measured more than
    /// once.
    pub fn runs_note(&self) -> Option<String> {
        let spread = self.spread()?;
        let times: Vec<String> = self
            .measured
            .iter()
            .map(|t| format!("{:.3}", t.as_secs_f64()))
            .collect();
        Some(format!(
            "fastest of {} runs: {} s, spread {:.0}%",
            self.measured.len(),
            times.join(", "),
            spread * 100.0
        ))
    }

    /// How far the slowest measurement is above the fastest, as a share of the fastest;
    /// `None` when it was measured once.
    pub fn spread(&self) -> Option<f64> {
        let (low, high) = self.extremes()?;
        Some((high - low).as_secs_f64() / low.as_secs_f64().max(1e-6))
    }

    fn extremes(&self) -> Option<(Duration, Duration)> {
        if self.measured.len() < 2 {
            return None;
        }
        let low = *self.measured.iter().min()?;
        let high = *self.measured.iter().max()?;
        Some((low, high))
    }

    /// Why its measurements disagree, when the spread is beyond [`SPREAD_BOUND`] and
    /// [`SPREAD_FLOOR`].
    pub fn disagreement(&self) -> Option<String> {
        let (low, high) = self.extremes()?;
        let spread = self.spread()?;
        let beyond = spread > SPREAD_BOUND && high - low > SPREAD_FLOOR;
        let times: Vec<String> = self
            .measured
            .iter()
            .map(|t| format!("{:.3}", t.as_secs_f64()))
            .collect();
        beyond.then(|| {
            format!(
                "the runs that bind it disagree: {} on {} took {} s{}, {:.0}% apart (more than \
                 {:.0}%)",
                self.submission,
                self.test,
                times.join(", "),
                if self.measured.len() > BINDING_RUNS {
                    ", measured again as the first three disagreed"
                } else {
                    ""
                },
                spread * 100.0,
                SPREAD_BOUND * 100.0
            )
        })
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
    /// The machine while the runs that bind the limit were measured again.
    pub machine: Option<super::machine::Machine>,
}

impl TimeLimit {
    /// Why the derived limit may not be what a quiet machine gives, so that it is not
    /// written: the measurements of the run that binds it disagree, or the machine was busy.
    pub fn unsteady(&self) -> Vec<String> {
        let mut why = Vec::new();
        why.extend(self.lower.as_ref().and_then(Bound::disagreement));
        why.extend(self.machine.as_ref().and_then(|m| m.busy()));
        why
    }

    /// Where the limit in force breaks the rule, each a sentence.
    pub fn violations(&self) -> Vec<String> {
        let m = &self.multipliers;
        let limit = self.in_force.as_secs_f64();
        let mut broken = Vec::new();
        if let Some(lower) = &self.lower
            && lower.time.as_secs_f64() * m.ac_to_time_limit > limit + 1e-9
        {
            broken.push(match m.package_limit {
                true => format!(
                    "{} takes {:.3} s on {}, more than the package's limit {limit} s",
                    lower.submission,
                    lower.time.as_secs_f64(),
                    lower.test,
                ),
                false => format!(
                    "{} takes {:.3} s on {}, and {:.3} s × {} is more than the limit {limit} s",
                    lower.submission,
                    lower.time.as_secs_f64(),
                    lower.test,
                    lower.time.as_secs_f64(),
                    m.ac_to_time_limit
                ),
            });
        }
        if let Some(upper) = &self.upper
            && !upper.at_least
            && limit * m.time_limit_to_tle > upper.time.as_secs_f64() + 1e-9
        {
            broken.push(match m.package_limit {
                true => format!(
                    "{} is slowest on {} with {:.3} s, within the package's limit {limit} s",
                    upper.submission,
                    upper.test,
                    upper.time.as_secs_f64(),
                ),
                false => format!(
                    "{} is slowest on {} with {:.3} s, less than the limit {limit} s × {} = \
                     {:.3} s: a judge's machine a little faster accepts it",
                    upper.submission,
                    upper.test,
                    upper.time.as_secs_f64(),
                    m.time_limit_to_tle,
                    limit * m.time_limit_to_tle
                ),
            });
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
            machine: None,
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
        assert!(fine.unsteady().is_empty());
    }

    #[test]
    fn a_binding_run_measured_apart_is_named() {
        let measured = |ms: &[u64]| Bound {
            time: Duration::from_millis(*ms.iter().min().unwrap()),
            submission: "accepted/sol.py".into(),
            test: "secret/06".into(),
            at_least: false,
            measured: ms.iter().map(|&m| Duration::from_millis(m)).collect(),
        };
        let close = measured(&[414, 393, 396]);
        assert_eq!(
            close.runs_note().unwrap(),
            "fastest of 3 runs: 0.414, 0.393, 0.396 s, spread 5%"
        );
        assert!(close.disagreement().is_none());
        let apart = measured(&[389, 552, 700]);
        let why = apart.disagreement().unwrap();
        assert_eq!(
            why,
            "the runs that bind it disagree: accepted/sol.py on secret/06 took 0.389, 0.552, \
             0.700 s, 80% apart (more than 10%)"
        );
        // A few milliseconds apart is a timer's tick, whatever the share.
        assert!(measured(&[20, 31, 22]).disagreement().is_none());
        assert_eq!(
            Bound {
                measured: Vec::new(),
                ..apart
            }
            .spread(),
            None
        );
    }
}
