//! A problem of one's own: the setter's programs stand in for what duipai knows of its
//! built-in games. Generators make the inputs (their arguments, then the seed), a reference
//! answers them, a validator says which inputs are valid, and a checker or an interactor
//! decides the verdicts. Each program is prepared (a source file compiled) the first time it
//! is needed, through the caller's [`Prepare`].

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use anyhow::{Context, bail};

use crate::answer::Rule;
use crate::judge::Runner;
use crate::judge::checker::Protocol;
use crate::run::{Limits, Termination};
use crate::text::{program_name, quote};

pub mod capture;
pub mod facts;
mod fingerprint;
pub mod overview;
pub mod source;

pub use overview::Overview;

/// Turns a command as the setter wrote it into the one that runs it (a source file
/// compiled, or taken from the cache); the second argument names the program's role in
/// messages (`generator`, `validator`).
pub type Prepare = Arc<dyn Fn(&[OsString], &str) -> anyhow::Result<Vec<OsString>> + Send + Sync>;

/// One of the setter's programs: as written, and ready to run once it has been needed.
pub struct Helper {
    /// The command as written: a source file (`gen.py`), or a program and its arguments.
    pub typed: Vec<OsString>,
    /// What it is, in messages: `generator`, `validator`, `reference`.
    pub role: String,
    ready: OnceLock<Result<Vec<OsString>, String>>,
    prepare: Prepare,
    /// Its fingerprint, once worked out ([`Helper::fingerprint`]).
    fingerprint: OnceLock<Result<String, String>>,
}

impl std::fmt::Debug for Helper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {}",
            self.role,
            crate::text::quote_command(&self.typed)
        )
    }
}

impl Helper {
    pub fn new(typed: Vec<OsString>, role: impl Into<String>, prepare: &Prepare) -> Helper {
        Helper {
            typed,
            role: role.into(),
            ready: OnceLock::new(),
            prepare: Arc::clone(prepare),
            fingerprint: OnceLock::new(),
        }
    }

    /// The command that runs it, prepared the first time it is asked for.
    pub fn command(&self) -> anyhow::Result<&[OsString]> {
        let ready = self
            .ready
            .get_or_init(|| (self.prepare)(&self.typed, &self.role).map_err(|e| format!("{e:#}")));
        match ready {
            Ok(command) => Ok(command),
            Err(message) => Err(anyhow::anyhow!("{message}")),
        }
    }

    /// How messages name it: `the generator gen.py`.
    pub fn who(&self) -> String {
        format!("the {} {}", self.role, program_name(&self.typed))
    }

    /// The source file it runs, if the setter gave one ([`source::Source::of`]).
    pub fn source(&self) -> Option<source::Source> {
        source::Source::of(&self.typed)
    }
}

/// The setter's generators: the default one, and those with names.
#[derive(Debug, Default)]
pub struct Generators {
    pub default: Option<Helper>,
    pub named: Vec<(String, Helper)>,
}

impl Generators {
    /// The generator `name` names, or the default one (the only named one when there is no
    /// default); the error says which there are.
    pub fn get(&self, name: Option<&str>) -> anyhow::Result<&Helper> {
        match name {
            Some(name) => match self.named.iter().find(|(n, _)| n == name) {
                Some((_, helper)) => Ok(helper),
                None => bail!(
                    "there is no generator named {}{}",
                    quote(name),
                    self.listed()
                ),
            },
            None => match (&self.default, self.named.as_slice()) {
                (Some(helper), _) => Ok(helper),
                (None, [(_, only)]) => Ok(only),
                (None, []) => bail!(
                    "the problem has no generator: set `generator = \"gen.py\"` in duipai.toml \
                     (or give --generator)"
                ),
                (None, _) => bail!(
                    "the problem has several named generators and no default one: say which, \
                     --generator NAME{}",
                    self.listed()
                ),
            },
        }
    }

    /// ` (the named ones: a, b)`, or nothing.
    fn listed(&self) -> String {
        if self.named.is_empty() {
            return " (duipai.toml's [generators] names none)".to_string();
        }
        let names: Vec<&str> = self.named.iter().map(|(n, _)| n.as_str()).collect();
        format!(" (the named ones: {})", names.join(", "))
    }

    /// Every generator, the default one first, with its name (`None` for the default).
    pub fn all(&self) -> impl Iterator<Item = (Option<&str>, &Helper)> {
        self.default
            .iter()
            .map(|h| (None, h))
            .chain(self.named.iter().map(|(n, h)| (Some(n.as_str()), h)))
    }
}

/// How a program's outputs are decided: compared with the answers by a rule, by a checker,
/// or by the interactor it talks with.
#[derive(Debug)]
pub enum Judging {
    Compare(Rule),
    Checker(Helper, Protocol),
    Interactor(Helper),
}

/// A problem of one's own, as `duipai.toml` (or the flags) define it.
#[derive(Debug)]
pub struct OwnProblem {
    /// Its name: letters, digits, `-` and `_`.
    pub name: String,
    pub generators: Generators,
    pub reference: Option<Helper>,
    pub validator: Option<Helper>,
    pub judging: Judging,
    /// The limits of the program under test.
    pub limits: Limits,
    /// Whether the time limit was given (in duipai.toml or on the command line), rather than
    /// the default.
    pub time_limit_given: bool,
    /// Whether the memory limit was given.
    pub memory_limit_given: bool,
}

/// What a validator said of an input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Validity {
    /// Valid; with a testlib validator, its test overview log (the bounds it reached).
    Valid(Option<Overview>),
    /// Invalid, with the validator's message.
    Invalid(String),
}

