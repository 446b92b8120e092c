//! The packs other judges import, beside the tests: Hydro's `config.yaml`, UOJ's
//! `problem.conf`, LemonLime's contest file (`.cdf`), Luogu's `config.yml` and zip, CMS's
//! `task.yaml` and `gen/GEN` (the italian_yaml format), each with the problem's limits, its
//! checker and its subtasks with their scores, policies and dependencies where the format
//! has them. What a judge needs of a problem is said once ([`Judge`]), for a built-in game
//! and a problem of one's own alike; each format's writer turns it into its files.

use std::io::Write;

use super::Layout;
use crate::answer::Rule;
use crate::polygon::Standard;

/// A test of the pack: its input and answer paths in the pack, and its group.
#[derive(Debug, Clone)]
pub struct Test {
    pub input: String,
    pub answer: String,
    /// Index into [`Judge::groups`]; `None` for a sample.
    pub group: Option<usize>,
}

/// A group of tests scored together: an NOI subtask.
#[derive(Debug, Clone)]
pub struct Group {
    pub name: String,
    pub score: u32,
    /// Each passing test scores its part (Polygon's `each-test`, Hydro's and UOJ's `sum`),
    /// rather than the group scoring only when every test passes.
    pub each_test: bool,
    /// Indices of the groups that must pass first.
    pub dependencies: Vec<usize>,
}

/// How outputs are judged.
#[derive(Debug, Clone)]
pub enum Decided {
    /// Compared with the answers by a rule.
    Compare(Rule),
    /// A testlib checker: its source file's extension and content.
    Checker { ext: String, source: Vec<u8> },
    /// A testlib interactor.
    Interactor { ext: String, source: Vec<u8> },
}

/// What a judge needs of a problem.
#[derive(Debug, Clone)]
pub struct Judge {
    pub name: String,
    pub time_ms: u64,
    pub memory_mib: u64,
    pub tests: Vec<Test>,
    pub groups: Vec<Group>,
    pub decided: Decided,
}

/// One file of the pack beside the tests: its path, what it is, its content.
pub type File = (String, &'static str, Vec<u8>);

impl Layout {
    /// Whether the layout is one of the other judges' packs of this module.
    pub fn is_judges(self) -> bool {
        matches!(
            self,
            Layout::Hydro | Layout::Uoj | Layout::Lemon | Layout::Luogu | Layout::Cms
        )
    }

    /// The stem of test `index` (1-based among the tests that are not samples, or among the
    /// samples when `sample`) of problem `name`; [`test_paths`] gives its files.
    pub fn judges_stem(self, name: &str, index: usize, sample: bool) -> String {
        match (self, sample) {
            (Layout::Hydro, false) => format!("{index}"),
            (Layout::Hydro, true) => format!("sample{index}"),
            (Layout::Uoj, false) | (Layout::Luogu, false) => format!("{name}{index}"),
            (Layout::Uoj, true) => format!("ex_{name}{index}"),
            (Layout::Lemon, false) => format!("data/{name}/{name}{index}"),
            (Layout::Lemon, true) | (Layout::Luogu, true) => format!("down/{name}{index}"),
            (Layout::Cms, false) => format!("input/input{}", index - 1),
            (Layout::Cms, true) => format!("statement/sample{index}"),
            _ => unreachable!("only the judges' layouts are named here"),
        }
    }
}

/// The input and answer files of a test's stem in `layout`: `.in` and `.ans`, but `.out`
/// answers for UOJ and Luogu, and CMS's `input/inputN.txt` with `output/outputN.txt`.
pub fn test_paths(layout: Layout, stem: &str) -> (String, String) {
    match layout {
        Layout::Uoj | Layout::Luogu => (format!("{stem}.in"), format!("{stem}.out")),
        Layout::Cms if stem.starts_with("input/input") => (
            format!("{stem}.txt"),
            format!("{}.txt", stem.replacen("input/input", "output/output", 1)),
        ),
        _ => (format!("{stem}.in"), format!("{stem}.ans")),
    }
}

/// The files of `layout` beside the tests (their contents are in `contents`, by test, for
/// the formats that pack them in a zip).
pub fn files(layout: Layout, judge: &Judge) -> anyhow::Result<Vec<File>> {
    match layout {
        Layout::Hydro => Ok(hydro(judge)),
        Layout::Uoj => uoj(judge),
        Layout::Lemon => Ok(lemon(judge)),
        Layout::Luogu => Ok(luogu_config(judge)),
        Layout::Cms => cms(judge),
        _ => Ok(Vec::new()),
    }
}

/// The groups that score, each with its tests (paths), in group order.
fn scored(judge: &Judge) -> Vec<(&Group, Vec<&Test>)> {
    judge
        .groups
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let tests = judge.tests.iter().filter(|t| t.group == Some(i)).collect();
            (g, tests)
        })
        .filter(|(_, tests): &(&Group, Vec<&Test>)| !tests.is_empty())
        .collect()
}

