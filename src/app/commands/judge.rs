//! `duipai judge [DIR]`: every submission of `DIR/submissions/<expected>/` on every test, in
//! parallel; each checked against what its folder expects; the time limit derived as the
//! ICPC format says and written only when asked; the matrix as a table, JSON, JUnit and HTML.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

use crate::app::args::JudgeArgs;
use crate::app::exit::Status;
use crate::app::own::{self, Parts};
use crate::app::ui::{Human, Progress, jobs};
use crate::app::{interrupt, programs};
use crate::judge::{Checker, Decider, Interactor, ProcessRunner};
use crate::own::{Judging, OwnProblem};
use crate::pack::icpc::yaml::{self, YamlValues};
use crate::report::{json, junit, matrix as report};
use crate::run::IoMode;
use crate::submissions::matrix::{Prepared, Setting};
use crate::submissions::{self, Multipliers, cases};
use crate::text::plural;

pub fn run(args: JudgeArgs) -> anyhow::Result<Status> {
    interrupt::install();
    junit::on_error(args.report.junit.as_deref(), "duipai judge", execute(&args))
}

fn execute(args: &JudgeArgs) -> anyhow::Result<Status> {
    let started = Instant::now();
    if let Some(path) = &args.report.junit {
        junit::check_report_path(path)?;
    }
    let dir = args.dir.clone().unwrap_or_else(|| PathBuf::from("."));
    // Before the first run, the helpers' too (a package's generators and validator).
    let mut protect = vec![dir.clone()];
    protect.extend(args.tests.clone());
    args.containment.arm(protect)?;
    let (found, polygon) = find_submissions(&dir)?;
    let name = problem_name(args, &dir);
    let problem = own::problem(&name, &Parts::of(&args.own))?;
    let mut package = PackageYaml::read(&dir);
    if polygon {
        package.multipliers = submissions::Multipliers::polygon();
    }
    let jobs = jobs(args.report.jobs);
    let out = Human::new(args.report.json);
    // A temporary folder of the plan's tests, or of a built output validator, lives as long
    // as the run.
    let mut scratch = Vec::new();
    let gathered = tests(args, &dir, &problem, jobs, &mut scratch)?;
    // Each run once: the matrix measures again the runs that bind the limit itself, and the
    // runner's own re-runs (for runs within 0.8 to 1.5 times the cap it is given, which is
    // past the limit) would re-run and stretch every time-limit-exceeded run instead.
    let runner = ProcessRunner { rerun: false };
    cases::check_inputs(&problem, &runner, &gathered.cases, jobs)?;
    if let Some((made, reused)) = gathered.made {
        out.line(made_line(&gathered.from, made, reused));
    }
    let (cases, from) = (gathered.cases, gathered.from);
    let decider = decider_of(&problem, &args.own.compilers, &dir, &mut scratch)?;
    let helpers_failed = match polygon {
        true => package_helper_tests(&dir, &problem, &decider, &runner, &out)?,
        false => 0,
    };
    let given = given_limit(args, &dir, &package);
    let mut limits = problem.limits;
    if let Some(mib) = package
        .memory_mib
        .filter(|_| args.own.limits.memory_limit.is_none())
    {
        limits.memory_bytes = mib << 20;
    }
    let prepared = prepare(&found, &args.own.compilers);
    out.line(format!(
        "judging {} on {} from {} ({} worker{})",
        plural(found.len() as u64, "submission"),
        plural(cases.len() as u64, "test"),
        from,
        jobs,
        crate::text::plural_s(jobs as u64)
    ));
    let setting = Setting {
        runner: &runner,
        decider: &decider,
        limits,
        io: &IoMode::Stdio,
        jobs,
        given,
        multipliers: package.multipliers,
        measure_cap: args.measure_cap,
    };
    let total = prepared.iter().filter(|(_, p)| p.is_ok()).count() * cases.len();
    let progress = Progress::bar("judging", total as u64, "runs");
    let judged = submissions::judge_all(&cases, prepared, &setting, &mut |done, _| {
        progress.set_position(done as u64)
    });
    progress.finish();
    let mut judged = judged?;
    if polygon {
        // The package's limit is its own: no rule derives one to compare it with.
        judged.limit.derived = None;
    }
    report_all(args, &problem.name, &judged, started.elapsed(), &out)?;
    status_of(args, &dir, &judged, helpers_failed, &out)
}

