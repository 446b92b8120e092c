//! `duipai failures`: the failing cases `stress` saved, listed with the program that failed
//! each; with `--prune-passing`, re-run on a program and removed when they pass now.

use std::path::{Path, PathBuf};

use anyhow::bail;

use crate::app::args::{FailuresArgs, SettingArgs, parse_setting, setting_words};
use crate::app::exit::Status;
use crate::app::ui::{self, Human, jobs};
use crate::app::{interrupt, programs};
use crate::judge::CaseOutcome;
use crate::report::{self, CaseRecord};
use crate::saved;
use crate::suite::{self, StoredCase, SuiteRun};
use crate::text::plural;
use crate::text::program_name;

pub fn run(args: FailuresArgs) -> anyhow::Result<Status> {
    if args.prune_passing {
        interrupt::install();
        programs::warn_flags_after_separator("failures", &args.program);
        let Some(problem) = args.problem.clone() else {
            bail!(
                "--prune-passing re-runs one problem's failures: name it, `duipai failures \
                 PROBLEM --prune-passing -- PROGRAM` (or set `problem` in duipai.toml)"
            );
        };
        return prune(&args, &problem);
    }
    list(&args)
}

/// Prints the saved failures as a table: problem, seed, verdict, program, size, when.
fn list(args: &FailuresArgs) -> anyhow::Result<Status> {
    let saved = saved::list(&args.save, args.problem.as_deref())?;
    let out = Human::new(false);
    let of = args
        .problem
        .as_deref()
        .map(|p| format!(" of {p}"))
        .unwrap_or_default();
    if saved.is_empty() {
        out.line(format!("no saved failures{of} in {}", args.save.display()));
        return Ok(Status::Success);
    }
    let mut rows = vec![
        [
            "problem",
            "seed",
            "verdict",
            "program",
            "size",
            "saved (UTC)",
        ]
        .map(String::from),
    ];
    for case in &saved {
        let (verdict, program) = match &case.meta {
            Some(meta) => (meta.verdict.clone(), meta.program.clone()),
            None => ("?".to_string(), "?".to_string()),
        };
        rows.push([
            case.problem.clone(),
            case.seed.to_string(),
            verdict,
            program,
            size(case.bytes),
            case.saved_at.map_or_else(|| "?".to_string(), utc_minutes),
        ]);
    }
    out.text(table(&rows));
    out.text(replay_lines(&saved));
    // The command to prune them, for the problem listed if there is only one.
    let first = &saved[0].problem;
    let problem = if saved.iter().all(|s| s.problem == *first) {
        first.as_str()
    } else {
        "PROBLEM"
    };
    out.line(format!(
        "\n{}{of} in {}; `duipai failures {problem} --prune-passing -- PROGRAM` removes \
         those that pass now",
        plural(saved.len() as u64, "saved failure"),
        args.save.display()
    ));
    Ok(Status::Success)
}

/// How many replay lines the listing shows.
const REPLAYS_SHOWN: usize = 10;

/// The command that judges each saved case as it was judged, from its sidecar: the program
/// that failed it, its judging flags. Nothing for cases saved without a setting.
fn replay_lines(saved: &[saved::Saved]) -> String {
    let lines: Vec<String> = saved
        .iter()
        .filter_map(|case| {
            let meta = case.meta.as_ref()?;
            let setting = meta.setting.as_ref()?;
            let flags: String = setting
                .flags
                .iter()
                .map(|w| format!(" {}", crate::text::shell_quote(w)))
                .collect();
            Some(format!(
                "duipai test {} {}{flags} -- {}",
                case.problem,
                crate::text::shell_quote(&case.input.to_string_lossy()),
                meta.program
            ))
        })
        .collect();
    if lines.is_empty() {
        return String::new();
    }
    let mut text = String::from("\nreplay each as it was judged:\n");
    for line in lines.iter().take(REPLAYS_SHOWN) {
        text.push_str(&format!("    {line}\n"));
    }
    if lines.len() > REPLAYS_SHOWN {
        text.push_str(&format!(
            "    ... and {} more\n",
            lines.len() - REPLAYS_SHOWN
        ));
    }
    text
}

