//! Hydro's pack: `config.yaml` with the limits, the checker or interactor and the subtasks,
//! and the caps past which Hydro's judge cancels a pack from a domain it does not trust.

use super::{Decided, File, Judge, quoted, scored, testlib_checker};

/// Hydro's judge refuses a pack from a domain it does not trust past its `testcases_max`
/// tests, `total_time_limit` seconds of the tests' time limits together, or `memoryMax`
/// (`isValidConfig` in `packages/hydrojudge/src/cases.ts` of hydro-dev/Hydro; the defaults in
/// its `src/config.ts`).
pub const HYDRO_TESTS_MAX: usize = 100;
pub const HYDRO_TOTAL_TIME_MS: u64 = 60_000;
pub const HYDRO_MEMORY_MAX_MIB: u64 = 512;

/// What Hydro's judge will refuse of the pack: its default caps passed, where it cancels a
/// pack from a domain it does not trust.
pub fn cautions(judge: &Judge) -> Vec<String> {
    let tests = judge.tests.iter().filter(|t| t.group.is_some()).count();
    let total_ms = judge.time_ms * tests as u64;
    let mut cautions = Vec::new();
    if total_ms > HYDRO_TOTAL_TIME_MS {
        cautions.push(format!(
            "Hydro cancels the judging of this pack on a domain it does not trust: its {tests} \
             tests of {} s each add up to {} s of time limits, past its default cap of {} s \
             (`total_time_limit` in the judge's settings); lower the time limit, pack fewer \
             tests, or raise the cap",
            judge.time_ms as f64 / 1000.0,
            total_ms as f64 / 1000.0,
            HYDRO_TOTAL_TIME_MS / 1000
        ));
    }
    if tests > HYDRO_TESTS_MAX {
        cautions.push(format!(
            "Hydro cancels the judging of this pack on a domain it does not trust: it has \
             {tests} tests, past its default cap of {HYDRO_TESTS_MAX} (`testcases_max`)"
        ));
    }
    if judge.memory_mib > HYDRO_MEMORY_MAX_MIB {
        cautions.push(format!(
            "Hydro cancels the judging of this pack on a domain it does not trust: its memory \
             limit of {} MiB is past its default cap of {HYDRO_MEMORY_MAX_MIB} MiB (`memoryMax`)",
            judge.memory_mib
        ));
    }
    cautions
}

/// Hydro's `config.yaml`: the limits, `checker_type: testlib` with its checker (or the
/// interactor), and the subtasks (`min` for a complete group, `sum` for each test) with their
/// scores, cases and dependencies (`if`, by subtask id). The samples are not judged.
pub(super) fn hydro(judge: &Judge) -> Vec<File> {
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
