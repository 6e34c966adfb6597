//! The words search knows a model by, and the words of a query.
//!
//! A word is a run of ASCII letters and digits, lowercased: `Llama-3.1-8B`
//! has the words `llama`, `3`, `1` and `8b`. A model's words come from its
//! id, its task, its library and its tags; every other character (`-`, `/`,
//! `:`, `.`, and anything outside ASCII) only separates words. A query is cut
//! into words by the same rule, and a model matches when each query word
//! begins one of its words: `lla 8b` finds `meta-llama/Llama-3.1-8B`.
//!
//! The search island (`site-src/islands/search-words.ts`) follows these
//! rules to check results against every word of a query; both are tested on
//! the same cases (`site-src/test/fixtures/search-words.json`).

use modelpages_record::ModelSummary;

/// Longest word kept, in bytes; longer ones (and query words) are cut.
pub const MAX_WORD: usize = 32;

/// Most words a model is known by: a record with thousands of tags adds
/// no more to the index than a normal one.
pub const MAX_MODEL_WORDS: usize = 64;

/// The words of `text` in order of appearance, lowercased and cut to
/// [`MAX_WORD`] bytes, repeats included.
pub fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).map(|w| {
        let mut word = w[..w.len().min(MAX_WORD)].to_owned();
        word.make_ascii_lowercase();
        word
    })
}

/// A model's words, each once, in the order first found (id, task, library,
/// tags), at most [`MAX_MODEL_WORDS`].
pub fn model_words(summary: &ModelSummary) -> Vec<String> {
    let mut found = Vec::new();
    for_each_model_word(summary, &mut SeenWords::default(), |word| found.push(word.as_str().to_owned()));
    found
}

/// A word as the tokeniser finds it: folded, cut to [`MAX_WORD`] bytes,
/// padded with zeros (no word holds one, so the padded bytes alone tell
/// two words apart), and hashed (FNV-1a). Comparing two is a hash and two
/// 16-byte compares, with no call and no length check.
#[derive(Clone, Copy, Debug)]
pub struct FoldedWord {
    bytes: [u8; MAX_WORD],
    len: u8,
    pub hash: u64,
}

impl FoldedWord {
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).expect("ASCII letters and digits")
    }

    /// A word of lowercase ASCII letters and digits given any hash, for
    /// tests of tables that must not rely on hashes differing.
    #[cfg(test)]
    pub fn with_hash(text: &str, hash: u64) -> FoldedWord {
        assert!(text.len() <= MAX_WORD && text.bytes().all(|b| FOLDED[usize::from(b)] == b && b != 0));
        let mut bytes = [0u8; MAX_WORD];
        bytes[..text.len()].copy_from_slice(text.as_bytes());
        FoldedWord { bytes, len: text.len() as u8, hash }
    }
}

impl PartialEq for FoldedWord {
    fn eq(&self, other: &FoldedWord) -> bool {
        self.hash == other.hash && self.bytes == other.bytes
    }
}

/// Scratch space for [`for_each_model_word`]: the words found so far, and
/// a small open-addressed table of them by hash, so a word is checked
/// against the one or two earlier words in its slot, not against all of a
/// model's few dozen. A slot is empty unless it carries the current
/// model's stamp, so nothing is cleared between models.
pub struct SeenWords {
    words: Vec<FoldedWord>,
    /// (stamp, index into `words`), by the hash's top bits.
    slots: [(u32, u8); SEEN_SLOTS],
    stamp: u32,
}

/// Twice [`MAX_MODEL_WORDS`]: the table is never more than half full.
const SEEN_SLOTS: usize = 2 * MAX_MODEL_WORDS;

impl Default for SeenWords {
    fn default() -> SeenWords {
        SeenWords { words: Vec::new(), slots: [(0, 0); SEEN_SLOTS], stamp: 0 }
    }
}

impl SeenWords {
    /// Empties it for the next model.
    fn clear(&mut self) {
        self.words.clear();
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.slots = [(0, 0); SEEN_SLOTS];
            self.stamp = 1;
        }
    }

    /// Adds `word` unless it is there already; says whether it was added.
    fn add(&mut self, word: FoldedWord) -> bool {
        // The top bits of FNV-1a's last multiplication mix every byte.
        let mut slot = (word.hash >> (64 - SEEN_SLOTS.trailing_zeros())) as usize;
        loop {
            let (stamp, index) = self.slots[slot];
            if stamp != self.stamp {
                self.slots[slot] = (self.stamp, self.words.len() as u8);
                self.words.push(word);
                return true;
            }
            if self.words[usize::from(index)] == word {
                return false;
            }
            slot = (slot + 1) % SEEN_SLOTS;
        }
    }
}

/// What each byte becomes in a word: ASCII letters lowercased, digits as
/// they are, and 0 for every other byte, which only separates words. Bytes
/// of a character outside ASCII are all 0x80 or more, so a text is cut by
/// its bytes exactly as by its characters.
const FOLDED: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut byte = 0;
    while byte < 128 {
        let c = byte as u8;
        table[byte] = if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else if c.is_ascii_alphanumeric() { c } else { 0 };
        byte += 1;
    }
    table
};

