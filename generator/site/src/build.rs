//! The build pipeline, top to bottom: load records, render pages, write the
//! site. Each stage lives in its own module and passes plain data on.

use std::path::PathBuf;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use modelpages_record::{parse_model, ModelSource, RecordError};
use modelpages_render::{ModelSummary, SiteInfo, Templates, TreeIndex};
use rayon::prelude::*;

use crate::assets::{collect_assets, AssetError, Assets};
use crate::error::BuildError;
use crate::model_renderer::{triage, ModelOutcome, ModelRenderer};
use crate::pages::listings::search::SearchFiles;
use crate::pages::listings::write::{keep_listing_files, write_listing_files, ListingCounts};
use crate::pages::listings::{by_name, listing_files, Groups, ListingInput};
use crate::pages::model_tree::TreeScope;
use crate::progress::Progress;
use crate::settings::SiteSettings;
use crate::site_sources::{SiteSources, DEFAULT_SITE_SOURCES};
use crate::stage_timer::StageTimer;
use crate::store::changes::{ChangeLog, PendingChanges};
use crate::store::io_pool::with_io_threads;
use crate::store::journal::{recover, Transaction};
use crate::store::manifest::{global_hash, ListingKeys, Manifest};
use crate::store::output::{lock_output, OutputFolder, Staging};
use crate::store::plan::{plan_build, survey_listed, survey_models, BuildPlan, ReadJob};
use crate::store::read_ahead::render_with_read_ahead;
use crate::pages::llms_txt::{llms_txt, LLMS_TXT};
use crate::store::site_folder::{check_output, marker_text, missing_from_site, new_site_id, MARKER};
use crate::store::writer::SiteWriter;

/// What to build and where.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    pub models_dir: PathBuf,
    pub out_dir: PathBuf,
    /// Templates, styles and the island bundle.
    pub site_src: PathBuf,
    /// Title, base URL, router and hub URLs (`modelpages.toml`).
    pub settings: SiteSettings,
    /// The file `settings` came from, if any: the output may not hold it.
    pub settings_file: Option<PathBuf>,
    /// Reuse the pages of models whose files did not change since the build
    /// already in `out_dir` (when it was built by this program with the same
    /// site sources and settings).
    pub incremental: bool,
    /// The models that changed since the site in `out_dir` was built, when
    /// the caller knows (see `changed_list`): only their folders are looked
    /// at. `None`: every model folder is.
    pub changed: Option<Vec<String>>,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            models_dir: "models".into(),
            out_dir: "dist".into(),
            site_src: DEFAULT_SITE_SOURCES.into(),
            settings: SiteSettings::default(),
            settings_file: None,
            incremental: true,
            changed: None,
        }
    }
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
    /// Listing files (listing pages, sitemaps, API listings, search files)
    /// written, kept unchanged and removed.
    pub listing_files: ListingCounts,
}

