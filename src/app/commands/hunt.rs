//! `duipai hunt SUBMISSION [--add]`: for a submission the plan's tests miss, a test that
//! catches it. A wrong one is stressed with the plan's generator lines and new seeds, the
//! failure minimized; a slow one (in `time_limit_exceeded/`, or `--slow`) gets the input it is
//! slowest on. With `--add` the test goes into the plan as a hand-made one.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::app::args::HuntArgs;
use crate::app::exit::Status;
use crate::app::own::{self, Parts};
use crate::app::ui::{Human, jobs};
use crate::app::{interrupt, programs};
use crate::hunt::slow::{self, Timed};
use crate::hunt::{self, Caught, Hunt, WrongHunt};
use crate::judge::ProcessRunner;
use crate::pack::own::plan::OwnPlan;
use crate::text::program_name;

/// How long a hunt takes at most when neither `--time` nor a package's stress says.
const DEFAULT_TIME: Duration = Duration::from_secs(60);

pub fn run(mut args: HuntArgs) -> anyhow::Result<Status> {
    interrupt::install();
    let name = match &args.problem {
        Some(name) => name.clone(),
        None => anyhow::bail!(
            "hunt needs the problem of your own it works on: run it in the problem's folder \
             (its duipai.toml names it), or give --problem NAME with its generators and reference"
        ),
    };
    let stress = match args.polygon_stress {
        Some(index) => Some(crate::app::polygon::stress_here("hunt", index)?.1),
        None => None,
    };
    if let Some(stress) = &stress {
        with_stress(&mut args, stress);
    }
    let problem = own::problem(&name, &Parts::of(&args.own))?;
    let plan = match &stress {
        Some(stress) => crate::pack::polygon::plan_of_stress(stress),
        None => super::pack::own_plan(&problem, args.plan.as_deref())?,
    };
    let plan_path = args
        .plan
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("{name}.plan")));
    if args.add && plan_path.file_name() == Some(crate::polygon::FILE_NAME.as_ref()) {
        anyhow::bail!(
            "--add writes a copy line into a plan of duipai's, and the plan here is a Polygon \
             package's problem.xml, which Polygon keeps: hunt without --add, and add the \
             minimized input it saves to the package's tests in Polygon"
        );
    }
    let typed = vec![args.submission.clone().into_os_string()];
    let program = programs::ready(&typed, &args.own.compilers, "submission")?;
    let submission = shown(&args.submission);
    let mut scratch = Vec::new();
    let decider =
        super::judge::decider_of(&problem, &args.own.compilers, Path::new("."), &mut scratch)?;
    args.containment.arm(vec![args.save.clone()])?;
    let runner = ProcessRunner::default();
    let out = Human::new(false);
    let hunt = Hunt {
        problem: &problem,
        plan: &plan,
        program,
        submission: submission.clone(),
        runner: &runner,
        decider: &decider,
        jobs: jobs(args.jobs),
        time: args.time.unwrap_or(DEFAULT_TIME),
        runs: args.runs,
        first_seed: args.seed,
        save_dir: args.save.clone(),
        shrink_time: args.shrink_time,
        compile_options: crate::app::args::compile_options(&args.own.compilers),
    };
    let slow = args.slow || in_folder(&args.submission, "time_limit_exceeded");
    let found = if slow {
        hunt_slow(&args, &hunt, &out)?
    } else {
        hunt_wrong(&args, &hunt, &out)?
    };
    let Some(found) = found else {
        return Ok(Status::Failure);
    };
    if !args.add {
        out.line("(--add puts it in the plan)");
        return Ok(Status::Success);
    }
    add(&plan_path, &plan, found, &out)
}

/// A package's stress in the hunt's flags: its limits, and its total time as `--time` unless
/// typed.
fn with_stress(args: &mut HuntArgs, stress: &crate::polygon::Stress) {
    args.own.limits.time_limit = Some(stress.time_limit_ms);
    args.own.limits.memory_limit = Some(stress.memory_mib);
    if args.time.is_none() && stress.total_time_ms > 0 {
        args.time = Some(Duration::from_millis(stress.total_time_ms));
    }
}

/// Where the hunt's cases come from, for its first line: `the generators of tests.plan`, or
/// `stress 1's generator (stresses/001)`.
fn origin(args: &HuntArgs, hunt: &Hunt) -> String {
    match args.polygon_stress {
        Some(index) => format!(
            "the generator of stress {index} ({})",
            hunt.plan.lines[0].text
        ),
        None => format!("the generators of {}", hunt.plan.name),
    }
}

