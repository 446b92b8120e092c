//! The HTTP receiver Competitive Companion posts to: `http://localhost:PORT/`, on the loopback
//! interface only (127.0.0.1, and ::1 where the machine has it), one request a connection.
//!
//! Written on `std::net` rather than with a server crate: the receiver needs one narrow thing,
//! a POST with a `Content-Length` body, and every part of it bounded: the head at 16 KiB, the
//! body at [`Receiver::bind`]'s cap, the bodies being read at once at [`BODIES_AT_ONCE`], each
//! request at [`REQUEST_WITHIN`] from its connection on (not per read: a client sending a byte
//! now and then is cut off all the same), [`MOST_CONNECTIONS`] connections at once, and when
//! all are taken the one reading for the longest gives way to the new one, so that clients
//! that send slowly cannot keep the extension out. tiny_http, the small server crate, reads
//! header lines without any bound, and what a general server adds (keep-alive, chunked
//! bodies, pipelining) is what this receiver does not want.
//!
//! Who may post: requests a web page could make are refused, one whose `Origin` is a site
//! (only the extension's own origin, or none, is taken) or whose `Host` is not the loopback
//! (DNS rebinding); and a connection from another user of the machine is refused too (the
//! owner of the connecting socket, read from `/proc/net/tcp`, must be the user duipai runs
//! as), for the loopback is open to every local user and no header tells them apart.
//!
//! A problem is handed on with a way to answer it ([`Reply`]): its post is answered with
//! what became of it (written, waiting for the rest of its batch, or why not), never before.

use std::io::{Read, Write};
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use super::task::{Task, parse_task};

/// The largest request head taken.
const LARGEST_HEAD: usize = 16 * 1024;
/// How long a connection may take to send its whole request, and then to read the answer.
pub const REQUEST_WITHIN: Duration = Duration::from_secs(10);
/// How long a post waits for what became of its problem.
const ANSWER_WITHIN: Duration = Duration::from_secs(60);
/// Connections handled at once: past it, the one that has been reading its request the
/// longest is cut off for the new one.
pub const MOST_CONNECTIONS: usize = 64;
/// The bytes of bodies held at once, while they are read: a body that does not fit is
/// read and thrown away, and answered 503.
pub const BODIES_AT_ONCE: usize = 32 * 1024 * 1024;
/// The most bytes of a refused body read (and thrown away) so that its client reads the
/// answer rather than a reset.
const MOST_DRAINED: u64 = 64 * 1024 * 1024;
/// A connection's thread does little: a small stack.
const STACK: usize = 256 * 1024;

/// What came in on a connection, in the order requests ended.
#[derive(Debug)]
pub enum Posted {
    /// A problem, and the answer its post waits for.
    Task { task: Box<Task>, reply: Reply },
    /// A request that was not a problem, and why (it was answered with an error status).
    Refused { from: SocketAddr, why: String },
}

/// The answer a post waits for: a status and a line of text.
#[derive(Debug)]
pub struct Reply(mpsc::SyncSender<(u16, String)>);

impl Reply {
    /// Answers the post (a client gone meanwhile is no error).
    pub fn send(self, status: u16, text: impl Into<String>) {
        let _ = self.0.send((status, text.into()));
    }
}

/// The listening sockets and what their connections post.
pub struct Receiver {
    posted: mpsc::Receiver<Posted>,
    port: u16,
    on_v6: bool,
    shared: Arc<Shared>,
}

/// What every connection shares: the connections open, the bytes of bodies held, and who
/// may post.
struct Shared {
    open: Mutex<Vec<Open>>,
    next: AtomicU64,
    held: AtomicUsize,
    /// Posts handed on whose answer is not written yet.
    answering: AtomicUsize,
    cap: usize,
    sender: mpsc::Sender<Posted>,
}

/// An open connection: its number, since when, whether it is still reading its request (only
/// such a one gives way to a new one), and a handle that can cut it off.
struct Open {
    id: u64,
    since: Instant,
    reading: Arc<AtomicBool>,
    stream: TcpStream,
}

