//! A generator's random choices, recorded and replayed without a change to its source: the
//! sequence of values its random number generator gave it, which duipai can then edit and
//! serve back, so that every edited sequence makes a case the generator itself prints.
//!
//! - Python (`gen.py`, `python3 gen.py`): a `sitecustomize` module put first on the
//!   generator's `PYTHONPATH` wraps `random.Random`'s draws (`sitecustomize.py` beside this
//!   file);
//! - C and C++ sources: built again with a header force-included (`duipai_choices.h`) that
//!   wraps `rand()`, the `<random>` engines and `uniform_int_distribution`, and, for a testlib
//!   generator, a copy of its own `testlib.h` whose `rnd` draws through the header;
//! - anything else (a prebuilt program, another language) is not captured, and says why.
//!
//! Recording changes nothing of what the generator prints: the recorders pass every draw
//! through. A run records when `DUIPAI_CHOICES=record` is in its environment, replays with
//! `DUIPAI_CHOICES=replay`; duipai starts it through `env` to set them.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use anyhow::Context;

use crate::compile::CompileOptions;
use crate::judge::Runner;
use crate::run::{Execution, Limits, Termination};

pub mod choice;
mod native;
pub mod perturb;
mod python;
pub mod structure;

pub use choice::Choice;

/// What a recorder says when a replay drew more choices than it was allowed.
const OVERRUN: &[u8] = b"duipai-choices: overrun";
/// The exit status it ends that run with.
const OVERRUN_STATUS: i32 = 86;

/// A generator as the user gave it (`gen.py 10`, `gen.cpp`), and how its sources are built:
/// what [`prepare`] needs to record its choices. Clones share what [`Capturable::ready`]
/// prepared.
#[derive(Clone, Debug)]
pub struct Capturable {
    /// The command as typed, with the generator's arguments (the seed is appended to it).
    pub typed: Vec<OsString>,
    pub options: CompileOptions,
    ready: Arc<OnceLock<Result<Capture, NotCaptured>>>,
}

impl Capturable {
    pub fn new(typed: Vec<OsString>, options: CompileOptions) -> Capturable {
        Capturable {
            typed,
            options,
            ready: Arc::default(),
        }
    }

    /// The generator ready to record ([`prepare`]), prepared the first time it is asked for.
    pub fn ready(&self) -> Result<&Capture, NotCaptured> {
        self.ready
            .get_or_init(|| prepare(self))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// [`Capturable::ready`], waiting at most `wait` for it: `None` when the build (begun by
    /// another thread, or now on one of its own) is not done by then. It goes on, detached,
    /// for whoever asks next.
    pub fn ready_within(&self, wait: Duration) -> Option<Result<&Capture, NotCaptured>> {
        if self.ready.get().is_none() {
            let builder = self.clone();
            let spawned = std::thread::Builder::new()
                .name("duipai-recorder".to_string())
                .spawn(move || {
                    let _ = builder.ready();
                });
            drop(spawned);
            let deadline = std::time::Instant::now() + wait;
            while self.ready.get().is_none() && std::time::Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        let ready = self.ready.get()?;
        Some(ready.as_ref().map_err(Clone::clone))
    }
}

/// How a generator's choices are captured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mechanism {
    Python,
    Cpp,
    /// A C++ generator that includes testlib.h.
    Testlib,
    C,
}

impl std::fmt::Display for Mechanism {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Mechanism::Python => "Python's random",
            Mechanism::Cpp => "C++'s <random> and rand()",
            Mechanism::Testlib => "testlib's rnd",
            Mechanism::C => "C's rand()",
        })
    }
}

/// A generator ready to record and replay its choices.
#[derive(Clone, Debug)]
pub struct Capture {
    /// The program and its arguments, as `env` is to start it.
    command: Vec<OsString>,
    /// `NAME=VALUE` words `env` sets besides the choices' own (`PYTHONPATH`).
    env: Vec<OsString>,
    env_program: PathBuf,
    pub mechanism: Mechanism,
    /// How long building the generator with the recorder took, when it was built now.
    pub built_in: Option<Duration>,
}

