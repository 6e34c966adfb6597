//! The record's tags, sorted into the groups a visitor scans for: task,
//! library, languages, license, datasets, papers and the rest, each tag
//! once, each a link to the index's search for it.
//!
//! What a tag is comes from the Hub's own lists, kept as data: a library is
//! a key of the library catalogue (shown with its label) or one of the
//! frameworks and formats of `data/library_tags.json` (`pytorch`, `tf`,
//! `onnx`, `rust`...); a language is a code of ISO 639-1
//! (`data/language_codes.txt`) or one the card lists among its languages
//! (`fra`), so `tf` is TensorFlow, not a language.
//!
//! Hub records carry tags meant for the Hub's own machinery (`region:us`,
//! `endpoints_compatible`, `deploy:*`); they say nothing to a visitor and are
//! left out. `base_model:*` tags are left out too: the model tree shows them.
//! Prefixed tags lose their prefix where the group says it (`license:mit`
//! is "mit" under License), and the card's own license, languages and
//! datasets join their groups, so no tag is shown twice.
//!
//! Links: the search island reads `q`, `task` and `library` from the index's
//! query string, so a task links `?task=`, a library `?library=` and any
//! other tag `?q=` with the tag as the record writes it (the search matches
//! a model's tags word by word). Papers (`arxiv:<id>`) link arXiv instead.

use std::collections::{BTreeSet, HashMap};
use std::sync::LazyLock;

use modelpages_record::CardMeta;
use modelpages_snippets::Catalogue;
use percent_encoding::{utf8_percent_encode, NON_ALPHANUMERIC};
use serde::Serialize;

/// Tags shown per group at most (a record can carry thousands).
const MAX_PER_GROUP: usize = 40;
/// Longest tag shown.
const MAX_TAG_LEN: usize = 300;

/// One linked tag.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TagLink {
    pub label: String,
    pub url: String,
}

/// A group of tags with its heading.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TagGroup {
    pub key: &'static str,
    pub label: &'static str,
    pub tags: Vec<TagLink>,
}

/// What the groups are made from.
pub struct TagInput<'a> {
    pub tags: &'a [String],
    /// The task's key and display name.
    pub task: Option<(&'a str, &'a str)>,
    /// The library's key and display name.
    pub library: Option<(&'a str, &'a str)>,
    pub meta: Option<&'a CardMeta>,
    /// The index page (`/` or `/hub/`), where the search is.
    pub index_url: &'a str,
}

/// Tags the Hub adds for its own services; not shown.
fn is_internal(tag: &str) -> bool {
    const EXACT: [&str; 5] =
        ["endpoints_compatible", "autotrain_compatible", "text-generation-inference", "has_space", "custom_code"];
    const PREFIXES: [&str; 5] = ["region:", "deploy:", "base_model:", "doi:", "template:"];
    EXACT.contains(&tag) || PREFIXES.iter().any(|p| tag.starts_with(p))
}

/// Library tags and the name each is shown by: the catalogue's keys with
/// their labels, and the frameworks and formats of `data/library_tags.json`.
static LIBRARY_TAGS: LazyLock<HashMap<String, String>> = LazyLock::new(|| {
    #[derive(serde::Deserialize)]
    struct Listed {
        tags: Vec<Tag>,
    }
    #[derive(serde::Deserialize)]
    struct Tag {
        tag: String,
        label: String,
    }
    let listed: Listed = serde_json::from_str(include_str!("../../data/library_tags.json")).expect("data/library_tags.json is valid (checked by tests)");
    let catalogue = Catalogue::builtin();
    let mut labels: HashMap<String, String> = listed.tags.into_iter().map(|t| (t.tag, t.label)).collect();
    labels.extend(catalogue.libraries().iter().map(|l| (l.key.clone(), l.pretty_label.clone())));
    labels
});

/// The two-letter codes of ISO 639-1, sorted.
static LANGUAGE_CODES: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    let mut codes: Vec<&str> =
        include_str!("../../data/language_codes.txt").lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).collect();
    codes.sort_unstable();
    codes
});

/// The name a library tag is shown by, when `tag` is one.
fn library_label(tag: &str) -> Option<&'static str> {
    LIBRARY_TAGS.get(tag).map(String::as_str)
}

/// A language code: one of ISO 639-1, or one the card lists among its
/// languages (three-letter codes of ISO 639-3, mostly).
fn is_language(tag: &str, card_languages: &[String]) -> bool {
    LANGUAGE_CODES.binary_search(&tag).is_ok() || card_languages.iter().any(|l| l == tag)
}

