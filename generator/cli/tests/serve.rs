//! `modelpages serve`, end to end: the real binary on a copy of a few corpus
//! models, driven over HTTP like a browser would, and stopped with SIGINT.
#![cfg(unix)]

mod common;

use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, ChildStderr, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::*;

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

    /// An HTTP/1.0 GET (so the answer ends when the connection closes): (status, body).
    fn get(&self, path: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        write!(stream, "GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n").unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        let status = answer.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
        let body = answer.split_once("\r\n\r\n").map(|(_, b)| b.to_owned()).unwrap_or_default();
        (status, body)
    }

    fn header_of(&self, path: &str, name: &str) -> String {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        write!(stream, "GET {path} HTTP/1.0\r\n\r\n").unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        let head = answer.split("\r\n\r\n").next().unwrap_or_default().to_owned();
        head.lines().find_map(|l| l.strip_prefix(&format!("{name}: ")).map(str::to_owned)).unwrap_or_default()
    }

    fn events(&self) -> Captured {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        write!(stream, "GET /__modelpages/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n").unwrap();
        Captured::follow(stream)
    }
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
    assert!(server.terminal.text().contains(&format!("error: {error}")), "{}", server.terminal.text());
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
