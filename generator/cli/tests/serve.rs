//! `modelpages serve`, end to end: the real binary on a copy of a few corpus
//! models, driven over HTTP like a browser would, and stopped with SIGINT.
#![cfg(unix)]

use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, ChildStderr, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::common::*;

const WAIT: Duration = Duration::from_secs(60);
const LIVE_TAG: &str = "<script src=\"/__modelpages/live.js\" defer></script>";

/// Text that a reader thread keeps appending to (the terminal, an event stream).
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<String>>);

impl Captured {
    fn follow(reader: impl Read + Send + 'static) -> Captured {
        let captured = Captured::default();
        let text = Arc::clone(&captured.0);
        std::thread::spawn(move || {
            let mut reader = BufReader::new(reader);
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 0) {
                text.lock().unwrap().push_str(&line);
                line.clear();
            }
        });
        captured
    }

    fn text(&self) -> String {
        self.0.lock().unwrap().clone()
    }
}

/// The server process; killed if a test fails before stopping it.
struct Server {
    child: Child,
    terminal: Captured,
    port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    fn start(dir: &Path, models: &Path, config: &Path) -> Server {
        let mut child = modelpages()
            .arg("serve")
            .args(["--port", "0"])
            .arg("--models").arg(models)
            .arg("--out").arg(dir.join("dist"))
            .arg("--site-src").arg(site_src())
            .arg("--config").arg(config)
            .current_dir(dir)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stderr: ChildStderr = child.stderr.take().unwrap();
        let terminal = Captured::follow(stderr);
        let mut server = Server { child, terminal, port: 0 };
        server.wait_for("the serving line", |s| s.terminal.text().contains("serving http://127.0.0.1:"));
        let text = server.terminal.text();
        let port = text.split("serving http://127.0.0.1:").nth(1).unwrap().split('/').next().unwrap();
        server.port = port.parse().unwrap();
        server
    }

