//! `duipai test`: judge a program on stored cases (`*.in` with `.ans`/`.out` answers, or the
//! reference solver's), in parallel, with human, JSON and JUnit reports.

use std::time::Instant;

use anyhow::bail;

use crate::app::args::TestArgs;
use crate::app::exit::Status;
use crate::app::ui::{self, Human, jobs};
use crate::app::{interrupt, programs, watch};
use crate::judge::CaseOutcome;
use crate::pack::manifest::Manifest;
use crate::report::{self, CaseRecord, json, junit};
use crate::suite::{self, SuiteRun};
use crate::text::program_name;
use crate::text::{plural, plural_s};

/// How many failing cases get a diff in the human report.
const DIFFS_SHOWN: usize = 3;

pub fn run(mut args: TestArgs) -> anyhow::Result<Status> {
    interrupt::install();
    as_saved(&mut args)?;
    programs::warn_flags_after_separator("test", &args.program);
    if args.judging.watch {
        let judging = &args.judging;
        let helpers = [
            &judging.reference,
            &judging.checker.checker,
            &judging.checker.interactor,
        ];
        let junit = judging.report.junit.as_deref();
        return watch::judging(&args.program, &helpers, junit, "duipai test", || {
            execute(&args)
        });
    }
    execute(&args)
}

/// A saved failing case tested without judging flags is judged as its sidecar says it was
/// (its tolerance, limits, file I/O): the replay typed from memory means the same judging.
/// Says so on stderr. A checker or interactor the sidecar names is not run on its word: the
/// command refuses, saying which to add.
fn as_saved(args: &mut TestArgs) -> anyhow::Result<()> {
    let judging = &args.judging;
    let typed = crate::app::args::setting_words(
        &judging.compare,
        &judging.checker,
        &judging.limits,
        &judging.run,
    );
    let Some(dir) = args.dir.as_deref().filter(|d| d.is_file()) else {
        return Ok(());
    };
    if !typed.is_empty() {
        return Ok(());
    }
    let Some(setting) = crate::saved::read_meta(dir).and_then(|m| m.setting) else {
        return Ok(());
    };
    if setting.flags.is_empty() {
        return Ok(());
    }
    let (words, helpers) = crate::app::args::helpers_of_saved(&setting.flags);
    let saved = crate::app::args::parse_setting(&words)?;
    let meta = crate::saved::meta_path(dir);
    if !helpers.is_empty() {
        let helpers = helpers.join(" ");
        bail!(
            "{}: the case was judged with {helpers}, which duipai does not run because a \
             sidecar says so (it is data, not a command): add {helpers} to the command line, \
             or to duipai.toml, to judge it so",
            meta.display()
        );
    }
    if !words.is_empty() {
        eprintln!(
            "duipai: judged as saved in {}: {}",
            meta.display(),
            words.join(" ")
        );
    }
    let judging = &mut args.judging;
    judging.compare = saved.compare;
    judging.checker = saved.checker;
    judging.limits = saved.limits;
    judging.run = saved.run;
    Ok(())
}

fn execute(args: &TestArgs) -> anyhow::Result<Status> {
    let started = Instant::now();
    let started_at = std::time::SystemTime::now();
    let problem = args.problem.as_str();
    let judging = &args.judging;
    if let Some(path) = &judging.report.junit {
        junit::check_report_path(path)?;
    }
    let folders = Folders::of(args)?;
    if !args.allow_incomplete
        && let Some((manifest, pack)) = folders
            .all()
            .iter()
            .find_map(|dir| Manifest::incomplete_pack_at(dir))
    {
        bail!(
            "{} marks {pack} incomplete (its packing was interrupted or failed), so its tests \
             may not all be there: pack it again, or pass --allow-incomplete to judge what is \
             there",
            manifest.display()
        );
    }
    let limits = judging.limits.resolve_named(problem);
    let io = judging.run.io_mode_named(problem);
    let jobs = jobs(judging.report.jobs);
    let out = Human::new(judging.report.json);
    let runner = judging.run.runner();
    judging.interactive(crate::problem::by_name(problem))?;
    // Source files are compiled (or taken from the cache) once, before any case.
    let (program, decider) = programs::ready_with_decider(
        &args.program,
        &judging.checker,
        &judging.compare,
        &judging.compilers,
        &judging.limits.helpers(&limits),
    )?;
    judging.run.containment.arm(folders.all())?;
    if args.validate {
        // The inputs are checked before a reference answers them: an invalid input is the
        // input's fault, and a reference that fails on it must not be blamed instead.
        let inputs = collect_inputs(args, &folders)?;
        validate_all(args, &inputs, jobs)?;
    }
    let cases = collect(args, &folders, &runner, &limits, jobs)?;

    out.line(format!(
        "testing {} on {} from {} ({} worker{})",
        program_name(&args.program),
        plural(cases.len() as u64, "case"),
        folders.shown(),
        jobs,
        plural_s(jobs as u64),
    ));
    let run = SuiteRun {
        runner: &runner,
        program: &program,
        limits: &limits,
        io: &io,
        jobs,
        decider: &decider,
    };
    let outcomes = judge(args, &cases, &run, &out)?;
    show_diffs(args, &cases, &outcomes, &out);
    let hint = outcomes
        .iter()
        .find_map(|o| programs::silent_program_hint(problem, &io, o, started_at));
    if let Some(hint) = hint {
        out.line(format!("\n{hint}"));
    }
    let records: Vec<CaseRecord> = cases
        .iter()
        .zip(&outcomes)
        .map(|(case, outcome)| CaseRecord::new(&case.name, &case.expected.text, outcome))
        .collect();
    summarize(args, &folders, &records, started.elapsed(), &out)
}

