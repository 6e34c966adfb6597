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
//!   ([`Carried::word_index`], see `search::word_index`), and the search
//!   trie's nodes of words no other model changed are the saved ones
//!   ([`Carried::trie`], see `search::trie`).
//! - Every other model (added, changed, listed again, or decoded with one
//!   that changed) has its keys made and its words tokenised, and is
//!   sorted into its groups; the kept models' groups are the saved ones,
//!   their ranks moved ([`Carried::membership`], see `membership`).
//!
//! With more than one model in four not kept (a day of downloads moving
//! decodes most rows), nothing is carried: the build makes it all afresh.
//! What is carried is what a full build makes, key for key and word for
//! word: the tests hold it to that.
//!
//! The saved form: a magic, the number of models, their ids front-coded,
//! their row keys and their member keys (16 bytes each, by rank), the
//! groups (after their length: each family, then each group's name and its
//! ranks as gaps), the word index's own part (after its length), then the
//! trie's. Ids are not checked for their order (a million
//! comparisons): the walk keeps a model only where the ids are equal, and
//! moves ranks in order whatever the saved order.

use std::cmp::Ordering;

use modelpages_record::ModelSummary;

use super::compact::{put, put_front_coded, Reader};
use super::groups::{ids_by_name, Groups};
use super::membership::{Catalogues, FacetKind, Membership, Ranks, SavedGroups};
use super::search::trie::{CarriedTrie, ShardTree};
use super::search::word_index::{WordChanges, NOT_KEPT};
use super::search::WordIndex;
use crate::store::manifest::ListingKey;

/// Starts the saved form; one of another format is not read.
const MAGIC: &[u8; 8] = b"mplist03";

/// Something is carried while at most one model in this many is not kept;
/// with more, making it all afresh costs about as much.
const NOT_KEPT_AT_MOST_ONE_IN: usize = 4;

/// The search trie is carried on while at most one model in this many is
/// not kept (counting this build's models and the previous build's, so a
/// changed model counts twice): a node whose top lost a model is cut again
/// from its postings, and with one model in a hundred changed nearly every
/// top has (the criterion bench "trie carried on, ... one in 100 changed"
/// costs what cutting it afresh does).
const TRIE_NOT_KEPT_AT_MOST_ONE_IN: usize = 256;

/// Far more than any id's bytes (ids are checked when records are read).
const ID_BYTES_AT_MOST: usize = 4 * modelpages_record::MAX_ID_LEN;

/// Bytes of a key.
const KEY: usize = std::mem::size_of::<ListingKey>();

/// The previous build's listings, matched to this build's models.
pub struct Carried<'s> {
    /// The previous build's rank of each model now listed (by its rank now)
    /// that is kept, or [`NOT_KEPT`].
    was: Vec<u32>,
    /// The rank now of each model the previous build listed (by its rank
    /// then) that is kept, or [`NOT_KEPT`].
    moved: Vec<u32>,
    parts: SavedParts<'s>,
}

/// The parts of the saved form after the ids, as they lie.
struct SavedParts<'s> {
    /// The row keys and member keys of the models saved, by their rank then.
    rows: &'s [u8],
    members: &'s [u8],
    /// The groups' part, read when the groups are sorted.
    groups: &'s [u8],
    /// The word index's part and the trie's, read when the search asks
    /// for them.
    words: &'s [u8],
    trie: &'s [u8],
}

/// The saved form ([`save`]) read up to its parts: the ids decoded, the
/// rest as it lies. Read apart from [`Carried::open`], which needs this
/// build's models, so that it can be read while they are decoded.
pub struct SavedListings<'s> {
    /// The ids back to back, and where each ends.
    ids: Vec<u8>,
    ends: Vec<usize>,
    parts: SavedParts<'s>,
}

