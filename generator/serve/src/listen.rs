//! Accepting connections on 127.0.0.1: which are answered, and by how many
//! threads.
//!
//! Only requests whose `Host` is `localhost`, `127.0.0.1` or `[::1]` with
//! this server's port are answered; anything else gets 421. A page of another
//! site can have its own name resolve to 127.0.0.1 (DNS rebinding) and then
//! read this server as if it were its own origin, but its requests still
//! carry its own name. That check is what keeps other sites out, so the event
//! stream needs no `Origin` check: a page of another origin that opens it by
//! this server's name gets no CORS headers and cannot read it.
//!
//! Threads are bounded: each connection is read and answered on a thread of
//! its own, at most [`MAX_REQUESTS`] at once, and an event stream keeps its
//! thread, at most [`MAX_EVENT_STREAMS`] at once. Past either limit the
//! answer is 503 at once; nothing waits for a thread. A client that sends
//! its request head slowly holds a thread for a bounded time only, and when
//! every thread is taken a new connection takes the place of the one that
//! has been sending its head the longest (see `heads`).

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use crate::heads::{HeadLimits, Heads, UntilDeadline};
use crate::http::{self, SiteFiles};
use crate::live::{stream_events, EVENTS_PATH};
use crate::wire::{read_request, write_response, ReadError, Request};

/// Connections being read or answered at once, event streams aside.
pub const MAX_REQUESTS: usize = 32;
/// Event streams open at once: one per open page.
pub const MAX_EVENT_STREAMS: usize = 64;

/// A client that stops reading frees its thread after this long.
const WRITE_TIMEOUT: Duration = Duration::from_secs(30);
/// A failed accept (out of file descriptors, say) is tried again after this.
const ACCEPT_RETRY: Duration = Duration::from_millis(50);

const TEXT: &str = "text/plain; charset=utf-8";

/// The accepting thread and how to stop it.
pub struct Acceptor {
    port: u16,
    stopping: Arc<AtomicBool>,
    thread: JoinHandle<()>,
}

impl Acceptor {
    /// Accepts connections on `listener` (bound to 127.0.0.1) from a thread of its own.
    pub fn start(listener: TcpListener, port: u16, site: Arc<SiteFiles>) -> Acceptor {
        Acceptor::start_with(listener, port, site, HeadLimits::default())
    }

    /// [`Acceptor::start`] with `limits` on request heads (tests make them short).
    pub(crate) fn start_with(listener: TcpListener, port: u16, site: Arc<SiteFiles>, limits: HeadLimits) -> Acceptor {
        let stopping = Arc::new(AtomicBool::new(false));
        let shared = Arc::new(Shared {
            port,
            site,
            requests: Arc::new(Slots::new(MAX_REQUESTS)),
            streams: Arc::new(Slots::new(MAX_EVENT_STREAMS)),
            heads: Heads::default(),
            limits,
        });
        let thread = {
            let stopping = Arc::clone(&stopping);
            std::thread::spawn(move || accept(&listener, &stopping, &shared))
        };
        Acceptor { port, stopping, thread }
    }

    /// Stops accepting. Requests being answered finish on their own threads;
    /// event streams end when the live reload closes.
    pub fn stop(self) {
        self.stopping.store(true, Ordering::SeqCst);
        // `accept` blocks until a connection comes: make one.
        if TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
            let _ = self.thread.join();
        }
    }
}

/// What every connection's thread needs.
struct Shared {
    port: u16,
    site: Arc<SiteFiles>,
    requests: Arc<Slots>,
    streams: Arc<Slots>,
    /// Connections whose heads are being read.
    heads: Heads,
    limits: HeadLimits,
}

fn accept(listener: &TcpListener, stopping: &AtomicBool, shared: &Arc<Shared>) {
    for connection in listener.incoming() {
        if stopping.load(Ordering::SeqCst) {
            return;
        }
        let Ok(connection) = connection else {
            std::thread::sleep(ACCEPT_RETRY);
            continue;
        };
        let Some(slot) = shared.requests.take() else {
            if let Err(connection) = shared.heads.hand_over(connection, shared.limits.patience) {
                refuse_at_once(connection);
            }
            continue;
        };
        let shared = Arc::clone(shared);
        // A thread that cannot start drops the connection, which closes it.
        let _ = std::thread::Builder::new()
            .name("modelpages-request".into())
            .spawn(move || answer(connection, slot, &shared));
    }
}