/// Judges every case, each reported as it is judged, in order; an interrupt is an error.
fn judge(
    args: &TestArgs,
    cases: &[suite::StoredCase],
    run: &SuiteRun,
    out: &Human,
) -> anyhow::Result<Vec<CaseOutcome>> {
    let styles = ui::styles();
    let outcomes = suite::judge_all(
        cases,
        run,
        |i, outcome| {
            let record = CaseRecord::new(&cases[i].name, &cases[i].expected.text, outcome);
            out.line(report::human_line(&record, &styles));
            if !record.verdict.is_accepted() {
                out.text(report::failure_block(&record));
            }
            if args.judging.report.json {
                println!("{}", json::line(&record));
            }
        },
        || {},
    )?;
    if crate::run::cancelled() {
        // An error after the interrupt: the command ends as interrupted (exit 130).
        bail!(
            "{} of {} judged",
            outcomes.len(),
            plural(cases.len() as u64, "case")
        );
    }
    Ok(outcomes)
}

/// A diff of expected and actual output for the first failures that printed something.
/// None with a checker: its message says what is wrong, and the answer file is one right
/// answer of possibly many, so a diff against it would mislead.
fn show_diffs(args: &TestArgs, cases: &[suite::StoredCase], outcomes: &[CaseOutcome], out: &Human) {
    let checker = &args.judging.checker;
    if checker.checker.is_some() || checker.interactor.is_some() {
        return;
    }
    let failed = |i: &usize| !outcomes[*i].verdict().is_accepted();
    for i in (0..cases.len()).filter(failed).take(DIFFS_SHOWN) {
        if report::shows_output(outcomes[i].verdict()) {
            out.line(format!(
                "\n{}: {}",
                cases[i].name, outcomes[i].judgement.detail
            ));
            if let Some(shown) = &outcomes[i].shown {
                out.text(report::diff::unified(shown, &ui::styles()));
            }
        }
    }
}

/// The summary line, the JUnit and JSON reports, and the status.
fn summarize(
    args: &TestArgs,
    folders: &Folders,
    records: &[CaseRecord],
    elapsed: std::time::Duration,
    out: &Human,
) -> anyhow::Result<Status> {
    let problem = args.problem.as_str();
    let failed = records.iter().filter(|r| !r.verdict.is_accepted()).count();
    let limit_ms = args.judging.limits.resolve_named(problem).cpu.as_millis() as u64;
    let (slowest, reruns) = report::slowest_and_reruns(records, limit_ms);
    out.line(format!(
        "\n{}: {} in {:.2} s{}",
        plural(records.len() as u64, "case"),
        report::summary(records),
        elapsed.as_secs_f64(),
        report::slowest_note(slowest, reruns)
    ));
    if let Some(path) = &args.judging.report.junit {
        let suite = format!("duipai test {problem} {}", folders.shown());
        let xml = junit::junit_xml(&suite, records, elapsed)?;
        junit::write_report_file(path, &xml)?;
    }
    if args.judging.report.json {
        let summary = json::TestSummary {
            status: if failed == 0 { "ok" } else { "failed" },
            problem,
            cases: records,
            passed: records.len() - failed,
            failed,
            elapsed_ms: elapsed.as_millis() as u64,
            slowest_case: slowest.map(|r| r.name.as_str()),
            slowest_cpu_ms: slowest.map(|r| r.cpu_ms),
            accepted_on_rerun: reruns,
        };
        println!("{}", json::line(&summary));
    }
    Ok(if failed == 0 {
        Status::Success
    } else {
        Status::Failure
    })
}

