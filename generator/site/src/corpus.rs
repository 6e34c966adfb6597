//! Loading a whole corpus (`modelpages check`) and the checks that need every
//! id at once (layout collisions), which builds share.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use modelpages_record::{discover, parse_model, read_model_files, LoadedModel, RecordError};
use rayon::prelude::*;

/// Top-level names the site itself writes; a namespace with one of these
/// names would overwrite site files or be overwritten by them.
pub const RESERVED_NAMESPACES: &[&str] = &[
    "api", "assets", "libraries", "tasks", "namespaces", "search", "sitemaps", "index.html", "404.html", "sitemap.xml",
    "robots.txt",
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
        sources.into_par_iter().map(|source| read_model_files(&source).and_then(|files| parse_model(&source, files))).partition_map(|r| match r {
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
pub fn reject_layout_clashes<T>(
    mut items: Vec<T>,
    id_of: impl Fn(&T) -> &str,
    path_of: impl Fn(&T) -> PathBuf,
    errors: &mut Vec<RecordError>,
) -> Vec<T> {
    items.sort_by(|a, b| id_of(a).cmp(id_of(b)));
    let mut seen: HashMap<String, String> = HashMap::with_capacity(items.len());
    // Namespaces by their case-folded spelling; ids come sorted, so most
    // models' namespace is the one just seen.
    let mut namespaces: HashMap<String, String> = HashMap::new();
    let mut last_namespace = String::new();
    let mut kept = Vec::with_capacity(items.len());
    for item in items {
        let id = id_of(&item).to_owned();
        let (namespace, name) = id.split_once('/').unwrap_or((&id, ""));
        if RESERVED_NAMESPACES.iter().any(|r| r.eq_ignore_ascii_case(namespace)) {
            errors.push(RecordError::Invalid {
                path: path_of(&item),
                message: format!("namespace {namespace:?} is reserved for the site's own pages"),
            });
            continue;
        }
        if name.eq_ignore_ascii_case(RESERVED_NAME) {
            errors.push(RecordError::Invalid {
                path: path_of(&item),
                message: format!("name {name:?} is reserved for the namespace's own page"),
            });
            continue;
        }
        if namespace != last_namespace {
            let first = namespaces.entry(namespace.to_ascii_lowercase()).or_insert_with(|| namespace.to_owned());
            if first != namespace {
                errors.push(RecordError::Invalid {
                    path: path_of(&item),
                    message: format!("namespace {namespace:?} differs from {first:?} only by case; their pages would collide"),
                });
                continue;
            }
            last_namespace = namespace.to_owned();
        }
        let folded = id.to_ascii_lowercase();
        if let Some(first) = seen.get(&folded) {
            errors.push(RecordError::Invalid {
                path: path_of(&item),
                message: format!("id {id:?} differs from {first:?} only by case; their pages would collide"),
            });
            continue;
        }
        seen.insert(folded, id);
        kept.push(item);
    }
    kept
}
