//! One model, from its files to its site files: [`process_model`] generates
//! its examples (library, hosted inference, local apps), renders and
//! highlights its page with its model-tree block, makes its API file and
//! notebook, and writes them through the build's writer (`check`'s keeps
//! nothing). Also the triage of changed models (figures alone moved: kept).

use modelpages_record::{parse_model, LoadedModel, ModelRecord, ModelSource, RecordError};
use modelpages_render::{base_refs, memory_estimate, render_model_page, CardContext, CodeExample, InferenceExample, ModelPage, TreeIndex, MARKDOWN_FILE};
use modelpages_record::ModelSummary;
use modelpages_snippets::inference::{request_kind, RequestKind};
use modelpages_snippets::{InferenceOptions, InferenceSettings, SnippetEngine};

use crate::error::BuildError;
use crate::site::Site;
use crate::pages::card_files::{card_files_state, CardFiles, CardFilesFound};
use crate::pages::libraries::library_link;
use crate::pages::listings::folders::model_stats_path;
use crate::pages::model_files::{model_files, notebook_link, ModelFilesInput};
use crate::pages::model_notes::{ignored_field_notes, silent_model_note, ExampleCounts};
use crate::pages::model_tree::{block_hash, block_of};
use crate::store::manifest::{input_hash, with_card_files, ModelEntry, ModelInput, ModelRow, StampHash};
use crate::store::plan::{stamp_with_files, ReadJob, Stamp};
use crate::store::read_ahead::{render_with_read_ahead, ReadFiles};
use crate::store::writer::SiteWriter;

/// What became of one model that had to be read.
pub(crate) enum ModelOutcome {
    /// Its page (and other files) were rendered and written; `row_changed`
    /// when its listing row is new or not what the previous build listed.
    Rendered { entry: Box<ModelEntry>, row_changed: bool },
    /// Its files were touched but show the same: nothing to render.
    /// `row_changed` when its downloads or likes moved (they are in its
    /// listing row, not in its own files).
    Unchanged { entry: Box<ModelEntry>, row_changed: bool },
    /// It was left out, with the reason; `was_listed` when the previous
    /// build listed it.
    Failed { err: RecordError, was_listed: bool },
}

/// A model's files (path in the site, contents), listing entry and notes,
/// and the files its card looked up in its folder.
pub(crate) struct RenderedModel {
    files: Vec<(String, Vec<u8>)>,
    /// The bases its record names, whether it is hidden, and the hash of
    /// the tree block its page shows.
    bases: Vec<modelpages_record::BaseRef>,
    pub(crate) hidden: bool,
    tree: crate::store::manifest::TreeHash,
    pub(crate) summary: ModelSummary,
    pub(crate) notes: Vec<String>,
    card_files: CardFilesFound,
}

/// The stamp of a model (its folder, record and card: `stamp`) and of the
/// files its card copies.
pub(crate) fn whole_stamp(stamp: StampHash, dir: &std::path::Path, card_files: &[String]) -> StampHash {
    if card_files.is_empty() {
        return stamp;
    }
    stamp_with_files(&Stamp { text: stamp, newest_ns: 0 }, dir, card_files).text
}

/// When the model's input (`input`, of the files just read; its card's
/// files looked up again) is what `entry` was rendered from, brings the
/// entry up to date without rendering: its stamp, and the downloads and
/// likes its record holds now. Then `Some(true)` if those moved.
pub(crate) fn recount_if_unchanged(entry: &mut ModelEntry, input: &ModelInput, stamp: StampHash, dir: &std::path::Path) -> Option<bool> {
    let row = &entry.row;
    let found = if row.card_files.is_empty() { String::new() } else { card_files_state(dir, &row.card_files) };
    if entry.input != with_card_files(&input.hash, &found) {
        return None;
    }
    entry.row.stamp = whole_stamp(stamp, dir, &entry.row.card_files);
    // Without figures told apart the hash covered every byte: they did not move.
    Some(input.counts.as_ref().is_some_and(|c| entry.set_counts(c.downloads, c.likes)))
}

/// The models whose files changed, sorted before anything is rendered.
pub(crate) struct Triage {
    /// Those that must be rendered (new ones, and those whose input changed).
    pub(crate) render: Vec<ReadJob>,
    /// Those whose files show what they showed (their downloads and likes
    /// aside), brought up to date: kept like unchanged models.
    pub(crate) recounted: Vec<(ModelSource, Box<ModelEntry>)>,
    /// Whether some model's downloads or likes moved.
    pub(crate) counts_moved: bool,
}

