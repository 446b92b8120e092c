//! DOMjudge's pack: `domjudge-problem.ini` beside the ICPC package, and the zip of both for
//! its problem import.

use super::{files_below, zip_of};

/// DOMjudge's import: `domjudge-problem.ini` (the short name, the name and the time limit in
/// seconds: keys `ImportProblemService::importZippedProblem` of DOMjudge/domjudge reads, where
/// a `probid` would be ignored) beside the ICPC package in `out`, and `NAME.zip` of the package with it.
/// Returns the zip's path.
pub fn domjudge_zip(
    out: &std::path::Path,
    name: &str,
    time_ms: u64,
) -> anyhow::Result<std::path::PathBuf> {
    let ini = format!(
        "short-name = {name}\nname = {name}\ntimelimit = {}\n",
        time_ms as f64 / 1000.0
    );
    crate::fsutil::write_atomic(&out.join("domjudge-problem.ini"), ini.as_bytes())?;
    let zip_name = format!("{name}.zip");
    let zip = zip_of(&files_below(out, &zip_name)?)?;
    let path = out.join(zip_name);
    crate::fsutil::write_atomic(&path, &zip)?;
    Ok(path)
}
