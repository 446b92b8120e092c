//! Text shrinking on the layouts contest problems have, end to end: a tree given as edge
//! lines (with and without a validator), a string, a count beside another number on its line,
//! test cases headed by two counts; and what the report claims when minimization is cut
//! short. The problems are one C++ program, `tests/support/layouts/layouts.cpp`, compiled
//! once for the whole test run; each test knows the smallest failing case of its problem.

use std::path::Path;

use crate::util::{assert_contains, require, with_shared_cache};

/// A scratch folder holding `layouts.cpp`.
fn workspace() -> tempfile::TempDir {
    require(&["g++"]);
    let dir = tempfile::tempdir().unwrap();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/layouts/layouts.cpp");
    std::fs::copy(source, dir.path().join("layouts.cpp")).unwrap();
    dir
}

/// `duipai stress PROBLEM` with the layouts program's generator, reference and wrong
/// solution for `problem`, the validator `validator` when given, and `extra` flags; the
/// JSON report, the human report, and the minimized input.
fn stress(
    dir: &Path,
    problem: &str,
    validator: Option<&str>,
    extra: &[&str],
) -> (serde_json::Value, String, String) {
    let role = |r: &str| format!("layouts.cpp {r} {problem}");
    let mut command = with_shared_cache(dir)
        .args(["stress", problem, "--json", "-j", "2"])
        .args(["--generator", &role("gen"), "--reference", &role("ref")]);
    if let Some(validator) = validator {
        command = command.args(["--validator", &format!("layouts.cpp valid {validator}")]);
    }
    let ran = command
        .args(extra)
        .program(["layouts.cpp", "wrong", problem])
        .run()
        .code(1);
    let report = ran.json();
    let input = std::fs::read_to_string(dir.join(report["input"].as_str().unwrap())).unwrap();
    (report, ran.stderr(), input)
}

/// A tree: `n`, then n − 1 edges over 1..=n joining every vertex; its vertex count.
fn tree_size(input: &str) -> Option<usize> {
    let mut lines = input.lines();
    let n: usize = lines.next()?.parse().ok()?;
    let mut part: Vec<usize> = (0..=n).collect();
    fn find(part: &mut [usize], mut v: usize) -> usize {
        while part[v] != v {
            v = part[v];
        }
        v
    }
    let mut edges = 0;
    for line in lines {
        let ends: Vec<usize> = line
            .split(' ')
            .map(|w| w.parse().ok())
            .collect::<Option<_>>()?;
        let [u, v] = ends.as_slice() else {
            return None;
        };
        if !(1..=n).contains(u) || !(1..=n).contains(v) {
            return None;
        }
        let (a, b) = (find(&mut part, *u), find(&mut part, *v));
        if a == b {
            return None;
        }
        part[a] = b;
        edges += 1;
    }
    (edges + 1 == n).then_some(n)
}

/// Without a validator, nothing but the generator's envelope and the reference says which
/// candidates are valid: the tree's own candidates (a leaf removed, an edge contracted,
/// labels kept within n) keep it a tree, down to the smallest that fails. The candidates
/// left out for want of a validator (an edge line dropped alone, its count left wrong) are
/// all outside what the generator makes here, so none was missed: the report calls the
/// tree 1-minimal within what the generator produced, and says that it kept to that.
#[test]
fn a_tree_without_a_validator_shrinks_to_the_smallest_failing_tree() {
    let dir = workspace();
    let (report, human, input) = stress(dir.path(), "tree", None, &[]);
    assert_eq!(
        tree_size(&input),
        Some(6),
        "not the smallest failing tree:\n{input}"
    );
    assert_eq!(report["one_minimal"], true);
    assert_eq!(report["shrink_cut_short"], serde_json::json!([]));
    assert_eq!(report["shrink_not_tried"], serde_json::json!([]));
    assert_contains(&human, "note: kept within what the generator produced in ");
    assert_contains(
        &human,
        "(no smaller candidate fails: 1-minimal for the passes tried)",
    );
}

