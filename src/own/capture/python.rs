//! Python generators: the recorder is a `sitecustomize` module in a folder of the build
//! cache, put first on the generator's `PYTHONPATH`; the command is the one the generator
//! runs with anyway.

use std::ffi::{OsStr, OsString};
use std::path::Path;

use super::{Capturable, Mechanism, NotCaptured, Prepared, runtime_folder};
use crate::compile::Language;

/// The recorder's module.
const SITECUSTOMIZE: &str = include_str!("sitecustomize.py");

/// Whether the typed command runs a Python script: `gen.py ...`, `python3 gen.py ...`.
pub(super) fn is_script(typed: &[OsString]) -> bool {
    let Some(first) = typed.first().map(Path::new) else {
        return false;
    };
    if Language::from_path(first) == Some(Language::Python) {
        return true;
    }
    let interpreter = first
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|name| ["python", "pypy"].iter().any(|p| name.starts_with(p)));
    let script = typed[1..]
        .iter()
        .find(|w| !w.as_encoded_bytes().starts_with(b"-"))
        .is_some_and(|w| Path::new(w).extension().is_some_and(|e| e == "py"));
    interpreter && script
}

/// The command that runs the script (as duipai runs it: its interpreter resolved), and
/// `PYTHONPATH` with the recorder's folder first.
pub(super) fn prepare(capturable: &Capturable) -> Result<Prepared, NotCaptured> {
    let prepared = crate::compile::prepare(&capturable.typed, &capturable.options)
        .map_err(|e| NotCaptured(format!("cannot prepare the generator: {e}")))?;
    let folder = runtime_folder(
        &capturable.options,
        &[("sitecustomize.py", SITECUSTOMIZE.as_bytes())],
    )?;
    if let Some(interpreter) = prepared.command.first() {
        compile_once(interpreter, &folder.join("sitecustomize.py"));
    }
    let mut path = OsString::from("PYTHONPATH=");
    path.push(&folder);
    if let Some(theirs) = std::env::var_os("PYTHONPATH").filter(|p| !p.is_empty()) {
        path.push(":");
        path.push(theirs);
    }
    Ok(Prepared {
        command: prepared.command,
        env: vec![path],
        mechanism: Mechanism::Python,
        built_in: None,
    })
}

/// Writes the recorder's bytecode beside it with `interpreter`, unless some interpreter did:
/// every recorded or replayed run imports it, and where Python is told not to write bytecode
/// (`PYTHONDONTWRITEBYTECODE`, as some machines set), each would compile it anew (a few
/// milliseconds of every candidate). Nothing is lost when it cannot: the runs compile it.
fn compile_once(interpreter: &OsStr, module: &Path) {
    let Some(folder) = module.parent() else {
        return;
    };
    let compiled = std::fs::read_dir(folder.join("__pycache__"))
        .into_iter()
        .flatten()
        .flatten()
        .any(|entry| {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            name.starts_with("sitecustomize.") && name.ends_with(".pyc")
        });
    if compiled {
        return;
    }
    // py_compile writes where the import system looks (`__pycache__`, or
    // PYTHONPYCACHEPREFIX's folder), atomically.
    let child = std::process::Command::new(interpreter)
        .args([
            "-c",
            "import py_compile, sys; py_compile.compile(sys.argv[1])",
        ])
        .arg(module)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    let Ok(mut child) = child else {
        return;
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while matches!(child.try_wait(), Ok(None)) {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}
