//! Stage 7 of a build, writing: either a fresh tree swapped in whole
//! ([`Staging`]) or a few files changed in place ([`Transaction`]). The
//! pipeline writes through [`SiteWriter`] and does not care which.
//!
//! The writer also notes what the new site changes in the live one (a
//! [`ChangeLog`]): [`SiteWriter::commit`] hands those changes back for the
//! change set that `modelpages deploy` uploads (see [`crate::store::changes`]).

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use crate::store::changes::{compare_live, Change, ChangeLog, LiveFile};
use crate::store::journal::Transaction;
use crate::store::manifest::{folder_identity, Manifest};
use crate::store::output::{write_file_atomically, OutputError, OutputFolder, Staging};

pub struct SiteWriter {
    target: Target,
    log: ChangeLog,
}

enum Target {
    /// A whole new site, staged beside the output; unchanged model pages are
    /// hard-linked from the previous one.
    Fresh { staging: Staging, previous: std::path::PathBuf },
    /// Only what changed, applied to the output in one transaction.
    InPlace(Transaction),
    /// Nowhere: `check` makes every file a build makes and keeps none.
    Nowhere,
}

impl SiteWriter {
    /// A whole new site staged in `staging`, replacing `previous`; `log`
    /// notes what it changes.
    pub(crate) fn fresh(staging: Staging, previous: std::path::PathBuf, log: ChangeLog) -> SiteWriter {
        SiteWriter { target: Target::Fresh { staging, previous }, log }
    }

    /// Changes applied in place by `txn`.
    pub(crate) fn in_place(txn: Transaction, log: ChangeLog) -> SiteWriter {
        SiteWriter { target: Target::InPlace(txn), log }
    }

    /// A writer that keeps nothing (see [`Target::Nowhere`]).
    pub(crate) fn nowhere() -> SiteWriter {
        SiteWriter { target: Target::Nowhere, log: ChangeLog::new(Path::new(""), false) }
    }

    /// Writes a model's file (its page changed, or it is new).
    pub fn write(&self, rel: &str, bytes: &[u8]) -> Result<(), OutputError> {
        self.log.note_bytes(rel, bytes);
        match &self.target {
            Target::Fresh { staging, .. } => staging.write(rel, bytes),
            Target::InPlace(txn) => txn.write(rel, bytes),
            Target::Nowhere => Ok(()),
        }
    }

    /// Writes a site file that often stays the same (listings, assets); an
    /// unchanged one keeps its file.
    pub fn write_listing(&self, rel: &str, bytes: &[u8]) -> Result<(), OutputError> {
        if let Target::Nowhere = self.target {
            return Ok(());
        }
        // The live site is the output either way (a fresh tree's previous site).
        let live = compare_live(self.log.out(), rel, bytes);
        self.log.note_write(rel, &live);
        match (&self.target, live) {
            (Target::Fresh { staging, previous }, LiveFile::Same) => {
                staging.link_from(previous, rel).or_else(|_| staging.write(rel, bytes))
            }
            (Target::Fresh { staging, .. }, _) => staging.write(rel, bytes),
            (Target::InPlace(_), LiveFile::Same) => Ok(()),
            (Target::InPlace(txn), _) => txn.write(rel, bytes),
            (Target::Nowhere, _) => Ok(()),
        }
    }

    /// Keeps an unchanged model's file from the previous site; false when it
    /// is missing there (the model must be rendered again). In place the
    /// manifest is trusted, once `site_folder::site_is_whole` found the site
    /// whole: checking 300,000 files took a third of a one-model rebuild at
    /// hub scale.
    pub fn keep(&self, rel: &str) -> bool {
        match &self.target {
            Target::Fresh { staging, previous } => staging.link_from(previous, rel).is_ok(),
            Target::InPlace(_) => true,
            Target::Nowhere => false,
        }
    }

    /// Removes a file of the previous site (a fresh site never had it; what
    /// it lacks is found at the commit).
    pub fn remove(&self, rel: &str) {
        if let Target::InPlace(txn) = &self.target {
            self.log.note_removed(rel);
            txn.remove(rel);
        }
    }

    /// Device and inode of the folder that becomes the output, for the manifest.
    pub fn site_identity(&self, out: &Path) -> (u64, u64) {
        match &self.target {
            Target::Fresh { staging, .. } => folder_identity(staging.path()),
            Target::InPlace(_) | Target::Nowhere => folder_identity(out),
        }
        .unwrap_or_default()
    }

    /// Makes the new site the output and records `manifest` (naming
    /// [`SiteWriter::site_identity`]) for the next build; it is written
    /// straight to its file (at hub scale it is hundreds of megabytes).
    /// Returns what the new site changed in the old one, when the log was on.
    pub fn commit(self, out: &Path, manifest: &Manifest) -> Result<BTreeMap<String, Change>, OutputError> {
        let path = OutputFolder::new(out).manifest();
        let SiteWriter { target, log } = self;
        match target {
            Target::Fresh { staging, .. } => {
                // Files of the old site the new one lacks: removed.
                log.note_missing_from(staging.path());
                // Written before the swap and naming the staged folder: if the
                // swap never happens, the manifest describes no site and the
                // next build is a full one. One that was not there before
                // goes again, so a failed build leaves nothing behind.
                let existed = fs::symlink_metadata(&path).is_ok();
                write_file_atomically(&path, |file| manifest.write_file(file))?;
                staging.commit().inspect_err(|_| {
                    if !existed {
                        let _ = fs::remove_file(&path);
                    }
                })?;
            }
            Target::InPlace(txn) => txn.commit(|file| manifest.write_file(file))?,
            Target::Nowhere => {}
        }
        Ok(log.into_changes())
    }
}
