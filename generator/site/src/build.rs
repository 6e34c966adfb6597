//! The build pipeline, top to bottom: [`build_site`] calls the stages in
//! order, each a function below it that takes plain data and gives plain
//! data back; `check` (`check.rs`) runs the same stages with a writer that
//! keeps nothing. The stages are numbered as ARCHITECTURE.md numbers them:
//!
//! 1. Set-up: [`Site::load`] (settings checked, templates and assets
//!    loaded), [`open_output`] (the output folder checked and locked, a
//!    killed build's commit finished, the change set marked running).
//! 2. Plan: [`plan`] surveys the models against the previous manifest and
//!    keeps those whose figures alone moved ([`triage`]).
//! 3. to 7. Read, parse, examples, render, write: [`open_writer`] chooses
//!    in place or a fresh staging tree, [`write_site_files`] writes the
//!    assets, the folder's marker and `llms.txt`, [`keep_unchanged`] keeps
//!    unchanged models' files, and [`render_models`] reads, renders and
//!    writes the others, rendering again those whose model-tree block was
//!    stale.
//! 8. Listings: [`write_listings`], every file that lists models, written
//!    where its key changed.
//! 9. Commit: [`SiteWriter::commit`] makes the new site the output and
//!    records its manifest.

use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use modelpages_record::{ModelSource, RecordError};
use modelpages_record::ModelSummary;
use rayon::prelude::*;

use crate::assets::AssetError;
use crate::error::BuildError;
use crate::model_renderer::{process_model, triage, ModelOutcome};
use crate::pages::listings::carried::{self, Carried, SavedListings};
use crate::pages::listings::search::SearchFiles;
use crate::pages::listings::write::{keep_listing_files, ListingCounts, ListingWrites};
use crate::pages::listings::sitemap::model_sitemaps;
use crate::pages::listings::{by_name, listing_groups, sitemap_group};
use crate::pages::llms_txt::{llms_txt, LLMS_TXT};
use crate::pages::model_tree::TreeScope;
use crate::progress::Progress;
use crate::settings::SiteSettings;
use crate::site::Site;
use crate::site_sources::DEFAULT_SITE_SOURCES;
use crate::stage_timer::StageTimer;
use crate::store::changes::{ChangeLog, PendingChanges};
use crate::store::io_pool::with_io_threads;
use crate::store::journal::{recover, Transaction};
use crate::store::manifest::{global_hash, listing_paths, ListingMemo, Manifest, ModelEntry};
use crate::store::output::{lock_output, OutputFolder, OutputLock, Staging};
use crate::store::plan::{plan_build, survey_listed, survey_models, BuildPlan, ReadJob};
use crate::store::read_ahead::render_with_read_ahead;
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
    let timer = StageTimer::from_env();
    let site = Site::load(&options.site_src, &options.settings)?;
    let output = open_output(options)?;
    let global = global_hash(&options.site_src, &options.settings)
        .map_err(|source| AssetError { path: options.site_src.clone(), source })?;
    timer.lap("global hash");
    let mut planned = plan(options, &global, &timer)?;
    let writer = open_writer(options, &output, &mut planned, &timer)?;
    write_site_files(&writer, &site, &output.site_id)?;

    let Planned { plan, previous_listings, previous_state, tree_scope, counts_moved } = planned;
    let BuildPlan { mut read, keep, stored, removed, errors } = plan;
    let mut manifest = Manifest::new(global, started_ns);
    manifest.site_id = Some(output.site_id.clone());
    // Stored models are kept as they are (in place, their files are trusted:
    // see `SiteWriter::keep`).
    manifest.stored = stored;
    // What the listings of these models keep for the next build, until the
    // listings stage (if any model's row changed) replaces it.
    manifest.listing_state = previous_state;
    let rows_changed = !removed.is_empty() || counts_moved;
    let mut models = Models { manifest, errors, rendered: 0, rows_changed, manifest_path: OutputFolder::new(&options.out_dir).manifest() };
    for (_, entry) in &removed {
        entry.files.iter().for_each(|f| writer.remove(f));
    }
    keep_unchanged(&writer, keep, &mut models.manifest, &mut read);
    timer.lap("keep unchanged");
    render_models(&site, &writer, read, &tree_scope, &mut models, &options.models_dir, progress, &timer)?;
    let notes = models.notes();
    models.manifest.site = writer.site_identity(&options.out_dir);
    timer.lap("notes");
    let listing_counts = write_listings(&site, &writer, &mut models, previous_listings, &timer)?;
    timer.lap("listings");

    let Output { mut pending, lock, .. } = output;
    pending.commit_begins();
    let changes = writer.commit(&options.out_dir, &models.manifest)?;
    pending.finish(changes)?;
    let Models { manifest, mut errors, rendered, .. } = models;
    let built = manifest.len();
    timer.lap("commit");
    drop(lock);
    errors.sort_by(|a, b| a.path().cmp(b.path()));
    let has_islands = site.assets.script.is_some();
    // Freeing 100,000 entries one by one takes a tenth of a one-model
    // rebuild at hub scale, and the templates' compiled form a little
    // more: nothing waits for either.
    std::thread::spawn(move || drop((manifest, site)));
    Ok(BuildReport {
        built,
        rendered,
        errors,
        seconds: started.elapsed().as_secs_f64(),
        notes,
        has_islands,
        listing_files: listing_counts,
    })
}

