//! The build manifest: what the site in an output folder was built from, so
//! the next build re-renders only models whose files changed.
//!
//! It lives beside the output (`.dist.manifest.json` for `dist`), not inside
//! it, so deploying the site does not upload it. It names the output folder it
//! describes by device and inode: a site replaced by other means is not trusted.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use modelpages_render::ModelSummary;
use serde::{Deserialize, Serialize};

use crate::output::sibling;

const VERSION: u32 = 2;

/// One model as the previous build saw it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ModelEntry {
    /// Hash of the model's files (record and card).
    pub input: String,
    /// File-system stamp of those files (see `plan::stamp`): when it is
    /// unchanged the files are not even read.
    pub stamp: String,
    pub summary: ModelSummary,
    pub notes: Vec<String>,
    /// Every file the model wrote, relative to the output folder.
    pub files: Vec<String>,
}

#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Manifest {
    version: u32,
    /// Hash of everything every page depends on: the program, the site
    /// sources and the settings. A change means a full build.
    pub global: String,
    /// When the build that wrote this manifest started (ns since the epoch):
    /// stamps of files changed after that are not trusted.
    pub started_ns: u128,
    /// Device and inode of the output folder this manifest describes.
    pub site: (u64, u64),
    /// By model id.
    pub models: HashMap<String, ModelEntry>,
}

/// Where the manifest of the site in `out` is kept.
pub fn manifest_path(out: &Path) -> PathBuf {
    sibling(out, ".manifest.json")
}

impl Manifest {
    pub fn new(global: String, started_ns: u128) -> Manifest {
        Manifest { version: VERSION, global, started_ns, site: (0, 0), models: HashMap::new() }
    }

    /// The manifest of the site in `out`, if that very folder was built by
    /// this program from the same site sources and settings (`global`).
    pub fn load_matching(out: &Path, global: &str) -> Option<Manifest> {
        let bytes = fs::read(manifest_path(out)).ok()?;
        let manifest: Manifest = serde_json::from_slice(&bytes).ok()?;
        let current = folder_identity(out)?;
        (manifest.version == VERSION && manifest.global == global && manifest.site == current).then_some(manifest)
    }

    /// The manifest as written; models in id order so the same site always
    /// gives the same bytes.
    pub fn to_json(&self) -> String {
        let mut models: Vec<(&String, &ModelEntry)> = self.models.iter().collect();
        models.sort_unstable_by(|a, b| a.0.cmp(b.0));
        let models: serde_json::Map<String, serde_json::Value> = models
            .into_iter()
            .map(|(id, entry)| (id.clone(), serde_json::to_value(entry).expect("entries serialise")))
            .collect();
        serde_json::to_string(&serde_json::json!({
            "version": self.version,
            "global": self.global,
            "started_ns": self.started_ns,
            "site": self.site,
            "models": models,
        }))
        .expect("manifests serialise")
    }
}

/// Device and inode of a folder; `None` when it does not exist.
pub fn folder_identity(dir: &Path) -> Option<(u64, u64)> {
    let meta = fs::metadata(dir).ok()?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some((meta.dev(), meta.ino()))
    }
    #[cfg(not(unix))]
    {
        // Without inodes the creation time is the best identity there is.
        let created = meta.created().ok()?.duration_since(std::time::UNIX_EPOCH).ok()?;
        Some((0, created.as_nanos() as u64))
    }
}

/// Hash of a model's input files: what decides whether its page must be
/// rendered again.
pub fn input_hash(record: &[u8], card: Option<&[u8]>) -> String {
    let mut hasher = blake3::Hasher::new();
    hasher.update(&(record.len() as u64).to_le_bytes());
    hasher.update(record);
    if let Some(card) = card {
        hasher.update(b"card");
        hasher.update(card);
    }
    hasher.finalize().to_hex().to_string()
}

/// Hash of what every page depends on: this program's own bytes (templates
/// and catalogue are compiled in), every file of the site sources used, and
/// the settings.
pub fn global_hash(site_src: &Path, settings: &impl Serialize) -> std::io::Result<String> {
    let mut hasher = blake3::Hasher::new();
    if let Ok(exe) = std::env::current_exe() {
        hasher.update(&fs::read(exe)?);
    }
    for dir in ["templates", "static", "build"] {
        let root = site_src.join(dir);
        if !root.exists() {
            continue;
        }
        let mut files: Vec<_> = walkdir::WalkDir::new(&root).into_iter().filter_map(Result::ok).filter(|e| e.file_type().is_file()).collect();
        files.sort_by(|a, b| a.path().cmp(b.path()));
        for file in files {
            hasher.update(file.path().to_string_lossy().as_bytes());
            hasher.update(&fs::read(file.path())?);
        }
    }
    hasher.update(serde_json::to_string(settings).unwrap_or_default().as_bytes());
    Ok(hasher.finalize().to_hex().to_string())
}
