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
//! Links: the search island reads `q`, `task`, `library` and `tag` from the
//! index's query string, so a task links `?task=`, the record's library
//! `?library=` and any other tag `?tag=` with the tag as the record writes it
//! (`license:llama3.1`, `de`, `dataset:org/name`, `onnx`): a filter, which
//! lists exactly the models whose [`filter_tags`] hold it, not a word search.
//! Papers (`arxiv:<id>`) link arXiv instead. A tag too long for a file name
//! of its own ([`tag_file_name`]) is searched for as words (`?q=`).

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

/// The filter tags among `filters` that the page groups under Languages
/// (the same test `tag_groups` applies, in the same order), for the
/// search's language facet.
pub fn language_tags<'t>(filters: impl IntoIterator<Item = &'t str>, card_languages: &[String]) -> Vec<&'t str> {
    filters
        .into_iter()
        .filter(|t| !t.starts_with("license:") && !t.starts_with("dataset:") && arxiv_id(t).is_none())
        .filter(|t| library_label(t).is_none() && is_language(t, card_languages))
        .collect()
}

/// Most tags a model is listed under as filters: a record with thousands of
/// tags weighs no more on the listings than one with a few hundred.
pub const MAX_FILTER_TAGS: usize = 200;

/// Longest file name a tag's listing gets (file systems allow 255 bytes).
const MAX_TAG_FILE_NAME: usize = 200;

/// The folder name of a tag's listing (`search/tag/<name>/`): lowercase
/// letters, digits, `-` and `_` as they are, every other byte as `~` and two
/// hex digits (`license:llama3.1` is `license~3allama3~2e1`), so names are
/// safe on any file system, case-insensitive ones included, and in a URL.
/// None when the name would be too long. The island's twin is
/// `tagFileName` in `site-src/islands/search-data.ts`; the browser tests
/// follow a model page's tag links through it to their listings.
pub fn tag_file_name(tag: &str) -> Option<String> {
    let mut name = String::with_capacity(tag.len());
    for byte in tag.bytes() {
        if byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'-' || byte == b'_' {
            name.push(byte as char);
        } else {
            name.push_str(&format!("~{byte:02x}"));
        }
        if name.len() > MAX_TAG_FILE_NAME {
            return None;
        }
    }
    (!name.is_empty()).then_some(name)
}

/// Whether `tag` is shown at all: not one of the Hub's own, no control
/// characters other than white space, not empty, not too long.
fn is_shown(tag: &str) -> bool {
    !tag.is_empty() && tag.len() <= MAX_TAG_LEN && !is_internal(tag) && !tag.chars().any(|c| c.is_control() && !c.is_whitespace())
}