/// The output folder, held for the length of a build.
struct Output {
    /// The site's identity, kept from build to build (see `site_folder`).
    site_id: String,
    lock: OutputLock,
    /// Marked `running` until this build records what it changed; marked
    /// `failed` if it stops before its commit (see `changes`).
    pending: PendingChanges,
}

/// Stage 1, set-up: refuses an output folder that is not new, empty or a site this
/// program built, or that is one of the build's inputs (before anything is
/// created in it); takes the lock beside it; finishes a build that was
/// killed after its commit point, so the manifest read next describes the
/// site on disk.
fn open_output(options: &BuildOptions) -> Result<Output, BuildError> {
    let out = &options.out_dir;
    let site_there = check_output(out, &options.models_dir, &options.site_src, options.settings_file.as_deref())?;
    // A new or empty folder, or a site from before sites had an identity,
    // gets a new one.
    let site_id = site_there.unwrap_or_else(|| new_site_id(out));
    let lock = lock_output(out)?;
    recover(out, &lock)?;
    let pending = PendingChanges::begin(out, &lock)?;
    Ok(Output { site_id, lock, pending })
}

/// What the build will do, with what it keeps of the previous build.
struct Planned {
    plan: BuildPlan,
    /// The keys of the previous site's listing files, when it is reused.
    previous_listings: Option<ListingMemo>,
    /// What the previous build's listings kept (see `Manifest::listing_state`).
    previous_state: Option<Vec<u8>>,
    /// How much of the model tree the build works with.
    tree_scope: TreeScope,
    /// Whether some kept model's downloads or likes moved.
    counts_moved: bool,
}

/// Stage 2, plan: surveys the models folder (or only the models named by
/// `--changed`) against the previous build's manifest, then sorts the
/// models to read: those whose records changed only in their downloads and
/// likes are kept, brought up to date, and never rendered.
fn plan(options: &BuildOptions, global: &str, timer: &StageTimer) -> Result<Planned, BuildError> {
    let out = &options.out_dir;
    // The manifest is read while the models folder is surveyed: at hub scale
    // each takes a fair part of a one-model rebuild.
    let load_previous = || if options.incremental { Manifest::load_matching(out, global) } else { None };
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
    let previous_listings = previous.as_mut().map(|m| std::mem::take(&mut m.listings));
    let previous_state = previous.as_mut().and_then(|m| m.listing_state.take());
    let mut plan = plan_build(survey.map_err(BuildError::Models)?, previous).map_err(|source| manifest_error(out, source))?;
    timer.lap("survey, manifest");
    // A build that reads few models checks only the parts of the model
    // tree they reach (see `model_tree`); models whose figures alone moved
    // count, as their popularity ranks them in their bases' trees.
    let few = previous_listings.is_some() && plan.is_small_change();
    let tree_scope = TreeScope::new(few, &plan.read, &plan.removed);
    let triage = triage(std::mem::take(&mut plan.read));
    plan.read = triage.render;
    plan.keep.extend(triage.recounted);
    timer.lap_detail("triage", &format!(" ({} to render)", plan.read.len()));
    Ok(Planned { plan, previous_listings, previous_state, tree_scope, counts_moved: triage.counts_moved })
}