/// Reads the files of the models in `jobs` that the previous build had and
/// sorts them (see [`Triage`]). A hub's daily sync rewrites nearly every
/// record for its new figures; sorting first lets the build see how few
/// models it must render, and change the site in place.
pub(crate) fn triage(jobs: Vec<ReadJob>) -> Triage {
    let (known, new): (Vec<ReadJob>, Vec<ReadJob>) = jobs.into_iter().partition(|job| job.previous.is_some());
    // A model kept (with whether its figures moved), or the job to render it.
    type Sorted = Result<(ModelSource, Box<ModelEntry>, bool), ReadJob>;
    let sorted: Vec<Sorted> = render_with_read_ahead(known, |job, files| {
        let Ok(files) = files else { return Ok::<_, std::convert::Infallible>(Err(job)) };
        let ReadJob { source, stamp, previous } = job;
        let mut entry = previous.expect("only models the previous build had");
        let input = input_hash(&files.record, files.card.as_deref(), &source.dir);
        Ok(match recount_if_unchanged(&mut entry, &input, stamp, &source.dir) {
            Some(moved) => Ok((source, entry, moved)),
            None => Err(ReadJob { source, stamp, previous: Some(entry) }),
        })
    })
    .unwrap_or_else(|never| match never {});
    let mut triage = Triage { render: new, recounted: Vec::new(), counts_moved: false };
    for outcome in sorted {
        match outcome {
            Ok((source, entry, moved)) => {
                triage.counts_moved |= moved;
                triage.recounted.push((source, entry));
            }
            Err(job) => triage.render.push(job),
        }
    }
    triage.render.sort_by(|a, b| a.source.folder_id.cmp(&b.source.folder_id));
    triage
}

/// Renders one model that has to be read and writes its files through
/// `writer`. The outer error stops the build (templates, disk); a failed
/// model is an outcome, e.g. a record whose values no example template
/// can use. Its page shows its block of `tree` (see `model_tree`).
///
/// Models run in parallel, their files read a batch ahead (see
/// [`crate::store::read_ahead::render_with_read_ahead`]), each written as
/// soon as it is made, so memory does not grow with the site.
pub(crate) fn process_model(site: &Site, writer: &SiteWriter, job: ReadJob, files: ReadFiles, tree: &TreeIndex) -> Result<ModelOutcome, BuildError> {
    let ReadJob { source, stamp, previous } = job;
    let old_files = previous.as_ref().map(|e| e.files.clone()).unwrap_or_default();
    let old_summary = previous.as_ref().map(|e| (e.summary.clone(), e.row.hidden));
    let was_listed = previous.is_some();
    let forget_old = |writer: &SiteWriter| old_files.iter().for_each(|f| writer.remove(f));
    let files = match files {
        Ok(files) => files,
        Err(err) => {
            forget_old(writer);
            return Ok(ModelOutcome::Failed { err, was_listed });
        }
    };
    let input = input_hash(&files.record, files.card.as_deref(), &source.dir);
    if let Some(mut entry) = previous {
        let same_tree = entry.row.tree == block_hash(&block_of(tree, &source.folder_id, &entry.row));
        if same_tree && entry.files.iter().all(|f| writer.keep(f)) {
            if let Some(row_changed) = recount_if_unchanged(&mut entry, &input, stamp, &source.dir) {
                return Ok(ModelOutcome::Unchanged { entry, row_changed });
            }
        }
    }
    let model = match parse_model(&source, files) {
        Ok(model) => model,
        Err(err) => {
            forget_old(writer);
            return Ok(ModelOutcome::Failed { err, was_listed });
        }
    };
    let RenderedModel { files: pages, summary, notes, card_files, bases, hidden, tree } = match render_model(site, &model, tree)? {
        Ok(rendered) => rendered,
        Err(err) => {
            forget_old(writer);
            return Ok(ModelOutcome::Failed { err, was_listed });
        }
    };
    let row_changed = old_summary.as_ref() != Some(&(summary.clone(), hidden));
    for (rel, bytes) in &pages {
        writer.write(rel, bytes)?;
    }
    let files: Vec<String> = pages.into_iter().map(|(rel, _)| rel).collect();
    old_files.iter().filter(|f| !files.contains(f)).for_each(|f| writer.remove(f));
    let input = with_card_files(&input.hash, &card_files.state);
    let stamp = whole_stamp(stamp, &source.dir, &card_files.looked_up);
    let card_files = card_files.looked_up;
    let row = ModelRow { stamp, card_files, bases, hidden, popularity: 0, tree, notes };
    Ok(ModelOutcome::Rendered { entry: Box::new(ModelEntry::new(row, input, summary, files)), row_changed })
}

