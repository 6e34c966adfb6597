//! What a build keeps of its listings for the next, and how the next
//! carries it on.
//!
//! At hub scale an added model is one of a million, yet listing the million
//! again means hashing every model's row (its row and member keys,
//! [`row_key`](super::file::row_key) and [`member_key`](super::file::member_key))
//! and tokenising every model's words (the search's word index): most of
//! such a build's work. So a build saves, in the manifest, the ids of the
//! models it listed (by rank), their keys, and the word index ([`save`]);
//! the next build matches them to its own models ([`Carried::open`]):
//! - The saved ids and the new listing, both by name, are walked side by
//!   side. A model in both whose row the manifest kept as it was (it is not
//!   `fresh`) is kept: its keys are the saved ones ([`Carried::keys`]), and
//!   its words are at its new rank in the word index carried on
//!   ([`Carried::word_index`], see `search::word_index`).
//! - Every other model (added, changed, listed again, or decoded with one
//!   that changed) has its keys made and its words tokenised.
//!
//! With more than one model in four not kept (a day of downloads moving
//! decodes most rows), nothing is carried: the build makes it all afresh.
//! What is carried is what a full build makes, key for key and word for
//! word: the tests hold it to that.
//!
//! The saved form: a magic, the number of models, their ids front-coded,
//! their row keys and their member keys (16 bytes each, by rank), then the
//! word index's own part. Ids are not checked for their order (a million
//! comparisons): the walk keeps a model only where the ids are equal, and
//! moves ranks in order whatever the saved order.

use std::cmp::Ordering;

use modelpages_record::ModelSummary;

use super::compact::{put, put_front_coded, Reader};
use super::groups::ids_by_name;
use super::search::word_index::NOT_KEPT;
use super::search::WordIndex;
use crate::store::manifest::ListingKey;

/// Starts the saved form; one of another format is not read.
const MAGIC: &[u8; 8] = b"mplist01";

/// Something is carried while at most one model in this many is not kept;
/// with more, making it all afresh costs about as much.
const NOT_KEPT_AT_MOST_ONE_IN: usize = 4;

/// Far more than any id's bytes (ids are checked when records are read).
const ID_BYTES_AT_MOST: usize = 4 * modelpages_record::MAX_ID_LEN;

/// Bytes of a key.
const KEY: usize = std::mem::size_of::<ListingKey>();

/// The previous build's listings, matched to this build's models.
pub struct Carried<'s> {
    /// The previous build's rank of each model now listed (by its rank now)
    /// that is kept, or [`NOT_KEPT`].
    was: Vec<u32>,
    /// How many models the previous build listed.
    saved_models: usize,
    /// Their row keys and member keys, by their rank then.
    rows: &'s [u8],
    members: &'s [u8],
    /// The word index's part, read when the search asks for it.
    words: &'s [u8],
}

impl<'s> Carried<'s> {
    /// `saved` ([`save`]) matched to `models` (by name): `fresh[rank]` says
    /// whether that model's row may have changed since. `None` when `saved`
    /// does not read back, or too few models are kept.
    pub fn open(saved: &'s [u8], models: &[&ModelSummary], fresh: &[bool]) -> Option<Carried<'s>> {
        assert_eq!(models.len(), fresh.len());
        let mut reader = Reader::new(saved.strip_prefix(MAGIC)?);
        let saved_models = reader.count()?;
        let (ids, ends) = reader.front_coded(saved_models, ID_BYTES_AT_MOST)?;
        let rows = reader.take(saved_models.checked_mul(KEY)?)?;
        let members = reader.take(saved_models * KEY)?;
        let words = reader.rest();
        let id = |i: usize| &ids[if i == 0 { 0 } else { ends[i - 1] }..ends[i]];
        let mut was = vec![NOT_KEPT; models.len()];
        let mut not_kept = 0;
        let (mut i, mut j) = (0, 0);
        while j < models.len() {
            let now = models[j].id.as_bytes();
            let order = if i >= saved_models {
                Ordering::Greater
            } else if id(i) == now {
                Ordering::Equal
            } else {
                ids_by_name(id(i), now)
            };
            match order {
                Ordering::Less => i += 1,
                Ordering::Greater => {
                    not_kept += 1;
                    j += 1;
                }
                Ordering::Equal => {
                    if fresh[j] {
                        not_kept += 1;
                    } else {
                        was[j] = i as u32;
                    }
                    i += 1;
                    j += 1;
                }
            }
            if not_kept * NOT_KEPT_AT_MOST_ONE_IN > models.len() + NOT_KEPT_AT_MOST_ONE_IN {
                return None;
            }
        }
        Some(Carried { was, saved_models, rows, members, words })
    }

    /// The row key and member key of the model `rank` (now), if it is kept.
    pub fn keys(&self, rank: usize) -> Option<(ListingKey, ListingKey)> {
        let was = *self.was.get(rank)?;
        if was == NOT_KEPT {
            return None;
        }
        let at = was as usize * KEY;
        Some((self.rows[at..at + KEY].try_into().ok()?, self.members[at..at + KEY].try_into().ok()?))
    }

    /// The word index of `models` (those [`Carried::open`] matched),
    /// carried on; `None` if its part does not read back.
    pub fn word_index(&self, models: &[&ModelSummary]) -> Option<WordIndex> {
        let mut moved = vec![NOT_KEPT; self.saved_models];
        let mut tokenise = Vec::new();
        for (rank, &was) in self.was.iter().enumerate() {
            match was {
                NOT_KEPT => tokenise.push(rank as u32),
                was => moved[was as usize] = rank as u32,
            }
        }
        WordIndex::carried(self.words, &moved, &tokenise, models)
    }
}

/// The word index of `models`: carried on where `carried` allows, else made
/// afresh; with whether it was carried on.
pub fn word_index(carried: Option<&Carried>, models: &[&ModelSummary]) -> (WordIndex, bool) {
    match carried.and_then(|carried| carried.word_index(models)) {
        Some(index) => (index, true),
        None => (WordIndex::build(models), false),
    }
}

/// What this build keeps for the next: `models` (listed, by name), their
/// row and member keys by rank, and their word index.
pub fn save(models: &[&ModelSummary], rows: &[ListingKey], members: &[ListingKey], index: &WordIndex) -> Vec<u8> {
    assert!(rows.len() == models.len() && members.len() == models.len());
    let mut out = Vec::with_capacity(16 + models.len() * (24 + 2 * KEY) + index.len() * 8);
    out.extend_from_slice(MAGIC);
    put(&mut out, models.len());
    put_front_coded(&mut out, models.iter().map(|m| m.id.as_bytes()));
    out.extend_from_slice(rows.as_flattened());
    out.extend_from_slice(members.as_flattened());
    index.save_to(&mut out);
    out
}

#[cfg(test)]
mod tests;
