//! Loading a whole corpus (`modelpages check`) and the checks that need every
//! id at once (layout collisions), which builds share.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use modelpages_record::{discover, namespace_of, parse_model, read_record_files, LoadedModel, RecordError};
use rayon::prelude::*;

/// Top-level names the site itself writes; a namespace with one of these
/// names would overwrite site files or be overwritten by them.
pub const RESERVED_NAMESPACES: &[&str] = &[
    "api", "assets", "libraries", "tasks", "namespaces", "search", "sitemaps", "stats", "index.html", "404.html", "sitemap.xml",
    "robots.txt", "feed.xml",
];

/// A model name that would be its namespace's own page.
pub const RESERVED_NAME: &str = "index.html";

/// Every usable model (sorted by id) and the errors of the models that could
/// not be used (sorted by path).
#[derive(Debug, Default)]
pub struct Corpus {
    pub models: Vec<LoadedModel>,
    pub errors: Vec<RecordError>,
}

/// Loads every model under `models_dir`, as `modelpages check` does. Only a
/// missing or unreadable models directory is an error; a bad model is recorded
/// and the rest still load.
pub fn load_corpus(models_dir: &Path) -> Result<Corpus, RecordError> {
    let found = discover(models_dir)?;
    let mut errors = found.errors;
    let sources = reject_layout_clashes(found.sources, |s| &s.folder_id, |s| s.record_path(), &mut errors);
    let (mut models, failed): (Vec<LoadedModel>, Vec<RecordError>) =
        sources.into_par_iter().map(|source| read_record_files(&source).and_then(|files| parse_model(&source, files))).partition_map(|r| match r {
            Ok(model) => rayon::iter::Either::Left(model),
            Err(err) => rayon::iter::Either::Right(err),
        });
    errors.extend(failed);
    models.sort_by(|a, b| a.id.as_str().cmp(b.id.as_str()));
    errors.sort_by(|a, b| a.path().cmp(b.path()));
    Ok(Corpus { models, errors })
}

/// Drops models whose pages would clash with site files, with their
/// namespace's page, or with another model's page on a case-insensitive file
/// system (two ids, or two namespaces, that differ only by case: the first
/// in sort order keeps its pages). Returns the rest sorted by id.
pub fn reject_layout_clashes<T: Send>(
    mut items: Vec<T>,
    id_of: impl Fn(&T) -> &str + Sync,
    path_of: impl Fn(&T) -> PathBuf,
    errors: &mut Vec<RecordError>,
) -> Vec<T> {
    items.par_sort_unstable_by(|a, b| id_of(a).cmp(id_of(b)));
    // Why each item is rejected, if it is. Ids are borrowed, not copied:
    // at hub scale a folded copy of every id was most of this check.
    let mut rejected: Vec<Option<String>> = Vec::with_capacity(items.len());
    {
        let mut seen: HashSet<FoldedId<'_>, foldhash::fast::RandomState> =
            HashSet::with_capacity_and_hasher(items.len(), Default::default());
        // Namespaces by their case-folded spelling; ids come sorted, so most
        // models' namespace is the one just seen.
        let mut namespaces: HashMap<String, String> = HashMap::new();
        let mut last_namespace = "";
        for item in &items {
            let id = id_of(item);
            let (namespace, name) = id.split_once('/').unwrap_or((id, ""));
            let why = if RESERVED_NAMESPACES.iter().any(|r| r.eq_ignore_ascii_case(namespace)) {
                Some(format!("namespace {namespace:?} is reserved for the site's own pages"))
            } else if name.eq_ignore_ascii_case(RESERVED_NAME) {
                Some(format!("name {name:?} is reserved for the namespace's own page"))
            } else if namespace != last_namespace
                && namespaces.entry(namespace.to_ascii_lowercase()).or_insert_with(|| namespace.to_owned()) != namespace
            {
                let first = &namespaces[&namespace.to_ascii_lowercase()];
                Some(format!("namespace {namespace:?} differs from {first:?} only by case; their pages would collide"))
            } else if let Some(first) = seen.get(&FoldedId(id)) {
                Some(format!("id {id:?} differs from {:?} only by case; their pages would collide", first.0))
            } else {
                last_namespace = namespace;
                seen.insert(FoldedId(id));
                None
            };
            rejected.push(why);
        }
    }
    let mut kept = Vec::with_capacity(items.len());
    for (item, why) in items.into_iter().zip(rejected) {
        match why {
            Some(message) => errors.push(RecordError::Invalid { path: path_of(&item), message }),
            None => kept.push(item),
        }
    }
    kept
}