/// What a language's preparation gives [`prepare`].
struct Prepared {
    command: Vec<OsString>,
    env: Vec<OsString>,
    mechanism: Mechanism,
    built_in: Option<Duration>,
}

/// Why a generator's choices are not captured, for the report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotCaptured(pub String);

impl std::fmt::Display for NotCaptured {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The generator's choices and output, as a recording run made them.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub output: Vec<u8>,
    pub choices: Vec<Choice>,
}

/// What a replay made.
#[derive(Clone, Debug)]
pub enum Replayed {
    /// The generator's output, and the choices it was served (what it drew of those given,
    /// values beyond a draw's maximum and draws past the end as its simplest value).
    Made(Recorded),
    /// It drew more choices than allowed: stopped, no case.
    Overrun,
    /// It failed on them (an error, a crash, a limit): no case.
    Failed(String),
}

/// Makes the generator ready to record: the interpreter's module or the build with the
/// recorder. `Err` says why it cannot be.
pub fn prepare(capturable: &Capturable) -> Result<Capture, NotCaptured> {
    if cfg!(windows) {
        return Err(NotCaptured(
            "a generator's choices are not recorded on Windows (no `env` to start it with, \
             no glibc for the recorders)"
                .to_string(),
        ));
    }
    let env_program = crate::run::find_program("env".as_ref()).ok_or_else(|| {
        NotCaptured("no `env` program in PATH to start the generator with".to_string())
    })?;
    let prepared = if python::is_script(&capturable.typed) {
        python::prepare(capturable)?
    } else {
        native::prepare(capturable)?
    };
    Ok(Capture {
        command: prepared.command,
        env: prepared.env,
        env_program,
        mechanism: prepared.mechanism,
        built_in: prepared.built_in,
    })
}

impl Capture {
    /// Runs the generator with `seed` as its last argument, recording its choices.
    pub fn record(
        &self,
        runner: &dyn Runner,
        seed: u64,
        limits: &Limits,
    ) -> anyhow::Result<Result<Recorded, String>> {
        let files = Files::new()?;
        let vars = vec![
            OsString::from("DUIPAI_CHOICES=record"),
            files.var("DUIPAI_CHOICES_OUT=", &files.out),
        ];
        let execution = self.run(runner, seed, vars, limits)?;
        Ok(match finished(&execution) {
            Err(why) => Err(why),
            // A clean run that wrote no choices drew none the recorder serves (the file is
            // opened at the first draw): a generator with a random engine of its own, which
            // is one the recorder cannot record, not one that failed.
            Ok(()) if !files.out.exists() => files.output(&execution).map(|output| Recorded {
                output,
                choices: Vec::new(),
            }),
            Ok(()) => files.read(&execution),
        })
    }

    /// Runs the generator with `seed` on the choices `values`, at most `limit` of them
    /// drawn (0: no limit).
    pub fn replay(
        &self,
        runner: &dyn Runner,
        seed: u64,
        values: &[u64],
        limit: usize,
        limits: &Limits,
    ) -> anyhow::Result<Replayed> {
        let files = Files::new()?;
        std::fs::write(&files.given, choice::values_text(values))
            .with_context(|| format!("cannot write {}", files.given.display()))?;
        let vars = vec![
            OsString::from("DUIPAI_CHOICES=replay"),
            files.var("DUIPAI_CHOICES_IN=", &files.given),
            files.var("DUIPAI_CHOICES_OUT=", &files.out),
            OsString::from(format!("DUIPAI_CHOICES_LIMIT={limit}")),
        ];
        let execution = self.run(runner, seed, vars, limits)?;
        let overran = execution.termination == Termination::Exited(OVERRUN_STATUS)
            && memchr::memmem::find(&execution.stderr, OVERRUN).is_some();
        if overran {
            return Ok(Replayed::Overrun);
        }
        Ok(
            match finished(&execution).and_then(|()| files.read(&execution)) {
                Ok(recorded) => Replayed::Made(recorded),
                Err(why) => Replayed::Failed(why),
            },
        )
    }

