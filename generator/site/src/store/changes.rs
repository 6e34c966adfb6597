//! The change set: which files of the site were added, changed and removed
//! since the last deploy, so `modelpages deploy` uploads only those instead of
//! comparing two million files with the host.
//!
//! Every build that commits merges the paths it touched into a file beside
//! the output (`.dist.changes` for `dist`, never inside it, so it is never
//! deployed). It is cumulative: two builds then one deploy upload the union.
//! Merging keeps what the remote needs: a path added then removed is a
//! removal, one removed then added again is a change. A deploy that completes
//! consumes it (leaves it empty).
//!
//! The file also says how the last build ended. A build marks it `running`
//! before it touches the site and `done` once its change is committed and
//! recorded; one that fails before its commit point marks it `failed` (the
//! site is the previous one, and so are its changes), one that is killed
//! leaves `running`. A deploy refuses both: nothing is deployed from a build
//! that did not finish. A build that finds `running` cannot know what the
//! killed build changed (it may have committed), so its change set says
//! `whole_site`, and the next deploy compares everything with the host. So
//! does a missing or damaged file, one written for another folder (it names
//! the output by device and inode, like the manifest), the first build, and a
//! set past [`MAX_PATHS`] paths, which would cost more to keep than to list.
//!
//! The file may come from anywhere (a hub snapshot can ship one), so it is
//! read as records are: a link or a FIFO in its place is refused, its size is
//! bounded, and every path in it must be a plain relative path inside the
//! output (no `..`, no root, no `.`, no empty part, no control character).

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::store::manifest::folder_identity;
use crate::store::nofollow::plain_parts;
use crate::store::output::{write_atomically, OutputError, OutputFolder, OutputLock};

const VERSION: u32 = 1;
/// Past this many paths a change set says `whole_site` instead: a deploy
/// then lists the host, which is cheaper than keeping millions of names.
pub const MAX_PATHS: usize = 100_000;
/// A change set of [`MAX_PATHS`] long paths is well under this.
const MAX_BYTES: u64 = 64 << 20;

/// How the last build of the site ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BuildState {
    /// Started and not finished: still running, or killed.
    Running,
    /// Stopped with an error before its commit point; the site is the previous one.
    Failed,
    /// Committed its site and recorded what it changed.
    Done,
}

/// What became of one path of the site.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Change {
    Added,
    Changed,
    Removed,
}

impl Change {
    /// `self` followed by `later`, as the host sees it: a file added then
    /// removed never needs to be there; one removed then added is replaced.
    pub fn then(self, later: Change) -> Change {
        match (self, later) {
            (Change::Added, Change::Changed) => Change::Added,
            (Change::Removed, Change::Added | Change::Changed) => Change::Changed,
            (Change::Changed, Change::Added) => Change::Changed,
            (_, later) => later,
        }
    }
}

/// The changes since the last deploy (see the module's overview).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChangeSet {
    version: u32,
    pub state: BuildState,
    /// Anything may have changed: a deploy compares the whole site with the host.
    pub whole_site: bool,
    /// Device and inode of the output folder this set describes.
    site: (u64, u64),
    /// By path relative to the output, in order.
    pub paths: BTreeMap<String, Change>,
}

/// A change set file that cannot be read or is not one this program wrote.
#[derive(Debug, thiserror::Error)]
#[error("{}: {message}", path.display())]
pub struct ChangeSetError {
    pub path: PathBuf,
    pub message: String,
}

impl ChangeSet {
    /// A set that says "compare everything", for a build of `out` that
    /// cannot know what changed since the last deploy.
    fn whole_site(state: BuildState) -> ChangeSet {
        ChangeSet { version: VERSION, state, whole_site: true, site: (0, 0), paths: BTreeMap::new() }
    }

    /// Whether this set was recorded for the very folder `out` is now.
    pub fn describes(&self, out: &Path) -> bool {
        folder_identity(out) == Some(self.site)
    }

    /// Paths to upload (added or changed) and to remove, each in order.
    pub fn uploads_and_removals(&self) -> (Vec<&str>, Vec<&str>) {
        let (removed, uploads): (Vec<_>, Vec<_>) =
            self.paths.iter().partition(|(_, change)| **change == Change::Removed);
        (uploads.into_iter().map(|(p, _)| p.as_str()).collect(), removed.into_iter().map(|(p, _)| p.as_str()).collect())
    }

    /// Adds the changes of one build, later ones winning as [`Change::then`] says.
    fn merge(&mut self, changes: BTreeMap<String, Change>) {
        if self.whole_site {
            return;
        }
        for (path, change) in changes {
            let merged = match self.paths.get(&path) {
                Some(earlier) => earlier.then(change),
                None => change,
            };
            self.paths.insert(path, merged);
        }
        if self.paths.len() > MAX_PATHS {
            self.whole_site = true;
        }
        if self.whole_site {
            self.paths.clear();
        }
    }