/// Stage 7, write, chosen before any model is read: changes the site in place when the change is small and the
/// site on disk whole (pages deleted by hand are found missing by a fresh
/// tree, which renders them again); otherwise stages a fresh tree.
fn open_writer(options: &BuildOptions, output: &Output, planned: &mut Planned, timer: &StageTimer) -> Result<SiteWriter, BuildError> {
    let out = &options.out_dir;
    let log = ChangeLog::new(out, output.pending.wants_paths());
    let in_place = match &planned.previous_listings {
        Some(listings) if planned.plan.is_small_change() => {
            let (paths, count) = listing_paths(listings);
            let missing = missing_from_site(out, &planned.plan, ExactLen(paths, count));
            if let Some(missing) = &missing {
                timer.note(&format!("{missing:?} is missing from the site: a fresh tree is built"));
            }
            missing.is_none()
        }
        _ => false,
    };
    if in_place {
        return Ok(SiteWriter::in_place(Transaction::begin(out, &output.lock)?, log));
    }
    // A fresh site links every kept model's files: it needs their entries.
    planned.plan.decode_stored(&options.models_dir).map_err(|source| manifest_error(out, source))?;
    Ok(SiteWriter::fresh(Staging::create(out, &output.lock)?, out.clone(), log))
}

/// Stage 7, write: the files every site has whatever its models: the hashed
/// assets, the marker that says this program built the folder, `llms.txt`.
fn write_site_files(writer: &SiteWriter, site: &Site, site_id: &str) -> Result<(), BuildError> {
    for (path, bytes) in &site.assets.files {
        writer.write_listing(path, bytes)?;
    }
    writer.write_listing(MARKER, marker_text(site_id).as_bytes())?;
    writer.write_listing(LLMS_TXT, llms_txt(&site.info.title, site.base_url.as_str()).as_bytes())?;
    Ok(())
}

/// The models of the site being built, as the stages leave them.
pub(crate) struct Models {
    /// Every model built, by id: the next build's manifest.
    pub(crate) manifest: Manifest,
    /// One error per model left out.
    pub(crate) errors: Vec<RecordError>,
    /// How many models were rendered (the rest were reused).
    pub(crate) rendered: usize,
    /// Whether any model's listing row changed, appeared or went: if not,
    /// every listing file stays as it is.
    pub(crate) rows_changed: bool,
    /// Where the previous manifest is, for errors decoding the rest of it.
    pub(crate) manifest_path: PathBuf,
}

impl Models {
    /// What was left out of pages and why, sorted.
    pub(crate) fn notes(&self) -> Vec<String> {
        let mut notes: Vec<String> = self.manifest.rows().flat_map(|(_, row)| row.notes.iter().cloned()).collect();
        notes.sort();
        notes
    }

    /// Puts what became of the models read into the manifest and errors.
    /// Returns how many were rendered.
    fn absorb(&mut self, outcomes: Vec<(String, ModelOutcome)>) -> usize {
        let mut rendered = 0;
        for (id, outcome) in outcomes {
            match outcome {
                ModelOutcome::Rendered { entry, row_changed } => {
                    rendered += 1;
                    self.rows_changed |= row_changed;
                    self.manifest.models.insert(id, entry);
                }
                ModelOutcome::Unchanged { entry, row_changed } => {
                    self.rows_changed |= row_changed;
                    self.manifest.models.insert(id, entry);
                }
                ModelOutcome::Failed { err, was_listed } => {
                    self.rows_changed |= was_listed;
                    self.errors.push(err);
                }
            }
        }
        rendered
    }
}

