//! The search island's data: files a static host serves as they are, each
//! small, fetched on demand as a visitor types or pages.
//!
//! - `search/index.json`, the manifest: how many models there are, the tasks
//!   and libraries with their counts (and the counts of each task and
//!   library together), the sizes the files were cut to, and the first hops
//!   into the word trie. No model is named in it, so it stays a few
//!   kilobytes at any scale.
//! - `search/words/<letter>/<prefix>.json`, the leaves of the word trie
//!   ([`trie`], [`shards`]): for a word prefix, every model with a word
//!   starting with it, by name; and for a prefix with more than `cap` of
//!   them, `search/top/<letter>/<prefix>.json`: its longer prefixes and its
//!   `cap` most downloaded models. Only the tops show downloads, so only
//!   they change when downloads move.
//! - `search/<scope>/...`, listings ([`lists`]) for browsing without a
//!   query: all models, those of a task, of a library, of a task and a
//!   library together, or of a namespace; by name (every model, in pages
//!   named by their first id), and by downloads and by likes (the first
//!   `ranked_models`, but for namespaces, which the island sorts from their
//!   stats files), and by recency (the first `ranked_models` by the day of
//!   their `lastModified`, without figures).
//! - `search/facets.json` ([`facets`]): every value of the facets
//!   (language, licence, provider, parameter class, memory class) with its
//!   count; `search/facet/<kind>/<value>/...`, each value's listings (its
//!   ranked pages, and but for languages and licences, whose tags have
//!   theirs, its pages by name). Every row of every listing and word file
//!   carries its model's facets, so the island filters any of them by any
//!   combination exactly.
//!
//! What the island does with them is said in `site-src/islands/search-data.ts`.

pub mod facets;
pub mod lists;
pub mod manifest;
pub mod shards;
pub mod trie;
pub mod word_index;
pub mod words;

use modelpages_record::ModelSummary;
use rayon::prelude::*;

use crate::pages::listings::file::ListingGroup;
use crate::pages::listings::groups::{Groups, ListingInput};
use crate::settings::ListingSettings;
pub use word_index::WordIndex;

/// The word trie of a site's models, from which its search files are made.
pub struct SearchFiles {
    tree: trie::ShardTree,
    /// Whether a prefix is a node larger than a shard (its file is a top).
    capped: Box<dyn Fn(&str) -> bool + Send + Sync>,
    /// Every rank, for the listing of all models.
    all: Vec<u32>,
}

impl SearchFiles {
    /// Cuts `index`, the word index of `models` (by name), into shards,
    /// carrying on the nodes of `carried` (the previous build's trie) where
    /// it can.
    pub fn build(models: &[&ModelSummary], index: &WordIndex, settings: &ListingSettings, carried: Option<&trie::CarriedTrie>) -> SearchFiles {
        let all: Vec<u32> = (0..models.len() as u32).collect();
        let popularity = trie::Popularity::of(by_downloads(models));
        let tree = trie::build_shards(index, settings.shard_models, &popularity, carried);
        let nodes: std::collections::HashSet<String> = tree.shards.iter().filter(|s| !s.complete).map(|s| s.prefix.clone()).collect();
        SearchFiles { tree, capped: Box::new(move |prefix| nodes.contains(prefix)), all }
    }

    /// The word trie, by prefix.
    pub fn tree(&self) -> &trie::ShardTree {
        &self.tree
    }

    /// Gives each node not carried on as it was the key of its file, from
    /// `groups` (of `models`), so that the next build may carry it on.
    pub fn key_files(&mut self, models: &[&ModelSummary], groups: &Groups) {
        let capped = &self.capped;
        self.tree.shards.par_iter_mut().filter(|shard| shard.key.is_none()).for_each(|shard| {
            shard.key = Some(shards::shard_key(shard, models, groups, capped));
        });
    }

    /// Every file of the search: manifest, shards (one group, made every
    /// build) and listings (a group per scope).
    pub fn files<'a>(&'a self, input: &'a ListingInput<'a>, groups: &'a Groups<'a>) -> Vec<ListingGroup<'a>> {
        let mut all = lists::list_files(input, groups, &self.all);
        all.push(ListingGroup::always("search words", move || {
            let capped = &self.capped;
            let roots: Vec<(&str, bool)> = self.tree.roots.iter().map(|r| (r.as_str(), capped(r))).collect();
            let mut files = vec![manifest::manifest_file(input, groups, &roots), facets::facets_file(groups)];
            files.par_extend(self.tree.shards.par_iter().map(|shard| shards::shard_file(shard, input.models, groups, capped)));
            files
        }));
        all
    }
}

/// Every rank in the order [`Ranking::Downloads`](crate::pages::listings::groups::Ranking::Downloads) gives (most downloaded
/// first, then by rank), sorted as plain pairs: a million models' figures
/// are not looked up twenty times each.
fn by_downloads(models: &[&ModelSummary]) -> Vec<u32> {
    let mut pairs: Vec<(u64, u32)> = models.par_iter().enumerate().map(|(rank, m)| (u64::MAX - m.downloads.unwrap_or(0), rank as u32)).collect();
    pairs.par_sort_unstable();
    pairs.into_iter().map(|(_, rank)| rank).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pages::listings::groups::Ranking;

    #[test]
    fn models_by_downloads_follow_the_ranking() {
        let downloads = [Some(5), None, Some(9), Some(5), Some(0), Some(u64::MAX), Some(9)];
        let models: Vec<ModelSummary> = downloads.iter().map(|&downloads| ModelSummary { downloads, ..ModelSummary::default() }).collect();
        let refs: Vec<&ModelSummary> = models.iter().collect();
        let mut want: Vec<u32> = (0..refs.len() as u32).collect();
        want.sort_by(|a, b| Ranking::Downloads.compare(&refs, *a, *b));
        assert_eq!(by_downloads(&refs), want);
        assert_eq!(want, [5, 2, 6, 0, 3, 1, 4]);
    }
}