/// The exit status of a judge whose reports are written: an error when a checker or
/// interactor failed on a run, a failure when the package's own helper tests did not pass,
/// the time limit could not be written or a submission did not get its expected verdict.
fn status_of(
    args: &JudgeArgs,
    dir: &Path,
    judged: &submissions::Judged,
    helpers_failed: usize,
    out: &Human,
) -> anyhow::Result<Status> {
    // A limit refused for an unsteady measurement is a failure of the judging (exit 1), as
    // the docs say, not an error of duipai's.
    let refused = args.write_time_limit && !write_time_limit(dir, judged, args.even_if_busy, out)?;
    let failed = judged.helper_failures();
    if let Some((submission, test, why)) = failed.first() {
        eprintln!(
            "duipai: error: the problem's checker or interactor failed on {} (FAIL in the \
             table), first on {submission} on {test}: {why}",
            plural(failed.len() as u64, "run")
        );
        return Ok(Status::Error);
    }
    if helpers_failed > 0 {
        out.line(format!(
            "the package's own tests of its validator and checker: {} not passed (above)",
            plural(helpers_failed as u64, "test")
        ));
        return Ok(Status::Failure);
    }
    Ok(if judged.ok() && !refused {
        Status::Success
    } else {
        Status::Failure
    })
}

/// The submissions of `dir/submissions/`, else the solutions of the Polygon package in `dir`
/// with what their tags expect; and whether they are a Polygon package's.
fn find_submissions(dir: &Path) -> anyhow::Result<(Vec<submissions::Submission>, bool)> {
    if dir.join("submissions").is_dir() || !crate::polygon::Package::is_in(dir) {
        return Ok((submissions::find(dir)?, false));
    }
    let package = crate::polygon::Package::read(dir)?;
    let (found, left_out) = submissions::of_polygon(&package);
    for name in left_out {
        eprintln!(
            "duipai: {name} is not judged: a solution tagged failed must make the checker \
             fail, which duipai reports as an error of the checker, not as a verdict"
        );
    }
    if found.is_empty() {
        bail!("the package {} has no solution to judge", dir.display());
    }
    Ok((found, true))
}

/// The Polygon package's own tests of its validator and checker, run before its solutions:
/// a line each test not passed and a summary a helper; returns how many were not passed.
fn package_helper_tests(
    dir: &Path,
    problem: &OwnProblem,
    decider: &Decider,
    runner: &ProcessRunner,
    out: &Human,
) -> anyhow::Result<usize> {
    use crate::app::polygon_tests;
    let package = crate::polygon::Package::read(dir)?;
    let mut failed = 0;
    if problem.validator.is_some() && !package.validator_tests.is_empty() {
        let ran = polygon_tests::validator_tests(&package, problem, runner)?;
        ran.lines.iter().for_each(|l| out.line(l.clone()));
        out.line(ran.summary("validator", package.validator_tests.len()));
        failed += ran.failed;
    }
    if let Decider::Checker(checker) = decider
        && !package.checker_tests.is_empty()
    {
        let ran = polygon_tests::checker_tests(&package, checker, runner)?;
        ran.lines.iter().for_each(|l| out.line(l.clone()));
        out.line(ran.summary("checker", package.checker_tests.len()));
        failed += ran.failed;
    }
    Ok(failed)
}

/// The problem's name: `--problem` (duipai.toml's), else the folder's name.
fn problem_name(args: &JudgeArgs, dir: &Path) -> String {
    if let Some(name) = &args.problem {
        return name.clone();
    }
    let folder = std::fs::canonicalize(dir)
        .ok()
        .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_default();
    crate::app::args::parse_problem_name(&folder).unwrap_or_else(|_| "problem".to_string())
}

