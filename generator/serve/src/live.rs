//! Live reload: the latest build's outcome, pushed to every open page as
//! server-sent events, and the small script that listens to them.
//!
//! Server-sent events rather than a websocket: the browser only listens, so
//! one long GET does, `EventSource` reconnects by itself, and the strict CSP
//! already allows it (`connect-src 'self'`).

use std::io::{self, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Mutex;
use std::time::Duration;

use serde::Serialize;

/// Where the server serves the script; never written into the site.
pub const LIVE_SCRIPT_PATH: &str = "/__modelpages/live.js";
/// Where pages listen for build outcomes.
pub const EVENTS_PATH: &str = "/__modelpages/events";
/// The script, served as it is (no build step: it is not part of the site).
pub const LIVE_SCRIPT: &str = include_str!("live.js");

/// A comment line this often keeps proxies from closing an idle stream and
/// finds out that a page has gone.
const KEEPALIVE: Duration = Duration::from_secs(15);

/// One build's outcome, as pages receive it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct BuildStatus {
    /// Changes each time the server starts, so a page reloads after a restart.
    pub server: String,
    /// Counts builds since the server started.
    pub build: u64,
    pub ok: bool,
    /// The line the terminal printed for this build, with paths relative to
    /// the working folder (see `relative`).
    pub summary: String,
    /// Each failed model's error, or why the whole build failed; paths as in `summary`.
    pub errors: Vec<String>,
}

/// The latest status and the pages listening for the next.
pub struct LiveReload {
    state: Mutex<LiveState>,
}

#[derive(Default)]
struct LiveState {
    latest: Option<String>,
    listeners: Vec<Sender<String>>,
    closed: bool,
}

impl Default for LiveReload {
    fn default() -> Self {
        LiveReload { state: Mutex::new(LiveState::default()) }
    }
}

impl LiveReload {
    /// Sends `status` to every listening page; pages that went away are dropped.
    pub fn publish(&self, status: &BuildStatus) {
        let event = status_event(status);
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.listeners.retain(|listener| listener.send(event.clone()).is_ok());
        state.latest = Some(event);
    }

    /// A new listener, which gets the latest status first; `None` once closed.
    pub fn subscribe(&self) -> Option<Receiver<String>> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if state.closed {
            return None;
        }
        let (sender, receiver) = mpsc::channel();
        if let Some(latest) = &state.latest {
            let _ = sender.send(latest.clone());
        }
        state.listeners.push(sender);
        Some(receiver)
    }

    /// Ends every stream (the server is stopping) and refuses new ones.
    pub fn close(&self) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.closed = true;
        state.listeners.clear();
    }
}

/// One `status` event. JSON escapes line breaks, so the data is one line.
fn status_event(status: &BuildStatus) -> String {
    let data = serde_json::to_string(status).expect("a status serialises");
    format!("event: status\ndata: {data}\n\n")
}

/// Writes the event stream's response head, then each event as it comes,
/// until the listener is closed or the page goes away.
///
/// The head is written here, not by `wire::write_response`, which writes
/// whole answers of known length: a stream has no length, and its events
/// must go out as they happen.
pub fn stream_events(mut writer: impl Write, events: Receiver<String>) -> io::Result<()> {
    writer.write_all(
        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n\
          retry: 1000\n\n",
    )?;
    writer.flush()?;
    loop {
        match events.recv_timeout(KEEPALIVE) {
            Ok(event) => writer.write_all(event.as_bytes())?,
            Err(RecvTimeoutError::Timeout) => writer.write_all(b": keepalive\n\n")?,
            Err(RecvTimeoutError::Disconnected) => return Ok(()),
        }
        writer.flush()?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(build: u64, errors: &[&str]) -> BuildStatus {
        BuildStatus {
            server: "s1".into(),
            build,
            ok: errors.is_empty(),
            summary: format!("build {build}"),
            errors: errors.iter().map(|e| e.to_string()).collect(),
        }
    }

    #[test]
    fn listeners_get_the_latest_status_then_each_new_one() {
        let live = LiveReload::default();
        live.publish(&status(1, &[]));
        let early = live.subscribe().unwrap();
        assert!(early.try_recv().unwrap().contains("\"build\":1"));
        live.publish(&status(2, &["models/a/b/model.json: broken\nsecond line"]));
        let event = early.try_recv().unwrap();
        assert!(event.starts_with("event: status\ndata: {"), "{event}");
        assert_eq!(event.matches('\n').count(), 3, "data stays on one line: {event:?}");
        assert!(event.contains(r#""ok":false"#) && event.contains(r#"broken\nsecond line"#), "{event}");
        let late = live.subscribe().unwrap();
        assert!(late.try_recv().unwrap().contains("\"build\":2"), "a new page learns the current state");
        live.close();
        assert!(early.recv().is_err(), "closing ends every stream");
        assert!(live.subscribe().is_none());
    }

    #[test]
    fn the_stream_writes_a_head_then_events_and_ends_when_closed() {
        let (sender, receiver) = mpsc::channel();
        sender.send(status_event(&status(7, &[]))).unwrap();
        drop(sender);
        let mut out = Vec::new();
        stream_events(&mut out, receiver).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"), "{text}");
        assert!(text.ends_with("data: {\"server\":\"s1\",\"build\":7,\"ok\":true,\"summary\":\"build 7\",\"errors\":[]}\n\n"), "{text}");
    }
}
