//! Luogu's pack: `config.yml` with each test's limits, score and subtask, and the zip to
//! upload within Luogu's limits.

use super::{File, Judge, files_below, scored, share, zip_of};

/// Luogu's `config.yml` (unverified: no public source of Luogu's loader was found): per test its time limit (ms), memory limit (KiB), score and subtask;
/// a group's score is split evenly among its tests.
pub(super) fn luogu_config(judge: &Judge) -> Vec<File> {
    let mut yaml = String::new();
    for (index, (group, tests)) in scored(judge).iter().enumerate() {
        for (k, test) in tests.iter().enumerate() {
            let share = share(group.score, tests.len(), k);
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