/// The tests and where they come from: `--tests`, the package's `data/`, else the plan's,
/// made as `pack` makes them (into a folder of the cache kept between judges).
fn tests(
    args: &JudgeArgs,
    dir: &Path,
    problem: &OwnProblem,
    jobs: usize,
    scratch: &mut Vec<tempfile::TempDir>,
) -> anyhow::Result<cases::Gathered> {
    if let Some(folder) = &args.tests {
        return cases::from_folder(problem, folder);
    }
    let data = dir.join("data");
    if data.is_dir() {
        return cases::from_folder(problem, &data);
    }
    let plan = super::pack::own_plan(problem, args.plan.as_deref())?;
    cases::from_plan(problem, plan, dir, jobs, args.check_answers, scratch)
}

/// How outputs are decided: the problem's checker or interactor (duipai.toml, flags), else
/// the output validator of a package in `dir`, else by comparing them with the answers.
pub fn decider_of(
    problem: &OwnProblem,
    compilers: &[crate::app::args::CompilerOverride],
    dir: &Path,
    scratch: &mut Vec<tempfile::TempDir>,
) -> anyhow::Result<Decider> {
    let limits = crate::judge::helper::helper_limits(&problem.limits, None);
    match &problem.judging {
        Judging::Checker(helper, protocol) => Ok(Decider::Checker(Checker {
            command: programs::ready(&helper.typed, compilers, "checker")?,
            name: crate::text::program_name(&helper.typed),
            protocol: *protocol,
            limits,
        })),
        Judging::Interactor(helper) => Ok(Decider::Interactor(Interactor {
            command: programs::ready(&helper.typed, compilers, "interactor")?,
            name: crate::text::program_name(&helper.typed),
            limits,
        })),
        Judging::Compare(_) => match package_validator(dir, compilers, scratch)? {
            Some(command) => Ok(Decider::Checker(Checker {
                name: "output_validator".to_string(),
                command,
                protocol: crate::judge::checker::Protocol::Kattis,
                limits,
            })),
            None => Ok(Decider::Compare),
        },
    }
}

/// A package's output validator (`output_validator/`, or legacy's one folder in
/// `output_validators/`), built in a scratch copy: its `run` after its `build`, or its one
/// source file compiled.
fn package_validator(
    dir: &Path,
    compilers: &[crate::app::args::CompilerOverride],
    scratch: &mut Vec<tempfile::TempDir>,
) -> anyhow::Result<Option<Vec<OsString>>> {
    let mut folder = dir.join("output_validator");
    if !folder.is_dir() {
        let legacy = std::fs::read_dir(dir.join("output_validators"))
            .map(|entries| {
                entries
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.is_dir())
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default();
        match legacy.as_slice() {
            [one] => folder = one.clone(),
            _ => return Ok(None),
        }
    }
    let copy = crate::run::temp_folder("validator")
        .context("creating a folder to build the output validator")?;
    copy_folder(&folder, copy.path())?;
    let command = if copy.path().join("run").is_file() {
        let build = copy.path().join("build");
        if build.is_file() {
            let status = std::process::Command::new(&build)
                .current_dir(copy.path())
                .status()
                .with_context(|| format!("running {}/build", folder.display()))?;
            if !status.success() {
                bail!("{}/build failed ({status})", folder.display());
            }
        }
        vec![copy.path().join("run").into_os_string()]
    } else {
        let sources: Vec<PathBuf> = std::fs::read_dir(copy.path())?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| crate::compile::Language::from_path(p).is_some())
            .collect();
        let [source] = sources.as_slice() else {
            bail!(
                "{} holds {} source files and no build and run scripts: duipai runs one source \
                 file or a build and run pair",
                folder.display(),
                sources.len()
            );
        };
        programs::ready(
            &[source.clone().into_os_string()],
            compilers,
            "output validator",
        )?
    };
    scratch.push(copy);
    Ok(Some(command))
}

