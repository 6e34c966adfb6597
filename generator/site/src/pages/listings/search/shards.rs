//! The files of the word trie ([`super::trie`]).
//!
//! A leaf, `search/words/<first letter>/<prefix>.json`, lists every model
//! with a word starting with `prefix`, by name, without figures:
//!
//! ```json
//! {"prefix": "llava", "complete": true, "strings": ["image-text-to-text", "transformers", "gguf"],
//!  "models": [["ns/name", task, library, [words], facets], ...]}
//! ```
//!
//! A larger node, `search/top/<first letter>/<prefix>.json`, names about
//! how many models it stands for (two significant digits), its longer
//! prefixes (each with whether it is a node too, so the island knows which
//! file to fetch) and its most downloaded models, with their figures:
//!
//! ```json
//! {"prefix": "lla", "complete": false, "about": 12000, "children": [["llam", true], ["llav", false]],
//!  "strings": [...], "models": [["ns/name", downloads, likes, task, library, [words], facets], ...]}
//! ```
//!
//! So the word files hold no downloads and stay as they are while the
//! downloads move; only the nodes' files, the tops, follow them, and a walk
//! down the trie is still one file a hop. Task and library are indexes into
//! `strings` (-1 for none); `words` are indexes of the model's words that
//! do not come from its id (the island takes those from the id itself), so
//! the island can check every word of a query against a model it found by one;
//! `facets` as in the listings (see `lists`), so it can filter by them too.

use std::borrow::Cow;

use modelpages_record::page_text;
use modelpages_record::ModelSummary;
use serde::Serialize;

use super::trie::Shard;
use super::words::{model_words, words};
use crate::pages::listings::file::{updated_day, KeyHasher, ListingFile};
use crate::store::manifest::ListingKey;
use crate::pages::listings::groups::Groups;

/// Where the file of the node `prefix` is, relative to the site root: a
/// leaf's word file, or (`capped`) a larger node's top.
pub fn shard_path(prefix: &str, capped: bool) -> String {
    prefixed_path(if capped { "top" } else { "words" }, prefix)
}

fn prefixed_path(kind: &str, prefix: &str) -> String {
    let first = &prefix[..prefix.chars().next().map_or(0, char::len_utf8)];
    format!("search/{kind}/{first}/{prefix}.json")
}

/// Strings shared by the rows of one file, each written once. The island
/// shows them (a task or library it has no label for) as text, so they are
/// written as a page would show them (see `page_text`).
#[derive(Default)]
pub struct StringTable<'a> {
    pub strings: Vec<Cow<'a, str>>,
    index: std::collections::HashMap<&'a str, i64>,
}

/// A row's facets: its languages, licences and providers (indexes into
/// `strings`), its parameter class, memory class and the day of its
/// `lastModified` (-1 for none).
pub type FacetCodes = (Vec<i64>, Vec<i64>, Vec<i64>, i64, i64, i64);

impl<'a> StringTable<'a> {
    /// The facets of `summary`, their strings added to the table.
    pub fn facets(&mut self, summary: &'a ModelSummary) -> FacetCodes {
        let facets = &summary.facets;
        let mut list = |values: &'a modelpages_record::TagList| values.iter().map(|v| self.index(Some(v))).collect::<Vec<i64>>();
        let (languages, licenses, providers) = (list(&facets.languages), list(&facets.licenses), list(&facets.providers));
        let class = |c: Option<u8>| c.map_or(-1, i64::from);
        (languages, licenses, providers, class(facets.params), class(facets.fits), updated_day(summary).unwrap_or(-1))
    }

    pub fn index(&mut self, s: Option<&'a str>) -> i64 {
        let Some(s) = s else { return -1 };
        *self.index.entry(s).or_insert_with(|| {
            self.strings.push(page_text(s));
            (self.strings.len() - 1) as i64
        })
    }
}

/// A leaf's model: id, task, library, the indexes of its other words, its facets.
type LeafRow<'a> = (&'a str, i64, i64, Vec<i64>, FacetCodes);
/// A top's model: id, downloads, likes, task, library, other words, facets.
type TopRow<'a> = (&'a str, u64, u64, i64, i64, Vec<i64>, FacetCodes);

#[derive(Serialize)]
struct LeafDoc<'a> {
    prefix: &'a str,
    complete: bool,
    strings: Vec<Cow<'a, str>>,
    models: Vec<LeafRow<'a>>,
}

