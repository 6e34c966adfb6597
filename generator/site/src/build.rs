//! The build pipeline, top to bottom: load records, render pages, write the
//! site. Each stage lives in its own module and passes plain data on.

use std::path::{Path, PathBuf};
use std::time::Instant;

use modelpages_record::{LoadedModel, RecordError};
use modelpages_render::{
    render_index_page, render_model_page, render_not_found_page, CodeExample, Highlighter, ModelPage,
    ModelSummary, SiteInfo, TemplateError, Templates,
};
use modelpages_record::ModelRecord;
use modelpages_render::InferenceExample;
use modelpages_snippets::inference::{request_kind, RequestKind};
use modelpages_snippets::{Catalogue, InferenceOptions, InferenceSettings, SnippetEngine};
use rayon::prelude::*;

use crate::assets::{collect_assets, AssetError};
use crate::corpus::{load_corpus, load_corpus_reusing, Corpus, ReusedModel};
use crate::manifest::{global_hash, Manifest, ModelEntry, MANIFEST_FILE};
use modelpages_record::{parse_model, read_model_files};
use crate::libraries::{library_link, write_library_pages};
use crate::api::api_listings;
use crate::model_files::{link_unchanged_model, model_files, notebook_link, ModelFilesInput};
use crate::output::{lock_output, OutputError, Staging};
use crate::progress::Progress;
use crate::settings::SiteSettings;
use crate::search_index::search_index_json;
use crate::tasks::{write_task_pages, TaskCatalogue};

/// Models the home page lists in its HTML (the search island covers them all).
const INDEX_PAGE_MODELS: usize = 100;
use crate::sitemap::{robots_txt, sitemap_xml};

/// What to build and where.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    pub models_dir: PathBuf,
    pub out_dir: PathBuf,
    /// Templates, styles and the island bundle.
    pub site_src: PathBuf,
    /// Title, base URL, router and hub URLs (`modelpages.toml`).
    pub settings: SiteSettings,
    /// Reuse the pages of models whose files did not change since the build
    /// already in `out_dir` (when it was built by this program with the same
    /// site sources and settings).
    pub incremental: bool,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            models_dir: "models".into(),
            out_dir: "dist".into(),
            site_src: "site-src".into(),
            settings: SiteSettings::default(),
            incremental: true,
        }
    }
}

