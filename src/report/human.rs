//! The human report of `stress`: one line per engine event, and the failing case with the
//! expected and actual output and the reference line of play.

use super::Styles;
use crate::excerpt::excerpt;
use crate::problem::explanations_text;
use crate::stress::save::SAVED_OUTPUT_BYTES;
use crate::stress::{End, Event, Failure, Minimization, MinimizeStatus};
use crate::text::{indent, plural_s};

/// Moves shown at each end of a compact line of play.
const COMPACT_MOVES: usize = 5;

/// The line an engine event prints, if any (progress goes to the progress line instead).
pub fn stress_event(event: &Event, styles: &Styles) -> Option<String> {
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
            super::styles::paint(verdict.code(), styles.verdict(*verdict))
        ),
        Event::SavedOriginal(path) => format!("saved the failing case: {}", path.display()),
        Event::MinimizeStarted => {
            "minimizing (Ctrl-C stops and keeps the smallest case so far)...".to_string()
        }
        Event::MinimizeProgress(_) => return None,
        Event::NotMinimized(why) => format!("not minimized: {why}"),
        Event::MinimizeError(message) => format!("minimization stopped: {message}"),
        Event::Note(note) => format!("note: {note}"),
        Event::Minimized(m) => minimized(m),
    })
}

/// `minimized in 6 steps, 30 runs, 5.7 s (no smaller candidate fails)`: how minimization
/// ended, and, when it did not end 1-minimal, which passes were cut short or not tried.
fn minimized(m: &Minimization) -> String {
    let stats = &m.stats;
    let cut_short = || match m.passes.cut_short.as_slice() {
        [] => String::new(),
        parts => format!("; cut short: {}", parts.join(", ")),
    };
    let how = match stats.end {
        _ if m.interrupted => format!("interrupted{}", cut_short()),
        End::Stopped => format!("stopped by the error above{}", cut_short()),
        End::Idle => format!(
            "a round found nothing smaller: a smaller case may still fail{}",
            cut_short()
        ),
        End::Budget => format!(
            "the time budget of {} s ran out first: a smaller case may still fail \
             (--shrink-time){}",
            m.budget.as_secs_f64(),
            cut_short()
        ),
        End::Minimal if m.passes.not_tried.is_empty() => {
            "no smaller candidate fails: 1-minimal for the passes tried".to_string()
        }
        End::Minimal => {
            let not_tried: Vec<String> = m
                .passes
                .not_tried
                .iter()
                .map(|(pass, why)| format!("{pass}: {why}"))
                .collect();
            format!(
                "no smaller candidate of those tried fails; not tried: {}",
                not_tried.join("; ")
            )
        }
    };
    let done = if m.unchanged {
        "nothing smaller was found:"
    } else {
        "minimized in"
    };
    format!(
        "{done} {} step{}, {} run{}, {:.1} s ({how})",
        stats.steps,
        plural_s(stats.steps as u64),
        stats.runs,
        plural_s(stats.runs as u64),
        m.elapsed.as_secs_f64(),
    )
}

/// The live line while minimizing: `minimizing: 12×12 → 3×3, values 1.2M → 14, 37 runs, 1.2 s`.
pub fn minimize_status(status: &MinimizeStatus) -> String {
    format!(
        "minimizing: {} → {}, values {} → {}, {}, {:.1} s",
        status.start_shape,
        status.shape,
        short_number(status.start_max),
        short_number(status.max),
        crate::text::plural(status.runs as u64, "run"),
        status.elapsed.as_secs_f64()
    )
}

/// 14, 9.5k, 1.2M: a value in at most four characters and a unit.
fn short_number(v: i64) -> String {
    let a = v.unsigned_abs() as f64;
    if a < 10_000.0 {
        v.to_string()
    } else if a < 1e6 {
        format!("{:.1}k", v as f64 / 1e3)
    } else if a < 1e9 {
        format!("{:.1}M", v as f64 / 1e6)
    } else {
        format!("{:.1}G", v as f64 / 1e9)
    }
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
        "{}: no failure in {cases} case{} (seeds {first_seed}{}), {} cases/s, {:.1} s",
        if interrupted { "interrupted" } else { "done" },
        plural_s(cases),
        last_seed.map(|l| format!("..={l}")).unwrap_or_default(),
        crate::text::rate(rate),
        elapsed.as_secs_f64()
    )
}

