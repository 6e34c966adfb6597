//! The API's listings: `api/libraries.json` (every catalogue library, as the
//! libraries page lists them) and `api/tasks.json` (every known task that has
//! models), each entry with its model count and where its ids are; the ids
//! themselves, by name, in pages of at most `api_page_size`:
//! `api/libraries/<key>/first.json`, then `api/libraries/<key>/from/<id>.json`
//! (and likewise under `api/tasks/`), cut at content-defined boundaries and
//! named by their first id (see `keyed`), so a model added or removed changes
//! one page and the two listing files. No file grows with the hub past a
//! page. The JSON Schemas are in `site-src/schema/`.

use serde::Serialize;

use super::file::{KeyHasher, ListingFile};
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

/// Makes the entries of the two listing files, gathering the pages of ids
/// each entry points to.
struct Entries<'a> {
    input: &'a ListingInput<'a>,
    id_pages: Vec<ListingFile<'a>>,
}

impl<'a> Entries<'a> {
    /// The entry of the group `key` of `kind` (its models are `ranks`), and
    /// the pages of its ids.
    fn entry<Facts>(&mut self, kind: Kind, key: &'a str, ranks: &'a [u32], facts: Facts, has_examples: Option<bool>) -> GroupDoc<'a, Facts> {
        let base = &self.input.site.base_path;
        GroupDoc {
            key,
            facts,
            page: format!("{base}{}/{key}/", kind.folder),
            has_examples,
            model_count: ranks.len(),
            pages: self.id_pages(kind, key, ranks),
        }
    }

    /// Adds the pages of ids of one group; says where they are.
    fn id_pages(&mut self, kind: Kind, key: &'a str, ranks: &'a [u32]) -> ModelPagesDoc {
        let input = self.input;
        let base = &input.site.base_path;
        let Kind { folder, one } = kind;
        let id = |i: usize| input.models[ranks[i] as usize].id.as_str();
        let runs = pages(ranks.len(), id, &Cut::at_most(input.settings.api_page_size));
        let path = |run: usize| match run {
            0 => format!("api/{folder}/{key}/first.json"),
            _ => format!("api/{folder}/{key}/from/{}.json", id(runs[run].start)),
        };
        for (run, range) in runs.iter().enumerate() {
            let ids = &ranks[range.clone()];
            let previous = (run > 0).then(|| format!("{base}{}", path(run - 1)));
            let next = (run + 1 < runs.len()).then(|| format!("{base}{}", path(run + 1)));
            let mut hash = KeyHasher::new("api ids");
            hash.str(folder).str(key).opt_str(previous.as_deref()).opt_str(next.as_deref());
            ids.iter().for_each(|&r| {
                hash.str(&input.models[r as usize].id);
            });
            self.id_pages.push(ListingFile::lazy(path(run), hash.finish(), move || {
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
        ModelPagesDoc { model_pages: runs.len(), models_url: (!runs.is_empty()).then(|| format!("{base}{}", path(0))) }
    }
}

/// The two listing files and every page of ids.
pub fn api_files<'a>(input: &'a ListingInput<'a>, groups: &'a Groups<'a>) -> Vec<ListingFile<'a>> {
    let mut entries = Entries { input, id_pages: Vec::new() };
    let libraries = LibrariesDoc {
        api_version: API_VERSION,
        libraries: groups
            .libraries
            .iter()
            .map(|(library, ranks)| {
                let facts = LibraryFacts { label: &library.pretty_label, repo_url: &library.repo_url, docs_url: library.docs_url.as_deref() };
                entries.entry(LIBRARIES, &library.key, ranks, facts, Some(input.snippets.has_snippets(&library.key)))
            })
            .collect(),
    };
    let tasks = TasksDoc {
        api_version: API_VERSION,
        tasks: groups
            .tasks
            .iter()
            .map(|(task, ranks)| entries.entry(TASKS, &task.key, ranks, TaskFacts { name: &task.name, modality: &task.modality }, None))
            .collect(),
    };
    let mut files = entries.id_pages;
    files.push(ListingFile::ready("api/libraries.json".into(), to_json_bytes(&libraries)));
    files.push(ListingFile::ready("api/tasks.json".into(), to_json_bytes(&tasks)));
    files
}
