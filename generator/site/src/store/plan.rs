//! Stage 2 of a build (plan): find every model folder and decide, from the previous
//! build's manifest, which models must be read and rendered, which are kept
//! as they are, and which were deleted.
//!
//! Deciding must not read 100,000 records when one changed, so a model whose
//! files carry the same file-system stamp (size, times, inode) as last time is
//! kept without being read, as git does with its index. A stamp is trusted only
//! for files last changed well before the previous build started; anything
//! newer is read and hashed (the render stage compares the hash).

#[cfg(not(unix))]
use std::fs;
use std::io;
use std::path::Path;

use std::collections::HashMap;

use modelpages_record::{discover_each, ModelSource, RecordError};
use rayon::prelude::*;

use crate::corpus::{join_without_clashes, reject_layout_clashes};
use crate::store::io_pool::with_io_threads;
use crate::store::manifest::{Manifest, ModelEntry, ModelRow, StampHash};
use crate::store::stored_models::StoredModels;

/// Changes closer than this to the previous build's start could have been
/// missed by a stamp taken during that build (coarse file-system clocks).
const RACY_WINDOW_NS: u128 = 2_000_000_000;

/// What a build has to do.
#[derive(Debug, Default)]
pub struct BuildPlan {
    /// Models to read (and render unless their content hash is unchanged),
    /// in id order.
    pub read: Vec<ReadJob>,
    /// Models kept from the previous build without reading their files,
    /// their entries decoded.
    pub keep: Vec<(ModelSource, Box<ModelEntry>)>,
    /// Models kept too, left as the previous manifest stored them: the
    /// chunks of it that hold no model read or removed (see `stored_models`).
    pub stored: StoredModels,
    /// Models of the previous build whose folders are gone (or now unusable).
    pub removed: Vec<(String, Box<ModelEntry>)>,
    /// Folders that cannot be models, sorted by path.
    pub errors: Vec<RecordError>,
}

/// A model whose files must be read.
#[derive(Debug)]
pub struct ReadJob {
    pub source: ModelSource,
    /// The stamp its folder, record and card have now (without the files
    /// its card copies: see [`stamp_with_files`]).
    pub stamp: StampHash,
    /// What the previous build made of it, if it had it.
    pub previous: Option<Box<ModelEntry>>,
}

impl BuildPlan {
    pub fn model_count(&self) -> usize {
        self.read.len() + self.keep.len() + self.stored.len()
    }

    /// Whether the change is small enough to apply in place: a fresh tree
    /// would have to link every page of the site, a transaction touches
    /// only what changed.
    pub fn is_small_change(&self) -> bool {
        is_small(self.read.len() + self.removed.len(), self.model_count())
    }

    /// Decodes the stored models into `keep` (their folders in
    /// `models_dir`): a fresh site needs every kept model's files.
    pub fn decode_stored(&mut self, models_dir: &Path) -> io::Result<()> {
        for (id, entry) in self.stored.take_all()? {
            self.keep.push((ModelSource { dir: models_dir.join(&id), folder_id: id }, entry));
        }
        Ok(())
    }
}

/// Whether `changed` models out of `total` is a small change (see
/// [`BuildPlan::is_small_change`]).
fn is_small(changed: usize, total: usize) -> bool {
    changed <= (total / 20).max(200)
}

/// Every model folder found, with its stamp as it is now; what a plan is made of.
#[derive(Debug)]
pub struct Survey {
    stamped: Vec<(ModelSource, io::Result<Stamp>)>,
    errors: Vec<RecordError>,
    /// Whether every model folder was surveyed; if not (a caller's changed
    /// list), models not surveyed are kept as the previous build left them.
    complete: bool,
    /// Models a changed list names whose folders are gone: removed.
    gone: Vec<String>,
    models_dir: std::path::PathBuf,
}

/// Finds and stamps every model folder of `models_dir`; needs no manifest, so
/// it can run while the manifest is read.
pub fn survey_models(models_dir: &Path) -> Result<Survey, RecordError> {
    // Each namespace's models are stamped as soon as it is listed, from its
    // folder opened once (see `stamp_namespace`).
    let (found, stamps) = with_io_threads(|| discover_each(models_dir, stamp_namespace))?;
    let mut errors = found.errors;
    let stamped: Vec<(ModelSource, io::Result<Stamp>)> = found.sources.into_iter().zip(stamps.into_iter().flatten()).collect();
    let stamped = reject_layout_clashes(stamped, |s| &s.0.folder_id, |s| s.0.record_path(), &mut errors);
    Ok(Survey { stamped, errors, complete: true, gone: Vec::new(), models_dir: models_dir.to_owned() })
}

