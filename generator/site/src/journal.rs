//! Changing a built site in place, for builds that touch a few files of a
//! large site (swapping in a whole new tree would mean linking every page).
//!
//! A transaction first writes every new file into a folder beside the output
//! (`.dist.txn`), then records the plan of renames and removals there
//! (`plan.json`, written then renamed: the commit point), then applies it. A
//! build killed before the commit point leaves the old site untouched (the next
//! build throws the folder away); one killed after it leaves a plan that the
//! next build finishes before doing anything else. Every file of the site is
//! replaced by a rename, so none is ever seen half-written.

use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::output::{io_error, sibling, OutputError, OutputLock};

const PLAN_FILE: &str = "plan.json";

/// One step of a plan, in the order they are applied.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
enum Step {
    /// Rename `files/<file>` to `<rel>` in the output.
    Write { rel: String, file: usize },
    /// Remove `<rel>` from the output, and its folders once empty.
    Remove { rel: String },
}

#[derive(Debug, Serialize, Deserialize)]
struct Plan {
    steps: Vec<Step>,
    /// Where the manifest goes once the site is changed (`files/<n>`).
    manifest: Option<(PathBuf, usize)>,
}

/// An in-place change being prepared.
#[derive(Debug)]
pub struct Transaction {
    out: PathBuf,
    dir: PathBuf,
    next: AtomicUsize,
    steps: Mutex<Vec<Step>>,
}

fn txn_dir(out: &Path) -> PathBuf {
    sibling(out, ".txn")
}

impl Transaction {
    /// Starts a transaction on `out`; [`recover`] must have run under the
    /// same lock, so no earlier transaction is left.
    pub fn begin(out: &Path, _lock: &OutputLock) -> Result<Transaction, OutputError> {
        let dir = txn_dir(out);
        let files = dir.join("files");
        fs::create_dir_all(&files).map_err(io_error(&files))?;
        Ok(Transaction { out: out.to_owned(), dir, next: AtomicUsize::new(0), steps: Mutex::new(Vec::new()) })
    }

    fn stage(&self, bytes: &[u8]) -> Result<usize, OutputError> {
        let file = self.next.fetch_add(1, Ordering::Relaxed);
        let path = self.dir.join("files").join(file.to_string());
        fs::write(&path, bytes).map_err(io_error(&path))?;
        Ok(file)
    }

    /// Will replace (or create) `rel` with `bytes`.
    pub fn write(&self, rel: &str, bytes: &[u8]) -> Result<(), OutputError> {
        let file = self.stage(bytes)?;
        self.steps.lock().expect("no panics while held").push(Step::Write { rel: rel.to_owned(), file });
        Ok(())
    }

    /// Like [`Transaction::write`], but leaves `rel` alone when it already
    /// holds exactly these bytes.
    pub fn write_if_changed(&self, rel: &str, bytes: &[u8]) -> Result<(), OutputError> {
        if same_bytes(&self.out.join(rel), bytes) {
            return Ok(());
        }
        self.write(rel, bytes)
    }

    /// Will remove `rel`, and its folders if that leaves them empty.
    pub fn remove(&self, rel: &str) {
        self.steps.lock().expect("no panics while held").push(Step::Remove { rel: rel.to_owned() });
    }

    /// The commit point, then the change itself; `manifest` is written last,
    /// to `manifest_path`.
    pub fn commit(self, manifest_path: &Path, manifest: &[u8]) -> Result<(), OutputError> {
        let mut steps = self.steps.into_inner().expect("no panics while held");
        // Removals first, so a file removed and written again (a model that
        // now writes fewer files) ends up written.
        steps.sort_by_key(|step| matches!(step, Step::Write { .. }));
        let file = {
            let file = self.next.load(Ordering::Relaxed);
            let path = self.dir.join("files").join(file.to_string());
            fs::write(&path, manifest).map_err(io_error(&path))?;
            file
        };
        // Folders are made before the commit point: a site folder that
        // refuses new entries then fails the build with the old site intact,
        // instead of leaving a plan that cannot be carried out.
        for step in &steps {
            if let Step::Write { rel, .. } = step {
                if let Some(parent) = inside(&self.out, rel)?.parent() {
                    fs::create_dir_all(parent).map_err(io_error(parent))?;
                }
            }
        }
        let plan = Plan { steps, manifest: Some((manifest_path.to_owned(), file)) };
        let json = serde_json::to_vec(&plan).expect("plans serialise");
        let staged = self.dir.join("plan.json.tmp");
        fs::write(&staged, json).map_err(io_error(&staged))?;
        let committed = self.dir.join(PLAN_FILE);
        fs::rename(&staged, &committed).map_err(io_error(&committed))?;
        apply(&self.out, &self.dir, &plan)?;
        fs::remove_dir_all(&self.dir).map_err(io_error(&self.dir))
    }
}

/// Finishes a committed transaction that a killed build left on `out`, or
/// throws away one that never reached its commit point.
pub fn recover(out: &Path, _lock: &OutputLock) -> Result<(), OutputError> {
    let dir = txn_dir(out);
    let committed = dir.join(PLAN_FILE);
    match fs::read(&committed) {
        Ok(bytes) => {
            let plan: Plan = serde_json::from_slice(&bytes).map_err(|e| OutputError::Io {
                path: committed.clone(),
                source: io::Error::new(io::ErrorKind::InvalidData, e),
            })?;
            apply(out, &dir, &plan)?;
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(source) => return Err(OutputError::Io { path: committed, source }),
    }
    match fs::remove_dir_all(&dir) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(OutputError::Io { path: dir, source: e }),
        _ => Ok(()),
    }
}

