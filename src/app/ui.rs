//! The terminal side of the commands: where human text goes, colour, and the one live
//! progress line (on a terminal only, never in a pipe or a log).
//!
//! Human text is written through `anstream`, which drops the colour codes unless colour is
//! wanted: `--color always`, or `auto` on a terminal without `NO_COLOR` (`CLICOLOR_FORCE`
//! forces it). JSON goes to stdout with `println!` and is never coloured.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use anstyle::{AnsiColor, Style};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::app::args::ColorArg;
use crate::report::Styles;

/// Applies `--color` to every stream written through `anstream`.
pub fn set_color(choice: ColorArg) {
    match choice {
        ColorArg::Auto => anstream::ColorChoice::Auto,
        ColorArg::Always => anstream::ColorChoice::Always,
        ColorArg::Never => anstream::ColorChoice::Never,
    }
    .write_global();
}

/// `text` in `style` (the codes are dropped on the way out when colour is off).
pub fn paint(text: &str, style: Style) -> String {
    format!("{}{text}{}", style.render(), style.render_reset())
}

fn fg(color: AnsiColor) -> Style {
    Style::new().fg_color(Some(color.into()))
}

/// The styles of human reports: always the colours, which `anstream` drops on the way out
/// when colour is off.
pub fn styles() -> Styles {
    Styles::colored()
}

/// An explanation with whose cell is whose coloured: Feifei's cells (F) and white pieces (W)
/// in one colour, Niuniu's (N) and black pieces (B) in another.
pub fn explanation(text: &str) -> String {
    let mut out = String::new();
    let mut in_grid = false;
    for line in text.lines() {
        if line.starts_with("Who took which cell") {
            in_grid = true;
        } else if !line.starts_with("  ") {
            in_grid = false;
        }
        if in_grid && line.starts_with("  ") {
            for c in line.chars() {
                match c {
                    'F' => out.push_str(&paint("F", fg(AnsiColor::Cyan).bold())),
                    'N' => out.push_str(&paint("N", fg(AnsiColor::Magenta).bold())),
                    c => out.push(c),
                }
            }
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// Where human-readable text goes: stdout normally, stderr when stdout carries JSON.
pub struct Human {
    to_stderr: bool,
}

impl Human {
    pub fn new(json: bool) -> Human {
        Human { to_stderr: json }
    }

    pub fn line(&self, text: impl AsRef<str>) {
        self.text(format!("{}\n", text.as_ref()));
    }

    pub fn text(&self, text: impl AsRef<str>) {
        // A closed pipe (`| head`) is not worth a panic; the exit status still tells.
        if self.to_stderr {
            let _ = anstream::stderr().write_all(text.as_ref().as_bytes());
        } else {
            let _ = anstream::stdout().write_all(text.as_ref().as_bytes());
        }
    }
}

/// A live line on stderr: a counter with its rate and the elapsed time, or a bar toward a
/// known total. Drawn only when stderr is a terminal, and for a bar only once the work has
/// taken a moment, so quick and redirected runs print nothing.
pub struct Progress {
    bar: ProgressBar,
    unit: &'static str,
    start: Instant,
    /// A bar waits for [`Progress::DELAY`] before it appears; `None` for a counter.
    delayed: Option<bool>,
    /// When stderr is not a terminal (a CI log), a plain line every so often instead of the
    /// live line, and when the next is due: a log silent for minutes looks hung, and many CI
    /// services stop a job that prints nothing for ten.
    plain: Option<(Duration, std::cell::Cell<Instant>)>,
}

impl Progress {
    const DELAY: Duration = Duration::from_millis(300);

    /// A spinner with a count of `unit` (`cases`), its rate and the elapsed time.
    pub fn counter(unit: &'static str) -> Progress {
        // indicatif hides a stderr target that is not a terminal, so piped runs stay quiet.
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{spinner} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        Progress {
            bar,
            unit,
            start: Instant::now(),
            delayed: None,
            plain: None,
        }
    }

    /// With a plain line on stderr every `every` when stderr is not a terminal.
    pub fn with_plain_lines(mut self, every: Duration) -> Progress {
        if !std::io::stderr().is_terminal() {
            self.plain = Some((every, std::cell::Cell::new(Instant::now() + every)));
        }
        self
    }

    /// Prints `text` as a plain line when one is due.
    fn plain_line(&self, text: &str) {
        if let Some((every, next)) = &self.plain
            && Instant::now() >= next.get()
        {
            next.set(Instant::now() + *every);
            eprintln!("duipai: {text}");
        }
    }

    /// A bar of `len` `unit`s, labelled `label`.
    pub fn bar(label: &'static str, len: u64, unit: &'static str) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden());
        let template = format!("{{msg}} [{{bar:30}}] {{pos}}/{{len}} {unit}");
        if let Ok(style) = ProgressStyle::with_template(&template) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_message(label);
        Progress {
            bar,
            unit,
            start: Instant::now(),
            delayed: Some(std::io::stderr().is_terminal()),
            plain: None,
        }
    }

    /// The counter's new value.
    pub fn update(&self, done: u64, elapsed: Duration) {
        let secs = elapsed.as_secs_f64();
        let rate = if secs > 0.0 { done as f64 / secs } else { 0.0 };
        let text = format!(
            "{done} {}, {}/s, {secs:.1} s",
            self.unit,
            crate::text::rate(rate)
        );
        self.plain_line(&text);
        self.bar.set_message(text);
        self.bar.tick();
    }

    /// The bar's new position.
    pub fn set_position(&self, done: u64) {
        if self.delayed == Some(true) && self.bar.is_hidden() && self.start.elapsed() >= Self::DELAY
        {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        self.bar.set_position(done);
    }

    /// A free-form status in place of the counter.
    pub fn message(&self, text: String) {
        self.plain_line(&text);
        self.bar.set_message(text);
        self.bar.tick();
    }

    /// Runs `f` (which prints) with the live line out of the way.
    pub fn suspend(&self, f: impl FnOnce()) {
        self.bar.suspend(f);
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

pub use crate::app::args::jobs;
