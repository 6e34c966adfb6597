//! The model tree across the corpus, kept right by incremental builds.
//!
//! A base's page lists its derivatives, and a derivative's page links its
//! base when the base is on the site: both depend on other models. Each
//! model's manifest row keeps the bases its record names and the hash of
//! the tree block its page was rendered with ([`block_hash`]). The build
//! renders pages with the tree of the previous build (most of the time it
//! is still right), then, with every model's entry in hand, builds the
//! corpus's [`TreeIndex`] and renders again every model whose block hash
//! differs ([`stale_models`]). All of this reads rows only (see
//! `model_entry`): the models' whole entries stay stored. So a derivative added, removed or changed
//! re-renders its base, a base added or removed re-renders its
//! derivatives, and an incremental build ends with the same bytes as a
//! full one.
//!
//! At hub scale a one-model rebuild cannot afford the whole tree: building
//! it and checking a million blocks took longer than the rest of the
//! rebuild. So an incremental build works with parts of it. The first pass
//! needs only the blocks of the models it reads, and [`tree_for`] gathers
//! just the models those blocks show. Afterwards only models whose own
//! [`TreeInput`] changed can move another model's block, and only the
//! blocks of the models [`affected_by`] those changes need checking: a
//! model's block shows its bases (and whether each is on the site) and its
//! derivatives (with their popularity, if listed), so a change reaches the
//! model itself, the bases it names or named, and the models that name it.
//! Every other model's block is what the previous build checked.

use std::collections::{HashMap, HashSet};

use modelpages_render::{TreeBlock, TreeIndex, TreeMember};

use modelpages_record::BaseRef;

use crate::store::manifest::{Manifest, ModelEntry, ModelRow, TreeHash};
use crate::store::plan::ReadJob;

/// The hash of `block`; an empty block (most models) always hashes the same.
pub fn block_hash(block: &TreeBlock) -> TreeHash {
    if block.is_empty() {
        return [0; 16];
    }
    let bytes = serde_json::to_vec(block).expect("tree blocks serialise");
    let hash = blake3::hash(&bytes);
    hash.as_bytes()[..16].try_into().expect("16 of 32 bytes")
}

fn member<'a>(id: &'a str, row: &'a ModelRow) -> TreeMember<'a> {
    TreeMember { id, popularity: row.popularity, bases: &row.bases, listed: !row.hidden }
}

/// The tree of `rows` (model id, row).
pub fn tree_index<'a>(rows: impl Iterator<Item = (&'a str, &'a ModelRow)>) -> TreeIndex {
    let members: Vec<TreeMember<'a>> = rows.map(|(id, row)| member(id, row)).collect();
    TreeIndex::build(&members)
}

/// The block of the model `id` in `index`.
pub fn block_of(index: &TreeIndex, id: &str, row: &ModelRow) -> TreeBlock {
    index.block(id, &row.bases)
}

/// Models of `manifest` whose pages were rendered with another block than
/// `index` gives them, sorted by id.
pub fn stale_models(manifest: &Manifest, index: &TreeIndex) -> Vec<String> {
    let mut stale: Vec<String> = manifest
        .rows()
        .filter(|(id, row)| row.tree != block_hash(&block_of(index, id, row)))
        .map(|(id, _)| id.to_owned())
        .collect();
    stale.sort();
    stale
}

/// How much of the tree a build works with (see the overview).
pub enum TreeScope {
    /// All of it: a full build, or one that reads many of the models.
    Whole,
    /// The parts that the models read or removed reach: their tree inputs
    /// in the previous build (`None` for a model new to it), by id.
    Parts(Vec<(String, Option<TreeInput>)>),
}

impl TreeScope {
    /// `few`: whether the build reads and removes few of the models.
    pub fn new(few: bool, read: &[ReadJob], removed: &[(String, Box<ModelEntry>)]) -> TreeScope {
        if !few {
            return TreeScope::Whole;
        }
        let read = read.iter().map(|job| (job.source.folder_id.clone(), job.previous.as_ref().map(|e| TreeInput::of(&e.row))));
        let removed = removed.iter().map(|(id, entry)| (id.clone(), Some(TreeInput::of(&entry.row))));
        TreeScope::Parts(read.chain(removed).collect())
    }