impl<'s> SavedListings<'s> {
    /// `None` when `saved` does not read back.
    pub fn read(saved: &'s [u8]) -> Option<SavedListings<'s>> {
        let mut reader = Reader::new(saved.strip_prefix(MAGIC)?);
        let saved_models = reader.count()?;
        let (ids, ends) = reader.front_coded(saved_models, ID_BYTES_AT_MOST)?;
        let rows = reader.take(saved_models.checked_mul(KEY)?)?;
        let members = reader.take(saved_models * KEY)?;
        let groups_len = reader.num()?;
        let groups = reader.take(groups_len)?;
        let words_len = reader.num()?;
        let words = reader.take(words_len)?;
        Some(SavedListings { ids, ends, parts: SavedParts { rows, members, groups, words, trie: reader.rest() } })
    }

    fn len(&self) -> usize {
        self.ends.len()
    }

    fn id(&self, i: usize) -> &[u8] {
        &self.ids[if i == 0 { 0 } else { self.ends[i - 1] }..self.ends[i]]
    }
}

impl<'s> Carried<'s> {
    /// `saved` matched to `models` (by name): `fresh[rank]` says whether
    /// that model's row may have changed since. `None` when too few models
    /// are kept.
    pub fn open(saved: SavedListings<'s>, models: &[&ModelSummary], fresh: &[bool]) -> Option<Carried<'s>> {
        assert_eq!(models.len(), fresh.len());
        let saved_models = saved.len();
        let id = |i: usize| saved.id(i);
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
        let mut moved = vec![NOT_KEPT; saved_models];
        for (rank, &was) in was.iter().enumerate() {
            if was != NOT_KEPT {
                moved[was as usize] = rank as u32;
            }
        }
        Some(Carried { was, moved, parts: saved.parts })
    }

    /// The ranks of the models not kept, ascending: those made again.
    fn not_kept(&self) -> Vec<u32> {
        (0..self.was.len() as u32).filter(|&rank| self.was[rank as usize] == NOT_KEPT).collect()
    }

    /// The row key and member key of the model `rank` (now), if it is kept.
    pub fn keys(&self, rank: usize) -> Option<(ListingKey, ListingKey)> {
        let was = *self.was.get(rank)?;
        if was == NOT_KEPT {
            return None;
        }
        let at = was as usize * KEY;
        Some((self.parts.rows[at..at + KEY].try_into().ok()?, self.parts.members[at..at + KEY].try_into().ok()?))
    }

    /// The word index of `models` (those [`Carried::open`] matched),
    /// carried on, with what changed in it; `None` if its part does not
    /// read back.
    pub fn word_index(&self, models: &[&ModelSummary]) -> Option<(WordIndex, WordChanges)> {
        WordIndex::carried(self.parts.words, &self.moved, &self.not_kept(), models)
    }

    /// The previous build's search trie, to carry on where `changes` (from
    /// [`Carried::word_index`]) allow; `None` if its part does not read
    /// back or was cut to another `cap`.
    pub fn trie<'a>(&'a self, cap: usize, changes: &'a WordChanges) -> Option<CarriedTrie<'a>> {
        CarriedTrie::read(self.parts.trie, cap, &self.moved, changes)
    }

    /// The membership of `models`' groups (those [`Carried::open`]
    /// matched): the saved groups with their kept models at their ranks
    /// now, joined by the models not kept, sorted afresh. `None` if the
    /// groups' part does not read back.
    pub fn membership<'a>(&self, models: &[&'a ModelSummary], catalogues: &Catalogues) -> Option<Membership<'a>> {
        let saved = read_groups(self.parts.groups, &self.moved)?;
        Membership::of(models, Some(&self.not_kept()), catalogues).join_saved(saved, models, catalogues)
    }
}

/// The groups of `models` (those [`Carried::open`] matched): carried on
/// where `carried` allows (their membership, and their keys), else sorted
/// and keyed afresh; with whether they were carried on.
pub fn groups<'a>(carried: Option<&Carried>, models: &[&'a ModelSummary], catalogues: &Catalogues<'a>) -> (Groups<'a>, bool) {
    let carried_on = carried.and_then(|carried| carried.membership(models, catalogues));
    let is_carried_on = carried_on.is_some();
    let membership = carried_on.unwrap_or_else(|| Membership::of(models, None, catalogues));
    let kept = |rank: usize| carried.and_then(|carried| carried.keys(rank));
    (Groups::of(models, catalogues, membership, &kept), is_carried_on)
}

/// The word index of `models`: carried on where `carried` allows, with
/// what changed in it, else made afresh (and no changes).
pub fn word_index(carried: Option<&Carried>, models: &[&ModelSummary]) -> (WordIndex, Option<WordChanges>) {
    match carried.and_then(|carried| carried.word_index(models)) {
        Some((index, changes)) => (index, Some(changes)),
        None => (WordIndex::build(models), None),
    }
}

/// The previous build's search trie, to carry on where `changes` (the
/// word index's, carried on) allow; `None` when too many models changed
/// for that to be worth it, or it does not read back.
pub fn search_trie<'a>(carried: Option<&'a Carried>, cap: usize, changes: Option<&'a WordChanges>) -> Option<CarriedTrie<'a>> {
    let carried = carried?;
    let not_kept = carried.was.iter().chain(&carried.moved).filter(|&&rank| rank == NOT_KEPT).count();
    if not_kept * TRIE_NOT_KEPT_AT_MOST_ONE_IN > carried.was.len() + TRIE_NOT_KEPT_AT_MOST_ONE_IN {
        return None;
    }
    carried.trie(cap, changes?)
}