/// Stages 3 to 7 for models unchanged: they keep their files; one whose files went
/// missing is read and rendered after all (with its entry, so files it no
/// longer writes are removed).
fn keep_unchanged(writer: &SiteWriter, keep: Vec<(ModelSource, Box<ModelEntry>)>, manifest: &mut Manifest, read: &mut Vec<ReadJob>) {
    let kept: Vec<_> = with_io_threads(|| {
        keep.into_par_iter()
            .map(|(source, entry)| {
                let whole = entry.files.iter().all(|f| writer.keep(f));
                (source, entry, whole)
            })
            .collect()
    });
    for (source, entry, whole) in kept {
        if whole {
            manifest.models.insert(source.folder_id, entry);
        } else {
            read.push(ReadJob { stamp: entry.row.stamp, source, previous: Some(entry) });
        }
    }
}

/// Stages 3 to 7: reads, renders and writes every model in `read`. Pages are
/// first rendered with the tree of the previous build (the kept models and
/// the previous entries of those read again); then models whose pages show
/// another block than the final tree gives them are rendered again.
#[allow(clippy::too_many_arguments)]
pub(crate) fn render_models(
    site: &Site,
    writer: &SiteWriter,
    read: Vec<ReadJob>,
    tree_scope: &TreeScope,
    models: &mut Models,
    models_dir: &Path,
    progress: &dyn Progress,
    timer: &StageTimer,
) -> Result<(), BuildError> {
    let first_tree = tree_scope.first_tree(&models.manifest, &read);
    progress.start(read.len() as u64);
    let mut outcomes = render_with_read_ahead(read, |job, files| {
        let id = job.source.folder_id.clone();
        let outcome = process_model(site, writer, job, files, &first_tree);
        progress.advance();
        outcome.map(|o| (id, o))
    })?;
    progress.finish();
    timer.lap("render");
    let mut passes = 0;
    loop {
        models.rendered += models.absorb(std::mem::take(&mut outcomes));
        let (stale, tree) = tree_scope.stale(&models.manifest);
        // One pass settles it (a page's block depends on the others'
        // records, not on their pages); the bound only guards the loop.
        if stale.is_empty() || passes == 2 {
            break;
        }
        passes += 1;
        let mut jobs: Vec<ReadJob> = Vec::with_capacity(stale.len());
        for id in stale {
            let taken = models.manifest.take(&id).map_err(|source| BuildError::Manifest { path: models.manifest_path.clone(), source })?;
            if let Some(entry) = taken {
                let source = ModelSource { dir: models_dir.join(&id), folder_id: id };
                jobs.push(ReadJob { stamp: entry.row.stamp, source, previous: Some(entry) });
            }
        }
        // Counted once: the first pass may have counted them already.
        models.rendered = models.rendered.saturating_sub(jobs.len());
        outcomes = render_with_read_ahead(jobs, |job, files| {
            let id = job.source.folder_id.clone();
            process_model(site, writer, job, files, &tree).map(|o| (id, o))
        })?;
    }
    timer.lap("model tree");
    Ok(())
}