/// The most models a changed list may name and be used alone: each is
/// looked up chunk by chunk in the previous manifest.
pub const MAX_LISTED: usize = 1000;

/// Stamps only the models `ids` names (see `changed_list`), for a plan that
/// keeps every other model as the previous build (`previous`) left it: a
/// named model the previous build had is read again, or removed when its
/// folder is gone; a named folder it did not have is a model added, once
/// its id is checked against every id the previous build had (the rules of
/// `reject_layout_clashes`). `None` when the list cannot be used so: it names
/// a model that is neither a folder nor one the previous build had, an added
/// model that breaks a layout rule (a whole survey reports it and decides
/// which of two clashing models keeps its page), or more than
/// [`MAX_LISTED`] models, which a whole survey finds faster.
pub fn survey_listed(models_dir: &Path, ids: &[String], previous: &Manifest) -> Option<Survey> {
    if ids.len() > MAX_LISTED {
        return None;
    }
    let mut stamped = Vec::with_capacity(ids.len());
    let (mut gone, mut added) = (Vec::new(), Vec::new());
    for id in ids {
        let known = previous.row(id).is_some();
        let dir = models_dir.join(id);
        // Only a real folder, as discovery takes it: a link is refused there.
        let is_folder = std::fs::symlink_metadata(&dir).is_ok_and(|m| m.is_dir())
            && dir.parent().is_some_and(|ns| std::fs::symlink_metadata(ns).is_ok_and(|m| m.is_dir()));
        match (known, is_folder) {
            (true, false) => {
                gone.push(id.clone());
                continue;
            }
            (false, false) => return None,
            (false, true) => added.push(id.as_str()),
            (true, true) => {}
        }
        let source = ModelSource { dir, folder_id: id.clone() };
        let stamp = stamp_namespace(source.dir.parent().unwrap_or(models_dir), std::slice::from_ref(&source)).pop()?;
        stamped.push((source, stamp));
    }
    if !added.is_empty() && !fit_the_layout(&added, previous) {
        return None;
    }
    stamped.sort_by(|a, b| a.0.folder_id.cmp(&b.0.folder_id));
    gone.sort();
    Some(Survey { stamped, errors: Vec::new(), complete: false, gone, models_dir: models_dir.to_owned() })
}

/// Whether the ids `added` join the previous build's without breaking a
/// layout rule: no reserved namespace or name, and no id or namespace that
/// differs from another only by case.
fn fit_the_layout(added: &[&str], previous: &Manifest) -> bool {
    join_without_clashes(added, previous.rows().map(|(id, _)| id))
}