/// Builds the whole site into `options.out_dir`. Readers see the previous
/// site until the new one is complete (see [`SiteWriter`]).
pub fn build_site(options: &BuildOptions, progress: &dyn Progress) -> Result<BuildReport, BuildError> {
    let started = Instant::now();
    let started_ns = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let base_url = normalize_base_url(&options.settings.base_url)?;
    let templates = Templates::load(&SiteSources::new(&options.site_src).templates())?;
    let assets = collect_assets(&options.site_src)?;
    let out = &options.out_dir;
    // Before anything is created: a folder of other files, or one of the
    // build's inputs, is never the output (see `site_folder`).
    let site_there = check_output(out, &options.models_dir, &options.site_src, options.settings_file.as_deref())?;
    // The site keeps its identity from build to build; a new or empty
    // folder, or a site from before sites had one, gets a new one.
    let site_id = site_there.unwrap_or_else(|| new_site_id(out));
    let lock = lock_output(out)?;
    // A build killed after committing its change is finished first, so the
    // manifest read next describes the site on disk.
    recover(out, &lock)?;
    // Marked `running` until this build records what it changed; marked
    // `failed` if it stops before its commit (see `changes`).
    let mut pending = PendingChanges::begin(out, &lock)?;
    let timer = StageTimer::from_env();
    let global = global_hash(&options.site_src, &options.settings)
        .map_err(|source| AssetError { path: options.site_src.clone(), source })?;
    timer.lap("global hash");
    // The manifest is read while the models folder is surveyed: at hub scale
    // each takes a fair part of a one-model rebuild.
    let load_previous = || if options.incremental { Manifest::load_matching(out, &global) } else { None };
    let (mut previous, survey) = match &options.changed {
        None => rayon::join(load_previous, || survey_models(&options.models_dir)),
        Some(ids) => {
            let previous = load_previous();
            let listed = previous.as_ref().and_then(|m| survey_listed(&options.models_dir, ids, m));
            if listed.is_none() {
                timer.note("the changed list cannot be used alone (no previous build, more than a thousand models, a name that is no model, or an added model that breaks a layout rule): every model folder is surveyed");
            }
            let survey = listed.map_or_else(|| survey_models(&options.models_dir), Ok);
            (previous, survey)
        }
    };
    let had_previous = previous.is_some();
    let mut previous_listings: Option<ListingKeys> = previous.as_mut().map(|m| std::mem::take(&mut m.listings));
    let manifest_error = |source| BuildError::Manifest { path: OutputFolder::new(out).manifest(), source };
    let mut plan = plan_build(survey.map_err(BuildError::Models)?, previous).map_err(manifest_error)?;
    timer.lap("survey, manifest");
    // A build that reads few models checks only the parts of the model
    // tree they reach (see `model_tree`); models whose figures alone moved
    // count, as their popularity ranks them in their bases' trees.
    let tree_scope = TreeScope::new(had_previous && plan.is_small_change(), &plan.read, &plan.removed);
    // Models whose records changed only in their downloads and likes are
    // kept, brought up to date: only the files that show figures change.
    let triage = triage(std::mem::take(&mut plan.read));
    plan.read = triage.render;
    plan.keep.extend(triage.recounted);
    timer.lap_detail("triage", &format!(" ({} to render)", plan.read.len()));
    // In place only on a site that is whole: pages deleted by hand are
    // found missing by a fresh tree, which renders them again.
    let listed = previous_listings.iter().flat_map(|l| l.keys().map(String::as_str));
    let whole = |plan: &BuildPlan| {
        let missing = missing_from_site(out, plan, ExactLen(listed, previous_listings.as_ref().map_or(0, |l| l.len())));
        if let Some(missing) = &missing {
            timer.note(&format!("{missing:?} is missing from the site: a fresh tree is built"));
        }
        missing.is_none()
    };
    let log = ChangeLog::new(out, pending.wants_paths());
    let writer = if had_previous && plan.is_small_change() && whole(&plan) {
        SiteWriter::in_place(Transaction::begin(out, &lock)?, log)
    } else {
        // A fresh site links every kept model's files: it needs their entries.
        plan.decode_stored(&options.models_dir).map_err(manifest_error)?;
        SiteWriter::fresh(Staging::create(out, &lock)?, out.clone(), log)
    };

    let site = site_info(&options.settings, &base_url, &assets);
    for (path, bytes) in &assets.files {
        writer.write_listing(path, bytes)?;
    }
    writer.write_listing(MARKER, marker_text(&site_id).as_bytes())?;
    writer.write_listing(LLMS_TXT, llms_txt(&site.title, &base_url).as_bytes())?;
    let BuildPlan { mut read, keep, stored, removed, mut errors } = plan;
    // Whether any model's listing row (its summary) changed, appeared or
    // went: if not, every listing file stays as it is.
    let mut rows_changed = !removed.is_empty() || triage.counts_moved;
    for (_, entry) in &removed {
        entry.files.iter().for_each(|f| writer.remove(f));
    }
    let mut manifest = Manifest::new(global, started_ns);
    manifest.site_id = Some(site_id);
    // Stored models are kept as they are (in place, their files are trusted:
    // see `SiteWriter::keep`).
    manifest.stored = stored;
    // Unchanged models keep their files; one whose files went missing is
    // read and rendered after all (with its entry, so files it no longer
    // writes are removed).
    let kept: Vec<_> = with_io_threads(|| {
        keep.into_par_iter().map(|(source, entry)| {
            let whole = entry.files.iter().all(|f| writer.keep(f));
            (source, entry, whole)
        }).collect()
    });
    for (source, entry, whole) in kept {
        if whole {
            manifest.models.insert(source.folder_id, entry);
        } else {
            read.push(ReadJob { stamp: entry.row.stamp, source, previous: Some(entry) });
        }
    }

    timer.lap("keep unchanged");
    // Pages are first rendered with the tree of the previous build (the
    // kept models and the previous entries of those read again); the
    // second pass below renders again those whose block changed.
    let first_tree = tree_scope.first_tree(&manifest, &read);
    let renderer = ModelRenderer::new(&templates, &site, &options.settings);
    progress.start(read.len() as u64);
    let outcomes: Vec<(String, ModelOutcome)> = render_with_read_ahead(read, |job, files| {
        let id = job.source.folder_id.clone();
        let outcome = renderer.process(&writer, job, files, &first_tree);
        progress.advance();
        outcome.map(|o| (id, o))
    })?;
    progress.finish();
    timer.lap("render");
    let mut rendered = 0;
    let mut outcomes = outcomes;
    // The model tree across the corpus: models whose pages show another
    // block than the final one are rendered again (see `model_tree`).
    let mut passes = 0;
    loop {
        rendered += absorb_outcomes(std::mem::take(&mut outcomes), &mut manifest, &mut errors, &mut rows_changed);
        let (stale, tree) = tree_scope.stale(&manifest);
        // One pass settles it (a page's block depends on the others'
        // records, not on their pages); the bound only guards the loop.
        if stale.is_empty() || passes == 2 {
            break;
        }
        passes += 1;
        let mut jobs: Vec<ReadJob> = Vec::with_capacity(stale.len());
        for id in stale {
            if let Some(entry) = manifest.take(&id).map_err(manifest_error)? {
                let source = ModelSource { dir: options.models_dir.join(&id), folder_id: id };
                jobs.push(ReadJob { stamp: entry.row.stamp, source, previous: Some(entry) });
            }
        }
        // Counted once: the first pass may have counted them already.
        rendered = rendered.saturating_sub(jobs.len());
        outcomes = render_with_read_ahead(jobs, |job, files| {
            let id = job.source.folder_id.clone();
            renderer.process(&writer, job, files, &tree).map(|o| (id, o))
        })?;
    }
    timer.lap("model tree");
    let mut notes: Vec<String> = manifest.rows().flat_map(|(_, row)| row.notes.iter().cloned()).collect();
    notes.sort();
    errors.sort_by(|a, b| a.path().cmp(b.path()));
    manifest.site = writer.site_identity(out);
    let built = manifest.len();
    timer.lap("notes");
    let listings = (|| {
        // No model's listing row changed: every listing file stays (and
        // the million rows need not even be sorted).
        if !rows_changed {
            if let Some(previous) = previous_listings.take() {
                if keep_listing_files(&writer, &previous) {
                    let counts = ListingCounts { kept: previous.len(), ..ListingCounts::default() };
                    return Ok((previous, counts));
                }
                previous_listings = Some(previous);
            }
        }
        // Listings take models by name, which depends on nothing but the
        // input. Hidden models (test fixtures) have pages, and stats, but
        // no place in any listing.
        manifest.decode_all().map_err(manifest_error)?;
        let mut with_pages: Vec<&ModelSummary> = manifest.models.values().map(|e| &e.summary).collect();
        with_pages.par_sort_unstable_by(|a, b| by_name(a, b));
        let summaries: Vec<&ModelSummary> = manifest.models.values().filter(|e| !e.row.hidden).map(|e| &e.summary).collect();
        let mut summaries = summaries;
        summaries.par_sort_unstable_by(|a, b| by_name(a, b));
        timer.lap("summaries");
        write_listings(&renderer, &writer, &base_url, &options.settings, (&summaries, with_pages), previous_listings.as_ref(), &timer)
    })();
    let (listing_keys, listing_counts) = listings?;
    manifest.listings = listing_keys;
    timer.lap("listings");
    drop(renderer);
    pending.commit_begins();
    let changes = writer.commit(out, &manifest)?;
    pending.finish(changes)?;
    // Freeing 100,000 entries one by one takes a tenth of a one-model
    // rebuild at hub scale, and nothing waits for it.
    std::thread::spawn(move || drop(manifest));
    timer.lap("commit");
    drop(lock);
    Ok(BuildReport {
        built,
        rendered,
        errors,
        seconds: started.elapsed().as_secs_f64(),
        notes,
        has_islands: assets.script.is_some(),
        listing_files: listing_counts,
    })
}

