//! The tests `judge` runs, each named as the ICPC package names it (`sample/01`,
//! `secret/small/01`) and in the plan's order, whichever way they come: a package's `data/`
//! (ordered as its manifest lists the plan's tests, the tests the setter added by hand after
//! those of their folder), a folder of tests, or the plan itself, made as `pack` makes them
//! into a folder of duipai's cache kept for the problem, so that judging again makes again
//! only the tests whose generator, arguments, seed, validator or reference changed. Every
//! input is checked by the problem's validator first (its verdicts kept as facts).

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

use crate::judge::Runner;
use crate::own::facts::Facts;
use crate::own::{Judging, OwnProblem, Validity};
use crate::pack::manifest::Manifest;
use crate::pack::own::plan::OwnPlan;
use crate::pack::own::{OwnPackOptions, write_own_pack_locked};
use crate::suite::{self, StoredCase};

/// The tests to judge and where they come from.
pub struct Gathered {
    pub cases: Vec<StoredCase>,
    /// `the plan tests.plan`, `pkg/data`.
    pub from: String,
    /// From the plan: how many tests were made, and how many read back from the last judge.
    pub made: Option<(usize, usize)>,
}

/// How the problem's answers are read and whether it needs them.
fn answers_of(problem: &OwnProblem) -> (crate::answer::Rule, suite::Answers<'static>) {
    match problem.judging {
        Judging::Compare(rule) => (rule, suite::Answers::Builtin),
        Judging::Interactor(_) => (crate::answer::Rule::EXACT, suite::Answers::Unneeded),
        Judging::Checker(..) => (crate::answer::Rule::EXACT, suite::Answers::Builtin),
    }
}

/// The tests of `folder` (a package's `data/`, or any folder of `*.in` with their answers),
/// named without `.in` and ordered as the manifest above `folder` lists a pack's tests.
pub fn from_folder(problem: &OwnProblem, folder: &Path) -> anyhow::Result<Gathered> {
    let (rule, answers) = answers_of(problem);
    let mut cases = suite::collect(None, &problem.name, folder, rule, answers)?.cases;
    for case in &mut cases {
        if let Some(stem) = case.name.strip_suffix(".in") {
            case.name = stem.to_string();
        }
    }
    let listed = listed_order(folder);
    order_by(&mut cases, &listed);
    Ok(Gathered {
        cases,
        from: folder.display().to_string(),
        made: None,
    })
}

/// The tests a pack's manifest lists for the folder `folder` (the `data/` of the package
/// whose manifest is beside it, or the pack itself), in its order, named as the cases are.
fn listed_order(folder: &Path) -> Vec<String> {
    let (root, prefix) = match folder.file_name() {
        Some(name) if name == "data" => (folder.parent().unwrap_or(Path::new("")), "data/"),
        _ => (folder, ""),
    };
    let Ok(Some(manifest)) = Manifest::read(root) else {
        return Vec::new();
    };
    manifest
        .sections
        .iter()
        .flat_map(|s| &s.files)
        .filter_map(|f| f.strip_prefix(prefix)?.strip_suffix(".in"))
        .map(str::to_string)
        .collect()
}

/// Orders `cases` as `listed` has them, within their folders: the folders in the order the
/// list first names them (those it does not name after), and in a folder the listed tests
/// first, then the others as they were (in natural order).
fn order_by(cases: &mut [StoredCase], listed: &[String]) {
    if listed.is_empty() {
        return;
    }
    let folder = |name: &str| name.rsplit_once('/').map_or("", |(f, _)| f).to_string();
    let mut folders: Vec<String> = Vec::new();
    for name in listed {
        let f = folder(name);
        if !folders.contains(&f) {
            folders.push(f);
        }
    }
    let key = |case: &StoredCase| {
        let f = folder(&case.name);
        let at_folder = folders.iter().position(|x| *x == f).unwrap_or(usize::MAX);
        let at = listed
            .iter()
            .position(|x| *x == case.name)
            .unwrap_or(usize::MAX);
        (at_folder, at)
    };
    cases.sort_by_key(key);
}