/// 503 without reading the request, from the accepting thread: the
/// connection is new, so the short answer fits its send buffer and the
/// write cannot wait.
fn refuse_at_once(mut connection: TcpStream) {
    let _ = connection.set_nonblocking(true);
    // What has come of the request is read first: closing with unread bytes
    // would reset the connection, and the client might lose the answer.
    let _ = connection.read(&mut [0u8; 4096]);
    let _ = write_response(&mut connection, 503, &[("Content-Type", TEXT), ("Retry-After", "1")], b"too many requests at once\n", false);
    let _ = connection.shutdown(Shutdown::Write);
}

/// Reads one request and answers it, then closes the connection; or, if
/// the connection is cut while its head is read, answers the one handed
/// over in its place (see `heads`).
fn answer(mut connection: TcpStream, slot: Slot, shared: &Shared) {
    let read = loop {
        let _ = connection.set_write_timeout(Some(WRITE_TIMEOUT));
        // Events are small and must go out as they happen.
        let _ = connection.set_nodelay(true);
        let ticket = shared.heads.enter(&connection);
        let read = read_request(&mut UntilDeadline::new(&connection, shared.limits.deadline));
        match shared.heads.leave(ticket) {
            Some(handed) => connection = handed,
            None => break read,
        }
    };
    answer_on(&mut connection, read, slot, shared);
    // Closed only now, with the slots given back: a client that has seen
    // the end of its answer finds them free.
    drop(connection);
}

/// Holds `slot` until done, or until the connection turns into an event stream.
fn answer_on(connection: &mut TcpStream, read: Result<Request, ReadError>, slot: Slot, shared: &Shared) {
    let request = match read {
        Ok(request) => request,
        Err(err) => {
            if let Some(status) = err.status() {
                respond_text(connection, status, &format!("{err}\n"));
            }
            return;
        }
    };
    if !names_this_server(&request, shared.port) {
        let text = format!("this server answers only to localhost:{0}, 127.0.0.1:{0} and [::1]:{0}\n", shared.port);
        respond_text(connection, 421, &text);
        return;
    }
    if request.method == "GET" && request.path() == EVENTS_PATH {
        let Some(stream_slot) = shared.streams.take() else {
            respond_text(connection, 503, "too many event streams open; close some pages\n");
            return;
        };
        // From here on this thread counts as a stream, not a request.
        drop(slot);
        match shared.site.live.subscribe() {
            Some(events) => {
                let _ = stream_events(&mut *connection, events);
            }
            None => respond_text(connection, 503, "the server is stopping\n"),
        }
        drop(stream_slot);
        return;
    }
    http::handle(&request, connection, &shared.site);
}

fn respond_text(out: &mut impl Write, status: u16, text: &str) {
    let _ = write_response(out, status, &[("Content-Type", TEXT)], text.as_bytes(), false);
}

/// Whether the request's one `Host` is `localhost`, `127.0.0.1` or `[::1]`
/// (any case) with `port`. The port may be left out only when it is 80,
/// HTTP's own, as a browser would.
fn names_this_server(request: &Request, port: u16) -> bool {
    let mut hosts = request.header_values("Host");
    let (Some(host), None) = (hosts.next(), hosts.next()) else { return false };
    let (name, given_port) = match host.rfind(':') {
        // The colons of `[::1]` are not a port's.
        Some(colon) if !host[colon..].contains(']') => (&host[..colon], Some(&host[colon + 1..])),
        _ => (host, None),
    };
    let port_matches = match given_port {
        None => port == 80,
        Some(digits) => !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) && digits.parse() == Ok(port),
    };
    port_matches && ["localhost", "127.0.0.1", "[::1]"].iter().any(|known| name.eq_ignore_ascii_case(known))
}

/// A count of things allowed at once, taken without waiting.
struct Slots {
    taken: AtomicUsize,
    limit: usize,
}

/// One taken slot, given back when dropped.
struct Slot(Arc<Slots>);

impl Slots {
    fn new(limit: usize) -> Slots {
        Slots { taken: AtomicUsize::new(0), limit }
    }