/// Copies the files of `from` (one level deep and below) into `to`, keeping their modes.
fn copy_folder(from: &Path, to: &Path) -> anyhow::Result<()> {
    for entry in walkdir::WalkDir::new(from).min_depth(1) {
        let entry = entry?;
        let target = to.join(entry.path().strip_prefix(from).unwrap_or(entry.path()));
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target)?;
        } else {
            std::fs::copy(entry.path(), &target)
                .with_context(|| format!("copying {}", entry.path().display()))?;
        }
    }
    Ok(())
}

/// The time limit given, and where: `problem.yaml`'s, else the settings' (duipai.toml's, or
/// a Polygon package's problem.xml when the folder has no duipai.toml) or `--time-limit`;
/// `None`: derived.
fn given_limit(args: &JudgeArgs, dir: &Path, package: &PackageYaml) -> Option<(Duration, String)> {
    if let Some(limit) = package.time_limit {
        return Some((limit, "problem.yaml".to_string()));
    }
    let settings =
        if !dir.join("duipai.toml").exists() && dir.join(crate::polygon::FILE_NAME).exists() {
            crate::polygon::FILE_NAME
        } else {
            "duipai.toml"
        };
    args.own.limits.time_limit.map(|ms| {
        (
            Duration::from_millis(ms),
            format!("{settings} or --time-limit"),
        )
    })
}

/// Every submission compiled (or taken from the cache); one that does not compile is judged
/// as not prepared, not an error of the run.
fn prepare(
    found: &[submissions::Submission],
    compilers: &[crate::app::args::CompilerOverride],
) -> Vec<Prepared> {
    found
        .iter()
        .map(|s| {
            let ready = programs::ready(&s.command(), compilers, "submission")
                .map_err(|e| format!("{e:#}"));
            (s.clone(), ready)
        })
        .collect()
}

/// The table, the failures and the time limit for people; JSON, JUnit and HTML when asked.
fn report_all(
    args: &JudgeArgs,
    name: &str,
    judged: &submissions::Judged,
    elapsed: Duration,
    out: &Human,
) -> anyhow::Result<()> {
    out.text(format!("\n{}", report::table(judged)));
    let failures = report::failures(judged);
    if !failures.is_empty() {
        out.line("");
    }
    for line in &failures {
        out.line(line.clone());
    }
    out.line("");
    for line in report::limit_lines(&judged.limit) {
        out.line(line);
    }
    let mismatched = judged.rows.iter().filter(|r| r.check.is_err()).count();
    out.line(if mismatched == 0 {
        format!(
            "\nevery submission got what its folder expects, in {:.1} s",
            elapsed.as_secs_f64()
        )
    } else {
        format!(
            "\n{} of {} not what {} folder expects, in {:.1} s",
            mismatched,
            plural(judged.rows.len() as u64, "submission"),
            if mismatched == 1 { "its" } else { "their" },
            elapsed.as_secs_f64()
        )
    });
    if args.report.json {
        println!("{}", json::line(&report::json(judged, elapsed)));
    }
    if let Some(path) = &args.report.junit {
        let xml = junit::render("duipai judge", &report::junit_cases(judged), elapsed)?;
        junit::write_report_file(path, &xml)?;
    }
    if let Some(path) = &args.html {
        let title = format!("{name}: duipai judge");
        crate::fsutil::write_atomic(path, crate::report::html::page(judged, &title).as_bytes())?;
        out.line(format!("wrote {}", path.display()));
    }
    Ok(())
}