/// The standard checker closest to a comparison rule, for the judges that run testlib.
pub fn standard_for(rule: Rule) -> Standard {
    match rule {
        Rule::Integers => Standard::Ncmp,
        Rule::Reals { tolerance } if tolerance >= 1e-4 => Standard::Rcmp4,
        Rule::Reals { tolerance } if tolerance >= 1e-6 => Standard::Rcmp6,
        Rule::Reals { .. } => Standard::Rcmp9,
        _ => Standard::Wcmp,
    }
}

/// The checker as a testlib source: its extension and content (a standard one for a rule
/// that is more than comparing tokens), or `None` where the judge's own comparison does.
fn testlib_checker(decided: &Decided) -> Option<(String, Vec<u8>)> {
    match decided {
        Decided::Checker { ext, source } => Some((ext.clone(), source.clone())),
        Decided::Compare(rule) if matches!(rule, Rule::Reals { .. }) => Some((
            "cpp".to_string(),
            standard_for(*rule).source().as_bytes().to_vec(),
        )),
        _ => None,
    }
}

/// A YAML scalar in single quotes.
fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// Hydro's `config.yaml`: the limits, `checker_type: testlib` with its checker (or the
/// interactor), and the subtasks (`min` for a complete group, `sum` for each test) with their
/// scores, cases and dependencies (`if`, by subtask id). The samples are not judged.
fn hydro(judge: &Judge) -> Vec<File> {
    let mut files = Vec::new();
    let mut yaml = String::new();
    let interactive = matches!(judge.decided, Decided::Interactor { .. });
    yaml.push_str(&format!(
        "type: {}\n",
        if interactive {
            "interactive"
        } else {
            "default"
        }
    ));
    yaml.push_str(&format!("time: {}ms\n", judge.time_ms));
    yaml.push_str(&format!("memory: {}m\n", judge.memory_mib));
    match (&judge.decided, testlib_checker(&judge.decided)) {
        (Decided::Interactor { ext, source }, _) => {
            let path = format!("interactor.{ext}");
            yaml.push_str(&format!("interactor: {path}\n"));
            files.push((path, "interactor", source.clone()));
        }
        (_, Some((ext, source))) => {
            let path = format!("checker.{ext}");
            yaml.push_str(&format!("checker_type: testlib\nchecker: {path}\n"));
            files.push((path, "checker", source));
        }
        (_, None) => yaml.push_str("checker_type: default\n"),
    }
    yaml.push_str("subtasks:\n");
    for (index, (group, tests)) in scored(judge).iter().enumerate() {
        yaml.push_str(&format!("  - id: {}\n", index + 1));
        yaml.push_str(&format!("    score: {}\n", group.score));
        let kind = if group.each_test { "sum" } else { "min" };
        yaml.push_str(&format!("    type: {kind}\n"));
        if !group.dependencies.is_empty() {
            let ids: Vec<String> = group
                .dependencies
                .iter()
                .map(|d| (d + 1).to_string())
                .collect();
            yaml.push_str(&format!("    if: [{}]\n", ids.join(", ")));
        }
        yaml.push_str("    cases:\n");
        for test in tests {
            yaml.push_str(&format!(
                "      - input: {}\n        output: {}\n",
                quoted(&test.input),
                quoted(&test.answer)
            ));
        }
    }
    files.push((
        "config.yaml".to_string(),
        "Hydro's config",
        yaml.into_bytes(),
    ));
    files
}

