//! Just enough HTTP/1.1 for a local preview: a request head of bounded
//! size, no request bodies (only GET and HEAD are answered) and one request
//! per connection (every answer closes it), so nothing waits on a
//! connection that a browser keeps open for later.

use std::io::{self, Read, Write};

/// The largest request head read; browsers send well under 8 KiB.
pub const MAX_HEAD: usize = 16 * 1024;

/// A request line and its headers.
#[derive(Debug, PartialEq, Eq)]
pub struct Request {
    pub method: String,
    /// As sent: path, query and all.
    pub target: String,
    /// In the order sent, names as sent.
    pub headers: Vec<(String, String)>,
}

impl Request {
    /// The target without its query.
    pub fn path(&self) -> &str {
        self.target.split(['?', '#']).next().unwrap_or_default()
    }

    /// Every value of the header `name` (any case).
    pub fn header_values<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> {
        self.headers.iter().filter(move |(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    pub fn is_head(&self) -> bool {
        self.method == "HEAD"
    }
}

/// Why no request could be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The client went away or was too slow; there is no one to answer.
    #[error("reading the request: {0}")]
    Io(#[from] io::Error),
    #[error("the request head is longer than {MAX_HEAD} bytes")]
    TooLarge,
    #[error("not an HTTP/1 request")]
    Malformed,
}

impl ReadError {
    /// The status that tells the client, if there is one to tell.
    pub fn status(&self) -> Option<u16> {
        match self {
            ReadError::Io(_) => None,
            ReadError::TooLarge => Some(431),
            ReadError::Malformed => Some(400),
        }
    }
}

/// Reads a request head (up to its blank line). What follows is ignored:
/// GET and HEAD have no body, and the connection closes after the answer.
pub fn read_request(reader: &mut impl Read) -> Result<Request, ReadError> {
    let mut head = Vec::with_capacity(1024);
    let mut chunk = [0u8; 1024];
    let end = loop {
        let read = reader.read(&mut chunk)?;
        if read == 0 {
            return Err(ReadError::Io(io::ErrorKind::UnexpectedEof.into()));
        }
        // The blank line may straddle two reads: look from a little before this one.
        let from = head.len().saturating_sub(3);
        head.extend_from_slice(&chunk[..read]);
        if let Some(end) = blank_line(&head[from..]) {
            break from + end;
        }
        if head.len() > MAX_HEAD {
            return Err(ReadError::TooLarge);
        }
    };
    if end > MAX_HEAD {
        return Err(ReadError::TooLarge);
    }
    parse_head(std::str::from_utf8(&head[..end]).map_err(|_| ReadError::Malformed)?)
}

/// Where the head ends: the start of its blank line (`\r\n\r\n` or a bare `\n\n`).
fn blank_line(bytes: &[u8]) -> Option<usize> {
    let crlf = bytes.windows(4).position(|w| w == b"\r\n\r\n");
    let lf = bytes.windows(2).position(|w| w == b"\n\n");
    match (crlf, lf) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

fn parse_head(head: &str) -> Result<Request, ReadError> {
    let mut lines = head.lines();
    let mut parts = lines.next().unwrap_or_default().split(' ');
    let (Some(method), Some(target), Some(version), None) = (parts.next(), parts.next(), parts.next(), parts.next()) else {
        return Err(ReadError::Malformed);
    };
    let token = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
    if !token(method) || target.is_empty() || !version.starts_with("HTTP/1.") {
        return Err(ReadError::Malformed);
    }
    let mut headers = Vec::new();
    for line in lines {
        let (name, value) = line.split_once(':').ok_or(ReadError::Malformed)?;
        if !token(name) {
            return Err(ReadError::Malformed);
        }
        headers.push((name.to_owned(), value.trim().to_owned()));
    }
    Ok(Request { method: method.to_owned(), target: target.to_owned(), headers })
}

/// Writes a whole answer and closes the exchange (`Connection: close`). A
/// HEAD request gets the head alone, with the length the body would have.
pub fn write_response(out: &mut impl Write, status: u16, headers: &[(&str, &str)], body: &[u8], head_only: bool) -> io::Result<()> {
    let mut message = format!("HTTP/1.1 {status} {}\r\n", reason(status));
    for (name, value) in headers {
        message.push_str(&format!("{name}: {value}\r\n"));
    }
    message.push_str(&format!("Content-Length: {}\r\nConnection: close\r\n\r\n", body.len()));
    let mut bytes = message.into_bytes();
    if !head_only {
        bytes.extend_from_slice(body);
    }
    out.write_all(&bytes)?;
    out.flush()
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        301 => "Moved Permanently",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        421 => "Misdirected Request",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hands out `bytes` a few at a time, as a network might.
    struct Trickle<'a>(&'a [u8]);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.0.len().min(buf.len()).min(3);
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn reads_a_request_head_however_it_arrives() {
        let sent = b"GET /a/b?x=1 HTTP/1.1\r\nHost: 127.0.0.1:1111\r\nAccept:  text/html \r\n\r\nleft alone";
        let request = read_request(&mut Trickle(sent)).unwrap();
        assert_eq!(request.method, "GET");
        assert_eq!(request.target, "/a/b?x=1");
        assert_eq!(request.path(), "/a/b");
        assert_eq!(request.header_values("host").collect::<Vec<_>>(), ["127.0.0.1:1111"]);
        assert_eq!(request.header_values("ACCEPT").collect::<Vec<_>>(), ["text/html"]);
        let bare = read_request(&mut &b"HEAD / HTTP/1.0\n\n"[..]).unwrap();
        assert!(bare.is_head() && bare.headers.is_empty());
    }

    #[test]
    fn refuses_what_is_not_a_request() {
        for sent in [&b"GET /\r\n\r\n"[..], b"GET / HTTP/2\r\n\r\n", b"GET / HTTP/1.1 x\r\n\r\n", b"GET / HTTP/1.1\r\nno colon\r\n\r\n", b"\xff / HTTP/1.1\r\n\r\n"] {
            let err = read_request(&mut &sent[..]).unwrap_err();
            assert_eq!(err.status(), Some(400), "{}", String::from_utf8_lossy(sent));
        }
        let long = format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", "a".repeat(MAX_HEAD));
        assert_eq!(read_request(&mut long.as_bytes()).unwrap_err().status(), Some(431));
        let endless = "a".repeat(4 * MAX_HEAD);
        assert_eq!(read_request(&mut endless.as_bytes()).unwrap_err().status(), Some(431), "stops reading at the limit");
        assert_eq!(read_request(&mut &b"GET / HTTP/1.1\r\n"[..]).unwrap_err().status(), None, "cut short: no one to tell");
    }

    #[test]
    fn writes_whole_answers_that_close_the_connection() {
        let mut out = Vec::new();
        write_response(&mut out, 421, &[("Content-Type", "text/plain")], b"no\n", false).unwrap();
        assert_eq!(out, b"HTTP/1.1 421 Misdirected Request\r\nContent-Type: text/plain\r\nContent-Length: 3\r\nConnection: close\r\n\r\nno\n");
        let mut head = Vec::new();
        write_response(&mut head, 200, &[], b"body", true).unwrap();
        assert_eq!(head, b"HTTP/1.1 200 OK\r\nContent-Length: 4\r\nConnection: close\r\n\r\n");
    }
}