/// The failing case, what was expected and what came, and the reference line of play: each
/// an excerpt when large (first lines, the lines around the first difference, last lines),
/// with the files that hold all of it named.
pub fn stress_failure(failure: &Failure) -> String {
    // A case duipai cannot parse (a problem it does not know) is measured as text.
    let size = match &failure.instance {
        Some(instance) => instance.shape(),
        None => crate::stress::TextCase::new(&failure.input).size_label(),
    };
    let mut out = format!("\ncase ({size}): {}\n", failure.input_path.display());
    if let Some(origin) = origin(failure) {
        out.push_str(&format!("    ({origin})\n"));
    }
    out.push_str(&indent(&excerpt(&failure.input[..]).render()));
    let outcome = &failure.outcome;
    let verdict = format!(
        "({} {})",
        outcome.verdict().code(),
        outcome.judgement.detail
    );
    let (expected, actual) = super::shown_texts(&failure.expected.text, outcome);
    let actual = if outcome.execution.stdout.is_empty() {
        "(no output)".to_string()
    } else {
        actual.trim_end().to_string()
    };
    if let Some(transcript) = &outcome.transcript {
        out.push_str(&exchange(failure, &transcript.render()));
    } else if expected.contains('\n') || actual.contains('\n') {
        // Answers of several cases: each on its own line, as the program prints them.
        out.push_str("expected:\n");
        out.push_str(&indent(&expected));
        out.push_str(&format!("actual: {verdict}\n"));
        out.push_str(&indent(&actual));
    } else {
        out.push_str(&format!("expected: {expected}\n"));
        out.push_str(&format!("actual:   {actual} {verdict}\n"));
    }
    if let Some(saved) = saved_whole(failure) {
        out.push_str(&format!("    ({saved})\n"));
    }
    out.push_str(&super::stderr_block(&super::stderr_tail(
        &outcome.execution.stderr,
    )));
    if let Some(explanations) = &failure.explanation {
        out.push_str("\nreference line of play:\n");
        let text = explanations_text(explanations, Some(COMPACT_MOVES));
        out.push_str(&indent(&text));
        if let Some(path) = &failure.explain_path {
            out.push_str(&format!(
                "    (the whole line of play: {})\n",
                path.display()
            ));
        }
    }
    out
}

/// Where the whole expected answer and output are, when the report shows only excerpts.
fn saved_whole(failure: &Failure) -> Option<String> {
    let Some(shown) = &failure.outcome.shown else {
        return None;
    };
    let input_cut = !excerpt(&failure.input[..]).is_whole();
    if shown.expected.is_whole() && shown.actual.is_whole() && !input_cut {
        return None;
    }
    let path = &failure.input_path;
    let output = &failure.outcome.execution.stdout;
    let out_note = if output.len() > SAVED_OUTPUT_BYTES as u64 {
        format!(
            ", the output's first {} of {} in {}",
            crate::text::bytes(SAVED_OUTPUT_BYTES as u64),
            crate::text::bytes(output.len()),
            path.with_extension("out").display()
        )
    } else {
        format!(", the output in {}", path.with_extension("out").display())
    };
    Some(format!(
        "all of it: the case in {}, the answer in {}{out_note}",
        path.display(),
        path.with_extension("ans").display()
    ))
}

/// The end of the exchange of an interactive case, where the whole of it was saved, and the
/// verdict.
fn exchange(failure: &Failure, transcript: &str) -> String {
    let saved = failure.input_path.with_extension("transcript");
    let lines: Vec<&str> = transcript.lines().collect();
    let shown = &lines[lines.len().saturating_sub(super::TRANSCRIPT_LINES)..];
    let mut out = format!(
        "exchange (> the program wrote, < the interactor wrote; all of it in {}):\n",
        saved.display()
    );
    if shown.len() < lines.len() {
        out.push_str(&format!(
            "    … {} earlier lines\n",
            lines.len() - shown.len()
        ));
    }
    if lines.is_empty() {
        out.push_str("    (nothing was said)\n");
    }
    out.push_str(&indent(&shown.join("\n")));
    let judgement = &failure.outcome.judgement;
    out.push_str(&format!(
        "verdict:  {} {}\n",
        judgement.verdict.code(),
        judgement.detail
    ));
    out
}

/// Which cases of the input as found the reported input holds, when the file had several:
/// `case 3 of the 8 in the input as found`.
fn origin(failure: &Failure) -> Option<String> {
    let total = failure.original_cases.filter(|&n| n > 1)?;
    let origins = failure.instance.as_ref()?.origins();
    let numbers: Vec<String> = origins.iter().map(|o| (o + 1).to_string()).collect();
    Some(match numbers.as_slice() {
        [one] => format!("case {one} of the {total} in the input as found"),
        many => format!(
            "cases {} of the {total} in the input as found",
            many.join(", ")
        ),
    })
}
