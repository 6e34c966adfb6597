//! The servers the deploy tests upload to, started on 127.0.0.1 by the tests
//! and killed when dropped: moto's S3 server and WsgiDAV, both from PyPI
//! (`tests/deploy/requirements.txt`, installed by `make test`). Each logs
//! every request it answers, which the tests count.

use std::fs;
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::repo_root;

pub struct Server {
    child: Child,
    pub port: u16,
    log: PathBuf,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A port nobody listens on right now.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Fails loudly when a server's Python package is missing: these tests prove
/// the deploy against real servers and are not skipped.
fn require(module: &str) {
    let found = Command::new("python3").args(["-c", &format!("import {module}")]).status().is_ok_and(|s| s.success());
    assert!(found, "python3 cannot import {module}: `make test` installs it into target/checkers-venv and puts that first on PATH");
}

impl Server {
    fn start(args: &[&str], port: u16, log: PathBuf, module: &str) -> Server {
        require(module);
        let server = Server::spawn(args, port, log);
        server.wait_until_listening();
        server
    }

    /// Starts without waiting for the port (for a test that deploys first).
    fn spawn(args: &[&str], port: u16, log: PathBuf) -> Server {
        let file = fs::File::create(&log).unwrap();
        let child = Command::new("python3")
            .args(args)
            .env("PYTHONUNBUFFERED", "1")
            .stdin(Stdio::null())
            .stdout(file.try_clone().unwrap())
            .stderr(file)
            .spawn()
            .unwrap();
        Server { child, port, log }
    }

    fn wait_until_listening(&self) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(Instant::now() < deadline, "the server on port {} never listened: {}", self.port, self.log());
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Everything the server logged so far.
    pub fn log(&self) -> String {
        fs::read_to_string(&self.log).unwrap_or_default()
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

/// moto's S3 server, its log in `dir`.
pub fn s3(dir: &Path) -> Server {
    let port = free_port();
    let port_text = port.to_string();
    Server::start(&["-m", "moto.server", "-H", "127.0.0.1", "-p", &port_text], port, dir.join("moto.log"), "moto.server")
}

/// Runs `tests/deploy/s3_objects.py` against `server` with `env` in `mode`
/// (`--create`, `--list`, `--headers`).
pub fn s3_script(server: &Server, bucket: &str, env: &[(&str, &str)], mode: &str) -> serde_json::Value {
    let mut command = Command::new("python3");
    command.arg(repo_root().join("tests/deploy/s3_objects.py")).arg(server.url()).arg(bucket).arg(mode);
    for (key, value) in env {
        command.env(key, value);
    }
    let output = command.output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    if mode == "--create" {
        return serde_json::Value::Null;
    }
    serde_json::from_slice(&output.stdout).unwrap()
}

/// WsgiDAV serving `root` on `port` to `user` with `password` (basic auth).
fn wsgidav_config(dir: &Path, root: &Path, port: u16, user: &str, password: &str) -> PathBuf {
    fs::create_dir_all(root).unwrap();
    let config = serde_json::json!({
        "host": "127.0.0.1",
        "port": port,
        "provider_mapping": {"/": root.display().to_string()},
        "http_authenticator": {"domain_controller": null, "accept_basic": true, "accept_digest": false, "default_to_digest": false},
        "simple_dc": {"user_mapping": {"*": {user: {"password": password}}}},
        "dir_browser": {"enable": false},
        "verbose": 3,
        "logging": {"enable_loggers": []},
    });
    let path = dir.join(format!("wsgidav-{port}.json"));
    fs::write(&path, config.to_string()).unwrap();
    path
}

pub fn webdav(dir: &Path, root: &Path, user: &str, password: &str) -> Server {
    let port = free_port();
    let config = wsgidav_config(dir, root, port, user, password);
    let config = config.display().to_string();
    let log = dir.join(format!("wsgidav-{port}.log"));
    Server::start(&["-m", "wsgidav.server.server_cli", "-c", &config], port, log, "wsgidav.server.server_cli")
}

/// A WebDAV server on `port` that is started but not waited for.
pub fn webdav_starting(dir: &Path, root: &Path, port: u16, user: &str, password: &str) -> Server {
    require("wsgidav.server.server_cli");
    let config = wsgidav_config(dir, root, port, user, password).display().to_string();
    Server::spawn(&["-m", "wsgidav.server.server_cli", "-c", &config], port, dir.join(format!("wsgidav-{port}.log")))
}

/// Which kind of destination a [`TestHost`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostKind {
    Local,
    S3,
    WebDav,
}

/// A destination of each kind, seen from outside the deploy: its files by
/// path (relative to the destination) with the MD5 of their bytes, and
/// files put there or removed by someone else.
pub struct TestHost {
    pub kind: HostKind,
    pub dest: String,
    env: Vec<(&'static str, String)>,
    /// The folder the destination is (local), or that WebDAV serves.
    root: PathBuf,
    server: Option<Server>,
}

pub const S3_ACCESS_KEY: &str = "AKIAMODELPAGESFAKE7Q";
pub const S3_SECRET_KEY: &str = "wJalrXUtn-modelpages-FAKE-secret-Zq81";
pub const DAV_PASSWORD: &str = "dav-FAKE-password-modelpages-5521";
const BUCKET: &str = "site";
const PREFIX: &str = "hub";

fn md5_hex(bytes: &[u8]) -> String {
    use md5::Digest;
    md5::Md5::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// Every file under `dir` by relative path, with the MD5 of its bytes.
pub fn md5_files(dir: &Path) -> std::collections::BTreeMap<String, String> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| (e.path().strip_prefix(dir).unwrap().to_string_lossy().into_owned(), md5_hex(&fs::read(e.path()).unwrap())))
        .collect()
}

impl TestHost {
    pub fn local(dir: &Path) -> TestHost {
        let root = dir.join("www-local");
        TestHost { kind: HostKind::Local, dest: format!("file://{}", root.display()), env: Vec::new(), root, server: None }
    }

