//! What every listing is made from ([`ListingInput`]), and the models
//! sorted once into every group a listing shows ([`Groups`]): tasks,
//! libraries, namespaces, task-and-library pairs and filter tags, each by
//! name; and the
//! most downloaded or most liked of a group ([`top_by`]).

use std::cmp::Ordering;
// Seeded per process, as std's maps are, and several times quicker
// than SipHash on the million words and tags a hub's listings sort.
use foldhash::{HashMap, HashMapExt};

use modelpages_render::{RowLabels, SiteInfo, Templates};

use modelpages_record::ModelSummary;
use modelpages_snippets::{Library, SnippetEngine};
use rayon::prelude::*;

use super::file::{member_key, row_key, updated_day, KeyHasher};
use super::keyed::boundary_hash;
pub use super::membership::Ranks;
use super::membership::{Catalogues, FacetKind, Membership};
use crate::pages::tasks::{Task, TaskCatalogue};
use crate::settings::ListingSettings;
use crate::store::manifest::ListingKey;

/// What every listing is made from.
pub struct ListingInput<'a> {
    /// Every listed model, by name ([`by_name`]).
    pub models: &'a [&'a ModelSummary],
    pub templates: &'a Templates,
    pub site: &'a SiteInfo,
    /// The site's base URL, absolute where the settings give one (sitemaps).
    pub base_url: &'a str,
    pub settings: &'a ListingSettings,
    pub tasks: &'a TaskCatalogue,
    pub snippets: &'a SnippetEngine,
}

impl<'a> ListingInput<'a> {
    /// The known tasks and libraries, numbered for [`Membership::of`].
    pub fn catalogues(&self) -> Catalogues<'a> {
        Catalogues::new(self.tasks.tasks(), self.snippets.catalogue().libraries())
    }

    /// The names of the tasks and libraries of `rows` (ranks), as a page
    /// of them shows them.
    pub fn labels(&self, rows: &[u32]) -> RowLabels {
        let mut labels = RowLabels::default();
        for &rank in rows {
            let model = self.models[rank as usize];
            if let Some(task) = model.task.as_deref() {
                let name = self.tasks.tasks().iter().find(|t| t.key == task).map_or(task, |t| t.name.as_str());
                labels.task.insert(task.to_owned(), name.to_owned());
            }
            if let Some(library) = model.library.as_deref() {
                let libraries = self.snippets.catalogue().libraries();
                let name = libraries.iter().find(|l| l.key == library).map_or(library, |l| l.pretty_label.as_str());
                labels.library.insert(library.to_owned(), name.to_owned());
            }
        }
        labels
    }
}

/// The order of every listing by name: ids case-folded, then as written
/// (ids that differ only in case are refused, so this is a total order).
/// A namespace's models are together in it: they share the prefix `ns/`.
pub fn by_name(a: &ModelSummary, b: &ModelSummary) -> Ordering {
    ids_by_name(a.id.as_bytes(), b.id.as_bytes())
}

/// [`by_name`], of two ids.
pub fn ids_by_name(x: &[u8], y: &[u8]) -> Ordering {
    // A million ids are sorted on every build that lists them anew, and
    // neighbours share long prefixes (`namespace/name-`): bytes they share
    // fold alike, so only what follows is folded, byte by byte as compared.
    fn folded(s: &[u8]) -> impl Iterator<Item = u8> + '_ {
        s.iter().map(u8::to_ascii_lowercase)
    }
    let shared = x.iter().zip(y).take_while(|(p, q)| p == q).count();
    let (x, y) = (&x[shared..], &y[shared..]);
    folded(x).cmp(folded(y)).then_with(|| x.cmp(y))
}