/// Puts the test found into the plan: as the line that prints it, or as a copy of a few
/// lines; a wrong answer's case too large for that is added as the line that prints the case
/// as found, or not at all.
fn add(plan_path: &Path, plan: &OwnPlan, found: Found, out: &Human) -> anyhow::Result<Status> {
    let large = found.input.len() as u64 > hunt::SMALL_COPY && !found.large_allowed;
    let gen_line = match (&found.generated, &found.line_of_found) {
        (Some(exact), _) => Some(exact.clone()),
        (None, Some(of_found)) if large => {
            out.line(format!(
                "the minimized case is still {} ({}): the line that prints the case as found \
                 goes into the plan instead of a copy (with a validator, the text of a case \
                 whose size comes from the generator's arguments is shrunk too)",
                crate::text::plural(line_count(&found.input), "line"),
                super::failures::size(found.input.len() as u64)
            ));
            Some(of_found.clone())
        }
        _ => None,
    };
    if let Some(gen_line) = gen_line {
        // The generator prints it for its seed: the plan makes it again, no copy needed.
        let line =
            hunt::add_line_to_plan(plan_path, plan, &format!("{gen_line}  # {}", found.comment))?;
        out.line(format!("added to {}: {line}", plan_path.display()));
        return Ok(Status::Success);
    }
    if large {
        out.line(format!(
            "not added to {}: the minimized case is still {}, no line of the plan prints it \
             (its choices were perturbed), and a wrong answer is added as a copy of a few lines \
             (at most {}); give the problem a validator, or more --shrink-time, and hunt again",
            plan_path.display(),
            super::failures::size(found.input.len() as u64),
            super::failures::size(hunt::SMALL_COPY)
        ));
        return Ok(Status::Failure);
    }
    let (file, line) =
        hunt::add_to_plan(plan_path, plan, &found.stem, &found.input, &found.comment)?;
    // Sized: a copy is a file of the package from now on.
    out.line(format!(
        "added to {}: {line}\nsaved the input as {} ({})",
        plan_path.display(),
        file.display(),
        super::failures::size(found.input.len() as u64)
    ));
    Ok(Status::Success)
}

/// A test that catches the submission: the input, a file stem, the plan line's comment, and
/// the plan line that prints it (`gen ... --seed S`) when it is exactly a line's output.
struct Found {
    input: Vec<u8>,
    stem: String,
    comment: String,
    generated: Option<String>,
    /// The plan line that prints the case as found, before minimization, when one does.
    line_of_found: Option<String>,
    /// Whether a large copy may be added: a slow input's size is what makes it slow.
    large_allowed: bool,
}

/// The submission as messages name it: `wrong_answer/int_sums.cpp` under `submissions/`,
/// else its path.
fn shown(path: &Path) -> String {
    let parts: Vec<String> = path
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    match parts.iter().position(|p| p == "submissions") {
        Some(at) if at + 1 < parts.len() => parts[at + 1..].join("/"),
        _ => path.display().to_string(),
    }
}

/// Whether the submission lies in a folder named `folder`.
fn in_folder(path: &Path, folder: &str) -> bool {
    path.parent()
        .and_then(Path::file_name)
        .is_some_and(|f| f == folder)
}

/// A file name for the test found: the submission's stem.
fn stem_of(path: &Path) -> String {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "hunt".to_string());
    stem.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The hunt for a wrong submission: the case it fails, if one is found.
fn hunt_wrong(args: &HuntArgs, hunt: &Hunt, out: &Human) -> anyhow::Result<Option<Found>> {
    out.line(format!(
        "hunting a test that {} fails, with {} and new seeds from {} (at most {:.0} s)",
        hunt.submission,
        origin(args, hunt),
        args.seed,
        hunt.time.as_secs_f64()
    ));
    let found = hunt::hunt_wrong(hunt, &mut |line, first, perturbed| {
        let how = match perturbed {
            true => ", the generator's choices perturbed",
            false => "",
        };
        out.line(format!(
            "  line {}: {} with seeds from {first}{how}",
            line.line, line.text
        ));
    })?;
    match found {
        WrongHunt::Missed { cases } => {
            out.line(format!(
                "no test failed in {} ({:.0} s): the submission passes what the plan's \
                 generators make; try other arguments, or more --time",
                crate::text::plural(cases, "case"),
                hunt.time.as_secs_f64()
            ));
            Ok(None)
        }
        WrongHunt::Caught(caught) => {
            show_caught(args, &caught, out);
            Ok(Some(found_of(args, hunt, &caught)))
        }
    }
}

/// What was caught: the verdict, the line and seed, the case (minimized or as found) and
/// where it is saved.
fn show_caught(args: &HuntArgs, caught: &Caught, out: &Human) {
    out.line(format!(
        "caught: {} {} on a case of line {} ({}), seed {}{}, after {}",
        caught.verdict.code(),
        caught.detail,
        caught.line,
        caught.text,
        caught.seed,
        caught
            .perturbed
            .as_ref()
            .map(|what| format!(", its choices perturbed ({what})"))
            .unwrap_or_default(),
        crate::text::plural(caught.cases, "case")
    ));
    let size = crate::text::plural(caught.input.len() as u64, "byte");
    let path = caught.input_path.display();
    out.line(match (caught.shrunk, caught.budget_ran_out) {
        (true, _) => format!("minimized case ({size}): {path}"),
        (false, Some(budget)) => format!(
            "the case as found ({size}): the time budget of {} s to minimize it ran out \
             first, a smaller case may still fail (--shrink-time): {path}",
            budget.as_secs_f64()
        ),
        (false, None) => format!("the case, no smaller case found ({size}): {path}"),
    });
    out.text(indent(&caught.input));
    if let Some(bytes) = caught.removed_original {
        out.line(format!(
            "(the case as found, {}, is not kept in {}: `{} --seed {}` makes it again)",
            crate::text::plural(bytes, "byte"),
            args.save.display(),
            caught.text,
            caught.seed
        ));
    }
}