/// Re-runs `problem`'s saved failures on the program and removes those that pass now. Each
/// case is judged as the flags typed say, or without any, as its sidecar says it was judged
/// (its checker, interactor, tolerance, limits): cases saved with different settings are
/// re-run group by group.
fn prune(args: &FailuresArgs, problem: &str) -> anyhow::Result<Status> {
    // A mistyped program is reported before anything runs, and nothing is removed.
    let program = programs::ready(&args.program, &args.compilers, "program")?;
    let typed_setting = &args.setting;
    typed_setting.run.containment.arm(vec![args.save.clone()])?;
    let typed = setting_words(
        &typed_setting.compare,
        &typed_setting.checker,
        &typed_setting.limits,
        &typed_setting.run,
    );
    let [groups, skipped] = setting_groups(&args.save, problem, &typed)?;
    let out = Human::new(false);
    let total: usize = groups
        .iter()
        .chain(&skipped)
        .map(|(_, names)| names.len())
        .sum();
    if total == 0 {
        out.line(format!(
            "no saved failures of {problem} in {}",
            args.save.display()
        ));
        return Ok(Status::Success);
    }
    out.line(format!(
        "re-running {} of {problem} saved in {} on {}",
        plural(total as u64, "failing case"),
        args.save.display(),
        program_name(&args.program)
    ));
    let mut still = say_skipped(&skipped, &out);
    for (words, names) in &groups {
        if typed.is_empty() && !words.is_empty() {
            out.line(format!("judged as saved: {}", words.join(" ")));
        }
        still += prune_group(args, problem, &program, &parse_setting(words)?, names, &out)?;
    }
    Ok(if still == 0 {
        Status::Success
    } else {
        Status::Failure
    })
}

/// The saved cases of `problem` (their paths), grouped by the judging flags to re-run them
/// with: `typed` when given, else each case's own from its sidecar; and, apart, the cases
/// whose sidecar names a helper the command line does not (by the helper's words): those
/// are not judged, for a sidecar's helper is never run on its own authority.
fn setting_groups(dir: &Path, problem: &str, typed: &[String]) -> anyhow::Result<[Groups; 2]> {
    let mut groups: Groups = Vec::new();
    let mut skipped: Groups = Vec::new();
    for case in saved::list(dir, Some(problem))? {
        let saved = case.meta.as_ref().and_then(|m| m.setting.as_ref());
        let (words, helpers) = match (typed.is_empty(), saved) {
            (true, Some(setting)) => crate::app::args::helpers_of_saved(&setting.flags),
            _ => (typed.to_vec(), Vec::new()),
        };
        let name = case.input.to_string_lossy().into_owned();
        let (into, key) = if helpers.is_empty() {
            (&mut groups, words)
        } else {
            (&mut skipped, helpers)
        };
        match into.iter_mut().find(|(w, _)| *w == key) {
            Some((_, names)) => names.push(name),
            None => into.push((key, vec![name])),
        }
    }
    Ok([groups, skipped])
}

/// Cases by the flags they are judged with (or the helpers their sidecar names).
type Groups = Vec<(Vec<String>, Vec<String>)>;

/// Says which cases are not judged for a helper their sidecar names, and how to judge them;
/// returns how many (they count as still failing: nothing says they pass).
fn say_skipped(skipped: &Groups, out: &Human) -> usize {
    for (helpers, names) in skipped {
        let helpers = helpers.join(" ");
        out.line(format!(
            "skipped {}: the sidecar names {helpers}, which neither the command line nor \
             duipai.toml names (a sidecar is data, not a command); add {helpers} to judge {} so",
            file_names_of(names),
            if names.len() == 1 { "it" } else { "them" }
        ));
    }
    skipped.iter().map(|(_, names)| names.len()).sum()
}