/// A build that could not produce a site at all; the previous output is kept.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error("models folder {0}")]
    Models(RecordError),
    #[error(transparent)]
    Template(#[from] TemplateError),
    #[error(transparent)]
    Asset(#[from] AssetError),
    #[error(transparent)]
    Output(#[from] OutputError),
    #[error("base URL {0:?}: {1}")]
    BaseUrl(String, &'static str),
}

/// The outcome of a build that wrote a site.
#[derive(Debug)]
pub struct BuildReport {
    pub built: usize,
    /// Models whose pages were rendered; the rest were unchanged and reused.
    pub rendered: usize,
    /// One error per model that was left out, sorted by path.
    pub errors: Vec<RecordError>,
    pub seconds: f64,
    /// What was left out of pages and why (providers that cannot serve a model).
    pub notes: Vec<String>,
    /// False when the island bundle was missing and pages have no JavaScript.
    pub has_islands: bool,
}

/// Builds the whole site into `options.out_dir`, replacing the previous site
/// only once the new one is complete.
pub fn build_site(options: &BuildOptions, progress: &dyn Progress) -> Result<BuildReport, BuildError> {
    let started = Instant::now();
    let base_url = normalize_base_url(&options.settings.base_url)?;
    let templates = Templates::load(&options.site_src.join("templates"))?;
    let assets = collect_assets(&options.site_src)?;
    let lock = lock_output(&options.out_dir)?;
    let global = global_hash(&options.site_src, &options.settings)
        .map_err(|source| AssetError { path: options.site_src.clone(), source })?;
    let previous = if options.incremental { Manifest::load_matching(&options.out_dir, &global) } else { None };
    let Corpus { mut models, mut inputs, reused, mut errors } =
        load_corpus_reusing(&options.models_dir, previous.as_ref()).map_err(BuildError::Models)?;
    let snippets = SnippetEngine::new();

    let base_path = url_path(&base_url);
    let site = SiteInfo {
        title: options.settings.title.clone(),
        stylesheet: format!("{base_path}{}", assets.stylesheet),
        script: assets.script.as_ref().map(|s| format!("{base_path}{s}")),
        base_path,
    };
    let staging = Staging::create(&options.out_dir, &lock)?;
    for (path, bytes) in &assets.files {
        staging.write_or_link(&options.out_dir, path, bytes)?;
    }
    let mut manifest = Manifest::new(global);
    let mut summaries = Vec::with_capacity(models.len() + reused.len());
    let mut notes = Vec::new();
    // Unchanged models keep their page: linked, not written again. One whose
    // old page went missing is rendered after all.
    let linked: Vec<(ReusedModel, bool)> = reused
        .into_par_iter()
        .map(|r| {
            let ok = link_unchanged_model(&staging, &options.out_dir, &r.id);
            (r, ok)
        })
        .collect();
    for (item, ok) in linked {
        match (item, ok) {
            (kept, true) => {
                summaries.push(kept.entry.summary.clone());
                notes.extend(kept.entry.notes.iter().cloned());
                manifest.models.insert(kept.id, kept.entry);
            }
            (lost, false) => match read_model_files(&lost.source).and_then(|files| parse_model(&lost.source, files)) {
                Ok(model) => {
                    models.push(model);
                    inputs.push(lost.entry.input);
                }
                Err(err) => errors.push(err),
            },
        }
    }

    let inference = options.settings.inference();
    let tasks = TaskCatalogue::builtin();
    progress.start(models.len() as u64);
    let outcomes = write_model_pages(&staging, &templates, &snippets, &inference, &tasks, &site, &models, progress);
    progress.finish();
    let rendered = models.len();
    for ((outcome, model), input) in outcomes?.into_iter().zip(&models).zip(inputs) {
        match outcome {
            Ok((summary, model_notes)) => {
                let entry = ModelEntry { input, summary: summary.clone(), notes: model_notes.clone() };
                manifest.models.insert(model.id.to_string(), entry);
                summaries.push(summary);
                notes.extend(model_notes);
            }
            Err(err) => errors.push(err),
        }
    }
    errors.sort_by(|a, b| a.path().cmp(b.path()));
    notes.sort();
    // Listings show the most downloaded first, as visitors expect; the id
    // breaks ties so the order depends on nothing but the input.
    summaries.sort_by(|a, b| b.downloads.cmp(&a.downloads).then_with(|| a.id.cmp(&b.id)));
    let built = summaries.len();
    let listings = Listings { staging: &staging, previous: &options.out_dir };
    write_library_pages(&listings, &templates, &site, snippets.catalogue(), &snippets, &summaries)?;
    write_task_pages(&listings, &templates, &site, &tasks, &summaries)?;
    listings.write("search-index.json", search_index_json(&summaries, &tasks, snippets.catalogue()).as_bytes())?;
    for (path, bytes) in api_listings(&summaries, &snippets, &tasks, &site) {
        listings.write(&path, &bytes)?;
    }
    write_site_pages(&listings, &templates, &site, &base_url, snippets.catalogue(), &tasks, summaries)?;
    staging.write(MANIFEST_FILE, manifest.to_json().as_bytes())?;
    staging.commit()?;
    drop(lock);
    Ok(BuildReport {
        built,
        rendered,
        errors,
        seconds: started.elapsed().as_secs_f64(),
        notes,
        has_islands: assets.script.is_some(),
    })
}

/// Where listing pages go: written into the staging folder, or linked from
/// the previous site when their bytes did not change, so a rebuild rewrites
/// only what changed.
pub struct Listings<'a> {
    staging: &'a Staging,
    previous: &'a Path,
}

impl Listings<'_> {
    pub fn write(&self, rel: &str, bytes: &[u8]) -> Result<(), OutputError> {
        self.staging.write_or_link(self.previous, rel, bytes)
    }
}

/// A model's listing entry and notes, or why it was left out.
type ModelOutcome = Result<(ModelSummary, Vec<String>), RecordError>;

/// Stages 2 to 4 for each model: generate its examples, render (and
/// highlight) its page, write it. Models run in parallel and each page is
/// written as soon as it is rendered, so memory does not grow with the site.
///
/// The outer error stops the build (templates, disk); an inner one fails only
/// that model, e.g. a record whose values no example template can use.
#[allow(clippy::too_many_arguments)] // the stage's inputs, each used once
fn write_model_pages(
    staging: &Staging,
    templates: &Templates,
    snippets: &SnippetEngine,
    inference: &InferenceSettings,
    tasks: &TaskCatalogue,
    site: &SiteInfo,
    models: &[LoadedModel],
    progress: &dyn Progress,
) -> Result<Vec<ModelOutcome>, BuildError> {
    let highlighter = Highlighter::new();
    models
        .par_iter()
        .map(|model| {
            let failed = |err: modelpages_snippets::SnippetError| {
                let path = model.source.record_path();
                Ok(Err(RecordError::Invalid { path, message: format!("usage examples: {err}") }))
            };
            let usage = match snippets.library_examples(&model.record) {
                Ok(usage) => usage,
                Err(err) => return failed(err),
            };
            let (hosted, notes) = match hosted_examples(snippets, inference, &model.record) {
                Ok(found) => found,
                Err(err) => return failed(err),
            };
            let library = usage.as_ref().map(|u| u.library);
            let examples: Vec<CodeExample> = usage
                .into_iter()
                .flat_map(|u| u.snippets)
                .map(|s| CodeExample { language: s.language.as_str(), text: s.content })
                .collect();
            let files = model_files(&ModelFilesInput {
                model,
                library,
                library_examples: &examples,
                inference: &hosted,
                local_apps: &[], // LOCAL APPS: pass the model's local-app examples here.
                site,
                hub_url: &inference.hub_url,
            });
            let page = ModelPage {
                model,
                task: model.record.task().and_then(|t| tasks.link(t, site)),
                library: library.map(|l| library_link(l, site)),
                examples,
                inference: hosted,
                notebook_url: notebook_link(&files, site),
            };
            let html = render_model_page(templates, &highlighter, site, &page)?;
            staging.write(&format!("{}/index.html", model.id), html.as_bytes())?;
            for (path, bytes) in &files {
                staging.write(path, bytes)?;
            }
            progress.advance();
            Ok(Ok((ModelSummary::of(model, site), notes)))
        })
        .collect()
}

/// Every hosted-inference example of a model, for every provider and client;
/// chat models get the streaming variant of each too, for the page's toggle.
fn hosted_examples(
    snippets: &SnippetEngine,
    settings: &InferenceSettings,
    record: &ModelRecord,
) -> Result<(Vec<InferenceExample>, Vec<String>), modelpages_snippets::SnippetError> {
    let plain = snippets.inference_examples(record, settings, &InferenceOptions::default())?;
    let chat = matches!(request_kind(record, snippets.task_table()), Some(RequestKind::Chat));
    let streamed = if chat {
        let options = InferenceOptions { streaming: true, ..InferenceOptions::default() };
        snippets.inference_examples(record, settings, &options)?.snippets
    } else {
        Vec::new()
    };
    let mut examples = Vec::with_capacity(plain.snippets.len() + streamed.len());
    for (snippet, streaming) in plain.snippets.into_iter().map(|s| (s, false)).chain(streamed.into_iter().map(|s| (s, true))) {
        examples.push(InferenceExample {
            provider: snippet.provider,
            language: snippet.language.as_str(),
            client: snippet.client,
            streaming,
            token_env: snippet.token_env,
            text: snippet.content,
        });
    }
    // Group by provider in the engine's order, keeping each provider's examples together.
    let order: Vec<String> = {
        let mut seen = Vec::new();
        for e in &examples {
            if !seen.contains(&e.provider) {
                seen.push(e.provider.clone());
            }
        }
        seen
    };
    examples.sort_by_key(|e| order.iter().position(|p| *p == e.provider));
    Ok((examples, plain.notes))
}

/// Stage 3: the pages that list models, and the files hosts and crawlers read.
fn write_site_pages(
    out: &Listings<'_>,
    templates: &Templates,
    site: &SiteInfo,
    base_url: &str,
    catalogue: &Catalogue,
    tasks: &TaskCatalogue,
    summaries: Vec<ModelSummary>,
) -> Result<(), BuildError> {
    let mut listing_paths: Vec<String> =
        catalogue.libraries().iter().map(|l| format!("libraries/{}/", l.key)).collect();
    let mut task_keys: Vec<&str> = summaries.iter().filter_map(|s| s.task.as_deref()).collect();
    task_keys.sort_unstable();
    task_keys.dedup();
    // Only known tasks have pages (see `TaskCatalogue::link`).
    listing_paths.extend(task_keys.iter().filter_map(|k| tasks.link(k, site)).map(|t| format!("tasks/{}/", t.key)));
    let pages = ["libraries/", "tasks/"]
        .into_iter()
        .chain(listing_paths.iter().map(String::as_str))
        .chain(summaries.iter().map(|s| s.url.strip_prefix(&site.base_path).unwrap_or(&s.url)));
    let sitemap = sitemap_xml(base_url, pages);
    out.write("sitemap.xml", sitemap.as_bytes())?;
    out.write("robots.txt", robots_txt(base_url).as_bytes())?;
    out.write("404.html", render_not_found_page(templates, site)?.as_bytes())?;
    let top = &summaries[..summaries.len().min(INDEX_PAGE_MODELS)];
    out.write("index.html", render_index_page(templates, site, top, summaries.len())?.as_bytes())?;
    Ok(())
}

/// Checks `--base-url` and gives it a trailing slash.
fn normalize_base_url(url: &str) -> Result<String, BuildError> {
    let bad = |why| BuildError::BaseUrl(url.to_owned(), why);
    if url.chars().any(|c| c.is_whitespace() || c.is_control() || matches!(c, '"' | '\'' | '<' | '>' | '\\')) {
        return Err(bad("must not contain spaces, quotes, angle brackets or backslashes"));
    }
    let absolute = url.starts_with("https://") || url.starts_with("http://");
    if !absolute && !url.starts_with('/') {
        return Err(bad("must start with `/`, `http://` or `https://`"));
    }
    if url.contains(['?', '#']) {
        return Err(bad("must not have a query or fragment"));
    }
    let mut url = url.to_owned();
    if !url.ends_with('/') {
        url.push('/');
    }
    Ok(url)
}

/// The path part of a normalised base URL, used to prefix links.
fn url_path(base_url: &str) -> String {
    match base_url.split_once("://") {
        Some((_, rest)) => rest.find('/').map_or("/".to_owned(), |i| rest[i..].to_owned()),
        None => base_url.to_owned(),
    }
}

/// Loads and validates every record without writing anything.
pub fn check_models(models_dir: &Path) -> Result<Corpus, RecordError> {
    load_corpus(models_dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_urls() {
        assert_eq!(normalize_base_url("/").unwrap(), "/");
        assert_eq!(normalize_base_url("/hub").unwrap(), "/hub/");
        assert_eq!(normalize_base_url("https://hub.example").unwrap(), "https://hub.example/");
        assert_eq!(url_path("https://hub.example/"), "/");
        assert_eq!(url_path("https://hub.example/models/"), "/models/");
        assert_eq!(url_path("/hub/"), "/hub/");
        for bad in ["hub", "/a b", "/\"x", "https://x/?q=1", "javascript:alert(1)"] {
            assert!(normalize_base_url(bad).is_err(), "{bad}");
        }
    }
}
