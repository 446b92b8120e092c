//! Pack tests: layouts, byte-identical output, the manifest replays every file, plan errors,
//! the safety rules (non-empty directory, no temporary files left), and that every packed
//! input is valid and every answer is the reference solver's.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::util::{Duipai, assert_contains};
use clap::Parser;
use duipai::app::args::{Cli, Command as Sub};
use duipai::pack::parse_plan;
use duipai::pack::{self, Layout, MANIFEST, PackOptions, plan};
use duipai::problem::{
    CHESS, CHESSBOARD, ChessProblem, ChessboardProblem, Instance, Problem, SHOOTING, Spec,
};

const LAYOUTS: [Layout; 3] = [Layout::Plain, Layout::Noi, Layout::Icpc];

fn builtin_plan(problem: &'static dyn Problem) -> plan::Plan {
    parse_plan(
        &plan::builtin_name(problem),
        problem.builtin_plan(),
        problem,
    )
    .unwrap()
}

fn options(problem: &'static dyn Problem, out: &Path, layout: Layout, seed: u64) -> PackOptions {
    PackOptions {
        problem,
        out: out.to_path_buf(),
        plan: builtin_plan(problem),
        layout,
        seed,
        force: false,
        icpc_version: None,
        overwrite_edited: false,
        write_limits: false,
    }
}

/// How many tests of the built-in plan the layout tests pack: the layouts name, number and
/// describe files the same way whatever the plan holds, and the whole plans (the gems one
/// above all) take seconds to solve in a test build.
const SHORT: usize = 3;

/// The built-in plan's first [`SHORT`] tests, their line numbers kept.
fn short_plan(problem: &'static dyn Problem) -> plan::Plan {
    let mut plan = builtin_plan(problem);
    plan.lines.truncate(SHORT);
    plan
}

/// An ICPC package of `problem` in `version` with a one-test plan `line`, as a tree.
fn small_icpc(
    problem: &'static dyn Problem,
    version: pack::IcpcVersion,
    line: &str,
) -> BTreeMap<String, Vec<u8>> {
    let dir = tempfile::tempdir().unwrap();
    let opts = PackOptions {
        plan: parse_plan("one.plan", line, problem).unwrap(),
        icpc_version: Some(version),
        ..options(problem, dir.path(), Layout::Icpc, 0)
    };
    pack::write_pack(&opts, &mut |_, _| {}).unwrap();
    read_tree(dir.path())
}

/// Every file under `dir`, by relative `/`-separated path.
fn read_tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e.path().strip_prefix(dir).unwrap();
            let rel = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            (rel, std::fs::read(e.path()).unwrap())
        })
        .collect()
}

/// A pack written once per (problem, layout, seed) and shared by the tests that only read it
/// (the calibration tests too): chessboard packs take seconds in a debug build.
pub(crate) struct Packed {
    pub(crate) tree: BTreeMap<String, Vec<u8>>,
    files: Vec<pack::PackedFile>,
}