    fn write(&self, out: &Path) -> Result<(), OutputError> {
        let mut json = serde_json::to_vec_pretty(self).expect("change sets serialise");
        json.push(b'\n');
        write_atomically(&OutputFolder::new(out).change_set(), |w| w.write_all(&json))
    }
}

/// Reads the change set beside `out`; `None` when there is none. A file that
/// is not a change set this program wrote is an error naming it.
pub fn read_change_set(out: &Path) -> Result<Option<ChangeSet>, ChangeSetError> {
    let path = OutputFolder::new(out).change_set();
    let invalid = |message: String| ChangeSetError { path: path.clone(), message };
    if std::fs::symlink_metadata(&path).is_err() {
        return Ok(None);
    }
    let (file, meta) = modelpages_record::open_regular_file(&path).map_err(|e| invalid(strip_path(&e.to_string(), &path)))?;
    if meta.len() > MAX_BYTES {
        return Err(invalid(format!("is {} bytes, more than a change set ever is ({MAX_BYTES})", meta.len())));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(MAX_BYTES + 1).read_to_end(&mut bytes).map_err(|e| invalid(e.to_string()))?;
    let set: ChangeSet = serde_json::from_slice(&bytes)
        .map_err(|e| invalid(format!("{}:{}: not a change set: {e}", e.line(), e.column())))?;
    if set.version != VERSION {
        return Err(invalid(format!("version {} is not {VERSION}, the one this program writes", set.version)));
    }
    if let Some(bad) = set.paths.keys().find(|p| !is_site_path(p)) {
        return Err(invalid(format!("names {bad:?}, not a plain relative path inside the output")));
    }
    Ok(Some(set))
}

/// `message` without a leading `path: `, which the error adds itself.
fn strip_path(message: &str, path: &Path) -> String {
    let prefix = format!("{}: ", path.display());
    message.strip_prefix(&prefix).unwrap_or(message).to_owned()
}

/// Whether `rel` is a path a build could have written: plain relative parts,
/// none of them a control character.
pub fn is_site_path(rel: &str) -> bool {
    plain_parts(rel).is_some() && !rel.chars().any(char::is_control)
}

/// Empties the change set of `out` once a deploy has uploaded it; the lock
/// proves no build is adding to it meanwhile.
pub fn consume_change_set(out: &Path, _lock: &OutputLock) -> Result<(), OutputError> {
    let mut set = ChangeSet::whole_site(BuildState::Done);
    set.whole_site = false;
    set.site = folder_identity(out).unwrap_or_default();
    set.write(out)
}

/// The change set of a build under way: marked `running` when the build
/// starts, `done` with the build's changes by [`PendingChanges::finish`]. If
/// it is dropped unfinished (the build returned an error) it is marked
/// `failed`, unless the commit had begun: then the site may have changed, and
/// `running` is left for the next build to see.
#[derive(Debug)]
pub struct PendingChanges {
    out: PathBuf,
    set: ChangeSet,
    /// Whether the file was marked `running` (there was a site to mark).
    marked: bool,
    committing: bool,
    finished: bool,
}

impl PendingChanges {
    /// Marks the change set of `out` `running`, under the build's lock.
    pub fn begin(out: &Path, _lock: &OutputLock) -> Result<PendingChanges, OutputError> {
        let pending = |set: ChangeSet, marked: bool| PendingChanges { out: out.to_owned(), set, marked, committing: false, finished: false };
        if folder_identity(out).is_none() {
            // The first build: nothing to mark, and everything is new.
            return Ok(pending(ChangeSet::whole_site(BuildState::Running), false));
        }
        let mut set = match read_change_set(out) {
            Ok(Some(set)) if set.describes(out) && set.state != BuildState::Running => set,
            _ => ChangeSet::whole_site(BuildState::Running),
        };
        set.state = BuildState::Running;
        set.write(out)?;
        Ok(pending(set, true))
    }

    /// Whether the build needs to say what it changes: not when the set
    /// already says everything did.
    pub fn wants_paths(&self) -> bool {
        !self.set.whole_site
    }

    /// Called just before the build's commit point.
    pub fn commit_begins(&mut self) {
        self.committing = true;
    }

    /// Records what the committed build changed.
    pub fn finish(mut self, changes: BTreeMap<String, Change>) -> Result<(), OutputError> {
        self.finished = true;
        self.set.merge(changes);
        self.set.state = BuildState::Done;
        self.set.site = folder_identity(&self.out).unwrap_or_default();
        self.set.write(&self.out)
    }
}

impl Drop for PendingChanges {
    fn drop(&mut self) {
        if self.finished || !self.marked || self.committing {
            return;
        }
        self.set.state = BuildState::Failed;
        // The build's own error is the one reported; a set that cannot be
        // marked stays `running`, which a deploy refuses just the same.
        let _ = self.set.write(&self.out);
    }
}

/// What one build changes in the live site, noted as its writer goes (see
/// `writer::SiteWriter`). Disabled when the change set already says
/// `whole_site`, so such builds pay nothing for it.
#[derive(Debug)]
pub(crate) struct ChangeLog {
    out: PathBuf,
    enabled: bool,
    noted: Mutex<Vec<(String, Change)>>,
}

/// How a file about to be written compares with the live site's.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum LiveFile {
    Same,
    Different,
    Missing,
}