/// The plan's tests, made (or read back) in the folder of duipai's cache kept for the problem
/// folder `dir` and the plan, as the ICPC package would hold them; a fresh scratch folder
/// (kept in `scratch`) when another judge is using that one.
pub fn from_plan(
    problem: &OwnProblem,
    plan: OwnPlan,
    dir: &Path,
    jobs: usize,
    check_shipped_answers: bool,
    scratch: &mut Vec<tempfile::TempDir>,
) -> anyhow::Result<Gathered> {
    let name = plan.name.clone();
    let kept = kept_folder(dir, &problem.name, &plan.name);
    let lock = kept.as_ref().and_then(|folder| {
        std::fs::create_dir_all(folder).ok()?;
        crate::fsutil::FolderLock::try_take(folder).ok()?
    });
    let folder = match (&kept, &lock) {
        (Some(folder), Some(_)) => folder.clone(),
        _ => {
            let temp = crate::run::temp_folder("judge")
                .context("creating a folder for the plan's tests")?;
            let path = temp.path().to_path_buf();
            scratch.push(temp);
            path
        }
    };
    let runner = crate::judge::ProcessRunner { rerun: false };
    let opts = OwnPackOptions {
        problem,
        runner: &runner,
        out: folder.clone(),
        plan,
        layout: crate::pack::Layout::Icpc,
        seed: 0,
        force: true,
        overwrite_edited: true,
        write_limits: false,
        icpc_version: None,
        invalid: None,
        folder: dir.to_path_buf(),
        jobs,
        reuse: true,
        keep_rejected: false,
        check_shipped_answers,
        tests_only: true,
    };
    let report = write_own_pack_locked(&opts, &mut |_| {})?;
    // Read while the lock is held: another judge may make other tests there next.
    let mut gathered = from_folder(problem, &folder.join("data"))?;
    drop(lock);
    gathered.from = format!("the plan {name}");
    gathered.made = Some((report.tests - report.reused, report.reused));
    Ok(gathered)
}

/// The folder of duipai's cache where the tests of `plan` of the problem folder `dir` are
/// kept between judges: `judge-` and a hash of the three (pruned with the builds when unused
/// for a month); `None` without a cache.
fn kept_folder(dir: &Path, problem: &str, plan: &str) -> Option<PathBuf> {
    let cache = std::path::absolute(crate::compile::default_cache_dir().ok()?).ok()?;
    let dir = std::fs::canonicalize(dir).ok()?;
    let key = crate::own::facts::key(&[
        dir.as_os_str().as_encoded_bytes(),
        problem.as_bytes(),
        plan.as_bytes(),
    ]);
    Some(cache.join(format!("judge-{key}")))
}

/// Checks every input with the problem's validator (its verdicts kept as facts) before
/// anything is judged: an invalid one is an error naming each.
pub fn check_inputs(
    problem: &OwnProblem,
    runner: &dyn Runner,
    cases: &[StoredCase],
    jobs: usize,
) -> anyhow::Result<()> {
    if problem.validator.is_none() {
        return Ok(());
    }
    let facts = Facts::open();
    let mut verdicts: Vec<Option<anyhow::Result<Option<Validity>>>> =
        cases.iter().map(|_| None).collect();
    crate::pool::run_indexed(
        jobs,
        cases.len() as u64,
        |i| {
            let input = &cases[i as usize].input;
            let hash = crate::pack::manifest::content_hash(input);
            let kept = crate::pack::own::validity_kept(
                problem,
                runner,
                &facts,
                (input, &hash),
                &mut false,
            );
            Some(kept)
        },
        |_| true,
        |i, verdict| verdicts[i as usize] = Some(verdict),
        || {},
    );
    let mut invalid = Vec::new();
    for (case, verdict) in cases.iter().zip(verdicts) {
        let verdict = verdict.context("interrupted before every input was validated")?;
        if let Some(Validity::Invalid(why)) = verdict? {
            invalid.push(format!("{}: {why}", case.name));
        }
    }
    if !invalid.is_empty() {
        bail!(
            "{} of {} tests not valid, so nothing was judged (the validator rejects them):\n{}",
            invalid.len(),
            cases.len(),
            invalid.join("\n")
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(name: &str) -> StoredCase {
        StoredCase {
            name: name.to_string(),
            input: Vec::new(),
            expected: crate::answer::Expected::unknown(b"1", crate::answer::Rule::EXACT),
        }
    }

    #[test]
    fn tests_come_in_the_plans_order_and_hand_made_ones_after_their_folders() {
        // As the package's files come in natural order.
        let mut cases: Vec<StoredCase> = [
            "sample/01",
            "secret/large/01",
            "secret/small/01",
            "secret/small/02",
            "secret/small/98-hand",
            "secret/zzz/01",
        ]
        .map(case)
        .into();
        let listed: Vec<String> = [
            "sample/01",
            "secret/small/01",
            "secret/small/02",
            "secret/large/01",
        ]
        .map(String::from)
        .into();
        order_by(&mut cases, &listed);
        let names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "sample/01",
                "secret/small/01",
                "secret/small/02",
                "secret/small/98-hand",
                "secret/large/01",
                "secret/zzz/01"
            ]
        );
    }
}