/// What `test` judges: the folder (or file) given, or, without one, the problem folder's
/// samples and the failing cases stress saved there, those that exist.
struct Folders {
    given: Option<std::path::PathBuf>,
    samples: Option<std::path::PathBuf>,
    saved: Option<std::path::PathBuf>,
}

impl Folders {
    fn of(args: &TestArgs) -> anyhow::Result<Folders> {
        if let Some(dir) = &args.dir {
            return Ok(Folders {
                given: Some(dir.clone()),
                samples: None,
                saved: None,
            });
        }
        let samples = std::path::PathBuf::from(crate::companion::folder::SAMPLES);
        let saved = std::path::PathBuf::from(crate::app::args::DEFAULT_SAVE_DIR);
        let folders = Folders {
            given: None,
            samples: samples.is_dir().then_some(samples),
            saved: saved.is_dir().then_some(saved),
        };
        if folders.samples.is_none() && folders.saved.is_none() {
            bail!(
                "no folder of tests given, and no samples/ or duipai-failures/ here: give one, \
                 `duipai test {} DIR -- PROGRAM` (in a problem folder, `duipai test -- PROGRAM` \
                 judges its samples/ and the cases stress saved)",
                args.problem
            );
        }
        Ok(folders)
    }

    /// Every folder (or file) the cases come from.
    fn all(&self) -> Vec<std::path::PathBuf> {
        [&self.given, &self.samples, &self.saved]
            .into_iter()
            .flatten()
            .cloned()
            .collect()
    }

    /// `tests`, `samples/ and duipai-failures/`.
    fn shown(&self) -> String {
        if let Some(dir) = &self.given {
            return dir.display().to_string();
        }
        let shown: Vec<String> = self
            .all()
            .iter()
            .map(|d| format!("{}/", d.display()))
            .collect();
        shown.join(" and ")
    }

    /// The cases of every folder, the samples first.
    fn collect(
        &self,
        known: Option<(&dyn crate::problem::Problem, &crate::problem::Bounds)>,
        problem: &str,
        rule: crate::answer::Rule,
        answers: suite::Answers,
    ) -> anyhow::Result<suite::Collected> {
        if let Some(dir) = &self.given {
            return suite::collect(known, problem, dir, rule, answers);
        }
        let mut collected = suite::Collected {
            cases: Vec::new(),
            from_reference: 0,
        };
        if let Some(samples) = &self.samples {
            let found = suite::collect(known, problem, samples, rule, answers)?;
            collected.from_reference += found.from_reference;
            collected
                .cases
                .extend(found.cases.into_iter().map(|mut case| {
                    case.name = samples.join(&case.name).display().to_string();
                    case
                }));
        }
        if let Some(saved) = &self.saved {
            collected
                .cases
                .extend(suite::collect_saved(saved, problem, rule)?);
        }
        if collected.cases.is_empty() {
            bail!(
                "no sample in samples/ and no case of {problem} saved in duipai-failures/: \
                 nothing to judge"
            );
        }
        Ok(collected)
    }
}

/// The stored inputs of a problem of one's own without their answers, for `--validate` to
/// check before any reference runs (a game's inputs are checked as they are read).
fn collect_inputs(args: &TestArgs, folders: &Folders) -> anyhow::Result<Vec<suite::StoredCase>> {
    let problem = args.problem.as_str();
    if crate::problem::by_name(problem).is_some() {
        return Ok(Vec::new());
    }
    let rule = args.judging.compare.rule(None)?;
    Ok(folders
        .collect(None, problem, rule, suite::Answers::Unneeded)?
        .cases)
}

