//! The word index carried on from the previous build's: the part of what
//! a build keeps for the next that `pages::listings::carried` hands the
//! search, with which of the previous build's models keep their words,
//! and where they are now.
//!
//! Each word's kept ranks, moved to their new places (which keeps them in
//! order), are merged with the ranks of the models tokenised afresh; a word
//! no model has any more is left out. The result is the index a full build
//! makes of the same models, word for word and rank for rank. The saved
//! index is read and merged in one pass: a million models' words are not
//! laid out twice.
//!
//! What changed comes with it ([`WordChanges`]): the words found in the
//! models tokenised, and the saved words of the models not kept. The trie
//! is carried on from them (see `search::trie::carried`).
//!
//! Saved ([`WordIndex::save_to`]), word after word in byte order: the word
//! front-coded, then its ranks as a count and gaps. Read back, the words
//! must come in byte order, each once, and hold only what the tokeniser
//! makes, and the ranks must be below the number of models saved.

use modelpages_record::ModelSummary;

use super::{first_where, WordIndex};
use crate::pages::listings::compact::{put, put_front_coded_after, Reader};
use crate::pages::listings::search::words::{for_each_model_word, FoldedWord, SeenWords, MAX_WORD};

/// A saved rank whose model keeps nothing: it is no longer listed, or
/// its row may have changed.
pub const NOT_KEPT: u32 = u32::MAX;

/// What changed in an index carried on: the words of the models tokenised
/// afresh, and the words of the previous build's models not kept. A word
/// in neither has the models it had (moved to their ranks now).
#[derive(Debug, Default)]
pub struct WordChanges {
    /// Each word of each model tokenised, with its rank now; by word.
    found: Vec<(FoldedWord, u32)>,
    dropped: DroppedWords,
}

/// Each word of each model not kept, with its rank then, by word: the
/// words back to back (each once; `ends` as in [`WordIndex`]), and pairs
/// of a word's number and a rank.
#[derive(Debug, Default)]
struct DroppedWords {
    text: String,
    ends: Vec<usize>,
    ranks: Vec<(u32, u32)>,
}

impl DroppedWords {
    fn word(&self, n: u32) -> &str {
        let n = n as usize;
        &self.text[if n == 0 { 0 } else { self.ends[n - 1] }..self.ends[n]]
    }
}

impl WordChanges {
    /// Whether every word starting with `prefix` has the models it had.
    pub fn unchanged(&self, prefix: &str) -> bool {
        self.found_run(prefix).is_empty() && self.dropped_run(prefix).is_empty()
    }

    /// The models tokenised (their ranks now) with a word starting with
    /// `prefix`, ascending, each once.
    pub fn found_under(&self, prefix: &str) -> Vec<u32> {
        distinct(self.found[self.found_run(prefix)].iter().map(|&(_, rank)| rank))
    }

    /// The models not kept (their ranks then) that had a word starting with
    /// `prefix`, ascending, each once.
    pub fn dropped_under(&self, prefix: &str) -> Vec<u32> {
        distinct(self.dropped.ranks[self.dropped_run(prefix)].iter().map(|&(_, rank)| rank))
    }

    fn found_run(&self, prefix: &str) -> std::ops::Range<usize> {
        let found = &self.found;
        under(found.len(), prefix, |i| found[i].0.as_str())
    }

    fn dropped_run(&self, prefix: &str) -> std::ops::Range<usize> {
        let dropped = &self.dropped;
        under(dropped.ranks.len(), prefix, |i| dropped.word(dropped.ranks[i].0))
    }
}

/// Where the items of a run of `len` sorted by word (`word(i)`) have a
/// word starting with `prefix`.
fn under<'w>(len: usize, prefix: &str, word: impl Fn(usize) -> &'w str) -> std::ops::Range<usize> {
    let start = first_where(0..len, |i| word(i) >= prefix);
    start..first_where(start..len, |i| !word(i).starts_with(prefix))
}

fn distinct(ranks: impl Iterator<Item = u32>) -> Vec<u32> {
    let mut ranks: Vec<u32> = ranks.collect();
    ranks.sort_unstable();
    ranks.dedup();
    ranks
}

impl WordIndex {
    /// Appends this index in its saved form.
    pub fn save_to(&self, out: &mut Vec<u8>) {
        put(out, self.len());
        let mut last: &[u8] = &[];
        for i in 0..self.len() {
            let word = self.word(i).as_bytes();
            put_front_coded_after(out, last, word);
            last = word;
            let ranks = self.postings(i..i + 1);
            put(out, ranks.len());
            let mut next = 0;
            for &rank in ranks {
                put(out, (rank - next) as usize);
                next = rank + 1;
            }
        }
    }

    /// The index of `models` (by name) from `saved`, the previous build's
    /// in its saved form: `moved[rank]` is where the previous build's model
    /// `rank` is now, if it keeps its words ([`NOT_KEPT`] if not);
    /// `tokenise` the ranks now of the models that do not. With the index,
    /// what changed in it. `None` when `saved` does not read back.
    pub fn carried(saved: &[u8], moved: &[u32], tokenise: &[u32], models: &[&ModelSummary]) -> Option<(WordIndex, WordChanges)> {
        let mut found: Vec<(FoldedWord, u32)> = Vec::new();
        let mut seen = SeenWords::default();
        for &rank in tokenise {
            for_each_model_word(models[rank as usize], &mut seen, |word| found.push((*word, rank)));
        }
        found.sort_unstable_by(|a, b| a.0.as_str().cmp(b.0.as_str()).then(a.1.cmp(&b.1)));
        let (index, dropped) = merge_saved(saved, moved, &found, models.len())?;
        Some((index, WordChanges { found, dropped }))
    }
}