impl Receiver {
    /// Listens on 127.0.0.1:`port` (0: a port the system picks) and on [::1] at the same port
    /// when the machine has IPv6; bodies over `cap` bytes are refused.
    pub fn bind(port: u16, cap: usize) -> anyhow::Result<Receiver> {
        let v4 = TcpListener::bind((Ipv4Addr::LOCALHOST, port)).map_err(|e| {
            let why = if e.kind() == std::io::ErrorKind::AddrInUse {
                "another program listens there (another duipai listen, or an editor's own \
                 receiver); --port picks another"
                    .to_string()
            } else {
                e.to_string()
            };
            anyhow::anyhow!("cannot listen on 127.0.0.1:{port}: {why}")
        })?;
        let port = v4.local_addr()?.port();
        // Browsers may try ::1 first for `localhost`; a machine without IPv6 has only 127.0.0.1.
        let v6 = TcpListener::bind((Ipv6Addr::LOCALHOST, port)).ok();
        let (sender, posted) = mpsc::channel();
        let shared = Arc::new(Shared {
            open: Mutex::new(Vec::new()),
            next: AtomicU64::new(0),
            held: AtomicUsize::new(0),
            answering: AtomicUsize::new(0),
            cap,
            sender,
        });
        let on_v6 = v6.is_some();
        for listener in std::iter::once(v4).chain(v6) {
            let shared = Arc::clone(&shared);
            std::thread::spawn(move || accept(listener, &shared));
        }
        Ok(Receiver {
            posted,
            port,
            on_v6,
            shared,
        })
    }

    /// The port listened on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Whether ::1 is listened on too.
    pub fn on_v6(&self) -> bool {
        self.on_v6
    }

    /// The next request that ended, waiting at most `timeout`.
    pub fn next(&self, timeout: Duration) -> Option<Posted> {
        self.posted.recv_timeout(timeout).ok()
    }

