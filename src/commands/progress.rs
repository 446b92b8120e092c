//! The live progress line of long commands: on a terminal only, never in a pipe or a log.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A counter with its rate and the elapsed time, drawn on stderr when stderr is a terminal.
pub(crate) struct Progress {
    bar: ProgressBar,
    unit: &'static str,
}

impl Progress {
    pub(crate) fn new(unit: &'static str) -> Progress {
        // indicatif hides a stderr target that is not a terminal, so piped runs stay quiet.
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{spinner} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        Progress { bar, unit }
    }

    pub(crate) fn update(&self, done: u64, elapsed: Duration) {
        let secs = elapsed.as_secs_f64();
        let rate = if secs > 0.0 { done as f64 / secs } else { 0.0 };
        self.bar
            .set_message(format!("{done} {}, {rate:.0}/s, {secs:.1} s", self.unit));
        self.bar.tick();
    }

    pub(crate) fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