/// The stored cases, their answers from the answer files, else from `--reference` (said once
/// on stderr), else from the built-in solver.
fn collect(
    args: &TestArgs,
    folders: &Folders,
    runner: &dyn crate::judge::Runner,
    limits: &crate::run::Limits,
    jobs: usize,
) -> anyhow::Result<Vec<suite::StoredCase>> {
    let problem = args.problem.as_str();
    let known = crate::problem::by_name(problem);
    let bounds = args.bounds.resolve_named(problem)?;
    let compilers = &args.judging.compilers;
    let typed = args.judging.reference.as_ref().map(|r| r.0.as_slice());
    let command = match typed {
        Some(typed) => Some(programs::ready(typed, compilers, "reference")?),
        None => None,
    };
    let name = typed.map(program_name).unwrap_or_default();
    let reference_limits = args.judging.limits.helpers(limits);
    let rule = args.judging.compare.rule(known)?;
    let reference = command.as_deref().map(|command| suite::Reference {
        runner,
        command,
        name: &name,
        limits: &reference_limits,
        jobs,
        rule,
        fail_fast: true,
        empty_answers: args.empty_answers,
    });
    let known = known.zip(bounds.as_ref());
    let answers = match &reference {
        Some(reference) => suite::Answers::Reference(reference),
        None if args.judging.checker.interactor.is_some() => suite::Answers::Unneeded,
        None => suite::Answers::Builtin,
    };
    let collected = folders.collect(known, problem, rule, answers)?;
    if known.is_none() && !crate::app::config::problem_from_file() {
        // A misspelt `chess` must not pass unnoticed; a name the problem folder's settings
        // give is the user's own problem, not a misspelling.
        let checker = &args.judging.checker;
        let how = match (&checker.checker, &checker.interactor) {
            (_, Some(interactor)) => {
                format!("judged by the interactor {}", program_name(&interactor.0))
            }
            (Some(checker), _) => format!("judged by the checker {}", program_name(&checker.0)),
            (None, None) => "compared with the answers token by token".to_string(),
        };
        let near = crate::text::closest(problem, crate::problem::names(), 2)
            .map(|game| format!("; did you mean {game}?"))
            .unwrap_or_default();
        let inputs = match (&args.validator, args.validate) {
            (Some(validator), true) => {
                format!(
                    "inputs are checked by the validator {}",
                    program_name(&validator.0)
                )
            }
            _ => "inputs are not checked (--validate checks them)".to_string(),
        };
        eprintln!(
            "duipai: note: {} is not a problem duipai knows ({}){near}: {inputs}, and outputs \
             are {how}",
            crate::text::quote(problem),
            crate::problem::names().join(", ")
        );
    }
    if reference.is_some() {
        eprintln!(
            "duipai: {} of {} come from the reference {name}",
            collected.from_reference,
            plural(collected.cases.len() as u64, "answer"),
        );
    }
    Ok(collected.cases)
}

/// `--validate`: every input checked by the validator of a problem of one's own before any
/// case is judged; an invalid one is an error naming it and the validator's message.
fn validate_all(args: &TestArgs, cases: &[suite::StoredCase], jobs: usize) -> anyhow::Result<()> {
    if let Some(game) = crate::problem::by_name(&args.problem) {
        if args.validator.is_some() {
            bail!("--validator is for problems of your own; {game} has a validator of its own");
        }
        // A game's inputs were checked as they were read.
        return Ok(());
    }
    let Some(validator) = &args.validator else {
        return Err(crate::app::own::missing(
            &args.problem,
            "validator",
            "validator.cpp",
        ));
    };
    let parts = crate::app::own::Parts {
        validator: Some(validator),
        compilers: &args.judging.compilers,
        ..Default::default()
    };
    let problem = crate::app::own::problem(&args.problem, &parts)?;
    problem
        .validator
        .as_ref()
        .map(|v| v.command())
        .transpose()?;
    let runner = crate::judge::ProcessRunner { rerun: false };
    let mut results: Vec<Option<anyhow::Result<Option<crate::own::Validity>>>> =
        cases.iter().map(|_| None).collect();
    crate::pool::run_indexed(
        jobs,
        cases.len() as u64,
        |i| Some(problem.validate(&runner, &cases[i as usize].input)),
        |_| true,
        |i, result| results[i as usize] = Some(result),
        || {},
    );
    let mut invalid = Vec::new();
    for (case, result) in cases.iter().zip(results) {
        if let Some(Some(crate::own::Validity::Invalid(message))) = result.transpose()? {
            invalid.push(format!("{}: {message}", case.name));
        }
    }
    if !invalid.is_empty() {
        bail!(
            "{} of {} {} not valid; nothing was judged:\n{}",
            invalid.len(),
            plural(cases.len() as u64, "input"),
            if invalid.len() == 1 { "is" } else { "are" },
            invalid.join("\n")
        );
    }
    eprintln!(
        "duipai: the validator accepts all {}",
        plural(cases.len() as u64, "input")
    );
    Ok(())
}
