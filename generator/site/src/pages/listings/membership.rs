//! Which models are in which group: the step of [`Groups`](super::groups::Groups)
//! that reads every model's task, library, namespace, filter tags and
//! search facets ([`Membership::of`]).
//!
//! Runs of models are sorted side by side and joined in rank order, so
//! every group's ranks stay ascending. A build that carries its listings
//! on (see [`carried`](super::carried)) sorts only the models it could not
//! keep, and joins them to the groups the previous build saved
//! ([`Membership::join_saved`]): at a million models that reads each
//! model's tags once less, which is most of what grouping costs.

// Seeded per process, as std's maps are, and several times quicker
// than SipHash on the million tags a hub's listings sort.
use foldhash::{HashMap, HashMapExt};
use rayon::prelude::*;

use modelpages_record::{namespace_of, ModelSummary};
use modelpages_snippets::Library;

use crate::pages::tasks::Task;

/// The models of one group, as ranks (positions in name order), ascending.
pub type Ranks = Vec<u32>;

/// What the search filters by besides task, library, namespace and tag
/// (`ModelSummary::facets`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FacetKind {
    Language,
    License,
    Provider,
    /// A parameter class (`PARAM_BOUNDS`).
    Params,
    /// The smallest memory size a model fits in (`MEMORY_SIZES_GB`).
    Fits,
}

impl FacetKind {
    pub const ALL: [FacetKind; 5] = [FacetKind::Language, FacetKind::License, FacetKind::Provider, FacetKind::Params, FacetKind::Fits];

    /// As named in paths and in the facets file.
    pub fn name(self) -> &'static str {
        match self {
            FacetKind::Language => "language",
            FacetKind::License => "license",
            FacetKind::Provider => "provider",
            FacetKind::Params => "params",
            FacetKind::Fits => "fits",
        }
    }

    /// Whether its values are tags with listings by name of their own
    /// (`search/tag/...`: a language is its tag, a licence `license:<id>`),
    /// so its facet scopes need only their ranked pages.
    pub fn listed_as_tag(self) -> bool {
        matches!(self, FacetKind::Language | FacetKind::License)
    }

    /// The values of this kind `summary` has, for the kinds whose values
    /// are words (the others are classes).
    pub fn values(self, summary: &ModelSummary) -> Option<&modelpages_record::TagList> {
        match self {
            FacetKind::Language => Some(&summary.facets.languages),
            FacetKind::License => Some(&summary.facets.licenses),
            FacetKind::Provider => Some(&summary.facets.providers),
            FacetKind::Params | FacetKind::Fits => None,
        }
    }

    /// The class of this kind `summary` is in, for the kinds of classes.
    pub fn class(self, summary: &ModelSummary) -> Option<u8> {
        match self {
            FacetKind::Params => summary.facets.params,
            FacetKind::Fits => summary.facets.fits,
            _ => None,
        }
    }
}

/// The known tasks and libraries, numbered as their catalogues list them:
/// a model's task and library are found by key once each.
pub struct Catalogues<'c> {
    tasks: &'c [Task],
    libraries: &'c [Library],
    task_numbers: HashMap<&'c str, usize>,
    library_numbers: HashMap<&'c str, usize>,
}

impl<'c> Catalogues<'c> {
    pub fn new(tasks: &'c [Task], libraries: &'c [Library]) -> Catalogues<'c> {
        Catalogues {
            tasks,
            libraries,
            task_numbers: tasks.iter().enumerate().map(|(i, t)| (t.key.as_str(), i)).collect(),
            library_numbers: libraries.iter().enumerate().map(|(i, l)| (l.key.as_str(), i)).collect(),
        }
    }

    pub fn tasks(&self) -> &'c [Task] {
        self.tasks
    }

    pub fn libraries(&self) -> &'c [Library] {
        self.libraries
    }

    /// The number of the task `key`, if it is known.
    pub fn task(&self, key: &str) -> Option<usize> {
        self.task_numbers.get(key).copied()
    }

    /// The number of the library `key`, if it is known.
    pub fn library(&self, key: &str) -> Option<usize> {
        self.library_numbers.get(key).copied()
    }
}

