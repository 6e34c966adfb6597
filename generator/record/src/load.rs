//! Finding model folders under a models directory and loading each one.
//!
//! Layout: `<models>/<namespace>/<name>/model.json` plus an optional
//! `README.md`. Links are never followed, so nothing outside the models
//! directory is read through a record.

use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::shown::printable;
use crate::{merge_front_matter, ModelCard, ModelId, ModelRecord};

pub const RECORD_FILE: &str = "model.json";
pub const CARD_FILE: &str = "README.md";

/// Largest `model.json` read. The Hub's own records stay far below it (a
/// record listing ten thousand files is about 1 MB); anything larger is a
/// mistake or an attack on the build's memory and the page's size.
pub const MAX_RECORD_BYTES: u64 = 16 << 20;
/// Largest `README.md` read: far above any real card, small enough that one
/// card cannot make a page visitors cannot load.
pub const MAX_CARD_BYTES: u64 = 8 << 20;

/// A problem with one model's files. Every variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error("{}: {source}", shown(path))]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// `model.json` is not valid JSON for a record.
    #[error("{}:{line}:{column}: {message}", shown(path))]
    Syntax { path: PathBuf, line: usize, column: usize, message: String },
    /// The file parses but breaks a rule (id, layout, links, encoding).
    #[error("{}: {message}", shown(path))]
    Invalid { path: PathBuf, message: String },
}

/// A path as the build log shows it (see [`printable`]).
fn shown(path: &Path) -> String {
    printable(&path.to_string_lossy())
}

/// A card whose front matter does not parse, at its line and column in
/// `README.md` when the parser knows them.
fn card_error(card_path: &Path, err: crate::FrontMatterError) -> RecordError {
    match err {
        crate::FrontMatterError::Invalid { line: Some(line), column: Some(column), .. } => {
            RecordError::Syntax { path: card_path.to_owned(), line, column, message: err.to_string() }
        }
        other => RecordError::invalid(card_path, other.to_string()),
    }
}

impl RecordError {
    pub fn path(&self) -> &Path {
        match self {
            RecordError::Io { path, .. }
            | RecordError::Syntax { path, .. }
            | RecordError::Invalid { path, .. } => path,
        }
    }

    fn invalid(path: impl Into<PathBuf>, message: impl Into<String>) -> RecordError {
        RecordError::Invalid { path: path.into(), message: message.into() }
    }
}

/// A model folder found on disk, not yet read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelSource {
    pub dir: PathBuf,
    /// `namespace/name` from the folder path; the record's id must equal it.
    pub folder_id: String,
}

impl ModelSource {
    pub fn record_path(&self) -> PathBuf {
        self.dir.join(RECORD_FILE)
    }

    pub fn card_path(&self) -> PathBuf {
        self.dir.join(CARD_FILE)
    }
}

/// A model whose record and card were read and validated.
#[derive(Clone, Debug)]
pub struct LoadedModel {
    pub id: ModelId,
    /// The record, its `cardData` merged with the card's front matter.
    pub record: ModelRecord,
    pub card: Option<ModelCard>,
    pub source: ModelSource,
}

/// Model folders under `models_dir`, in file-name order, and the entries that
/// could not be used as one.
#[derive(Debug, Default)]
pub struct Discovery {
    pub sources: Vec<ModelSource>,
    pub errors: Vec<RecordError>,
}

/// Lists the model folders of `models_dir` (two levels deep). Hidden entries
/// and stray files are skipped; links are reported, not followed. Namespace
/// folders are listed in parallel (on the caller's rayon pool): at hub scale
/// there are thousands of them and listing them one by one waits on the disk.
pub fn discover(models_dir: &Path) -> Result<Discovery, RecordError> {
    discover_each(models_dir, |_, _| ()).map(|(found, _)| found)
}