/// Puts what became of the models read into `manifest` and `errors`;
/// `rows_changed` when a listing row changed. Returns how many were rendered.
fn absorb_outcomes(
    outcomes: Vec<(String, ModelOutcome)>,
    manifest: &mut Manifest,
    errors: &mut Vec<RecordError>,
    rows_changed: &mut bool,
) -> usize {
    let mut rendered = 0;
    for (id, outcome) in outcomes {
        match outcome {
            ModelOutcome::Rendered { entry, row_changed } => {
                rendered += 1;
                *rows_changed |= row_changed;
                manifest.models.insert(id, entry);
            }
            ModelOutcome::Unchanged { entry, row_changed } => {
                *rows_changed |= row_changed;
                manifest.models.insert(id, entry);
            }
            ModelOutcome::Failed { err, was_listed } => {
                *rows_changed |= was_listed;
                errors.push(err);
            }
        }
    }
    rendered
}

/// An iterator whose length is known beforehand.
struct ExactLen<I>(I, usize);

impl<I: Iterator> Iterator for ExactLen<I> {
    type Item = I::Item;
    fn next(&mut self) -> Option<I::Item> {
        self.0.next()
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.1, Some(self.1))
    }
}

impl<I: Iterator> ExactSizeIterator for ExactLen<I> {}

