//! The API's listings: `api/libraries.json` (every catalogue library, as the
//! libraries page lists them) and `api/tasks.json` (every known task that has
//! models), each entry with its model count and where its ids are; the ids
//! themselves, most downloaded first, in pages of `api_page_size`:
//! `api/libraries/<key>/<n>.json` and `api/tasks/<key>/<n>.json`. No file
//! grows with the hub past a page. The JSON Schemas are in `site-src/schema/`.

use serde::Serialize;

use super::file::{KeyHasher, ListingFile};
use super::groups::{Groups, ListingInput};
use super::pager::page_count;
use crate::pages::api::{to_json_bytes, API_VERSION};

#[derive(Serialize)]
struct LibrariesDoc<'a> {
    api_version: u32,
    libraries: Vec<LibraryDoc<'a>>,
}

#[derive(Serialize)]
struct LibraryDoc<'a> {
    key: &'a str,
    label: &'a str,
    repo_url: &'a str,
    docs_url: Option<&'a str>,
    page: String,
    has_examples: bool,
    model_count: usize,
    #[serde(flatten)]
    pages: ModelPagesDoc,
}

#[derive(Serialize)]
struct TasksDoc<'a> {
    api_version: u32,
    tasks: Vec<TaskDoc<'a>>,
}

#[derive(Serialize)]
struct TaskDoc<'a> {
    key: &'a str,
    name: &'a str,
    modality: &'a str,
    page: String,
    model_count: usize,
    #[serde(flatten)]
    pages: ModelPagesDoc,
}

/// Where a listing's ids are.
#[derive(Serialize)]
struct ModelPagesDoc {
    /// How many pages of ids there are (none without models).
    model_pages: usize,
    /// Site path of the first, or null.
    models_url: Option<String>,
}

/// One page of a listing's ids.
#[derive(Serialize)]
struct ModelListDoc<'a> {
    api_version: u32,
    /// `library` or `task`.
    listing: &'a str,
    key: &'a str,
    /// 1-based.
    page: usize,
    pages: usize,
    model_count: usize,
    /// Ids, most downloaded first.
    models: Vec<&'a str>,
    previous: Option<String>,
    next: Option<String>,
}

/// The two listing files and every page of ids.
pub fn api_files<'a>(input: &'a ListingInput<'a>, groups: &'a Groups<'a>) -> Vec<ListingFile<'a>> {
    let base = &input.site.base_path;
    let per_page = input.settings.api_page_size;
    let mut files = Vec::new();
    // `kind` names the folder (`libraries`), `one` what a page lists (`library`).
    let mut listing = |kind: &'static str, one: &'static str, key: &'a str, ranks: &'a [u32]| -> ModelPagesDoc {
        let pages = if ranks.is_empty() { 0 } else { page_count(ranks.len(), per_page) };
        let url = move |n: usize| format!("{base}api/{kind}/{key}/{n}.json");
        for page in 1..=pages {
            let ids = &ranks[(page - 1) * per_page..(page * per_page).min(ranks.len())];
            let mut hash = KeyHasher::new("api ids");
            hash.str(kind).str(key).num(page as u64).num(pages as u64).num(ranks.len() as u64);
            ids.iter().for_each(|&r| {
                hash.str(&input.models[r as usize].id);
            });
            let path = format!("api/{kind}/{key}/{page}.json");
            files.push(ListingFile::lazy(path, hash.finish(), move || {
                Ok(to_json_bytes(&ModelListDoc {
                    api_version: API_VERSION,
                    listing: one,
                    key,
                    page,
                    pages,
                    model_count: ranks.len(),
                    models: ids.iter().map(|&r| input.models[r as usize].id.as_str()).collect(),
                    previous: (page > 1).then(|| url(page - 1)),
                    next: (page < pages).then(|| url(page + 1)),
                }))
            }));
        }
        ModelPagesDoc { model_pages: pages, models_url: (pages > 0).then(|| url(1)) }
    };
    let libraries = LibrariesDoc {
        api_version: API_VERSION,
        libraries: groups
            .libraries
            .iter()
            .map(|(library, ranks)| LibraryDoc {
                key: &library.key,
                label: &library.pretty_label,
                repo_url: &library.repo_url,
                docs_url: library.docs_url.as_deref(),
                page: format!("{base}libraries/{}/", library.key),
                has_examples: input.snippets.has_snippets(&library.key),
                model_count: ranks.len(),
                pages: listing("libraries", "library", &library.key, ranks),
            })
            .collect(),
    };
    let tasks = TasksDoc {
        api_version: API_VERSION,
        tasks: groups
            .tasks
            .iter()
            .map(|(task, ranks)| TaskDoc {
                key: &task.key,
                name: &task.name,
                modality: &task.modality,
                page: format!("{base}tasks/{}/", task.key),
                model_count: ranks.len(),
                pages: listing("tasks", "task", &task.key, ranks),
            })
            .collect(),
    };
    files.push(ListingFile::ready("api/libraries.json".into(), to_json_bytes(&libraries)));
    files.push(ListingFile::ready("api/tasks.json".into(), to_json_bytes(&tasks)));
    files
}
