//! Stage 1 of a build: find and load every model, in parallel, and apply the
//! checks that need the whole corpus (layout collisions).

use std::collections::HashMap;
use std::path::Path;

use modelpages_record::{discover, load_model, LoadedModel, RecordError};
use rayon::prelude::*;

/// Top-level names the site itself writes; a namespace with one of these
/// names would overwrite site files or be overwritten by them.
pub const RESERVED_NAMESPACES: &[&str] =
    &["api", "assets", "libraries", "tasks", "index.html", "404.html", "sitemap.xml", "robots.txt"];

/// The models that loaded, sorted by id, and the errors of those that did not,
/// sorted by path.
#[derive(Debug, Default)]
pub struct Corpus {
    pub models: Vec<LoadedModel>,
    pub errors: Vec<RecordError>,
}

/// Loads every model under `models_dir`. Only a missing or unreadable models
/// directory is an error; a bad model is recorded and the rest still load.
pub fn load_corpus(models_dir: &Path) -> Result<Corpus, RecordError> {
    let found = discover(models_dir)?;
    let mut errors = found.errors;
    let (models, failed): (Vec<_>, Vec<_>) =
        found.sources.par_iter().map(load_model).partition_map(|r| match r {
            Ok(model) => rayon::iter::Either::Left(model),
            Err(err) => rayon::iter::Either::Right(err),
        });
    errors.extend(failed);
    let mut models: Vec<LoadedModel> = models;
    models.sort_by(|a, b| a.id.cmp(&b.id));
    let models = reject_layout_clashes(models, &mut errors);
    errors.sort_by(|a, b| a.path().cmp(b.path()));
    Ok(Corpus { models, errors })
}

/// Drops models whose pages would clash with site files, or with another
/// model's page on a case-insensitive file system (the first id in sort order
/// keeps its page).
fn reject_layout_clashes(models: Vec<LoadedModel>, errors: &mut Vec<RecordError>) -> Vec<LoadedModel> {
    let mut seen: HashMap<String, String> = HashMap::with_capacity(models.len());
    let mut kept = Vec::with_capacity(models.len());
    for model in models {
        let path = model.source.record_path();
        let namespace = model.id.namespace();
        if RESERVED_NAMESPACES.iter().any(|r| r.eq_ignore_ascii_case(namespace)) {
            errors.push(RecordError::Invalid {
                path,
                message: format!("namespace {namespace:?} is reserved for the site's own pages"),
            });
            continue;
        }
        let folded = model.id.as_str().to_ascii_lowercase();
        if let Some(first) = seen.get(&folded) {
            errors.push(RecordError::Invalid {
                path,
                message: format!(
                    "id {:?} differs from {first:?} only by case; their pages would collide",
                    model.id.as_str()
                ),
            });
            continue;
        }
        seen.insert(folded, model.id.to_string());
        kept.push(model);
    }
    kept
}
