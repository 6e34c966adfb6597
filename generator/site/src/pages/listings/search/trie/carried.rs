//! The trie carried on from the previous build's, so that a build which
//! changes a few models cuts again only the nodes of their words.
//!
//! What a node holds (its count, its models or its top, its children and
//! every node below) follows from the models of the words starting with its
//! prefix and from their order by downloads. A model kept from the previous
//! build keeps its words and its row, downloads included, and its rank
//! moves with the others' (by name), so the order among kept models, by
//! name and by downloads, is the order they had. Hence, for a node the
//! previous build had:
//! - if no word starting with its prefix changed ([`WordChanges`]), the
//!   node and every node below it are the previous build's, ranks moved,
//!   and so are their files' keys ([`CarriedTrie::subtree`]);
//! - if some did, its count is the previous count less its models not kept,
//!   plus the models tokenised afresh that have such a word; a complete
//!   node's models are its kept models and those; a top is the most
//!   downloaded of its kept top and those, unless a model of the top is not
//!   kept, when the node is cut again from its postings
//!   ([`CarriedTrie::updated`]). Its children are then found again, each
//!   carried on, updated or cut in turn.
//!
//! A node the previous build did not have is cut from its postings. An
//! added model so costs the few nodes along its words' prefixes, not a
//! mark per model per node of the whole trie.
//!
//! Saved ([`ShardTree::save_to`]): the cap the nodes were cut to, the
//! nodes' prefixes front-coded in byte order, then each node's count,
//! whether it is complete, its children (each as how far after it it
//! comes), its ranks (a complete node's as gaps) and its file's key if it
//! was made. Read back, prefixes
//! must come in byte order, each once and made of what words are made of;
//! a child must come after its parent, start with its prefix and have no
//! other parent, so that the nodes form a forest and no walk of them
//! repeats; ranks must be below the number of models saved; a complete
//! node must hold all its models, a top at most its count.

use super::{Popularity, Shard, ShardTree};
use crate::pages::listings::compact::{put, put_front_coded, Reader};
use crate::pages::listings::search::word_index::{first_where, WordChanges, NOT_KEPT};
use crate::pages::listings::search::words::MAX_WORD;
use crate::store::manifest::ListingKey;

/// Bytes of a key.
const KEY: usize = std::mem::size_of::<ListingKey>();

impl ShardTree {
    /// Appends this trie, cut to `cap`, in its saved form.
    pub fn save_to(&self, cap: usize, out: &mut Vec<u8>) {
        let shards = &self.shards;
        put(out, cap);
        put(out, shards.len());
        put_front_coded(out, shards.iter().map(|s| s.prefix.as_bytes()));
        let place = |prefix: &str| shards.binary_search_by(|s| s.prefix.as_str().cmp(prefix)).expect("every child is a node");
        for (at, shard) in shards.iter().enumerate() {
            put(out, shard.count as usize);
            put(out, usize::from(shard.complete));
            put(out, shard.children.len());
            for child in &shard.children {
                put(out, place(child) - at);
            }
            put(out, shard.entries.len());
            let mut next = 0;
            for &rank in &shard.entries {
                if shard.complete {
                    put(out, (rank - next) as usize);
                    next = rank + 1;
                } else {
                    put(out, rank as usize);
                }
            }
            put(out, usize::from(shard.key.is_some()));
            out.extend(shard.key.iter().flatten());
        }
    }
}

/// The previous build's trie read back, with what moved since.
pub struct CarriedTrie<'m> {
    /// The nodes' prefixes, sorted, back to back: node `i`'s ends at `ends[i]`.
    prefixes: String,
    ends: Vec<usize>,
    nodes: Vec<SavedNode>,
    /// Every node's children (by place), node after node.
    children: Vec<u32>,
    /// Every node's ranks (then), node after node.
    ranks: Vec<u32>,
    /// Where each model then is now (see `pages::listings::carried`).
    moved: &'m [u32],
    changes: &'m WordChanges,
}

/// A saved node: its count, whether complete, and where its children and
/// ranks end (they start where the previous node's end).
struct SavedNode {
    count: u32,
    complete: bool,
    children_end: u32,
    ranks_end: u32,
    key: Option<ListingKey>,
}

/// A node as updated: its count, and its models (all of them, by name, if
/// they fit in a shard, else the most downloaded, most first).
pub struct NodeModels {
    pub count: u32,
    pub entries: Vec<u32>,
}

