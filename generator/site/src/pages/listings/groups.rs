//! What every listing is made from ([`ListingInput`]), and the models
//! sorted once into every group a listing shows ([`Groups`]): tasks,
//! libraries, namespaces and task-and-library pairs, each in listing order.

use std::collections::HashMap;

use modelpages_render::{ModelSummary, SiteInfo, Templates};
use modelpages_snippets::{Library, SnippetEngine};
use rayon::prelude::*;

use super::file::{row_key, KeyHasher};
use crate::pages::tasks::{Task, TaskCatalogue};
use crate::settings::ListingSettings;
use crate::store::manifest::ListingKey;

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
