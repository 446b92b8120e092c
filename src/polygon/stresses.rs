//! A package's `<stresses>`: each `<stress>` of `problem.xml` names a JSON file
//! (`stresses/001`) holding one stress as Polygon runs it: a generator script, limits, a
//! total time and the solutions to compare. Read with the package's link rule.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::{Solution, Stress};
use crate::text::quote;

/// A stress file as Polygon writes it; the other keys (`id`, `description`) are not used.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct StressFile {
    script_pattern: String,
    time_limit: u64,
    memory_limit: u64,
    total_time_limit: u64,
    solution_names: Vec<String>,
    /// `stdin`, or the file the solutions read; missing is stdin.
    #[serde(default)]
    input_file: String,
    /// `stdout`, or the file the solutions write; missing is stdout.
    #[serde(default)]
    output_file: String,
}

/// The stress in `relative` (a path inside the package, already checked), listed as `index`
/// at `at` (`problem.xml:LINE:COLUMN`, and the line): its JSON read and its script and solutions resolved against the package.
pub(super) fn read(
    dir: &Path,
    relative: &Path,
    index: usize,
    (at, line): (String, usize),
    generators: &[(String, PathBuf)],
    solutions: &[Solution],
) -> anyhow::Result<Stress> {
    let path = dir.join(relative);
    let shown = path.display().to_string();
    if !path.is_file() {
        anyhow::bail!("{at}: stress {index}: the package has no file {shown}");
    }
    let bytes =
        crate::fsutil::read_in_folder_capped(&path).map_err(|e| anyhow::anyhow!("{at}: {e:#}"))?;
    let file = parse(&shown, &bytes)?;
    let error = |message: String| anyhow::anyhow!("{shown}: {message}");
    let (generator, args) = script(&file.script_pattern, generators).map_err(error)?;
    let named = solutions_named(&file.solution_names, solutions).map_err(error)?;
    Ok(Stress {
        index,
        generator,
        args,
        time_limit_ms: file.time_limit,
        memory_mib: file.memory_limit,
        total_time_ms: file.total_time_limit,
        solutions: named,
        file: relative.to_path_buf(),
        at,
        line,
        input_file: named_file(&file.input_file, "stdin"),
        output_file: named_file(&file.output_file, "stdout"),
        files_at: key_at(&shown, &bytes, "inputFile"),
    })
}

/// The stress file's JSON, an error named with its line and column.
fn parse(shown: &str, bytes: &[u8]) -> anyhow::Result<StressFile> {
    serde_json::from_slice(bytes).map_err(|e| {
        // serde's message ends with " at line L column C", which the prefix says already.
        let message = e.to_string();
        let message = message
            .split(" at line ")
            .next()
            .unwrap_or(&message)
            .to_string();
        anyhow::anyhow!("{shown}:{}:{}: {message}", e.line(), e.column())
    })
}

/// The generator a `scriptPattern` runs and its arguments, or why duipai cannot run it.
fn script(
    pattern: &str,
    generators: &[(String, PathBuf)],
) -> Result<(String, Vec<String>), String> {
    let words = shell_words::split(pattern)
        .map_err(|e| format!("scriptPattern {}: {e}", quote(pattern)))?;
    if words.iter().any(|w| w.contains('[')) {
        return Err(format!(
            "scriptPattern {}: duipai does not expand Polygon's [from..to] and [a|b] choices; \
             it runs the script with a seed added as its last argument",
            quote(pattern)
        ));
    }
    let Some((generator, args)) = words.split_first() else {
        return Err("scriptPattern is empty".to_string());
    };
    if let Some(why) = not_a_generator(generators, generator) {
        return Err(format!("scriptPattern {why}"));
    }
    Ok((generator.clone(), args.to_vec()))
}

/// The sources of the solutions `names` (file names), in order; at least one.
fn solutions_named(names: &[String], solutions: &[Solution]) -> Result<Vec<PathBuf>, String> {
    let named = names
        .iter()
        .map(|name| {
            solution_named(solutions, name).ok_or_else(|| {
                let known: Vec<String> = solutions
                    .iter()
                    .filter_map(|s| file_name(&s.path))
                    .collect();
                format!(
                    "solutionNames: the package has no solution {} (its solutions: {})",
                    quote(name),
                    known.join(", ")
                )
            })
        })
        .collect::<Result<Vec<PathBuf>, String>>()?;
    if named.is_empty() {
        return Err("solutionNames is empty".to_string());
    }
    Ok(named)
}

/// A stream's file name, `None` for the standard stream (`stdin`, or nothing written).
fn named_file(written: &str, standard: &str) -> Option<String> {
    (!written.is_empty() && written != standard).then(|| written.to_string())
}

/// `FILE:LINE:COLUMN` of the JSON key `key` in `bytes`, or `FILE` when it is not there.
fn key_at(shown: &str, bytes: &[u8], key: &str) -> String {
    let text = String::from_utf8_lossy(bytes);
    let Some(offset) = text.find(&format!("\"{key}\"")) else {
        return shown.to_string();
    };
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.len() - before.rfind('\n').map_or(0, |at| at + 1) + 1;
    format!("{shown}:{line}:{column}")
}

impl Stress {
    /// Refuses a stress whose solutions read or write files (`inputFile`, `outputFile` other
    /// than `stdin` and `stdout`), named at the stress file's `inputFile`: duipai runs the
    /// main solution, the reference, on stdin and stdout, as it runs it on the package's
    /// tests, so it cannot run such a stress as Polygon would.
    pub fn check_streams(&self) -> anyhow::Result<()> {
        if self.input_file.is_none() && self.output_file.is_none() {
            return Ok(());
        }
        anyhow::bail!(
            "{}: stress {} runs its solutions on files (inputFile {}, outputFile {}): duipai \
             runs the main solution, the reference, on stdin and stdout, so it cannot run this \
             stress; a stress of a problem read from stdin and written to stdout has \
             \"inputFile\":\"stdin\",\"outputFile\":\"stdout\"",
            self.files_at,
            self.index,
            quote(self.input_file.as_deref().unwrap_or("stdin")),
            quote(self.output_file.as_deref().unwrap_or("stdout")),
        )
    }
}

/// The solution whose file is called `name` (`engine.cpp` is `solutions/engine.cpp`).
fn solution_named(solutions: &[Solution], name: &str) -> Option<PathBuf> {
    solutions
        .iter()
        .find(|s| file_name(&s.path).as_deref() == Some(name))
        .map(|s| s.path.clone())
}

fn file_name(path: &Path) -> Option<String> {
    Some(path.file_name()?.to_string_lossy().into_owned())
}

/// Why `name` is not one of `generators`, when it is not: `runs "x", which is not an
/// executable of the package (its generators: gen)`.
pub(super) fn not_a_generator(generators: &[(String, PathBuf)], name: &str) -> Option<String> {
    if generators.iter().any(|(known, _)| known == name) {
        return None;
    }
    let known: Vec<&str> = generators.iter().map(|(n, _)| n.as_str()).collect();
    Some(format!(
        "runs {}, which is not an executable of the package ({})",
        quote(name),
        if known.is_empty() {
            "it has none".to_string()
        } else {
            format!("its generators: {}", known.join(", "))
        }
    ))
}