pub(crate) fn packed(problem: &'static dyn Problem, layout: Layout, seed: u64) -> &'static Packed {
    cached(problem, layout, seed, false)
}

/// [`packed`] with the [`short_plan`].
fn packed_short(problem: &'static dyn Problem, layout: Layout, seed: u64) -> &'static Packed {
    cached(problem, layout, seed, true)
}

fn cached(
    problem: &'static dyn Problem,
    layout: Layout,
    seed: u64,
    short: bool,
) -> &'static Packed {
    // One slot per pack, the map's lock held only to find the slot: a test waits for the
    // pack it needs while another is written, never for every pack being written.
    type Slot = &'static std::sync::OnceLock<Packed>;
    type Cache = Vec<((&'static str, Layout, u64, bool), Slot)>;
    static CACHE: Mutex<Cache> = Mutex::new(Vec::new());
    let key = (problem.name(), layout, seed, short);
    let slot: Slot = {
        let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        match cache.iter().find(|(k, _)| *k == key) {
            Some((_, slot)) => slot,
            None => {
                let slot: Slot = Box::leak(Box::default());
                cache.push((key, slot));
                slot
            }
        }
    };
    slot.get_or_init(|| match crate::shared::packs_dir() {
        Some(shared) => on_disk(&shared, problem, layout, seed, short),
        None => write_packed(
            problem,
            layout,
            seed,
            short,
            tempfile::tempdir().unwrap().path(),
        ),
    })
}

/// Writes the pack into `dir`, and reads back what it holds.
fn write_packed(
    problem: &'static dyn Problem,
    layout: Layout,
    seed: u64,
    short: bool,
    dir: &Path,
) -> Packed {
    let mut opts = options(problem, dir, layout, seed);
    if short {
        opts.plan = short_plan(problem);
    }
    let files = pack::write_pack(&opts, &mut |_, _| {}).unwrap();
    Packed {
        tree: read_tree(dir),
        files,
    }
}

/// The list of files `write_pack` returned, kept beside a pack shared on disk (outside it, so
/// that the tree read back is the pack's alone): a line per file, its plan line (or `-`) and
/// its path.
fn files_list(files: &[pack::PackedFile]) -> String {
    files
        .iter()
        .map(|f| match f.line {
            Some(line) => format!("{line}\t{}\n", f.path),
            None => format!("-\t{}\n", f.path),
        })
        .collect()
}

fn parse_files_list(text: &str) -> Vec<pack::PackedFile> {
    text.lines()
        .map(|l| {
            let (line, path) = l.split_once('\t').unwrap();
            pack::PackedFile {
                path: path.to_string(),
                line: line.parse().ok(),
            }
        })
        .collect()
}

/// The pack from the folder this run's tests share (see `shared`): written there by the first
/// process that asks for it, whole or not at all (a rename), and read back by every other.
fn on_disk(
    shared: &Path,
    problem: &'static dyn Problem,
    layout: Layout,
    seed: u64,
    short: bool,
) -> Packed {
    let name = format!(
        "{problem}-{layout:?}-{seed}-{}",
        if short { "short" } else { "full" }
    );
    let home = shared.join(&name);
    if !home.join("files").exists() {
        let staging = tempfile::tempdir_in(shared).unwrap();
        let packed = write_packed(problem, layout, seed, short, &staging.path().join("pack"));
        std::fs::write(staging.path().join("files"), files_list(&packed.files)).unwrap();
        // Another process may have won the race: its copy is the same, keep it.
        let _ = std::fs::rename(staging.path(), &home);
    }
    Packed {
        tree: read_tree(&home.join("pack")),
        files: parse_files_list(&std::fs::read_to_string(home.join("files")).unwrap()),
    }
}

/// Writes every pack the tests read into the shared folder: what the setup script runs. A
/// thread a game, since every test waits for the setup script: the heaviest game's packs are
/// then all the wait.
pub(crate) fn write_shared() {
    std::thread::scope(|scope| {
        for &problem in duipai::problem::ALL {
            scope.spawn(move || {
                cached(problem, Layout::Plain, 0, false);
                for layout in LAYOUTS {
                    cached(problem, layout, 0, true);
                }
                cached(problem, Layout::Icpc, 99, true);
                if problem.name() == CHESS.name() {
                    cached(&CHESS, Layout::Plain, 7, false);
                }
                if problem.name() == CHESSBOARD.name() {
                    cached(&CHESSBOARD, Layout::Icpc, 0, false);
                }
            });
        }
    });
}

fn text(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).unwrap()
}

/// The plan's instances, regenerated from the plan itself (not from the pack).
fn plan_instances(problem: &'static dyn Problem, seed: u64) -> Vec<Box<dyn Instance>> {
    builtin_plan(problem)
        .lines
        .iter()
        .map(|l| {
            Spec::new(problem, &l.params)
                .unwrap()
                .generate(plan::effective_seed(l.seed, seed))
        })
        .collect()
}

#[test]
fn layouts_name_their_files() {
    for &problem in duipai::problem::ALL {
        let count = short_plan(problem).lines.len();
        for layout in LAYOUTS {
            let tree = &packed_short(problem, layout, 0).tree;
            let mut expected: Vec<String> = (1..=count)
                .flat_map(|i| {
                    let stem = match layout {
                        Layout::Plain => i.to_string(),
                        Layout::Noi => format!("{problem}{i}"),
                        Layout::Icpc => format!("data/secret/{i:02}"),
                        _ => unreachable!("LAYOUTS are plain, noi and icpc"),
                    };
                    [format!("{stem}.in"), format!("{stem}.ans")]
                })
                .collect();
            expected.push(MANIFEST.to_string());
            if layout == Layout::Icpc {
                expected.extend([
                    "data/sample/01-sample.in".to_string(),
                    "data/sample/01-sample.ans".to_string(),
                    "problem.yaml".to_string(),
                ]);
                if let Some(flags) = pack::validator_flags(problem.rule()) {
                    let files = pack::icpc::flag_files(pack::IcpcVersion::V2025_09, &flags);
                    expected.extend(files.into_iter().map(|(path, _)| path));
                }
                for (name, _) in problem.package().invalid_inputs {
                    expected.push(format!("data/invalid_input/{name}.in"));
                }
                expected.extend(pack::icpc::setter_paths(
                    problem,
                    pack::IcpcVersion::V2025_09,
                ));
            }
            expected.sort();
            let got: Vec<String> = tree.keys().cloned().collect();
            assert_eq!(got, expected, "{problem} {layout:?}");
        }
    }
}

#[test]
fn icpc_layout_has_samples_and_limits() {
    // Chess has LOJ's limits; chessboard's time limit is a guess (see docs/games.md).
    for (problem, sample_in, sample_ans, time, memory) in [
        (
            &CHESS as &'static dyn Problem,
            "2 3\n2 7 3\n9 1 2\n3 7 2\n2 3 1\n",
            "2\n",
            1,
            512,
        ),
        (
            &CHESSBOARD,
            "4\nWBB.\nBWBW\nWBWW\nBBBW\n1 1 1 0\n1 1 1 1\n1 1 1 1\n1 1 1 1\n",
            "3\n",
            2,
            1024,
        ),
    ] {
        let tree = &packed_short(problem, Layout::Icpc, 0).tree;
        assert_eq!(text(&tree["data/sample/01-sample.in"]), sample_in);
        assert_eq!(text(&tree["data/sample/01-sample.ans"]), sample_ans);
        let title = problem.package().title;
        let uuid = pack::icpc::problem_uuid(problem);
        assert_eq!(
            text(&tree["problem.yaml"]),
            format!(
                "problem_format_version: 2025-09\nname: {title}\nuuid: {uuid}\nlimits:\n  \
                 time_limit: {time}\n  memory: {memory}\n"
            )
        );
        let statement = text(&tree["statement/problem.en.tex"]);
        assert!(
            statement.starts_with(&format!("\\problemname{{{title}}}\n\n")),
            "{statement}"
        );
        assert!(!tree.keys().any(|k| k.ends_with("test_group.yaml")));
    }
}

/// Real answers: the package says the default output validator judges them, within the
/// problem's tolerance, where each format version keeps that setting, so a judge that reads
/// the package accepts what `duipai test` accepts.
#[test]
fn icpc_layout_declares_the_float_tolerance_of_real_answers() {
    use pack::IcpcVersion::{Draft2023_07, Legacy, V2025_09};
    let line = "gen shooting --family smallest --cases 1 --seed 3\n";
    let tree = small_icpc(&SHOOTING, V2025_09, line);
    assert_eq!(text(&tree["data/sample/01-sample.in"]), "3\n2 1 1\n0\n");
    assert_eq!(text(&tree["data/sample/01-sample.ans"]), "0.555556\n");
    for group in ["sample", "secret"] {
        assert_eq!(
            text(&tree[&format!("data/{group}/test_group.yaml")]),
            "output_validator_args: [float_tolerance, \"1e-6\"]\n"
        );
    }
    assert!(!text(&tree["problem.yaml"]).contains("valid"));
    assert!(tree.contains_key("answer_validators/shooting.ctd"));

    let tree = small_icpc(&SHOOTING, Draft2023_07, line);
    assert_eq!(
        text(&tree["data/testdata.yaml"]),
        "output_validator_flags: float_tolerance 1e-6\n"
    );
    assert!(tree.contains_key("statement/problem.en.tex"));

    // Legacy: the settings in problem.yaml, no time limit, the statement in
    // problem_statement/, nothing problemtools would take for a test group.
    let tree = small_icpc(&SHOOTING, Legacy, line);
    assert_eq!(
        text(&tree["problem.yaml"]),
        "problem_format_version: legacy\nname: Shooting Game\n\
         uuid: c1b0997f-c0ce-5b9c-af4b-e3c30dc4c945\nvalidation: default\n\
         validator_flags: float_tolerance 1e-6\nlimits:\n  memory: 128\n"
    );
    assert!(tree.contains_key("problem_statement/problem.en.tex"));
    let data: Vec<&String> = tree.keys().filter(|k| k.starts_with("data/")).collect();
    assert!(
        data.iter()
            .all(|k| k.starts_with("data/sample/01-sample.") || k.starts_with("data/secret/01.")),
        "{data:?}"
    );
    assert!(!tree.keys().any(|k| k.starts_with("answer_validators/")));
}

#[test]
fn packing_twice_gives_identical_bytes() {
    // Against the pack the other tests made (or will use) in this process: the ICPC package
    // with derived seeds, the layout with the most files; the others are written by the same
    // parallel writer.
    let (layout, seed) = (Layout::Icpc, 99);
    for &problem in duipai::problem::ALL {
        let again = tempfile::tempdir().unwrap();
        let opts = PackOptions {
            plan: short_plan(problem),
            ..options(problem, again.path(), layout, seed)
        };
        pack::write_pack(&opts, &mut |_, _| {}).unwrap();
        assert_eq!(
            read_tree(again.path()),
            packed_short(problem, layout, seed).tree,
            "{problem}"
        );
    }
}

#[test]
fn chess_plan_is_the_official_table() {
    let sizes = [
        (2, 2),
        (2, 2),
        (2, 2),
        (3, 3),
        (3, 3),
        (3, 3),
        (5, 5),
        (5, 5),
        (8, 8),
        (8, 8),
        (10, 1),
        (10, 1),
        (10, 2),
        (10, 2),
        (10, 3),
        (10, 3),
        (10, 10),
        (10, 10),
        (10, 10),
        (10, 10),
    ];
    let official = plan::named_builtin(&CHESS, "official").unwrap().unwrap();
    assert_eq!(official.name, "<built-in chess plan official>");
    let cases: Vec<Box<dyn Instance>> = official
        .lines
        .iter()
        .map(|l| Spec::new(&CHESS, &l.params).unwrap().generate(l.seed))
        .collect();
    assert_eq!(cases.len(), 20);
    // The default plan starts with the same 20 tests.
    let default = builtin_plan(&CHESS);
    for (a, b) in official.lines.iter().zip(&default.lines) {
        assert_eq!((&a.text, a.seed), (&b.text, b.seed));
    }
    assert!(default.lines.len() > 20);
    for (i, (case, &(n, m))) in cases.iter().zip(&sizes).enumerate() {
        let c = case.first_case::<ChessProblem>().unwrap();
        assert_eq!((c.n, c.m), (n, m), "test point {}", i + 1);
        let point = i + 1;
        let b_zero = c.b.iter().flatten().all(|&v| v == 0);
        assert_eq!(
            b_zero,
            point % 2 == 1,
            "test point {point}: B = 0 only on odd points"
        );
        assert!(
            c.a.iter()
                .chain(&c.b)
                .flatten()
                .all(|v| (0..=100_000).contains(v))
        );
    }
    // Values use the whole range: some test point reaches above 99000.
    assert!(cases.iter().any(|c| {
        c.first_case::<ChessProblem>()
            .is_some_and(|c| c.a.iter().flatten().any(|&v| v > 99_000))
    }));
}

#[test]
fn chessboard_plan_covers_sizes_and_families() {
    let plan = builtin_plan(&CHESSBOARD);
    assert!(plan.lines.len() >= 20);
    let cases = plan_instances(&CHESSBOARD, 0);
    let sizes: Vec<usize> = cases
        .iter()
        .map(|c| c.first_case::<ChessboardProblem>().unwrap().n)
        .collect();
    for n in 1..=12 {
        assert!(sizes.contains(&n), "no board of size {n}");
    }
    assert!(sizes.iter().filter(|&&n| n == 12).count() >= 3);
    for f in CHESSBOARD.families() {
        assert!(
            plan.lines
                .iter()
                .any(|l| l.params.family.as_deref() == Some(f.name)),
            "family {f} not in the plan"
        );
    }
}

/// The plain-layout input of test point `point`, as text.
fn point_text(problem: &'static dyn Problem, point: usize) -> &'static str {
    text(&packed(problem, Layout::Plain, 0).tree[&format!("{point}.in")])
}

/// The built-in plans' comments are true: the `duipai gen` commands they quote print the test
/// points they name (run through the binary), and what a line's comment says of its point
/// (`# 11: a single column`) holds of the packed input.
#[test]
fn plan_comments_are_true() {
    let mut commands = 0;
    for &problem in duipai::problem::ALL {
        let plan_text = problem.builtin_plan();
        let header: Vec<&str> = plan_text
            .lines()
            .filter_map(|l| l.strip_prefix('#'))
            .map(str::trim)
            .collect();
        let header = header.join(" ");
        for (at, _) in header.match_indices("`duipai gen ") {
            let quoted = &header[at + 1..];
            let (command, after) = quoted.split_once('`').unwrap();
            let point: usize = after
                .strip_prefix(" prints test point ")
                .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
                .and_then(|digits| digits.parse().ok())
                .unwrap_or_else(|| panic!("`{command}` is not followed by the point it prints"));
            let words = shell_words::split(command).unwrap();
            let words: Vec<&str> = words[1..].iter().map(String::as_str).collect();
            let out = Duipai::new().args(&words).run().success();
            assert_eq!(
                text(&out.output.stdout),
                point_text(problem, point),
                "`{command}` does not print test point {point}"
            );
            commands += 1;
        }
        let rule = format!(
            "{problem} breaks rule 10 of CONTRIBUTING.md (every gen line of the plan ends with a \
             comment naming its test point, `# 7`, or `# 7: a claim`)"
        );
        for line in plan_text.lines().filter(|l| l.starts_with("gen ")) {
            let (_, comment) = line
                .split_once('#')
                .unwrap_or_else(|| panic!("{rule}: {line}"));
            let (point, claim) = match comment.trim().split_once(": ") {
                Some((point, claim)) => (point, Some(claim)),
                None => (comment.trim(), None),
            };
            let point: usize = point.parse().unwrap_or_else(|_| panic!("{rule}: {line}"));
            if let Some(claim) = claim {
                let input = point_text(problem, point);
                let file = problem
                    .parse(input.as_bytes(), &problem.default_bounds())
                    .unwrap();
                let holds = problem.plan_claim(claim, file.as_ref()).unwrap_or_else(|| {
                    panic!(
                        "{problem} has no check for its plan's claim {claim:?}: add one to \
                         its Game::plan_claim"
                    )
                });
                assert!(
                    holds,
                    "{problem} test point {point} is not {claim:?}:\n{input}"
                );
            }
        }
    }
    assert!(commands >= 2, "the plans quote {commands} commands");
    // `every family at least twice but max-size, once`, as the chessboard plan says.
    let plan = builtin_plan(&CHESSBOARD);
    for family in CHESSBOARD.families() {
        let uses = plan
            .lines
            .iter()
            .filter(|l| l.params.family.as_deref() == Some(family.name))
            .count();
        if family.name == "max-size" {
            assert_eq!(uses, 1, "{family}");
        } else {
            assert!(uses >= 2, "{family} is in {uses} test points");
        }
    }
}

#[test]
fn seed_zero_keeps_the_written_seeds_and_others_change_every_test() {
    let a = &packed(&CHESS, Layout::Plain, 0).tree;
    let first = Duipai::new()
        .args(["gen", "chess", "--n", "2", "--m", "2", "--b-zero"])
        .args(["--family", "uniform", "--seed", "101"])
        .run();
    assert_eq!(a["1.in"], first.output.stdout);
    let b = &packed(&CHESS, Layout::Plain, 7).tree;
    // The random 10×10 points differ with another seed (18 is every value at the bound, and
    // small boards may coincide by chance).
    for i in [17, 19, 20] {
        let name = format!("{i}.in");
        assert!(a[&name] != b[&name], "{name} did not change with --seed 7");
    }
}

/// Runs a manifest's `duipai gen ...` command in-process.
fn replay(command: &str) -> String {
    let gen_part = command.split(" | ").next().unwrap();
    let cli = Cli::try_parse_from(gen_part.split_whitespace()).unwrap();
    let Sub::Gen(g) = cli.command else {
        panic!("{command}")
    };
    Spec::new(
        duipai::problem::by_name(&g.problem).expect("a game"),
        &g.gen_args.to_params(),
    )
    .unwrap()
    .generate(g.seed)
    .to_input()
}

#[test]
fn manifest_replays_every_file() {
    for &problem in duipai::problem::ALL {
        // Every layout's own files on the plan's first lines; that every line of the whole
        // plan replays is tests/model/plans.rs's.
        let packs = [
            packed_short(problem, Layout::Plain, 0),
            packed_short(problem, Layout::Noi, 0),
            packed_short(problem, Layout::Icpc, 99),
        ];
        for (pack, layout) in packs.into_iter().zip(LAYOUTS) {
            let Packed { tree, files } = pack;
            let manifest = text(&tree[MANIFEST]).to_string();
            let plan_text = problem.builtin_plan();
            let rows: Vec<&str> = manifest.lines().filter(|l| !l.starts_with('#')).collect();
            assert_eq!(rows.len(), files.len());
            // Besides the listed files (the validator settings and the invalid inputs among
            // them): the manifest, and in the ICPC package problem.yaml, which is merged, and
            // the setter's files, written only where missing.
            let metadata = match layout {
                Layout::Icpc => {
                    1 + pack::icpc::setter_paths(problem, pack::IcpcVersion::V2025_09).len()
                }
                _ => 0,
            };
            assert_eq!(rows.len() + 1 + metadata, tree.len());
            for row in rows {
                let cols: Vec<&str> = row.split('\t').collect();
                assert_eq!(cols.len(), 5, "{row}");
                let (file, line, written, command) = (cols[0], cols[1], cols[2], cols[3]);
                assert!(tree.contains_key(file), "{file}");
                // The last column is the file's hash as written.
                assert_eq!(cols[4], pack::manifest::content_hash(&tree[file]), "{file}");
                if line == "-" {
                    // The sample, the validator settings and the invalid inputs: their own
                    // text, as a printf.
                    assert!(
                        file.starts_with("data/sample/")
                            || file.ends_with("test_group.yaml")
                            || file.starts_with("data/invalid_input/"),
                        "{file}"
                    );
                    assert!(command.starts_with("printf '"), "{command}");
                    continue;
                }
                // The plan line number and text point at the line in the plan.
                let number: usize = line.parse().unwrap();
                let source = plan_text.lines().nth(number - 1).unwrap();
                assert!(source.starts_with(written), "{source} / {written}");
                let input = replay(command);
                if file.ends_with(".in") {
                    assert_eq!(text(&tree[file]), input, "{file}");
                } else {
                    assert!(command.ends_with(&format!(" | duipai solve {problem}")));
                    let stem = file.trim_end_matches(".ans");
                    assert_eq!(text(&tree[&format!("{stem}.in")]), input, "{file}");
                }
            }
        }
    }
}

#[test]
fn every_packed_input_is_valid_and_every_answer_is_the_solvers() {
    for &problem in duipai::problem::ALL {
        // The plain and NOI packs hold the same inputs under other names: each input is
        // solved once, and every file holding it is held to that answer.
        let mut solved: HashMap<Vec<u8>, String> = HashMap::new();
        // The plan's first lines in every layout; every input of the whole plan is valid and
        // solved in tests/model/plans.rs.
        let packs = [
            (packed_short(problem, Layout::Plain, 0), Layout::Plain, true),
            (packed_short(problem, Layout::Noi, 0), Layout::Noi, true),
            (packed_short(problem, Layout::Icpc, 99), Layout::Icpc, true),
        ];
        for (pack, layout, short) in packs {
            let tree = &pack.tree;
            let mut checked = 0;
            for (name, bytes) in tree {
                let Some(stem) = name.strip_suffix(".in") else {
                    continue;
                };
                if name.starts_with("data/invalid_input/") {
                    // Inputs the validators must reject: the model tests check that they do.
                    continue;
                }
                let expected = solved.entry(bytes.clone()).or_insert_with(|| {
                    let instance = problem
                        .parse(bytes, &problem.default_bounds())
                        .unwrap_or_else(|e| panic!("{name}: {e}"));
                    assert_eq!(
                        instance.to_input().as_bytes(),
                        &bytes[..],
                        "{name} is canonical"
                    );
                    instance.answer_text()
                });
                let answer = text(&tree[&format!("{stem}.ans")]);
                assert_eq!(answer, expected.as_str(), "{name}");
                checked += 1;
            }
            let tests = if short {
                short_plan(problem).lines.len()
            } else {
                problem
                    .builtin_plan()
                    .lines()
                    .filter(|l| l.starts_with("gen "))
                    .count()
            };
            let samples = usize::from(layout == Layout::Icpc);
            assert_eq!(checked, tests + samples, "{problem} {layout:?}");
        }
    }
}

#[test]
fn refuses_a_non_empty_directory_without_force() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), "keep me").unwrap();
    let out_dir = dir.path().to_str().unwrap();
    let out = Duipai::new()
        .args(["pack", "chess", "--out", out_dir])
        .run()
        .code(2);
    let stderr = text(&out.output.stderr);
    assert_contains(stderr, "is not empty; pass --force");
    assert_eq!(read_tree(dir.path()).len(), 1, "nothing written");

    Duipai::new()
        .args(["pack", "chess", "--out", out_dir, "--force"])
        .run()
        .success();
    let tree = read_tree(dir.path());
    assert_eq!(text(&tree["notes.txt"]), "keep me");
    assert!(tree.contains_key("20.ans") && tree.contains_key(MANIFEST));
}

