//! Stage 1 of a build: find every model folder and decide, from the previous
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

use modelpages_record::{discover, ModelSource, RecordError};
use rayon::prelude::*;

use crate::corpus::reject_layout_clashes;
use crate::store::io_pool::with_io_threads;
use crate::store::manifest::{Manifest, ModelEntry, StampHash};

/// Changes closer than this to the previous build's start could have been
/// missed by a stamp taken during that build (coarse file-system clocks).
const RACY_WINDOW_NS: u128 = 2_000_000_000;

/// What a build has to do.
#[derive(Debug, Default)]
pub struct BuildPlan {
    /// Models to read (and render unless their content hash is unchanged),
    /// in id order.
    pub read: Vec<ReadJob>,
    /// Models kept from the previous build without reading their files.
    pub keep: Vec<(ModelSource, Box<ModelEntry>)>,
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
        self.read.len() + self.keep.len()
    }
}

/// Every model folder found, with its stamp as it is now; what a plan is made of.
#[derive(Debug)]
pub struct Survey {
    stamped: Vec<(ModelSource, Result<Stamp, RecordError>)>,
    errors: Vec<RecordError>,
}

/// Finds and stamps every model folder of `models_dir`; needs no manifest, so
/// it can run while the manifest is read.
pub fn survey_models(models_dir: &Path) -> Result<Survey, RecordError> {
    let found = with_io_threads(|| discover(models_dir))?;
    let mut errors = found.errors;
    let sources = reject_layout_clashes(found.sources, |s| &s.folder_id, |s| s.record_path(), &mut errors);
    // A namespace's models come together (ids are sorted): each namespace
    // folder is opened once and its models stamped from there.
    let by_namespace: Vec<&[ModelSource]> = sources.chunk_by(|a, b| a.dir.parent() == b.dir.parent()).collect();
    let stamps: Vec<Vec<io::Result<Stamp>>> = with_io_threads(|| by_namespace.into_par_iter().map(stamp_namespace).collect());
    let stamped = sources
        .into_iter()
        .zip(stamps.into_iter().flatten())
        .map(|(source, stamp)| {
            let stamp = stamp.map_err(|e| RecordError::Io { path: source.dir.clone(), source: e });
            (source, stamp)
        })
        .collect();
    Ok(Survey { stamped, errors })
}

/// Plans a build from a survey of the models folder and the previous build's
/// manifest (taken over: entries move into the plan).
pub fn plan_build(survey: Survey, previous: Option<Manifest>) -> BuildPlan {
    let Survey { stamped, mut errors } = survey;
    let (mut previous_models, trusted_before) = match previous {
        Some(m) => (m.models, m.started_ns.saturating_sub(RACY_WINDOW_NS)),
        None => Default::default(),
    };
    let mut plan = BuildPlan::default();
    for (source, stamp) in stamped {
        let stamp = match stamp {
            Ok(stamp) => stamp,
            Err(err) => {
                errors.push(err);
                continue;
            }
        };
        let previous = previous_models.remove(&source.folder_id);
        // A model whose card copies files is stamped with them too.
        let whole = match &previous {
            Some(entry) if !entry.card_files.is_empty() => stamp_with_files(&stamp, &source.dir, &entry.card_files),
            _ => stamp.clone(),
        };
        match previous {
            Some(entry) if whole.newest_ns < trusted_before && entry.stamp == whole.text => plan.keep.push((source, entry)),
            previous => plan.read.push(ReadJob { source, stamp: stamp.text, previous }),
        }
    }
    // What is left had no usable folder this time.
    let mut removed: Vec<(String, Box<ModelEntry>)> = previous_models.into_iter().collect();
    removed.sort_by(|a, b| a.0.cmp(&b.0));
    plan.removed = removed;
    errors.sort_by(|a, b| a.path().cmp(b.path()));
    plan.errors = errors;
    plan
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

/// The stamps of models that share a namespace folder, in order.
fn stamp_namespace(models: &[ModelSource]) -> Vec<io::Result<Stamp>> {
    let parent = models[0].dir.parent().unwrap_or(Path::new("."));
    match FolderHandle::open(parent) {
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
    for file in STAMPED {
        let path = if file.is_empty() { Path::new(name).to_owned() } else { Path::new(name).join(file) };
        add_to_stamp(&mut hasher, &mut newest_ns, folder.describe(&path))?;
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
        let c = std::ffi::CString::new(rel.as_os_str().as_bytes())?;
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
            let summary = modelpages_render::ModelSummary {
                id: "ns/m".into(),
                url: "/ns/m/".into(),
                task: None,
                library: None,
                downloads: None,
                likes: None,
                tags: Default::default(),
            };
            let entry = ModelEntry {
                input: [0; 32],
                stamp: *previous_stamp,
                summary,
                notes: Vec::new(),
                files: Vec::new(),
                card_files: card_files.clone(), bases: Vec::new(), hidden: false, tree: [0; 16],
            };
            manifest.models.insert("ns/m".into(), Box::new(entry));
            plan_build(survey_models(&models).unwrap(), Some(manifest))
        };
        let whole = stamp_with_files(&stamp(&model).unwrap(), &model, &card_files).text;
        let kept = plan(&whole);
        assert_eq!((kept.keep.len(), kept.read.len()), (1, 0), "unchanged: kept without reading");
        assert_eq!(plan(&stamp(&model).unwrap().text).read.len(), 1, "a stamp without the card's files is not the model's");
        fs::write(model.join("assets/a.png"), "two").unwrap();
        assert_eq!(plan(&whole).read.len(), 1, "an image changed in place is read again");
    }
}
