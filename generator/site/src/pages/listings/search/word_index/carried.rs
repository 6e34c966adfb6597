//! The word index carried on from the previous build's: the part of what
//! a build keeps for the next that `pages::listings::carried` hands the
//! search, with which of the previous build's models keep their words,
//! and where they are now.
//!
//! Each word's kept ranks, moved to their new places (which keeps them in
//! order), are merged with the ranks of the models tokenised afresh; a word
//! no model has any more is left out. The result is the index a full build
//! makes of the same models, word for word and rank for rank.
//!
//! Saved ([`WordIndex::save_to`]), the words come front-coded in byte order,
//! then each word's ranks as a count and gaps. Read back, the words must
//! come in byte order, each once, and hold only what the tokeniser makes,
//! and the ranks must be below the number of models saved.

use modelpages_record::ModelSummary;

use super::WordIndex;
use crate::pages::listings::compact::{put, put_front_coded, Reader};
use crate::pages::listings::search::words::{for_each_model_word, FoldedWord, SeenWords, MAX_WORD};

/// A saved rank whose model keeps nothing: it is no longer listed, or
/// its row may have changed.
pub const NOT_KEPT: u32 = u32::MAX;

impl WordIndex {
    /// Appends this index in its saved form.
    pub fn save_to(&self, out: &mut Vec<u8>) {
        put(out, self.len());
        put_front_coded(out, (0..self.len()).map(|i| self.word(i).as_bytes()));
        for i in 0..self.len() {
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
    /// `tokenise` the ranks now of the models that do not. `None` when
    /// `saved` does not read back.
    pub fn carried(saved: &[u8], moved: &[u32], tokenise: &[u32], models: &[&ModelSummary]) -> Option<WordIndex> {
        let old = read(saved, moved.len())?;
        let mut found: Vec<(FoldedWord, u32)> = Vec::new();
        let mut seen = SeenWords::default();
        for &rank in tokenise {
            for_each_model_word(models[rank as usize], &mut seen, |word| found.push((*word, rank)));
        }
        found.sort_unstable_by(|a, b| a.0.as_str().cmp(b.0.as_str()).then(a.1.cmp(&b.1)));
        Some(merge(&old, moved, &found, models.len()))
    }
}

/// A saved index of `models` models, checked (see the module's overview).
fn read(saved: &[u8], models: usize) -> Option<WordIndex> {
    let mut reader = Reader::new(saved);
    let words = reader.count()?;
    let (text, ends) = reader.front_coded(words, MAX_WORD)?;
    let text = String::from_utf8(text).ok()?;
    let word = |i: usize| &text[if i == 0 { 0 } else { ends[i - 1] }..ends[i]];
    let tokeniser_made = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
    if !(0..words).all(|i| tokeniser_made(word(i))) || (1..words).any(|i| word(i - 1) >= word(i)) {
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
    reader.is_done().then_some(WordIndex { text, ends, starts, ranks, models })
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
            kept.iter().map(|&rank| moved[rank as usize]).filter(|&rank| rank != NOT_KEPT),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A damaged saved index is refused, never trusted and never a panic:
    /// cut anywhere, with any byte changed, with a word the tokeniser never
    /// makes, with a rank past the models, or with counts beyond its size.
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
        put_front_coded(&mut not_a_word, [b"Upper".as_slice()].into_iter());
        put(&mut not_a_word, 0);
        assert!(read(&not_a_word, 1).is_none(), "a word the tokeniser never makes");
        let mut huge = Vec::new();
        put(&mut huge, usize::MAX >> 1);
        assert!(read(&huge, 1).is_none(), "a count beyond the bytes left");
    }
}
