//! The setter's loop on a problem of one's own (`examples/rangesum`): hand-made tests checked
//! wherever they come from (a plan's `copy` line, a file put into the package by hand) and
//! kept by `generators.yaml`; a repack that makes again only what changed; one name per test,
//! in the plan's order, whether `judge` runs the plan or the package.

use std::collections::BTreeMap;
use std::path::Path;

use crate::util::{Duipai, assert_contains, problem_folder, with_shared_cache};

fn duipai(dir: &Path) -> Duipai {
    with_shared_cache(dir)
}

/// The `*.in` and `*.ans` files below `dir`, relative, with their contents.
fn data(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.unwrap();
        let ext = entry.path().extension().and_then(|e| e.to_str());
        if entry.file_type().is_file() && matches!(ext, Some("in" | "ans")) {
            let rel = entry
                .path()
                .strip_prefix(dir)
                .unwrap()
                .display()
                .to_string();
            files.insert(rel, std::fs::read(entry.path()).unwrap());
        }
    }
    files
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn hand_made_tests_put_into_the_package_are_checked_and_kept_by_generators_yaml() {
    let dir = problem_folder("examples/rangesum", None);
    let d = dir.path();
    let pack = [
        "pack",
        "--out",
        "p",
        "--layout",
        "icpc",
        "--plan",
        "extra/small.plan",
    ];
    duipai(d).args(pack).run().success();
    let secret = d.join("p/data/secret");
    // r < l: invalid; and a valid input whose answer (1 + 2 = 3) was written 4.
    write(&secret.join("98-bad.in"), "2 1\n1 2\n2 1\n");
    write(&secret.join("98-bad.ans"), "3\n");
    write(&secret.join("97-hand.in"), "2 1\n1 2\n1 2\n");
    write(&secret.join("97-hand.ans"), "4\n");
    let out = duipai(d).args(pack).arg("--force").run().code(2);
    let err = out.stderr();
    assert_contains(&err, "2 tests failed the checks, so nothing was written:");
    assert_contains(
        &err,
        "p/data/secret/98-bad.in (put into the pack by hand): the input is invalid: FAIL \
         Integer parameter [name=r] equals to 1",
    );
    assert_contains(
        &err,
        "move it to data/invalid_input/ if it is meant to be invalid",
    );
    assert_contains(
        &err,
        "p/data/secret/97-hand.in (put into the pack by hand): the hand-made answer \
         p/data/secret/97-hand.ans is wrong: WA expected 3, found 4 (judged against the \
         reference sol.cpp's answer)",
    );
    // Nothing was written, nothing was moved.
    assert_eq!(std::fs::read(secret.join("97-hand.ans")).unwrap(), b"4\n");
    let manifest = std::fs::read_to_string(d.join("p/manifest.txt")).unwrap();
    assert!(
        !manifest.contains("INCOMPLETE") && !manifest.contains("97-hand"),
        "{manifest}"
    );

    // Said to be meant, they are packed, each with a warning.
    let out = duipai(d)
        .args(pack)
        .args(["--force", "--keep-rejected-tests"])
        .run()
        .success();
    assert_contains(&out.stderr(), "warning: ");
    assert_contains(
        &out.stderr(),
        "is wrong: WA expected 3, found 4 (judged against the reference sol.cpp's answer); kept as it is (--keep-rejected-tests)",
    );

    // Fixed: the invalid one moved where invalid inputs go, the answer corrected, and a third
    // test without an answer, which the pack answers.
    std::fs::create_dir_all(d.join("p/data/invalid_input")).unwrap();
    std::fs::rename(
        secret.join("98-bad.in"),
        d.join("p/data/invalid_input/98-bad.in"),
    )
    .unwrap();
    std::fs::remove_file(secret.join("98-bad.ans")).unwrap();
    write(&secret.join("97-hand.ans"), "3\n");
    write(&secret.join("96-noans.in"), "3 1\n5 6 7\n2 3\n");
    let out = duipai(d).args(pack).arg("--force").run().success();
    let err = out.stderr();
    assert_contains(
        &err,
        "checked 2 tests put into p by hand (valid, and its answer the reference's): \
         data/secret/96-noans.in, data/secret/97-hand.in",
    );
    assert_contains(
        &err,
        "checked 1 invalid input put into p by hand (each rejected by the validator): \
         data/invalid_input/98-bad.in",
    );
    assert_eq!(std::fs::read(secret.join("96-noans.ans")).unwrap(), b"13\n");
    // generators.yaml copies them, so that bt generate keeps them.
    let yaml = std::fs::read_to_string(d.join("p/generators/generators.yaml")).unwrap();
    assert_contains(
        &yaml,
        "      '97-hand':\n        copy: manual/secret-97-hand\n",
    );
    assert_contains(
        &yaml,
        "      '96-noans':\n        copy: manual/secret-96-noans\n",
    );
    assert_contains(
        &yaml,
        "      '98-bad':\n        copy: invalid_input/98-bad\n",
    );
    let generators = d.join("p/generators");
    assert_eq!(
        std::fs::read(generators.join("manual/secret-97-hand.ans")).unwrap(),
        b"3\n"
    );
    assert_eq!(
        std::fs::read(generators.join("invalid_input/98-bad.in")).unwrap(),
        b"2 1\n1 2\n2 1\n"
    );
    // The setter's files stay theirs: not listed, so a pack never removes them.
    let manifest = std::fs::read_to_string(d.join("p/manifest.txt")).unwrap();
    let listed = |file: &str| {
        manifest
            .lines()
            .any(|l| l.starts_with(&format!("{file}\t")))
    };
    assert!(!listed("data/secret/97-hand.in") && !listed("data/secret/97-hand.ans"));
    assert_contains(
        &manifest,
        "data/secret/96-noans.ans\t-\thand-made test\tduipai solve",
    );

    // A test put into a folder where the plan has no group cannot be kept by the yaml.
    write(&secret.join("extra/1.in"), "1 1\n1\n1 1\n");
    let out = duipai(d).args(pack).arg("--force").run().code(2);
    assert_contains(
        &out.stderr(),
        "data/secret/extra/1.in, a hand-made test in the package, is in data/secret/extra/, \
         where the plan has no group",
    );
}

