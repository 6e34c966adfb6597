//! Changing a built site in place, for builds that touch a few files of a
//! large site (swapping in a whole new tree would mean linking every page).
//!
//! A transaction first writes every new file into a folder beside the output
//! (`.dist.txn`), then records its steps, the renames and removals, there
//! ([`CommitSteps`] in `plan.json`, written then renamed: the commit point),
//! then carries them out. A build killed before the commit point leaves the
//! old site untouched (the next build throws the folder away); one killed
//! after it leaves steps that the next build finishes before doing anything
//! else. Every file of the site is
//! replaced by a rename, so none is ever seen half-written. The steps are
//! synced to the disk before they are committed; the staged pages are not
//! (syncing every page would cost more than the build), so a crash of the
//! machine, unlike a kill, may leave a page short: `build --full` rewrites
//! every page.
//!
//! A folder beside the output may come from anywhere (a hub snapshot can ship
//! one), so its steps are finished only if they name the very output folder they were
//! made for (by device and inode) and nothing but plain paths inside it; the
//! manifest's path is never taken from it. Every path is walked without
//! following a link (see [`crate::store::nofollow`]), so a link inside the output or
//! in place of the transaction's folder cannot lead a write or a removal out.

use std::ffi::OsStr;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::store::manifest::folder_identity;
use crate::store::nofollow::{plain_parts, Dir, Kind};
use crate::store::output::{io_error, remove_tree, OutputError, OutputFolder, OutputLock};

/// Where a transaction's steps are recorded. The name on disk is the one
/// earlier versions wrote, so a transaction committed by one of them just
/// before it was killed is still finished, not thrown away.
const STEPS_FILE: &str = "plan.json";

/// One step of a transaction, in the order they are carried out.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
enum Step {
    /// Rename `files/<file>` to `<rel>` in the output.
    Write { rel: String, file: usize },
    /// Remove `<rel>` from the output, and its folders once empty.
    Remove { rel: String },
}

/// What a committed transaction will do (not to be confused with
/// `store::plan`, which decides what a build does). It holds no path but
/// plain ones inside the output: the output and the manifest are always where
/// this build's options put them, never where steps found on disk say.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct CommitSteps {
    /// Device and inode of the output folder the steps were made for: steps
    /// beside another folder (a copy, a restored backup, a planted one) is
    /// not applied.
    site: (u64, u64),
    steps: Vec<Step>,
    /// The staged manifest (`files/<n>`), renamed into place last.
    manifest: Option<usize>,
}

/// An in-place change being prepared. Dropped before its commit point, it
/// removes its folder.
#[derive(Debug)]
pub struct Transaction {
    out: PathBuf,
    dir: PathBuf,
    /// The transaction's folder and its `files/`, opened without following
    /// links, so nothing is staged or committed through one.
    folder: Dir,
    files: Dir,
    next: AtomicUsize,
    steps: Mutex<Vec<Step>>,
    /// Set at the commit point: from then on the folder is the next build's
    /// to finish, not anyone's to remove.
    committed: bool,
}

fn file_name(file: usize) -> String {
    file.to_string()
}

impl Transaction {
    /// Starts a transaction on `out`; [`recover`] must have run under the
    /// same lock, so no earlier transaction is left.
    pub fn begin(out: &Path, _lock: &OutputLock) -> Result<Transaction, OutputError> {
        let dir = OutputFolder::new(out).transaction();
        // A new folder: a link planted in its place since `recover` is an
        // error, not a way to stage files somewhere else.
        let folder = Dir::create_new(&dir)?;
        let files = match folder.child(OsStr::new("files"), true) {
            Ok(files) => files,
            Err(err) => {
                let _ = remove_tree(&dir);
                return Err(err);
            }
        };
        Ok(Transaction {
            out: out.to_owned(),
            dir,
            folder,
            files,
            next: AtomicUsize::new(0),
            steps: Mutex::new(Vec::new()),
            committed: false,
        })
    }