    /// Polls `ready` until it holds; fails with the terminal output after [`WAIT`].
    fn wait_for(&self, what: &str, mut ready: impl FnMut(&Server) -> bool) {
        let started = Instant::now();
        while !ready(self) {
            assert!(started.elapsed() < WAIT, "timed out waiting for {what}; terminal:\n{}", self.terminal.text());
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// A new connection that has sent `head` (a request line and headers, without the blank line).
    fn send(&self, head: &str) -> TcpStream {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        stream.set_read_timeout(Some(WAIT)).unwrap();
        // In one write, as a browser sends it: a server that refuses the
        // connection at once may have closed it after the first piece of a
        // head sent in several, and the next write would fail.
        stream.write_all(format!("{head}\r\n\r\n").as_bytes()).unwrap();
        stream
    }

    /// An HTTP/1.0 GET as a browser sends it (so the answer ends when the connection closes): (status, body).
    fn get(&self, path: &str) -> (u16, String) {
        let mut stream = self.send(&format!("GET {path} HTTP/1.0\r\nHost: 127.0.0.1:{}", self.port));
        let mut answer = Vec::new();
        // A refused connection may end in a reset after its answer: what came is enough.
        let _ = stream.read_to_end(&mut answer);
        let answer = String::from_utf8_lossy(&answer);
        let body = answer.split_once("\r\n\r\n").map(|(_, b)| b.to_owned()).unwrap_or_default();
        (status_of(&answer), body)
    }

    fn header_of(&self, path: &str, name: &str) -> String {
        let mut stream = self.send(&format!("GET {path} HTTP/1.0\r\nHost: localhost:{}", self.port));
        let head = head_of(&mut stream);
        head.lines().find_map(|l| l.strip_prefix(&format!("{name}: ")).map(str::to_owned)).unwrap_or_default()
    }

    fn events(&self) -> Captured {
        let stream = self.send(&format!("GET /__modelpages/events HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nAccept: text/event-stream", self.port));
        Captured::follow(stream)
    }

    /// A field of the server process's `/proc` status, as it is now.
    #[cfg(target_os = "linux")]
    fn status_field(&self, name: &str) -> usize {
        let status = fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        status.lines().find_map(|l| l.strip_prefix(name)?.strip_prefix(':')).unwrap().trim().parse().unwrap()
    }

    /// The number of threads the server process has now.
    #[cfg(target_os = "linux")]
    fn threads(&self) -> usize {
        self.status_field("Threads")
    }
}

/// Reads an answer's head (up to the blank line), leaving the rest, such as an event stream, unread.
fn head_of(stream: &mut TcpStream) -> String {
    let mut head = Vec::new();
    let mut byte = [0u8];
    while !head.ends_with(b"\r\n\r\n") && stream.read(&mut byte).is_ok_and(|n| n == 1) {
        head.push(byte[0]);
    }
    String::from_utf8_lossy(&head).into_owned()
}

/// The status code of an answer (0 if there was none).
fn status_of(answer: &str) -> u16 {
    answer.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0)
}

/// The `data:` of every status event so far, parsed.
fn statuses(events: &Captured) -> Vec<serde_json::Value> {
    events.text().lines().filter_map(|l| l.strip_prefix("data: ")).map(|d| serde_json::from_str(d).unwrap()).collect()
}

fn copy_models(to: &Path, ids: &[&str]) {
    for id in ids {
        for entry in walkdir::WalkDir::new(repo_root().join("models").join(id)) {
            let entry = entry.unwrap();
            let rel = entry.path().strip_prefix(repo_root().join("models")).unwrap();
            if entry.file_type().is_file() {
                fs::create_dir_all(to.join(rel).parent().unwrap()).unwrap();
                fs::copy(entry.path(), to.join(rel)).unwrap();
            }
        }
    }
}

#[test]
fn serve_rebuilds_on_change_shows_errors_until_fixed_and_stops_on_sigint() {
    let tmp = tempfile::tempdir().unwrap();
    let models = tmp.path().join("models");
    copy_models(&models, &["openai-community/gpt2", "FacebookAI/roberta-base", "google/flan-t5-base"]);
    let config = tmp.path().join("modelpages.toml");
    fs::write(&config, "title = \"Preview one\"\n").unwrap();
    let server = Server::start(tmp.path(), &models, &config);
    assert!(server.terminal.text().contains("built 3 models, 0 failed"), "{}", server.terminal.text());

    // Pages are served with the live script; the built site holds none of it.
    let (status, page) = server.get("/openai-community/gpt2/");
    assert_eq!(status, 200);
    assert!(page.contains("<title>openai-community/gpt2 · Preview one</title>"), "{page}");
    assert!(page.contains(LIVE_TAG), "{page}");
    let built = fs::read_to_string(tmp.path().join("dist/openai-community/gpt2/index.html")).unwrap();
    assert!(!built.contains("__modelpages"), "the live script is added when serving, not written");
    assert!(!tmp.path().join("dist/__modelpages").exists());
    let (status, script) = server.get("/__modelpages/live.js");
    assert_eq!(status, 200);
    assert!(script.contains("new EventSource(\"/__modelpages/events\")"));
    assert_eq!(server.header_of("/openai-community/gpt2/notebook.ipynb", "Content-Type"), "application/x-ipynb+json");
    assert_eq!(server.get("/openai-community/gpt2").0, 301, "folders get their slash");
    for escape in ["/../../../../etc/passwd", "/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2f..%2fetc%2fpasswd"] {
        let (status, body) = server.get(escape);
        assert_eq!(status, 404, "{escape}");
        assert!(!body.contains("root:"), "{escape}");
    }
    let events = server.events();
    server.wait_for("the first status event", |_| statuses(&events).len() == 1);
    assert_eq!(statuses(&events)[0]["ok"], true);

    // Change a record: the page changes, and open pages are told to reload.
    let record_path = models.join("openai-community/gpt2/model.json");
    let mut record: serde_json::Value = serde_json::from_slice(&fs::read(&record_path).unwrap()).unwrap();
    record["tags"].as_array_mut().unwrap().push("mp-live-change".into());
    fs::write(&record_path, serde_json::to_vec(&record).unwrap()).unwrap();
    server.wait_for("the changed page", |s| s.get("/openai-community/gpt2/").1.contains("mp-live-change"));
    server.wait_for("a status event for the rebuild", |_| statuses(&events).last().is_some_and(|s| s["build"].as_u64() > Some(1)));
    assert_eq!(statuses(&events).last().unwrap()["ok"], true);

    // Break a record: the error reaches the terminal and the pages, the server stays up.
    let broken = models.join("FacebookAI/roberta-base/model.json");
    let original = fs::read(&broken).unwrap();
    fs::write(&broken, "{\"id\": \"FacebookAI/roberta-base\",\n  \"tags\": [\"a\" \"b\"]\n}\n").unwrap();
    server.wait_for("the error event", |_| statuses(&events).last().is_some_and(|s| s["ok"] == false));
    let failed = statuses(&events).last().unwrap().clone();
    let error = failed["errors"][0].as_str().unwrap().to_owned();
    assert!(error.ends_with("roberta-base/model.json:2:16: expected `,` or `]`"), "{failed}");
    // The terminal names the file as it was given (here absolute); pages get it relative to the working folder.
    assert!(server.terminal.text().contains(&format!("error: {}", tmp.path().join(&error).display())), "{}", server.terminal.text());
    let (status, missing) = server.get("/FacebookAI/roberta-base/");
    assert_eq!(status, 404, "the broken model's page is gone until it is fixed");
    assert!(missing.contains(LIVE_TAG), "the 404 page listens too, so it shows the error and reloads when fixed");
    assert_eq!(server.get("/openai-community/gpt2/").0, 200, "the rest of the site is still served");

    // Fix it: the next status is good again and the page is back.
    fs::write(&broken, &original).unwrap();
    let failed_build = failed["build"].as_u64().unwrap();
    server.wait_for("the fixed build", |_| {
        statuses(&events).last().is_some_and(|s| s["ok"] == true && s["build"].as_u64() > Some(failed_build))
    });
    assert_eq!(server.get("/FacebookAI/roberta-base/").0, 200);

    // The settings file is watched too; a broken one is shown like a broken record.
    fs::write(&config, "title = \n").unwrap();
    server.wait_for("the settings error", |_| {
        statuses(&events).last().is_some_and(|s| s["ok"] == false && s["errors"][0].as_str().unwrap().contains("modelpages.toml"))
    });
    fs::write(&config, "title = \"Preview two\"\n").unwrap();
    server.wait_for("the new title", |s| s.get("/openai-community/gpt2/").1.contains("<title>openai-community/gpt2 · Preview two</title>"));

    // Ctrl-C: a clean stop, exit code 0, and open event streams end.
    let mut server = server;
    // SAFETY: kill(2) on our own child's pid with a valid signal number.
    assert_eq!(unsafe { libc::kill(server.child.id() as libc::pid_t, libc::SIGINT) }, 0);
    let started = Instant::now();
    let status = loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            break status;
        }
        assert!(started.elapsed() < WAIT, "still running after SIGINT:\n{}", server.terminal.text());
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(status.code(), Some(0), "{}", server.terminal.text());
    server.wait_for("the stop message", |s| s.terminal.text().contains("stopping"));
}