    /// The tree the first pass renders with: the previous build's, made of
    /// the models `kept` and the previous entries of those `read`.
    pub fn first_tree(&self, kept: &Manifest, read: &[ReadJob]) -> TreeIndex {
        let previous = read.iter().filter_map(|job| Some((job.source.folder_id.as_str(), &job.previous.as_deref()?.row)));
        match self {
            TreeScope::Whole => tree_index(kept.rows().chain(previous)),
            TreeScope::Parts(_) => {
                let read_previous: HashMap<&str, &ModelRow> = previous.clone().collect();
                let ids: HashSet<&str> = read.iter().map(|job| job.source.folder_id.as_str()).collect();
                let lookup = |id| {
                    let row = kept.row(id).or_else(|| read_previous.get(id).copied());
                    row.map(|row| (id, row))
                };
                tree_for(&ids, lookup, kept.rows().chain(previous))
            }
        }
    }

    /// The models of `manifest` whose pages show another block than the
    /// tree of its models gives them, sorted by id, and a tree that gives
    /// them their right blocks.
    pub fn stale(&self, manifest: &Manifest) -> (Vec<String>, TreeIndex) {
        let TreeScope::Parts(before) = self else {
            let index = tree_index(manifest.rows());
            return (stale_models(manifest, &index), index);
        };
        let changes: Vec<TreeChange> = before
            .iter()
            .filter_map(|(id, before)| {
                let after = manifest.row(id).map(TreeInput::of);
                (after != *before).then(|| TreeChange { id: id.clone(), before: before.clone(), after })
            })
            .collect();
        let affected = affected_by(&changes, manifest);
        if affected.is_empty() {
            return (Vec::new(), TreeIndex::default());
        }
        let ids: HashSet<&str> = affected.iter().map(String::as_str).collect();
        let index = tree_for(&ids, |id| manifest.row(id).map(|row| (id, row)), manifest.rows());
        (stale_among(&affected, manifest, &index), index)
    }
}

/// What of a model the tree blocks of others depend on: whether it is
/// listed, its popularity class (derivatives are ranked by it) and its bases.
#[derive(Clone, Debug, PartialEq)]
pub struct TreeInput {
    pub listed: bool,
    pub popularity: u8,
    pub bases: Vec<BaseRef>,
}

impl TreeInput {
    pub fn of(row: &ModelRow) -> TreeInput {
        TreeInput { listed: !row.hidden, popularity: row.popularity, bases: row.bases.clone() }
    }
}

/// A model whose [`TreeInput`] is not what the previous build had: `before`
/// is `None` for a model added, `after` for one removed (or failed).
#[derive(Debug)]
pub struct TreeChange {
    pub id: String,
    pub before: Option<TreeInput>,
    pub after: Option<TreeInput>,
}

/// The part of the tree of `entries` that the blocks of `ids` show: `ids`
/// themselves and the models they name (found with `lookup`), and the
/// models that name one of them. Their blocks in it are those of the whole
/// tree. Only models that name a base are looked into: most name none.
pub fn tree_for<'a>(
    ids: &HashSet<&'a str>,
    lookup: impl Fn(&'a str) -> Option<(&'a str, &'a ModelRow)>,
    rows: impl Iterator<Item = (&'a str, &'a ModelRow)>,
) -> TreeIndex {
    let mut chosen: HashMap<&'a str, &'a ModelRow> = HashMap::new();
    for (id, row) in ids.iter().filter_map(|id| lookup(id)) {
        chosen.insert(id, row);
        chosen.extend(row.bases.iter().filter_map(|b| lookup(&b.id)));
    }
    chosen.extend(rows.filter(|(_, row)| row.bases.iter().any(|b| ids.contains(b.id.as_str()))));
    let mut members: Vec<TreeMember<'a>> = chosen.into_iter().map(|(id, entry)| member(id, entry)).collect();
    members.sort_by(|a, b| a.id.cmp(b.id));
    TreeIndex::build(&members)
}

