//! Stage 1 of a build: find and load every model, in parallel, and apply the
//! checks that need the whole corpus (layout collisions). With the previous
//! build's manifest, models whose files did not change are not parsed again.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use modelpages_record::{discover, parse_model, read_model_files, LoadedModel, ModelSource, RecordError};
use rayon::prelude::*;

use crate::manifest::{input_hash, Manifest, ModelEntry};

/// Top-level names the site itself writes; a namespace with one of these
/// names would overwrite site files or be overwritten by them.
pub const RESERVED_NAMESPACES: &[&str] =
    &["api", "assets", "libraries", "tasks", "index.html", "404.html", "sitemap.xml", "robots.txt", "search-index.json"];

/// The models to render (sorted by id, each with its input hash), the models
/// the previous build already rendered from the same files, and the errors of
/// the models that could not be used (sorted by path).
#[derive(Debug, Default)]
pub struct Corpus {
    pub models: Vec<LoadedModel>,
    /// Input hashes of `models`, in the same order.
    pub inputs: Vec<String>,
    pub reused: Vec<ReusedModel>,
    pub errors: Vec<RecordError>,
}

/// A model whose files are unchanged since the build in the manifest.
#[derive(Debug, Clone)]
pub struct ReusedModel {
    pub id: String,
    pub source: ModelSource,
    pub entry: ModelEntry,
}

enum Loaded {
    Fresh(Box<LoadedModel>, String),
    Reused(Box<ReusedModel>),
}

/// Loads every model under `models_dir`. Only a missing or unreadable models
/// directory is an error; a bad model is recorded and the rest still load.
pub fn load_corpus(models_dir: &Path) -> Result<Corpus, RecordError> {
    load_corpus_reusing(models_dir, None)
}

/// Like [`load_corpus`]; models whose files hash as in `previous` are reused
/// without parsing.
pub fn load_corpus_reusing(models_dir: &Path, previous: Option<&Manifest>) -> Result<Corpus, RecordError> {
    let found = discover(models_dir)?;
    let mut errors = found.errors;
    let (loaded, failed): (Vec<Loaded>, Vec<RecordError>) =
        found.sources.into_par_iter().map(|source| load_one(source, previous)).partition_map(|r| match r {
            Ok(model) => rayon::iter::Either::Left(model),
            Err(err) => rayon::iter::Either::Right(err),
        });
    errors.extend(failed);
    let mut corpus = Corpus::default();
    let mut fresh: Vec<(LoadedModel, String)> = Vec::new();
    let mut kept = reject_layout_clashes(loaded, &mut errors);
    kept.sort_by(|a, b| id_of(a).cmp(id_of(b)));
    for item in kept {
        match item {
            Loaded::Fresh(model, input) => fresh.push((*model, input)),
            Loaded::Reused(reused) => corpus.reused.push(*reused),
        }
    }
    (corpus.models, corpus.inputs) = fresh.into_iter().unzip();
    errors.sort_by(|a, b| a.path().cmp(b.path()));
    corpus.errors = errors;
    Ok(corpus)
}

fn load_one(source: ModelSource, previous: Option<&Manifest>) -> Result<Loaded, RecordError> {
    let files = read_model_files(&source)?;
    let input = input_hash(&files.record, files.card.as_deref());
    if let Some(entry) = previous.and_then(|m| m.models.get(&source.folder_id)) {
        if entry.input == input {
            return Ok(Loaded::Reused(Box::new(ReusedModel { id: source.folder_id.clone(), source, entry: entry.clone() })));
        }
    }
    Ok(Loaded::Fresh(Box::new(parse_model(&source, files)?), input))
}

fn id_of(item: &Loaded) -> &str {
    match item {
        Loaded::Fresh(model, _) => model.id.as_str(),
        Loaded::Reused(reused) => &reused.id,
    }
}

fn record_path(item: &Loaded) -> PathBuf {
    match item {
        Loaded::Fresh(model, _) => model.source.record_path(),
        Loaded::Reused(reused) => reused.source.record_path(),
    }
}

/// Drops models whose pages would clash with site files, or with another
/// model's page on a case-insensitive file system (the first id in sort order
/// keeps its page).
fn reject_layout_clashes(mut items: Vec<Loaded>, errors: &mut Vec<RecordError>) -> Vec<Loaded> {
    items.sort_by(|a, b| id_of(a).cmp(id_of(b)));
    let mut seen: HashMap<String, String> = HashMap::with_capacity(items.len());
    let mut kept = Vec::with_capacity(items.len());
    for item in items {
        let id = id_of(&item).to_owned();
        let namespace = id.split('/').next().unwrap_or_default();
        if RESERVED_NAMESPACES.iter().any(|r| r.eq_ignore_ascii_case(namespace)) {
            errors.push(RecordError::Invalid {
                path: record_path(&item),
                message: format!("namespace {namespace:?} is reserved for the site's own pages"),
            });
            continue;
        }
        let folded = id.to_ascii_lowercase();
        if let Some(first) = seen.get(&folded) {
            errors.push(RecordError::Invalid {
                path: record_path(&item),
                message: format!("id {id:?} differs from {first:?} only by case; their pages would collide"),
            });
            continue;
        }
        seen.insert(folded, id);
        kept.push(item);
    }
    kept
}