    /// Waits, at most `within`, until every post answered has had its answer written: a
    /// process that ends first would leave its client without one.
    pub fn settle(&self, within: Duration) {
        let deadline = Instant::now() + within;
        while self.shared.answering.load(Ordering::SeqCst) > 0 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

/// Takes connections for as long as the process lives, each on a thread of its own.
fn accept(listener: TcpListener, shared: &Arc<Shared>) {
    for stream in listener.incoming().flatten() {
        let Some((id, reading)) = admit(shared, &stream) else {
            let mut stream = stream;
            let _ = answer(&mut stream, 503, "too many connections at once");
            continue;
        };
        let worker = Arc::clone(shared);
        let started = std::thread::Builder::new()
            .stack_size(STACK)
            .spawn(move || {
                serve(stream, &worker, &reading);
                worker
                    .open
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .retain(|o| o.id != id);
            });
        if started.is_err() {
            shared
                .open
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .retain(|o| o.id != id);
        }
    }
}

/// Counts `stream` among the open connections, cutting off the one that has been reading
/// its request the longest when all are taken; `None` when none can give way (every one is
/// waiting for its problem to be written).
fn admit(shared: &Shared, stream: &TcpStream) -> Option<(u64, Arc<AtomicBool>)> {
    let mut open = shared.open.lock().unwrap_or_else(|e| e.into_inner());
    if open.len() >= MOST_CONNECTIONS {
        let oldest = open
            .iter()
            .enumerate()
            .filter(|(_, o)| o.reading.load(Ordering::SeqCst))
            .min_by_key(|(_, o)| o.since)
            .map(|(at, _)| at)?;
        let cut = open.remove(oldest);
        let _ = cut.stream.shutdown(std::net::Shutdown::Both);
    }
    let handle = stream.try_clone().ok()?;
    let id = shared.next.fetch_add(1, Ordering::SeqCst);
    let reading = Arc::new(AtomicBool::new(true));
    open.push(Open {
        id,
        since: Instant::now(),
        reading: Arc::clone(&reading),
        stream: handle,
    });
    Some((id, reading))
}

/// Reads one request, hands on what it posted and answers it. What came is handed on before
/// the answer: the extension posts a contest's problems one after the other, each once the
/// answer to the last has come, so they are handed on in the order they were posted (and a
/// refusal is named before the next request is read).
fn serve(mut stream: TcpStream, shared: &Shared, reading: &AtomicBool) {
    let from = stream.peer_addr().ok();
    let deadline = Instant::now() + REQUEST_WITHIN;
    let mut request = Request {
        stream: &mut stream,
        deadline,
        shared,
    };
    let received = request.receive();
    reading.store(false, Ordering::SeqCst);
    let handed = if matches!(received, Ok(Some(_))) {
        Handed::Task
    } else {
        Handed::Other
    };
    let (status, text) = match received {
        Ok(Some(task)) => {
            let (reply, answered) = mpsc::sync_channel(1);
            shared.answering.fetch_add(1, Ordering::SeqCst);
            let handed = shared.sender.send(Posted::Task {
                task: Box::new(task),
                reply: Reply(reply),
            });
            match handed
                .ok()
                .and_then(|()| answered.recv_timeout(ANSWER_WITHIN).ok())
            {
                Some(answer) => answer,
                None => (
                    503,
                    "duipai listen is stopping, or did not answer in time".into(),
                ),
            }
        }
        Ok(None) => (
            200,
            "duipai listen: POST Competitive Companion's problem JSON here".to_string(),
        ),
        Err((status, why)) => {
            if let Some(from) = from {
                let _ = shared.sender.send(Posted::Refused {
                    from,
                    why: why.clone(),
                });
            }
            (status, why)
        }
    };
    let _ = stream.set_write_timeout(Some(REQUEST_WITHIN));
    let _ = answer(&mut stream, status, &text);
    if handed == Handed::Task {
        shared.answering.fetch_sub(1, Ordering::SeqCst);
    }
    close(&mut stream);
}

/// Whether a request was handed on as a problem (its answer is awaited, see
/// [`Receiver::settle`]).
#[derive(PartialEq)]
enum Handed {
    Task,
    Other,
}

/// Ends the connection without a reset: what the client still sends is read (a little, for
/// a second at most) after our side is shut, for a socket closed with bytes unread answers
/// with a reset, and the client would see that rather than our answer.
fn close(stream: &mut TcpStream) {
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let _ = stream.set_read_timeout(Some(Duration::from_secs(1)));
    let mut sink = [0u8; 4096];
    let mut left = 1 << 20;
    while left > 0 {
        match stream.read(&mut sink) {
            Ok(0) | Err(_) => break,
            Ok(n) => left -= n.min(left),
        }
    }
}

/// A request being read: its connection, the time by which it must have come whole, and what
/// the connections share.
struct Request<'a> {
    stream: &'a mut TcpStream,
    deadline: Instant,
    shared: &'a Shared,
}

impl Request<'_> {
    /// Reads into `buf` what has come, waiting at most until the deadline; the error says in
    /// words what did not come.
    fn read(&mut self, buf: &mut [u8], what: &str) -> Result<usize, (u16, String)> {
        let late = || {
            (
                408,
                format!(
                    "{what} did not come within {} s of the connection",
                    REQUEST_WITHIN.as_secs()
                ),
            )
        };
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(late());
        }
        let _ = self.stream.set_read_timeout(Some(left));
        match self.stream.read(buf) {
            Ok(n) => Ok(n),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                Err(late())
            }
            Err(e) => Err((
                400,
                format!("{what} did not come: the connection failed ({e})"),
            )),
        }
    }

    /// Reads one request: the problem it posted, `None` for a request that is not a post (a
    /// GET is answered with what listens here), or the status and the reason it is refused
    /// with.
    fn receive(&mut self) -> Result<Option<Task>, (u16, String)> {
        check_peer(self.stream).map_err(|why| (403, why))?;
        let (head, body) = self.read_head()?;
        let request = Head::parse(&head).map_err(|why| (400, why))?;
        request.check_sender().map_err(|why| (403, why))?;
        match request.method.as_str() {
            "POST" => {}
            "GET" | "HEAD" => return Ok(None),
            other => return Err((405, format!("{other} is not taken: POST a problem"))),
        }
        let length = match request.content_length(self.shared.cap) {
            Ok(length) => length,
            Err((413, why)) => {
                // Read and thrown away, so that the client reads the answer.
                let claimed: u64 = request
                    .header("content-length")
                    .and_then(|l| l.parse().ok())
                    .unwrap_or(0);
                self.drain(claimed.saturating_sub(body.len() as u64));
                return Err((413, why));
            }
            Err(refused) => return Err(refused),
        };
        if request
            .header("expect")
            .is_some_and(|e| e.eq_ignore_ascii_case("100-continue"))
        {
            let _ = self.stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n");
        }
        let Some(_held) = Held::take(&self.shared.held, length) else {
            self.drain(length.saturating_sub(body.len()) as u64);
            return Err((
                503,
                format!(
                    "{} MiB of posts are being read at once already; post again",
                    BODIES_AT_ONCE >> 20
                ),
            ));
        };
        let body = self.read_body(body, length)?;
        parse_task(&body).map(Some).map_err(|why| (400, why))
    }

    /// The body: what came with the head, and the rest of its `length` bytes.
    fn read_body(&mut self, mut body: Vec<u8>, length: usize) -> Result<Vec<u8>, (u16, String)> {
        let mut chunk = vec![0u8; 64 * 1024];
        while body.len() < length {
            let want = (length - body.len()).min(chunk.len());
            match self.read(&mut chunk[..want], "the body")? {
                0 => {
                    return Err((
                        400,
                        format!("the body ended after {} of {length} bytes", body.len()),
                    ));
                }
                n => body.extend_from_slice(&chunk[..n]),
            }
        }
        body.truncate(length);
        Ok(body)
    }

    /// Reads and throws away `bytes` bytes (at most [`MOST_DRAINED`]), until the deadline.
    fn drain(&mut self, bytes: u64) {
        let mut left = bytes.min(MOST_DRAINED);
        let mut sink = [0u8; 16 * 1024];
        while left > 0 {
            let want = (left as usize).min(sink.len());
            match self.read(&mut sink[..want], "the body") {
                Ok(0) | Err(_) => return,
                Ok(n) => left -= n as u64,
            }
        }
    }

    /// The request's head (up to the blank line) and the bytes of the body read with it.
    fn read_head(&mut self) -> Result<(String, Vec<u8>), (u16, String)> {
        let mut bytes = Vec::new();
        let mut chunk = [0u8; 4096];
        loop {
            if let Some(end) = find(&bytes, b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&bytes[..end]).into_owned();
                return Ok((head, bytes[end + 4..].to_vec()));
            }
            if bytes.len() > LARGEST_HEAD {
                return Err((
                    431,
                    format!(
                        "the request's head is larger than {} KiB",
                        LARGEST_HEAD / 1024
                    ),
                ));
            }
            match self.read(&mut chunk, "the request's head")? {
                0 => return Err((400, "the connection ended before the request's head".into())),
                n => bytes.extend_from_slice(&chunk[..n]),
            }
        }
    }
}