/// [`discover`], running `each` on every namespace folder's models (its path
/// and its models, in order) as soon as that folder is listed, on the same
/// thread: what is done next to each model finds its folder still in the
/// caches. Gives what `each` made, one per namespace with models, in order.
pub fn discover_each<T: Send>(
    models_dir: &Path,
    each: impl Fn(&Path, &[ModelSource]) -> T + Sync,
) -> Result<(Discovery, Vec<T>), RecordError> {
    let meta = fs::metadata(models_dir)
        .map_err(|source| RecordError::Io { path: models_dir.to_owned(), source })?;
    if !meta.is_dir() {
        return Err(RecordError::invalid(models_dir, "not a directory"));
    }
    let top = sorted_entries(models_dir).map_err(|source| RecordError::Io { path: models_dir.to_owned(), source })?;
    let parts: Vec<(Discovery, Option<T>)> = top
        .into_par_iter()
        .map(|entry| {
            let mut found = Discovery::default();
            let Some((path, namespace)) = folder(models_dir, entry, &mut found) else { return (found, None) };
            match sorted_entries(&path) {
                Ok(entries) => {
                    for entry in entries {
                        if let Some((dir, name)) = folder(&path, entry, &mut found) {
                            match (namespace.to_str(), name.to_str()) {
                                (Some(ns), Some(name)) => {
                                    found.sources.push(ModelSource { dir, folder_id: format!("{ns}/{name}") })
                                }
                                _ => found.errors.push(RecordError::invalid(dir, "folder name is not valid UTF-8")),
                            }
                        }
                    }
                }
                Err(source) => found.errors.push(RecordError::Io { path: path.clone(), source }),
            }
            let made = (!found.sources.is_empty()).then(|| each(&path, &found.sources));
            (found, made)
        })
        .collect();
    let mut found = Discovery { sources: Vec::with_capacity(parts.iter().map(|p| p.0.sources.len()).sum()), errors: Vec::new() };
    let mut made = Vec::with_capacity(parts.len());
    for (part, part_made) in parts {
        found.sources.extend(part.sources);
        found.errors.extend(part.errors);
        made.extend(part_made);
    }
    Ok((found, made))
}

/// The entries of a folder with their names, sorted by name; an entry that
/// cannot be read is kept as its error (those come first).
fn sorted_entries(dir: &Path) -> io::Result<Vec<io::Result<(std::ffi::OsString, fs::DirEntry)>>> {
    // Each name taken once: `DirEntry::file_name` makes a new string per
    // call, and comparing through it was most of listing a million folders.
    let mut entries: Vec<io::Result<(std::ffi::OsString, fs::DirEntry)>> =
        fs::read_dir(dir)?.map(|entry| entry.map(|e| (e.file_name(), e))).collect();
    entries.sort_unstable_by(|a, b| match (a, b) {
        (Ok(a), Ok(b)) => a.0.cmp(&b.0),
        (a, b) => a.is_ok().cmp(&b.is_ok()),
    });
    Ok(entries)
}

/// The path and name of `entry` if it is a folder to descend into; links
/// and unreadable entries are noted in `found`, hidden entries and files
/// skipped.
fn folder(
    parent: &Path,
    entry: io::Result<(std::ffi::OsString, fs::DirEntry)>,
    found: &mut Discovery,
) -> Option<(PathBuf, std::ffi::OsString)> {
    let (name, entry) = match entry {
        Ok(entry) => entry,
        Err(source) => {
            found.errors.push(RecordError::Io { path: parent.to_owned(), source });
            return None;
        }
    };
    if name.as_encoded_bytes().starts_with(b".") {
        return None;
    }
    let kind = match entry.file_type() {
        Ok(kind) => kind,
        Err(source) => {
            found.errors.push(RecordError::Io { path: entry.path(), source });
            return None;
        }
    };
    if kind.is_symlink() {
        found.errors.push(RecordError::invalid(
            entry.path(),
            "is a symbolic link; links under the models directory are not followed",
        ));
        return None;
    }
    kind.is_dir().then(|| (entry.path(), name))
}

/// The raw files of a model folder: `model.json` and, if present, `README.md`.
#[derive(Clone, Debug)]
pub struct RecordFiles {
    pub record: Vec<u8>,
    pub card: Option<Vec<u8>>,
}

/// Reads one model folder's files without parsing them (links refused).
pub fn read_record_files(source: &ModelSource) -> Result<RecordFiles, RecordError> {
    let record = read_regular_file(&source.record_path(), MAX_RECORD_BYTES)?
        .ok_or_else(|| RecordError::invalid(&source.dir, "no model.json in this model folder"))?;
    let card = read_regular_file(&source.card_path(), MAX_CARD_BYTES)?;
    Ok(RecordFiles { record, card })
}

/// Reads and validates one model folder.
pub fn load_model(source: &ModelSource) -> Result<LoadedModel, RecordError> {
    parse_model(source, read_record_files(source)?)
}

