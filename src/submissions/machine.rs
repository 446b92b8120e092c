//! Whether the machine was quiet while the runs that bind the time limit were measured: the
//! share of the time some task waited for a CPU (Linux's pressure stall information,
//! `/proc/pressure/cpu`, between two samples), else the load average against the CPUs. A
//! busy machine slows every program down, and a limit derived there is too high: `judge
//! --write-time-limit` refuses to write it.

use std::time::Instant;

/// Busy: some task waited for a CPU more than this share of the time.
pub const WAITING_BOUND: f64 = 0.25;

/// Busy, without pressure figures: a one-minute load average above this many times the CPUs.
pub const LOAD_BOUND: f64 = 1.5;

/// The pressure counter at one moment.
#[derive(Clone, Debug)]
pub struct Sample {
    /// `some total=` of `/proc/pressure/cpu`: microseconds some task waited for a CPU.
    waited_us: Option<u64>,
    at: Instant,
}

/// Samples the pressure counter now.
pub fn sample() -> Sample {
    let waited_us = std::fs::read_to_string("/proc/pressure/cpu")
        .ok()
        .and_then(|text| some_total(&text));
    Sample {
        waited_us,
        at: Instant::now(),
    }
}

/// What the machine did between two samples.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Machine {
    /// The share of the time some task waited for a CPU, when the kernel says.
    pub waiting: Option<f64>,
    /// The one-minute load average at the end.
    pub load: Option<f64>,
    pub cpus: usize,
}

impl Machine {
    /// The machine between `start` and now.
    pub fn since(start: &Sample) -> Machine {
        let end = sample();
        let elapsed = end.at.duration_since(start.at).as_micros() as f64;
        let waiting = match (start.waited_us, end.waited_us) {
            (Some(a), Some(b)) if elapsed > 0.0 => {
                Some((b.saturating_sub(a) as f64 / elapsed).min(1.0))
            }
            _ => None,
        };
        let load = std::fs::read_to_string("/proc/loadavg")
            .ok()
            .and_then(|text| text.split_whitespace().next()?.parse().ok());
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        Machine {
            waiting,
            load,
            cpus,
        }
    }

    /// Why the machine counts as busy, if it does.
    pub fn busy(&self) -> Option<String> {
        if let Some(waiting) = self.waiting {
            return (waiting > WAITING_BOUND).then(|| {
                format!(
                    "the machine was busy: some task waited for a CPU {:.0}% of the time while \
                     the runs that bind the limit were measured (more than {:.0}%)",
                    waiting * 100.0,
                    WAITING_BOUND * 100.0
                )
            });
        }
        let load = self.load?;
        (load > LOAD_BOUND * self.cpus as f64).then(|| {
            format!(
                "the machine was busy: a load average of {load:.1} on {} CPU{} (more than {} \
                 times the CPUs)",
                self.cpus,
                crate::text::plural_s(self.cpus as u64),
                LOAD_BOUND
            )
        })
    }
}

/// `total=` of the `some` line of a pressure file.
fn some_total(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("some "))?;
    line.split_whitespace()
        .find_map(|word| word.strip_prefix("total="))?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_machine_is_busy_by_its_pressure_else_its_load() {
        let text = "some avg10=97.71 avg60=98.72 avg300=98.94 total=2871356073\n\
                    full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n";
        assert_eq!(some_total(text), Some(2871356073));
        assert_eq!(some_total("nothing"), None);
        let machine = |waiting, load| Machine {
            waiting,
            load,
            cpus: 2,
        };
        let why = machine(Some(0.9), Some(0.1)).busy().unwrap();
        assert!(why.contains("waited for a CPU 90% of the time"), "{why}");
        // The pressure decides when the kernel gives it, whatever the load.
        assert_eq!(machine(Some(0.05), Some(9.0)).busy(), None);
        let why = machine(None, Some(8.2)).busy().unwrap();
        assert!(why.contains("a load average of 8.2 on 2 CPUs"), "{why}");
        assert_eq!(machine(None, Some(2.5)).busy(), None);
        assert_eq!(machine(None, None).busy(), None);
    }
}
