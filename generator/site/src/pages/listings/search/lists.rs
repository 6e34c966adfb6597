//! The listings the search island pages through when no words are typed,
//! for the scopes `all`, `task/<key>`, `library/<key>`,
//! `task-library/<task>/<library>`, `namespace/<name>` and `tag/<name>`
//! (a filter tag, named by `tag_file_name`: `tag/license~3amit`).
//!
//! By name, every model: `search/<scope>/name/first.json`, then
//! `search/<scope>/name/from/<id>.json`, cut at content-defined boundaries
//! and named by their first id (see `keyed`), so a model added or removed
//! changes one page; they show no downloads, so they do not change as
//! downloads move:
//!
//! ```json
//! {"count": 45123, "previous": null, "next": "from/org/model-b.json",
//!  "strings": ["text-generation", "transformers"], "models": [["ns/name", task, library], ...]}
//! ```
//!
//! (`count`, the scope's size, on the first page only, and for a namespace
//! its stats file, `"stats": "stats/<n>.json"`; `previous` and `next`
//! relative to the `name/` folder.) A tag's models come from any namespace,
//! so its pages name each model's stats file too, `"buckets": [n, ...]`
//! (`stats/<n>.json`), row by row: they depend on the ids alone. A tag's
//! first page has no `count` and its pages no `previous`, so that a model
//! added rewrites one page of each of its tags (two when it starts a page).
//!
//! By downloads and by likes, the first `ranked_models` of every scope but
//! the namespaces' and the tags' (the island sorts those, reading their
//! pages by name and their figures from the stats files): `search/<scope>/<order>/<n>.json`, numbered pages of
//! `search_page_size`, which change with the downloads (a scope that fits
//! on one page has only its page by downloads: the island sorts it). A
//! namespace's models are sorted by the island from its stats file.
//!
//! ```json
//! {"page": 1, "pages": 2, "strings": [...], "models": [["ns/name", downloads, likes, task, library], ...]}
//! ```
//!
//! Task and library are indexes into `strings`, -1 for none.

use std::borrow::Cow;
use std::sync::Arc;

use modelpages_render::tag_file_name;
use serde::Serialize;

use super::shards::StringTable;
use crate::pages::listings::file::{KeyHasher, ListingFile};
use crate::pages::listings::folders::{stats_bucket, stats_path, PAGE_SPREAD};
use crate::pages::listings::groups::{top_by, Groups, ListingInput, Ranking};
use crate::pages::listings::keyed::{pages, Cut};

#[derive(Serialize)]
struct NameDoc<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    count: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stats: Option<String>,
    previous: Option<String>,
    next: Option<String>,
    strings: Vec<Cow<'a, str>>,
    models: Vec<(&'a str, i64, i64)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    buckets: Option<Vec<usize>>,
}

#[derive(Serialize)]
struct RankedDoc<'a> {
    page: usize,
    pages: usize,
    strings: Vec<std::borrow::Cow<'a, str>>,
    models: Vec<(&'a str, u64, u64, i64, i64)>,
}

/// The files of every listing.
pub fn list_files<'a>(input: &'a ListingInput<'a>, groups: &'a Groups<'a>, all: &'a [u32]) -> Vec<ListingFile<'a>> {
    // Each scope, and how the island finds its figures: ranked pages, a
    // namespace's stats file, or a tag's stats file per model.
    let ranked = |scope: String, ranks: &'a Vec<u32>| (scope, ranks.as_slice(), Figures::Ranked);
    let mut scopes: Vec<(String, &'a [u32], Figures)> = vec![("all".to_owned(), all, Figures::Ranked)];
    scopes.extend(groups.tasks.iter().map(|(t, r)| ranked(format!("task/{}", t.key), r)));
    scopes.extend(groups.libraries.iter().filter(|(_, r)| !r.is_empty()).map(|(l, r)| ranked(format!("library/{}", l.key), r)));
    scopes.extend(
        groups.pairs.iter().map(|((t, l), r)| ranked(format!("task-library/{}/{}", groups.tasks[*t].0.key, groups.libraries[*l].0.key), r)),
    );
    scopes.extend(groups.namespaces.iter().map(|(ns, r)| {
        (format!("namespace/{ns}"), r.as_slice(), Figures::Namespace(stats_path(ns, input.settings.stats_files)))
    }));
    // `filters` only holds tags that have a file name.
    scopes.extend(groups.tags.iter().filter_map(|(tag, r)| Some((format!("tag/{}", tag_file_name(tag)?), r.as_slice(), Figures::PerModel))));
    let mut files = Vec::new();
    for (scope, ranks, figures) in scopes {
        let is_ranked = matches!(figures, Figures::Ranked);
        name_pages(input, groups, &scope, ranks, figures, &mut files);
        if is_ranked {
            ranked_pages(input, groups, &scope, ranks, &mut files);
        }
    }
    files
}

