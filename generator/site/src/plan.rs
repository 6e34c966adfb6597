//! Stage 1 of a build: find every model folder and decide, from the previous
//! build's manifest, which models must be read and rendered, which are kept
//! as they are, and which were deleted.
//!
//! Deciding must not read 100,000 records when one changed, so a model whose
//! files carry the same file-system stamp (size, times, inode) as last time is
//! kept without being read, as git does with its index. A stamp is trusted only
//! for files last changed well before the previous build started; anything
//! newer is read and hashed (the render stage compares the hash).

use std::fs;
use std::io;
use std::path::Path;

use modelpages_record::{discover, ModelSource, RecordError};
use rayon::prelude::*;

use crate::corpus::reject_layout_clashes;
use crate::manifest::{Manifest, ModelEntry};

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
    pub keep: Vec<(ModelSource, ModelEntry)>,
    /// Models of the previous build whose folders are gone (or now unusable).
    pub removed: Vec<(String, ModelEntry)>,
    /// Folders that cannot be models, sorted by path.
    pub errors: Vec<RecordError>,
}

/// A model whose files must be read.
#[derive(Debug)]
pub struct ReadJob {
    pub source: ModelSource,
    /// The stamp its folder, record and card have now (without the files
    /// its card copies: see [`stamp_with_files`]).
    pub stamp: String,
    /// What the previous build made of it, if it had it.
    pub previous: Option<ModelEntry>,
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
    let stamped = with_io_threads(|| {
        sources.into_par_iter().map(|source| {
            let stamp = stamp(&source.dir).map_err(|e| RecordError::Io { path: source.dir.clone(), source: e });
            (source, stamp)
        }).collect()
    });
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
    let mut removed: Vec<(String, ModelEntry)> = previous_models.into_iter().collect();
    removed.sort_by(|a, b| a.0.cmp(&b.0));
    plan.removed = removed;
    errors.sort_by(|a, b| a.path().cmp(b.path()));
    plan.errors = errors;
    plan
}

/// Runs `work` on a pool wider than the machine: looking up 300,000 paths
/// waits on the file system far more than it computes. One pool serves every
/// stage that needs it (discovery, stamps, keeping pages, removing a tree).
pub fn with_io_threads<R: Send>(work: impl FnOnce() -> R + Send) -> R {
    static POOL: std::sync::OnceLock<Option<rayon::ThreadPool>> = std::sync::OnceLock::new();
    match POOL.get_or_init(|| rayon::ThreadPoolBuilder::new().num_threads(8).build().ok()) {
        Some(pool) => pool.install(work),
        None => work(),
    }
}

/// A model folder's file-system stamp and the newest change time in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stamp {
    pub text: String,
    pub newest_ns: u128,
}

/// Stamps the folder itself (files added or removed), `model.json` and
/// `README.md`. Reads metadata only.
pub fn stamp(dir: &Path) -> io::Result<Stamp> {
    let mut text = String::with_capacity(160);
    let mut newest_ns = 0;
    for name in ["", modelpages_record::RECORD_FILE, modelpages_record::CARD_FILE] {
        let path = if name.is_empty() { dir.to_owned() } else { dir.join(name) };
        match fs::symlink_metadata(&path) {
            Ok(meta) => {
                let (part, changed) = describe(&meta);
                newest_ns = newest_ns.max(changed);
                text.push_str(&part);
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => text.push('-'),
            Err(e) => return Err(e),
        }
        text.push(';');
    }
    // Kept as a short hash: 100,000 of them sit in the manifest.
    let text = blake3::hash(text.as_bytes()).to_hex()[..32].to_owned();
    Ok(Stamp { text, newest_ns })
}

/// `stamp` with the stamps of the files `files` (paths in the model folder
/// `dir`) added: the files a card copies beside its page.
pub fn stamp_with_files(stamp: &Stamp, dir: &Path, files: &[String]) -> Stamp {
    let mut text = stamp.text.clone();
    let mut newest_ns = stamp.newest_ns;
    for file in files {
        text.push(';');
        match fs::symlink_metadata(dir.join(file)) {
            Ok(meta) => {
                let (part, changed) = describe(&meta);
                newest_ns = newest_ns.max(changed);
                text.push_str(&part);
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => text.push('-'),
            // Never equal to a stamp taken before: the model is read again.
            Err(e) => text.push_str(&format!("error {e} {:?}", std::time::SystemTime::now())),
        }
    }
    Stamp { text: blake3::hash(text.as_bytes()).to_hex()[..32].to_owned(), newest_ns }
}

#[cfg(unix)]
fn describe(meta: &fs::Metadata) -> (String, u128) {
    use std::os::unix::fs::MetadataExt;
    let ns = |s: i64, n: i64| (s.max(0) as u128) * 1_000_000_000 + n.max(0) as u128;
    let (mtime, ctime) = (ns(meta.mtime(), meta.mtime_nsec()), ns(meta.ctime(), meta.ctime_nsec()));
    (format!("{}:{}:{}:{}:{:o}", meta.len(), mtime, ctime, meta.ino(), meta.mode()), mtime.max(ctime))
}

#[cfg(not(unix))]
fn describe(meta: &fs::Metadata) -> (String, u128) {
    let mtime = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(u128::MAX, |d| d.as_nanos());
    (format!("{}:{}", meta.len(), mtime), mtime)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let plan = |previous_stamp: &str| {
            // A previous build long after every change: stamps are trusted.
            let mut manifest = Manifest::new("g".into(), u128::MAX);
            let summary = modelpages_render::ModelSummary {
                id: "ns/m".into(),
                url: "/ns/m/".into(),
                task: None,
                library: None,
                downloads: None,
                likes: None,
                tags: Vec::new(),
            };
            let entry = ModelEntry {
                input: String::new(),
                stamp: previous_stamp.to_owned(),
                summary,
                notes: Vec::new(),
                files: Vec::new(),
                card_files: card_files.clone(),
            };
            manifest.models.insert("ns/m".into(), entry);
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
