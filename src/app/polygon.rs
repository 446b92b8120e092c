//! A Polygon package's settings, as a `duipai.toml` in its folder would give them: its name,
//! limits, validator, checker or interactor, main solution as the reference, generators by
//! their names, and `problem.xml` itself as the plan. So every command that takes a problem
//! folder takes a Polygon package, and a flag typed still wins.

use std::path::Path;

use crate::polygon::{Checker, Package};

/// The settings of the package in `dir` as the text of a `duipai.toml` whose paths are
/// relative to the current folder.
pub fn settings_text(dir: &Path) -> anyhow::Result<String> {
    let package = Package::read(dir)?;
    let path = |relative: &Path| dir.join(relative).display().to_string();
    let mut lines = vec![
        setting("problem", &package.name),
        setting("time-limit", &format!("{}ms", package.time_limit_ms)),
        setting(
            "memory-limit",
            &format!("{}MiB", (package.memory_bytes >> 20).max(1)),
        ),
    ];
    if let Some(validator) = &package.validator {
        lines.push(setting("validator", &path(validator)));
    }
    match &package.interactor {
        Some(interactor) => lines.push(setting("interactor", &path(interactor))),
        None => match &package.checker {
            Checker::Source(source) => lines.push(setting("checker", &path(source))),
            Checker::Standard(standard) if package.testlib.is_none() => {
                // Without testlib.h to build duipai's copy with, the comparison it stands for.
                lines.extend(standard.comparison().map(|(key, value)| match value {
                    "true" => format!("\"{key}\" = true"),
                    value => setting(key, value),
                }));
            }
            Checker::Standard(_) => {
                let source = package.checker_source()?;
                lines.push(setting("checker", &source.display().to_string()));
            }
        },
    }
    if let Some(main) = package.main_solution() {
        lines.push(setting("reference", &path(&main.path)));
    }
    lines.push(setting("plan", &path(Path::new(crate::polygon::FILE_NAME))));
    if !package.generators.is_empty() {
        lines.push(format!("[{}]", crate::app::config::GENERATORS));
        for (name, source) in &package.generators {
            lines.push(setting(name, &path(source)));
        }
    }
    Ok(lines.join("\n") + "\n")
}

/// `key = "value"`, the value a TOML basic string.
fn setting(key: &str, value: &str) -> String {
    let mut quoted = String::from('"');
    for c in value.chars() {
        match c {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            c if c.is_control() => quoted.push_str(&format!("\\u{:04X}", c as u32)),
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    format!("\"{key}\" = {quoted}")
}