/// What this build keeps for the next: `models` (listed, by name), their
/// groups (with their row and member keys by rank), their word index, and
/// the search trie cut from it to `cap`.
pub fn save(models: &[&ModelSummary], groups: &Groups, index: &WordIndex, trie: &ShardTree, cap: usize) -> Vec<u8> {
    let (rows, members) = (&groups.rows, groups.member_keys());
    assert!(rows.len() == models.len() && members.len() == models.len());
    let mut out = Vec::with_capacity(16 + models.len() * (48 + 2 * KEY) + index.len() * 8);
    out.extend_from_slice(MAGIC);
    put(&mut out, models.len());
    put_front_coded(&mut out, models.iter().map(|m| m.id.as_bytes()));
    out.extend_from_slice(rows.as_flattened());
    out.extend_from_slice(members.as_flattened());
    let saved_groups = save_groups(groups);
    put(&mut out, saved_groups.len());
    out.extend_from_slice(&saved_groups);
    let mut words = Vec::new();
    index.save_to(&mut words);
    put(&mut out, words.len());
    out.extend_from_slice(&words);
    trie.save_to(cap, &mut out);
    out
}

/// The groups' part of the saved form: each family as a count and its
/// groups, each group what names it and its ranks. Libraries without
/// models are left out.
fn save_groups(groups: &Groups) -> Vec<u8> {
    let mut out = Vec::new();
    let name = |out: &mut Vec<u8>, name: &str| {
        put(out, name.len());
        out.extend_from_slice(name.as_bytes());
    };
    let ranks = |out: &mut Vec<u8>, ranks: &Ranks| {
        put(out, ranks.len());
        let mut last = 0;
        for (i, &rank) in ranks.iter().enumerate() {
            put(out, if i == 0 { rank } else { rank - last } as usize);
            last = rank;
        }
    };
    put(&mut out, groups.tasks.len());
    for (task, members) in &groups.tasks {
        name(&mut out, &task.key);
        ranks(&mut out, members);
    }
    let libraries: Vec<_> = groups.libraries.iter().filter(|(_, members)| !members.is_empty()).collect();
    put(&mut out, libraries.len());
    for (library, members) in libraries {
        name(&mut out, &library.key);
        ranks(&mut out, members);
    }
    put(&mut out, groups.pairs.len());
    for ((task, library), members) in &groups.pairs {
        name(&mut out, &groups.tasks[*task].0.key);
        name(&mut out, &groups.libraries[*library].0.key);
        ranks(&mut out, members);
    }
    for family in [&groups.namespaces, &groups.tags] {
        put(&mut out, family.len());
        for (group, members) in family {
            name(&mut out, group);
            ranks(&mut out, members);
        }
    }
    put(&mut out, groups.facets.len());
    for facet in &groups.facets {
        out.push(FacetKind::ALL.iter().position(|k| *k == facet.kind).expect("a kind of facet") as u8);
        name(&mut out, &facet.value);
        ranks(&mut out, &facet.ranks);
    }
    out
}

/// Reads [`save_groups`]' part, the ranks moved to their ranks now (by
/// `moved`, see [`Carried`]) and the models not kept left out.
fn read_groups<'s>(bytes: &'s [u8], moved: &[u32]) -> Option<SavedGroups<'s>> {
    let mut reader = Reader::new(bytes);
    let name = |reader: &mut Reader<'s>| {
        let len = reader.num()?;
        std::str::from_utf8(reader.take(len)?).ok()
    };
    let ranks = |reader: &mut Reader<'s>| -> Option<Ranks> {
        let count = reader.count()?;
        let mut now = Vec::with_capacity(count);
        let mut was = 0usize;
        for _ in 0..count {
            // A gap of nought: a model twice in one group, as a build that
            // found a tag twice in its row would list it.
            was = was.checked_add(reader.num()?)?;
            match *moved.get(was)? {
                NOT_KEPT => {}
                rank => now.push(rank),
            }
        }
        Some(now)
    };
    fn family<'s, K>(reader: &mut Reader<'s>, mut group: impl FnMut(&mut Reader<'s>) -> Option<(K, Ranks)>) -> Option<Vec<(K, Ranks)>> {
        let count = reader.count()?;
        (0..count).map(|_| group(reader)).collect()
    }
    let mut saved = SavedGroups {
        tasks: family(&mut reader, |r| Some((name(r)?, ranks(r)?)))?,
        libraries: family(&mut reader, |r| Some((name(r)?, ranks(r)?)))?,
        pairs: family(&mut reader, |r| Some(((name(r)?, name(r)?), ranks(r)?)))?,
        namespaces: family(&mut reader, |r| Some((name(r)?, ranks(r)?)))?,
        tags: family(&mut reader, |r| Some((name(r)?, ranks(r)?)))?,
        ..SavedGroups::default()
    };
    let facets = family(&mut reader, |r| {
        let kind = *FacetKind::ALL.get(usize::from(*r.take(1)?.first()?))?;
        Some(((kind, name(r)?), ranks(r)?))
    })?;
    for ((kind, value), ranks) in facets {
        match kind {
            FacetKind::Params | FacetKind::Fits => saved.classes.push(((kind, value.parse().ok()?), ranks)),
            _ => saved.values.push(((kind, value), ranks)),
        }
    }
    reader.is_done().then_some(saved)
}

#[cfg(test)]
mod tests;
