//! Stage 4 of a build, writing: either a fresh tree swapped in whole
//! ([`Staging`]) or a few files changed in place ([`Transaction`]). The
//! pipeline writes through [`SiteWriter`] and does not care which.

use std::fs;
use std::path::Path;

use crate::journal::Transaction;
use crate::manifest::{folder_identity, manifest_path, Manifest};
use crate::output::{io_error, OutputError, Staging};

pub enum SiteWriter {
    /// A whole new site, staged beside the output; unchanged model pages are
    /// hard-linked from the previous one.
    Fresh { staging: Staging, previous: std::path::PathBuf },
    /// Only what changed, applied to the output in one transaction.
    InPlace(Transaction),
}

impl SiteWriter {
    /// Writes a model's file (its page changed, or it is new).
    pub fn write(&self, rel: &str, bytes: &[u8]) -> Result<(), OutputError> {
        match self {
            SiteWriter::Fresh { staging, .. } => staging.write(rel, bytes),
            SiteWriter::InPlace(txn) => txn.write(rel, bytes),
        }
    }

    /// Writes a site file that often stays the same (listings, assets); an
    /// unchanged one keeps its file.
    pub fn write_listing(&self, rel: &str, bytes: &[u8]) -> Result<(), OutputError> {
        match self {
            SiteWriter::Fresh { staging, previous } => staging.write_or_link(previous, rel, bytes),
            SiteWriter::InPlace(txn) => txn.write_if_changed(rel, bytes),
        }
    }

    /// Keeps an unchanged model's file from the previous site; false when it
    /// is missing there (the model must be rendered again). In place the
    /// manifest is trusted, once `site_folder::site_is_whole` found the site
    /// whole: checking 300,000 files took a third of a one-model rebuild at
    /// hub scale.
    pub fn keep(&self, rel: &str) -> bool {
        match self {
            SiteWriter::Fresh { staging, previous } => staging.link_from(previous, rel).is_ok(),
            SiteWriter::InPlace(_) => true,
        }
    }

    /// Removes a file of the previous site (a fresh site never had it).
    pub fn remove(&self, rel: &str) {
        if let SiteWriter::InPlace(txn) = self {
            txn.remove(rel);
        }
    }

    /// Device and inode of the folder that becomes the output, for the manifest.
    pub fn site_identity(&self, out: &Path) -> (u64, u64) {
        match self {
            SiteWriter::Fresh { staging, .. } => folder_identity(staging.path()),
            SiteWriter::InPlace(_) => folder_identity(out),
        }
        .unwrap_or_default()
    }

    /// Makes the new site the output and records `manifest` (naming
    /// [`SiteWriter::site_identity`]) for the next build. It is written
    /// straight to its file: at hub scale it is hundreds of megabytes.
    pub fn commit(self, out: &Path, manifest: &Manifest) -> Result<(), OutputError> {
        let path = manifest_path(out);
        match self {
            SiteWriter::Fresh { staging, .. } => {
                // Written before the swap and naming the staged folder: if the
                // swap never happens, the manifest describes no site and the
                // next build is a full one. One that was not there before
                // goes again, so a failed build leaves nothing behind.
                let existed = fs::symlink_metadata(&path).is_ok();
                write_atomically(&path, |w| manifest.write_to(w))?;
                staging.commit().inspect_err(|_| {
                    if !existed {
                        let _ = fs::remove_file(&path);
                    }
                })
            }
            SiteWriter::InPlace(txn) => txn.commit(|w| manifest.write_to(w)),
        }
    }
}

fn write_atomically(path: &Path, write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>) -> Result<(), OutputError> {
    let mut staged = path.as_os_str().to_owned();
    staged.push(".tmp");
    let staged = std::path::PathBuf::from(staged);
    // A new file, never one found there: a link left in its place would
    // have the manifest written wherever it points.
    let _ = fs::remove_file(&staged);
    let written = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&staged)
        .and_then(|file| {
            let mut out = std::io::BufWriter::new(file);
            write(&mut out).and_then(|()| std::io::Write::flush(&mut out))
        })
        .map_err(io_error(&staged))
        .and_then(|()| fs::rename(&staged, path).map_err(io_error(path)));
    if written.is_err() {
        let _ = fs::remove_file(&staged);
    }
    written
}
