//! Helpers shared by the end-to-end tests: run the real binary on real folders.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

pub fn site_src() -> PathBuf {
    repo_root().join("site-src")
}

pub fn modelpages() -> Command {
    Command::new(env!("CARGO_BIN_EXE_modelpages"))
}

pub struct Run {
    pub code: i32,
    pub stderr: String,
}

impl From<Output> for Run {
    fn from(out: Output) -> Run {
        Run { code: out.status.code().unwrap_or(-1), stderr: String::from_utf8_lossy(&out.stderr).into_owned() }
    }
}

pub fn build(models: &Path, out: &Path, site_src: &Path) -> Run {
    build_with(&[], models, out, site_src)
}

/// `modelpages build` with `extra` options (`--base-url`, `--config`, ...)
/// before the folders.
pub fn build_with(extra: &[&std::ffi::OsStr], models: &Path, out: &Path, site_src: &Path) -> Run {
    build_with_env(extra, models, out, site_src, &[])
}

/// [`build_with`], with the environment variables `env` set.
pub fn build_with_env(extra: &[&std::ffi::OsStr], models: &Path, out: &Path, site_src: &Path, env: &[(&str, &str)]) -> Run {
    modelpages()
        .envs(env.iter().copied())
        .arg("build")
        .args(extra)
        .arg("--models")
        .arg(models)
        .arg("--out")
        .arg(out)
        .arg("--site-src")
        .arg(site_src)
        .output()
        .unwrap()
        .into()
}

/// `modelpages build --full`: every page rendered, nothing reused.
pub fn full_build(models: &Path, out: &Path, site_src: &Path) -> Run {
    modelpages().arg("build").arg("--full").arg("--models").arg(models).arg("--out").arg(out).arg("--site-src").arg(site_src)
        .output()
        .unwrap()
        .into()
}

/// The inode of a file: the same after a build means it was linked, not written.
#[cfg(unix)]
pub fn inode(path: &Path) -> u64 {
    std::os::unix::fs::MetadataExt::ino(&fs::metadata(path).unwrap())
}

pub fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

/// The marker at a site's root: it carries the identity of the folder's
/// own site, so two folders built from the same input differ by it alone.
pub const SITE_MARKER: &str = ".modelpages-site";

/// Every file under `dir` with the hash of its bytes, by relative path,
/// except the site's marker at its root (see [`SITE_MARKER`]).
pub fn snapshot(dir: &Path) -> BTreeMap<String, String> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file() && e.path() != dir.join(SITE_MARKER))
        .map(|e| {
            let rel = e.path().strip_prefix(dir).unwrap().to_string_lossy().into_owned();
            (rel, blake3::hash(&fs::read(e.path()).unwrap()).to_hex().to_string())
        })
        .collect()
}

/// The files of the snapshot `before` that the folder `dir` no longer has,
/// by relative path: what a deploy of `dir` over `before` must remove.
pub fn files_gone(before: &BTreeMap<String, String>, dir: &Path) -> Vec<String> {
    let now = snapshot(dir);
    before.keys().filter(|path| !now.contains_key(*path)).cloned().collect()
}

/// Writes `count` small valid models named `ns<i % 7>/model-<i>` with a card.
pub fn synthetic_corpus(root: &Path, count: usize, card_marker: &str) {
    for i in 0..count {
        let id = format!("ns{}/model-{i}", i % 7);
        write(root, &format!("{id}/model.json"), &format!(
            r#"{{"id": "{id}", "pipeline_tag": "text-classification", "library_name": "transformers", "tags": ["t{i}"], "downloads": {i}}}"#
        ));
        write(root, &format!("{id}/README.md"), &format!(
            "---\nlicense: mit\n---\n# {id}\n\n{card_marker}\n\n```python\nprint({i})\n```\n\n| a | b |\n|---|---|\n| {i} | x |\n"
        ));
    }
}

/// Copies a folder tree (files and folders only).
pub fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            fs::create_dir_all(&target).unwrap();
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A corpus built once for a test binary: its models and its site.
pub struct BuiltCorpus {
    pub models: PathBuf,
    pub dist: PathBuf,
    pub run: Run,
}

/// A fresh folder for this test process, `<prefix>-<pid>` under the target
/// folder's temporary one; the folders of runs that ended are removed first
/// (the static a test keeps its build in is never dropped).
pub fn process_folder(prefix: &str) -> PathBuf {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    for entry in fs::read_dir(tmp).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some(pid) = name.strip_prefix(prefix).and_then(|rest| rest.strip_prefix('-')) {
            if !Path::new("/proc").join(pid).exists() {
                let _ = fs::remove_dir_all(entry.path());
            }
        }
    }
    let root = tmp.join(format!("{prefix}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&root);
    root
}

/// Runs the examples checker (`modelpages snippets` on each model folder,
/// then python3 + pyflakes, ESLint, `bash -n`); returns how many passed.
pub fn check_examples(folders: impl IntoIterator<Item = PathBuf>) -> usize {
    let out = Command::new("python3")
        .arg(repo_root().join("tests/checkers/check_snippets.py"))
        .arg("--bin")
        .arg(env!("CARGO_BIN_EXE_modelpages"))
        .args(folders)
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "checker failed:\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let last = stdout.lines().last().unwrap_or("");
    let (passed, failed) = last.split_once(" passed, ").expect("closing line");
    assert_eq!(failed, "0 failed");
    passed.parse().unwrap()
}

/// No staging folder of a build is left beside the output in `parent`.
pub fn assert_no_staging_left(parent: &Path) {
    let leftovers: Vec<_> = fs::read_dir(parent)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tmp-"))
        .collect();
    assert!(leftovers.is_empty(), "staging folders left: {leftovers:?}");
}

pub mod listings;