/// Calls `found` with each of [`model_words`] without allocating (the
/// word index tokenises a million models with it): each word is folded
/// into a [`FoldedWord`] as its text is scanned once, and hashed on the
/// way, so the word index need not hash it again; `seen` is scratch space.
pub fn for_each_model_word(summary: &ModelSummary, seen: &mut SeenWords, mut found: impl FnMut(&FoldedWord)) {
    seen.clear();
    let texts = std::iter::once(summary.id.as_str())
        .chain(summary.task.as_deref())
        .chain(summary.library.as_deref())
        // A line break between tags only separates words, as a tag's own
        // dashes do.
        .chain(std::iter::once(summary.tags.joined()));
    for text in texts {
        let bytes = text.as_bytes();
        let mut at = 0;
        loop {
            while at < bytes.len() && FOLDED[usize::from(bytes[at])] == 0 {
                at += 1;
            }
            if at == bytes.len() {
                break;
            }
            let mut bytes_of_word = [0u8; MAX_WORD];
            let (mut len, mut hash) = (0, 0xcbf2_9ce4_8422_2325u64);
            while at < bytes.len() {
                let byte = FOLDED[usize::from(bytes[at])];
                if byte == 0 {
                    break;
                }
                if len < MAX_WORD {
                    bytes_of_word[len] = byte;
                    len += 1;
                    hash = (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
                }
                at += 1;
            }
            if seen.words.len() == MAX_MODEL_WORDS {
                return;
            }
            let word = FoldedWord { bytes: bytes_of_word, len: len as u8, hash };
            if seen.add(word) {
                found(&word);
            }
        }
    }
}

/// The words of a query a model must match, each the start of one of its
/// words. A word that begins another query word is dropped: whatever
/// matches `llama` matches `ll` too.
pub fn query_words(query: &str) -> Vec<String> {
    let all: Vec<String> = words(query).collect();
    let mut kept: Vec<String> = Vec::new();
    for (i, word) in all.iter().enumerate() {
        let implied = all.iter().enumerate().any(|(j, other)| {
            other.starts_with(word.as_str()) && (other.len() > word.len() || j < i)
        });
        if !implied {
            kept.push(word.clone());
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(id: &str, task: Option<&str>, library: Option<&str>, tags: &[&str]) -> ModelSummary {
        ModelSummary {
            id: id.into(),
            url: String::new(),
            task: task.map(Into::into),
            library: library.map(Into::into),
            downloads: None,
            likes: None,
            tags: tags.iter().collect(),
            ..ModelSummary::default()
        }
    }

    /// The cases the island's twin is tested on too.
    #[test]
    fn the_shared_cases_hold() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../site-src/test/fixtures/search-words.json");
        let cases: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let strings = |v: &serde_json::Value| -> Vec<String> {
            v.as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_owned()).collect()
        };
        let models = cases["models"].as_array().unwrap();
        assert!(models.len() >= 5);
        for case in models {
            let tags = strings(&case["tags"]);
            let model = summary(
                case["id"].as_str().unwrap(),
                case["task"].as_str(),
                case["library"].as_str(),
                &tags.iter().map(String::as_str).collect::<Vec<_>>(),
            );
            assert_eq!(model_words(&model), strings(&case["words"]), "{}", model.id);
        }
        for case in cases["queries"].as_array().unwrap() {
            let query = case["query"].as_str().unwrap();
            assert_eq!(query_words(query), strings(&case["words"]), "{query:?}");
        }
    }

    /// A model's words follow the rules [`words`] cuts a text by: folded,
    /// cut, each once, at most 64.
    #[test]
    fn index_words_are_the_models_words() {
        let by_words = |model: &ModelSummary| -> Vec<String> {
            let texts = std::iter::once(model.id.as_str()).chain(model.task.as_deref()).chain(model.library.as_deref()).chain(model.tags.iter());
            let mut found: Vec<String> = Vec::new();
            for word in texts.flat_map(words) {
                if !found.contains(&word) && found.len() < MAX_MODEL_WORDS {
                    found.push(word);
                }
            }
            found
        };
        let long = "a".repeat(40) + "B";
        let many: Vec<String> = (0..80).map(|i| format!("t{i}")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        let cases = [
            summary("Meta-Llama/Llama-3.1-8B", Some("text-generation"), None, &["LLAMA", "llama-3", "é-ü", "8b", "caféBar2X", "日本語-ja", "Ωmega_Ünï"]),
            summary(&format!("ns/{long}-{}", "a".repeat(33)), None, Some("transformers"), &[&long, "x..y", ""]),
            summary("ns/m", None, None, &many),
        ];
        for model in &cases {
            assert_eq!(model_words(model), by_words(model), "{}", model.id);
        }
    }

    /// One scratch space serves model after model, across its stamp
    /// wrapping round: each model's words are its own.
    #[test]
    fn scratch_space_carries_nothing_from_one_model_to_the_next() {
        let tags: Vec<String> = (0..70).map(|i| format!("w{}", i % 40)).collect();
        let models = [
            summary("a/llama-8b", Some("text-generation"), None, &["llama", "8B"]),
            summary("b/llama", None, Some("transformers"), &tags.iter().map(String::as_str).collect::<Vec<_>>()),
            summary("c/x", None, None, &["llama"]),
        ];
        let mut seen = SeenWords::default();
        for start in [0, u32::MAX - 2] {
            seen.stamp = start;
            for _ in 0..3 {
                for model in &models {
                    let mut found = Vec::new();
                    for_each_model_word(model, &mut seen, |w| found.push(w.as_str().to_owned()));
                    assert_eq!(found, model_words(model), "{}", model.id);
                }
            }
        }
    }

    #[test]
    fn words_are_cut_and_capped() {
        let long = "a".repeat(100);
        assert_eq!(words(&long).next().unwrap().len(), MAX_WORD);
        let tags: Vec<String> = (0..200).map(|i| format!("tag{i}")).collect();
        let model = summary("ns/m", None, None, &tags.iter().map(String::as_str).collect::<Vec<_>>());
        let found = model_words(&model);
        assert_eq!(found.len(), MAX_MODEL_WORDS);
        assert_eq!(&found[..3], ["ns", "m", "tag0"]);
    }
}
