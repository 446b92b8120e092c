//! Pack tests: layouts, byte-identical output, the manifest replays every file, plan errors,
//! the safety rules (non-empty directory, no temporary files left), and that every packed
//! input is valid and every answer is the reference solver's.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

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
    }
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

/// A pack written once per (problem, layout, seed) and shared by the tests that only read it:
/// chessboard packs take seconds in a debug build.
struct Packed {
    tree: BTreeMap<String, Vec<u8>>,
    files: Vec<pack::PackedFile>,
}

fn packed(problem: &'static dyn Problem, layout: Layout, seed: u64) -> &'static Packed {
    type Cache = Vec<((&'static str, Layout, u64), &'static Packed)>;
    static CACHE: Mutex<Cache> = Mutex::new(Vec::new());
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, p)) = cache
        .iter()
        .find(|(k, _)| *k == (problem.name(), layout, seed))
    {
        return p;
    }
    let dir = tempfile::tempdir().unwrap();
    let files =
        pack::write_pack(&options(problem, dir.path(), layout, seed), &mut |_, _| {}).unwrap();
    let p: &'static Packed = Box::leak(Box::new(Packed {
        tree: read_tree(dir.path()),
        files,
    }));
    cache.push(((problem.name(), layout, seed), p));
    p
}

fn duipai(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_duipai"))
        .args(args)
        .output()
        .expect("running duipai")
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
        let count = builtin_plan(problem).lines.len();
        for layout in LAYOUTS {
            let tree = &packed(problem, layout, 0).tree;
            let mut expected: Vec<String> = (1..=count)
                .flat_map(|i| {
                    let stem = match layout {
                        Layout::Plain => i.to_string(),
                        Layout::Noi => format!("{problem}{i}"),
                        Layout::Icpc => format!("data/secret/{i:02}"),
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
                if pack::testdata_yaml(problem).is_some() {
                    expected.push("data/testdata.yaml".to_string());
                }
            }
            expected.sort();
            let got: Vec<String> = tree.keys().cloned().collect();
            assert_eq!(got, expected, "{problem} {layout:?}");
        }
    }
}

#[test]
fn icpc_layout_has_samples_and_limits() {
    for (problem, sample_in, sample_ans, memory) in [
        (
            &CHESS as &'static dyn Problem,
            "2 3\n2 7 3\n9 1 2\n3 7 2\n2 3 1\n",
            "2\n",
            512,
        ),
        (
            &CHESSBOARD,
            "4\nWBB.\nBWBW\nWBWW\nBBBW\n1 1 1 0\n1 1 1 1\n1 1 1 1\n1 1 1 1\n",
            "3\n",
            1024,
        ),
    ] {
        let tree = &packed(problem, Layout::Icpc, 0).tree;
        assert_eq!(text(&tree["data/sample/01-sample.in"]), sample_in);
        assert_eq!(text(&tree["data/sample/01-sample.ans"]), sample_ans);
        assert_eq!(
            text(&tree["problem.yaml"]),
            format!(
                "problem_format_version: 2023-07-draft\nname: {problem}\nlimits:\n  \
                 time_limit: 1\n  memory: {memory}\n"
            )
        );
        assert!(!tree.contains_key("data/testdata.yaml"));
    }
}

/// Real answers: the package says the default output validator judges them, within the
/// problem's tolerance (format 2023-07-draft keeps the flags in `data/testdata.yaml`), so a
/// judge that reads the package accepts what `duipai test` accepts.
#[test]
fn icpc_layout_declares_the_float_tolerance_of_real_answers() {
    let tree = &packed(&SHOOTING, Layout::Icpc, 0).tree;
    assert_eq!(text(&tree["data/sample/01-sample.in"]), "3\n2 1 1\n0\n");
    assert_eq!(text(&tree["data/sample/01-sample.ans"]), "0.555556\n");
    assert_eq!(
        text(&tree["problem.yaml"]),
        "problem_format_version: 2023-07-draft\nname: shooting\nlimits:\n  time_limit: 1\n  \
         memory: 128\nvalidation: default\n"
    );
    assert_eq!(
        text(&tree["data/testdata.yaml"]),
        "output_validator_flags: float_tolerance 1e-6\n"
    );
}

#[test]
fn packing_twice_gives_identical_bytes() {
    for &problem in duipai::problem::ALL {
        for (layout, seed) in [(Layout::Plain, 0), (Layout::Icpc, 99)] {
            let a = tempfile::tempdir().unwrap();
            let b = tempfile::tempdir().unwrap();
            pack::write_pack(&options(problem, a.path(), layout, seed), &mut |_, _| {}).unwrap();
            pack::write_pack(&options(problem, b.path(), layout, seed), &mut |_, _| {}).unwrap();
            assert_eq!(
                read_tree(a.path()),
                read_tree(b.path()),
                "{problem} {layout:?}"
            );
        }
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
    let cases = plan_instances(&CHESS, 0);
    assert_eq!(cases.len(), 20);
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

#[test]
fn seed_zero_keeps_the_written_seeds_and_others_change_every_test() {
    let a = &packed(&CHESS, Layout::Plain, 0).tree;
    let first = duipai(&[
        "gen", "chess", "--n", "2", "--m", "2", "--b-zero", "--family", "uniform", "--seed", "101",
    ]);
    assert_eq!(a["1.in"], first.stdout);
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
    Spec::new(g.problem, &g.gen_args.to_params())
        .unwrap()
        .generate(g.seed)
        .to_input()
}

#[test]
fn manifest_replays_every_file() {
    for &problem in duipai::problem::ALL {
        for (layout, seed) in [(Layout::Noi, 0), (Layout::Icpc, 99)] {
            let Packed { tree, files } = packed(problem, layout, seed);
            let manifest = text(&tree[MANIFEST]).to_string();
            let plan_text = problem.builtin_plan();
            let rows: Vec<&str> = manifest.lines().filter(|l| !l.starts_with('#')).collect();
            assert_eq!(rows.len(), files.len());
            // Besides the listed files: the manifest, and the ICPC package's problem.yaml
            // and, for answers that need validator flags, data/testdata.yaml.
            let metadata = match layout {
                Layout::Icpc => 1 + usize::from(pack::testdata_yaml(problem).is_some()),
                _ => 0,
            };
            assert_eq!(rows.len() + 1 + metadata, tree.len());
            for row in rows {
                let cols: Vec<&str> = row.split('\t').collect();
                assert_eq!(cols.len(), 4, "{row}");
                let (file, line, written, command) = (cols[0], cols[1], cols[2], cols[3]);
                assert!(tree.contains_key(file), "{file}");
                if line == "-" {
                    assert!(file.starts_with("data/sample/"));
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
        for (layout, seed) in [(Layout::Plain, 0), (Layout::Noi, 0), (Layout::Icpc, 99)] {
            let tree = &packed(problem, layout, seed).tree;
            let mut checked = 0;
            for (name, bytes) in tree {
                let Some(stem) = name.strip_suffix(".in") else {
                    continue;
                };
                let instance = problem
                    .parse(bytes, &problem.default_bounds())
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!(
                    instance.to_input().as_bytes(),
                    &bytes[..],
                    "{name} is canonical"
                );
                let answer = text(&tree[&format!("{stem}.ans")]);
                assert_eq!(answer, instance.answer_text(), "{name}");
                checked += 1;
            }
            assert!(checked >= 20, "{problem} {layout:?}: {checked}");
        }
    }
}

#[test]
fn refuses_a_non_empty_directory_without_force() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), "keep me").unwrap();
    let out_dir = dir.path().to_str().unwrap();
    let out = duipai(&["pack", "chess", "--out", out_dir]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("is not empty; pass --force"), "{stderr}");
    assert_eq!(read_tree(dir.path()).len(), 1, "nothing written");

    let out = duipai(&["pack", "chess", "--out", out_dir, "--force"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let tree = read_tree(dir.path());
    assert_eq!(text(&tree["notes.txt"]), "keep me");
    assert!(tree.contains_key("20.ans") && tree.contains_key(MANIFEST));
}

#[test]
fn binary_pack_matches_the_library_and_leaves_no_temporary_files() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("pack");
    let out = duipai(&[
        "pack",
        "chessboard",
        "--out",
        out_dir.to_str().unwrap(),
        "--layout",
        "icpc",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // stderr is not a terminal here: one summary line, no progress bar.
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("tests"), "{stderr}");

    let tree = read_tree(&out_dir);
    assert_eq!(&tree, &packed(&CHESSBOARD, Layout::Icpc, 0).tree);
    assert!(
        tree.keys().all(|k| !k.contains(".duipai-")),
        "{:?}",
        tree.keys()
    );
    // And the validator itself accepts every input.
    let inputs: Vec<String> = tree
        .keys()
        .filter(|k| k.ends_with(".in"))
        .map(|k| out_dir.join(k).to_string_lossy().into_owned())
        .collect();
    let mut args = vec!["validate", "chessboard"];
    args.extend(inputs.iter().map(String::as_str));
    let out = duipai(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn force_removes_a_stale_manifest_before_writing() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(MANIFEST), "stale").unwrap();
    // A plan whose second line is bad fails before anything is written...
    let plan_path = dir.path().join("bad.plan");
    std::fs::write(
        &plan_path,
        "gen chess --n 2 --seed 1\ngen chess --n 2 --seed x\n",
    )
    .unwrap();
    let out = duipai(&[
        "pack",
        "chess",
        "--out",
        dir.path().to_str().unwrap(),
        "--force",
        "--plan",
        plan_path.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&std::fs::read(dir.path().join(MANIFEST)).unwrap()),
        "stale"
    );
    // ...and a good run replaces the manifest.
    let mut opts = options(&CHESS, dir.path(), Layout::Plain, 0);
    opts.force = true;
    pack::write_pack(&opts, &mut |_, _| {}).unwrap();
    let manifest = std::fs::read_to_string(dir.path().join(MANIFEST)).unwrap();
    assert!(manifest.starts_with("# duipai pack chess --layout plain --seed 0"));
}

/// A chess pack written over a shooting package removes the tolerance it no longer has,
/// and a shooting pack written over it again brings the file back.
#[test]
fn force_removes_a_stale_testdata_yaml() {
    let dir = tempfile::tempdir().unwrap();
    let small = |problem: &'static dyn Problem, text: &str| {
        let mut opts = options(problem, dir.path(), Layout::Icpc, 0);
        opts.plan = parse_plan("small.plan", text, problem).unwrap();
        opts.force = true;
        pack::write_pack_report(&opts, &mut |_, _| {}).unwrap()
    };
    let testdata = dir.path().join("data/testdata.yaml");
    small(&SHOOTING, "gen shooting --family smallest --seed 1\n");
    assert!(testdata.exists());
    let report = small(&CHESS, "gen chess --n 2 --m 2 --seed 1\n");
    assert!(!testdata.exists());
    assert!(
        report.removed.contains(&"data/testdata.yaml".to_string()),
        "{report:?}"
    );
    small(&SHOOTING, "gen shooting --family smallest --seed 1\n");
    assert!(testdata.exists());
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
        let out = duipai(&[
            "pack",
            "chess",
            "--out",
            out_dir.to_str().unwrap(),
            "--plan",
            plan_path.to_str().unwrap(),
        ]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
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
    let out = duipai(&[
        "pack",
        "chessboard",
        "--out",
        out_dir.to_str().unwrap(),
        "--plan",
        plan_path.to_str().unwrap(),
        "--layout",
        "noi",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let tree = read_tree(&out_dir);
    assert_eq!(tree.len(), 5);
    // Hand-checked in tests/generate.rs: seed 1, n = 1, weights <= 9 is a B of weight 8.
    assert_eq!(text(&tree["chessboard2.in"]), "1\nB\n8\n");
    assert_eq!(text(&tree["chessboard2.ans"]), "8\n");
    let manifest = text(&tree[MANIFEST]);
    assert!(manifest.contains("(plan mine.plan, 2 tests)"), "{manifest}");
    assert!(manifest.contains(
        "chessboard1.in\t1\tgen chessboard --n 3 --family checkerboard --seed 5\tduipai gen chessboard --n 3 --family checkerboard --seed 5\n"
    ), "{manifest}");
}
