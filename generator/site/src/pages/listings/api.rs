//! The API's listings: `api/libraries.json` (every catalogue library, as the
//! libraries page lists them) and `api/tasks.json` (every known task that has
//! models), each entry with its model count and where its ids are; the ids
//! themselves, by name, in pages of at most `api_page_size`:
//! `api/libraries/<key>/first.json`, then `api/libraries/<key>/from/<id>.json`
//! (and likewise under `api/tasks/`), cut at content-defined boundaries and
//! named by their first id (see `keyed`), so a model added or removed changes
//! one page and the two listing files. No file grows with the hub past a
//! page. The JSON Schemas are in `site-src/schema/`.
//!
//! The two listing files are one group, made every build (they count every
//! model); each library's and task's pages of ids are a group of their own,
//! kept while its models are (see `ListingGroup`).

use serde::Serialize;

use rayon::prelude::*;

use super::file::{KeyHasher, ListingFile, ListingGroup};
use super::groups::{Groups, ListingInput};
use super::keyed::{pages, Cut};
use crate::pages::api::{to_json_bytes, API_VERSION};

#[derive(Serialize)]
struct LibrariesDoc<'a> {
    api_version: u32,
    libraries: Vec<GroupDoc<'a, LibraryFacts<'a>>>,
}

#[derive(Serialize)]
struct TasksDoc<'a> {
    api_version: u32,
    tasks: Vec<GroupDoc<'a, TaskFacts<'a>>>,
}

/// One library or task: what is its own (`facts`), its page, and where the
/// ids of its models are. Fields stay in the order the files have always had.
#[derive(Serialize)]
struct GroupDoc<'a, Facts> {
    key: &'a str,
    #[serde(flatten)]
    facts: Facts,
    page: String,
    /// Libraries only: whether the site shows usage examples for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    has_examples: Option<bool>,
    model_count: usize,
    #[serde(flatten)]
    pages: ModelPagesDoc,
}

#[derive(Serialize)]
struct LibraryFacts<'a> {
    label: &'a str,
    repo_url: &'a str,
    docs_url: Option<&'a str>,
}

#[derive(Serialize)]
struct TaskFacts<'a> {
    name: &'a str,
    modality: &'a str,
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
    /// Ids, by name.
    models: Vec<&'a str>,
    previous: Option<String>,
    next: Option<String>,
}

/// A kind of group the API lists: `folder` names its folders
/// (`libraries`), `one` what a page of ids lists (`library`).
#[derive(Clone, Copy)]
struct Kind {
    folder: &'static str,
    one: &'static str,
}

const LIBRARIES: Kind = Kind { folder: "libraries", one: "library" };
const TASKS: Kind = Kind { folder: "tasks", one: "task" };

/// The entry of the group `key` of `kind` (its models are `ranks`) in
/// its listing file.
fn entry<'a, Facts>(input: &ListingInput<'a>, groups: &Groups<'_>, kind: Kind, key: &'a str, ranks: &[u32], facts: Facts, has_examples: Option<bool>) -> GroupDoc<'a, Facts> {
    let base = &input.site.base_path;
    let runs = id_runs(input, groups, ranks).len();
    GroupDoc {
        key,
        facts,
        page: format!("{base}{}/{key}/", kind.folder),
        has_examples,
        model_count: ranks.len(),
        pages: ModelPagesDoc { model_pages: runs, models_url: (runs > 0).then(|| format!("{base}{}", id_page_path(kind, key, "first"))) },
    }
}

/// A group's ids cut into pages.
fn id_runs(input: &ListingInput<'_>, groups: &Groups<'_>, ranks: &[u32]) -> Vec<std::ops::Range<usize>> {
    pages(ranks.len(), |i| groups.boundary(ranks[i]), &Cut::at_most(input.settings.api_page_size))
}