/// Bytes of bodies counted against [`BODIES_AT_ONCE`] while one is read and parsed.
struct Held<'a> {
    held: &'a AtomicUsize,
    bytes: usize,
}

impl<'a> Held<'a> {
    /// Takes `bytes` of the budget, or `None` when they do not fit.
    fn take(held: &'a AtomicUsize, bytes: usize) -> Option<Held<'a>> {
        held.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |now| {
            (now + bytes <= BODIES_AT_ONCE).then_some(now + bytes)
        })
        .ok()?;
        Some(Held { held, bytes })
    }
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        self.held.fetch_sub(self.bytes, Ordering::SeqCst);
    }
}

/// Refuses a connection from another user of the machine: the owner of its socket (the
/// browser's, on the loopback) must be the user duipai runs as.
#[cfg(target_os = "linux")]
fn check_peer(stream: &TcpStream) -> Result<(), String> {
    let (Ok(peer), Ok(local)) = (stream.peer_addr(), stream.local_addr()) else {
        return Err("cannot tell who connected".into());
    };
    // SAFETY: geteuid has no preconditions.
    let own = unsafe { libc::geteuid() };
    match socket_owner(peer, local) {
        Some(uid) if uid == own => Ok(()),
        Some(uid) => Err(format!(
            "a connection of the user {uid} is not taken: duipai listen takes problems from \
             its own user's browser only (it runs as {own})"
        )),
        None => Err(format!("cannot tell which user connected from {peer}")),
    }
}

