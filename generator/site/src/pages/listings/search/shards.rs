//! The shard files of the word trie ([`super::trie`]):
//! `search/words/<first letter>/<prefix>.json`.
//!
//! ```json
//! {"prefix": "lla", "count": 1234, "complete": false, "children": ["llam", "llav"],
//!  "strings": ["text-generation", "transformers", "gguf"],
//!  "models": [["ns/name", downloads, likes, task, library, [words]], ...]}
//! ```
//!
//! `models` are the most downloaded of the `count` models with a word
//! starting with `prefix` (all of them when `complete`). Task and library
//! are indexes into `strings` (-1 for none); `words` are indexes of the
//! model's words that do not come from its id (the island takes those from
//! the id itself), so the island can check every word of a query against a
//! model it found by one.

use std::borrow::Cow;

use modelpages_record::page_text;
use modelpages_render::ModelSummary;
use serde::Serialize;

use super::trie::Shard;
use super::words::{model_words, words};
use crate::pages::listings::file::{KeyHasher, ListingFile};
use crate::pages::listings::groups::Groups;

/// Where the shard of `prefix` is, relative to the site root.
pub fn shard_path(prefix: &str) -> String {
    let first = &prefix[..prefix.chars().next().map_or(0, char::len_utf8)];
    format!("search/words/{first}/{prefix}.json")
}

/// Strings shared by the rows of one file, each written once. The island
/// shows them (a task or library it has no label for) as text, so they are
/// written as a page would show them (see `page_text`).
#[derive(Default)]
pub struct StringTable<'a> {
    pub strings: Vec<Cow<'a, str>>,
    index: std::collections::HashMap<&'a str, i64>,
}

impl<'a> StringTable<'a> {
    pub fn index(&mut self, s: Option<&'a str>) -> i64 {
        let Some(s) = s else { return -1 };
        *self.index.entry(s).or_insert_with(|| {
            self.strings.push(page_text(s));
            (self.strings.len() - 1) as i64
        })
    }
}

#[derive(Serialize)]
struct ShardDoc<'a> {
    prefix: &'a str,
    count: u32,
    complete: bool,
    children: &'a [String],
    strings: Vec<Cow<'a, str>>,
    models: Vec<(&'a str, u64, u64, i64, i64, Vec<i64>)>,
}

/// The file of one shard.
pub fn shard_file<'a>(shard: &'a Shard, models: &'a [&'a ModelSummary], groups: &Groups<'_>) -> ListingFile<'a> {
    let mut key = KeyHasher::new("shard");
    key.str(&shard.prefix).num(shard.count.into()).num(shard.complete.into()).num(shard.children.len() as u64);
    for child in &shard.children {
        key.str(child);
    }
    groups.rows_key(&mut key, &shard.entries);
    ListingFile::lazy(shard_path(&shard.prefix), key.finish(), move || Ok(shard_json(shard, models)))
}

fn shard_json(shard: &Shard, models: &[&ModelSummary]) -> Vec<u8> {
    let all_words: Vec<(usize, Vec<String>)> = shard
        .entries
        .iter()
        .map(|&r| {
            let summary = models[r as usize];
            (words(&summary.id).collect::<std::collections::HashSet<_>>().len(), model_words(summary))
        })
        .collect();
    let mut table = StringTable::default();
    let rows = shard
        .entries
        .iter()
        .zip(&all_words)
        .map(|(&r, (from_id, words))| {
            let summary = models[r as usize];
            let task = table.index(summary.task.as_deref());
            let library = table.index(summary.library.as_deref());
            let extra = words[*from_id..].iter().map(|w| table.index(Some(w.as_str()))).collect();
            (summary.id.as_str(), summary.downloads.unwrap_or(0), summary.likes.unwrap_or(0), task, library, extra)
        })
        .collect();
    let doc = ShardDoc {
        prefix: &shard.prefix,
        count: shard.count,
        complete: shard.complete,
        children: &shard.children,
        strings: table.strings,
        models: rows,
    };
    serde_json::to_vec(&doc).expect("shards serialise")
}
