//! The listings the search island pages through when no words are typed,
//! for the scopes `all`, `task/<key>`, `library/<key>`,
//! `task-library/<task>/<library>`, `namespace/<name>`, `tag/<name>`
//! (a filter tag, named by `tag_file_name`: `tag/license~3amit`) and
//! `facet/<kind>/<value>` (a facet's value: `facet/language/de`,
//! `facet/params/3`; see `groups::FacetKind`).
//!
//! By name, every model: `search/<scope>/name/first.json`, then
//! `search/<scope>/name/from/<id>.json`, cut at content-defined boundaries
//! and named by their first id (see `keyed`), so a model added or removed
//! changes one page; they show no downloads, so they do not change as
//! downloads move:
//!
//! ```json
//! {"count": 45123, "previous": null, "next": "from/org/model-b.json",
//!  "strings": ["text-generation", "transformers", "en", "mit"],
//!  "models": [["ns/name", task, library, [[2], [3], [], 3, 0, 20210]], ...]}
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
//! Every row ends with its model's facets (`shards::FacetCodes`):
//! languages, licences and providers as indexes into `strings`, then its
//! parameter class, memory class and the day of its `lastModified` (-1 for
//! none), so the island filters any listing by any facet exactly. A
//! facet's pages by name, like a tag's, have no count and no previous
//! page; languages and licences have none of their own (their tags' serve).
//!
//! By downloads, by likes and by recency (`updated`), the first
//! `ranked_models` of every scope but the namespaces' and the tags' (the
//! island sorts those, reading their pages by name and their figures from
//! the stats files): `search/<scope>/<order>/<n>.json`, numbered pages of
//! `search_page_size` (a scope that fits on one page has only its page by
//! downloads: the island sorts it). Pages by downloads and likes change
//! with the figures; pages by recency show none (rows as by name), so they
//! change only when a model of theirs is added, removed or modified.
//!
//! ```json
//! {"page": 1, "pages": 2, "strings": [...], "models": [["ns/name", downloads, likes, task, library, facets], ...]}
//! ```
//!
//! Task and library are indexes into `strings`, -1 for none.

use std::borrow::Cow;
use std::sync::Arc;

use modelpages_render::tag_file_name;
use serde::Serialize;

use modelpages_record::ModelSummary;

use super::shards::{FacetCodes, StringTable};
use crate::pages::listings::file::{KeyHasher, ListingFile, ListingGroup};
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
    models: Vec<NameRow<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    buckets: Option<Vec<usize>>,
}

/// A model of a page by name, or by recency: id, task, library, facets.
type NameRow<'a> = (&'a str, i64, i64, FacetCodes);
/// A model of a page by downloads or likes: id, downloads, likes, task, library, facets.
type FigureRow<'a> = (&'a str, u64, u64, i64, i64, FacetCodes);

#[derive(Serialize)]
struct RankedDoc<'a, Row> {
    page: usize,
    pages: usize,
    strings: Vec<Cow<'a, str>>,
    models: Vec<Row>,
}