/// UOJ's `problem.conf`: the tests `NAME1.in`.. with their answers `NAME1.out`.., the
/// samples as extra tests `ex_NAME1.in`.., the limits, the checker (`chk.cpp`, or a builtin
/// one), the subtasks by their last test with their scores, types and dependencies. The tests
/// of a subtask must be consecutive: the pack numbers them group by group.
fn uoj(judge: &Judge) -> anyhow::Result<Vec<File>> {
    let mut files = Vec::new();
    let samples = judge.tests.iter().filter(|t| t.group.is_none()).count();
    let tests = judge.tests.len() - samples;
    let mut conf = String::new();
    let mut line = |key: &str, value: String| conf.push_str(&format!("{key} {value}\n"));
    line("use_builtin_judger", "on".to_string());
    match (&judge.decided, testlib_checker(&judge.decided)) {
        (Decided::Interactor { ext, source }, _) => {
            line("interaction_mode", "on".to_string());
            files.push((format!("interactor.{ext}"), "interactor", source.clone()));
        }
        (_, Some((_, source))) => files.push(("chk.cpp".to_string(), "checker", source)),
        (Decided::Compare(rule), None) => line(
            "use_builtin_checker",
            standard_for(*rule).stem().to_string(),
        ),
        (Decided::Checker { .. }, None) => unreachable!("a checker is a testlib source"),
    }
    line("n_tests", tests.to_string());
    line("n_ex_tests", samples.to_string());
    line("n_sample_tests", samples.to_string());
    line("input_pre", judge.name.clone());
    line("input_suf", "in".to_string());
    line("output_pre", judge.name.clone());
    line("output_suf", "out".to_string());
    line(
        "time_limit",
        judge.time_ms.div_ceil(1000).max(1).to_string(),
    );
    line("memory_limit", judge.memory_mib.to_string());
    line("output_limit", "64".to_string());
    let scored = scored(judge);
    if scored.len() > 1 || scored.iter().any(|(g, _)| !g.dependencies.is_empty()) {
        line("n_subtasks", scored.len().to_string());
        let mut end = 0;
        for (index, (group, tests)) in scored.iter().enumerate() {
            let t = index + 1;
            end += tests.len();
            line(&format!("subtask_end_{t}"), end.to_string());
            line(&format!("subtask_score_{t}"), group.score.to_string());
            let kind = if group.each_test { "sum" } else { "packed" };
            line(&format!("subtask_type_{t}"), kind.to_string());
            match group.dependencies.as_slice() {
                [] => {}
                _ if group.each_test => anyhow::bail!(
                    "UOJ has no dependencies for a subtask scored test by test (subtask {})",
                    group.name
                ),
                [one] => line(&format!("subtask_dependence_{t}"), (one + 1).to_string()),
                many => {
                    line(&format!("subtask_dependence_{t}"), "many".to_string());
                    for (p, d) in many.iter().enumerate() {
                        line(
                            &format!("subtask_dependence_{t}_{}", p + 1),
                            (d + 1).to_string(),
                        );
                    }
                }
            }
        }
    }
    files.push((
        "problem.conf".to_string(),
        "UOJ's problem.conf",
        conf.into_bytes(),
    ));
    Ok(files)
}

