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
    for_each_model_word(summary, &mut Vec::new(), |word| found.push(word.to_owned()));
    found
}

/// Scratch space for [`for_each_model_word`]: the words found so far,
/// each with a hash of it that is compared first (a model's few dozen
/// words are each checked against all those before them).
pub type SeenWords = Vec<(u64, usize, [u8; MAX_WORD])>;

/// Calls `found` with each of [`model_words`] without allocating (the
/// word index tokenises a million models with it): each word is lowercased
/// in a buffer of [`MAX_WORD`] bytes; `seen` is scratch space.
pub fn for_each_model_word(summary: &ModelSummary, seen: &mut SeenWords, mut found: impl FnMut(&str)) {
    seen.clear();
    let texts = std::iter::once(summary.id.as_str())
        .chain(summary.task.as_deref())
        .chain(summary.library.as_deref())
        .chain(summary.tags.iter());
    for word in texts.flat_map(|text| text.split(|c: char| !c.is_ascii_alphanumeric())).filter(|w| !w.is_empty()) {
        if seen.len() == MAX_MODEL_WORDS {
            return;
        }
        // A word is ASCII letters and digits: any cut is a char boundary.
        let len = word.len().min(MAX_WORD);
        let mut folded = [0u8; MAX_WORD];
        folded[..len].copy_from_slice(&word.as_bytes()[..len]);
        folded[..len].make_ascii_lowercase();
        let hash = folded[..len].iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3));
        if !seen.iter().any(|(h, n, w)| *h == hash && w[..*n] == folded[..len]) {
            found(std::str::from_utf8(&folded[..len]).expect("ASCII letters and digits"));
            seen.push((hash, len, folded));
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
            summary("Meta-Llama/Llama-3.1-8B", Some("text-generation"), None, &["LLAMA", "llama-3", "é-ü", "8b"]),
            summary(&format!("ns/{long}-{}", "a".repeat(33)), None, Some("transformers"), &[&long, "x..y", ""]),
            summary("ns/m", None, None, &many),
        ];
        for model in &cases {
            assert_eq!(model_words(model), by_words(model), "{}", model.id);
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
