//! `duipai listen`: problems posted by Competitive Companion become problem folders, a batch
//! (a whole contest) at once, one line a problem, until Ctrl-C (or the first batch, with
//! `--once`). Each post is answered with what became of its problem: a problem that cannot
//! be written is an error status to its post and a line here, and `listen` goes on.

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::Context;

use crate::app::args::ListenArgs;
use crate::app::exit::Status;
use crate::app::interrupt;
use crate::companion::batch::Gathered;
use crate::companion::folder::{Template, one_line};
use crate::companion::{Batches, Landed, Posted, Receiver, land};
use crate::text::plural;

/// The largest body taken: a problem's JSON is its samples, a few KiB; 4 MiB leaves room for
/// the largest samples a statement shows.
const LARGEST_BODY: usize = 4 * 1024 * 1024;
/// How long a batch waits for its next problem before what came lands alone.
const BATCH_WAIT: Duration = Duration::from_secs(10);
/// How long the end waits for the answers of the posts answered last to be written.
const SETTLE: Duration = Duration::from_secs(2);
/// How often the loop looks at Ctrl-C and at batches waiting too long.
const TICK: Duration = Duration::from_millis(200);

pub fn run(args: ListenArgs) -> anyhow::Result<Status> {
    interrupt::install();
    let template = args.template.as_deref().map(read_template).transpose()?;
    std::fs::create_dir_all(&args.dir)
        .with_context(|| format!("cannot make the folder {}", args.dir.display()))?;
    let receiver = Receiver::bind(args.port, LARGEST_BODY)?;
    let port = receiver.port();
    eprintln!(
        "listening for Competitive Companion on http://localhost:{port}/ (127.0.0.1{}); \
         problems go to {}; Ctrl-C stops",
        if receiver.on_v6() { " and ::1" } else { "" },
        shown(&args.dir, Path::new(""))
    );
    if port == crate::app::args::DEFAULT_PORT {
        eprintln!(
            "in the extension's options, add {port} to \"Custom ports\"; then click its icon on \
             a problem's or a contest's page"
        );
    }
    let mut batches = Batches::default();
    let mut tally = Tally::default();
    while !crate::run::cancelled() {
        let mut done = Vec::new();
        let mut waiting = None;
        match receiver.next(TICK) {
            Some(Posted::Task { task, reply }) => {
                let received = format!("received {}", one_line(&task.name));
                match batches.add(*task, Instant::now()) {
                    Ok(Some(batch)) => {
                        let failed = land_batch(&args, template.as_ref(), &batch, &mut tally);
                        answer_batch(reply, received, &failed);
                        if args.once {
                            receiver.settle(SETTLE);
                            return Ok(tally.status());
                        }
                    }
                    Ok(None) => reply.send(200, received),
                    Err(why) => waiting = Some((reply, why)),
                }
            }
            Some(Posted::Refused { from, why }) => {
                eprintln!("duipai: refused a request from {from}: {}", one_line(&why))
            }
            None => {}
        }
        if let Some((reply, why)) = waiting {
            eprintln!("duipai: refused a problem: {why}");
            reply.send(503, why);
        }
        done.extend(batches.overdue(Instant::now(), BATCH_WAIT));
        for batch in done {
            land_batch(&args, template.as_ref(), &batch, &mut tally);
            if args.once {
                receiver.settle(SETTLE);
                return Ok(tally.status());
            }
        }
    }
    for batch in batches.drain() {
        land_batch(&args, template.as_ref(), &batch, &mut tally);
    }
    receiver.settle(SETTLE);
    let unwritten = if tally.failed > 0 {
        format!(", {} not written", tally.failed)
    } else {
        String::new()
    };
    eprintln!(
        "stopped; {} received{unwritten}",
        plural(tally.landed as u64, "problem")
    );
    Ok(tally.status())
}

/// How many problems landed, and how many could not be written.
#[derive(Default)]
struct Tally {
    landed: usize,
    failed: usize,
}

impl Tally {
    /// Failure when a problem could not be written, which its line said.
    fn status(&self) -> Status {
        if self.failed > 0 {
            Status::Failure
        } else {
            Status::Success
        }
    }
}

/// Answers the post that completed a batch: 200, or 500 naming the problems of the batch
/// that could not be written and why.
fn answer_batch(reply: crate::companion::receiver::Reply, received: String, failed: &[String]) {
    if failed.is_empty() {
        reply.send(200, received);
    } else {
        reply.send(500, format!("{received}, but {}", failed.join("; ")));
    }
}