/// The models of `models` whose blocks `changes` may have moved: the
/// changed models, every base they name or named, and every model that
/// names one of them.
pub fn affected_by(changes: &[TreeChange], manifest: &Manifest) -> HashSet<String> {
    if changes.is_empty() {
        return HashSet::new();
    }
    let changed: HashSet<&str> = changes.iter().map(|c| c.id.as_str()).collect();
    let mut affected: HashSet<String> = changed.iter().map(|id| (*id).to_owned()).collect();
    for change in changes {
        for input in change.before.iter().chain(&change.after) {
            affected.extend(input.bases.iter().map(|b| b.id.clone()));
        }
    }
    affected.extend(
        manifest.rows().filter(|(_, row)| row.bases.iter().any(|b| changed.contains(b.id.as_str()))).map(|(id, _)| id.to_owned()),
    );
    affected.retain(|id| manifest.row(id).is_some());
    affected
}

/// Those of `ids` whose pages show another block than `index` gives them,
/// sorted.
pub fn stale_among(ids: &HashSet<String>, manifest: &Manifest, index: &TreeIndex) -> Vec<String> {
    let mut stale: Vec<String> = ids
        .iter()
        .filter(|id| manifest.row(id).is_some_and(|row| row.tree != block_hash(&block_of(index, id, row))))
        .cloned()
        .collect();
    stale.sort();
    stale
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::manifest::ModelMap;
    use modelpages_record::{BaseRef, ModelSummary, Relation};

    fn entry(downloads: u64, bases: &[&str], hidden: bool) -> Box<ModelEntry> {
        let row = ModelRow {
            stamp: [0; 16],
            card_files: Vec::new(),
            bases: bases.iter().map(|id| BaseRef { id: (*id).into(), relation: Relation::Finetune }).collect(),
            hidden,
            popularity: 0,
            tree: [0; 16],
            notes: Vec::new(),
        };
        let summary = ModelSummary {
                id: String::new(),
                url: String::new(),
                task: None,
                library: None,
                downloads: Some(downloads),
                likes: None,
                tags: Default::default(),
                created: None,
                updated: None,
                filters: Default::default(),
                facets: Default::default(),
        };
        Box::new(ModelEntry::new(row, [0; 32], summary, Vec::new()))
    }

    /// A manifest holding `models`, whole.
    fn held(models: &ModelMap) -> Manifest {
        let mut manifest = Manifest::default();
        manifest.models = models.clone();
        manifest
    }

    fn rows(models: &ModelMap) -> impl Iterator<Item = (&str, &ModelRow)> {
        models.iter().map(|(k, v)| (k.as_str(), &v.row))
    }

    #[test]
    fn adding_a_derivative_makes_its_base_and_itself_stale_only() {
        let mut models = ModelMap::default();
        models.insert("org/base".into(), entry(10, &[], false));
        models.insert("org/other".into(), entry(10, &[], false));
        assert!(stale_models(&held(&models), &tree_index(rows(&models))).is_empty());
        models.insert("x/ft".into(), entry(1, &["org/base"], false));
        let index = tree_index(rows(&models));
        assert_eq!(stale_models(&held(&models), &index), ["org/base", "x/ft"]);
        // Rendered with the new blocks: nothing is stale any more.
        for (id, e) in models.iter_mut() {
            e.row.tree = block_hash(&index.block(id, &e.row.bases));
        }
        assert!(stale_models(&held(&models), &index).is_empty());
        // A hidden derivative is in no list: its base goes back to no block.
        models.get_mut("x/ft").unwrap().row.hidden = true;
        let index = tree_index(rows(&models));
        assert_eq!(stale_models(&held(&models), &index), ["org/base"]);
        // Popularity reorders the list: the base's block changes with it.
        models.get_mut("x/ft").unwrap().row.hidden = false;
        let before = block_hash(&index.block("org/base", &[]));
        models.get_mut("x/ft").unwrap().row.popularity = 9;
        let after = tree_index(rows(&models));
        assert_ne!(before, block_hash(&after.block("org/base", &[])));
    }

    /// A small random hub: ids `m0..m{n}`, some naming one or two others.
    fn random_hub(seed: &mut u64, n: usize) -> ModelMap {
        let mut models = ModelMap::default();
        for i in 0..n {
            let bases: Vec<String> = (0..next(seed) % 3).map(|_| format!("m{}", next(seed) % (n as u64 + 3))).collect();
            let bases: Vec<&str> = bases.iter().map(String::as_str).filter(|b| *b != format!("m{i}")).collect();
            models.insert(format!("m{i}"), entry(next(seed) % 50, &bases, next(seed) % 7 == 0));
        }
        settle(&mut models);
        models
    }

    fn next(seed: &mut u64) -> u64 {
        *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        *seed >> 33
    }

    /// Gives every model the block of the whole tree, as a finished build does.
    fn settle(models: &mut ModelMap) {
        let index = tree_index(rows(&models));
        let blocks: Vec<(String, TreeHash)> =
            models.iter().map(|(id, e)| (id.clone(), block_hash(&block_of(&index, id, &e.row)))).collect();
        for (id, hash) in blocks {
            models.get_mut(&id).unwrap().row.tree = hash;
        }
    }

    #[test]
    fn the_parts_of_the_tree_find_what_the_whole_tree_finds() {
        let mut seed = 7;
        for round in 0..200 {
            let mut models = random_hub(&mut seed, 5 + round % 20);
            let n = models.len() as u64;
            // A few models change: added, removed, re-ranked, hidden or re-based.
            let mut before: Vec<(String, Option<TreeInput>)> = Vec::new();
            for _ in 0..1 + next(&mut seed) % 3 {
                let id = format!("m{}", next(&mut seed) % (n + 3));
                let was = models.get(&id).map(|e| TreeInput::of(&e.row));
                if before.iter().any(|(b, _)| *b == id) {
                    continue;
                }
                before.push((id.clone(), was));
                match next(&mut seed) % 5 {
                    0 => drop(models.remove(&id)),
                    1 => drop(models.insert(id.clone(), entry(next(&mut seed) % 50, &["m1"], false))),
                    2 => models.entry(id).or_insert_with(|| entry(0, &[], false)).row.popularity = (next(&mut seed) % 5) as u8,
                    3 => models.entry(id).or_insert_with(|| entry(0, &[], false)).row.hidden ^= true,
                    _ => {
                        let base = format!("m{}", next(&mut seed) % n);
                        let e = models.entry(id.clone()).or_insert_with(|| entry(0, &[], false));
                        e.row.bases = if base == id { Vec::new() } else { entry(0, &[base.as_str()], false).row.bases.clone() };
                    }
                }
            }
            let whole = stale_models(&held(&models), &tree_index(rows(&models)));
            let (parts, index) = TreeScope::Parts(before.clone()).stale(&held(&models));
            assert_eq!(parts, whole, "round {round}: changes {before:?}");
            // The part of the tree handed back gives the stale models the whole tree's blocks.
            let full = tree_index(rows(&models));
            for id in &parts {
                let e = &models[id];
                assert_eq!(block_of(&index, id, &e.row), block_of(&full, id, &e.row), "round {round}: {id}");
            }
        }
    }

    #[test]
    fn the_part_of_the_tree_for_some_models_gives_them_their_whole_blocks() {
        let mut seed = 11;
        for round in 0..100 {
            let models = random_hub(&mut seed, 5 + round % 30);
            let full = tree_index(rows(&models));
            let ids: Vec<String> = (0..3).map(|_| format!("m{}", next(&mut seed) % models.len() as u64)).collect();
            let wanted: HashSet<&str> = ids.iter().map(String::as_str).collect();
            let lookup = |id: &str| models.get_key_value(id).map(|(k, v)| (k.as_str(), &v.row));
            let part = tree_for(&wanted, lookup, rows(&models));
            for id in &wanted {
                let e = &models[*id];
                assert_eq!(block_of(&part, id, &e.row), block_of(&full, id, &e.row), "round {round}: {id}");
            }
        }
    }
}