/// Plans a build from a survey of the models folder and the previous build's
/// manifest (taken over: entries move into the plan). Of the models the
/// manifest stores, only the chunks that hold a model to read or remove are
/// decoded, when the change is small; all of them otherwise.
pub fn plan_build(survey: Survey, previous: Option<Manifest>) -> io::Result<BuildPlan> {
    let Survey { stamped, mut errors, complete, gone: listed_gone, models_dir } = survey;
    let (mut decoded, mut stored, trusted_before) = match previous {
        Some(m) => (m.models, m.stored, m.started_ns.saturating_sub(RACY_WINDOW_NS)),
        None => Default::default(),
    };
    // Each stored model's row and chunk; looked up one by one when only a
    // few models were surveyed.
    let mut where_stored: HashMap<&str, (&ModelRow, usize), foldhash::fast::RandomState> = HashMap::default();
    if complete {
        where_stored.reserve(stored.len());
        for (chunk, c) in stored.chunks().iter().enumerate() {
            where_stored.extend(c.index.rows.iter().map(|(id, row)| (id.as_str(), (row, chunk))));
        }
    }
    let locate = |id: &str| match complete {
        true => where_stored.get(id).copied(),
        false => stored.chunk_of(id).and_then(|chunk| Some((stored.chunks()[chunk].row(id)?, chunk))),
    };
    // Whether each model is kept: its stamp, with the files its card
    // copies, is what the previous build recorded.
    let keep: Vec<Surveyed> = stamped
        .par_iter()
        .map(|(source, stamp)| {
            let id = source.folder_id.as_str();
            let found = locate(id);
            let chunk = found.map(|f| f.1);
            let Ok(stamp) = stamp else { return Surveyed { keep: false, chunk, stamped: false } };
            let row = decoded.get(id).map(|e| &e.row).or_else(|| found.map(|found| found.0));
            let Some(row) = row else { return Surveyed { keep: false, chunk, stamped: true } };
            let whole = if row.card_files.is_empty() { stamp.clone() } else { stamp_with_files(stamp, &source.dir, &row.card_files) };
            Surveyed { keep: whole.newest_ns < trusted_before && row.stamp == whole.text, chunk, stamped: true }
        })
        .collect();
    drop(where_stored);
    // Chunks to decode: those with a model read or gone, and small ones
    // (merged, so that models added one at a time do not make a chunk each).
    // A chunk lost a model when a whole survey found fewer of its models
    // than it holds (ids are unique); a model that could not be stamped is
    // not found, and its previous entry is removed.
    let mut touched = vec![false; stored.chunks().len()];
    let mut found_in = vec![0usize; stored.chunks().len()];
    for &Surveyed { keep, chunk, stamped } in &keep {
        if let Some(chunk) = chunk {
            found_in[chunk] += usize::from(stamped);
            touched[chunk] |= !keep;
        }
    }
    for id in &listed_gone {
        if let Some(chunk) = stored.chunk_of(id) {
            touched[chunk] = true;
        }
    }
    let mut gone = listed_gone.len();
    for (i, c) in stored.chunks().iter().enumerate() {
        let lost = if complete { c.index.rows.len() - found_in[i] } else { 0 };
        gone += lost;
        touched[i] |= lost > 0 || c.is_small();
    }
    let changed = keep.iter().filter(|k| !k.keep).count() + gone;
    let total = if complete { keep.iter().filter(|k| k.stamped).count() } else { stored.len() + decoded.len() };
    let which: Vec<usize> = if is_small(changed, total) {
        touched.iter().enumerate().filter(|(_, t)| **t).map(|(i, _)| i).collect()
    } else {
        (0..touched.len()).collect()
    };
    decoded.extend(stored.take(&which)?);
    let mut plan = BuildPlan { stored, ..BuildPlan::default() };
    let mut failed = Vec::new();
    for ((source, stamp), Surveyed { keep, .. }) in stamped.into_iter().zip(keep) {
        let stamp = match stamp {
            Ok(stamp) => stamp,
            Err(err) => {
                errors.push(RecordError::Io { path: source.dir, source: err });
                failed.push(source.folder_id);
                continue;
            }
        };
        let previous = decoded.remove(&source.folder_id);
        match previous {
            // Kept, and left stored.
            None if keep => {}
            Some(entry) if keep => plan.keep.push((source, entry)),
            previous => plan.read.push(ReadJob { source, stamp: stamp.text, previous }),
        }
    }
    // What is left had no usable folder this time, or, after a survey of a
    // few models, was not surveyed and is kept.
    let mut removed: Vec<(String, Box<ModelEntry>)> = Vec::new();
    for (id, entry) in decoded {
        if complete || failed.contains(&id) || listed_gone.contains(&id) {
            removed.push((id, entry));
        } else {
            plan.keep.push((ModelSource { dir: models_dir.join(&id), folder_id: id }, entry));
        }
    }
    removed.sort_by(|a, b| a.0.cmp(&b.0));
    plan.removed = removed;
    errors.sort_by(|a, b| a.path().cmp(b.path()));
    plan.errors = errors;
    Ok(plan)
}

/// What `plan_build` learns of one surveyed model.
#[derive(Clone, Copy)]
struct Surveyed {
    /// Its stamp is the one the previous build recorded.
    keep: bool,
    /// The stored chunk that holds it, if one does.
    chunk: Option<usize>,
    /// It could be stamped (if not, it is not found: its entry is removed).
    stamped: bool,
}

/// A model folder's file-system stamp and the newest change time in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stamp {
    pub text: StampHash,
    pub newest_ns: u128,
}

/// What a stamp is made of: the folder itself (files added or removed),
/// `model.json` and `README.md`.
const STAMPED: [&str; 3] = ["", modelpages_record::RECORD_FILE, modelpages_record::CARD_FILE];