/// Writes a batch's folders and prints a line a problem; what could not be written is a line
/// on stderr each, returned (`cannot write A. Sum: ...`).
fn land_batch(
    args: &ListenArgs,
    template: Option<&Template>,
    batch: &Gathered,
    tally: &mut Tally,
) -> Vec<String> {
    let Some(first) = batch.tasks.first() else {
        return Vec::new();
    };
    if batch.size > 1 || batch.tasks.len() > 1 {
        let missing = batch.size.saturating_sub(batch.tasks.len() as u64);
        let short = if missing > 0 {
            format!(
                " ({missing} of the batch's {} did not come within {} s)",
                batch.size,
                BATCH_WAIT.as_secs()
            )
        } else {
            String::new()
        };
        println!(
            "{}: {}{short}",
            one_line(&first.group),
            plural(batch.tasks.len() as u64, "problem")
        );
    }
    let mut taken = Vec::new();
    let mut failed = Vec::new();
    for task in &batch.tasks {
        match land(&args.dir, task, template, &taken) {
            Ok(landed) => {
                println!("{}", line(&args.dir, &landed, task));
                taken.push(landed.folder);
                tally.landed += 1;
            }
            Err(e) => {
                let why = format!("cannot write {}: {e:#}", one_line(&task.name));
                eprintln!("duipai: {why}");
                failed.push(why);
                tally.failed += 1;
            }
        }
    }
    failed
}

/// `contest/a-prime/: 3 samples, 1 s, 256 MiB, multi-test (the count first)`.
fn line(dir: &Path, landed: &Landed, task: &crate::companion::Task) -> String {
    let mut parts = vec![
        plural(landed.samples as u64, "sample"),
        seconds(task.time_limit_ms()),
        format!("{} MiB", task.memory_limit_mib()),
    ];
    parts.extend(landed.notes.iter().cloned());
    if landed.written.is_empty() && landed.kept.is_empty() {
        parts.push("already there".to_string());
    }
    if !landed.kept.is_empty() {
        let kept: Vec<String> = landed
            .kept
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        parts.push(format!(
            "kept your {} (other contents than the judge's)",
            kept.join(", ")
        ));
    }
    format!("{}: {}", shown(dir, &landed.folder), parts.join(", "))
}

/// `1 s`, `1.5 s`.
fn seconds(ms: u64) -> String {
    let s = format!("{:.3}", ms as f64 / 1000.0);
    format!("{} s", s.trim_end_matches('0').trim_end_matches('.'))
}

/// A folder below `dir` as the user would type it, ending with `/`.
fn shown(dir: &Path, folder: &Path) -> String {
    let path = if dir == Path::new(".") {
        folder.to_path_buf()
    } else {
        dir.join(folder)
    };
    let text = path.display().to_string();
    // The system's own separator, as in the rest of the path (`contest\a-sum\` on Windows).
    let separator = std::path::MAIN_SEPARATOR;
    if text.is_empty() {
        format!(".{separator}")
    } else {
        format!("{}{separator}", text.trim_end_matches(separator))
    }
}

/// The template's text and extension.
fn read_template(path: &Path) -> anyhow::Result<Template> {
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .filter(|e| !e.is_empty() && e.bytes().all(|b| b.is_ascii_alphanumeric()))
        .with_context(|| {
            format!(
                "the template {} has no extension (template.cpp): the solution it becomes is \
                 sol.<extension>",
                path.display()
            )
        })?;
    let bytes = crate::fsutil::read_file_capped(path)?;
    let text = String::from_utf8(bytes)
        .map_err(|_| anyhow::anyhow!("the template {} is not UTF-8 text", path.display()))?;
    Ok(Template {
        extension: extension.to_string(),
        text,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_read_as_typed() {
        assert_eq!(seconds(1000), "1 s");
        assert_eq!(seconds(1500), "1.5 s");
        assert_eq!(seconds(250), "0.25 s");
        assert_eq!(shown(Path::new("."), Path::new("cf/a")), "cf/a/");
        assert_eq!(
            shown(Path::new("contest"), Path::new("cf/a")),
            "contest/cf/a/"
        );
        assert_eq!(shown(Path::new("."), Path::new("")), "./");
    }
}