#[derive(Serialize)]
struct TopDoc<'a> {
    prefix: &'a str,
    complete: bool,
    about: u64,
    children: Vec<(&'a str, bool)>,
    strings: Vec<Cow<'a, str>>,
    models: Vec<TopRow<'a>>,
}

/// `n` to two significant digits: 12,345 is 12,000.
pub fn about(n: u64) -> u64 {
    if n < 100 {
        return n;
    }
    let unit = 10u64.pow(n.ilog10() - 1);
    (n + unit / 2) / unit * unit
}

/// The key of the file of one node (see [`shard_file`]): what it lists of
/// each model, and a top's count and children. `capped` says which of
/// the prefixes are larger nodes.
pub fn shard_key(shard: &Shard, models: &[&ModelSummary], groups: &Groups<'_>, capped: &(dyn Fn(&str) -> bool + Sync)) -> ListingKey {
    if shard.complete {
        let mut key = KeyHasher::new("search leaf");
        key.str(&shard.prefix);
        groups.rows_key(&mut key, &shard.entries);
        return key.finish();
    }
    let mut key = KeyHasher::new("search top");
    key.str(&shard.prefix).num(about(shard.count.into()));
    for child in &shard.children {
        key.str(child).num(u64::from(capped(child)));
    }
    groups.ranked_key(&mut key, models, &shard.entries);
    key.finish()
}

/// The file of one node: a leaf's word file, or a larger node's top,
/// under its key (which [`shard_key`] makes, if the node has none).
pub fn shard_file<'a>(
    shard: &'a Shard,
    models: &'a [&'a ModelSummary],
    groups: &Groups<'_>,
    capped: &'a (dyn Fn(&str) -> bool + Sync),
) -> ListingFile<'a> {
    let key = shard.key.unwrap_or_else(|| shard_key(shard, models, groups, capped));
    if shard.complete {
        return ListingFile::lazy(shard_path(&shard.prefix, false), key, move || Ok(rows_json(shard, models, None)));
    }
    ListingFile::lazy(shard_path(&shard.prefix, true), key, move || {
        let children = shard.children.iter().map(|c| (c.as_str(), capped(c))).collect();
        Ok(rows_json(shard, models, Some((about(shard.count.into()), children))))
    })
}

/// A leaf's word file, or (with its `about` count and its children) a
/// node's top: each model's id, task, library and the indexes of its words
/// that do not come from its id, and in a top its downloads and likes.
fn rows_json<'a>(shard: &'a Shard, models: &[&'a ModelSummary], top: Option<(u64, Vec<(&'a str, bool)>)>) -> Vec<u8> {
    let all_words: Vec<(usize, Vec<String>)> = shard
        .entries
        .iter()
        .map(|&r| {
            let summary = models[r as usize];
            (words(&summary.id).collect::<std::collections::HashSet<_>>().len(), model_words(summary))
        })
        .collect();
    let mut table = StringTable::default();
    let mut leaf_rows = Vec::new();
    let mut top_rows = Vec::new();
    for (&r, (from_id, words)) in shard.entries.iter().zip(&all_words) {
        let summary = models[r as usize];
        let task = table.index(summary.task.as_deref());
        let library = table.index(summary.library.as_deref());
        let extra: Vec<i64> = words[(*from_id).min(words.len())..].iter().map(|w| table.index(Some(w.as_str()))).collect();
        let facets = table.facets(summary);
        if top.is_some() {
            top_rows.push((summary.id.as_str(), summary.downloads.unwrap_or(0), summary.likes.unwrap_or(0), task, library, extra, facets));
        } else {
            leaf_rows.push((summary.id.as_str(), task, library, extra, facets));
        }
    }
    let prefix = &shard.prefix;
    let bytes = match top {
        Some((about, children)) => {
            serde_json::to_vec(&TopDoc { prefix, complete: false, about, children, strings: table.strings, models: top_rows })
        }
        None => serde_json::to_vec(&LeafDoc { prefix, complete: true, strings: table.strings, models: leaf_rows }),
    };
    bytes.expect("shards serialise")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_rounded_to_two_digits() {
        let rounded: Vec<u64> = [0, 7, 99, 100, 149, 12_345, 995_000, 1_000_000].into_iter().map(about).collect();
        assert_eq!(rounded, [0, 7, 99, 100, 150, 12_000, 1_000_000, 1_000_000]);
    }
}
