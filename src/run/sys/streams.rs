//! A program's three streams off Linux, each served by a thread of its own: the input fed to
//! stdin, the answer collected from stdout (cut at the output limit, the excess flagged for the
//! supervisor at once), and the tail of stderr. Threads, because neither Windows nor macOS has
//! one readiness call for pipes that both share with Linux's `poll` the way it is used there.

use std::io::{self, Read, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::Duration;

use crate::run::captured::{Captured, Collector};

/// How much of stderr is kept: its end.
pub const STDERR_TAIL: usize = 64 * 1024;

/// One read's size.
const CHUNK: usize = 64 * 1024;

/// A stream's thread, and what it hands back when done.
pub(super) struct Served<T> {
    done: Receiver<T>,
}

/// Runs `work` on a thread of its own, named `name`.
pub(super) fn serve<T: Send + 'static>(
    name: &str,
    work: impl FnOnce() -> T + Send + 'static,
) -> io::Result<Served<T>> {
    let (tx, done) = mpsc::channel();
    thread::Builder::new()
        .name(name.to_string())
        .spawn(move || {
            let _ = tx.send(work());
        })?;
    Ok(Served { done })
}

impl<T> Served<T> {
    /// What the thread made, once its stream has ended; `None` if it has not within `grace`
    /// (a process outside the tree still holds the pipe: the thread is left to it).
    pub(super) fn join(self, grace: Duration) -> Option<T> {
        self.done.recv_timeout(grace).ok()
    }
}

/// Feeds `input` to the program's stdin, then closes it; a program that stops reading
/// (closes its end, or ends) gets the rest no more. Hands back how many bytes it took.
pub(super) fn feed(
    mut stdin: impl Write + Send + 'static,
    input: Vec<u8>,
) -> io::Result<Served<usize>> {
    serve("duipai-stdin", move || {
        let mut written = 0;
        for piece in input.chunks(CHUNK) {
            if stdin.write_all(piece).is_err() {
                break;
            }
            written += piece.len();
        }
        written
    })
}

/// The program's answer as read from stdout: its first `limit` bytes, and how many it wrote.
pub(super) struct Answer {
    pub captured: Captured,
    pub total: u64,
}

/// Collects stdout up to `limit` bytes; one byte more sets `exceeded`, which the supervisor
/// watches. What comes after is read and dropped, so that the program never blocks on a full
/// pipe before it is stopped.
pub(super) fn answer(
    mut stdout: impl Read + Send + 'static,
    limit: u64,
    exceeded: Arc<AtomicBool>,
) -> io::Result<Served<Answer>> {
    serve("duipai-stdout", move || {
        let mut collector = Collector::default();
        let mut buf = vec![0u8; CHUNK];
        loop {
            let n = match stdout.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            let room = limit.saturating_sub(collector.len()) as usize;
            collector.push(&buf[..n.min(room)]);
            if n > room {
                exceeded.store(true, Ordering::SeqCst);
                // The rest is counted, not kept.
                let mut total = collector.len() + (n - room) as u64;
                while let Ok(more @ 1..) = stdout.read(&mut buf) {
                    total += more as u64;
                }
                return Answer {
                    captured: collector.finish(limit),
                    total,
                };
            }
        }
        let total = collector.len();
        Answer {
            captured: collector.finish(limit),
            total,
        }
    })
}

/// What was kept of a stream read for its end: the last bytes, and how many came in all.
#[derive(Default)]
pub(super) struct Tail {
    pub kept: Vec<u8>,
    pub total: u64,
}

/// Reads a stream to its end, keeping its last [`STDERR_TAIL`] bytes.
pub(super) fn tail(mut stream: impl Read + Send + 'static) -> io::Result<Served<Tail>> {
    serve("duipai-stderr", move || {
        let mut tail = Tail::default();
        let mut buf = vec![0u8; CHUNK];
        while let Ok(n @ 1..) = stream.read(&mut buf) {
            tail.total += n as u64;
            tail.kept.extend_from_slice(&buf[..n]);
            if tail.kept.len() > 2 * STDERR_TAIL {
                tail.kept.drain(..tail.kept.len() - STDERR_TAIL);
            }
        }
        if tail.kept.len() > STDERR_TAIL {
            tail.kept.drain(..tail.kept.len() - STDERR_TAIL);
        }
        tail
    })
}