    fn run(
        &self,
        runner: &dyn Runner,
        seed: u64,
        vars: Vec<OsString>,
        limits: &Limits,
    ) -> anyhow::Result<Execution> {
        let mut command = vec![self.env_program.clone().into_os_string()];
        command.extend(self.env.iter().cloned());
        command.extend(vars);
        command.extend(self.command.iter().cloned());
        command.push(seed.to_string().into());
        runner.run_helper(&command, b"", limits).with_context(|| {
            format!(
                "cannot run the generator to record its choices ({})",
                crate::text::program_name(&self.command)
            )
        })
    }
}

/// `Err` with why, unless the run ended with exit status 0.
fn finished(execution: &Execution) -> Result<(), String> {
    match crate::judge::helper::fault(execution) {
        None => Ok(()),
        Some((_, why)) => Err(why),
    }
}

/// A run's two files: the choices given, the choices written.
struct Files {
    _dir: tempfile::TempDir,
    given: PathBuf,
    out: PathBuf,
}

impl Files {
    fn new() -> anyhow::Result<Files> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let dir = crate::run::temp_folder("choices")
            .context("cannot make a folder for the generator's choices")?;
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let given = dir.path().join(format!("given-{n}"));
        let out = dir.path().join(format!("served-{n}"));
        Ok(Files {
            _dir: dir,
            given,
            out,
        })
    }

    fn var(&self, name: &str, path: &Path) -> OsString {
        let mut var = OsString::from(name);
        var.push(path);
        var
    }

    /// What the generator printed.
    fn output(&self, execution: &Execution) -> Result<Vec<u8>, String> {
        execution
            .stdout
            .to_vec()
            .map_err(|e| format!("cannot read what it printed: {e}"))
    }

    /// The output and the choices written, once the generator ended cleanly.
    fn read(&self, execution: &Execution) -> Result<Recorded, String> {
        let output = self.output(execution)?;
        let written = std::fs::read(&self.out).map_err(|_| {
            "it wrote no choices (it may have ended without running its exit handlers)".to_string()
        })?;
        let choices = choice::parse(&written)?;
        Ok(Recorded { output, choices })
    }
}

/// Writes `files` (name, contents) into a folder of the build cache named after their
/// contents, unless they are there already; returns the folder.
fn runtime_folder(
    options: &CompileOptions,
    files: &[(&str, &[u8])],
) -> Result<PathBuf, NotCaptured> {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    for (name, contents) in files {
        hasher.update((name.len() as u64).to_le_bytes());
        hasher.update(name.as_bytes());
        hasher.update((contents.len() as u64).to_le_bytes());
        hasher.update(contents);
    }
    let key = crate::text::hex(&hasher.finalize());
    let cache = options
        .resolved_cache_dir()
        .map_err(|e| NotCaptured(format!("no build cache for the recorder: {e}")))?;
    let dir = cache.join(format!("choices-{key}"));
    let failed = |e: anyhow::Error| NotCaptured(format!("cannot write the recorder: {e:#}"));
    std::fs::create_dir_all(&dir)
        .with_context(|| format!("cannot create {}", dir.display()))
        .map_err(failed)?;
    for (name, contents) in files {
        let path = dir.join(name);
        if std::fs::read(&path).ok().as_deref() != Some(*contents) {
            crate::fsutil::write_atomic(&path, contents).map_err(failed)?;
        }
    }
    // Marked as used, as builds are: the cache's pruning keeps what was used lately.
    if let Ok(handle) = std::fs::File::open(&dir) {
        let _ = handle.set_modified(std::time::SystemTime::now());
    }
    Ok(dir)
}