/// Off Linux there is no `/proc/net/tcp` to tell a connection's owner: every local user's
/// connection is taken, as docs/commands.md says under `listen`.
#[cfg(not(target_os = "linux"))]
fn check_peer(_stream: &TcpStream) -> Result<(), String> {
    Ok(())
}

/// The uid owning the socket at `peer` connected to `local`, read from `/proc/net/tcp` or
/// `tcp6` (each line: its number, the local and remote addresses, the state, queues, timers,
/// retransmits, then the uid).
#[cfg(target_os = "linux")]
fn socket_owner(peer: SocketAddr, local: SocketAddr) -> Option<u32> {
    let table = match peer.ip() {
        std::net::IpAddr::V4(_) => "/proc/net/tcp",
        std::net::IpAddr::V6(_) => "/proc/net/tcp6",
    };
    let text = std::fs::read_to_string(table).ok()?;
    let (want_local, want_remote) = (proc_address(peer), proc_address(local));
    text.lines().skip(1).find_map(|line| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        (fields.len() > 7
            && fields[1].eq_ignore_ascii_case(&want_local)
            && fields[2].eq_ignore_ascii_case(&want_remote))
        .then(|| fields[7].parse().ok())
        .flatten()
    })
}

/// An address as `/proc/net/tcp` writes it: each 32-bit word of the address as the machine
/// stores it, in hex, then `:` and the port in hex.
#[cfg(target_os = "linux")]
fn proc_address(address: SocketAddr) -> String {
    let octets: Vec<u8> = match address.ip() {
        std::net::IpAddr::V4(v4) => v4.octets().to_vec(),
        std::net::IpAddr::V6(v6) => v6.octets().to_vec(),
    };
    let words: String = octets
        .chunks(4)
        .map(|w| format!("{:08X}", u32::from_ne_bytes([w[0], w[1], w[2], w[3]])))
        .collect();
    format!("{words}:{:04X}", address.port())
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// A request line and its headers (names in lowercase).
struct Head {
    method: String,
    headers: Vec<(String, String)>,
}

impl Head {
    fn parse(head: &str) -> Result<Head, String> {
        let mut lines = head.split("\r\n");
        let line = lines.next().unwrap_or("");
        let mut words = line.split(' ');
        let (Some(method), Some(_target), Some(version)) =
            (words.next(), words.next(), words.next())
        else {
            return Err(format!(
                "not an HTTP request line: {}",
                crate::text::quote(line)
            ));
        };
        if !version.starts_with("HTTP/1.") {
            return Err(format!("not HTTP/1: {}", crate::text::quote(line)));
        }
        let mut headers = Vec::new();
        for line in lines {
            let Some((name, value)) = line.split_once(':') else {
                return Err(format!("not a header: {}", crate::text::quote(line)));
            };
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
        }
        Ok(Head {
            method: method.to_string(),
            headers,
        })
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Refuses what a web page could send: a site's origin (the extension's requests come
    /// from its own `chrome-extension://`, `moz-extension://`, ... origin, or none), and a host
    /// that is not the loopback (a page whose name was rebound to 127.0.0.1).
    fn check_sender(&self) -> Result<(), String> {
        if let Some(origin) = self.header("origin")
            && !origin.contains("extension://")
        {
            return Err(format!(
                "a request from the web page {} is not taken: only the browser extension may post problems",
                crate::text::quote(origin)
            ));
        }
        if let Some(host) = self.header("host") {
            let name = match host.strip_prefix('[') {
                Some(v6) => v6.split(']').next().unwrap_or(""),
                None => host.split(':').next().unwrap_or(""),
            };
            if !["localhost", "127.0.0.1", "::1"].contains(&name.to_ascii_lowercase().as_str()) {
                return Err(format!(
                    "a request for the host {} is not taken: duipai listen answers localhost only",
                    crate::text::quote(host)
                ));
            }
        }
        Ok(())
    }

    /// The body's length: given, and at most `cap`.
    fn content_length(&self, cap: usize) -> Result<usize, (u16, String)> {
        if self.header("transfer-encoding").is_some() {
            return Err((
                411,
                "a chunked body is not taken: send its Content-Length".into(),
            ));
        }
        let Some(text) = self.header("content-length") else {
            return Err((411, "the request has no Content-Length".into()));
        };
        let length: usize = text.parse().map_err(|_| {
            (
                400,
                format!(
                    "Content-Length {} is not a number",
                    crate::text::quote(text)
                ),
            )
        })?;
        if length > cap {
            return Err((
                413,
                format!(
                    "a body of {length} bytes is larger than the {} KiB duipai listen takes",
                    cap / 1024
                ),
            ));
        }
        Ok(length)
    }
}

/// Answers with `status` and a line of text.
fn answer(stream: &mut TcpStream, status: u16, text: &str) -> std::io::Result<()> {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Content Too Large",
        500 => "Internal Server Error",
        431 => "Request Header Fields Too Large",
        _ => "Service Unavailable",
    };
    let body = format!("{text}\n");
    let response = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(response.as_bytes())?;
    stream.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(text: &str) -> Head {
        Head::parse(text).unwrap()
    }

    #[test]
    fn only_the_extension_on_the_loopback_is_taken() {
        let ok = head(
            "POST / HTTP/1.1\r\nHost: localhost:10044\r\nOrigin: chrome-extension://cjnmckjndlpiamhfimnnjmnckgghkjbl",
        );
        assert!(ok.check_sender().is_ok());
        assert!(
            head("POST / HTTP/1.1\r\nHost: [::1]:10044")
                .check_sender()
                .is_ok()
        );
        assert!(
            head("POST / HTTP/1.1\r\nHost: 127.0.0.1:1")
                .check_sender()
                .is_ok()
        );
        let page = head("POST / HTTP/1.1\r\nHost: localhost:10044\r\nOrigin: https://evil.example");
        assert!(page.check_sender().unwrap_err().contains("web page"));
        let rebound = head("POST / HTTP/1.1\r\nHost: evil.example:10044");
        assert!(
            rebound
                .check_sender()
                .unwrap_err()
                .contains("localhost only")
        );
    }

    #[test]
    fn the_body_needs_a_length_within_the_cap() {
        let h = head("POST / HTTP/1.1\r\nContent-Length: 2048");
        assert_eq!(h.content_length(4096), Ok(2048));
        assert_eq!(h.content_length(1024).unwrap_err().0, 413);
        assert_eq!(
            head("POST / HTTP/1.1").content_length(1024).unwrap_err().0,
            411
        );
        let chunked = head("POST / HTTP/1.1\r\nTransfer-Encoding: chunked");
        assert_eq!(chunked.content_length(1024).unwrap_err().0, 411);
        assert!(Head::parse("hello").is_err());
    }
}