/// Stage 8, listings: every file that lists models, made from the models' listing
/// rows and written where its key changed (see [`crate::pages::listings`]).
/// Records the keys in the manifest. `previous`: the keys of the site being
/// replaced or changed, if this build may reuse its files.
pub(crate) fn write_listings(
    site: &Site,
    writer: &SiteWriter,
    models: &mut Models,
    previous: Option<ListingMemo>,
    timer: &StageTimer,
) -> Result<ListingCounts, BuildError> {
    // No model's listing row changed: every listing file stays (and the
    // million rows need not even be sorted).
    let previous = match previous {
        Some(previous) if !models.rows_changed => {
            if keep_listing_files(writer, &previous) {
                let counts = ListingCounts { kept: listing_paths(&previous).1, ..ListingCounts::default() };
                models.manifest.listings = previous;
                return Ok(counts);
            }
            Some(previous)
        }
        previous => previous,
    };
    let saved = models.manifest.listing_state.take();
    let manifest = &models.manifest;
    // The stored models' rows are decoded beside their chunks, which the
    // next manifest copies as they are; what the previous build saved of
    // its listings is read meanwhile.
    let (stored, saved_listings) = rayon::join(|| manifest.stored.summaries(), || saved.as_deref().and_then(SavedListings::read));
    let stored = stored.map_err(|source| BuildError::Manifest { path: models.manifest_path.clone(), source })?;
    timer.lap("summaries decoded");
    // Each row with whether its model is hidden and whether the row may
    // have changed since the previous build (it is not stored as it was).
    let mut with_pages: Vec<(&ModelSummary, bool, bool)> = manifest
        .models
        .values()
        .map(|e| (&e.summary, e.row.hidden, true))
        .chain(stored.iter().flatten().map(|(s, hidden)| (s, *hidden, false)))
        .collect();
    // The stored chunks come nearly by name (each sorted by id, one after
    // another, with the few models read anew before them): a sort that
    // merges the runs it finds does little work where quicksort did it all.
    with_pages.par_sort_by(|a, b| by_name(a.0, b.0));
    // Hidden models (test fixtures) have pages, and stats, but no place in
    // any listing.
    let (listed, fresh): (Vec<&ModelSummary>, Vec<bool>) =
        with_pages.iter().filter(|(_, hidden, _)| !hidden).map(|(s, _, fresh)| (*s, *fresh)).unzip();
    let with_pages: Vec<&ModelSummary> = with_pages.into_iter().map(|(s, _, _)| s).collect();
    timer.lap("summaries");
    // The previous build's listings matched to these models, when few changed.
    let carried = saved_listings.and_then(|saved| Carried::open(saved, &listed, &fresh));
    timer.lap_detail("listings matched", if carried.is_some() { " (carried on)" } else { " (nothing carried on)" });
    let input = site.listing_input(&listed);
    // Each timed on its own: they run side by side.
    let cap = site.listings.shard_models;
    let (((groups, groups_carried), groups_s), (((index, carried_on), index_s), (mut search, search_s))) = rayon::join(
        || seconds(|| carried::groups(carried.as_ref(), &listed, &input.catalogues())),
        || {
            let ((index, changes), index_s) = seconds(|| carried::word_index(carried.as_ref(), &listed));
            let carried_on = changes.is_some();
            let search = seconds(|| {
                let trie = carried::search_trie(carried.as_ref(), cap, changes.as_ref());
                SearchFiles::build(&listed, &index, &site.listings, trie.as_ref())
            });
            (((index, carried_on), index_s), search)
        },
    );
    drop(carried);
    drop(saved);
    let how = |carried_on: bool| if carried_on { "carried on" } else { "made afresh" };
    let nodes = (search.tree().carried, search.tree().shards.len());
    timer.lap_detail(
        "listing groups, search index",
        &format!(
            " (groups {} {groups_s:.3} s; word index {} {index_s:.3} s, trie {search_s:.3} s, {} of {} nodes carried on)",
            how(groups_carried),
            how(carried_on),
            nodes.0,
            nodes.1
        ),
    );
    // The word files' keys are made before the files, so that the next
    // build may carry them on with the trie.
    search.key_files(&listed, &groups);
    let mut writes = ListingWrites::new(writer, previous);
    let all = listing_groups(&input, &groups, &search, std::sync::Arc::new(with_pages));
    timer.lap_detail("group prints, word files keyed", &format!(" ({} groups)", all.len()));
    // What the next build carries on is encoded, and the model pages'
    // sitemaps cut, while the files are written.
    let (written, (state, model_sitemaps)) =
        rayon::join(|| writes.write(all), || rayon::join(|| carried::save(&listed, &groups, &index, search.tree(), cap), || model_sitemaps(&input, &groups)));
    written?;
    drop(index);
    writes.write(vec![sitemap_group(&input, writes.paths(), model_sitemaps)])?;
    let (memo, counts) = writes.finish();
    timer.lap_detail("listing files", &format!(" ({} written, {} kept, {} removed)", counts.written, counts.kept, counts.removed));
    drop((groups, search));
    drop(listed);
    // A million decoded rows are freed while the build commits.
    std::thread::spawn(move || drop(stored));
    models.manifest.listings = memo;
    models.manifest.listing_state = Some(state);
    Ok(counts)
}

/// What `work` gives, and how many seconds it took.
fn seconds<T>(work: impl FnOnce() -> T) -> (T, f64) {
    let started = Instant::now();
    let made = work();
    (made, started.elapsed().as_secs_f64())
}

/// An error decoding the previous build's manifest past its start.
fn manifest_error(out: &Path, source: std::io::Error) -> BuildError {
    BuildError::Manifest { path: OutputFolder::new(out).manifest(), source }
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

