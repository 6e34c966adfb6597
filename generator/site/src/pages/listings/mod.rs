//! Stage 3 of a build: every file that lists models, as plain data first
//! ([`ListingFile`]: a path, a key, and how to make its bytes), then written
//! ([`write`]). A key is a hash of everything the file is made from, so a
//! rebuild renders and writes only the files whose key changed, and removes
//! those no longer listed; the manifest keeps the keys between builds.
//!
//! The files, all cut so that none grows with the hub past a bounded size
//! (see [`ListingSettings`]):
//! - [`html`]: the home page, the task, library and namespace listings in
//!   numbered pages (`tasks/<key>/`, `tasks/<key>/page/2/`, `<namespace>/`,
//!   `<namespace>/-/page/2/`), the namespace index and the task and library
//!   indexes, the 404 page and `robots.txt`;
//! - [`sitemap`]: `sitemap.xml`, a sitemap index once one file is not enough;
//! - [`api`]: `api/libraries.json`, `api/tasks.json` and their paged id lists;
//! - the search island's files ([`crate::pages::search`]).
//!
//! Every listing takes models in listing order: most downloaded first, the
//! id breaking ties. [`Groups`] sorts them into tasks, libraries, namespaces
//! and task-and-library pairs once for all of them.

pub mod api;
pub mod html;
pub mod pager;
pub mod sitemap;
pub mod write;

use std::collections::HashMap;

use modelpages_render::{ModelSummary, SiteInfo, TemplateError, Templates};
use modelpages_snippets::{Library, SnippetEngine};
use rayon::prelude::*;

use crate::store::manifest::ListingKey;
use crate::store::output::OutputError;
use crate::settings::ListingSettings;
use crate::pages::tasks::{Task, TaskCatalogue};

/// Makes the bytes of a listing file; only called when its key changed.
pub type Render<'a> = Box<dyn Fn() -> Result<Vec<u8>, TemplateError> + Send + Sync + 'a>;

/// One file of the site that lists models.
pub struct ListingFile<'a> {
    /// Relative to the output folder.
    pub path: String,
    pub key: ListingKey,
    pub render: Render<'a>,
}

impl<'a> ListingFile<'a> {
    /// A file made on the spot (small ones): its key is the hash of its bytes.
    pub fn ready(path: String, bytes: Vec<u8>) -> ListingFile<'a> {
        let key = KeyHasher::new("bytes").bytes(&bytes).finish();
        ListingFile { path, key, render: Box::new(move || Ok(bytes.clone())) }
    }

    /// A file made only when `key` changed.
    pub fn lazy(path: String, key: ListingKey, render: impl Fn() -> Result<Vec<u8>, TemplateError> + Send + Sync + 'a) -> ListingFile<'a> {
        ListingFile { path, key, render: Box::new(render) }
    }
}

/// A listing file that could not be made or written.
#[derive(Debug, thiserror::Error)]
pub enum ListingError {
    #[error(transparent)]
    Template(#[from] TemplateError),
    #[error(transparent)]
    Output(#[from] OutputError),
}

/// Builds a [`ListingKey`]; every value is written with its length, so two
/// different sequences of values never hash alike.
pub struct KeyHasher(blake3::Hasher);

impl KeyHasher {
    /// `kind` keeps files of different kinds from sharing keys.
    pub fn new(kind: &str) -> KeyHasher {
        let mut hasher = KeyHasher(blake3::Hasher::new());
        hasher.str(kind);
        hasher
    }

    pub fn str(&mut self, s: &str) -> &mut KeyHasher {
        self.bytes(s.as_bytes())
    }

    pub fn bytes(&mut self, b: &[u8]) -> &mut KeyHasher {
        self.0.update(&(b.len() as u64).to_le_bytes());
        self.0.update(b);
        self
    }

    pub fn num(&mut self, n: u64) -> &mut KeyHasher {
        self.0.update(&n.to_le_bytes());
        self
    }

    pub fn opt_num(&mut self, n: Option<u64>) -> &mut KeyHasher {
        match n {
            Some(n) => self.num(1).num(n),
            None => self.num(0),
        }
    }

    pub fn opt_str(&mut self, s: Option<&str>) -> &mut KeyHasher {
        match s {
            Some(s) => self.num(1).str(s),
            None => self.num(0),
        }
    }

    pub fn key(&mut self, key: &ListingKey) -> &mut KeyHasher {
        self.0.update(key);
        self
    }

    pub fn finish(&self) -> ListingKey {
        let hash = self.0.finalize();
        hash.as_bytes()[..16].try_into().expect("16 of 32 bytes")
    }
}

/// The key of a model's listing row: every field of its summary, so any
/// file showing any of them changes with it.
pub fn row_key(summary: &ModelSummary) -> ListingKey {
    let mut hasher = KeyHasher::new("row");
    hasher.str(&summary.id).str(&summary.url).opt_str(summary.task.as_deref()).opt_str(summary.library.as_deref());
    hasher.opt_num(summary.downloads).opt_num(summary.likes);
    for tag in summary.tags.iter() {
        hasher.str(tag);
    }
    hasher.finish()
}

/// What every listing is made from.
pub struct ListingInput<'a> {
    /// Every model, in listing order (most downloaded first, then by id).
    pub models: &'a [&'a ModelSummary],
    pub templates: &'a Templates,
    pub site: &'a SiteInfo,
    /// The site's base URL, absolute where the settings give one (sitemaps).
    pub base_url: &'a str,
    pub settings: &'a ListingSettings,
    pub tasks: &'a TaskCatalogue,
    pub snippets: &'a SnippetEngine,
}