/// Models sorted into every group a listing shows.
pub struct Groups<'a> {
    /// [`row_key`] of each model, by rank: what a page by name shows of it.
    pub rows: Vec<ListingKey>,
    /// [`member_key`] of each model, by rank: all any listing shows of it.
    members: Vec<ListingKey>,
    /// The boundary hash of each model's id, by rank (see [`Groups::boundary`]).
    boundaries: Vec<u64>,
    /// Known tasks that have models, in catalogue order.
    pub tasks: Vec<(&'a Task, Ranks)>,
    /// Every catalogue library, with or without models, in catalogue order.
    pub libraries: Vec<(&'a Library, Ranks)>,
    /// A task (index in `tasks`) and a library (index in `libraries`) together.
    pub pairs: Vec<((usize, usize), Ranks)>,
    /// Every namespace, by name.
    pub namespaces: Vec<(&'a str, Ranks)>,
    /// Every filter tag (`ModelSummary::filters`) with the models listed
    /// under it, by tag.
    pub tags: Vec<(&'a str, Ranks)>,
    /// Every value of every search facet with its models, by kind, then
    /// value (see [`FacetKind`]).
    pub facets: Vec<FacetGroup<'a>>,
    /// The print of each group above, found by where its ranks are
    /// (their address and length): the same group is printed by its
    /// listing, its search scope, its feed and its API pages, and hashing
    /// them once, in parallel, is a fair part of a one-model rebuild.
    prints: HashMap<(usize, usize), ListingKey>,
}

/// One value of a facet and its models.
pub struct FacetGroup<'a> {
    pub kind: FacetKind,
    /// The value as the rows write it: a language, a licence id, a
    /// provider, or a class's index.
    pub value: std::borrow::Cow<'a, str>,
    pub ranks: Ranks,
}

impl FacetGroup<'_> {
    /// Its folder under `search/facet/<kind>/`: a class's index, or the
    /// value as a tag's folder is named (`tag_file_name`).
    pub fn file_name(&self) -> String {
        match self.kind {
            FacetKind::Params | FacetKind::Fits => self.value.to_string(),
            _ => modelpages_render::tag_file_name(&self.value).expect("facet values are listable"),
        }
    }
}

impl<'a> Groups<'a> {
    /// The groups of `models`, whose membership is `membership`
    /// (see [`Membership::of`]). `kept(rank)` gives the row and member keys
    /// of a model whose keys the previous build made (see
    /// [`carried`](super::carried)), so they need not be made again.
    pub fn of(
        models: &[&'a ModelSummary],
        catalogues: &Catalogues<'a>,
        membership: Membership<'a>,
        kept: &(dyn Fn(usize) -> Option<(ListingKey, ListingKey)> + Sync),
    ) -> Groups<'a> {
        let (rows, (members, boundaries)): (Vec<ListingKey>, (Vec<ListingKey>, Vec<u64>)) = models
            .par_iter()
            .enumerate()
            .map(|(rank, s)| {
                let (row, member) = kept(rank).unwrap_or_else(|| {
                    let row = row_key(s);
                    (row, member_key(s, &row))
                });
                (row, (member, boundary_hash(&s.id)))
            })
            .unzip();
        let libraries = catalogues.libraries();
        let Membership { by_task, by_library, by_pair, namespaces, by_tag, by_value, by_class } = membership;
        // Tasks renumbered to those that have models; pairs follow.
        let mut task_position = vec![usize::MAX; by_task.len()];
        let mut tasks = Vec::new();
        for (i, (task, ranks)) in catalogues.tasks().iter().zip(by_task).enumerate() {
            if !ranks.is_empty() {
                task_position[i] = tasks.len();
                tasks.push((task, ranks));
            }
        }
        let mut pairs: Vec<((usize, usize), Ranks)> =
            by_pair.into_iter().map(|((t, l), ranks)| ((task_position[t], l), ranks)).collect();
        pairs.sort_unstable_by_key(|(pair, _)| *pair);
        let mut tags: Vec<(&'a str, Ranks)> = by_tag.into_iter().collect();
        tags.par_sort_unstable_by_key(|(tag, _)| *tag);
        let mut facets: Vec<FacetGroup<'a>> = by_value
            .into_iter()
            .map(|((kind, value), ranks)| FacetGroup { kind, value: value.into(), ranks })
            .chain(by_class.into_iter().map(|((kind, class), ranks)| FacetGroup { kind, value: class.to_string().into(), ranks }))
            .collect();
        facets.sort_unstable_by(|a, b| (a.kind, a.value.len(), &a.value).cmp(&(b.kind, b.value.len(), &b.value)));
        let mut groups = Groups {
            rows,
            members,
            boundaries,
            tasks,
            libraries: libraries.iter().zip(by_library).collect(),
            pairs,
            namespaces,
            tags,
            facets,
            prints: HashMap::new(),
        };
        let every: Vec<&[u32]> = (groups.tasks.iter().map(|(_, r)| r.as_slice()))
            .chain(groups.libraries.iter().map(|(_, r)| r.as_slice()))
            .chain(groups.pairs.iter().map(|(_, r)| r.as_slice()))
            .chain(groups.namespaces.iter().map(|(_, r)| r.as_slice()))
            .chain(groups.tags.iter().map(|(_, r)| r.as_slice()))
            .chain(groups.facets.iter().map(|f| f.ranks.as_slice()))
            .collect();
        let prints: Vec<((usize, usize), ListingKey)> = every.par_iter().map(|ranks| (slice_address(ranks), groups.print_of(ranks))).collect();
        groups.prints = prints.into_iter().collect();
        groups
    }

    /// The print of a [`ListingGroup`](super::file::ListingGroup) made
    /// from the models `ranks` alone: their [`member_key`]s in order,
    /// hashed in one pass. Groups are told apart by name, not by print.
    pub fn print(&self, ranks: &[u32]) -> ListingKey {
        match self.prints.get(&slice_address(ranks)) {
            Some(print) => *print,
            None => self.print_of(ranks),
        }
    }

    fn print_of(&self, ranks: &[u32]) -> ListingKey {
        let mut members = Vec::with_capacity(ranks.len() * 16);
        for &rank in ranks {
            members.extend_from_slice(&self.members[rank as usize]);
        }
        KeyHasher::new("group").bytes(&members).finish()
    }

    /// [`member_key`] of each model, by rank.
    pub fn member_keys(&self) -> &[ListingKey] {
        &self.members
    }

    /// The [`boundary_hash`] of the model `rank`'s id, which decides where
    /// the lists by name it is in are cut (see `keyed`).
    pub fn boundary(&self, rank: u32) -> u64 {
        self.boundaries[rank as usize]
    }

    /// The key of a run of models as a page by name shows them.
    pub fn rows_key(&self, hasher: &mut KeyHasher, ranks: &[u32]) {
        hasher.num(ranks.len() as u64);
        for &rank in ranks {
            hasher.key(&self.rows[rank as usize]);
        }
    }

    /// The key of a run of models shown with their downloads and likes:
    /// their rows' keys, then their figures in the same order (the rows
    /// already say which model each is).
    pub fn ranked_key(&self, hasher: &mut KeyHasher, models: &[&ModelSummary], ranks: &[u32]) {
        self.rows_key(hasher, ranks);
        for &rank in ranks {
            let model = models[rank as usize];
            hasher.opt_num(model.downloads).opt_num(model.likes);
        }
    }
}

/// Where a group's ranks are: which group they are, while the groups live.
fn slice_address(ranks: &[u32]) -> (usize, usize) {
    (ranks.as_ptr() as usize, ranks.len())
}

/// The orders a listing is ranked in besides by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ranking {
    /// Most downloaded first.
    Downloads,
    /// Most liked first, then most downloaded.
    Likes,
    /// Most recently modified first, by day (the record's `lastModified`,
    /// which moves only when the model changes), then by name: an order
    /// that downloads moving leaves as it is.
    Updated,
}

impl Ranking {
    pub const ALL: [Ranking; 3] = [Ranking::Downloads, Ranking::Likes, Ranking::Updated];

    /// As named in paths.
    pub fn name(self) -> &'static str {
        match self {
            Ranking::Downloads => "downloads",
            Ranking::Likes => "likes",
            Ranking::Updated => "updated",
        }
    }

    /// `a` before `b` (ranks, ties broken by name).
    pub fn compare(self, models: &[&ModelSummary], a: u32, b: u32) -> Ordering {
        let (x, y) = (models[a as usize], models[b as usize]);
        let downloads = || y.downloads.unwrap_or(0).cmp(&x.downloads.unwrap_or(0));
        let first = match self {
            Ranking::Downloads => downloads(),
            Ranking::Likes => y.likes.unwrap_or(0).cmp(&x.likes.unwrap_or(0)).then_with(downloads),
            Ranking::Updated => updated_day(y).cmp(&updated_day(x)),
        };
        first.then(a.cmp(&b))
    }

    /// What [`Ranking::compare`] compares of a model, as two numbers that
    /// sort the same way (the rank breaks ties after them).
    fn sort_key(self, summary: &ModelSummary) -> (u64, u64) {
        let downloads = u64::MAX - summary.downloads.unwrap_or(0);
        match self {
            Ranking::Downloads => (downloads, 0),
            Ranking::Likes => (u64::MAX - summary.likes.unwrap_or(0), downloads),
            // Latest first, unknown days last; a day is far from i64's ends.
            Ranking::Updated => match updated_day(summary) {
                Some(day) => (0, (i128::from(i64::MAX) - i128::from(day)) as u64),
                None => (1, 0),
            },
        }
    }
}