/// A model's files, listing entry and notes.
fn render_model(site: &Site, model: &LoadedModel, tree: &TreeIndex) -> Result<Result<RenderedModel, RecordError>, BuildError> {
    let failed = |err: modelpages_snippets::SnippetError| {
        let path = model.source.record_path();
        Ok(Err(RecordError::Invalid { path, message: format!("usage examples: {err}") }))
    };
    let usage = match site.snippets.library_examples(&model.record) {
        Ok(usage) => usage,
        Err(err) => return failed(err),
    };
    let (hosted, mut notes, hosted_values) = match hosted_examples(&site.snippets, &site.inference, &model.record) {
        Ok(found) => found,
        Err(err) => return failed(err),
    };
    let local = match crate::pages::gguf::local_section(&site.snippets, model) {
        Ok(local) => local,
        Err(err) => return failed(err),
    };
    notes.extend(local.notes);
    notes.extend(ignored_field_notes(model));
    let made = ExampleCounts {
        library: usage.as_ref().map_or(0, |u| u.snippets.len()),
        inference: hosted.len(),
        local_apps: local.apps.len(),
    };
    notes.extend(silent_model_note(model.id.as_str(), &model.record, &site.snippets, &made));
    let library = usage.as_ref().map(|u| u.library);
    let example_values = [usage.as_ref().map_or(&[][..], |u| &u.values), &hosted_values, &local.values].concat();
    let examples: Vec<CodeExample> = usage
        .into_iter()
        .flat_map(|u| u.snippets)
        .map(|s| CodeExample { language: s.language.as_str(), text: s.content })
        .collect();
    // The notebook and the API file, built from the same examples as the page.
    let mut files = model_files(&ModelFilesInput {
        model,
        library,
        library_examples: &examples,
        inference: &hosted,
        local_apps: &local.apps,
        site: &site.info,
        hub_url: &site.inference.hub_url,
    });
    // The card's files are copied from the model's folder as its
    // references are resolved.
    let card_files = std::sync::Arc::new(CardFiles::new(&model.source.dir, &site.inference.hub_url, model.id.as_str()));
    let card_context = CardContext {
        links: card_files.clone(),
        remote_images: site.remote_images,
        hub_url: site.inference.hub_url.clone(),
        model_id: model.id.to_string(),
    };
    // What running it takes, and the prompt its chat template makes:
    // the page and its Markdown twin show both.
    let memory = memory_estimate(&model.record, &local.files);
    let chat_prompt = modelpages_render::chat_prompt(&model.record, &local.files);
    if let Some(Err(why)) = chat_prompt.as_ref().map(|p| &p.outcome) {
        notes.push(format!("{}: chat template not rendered: {why}", model.id));
    }
    let summary = modelpages_render::model_summary(model, &site.info, &local.files, memory.as_ref());
    let bases = base_refs(&model.record);
    let tree = tree.block(model.id.as_str(), &bases);
    let page = ModelPage {
        model,
        tree: &tree,
        hub_url: &site.inference.hub_url,
        task: model.record.task().and_then(|t| site.tasks.link(t, &site.info)),
        library: library.map(|l| library_link(l, &site.info)),
        examples,
        inference: hosted,
        gguf: local.files,
        local_apps: local.apps,
        notebook_url: notebook_link(&files, &site.info),
        card_context,
        quant_variants: local.variants,
        example_values,
        stats_url: format!("{}{}", site.info.base_path, model_stats_path(model.id.as_str(), site.listings.stats_files)),
        memory: memory.as_ref(),
        chat_prompt: chat_prompt.as_ref(),
    };
    let page = render_model_page(&site.templates, &site.highlighter, &site.info, &page)?;
    notes.extend(page.notes);
    files.insert(0, (format!("{}/index.html", model.id), page.html.into_bytes()));
    files.insert(1, (format!("{}/{MARKDOWN_FILE}", model.id), page.markdown.into_bytes()));
    files.extend(page.subpages.into_iter().map(|(path, html)| (format!("{}/{path}", model.id), html.into_bytes())));
    let mut card_files = card_files.finish();
    notes.extend(card_files.notes.drain(..).map(|note| format!("{}: card: {note}", model.id)));
    files.extend(card_files.copied.drain(..).map(|(path, bytes)| (format!("{}/{path}", model.id), bytes)));
    Ok(Ok(RenderedModel {
        files,
        summary,
        notes,
        card_files,
        hidden: model.record.hidden(),
        tree: block_hash(&tree),
        bases,
    }))
}

/// Every hosted-inference example of a model, for every provider and client;
/// chat models get the streaming variant of each too, for the page's toggle.
/// Also the build-log notes and the model's values the examples quote (the
/// streamed variants quote the same).
pub(crate) fn hosted_examples(
    snippets: &SnippetEngine,
    settings: &InferenceSettings,
    record: &ModelRecord,
) -> Result<(Vec<InferenceExample>, Vec<String>, Vec<String>), modelpages_snippets::SnippetError> {
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
    Ok((examples, plain.notes, plain.values))
}