#[test]
fn binary_pack_matches_the_library_and_leaves_no_temporary_files() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("pack");
    let out = Duipai::new()
        .args(["pack", "chessboard", "--out"])
        .arg(&out_dir)
        .args(["--layout", "icpc"])
        .run()
        .success();
    // stderr is not a terminal here: the format version, the bounds' coverage and one
    // summary line, no progress bar.
    let stderr = text(&out.output.stderr);
    assert_eq!(stderr.lines().count(), 3, "{stderr}");
    assert_contains(
        stderr,
        "\nduipai: the tests reach both ends of every bound: n 1..=12, value 0..=1000000\n",
    );
    assert_contains(stderr, "tests");

    let tree = read_tree(&out_dir);
    assert_eq!(&tree, &packed(&CHESSBOARD, Layout::Icpc, 0).tree);
    assert!(
        tree.keys().all(|k| !k.contains(".duipai-")),
        "{:?}",
        tree.keys()
    );
    // And the validator itself accepts every input but those made to be rejected.
    let inputs: Vec<String> = tree
        .keys()
        .filter(|k| k.ends_with(".in") && !k.starts_with("data/invalid_input/"))
        .map(|k| out_dir.join(k).to_string_lossy().into_owned())
        .collect();
    let mut args = vec!["validate", "chessboard"];
    args.extend(inputs.iter().map(String::as_str));
    Duipai::new().args(args).run().success();
}