/// Carries out `plan`; safe to run again after being cut short, since a
/// staged file that is gone was already renamed into place.
fn apply(out: &Path, dir: &Path, plan: &Plan) -> Result<(), OutputError> {
    for step in &plan.steps {
        match step {
            Step::Write { rel, file } => {
                let target = inside(out, rel)?;
                if let Some(parent) = target.parent() {
                    fs::create_dir_all(parent).map_err(io_error(parent))?;
                }
                rename_staged(&dir.join("files").join(file.to_string()), &target)?;
            }
            Step::Remove { rel } => {
                let target = inside(out, rel)?;
                match fs::remove_file(&target) {
                    Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(OutputError::Io { path: target, source: e }),
                    _ => {}
                }
                // Empty model and namespace folders go too; a folder that
                // still holds something refuses, which is what we want.
                let mut folder = target.parent();
                while let Some(f) = folder.filter(|f| *f != out && f.starts_with(out)) {
                    if fs::remove_dir(f).is_err() {
                        break;
                    }
                    folder = f.parent();
                }
            }
        }
    }
    if let Some((path, file)) = &plan.manifest {
        rename_staged(&dir.join("files").join(file.to_string()), path)?;
    }
    Ok(())
}

fn rename_staged(staged: &Path, target: &Path) -> Result<(), OutputError> {
    match fs::rename(staged, target) {
        Err(e) if e.kind() == io::ErrorKind::NotFound && !staged.exists() => Ok(()),
        other => other.map_err(io_error(target)),
    }
}

/// `out/rel`, refusing anything that could leave `out`.
fn inside(out: &Path, rel: &str) -> Result<PathBuf, OutputError> {
    let path = Path::new(rel);
    if path.components().all(|c| matches!(c, Component::Normal(_))) {
        Ok(out.join(path))
    } else {
        Err(OutputError::Io {
            path: out.join(rel),
            source: io::Error::new(io::ErrorKind::InvalidInput, "not a plain relative path"),
        })
    }
}

/// Whether the file at `path` holds exactly `bytes`.
pub fn same_bytes(path: &Path, bytes: &[u8]) -> bool {
    fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() == bytes.len() as u64)
        && fs::read(path).is_ok_and(|old| old == bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::lock_output;

    fn site(dir: &Path) -> PathBuf {
        let out = dir.join("dist");
        fs::create_dir_all(out.join("ns/gone")).unwrap();
        fs::write(out.join("ns/gone/index.html"), "gone").unwrap();
        fs::write(out.join("index.html"), "old index").unwrap();
        out
    }

    #[test]
    fn a_commit_writes_removes_and_tidies_up() {
        let tmp = tempfile::tempdir().unwrap();
        let out = site(tmp.path());
        let lock = lock_output(&out).unwrap();
        recover(&out, &lock).unwrap();
        let txn = Transaction::begin(&out, &lock).unwrap();
        txn.write("ns/new/index.html", b"new").unwrap();
        txn.write_if_changed("index.html", b"old index").unwrap();
        txn.remove("ns/gone/index.html");
        let manifest = tmp.path().join(".dist.manifest");
        txn.commit(&manifest, b"{}").unwrap();
        assert_eq!(fs::read_to_string(out.join("ns/new/index.html")).unwrap(), "new");
        assert!(!out.join("ns/gone").exists(), "emptied folders are removed");
        assert_eq!(fs::read_to_string(&manifest).unwrap(), "{}");
        assert!(!txn_dir(&out).exists());
    }

    #[test]
    fn an_uncommitted_transaction_is_discarded_and_a_committed_one_finished() {
        let tmp = tempfile::tempdir().unwrap();
        let out = site(tmp.path());
        let lock = lock_output(&out).unwrap();
        recover(&out, &lock).unwrap();
        let txn = Transaction::begin(&out, &lock).unwrap();
        txn.write("index.html", b"new index").unwrap();
        drop(txn); // killed before the commit point
        recover(&out, &lock).unwrap();
        assert_eq!(fs::read_to_string(out.join("index.html")).unwrap(), "old index");
        assert!(!txn_dir(&out).exists());

        // A plan cut short halfway: the first step done, the second not.
        let dir = txn_dir(&out);
        fs::create_dir_all(dir.join("files")).unwrap();
        fs::write(dir.join("files/1"), "second").unwrap();
        fs::write(out.join("a.html"), "first").unwrap();
        let plan = Plan {
            steps: vec![
                Step::Write { rel: "a.html".into(), file: 0 },
                Step::Write { rel: "b/b.html".into(), file: 1 },
                Step::Remove { rel: "ns/gone/index.html".into() },
            ],
            manifest: None,
        };
        fs::write(dir.join(PLAN_FILE), serde_json::to_vec(&plan).unwrap()).unwrap();
        recover(&out, &lock).unwrap();
        assert_eq!(fs::read_to_string(out.join("a.html")).unwrap(), "first");
        assert_eq!(fs::read_to_string(out.join("b/b.html")).unwrap(), "second");
        assert!(!out.join("ns/gone/index.html").exists());
        assert!(!dir.exists());
    }

    #[test]
    fn plans_cannot_reach_outside_the_output() {
        let tmp = tempfile::tempdir().unwrap();
        let out = site(tmp.path());
        for rel in ["../x", "/etc/x", "a/../../x"] {
            assert!(inside(&out, rel).is_err(), "{rel}");
        }
        assert!(inside(&out, "ns/m/index.html").is_ok());
    }
}