/// The saved index `saved` (see the module's overview), its words' kept
/// ranks moved, merged with the words `found` in the models tokenised,
/// word by word in byte order; with the words of the models not kept.
fn merge_saved(saved: &[u8], moved: &[u32], found: &[(FoldedWord, u32)], models: usize) -> Option<(WordIndex, DroppedWords)> {
    let mut reader = Reader::new(saved);
    let words = reader.count()?;
    // About two bytes a rank and ten a word, saved.
    let mut index = WordIndex {
        text: String::with_capacity(saved.len() / 4),
        ends: Vec::with_capacity(words + found.len()),
        starts: Vec::with_capacity(words + found.len() + 1),
        ranks: Vec::with_capacity(saved.len() / 2 + found.len()),
        models,
    };
    index.starts.push(0);
    let mut dropped = DroppedWords::default();
    let (mut word, mut before) = (Vec::with_capacity(MAX_WORD), Vec::with_capacity(MAX_WORD));
    let mut f = 0;
    for i in 0..words {
        std::mem::swap(&mut word, &mut before);
        word.clone_from(&before);
        reader.front_coded_after(&mut word, MAX_WORD)?;
        let tokeniser_made = !word.is_empty() && word.iter().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
        if !tokeniser_made || (i > 0 && before >= word) {
            return None;
        }
        let text = std::str::from_utf8(&word).ok()?;
        // Words found only in the models tokenised, before this one.
        while found.get(f).is_some_and(|(w, _)| w.as_str() < text) {
            f = index.push_found(found, f);
        }
        let found_end = f + found[f..].iter().take_while(|(w, _)| w.as_str() == text).count();
        let ranks_before = index.ranks.len();
        let count = reader.count()?;
        let mut next = 0usize;
        let mut found_here = found[f..found_end].iter().map(|&(_, rank)| rank).peekable();
        for _ in 0..count {
            let rank = next.checked_add(reader.num()?)?;
            let now = *moved.get(rank)?;
            next = rank + 1;
            if now == NOT_KEPT {
                if dropped.ends.is_empty() || dropped.word(dropped.ends.len() as u32 - 1) != text {
                    dropped.text.push_str(text);
                    dropped.ends.push(dropped.text.len());
                }
                dropped.ranks.push((dropped.ends.len() as u32 - 1, rank as u32));
                continue;
            }
            // Ranks found afresh that come before it; a rank is kept or found, not both.
            while let Some(found_rank) = found_here.next_if(|&r| r < now) {
                index.ranks.push(found_rank);
            }
            index.ranks.push(now);
        }
        index.ranks.extend(found_here);
        f = found_end;
        if index.ranks.len() > ranks_before {
            index.push_word(text);
        }
    }
    while f < found.len() {
        f = index.push_found(found, f);
    }
    reader.is_done().then_some((index, dropped))
}

impl WordIndex {
    /// Adds the word of `found[f]`, which only the models tokenised have,
    /// with its ranks; where the next word of `found` starts.
    fn push_found(&mut self, found: &[(FoldedWord, u32)], f: usize) -> usize {
        let word = found[f].0;
        let end = f + found[f..].iter().take_while(|(w, _)| *w == word).count();
        self.ranks.extend(found[f..end].iter().map(|&(_, rank)| rank));
        self.push_word(word.as_str());
        end
    }

    /// Ends the word being merged: `word`, whose ranks were just pushed.
    fn push_word(&mut self, word: &str) {
        self.text.push_str(word);
        self.ends.push(self.text.len());
        self.starts.push(self.ranks.len() as u32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A damaged saved index is refused, never trusted and never a panic:
    /// cut anywhere, with any byte changed, with a word the tokeniser never
    /// makes, with a rank past the models, or with counts beyond its size.
    /// A saved index read as it is: every model kept where it was.
    fn read(saved: &[u8], models: usize) -> Option<WordIndex> {
        let moved: Vec<u32> = (0..models as u32).collect();
        merge_saved(saved, &moved, &[], models).map(|(index, _)| index)
    }

    #[test]
    fn a_damaged_saved_index_is_refused() {
        let summary = |id: &str, tags: &[&str]| ModelSummary { id: id.into(), tags: tags.iter().collect(), ..ModelSummary::default() };
        let models = [summary("a/one", &["mit", "en"]), summary("b/two", &["en"]), summary("c/three", &["gguf"])];
        let refs: Vec<&ModelSummary> = models.iter().collect();
        let mut saved = Vec::new();
        WordIndex::build(&refs).save_to(&mut saved);
        assert_eq!(read(&saved, 3), Some(WordIndex::build(&refs)));
        for cut in 0..saved.len() {
            assert!(read(&saved[..cut], 3).is_none(), "cut at {cut}");
        }
        for at in 0..saved.len() {
            for byte in [0u8, 1, 0x41, 0x7f, 0x80, 0xff] {
                let mut bad = saved.clone();
                bad[at] = byte;
                if let Some(index) = read(&bad, 3) {
                    assert!((0..index.len()).all(|i| index.postings(i..i + 1).iter().all(|&r| r < 3)));
                }
            }
        }
        assert!(read(&saved, 2).is_none(), "a rank past the models");
        let mut not_a_word = Vec::new();
        put(&mut not_a_word, 1);
        put_front_coded_after(&mut not_a_word, b"", b"Upper");
        put(&mut not_a_word, 0);
        assert!(read(&not_a_word, 1).is_none(), "a word the tokeniser never makes");
        let mut huge = Vec::new();
        put(&mut huge, usize::MAX >> 1);
        assert!(read(&huge, 1).is_none(), "a count beyond the bytes left");
    }
}