#[test]
fn a_wrong_hand_made_answer_of_a_copy_line_stops_the_pack() {
    let dir = problem_folder("examples/rangesum", None);
    let d = dir.path();
    write(&d.join("hand/maxw.in"), "2 1\n1000000000 1000000000\n1 2\n");
    write(&d.join("hand/maxw.ans"), "999\n");
    write(
        &d.join("h.plan"),
        "gen rangesum 3 3 --seed 5\ncopy hand/maxw.in\n",
    );
    let pack = ["pack", "--out", "h", "--plan", "h.plan"];
    let out = duipai(d).args(pack).run().code(2);
    assert_contains(
        &out.stderr(),
        "h.plan:2: the hand-made answer hand/maxw.ans is wrong: WA expected 2000000000, found \
         999 (judged against the reference sol.cpp's answer): fix it, or remove it and the \
         reference answers the input",
    );
    assert!(!d.join("h").exists());
    write(&d.join("hand/maxw.ans"), "2000000000\n");
    duipai(d).args(pack).run().success();
    assert_eq!(std::fs::read(d.join("h/2.ans")).unwrap(), b"2000000000\n");
}

#[test]
fn a_repack_makes_again_only_the_tests_whose_makers_changed() {
    let dir = problem_folder("examples/rangesum", None);
    let d = dir.path();
    let plan = "gen rangesum 3 3 --seed 5\n\
                gen rangesum 10 10 --seed 6\n\
                gen rangesum --generator big 2000 2000 1000 --seed 1\n";
    write(&d.join("r.plan"), plan);
    let pack = ["pack", "--out", "r", "--plan", "r.plan", "--force"];
    let made = |extra: &[&str]| duipai(d).args(pack).args(extra).run().success().stderr();
    // A new folder has nothing to reuse, whatever the facts kept from other packs.
    assert_contains(
        &made(&[]),
        "made 3 tests (none could be reused from a previous pack)",
    );
    let first = data(&d.join("r"));
    let again = made(&[]);
    assert_contains(
        &again,
        "reused all 3 tests of the previous pack: their generators, arguments, seeds, \
         validator and reference did not change",
    );
    // Nothing changed, and the pack says so rather than that it wrote every file.
    assert_contains(
        &again,
        "rewrote none of the 6 files (3 tests): all as the previous pack wrote them; wrote \
         manifest.txt to r",
    );
    assert_eq!(data(&d.join("r")), first);

    // Another seed on line 1: that test alone.
    write(&d.join("r.plan"), &plan.replace("--seed 5", "--seed 7"));
    let again = made(&[]);
    assert_contains(&again, "made 1 test again, reused 2 of the previous pack");
    assert_contains(
        &again,
        "wrote 2 files (3 tests; 4 unchanged) and manifest.txt to r",
    );
    // The Python generator edited: its two lines; the C++ generator's line stays.
    let gen_py = std::fs::read_to_string(d.join("gen.py")).unwrap();
    write(&d.join("gen.py"), &format!("{gen_py}# edited\n"));
    assert_contains(
        &made(&[]),
        "made 2 tests again, reused 1 of the previous pack",
    );
    // A test edited by hand is no source: with --overwrite-edited it is made again.
    let edited = d.join("r/3.ans");
    write(&edited, "0\n");
    let out = made(&["--overwrite-edited"]);
    assert_contains(&out, "made 1 test again, reused 2 of the previous pack");
    assert_ne!(std::fs::read(&edited).unwrap(), b"0\n");

    // What is reused is what making every test again writes, byte for byte.
    let reused = data(&d.join("r"));
    duipai(d)
        .args(["pack", "--out", "fresh", "--plan", "r.plan", "--no-reuse"])
        .run()
        .success();
    assert_eq!(data(&d.join("fresh")), reused);
}