#[test]
fn a_failed_plan_leaves_the_previous_manifest_and_a_good_run_replaces_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out_dir = d.join("p");
    std::fs::write(d.join("one.plan"), "gen chess --n 2 --seed 1\n").unwrap();
    Duipai::in_dir(d)
        .args(["pack", "chess", "--out", "p", "--plan", "one.plan"])
        .run()
        .success();
    let manifest = std::fs::read(out_dir.join(MANIFEST)).unwrap();
    // A plan whose second line is bad fails before anything is written...
    std::fs::write(
        d.join("bad.plan"),
        "gen chess --n 2 --seed 1\ngen chess --n 2 --seed x\n",
    )
    .unwrap();
    Duipai::in_dir(d)
        .args(["pack", "chess", "--out", "p", "--force"])
        .args(["--plan", "bad.plan"])
        .run()
        .code(2);
    assert_eq!(std::fs::read(out_dir.join(MANIFEST)).unwrap(), manifest);
    // ...and a good run replaces the manifest.
    let mut opts = options(&CHESS, &out_dir, Layout::Plain, 0);
    opts.force = true;
    pack::write_pack(&opts, &mut |_, _| {}).unwrap();
    let manifest = std::fs::read_to_string(out_dir.join(MANIFEST)).unwrap();
    assert!(manifest.starts_with("# duipai pack chess --layout plain --seed 0 (plan <built-in"));
    assert_eq!(manifest.matches("# duipai pack").count(), 1, "{manifest}");
}

