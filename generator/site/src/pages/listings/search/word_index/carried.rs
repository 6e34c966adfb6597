//! The word index carried from one build to the next.
//!
//! Adding one model to a million changes a few dozen postings, but building
//! the index afresh tokenises every model again: a fifth of such a build's
//! work. So a build saves its index in the manifest ([`WordIndex::save`]),
//! with the id of each model by rank, and the next build starts from it
//! ([`WordIndex::carried`]):
//! - The saved ids and the new models, both in name order, are walked side
//!   by side. A model in both whose row the manifest kept as it was (it is
//!   not `fresh`) has the words it had, at its new rank.
//! - Every other model (added, changed, or listed again) is tokenised.
//! - Each word's kept ranks, moved to their new places (which keeps them in
//!   order), are merged with the fresh ones; a word no model has any more
//!   is left out.
//!
//! The result is the index a full build makes of the same models, word for
//! word and rank for rank (the tests hold it to that). A saved index that
//! does not decode, or a build in which many models changed (a day of
//! downloads moving rewrites most rows), builds the index afresh.
//!
//! The saved form is compact and checked as it is read: ids and words
//! front-coded (each after the bytes it shares with the one before), each
//! word's ranks as gaps, every number a LEB128 varint. Words must come in
//! byte order, each once, and hold only what the tokeniser makes; ranks
//! must be below the number of models. Ids are not checked for their
//! order (a million comparisons): the walk above keeps a model only where
//! the ids are equal, and moves ranks in order whatever the saved order.

use std::cmp::Ordering;

use modelpages_record::ModelSummary;

use super::WordIndex;
use crate::pages::listings::groups::ids_by_name;
use crate::pages::listings::search::words::{for_each_model_word, FoldedWord, SeenWords, MAX_WORD};

/// Starts a saved index; one of another format is not read.
const MAGIC: &[u8; 8] = b"mpwords1";

/// The index is carried while at most one model in this many must be
/// tokenised; with more, building it afresh costs about as much.
const FRESH_AT_MOST_ONE_IN: usize = 4;

/// Far more than any id's bytes (ids are checked when records are read).
const ID_BYTES_AT_MOST: usize = 4 * modelpages_record::MAX_ID_LEN;

/// A kept rank whose model is no longer listed, or changed.
const DROPPED: u32 = u32::MAX;

impl WordIndex {
    /// This index in its saved form, with the ids of `models`, the models
    /// it was built from (in name order).
    pub fn save(&self, models: &[&ModelSummary]) -> Vec<u8> {
        let mut out = Vec::with_capacity(16 + models.len() * 24 + self.text.len() + self.ranks.len() * 2);
        out.extend_from_slice(MAGIC);
        put(&mut out, models.len());
        put_front_coded(&mut out, models.iter().map(|m| m.id.as_bytes()));
        put(&mut out, self.len());
        put_front_coded(&mut out, (0..self.len()).map(|i| self.word(i).as_bytes()));
        for i in 0..self.len() {
            let ranks = self.postings(i..i + 1);
            put(&mut out, ranks.len());
            let mut next = 0;
            for &rank in ranks {
                put(&mut out, (rank - next) as usize);
                next = rank + 1;
            }
        }
        out
    }