/// Where the island finds the figures of a scope's models.
#[derive(Clone)]
enum Figures {
    /// In the scope's ranked pages.
    Ranked,
    /// In the namespace's stats file, named on its first page.
    Namespace(String),
    /// In each model's stats file, named row by row.
    PerModel,
}

/// A scope's pages by name.
fn name_pages<'a>(
    input: &'a ListingInput<'a>,
    groups: &'a Groups<'a>,
    scope: &str,
    ranks: &'a [u32],
    figures: Figures,
    files: &mut Vec<ListingFile<'a>>,
) {
    let per_model = matches!(figures, Figures::PerModel);
    let stats = match figures {
        Figures::Namespace(path) => Some(path),
        _ => None,
    };
    let stats_files = input.settings.stats_files;
    let models = input.models;
    let id = |i: usize| models[ranks[i] as usize].id.as_str();
    let runs = pages(ranks.len(), id, &Cut::around(input.settings.search_page_size, PAGE_SPREAD));
    let name = |run: usize| if run == 0 { "first.json".to_owned() } else { format!("from/{}.json", id(runs[run].start)) };
    for (n, run) in runs.iter().enumerate() {
        let rows = &ranks[run.clone()];
        // A tag's count would rewrite its first page on every add and
        // removal; the island counts the pages it reads instead.
        let count = (n == 0 && !per_model).then_some(ranks.len());
        let stats = stats.clone().filter(|_| n == 0);
        // The island reads a tag's pages from the first on, so they name
        // no previous page: a page cut in two by a model added rewrites
        // the page before it and the new one, not the page after too.
        let previous = (n > 0 && !per_model).then(|| name(n - 1));
        let next = (n + 1 < runs.len()).then(|| name(n + 1));
        let mut key = KeyHasher::new(if per_model { "search names with buckets" } else { "search names" });
        key.num(stats_files as u64).opt_num(count.map(|c| c as u64)).opt_str(stats.as_deref()).opt_str(previous.as_deref()).opt_str(next.as_deref());
        groups.rows_key(&mut key, rows);
        files.push(ListingFile::lazy(format!("search/{scope}/name/{}", name(n)), key.finish(), move || {
            let mut table = StringTable::default();
            let buckets = per_model.then(|| rows.iter().map(|&r| stats_bucket(&models[r as usize].id, stats_files)).collect());
            let models = rows
                .iter()
                .map(|&r| {
                    let m = models[r as usize];
                    (m.id.as_str(), table.index(m.task.as_deref()), table.index(m.library.as_deref()))
                })
                .collect();
            let doc =
                NameDoc { count, stats: stats.clone(), previous: previous.clone(), next: next.clone(), strings: table.strings, models, buckets };
            Ok(serde_json::to_vec(&doc).expect("listings serialise"))
        }));
    }
}

/// A scope's first `ranked_models` by downloads and by likes.
fn ranked_pages<'a>(input: &'a ListingInput<'a>, groups: &'a Groups<'a>, scope: &str, ranks: &'a [u32], files: &mut Vec<ListingFile<'a>>) {
    let per_page = input.settings.search_page_size;
    for order in Ranking::ALL {
        if order != Ranking::Downloads && ranks.len() <= per_page {
            continue;
        }
        let listed: Arc<[u32]> = top_by(input.models, ranks, order, input.settings.ranked_models).into();
        let pages = listed.len().div_ceil(per_page).max(1);
        for page in 1..=pages {
            let rows = (page - 1) * per_page..(page * per_page).min(listed.len());
            let mut key = KeyHasher::new("search ranked");
            key.num(page as u64).num(pages as u64);
            groups.ranked_key(&mut key, input.models, &listed[rows.clone()]);
            let listed = Arc::clone(&listed);
            files.push(ListingFile::lazy(format!("search/{scope}/{}/{page}.json", order.name()), key.finish(), move || {
                let mut table = StringTable::default();
                let models = listed[rows.clone()]
                    .iter()
                    .map(|&r| {
                        let m = input.models[r as usize];
                        let (task, library) = (table.index(m.task.as_deref()), table.index(m.library.as_deref()));
                        (m.id.as_str(), m.downloads.unwrap_or(0), m.likes.unwrap_or(0), task, library)
                    })
                    .collect();
                let doc = RankedDoc { page, pages, strings: table.strings, models };
                Ok(serde_json::to_vec(&doc).expect("listings serialise"))
            }));
        }
    }
}
