//! The stats files: every model's downloads and likes, which move every day
//! for nearly every model, kept out of every other file so that those stay
//! as they are. A model page's counts island and a namespace page read them.
//!
//! Models are filed by namespace: a namespace's models are in
//! `stats/<n>.json`, `n` a hash of the namespace's name modulo
//! `stats_files`, so a page finds its file from its id alone and a
//! namespace's models are in one file:
//!
//! ```json
//! {"version": 1, "namespaces": {
//!   "org": {"model-a": [8712, 12], "model-b": [0, null]},
//!   "big-org": {"pages": [null, "model-k", "model-t"]}}}
//! ```
//!
//! Each model is `[downloads, likes]` (null where the record has none). A
//! namespace of more than [`INLINE_PAGES`] pages of models has its own
//! files instead, cut by name like its listing (see `keyed`):
//! `stats/<n>/<ns>/first.json` and `stats/<n>/<ns>/from/<name>.json`, each
//! `{"version": 1, "models": {...}}`, and `pages` names their first models
//! (null for the first), so a reader finds a model's file by its name.
//!
//! A day of changes rewrites every stats file and nothing else of the
//! models whose counts alone moved: `stats_files` files, however many
//! models there are. Hidden models are filed too: their pages show their
//! counts like any other. Each file (with its namespaces' own files) is a
//! group made every build, so the million figures are keyed in parallel.

use std::sync::Arc;

use modelpages_record::ModelSummary;
use serde_json::{json, Map, Value};

use super::file::{hash_counts, KeyHasher, ListingFile, ListingGroup};
use super::groups::ListingInput;
use super::folders::stats_path;
use super::keyed::{boundary_hash, pages, Cut};

/// The format of the stats files; the island refuses another.
pub const VERSION: u32 = 1;

/// A namespace of more pages of models than this gets files of its own.
pub const INLINE_PAGES: usize = 10;

/// `[downloads, likes]`.
fn counts(model: &ModelSummary) -> Value {
    json!([model.downloads, model.likes])
}

/// Every stats file, a group each (with the files of the namespaces filed
/// on their own beside it), made every build: its key is the figures of
/// its models, which move every day. `models` are every model with a page
/// (listed or hidden), by name.
pub fn stats_groups<'a>(input: &ListingInput<'_>, models: Arc<Vec<&'a ModelSummary>>) -> Vec<ListingGroup<'a>> {
    let files = input.settings.stats_files;
    let page_size = input.settings.page_size;
    // Namespaces as runs of `models` (they are together, by name), by file.
    let mut by_file: std::collections::BTreeMap<String, Vec<std::ops::Range<usize>>> = Default::default();
    let mut start = 0;
    for i in 1..=models.len() {
        let namespace = name_of(models[start]).0;
        if i == models.len() || name_of(models[i]).0 != namespace {
            by_file.entry(stats_path(namespace, files)).or_default().push(start..i);
            start = i;
        }
    }
    by_file
        .into_iter()
        .map(|(path, namespaces)| {
            let models = Arc::clone(&models);
            ListingGroup::always(&format!("stats {path}"), move || stats_file(path, namespaces, models, page_size))
        })
        .collect()
}

/// One stats file, `path`, of the namespaces `namespaces` (runs of
/// `models`), and the files of those filed on their own.
fn stats_file<'a>(path: String, namespaces: Vec<std::ops::Range<usize>>, models: Arc<Vec<&'a ModelSummary>>, page_size: usize) -> Vec<ListingFile<'a>> {
    let mut out = Vec::new();
    let mut key = KeyHasher::new("stats");
    let mut split: Vec<(std::ops::Range<usize>, Vec<std::ops::Range<usize>>)> = Vec::new();
    for run in &namespaces {
        let ids = &models[run.clone()];
        let cut = pages(ids.len(), |i| boundary_hash(&ids[i].id), &Cut::around(page_size, super::folders::PAGE_SPREAD));
        if cut.len() > INLINE_PAGES {
            key.str("pages");
            for page in &cut {
                key.str(&ids[page.start].id);
            }
            let chunks = cut.into_iter().map(|p| run.start + p.start..run.start + p.end).collect();
            split.push((run.clone(), chunks));
        } else {
            for model in ids {
                hash_counts(&mut key, model);
            }
        }
    }
    for (run, chunks) in &split {
        out.extend(chunk_files(&path, &models, run.clone(), chunks.clone()));
    }
    let models = Arc::clone(&models);
    out.push(ListingFile::lazy(path, key.finish(), move || {
        let mut by_namespace = Map::new();
        for run in &namespaces {
            let namespace = name_of(models[run.start]).0;
            let own = split.iter().find(|(r, _)| r == run).map(|(_, chunks)| chunks);
            let entry = match own {
                Some(chunks) => {
                    let firsts: Vec<Value> =
                        chunks.iter().enumerate().map(|(n, c)| if n == 0 { Value::Null } else { json!(name_of(models[c.start]).1) }).collect();
                    json!({ "pages": firsts })
                }
                None => Value::Object(run.clone().map(|i| (name_of(models[i]).1.to_owned(), counts(models[i]))).collect()),
            };
            by_namespace.insert(namespace.to_owned(), entry);
        }
        Ok(serde_json::to_vec(&json!({ "version": VERSION, "namespaces": by_namespace })).expect("stats serialise"))
    }));
    out
}

/// A model's namespace and name.
fn name_of(model: &ModelSummary) -> (&str, &str) {
    model.id.split_once('/').unwrap_or(("", &model.id))
}

/// The files of a namespace filed on its own (`run` of `models`, cut into
/// `chunks`), beside its stats file `path`.
fn chunk_files<'a>(
    path: &str,
    models: &Arc<Vec<&'a ModelSummary>>,
    run: std::ops::Range<usize>,
    chunks: Vec<std::ops::Range<usize>>,
) -> Vec<ListingFile<'a>> {
    let folder = format!("{}/{}/", path.trim_end_matches(".json"), name_of(models[run.start]).0);
    chunks
        .into_iter()
        .enumerate()
        .map(|(n, chunk)| {
            let file = if n == 0 { format!("{folder}first.json") } else { format!("{folder}from/{}.json", name_of(models[chunk.start]).1) };
            let mut key = KeyHasher::new("stats page");
            for model in &models[chunk.clone()] {
                hash_counts(&mut key, model);
            }
            let models = Arc::clone(models);
            ListingFile::lazy(file, key.finish(), move || {
                let entries: Map<String, Value> = models[chunk.clone()].iter().map(|m| (name_of(m).1.to_owned(), counts(m))).collect();
                Ok(serde_json::to_vec(&json!({ "version": VERSION, "models": entries })).expect("stats serialise"))
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pages::listings::folders::model_stats_path;

    #[test]
    fn a_namespace_has_one_file_whatever_the_model() {
        assert_eq!(model_stats_path("org/a", 1024), model_stats_path("org/b", 1024));
        assert_eq!(model_stats_path("org/a", 1024), stats_path("org", 1024));
        let spread: std::collections::HashSet<String> = (0..200).map(|i| stats_path(&format!("ns{i}"), 16)).collect();
        assert_eq!(spread.len(), 16, "namespaces spread over every file");
        assert_eq!(stats_path("x", 1), "stats/0.json");
    }
}