    /// The index of `models` (in name order) from `saved`, the index of the
    /// previous build: `fresh[rank]` says whether that model's row may have
    /// changed since. `None` when `saved` does not decode or when too many
    /// models would be tokenised: build it afresh.
    pub fn carried(saved: &[u8], models: &[&ModelSummary], fresh: &[bool]) -> Option<WordIndex> {
        assert_eq!(models.len(), fresh.len());
        let (ids, old) = open(saved)?;
        // Where each kept model is now, and which models are tokenised.
        let mut moved = vec![DROPPED; ids.len()];
        let mut tokenise: Vec<u32> = Vec::new();
        let (mut i, mut j) = (0, 0);
        while j < models.len() {
            let id = models[j].id.as_bytes();
            let order = match ids.get(i) {
                Some(saved) if saved == id => Ordering::Equal,
                Some(saved) => ids_by_name(saved, id),
                None => Ordering::Greater,
            };
            match order {
                Ordering::Less => i += 1,
                Ordering::Greater => {
                    tokenise.push(j as u32);
                    j += 1;
                }
                Ordering::Equal => {
                    if fresh[j] {
                        tokenise.push(j as u32);
                    } else {
                        moved[i] = j as u32;
                    }
                    i += 1;
                    j += 1;
                }
            }
            if tokenise.len() * FRESH_AT_MOST_ONE_IN > models.len() + FRESH_AT_MOST_ONE_IN {
                return None;
            }
        }
        let mut found: Vec<(FoldedWord, u32)> = Vec::new();
        let mut seen = SeenWords::default();
        for &rank in &tokenise {
            for_each_model_word(models[rank as usize], &mut seen, |word| found.push((*word, rank)));
        }
        found.sort_unstable_by(|a, b| a.0.as_str().cmp(b.0.as_str()).then(a.1.cmp(&b.1)));
        Some(merge(&old, &moved, &found, models.len()))
    }
}

/// `old`'s words with their kept ranks moved, and the words `found` in the
/// models tokenised, word by word in byte order.
fn merge(old: &WordIndex, moved: &[u32], found: &[(FoldedWord, u32)], models: usize) -> WordIndex {
    let mut index = WordIndex {
        text: String::with_capacity(old.text.len()),
        ends: Vec::with_capacity(old.ends.len()),
        starts: Vec::with_capacity(old.starts.len()),
        ranks: Vec::with_capacity(old.ranks.len() + found.len()),
        models,
    };
    index.starts.push(0);
    let (mut k, mut f) = (0, 0);
    loop {
        let old_word = (k < old.len()).then(|| old.word(k));
        let found_word = found.get(f).map(|(w, _)| w.as_str());
        let word = match (old_word, found_word) {
            (None, None) => break,
            (Some(a), Some(b)) => a.min(b),
            (Some(a), None) => a,
            (None, Some(b)) => b,
        };
        let kept: &[u32] = if old_word == Some(word) {
            k += 1;
            old.postings(k - 1..k)
        } else {
            &[]
        };
        let found_end = f + found[f..].iter().take_while(|(w, _)| w.as_str() == word).count();
        let before = index.ranks.len();
        merge_ascending(
            kept.iter().map(|&rank| moved[rank as usize]).filter(|&rank| rank != DROPPED),
            found[f..found_end].iter().map(|&(_, rank)| rank),
            &mut index.ranks,
        );
        f = found_end;
        if index.ranks.len() > before {
            index.text.push_str(word);
            index.ends.push(index.text.len());
            index.starts.push(index.ranks.len() as u32);
        }
    }
    index
}

/// Two ascending runs of ranks, with none in both, as one.
fn merge_ascending(a: impl Iterator<Item = u32>, b: impl Iterator<Item = u32>, out: &mut Vec<u32>) {
    let (mut a, mut b) = (a.peekable(), b.peekable());
    loop {
        let next = match (a.peek(), b.peek()) {
            (Some(x), Some(y)) if x < y => a.next(),
            (Some(_), Some(_)) => b.next(),
            (Some(_), None) => a.next(),
            (None, Some(_)) => b.next(),
            (None, None) => return,
        };
        out.extend(next);
    }
}

/// The ids of a saved index, by rank, back to back.
struct SavedIds {
    bytes: Vec<u8>,
    ends: Vec<usize>,
}

impl SavedIds {
    fn len(&self) -> usize {
        self.ends.len()
    }

    fn get(&self, i: usize) -> Option<&[u8]> {
        let start = if i == 0 { 0 } else { *self.ends.get(i - 1)? };
        Some(&self.bytes[start..*self.ends.get(i)?])
    }
}

