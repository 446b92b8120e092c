//! CMS's pack: the italian_yaml task, `task.yaml` and `gen/GEN`, as its loader reads them.

use super::{File, Judge, quoted, scored, share};

/// CMS's italian_yaml task, as `cmscontrib/loaders/italy_yaml.py` of cms-dev/cms reads it:
/// `task.yaml` (the limits, the number of inputs) and `gen/GEN`, a `#COPY: input/inputN.txt`
/// line a test. The loader scores a `gen/GEN` without `#ST:` lines test by test (`Sum`,
/// 100 points shared evenly), and one with them by subtasks (`GroupMin`, each `#ST: score`
/// line opening one, their scores adding up to 100). So a problem of one group scored test
/// by test has no `#ST:` line; otherwise a group scored whole is a subtask, and a group
/// scored test by test a subtask a test, each with its share.
pub(super) fn cms(judge: &Judge) -> anyhow::Result<Vec<File>> {
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
    let sum = matches!(scored.as_slice(), [(group, _)] if group.each_test);
    let mut list = String::new();
    for (group, tests) in &scored {
        if !group.each_test {
            list.push_str(&format!("#ST: {}\n", group.score));
        }
        for (k, test) in tests.iter().enumerate() {
            if group.each_test && !sum {
                list.push_str(&format!("#ST: {}\n", share(group.score, tests.len(), k)));
            }
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