/// The first `most` of `ranks` in `order`: each model's figures are looked
/// up once, and the selection compares plain numbers (a listing's top of
/// a million models).
pub fn top_by(models: &[&ModelSummary], ranks: &[u32], order: Ranking, most: usize) -> Vec<u32> {
    let keyed: Vec<(u64, u64, u32)> = ranks
        .iter()
        .map(|&rank| {
            let (first, second) = order.sort_key(models[rank as usize]);
            (first, second, rank)
        })
        .collect();
    first_by(keyed, most, Ord::cmp).into_iter().map(|(_, _, rank)| rank).collect()
}

/// The first `most` of `items` in the order `compare` gives, in order,
/// without sorting the rest (a listing's top of a million models).
pub fn first_by<T>(mut items: Vec<T>, most: usize, compare: impl Fn(&T, &T) -> Ordering) -> Vec<T> {
    if most == 0 {
        return Vec::new();
    }
    if items.len() > most {
        items.select_nth_unstable_by(most - 1, &compare);
        items.truncate(most);
    }
    items.sort_unstable_by(compare);
    items
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(id: &str, downloads: u64, likes: u64) -> ModelSummary {
        ModelSummary { id: id.into(), downloads: Some(downloads), likes: Some(likes), ..ModelSummary::default() }
    }

    #[test]
    fn names_fold_case_and_tops_rank_by_counts_then_name() {
        let mut models = [summary("b/B", 5, 1), summary("a/z", 9, 0), summary("B/a", 5, 7), summary("c/c", 1, 7)];
        models.sort_by(by_name);
        let ids: Vec<&str> = models.iter().map(|m| m.id.as_str()).collect();
        assert_eq!(ids, ["a/z", "B/a", "b/B", "c/c"]);
        let refs: Vec<&ModelSummary> = models.iter().collect();
        assert_eq!(top_by(&refs, &[0, 1, 2, 3], Ranking::Downloads, 10), [0, 1, 2, 3]);
        assert_eq!(top_by(&refs, &[0, 1, 2, 3], Ranking::Downloads, 2), [0, 1]);
        assert_eq!(top_by(&refs, &[0, 1, 2, 3], Ranking::Likes, 10), [1, 3, 2, 0]);
        assert!(top_by(&refs, &[0, 1], Ranking::Likes, 0).is_empty());
    }

    /// The order by name is the ids folded, then as written, whatever
    /// prefix two ids share.
    #[test]
    fn names_compare_as_folded_then_as_written() {
        let ids = ["a/b", "A/b", "a/B", "a/", "a", "ab/c", "a/bc", "a/bC", "a/b-1", "a/B-1", "Ns/x", "ns/X", "ns/x", "é/a", "É/a", "z", "Z/"];
        let plain = |a: &str, b: &str| a.to_ascii_lowercase().cmp(&b.to_ascii_lowercase()).then_with(|| a.cmp(b));
        for a in ids {
            for b in ids {
                assert_eq!(by_name(&summary(a, 0, 0), &summary(b, 0, 0)), plain(a, b), "{a} against {b}");
            }
        }
    }

    /// By recency: the day of `lastModified`, latest first, then by name;
    /// the time of day and the downloads do not count, unknown days last.
    #[test]
    fn recency_ranks_by_day_then_name() {
        let day = 86_400;
        let at = |id: &str, downloads: u64, updated: Option<i64>| ModelSummary { updated, ..summary(id, downloads, 0) };
        let models = [at("a/a", 1, Some(10 * day + 5)), at("b/b", 9, Some(10 * day + 80_000)), at("c/c", 5, Some(11 * day)), at("d/d", 7, None)];
        let refs: Vec<&ModelSummary> = models.iter().collect();
        assert_eq!(top_by(&refs, &[0, 1, 2, 3], Ranking::Updated, 10), [2, 0, 1, 3]);
    }

    /// The top in each order is the start of the list sorted by
    /// [`Ranking::compare`], whatever the figures (ties, none, extremes).
    #[test]
    fn tops_are_the_start_of_the_list_in_order() {
        let day = 86_400i64;
        let models: Vec<ModelSummary> = (0..300u64)
            .map(|i| ModelSummary {
                id: format!("ns/m{i:03}"),
                downloads: [Some(i % 7), None, Some(u64::MAX), Some(0)][(i % 4) as usize].filter(|_| i % 5 != 0).or(Some(i * 13 % 11)),
                likes: (i % 3 != 0).then_some(i % 4),
                updated: [Some(-40 * day + 7), None, Some(i as i64 % 9 * day), Some(i64::MAX), Some(i64::MIN)][(i % 5) as usize],
                ..ModelSummary::default()
            })
            .collect();
        let refs: Vec<&ModelSummary> = models.iter().collect();
        let ranks: Vec<u32> = (0..300).filter(|r| r % 7 != 3).collect();
        for order in Ranking::ALL {
            let mut sorted = ranks.clone();
            sorted.sort_by(|a, b| order.compare(&refs, *a, *b));
            for most in [0, 1, 10, 250, 400] {
                assert_eq!(top_by(&refs, &ranks, order, most), sorted[..most.min(sorted.len())], "{order:?}, {most}");
            }
        }
    }
}