/// Stamps the folder itself (files added or removed), `model.json` and
/// `README.md`. Reads metadata only.
#[cfg(test)]
pub fn stamp(dir: &Path) -> io::Result<Stamp> {
    let (Some(parent), Some(name)) = (dir.parent(), dir.file_name()) else {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "not a model folder"));
    };
    let parent = if parent.as_os_str().is_empty() { Path::new(".") } else { parent };
    stamp_in(&FolderHandle::open(parent)?, name)
}

/// The stamps of the models of the namespace folder `folder`, in order.
fn stamp_namespace(folder: &Path, models: &[ModelSource]) -> Vec<io::Result<Stamp>> {
    match FolderHandle::open(folder) {
        Ok(folder) => models.iter().map(|m| stamp_in(&folder, m.dir.file_name().unwrap_or_default())).collect(),
        Err(e) => models.iter().map(|_| Err(io::Error::new(e.kind(), e.to_string()))).collect(),
    }
}

/// The stamp of model folder `name` inside `folder`: each file is looked up
/// from the open folder, one or two path components instead of the whole
/// path (at hub scale, walking whole paths was a third of a one-model rebuild).
fn stamp_in(folder: &FolderHandle, name: &std::ffi::OsStr) -> io::Result<Stamp> {
    let mut hasher = blake3::Hasher::new();
    let mut newest_ns = 0;
    // One path, its file name pushed and popped: at hub scale, three new
    // paths a model were a twentieth of a one-model rebuild.
    let mut path = std::path::PathBuf::with_capacity(name.len() + 16);
    path.push(name);
    for file in STAMPED {
        let pushed = !file.is_empty();
        if pushed {
            path.push(file);
        }
        let described = folder.describe(&path);
        if pushed {
            path.pop();
        }
        add_to_stamp(&mut hasher, &mut newest_ns, described)?;
    }
    // Kept as a short hash: a million of them sit in the manifest.
    let text = hasher.finalize().as_bytes()[..16].try_into().expect("16 of 32 bytes");
    Ok(Stamp { text, newest_ns })
}

/// Adds one file's description (or its absence) to a stamp being made;
/// an error other than "not found" is handed back for the caller to judge.
fn add_to_stamp(hasher: &mut blake3::Hasher, newest_ns: &mut u128, described: io::Result<([u8; 56], u128)>) -> io::Result<()> {
    match described {
        Ok((part, changed)) => {
            *newest_ns = (*newest_ns).max(changed);
            hasher.update(&[1]);
            hasher.update(&part);
            Ok(())
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            hasher.update(&[0]);
            Ok(())
        }
        Err(e) => Err(e),
    }
}

/// `stamp` with the stamps of the files `files` (paths in the model folder
/// `dir`) added: the files a card copies beside its page.
pub fn stamp_with_files(stamp: &Stamp, dir: &Path, files: &[String]) -> Stamp {
    let mut hasher = blake3::Hasher::new();
    hasher.update(&stamp.text);
    let mut newest_ns = stamp.newest_ns;
    let folder = FolderHandle::open(dir);
    for file in files {
        let described = match &folder {
            Ok(folder) => folder.describe(Path::new(file)),
            Err(e) => Err(io::Error::new(e.kind(), e.to_string())),
        };
        // Never equal to a stamp taken before: the model is read again.
        if let Err(e) = add_to_stamp(&mut hasher, &mut newest_ns, described) {
            hasher.update(format!("error {e} {:?}", std::time::SystemTime::now()).as_bytes());
        }
    }
    let text = hasher.finalize().as_bytes()[..16].try_into().expect("16 of 32 bytes");
    Stamp { text, newest_ns }
}

/// A folder open for looking up what is inside it.
#[cfg(unix)]
struct FolderHandle(std::os::fd::OwnedFd);

#[cfg(unix)]
impl FolderHandle {
    fn open(path: &Path) -> io::Result<FolderHandle> {
        use std::os::fd::FromRawFd;
        use std::os::unix::ffi::OsStrExt;
        let c = std::ffi::CString::new(path.as_os_str().as_bytes())?;
        // SAFETY: a valid NUL-terminated path; the descriptor is owned below.
        let fd = unsafe { libc::open(c.as_ptr(), libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC) };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: `fd` was just opened and is owned by nobody else.
        Ok(FolderHandle(unsafe { std::os::fd::OwnedFd::from_raw_fd(fd) }))
    }