/// The JSON summary of `duipai judge --json`.
fn judge_json(out: &crate::util::Ran) -> serde_json::Value {
    let stdout = out.stdout();
    serde_json::from_str(stdout.lines().last().unwrap_or_default())
        .unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

fn test_names(summary: &serde_json::Value) -> Vec<String> {
    summary["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn judge_names_every_test_as_the_package_does_in_the_plans_order() {
    let dir = problem_folder("examples/rangesum", None);
    let d = dir.path();
    for folder in ["wrong_answer", "time_limit_exceeded", "run_time_error"] {
        std::fs::remove_dir_all(d.join("submissions").join(folder)).unwrap();
    }
    std::fs::remove_file(d.join("submissions/accepted/sol.py")).unwrap();
    // Groups out of alphabetical order: small before large.
    let plan = "group sample\ncopy samples/1.in\n\
                group small\ngen rangesum 3 3 --seed 1\ngen rangesum 4 4 --seed 2\n\
                group large\ngen rangesum --generator big 100 100 9 --seed 3\n";
    write(&d.join("g.plan"), plan);
    let expected = [
        "sample/01",
        "secret/small/01",
        "secret/small/02",
        "secret/large/01",
    ];
    let out = duipai(d)
        .args(["judge", "--plan", "g.plan", "--json"])
        .run()
        .success();
    assert_eq!(test_names(&judge_json(&out)), expected);
    assert_contains(&out.stderr(), "the tests of the plan g.plan: ");
    // Judged again, the plan's tests are read back: nothing that makes them changed.
    let out = duipai(d)
        .args(["judge", "--plan", "g.plan", "--json"])
        .run()
        .success();
    assert_contains(
        &out.stderr(),
        "the tests of the plan g.plan: all 4 reused from the last judge",
    );

    duipai(d)
        .args(["pack", "--out", "g", "--layout", "icpc", "--plan", "g.plan"])
        .run()
        .success();
    // A hand-made test in the package comes after the plan's tests of its group.
    write(&d.join("g/data/secret/small/98-hand.in"), "1 1\n5\n1 1\n");
    write(&d.join("g/data/secret/small/98-hand.ans"), "5\n");
    let out = duipai(d).args(["judge", "g", "--json"]).run().success();
    let mut with_hand: Vec<&str> = expected.to_vec();
    with_hand.insert(3, "secret/small/98-hand");
    assert_eq!(test_names(&judge_json(&out)), with_hand);

    // Every test of the package is validated before anything is judged.
    write(&d.join("g/data/secret/small/99-bad.in"), "1 1\n5\n1 2\n");
    write(&d.join("g/data/secret/small/99-bad.ans"), "5\n");
    let out = duipai(d).args(["judge", "g"]).run().code(2);
    assert_contains(
        &out.stderr(),
        "1 of 6 tests not valid, so nothing was judged (the validator rejects them):\n\
         secret/small/99-bad: FAIL",
    );
}

#[test]
fn init_finds_the_reference_among_the_accepted_solutions_and_says_what_it_lacks() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("tree");
    for file in [
        "gen.py",
        "validator.cpp",
        "tests.plan",
        "submissions/accepted/sol.cpp",
        "submissions/accepted/std.py",
        "submissions/accepted/zzz.cpp",
    ] {
        write(&d.join(file), "");
    }
    let out = Duipai::in_dir(&d).arg("init").run().success();
    let toml = std::fs::read_to_string(d.join("duipai.toml")).unwrap();
    // std before sol, whatever the language.
    assert_contains(&toml, "\nreference = \"submissions/accepted/std.py\"");
    assert_contains(&toml, "\nplan = \"tests.plan\"");
    let err = out.stderr();
    assert_contains(
        &err,
        "wrote duipai.toml for \"tree\", with generator gen.py, validator validator.cpp, \
         reference submissions/accepted/std.py, plan tests.plan",
    );
    assert!(!err.contains("set "), "nothing is missing: {err}");

    // Only what is missing is asked for.
    let bare = tempfile::tempdir().unwrap();
    write(&bare.path().join("gen.py"), "");
    let err = Duipai::in_dir(bare.path())
        .args(["init", "x"])
        .run()
        .success()
        .stderr();
    assert_contains(&err, "no reference found");
    assert!(!err.contains("no generator"), "{err}");
}