/// The test a caught case becomes: its input, and the plan line that prints it when one does.
fn found_of(args: &HuntArgs, hunt: &Hunt, caught: &Caught) -> Found {
    let comment = format!(
        "catches {} ({}), found by duipai hunt from line {} with seed {}",
        hunt.submission,
        caught.verdict.code(),
        caught.line,
        caught.seed
    );
    let line = format!("{} --seed {}", caught.text, caught.seed);
    Found {
        input: caught.input.clone(),
        stem: stem_of(&args.submission),
        comment,
        generated: caught.is_generated().then(|| line.clone()),
        line_of_found: caught.found_is_generated().then_some(line),
        large_allowed: false,
    }
}

/// The hunt for a slow submission: the slowest input found, when it is slower than the
/// plan's tests; caught when the submission times out on it.
fn hunt_slow(args: &HuntArgs, hunt: &Hunt, out: &Human) -> anyhow::Result<Option<Found>> {
    let limit = hunt.problem.limits.cpu;
    let cap = limit.mul_f64(crate::submissions::Multipliers::default().time_limit_to_tle * 1.05);
    out.line(format!(
        "hunting the input {} is slowest on (time limit {:.3} s, runs stopped at {:.3} s), \
         with {} and new seeds, then mutations (at most {:.0} s)",
        hunt.submission,
        limit.as_secs_f64(),
        cap.as_secs_f64(),
        origin(args, hunt),
        hunt.time.as_secs_f64()
    ));
    let found = slow::hunt_slow(hunt, cap, &mut |timed| {
        out.line(format!("  {}: {}", cpu(timed), timed.origin));
    })?;
    let baseline = found.baseline.as_ref().map(cpu).unwrap_or_default();
    out.line(format!(
        "the plan's tests: slowest {baseline}; the slowest input found: {} ({}), in {}",
        cpu(&found.slowest),
        found.slowest.origin,
        crate::text::plural(found.runs as u64, "run")
    ));
    // A mutation of the plan's slowest test is new ("the plan's line 4, then 2 mutations"):
    // only that test itself is not.
    let new = found
        .baseline
        .as_ref()
        .is_none_or(|b| found.slowest.cpu > b.cpu && found.slowest.input != b.input);
    if !new {
        out.line("no input slower than the plan's own tests was found");
        return Ok(None);
    }
    let over = found.slowest.stopped || found.slowest.cpu > limit;
    if !over {
        // Slower is not caught: nothing goes into the plan, and the input is kept where
        // failures are (or named by the line that prints it), to look at.
        out.line(format!(
            "it stays within the time limit {:.3} s: no input the generators and changes \
             reach makes it time out; nothing is added to the plan",
            limit.as_secs_f64()
        ));
        match &found.slowest.generated {
            Some(line) => out.line(format!("the slowest input is what `{line}` prints")),
            None => {
                let stem = format!(
                    "{}-hunt-{}-slowest",
                    hunt.problem.name,
                    stem_of(&args.submission)
                );
                let path = hunt::save_input(&args.save, &stem, &found.slowest.input)?;
                out.line(format!("the slowest input: {}", path.display()));
            }
        }
        return Ok(None);
    }
    out.line(format!(
        "{} times out on it: TLE (limit {:.3} s)",
        program_name(&hunt.program),
        limit.as_secs_f64()
    ));
    let comment = format!(
        "the slowest input found for {} by duipai hunt: {}",
        hunt.submission,
        cpu(&found.slowest)
    );
    Ok(Some(Found {
        input: found.slowest.input.clone(),
        stem: format!("{}-slowest", stem_of(&args.submission)),
        comment,
        generated: found.slowest.generated.clone(),
        line_of_found: None,
        large_allowed: true,
    }))
}

/// `1.234 s CPU`, `at least 1.575 s CPU` for a run stopped at the cap.
fn cpu(timed: &Timed) -> String {
    let at_least = if timed.stopped { "at least " } else { "" };
    format!("{at_least}{:.3} s CPU", timed.cpu.as_secs_f64())
}

/// How many lines an input has.
fn line_count(input: &[u8]) -> u64 {
    String::from_utf8_lossy(input).lines().count() as u64
}

/// The first lines of an input, indented.
fn indent(input: &[u8]) -> String {
    let text = String::from_utf8_lossy(input);
    let mut shown: String = text.lines().take(8).map(|l| format!("    {l}\n")).collect();
    if text.lines().count() > 8 {
        shown.push_str("    ...\n");
    }
    shown
}
