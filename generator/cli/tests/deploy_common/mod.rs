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

