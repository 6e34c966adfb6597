//! The search index cut into shards by word prefix, so that a visitor's
//! browser fetches only the shards of the words it types.
//!
//! Every word of every model (see [`super::words`]) goes into a trie. A node
//! is a prefix and stands for the models that have a word starting with it.
//! A node whose models fit in a shard (`cap`) is a leaf and lists them all
//! (`complete`), by name; a larger one keeps the `cap` most downloaded
//! (its top) and has children, one per next letter, each named by the
//! longest prefix its words share (a radix trie: `synth-org-12` is one hop
//! from `s`, not eleven). A node whose words are all the prefix itself (the
//! word `transformers` on 45% of a hub) cannot be split and stays capped.
//! Which node is a leaf depends on the models' words alone, never on their
//! downloads, so a leaf changes only when a model of it is added, removed
//! or re-tagged; only the tops follow the downloads.
//!
//! Building it: the distinct words are sorted ([`WordIndex`]), so a prefix's words are a
//! contiguous range and every node is a range; the models of a range are
//! counted with a mark per model (no hashing), and the most downloaded kept
//! in a bounded heap. Each posting is visited once per node above its leaf,
//! a handful of times at hub scale; subtrees are built in parallel. A build
//! that changes a few models carries the previous build's nodes on instead
//! ([`carried`]), cutting only those of the changed models' words.

mod carried;

use std::cell::RefCell;
use std::collections::BinaryHeap;
use std::ops::Range;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};

use rayon::prelude::*;

use super::word_index::first_where;
use crate::store::manifest::ListingKey;
pub use super::word_index::WordIndex;
pub use carried::CarriedTrie;

/// One node of the trie: what a shard file holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    pub prefix: String,
    /// Models that have a word starting with `prefix`.
    pub count: u32,
    /// Whether `entries` holds all `count` of them (by name); if not, it
    /// holds the `cap` most downloaded, most downloaded first.
    pub complete: bool,
    /// Longer prefixes, one per next letter, that together cover every word
    /// longer than `prefix`; empty for a complete shard.
    pub children: Vec<String>,
    /// Ranks of the models listed.
    pub entries: Vec<u32>,
    /// The key of its file (see `shards::shard_key`): the previous build's
    /// for a node carried on as it was, else made once the groups are
    /// ([`crate::pages::listings::search::SearchFiles::key_files`]).
    pub key: Option<ListingKey>,
}

/// The whole trie: the first hops (the search manifest lists them) and every
/// node, by prefix.
#[derive(Debug, Default)]
pub struct ShardTree {
    pub roots: Vec<String>,
    pub shards: Vec<Shard>,
    /// How many of the nodes were carried on from the previous build's
    /// trie, as they were or updated.
    pub carried: usize,
}

/// The models' order by downloads: `position[rank]` is a model's place in
/// it (0: the most downloaded), `rank[position]` the model at a place.
pub struct Popularity {
    pub position: Vec<u32>,
    pub rank: Vec<u32>,
}

impl Popularity {
    /// From the ranks in order of downloads.
    pub fn of(by_downloads: Vec<u32>) -> Popularity {
        let mut position = vec![0u32; by_downloads.len()];
        for (place, &rank) in by_downloads.iter().enumerate() {
            position[rank as usize] = place as u32;
        }
        Popularity { position, rank: by_downloads }
    }
}

/// Cuts `index` into shards of at most `cap` models each, carrying on the
/// nodes of `carried` where it can.
pub fn build_shards(index: &WordIndex, cap: usize, popularity: &Popularity, carried: Option<&CarriedTrie>) -> ShardTree {
    let groups = child_groups(index, 0..index.len(), 0);
    let roots = groups.iter().map(|g| g.prefix(index).to_owned()).collect();
    let build = Build { index, cap, popularity, carried, carried_nodes: AtomicUsize::new(0) };
    let mut shards: Vec<Shard> = groups.into_par_iter().flat_map_iter(|g| build.node(g.words, g.prefix_len)).collect();
    shards.sort_unstable_by(|a, b| a.prefix.cmp(&b.prefix));
    ShardTree { roots, shards, carried: build.carried_nodes.into_inner() }
}

/// Words that share their next byte after a node's prefix: a child node.
struct Group {
    words: Range<usize>,
    /// How many bytes all of them share (at least one more than the parent's).
    prefix_len: usize,
}

impl Group {
    fn prefix<'a>(&self, index: &'a WordIndex) -> &'a str {
        &index.word(self.words.start)[..self.prefix_len]
    }
}

