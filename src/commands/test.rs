//! `duipai test`: judge a program on stored cases (`*.in` with `.ans`/`.out` answers, or the
//! reference solver's), in parallel, with human, JSON and JUnit reports.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use anyhow::{Context, bail};
use walkdir::WalkDir;

use crate::cli::TestArgs;
use crate::exit::Status;
use crate::judge::{CaseOutcome, Expected, judge_case};
use crate::problem::Problem;
use crate::report::{self, CaseRecord};
use crate::run::{IoMode, Limits};

/// How many failing cases get a diff in the human report.
const DIFFS_SHOWN: usize = 3;

/// One stored case: its input and what the program should print.
struct StoredCase {
    name: String,
    input: Vec<u8>,
    expected: Expected,
}

pub fn run(args: TestArgs) -> anyhow::Result<Status> {
    let started = Instant::now();
    crate::interrupt::install();
    let problem = args.problem;
    let cases = collect_cases(problem, &args.dir)?;
    let limits = args.limits.resolve(problem);
    let io = args.limits.io_mode(problem);
    let jobs = super::jobs(args.jobs);
    let out = super::Human::new(args.json);

    out.line(format!(
        "testing {} on {} case{} from {} ({} worker{})",
        super::program_name(&args.program),
        cases.len(),
        if cases.len() == 1 { "" } else { "s" },
        args.dir.display(),
        jobs,
        if jobs == 1 { "" } else { "s" },
    ));
    let outcomes = run_all(&cases, &args.program, &limits, &io, jobs, |i, outcome| {
        let record = CaseRecord::new(&cases[i].name, outcome);
        out.line(report::human_line(&record));
        if args.json {
            println!("{}", serde_json::to_string(&record).unwrap_or_default());
        }
    })?;
    if crate::interrupt::interrupted() {
        bail!(
            "interrupted, {} of {} case{} judged",
            outcomes.len(),
            cases.len(),
            if cases.len() == 1 { "" } else { "s" }
        );
    }

    let records: Vec<CaseRecord> = cases
        .iter()
        .zip(&outcomes)
        .map(|(case, outcome)| CaseRecord::new(&case.name, outcome))
        .collect();
    let failures: Vec<usize> = (0..cases.len())
        .filter(|&i| !outcomes[i].verdict().is_accepted())
        .collect();
    for &i in failures.iter().take(DIFFS_SHOWN) {
        if report::shows_output(outcomes[i].verdict()) {
            out.line(format!(
                "\n{}: {}",
                cases[i].name, outcomes[i].judgement.detail
            ));
            out.text(crate::diff::unified(
                &cases[i].expected.to_text(),
                &outcomes[i].execution.stdout,
            ));
        }
    }
    let elapsed = started.elapsed();
    out.line(format!(
        "\n{} case{}: {} in {:.2} s",
        records.len(),
        if records.len() == 1 { "" } else { "s" },
        report::summary(&records),
        elapsed.as_secs_f64()
    ));

    if let Some(path) = &args.junit {
        let suite = format!("duipai test {problem} {}", args.dir.display());
        let xml = report::junit_xml(&suite, &records, elapsed)?;
        report::write_report_file(path, &xml)?;
    }
    let status = if failures.is_empty() {
        Status::Success
    } else {
        Status::Failure
    };
    if args.json {
        let summary = serde_json::json!({
            "status": if failures.is_empty() { "ok" } else { "failed" },
            "problem": problem,
            "cases": records,
            "passed": records.len() - failures.len(),
            "failed": failures.len(),
            "elapsed_ms": elapsed.as_millis() as u64,
        });
        println!("{summary}");
    }
    Ok(status)
}