#[test]
fn a_tree_with_a_validator_ends_one_minimal() {
    let dir = workspace();
    let (report, human, input) = stress(dir.path(), "tree", Some("tree"), &[]);
    assert_eq!(tree_size(&input), Some(6), "{input}");
    assert_eq!(report["one_minimal"], true);
    assert_eq!(report["shrink_not_tried"], serde_json::json!([]));
    assert_contains(
        &human,
        "(no smaller candidate fails: 1-minimal for the passes tried)",
    );
}

/// A string is one token: it is shortened by chunks of characters, then its letters are
/// lowered toward `a`.
#[test]
fn a_string_ends_as_the_shortest_failing_string() {
    let dir = workspace();
    let (report, _, input) = stress(dir.path(), "string", Some("string"), &[]);
    assert_eq!(input, "aa\n");
    assert_eq!(report["one_minimal"], true);
}

/// `n s`: the count is the first number of its line, the target after it.
#[test]
fn a_count_with_a_number_after_it_shrinks_with_its_items() {
    let dir = workspace();
    let (report, _, input) = stress(dir.path(), "pairsum", Some("pairsum"), &[]);
    assert_eq!(input, "1 2\n1\n");
    assert_eq!(report["one_minimal"], true);
}

/// T test cases, each `n k` then n numbers: whole cases go with T lowered, numbers with n,
/// and k stays within n.
#[test]
fn test_cases_headed_by_two_counts_end_with_one_smallest_case() {
    let dir = workspace();
    let (report, _, input) = stress(dir.path(), "windows", Some("windows"), &[]);
    assert_eq!(input, "1\n2 1\n1 2\n");
    assert_eq!(report["one_minimal"], true);
}

/// `n m` then m weighted edges, n and m often equal: a vertex removed takes its edges from m,
/// so the case ends at a triangle, with the validator or without one (the reference exits 2
/// when m counts an edge that is not there).
#[test]
fn a_graph_with_as_many_edges_as_vertices_ends_at_a_triangle() {
    for validator in [Some("cycle"), None] {
        let dir = workspace();
        let (report, human, input) = stress(dir.path(), "cycle", validator, &[]);
        let lines: Vec<&str> = input.lines().collect();
        assert_eq!(lines.len(), 4, "{validator:?}: {input}");
        assert_eq!(lines[0], "3 3", "{validator:?}: {input}");
        assert_eq!(report["one_minimal"], validator.is_some(), "{human}");
        // The generator draws from an engine of its own: one the recorder cannot record,
        // not one that failed.
        assert_contains(&human, "it has a random number generator of its own");
        assert!(!human.contains("generator failed"), "{human}");
    }
}

/// A minimization cut short (here by a budget no probe fits in) names the passes that had not
/// gone over all their candidates on the case it kept, and does not call it 1-minimal. (A
/// validator is asked only about failing candidates, so one that crashes on trees smaller than
/// the smallest failing one is never asked: the budget is what stops it here.)
#[test]
fn a_minimization_cut_short_names_what_it_did_not_finish() {
    let dir = workspace();
    let (report, human, input) = stress(
        dir.path(),
        "tree",
        Some("tree"),
        &["--shrink-time", "0.001"],
    );
    assert!(tree_size(&input).is_some_and(|n| n >= 6), "{input}");
    assert_eq!(report["one_minimal"], false);
    let cut: Vec<&str> = report["shrink_cut_short"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    assert!(cut.contains(&"vertices of graphs"), "{cut:?}");
    assert_contains(
        &human,
        &format!(
            "the time budget of 0.001 s ran out first: a smaller case may still fail \
             (--shrink-time); cut short: {})",
            cut.join(", ")
        ),
    );
    assert!(!human.contains("no smaller candidate"), "{human}");
}