/// The groups of `range` (all sharing a prefix of `depth` bytes) by their
/// next byte. A word that ends at `depth` is in no group.
fn child_groups(index: &WordIndex, range: Range<usize>, depth: usize) -> Vec<Group> {
    let word = |i: usize| index.word(i).as_bytes();
    let mut groups = Vec::new();
    let mut start = range.start;
    while start < range.end && word(start).len() <= depth {
        start += 1;
    }
    while start < range.end {
        let byte = word(start)[depth];
        // Words are sorted, so the group is contiguous; find its end.
        let end = first_where(start..range.end, |i| word(i).get(depth) != Some(&byte));
        let (first, last) = (word(start), word(end - 1));
        let shared = first.iter().zip(last).take_while(|(a, b)| a == b).count();
        groups.push(Group { words: start..end, prefix_len: shared });
        start = end;
    }
    groups
}

static NEXT_MARK: AtomicU32 = AtomicU32::new(1);

thread_local! {
    /// Per model, the mark of the last node that counted it.
    static MARKS: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
}

/// What building a node needs.
struct Build<'a> {
    index: &'a WordIndex,
    cap: usize,
    popularity: &'a Popularity,
    carried: Option<&'a CarriedTrie<'a>>,
    carried_nodes: AtomicUsize,
}

impl Build<'_> {
    /// The node for the words `range`, which share `depth` bytes, and every node below it.
    fn node(&self, range: Range<usize>, depth: usize) -> Vec<Shard> {
        let index = self.index;
        let prefix = index.word(range.start)[..depth].to_owned();
        let then = self.carried.and_then(|carried| Some((carried, carried.find(&prefix)?)));
        if let Some(subtree) = then.and_then(|(carried, node)| carried.subtree(node)) {
            self.carried_nodes.fetch_add(subtree.len(), Ordering::Relaxed);
            return subtree;
        }
        let (count, entries) = match then.and_then(|(carried, node)| carried.updated(node, self.cap, self.popularity)) {
            Some(updated) => {
                self.carried_nodes.fetch_add(1, Ordering::Relaxed);
                (updated.count, updated.entries)
            }
            None => self.cut(range.clone()),
        };
        if count as usize <= self.cap {
            return vec![Shard { prefix, count, complete: true, children: Vec::new(), entries, key: None }];
        }
        let groups = child_groups(index, range, depth);
        let children: Vec<String> = groups.iter().map(|g| g.prefix(index).to_owned()).collect();
        let mut below: Vec<Shard> = groups.into_par_iter().flat_map_iter(|g| self.node(g.words, g.prefix_len)).collect();
        below.push(Shard { prefix, count, complete: false, children, entries, key: None });
        below
    }

    /// How many distinct models the words `range` have, from their
    /// postings, and which: all of them, by name, if they fit in a shard,
    /// else the most downloaded, most first.
    fn cut(&self, range: Range<usize>) -> (u32, Vec<u32>) {
        let (count, top) = most_downloaded(self.index, range, self.cap, &self.popularity.position);
        let mut entries: Vec<u32> = top.into_iter().map(|place| self.popularity.rank[place as usize]).collect();
        if count as usize <= self.cap {
            entries.sort_unstable();
        }
        (count, entries)
    }
}

