//! A Polygon package's settings, as a `duipai.toml` in its folder would give them: its name,
//! limits, validator, checker or interactor, main solution as the reference, generators by
//! their names, and `problem.xml` itself as the plan. So every command that takes a problem
//! folder takes a Polygon package, and a flag typed still wins. They come from the package's
//! model ([`crate::polygon::Package`]) as values, never as text read again.

use std::path::Path;

use crate::polygon::{Checker, Package};

/// A setting's value: a text, or a flag that is on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    Text(String),
    On,
}

/// The settings a package gives: `(key, value)` in order, and its named generators as
/// `(name, command)`; paths relative to the current folder.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Settings {
    pub values: Vec<(String, Value)>,
    pub generators: Vec<(String, String)>,
    /// Why the package's solutions cannot be run (they read and write files), if so.
    pub file_io_refusal: Option<String>,
}

/// The settings of the package in `dir`.
pub fn settings(dir: &Path) -> anyhow::Result<Settings> {
    let package = Package::read(dir)?;
    let path = |relative: &Path| dir.join(relative).display().to_string();
    let mut settings = Settings::default();
    let mut set = |key: &str, value: String| {
        settings.values.push((key.to_string(), Value::Text(value)));
    };
    set("problem", package.name.clone());
    set("time-limit", format!("{}ms", package.time_limit_ms));
    set(
        "memory-limit",
        format!("{}MiB", (package.memory_bytes >> 20).max(1)),
    );
    if let Some(validator) = &package.validator {
        set("validator", path(validator));
    }
    let mut flags = Vec::new();
    match &package.interactor {
        Some(interactor) => set("interactor", path(interactor)),
        None => match &package.checker {
            Checker::Source(source) => set("checker", path(source)),
            Checker::Standard(standard) if package.testlib.is_none() => {
                // Without testlib.h to build duipai's copy with, the comparison it stands for.
                match standard.comparison() {
                    Some((key, "true")) => flags.push(key.to_string()),
                    Some((key, value)) => set(key, value.to_string()),
                    None => {}
                }
            }
            Checker::Standard(_) => {
                let source = package.checker_source()?;
                set("checker", source.display().to_string());
            }
        },
    }
    if let Some(main) = package.main_solution() {
        set("reference", path(&main.path));
    }
    set("plan", path(Path::new(crate::polygon::FILE_NAME)));
    // A test that asks for nothing has an empty answer, in Polygon as in a pack.
    flags.push("empty-answers".to_string());
    settings
        .values
        .extend(flags.into_iter().map(|key| (key, Value::On)));
    settings.generators = package
        .generators
        .iter()
        .map(|(name, source)| (name.clone(), path(source)))
        .collect();
    settings.file_io_refusal = package.file_io_refusal();
    Ok(settings)
}

/// The package in the current folder and its stress `index`, for `--polygon-stress` of
/// `command`; a stress duipai cannot run (on files) is refused.
pub fn stress_here(command: &str, index: u64) -> anyhow::Result<(Package, crate::polygon::Stress)> {
    let dir = Path::new("");
    if !Package::is_in(dir) {
        anyhow::bail!(
            "{command} --polygon-stress runs a stress of the Polygon package in the current \
             folder, and there is no {} here",
            crate::polygon::FILE_NAME
        );
    }
    let package = Package::read(dir)?;
    let stress = package.stress_numbered(index)?.clone();
    stress.check_streams()?;
    Ok((package, stress))
}