    pub fn s3(dir: &Path) -> TestHost {
        let server = s3(dir);
        let env = vec![
            ("AWS_ENDPOINT_URL", server.url()),
            ("AWS_ACCESS_KEY_ID", S3_ACCESS_KEY.to_owned()),
            ("AWS_SECRET_ACCESS_KEY", S3_SECRET_KEY.to_owned()),
            ("AWS_REGION", "us-east-1".to_owned()),
        ];
        let host = TestHost { kind: HostKind::S3, dest: format!("s3://{BUCKET}/{PREFIX}"), env, root: dir.to_owned(), server: Some(server) };
        host.script("--create", &[], None);
        host
    }

    pub fn webdav(dir: &Path) -> TestHost {
        let root = dir.join("dav-root");
        let server = webdav(dir, &root, "deployer", DAV_PASSWORD);
        let env = vec![("MODELPAGES_DEPLOY_USER", "deployer".to_owned()), ("MODELPAGES_DEPLOY_PASSWORD", DAV_PASSWORD.to_owned())];
        TestHost { kind: HostKind::WebDav, dest: format!("{}/", server.url()), env, root, server: Some(server) }
    }

    /// The environment a deploy to this host needs.
    pub fn env(&self) -> Vec<(&'static str, &str)> {
        self.env.iter().map(|(k, v)| (*k, v.as_str())).collect()
    }

    fn script(&self, mode: &str, keys: &[&str], stdin: Option<&[u8]>) -> serde_json::Value {
        let server = self.server.as_ref().expect("an S3 host has its server");
        let mut command = Command::new("python3");
        command.arg(repo_root().join("tests/deploy/s3_objects.py")).arg(server.url()).arg(BUCKET).arg(mode).args(keys);
        command.envs(self.env.iter().map(|(k, v)| (*k, v.as_str())));
        command.stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() }).stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut child = command.spawn().unwrap();
        if let Some(bytes) = stdin {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(bytes).unwrap();
        }
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        serde_json::from_slice(&output.stdout).unwrap_or(serde_json::Value::Null)
    }