/// How many distinct models the words of `range` have, and the places (in
/// `position`, by downloads) of the `cap` most downloaded, ascending.
fn most_downloaded(index: &WordIndex, range: Range<usize>, cap: usize, position: &[u32]) -> (u32, Vec<u32>) {
    let mark = NEXT_MARK.fetch_add(1, Ordering::Relaxed);
    MARKS.with(|marks| {
        let mut marks = marks.borrow_mut();
        if marks.len() < index.models() {
            marks.resize(index.models(), 0);
        }
        let mut count = 0u32;
        let mut heap: BinaryHeap<u32> = BinaryHeap::with_capacity(cap + 1);
        for &rank in index.postings(range) {
            let seen = &mut marks[rank as usize];
            if *seen == mark {
                continue;
            }
            *seen = mark;
            count += 1;
            let place = position[rank as usize];
            if heap.len() < cap {
                heap.push(place);
            } else if heap.peek().is_some_and(|top| place < *top) {
                heap.pop();
                heap.push(place);
            }
        }
        (count, heap.into_sorted_vec())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use foldhash::HashMap;
    use modelpages_record::ModelSummary;
    use crate::pages::listings::search::words::model_words;

    fn summary(id: &str, tags: &[&str]) -> ModelSummary {
        ModelSummary {
            id: id.into(),
            url: String::new(),
            task: None,
            library: None,
            downloads: None,
            likes: None,
            tags: tags.iter().collect(),
            ..ModelSummary::default()
        }
    }

    /// The models (ranks) whose words start with `prefix`, by brute force.
    fn matching(models: &[ModelSummary], prefix: &str) -> Vec<u32> {
        (0..models.len() as u32).filter(|&r| model_words(&models[r as usize]).iter().any(|w| w.starts_with(prefix))).collect()
    }

    fn corpus(n: usize) -> Vec<ModelSummary> {
        let vocabulary = ["llama", "llava", "lora", "bert", "gguf", "en", "fr", "mit", "transformers"];
        (0..n)
            .map(|i| {
                let tags: Vec<&str> = vocabulary.iter().enumerate().filter(|(j, _)| (i * 7 + j * 3) % 5 < 2).map(|(_, w)| *w).collect();
                summary(&format!("org{}/model-{i}", i % 13), &tags)
            })
            .collect()
    }

    #[test]
    fn every_shard_holds_the_most_downloaded_matches_and_leaves_hold_all() {
        let models = corpus(600);
        let refs: Vec<&ModelSummary> = models.iter().collect();
        let index = WordIndex::build(&refs);
        // Downloads in the reverse of name order: the tops are the last by name.
        let popularity = Popularity::of((0..models.len() as u32).rev().collect());
        let tree = build_shards(&index, 25, &popularity, None);
        assert!(tree.shards.len() > 20, "{} shards", tree.shards.len());
        let by_prefix: HashMap<&str, &Shard> = tree.shards.iter().map(|s| (s.prefix.as_str(), s)).collect();
        for shard in &tree.shards {
            let want = matching(&models, &shard.prefix);
            assert_eq!(shard.count as usize, want.len(), "{}", shard.prefix);
            assert_eq!(shard.complete, want.len() <= 25, "{}", shard.prefix);
            if shard.complete {
                assert_eq!(shard.entries, want, "{}: every match, by name", shard.prefix);
            } else {
                let top: Vec<u32> = want.iter().rev().take(25).copied().collect();
                assert_eq!(shard.entries, top, "{}: the most downloaded first", shard.prefix);
            }
            for child in &shard.children {
                assert!(child.starts_with(&shard.prefix) && child.len() > shard.prefix.len(), "{child} under {}", shard.prefix);
                assert!(by_prefix.contains_key(child.as_str()), "child {child} has a shard");
            }
            // The children cover every word longer than the prefix.
            if !shard.complete {
                let longer: Vec<String> = models.iter().flat_map(model_words).filter(|w| w.starts_with(&shard.prefix) && w.len() > shard.prefix.len()).collect();
                assert!(longer.iter().all(|w| shard.children.iter().any(|c| w.starts_with(c.as_str()))), "{}", shard.prefix);
            }
        }
        // Every word reaches a node from the roots.
        for word in models.iter().flat_map(model_words) {
            let mut hops = tree.roots.clone();
            let node = loop {
                let next = hops.iter().find(|p| word.starts_with(p.as_str())).unwrap_or_else(|| panic!("{word} lost"));
                let node = by_prefix[next.as_str()];
                if node.complete || node.prefix == word || node.children.is_empty() {
                    break node;
                }
                hops = node.children.clone();
            };
            assert!(word.starts_with(&node.prefix));
        }
        // A word on every model stays one capped shard without children.
        let one = summary("a/b", &["shared"]);
        let many: Vec<&ModelSummary> = std::iter::repeat_n(&one, 30).collect();
        let tree = build_shards(&WordIndex::build(&many), 10, &Popularity::of((0..30).collect()), None);
        let shared = tree.shards.iter().find(|s| s.prefix == "shared").expect("a shard for the word");
        assert_eq!((shared.count, shared.complete, shared.children.len(), shared.entries.len()), (30, false, 0, 10));
    }

    #[test]
    fn the_same_models_give_the_same_shards() {
        let models = corpus(300);
        let refs: Vec<&ModelSummary> = models.iter().collect();
        let popularity = || Popularity::of((0..refs.len() as u32).collect());
        let a = build_shards(&WordIndex::build(&refs), 10, &popularity(), None);
        let b = build_shards(&WordIndex::build(&refs), 10, &popularity(), None);
        assert_eq!(a.roots, b.roots);
        assert_eq!(a.shards, b.shards);
    }
}