impl<'m> CarriedTrie<'m> {
    /// `saved`, cut to `cap`, read back: `moved[rank]` is where the
    /// previous build's model `rank` is now, if it is kept; `changes` what
    /// the word index carried on found changed. `None` when `saved` does
    /// not read back or was cut to another cap.
    pub fn read(saved: &[u8], cap: usize, moved: &'m [u32], changes: &'m WordChanges) -> Option<CarriedTrie<'m>> {
        let mut reader = Reader::new(saved);
        if reader.num()? != cap {
            return None;
        }
        let count = reader.count()?;
        let (prefixes, ends) = reader.front_coded(count, MAX_WORD)?;
        let prefixes = String::from_utf8(prefixes).ok()?;
        let prefix = |i: usize| &prefixes[if i == 0 { 0 } else { ends[i - 1] }..ends[i]];
        let word_made = |p: &str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
        if !(0..count).all(|i| word_made(prefix(i))) || (1..count).any(|i| prefix(i - 1) >= prefix(i)) {
            return None;
        }
        let mut has_parent = vec![false; count];
        let (mut nodes, mut children, mut ranks) = (Vec::with_capacity(count), Vec::new(), Vec::new());
        for at in 0..count {
            let node_count = u32::try_from(reader.num()?).ok()?;
            let complete = flag(&mut reader)?;
            for _ in 0..reader.count()? {
                let child = at.checked_add(reader.num()?)?;
                if child <= at || child >= count || has_parent[child] || !prefix(child).starts_with(prefix(at)) {
                    return None;
                }
                has_parent[child] = true;
                children.push(child as u32);
            }
            let listed = reader.count()?;
            let mut next = 0usize;
            for _ in 0..listed {
                let rank = if complete { next.checked_add(reader.num()?)? } else { reader.num()? };
                if rank >= moved.len() {
                    return None;
                }
                ranks.push(rank as u32);
                next = rank + 1;
            }
            if listed > node_count as usize || (complete && listed != node_count as usize) {
                return None;
            }
            let key = if flag(&mut reader)? { Some(reader.take(KEY)?.try_into().ok()?) } else { None };
            nodes.push(SavedNode { count: node_count, complete, children_end: children.len() as u32, ranks_end: ranks.len() as u32, key });
        }
        reader.is_done().then_some(CarriedTrie { prefixes, ends, nodes, children, ranks, moved, changes })
    }

    fn prefix(&self, node: usize) -> &str {
        &self.prefixes[if node == 0 { 0 } else { self.ends[node - 1] }..self.ends[node]]
    }

    fn children_of(&self, node: usize) -> &[u32] {
        let start = if node == 0 { 0 } else { self.nodes[node - 1].children_end };
        &self.children[start as usize..self.nodes[node].children_end as usize]
    }

    fn ranks_of(&self, node: usize) -> &[u32] {
        let start = if node == 0 { 0 } else { self.nodes[node - 1].ranks_end };
        &self.ranks[start as usize..self.nodes[node].ranks_end as usize]
    }

    /// The previous build's node `prefix`, if it had one.
    pub fn find(&self, prefix: &str) -> Option<usize> {
        let at = first_where(0..self.nodes.len(), |i| self.prefix(i) >= prefix);
        (at < self.nodes.len() && self.prefix(at) == prefix).then_some(at)
    }

    /// The node `node` (the previous build's) and every node below it,
    /// their ranks moved, if no word starting with its prefix changed.
    pub fn subtree(&self, node: usize) -> Option<Vec<Shard>> {
        if !self.changes.unchanged(self.prefix(node)) {
            return None;
        }
        let mut shards = Vec::new();
        let mut next = vec![node];
        while let Some(node) = next.pop() {
            let saved = &self.nodes[node];
            let entries = self.moved_ranks(node)?;
            let children = self.children_of(node);
            next.extend(children.iter().map(|&c| c as usize));
            shards.push(Shard {
                prefix: self.prefix(node).to_owned(),
                count: saved.count,
                complete: saved.complete,
                children: children.iter().map(|&c| self.prefix(c as usize).to_owned()).collect(),
                entries,
                key: saved.key,
            });
        }
        Some(shards)
    }

    /// What the node `node` (the previous build's) holds now that some of
    /// its words changed, from what it held, if that tells: not when a
    /// model of its top is not kept, nor when a top now fits in `cap`.
    pub fn updated(&self, node: usize, cap: usize, popularity: &Popularity) -> Option<NodeModels> {
        let saved = &self.nodes[node];
        let then = self.ranks_of(node);
        let kept: Vec<u32> = then.iter().map(|&rank| self.moved[rank as usize]).filter(|&now| now != NOT_KEPT).collect();
        if !saved.complete && kept.len() < then.len() {
            return None;
        }
        let prefix = self.prefix(node);
        let dropped = self.changes.dropped_under(prefix);
        let found = self.changes.found_under(prefix);
        let count = (saved.count as usize).checked_sub(dropped.len())? + found.len();
        if !saved.complete && count <= cap {
            return None;
        }
        // Kept models and those tokenised afresh are apart: a model is one or the other.
        let mut members = kept;
        members.extend_from_slice(&found);
        if saved.complete && members.len() != count {
            return None;
        }
        if count <= cap {
            members.sort_unstable();
            return Some(NodeModels { count: count as u32, entries: members });
        }
        let place = |rank: &u32| popularity.position[*rank as usize];
        members.sort_unstable_by_key(place);
        members.truncate(cap);
        Some(NodeModels { count: u32::try_from(count).ok()?, entries: members })
    }

    /// The ranks (now) of the node `node`'s models; `None` if one is not
    /// kept.
    fn moved_ranks(&self, node: usize) -> Option<Vec<u32>> {
        self.ranks_of(node).iter().map(|&rank| Some(self.moved[rank as usize]).filter(|&now| now != NOT_KEPT)).collect()
    }
}

/// A saved yes (1) or no (0).
fn flag(reader: &mut Reader) -> Option<bool> {
    match reader.num()? {
        0 => Some(false),
        1 => Some(true),
        _ => None,
    }
}