    fn stage(&self, bytes: &[u8]) -> Result<usize, OutputError> {
        let file = self.next.fetch_add(1, Ordering::Relaxed);
        self.files.write_new(OsStr::new(&file_name(file)), bytes)?;
        Ok(file)
    }

    /// Stages a file that `write` writes (the manifest, too large to hold).
    fn stage_with(&self, write: impl FnOnce(&fs::File) -> io::Result<()>) -> Result<usize, OutputError> {
        let file = self.next.fetch_add(1, Ordering::Relaxed);
        let name = file_name(file);
        let path = self.files.path().join(&name);
        write(&self.files.create_file(OsStr::new(&name))?).map_err(io_error(&path))?;
        Ok(file)
    }

    /// Will replace (or create) `rel` with `bytes`.
    pub fn write(&self, rel: &str, bytes: &[u8]) -> Result<(), OutputError> {
        let file = self.stage(bytes)?;
        self.steps.lock().expect("no panics while held").push(Step::Write { rel: rel.to_owned(), file });
        Ok(())
    }

    /// Will remove `rel`, and its folders if that leaves them empty.
    pub fn remove(&self, rel: &str) {
        self.steps.lock().expect("no panics while held").push(Step::Remove { rel: rel.to_owned() });
    }

    /// The commit point, then the change itself; `manifest` writes the
    /// manifest, which goes to the output's manifest path last.
    pub fn commit(mut self, manifest: impl FnOnce(&fs::File) -> io::Result<()>) -> Result<(), OutputError> {
        let mut steps = std::mem::take(self.steps.get_mut().expect("no panics while held"));
        // Removals first, so a file removed and written again (a model that
        // now writes fewer files) ends up written.
        steps.sort_by_key(|step| matches!(step, Step::Write { .. }));
        let manifest_file = self.stage_with(manifest)?;
        let site = folder_identity(&self.out)
            .ok_or_else(|| io_error(&self.out)(io::Error::from(io::ErrorKind::NotFound)))?;
        let commit = CommitSteps { site, steps, manifest: Some(manifest_file) };
        // Folders are made before the commit point: a site folder that
        // refuses new entries (or holds a link where a folder goes) then
        // fails the build with the old site intact, instead of leaving a
        // commit that cannot be carried out.
        let out = Dir::open(&self.out)?;
        for step in &commit.steps {
            if let Step::Write { rel, .. } = step {
                out.descend(&parts(&self.out, rel)?.0, true)?;
            }
        }
        let json = serde_json::to_vec(&commit).expect("steps serialise");
        let staged = OsStr::new("plan.json.tmp");
        // Synced before the rename that commits: after a crash of the
        // machine the steps are whole or absent, never a name without bytes.
        let staged_path = self.dir.join(staged);
        let mut file = self.folder.create_file(staged)?;
        io::Write::write_all(&mut file, &json).and_then(|()| file.sync_all()).map_err(io_error(&staged_path))?;
        self.folder.rename(staged, &self.folder, OsStr::new(STEPS_FILE))?;
        self.committed = true;
        apply(&self.out, &out, &self.files, &commit)?;
        remove_tree(&self.dir).map_err(io_error(&self.dir))
    }
}

impl Drop for Transaction {
    fn drop(&mut self) {
        if !self.committed {
            let _ = remove_tree(&self.dir);
        }
    }
}