    /// A slot if one is free.
    fn take(self: &Arc<Self>) -> Option<Slot> {
        self.taken
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |taken| (taken < self.limit).then_some(taken + 1))
            .ok()
            .map(|_| Slot(Arc::clone(self)))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.taken.fetch_sub(1, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_hosts(hosts: &[&str]) -> Request {
        Request {
            method: "GET".into(),
            target: "/".into(),
            headers: hosts.iter().map(|h| ("host".to_owned(), (*h).to_owned())).collect(),
        }
    }

    #[test]
    fn only_loopback_names_with_the_port() {
        for host in ["localhost:1111", "127.0.0.1:1111", "[::1]:1111", "LOCALHOST:1111", "[::1]:01111"] {
            assert!(names_this_server(&with_hosts(&[host]), 1111), "{host}");
        }
        for host in [
            "evil.example:1111",
            "localhost.evil.example:1111",
            "localhost.evil.example",
            "127.0.0.1.nip.io:1111",
            "127.0.0.1:1112",
            "127.0.0.1:+1111",
            "127.0.0.1:",
            "127.0.0.1",
            "localhost",
            "[::1]",
            "::1:1111",
            "[::2]:1111",
            "localhost.:1111",
            "",
        ] {
            assert!(!names_this_server(&with_hosts(&[host]), 1111), "{host}");
        }
        assert!(!names_this_server(&with_hosts(&[]), 1111), "no Host");
        assert!(!names_this_server(&with_hosts(&["localhost:1111", "localhost:1111"]), 1111), "two");
        assert!(names_this_server(&with_hosts(&["localhost"]), 80), "HTTP's own port may be left out");
        assert!(names_this_server(&with_hosts(&["[::1]"]), 80));
    }

    use std::time::Instant;

    use crate::live::LiveReload;

    /// A server of a folder with one page, with `limits` on request heads.
    fn serving(limits: HeadLimits) -> (tempfile::TempDir, u16, Acceptor) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("index.html"), "<html><head></head><body>home</body></html>").unwrap();
        let site = Arc::new(SiteFiles {
            root: dir.path().to_owned(),
            mount: Arc::new(std::sync::Mutex::new("/".to_owned())),
            live: Arc::new(LiveReload::default()),
        });
        let listener = TcpListener::bind(("127.0.0.1", 0)).unwrap();
        let port = listener.local_addr().unwrap().port();
        (dir, port, Acceptor::start_with(listener, port, site, limits))
    }

    /// The status of a whole GET of `/`, sent at once as a browser does.
    fn get(port: u16) -> u16 {
        let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        write!(stream, "GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n").unwrap();
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        String::from_utf8_lossy(&answer).split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0)
    }

    /// A client that sends a request head a byte every `every`, never
    /// ending it, for at most `at_most`; how long until the server closed
    /// its connection (or `at_most`).
    fn slow_client(port: u16, every: Duration, at_most: Duration) -> std::thread::JoinHandle<Duration> {
        std::thread::spawn(move || {
            let started = Instant::now();
            let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
            let head = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ";
            let mut sent = 0;
            while started.elapsed() < at_most {
                let byte = head.get(sent).copied().unwrap_or(b'a');
                if stream.write_all(&[byte]).is_err() {
                    break;
                }
                sent += 1;
                std::thread::sleep(every);
            }
            started.elapsed()
        })
    }

    #[test]
    fn slow_request_heads_neither_hold_threads_for_long_nor_keep_requests_out() {
        let limits = HeadLimits { deadline: Duration::from_millis(1500), patience: Duration::from_millis(200) };
        let (_dir, port, acceptor) = serving(limits);
        assert_eq!(get(port), 200);
        // More slow clients than there are request threads, each sending a
        // byte well within any timeout on a single read.
        let at_most = Duration::from_secs(8);
        let slow: Vec<_> = (0..MAX_REQUESTS + 8).map(|_| slow_client(port, Duration::from_millis(100), at_most)).collect();
        std::thread::sleep(limits.patience + Duration::from_millis(200));
        // Each real request takes the thread of the slowest head.
        for _ in 0..10 {
            assert_eq!(get(port), 200, "a request is served while slow clients hold every thread");
        }
        // Every slow client is cut: for a newer connection, at once if
        // there is no thread for it, or at its deadline.
        for client in slow {
            let held = client.join().unwrap();
            assert!(held < limits.deadline + Duration::from_secs(2), "a slow head held its connection {held:?}");
        }
        assert_eq!(get(port), 200);
        acceptor.stop();
    }

    #[test]
    fn slots_are_taken_up_to_the_limit_and_given_back() {
        let slots = Arc::new(Slots::new(2));
        let first = slots.take().unwrap();
        let _second = slots.take().unwrap();
        assert!(slots.take().is_none());
        drop(first);
        assert!(slots.take().is_some());
    }
}