/// A plan of `n` small chess tests (`tN.plan` in `dir`).
fn small_plan(dir: &Path, problem: &str, n: usize) -> String {
    let name = format!("{problem}{n}.plan");
    let lines: String = (1..=n)
        .map(|i| format!("gen {problem} --n {} --seed {i}\n", 1 + i % 3))
        .collect();
    std::fs::write(dir.join(&name), lines).unwrap();
    name
}

#[test]
fn force_removes_only_what_the_manifest_lists() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = d.join("p");
    Duipai::in_dir(d)
        .args(["pack", "chess", "--out", "p", "--layout", "icpc"])
        .run()
        .success();
    // The setter's own test and notes, which no manifest lists.
    std::fs::write(p.join("data/secret/99-hand.in"), "1 1\n5\n0\n").unwrap();
    std::fs::write(p.join("data/secret/99-hand.ans"), "5\n").unwrap();
    std::fs::write(p.join("notes.txt"), "keep me").unwrap();
    let plan = small_plan(d, "chess", 2);
    let args = [
        "pack", "chess", "--out", "p", "--layout", "icpc", "--plan", &plan,
    ];

    // Without --force: refused, and the refusal says exactly what --force would do.
    let before = read_tree(&p);
    let out = Duipai::in_dir(d).args(args).run().code(2);
    let err = text(&out.output.stderr);
    assert_eq!(read_tree(&p), before, "nothing changed");
    for says in [
        "p is not empty; pass --force to write the chess pack (icpc layout) into it",
        "replaces 14 files that the previous pack listed in manifest.txt \
         (data/sample/01-sample.in,",
        "creates 0 files",
        "merges problem.yaml",
        "keeps 4 files of the package as they are (statement/problem.en.tex, \
         input_validators/chess.ctd, submissions/accepted/chess.cpp, answer_validators/chess.ctd)",
        "removes 56 files that the previous pack listed in manifest.txt and this one does not \
         write (data/secret/03.in, data/secret/03.ans,",
        "leaves in place 3 files that no pack in manifest.txt lists (data/secret/99-hand.ans, \
         data/secret/99-hand.in, notes.txt)",
    ] {
        assert!(err.contains(says), "missing {says:?} in\n{err}");
    }

    let out = Duipai::in_dir(d).args(args).arg("--force").run().success();
    let err = text(&out.output.stderr);
    let tree = read_tree(&p);
    let package = pack::icpc::setter_paths(&CHESS, pack::IcpcVersion::V2025_09);
    let mut names: Vec<&str> = tree
        .keys()
        .map(String::as_str)
        .filter(|k| !k.starts_with("data/invalid_input/") && !package.iter().any(|f| f == k))
        .collect();
    names.sort();
    assert!(package.iter().all(|f| tree.contains_key(f)));
    assert!(tree.contains_key("data/invalid_input/plus-sign.in"));
    assert_eq!(
        names,
        [
            "data/sample/01-sample.ans",
            "data/sample/01-sample.in",
            "data/secret/01.ans",
            "data/secret/01.in",
            "data/secret/02.ans",
            "data/secret/02.in",
            "data/secret/99-hand.ans",
            "data/secret/99-hand.in",
            "manifest.txt",
            "notes.txt",
            "problem.yaml",
        ]
    );
    assert_eq!(text(&tree["data/secret/99-hand.ans"]), "5\n");
    assert_contains(
        err,
        "removed 56 files of the previous chess pack (icpc layout)",
    );
    assert_contains(
        err,
        "left in place 3 files that no pack in manifest.txt lists: data/secret/99-hand.ans, \
         data/secret/99-hand.in, notes.txt",
    );

    // Without a manifest, nothing is the previous pack's: a forced pack removes nothing.
    std::fs::remove_file(p.join(MANIFEST)).unwrap();
    let plan = small_plan(d, "chess", 1);
    let out = Duipai::in_dir(d)
        .args(["pack", "chess", "--out", "p", "--layout", "icpc"])
        .args(["--plan", &plan, "--force"])
        .run()
        .success();
    let err = text(&out.output.stderr);
    assert!(p.join("data/secret/02.in").exists(), "{err}");
    assert!(!err.contains("removed"), "{err}");
    assert_contains(
        err,
        "replaced 12 files of the same names that manifest.txt did not list",
    );
}

