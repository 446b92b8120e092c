//! The styles of human reports, chosen where the text is rendered: the renderer knows which
//! words are a verdict and which lines of a diff were removed or added. Terminal streams drop
//! the codes when colour is off (`anstream`), so renderers always style; [`Styles::plain`]
//! is for text that never reaches a terminal.

use anstyle::{AnsiColor, Style};

use crate::judge::Verdict;

/// One style per kind of thing a report shows.
#[derive(Clone, Copy, Debug)]
pub struct Styles {
    pub accepted: Style,
    /// A wrong answer or a presentation error.
    pub wrong: Style,
    /// Over a time, memory or output limit.
    pub over_limit: Style,
    pub crashed: Style,
    pub diff_header: Style,
    pub diff_hunk: Style,
    pub diff_removed: Style,
    pub diff_added: Style,
}

impl Styles {
    /// No styling at all.
    pub fn plain() -> Styles {
        let none = Style::new();
        Styles {
            accepted: none,
            wrong: none,
            over_limit: none,
            crashed: none,
            diff_header: none,
            diff_hunk: none,
            diff_removed: none,
            diff_added: none,
        }
    }

    /// Accepted green, wrong red, over a limit yellow, crashed magenta; a diff's removed lines
    /// red and added lines green.
    pub fn colored() -> Styles {
        let fg = |color: AnsiColor| Style::new().fg_color(Some(color.into()));
        Styles {
            accepted: fg(AnsiColor::Green).bold(),
            wrong: fg(AnsiColor::Red).bold(),
            over_limit: fg(AnsiColor::Yellow).bold(),
            crashed: fg(AnsiColor::Magenta).bold(),
            diff_header: Style::new().bold(),
            diff_hunk: fg(AnsiColor::Cyan),
            diff_removed: fg(AnsiColor::Red),
            diff_added: fg(AnsiColor::Green),
        }
    }

    pub fn verdict(&self, verdict: Verdict) -> Style {
        match verdict {
            Verdict::Accepted => self.accepted,
            Verdict::WrongAnswer | Verdict::PresentationError => self.wrong,
            Verdict::TimeLimitExceeded
            | Verdict::MemoryLimitExceeded
            | Verdict::OutputLimitExceeded => self.over_limit,
            Verdict::RuntimeError => self.crashed,
        }
    }
}

/// `text` in `style`; nothing is added for the plain style.
pub fn paint(text: &str, style: Style) -> String {
    if style == Style::new() {
        text.to_string()
    } else {
        format!("{}{text}{}", style.render(), style.render_reset())
    }
}

/// A verdict's code in its style, padded to `width` outside the codes, so columns line up
/// whether or not colour is on.
pub fn verdict_code(verdict: Verdict, width: usize, styles: &Styles) -> String {
    let code = verdict.code();
    let padding = " ".repeat(width.saturating_sub(code.len()));
    format!("{}{padding}", paint(code, styles.verdict(verdict)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_adds_nothing_and_colour_keeps_the_columns() {
        let plain = verdict_code(Verdict::WrongAnswer, 3, &Styles::plain());
        assert_eq!(plain, "WA ");
        let colored = verdict_code(Verdict::WrongAnswer, 3, &Styles::colored());
        assert!(colored.starts_with("\u{1b}["), "{colored:?}");
        assert!(colored.ends_with("WA\u{1b}[0m "), "{colored:?}");
    }
}
