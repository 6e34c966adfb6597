//! The word index: every distinct word of a site's models, sorted, with the
//! models that have it. The trie ([`super::trie`]) is cut from it.
//!
//! It is built on every build from a million models' words, a few dozen
//! each, so it is built without a lookup by text or an allocation per word:
//! - The models are tokenised a chunk per task. Each chunk numbers its own
//!   distinct words in a small table ([`ChunkWords`]), found again by the
//!   hash the tokeniser ([`for_each_model_word`]) makes as it scans a word,
//!   so a word is compared with the one or two of the chunk's words in its
//!   slot. A chunk keeps its models' word numbers in rank order.
//! - The distinct words of all chunks are sorted together once, as
//!   references into the chunks' buffers. Walking them in order gives each
//!   word its place among all words, and each chunk's numbers their place.
//! - The postings are counted per word and laid out word by word, each
//!   word's models in rank order.
//!
//! A build that changes a few models carries the previous build's index on
//! instead ([`carried`], with `pages::listings::carried`), tokenising only
//! those.

mod carried;

pub use carried::{WordChanges, NOT_KEPT};

use std::ops::Range;

use modelpages_record::ModelSummary;
use rayon::prelude::*;

use super::words::{for_each_model_word, FoldedWord, SeenWords};

/// Every distinct word with the models that have it.
#[derive(Debug, PartialEq, Eq)]
pub struct WordIndex {
    /// The words, sorted, back to back: word `i` ends at `ends[i]` and
    /// starts where word `i - 1` ends.
    text: String,
    ends: Vec<usize>,
    /// Model ranks (positions in name order) of word `i`:
    /// `ranks[starts[i]..starts[i + 1]]`, ascending.
    starts: Vec<u32>,
    ranks: Vec<u32>,
    /// How many models there are.
    models: usize,
}

/// Models tokenised per task: small enough to balance two cores, large
/// enough that a chunk's words repeat often in it.
const CHUNK: usize = 16 * 1024;

/// Ends a model's word numbers in a chunk's list.
const END: u32 = u32::MAX;

impl WordIndex {
    /// Indexes `models` (by name: a model's rank is its position).
    pub fn build(models: &[&ModelSummary]) -> WordIndex {
        let chunks: Vec<(ChunkWords, Vec<u32>)> = models
            .par_chunks(CHUNK)
            .map(|chunk| {
                let mut words = ChunkWords::default();
                let mut found = Vec::with_capacity(chunk.len() * 24);
                let mut seen = SeenWords::default();
                for summary in chunk {
                    for_each_model_word(summary, &mut seen, |word| found.push(words.number(word)));
                    found.push(END);
                }
                found.shrink_to_fit();
                (words, found)
            })
            .collect();
        let (text, ends, places) = sort_together(&chunks);
        let chunks: Vec<Vec<u32>> = chunks
            .into_par_iter()
            .zip(places)
            .map(|((_, mut found), places)| {
                for number in found.iter_mut().filter(|n| **n != END) {
                    *number = places[*number as usize];
                }
                found
            })
            .collect();
        let (starts, ranks) = postings(&chunks, ends.len());
        WordIndex { text, ends, starts, ranks, models: models.len() }
    }

    /// How many distinct words there are.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The `i`th word in sorted order.
    pub fn word(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.text[start..self.ends[i]]
    }

    /// How many models there are.
    pub fn models(&self) -> usize {
        self.models
    }

    /// The ranks of the models of each word of `words`, word after word.
    pub fn postings(&self, words: Range<usize>) -> &[u32] {
        &self.ranks[self.starts[words.start] as usize..self.starts[words.end] as usize]
    }
}

/// The first of `range` for which `after` holds, `range.end` if none:
/// `after` holds for the end of the range if it holds for any.
pub(crate) fn first_where(range: Range<usize>, after: impl Fn(usize) -> bool) -> usize {
    let (mut low, mut high) = (range.start, range.end);
    while low < high {
        let middle = low + (high - low) / 2;
        if after(middle) {
            high = middle;
        } else {
            low = middle + 1;
        }
    }
    low
}

/// The distinct words of every chunk, sorted, back to back with where each
/// ends, and for each chunk the place in them of each of its word numbers.
fn sort_together(chunks: &[(ChunkWords, Vec<u32>)]) -> (String, Vec<usize>, Vec<Vec<u32>>) {
    let mut all: Vec<(&str, u32, u32)> = chunks
        .iter()
        .enumerate()
        .flat_map(|(c, (words, _))| (0..words.len()).map(move |n| (words.word(n), c as u32, n as u32)))
        .collect();
    // Equal words from different chunks end up side by side in any order;
    // they get the same place either way.
    all.par_sort_unstable_by(|a, b| a.0.cmp(b.0));
    let mut places: Vec<Vec<u32>> = chunks.iter().map(|(words, _)| vec![0; words.len()]).collect();
    let mut text = String::with_capacity(all.iter().map(|(w, _, _)| w.len()).sum());
    let mut ends: Vec<usize> = Vec::new();
    let mut last: Option<&str> = None;
    for &(word, chunk, number) in &all {
        if last != Some(word) {
            text.push_str(word);
            ends.push(text.len());
            last = Some(word);
        }
        places[chunk as usize][number as usize] = (ends.len() - 1) as u32;
    }
    (text, ends, places)
}