/// Compares the live site's `out/rel` with `bytes`. A link in its place is
/// never followed: it is different, and gets replaced.
pub(crate) fn compare_live(out: &Path, rel: &str, bytes: &[u8]) -> LiveFile {
    let path = out.join(rel);
    match std::fs::symlink_metadata(&path) {
        Err(_) => LiveFile::Missing,
        Ok(meta) if meta.is_file() && meta.len() == bytes.len() as u64 => {
            if std::fs::read(&path).is_ok_and(|old| old == bytes) { LiveFile::Same } else { LiveFile::Different }
        }
        Ok(_) => LiveFile::Different,
    }
}

impl ChangeLog {
    pub(crate) fn new(out: &Path, enabled: bool) -> ChangeLog {
        ChangeLog { out: out.to_owned(), enabled, noted: Mutex::new(Vec::new()) }
    }

    /// The output folder: the live site.
    pub(crate) fn out(&self) -> &Path {
        &self.out
    }

    fn note(&self, rel: &str, change: Change) {
        self.noted.lock().expect("no panics while held").push((rel.to_owned(), change));
    }

    /// Notes a write of `rel` whose comparison with the live site is `live`.
    pub(crate) fn note_write(&self, rel: &str, live: &LiveFile) {
        match live {
            LiveFile::Same => {}
            LiveFile::Different => self.note(rel, Change::Changed),
            LiveFile::Missing => self.note(rel, Change::Added),
        }
    }

    /// Notes a write of `rel` with `bytes`, comparing with the live site
    /// only when the log is on.
    pub(crate) fn note_bytes(&self, rel: &str, bytes: &[u8]) {
        if self.enabled {
            self.note_write(rel, &compare_live(&self.out, rel, bytes));
        }
    }

    pub(crate) fn note_removed(&self, rel: &str) {
        if self.enabled {
            self.note(rel, Change::Removed);
        }
    }

    /// Notes every file of the live site that `staged`, the tree about to
    /// replace it, does not have. Links are not followed.
    pub(crate) fn note_missing_from(&self, staged: &Path) {
        if !self.enabled {
            return;
        }
        let walk = walkdir::WalkDir::new(&self.out).follow_links(false).min_depth(1);
        for entry in walk.into_iter().filter_map(Result::ok).filter(|e| !e.file_type().is_dir()) {
            let Ok(rel) = entry.path().strip_prefix(&self.out) else { continue };
            let Some(rel) = rel.to_str() else { continue };
            if std::fs::symlink_metadata(staged.join(rel)).is_err() {
                self.note(rel, Change::Removed);
            }
        }
    }

