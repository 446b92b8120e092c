//! The human report of `stress`: one line per engine event, and the failing case with the
//! expected and actual output and the reference line of play.

use crate::stress::{Event, Failure, Minimization};
use crate::text::{indent, plural_s};

/// The line an engine event prints, if any (progress goes to the progress line instead).
pub fn stress_event(event: &Event) -> Option<String> {
    Some(match event {
        Event::Progress { .. } => return None,
        Event::Failed {
            seed,
            cases,
            verdict,
            detail,
        } => format!(
            "FAILED on seed {seed} after {cases} case{}: {} {detail}",
            plural_s(*cases),
            verdict.code()
        ),
        Event::SavedOriginal(path) => format!("saved the failing case: {}", path.display()),
        Event::MinimizeStarted => {
            "minimizing (Ctrl-C stops and keeps the smallest case so far)...".to_string()
        }
        Event::MinimizeError(message) => format!("minimization stopped: {message}"),
        Event::Minimized(m) => minimized(m),
    })
}

fn minimized(m: &Minimization) -> String {
    let stats = &m.stats;
    format!(
        "minimized in {} step{}, {} run{}, {:.1} s{}",
        stats.steps,
        plural_s(stats.steps as u64),
        stats.attempts,
        plural_s(stats.attempts as u64),
        m.elapsed.as_secs_f64(),
        if m.interrupted {
            " (interrupted)"
        } else if stats.stopped {
            " (stopped by the error above)"
        } else if stats.exhausted {
            " (budget reached)"
        } else {
            ""
        }
    )
}

/// The stress summary when no case failed.
pub fn stress_passed(
    cases: u64,
    first_seed: u64,
    last_seed: Option<u64>,
    interrupted: bool,
    elapsed: std::time::Duration,
) -> String {
    let rate = cases as f64 / elapsed.as_secs_f64().max(1e-9);
    format!(
        "{}: no failure in {cases} case{} (seeds {first_seed}{}), {rate:.0} cases/s, {:.1} s",
        if interrupted { "interrupted" } else { "done" },
        plural_s(cases),
        last_seed.map(|l| format!("..={l}")).unwrap_or_default(),
        elapsed.as_secs_f64()
    )
}

/// The failing case, what was expected and what came, and the reference line of play.
pub fn stress_failure(failure: &Failure) -> String {
    let mut out = format!(
        "\ncase ({}): {}\n",
        failure
            .instance
            .as_ref()
            .map_or("as generated".to_string(), |i| i.shape()),
        failure.input_path.display()
    );
    out.push_str(&indent(&String::from_utf8_lossy(&failure.input)));
    out.push_str(&format!(
        "expected: {}\n",
        failure.expected.to_text().trim_end()
    ));
    let outcome = &failure.outcome;
    out.push_str(&format!(
        "actual:   {} ({} {})\n",
        shown_output(&outcome.execution.stdout),
        outcome.verdict().code(),
        outcome.judgement.detail
    ));
    if let Some(explanation) = &failure.explanation {
        out.push_str("\nreference line of play:\n");
        out.push_str(&indent(&explanation.full()));
    }
    out
}

/// The start of a program's output for the report, or a note that there was none.
pub fn shown_output(stdout: &[u8]) -> String {
    let text = String::from_utf8_lossy(&stdout[..stdout.len().min(200)]);
    let text = text.trim_end();
    match (text.is_empty(), stdout.len() > 200) {
        (true, _) => "(no output)".to_string(),
        (false, true) => format!("{text}…"),
        (false, false) => text.to_string(),
    }
}