/// LemonLime's contest file: one task, each subtask a test case of several inputs (scored
/// when all pass), or a test case per test for a group scored test by test; dependencies by
/// test case; the checker's source beside the data (LemonLime runs it compiled:
/// `data/NAME/checker`).
fn lemon(judge: &Judge) -> Vec<File> {
    let mut files = Vec::new();
    let (comparison, precision, special) = lemon_comparison(judge, &mut files);
    let task = serde_json::json!({
        "problemTitle": judge.name,
        "sourceFileName": judge.name,
        "inputFileName": format!("{}.in", judge.name),
        "outputFileName": format!("{}.out", judge.name),
        "standardInputCheck": true,
        "standardOutputCheck": true,
        "taskType": 0,
        "subFolderCheck": false,
        "comparisonMode": comparison,
        "diffArguments": "--ignore-space-change --text --brief",
        "realPrecision": precision,
        "specialJudge": special,
        "answerFileExtension": "out",
        "compilerConfiguration": {},
        "testCases": lemon_cases(judge),
    });
    let contest = serde_json::json!({
        "version": "1.0",
        "contestTitle": judge.name,
        "tasks": [task],
        "contestants": [],
    });
    let mut text = serde_json::to_string_pretty(&contest).unwrap_or_default();
    text.push('\n');
    files.push((
        format!("{}.cdf", judge.name),
        "LemonLime's contest file",
        text.into_bytes(),
    ));
    files
}

/// LemonLime's test cases: a group scored whole is one of its inputs together, a group
/// scored test by test one a test; each depends on the last case of the groups its group
/// depends on.
fn lemon_cases(judge: &Judge) -> Vec<serde_json::Value> {
    let mut cases: Vec<serde_json::Value> = Vec::new();
    let mut last_case: Vec<usize> = vec![0; judge.groups.len()];
    let relative = |path: &str| path.strip_prefix("data/").unwrap_or(path).to_string();
    for (index, group) in judge.groups.iter().enumerate() {
        let tests: Vec<&Test> = judge
            .tests
            .iter()
            .filter(|t| t.group == Some(index))
            .collect();
        if tests.is_empty() {
            continue;
        }
        let dependencies: Vec<usize> = group
            .dependencies
            .iter()
            .map(|d| last_case[*d])
            .filter(|c| *c > 0)
            .collect();
        let parts: Vec<Vec<&Test>> = if group.each_test {
            tests.iter().map(|t| vec![*t]).collect()
        } else {
            vec![tests]
        };
        let count = parts.len() as u32;
        for (k, part) in parts.iter().enumerate() {
            let share = group.score / count + u32::from((k as u32) < group.score % count);
            cases.push(serde_json::json!({
                "fullScore": share,
                "timeLimit": judge.time_ms,
                "memoryLimit": judge.memory_mib,
                "inputFiles": part.iter().map(|t| relative(&t.input)).collect::<Vec<_>>(),
                "outputFiles": part.iter().map(|t| relative(&t.answer)).collect::<Vec<_>>(),
                "dependenceSubtask": dependencies,
            }));
        }
        last_case[index] = cases.len();
    }
    cases
}

/// LemonLime's comparison: its `comparisonMode`, `realPrecision` and `specialJudge`, with
/// the checker's (or interactor's) source added to `files`.
fn lemon_comparison(judge: &Judge, files: &mut Vec<File>) -> (i64, i64, String) {
    match (&judge.decided, testlib_checker(&judge.decided)) {
        (Decided::Compare(Rule::Reals { tolerance }), _) => {
            (3, (-tolerance.log10()).round() as i64, String::new())
        }
        (Decided::Compare(_), _) => (1, 3, String::new()),
        (_, Some((ext, source))) => {
            let path = format!("data/{}/checker.{ext}", judge.name);
            files.push((path, "checker", source));
            (4, 3, format!("{}/checker", judge.name))
        }
        (Decided::Checker { .. }, None) => unreachable!("a checker is a testlib source"),
        (Decided::Interactor { ext, source }, None) => {
            let path = format!("data/{}/interactor.{ext}", judge.name);
            files.push((path, "interactor", source.clone()));
            (4, 3, String::new())
        }
    }
}