    /// Size, times, inode and mode of `rel` (not following a link), and
    /// its newest change time in ns.
    fn describe(&self, rel: &Path) -> io::Result<([u8; 56], u128)> {
        use std::os::fd::AsRawFd;
        use std::os::unix::ffi::OsStrExt;
        // The path with its NUL, on the stack when short (model paths are).
        let bytes = rel.as_os_str().as_bytes();
        let mut short = [0u8; 256];
        let owned;
        let c: &std::ffi::CStr = if bytes.len() < short.len() && !bytes.contains(&0) {
            short[..bytes.len()].copy_from_slice(bytes);
            std::ffi::CStr::from_bytes_with_nul(&short[..=bytes.len()]).expect("one NUL, at the end")
        } else {
            owned = std::ffi::CString::new(bytes)?;
            &owned
        };
        let mut st = std::mem::MaybeUninit::<libc::stat>::uninit();
        // SAFETY: valid descriptor and path; `st` is read only on success.
        let rc = unsafe { libc::fstatat(self.0.as_raw_fd(), c.as_ptr(), st.as_mut_ptr(), libc::AT_SYMLINK_NOFOLLOW) };
        if rc != 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: fstatat succeeded, so it filled `st` in.
        let st = unsafe { st.assume_init() };
        let ns = |s: i64, n: i64| (s.max(0) as u128) * 1_000_000_000 + n.max(0) as u128;
        let (mtime, ctime) = (ns(st.st_mtime as i64, st.st_mtime_nsec as i64), ns(st.st_ctime as i64, st.st_ctime_nsec as i64));
        let mut part = [0u8; 56];
        for (i, value) in [st.st_size as u64, st.st_ino as u64, st.st_mode as u64].into_iter().enumerate() {
            part[i * 8..i * 8 + 8].copy_from_slice(&value.to_le_bytes());
        }
        part[24..40].copy_from_slice(&mtime.to_le_bytes());
        part[40..56].copy_from_slice(&ctime.to_le_bytes());
        Ok((part, mtime.max(ctime)))
    }
}

#[cfg(not(unix))]
struct FolderHandle(std::path::PathBuf);

#[cfg(not(unix))]
impl FolderHandle {
    fn open(path: &Path) -> io::Result<FolderHandle> {
        Ok(FolderHandle(path.to_owned()))
    }