/// A saved index, checked as it is decoded (see the module's overview).
fn open(saved: &[u8]) -> Option<(SavedIds, WordIndex)> {
    let mut reader = Reader { bytes: saved.strip_prefix(MAGIC)? };
    let models = reader.count()?;
    let (bytes, ends) = reader.front_coded(models, ID_BYTES_AT_MOST)?;
    let ids = SavedIds { bytes, ends };
    let words = reader.count()?;
    let (text, ends) = reader.front_coded(words, MAX_WORD)?;
    let text = String::from_utf8(text).ok()?;
    let word = |i: usize| &text[if i == 0 { 0 } else { ends[i - 1] }..ends[i]];
    let tokeniser_made = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
    if !text.is_ascii() || !(0..words).all(|i| tokeniser_made(word(i))) || (1..words).any(|i| word(i - 1) >= word(i)) {
        return None;
    }
    let mut starts = Vec::with_capacity(words + 1);
    starts.push(0u32);
    let mut ranks: Vec<u32> = Vec::new();
    for _ in 0..words {
        let count = reader.count()?;
        let mut next = 0usize;
        for _ in 0..count {
            let rank = next.checked_add(reader.num()?)?;
            if rank >= models {
                return None;
            }
            ranks.push(rank as u32);
            next = rank + 1;
        }
        starts.push(u32::try_from(ranks.len()).ok()?);
    }
    if !reader.bytes.is_empty() {
        return None;
    }
    Some((ids, WordIndex { text, ends, starts, ranks, models }))
}

/// Appends `n` as a LEB128 varint.
fn put(out: &mut Vec<u8>, mut n: usize) {
    while n >= 0x80 {
        out.push((n as u8 & 0x7f) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// Appends each of `items`: how many bytes it shares with the one before,
/// how many follow, and those.
fn put_front_coded<'a>(out: &mut Vec<u8>, items: impl Iterator<Item = &'a [u8]>) {
    let mut last: &[u8] = &[];
    for item in items {
        let shared = last.iter().zip(item).take_while(|(a, b)| a == b).count();
        put(out, shared);
        put(out, item.len() - shared);
        out.extend_from_slice(&item[shared..]);
        last = item;
    }
}

/// Reads what [`put`] and [`put_front_coded`] wrote, refusing anything
/// that runs past the end or overflows.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl Reader<'_> {
    fn num(&mut self) -> Option<usize> {
        let mut n = 0usize;
        for (i, &byte) in self.bytes.iter().enumerate().take(10) {
            let bits = usize::from(byte & 0x7f).checked_shl(7 * i as u32)?;
            if bits >> (7 * i) != usize::from(byte & 0x7f) {
                return None;
            }
            n |= bits;
            if byte < 0x80 {
                self.bytes = &self.bytes[i + 1..];
                return Some(n);
            }
        }
        None
    }

    /// A number of items that follow, each at least a byte: no more than
    /// the bytes left, so a bad count cannot make a huge allocation.
    fn count(&mut self) -> Option<usize> {
        self.num().filter(|n| *n <= self.bytes.len())
    }

    fn take(&mut self, n: usize) -> Option<&[u8]> {
        let (taken, rest) = self.bytes.split_at_checked(n)?;
        self.bytes = rest;
        Some(taken)
    }

    /// `count` front-coded items, back to back, with where each ends; each
    /// at most `longest` bytes, so that what the items share cannot make
    /// them grow past the bytes read by more than that much each.
    fn front_coded(&mut self, count: usize, longest: usize) -> Option<(Vec<u8>, Vec<usize>)> {
        let mut bytes: Vec<u8> = Vec::new();
        let mut ends: Vec<usize> = Vec::with_capacity(count);
        let mut last = 0..0;
        for _ in 0..count {
            let shared = self.num()?;
            let own = self.num()?;
            if shared > last.len() || shared.checked_add(own)? > longest {
                return None;
            }
            let start = bytes.len();
            bytes.extend_from_within(last.start..last.start + shared);
            bytes.extend_from_slice(self.take(own)?);
            ends.push(bytes.len());
            last = start..bytes.len();
        }
        Some((bytes, ends))
    }
}

#[cfg(test)]
mod tests;