    /// Every file the destination holds, by relative path, with its MD5.
    pub fn files(&self) -> std::collections::BTreeMap<String, String> {
        match self.kind {
            HostKind::Local | HostKind::WebDav => md5_files(&self.root),
            HostKind::S3 => {
                let listed = self.script("--list", &[], None);
                let prefix = format!("{PREFIX}/");
                listed
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter_map(|o| Some((o["key"].as_str()?.strip_prefix(&prefix)?.to_owned(), o["md5"].as_str()?.to_owned())))
                    .collect()
            }
        }
    }

    /// Puts a file there as its owner would, without the deploy.
    pub fn put(&self, rel: &str, bytes: &[u8]) {
        match self.kind {
            HostKind::Local | HostKind::WebDav => {
                let path = self.root.join(rel);
                fs::create_dir_all(path.parent().unwrap()).unwrap();
                fs::write(path, bytes).unwrap();
            }
            HostKind::S3 => {
                self.script("--put", &[&format!("{PREFIX}/{rel}")], Some(bytes));
            }
        }
    }

    /// Puts every file under `dir` there, at the same relative path, as
    /// `cp -a dir/. dest/` (or an upload by another tool) would.
    pub fn put_tree(&self, dir: &Path) {
        match self.kind {
            HostKind::Local | HostKind::WebDav => {
                for entry in walkdir::WalkDir::new(dir).into_iter().map(|e| e.unwrap()).filter(|e| e.file_type().is_file()) {
                    let target = self.root.join(entry.path().strip_prefix(dir).unwrap());
                    fs::create_dir_all(target.parent().unwrap()).unwrap();
                    fs::copy(entry.path(), target).unwrap();
                }
            }
            HostKind::S3 => {
                self.script("--put-tree", &[&dir.display().to_string(), PREFIX], None);
            }
        }
    }

    /// Empties the destination, as its owner would.
    pub fn clear(&self) {
        match self.kind {
            HostKind::Local | HostKind::WebDav => {
                for entry in fs::read_dir(&self.root).unwrap() {
                    let path = entry.unwrap().path();
                    if path.is_dir() { fs::remove_dir_all(path) } else { fs::remove_file(path) }.unwrap();
                }
            }
            HostKind::S3 => {
                let keys: Vec<String> = self.files().keys().map(|k| format!("{PREFIX}/{k}")).collect();
                let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
                self.script("--delete", &keys, None);
            }
        }
    }
}

/// A hostile server on 127.0.0.1: it says no file exists (HEAD: 404) and
/// refuses everything else with 403 and a body that echoes the request
/// (its `Authorization` header included), with terminal escape sequences,
/// `said` and 200 KB of padding. It answers at most `requests` requests,
/// then stops.
pub fn echo_server(said: &str, requests: usize) -> (u16, std::thread::JoinHandle<()>) {
    use std::io::{Read, Write};
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let said = said.to_owned();
    let handle = std::thread::spawn(move || {
        for stream in listener.incoming().take(requests) {
            let Ok(mut stream) = stream else { continue };
            stream.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
            let mut request = Vec::new();
            let mut buf = [0u8; 4096];
            while !request.windows(4).any(|w| w == b"\r\n\r\n") && request.len() < 65536 {
                match stream.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => request.extend_from_slice(&buf[..n]),
                }
            }
            let head = request.starts_with(b"HEAD ");
            let mut body = b"denied: ".to_vec();
            body.extend_from_slice(&request);
            body.extend_from_slice(format!("\x1b[2J\x1b]0;pwned\x07 {said} ").as_bytes());
            body.extend(std::iter::repeat_n(b'A', 200_000));
            let (status, body) = if head { ("404 Not Found", Vec::new()) } else { ("403 Forbidden", body) };
            let answer = format!("HTTP/1.1 {status}\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len());
            let _ = stream.write_all(answer.as_bytes()).and_then(|()| stream.write_all(&body));
        }
    });
    (port, handle)
}