#[test]
fn a_hand_edited_problem_yaml_keeps_the_setters_keys() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let plan = small_plan(d, "chess", 1);
    let args = [
        "pack", "chess", "--out", "p", "--layout", "icpc", "--plan", &plan, "--force",
    ];
    Duipai::in_dir(d).args(args).run().success();
    let yaml = d.join("p/problem.yaml");
    // The setter adds a license and a uuid, a comment, and changes the order and the name.
    let edited = "# NOI 2018 day 1, problem A\n\
                  name: 一双木棋\n\
                  problem_format_version: 2023-07-draft\n\
                  uuid: 4c3b6e2a-59d1-4f0e-9a43-0a3c1f2b7d11\n\
                  license: cc by-sa  # see the statement\n\
                  limits:\n  \
                    memory: 256\n  \
                    output: 8\n";
    std::fs::write(&yaml, edited).unwrap();
    let out = Duipai::in_dir(d).args(args).run().success();
    let err = text(&out.output.stderr);
    // A missing limit is added; the setter's memory limit is kept, and said to differ.
    assert_eq!(
        std::fs::read_to_string(&yaml).unwrap(),
        edited.replace("output: 8\n", "output: 8\n  time_limit: 1\n")
    );
    assert_contains(err, "problem.yaml: added limits.time_limit;");
    assert_contains(
        err,
        "problem.yaml: kept limits.memory 256, not duipai's 512 (limits already there are the \
         setter's; --write-limits replaces them)",
    );
    // Asked for, duipai's limit replaces it.
    let mut forced = args.to_vec();
    forced.push("--write-limits");
    let out = Duipai::in_dir(d).args(&forced).run().success();
    assert_contains(text(&out.output.stderr), "limits.memory 256 -> 512");
    assert_contains(&std::fs::read_to_string(&yaml).unwrap(), "memory: 512\n");
    // Packing again changes nothing and says nothing about it.
    let out = Duipai::in_dir(d).args(args).run();
    assert!(
        !text(&out.output.stderr).contains("problem.yaml"),
        "{}",
        text(&out.output.stderr)
    );

    // A file duipai cannot merge line by line is left exactly as it is, with a warning.
    let flow = "name: Chess\nlimits: {time_limit: 2, memory: 64}\nlicense: cc0\n";
    std::fs::write(&yaml, flow).unwrap();
    let out = Duipai::in_dir(d).args(args).run().success();
    let err = text(&out.output.stderr);
    assert_eq!(std::fs::read_to_string(&yaml).unwrap(), flow);
    assert!(
        err.contains("warning: problem.yaml left as it is (line 2: limits is written on one line"),
        "{err}"
    );
    assert_contains(err, "time_limit: 1 and memory: 512");
}

#[test]
fn packs_of_two_problems_share_one_folder() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = d.join("evaldata");
    Duipai::in_dir(d)
        .args(["pack", "chess", "--out", "evaldata", "--layout", "noi"])
        .run()
        .success();
    let chess = read_tree(&p);
    let chess_manifest = text(&chess[MANIFEST]).to_string();
    let plan = small_plan(d, "chessboard", 2);
    let args = [
        "pack",
        "chessboard",
        "--out",
        "evaldata",
        "--layout",
        "noi",
        "--plan",
        &plan,
    ];

    let out = Duipai::in_dir(d).args(args).run().code(2);
    let err = text(&out.output.stderr);
    for says in [
        "replaces no file",
        "creates 4 files",
        "removes no file",
        "keeps the 60 files of the chess pack (noi layout)",
    ] {
        assert!(err.contains(says), "missing {says:?} in\n{err}");
    }
    assert_eq!(read_tree(&p), chess);

    let out = Duipai::in_dir(d).args(args).arg("--force").run().success();
    let err = text(&out.output.stderr);
    assert_contains(err, "kept the 60 files of the chess pack (noi layout)");
    let both = read_tree(&p);
    for (name, bytes) in &chess {
        if name != MANIFEST {
            assert_eq!(&both[name], bytes, "{name} is untouched");
        }
    }
    assert_eq!(both.len(), chess.len() + 4);
    let manifest = text(&both[MANIFEST]);
    assert!(
        manifest.starts_with(&chess_manifest),
        "the chess rows stay:\n{manifest}"
    );
    assert!(manifest.contains(
        "\n# duipai pack chessboard --layout noi --seed 0 (plan chessboard2.plan, 2 tests)\n"
    ));
    assert_contains(manifest, "\nchessboard2.ans\t2\t");

    // Packing chess again removes only chess files: the chessboard pack stays whole.
    let plan = small_plan(d, "chess", 3);
    let out = Duipai::in_dir(d)
        .args(["pack", "chess", "--out", "evaldata", "--layout", "noi"])
        .args(["--plan", &plan, "--force"])
        .run()
        .success();
    let err = text(&out.output.stderr);
    assert_contains(
        err,
        "removed 54 files of the previous chess pack (noi layout)",
    );
    assert_contains(err, "kept the 4 files of the chessboard pack (noi layout)");
    let after = read_tree(&p);
    for name in [
        "chessboard1.in",
        "chessboard1.ans",
        "chessboard2.in",
        "chessboard2.ans",
    ] {
        assert_eq!(after[name], both[name], "{name}");
    }
    assert!(after.contains_key("chess3.ans") && !after.contains_key("chess4.in"));
    let manifest = text(&after[MANIFEST]);
    assert_eq!(manifest.matches("# duipai pack ").count(), 2, "{manifest}");
    assert_contains(manifest, "\nchessboard1.in\t1\t");
    assert!(!manifest.contains("\nchess4.in\t"), "{manifest}");

    // Two packs that would write the same names are refused, --force or not.
    let plain = d.join("plain");
    Duipai::in_dir(d)
        .args(["pack", "chess", "--out", "plain", "--plan", &plan])
        .run()
        .success();
    let before = read_tree(&plain);
    let plan = small_plan(d, "chessboard", 1);
    let out = Duipai::in_dir(d)
        .args(["pack", "chessboard", "--out", "plain", "--plan", &plan])
        .arg("--force")
        .run()
        .code(2);
    let err = text(&out.output.stderr);
    assert_contains(
        err,
        "the chessboard pack (plain layout) would overwrite 1.in, 1.ans, which manifest.txt \
         lists for the chess pack (plain layout)",
    );
    assert_contains(err, "--layout noi");
    assert_eq!(read_tree(&plain), before);
}