/// Finishes a committed transaction that a killed build left on `out`, or
/// throws away one that never reached its commit point. Steps that this
/// program did not write for this very folder is refused, untouched, for
/// its owner to look at.
pub fn recover(out: &Path, _lock: &OutputLock) -> Result<(), OutputError> {
    let dir = OutputFolder::new(out).transaction();
    let foreign = |reason: String| OutputError::ForeignTransaction { path: dir.clone(), out: out.to_owned(), reason };
    match fs::symlink_metadata(&dir) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(source) => return Err(OutputError::Io { path: dir, source }),
        Ok(meta) if !meta.is_dir() => return Err(foreign("it is not a folder".into())),
        Ok(_) => {}
    }
    if folder_identity(out).is_none() {
        // The output is gone: there is nothing left to finish.
        return remove_tree(&dir).map_err(io_error(&dir));
    }
    let folder = Dir::open(&dir)?;
    let Some(bytes) = folder.read(OsStr::new(STEPS_FILE))? else {
        // Cut short before its commit point: the site was never touched.
        return remove_tree(&dir).map_err(io_error(&dir));
    };
    let commit: CommitSteps = serde_json::from_slice(&bytes).map_err(|e| foreign(format!("{STEPS_FILE} does not parse: {e}")))?;
    if folder_identity(out) != Some(commit.site) {
        return Err(foreign(format!("{STEPS_FILE} was made for another folder")));
    }
    for step in &commit.steps {
        let (Step::Write { rel, .. } | Step::Remove { rel }) = step;
        if plain_parts(rel).is_none() {
            return Err(foreign(format!("{STEPS_FILE} names {rel:?}, not a plain path inside the output")));
        }
    }
    let files = folder.child(OsStr::new("files"), false)?;
    apply(out, &Dir::open(out)?, &files, &commit)?;
    remove_tree(&dir).map_err(io_error(&dir))
}

/// The folders and file name of `rel`, refusing anything that could leave `out`.
fn parts<'a>(out: &Path, rel: &'a str) -> Result<(Vec<&'a OsStr>, &'a OsStr), OutputError> {
    plain_parts(rel).ok_or_else(|| OutputError::Io {
        path: out.join(rel),
        source: io::Error::new(io::ErrorKind::InvalidInput, "not a plain relative path"),
    })
}

/// Carries out `commit` on the output `out` (opened as `out_dir`) from the
/// staged `files`; safe to run again after being cut short, since a staged
/// file that is gone was already renamed into place. Every path is walked
/// without following a link.
fn apply(out: &Path, out_dir: &Dir, files: &Dir, commit: &CommitSteps) -> Result<(), OutputError> {
    for step in &commit.steps {
        match step {
            Step::Write { rel, file } => {
                let (folders, name) = parts(out, rel)?;
                let folder = out_dir.descend(&folders, true)?;
                rename_staged(files, *file, |staged| files.rename(staged, &folder, name))?;
            }
            Step::Remove { rel } => {
                let (folders, name) = parts(out, rel)?;
                let folder = match out_dir.descend(&folders, false) {
                    Ok(folder) => folder,
                    Err(OutputError::Io { source, .. }) if source.kind() == io::ErrorKind::NotFound => continue,
                    Err(err) => return Err(err),
                };
                match folder.remove_file(name) {
                    Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(io_error(&out.join(rel))(e)),
                    _ => {}
                }
                // Empty model and namespace folders go too; a folder that
                // still holds something refuses, which is what we want.
                for depth in (0..folders.len()).rev() {
                    let emptied = out_dir.descend(&folders[..depth], false).and_then(|holder| {
                        holder.remove_dir(folders[depth]).map_err(io_error(holder.path()))
                    });
                    if emptied.is_err() {
                        break;
                    }
                }
            }
        }
    }
    if let Some(file) = commit.manifest {
        rename_staged(files, file, |staged| files.rename_to_path(staged, &OutputFolder::new(out).manifest()))?;
    }
    Ok(())
}

