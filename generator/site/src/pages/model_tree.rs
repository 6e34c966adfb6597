//! The model tree across the corpus, kept right by incremental builds.
//!
//! A base's page lists its derivatives, and a derivative's page links its
//! base when the base is on the site: both depend on other models. Each
//! model's manifest entry keeps the bases its record names and the hash of
//! the tree block its page was rendered with ([`block_hash`]). The build
//! renders pages with the tree of the previous build (most of the time it
//! is still right), then, with every model's entry in hand, builds the
//! corpus's [`TreeIndex`] and renders again every model whose block hash
//! differs ([`stale_models`]). So a derivative added, removed or changed
//! re-renders its base, a base added or removed re-renders its
//! derivatives, and an incremental build ends with the same bytes as a
//! full one.

use modelpages_render::{TreeBlock, TreeIndex, TreeMember};

use crate::store::manifest::{ModelEntry, ModelMap, TreeHash};

/// The hash of `block`; an empty block (most models) always hashes the same.
pub fn block_hash(block: &TreeBlock) -> TreeHash {
    if block.is_empty() {
        return [0; 16];
    }
    let bytes = serde_json::to_vec(block).expect("tree blocks serialise");
    let hash = blake3::hash(&bytes);
    hash.as_bytes()[..16].try_into().expect("16 of 32 bytes")
}

fn member<'a>(id: &'a str, entry: &'a ModelEntry) -> TreeMember<'a> {
    TreeMember { id, downloads: entry.summary.downloads.unwrap_or(0), bases: &entry.bases, listed: !entry.hidden }
}

/// The tree of `entries` (model id, entry).
pub fn tree_index<'a>(entries: impl Iterator<Item = (&'a str, &'a ModelEntry)>) -> TreeIndex {
    let members: Vec<TreeMember<'a>> = entries.map(|(id, entry)| member(id, entry)).collect();
    TreeIndex::build(&members)
}

/// The block of the model `id` in `index`.
pub fn block_of(index: &TreeIndex, id: &str, entry: &ModelEntry) -> TreeBlock {
    index.block(id, &entry.bases)
}

/// Models whose pages were rendered with another block than `index`
/// gives them, sorted by id.
pub fn stale_models(models: &ModelMap, index: &TreeIndex) -> Vec<String> {
    let mut stale: Vec<String> = models
        .iter()
        .filter(|(id, entry)| entry.tree != block_hash(&block_of(index, id, entry)))
        .map(|(id, _)| id.clone())
        .collect();
    stale.sort();
    stale
}

#[cfg(test)]
mod tests {
    use super::*;
    use modelpages_render::{BaseRef, ModelSummary, Relation};

    fn entry(downloads: u64, bases: &[&str], hidden: bool) -> Box<ModelEntry> {
        Box::new(ModelEntry {
            input: [0; 32],
            stamp: [0; 16],
            summary: ModelSummary {
                id: String::new(),
                url: String::new(),
                task: None,
                library: None,
                downloads: Some(downloads),
                likes: None,
                tags: Default::default(),
            },
            notes: Vec::new(),
            files: Vec::new(),
            card_files: Vec::new(),
            bases: bases.iter().map(|id| BaseRef { id: (*id).into(), relation: Relation::Finetune }).collect(),
            hidden,
            tree: [0; 16],
        })
    }

    #[test]
    fn adding_a_derivative_makes_its_base_and_itself_stale_only() {
        let mut models = ModelMap::default();
        models.insert("org/base".into(), entry(10, &[], false));
        models.insert("org/other".into(), entry(10, &[], false));
        assert!(stale_models(&models, &tree_index(models.iter().map(|(k, v)| (k.as_str(), &**v)))).is_empty());
        models.insert("x/ft".into(), entry(1, &["org/base"], false));
        let index = tree_index(models.iter().map(|(k, v)| (k.as_str(), &**v)));
        assert_eq!(stale_models(&models, &index), ["org/base", "x/ft"]);
        // Rendered with the new blocks: nothing is stale any more.
        for (id, e) in models.iter_mut() {
            e.tree = block_hash(&index.block(id, &e.bases));
        }
        assert!(stale_models(&models, &index).is_empty());
        // A hidden derivative is in no list: its base goes back to no block.
        models.get_mut("x/ft").unwrap().hidden = true;
        let index = tree_index(models.iter().map(|(k, v)| (k.as_str(), &**v)));
        assert_eq!(stale_models(&models, &index), ["org/base"]);
        // Downloads reorder the list: the base's block changes with them.
        models.get_mut("x/ft").unwrap().hidden = false;
        let before = block_hash(&index.block("org/base", &[]));
        models.get_mut("x/ft").unwrap().summary.downloads = Some(99);
        let after = tree_index(models.iter().map(|(k, v)| (k.as_str(), &**v)));
        assert_ne!(before, block_hash(&after.block("org/base", &[])));
    }
}
