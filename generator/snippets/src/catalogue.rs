//! The library catalogue: one entry per library key the Hub knows.
//!
//! Entries are data (`data/libraries.json`); a library's usage examples are
//! the templates in `templates/library/<key>/`, so adding a library is one
//! entry plus, where it has examples, one template.

use serde::{Deserialize, Serialize};

/// One library, as the catalogue describes it.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Library {
    /// The `library_name` value of records that belong to this library.
    pub key: String,
    pub pretty_label: String,
    pub repo_name: String,
    pub repo_url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub docs_url: Option<String>,
    /// Whether the library is offered as a filter when browsing.
    pub filter: bool,
    /// Query naming which files count as a download of a model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count_downloads: Option<String>,
    /// Tasks the library serves, where known.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tasks: Vec<String>,
}

/// Every library, in key order.
#[derive(Clone, Debug)]
pub struct Catalogue {
    libraries: Vec<Library>,
}

impl Catalogue {
    /// The catalogue built into the binary.
    pub fn builtin() -> Catalogue {
        let mut libraries: Vec<Library> = serde_json::from_str(include_str!("../data/libraries.json"))
            .expect("data/libraries.json is valid (checked by tests)");
        libraries.sort_by(|a, b| a.key.cmp(&b.key));
        Catalogue { libraries }
    }

    pub fn libraries(&self) -> &[Library] {
        &self.libraries
    }

    pub fn get(&self, key: &str) -> Option<&Library> {
        self.libraries.binary_search_by(|l| l.key.as_str().cmp(key)).ok().map(|i| &self.libraries[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_catalogue_is_complete_and_unique() {
        let catalogue = Catalogue::builtin();
        assert_eq!(catalogue.libraries().len(), 257);
        let mut keys: Vec<_> = catalogue.libraries().iter().map(|l| &l.key).collect();
        keys.dedup();
        assert_eq!(keys.len(), 257, "keys are unique");
        let transformers = catalogue.get("transformers").unwrap();
        assert_eq!(transformers.pretty_label, "Transformers");
        assert!(transformers.repo_url.starts_with("https://github.com/"));
        assert!(catalogue.get("no-such-library").is_none());
        for lib in catalogue.libraries() {
            assert!(lib.repo_url.starts_with("https://"), "{}", lib.key);
            assert!(lib.docs_url.as_deref().is_none_or(|u| u.starts_with("https://")), "{}", lib.key);
        }
    }
}
