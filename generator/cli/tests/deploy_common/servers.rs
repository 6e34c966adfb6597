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