/// Whether the ids `added` join `known`, ids that keep the layout rules
/// among themselves (a previous build's), without [`reject_layout_clashes`]
/// dropping any id of either. The added ids are put to the rules on their
/// own; the known ones are only scanned for a twin by case of an added id
/// or of its namespace, so a million known ids are looked at once, not
/// sorted and folded.
pub fn join_without_clashes<'k>(added: &[&str], known: impl Iterator<Item = &'k str>) -> bool {
    let mut errors = Vec::new();
    if reject_layout_clashes(added.to_vec(), |id| id, |id| PathBuf::from(id), &mut errors).len() != added.len() {
        return false;
    }
    let ids: HashSet<FoldedId<'_>, foldhash::fast::RandomState> = added.iter().map(|id| FoldedId(id)).collect();
    let namespaces: HashMap<FoldedId<'_>, &str, foldhash::fast::RandomState> = added.iter().map(|id| (FoldedId(namespace_of(id)), namespace_of(id))).collect();
    let mut last_namespace = "";
    for id in known {
        if ids.contains(&FoldedId(id)) {
            return false;
        }
        let known_namespace = namespace_of(id);
        if known_namespace != last_namespace {
            if namespaces.get(&FoldedId(known_namespace)).is_some_and(|spelled| *spelled != known_namespace) {
                return false;
            }
            last_namespace = known_namespace;
        }
    }
    true
}

/// An id compared and hashed as its ASCII lower case, without making that
/// lower-case copy.
struct FoldedId<'a>(&'a str);

impl PartialEq for FoldedId<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.0.eq_ignore_ascii_case(other.0)
    }
}

impl Eq for FoldedId<'_> {}

impl std::hash::Hash for FoldedId<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        // Folded a block at a time on the stack; equal ids give equal blocks.
        let mut block = [0u8; 64];
        for part in self.0.as_bytes().chunks(block.len()) {
            for (to, from) in block.iter_mut().zip(part) {
                *to = from.to_ascii_lowercase();
            }
            state.write(&block[..part.len()]);
        }
        state.write_usize(self.0.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scan agrees with the rules put to every id at once, on ids that
    /// clash by case of the id or of the namespace, reserved names, and
    /// added ids that clash with each other.
    #[test]
    fn added_ids_join_exactly_when_the_rules_on_all_ids_keep_them_all() {
        let known = ["org/a", "org/b", "Team/x", "solo/m-1"];
        let cases: [(&[&str], bool); 11] = [
            (&["org/c"], true),
            (&["new/a", "new/b"], true),
            (&["Team/y", "solo/m-2"], true),
            (&["ORG/c"], false),
            (&["org/A"], false),
            (&["team/y"], false),
            (&["stats/x"], false),
            (&["org/index.html"], false),
            (&["new/a", "NEW/b"], false),
            (&["new/a", "new/A"], false),
            (&["SOLO/M-1"], false),
        ];
        for (added, fits) in cases {
            let mut all: Vec<&str> = known.to_vec();
            all.extend(added);
            let mut errors = Vec::new();
            let by_rules = reject_layout_clashes(all.clone(), |id| id, |id| PathBuf::from(id), &mut errors).len() == all.len();
            assert_eq!(by_rules, fits, "{added:?}: the case itself");
            assert_eq!(join_without_clashes(added, known.iter().copied()), fits, "{added:?}");
        }
    }
}