/// The files of every listing, a group per scope.
pub fn list_files<'a>(input: &'a ListingInput<'a>, groups: &'a Groups<'a>, all: &'a [u32]) -> Vec<ListingGroup<'a>> {
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
    // A language's or licence's models by name are its tag's.
    scopes.extend(groups.facets.iter().map(|f| {
        let scope = format!("facet/{}/{}", f.kind.name(), f.file_name());
        (scope, f.ranks.as_slice(), Figures::Facet { by_name: !f.kind.listed_as_tag() })
    }));
    scopes
        .into_iter()
        .map(|(scope, ranks, figures)| {
            let print = groups.print(ranks);
            ListingGroup::printed(format!("search/{scope}/"), print, move || {
                let mut files = Vec::new();
                let is_ranked = matches!(figures, Figures::Ranked | Figures::Facet { .. });
                if !matches!(figures, Figures::Facet { by_name: false }) {
                    name_pages(input, groups, &scope, ranks, figures, &mut files);
                }
                if is_ranked {
                    ranked_pages(input, groups, &scope, ranks, &mut files);
                }
                files
            })
        })
        .collect()
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
    /// In the ranked pages of a facet's value, whose pages by name (when
    /// it has its own, `by_name`) hold no count, as a tag's do not.
    Facet { by_name: bool },
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
    // A tag's or facet's count would rewrite its first page on every add
    // and removal; the facets file counts a facet's models.
    let uncounted = matches!(figures, Figures::PerModel | Figures::Facet { .. });
    let stats = match figures {
        Figures::Namespace(path) => Some(path),
        _ => None,
    };
    let stats_files = input.settings.stats_files;
    let models = input.models;
    let id = |i: usize| models[ranks[i] as usize].id.as_str();
    let runs = pages(ranks.len(), |i| groups.boundary(ranks[i]), &Cut::around(input.settings.search_page_size, PAGE_SPREAD));
    let name = |run: usize| if run == 0 { "first.json".to_owned() } else { format!("from/{}.json", id(runs[run].start)) };
    for (n, run) in runs.iter().enumerate() {
        let rows = &ranks[run.clone()];
        let count = (n == 0 && !uncounted).then_some(ranks.len());
        let stats = stats.clone().filter(|_| n == 0);
        // The island reads a tag's pages from the first on, so they name
        // no previous page: a page cut in two by a model added rewrites
        // the page before it and the new one, not the page after too.
        let previous = (n > 0 && !uncounted).then(|| name(n - 1));
        let next = (n + 1 < runs.len()).then(|| name(n + 1));
        let mut key = KeyHasher::new(if per_model { "search names with buckets" } else { "search names" });
        key.num(stats_files as u64).opt_num(count.map(|c| c as u64)).opt_str(stats.as_deref()).opt_str(previous.as_deref()).opt_str(next.as_deref());
        groups.rows_key(&mut key, rows);
        files.push(ListingFile::lazy(format!("search/{scope}/name/{}", name(n)), key.finish(), move || {
            let mut table = StringTable::default();
            let buckets = per_model.then(|| rows.iter().map(|&r| stats_bucket(&models[r as usize].id, stats_files)).collect());
            let models = name_rows(&mut table, models, rows);
            let doc =
                NameDoc { count, stats: stats.clone(), previous: previous.clone(), next: next.clone(), strings: table.strings, models, buckets };
            Ok(serde_json::to_vec(&doc).expect("listings serialise"))
        }));
    }
}

/// The rows of a page by name or by recency, their strings in `table`.
fn name_rows<'a>(table: &mut StringTable<'a>, models: &[&'a ModelSummary], rows: &[u32]) -> Vec<NameRow<'a>> {
    rows.iter()
        .map(|&r| {
            let m = models[r as usize];
            (m.id.as_str(), table.index(m.task.as_deref()), table.index(m.library.as_deref()), table.facets(m))
        })
        .collect()
}

/// A scope's first `ranked_models` by downloads, by likes and by recency.
/// Pages by recency show no figures, as pages by name do not: their order
/// and rows stay as they are while the downloads move.
fn ranked_pages<'a>(input: &'a ListingInput<'a>, groups: &'a Groups<'a>, scope: &str, ranks: &'a [u32], files: &mut Vec<ListingFile<'a>>) {
    let per_page = input.settings.search_page_size;
    let models = input.models;
    for order in Ranking::ALL {
        if order != Ranking::Downloads && ranks.len() <= per_page {
            continue;
        }
        let listed: Arc<[u32]> = top_by(models, ranks, order, input.settings.ranked_models).into();
        let pages = listed.len().div_ceil(per_page).max(1);
        for page in 1..=pages {
            let rows = (page - 1) * per_page..(page * per_page).min(listed.len());
            let mut key = KeyHasher::new(if order == Ranking::Updated { "search recent" } else { "search ranked" });
            key.num(page as u64).num(pages as u64);
            if order == Ranking::Updated {
                groups.rows_key(&mut key, &listed[rows.clone()]);
            } else {
                groups.ranked_key(&mut key, models, &listed[rows.clone()]);
            }
            let listed = Arc::clone(&listed);
            files.push(ListingFile::lazy(format!("search/{scope}/{}/{page}.json", order.name()), key.finish(), move || {
                let mut table = StringTable::default();
                let rows = &listed[rows.clone()];
                let bytes = if order == Ranking::Updated {
                    let models = name_rows(&mut table, models, rows);
                    serde_json::to_vec(&RankedDoc { page, pages, strings: table.strings, models })
                } else {
                    let models: Vec<FigureRow<'a>> = rows
                        .iter()
                        .map(|&r| {
                            let m = models[r as usize];
                            let (task, library) = (table.index(m.task.as_deref()), table.index(m.library.as_deref()));
                            (m.id.as_str(), m.downloads.unwrap_or(0), m.likes.unwrap_or(0), task, library, table.facets(m))
                        })
                        .collect();
                    serde_json::to_vec(&RankedDoc { page, pages, strings: table.strings, models })
                };
                Ok(bytes.expect("listings serialise"))
            }));
        }
    }
}