#[test]
fn a_port_in_use_is_an_error() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    let tmp = tempfile::tempdir().unwrap();
    synthetic_corpus(&tmp.path().join("models"), 1, "x");
    let run: Run = modelpages()
        .arg("serve").args(["--port", &port.to_string()])
        .arg("--models").arg(tmp.path().join("models"))
        .arg("--out").arg(tmp.path().join("dist"))
        .arg("--site-src").arg(site_src())
        .current_dir(tmp.path())
        .output().unwrap().into();
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains(&format!("cannot listen on 127.0.0.1:{port}")), "{}", run.stderr);
}

/// A server on a few synthetic models, started in `dir` with absolute paths.
fn small_server(dir: &Path) -> Server {
    synthetic_corpus(&dir.join("models"), 2, "x");
    let config = dir.join("modelpages.toml");
    fs::write(&config, "").unwrap();
    Server::start(dir, &dir.join("models"), &config)
}

#[test]
fn only_loopback_names_with_the_servers_port_are_answered() {
    let tmp = tempfile::tempdir().unwrap();
    let server = small_server(tmp.path());
    let port = server.port;
    let status = |path: &str, host_lines: &str| {
        let mut stream = server.send(&format!("GET {path} HTTP/1.1\r\n{host_lines}Connection: close"));
        status_of(&head_of(&mut stream))
    };
    let other_port = port ^ 1;
    // A page whose own name was made to resolve to 127.0.0.1 (DNS rebinding) still sends its own name.
    let foreign = [
        format!("evil.example:{port}"),
        format!("localhost.evil.example:{port}"),
        "localhost.evil.example".to_owned(),
        format!("127.0.0.1.evil.example:{port}"),
        format!("127.0.0.1:{other_port}"),
        "127.0.0.1".to_owned(),
        format!("localhost:{port}x"),
        String::new(),
    ];
    for path in ["/", "/ns0/model-0/", "/__modelpages/live.js", "/__modelpages/events"] {
        for host in [format!("127.0.0.1:{port}"), format!("localhost:{port}"), format!("LocalHost:{port}"), format!("[::1]:{port}")] {
            assert_eq!(status(path, &format!("Host: {host}\r\n")), 200, "{path} with Host: {host}");
        }
        for host in &foreign {
            assert_eq!(status(path, &format!("Host: {host}\r\n")), 421, "{path} with Host: {host}");
        }
        assert_eq!(status(path, ""), 421, "{path} without Host");
        assert_eq!(status(path, &format!("Host: 127.0.0.1:{port}\r\nHost: evil.example:{port}\r\n")), 421, "{path} with two");
    }
    let mut stream = server.send(&format!("GET /__modelpages/events HTTP/1.1\r\nHost: evil.example:{port}"));
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 421 "), "{answer}");
    assert!(!answer.contains("data:") && !answer.contains(&tmp.path().display().to_string()), "no event for a foreign name: {answer}");
}