/// `--write-time-limit`: the derived limit into `DIR/problem.yaml`, unless the machine was
/// busy or the binding run's measurements disagree (`even_if_busy` writes it anyway): then
/// it says why and returns `false`.
fn write_time_limit(
    dir: &Path,
    judged: &submissions::Judged,
    even_if_busy: bool,
    out: &Human,
) -> anyhow::Result<bool> {
    let Some(derived) = judged.limit.derived else {
        bail!(
            "no time limit to write: no submission that may not time out ran (accepted/, \
             wrong_answer/, run_time_error/)"
        );
    };
    let unsteady = judged.limit.unsteady();
    if !unsteady.is_empty() && !even_if_busy {
        eprintln!(
            "duipai: not writing the time limit {}: {}; judge again when the machine is quiet, \
             set limits.time_limit by hand, or pass --even-if-busy",
            crate::submissions::limit::show(derived),
            unsteady.join("; and ")
        );
        return Ok(false);
    }
    let path = dir.join(crate::pack::PROBLEM_YAML);
    if !path.is_file() {
        bail!(
            "{} is not there: the limit, {}, goes in a package's problem.yaml; in a problem's \
             folder, set `time-limit = \"{}s\"` in duipai.toml",
            path.display(),
            crate::submissions::limit::show(derived),
            derived.as_secs_f64()
        );
    }
    let text = crate::fsutil::read_file_capped(&path)?;
    let version = yaml::top_value(&String::from_utf8_lossy(&text), "problem_format_version")
        .and_then(|v| crate::pack::IcpcVersion::from_name(&v))
        .unwrap_or(crate::pack::IcpcVersion::V2025_09);
    let values = YamlValues::time_limit_only(version, derived.as_millis() as u64);
    let merged = yaml::merge_values(Some(&text), &values);
    match (merged.text, merged.outcome) {
        (Some(text), crate::pack::YamlOutcome::Updated(changes)) => {
            crate::fsutil::write_atomic(&path, text.as_bytes())?;
            out.line(format!("{}: {}", path.display(), changes.join(", ")));
        }
        (_, crate::pack::YamlOutcome::LeftAlone(why)) => bail!(
            "{} left as it is ({why}): set limits.time_limit to {} by hand",
            path.display(),
            derived.as_secs_f64()
        ),
        _ => out.line(format!(
            "{}: limits.time_limit is {} already",
            path.display(),
            derived.as_secs_f64()
        )),
    }
    Ok(true)
}

/// What `problem.yaml` says of the timing, when the folder has one.
#[derive(Default)]
struct PackageYaml {
    time_limit: Option<Duration>,
    memory_mib: Option<u64>,
    multipliers: Multipliers,
}

impl PackageYaml {
    fn read(dir: &Path) -> PackageYaml {
        let Ok(text) = std::fs::read_to_string(dir.join(crate::pack::PROBLEM_YAML)) else {
            return PackageYaml::default();
        };
        let number = |path: &[&str]| {
            yaml::nested_value(&text, path)
                .and_then(|v| v.trim_matches(['"', '\'']).parse::<f64>().ok())
        };
        let defaults = Multipliers::default();
        PackageYaml {
            time_limit: number(&["limits", "time_limit"])
                .filter(|t| *t > 0.0)
                .map(Duration::from_secs_f64),
            memory_mib: number(&["limits", "memory"]).map(|m| m as u64),
            multipliers: Multipliers {
                ac_to_time_limit: number(&["limits", "time_multipliers", "ac_to_time_limit"])
                    .unwrap_or(defaults.ac_to_time_limit),
                time_limit_to_tle: number(&["limits", "time_multipliers", "time_limit_to_tle"])
                    .unwrap_or(defaults.time_limit_to_tle),
                resolution: number(&["limits", "time_resolution"])
                    .filter(|r| *r > 0.0)
                    .unwrap_or(defaults.resolution),
                package_limit: false,
            },
        }
    }
}

/// How many of the plan's tests were made and how many read back from the last judge.
fn made_line(from: &str, made: usize, reused: usize) -> String {
    match (made, reused) {
        (made, 0) => format!("the tests of {from}: {made} made"),
        (0, reused) => format!(
            "the tests of {from}: all {reused} reused from the last judge (what makes them did \
             not change)"
        ),
        (made, reused) => format!(
            "the tests of {from}: {made} made, {reused} reused from the last judge (what makes \
             them did not change)"
        ),
    }
}