/// Runs every case on `jobs` workers; `on_done` sees each result in case order as soon as it
/// and all before it are done. A harness error (the program cannot start) stops everything.
fn run_all(
    cases: &[StoredCase],
    program: &[OsString],
    limits: &Limits,
    io: &IoMode,
    jobs: usize,
    mut on_done: impl FnMut(usize, &CaseOutcome),
) -> anyhow::Result<Vec<CaseOutcome>> {
    let next = AtomicUsize::new(0);
    let abort = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(cases.len()).max(1) {
            let tx = tx.clone();
            let (next, abort) = (&next, &abort);
            scope.spawn(move || {
                while !abort.load(Ordering::Relaxed) && !crate::interrupt::interrupted() {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(case) = cases.get(i) else { break };
                    let result = judge_case(program, &case.input, &case.expected, limits, io);
                    if crate::interrupt::interrupted() {
                        // This run may have been killed by the interrupt: no verdict.
                        break;
                    }
                    if result.is_err() {
                        abort.store(true, Ordering::Relaxed);
                    }
                    if tx.send((i, result)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut slots: Vec<Option<CaseOutcome>> = (0..cases.len()).map(|_| None).collect();
        let mut printed = 0;
        for (i, result) in rx {
            let outcome = result.with_context(|| format!("running {}", cases[i].name))?;
            slots[i] = Some(outcome);
            while let Some(Some(done)) = slots.get(printed) {
                on_done(printed, done);
                printed += 1;
            }
        }
        Ok(slots.into_iter().flatten().collect())
    })
}

/// `*.in` files below `dir` (or `dir` itself if it is one), in file-name order, each with its
/// expected output: the sibling `.ans`, else `.out`, else the reference solver's answer.
fn collect_cases(problem: Problem, dir: &Path) -> anyhow::Result<Vec<StoredCase>> {
    let meta = std::fs::metadata(dir).with_context(|| format!("cannot read {}", dir.display()))?;
    let (root, inputs): (PathBuf, Vec<PathBuf>) = if meta.is_file() {
        let parent = dir.parent().unwrap_or(Path::new("")).to_path_buf();
        (parent, vec![dir.to_path_buf()])
    } else {
        let mut inputs = Vec::new();
        for entry in WalkDir::new(dir).sort_by(|a, b| natural_order(a.file_name(), b.file_name())) {
            let entry = entry.with_context(|| format!("cannot list {}", dir.display()))?;
            if entry.file_type().is_file() && entry.path().extension() == Some("in".as_ref()) {
                inputs.push(entry.into_path());
            }
        }
        (dir.to_path_buf(), inputs)
    };
    if inputs.is_empty() {
        bail!("no *.in files below {}", dir.display());
    }
    inputs
        .into_iter()
        .map(|path| {
            let input =
                std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
            let expected = expected_for(problem, &path, &input)?;
            let name = path
                .strip_prefix(&root)
                .unwrap_or(&path)
                .display()
                .to_string();
            Ok(StoredCase {
                name,
                input,
                expected,
            })
        })
        .collect()
}

/// File-name order with digit runs compared as numbers, so `chess2.in` comes before
/// `chess10.in` (NOI packs are not zero-padded); ties fall back to plain byte order.
fn natural_order(a: &std::ffi::OsStr, b: &std::ffi::OsStr) -> std::cmp::Ordering {
    /// Digit runs before other text (as in ASCII), numbers by value, text by bytes.
    #[derive(PartialEq, Eq, PartialOrd, Ord)]
    enum Chunk<'a> {
        Number { digits: usize, value: &'a [u8] },
        Text(&'a [u8]),
    }
    fn chunks(s: &[u8]) -> Vec<Chunk<'_>> {
        s.chunk_by(|x, y| x.is_ascii_digit() == y.is_ascii_digit())
            .map(|c| {
                if c[0].is_ascii_digit() {
                    let value = trim_zeros(c);
                    Chunk::Number {
                        digits: value.len(),
                        value,
                    }
                } else {
                    Chunk::Text(c)
                }
            })
            .collect()
    }
    let (ab, bb) = (a.as_encoded_bytes(), b.as_encoded_bytes());
    chunks(ab).cmp(&chunks(bb)).then_with(|| ab.cmp(bb))
}

fn trim_zeros(digits: &[u8]) -> &[u8] {
    let first = digits
        .iter()
        .position(|&d| d != b'0')
        .unwrap_or(digits.len());
    &digits[first..]
}

fn expected_for(problem: Problem, input_path: &Path, input: &[u8]) -> anyhow::Result<Expected> {
    for ext in ["ans", "out"] {
        let answer = input_path.with_extension(ext);
        match std::fs::read(&answer) {
            Ok(bytes) => return Ok(Expected::from_bytes(&bytes)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => bail!("cannot read {}: {e}", answer.display()),
        }
    }
    let instance = problem
        .parse(input, &problem.default_bounds())
        .map_err(|e| {
            anyhow::anyhow!(
                "{}:{}:{}: {} (no .ans or .out beside it, and the reference solver cannot \
                 solve an invalid input)",
                input_path.display(),
                e.line,
                e.column,
                e.message
            )
        })?;
    Ok(Expected::Answer(instance.solve()))
}

#[cfg(test)]
mod tests {
    use super::natural_order;
    use std::cmp::Ordering;
    use std::ffi::OsStr;

    #[test]
    fn numbers_in_names_sort_as_numbers() {
        let mut names = [
            "chess10.in",
            "chess2.in",
            "chess1.in",
            "a.in",
            "chess02.in",
            "b",
        ];
        names.sort_by(|a, b| natural_order(OsStr::new(a), OsStr::new(b)));
        assert_eq!(
            names,
            [
                "a.in",
                "b",
                "chess1.in",
                "chess02.in",
                "chess2.in",
                "chess10.in"
            ]
        );
        assert_eq!(
            natural_order(OsStr::new("x"), OsStr::new("x")),
            Ordering::Equal
        );
    }
}