#[test]
#[cfg(target_os = "linux")]
fn the_program_runs_without_transparent_huge_pages() {
    // Asked for at start (see `no_huge_pages` in main.rs): a long-running
    // process shows it in its status.
    let tmp = tempfile::tempdir().unwrap();
    let server = small_server(tmp.path());
    assert_eq!(server.status_field("THP_enabled"), 0);
}

#[cfg(target_os = "linux")]
#[test]
fn event_streams_and_request_threads_are_bounded() {
    use modelpages_serve::{MAX_EVENT_STREAMS, MAX_REQUESTS};
    let tmp = tempfile::tempdir().unwrap();
    let server = small_server(tmp.path());
    let before = server.threads();

    let extra = 40;
    let events_request = format!("GET /__modelpages/events HTTP/1.1\r\nHost: 127.0.0.1:{}", server.port);
    // One after another, so that each is refused or kept for the streams alone, not for requests at once.
    let (streams, statuses): (Vec<TcpStream>, Vec<u16>) = (0..MAX_EVENT_STREAMS + extra)
        .map(|_| {
            let mut stream = server.send(&events_request);
            let status = status_of(&head_of(&mut stream));
            (stream, status)
        })
        .unzip();
    assert_eq!(statuses.iter().filter(|&&s| s == 200).count(), MAX_EVENT_STREAMS, "{statuses:?}");
    assert_eq!(statuses.iter().filter(|&&s| s == 503).count(), extra, "past the limit, 503 at once: {statuses:?}");
    // One thread per open stream and no more: the refused ones and their requests leave none behind.
    server.wait_for("the threads of refused streams to end", |s| s.threads() <= before + MAX_EVENT_STREAMS);
    assert_eq!(server.get("/ns0/model-0/").0, 200, "pages are still served while the streams are held");

    // Connections that never send a request hold a request thread each, up
    // to the limit: while they are new, another gets 503 at once; once they
    // have waited past the patience (2 s), a request takes the place of the
    // one that waited longest, and the threads stay as many.
    let opened = Instant::now();
    let idle: Vec<TcpStream> = (0..MAX_REQUESTS).map(|_| TcpStream::connect(("127.0.0.1", server.port)).unwrap()).collect();
    let status = server.get("/ns0/model-0/").0;
    if opened.elapsed() < Duration::from_secs(1) {
        assert_eq!(status, 503, "past the limit, 503 at once");
    }
    std::thread::sleep(Duration::from_millis(2100));
    assert_eq!(server.get("/ns0/model-0/").0, 200, "a request takes the place of a connection that sent nothing");
    assert!(server.threads() <= before + MAX_EVENT_STREAMS + MAX_REQUESTS, "{} threads", server.threads());
    drop(idle);
    server.wait_for("the request threads to be free again", |s| s.get("/ns0/model-0/").0 == 200);
    drop(streams);
}

#[test]
fn events_name_files_relative_to_the_working_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let models = tmp.path().join("models");
    synthetic_corpus(&models, 2, "x");
    write(&models, "ns1/model-1/model.json", "{\"id\": \"ns1/model-1\",\n  \"tags\": [\"a\" \"b\"]\n}\n");
    let config = tmp.path().join("modelpages.toml");
    fs::write(&config, "").unwrap();
    let server = Server::start(tmp.path(), &models, &config);
    let absolute = tmp.path().display().to_string();
    assert!(server.terminal.text().contains(&format!("error: {absolute}/models/ns1/model-1/model.json:2:16")), "the terminal names it as given");

    let events = server.events();
    server.wait_for("the first status event", |_| statuses(&events).len() == 1);
    let first = statuses(&events)[0].clone();
    assert_eq!(first["errors"][0], "models/ns1/model-1/model.json:2:16: expected `,` or `]`", "{first}");

    // A broken settings file: the summary names the output folder, the error the file.
    fs::write(&config, "title = \n").unwrap();
    let settings_failed = |s: &serde_json::Value| s["summary"].as_str().is_some_and(|t| t.starts_with("settings not read"));
    server.wait_for("the settings error", |_| statuses(&events).last().is_some_and(settings_failed));
    let settings = statuses(&events).last().unwrap().clone();
    assert_eq!(settings["summary"], "settings not read; dist was left as it was", "{settings}");
    assert!(settings["errors"][0].as_str().unwrap().starts_with("modelpages.toml"), "{settings}");
    assert!(!events.text().contains(&absolute), "no absolute path reaches a page: {}", events.text());
}