/// The tags a model is listed under as filters, each once, in the order
/// its page meets them: the card's licenses (`license:<id>`), languages and
/// datasets (`dataset:<id>`), then the record's tags and the card's, but
/// papers (they link arXiv), tags with a line break and tags too long for
/// a file name; at most
/// [`MAX_FILTER_TAGS`]. A page links `?tag=` only for these, so every such
/// link lists its own model.
pub fn filter_tags(tags: &[String], meta: &CardMeta) -> Vec<String> {
    let from_card = meta
        .license
        .iter()
        .map(|l| format!("license:{l}"))
        .chain(meta.language.iter().cloned())
        .chain(meta.datasets.iter().map(|d| format!("dataset:{d}")));
    let mut found: Vec<String> = Vec::new();
    let mut seen: BTreeSet<String> = BTreeSet::new();
    for tag in from_card.chain(tags.iter().chain(&meta.tags).cloned()) {
        if found.len() == MAX_FILTER_TAGS {
            break;
        }
        // A line break is no part of a stored list of tags (`TagList`).
        let filterable = is_shown(&tag) && !tag.contains('\n') && arxiv_id(&tag).is_none() && tag_file_name(&tag).is_some();
        if filterable && seen.insert(tag.clone()) {
            found.push(tag);
        }
    }
    found
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
    let filters: BTreeSet<String> = filter_tags(input.tags, input.meta.unwrap_or(&CardMeta::default())).into_iter().collect();
    // A tag's link: its filter, or for a tag that is none (too long, or
    // past the model's last filter) a search for its words.
    let tag_link = |tag: &str| if filters.contains(tag) { search("tag", tag) } else { search("q", tag) };
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
            let tag = format!("license:{license}");
            add(&mut groups, 3, tag.clone(), license, tag_link(&tag));
        }
        for language in &meta.language {
            add(&mut groups, 2, language.clone(), language, tag_link(language));
        }
        for dataset in &meta.datasets {
            let tag = format!("dataset:{dataset}");
            add(&mut groups, 4, tag.clone(), dataset, tag_link(&tag));
        }
    }
    // The card's own tags follow the record's (Hub records repeat them;
    // those are shown once).
    let card_tags = input.meta.map_or(&empty, |m| &m.tags);
    for tag in input.tags.iter().chain(card_tags) {
        let tag = tag.as_str();
        // Text is escaped by the templates; control characters other than
        // white space are not text at all.
        if !is_shown(tag) {
            continue;
        }
        if let Some(license) = tag.strip_prefix("license:") {
            add(&mut groups, 3, tag.to_owned(), license, tag_link(tag));
        } else if let Some(dataset) = tag.strip_prefix("dataset:") {
            add(&mut groups, 4, tag.to_owned(), dataset, tag_link(tag));
        } else if let Some(id) = arxiv_id(tag) {
            add(&mut groups, 5, tag.to_owned(), &format!("arXiv:{id}"), format!("https://arxiv.org/abs/{id}"));
        } else if let Some(label) = library_label(tag) {
            add(&mut groups, 1, library_key(label), label, tag_link(tag));
        } else if is_language(tag, card_languages) {
            add(&mut groups, 2, tag.to_owned(), tag, tag_link(tag));
        } else {
            add(&mut groups, 6, tag.to_owned(), tag, tag_link(tag));
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
        assert_eq!(url("license", "llama3.1"), "/hub/?tag=license%3Allama3%2E1");
        assert_eq!(url("language", "de"), "/hub/?tag=de", "a language is a filter, not a word search");
        assert_eq!(url("language", "fra"), "/hub/?tag=fra");
        assert_eq!(url("dataset", "HuggingFaceH4/ultrachat_200k"), "/hub/?tag=dataset%3AHuggingFaceH4%2Fultrachat%5F200k");
        assert_eq!(url("paper", "arXiv:2407.21783"), "https://arxiv.org/abs/2407.21783");
        assert_eq!(url("other", "llama"), "/hub/?tag=llama");
        // Every filter link is one of the model's filter tags.
        let filters = filter_tags(&tags, &meta);
        for tag in groups.iter().flat_map(|g| &g.tags).filter_map(|t| t.url.strip_prefix("/hub/?tag=")) {
            let tag = percent_encoding::percent_decode_str(tag).decode_utf8().unwrap();
            assert!(filters.iter().any(|f| *f == tag), "{tag} is a filter of the model");
        }
        assert_eq!(
            filters,
            ["license:llama3.1", "en", "fra", "transformers", "safetensors", "llama", "text-generation", "conversational", "de", "dataset:HuggingFaceH4/ultrachat_200k"]
        );
    }

    #[test]
    fn tag_file_names_are_safe_and_bounded() {
        assert_eq!(tag_file_name("license:llama3.1").as_deref(), Some("license~3allama3~2e1"));
        assert_eq!(tag_file_name("Org/Data_set").as_deref(), Some("~4frg~2f~44ata_set"));
        assert_eq!(tag_file_name(".."), Some("~2e~2e".to_owned()));
        assert_eq!(tag_file_name(""), None);
        assert_eq!(tag_file_name(&"x".repeat(MAX_TAG_FILE_NAME + 1)), None);
        // A tag too long for a file is searched for by its words.
        let long = "y".repeat(MAX_TAG_FILE_NAME + 1);
        let groups = tag_groups(&TagInput { tags: &[long.clone(), "ok".into()], task: None, library: None, meta: None, index_url: "/" });
        let urls: Vec<&str> = groups[0].tags.iter().map(|t| t.url.as_str()).collect();
        assert_eq!(urls, [format!("/?q={long}").as_str(), "/?tag=ok"]);
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
        assert_eq!(tf.url, "/?tag=tf", "the link filters by the tag as the record writes it");
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