#[test]
fn an_interrupted_pack_is_cleared_by_the_next_one() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = d.join("p");
    let plan = small_plan(d, "chess", 4);
    Duipai::in_dir(d)
        .args(["pack", "chess", "--out", "p", "--plan", &plan])
        .run()
        .success();
    // As an interrupted pack leaves it: the section marked, naming every file.
    let manifest = std::fs::read_to_string(p.join(MANIFEST)).unwrap();
    let marked = manifest.replacen("\n", &format!("\n{}\n", pack::manifest::INCOMPLETE), 1);
    std::fs::write(p.join(MANIFEST), &marked).unwrap();
    let plan = small_plan(d, "chess", 1);
    let out = Duipai::in_dir(d)
        .args(["pack", "chess", "--out", "p", "--plan", &plan, "--force"])
        .run()
        .success();
    let err = text(&out.output.stderr);
    assert_contains(err, "removed 6 files");
    let tree = read_tree(&p);
    assert_eq!(tree.len(), 3, "{:?}", tree.keys());
    assert!(!text(&tree[MANIFEST]).contains("INCOMPLETE"));
}

#[test]
fn a_manifest_duipai_did_not_write_is_never_acted_on() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = d.join("p");
    std::fs::create_dir(&p).unwrap();
    std::fs::write(d.join("outside.in"), "mine").unwrap();
    std::fs::write(p.join("1.in"), "mine too").unwrap();
    let plan = small_plan(d, "chess", 1);
    let header = "# duipai pack chess --layout plain --seed 0 (plan x, 1 tests)";
    for (manifest, says) in [
        (
            "my shopping list\n".to_string(),
            "manifest.txt:1: a file row before any",
        ),
        (
            format!("{header}\n../outside.in\t1\tx\ty\n"),
            "manifest.txt:2: \"../outside.in\" is not a path inside the pack",
        ),
    ] {
        std::fs::write(p.join(MANIFEST), &manifest).unwrap();
        let out = Duipai::in_dir(d)
            .args(["pack", "chess", "--out", "p", "--plan", &plan, "--force"])
            .run()
            .code(2);
        let err = text(&out.output.stderr);
        assert_contains(err, says);
        assert_contains(err, "not a manifest duipai wrote");
        assert_eq!(std::fs::read_to_string(p.join(MANIFEST)).unwrap(), manifest);
        assert_eq!(
            std::fs::read_to_string(d.join("outside.in")).unwrap(),
            "mine"
        );
        assert_eq!(std::fs::read_to_string(p.join("1.in")).unwrap(), "mine too");
    }
}

#[test]
fn plan_errors_name_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "# a comment\n\ngen chess --n 2 --m 2 --seed 1\ngen chess --n 12 --seed 2\n",
            ":4: --n 12: chess allows 1 <= n <= 10",
        ),
        (
            "gen chessboard --n 2 --seed 1\n",
            ":1: this line generates chessboard but the pack is for chess",
        ),
        (
            "gen chess --n 2 --bogus --seed 1\n",
            ":1: unknown flag --bogus: a plan line takes --seed, --family and the parameters of chess",
        ),
        ("gen chess --n 2\n", ":1: "),
        (
            "generate chess --seed 1\n",
            ":1: expected a `gen chess ... --seed N` line",
        ),
        ("\n# only comments\n", ": the plan has no `gen` line"),
    ];
    for (i, (plan_text, needle)) in cases.iter().enumerate() {
        let plan_path: PathBuf = dir.path().join(format!("p{i}.plan"));
        std::fs::write(&plan_path, plan_text).unwrap();
        let out_dir = dir.path().join(format!("out{i}"));
        let out = Duipai::new()
            .args(["pack", "chess", "--out"])
            .arg(&out_dir)
            .arg("--plan")
            .arg(&plan_path)
            .run()
            .code(2);
        let stderr = text(&out.output.stderr);
        let expected = format!("duipai: error: {}{needle}", plan_path.display());
        assert!(
            stderr.starts_with(&expected),
            "{stderr}\nexpected {expected}"
        );
        assert!(!out_dir.exists(), "nothing created for a bad plan");
    }
}

#[test]
fn user_plan_is_followed() {
    let dir = tempfile::tempdir().unwrap();
    let plan_path = dir.path().join("mine.plan");
    std::fs::write(
        &plan_path,
        "gen chessboard --n 3 --family checkerboard --seed 5  # first\n\n\
         gen chessboard --n 1 --max-value 9 --family uniform --seed 1\n",
    )
    .unwrap();
    let out_dir = dir.path().join("out");
    Duipai::new()
        .args(["pack", "chessboard", "--out"])
        .arg(&out_dir)
        .arg("--plan")
        .arg(&plan_path)
        .args(["--layout", "noi"])
        .run()
        .success();
    let tree = read_tree(&out_dir);
    assert_eq!(tree.len(), 5);
    // Hand-checked in tests/generate.rs: seed 1, n = 1, weights <= 9 is a B of weight 8.
    assert_eq!(text(&tree["chessboard2.in"]), "1\nB\n8\n");
    assert_eq!(text(&tree["chessboard2.ans"]), "8\n");
    let manifest = text(&tree[MANIFEST]);
    assert_contains(manifest, "(plan mine.plan, 2 tests)");
    assert_contains(
        manifest,
        "chessboard1.in\t1\tgen chessboard --n 3 --family checkerboard --seed 5\tduipai gen chessboard --n 3 --family checkerboard --seed 5\tsha256:",
    );
}

