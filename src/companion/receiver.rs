//! The HTTP receiver Competitive Companion posts to: `http://localhost:PORT/`, on the loopback
//! interface only (127.0.0.1, and ::1 where the machine has it), one request a connection.
//!
//! Written on `std::net` rather than with a server crate: the receiver needs one narrow thing,
//! a POST with a `Content-Length` body, and every part of it bounded (the head at 16 KiB, the
//! body at [`Receiver::bind`]'s cap, each connection's reads and writes at 10 s, 16
//! connections at once). tiny_http, the small server crate, reads header lines without any
//! bound, and what a general server adds (keep-alive, chunked bodies, pipelining) is what this
//! receiver does not want. Requests a web page could make are refused: one whose `Origin` is
//! a site (only the extension's own origin, or none, is taken) or whose `Host` is not the
//! loopback (DNS rebinding).

use std::io::{Read, Write};
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use super::task::{Task, parse_task};

/// The largest request head taken.
const LARGEST_HEAD: usize = 16 * 1024;
/// How long a connection may take to send its request or read the answer.
const CONNECTION_TIMEOUT: Duration = Duration::from_secs(10);
/// Connections handled at once; more are answered 503 at once.
const MOST_CONNECTIONS: usize = 16;

/// What came in on a connection, in the order requests ended.
#[derive(Debug)]
pub enum Posted {
    /// A problem.
    Task(Box<Task>),
    /// A request that was not a problem, and why (it was answered with an error status).
    Refused { from: SocketAddr, why: String },
}

/// The listening sockets and what their connections post.
pub struct Receiver {
    posted: mpsc::Receiver<Posted>,
    port: u16,
    on_v6: bool,
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
        let busy = Arc::new(AtomicUsize::new(0));
        let on_v6 = v6.is_some();
        for listener in std::iter::once(v4).chain(v6) {
            let sender = sender.clone();
            let busy = Arc::clone(&busy);
            std::thread::spawn(move || accept(listener, sender, busy, cap));
        }
        Ok(Receiver {
            posted,
            port,
            on_v6,
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
}

/// Takes connections for as long as the process lives, each on a thread of its own.
fn accept(listener: TcpListener, sender: mpsc::Sender<Posted>, busy: Arc<AtomicUsize>, cap: usize) {
    for stream in listener.incoming().flatten() {
        if busy.fetch_add(1, Ordering::SeqCst) >= MOST_CONNECTIONS {
            busy.fetch_sub(1, Ordering::SeqCst);
            let mut stream = stream;
            let _ = answer(&mut stream, 503, "too many connections at once");
            continue;
        }
        let sender = sender.clone();
        let busy = Arc::clone(&busy);
        std::thread::spawn(move || {
            serve(stream, cap, &sender);
            busy.fetch_sub(1, Ordering::SeqCst);
        });
    }
}

/// Reads one request, hands on what it posted and answers it. What came is handed on before
/// the answer: the extension posts a contest's problems one after the other, each once the
/// answer to the last has come, so they are handed on in the order they were posted (and a
/// refusal is named before the next request is read).
fn serve(mut stream: TcpStream, cap: usize, sender: &mpsc::Sender<Posted>) {
    let from = stream.peer_addr().ok();
    let _ = stream.set_read_timeout(Some(CONNECTION_TIMEOUT));
    let _ = stream.set_write_timeout(Some(CONNECTION_TIMEOUT));
    let (status, text) = match receive(&mut stream, cap) {
        Ok(Some(task)) => {
            let received = format!("received {}", task.name);
            let _ = sender.send(Posted::Task(Box::new(task)));
            (200, received)
        }
        Ok(None) => (
            200,
            "duipai listen: POST Competitive Companion's problem JSON here".to_string(),
        ),
        Err((status, why)) => {
            if let Some(from) = from {
                let _ = sender.send(Posted::Refused {
                    from,
                    why: why.clone(),
                });
            }
            (status, why)
        }
    };
    let _ = answer(&mut stream, status, &text);
}

/// Reads one request: the problem it posted, `None` for a request that is not a post (a GET
/// is answered with what listens here), or the status and the reason it is refused with.
fn receive(stream: &mut TcpStream, cap: usize) -> Result<Option<Task>, (u16, String)> {
    let (head, mut body) = read_head(stream)?;
    let request = Head::parse(&head).map_err(|why| (400, why))?;
    request.check_sender().map_err(|why| (403, why))?;
    match request.method.as_str() {
        "POST" => {}
        "GET" | "HEAD" => return Ok(None),
        other => return Err((405, format!("{other} is not taken: POST a problem"))),
    }
    let length = request.content_length(cap)?;
    if request
        .header("expect")
        .is_some_and(|e| e.eq_ignore_ascii_case("100-continue"))
    {
        let _ = stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n");
    }
    if body.len() < length {
        let mut rest = vec![0; length - body.len()];
        stream.read_exact(&mut rest).map_err(|e| {
            (
                400,
                format!("the body ended after {} of {length} bytes: {e}", body.len()),
            )
        })?;
        body.extend(rest);
    }
    body.truncate(length);
    parse_task(&body).map(Some).map_err(|why| (400, why))
}

/// The request's head (up to the blank line) and the bytes of the body read with it.
fn read_head(stream: &mut TcpStream) -> Result<(String, Vec<u8>), (u16, String)> {
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
        match stream.read(&mut chunk) {
            Ok(0) => return Err((400, "the connection ended before the request's head".into())),
            Ok(n) => bytes.extend_from_slice(&chunk[..n]),
            Err(e) => return Err((408, format!("the request's head did not come: {e}"))),
        }
    }
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

/// Answers with `status` and a line of text, and closes.
fn answer(stream: &mut TcpStream, status: u16, text: &str) -> std::io::Result<()> {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Content Too Large",
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