/// The listings stage: every file that lists models, made from the models' listing
/// rows and written where its key changed (see [`crate::pages::listings`]).
fn write_listings(
    renderer: &ModelRenderer<'_>,
    writer: &SiteWriter,
    base_url: &str,
    settings: &SiteSettings,
    (summaries, with_pages): (&[&ModelSummary], Vec<&ModelSummary>),
    previous: Option<&ListingKeys>,
    timer: &StageTimer,
) -> Result<(ListingKeys, ListingCounts), BuildError> {
    let input = ListingInput {
        models: summaries,
        templates: renderer.templates,
        site: renderer.site,
        base_url,
        settings: &settings.listings,
        tasks: &renderer.tasks,
        snippets: &renderer.snippets,
    };
    let (groups, search) = rayon::join(|| Groups::of(&input), || SearchFiles::build(summaries, &settings.listings));
    timer.lap("listing groups, search index");
    let files = listing_files(&input, &groups, &search, std::sync::Arc::new(with_pages));
    let count = files.len();
    timer.lap_detail("listing keys", &format!(" ({count} files)"));
    let (keys, counts) = write_listing_files(writer, files, previous)?;
    timer.lap_detail("listing writes", &format!(" ({} written, {} kept, {} removed)", counts.written, counts.kept, counts.removed));
    Ok((keys, counts))
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

/// The site's own paths and title, as every page needs them.
fn site_info(settings: &SiteSettings, base_url: &str, assets: &Assets) -> SiteInfo {
    let base_path = url_path(base_url);
    SiteInfo {
        title: settings.title.clone(),
        stylesheet: format!("{base_path}{}", assets.stylesheet),
        script: assets.script.as_ref().map(|s| format!("{base_path}{s}")),
        base_path,
    }
}

/// What `modelpages check` reads: a build's inputs, without an output.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    pub models_dir: PathBuf,
    pub site_src: PathBuf,
    pub settings: SiteSettings,
}

/// What a check found: as a build of the same inputs would report it.
#[derive(Debug, Default)]
pub struct CheckReport {
    /// Models that would be built.
    pub built: usize,
    /// One error per model that would be left out, sorted by path.
    pub errors: Vec<RecordError>,
    /// The notes a build would print, sorted.
    pub notes: Vec<String>,
}

/// Runs everything a full build runs except writing: the same survey and
/// layout checks, the same reading and parsing, every model's examples,
/// page, API file and notebook, and every listing file, all made in
/// memory and dropped. So a model a build would leave out is reported here
/// too, with the same error.
pub fn check_models(options: &CheckOptions) -> Result<CheckReport, BuildError> {
    let base_url = normalize_base_url(&options.settings.base_url)?;
    let templates = Templates::load(&SiteSources::new(&options.site_src).templates())?;
    let assets = collect_assets(&options.site_src)?;
    let site = site_info(&options.settings, &base_url, &assets);
    let survey = survey_models(&options.models_dir).map_err(BuildError::Models)?;
    let BuildPlan { read, mut errors, .. } = plan_build(survey, None).expect("no manifest, nothing to decode");
    let renderer = ModelRenderer::new(&templates, &site, &options.settings);
    let outcomes = render_with_read_ahead(read, |job, files| {
        let made = files.and_then(|files| parse_model(&job.source, files)).map(|model| renderer.render(&model, &TreeIndex::default()));
        match made {
            Err(err) | Ok(Ok(Err(err))) => Ok(Err(err)),
            Ok(Ok(Ok(model))) => Ok(Ok((model.summary, model.hidden, model.notes))),
            Ok(Err(stop)) => Err(stop),
        }
    })?;
    let mut report = CheckReport::default();
    let mut summaries = Vec::new();
    for outcome in outcomes {
        match outcome {
            Ok((summary, hidden, notes)) => {
                summaries.push((summary, hidden));
                report.notes.extend(notes);
            }
            Err(err) => errors.push(err),
        }
    }
    summaries.sort_by(|a, b| by_name(&a.0, &b.0));
    // Every listing file (home, 404, task, library and namespace pages,
    // search, sitemaps, API listings, stats) made as the build makes it.
    let with_pages: Vec<&ModelSummary> = summaries.iter().map(|(s, _)| s).collect();
    let listed: Vec<&ModelSummary> = summaries.iter().filter(|(_, hidden)| !hidden).map(|(s, _)| s).collect();
    let input = ListingInput {
        models: &listed,
        templates: &templates,
        site: &site,
        base_url: &base_url,
        settings: &options.settings.listings,
        tasks: &renderer.tasks,
        snippets: &renderer.snippets,
    };
    let groups = Groups::of(&input);
    let search = SearchFiles::build(&listed, &options.settings.listings);
    listing_files(&input, &groups, &search, std::sync::Arc::new(with_pages)).par_iter().try_for_each(|file| (file.render)().map(drop))?;
    errors.sort_by(|a, b| a.path().cmp(b.path()));
    report.notes.sort();
    report.built = summaries.len();
    report.errors = errors;
    Ok(report)
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