impl OwnProblem {
    /// Limits for the setter's programs: generous, they are trusted.
    pub fn helper_limits(&self) -> Limits {
        crate::judge::helper::helper_limits(&self.limits, None)
    }

    /// The input that `generator` (the default when `None`) prints for `args` and `seed`:
    /// the arguments, then the seed as the last one, as `stress` passes it; without a seed,
    /// the arguments alone (a Polygon package's `cmd`, whose testlib generator seeds itself
    /// from them).
    pub fn generate(
        &self,
        runner: &dyn Runner,
        generator: Option<&str>,
        args: &[String],
        seed: Option<u64>,
    ) -> anyhow::Result<Vec<u8>> {
        let helper = self.generators.get(generator)?;
        let mut command = helper.command()?.to_vec();
        command.extend(args.iter().map(OsString::from));
        command.extend(seed.map(|seed| seed.to_string().into()));
        let who = match generator {
            Some(name) => format!("the generator {name} ({})", program_name(&helper.typed)),
            None => helper.who(),
        };
        crate::judge::helper::run_helper(runner, &command, b"", &self.helper_limits(), &who)
    }

    /// The reference's answer to `input`.
    pub fn answer(&self, runner: &dyn Runner, input: &[u8]) -> anyhow::Result<Vec<u8>> {
        let Some(reference) = &self.reference else {
            bail!(
                "{} has no reference: set `reference = \"sol.cpp\"` in duipai.toml (or give \
                 --reference)",
                quote(&self.name)
            );
        };
        let command = reference.command()?;
        crate::judge::helper::run_helper(
            runner,
            command,
            input,
            &self.helper_limits(),
            &reference.who(),
        )
    }

    /// The reference's answer to a test of a package: an empty one is an answer there (a
    /// query-only test), as Polygon and the ICPC format allow.
    pub fn test_answer(&self, runner: &dyn Runner, input: &[u8]) -> anyhow::Result<Vec<u8>> {
        let Some(reference) = &self.reference else {
            return self.answer(runner, input);
        };
        crate::judge::helper::run_helper_quiet_ok(
            runner,
            reference.command()?,
            input,
            &self.helper_limits(),
            &reference.who(),
        )
    }

    /// What the validator says of `input`; `None` without a validator.
    pub fn validate(&self, runner: &dyn Runner, input: &[u8]) -> anyhow::Result<Option<Validity>> {
        match &self.validator {
            None => Ok(None),
            Some(validator) => validate(runner, validator, input, &self.helper_limits()).map(Some),
        }
    }

    /// Whether the validator is a testlib one, whose test overview log says which bounds an
    /// input reached.
    pub fn testlib_validator(&self) -> bool {
        self.validator
            .as_ref()
            .and_then(Helper::source)
            .is_some_and(|s| s.is_testlib_validator())
    }
}

/// Runs `validator` on `input` (stdin). Exit 0 (testlib's convention) or 42 (the ICPC
/// format's) is valid; another exit code (43, testlib's 3, 1, ...) is invalid, with its
/// message (stderr, else stdout); a crash or a limit is the validator's own failure. A testlib
/// validator writes its test overview log, returned with a valid verdict.
pub fn validate(
    runner: &dyn Runner,
    validator: &Helper,
    input: &[u8],
    limits: &Limits,
) -> anyhow::Result<Validity> {
    crate::run::contain::with_helper_files(|files| {
        validate_in(runner, validator, input, limits, files)
    })
}

/// [`validate`], a testlib validator writing its overview log into the folder of what a
/// helper writes (the one a contained validator can write).
fn validate_in(
    runner: &dyn Runner,
    validator: &Helper,
    input: &[u8],
    limits: &Limits,
    files: &crate::run::contain::HelperFiles,
) -> anyhow::Result<Validity> {
    let testlib = validator.source().is_some_and(|s| s.is_testlib_validator());
    let log = files.write.join("overview.log");
    let mut command = validator.command()?.to_vec();
    if testlib {
        command.push("--testOverviewLogFileName".into());
        command.push(log.clone().into_os_string());
    }
    let execution = runner
        .run_helper(&command, input, limits)
        .with_context(|| format!("cannot run {}", validator.who()))?;
    match execution.termination {
        Termination::Exited(0 | 42) => {
            let overview = testlib
                .then(|| std::fs::read_to_string(&log).ok())
                .flatten()
                .map(|text| Overview::parse(&text));
            Ok(Validity::Valid(overview))
        }
        Termination::Exited(code) => Ok(Validity::Invalid(message(&execution, code))),
        _ => {
            let why = crate::judge::helper::failure(&execution).unwrap_or_default();
            bail!("{} failed: {why}", validator.who())
        }
    }
}

/// A validator's message: the first lines of its stderr, else of its stdout, else its exit
/// code.
fn message(execution: &crate::run::Execution, code: i32) -> String {
    let text = |bytes: &[u8]| {
        let text = String::from_utf8_lossy(bytes);
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .take(3)
            .collect();
        lines.join(" / ")
    };
    let stderr = text(&execution.stderr);
    let said = if stderr.is_empty() {
        text(&execution.stdout.head(4096))
    } else {
        stderr
    };
    if said.is_empty() {
        format!("exit code {code}")
    } else {
        said
    }
}

/// The files below `dir` with `.in` as their extension, in natural order; for the setter's
/// folder of invalid inputs.
pub fn inputs_below(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    let walk = walkdir::WalkDir::new(dir)
        .sort_by(|a, b| crate::text::natural_order(a.file_name(), b.file_name()));
    for entry in walk {
        let entry = entry.with_context(|| format!("cannot list {}", dir.display()))?;
        if entry.file_type().is_file() && entry.path().extension() == Some("in".as_ref()) {
            found.push(entry.into_path());
        }
    }
    Ok(found)
}