    /// What the build changed, one change per path: a path written in the
    /// same build that removed it (a model that now writes fewer files) was
    /// written last, since removals are applied first.
    pub(crate) fn into_changes(self) -> BTreeMap<String, Change> {
        let mut changes = BTreeMap::new();
        for (rel, change) in self.noted.into_inner().expect("no panics while held") {
            let entry = changes.entry(rel).or_insert(change);
            if change != Change::Removed {
                *entry = change;
            }
        }
        changes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::output::lock_output;
    use std::fs;

    fn changes(list: &[(&str, Change)]) -> BTreeMap<String, Change> {
        list.iter().map(|(p, c)| (p.to_string(), *c)).collect()
    }

    #[test]
    fn later_changes_win_as_the_host_sees_them() {
        use Change::*;
        assert_eq!(Added.then(Removed), Removed, "added then removed is a removal");
        assert_eq!(Removed.then(Added), Changed, "removed then added is a change");
        assert_eq!(Added.then(Changed), Added);
        assert_eq!(Changed.then(Removed), Removed);
        assert_eq!(Changed.then(Changed), Changed);
        let mut set = ChangeSet::whole_site(BuildState::Done);
        set.whole_site = false;
        set.merge(changes(&[("a", Added), ("b", Removed), ("c", Changed)]));
        set.merge(changes(&[("a", Removed), ("b", Added), ("d", Added)]));
        assert_eq!(set.paths, changes(&[("a", Removed), ("b", Changed), ("c", Changed), ("d", Added)]));
        let (uploads, removals) = set.uploads_and_removals();
        assert_eq!((uploads, removals), (vec!["b", "c", "d"], vec!["a"]));
    }

    #[test]
    fn too_many_paths_become_the_whole_site() {
        let mut set = ChangeSet::whole_site(BuildState::Done);
        set.whole_site = false;
        set.merge((0..=MAX_PATHS).map(|i| (format!("m{i}"), Change::Added)).collect());
        assert!(set.whole_site && set.paths.is_empty());
    }

    #[test]
    fn a_log_keeps_the_last_write_over_a_removal() {
        let tmp = tempfile::tempdir().unwrap();
        let log = ChangeLog::new(tmp.path(), true);
        fs::write(tmp.path().join("same"), "x").unwrap();
        fs::write(tmp.path().join("old"), "x").unwrap();
        log.note_bytes("same", b"x");
        log.note_bytes("old", b"y");
        log.note_bytes("new", b"y");
        log.note_removed("old");
        log.note_removed("gone");
        assert_eq!(
            log.into_changes(),
            changes(&[("gone", Change::Removed), ("new", Change::Added), ("old", Change::Changed)])
        );
        let off = ChangeLog::new(tmp.path(), false);
        off.note_bytes("new", b"y");
        off.note_removed("old");
        assert!(off.into_changes().is_empty(), "a disabled log notes nothing");
    }

    #[test]
    fn a_build_marks_the_set_and_a_failure_before_the_commit_says_so() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("dist");
        let lock = lock_output(&out).unwrap();
        // The first build: no site, nothing marked, everything new.
        let first = PendingChanges::begin(&out, &lock).unwrap();
        assert!(!first.wants_paths());
        fs::create_dir(&out).unwrap();
        first.finish(BTreeMap::new()).unwrap();
        let set = read_change_set(&out).unwrap().unwrap();
        assert!(set.whole_site && set.state == BuildState::Done && set.describes(&out));

        consume_change_set(&out, &lock).unwrap();
        let pending = PendingChanges::begin(&out, &lock).unwrap();
        assert!(pending.wants_paths());
        assert_eq!(read_change_set(&out).unwrap().unwrap().state, BuildState::Running);
        pending.finish(changes(&[("ns/m/index.html", Change::Added)])).unwrap();

        // Fails before its commit: `failed`, the earlier changes kept.
        drop(PendingChanges::begin(&out, &lock).unwrap());
        let set = read_change_set(&out).unwrap().unwrap();
        assert_eq!(set.state, BuildState::Failed);
        assert_eq!(set.paths, changes(&[("ns/m/index.html", Change::Added)]));

        // Fails during its commit: `running`, and the next build cannot
        // know what changed.
        let mut pending = PendingChanges::begin(&out, &lock).unwrap();
        pending.commit_begins();
        drop(pending);
        assert_eq!(read_change_set(&out).unwrap().unwrap().state, BuildState::Running);
        let next = PendingChanges::begin(&out, &lock).unwrap();
        assert!(!next.wants_paths(), "after a killed build, everything may have changed");
    }

    #[test]
    fn hostile_change_sets_are_refused_with_the_file_named() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("dist");
        fs::create_dir(&out).unwrap();
        let path = OutputFolder::new(&out).change_set();
        let mut set = ChangeSet::whole_site(BuildState::Done);
        set.whole_site = false;
        for bad in ["../outside", "/etc/passwd", "a/../../b", "a//b", "./a", "", "a/\u{1b}[2J"] {
            set.paths = changes(&[(bad, Change::Added)]);
            fs::write(&path, serde_json::to_vec(&set).unwrap()).unwrap();
            let err = read_change_set(&out).unwrap_err().to_string();
            assert!(err.starts_with(&path.display().to_string()) && err.contains("not a plain relative path"), "{bad:?}: {err}");
        }
        fs::write(&path, "{\n  \"version\": 1,\n  nope").unwrap();
        let err = read_change_set(&out).unwrap_err().to_string();
        assert!(err.contains(": 3:3: not a change set"), "{err}");
        fs::remove_file(&path).unwrap();
        assert!(read_change_set(&out).unwrap().is_none());
        #[cfg(unix)]
        {
            fs::write(tmp.path().join("real"), serde_json::to_vec(&ChangeSet::whole_site(BuildState::Done)).unwrap()).unwrap();
            std::os::unix::fs::symlink(tmp.path().join("real"), &path).unwrap();
            let err = read_change_set(&out).unwrap_err().to_string();
            assert!(err.contains("symbolic link"), "{err}");
        }
    }
}