/// Models sorted into groups per run of this many, side by side.
const SORTED_TOGETHER: usize = 64 * 1024;

/// Every group's models, before the groups are named and ordered.
#[derive(Debug, PartialEq, Eq)]
pub struct Membership<'a> {
    /// By task, in catalogue order.
    pub by_task: Vec<Ranks>,
    /// By library, in catalogue order.
    pub by_library: Vec<Ranks>,
    /// By task and library (their numbers in the catalogues).
    pub by_pair: HashMap<(usize, usize), Ranks>,
    /// By namespace, in name order.
    pub namespaces: Vec<(&'a str, Ranks)>,
    pub by_tag: HashMap<&'a str, Ranks>,
    pub by_value: HashMap<(FacetKind, &'a str), Ranks>,
    pub by_class: HashMap<(FacetKind, u8), Ranks>,
}

impl<'a> Membership<'a> {
    fn new(catalogues: &Catalogues) -> Membership<'a> {
        Membership {
            by_task: vec![Vec::new(); catalogues.tasks.len()],
            by_library: vec![Vec::new(); catalogues.libraries.len()],
            by_pair: HashMap::new(),
            namespaces: Vec::new(),
            by_tag: HashMap::new(),
            by_value: HashMap::new(),
            by_class: HashMap::new(),
        }
    }

    /// The groups of the models `ranks` (ascending; `None`: all of
    /// `models`), read from their rows.
    pub fn of(models: &[&'a ModelSummary], ranks: Option<&[u32]>, catalogues: &Catalogues) -> Membership<'a> {
        let sort_run = |run: &mut dyn Iterator<Item = u32>| {
            let mut membership = Membership::new(catalogues);
            for rank in run {
                membership.add(rank, models[rank as usize], catalogues);
            }
            membership
        };
        let runs: Vec<Membership<'a>> = match ranks {
            Some(ranks) => ranks.par_chunks(SORTED_TOGETHER).map(|run| sort_run(&mut run.iter().copied())).collect(),
            None => (0..models.len().div_ceil(SORTED_TOGETHER))
                .into_par_iter()
                .map(|run| {
                    let start = run * SORTED_TOGETHER;
                    sort_run(&mut (start as u32..(start + SORTED_TOGETHER).min(models.len()) as u32))
                })
                .collect(),
        };
        runs.into_iter().reduce(Membership::append).unwrap_or_else(|| Membership::new(catalogues))
    }

    /// Puts the model `rank` in its groups.
    fn add(&mut self, rank: u32, summary: &'a ModelSummary, catalogues: &Catalogues) {
        for kind in FacetKind::ALL {
            if let Some(values) = kind.values(summary) {
                for value in values.iter() {
                    self.by_value.entry((kind, value)).or_default().push(rank);
                }
            } else if let Some(class) = kind.class(summary) {
                self.by_class.entry((kind, class)).or_default().push(rank);
            }
        }
        for tag in summary.filters.iter() {
            self.by_tag.entry(tag).or_default().push(rank);
        }
        let task = summary.task.as_deref().and_then(|t| catalogues.task(t));
        let library = summary.library.as_deref().and_then(|l| catalogues.library(l));
        if let Some(t) = task {
            self.by_task[t].push(rank);
        }
        if let Some(l) = library {
            self.by_library[l].push(rank);
        }
        if let (Some(t), Some(l)) = (task, library) {
            self.by_pair.entry((t, l)).or_default().push(rank);
        }
        // Models come by name, so a namespace's models come together.
        let namespace = namespace_of(&summary.id);
        match self.namespaces.last_mut() {
            Some((last, ranks)) if *last == namespace => ranks.push(rank),
            _ => self.namespaces.push((namespace, vec![rank])),
        }
    }

    /// These groups followed by those of the run of models after them.
    fn append(mut self, later: Membership<'a>) -> Membership<'a> {
        for (mine, theirs) in self.by_task.iter_mut().zip(later.by_task).chain(self.by_library.iter_mut().zip(later.by_library)) {
            mine.extend(theirs);
        }
        fn join<K: std::hash::Hash + Eq>(mine: &mut HashMap<K, Ranks>, theirs: HashMap<K, Ranks>) {
            for (key, ranks) in theirs {
                mine.entry(key).or_default().extend(ranks);
            }
        }
        join(&mut self.by_pair, later.by_pair);
        join(&mut self.by_tag, later.by_tag);
        join(&mut self.by_value, later.by_value);
        join(&mut self.by_class, later.by_class);
        // A namespace cut between two runs is one group.
        let mut namespaces = later.namespaces.into_iter();
        if let (Some((last, ranks)), Some((first, more))) = (self.namespaces.last_mut(), namespaces.next()) {
            if *last == first {
                ranks.extend(more);
            } else {
                self.namespaces.push((first, more));
            }
        }
        self.namespaces.extend(namespaces);
        self
    }

    /// Joins the groups a previous build saved (see `carried`) to these,
    /// which hold only the models it could not keep: each saved group is
    /// its name as saved and its models' ranks now, ascending.
    pub fn join_saved(mut self, saved: SavedGroups<'_>, models: &[&'a ModelSummary], catalogues: &Catalogues) -> Option<Membership<'a>> {
        // A saved group is named by its models: the name found in the
        // rows of its first, so the groups borrow from the rows as a
        // build's own do (and a name no row has is a damaged form).
        let first = |ranks: &Ranks| ranks.first().map(|&r| models[r as usize]);
        // Groups none of whose models are kept are left out: a build makes
        // no group without models (every catalogue library aside).
        let saved = saved.without_empty();
        for (key, ranks) in saved.tasks {
            join_ranks(&mut self.by_task[catalogues.task(key)?], ranks);
        }
        for (key, ranks) in saved.libraries {
            join_ranks(&mut self.by_library[catalogues.library(key)?], ranks);
        }
        for ((task, library), ranks) in saved.pairs {
            join_ranks(self.by_pair.entry((catalogues.task(task)?, catalogues.library(library)?)).or_default(), ranks);
        }
        let mut namespaces: HashMap<&'a str, Ranks> = self.namespaces.drain(..).collect();
        for (name, ranks) in saved.namespaces {
            let model = first(&ranks)?;
            let namespace = namespace_of(&model.id);
            (namespace == name).then_some(())?;
            join_ranks(namespaces.entry(namespace).or_default(), ranks);
        }
        self.namespaces = namespaces.into_iter().collect();
        self.namespaces.sort_unstable_by_key(|(_, ranks)| ranks[0]);
        for (name, ranks) in saved.tags {
            let model = first(&ranks)?;
            let tag = model.filters.iter().find(|t| *t == name)?;
            join_ranks(self.by_tag.entry(tag).or_default(), ranks);
        }
        for ((kind, value), ranks) in saved.values {
            let model = first(&ranks)?;
            let value = kind.values(model)?.iter().find(|v| *v == value)?;
            join_ranks(self.by_value.entry((kind, value)).or_default(), ranks);
        }
        for ((kind, class), ranks) in saved.classes {
            let model = first(&ranks)?;
            (kind.class(model) == Some(class)).then_some(())?;
            join_ranks(self.by_class.entry((kind, class)).or_default(), ranks);
        }
        Some(self)
    }
}

