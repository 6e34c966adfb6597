//! What the deploy tests share: a small site built into `dist`, runs of
//! `modelpages deploy`, and (in `servers`) the S3 and WebDAV servers the
//! tests start on 127.0.0.1.
#![allow(dead_code)]

pub mod servers;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::common::*;

/// Output of one `modelpages deploy`.
pub struct DeployRun {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

pub fn deploy(out: &Path, dest: &str, args: &[&str]) -> DeployRun {
    deploy_with(out, dest, args, &[])
}

/// `modelpages deploy` with these environment variables set.
pub fn deploy_with(out: &Path, dest: &str, args: &[&str], env: &[(&str, &str)]) -> DeployRun {
    let mut command = modelpages();
    command.arg("deploy").arg(dest).arg("--out").arg(out).args(args);
    for (key, value) in env {
        command.env(key, value);
    }
    let output = command.output().unwrap();
    DeployRun {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Every file under `dir` by relative path, with its inode.
pub fn inodes(dir: &Path) -> BTreeMap<String, u64> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| (e.path().strip_prefix(dir).unwrap().to_string_lossy().into_owned(), inode(e.path())))
        .collect()
}

/// Paths whose inode changed or that are new: the files a deploy wrote.
pub fn written(before: &BTreeMap<String, u64>, after: &BTreeMap<String, u64>) -> Vec<String> {
    after.iter().filter(|(path, ino)| before.get(*path) != Some(ino)).map(|(p, _)| p.clone()).collect()
}

pub struct Site {
    _tmp: tempfile::TempDir,
    pub root: PathBuf,
    pub models: PathBuf,
    pub out: PathBuf,
    pub www: PathBuf,
}

impl Site {
    /// A small corpus built into `dist`, with `www` as the destination.
    pub fn new(count: usize) -> Site {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().to_owned();
        let models = root.join("models");
        synthetic_corpus(&models, count, "first");
        let out = root.join("dist");
        let site = Site { models, out, www: root.join("www"), root, _tmp: tmp };
        site.build();
        site
    }

    pub fn build(&self) {
        let run = build(&self.models, &self.out, &site_src());
        assert_eq!(run.code, 0, "{}", run.stderr);
    }

    pub fn dest(&self) -> String {
        format!("file://{}", self.www.display())
    }

    pub fn deploy(&self, args: &[&str]) -> DeployRun {
        deploy(&self.out, &self.dest(), args)
    }

    pub fn change_set(&self) -> serde_json::Value {
        serde_json::from_slice(&fs::read(self.root.join(".dist.changes")).unwrap()).unwrap()
    }

    pub fn add_model(&self, id: &str) {
        write(&self.models, &format!("{id}/model.json"), &format!(
            r#"{{"id": "{id}", "pipeline_tag": "text-classification", "library_name": "transformers", "downloads": 3}}"#
        ));
    }
}

pub fn assert_ok(run: &DeployRun) {
    assert_eq!(run.code, 0, "stdout: {}\nstderr: {}", run.stdout, run.stderr);
}


/// `modelpages deploy` of `out` to `host`.
pub fn deploy_to(host: &servers::TestHost, out: &Path, args: &[&str]) -> DeployRun {
    deploy_with(out, &host.dest, args, &host.env())
}

/// The destination as a deploy shows and records it, from its last line.
pub fn shown_destination(run: &DeployRun) -> String {
    let line = run.stderr.lines().find(|l| l.starts_with("deployed to ")).unwrap_or_else(|| panic!("{}", run.stderr));
    line["deployed to ".len()..].rsplit_once(": uploaded ").unwrap().0.to_owned()
}

/// Starts a deploy of `out` to `host` slowed by `pause_ms` an upload, and
/// kills it once its journal records `uploads` of them.
pub fn kill_midway(host: &servers::TestHost, out: &Path, pause_ms: u64, uploads: usize) {
    let mut child = crate::common::modelpages()
        .arg("deploy")
        .arg(&host.dest)
        .arg("--out")
        .arg(out)
        .envs(host.env())
        .env("MODELPAGES_DEPLOY_PAUSE_MS", pause_ms.to_string())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let journal = out.with_file_name(format!(".{}.deploy", out.file_name().unwrap().to_string_lossy()));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    // The header line, then one line an upload.
    while fs::read_to_string(&journal).map_or(0, |j| j.lines().count()) < uploads + 1 {
        assert!(std::time::Instant::now() < deadline, "the deploy never got going");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    child.kill().unwrap();
    child.wait().unwrap();
}

/// The site's files by relative path with the MD5 of their bytes: what a
/// destination holds after a complete deploy.
pub fn site_files(out: &Path) -> BTreeMap<String, String> {
    servers::md5_files(out)
}