    fn describe(&self, rel: &Path) -> io::Result<([u8; 56], u128)> {
        let meta = fs::symlink_metadata(self.0.join(rel))?;
        let mtime = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(u128::MAX, |d| d.as_nanos());
        let mut part = [0u8; 56];
        part[..8].copy_from_slice(&meta.len().to_le_bytes());
        part[24..40].copy_from_slice(&mtime.to_le_bytes());
        Ok((part, mtime))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn stamps_change_with_content_and_with_added_files() {
        let dir = tempfile::tempdir().unwrap();
        let model = dir.path().join("m");
        fs::create_dir(&model).unwrap();
        fs::write(model.join("model.json"), "{}").unwrap();
        let first = stamp(&model).unwrap();
        assert_eq!(stamp(&model).unwrap(), first, "stamps are stable");
        fs::write(model.join("model.json"), "{ }").unwrap();
        let second = stamp(&model).unwrap();
        assert_ne!(second.text, first.text, "a rewritten record changes the stamp");
        fs::write(model.join("README.md"), "# card").unwrap();
        assert_ne!(stamp(&model).unwrap().text, second.text, "a new card changes the stamp");
    }

    #[test]
    fn a_cards_files_are_in_its_stamp() {
        let dir = tempfile::tempdir().unwrap();
        let model = dir.path().join("m");
        fs::create_dir_all(model.join("assets")).unwrap();
        fs::write(model.join("model.json"), "{}").unwrap();
        let base = stamp(&model).unwrap();
        let files = ["assets/a.png".to_owned()];
        let absent = stamp_with_files(&base, &model, &files);
        assert_eq!(stamp_with_files(&base, &model, &files), absent, "stable");
        assert_ne!(absent.text, base.text);
        // Written in place in a subfolder: neither the model's folder nor
        // its record or card changes.
        fs::write(model.join("assets/a.png"), "one").unwrap();
        assert_eq!(stamp(&model).unwrap().text, base.text, "the folder's own stamp misses it");
        let present = stamp_with_files(&base, &model, &files);
        assert_ne!(present.text, absent.text);
        fs::write(model.join("assets/a.png"), "two!").unwrap();
        assert_ne!(stamp_with_files(&base, &model, &files).text, present.text);
    }

    #[test]
    fn a_model_is_kept_unread_only_while_its_cards_files_keep_their_stamps() {
        let dir = tempfile::tempdir().unwrap();
        let models = dir.path().join("models");
        let model = models.join("ns/m");
        fs::create_dir_all(model.join("assets")).unwrap();
        fs::write(model.join("model.json"), r#"{"id": "ns/m"}"#).unwrap();
        fs::write(model.join("assets/a.png"), "one").unwrap();
        let card_files = vec!["assets/a.png".to_owned()];
        let plan = |previous_stamp: &StampHash| {
            // A previous build long after every change: stamps are trusted.
            let mut manifest = Manifest::new("g".into(), u128::MAX);
            let row = ModelRow { stamp: *previous_stamp, card_files: card_files.clone(), ..ModelRow::default() };
            let entry = ModelEntry::new(row, [0; 32], Default::default(), Vec::new());
            manifest.models.insert("ns/m".into(), Box::new(entry));
            plan_build(survey_models(&models).unwrap(), Some(manifest)).unwrap()
        };
        let whole = stamp_with_files(&stamp(&model).unwrap(), &model, &card_files).text;
        let kept = plan(&whole);
        assert_eq!((kept.keep.len(), kept.read.len()), (1, 0), "unchanged: kept without reading");
        assert_eq!(plan(&stamp(&model).unwrap().text).read.len(), 1, "a stamp without the card's files is not the model's");
        fs::write(model.join("assets/a.png"), "two").unwrap();
        assert_eq!(plan(&whole).read.len(), 1, "an image changed in place is read again");
    }

    #[test]
    fn only_the_chunks_holding_a_model_read_or_removed_are_decoded() {
        use crate::store::manifest::folder_identity;
        use crate::store::output::OutputFolder;
        use crate::store::stored_models::CHUNK;
        let dir = tempfile::tempdir().unwrap();
        let models = dir.path().join("models");
        let count = CHUNK * 4;
        for i in 0..count {
            let folder = models.join(format!("ns/m{i:05}"));
            fs::create_dir_all(&folder).unwrap();
            fs::write(folder.join("model.json"), "{}").unwrap();
        }
        // A previous build that saw every model as it is now, long after
        // every change: stamps are trusted.
        let out = dir.path().join("dist");
        fs::create_dir(&out).unwrap();
        let mut manifest = Manifest::new("g".into(), u128::MAX);
        manifest.site = folder_identity(&out).unwrap();
        for (source, stamp) in survey_models(&models).unwrap().stamped {
            let row = ModelRow { stamp: stamp.unwrap().text, ..ModelRow::default() };
            manifest.models.insert(source.folder_id, Box::new(ModelEntry::new(row, [0; 32], Default::default(), Vec::new())));
        }
        fs::write(OutputFolder::new(&out).manifest(), manifest.to_bytes()).unwrap();
        let plan = || plan_build(survey_models(&models).unwrap(), Manifest::load_matching(&out, "g")).unwrap();
        let unchanged = plan();
        assert_eq!((unchanged.read.len(), unchanged.keep.len(), unchanged.stored.len()), (0, 0, count), "nothing decoded");
        // One model rewritten, one removed, in two chunks: those two are decoded.
        fs::write(models.join("ns/m00005/model.json"), "{ }").unwrap();
        fs::remove_dir_all(models.join(format!("ns/m{:05}", CHUNK * 2 + 3))).unwrap();
        let changed = plan();
        assert_eq!(changed.read.len(), 1);
        assert_eq!(changed.read[0].source.folder_id, "ns/m00005");
        assert!(changed.read[0].previous.is_some(), "read with its previous entry");
        assert_eq!(changed.removed.len(), 1);
        assert_eq!(changed.stored.chunks().len(), 2, "the chunks with no change stay stored");
        assert_eq!(changed.keep.len(), 2 * CHUNK - 2, "the other models of the two decoded chunks");
        assert_eq!(changed.model_count(), count - 1);
    }
}