/// The models of one group, as ranks (positions in listing order), ascending.
pub type Ranks = Vec<u32>;

/// Models sorted into every group a listing shows.
pub struct Groups<'a> {
    /// [`row_key`] of each model, by rank.
    pub rows: Vec<ListingKey>,
    /// Known tasks that have models, in catalogue order.
    pub tasks: Vec<(&'a Task, Ranks)>,
    /// Every catalogue library, with or without models, in catalogue order.
    pub libraries: Vec<(&'a Library, Ranks)>,
    /// A task (index in `tasks`) and a library (index in `libraries`) together.
    pub pairs: Vec<((usize, usize), Ranks)>,
    /// Every namespace, by name.
    pub namespaces: Vec<(&'a str, Ranks)>,
}

impl<'a> Groups<'a> {
    pub fn of(input: &ListingInput<'a>) -> Groups<'a> {
        let models = input.models;
        let rows: Vec<ListingKey> = models.par_iter().map(|s| row_key(s)).collect();
        let task_index: HashMap<&str, usize> = input.tasks.tasks().iter().enumerate().map(|(i, t)| (t.key.as_str(), i)).collect();
        let libraries = input.snippets.catalogue().libraries();
        let library_index: HashMap<&str, usize> = libraries.iter().enumerate().map(|(i, l)| (l.key.as_str(), i)).collect();
        let mut by_task: Vec<Ranks> = vec![Vec::new(); input.tasks.tasks().len()];
        let mut by_library: Vec<Ranks> = vec![Vec::new(); libraries.len()];
        let mut by_pair: HashMap<(usize, usize), Ranks> = HashMap::new();
        let mut by_namespace: HashMap<&'a str, Ranks> = HashMap::new();
        for (rank, summary) in models.iter().enumerate() {
            let rank = rank as u32;
            let task = summary.task.as_deref().and_then(|t| task_index.get(t).copied());
            let library = summary.library.as_deref().and_then(|l| library_index.get(l).copied());
            if let Some(t) = task {
                by_task[t].push(rank);
            }
            if let Some(l) = library {
                by_library[l].push(rank);
            }
            if let (Some(t), Some(l)) = (task, library) {
                by_pair.entry((t, l)).or_default().push(rank);
            }
            let namespace = summary.id.split_once('/').map_or(summary.id.as_str(), |(ns, _)| ns);
            by_namespace.entry(namespace).or_default().push(rank);
        }
        // Tasks renumbered to those that have models; pairs follow.
        let mut task_position = vec![usize::MAX; by_task.len()];
        let mut tasks = Vec::new();
        for (i, (task, ranks)) in input.tasks.tasks().iter().zip(by_task).enumerate() {
            if !ranks.is_empty() {
                task_position[i] = tasks.len();
                tasks.push((task, ranks));
            }
        }
        let mut pairs: Vec<((usize, usize), Ranks)> =
            by_pair.into_iter().map(|((t, l), ranks)| ((task_position[t], l), ranks)).collect();
        pairs.sort_unstable_by_key(|(pair, _)| *pair);
        let mut namespaces: Vec<(&str, Ranks)> = by_namespace.into_iter().collect();
        namespaces.par_sort_unstable_by(|a, b| a.0.cmp(b.0));
        Groups { rows, tasks, libraries: libraries.iter().zip(by_library).collect(), pairs, namespaces }
    }

    /// The key of a run of models: their row keys in order.
    pub fn rows_key(&self, hasher: &mut KeyHasher, ranks: &[u32]) {
        hasher.num(ranks.len() as u64);
        for &rank in ranks {
            hasher.key(&self.rows[rank as usize]);
        }
    }
}

/// Every listing file of the site, from its models.
pub fn listing_files<'a>(input: &'a ListingInput<'a>, groups: &'a Groups<'a>, search: &'a crate::pages::search::SearchFiles) -> Vec<ListingFile<'a>> {
    let mut files = html::html_files(input, groups);
    files.extend(sitemap::sitemap_files(input, groups));
    files.extend(api::api_files(input, groups));
    files.extend(search.files(input, groups));
    files
}
