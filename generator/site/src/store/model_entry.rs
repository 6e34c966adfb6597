//! What the manifest keeps of one model: its [`ModelEntry`], split in two.
//!
//! The [`ModelRow`] is what every build reads of every model: the stamp that
//! says whether its files changed, what the model tree needs of it, and its
//! notes. The rest of the entry (its input hash, listing row and the files it
//! wrote) is needed only for models that are read again, removed, or listed
//! anew. The manifest stores the two apart (see `stored_models`), so a
//! one-model rebuild at hub scale decodes a million small rows and a few
//! whole entries, instead of a million whole entries.

use std::collections::HashMap;

use modelpages_record::{popularity_class, BaseRef, ModelSummary};
use serde::{Deserialize, Serialize};

/// Models by id. Hashed with foldhash (seeded per process, so ids chosen
/// to collide cannot be planned): SipHash was a tenth of a one-model
/// rebuild's own work at hub scale.
pub type ModelMap = HashMap<String, Box<ModelEntry>, foldhash::fast::RandomState>;

/// What `manifest::input_hash` gives: a BLAKE3 hash, kept as bytes (a hex
/// string cost a hundred bytes a model more at hub scale).
pub type InputHash = [u8; 32];
/// Hash of a model-tree block (see `model_tree`), shortened.
pub type TreeHash = [u8; 16];
/// What `plan::stamp` gives, a shortened hash.
pub type StampHash = [u8; 16];

/// One model as the previous build saw it.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelEntry {
    /// What every build reads of it.
    pub row: ModelRow,
    /// Hash of the model's files (record and card).
    pub input: InputHash,
    pub summary: ModelSummary,
    /// Every file the model wrote, relative to the output folder.
    pub files: Vec<String>,
}

/// What every build reads of every model, without its whole entry.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct ModelRow {
    /// File-system stamp of its files (see `plan::stamp`): when it is
    /// unchanged the files are not even read.
    pub stamp: StampHash,
    /// The paths (in the model's folder) its card's references looked up,
    /// in order: their stamps and bytes are part of the model's input.
    pub card_files: Vec<String>,
    /// The bases its record names (see `model_tree`).
    pub bases: Vec<BaseRef>,
    /// Built but kept out of listings (`"hidden": true`).
    pub hidden: bool,
    /// The popularity class of its downloads (`popularity_class`): the
    /// model tree ranks derivatives by it.
    pub popularity: u8,
    /// Hash of the model-tree block its page was rendered with.
    pub tree: TreeHash,
    /// What was left out of its page and why.
    pub notes: Vec<String>,
}

impl ModelEntry {
    /// The entry of a model rendered now: `row` gets its popularity from
    /// `summary`, so the two never disagree.
    pub fn new(row: ModelRow, input: InputHash, summary: ModelSummary, files: Vec<String>) -> ModelEntry {
        let mut entry = ModelEntry { row, input, summary, files };
        entry.set_counts(entry.summary.downloads, entry.summary.likes);
        entry
    }

    /// Gives the entry a record's new downloads and likes (its listing row
    /// and its popularity class); true if they differ from what it had.
    pub fn set_counts(&mut self, downloads: Option<u64>, likes: Option<u64>) -> bool {
        let moved = (self.summary.downloads, self.summary.likes) != (downloads, likes);
        self.summary.downloads = downloads;
        self.summary.likes = likes;
        self.row.popularity = popularity_class(downloads.unwrap_or(0));
        moved
    }
}
