//! `search/index.json`: what the island reads first. It names no model, so
//! it stays a few kilobytes whatever the size of the hub.
//!
//! ```json
//! {"version": 2, "count": 1000000, "page_size": 50, "shard_models": 200, "ranked_models": 100,
//!  "tasks": [["text-generation", "Text Generation", 123456], ...],
//!  "libraries": [["transformers", "Transformers", 450123], ...],
//!  "pairs": [[task, library, count], ...],
//!  "roots": [["0", true], ["1", true], ..., ["q", false], ...]}
//! ```
//!
//! `tasks` are the known tasks that have models, `libraries` the catalogue
//! libraries that do; `pairs` count the models of a task (index in `tasks`)
//! and a library (index in `libraries`) together, for the filters' counts;
//! `roots` are the first hops into the word trie, each with whether it is a
//! node larger than a shard (its file is a top). It changes only when a
//! model is added or removed, or changes task or library.

use serde::Serialize;

use crate::pages::listings::file::ListingFile;
use crate::pages::listings::groups::{Groups, ListingInput};

/// The manifest's format; the island refuses another.
pub const VERSION: u32 = 2;

#[derive(Serialize)]
struct Manifest<'a> {
    version: u32,
    count: usize,
    page_size: usize,
    shard_models: usize,
    ranked_models: usize,
    tasks: Vec<(&'a str, &'a str, usize)>,
    libraries: Vec<(&'a str, &'a str, usize)>,
    pairs: Vec<(usize, usize, usize)>,
    roots: &'a [(&'a str, bool)],
}

pub fn manifest_file<'a>(input: &ListingInput<'_>, groups: &Groups<'_>, roots: &[(&str, bool)]) -> ListingFile<'a> {
    let settings = input.settings;
    // Libraries renumbered to those that have models.
    let mut position = vec![usize::MAX; groups.libraries.len()];
    let mut libraries = Vec::new();
    for (i, (library, ranks)) in groups.libraries.iter().enumerate() {
        if !ranks.is_empty() {
            position[i] = libraries.len();
            libraries.push((library.key.as_str(), library.pretty_label.as_str(), ranks.len()));
        }
    }
    let manifest = Manifest {
        version: VERSION,
        count: input.models.len(),
        page_size: settings.search_page_size,
        shard_models: settings.shard_models,
        ranked_models: settings.ranked_models,
        tasks: groups.tasks.iter().map(|(t, r)| (t.key.as_str(), t.name.as_str(), r.len())).collect(),
        libraries,
        pairs: groups.pairs.iter().map(|((t, l), r)| (*t, position[*l], r.len())).collect(),
        roots,
    };
    ListingFile::ready("search/index.json".into(), serde_json::to_vec(&manifest).expect("manifests serialise"))
}