/// Each word's models, from every chunk's word places in rank order: where
/// each word's run starts (one more entry than `words`) and the runs.
fn postings(chunks: &[Vec<u32>], words: usize) -> (Vec<u32>, Vec<u32>) {
    let mut starts = vec![0u32; words + 1];
    for &word in chunks.iter().flatten().filter(|w| **w != END) {
        starts[word as usize + 1] += 1;
    }
    for i in 0..words {
        starts[i + 1] += starts[i];
    }
    let mut next: Vec<u32> = starts[..words].to_vec();
    let mut ranks = vec![0u32; starts[words] as usize];
    let mut rank = 0u32;
    for &word in chunks.iter().flatten() {
        if word == END {
            rank += 1;
            continue;
        }
        let slot = &mut next[word as usize];
        ranks[*slot as usize] = rank;
        *slot += 1;
    }
    (starts, ranks)
}

/// A chunk's distinct words, numbered in the order found, with an
/// open-addressed table of them by hash.
#[derive(Default)]
struct ChunkWords {
    words: Vec<FoldedWord>,
    /// A word's number + 1 (0: empty), by hash; never more than half full.
    slots: Vec<u32>,
}

impl ChunkWords {
    fn len(&self) -> usize {
        self.words.len()
    }

    fn word(&self, n: usize) -> &str {
        self.words[n].as_str()
    }

    /// The number of `word`, new if it is not known.
    fn number(&mut self, word: &FoldedWord) -> u32 {
        if 2 * (self.len() + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut slot = slot_of(word.hash, mask);
        loop {
            match self.slots[slot] {
                0 => {
                    let number = self.len() as u32;
                    self.slots[slot] = number + 1;
                    self.words.push(*word);
                    return number;
                }
                taken => {
                    let number = taken - 1;
                    if self.words[number as usize] == *word {
                        return number;
                    }
                }
            }
            slot = (slot + 1) & mask;
        }
    }

    /// Doubles the table, placing every word again by its hash.
    fn grow(&mut self) {
        let size = (2 * self.slots.len()).max(4096);
        let mask = size - 1;
        self.slots = vec![0; size];
        for (number, word) in self.words.iter().enumerate() {
            let mut slot = slot_of(word.hash, mask);
            while self.slots[slot] != 0 {
                slot = (slot + 1) & mask;
            }
            self.slots[slot] = number as u32 + 1;
        }
    }
}

/// A hash's first slot in a table of `mask + 1` slots: its bits mixed once
/// more (Fibonacci hashing), the top ones taken.
fn slot_of(hash: u64, mask: usize) -> usize {
    (hash.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as usize & mask
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pages::listings::search::words::model_words;

    fn summary(id: &str, tags: &[&str]) -> ModelSummary {
        ModelSummary { id: id.into(), tags: tags.iter().collect(), ..ModelSummary::default() }
    }

    /// The index holds exactly each distinct word, sorted, with every model
    /// that has it, in rank order; across chunks too.
    #[test]
    fn every_word_lists_every_model_that_has_it() {
        let vocabulary = ["llama", "llava", "l", "lora", "8b", "gguf", "en", "mit", "transformers", "a1", "a10", "a2"];
        let models: Vec<ModelSummary> = (0..CHUNK * 2 + 77)
            .map(|i| {
                let tags: Vec<&str> = vocabulary.iter().enumerate().filter(|(j, _)| (i * 7 + j * 3) % 5 < 2).map(|(_, w)| *w).collect();
                summary(&format!("org{}/model-{}", i % 13, i % 5000), &tags)
            })
            .collect();
        let refs: Vec<&ModelSummary> = models.iter().collect();
        let index = WordIndex::build(&refs);
        let mut want: std::collections::BTreeMap<String, Vec<u32>> = Default::default();
        for (rank, model) in models.iter().enumerate() {
            for word in model_words(model) {
                want.entry(word).or_default().push(rank as u32);
            }
        }
        assert_eq!(index.len(), want.len());
        assert_eq!(index.models(), models.len());
        for (i, (word, ranks)) in want.iter().enumerate() {
            assert_eq!(index.word(i), word);
            assert_eq!(index.postings(i..i + 1), ranks.as_slice(), "{word}");
        }
        assert_eq!(index.postings(0..index.len()).len(), want.values().map(Vec::len).sum::<usize>());
    }

    /// A chunk's table numbers a word once however often it comes, and
    /// keeps its words apart when their hashes fall in the same slots.
    #[test]
    fn a_chunk_numbers_each_word_once() {
        let mut words = ChunkWords::default();
        let texts: Vec<String> = (0..3_000).map(|i| format!("w{i}")).collect();
        for round in 0..2 {
            for (i, text) in texts.iter().enumerate() {
                // Every word given the same few hashes: only the text tells them apart.
                assert_eq!(words.number(&FoldedWord::with_hash(text, (i % 3) as u64)), i as u32, "round {round}");
            }
        }
        assert_eq!(words.len(), texts.len());
        assert_eq!(words.word(2_345), "w2345");
    }
}
