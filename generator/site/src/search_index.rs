//! `search-index.json`: every model in a compact form for the index page's
//! search island (ids, task and library as indexes into shared lists).

use std::collections::HashMap;

use modelpages_render::ModelSummary;

use crate::tasks::TaskCatalogue;
use modelpages_snippets::Catalogue;

/// `{"tasks": [[key, name]], "libraries": [[key, label]], "models": [[id, task, library, downloads, likes, tags]]}`,
/// models in listing order; a task or library index of -1 means none.
pub fn search_index_json(summaries: &[&ModelSummary], tasks: &TaskCatalogue, libraries: &Catalogue) -> String {
    let mut task_keys: Vec<&str> = summaries.iter().filter_map(|s| s.task.as_deref()).collect();
    task_keys.sort_unstable();
    task_keys.dedup();
    let mut library_keys: Vec<&str> = summaries.iter().filter_map(|s| s.library.as_deref()).collect();
    library_keys.sort_unstable();
    library_keys.dedup();
    let task_index: HashMap<&str, usize> = task_keys.iter().enumerate().map(|(i, k)| (*k, i)).collect();
    let library_index: HashMap<&str, usize> = library_keys.iter().enumerate().map(|(i, k)| (*k, i)).collect();
    let task_name = |key: &str| tasks.tasks().iter().find(|t| t.key == key).map_or(key.to_owned(), |t| t.name.clone());
    let library_label = |key: &str| libraries.get(key).map_or(key.to_owned(), |l| l.pretty_label.clone());
    let index_of = |map: &HashMap<&str, usize>, key: Option<&str>| key.and_then(|k| map.get(k)).map_or(-1, |i| *i as i64);
    // Written straight from the summaries (tuples serialise as arrays): a
    // `Value` per model would be 100,000 small trees.
    let models: Vec<(&str, i64, i64, u64, u64, String)> = summaries
        .iter()
        .map(|s| {
            (
                s.id.as_str(),
                index_of(&task_index, s.task.as_deref()),
                index_of(&library_index, s.library.as_deref()),
                s.downloads.unwrap_or(0),
                s.likes.unwrap_or(0),
                s.tags.join(" "),
            )
        })
        .collect();
    #[derive(serde::Serialize)]
    struct SearchIndex<'a> {
        tasks: Vec<(&'a str, String)>,
        libraries: Vec<(&'a str, String)>,
        models: Vec<(&'a str, i64, i64, u64, u64, String)>,
    }
    let index = SearchIndex {
        tasks: task_keys.iter().map(|k| (*k, task_name(k))).collect(),
        libraries: library_keys.iter().map(|k| (*k, library_label(k))).collect(),
        models,
    };
    serde_json::to_string(&index).expect("search indexes serialise")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn summary(id: &str, task: Option<&str>, library: Option<&str>, downloads: u64) -> ModelSummary {
        ModelSummary {
            id: id.into(),
            url: format!("/{id}/"),
            task: task.map(Into::into),
            library: library.map(Into::into),
            downloads: Some(downloads),
            likes: None,
            tags: vec!["a".into(), "b".into()],
        }
    }

    #[test]
    fn compact_index_with_shared_lists() {
        let summaries = [
            summary("x/one", Some("text-classification"), Some("transformers"), 9),
            summary("x/two", None, Some("no-such-lib"), 3),
        ];
        let json: Value = serde_json::from_str(&search_index_json(&summaries.iter().collect::<Vec<_>>(), &TaskCatalogue::builtin(), &Catalogue::builtin())).unwrap();
        assert_eq!(json["tasks"], json!([["text-classification", "Text Classification"]]));
        assert_eq!(json["libraries"], json!([["no-such-lib", "no-such-lib"], ["transformers", "Transformers"]]));
        assert_eq!(json["models"], json!([["x/one", 0, 1, 9, 0, "a b"], ["x/two", -1, 0, 3, 0, "a b"]]));
    }
}