/// The file names of saved cases' paths, comma-separated.
fn file_names_of(names: &[String]) -> String {
    names
        .iter()
        .map(|n| {
            Path::new(n)
                .file_name()
                .map_or_else(|| n.clone(), |f| f.to_string_lossy().into_owned())
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Re-runs the saved cases `names` judged as `setting` says, and removes those that pass;
/// returns how many still fail.
fn prune_group(
    args: &FailuresArgs,
    problem: &str,
    program: &[std::ffi::OsString],
    setting: &SettingArgs,
    names: &[String],
    out: &Human,
) -> anyhow::Result<usize> {
    let limits = setting.limits.resolve_named(problem);
    let known = crate::problem::by_name(problem);
    let rule = setting.compare.rule(known)?;
    let decider = programs::decider(
        &setting.checker,
        &setting.compare,
        &args.compilers,
        &setting.limits.helpers(&limits),
    )?;
    let cases: Vec<StoredCase> = suite::collect_saved(&args.save, problem, rule)?
        .into_iter()
        .filter(|c| names.contains(&c.name))
        .collect();
    let io = setting.run.io_mode_named(problem);
    let run = SuiteRun {
        runner: &setting.run.runner(),
        program,
        limits: &limits,
        io: &io,
        jobs: jobs(args.jobs),
        decider: &decider,
    };
    let outcomes = suite::judge_all(
        &cases,
        &run,
        |i, outcome| {
            let record = CaseRecord::new(&cases[i].name, &cases[i].expected.text, outcome);
            out.line(report::human_line(&record, &ui::styles()));
        },
        || {},
    )?;
    if crate::run::cancelled() {
        bail!(
            "{} of {} re-run; nothing removed",
            outcomes.len(),
            plural(cases.len() as u64, "case")
        );
    }
    remove_passing(&cases, &outcomes, out)
}

/// Removes the files of every case that passed (`outcomes[i]` is `cases[i]`'s), saying which
/// files went; prints how many still fail and returns that number.
pub fn remove_passing(
    cases: &[StoredCase],
    outcomes: &[CaseOutcome],
    out: &Human,
) -> anyhow::Result<usize> {
    let mut removed_cases = 0;
    for (case, outcome) in cases.iter().zip(outcomes) {
        if !outcome.verdict().is_accepted() {
            continue;
        }
        let removed = saved::remove_case(Path::new(&case.name))?;
        removed_cases += 1;
        out.line(format!("removed {}", file_names(&removed)));
    }
    let still = outcomes.len() - removed_cases;
    out.line(match (removed_cases, still) {
        (_, 0) => format!(
            "all of them pass now: removed {}",
            plural(removed_cases as u64, "case")
        ),
        (0, _) => format!("{still} still failing; nothing removed"),
        _ => format!(
            "removed {} that pass now; {still} still failing",
            plural(removed_cases as u64, "case")
        ),
    });
    Ok(still)
}

/// The removed files grouped by case: `duipai-failures/avg-1.{in,ans,out}, avg-1.original.{in,ans}`
/// (the directory once: they are all beside the first).
fn file_names(paths: &[PathBuf]) -> String {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for path in paths {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let (stem, ext) = match name.strip_suffix(".explain.txt") {
            Some(stem) => (stem.to_string(), "explain.txt".to_string()),
            None => match name.rsplit_once('.') {
                Some((stem, ext)) => (stem.to_string(), ext.to_string()),
                None => (name.to_string(), String::new()),
            },
        };
        match groups.last_mut() {
            Some((last, exts)) if *last == stem => exts.push(ext),
            _ => groups.push((stem, vec![ext])),
        }
    }
    let dir = paths
        .first()
        .and_then(|p| p.parent())
        .filter(|d| !d.as_os_str().is_empty())
        .map(|d| format!("{}/", d.display()))
        .unwrap_or_default();
    let groups: Vec<String> = groups
        .iter()
        .map(|(stem, exts)| match exts.as_slice() {
            [one] => format!("{stem}.{one}"),
            many => format!("{stem}.{{{}}}", many.join(",")),
        })
        .collect();
    format!("{dir}{}", groups.join(", "))
}

/// A file size: `34 B`, `3.4 KiB`, `1.2 MiB`.
pub(super) fn size(bytes: u64) -> String {
    const KIB: f64 = 1024.0;
    let b = bytes as f64;
    if b < KIB {
        format!("{bytes} B")
    } else if b < KIB * KIB {
        format!("{:.1} KiB", b / KIB)
    } else {
        format!("{:.1} MiB", b / KIB / KIB)
    }
}

/// `2026-05-01 12:03`: a time in seconds since the Unix epoch, in UTC, to the minute.
fn utc_minutes(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let minutes = secs % 86_400 / 60;
    // Days to a civil date (Howard Hinnant's algorithm), in the proleptic Gregorian calendar.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}",
        minutes / 60,
        minutes % 60
    )
}

/// Rows of columns, each padded to its widest cell; numbers right-aligned.
fn table(rows: &[[String; 6]]) -> String {
    let mut widths = [0usize; 6];
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .zip(widths)
            .enumerate()
            .map(|(column, (cell, width))| {
                if column == 1 || column == 4 {
                    format!("{cell:>width$}")
                } else {
                    format!("{cell:<width$}")
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_shown_in_utc() {
        assert_eq!(utc_minutes(0), "1970-01-01 00:00");
        assert_eq!(utc_minutes(951_782_400 + 3_660), "2000-02-29 01:01");
        assert_eq!(utc_minutes(1_767_225_599), "2025-12-31 23:59");
    }

    #[test]
    fn removed_files_are_grouped_by_case() {
        let paths: Vec<PathBuf> = [
            "f/avg-1.in",
            "f/avg-1.ans",
            "f/avg-1.explain.txt",
            "f/avg-1.original.in",
        ]
        .iter()
        .map(PathBuf::from)
        .collect();
        assert_eq!(
            file_names(&paths),
            "f/avg-1.{in,ans,explain.txt}, avg-1.original.in"
        );
    }

    #[test]
    fn sizes_are_readable() {
        assert_eq!(size(34), "34 B");
        assert_eq!(size(3_500), "3.4 KiB");
        assert_eq!(size(5 << 20), "5.0 MiB");
    }
}