/// `arxiv:<id>` with an id of digits, dots, letters, `/` and `-` only.
fn arxiv_id(tag: &str) -> Option<&str> {
    let id = tag.strip_prefix("arxiv:")?;
    let ok = !id.is_empty() && id.len() <= 40 && id.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'/' | b'-'));
    ok.then_some(id)
}

/// `index_url?name=value`, the value percent-encoded.
pub fn search_url(index_url: &str, name: &str, value: &str) -> String {
    format!("{index_url}?{name}={}", utf8_percent_encode(value, NON_ALPHANUMERIC))
}

/// The groups, in a fixed order, empty ones left out.
pub fn tag_groups(input: &TagInput<'_>) -> Vec<TagGroup> {
    let empty = Vec::new();
    let card_languages = input.meta.map_or(&empty, |m| &m.language);
    let search = |name: &str, value: &str| search_url(input.index_url, name, value);
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut groups: Vec<TagGroup> = [
        ("task", "Task"),
        ("library", "Libraries"),
        ("language", "Languages"),
        ("license", "License"),
        ("dataset", "Datasets"),
        ("paper", "Papers"),
        ("other", "Other tags"),
    ]
    .into_iter()
    .map(|(key, label)| TagGroup { key, label, tags: Vec::new() })
    .collect();
    // Adds `label` to group `at` under `key` (the tag it stands for), once.
    let mut add = |groups: &mut Vec<TagGroup>, at: usize, key: String, label: &str, url: String| {
        if label.is_empty() || label.len() > MAX_TAG_LEN || groups[at].tags.len() >= MAX_PER_GROUP || !seen.insert(key) {
            return;
        }
        groups[at].tags.push(TagLink { label: label.to_owned(), url });
    };
    if let Some((key, name)) = input.task {
        add(&mut groups, 0, key.to_owned(), name, search("task", key));
    }
    // Libraries are told apart by the name shown: `tf` and `tensorflow`
    // are one library, and so are a record's library and its tag.
    let library_key = |label: &str| format!("library:{}", label.to_lowercase());
    if let Some((key, name)) = input.library {
        add(&mut groups, 1, library_key(name), name, search("library", key));
    }
    if let Some(meta) = input.meta {
        for license in &meta.license {
            add(&mut groups, 3, format!("license:{license}"), license, search("q", &format!("license:{license}")));
        }
        for language in &meta.language {
            add(&mut groups, 2, language.clone(), language, search("q", language));
        }
        for dataset in &meta.datasets {
            add(&mut groups, 4, format!("dataset:{dataset}"), dataset, search("q", &format!("dataset:{dataset}")));
        }
    }
    // The card's own tags follow the record's (Hub records repeat them;
    // those are shown once).
    let card_tags = input.meta.map_or(&empty, |m| &m.tags);
    for tag in input.tags.iter().chain(card_tags) {
        let tag = tag.as_str();
        // Text is escaped by the templates; control characters other than
        // white space are not text at all.
        if is_internal(tag) || tag.chars().any(|c| c.is_control() && !c.is_whitespace()) {
            continue;
        }
        if let Some(license) = tag.strip_prefix("license:") {
            add(&mut groups, 3, tag.to_owned(), license, search("q", tag));
        } else if let Some(dataset) = tag.strip_prefix("dataset:") {
            add(&mut groups, 4, tag.to_owned(), dataset, search("q", tag));
        } else if let Some(id) = arxiv_id(tag) {
            add(&mut groups, 5, tag.to_owned(), &format!("arXiv:{id}"), format!("https://arxiv.org/abs/{id}"));
        } else if let Some(label) = library_label(tag) {
            add(&mut groups, 1, library_key(label), label, search("q", tag));
        } else if is_language(tag, card_languages) {
            add(&mut groups, 2, tag.to_owned(), tag, search("q", tag));
        } else {
            add(&mut groups, 6, tag.to_owned(), tag, search("q", tag));
        }
    }
    groups.retain(|g| !g.tags.is_empty());
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(groups: &[TagGroup]) -> Vec<(&str, Vec<&str>)> {
        groups.iter().map(|g| (g.key, g.tags.iter().map(|t| t.label.as_str()).collect())).collect()
    }

    #[test]
    fn hub_tags_are_grouped_once_each_and_internal_ones_hidden() {
        let tags: Vec<String> = [
            "transformers", "safetensors", "llama", "text-generation", "conversational", "en", "de",
            "arxiv:2407.21783", "license:llama3.1", "dataset:HuggingFaceH4/ultrachat_200k", "base_model:finetune:meta-llama/Llama-3.1-8B",
            "base_model:meta-llama/Llama-3.1-8B", "autotrain_compatible", "text-generation-inference", "endpoints_compatible",
            "region:us", "deploy:azure", "llama", "en",
        ]
        .map(String::from)
        .to_vec();
        let meta = CardMeta {
            license: vec!["llama3.1".into()],
            language: vec!["en".into(), "fra".into()],
            tags: vec!["llama".into(), "card-only\nline".into(), "bell\u{7}".into()],
            ..CardMeta::default()
        };
        let groups = tag_groups(&TagInput {
            tags: &tags,
            task: Some(("text-generation", "Text Generation")),
            library: Some(("transformers", "Transformers")),
            meta: Some(&meta),
            index_url: "/hub/",
        });
        assert_eq!(
            labels(&groups),
            [
                ("task", vec!["Text Generation"]),
                ("library", vec!["Transformers", "Safetensors"]),
                ("language", vec!["en", "fra", "de"]),
                ("license", vec!["llama3.1"]),
                ("dataset", vec!["HuggingFaceH4/ultrachat_200k"]),
                ("paper", vec!["arXiv:2407.21783"]),
                ("other", vec!["llama", "conversational", "card-only\nline"]),
            ]
        );
        let url = |key: &str, label: &str| {
            let group = groups.iter().find(|g| g.key == key).unwrap();
            group.tags.iter().find(|t| t.label == label).unwrap().url.clone()
        };
        assert_eq!(url("task", "Text Generation"), "/hub/?task=text%2Dgeneration");
        assert_eq!(url("library", "Transformers"), "/hub/?library=transformers");
        assert_eq!(url("license", "llama3.1"), "/hub/?q=license%3Allama3%2E1");
        assert_eq!(url("paper", "arXiv:2407.21783"), "https://arxiv.org/abs/2407.21783");
        assert_eq!(url("other", "llama"), "/hub/?q=llama");
    }

    #[test]
    fn libraries_and_languages_come_from_the_hubs_lists() {
        let tags: Vec<String> = ["tf", "tensorflow", "rust", "openvino", "onnx", "pytorch", "timm", "keras", "fr", "jw", "xx", "yue", "llama"]
            .map(String::from)
            .to_vec();
        let meta = CardMeta { language: vec!["yue".into()], ..CardMeta::default() };
        let groups = tag_groups(&TagInput { tags: &tags, task: None, library: None, meta: Some(&meta), index_url: "/" });
        assert_eq!(
            labels(&groups),
            [
                ("library", vec!["TensorFlow", "Rust", "OpenVINO", "ONNX", "PyTorch", "timm", "Keras"]),
                ("language", vec!["yue", "fr", "jw"]),
                ("other", vec!["xx", "llama"]),
            ]
        );
        let tf = groups[0].tags.iter().find(|t| t.label == "TensorFlow").unwrap();
        assert_eq!(tf.url, "/?q=tf", "the link searches the tag as the record writes it");
    }

    #[test]
    fn the_lists_are_well_formed() {
        assert_eq!(LANGUAGE_CODES.len(), 185, "ISO 639-1's 184 codes and `jw`");
        assert!(LANGUAGE_CODES.iter().all(|c| c.len() == 2 && c.bytes().all(|b| b.is_ascii_lowercase())));
        assert!(!LANGUAGE_CODES.contains(&"tf"));
        assert_eq!(library_label("transformers"), Some("Transformers"));
        assert_eq!(library_label("coreml"), Some("Core ML"));
        assert_eq!(library_label("llama"), None);
    }

    #[test]
    fn odd_tags_are_bounded() {
        let tags: Vec<String> = (0..100).map(|i| format!("t{i}")).chain(["arxiv:\"><x".to_owned(), "x".repeat(MAX_TAG_LEN + 1)]).collect();
        let groups = tag_groups(&TagInput { tags: &tags, task: None, library: None, meta: None, index_url: "/" });
        assert_eq!(labels(&groups).len(), 1);
        assert_eq!(groups[0].tags.len(), MAX_PER_GROUP);
        assert!(tag_groups(&TagInput { tags: &["arxiv:\"><x".into()], task: None, library: None, meta: None, index_url: "/" })[0].key == "other");
    }
}