/// Luogu's `config.yml`: per test its time limit (ms), memory limit (KiB), score and subtask;
/// a group's score is split evenly among its tests.
fn luogu_config(judge: &Judge) -> Vec<File> {
    let mut yaml = String::new();
    for (index, (group, tests)) in scored(judge).iter().enumerate() {
        let count = tests.len() as u32;
        for (k, test) in tests.iter().enumerate() {
            let share = group.score / count + u32::from((k as u32) < group.score % count);
            let name = test.input.rsplit('/').next().unwrap_or(&test.input);
            yaml.push_str(&format!("{name}:\n"));
            yaml.push_str(&format!("  timeLimit: {}\n", judge.time_ms));
            yaml.push_str(&format!("  memoryLimit: {}\n", judge.memory_mib * 1024));
            yaml.push_str(&format!("  score: {share}\n"));
            yaml.push_str(&format!("  subtaskId: {}\n", index + 1));
            yaml.push_str("  isPretest: false\n");
        }
    }
    vec![(
        "config.yml".to_string(),
        "Luogu's config",
        yaml.into_bytes(),
    )]
}

/// The most Luogu takes: a zip of at most 50 MiB, 1000 test points.
pub const LUOGU_ZIP_MAX: u64 = 50 << 20;
pub const LUOGU_TESTS_MAX: usize = 1000;

/// A zip of `(path, content)`, deflated, in the given order.
pub fn zip_of(contents: &[(String, Vec<u8>)]) -> anyhow::Result<Vec<u8>> {
    let mut cursor = std::io::Cursor::new(Vec::new());
    {
        let mut zip = zip::ZipWriter::new(&mut cursor);
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            .last_modified_time(zip::DateTime::default());
        for (path, content) in contents {
            zip.start_file(path.as_str(), options)?;
            zip.write_all(content)?;
        }
        zip.finish()?;
    }
    Ok(cursor.into_inner())
}

/// CMS's italian_yaml task: `task.yaml` (the limits, the number of inputs) and `gen/GEN` (a
/// `#ST: score` line a subtask, then a `#COPY: input/inputN.txt` line for each of its tests:
/// the loader scores the subtasks GroupMin and wants their scores to add up to 100).
fn cms(judge: &Judge) -> anyhow::Result<Vec<File>> {
    let mut files = Vec::new();
    let scored = scored(judge);
    let total: u32 = scored.iter().map(|(g, _)| g.score).sum();
    if total != 100 {
        anyhow::bail!(
            "CMS's italian_yaml loader wants the subtasks' scores to add up to 100; they add up \
             to {total}"
        );
    }
    let inputs = judge.tests.iter().filter(|t| t.group.is_some()).count();
    let mut yaml = String::new();
    yaml.push_str(&format!("name: {}\n", quoted(&judge.name)));
    yaml.push_str(&format!("title: {}\n", quoted(&judge.name)));
    yaml.push_str(&format!("time_limit: {}\n", judge.time_ms as f64 / 1000.0));
    yaml.push_str(&format!("memory_limit: {}\n", judge.memory_mib));
    yaml.push_str(&format!("n_input: {inputs}\n"));
    yaml.push_str("infile: ''\noutfile: ''\n");
    yaml.push_str("public_testcases: all\n");
    yaml.push_str("score_precision: 0\n");
    yaml.push_str("token_mode: disabled\n");
    // CMS's checkers speak its own protocol, not testlib's: its white-diff compares.
    let mut list = String::new();
    for (group, tests) in &scored {
        list.push_str(&format!("#ST: {}\n", group.score));
        for test in tests {
            list.push_str(&format!("#COPY: {}\n", test.input));
        }
    }
    files.push((
        "task.yaml".to_string(),
        "CMS's task.yaml",
        yaml.into_bytes(),
    ));
    files.push(("gen/GEN".to_string(), "CMS's subtasks", list.into_bytes()));
    Ok(files)
}

