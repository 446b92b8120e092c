//! The packs other judges import, beside the tests: Hydro's `config.yaml`, UOJ's
//! `problem.conf`, LemonLime's contest file (`.cdf`), Luogu's `config.yml` and zip, CMS's
//! `task.yaml` and `gen/GEN` (the italian_yaml format), each with the problem's limits, its
//! checker and its subtasks with their scores, policies and dependencies where the format
//! has them, written as each judge's loader reads them (each format's module names the source
//! it follows), and what a judge would refuse of a pack ([`cautions`]). What a judge needs
//! of a problem is said once ([`Judge`]), for a built-in game and a problem of one's own
//! ([`own`]) alike; each format's writer turns it into its files.

use std::io::Write;

use crate::answer::Rule;
use crate::pack::Layout;
use crate::polygon::Standard;

mod cms;
mod domjudge;
mod hydro;
mod lemon;
mod luogu;
pub mod own;
mod uoj;

pub use domjudge::domjudge_zip;
pub use hydro::{HYDRO_MEMORY_MAX_MIB, HYDRO_TESTS_MAX, HYDRO_TOTAL_TIME_MS};
pub use lemon::LEMON_DEPENDENCE;
pub use luogu::{LUOGU_TESTS_MAX, LUOGU_ZIP_MAX, luogu_upload};

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
    /// It depends on the samples, which no judge's pack here scores or lets a subtask depend
    /// on (each writes them apart): the pack has no place for that dependency.
    pub on_samples: bool,
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
            (Layout::Cms, true) => format!("att/sample{index}"),
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
        Layout::Hydro => Ok(hydro::hydro(judge)),
        Layout::Uoj => uoj::uoj(judge),
        Layout::Lemon => lemon::lemon(judge),
        Layout::Luogu => Ok(luogu::luogu_config(judge)),
        Layout::Cms => cms::cms(judge),
        _ => Ok(Vec::new()),
    }
}

/// What a judge will refuse of the pack though it is written as the format says, or what
/// of the problem the format cannot hold: for Hydro, a pack past its default caps, which it
/// cancels on a domain it does not trust; for CMS and Luogu, the groups' dependencies.
pub fn cautions(layout: Layout, judge: &Judge) -> Vec<String> {
    let mut cautions = match layout {
        Layout::Hydro => hydro::cautions(judge),
        Layout::Cms => dropped_dependencies("CMS", judge),
        Layout::Luogu => dropped_dependencies("Luogu's config.yml", judge),
        _ => Vec::new(),
    };
    cautions.extend(unjudged_samples(layout, judge));
    cautions
}

/// A line a group that depends on the samples, which `layout` gives no subtask to depend on.
fn unjudged_samples(layout: Layout, judge: &Judge) -> Vec<String> {
    let format = match layout {
        Layout::Hydro => "Hydro",
        Layout::Uoj => "UOJ",
        Layout::Lemon => "LemonLime",
        Layout::Luogu => "Luogu",
        Layout::Cms => "CMS",
        _ => return Vec::new(),
    };
    judge
        .groups
        .iter()
        .filter(|g| g.on_samples)
        .map(|g| {
            format!(
                "{format} has no dependency on the samples: {} is scored whether or not the \
                 samples pass",
                g.name
            )
        })
        .collect()
}

/// A line a group whose dependencies the format `format` has no place for.
fn dropped_dependencies(format: &str, judge: &Judge) -> Vec<String> {
    judge
        .groups
        .iter()
        .filter(|g| !g.dependencies.is_empty())
        .map(|g| {
            let names: Vec<&str> = g
                .dependencies
                .iter()
                .map(|d| judge.groups[*d].name.as_str())
                .collect();
            format!(
                "{format} has no dependencies between subtasks: {} is scored whether or not {} \
                 passes",
                g.name,
                names.join(" and ")
            )
        })
        .collect()
}