/// `validate --coverage` and the line after `pack`: the range each bound reached, and
/// `BOUND NOT REACHED` for the ends no file reached; the official chess data has no board of
/// one row, the default plan reaches every end.
#[test]
fn coverage_names_the_bounds_the_tests_do_not_reach() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = Duipai::in_dir(d)
        .args(["pack", "chess", "--out", "off", "--plan", "official"])
        .run()
        .success();
    let err = text(&out.output.stderr);
    assert_contains(
        err,
        "duipai: BOUND NOT REACHED by the tests: n min 1 (reached 2..=10) (duipai validate \
         --coverage shows every bound)",
    );
    assert_contains(err, "wrote 40 files (20 tests)");
    let mut args = vec![
        "validate".to_string(),
        "chess".to_string(),
        "--coverage".into(),
    ];
    args.extend((1..=20).map(|i| format!("off/{i}.in")));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = Duipai::in_dir(d).args(args).run().success();
    let stdout = text(&out.output.stdout);
    assert!(
        stdout.ends_with(
            "coverage of 20 valid files (chess bounds):\n  \
             bound  allowed     reached\n  \
             n      1..=10      2..=10      BOUND NOT REACHED: min 1\n  \
             m      1..=10      1..=10\n  \
             value  0..=100000  0..=100000\n"
        ),
        "{stdout}"
    );
    // An invalid file is reported and left out of the coverage.
    std::fs::write(d.join("bad.in"), "11 1\n").unwrap();
    let out = Duipai::in_dir(d)
        .args(["validate", "chess", "bad.in", "off/1.in", "--coverage"])
        .run()
        .code(1);
    let stdout = text(&out.output.stdout);
    assert_contains(stdout, "coverage of 1 valid file (chess bounds):");
    assert_contains(
        stdout,
        "n      1..=10      2..=2      BOUND NOT REACHED: min 1, max 10",
    );

    let out = Duipai::in_dir(d)
        .args(["pack", "chess", "--out", "all"])
        .run();
    let err = text(&out.output.stderr);
    assert_contains(
        err,
        "the tests reach both ends of every bound: n 1..=10, m 1..=10, value 0..=100000",
    );
}

/// Switching an ICPC package's version with --force: problem.yaml says so and loses the time
/// limit legacy has no key for, the 2025-09 settings files go, the statement goes where
/// legacy looks; an edited statement is kept and said to be; --icpc-version needs the icpc
/// layout.
#[test]
fn icpc_version_switches_with_force_and_the_setters_files_stay() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let plan = "one.plan";
    std::fs::write(
        d.join(plan),
        "gen shooting --family smallest --cases 1 --seed 3\n",
    )
    .unwrap();
    let base = [
        "pack", "shooting", "--out", "sh", "--layout", "icpc", "--plan", plan,
    ];
    let out = Duipai::in_dir(d).args(base).run().success();
    let err = text(&out.output.stderr);
    assert_contains(
        err,
        "ICPC package format 2025-09: BAPCtools and DOMjudge read it",
    );
    let p = d.join("sh");
    assert!(p.join("data/secret/test_group.yaml").exists());
    std::fs::write(
        p.join("statement/problem.en.tex"),
        "\\problemname{Shooting Game}\nMine.\n",
    )
    .unwrap();

    let out = Duipai::in_dir(d)
        .args(base)
        .args(["--icpc-version", "legacy", "--force"])
        .run()
        .success();
    let err = text(&out.output.stderr);
    let yaml = std::fs::read_to_string(p.join("problem.yaml")).unwrap();
    assert!(
        yaml.starts_with("problem_format_version: legacy\n"),
        "{yaml}"
    );
    assert!(!yaml.contains("time_limit"), "{yaml}");
    assert_contains(&yaml, "validator_flags: float_tolerance 1e-6\n");
    assert!(
        err.contains(
            "problem.yaml: problem_format_version 2025-09 -> legacy, removed limits.time_limit \
             (format version legacy has no such key), added validation, added validator_flags"
        ) || err.contains("problem_format_version 2025-09 -> legacy"),
        "{err}"
    );
    assert!(!p.join("data/secret/test_group.yaml").exists());
    assert!(!p.join("data/invalid_input").exists());
    assert!(p.join("problem_statement/problem.en.tex").exists());
    // The 2025-09 statement is the setter's now: left in place, as written.
    assert_eq!(
        std::fs::read_to_string(p.join("statement/problem.en.tex")).unwrap(),
        "\\problemname{Shooting Game}\nMine.\n"
    );

    // Back to 2025-09: the edited statement is kept, and the pack says so.
    let out = Duipai::in_dir(d)
        .args(base)
        .args(["--icpc-version", "2025-09", "--force"])
        .run()
        .success();
    let err = text(&out.output.stderr);
    assert_contains(err, "kept statement/problem.en.tex as it is");
    assert!(p.join("data/secret/test_group.yaml").exists());
    // Without --icpc-version, the version problem.yaml names is kept.
    let out = Duipai::in_dir(d).args(base).arg("--force").run();
    assert!(text(&out.output.stderr).contains("ICPC package format 2025-09"));

    let out = Duipai::in_dir(d)
        .args(["pack", "chess", "--out", "x", "--icpc-version", "legacy"])
        .run()
        .code(2);
    assert!(text(&out.output.stderr).contains("--icpc-version is for --layout icpc"));
}

/// What the chess tests beyond the official 20 are for: a memo that reads 0 as "not computed
/// yet" passes every official test and times out on the default plan's board of zeros (test
/// 23), and on nothing else. The default plan's first 20 tests are the official ones
/// (`chess_plan_is_the_official_table`), so one run on the default pack judges both.
#[test]
fn the_board_of_zeros_catches_a_memo_that_reads_zero_as_not_computed() {
    crate::util::require(&["g++"]);
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let source =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/setter/chess_zero_memo.cpp");
    std::fs::copy(source, d.join("zero.cpp")).unwrap();
    Duipai::in_dir(d)
        .args(["pack", "chess", "--out", "all"])
        .run()
        .success();
    let out = Duipai::in_dir(d)
        .args(["test", "chess", "all", "--json"])
        .program(["zero.cpp"])
        .run()
        .code(1);
    let verdicts: Vec<(String, String)> = text(&out.output.stdout)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v["name"].is_string())
        .map(|v| {
            (
                v["name"].as_str().unwrap().to_string(),
                v["verdict"].to_string(),
            )
        })
        .collect();
    let official: Vec<String> = (1..=20).map(|i| format!("{i}.in")).collect();
    let passed = |name: &String| verdicts.iter().any(|(n, v)| n == name && v == "\"AC\"");
    assert!(official.iter().all(passed), "{verdicts:?}");
    let failed: Vec<&(String, String)> = verdicts.iter().filter(|(_, v)| v != "\"AC\"").collect();
    assert_eq!(
        failed,
        [&("23.in".to_string(), "\"TLE\"".to_string())],
        "{verdicts:?}"
    );
}