/// Parses and validates the files of one model folder.
pub fn parse_model(source: &ModelSource, files: RecordFiles) -> Result<LoadedModel, RecordError> {
    let record_path = source.record_path();
    let record = parse_record(&record_path, &files.record)?;
    let id = ModelId::parse(&record.id)
        .map_err(|e| RecordError::invalid(&record_path, format!("invalid id {:?}: {e}", record.id)))?;
    if id.as_str() != source.folder_id {
        return Err(RecordError::invalid(
            &record_path,
            format!("id {:?} does not match its folder {:?}", record.id, source.folder_id),
        ));
    }
    let card_path = source.card_path();
    let mut record = record;
    let card = match files.card {
        None => None,
        Some(bytes) => {
            let text = String::from_utf8(bytes)
                .map_err(|e| RecordError::invalid(&card_path, format!("not valid UTF-8 ({e})")))?;
            let mut card = ModelCard::parse(&text).map_err(|e| card_error(&card_path, e))?;
            // Read from the record's `cardData` from now on (see `card_meta`).
            merge_front_matter(&mut record.card_data, std::mem::take(&mut card.front_matter));
            Some(card)
        }
    };
    Ok(LoadedModel { id, record, card, source: source.clone() })
}

/// Parses `model.json` bytes; errors carry the line and column.
pub fn parse_record(path: &Path, bytes: &[u8]) -> Result<ModelRecord, RecordError> {
    // Editors on some systems save JSON with a byte-order mark; it carries no data.
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    serde_json::from_slice(bytes).map_err(|e| {
        let (line, column) = (e.line(), e.column());
        let full = e.to_string();
        let suffix = format!(" at line {line} column {column}");
        let message = full.strip_suffix(&suffix).unwrap_or(&full).to_owned();
        RecordError::Syntax { path: path.to_owned(), line, column, message }
    })
}

/// Reads `path` if it is a regular file of at most `limit` bytes; `None` if
/// it does not exist. A link, a folder, a FIFO or a device in its place is an
/// error, so a record can neither point outside nor stall the build.
fn read_regular_file(path: &Path, limit: u64) -> Result<Option<Vec<u8>>, RecordError> {
    let io_error = |source| RecordError::Io { path: path.to_owned(), source };
    let meta = match fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(io_error(source)),
    };
    if meta.file_type().is_symlink() {
        return Err(RecordError::invalid(path, "is a symbolic link; links are not followed"));
    }
    if !meta.is_file() {
        return Err(RecordError::invalid(path, "is not a regular file"));
    }
    // The file may have been swapped since the check.
    let (file, meta) = open_regular_file(path)?;
    let too_large = |size: u64| {
        RecordError::invalid(path, format!("is {size} bytes; at most {limit} bytes ({} MiB) are read", limit >> 20))
    };
    if meta.len() > limit {
        return Err(too_large(meta.len()));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit + 1).read_to_end(&mut bytes).map_err(io_error)?;
    if bytes.len() as u64 > limit {
        // It grew while being read.
        return Err(too_large(bytes.len() as u64));
    }
    Ok(Some(bytes))
}

/// Opens `path` for reading if it is a regular file, judged on what was
/// opened: a link is not followed and opening a FIFO does not wait for a
/// writer, so a file swapped for either after an earlier look can neither
/// point outside the models folder nor stall the build. Every file of a
/// model folder is opened this way; the file comes with its metadata.
pub fn open_regular_file(path: &Path) -> Result<(fs::File, fs::Metadata), RecordError> {
    let file = open_no_follow(path).map_err(|source| {
        #[cfg(unix)]
        if source.raw_os_error() == Some(libc::ELOOP) {
            return RecordError::invalid(path, "is a symbolic link; links are not followed");
        }
        RecordError::Io { path: path.to_owned(), source }
    })?;
    let meta = file.metadata().map_err(|source| RecordError::Io { path: path.to_owned(), source })?;
    if !meta.is_file() {
        return Err(RecordError::invalid(path, "is not a regular file"));
    }
    Ok((file, meta))
}

#[cfg(unix)]
fn open_no_follow(path: &Path) -> io::Result<fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    fs::File::options().read(true).custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK).open(path)
}

#[cfg(not(unix))]
fn open_no_follow(path: &Path) -> io::Result<fs::File> {
    fs::File::open(path)
}