/// The groups a previous build saved, their models' ranks now (see
/// `carried`), by what names them.
#[derive(Default)]
pub struct SavedGroups<'s> {
    pub tasks: Vec<(&'s str, Ranks)>,
    pub libraries: Vec<(&'s str, Ranks)>,
    pub pairs: Vec<((&'s str, &'s str), Ranks)>,
    pub namespaces: Vec<(&'s str, Ranks)>,
    pub tags: Vec<(&'s str, Ranks)>,
    pub values: Vec<((FacetKind, &'s str), Ranks)>,
    pub classes: Vec<((FacetKind, u8), Ranks)>,
}

impl SavedGroups<'_> {
    fn without_empty(mut self) -> Self {
        fn keep<K>(groups: &mut Vec<(K, Ranks)>) {
            groups.retain(|(_, ranks)| !ranks.is_empty());
        }
        keep(&mut self.tasks);
        keep(&mut self.libraries);
        keep(&mut self.pairs);
        keep(&mut self.namespaces);
        keep(&mut self.tags);
        keep(&mut self.values);
        keep(&mut self.classes);
        self
    }
}

/// `more` (ascending) joined into `ranks` (ascending), in order.
fn join_ranks(ranks: &mut Ranks, more: Ranks) {
    if ranks.is_empty() {
        *ranks = more;
        return;
    }
    if more.is_empty() {
        return;
    }
    let mine = std::mem::take(ranks);
    ranks.reserve(mine.len() + more.len());
    let (mut a, mut b) = (mine.into_iter().peekable(), more.into_iter().peekable());
    while let (Some(&x), Some(&y)) = (a.peek(), b.peek()) {
        ranks.push(if x <= y { a.next() } else { b.next() }.expect("peeked"));
    }
    ranks.extend(a);
    ranks.extend(b);
}

#[cfg(test)]
mod tests {
    use super::*;
    use modelpages_record::SearchFacets;

    /// Runs of models sorted apart and joined give the groups one run gives:
    /// ranks ascending, a namespace cut between runs (or spanning several)
    /// one group.
    #[test]
    fn runs_sorted_apart_join_into_the_groups_of_one_run() {
        let models: Vec<ModelSummary> = (0..200)
            .map(|i| ModelSummary {
                id: format!("ns{:02}/m{i:03}", if i < 90 { i / 45 } else { 2 + i / 7 }),
                task: Some(["text-generation", "fill-mask", "no-such-task"][i % 3].into()),
                library: Some(["transformers", "diffusers"][i % 2].into()),
                filters: [format!("tag{}", i % 5), "shared".into()].iter().collect(),
                facets: SearchFacets {
                    languages: [["en", "fr"][i % 2]].iter().collect(),
                    params: (i % 4 != 0).then_some((i % 3) as u8),
                    ..SearchFacets::default()
                },
                ..ModelSummary::default()
            })
            .collect();
        let (tasks, snippets) = (crate::pages::tasks::TaskCatalogue::builtin(), modelpages_snippets::SnippetEngine::new());
        let catalogues = Catalogues::new(tasks.tasks(), snippets.catalogue().libraries());
        let sort = |range: std::ops::Range<usize>| {
            let mut membership = Membership::new(&catalogues);
            for rank in range {
                membership.add(rank as u32, &models[rank], &catalogues);
            }
            membership
        };
        let whole = sort(0..models.len());
        for run in [1, 7, 44, 45, 199] {
            let starts: Vec<usize> = (0..models.len()).step_by(run).collect();
            let joined = starts.iter().map(|&s| sort(s..(s + run).min(models.len()))).reduce(Membership::append).unwrap();
            assert_eq!(joined, whole, "runs of {run}");
        }
        assert_eq!(whole.namespaces.len(), 2 + (199 / 7 - 90 / 7) + 1);
        assert_eq!(whole.namespaces[0].1, (0..45).collect::<Vec<u32>>());
        assert_eq!(whole.by_tag["shared"].len(), 200);
        let refs: Vec<&ModelSummary> = models.iter().collect();
        assert_eq!(Membership::of(&refs, None, &catalogues), whole);
        let odd: Vec<u32> = (0..200).filter(|r| r % 2 == 1).collect();
        let of_odd = Membership::of(&refs, Some(&odd), &catalogues);
        assert_eq!(of_odd.by_library[catalogues.library("diffusers").unwrap()], odd);
        assert!(of_odd.by_library[catalogues.library("transformers").unwrap()].is_empty());
        assert_eq!(whole.by_task.iter().map(Vec::len).sum::<usize>(), 134, "two tasks of three are known");
    }

    #[test]
    fn ranks_join_in_order() {
        for (a, b) in [(vec![], vec![1, 2]), (vec![1, 5, 9], vec![]), (vec![1, 5, 9], vec![0, 6, 7, 10]), (vec![4], vec![1, 2, 3])] {
            let mut joined = a.clone();
            join_ranks(&mut joined, b.clone());
            let mut expected = [a, b].concat();
            expected.sort_unstable();
            assert_eq!(joined, expected);
        }
    }
}