/// Where a page of a group's ids is: `first`, or `from/<its first id>`.
fn id_page_path(kind: Kind, key: &str, name: &str) -> String {
    format!("api/{}/{key}/{name}.json", kind.folder)
}

/// The pages of ids of one group (`key` of `kind`, its models `ranks`).
fn id_pages<'a>(input: &'a ListingInput<'a>, groups: &Groups<'_>, kind: Kind, key: &'a str, ranks: &'a [u32]) -> Vec<ListingFile<'a>> {
    let base = &input.site.base_path;
    let Kind { folder, one } = kind;
    let id = |i: usize| input.models[ranks[i] as usize].id.as_str();
    let runs = id_runs(input, groups, ranks);
    let path = |run: usize| match run {
        0 => id_page_path(kind, key, "first"),
        _ => id_page_path(kind, key, &format!("from/{}", id(runs[run].start))),
    };
    let mut files = Vec::with_capacity(runs.len());
    for (run, range) in runs.iter().enumerate() {
        let ids = &ranks[range.clone()];
        let previous = (run > 0).then(|| format!("{base}{}", path(run - 1)));
        let next = (run + 1 < runs.len()).then(|| format!("{base}{}", path(run + 1)));
        let mut hash = KeyHasher::new("api ids");
        hash.str(folder).str(key).opt_str(previous.as_deref()).opt_str(next.as_deref());
        ids.iter().for_each(|&r| {
            hash.str(&input.models[r as usize].id);
        });
        files.push(ListingFile::lazy(path(run), hash.finish(), move || {
            Ok(to_json_bytes(&ModelListDoc {
                api_version: API_VERSION,
                listing: one,
                key,
                models: ids.iter().map(|&r| input.models[r as usize].id.as_str()).collect(),
                previous: previous.clone(),
                next: next.clone(),
            }))
        }));
    }
    files
}

/// The two listing files, made every build, and the pages of ids, a group
/// for each library and task with models (kept while their models are).
pub fn api_groups<'a>(input: &'a ListingInput<'a>, groups: &'a Groups<'a>) -> Vec<ListingGroup<'a>> {
    let mut all = vec![ListingGroup::always("api listings", move || listing_files(input, groups))];
    let libraries = groups.libraries.iter().map(|(library, ranks)| (LIBRARIES, library.key.as_str(), ranks));
    let tasks = groups.tasks.iter().map(|(task, ranks)| (TASKS, task.key.as_str(), ranks));
    for (kind, key, ranks) in libraries.chain(tasks).filter(|(_, _, ranks)| !ranks.is_empty()) {
        let name = format!("api {} {key}", kind.one);
        all.push(ListingGroup::printed(name, groups.print(ranks), move || id_pages(input, groups, kind, key, ranks)));
    }
    all
}

/// `api/libraries.json` and `api/tasks.json`.
fn listing_files<'a>(input: &'a ListingInput<'a>, groups: &'a Groups<'a>) -> Vec<ListingFile<'a>> {
    let libraries = LibrariesDoc {
        api_version: API_VERSION,
        libraries: groups
            .libraries
            .par_iter()
            .map(|(library, ranks)| {
                let facts = LibraryFacts { label: &library.pretty_label, repo_url: &library.repo_url, docs_url: library.docs_url.as_deref() };
                entry(input, groups, LIBRARIES, &library.key, ranks, facts, Some(input.snippets.has_snippets(&library.key)))
            })
            .collect(),
    };
    let tasks = TasksDoc {
        api_version: API_VERSION,
        tasks: groups
            .tasks
            .par_iter()
            .map(|(task, ranks)| entry(input, groups, TASKS, &task.key, ranks, TaskFacts { name: &task.name, modality: &task.modality }, None))
            .collect(),
    };
    vec![
        ListingFile::ready("api/libraries.json".into(), to_json_bytes(&libraries)),
        ListingFile::ready("api/tasks.json".into(), to_json_bytes(&tasks)),
    ]
}