/// The groups that score, each with its tests (paths), in group order.
pub(super) fn scored(judge: &Judge) -> Vec<(&Group, Vec<&Test>)> {
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
pub(super) fn testlib_checker(decided: &Decided) -> Option<(String, Vec<u8>)> {
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
pub(super) fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// Test `k`'s part of a group's `score` shared by its `count` tests: nothing is rounded
/// away, the first tests get one point more.
pub(super) fn share(score: u32, count: usize, k: usize) -> u32 {
    let count = count as u32;
    score / count + u32::from((k as u32) < score % count)
}

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

/// Every file below `dir` but the manifest, the zip being made and other zips, as
/// `(path, content)` in path order.
pub(super) fn files_below(
    dir: &std::path::Path,
    skip: &str,
) -> anyhow::Result<Vec<(String, Vec<u8>)>> {
    let mut found = Vec::new();
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry?;
        if !entry.file_type().is_file() {
            continue;
        }
        let rel = entry.path().strip_prefix(dir).unwrap_or(entry.path());
        let rel = rel.to_string_lossy().replace('\\', "/");
        if rel == crate::pack::MANIFEST || rel == skip || rel.ends_with(".zip") {
            continue;
        }
        found.push((rel, crate::fsutil::read_file_capped(entry.path())?));
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A problem of `tests` tests in one group scored test by test, `time_ms` each.
    fn judge(tests: usize, time_ms: u64, decided: Decided) -> Judge {
        Judge {
            name: "p".to_string(),
            time_ms,
            memory_mib: 256,
            tests: (1..=tests)
                .map(|i| Test {
                    input: format!("{i}.in"),
                    answer: format!("{i}.ans"),
                    group: Some(0),
                })
                .collect(),
            groups: vec![Group {
                name: "tests".to_string(),
                score: 100,
                each_test: true,
                dependencies: Vec::new(),
                on_samples: false,
            }],
            decided,
        }
    }

    #[test]
    fn hydro_is_cautioned_only_past_its_caps() {
        let compare = || Decided::Compare(Rule::EXACT);
        // 60 s in all is what Hydro's judge allows; a millisecond more it cancels.
        assert!(cautions(Layout::Hydro, &judge(60, 1000, compare())).is_empty());
        let past = cautions(Layout::Hydro, &judge(60, 1001, compare()));
        assert_eq!(past.len(), 1);
        assert!(past[0].contains("add up to 60.06 s"), "{past:?}");
        assert_eq!(cautions(Layout::Hydro, &judge(101, 10, compare())).len(), 1);
        assert!(cautions(Layout::Uoj, &judge(60, 1001, compare())).is_empty());
    }

    #[test]
    fn lemon_refuses_an_interactor_and_runs_a_checker_in_testlib_mode() {
        let interactor = Decided::Interactor {
            ext: "cpp".to_string(),
            source: b"int main() {}".to_vec(),
        };
        let err = files(Layout::Lemon, &judge(2, 1000, interactor)).unwrap_err();
        assert!(
            err.to_string().contains("runs no testlib interactor"),
            "{err}"
        );
        let checker = Decided::Checker {
            ext: "cpp".to_string(),
            source: b"int main() {}".to_vec(),
        };
        let written = files(Layout::Lemon, &judge(2, 1000, checker)).unwrap();
        let cdf = &written.iter().find(|f| f.0 == "p.cdf").unwrap().2;
        let cdf: serde_json::Value = serde_json::from_slice(cdf).unwrap();
        assert_eq!(cdf["tasks"][0]["comparisonMode"], lemon::LEMON_TESTLIB);
    }

    #[test]
    fn cms_and_luogu_say_the_dependencies_they_cannot_hold() {
        let mut two = judge(2, 1000, Decided::Compare(Rule::Integers));
        two.groups[0].score = 40;
        two.groups.push(Group {
            name: "large".to_string(),
            score: 60,
            each_test: false,
            dependencies: vec![0],
            on_samples: false,
        });
        two.tests[1].group = Some(1);
        let said = "has no dependencies between subtasks: large is scored whether or not tests \
                    passes";
        for layout in [Layout::Cms, Layout::Luogu] {
            let cautions = cautions(layout, &two);
            assert_eq!(cautions.len(), 1, "{cautions:?}");
            assert!(cautions[0].contains(said), "{cautions:?}");
        }
        assert!(cautions(Layout::Uoj, &two).is_empty());
    }

    #[test]
    fn a_dependency_on_the_samples_is_said_to_be_dropped_by_every_judges_pack() {
        let mut on_samples = judge(2, 1000, Decided::Compare(Rule::Integers));
        on_samples.groups[0].on_samples = true;
        for (layout, format) in [
            (Layout::Hydro, "Hydro"),
            (Layout::Uoj, "UOJ"),
            (Layout::Lemon, "LemonLime"),
            (Layout::Luogu, "Luogu"),
            (Layout::Cms, "CMS"),
        ] {
            assert_eq!(
                cautions(layout, &on_samples),
                [format!(
                    "{format} has no dependency on the samples: tests is scored whether or not \
                     the samples pass"
                )]
            );
        }
        assert!(cautions(Layout::Icpc, &on_samples).is_empty());
    }

    #[test]
    fn uoj_refuses_scores_not_adding_up_to_100() {
        let mut short = judge(3, 1000, Decided::Compare(Rule::Integers));
        short.groups[0].score = 90;
        let err = files(Layout::Uoj, &short).unwrap_err();
        assert!(err.to_string().contains("add up to 90"), "{err}");
    }
}
