//! The listings the search island pages through when no words are typed:
//! `search/<scope>/<order>/<page>.json`, for the scopes `all`,
//! `task/<key>`, `library/<key>`, `task-library/<task>/<library>` and
//! `namespace/<name>`.
//!
//! ```json
//! {"count": 45123, "page": 2, "pages": 903, "strings": ["text-generation", "transformers"],
//!  "models": [["ns/name", downloads, likes, task, library], ...]}
//! ```
//!
//! By `downloads` every page is written; by `likes` and by `name` the first
//! `sorted_models` models (a listing that fits on one page has none: the
//! island sorts its one page itself). Task and library are indexes into
//! `strings`, -1 for none.

use std::cmp::Ordering;

use modelpages_render::ModelSummary;
use serde::Serialize;

use super::shards::StringTable;
use crate::pages::listings::file::{KeyHasher, ListingFile};
use crate::pages::listings::groups::{Groups, ListingInput};
use crate::pages::listings::pager::page_count;

/// The orders a listing comes in, as named in its path.
pub const ORDERS: [&str; 3] = ["downloads", "likes", "name"];

#[derive(Serialize)]
struct ListDoc<'a> {
    count: usize,
    page: usize,
    pages: usize,
    strings: Vec<std::borrow::Cow<'a, str>>,
    models: Vec<(&'a str, u64, u64, i64, i64)>,
}

/// Model names in the island's order: case folded, then as written.
fn by_name(a: &ModelSummary, b: &ModelSummary) -> Ordering {
    let folded = |s: &str| s.bytes().map(|c| c.to_ascii_lowercase()).collect::<Vec<u8>>();
    folded(&a.id).cmp(&folded(&b.id)).then_with(|| a.id.cmp(&b.id))
}

/// The first `most` of `ranks` in `order` (`ranks` come by downloads).
fn ordered(models: &[&ModelSummary], ranks: &[u32], order: &str, most: usize) -> Vec<u32> {
    let mut ranks = ranks.to_vec();
    let compare = |a: &u32, b: &u32| -> Ordering {
        let (x, y) = (models[*a as usize], models[*b as usize]);
        match order {
            "likes" => y.likes.unwrap_or(0).cmp(&x.likes.unwrap_or(0)).then(a.cmp(b)),
            _ => by_name(x, y),
        }
    };
    if ranks.len() > most {
        ranks.select_nth_unstable_by(most - 1, compare);
        ranks.truncate(most);
    }
    ranks.sort_unstable_by(compare);
    ranks
}

/// The files of every listing.
pub fn list_files<'a>(input: &'a ListingInput<'a>, groups: &'a Groups<'a>, all: &'a [u32]) -> Vec<ListingFile<'a>> {
    let mut scopes: Vec<(String, &'a [u32])> = vec![("all".to_owned(), all)];
    scopes.extend(groups.tasks.iter().map(|(t, r)| (format!("task/{}", t.key), r.as_slice())));
    scopes.extend(groups.libraries.iter().filter(|(_, r)| !r.is_empty()).map(|(l, r)| (format!("library/{}", l.key), r.as_slice())));
    scopes.extend(groups.pairs.iter().map(|((t, l), r)| {
        (format!("task-library/{}/{}", groups.tasks[*t].0.key, groups.libraries[*l].0.key), r.as_slice())
    }));
    scopes.extend(groups.namespaces.iter().map(|(ns, r)| (format!("namespace/{ns}"), r.as_slice())));
    let per_page = input.settings.search_page_size;
    let mut files = Vec::new();
    for (scope, ranks) in scopes {
        for order in ORDERS {
            let listed: std::borrow::Cow<'a, [u32]> = match order {
                "downloads" => ranks.into(),
                _ if ranks.len() <= per_page => continue,
                _ => ordered(input.models, ranks, order, input.settings.sorted_models).into(),
            };
            let listed: std::sync::Arc<[u32]> = listed.as_ref().into();
            let pages = page_count(listed.len(), per_page);
            for page in 1..=pages {
                let rows = (page - 1) * per_page..(page * per_page).min(listed.len());
                let mut key = KeyHasher::new("search list");
                key.str(&scope).str(order).num(page as u64).num(pages as u64).num(ranks.len() as u64);
                groups.rows_key(&mut key, &listed[rows.clone()]);
                let (listed, count) = (std::sync::Arc::clone(&listed), ranks.len());
                let path = format!("search/{scope}/{order}/{page}.json");
                files.push(ListingFile::lazy(path, key.finish(), move || {
                    let mut table = StringTable::default();
                    let models = listed[rows.clone()]
                        .iter()
                        .map(|&r| {
                            let m = input.models[r as usize];
                            let (task, library) = (table.index(m.task.as_deref()), table.index(m.library.as_deref()));
                            (m.id.as_str(), m.downloads.unwrap_or(0), m.likes.unwrap_or(0), task, library)
                        })
                        .collect();
                    let doc = ListDoc { count, page, pages, strings: table.strings, models };
                    Ok(serde_json::to_vec(&doc).expect("listings serialise"))
                }));
            }
        }
    }
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_by_likes_then_downloads_and_by_name_case_folded() {
        let summary = |id: &str, likes: u64| ModelSummary {
            id: id.into(),
            url: String::new(),
            task: None,
            library: None,
            downloads: None,
            likes: Some(likes),
            tags: Default::default(),
        };
        let models = [summary("b/B", 5), summary("a/z", 9), summary("B/a", 5), summary("c/c", 1)];
        let refs: Vec<&ModelSummary> = models.iter().collect();
        assert_eq!(ordered(&refs, &[0, 1, 2, 3], "likes", 10), [1, 0, 2, 3]);
        assert_eq!(ordered(&refs, &[0, 1, 2, 3], "likes", 2), [1, 0]);
        assert_eq!(ordered(&refs, &[0, 1, 2, 3], "name", 10), [1, 2, 0, 3]);
        assert_eq!(ordered(&refs, &[0, 1, 2, 3], "name", 1), [1]);
    }
}