/// Every file below `dir` but the manifest, the zip being made and other zips, as
/// `(path, content)` in path order.
fn files_below(dir: &std::path::Path, skip: &str) -> anyhow::Result<Vec<(String, Vec<u8>)>> {
    let mut found = Vec::new();
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry?;
        if !entry.file_type().is_file() {
            continue;
        }
        let rel = entry.path().strip_prefix(dir).unwrap_or(entry.path());
        let rel = rel.to_string_lossy().replace('\\', "/");
        if rel == super::MANIFEST || rel == skip || rel.ends_with(".zip") {
            continue;
        }
        found.push((rel, crate::fsutil::read_file_capped(entry.path())?));
    }
    Ok(found)
}

/// Names Windows keeps for devices, whatever their case and whatever extension follows: a
/// file named so (`con.zip`, `com1.in`) cannot be opened there.
const WINDOWS_DEVICES: [&str; 22] = [
    "con", "prn", "aux", "nul", "com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8",
    "com9", "lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9",
];

/// Refuses a problem name that makes a pack's file a Windows device: `NAME.zip`, `NAME.cdf`,
/// `NAME.plan`, and the tests `NAME1.in` ... `NAME9.in` of the judges that number them
/// (`com` makes `com1.in`). A judge's server or a setter on Windows could not open them.
pub fn check_windows_names(name: &str) -> anyhow::Result<()> {
    let lower = name.to_ascii_lowercase();
    let made = std::iter::once(lower.clone()).chain((1..=9).map(|d| format!("{lower}{d}")));
    for stem in made {
        if WINDOWS_DEVICES.contains(&stem.as_str()) {
            anyhow::bail!(
                "the problem's name {} makes files named {stem}.* in a pack, a name Windows \
                 keeps for a device (con, prn, aux, nul, com1-9, lpt1-9): a judge or a setter \
                 on Windows cannot open them; give the problem another name (`problem = \
                 \"...\"` in duipai.toml, or --problem)",
                crate::text::quote(name)
            );
        }
    }
    Ok(())
}

/// DOMjudge's import: `domjudge-problem.ini` (the short name, the name and the time limit in
/// seconds) beside the ICPC package in `out`, and `NAME.zip` of the package with it.
/// Returns the zip's path.
pub fn domjudge_zip(
    out: &std::path::Path,
    name: &str,
    time_ms: u64,
) -> anyhow::Result<std::path::PathBuf> {
    let ini = format!(
        "probid = {name}\nname = {name}\ntimelimit = {}\n",
        time_ms as f64 / 1000.0
    );
    crate::fsutil::write_atomic(&out.join("domjudge-problem.ini"), ini.as_bytes())?;
    let zip_name = format!("{name}.zip");
    let zip = zip_of(&files_below(out, &zip_name)?)?;
    let path = out.join(zip_name);
    crate::fsutil::write_atomic(&path, &zip)?;
    Ok(path)
}

/// Luogu's upload: `NAME.zip` of the tests at its top (`NAME1.in`, `NAME1.out`, ...) and
/// `config.yml`, within Luogu's limits. Returns the zip's path.
pub fn luogu_upload(out: &std::path::Path, name: &str) -> anyhow::Result<std::path::PathBuf> {
    let zip_name = format!("{name}.zip");
    let contents: Vec<(String, Vec<u8>)> = files_below(out, &zip_name)?
        .into_iter()
        .filter(|(path, _)| !path.contains('/'))
        .collect();
    let tests = contents.iter().filter(|(p, _)| p.ends_with(".in")).count();
    if tests > LUOGU_TESTS_MAX {
        anyhow::bail!("Luogu takes at most {LUOGU_TESTS_MAX} test points; the pack has {tests}");
    }
    let zip = zip_of(&contents)?;
    if zip.len() as u64 > LUOGU_ZIP_MAX {
        anyhow::bail!(
            "Luogu takes a zip of at most 50 MiB; the tests make {:.1} MiB compressed",
            zip.len() as f64 / f64::from(1 << 20)
        );
    }
    let path = out.join(zip_name);
    crate::fsutil::write_atomic(&path, &zip)?;
    Ok(path)
}