/// Moves staged file `file` with `rename`, unless it is gone: then an
/// earlier, interrupted run of the steps already moved it. Only a regular file
/// is moved, so a link staged in its place never lands in the site.
fn rename_staged(
    files: &Dir,
    file: usize,
    rename: impl FnOnce(&OsStr) -> Result<(), OutputError>,
) -> Result<(), OutputError> {
    let name = file_name(file);
    let staged = OsStr::new(&name);
    match files.kind(staged).map_err(io_error(&files.path().join(staged)))? {
        None => Ok(()),
        Some(Kind::File) => rename(staged),
        Some(_) => Err(io_error(&files.path().join(staged))(io::Error::other("is not a regular file"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::output::lock_output;

    fn site(dir: &Path) -> PathBuf {
        let out = dir.join("dist");
        fs::create_dir_all(out.join("ns/gone")).unwrap();
        fs::write(out.join("ns/gone/index.html"), "gone").unwrap();
        fs::write(out.join("index.html"), "old index").unwrap();
        out
    }

    /// Leaves `steps` (JSON) and staged files as a killed build would,
    /// under the name every version so far has written them to, so that
    /// recovery is tested against transactions left by earlier versions too.
    fn leave_steps(out: &Path, steps: &serde_json::Value, staged: &[&str]) {
        let dir = OutputFolder::new(out).transaction();
        fs::create_dir_all(dir.join("files")).unwrap();
        for (i, bytes) in staged.iter().enumerate() {
            fs::write(dir.join("files").join(i.to_string()), bytes).unwrap();
        }
        fs::write(dir.join("plan.json"), steps.to_string()).unwrap();
    }

    fn identity(out: &Path) -> serde_json::Value {
        serde_json::to_value(folder_identity(out).unwrap()).unwrap()
    }

    #[test]
    fn a_commit_writes_removes_and_tidies_up() {
        let tmp = tempfile::tempdir().unwrap();
        let out = site(tmp.path());
        let lock = lock_output(&out).unwrap();
        recover(&out, &lock).unwrap();
        let txn = Transaction::begin(&out, &lock).unwrap();
        txn.write("ns/new/index.html", b"new").unwrap();
        txn.remove("ns/gone/index.html");
        txn.commit(|mut file| io::Write::write_all(&mut file, b"{}")).unwrap();
        assert_eq!(fs::read_to_string(out.join("ns/new/index.html")).unwrap(), "new");
        assert!(!out.join("ns/gone").exists(), "emptied folders are removed");
        assert_eq!(fs::read_to_string(OutputFolder::new(&out).manifest()).unwrap(), "{}");
        assert!(!OutputFolder::new(&out).transaction().exists());
    }

    #[test]
    fn an_uncommitted_transaction_is_discarded_and_a_committed_one_finished() {
        let tmp = tempfile::tempdir().unwrap();
        let out = site(tmp.path());
        let lock = lock_output(&out).unwrap();
        recover(&out, &lock).unwrap();
        let txn = Transaction::begin(&out, &lock).unwrap();
        txn.write("index.html", b"new index").unwrap();
        std::mem::forget(txn); // killed before the commit point
        assert!(OutputFolder::new(&out).transaction().exists());
        recover(&out, &lock).unwrap();
        assert_eq!(fs::read_to_string(out.join("index.html")).unwrap(), "old index");
        assert!(!OutputFolder::new(&out).transaction().exists());

        // Steps cut short halfway: the first step done, the second not.
        fs::write(out.join("a.html"), "first").unwrap();
        let steps = serde_json::json!({
            "site": identity(&out),
            "steps": [
                {"Write": {"rel": "a.html", "file": 5}},
                {"Write": {"rel": "b/b.html", "file": 1}},
                {"Remove": {"rel": "ns/gone/index.html"}},
            ],
            "manifest": 2,
        });
        leave_steps(&out, &steps, &["", "second", "manifest"]);
        recover(&out, &lock).unwrap();
        assert_eq!(fs::read_to_string(out.join("a.html")).unwrap(), "first");
        assert_eq!(fs::read_to_string(out.join("b/b.html")).unwrap(), "second");
        assert!(!out.join("ns/gone/index.html").exists());
        assert_eq!(fs::read_to_string(OutputFolder::new(&out).manifest()).unwrap(), "manifest");
        assert!(!OutputFolder::new(&out).transaction().exists());
    }

    #[test]
    fn a_failed_or_dropped_transaction_leaves_no_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let out = site(tmp.path());
        let lock = lock_output(&out).unwrap();
        let txn = Transaction::begin(&out, &lock).unwrap();
        txn.write("index.html", b"new index").unwrap();
        drop(txn);
        assert!(!OutputFolder::new(&out).transaction().exists());
    }

    #[test]
    fn steps_this_program_did_not_write_for_this_output_are_refused_untouched() {
        let tmp = tempfile::tempdir().unwrap();
        let out = site(tmp.path());
        let victim = tmp.path().join("victim");
        fs::write(&victim, "precious").unwrap();
        let lock = lock_output(&out).unwrap();
        let write_index = serde_json::json!([{"Write": {"rel": "index.html", "file": 0}}]);
        let cases = [
            // The manifest path of an earlier format was taken as it stood.
            serde_json::json!({"steps": write_index, "manifest": [victim, 0]}),
            serde_json::json!({"site": identity(&out), "steps": write_index, "manifest": [victim, 0]}),
            serde_json::json!({"site": [1, 2], "steps": write_index, "manifest": null}),
            serde_json::json!({"site": identity(&out), "steps": [{"Write": {"rel": "../victim", "file": 0}}], "manifest": null}),
            serde_json::json!({"site": identity(&out), "steps": [{"Remove": {"rel": victim}}], "manifest": null}),
        ];
        for steps in cases {
            leave_steps(&out, &steps, &["pwned"]);
            let err = recover(&out, &lock).unwrap_err().to_string();
            assert!(err.contains("not a transaction this program wrote for"), "{steps}: {err}");
            assert_eq!(fs::read_to_string(&victim).unwrap(), "precious", "{steps}");
            assert_eq!(fs::read_to_string(out.join("index.html")).unwrap(), "old index", "{steps}");
            assert!(OutputFolder::new(&out).transaction().join(STEPS_FILE).exists(), "left for its owner to look at");
            fs::remove_dir_all(OutputFolder::new(&out).transaction()).unwrap();
        }
    }

    #[cfg(unix)]
    #[test]
    fn no_link_leads_a_transaction_out_of_the_output() {
        use std::os::unix::fs::symlink;
        let tmp = tempfile::tempdir().unwrap();
        let out = site(tmp.path());
        let elsewhere = tmp.path().join("elsewhere");
        fs::create_dir_all(elsewhere.join("files")).unwrap();
        fs::write(elsewhere.join("victim"), "precious").unwrap();
        let lock = lock_output(&out).unwrap();

        // Through a link inside the output, with steps bound to it.
        symlink(&elsewhere, out.join("link")).unwrap();
        let steps = serde_json::json!({
            "site": identity(&out),
            "steps": [{"Remove": {"rel": "link/victim"}}, {"Write": {"rel": "link/planted", "file": 0}}],
            "manifest": null,
        });
        leave_steps(&out, &steps, &["pwned"]);
        let err = recover(&out, &lock).unwrap_err().to_string();
        assert!(err.contains("link: is a symbolic link, which a build never follows"), "{err}");
        assert!(elsewhere.join("victim").exists() && !elsewhere.join("planted").exists());
        fs::remove_dir_all(OutputFolder::new(&out).transaction()).unwrap();

        // The transaction's folder a link: its steps are not read, the folder
        // it points to not emptied.
        fs::write(elsewhere.join(STEPS_FILE), steps.to_string()).unwrap();
        symlink(&elsewhere, OutputFolder::new(&out).transaction()).unwrap();
        let err = recover(&out, &lock).unwrap_err().to_string();
        assert!(err.contains("not a transaction this program wrote for") && err.contains("not a folder"), "{err}");
        assert!(elsewhere.join(STEPS_FILE).exists() && elsewhere.join("victim").exists());
        // Nor does a new transaction stage its files there.
        assert!(Transaction::begin(&out, &lock).is_err());
        assert_eq!(fs::read_dir(elsewhere.join("files")).unwrap().count(), 0);
        fs::remove_file(OutputFolder::new(&out).transaction()).unwrap();

        // A staged file that is a link is never moved into the site.
        fs::remove_file(out.join("link")).unwrap();
        leave_steps(&out, &serde_json::json!({"site": identity(&out), "steps": [{"Write": {"rel": "leak", "file": 1}}], "manifest": null}), &[]);
        symlink(elsewhere.join("victim"), OutputFolder::new(&out).transaction().join("files/1")).unwrap();
        assert!(recover(&out, &lock).unwrap_err().to_string().contains("is not a regular file"));
        assert!(!out.join("leak").exists());
    }
}
